/* rec_jfr_types.c: see rec_jfr_types.h. The JDK's types are described as
 * its own metadata describes them (names, field order, annotations), so
 * `jfr print` and JDK Mission Control show our events as theirs. */
#include "rec_jfr_types.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum field_flags { F_POOL = 1, F_ARRAY = 2 };
/* what a field's annotations say of its value */
enum field_unit { U_NONE, U_TICKS_AT, U_TICKS, U_MILLIS, U_ADDRESS, U_UNSIGNED_TICKS, U_UNSIGNED };

struct field_def {
	const char *name;
	unsigned type;
	unsigned flags;
	enum field_unit unit;
	const char *label;
	const char *description;
};

struct class_def {
	unsigned id;
	const char *name;
	const char *super;         /* "jdk.jfr.Event", an annotation's, or NULL */
	bool simple;               /* a pool type with one field (Symbol, FrameType) */
	bool content_type;         /* an annotation that says how a value reads */
	const char *label;
	const char *description;
	const char *category[2];
	const struct field_def *fields;
	size_t nfields;
};

#define EVENT "jdk.jfr.Event"
#define ANNOTATION "java.lang.annotation.Annotation"
#define FIELDS(a) a, sizeof(a) / sizeof((a)[0])

/* The first fields of events, in the JDK's order. */
#define START_TIME { "startTime", JFR_C_LONG, 0, U_TICKS_AT, "Start Time", NULL }
#define DURATION { "duration", JFR_C_LONG, 0, U_TICKS, "Duration", NULL }
#define EVENT_THREAD { "eventThread", JFR_C_THREAD, F_POOL, U_NONE, "Event Thread", \
		       "Thread in which event was committed in" }
#define STACK_TRACE { "stackTrace", JFR_C_STACK_TRACE, F_POOL, U_NONE, "Stack Trace", \
		      "Stack Trace starting from the method the event was committed in" }
#define MONITOR_CLASS { "monitorClass", JFR_C_CLASS, F_POOL, U_NONE, "Monitor Class", NULL }
#define ADDRESS { "address", JFR_C_LONG, 0, U_ADDRESS, "Monitor Address", \
		  "The monitor's object as the agent numbers objects (not a memory address)" }
#define TIMEOUT { "timeout", JFR_C_LONG, 0, U_MILLIS, "Timeout", "Maximum wait time" }

/* ---- the JDK's types */
static const struct field_def thread_f[] = {
	{ "osName", JFR_C_STRING, 0, U_NONE, "OS Thread Name", NULL },
	{ "osThreadId", JFR_C_LONG, 0, U_NONE, "OS Thread Id", NULL },
	{ "javaName", JFR_C_STRING, 0, U_NONE, "Java Thread Name", NULL },
	{ "javaThreadId", JFR_C_LONG, 0, U_NONE, "Java Thread Id", NULL },
	{ "group", JFR_C_THREAD_GROUP, F_POOL, U_NONE, "Java Thread Group", NULL },
};
static const struct field_def group_f[] = {
	{ "parent", JFR_C_THREAD_GROUP, F_POOL, U_NONE, "Parent", NULL },
	{ "name", JFR_C_STRING, 0, U_NONE, "Name", NULL },
};
static const struct field_def class_f[] = {
	{ "classLoader", JFR_C_CLASS_LOADER, F_POOL, U_NONE, "Class Loader", NULL },
	{ "name", JFR_C_SYMBOL, F_POOL, U_NONE, "Name", NULL },
	{ "package", JFR_C_PACKAGE, F_POOL, U_NONE, "Package", NULL },
	{ "modifiers", JFR_C_INT, 0, U_NONE, "Access Modifiers", NULL },
	{ "hidden", JFR_C_BOOLEAN, 0, U_NONE, "Hidden", NULL },
};
static const struct field_def loader_f[] = {
	{ "type", JFR_C_CLASS, F_POOL, U_NONE, "Type", NULL },
	{ "name", JFR_C_SYMBOL, F_POOL, U_NONE, "Name", NULL },
};
static const struct field_def method_f[] = {
	{ "type", JFR_C_CLASS, F_POOL, U_NONE, "Type", NULL },
	{ "name", JFR_C_SYMBOL, F_POOL, U_NONE, "Name", NULL },
	{ "descriptor", JFR_C_SYMBOL, F_POOL, U_NONE, "Descriptor", NULL },
	{ "modifiers", JFR_C_INT, 0, U_NONE, "Access Modifiers", NULL },
	{ "hidden", JFR_C_BOOLEAN, 0, U_NONE, "Hidden", NULL },
};
static const struct field_def symbol_f[] = {
	{ "string", JFR_C_STRING, 0, U_NONE, "String", NULL },
};
static const struct field_def package_f[] = {
	{ "name", JFR_C_SYMBOL, F_POOL, U_NONE, "Name", NULL },
	{ "module", JFR_C_MODULE, F_POOL, U_NONE, "Module", NULL },
	{ "exported", JFR_C_BOOLEAN, 0, U_NONE, "Exported", NULL },
};
static const struct field_def module_f[] = {
	{ "name", JFR_C_SYMBOL, F_POOL, U_NONE, "Name", NULL },
	{ "version", JFR_C_SYMBOL, F_POOL, U_NONE, "Version", NULL },
	{ "location", JFR_C_SYMBOL, F_POOL, U_NONE, "Location", NULL },
	{ "classLoader", JFR_C_CLASS_LOADER, F_POOL, U_NONE, "Class Loader", NULL },
};
static const struct field_def stack_trace_f[] = {
	{ "truncated", JFR_C_BOOLEAN, 0, U_NONE, "Truncated", NULL },
	{ "frames", JFR_C_STACK_FRAME, F_ARRAY, U_NONE, "Stack Frames", NULL },
};
static const struct field_def frame_f[] = {
	{ "method", JFR_C_METHOD, F_POOL, U_NONE, "Java Method", NULL },
	{ "lineNumber", JFR_C_INT, 0, U_NONE, "Line Number", NULL },
	{ "bytecodeIndex", JFR_C_INT, 0, U_NONE, "Bytecode Index", NULL },
	{ "type", JFR_C_FRAME_TYPE, F_POOL, U_NONE, "Frame Type", NULL },
};
static const struct field_def frame_type_f[] = {
	{ "description", JFR_C_STRING, 0, U_NONE, "Description", NULL },
};
static const struct field_def gc_name_f[] = {
	{ "name", JFR_C_STRING, 0, U_NONE, "Name", NULL },
};
static const struct field_def gc_cause_f[] = {
	{ "cause", JFR_C_STRING, 0, U_NONE, "Cause", NULL },
};
static const struct field_def value_annotation_f[] = {
	{ "value", JFR_C_STRING, 0, U_NONE, NULL, NULL },
};
static const struct field_def category_f[] = {
	{ "value", JFR_C_STRING, F_ARRAY, U_NONE, NULL, NULL },
};

/* ---- the JDK's events */
static const struct field_def thread_start_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE,
	{ "thread", JFR_C_THREAD, F_POOL, U_NONE, "New Java Thread", NULL },
	{ "parentThread", JFR_C_THREAD, F_POOL, U_NONE, "Parent Java Thread", NULL },
};
static const struct field_def thread_end_f[] = {
	START_TIME, EVENT_THREAD,
	{ "thread", JFR_C_THREAD, F_POOL, U_NONE, "Java Thread", NULL },
};
static const struct field_def class_load_f[] = {
	START_TIME, DURATION, EVENT_THREAD, STACK_TRACE,
	{ "loadedClass", JFR_C_CLASS, F_POOL, U_NONE, "Loaded Class", NULL },
	{ "definingClassLoader", JFR_C_CLASS_LOADER, F_POOL, U_NONE, "Defining Class Loader", NULL },
	{ "initiatingClassLoader", JFR_C_CLASS_LOADER, F_POOL, U_NONE, "Initiating Class Loader", NULL },
};
static const struct field_def class_unload_f[] = {
	START_TIME, EVENT_THREAD,
	{ "unloadedClass", JFR_C_CLASS, F_POOL, U_NONE, "Unloaded Class", NULL },
	{ "definingClassLoader", JFR_C_CLASS_LOADER, F_POOL, U_NONE, "Defining Class Loader", NULL },
};
static const struct field_def exception_throw_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE,
	{ "message", JFR_C_STRING, 0, U_NONE, "Message", NULL },
	{ "thrownClass", JFR_C_CLASS, F_POOL, U_NONE, "Class", NULL },
};
static const struct field_def monitor_enter_f[] = {
	START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS,
	{ "previousOwner", JFR_C_THREAD, F_POOL, U_NONE, "Previous Monitor Owner", NULL },
	ADDRESS,
};
static const struct field_def monitor_wait_f[] = {
	START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS,
	{ "notifier", JFR_C_THREAD, F_POOL, U_NONE, "Notifier Thread", "Notifying Thread" },
	TIMEOUT,
	{ "timedOut", JFR_C_BOOLEAN, 0, U_NONE, "Timed Out", "Wait has been timed out" },
	ADDRESS,
};
static const struct field_def gc_f[] = {
	START_TIME, DURATION, EVENT_THREAD,
	{ "gcId", JFR_C_INT, 0, U_UNSIGNED, "GC Identifier", NULL },
	{ "name", JFR_C_GC_NAME, F_POOL, U_NONE, "Name", "The name of the Garbage Collector" },
	{ "cause", JFR_C_GC_CAUSE, F_POOL, U_NONE, "Cause", "The reason for triggering this Garbage Collection" },
	{ "sumOfPauses", JFR_C_LONG, 0, U_UNSIGNED_TICKS, "Sum of Pauses",
	  "Sum of all the times in which Java execution was paused during the garbage collection" },
	{ "longestPause", JFR_C_LONG, 0, U_UNSIGNED_TICKS, "Longest Pause",
	  "Longest individual pause during the garbage collection" },
};

/* ---- ours */
static const struct field_def method_call_f[] = {
	START_TIME, DURATION, EVENT_THREAD, STACK_TRACE,
	{ "method", JFR_C_METHOD, F_POOL, U_NONE, "Method", NULL },
	{ "arguments", JFR_C_STRING, 0, U_NONE, "Arguments", "As stpd-bridge --print shows them" },
	{ "argumentTypes", JFR_C_STRING, 0, U_NONE, "Argument Types",
	  "One letter per argument: Z B C S I J F D, V void, N null, ? not captured, T a String, L an object, [ an array" },
	{ "returnValue", JFR_C_STRING, 0, U_NONE, "Return Value", NULL },
	{ "returnType", JFR_C_STRING, 0, U_NONE, "Return Type", NULL },
	{ "entered", JFR_C_BOOLEAN, 0, U_NONE, "Entered", "false: the call's enter was not recorded" },
	{ "returned", JFR_C_BOOLEAN, 0, U_NONE, "Returned", "false: the call's return was not recorded" },
	{ "exception", JFR_C_BOOLEAN, 0, U_NONE, "By Exception", "The method ended by an exception" },
	{ "returnStackTrace", JFR_C_STACK_TRACE, F_POOL, U_NONE, "Return Stack Trace", NULL },
};
static const struct field_def method_compile_f[] = {
	START_TIME, EVENT_THREAD,
	{ "method", JFR_C_METHOD, F_POOL, U_NONE, "Method", NULL },
	{ "codeSize", JFR_C_INT, 0, U_NONE, "Code Size", NULL },
	{ "values", JFR_C_STRING, 0, U_NONE, "Values", "The first: the code's address" },
	{ "valueTypes", JFR_C_STRING, 0, U_NONE, "Value Types", NULL },
};
static const struct field_def class_prepare_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE,
	{ "preparedClass", JFR_C_CLASS, F_POOL, U_NONE, "Prepared Class", NULL },
};
static const struct field_def exception_catch_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE,
	{ "thrownClass", JFR_C_CLASS, F_POOL, U_NONE, "Class", NULL },
	{ "method", JFR_C_METHOD, F_POOL, U_NONE, "Catching Method", NULL },
};
static const struct field_def contended_enter_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS,
	{ "previousOwner", JFR_C_THREAD, F_POOL, U_NONE, "Monitor Owner", NULL },
	ADDRESS,
};
static const struct field_def contended_entered_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS, ADDRESS,
};
static const struct field_def wait_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS, TIMEOUT, ADDRESS,
};
static const struct field_def waited_f[] = {
	START_TIME, EVENT_THREAD, STACK_TRACE, MONITOR_CLASS, TIMEOUT,
	{ "timedOut", JFR_C_BOOLEAN, 0, U_NONE, "Timed Out", NULL },
	ADDRESS,
};
static const struct field_def instant_f[] = {
	START_TIME, EVENT_THREAD,
};
static const struct field_def lost_f[] = {
	START_TIME, EVENT_THREAD,
	{ "lost", JFR_C_LONG, 0, U_NONE, "Lost",
	  "The agent's Lost: events its connection dropped so far; the bridge's: events it dropped" },
	{ "droppedByBridge", JFR_C_BOOLEAN, 0, U_NONE, "Dropped by the Bridge", NULL },
};

#define APP "Java Application"
#define OURS "stapjava"
static const struct class_def classes[] = {
	{ JFR_C_BOOLEAN, "boolean", NULL, false, false, NULL, NULL, { NULL }, NULL, 0 },
	{ JFR_C_INT, "int", NULL, false, false, NULL, NULL, { NULL }, NULL, 0 },
	{ JFR_C_LONG, "long", NULL, false, false, NULL, NULL, { NULL }, NULL, 0 },
	{ JFR_C_STRING, "java.lang.String", NULL, false, false, NULL, NULL, { NULL }, NULL, 0 },
	{ JFR_C_THREAD, "java.lang.Thread", NULL, false, false, "Thread", NULL, { NULL }, FIELDS(thread_f) },
	{ JFR_C_THREAD_GROUP, "jdk.types.ThreadGroup", NULL, false, false, "Thread Group", NULL, { NULL },
	  FIELDS(group_f) },
	{ JFR_C_CLASS, "java.lang.Class", NULL, false, false, "Java Class", NULL, { NULL }, FIELDS(class_f) },
	{ JFR_C_CLASS_LOADER, "jdk.types.ClassLoader", NULL, false, false, "Java Class Loader", NULL,
	  { NULL }, FIELDS(loader_f) },
	{ JFR_C_METHOD, "jdk.types.Method", NULL, false, false, "Java Method", NULL, { NULL },
	  FIELDS(method_f) },
	{ JFR_C_SYMBOL, "jdk.types.Symbol", NULL, true, false, "Symbol", NULL, { NULL }, FIELDS(symbol_f) },
	{ JFR_C_PACKAGE, "jdk.types.Package", NULL, false, false, "Package", NULL, { NULL },
	  FIELDS(package_f) },
	{ JFR_C_MODULE, "jdk.types.Module", NULL, false, false, "Module", NULL, { NULL }, FIELDS(module_f) },
	{ JFR_C_STACK_TRACE, "jdk.types.StackTrace", NULL, false, false, "Stacktrace", NULL, { NULL },
	  FIELDS(stack_trace_f) },
	{ JFR_C_STACK_FRAME, "jdk.types.StackFrame", NULL, false, false, NULL, NULL, { NULL },
	  FIELDS(frame_f) },
	{ JFR_C_FRAME_TYPE, "jdk.types.FrameType", NULL, true, false, "Frame type", NULL, { NULL },
	  FIELDS(frame_type_f) },
	{ JFR_C_GC_NAME, "jdk.types.GCName", NULL, true, false, "GC Name", NULL, { NULL },
	  FIELDS(gc_name_f) },
	{ JFR_C_GC_CAUSE, "jdk.types.GCCause", NULL, true, false, "GC Cause", NULL, { NULL },
	  FIELDS(gc_cause_f) },

	{ JFR_C_LABEL, "jdk.jfr.Label", ANNOTATION, false, false, NULL, NULL, { NULL },
	  FIELDS(value_annotation_f) },
	{ JFR_C_DESCRIPTION, "jdk.jfr.Description", ANNOTATION, false, false, NULL, NULL, { NULL },
	  FIELDS(value_annotation_f) },
	{ JFR_C_TIMESTAMP, "jdk.jfr.Timestamp", ANNOTATION, false, true, "Timestamp", "A point in time",
	  { NULL }, FIELDS(value_annotation_f) },
	{ JFR_C_TIMESPAN, "jdk.jfr.Timespan", ANNOTATION, false, true, "Timespan",
	  "A duration, measured in nanoseconds by default", { NULL }, FIELDS(value_annotation_f) },
	{ JFR_C_CATEGORY, "jdk.jfr.Category", ANNOTATION, false, false, NULL, NULL, { NULL },
	  FIELDS(category_f) },
	{ JFR_C_UNSIGNED, "jdk.jfr.Unsigned", ANNOTATION, false, true, "Unsigned Value", NULL, { NULL },
	  NULL, 0 },
	{ JFR_C_MEMORY_ADDRESS, "jdk.jfr.MemoryAddress", ANNOTATION, false, true, "Memory Address", NULL,
	  { NULL }, NULL, 0 },
	{ JFR_C_CONTENT_TYPE, "jdk.jfr.ContentType", ANNOTATION, false, false, "Content Type", NULL,
	  { NULL }, NULL, 0 },

	{ JFR_E_THREAD_START, "jdk.ThreadStart", EVENT, false, false, "Java Thread Start", NULL,
	  { APP }, FIELDS(thread_start_f) },
	{ JFR_E_THREAD_END, "jdk.ThreadEnd", EVENT, false, false, "Java Thread End", NULL, { APP },
	  FIELDS(thread_end_f) },
	{ JFR_E_CLASS_LOAD, "jdk.ClassLoad", EVENT, false, false, "Class Load", NULL,
	  { "Java Virtual Machine", "Class Loading" }, FIELDS(class_load_f) },
	{ JFR_E_CLASS_UNLOAD, "jdk.ClassUnload", EVENT, false, false, "Class Unload", NULL,
	  { "Java Virtual Machine", "Class Loading" }, FIELDS(class_unload_f) },
	{ JFR_E_EXCEPTION_THROW, "jdk.JavaExceptionThrow", EVENT, false, false, "Java Exception", NULL,
	  { APP }, FIELDS(exception_throw_f) },
	{ JFR_E_MONITOR_ENTER, "jdk.JavaMonitorEnter", EVENT, false, false, "Java Monitor Blocked", NULL,
	  { APP }, FIELDS(monitor_enter_f) },
	{ JFR_E_MONITOR_WAIT, "jdk.JavaMonitorWait", EVENT, false, false, "Java Monitor Wait",
	  "Waiting on a Java monitor", { APP }, FIELDS(monitor_wait_f) },
	{ JFR_E_GC, "jdk.GarbageCollection", EVENT, false, false, "Garbage Collection",
	  "Garbage collection performed by the JVM", { "Java Virtual Machine", "GC" }, FIELDS(gc_f) },

	{ JFR_E_METHOD_CALL, "stapjava.MethodCall", EVENT, false, false, "Method Call",
	  "A call of a probed method: its enter and its return, paired per thread", { OURS },
	  FIELDS(method_call_f) },
	{ JFR_E_METHOD_COMPILE, "stapjava.MethodCompile", EVENT, false, false, "Method Compile", NULL,
	  { OURS }, FIELDS(method_compile_f) },
	{ JFR_E_CLASS_PREPARE, "stapjava.ClassPrepare", EVENT, false, false, "Class Prepare", NULL,
	  { OURS }, FIELDS(class_prepare_f) },
	{ JFR_E_EXCEPTION_CATCH, "stapjava.ExceptionCatch", EVENT, false, false, "Exception Catch", NULL,
	  { OURS }, FIELDS(exception_catch_f) },
	{ JFR_E_CONTENDED_ENTER, "stapjava.MonitorContendedEnter", EVENT, false, false,
	  "Monitor Contended Enter", "A contended enter with no entered recorded", { OURS },
	  FIELDS(contended_enter_f) },
	{ JFR_E_CONTENDED_ENTERED, "stapjava.MonitorContendedEntered", EVENT, false, false,
	  "Monitor Contended Entered", "A contended entered with no enter recorded", { OURS },
	  FIELDS(contended_entered_f) },
	{ JFR_E_WAIT, "stapjava.MonitorWait", EVENT, false, false, "Monitor Wait",
	  "A wait with no waited recorded", { OURS }, FIELDS(wait_f) },
	{ JFR_E_WAITED, "stapjava.MonitorWaited", EVENT, false, false, "Monitor Waited",
	  "A waited with no wait recorded", { OURS }, FIELDS(waited_f) },
	{ JFR_E_GC_START, "stapjava.GcStart", EVENT, false, false, "GC Start",
	  "A GC start with no finish recorded", { OURS }, FIELDS(instant_f) },
	{ JFR_E_GC_FINISH, "stapjava.GcFinish", EVENT, false, false, "GC Finish",
	  "A GC finish with no start recorded", { OURS }, FIELDS(instant_f) },
	{ JFR_E_VM_INIT, "stapjava.VmInit", EVENT, false, false, "VM Init", NULL, { OURS },
	  FIELDS(instant_f) },
	{ JFR_E_VM_DEATH, "stapjava.VmDeath", EVENT, false, false, "VM Death", NULL, { OURS },
	  FIELDS(instant_f) },
	{ JFR_E_LOST, "stapjava.Lost", EVENT, false, false, "Lost Events", NULL, { OURS },
	  FIELDS(lost_f) },
};

/* ---- encoding: a string table, then the element tree with indexes into it */
#define MAX_STRINGS 1024u

struct meta_enc {
	const char *strings[MAX_STRINGS];
	size_t nstrings;
	char numbers[MAX_STRINGS][12];   /* ids written as text */
	size_t nnumbers;
	struct jfr_buf tree;
	bool full;
};

static uint32_t str_index(struct meta_enc *m, const char *s)
{
	for (size_t i = 0; i < m->nstrings; i++)
		if (strcmp(m->strings[i], s) == 0)
			return (uint32_t)i;
	if (m->nstrings == MAX_STRINGS) {
		m->full = true;
		return 0;
	}
	m->strings[m->nstrings] = s;
	return (uint32_t)m->nstrings++;
}

static const char *number(struct meta_enc *m, unsigned v)
{
	if (m->nnumbers == MAX_STRINGS) {
		m->full = true;
		return "0";
	}
	snprintf(m->numbers[m->nnumbers], sizeof m->numbers[0], "%u", v);
	return m->numbers[m->nnumbers++];
}

/* An element: its name, its attributes (KEYS[i] = VALUES[i]), then the
 * number of children, which the caller writes next. */
static void element(struct meta_enc *m, const char *name, size_t nattrs, const char *const *keys,
		    const char *const *values, size_t nchildren)
{
	jfr_put_varint(&m->tree, str_index(m, name));
	jfr_put_varint(&m->tree, nattrs);
	for (size_t i = 0; i < nattrs; i++) {
		jfr_put_varint(&m->tree, str_index(m, keys[i]));
		jfr_put_varint(&m->tree, str_index(m, values[i]));
	}
	jfr_put_varint(&m->tree, nchildren);
}

/* An annotation of class ID, with VALUE (NULL: none). */
static void annotation(struct meta_enc *m, unsigned id, const char *value)
{
	static const char *const keys[] = { "class", "value" };
	const char *values[] = { number(m, id), value };

	element(m, "annotation", value ? 2 : 1, keys, values, 0);
}

static size_t unit_annotations(enum field_unit u)
{
	static const size_t n[] = { [U_NONE] = 0, [U_TICKS_AT] = 1, [U_TICKS] = 1, [U_MILLIS] = 1,
				    [U_ADDRESS] = 2, [U_UNSIGNED_TICKS] = 2, [U_UNSIGNED] = 1 };
	return n[u];
}

static void field(struct meta_enc *m, const struct field_def *f)
{
	static const char *const keys[] = { "name", "class", "constantPool", "dimension" };
	const char *values[4] = { f->name, number(m, f->type), NULL, NULL };
	const char *k[4] = { keys[0], keys[1] };
	size_t n = 2;

	if (f->flags & F_POOL) {
		k[n] = keys[2];
		values[n++] = "true";
	}
	if (f->flags & F_ARRAY) {
		k[n] = keys[3];
		values[n++] = "1";
	}
	element(m, "field", n, k, values,
		(f->label != NULL) + (f->description != NULL) + unit_annotations(f->unit));
	if (f->unit == U_ADDRESS || f->unit == U_UNSIGNED_TICKS || f->unit == U_UNSIGNED)
		annotation(m, JFR_C_UNSIGNED, NULL);
	if (f->unit == U_ADDRESS)
		annotation(m, JFR_C_MEMORY_ADDRESS, NULL);
	if (f->unit == U_TICKS_AT)
		annotation(m, JFR_C_TIMESTAMP, "TICKS");
	if (f->unit == U_TICKS || f->unit == U_UNSIGNED_TICKS)
		annotation(m, JFR_C_TIMESPAN, "TICKS");
	if (f->unit == U_MILLIS)
		annotation(m, JFR_C_TIMESPAN, "MILLISECONDS");
	if (f->label)
		annotation(m, JFR_C_LABEL, f->label);
	if (f->description)
		annotation(m, JFR_C_DESCRIPTION, f->description);
}

static void class(struct meta_enc *m, const struct class_def *c)
{
	const char *keys[4] = { "name", "id" }, *values[4] = { c->name, number(m, c->id) };
	size_t n = 2, ncat = (c->category[0] != NULL) + (c->category[1] != NULL);

	if (c->super) {
		keys[n] = "superType";
		values[n++] = c->super;
	}
	if (c->simple) {
		keys[n] = "simpleType";
		values[n++] = "true";
	}
	element(m, "class", n, keys, values,
		c->nfields + c->content_type + (c->label != NULL) + (c->description != NULL) + (ncat > 0));
	for (size_t i = 0; i < c->nfields; i++)
		field(m, &c->fields[i]);
	if (c->content_type)
		annotation(m, JFR_C_CONTENT_TYPE, NULL);
	if (c->label)
		annotation(m, JFR_C_LABEL, c->label);
	if (c->description)
		annotation(m, JFR_C_DESCRIPTION, c->description);
	if (ncat > 0) {
		static const char *const cat_keys[] = { "class", "value-0", "value-1" };
		const char *cat_values[] = { number(m, JFR_C_CATEGORY), c->category[0], c->category[1] };

		element(m, "annotation", 1 + ncat, cat_keys, cat_values, 0);
	}
}

int jfr_types_metadata(struct jfr_buf *out)
{
	static const char *const region_keys[] = { "locale", "gmtOffset" };
	static const char *const region_values[] = { "en", "0" };
	struct meta_enc m = { 0 };
	struct jfr_buf body = { 0 };
	size_t nclasses = sizeof classes / sizeof classes[0];
	int rc = 0;

	element(&m, "root", 0, NULL, NULL, 2);
	element(&m, "metadata", 0, NULL, NULL, nclasses);
	for (size_t i = 0; i < nclasses; i++)
		class(&m, &classes[i]);
	element(&m, "region", 2, region_keys, region_values, 0);
	/* the event: type 0, start time, duration, metadata id, strings, tree */
	jfr_put_varint(&body, JFR_TYPE_METADATA);
	jfr_put_varint(&body, 0);
	jfr_put_varint(&body, 0);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, m.nstrings);
	for (size_t i = 0; i < m.nstrings; i++)
		jfr_put_string(&body, m.strings[i], strlen(m.strings[i]));
	jfr_put_bytes(&body, m.tree.data, m.tree.len);
	if (m.full || m.tree.error || body.error) {
		rc = m.full ? -E2BIG : -ENOMEM;
	} else {
		jfr_put_varint(out, jfr_record_size(body.len));
		jfr_put_bytes(out, body.data, body.len);
		rc = out->error;
	}
	jfr_buf_free(&body);
	jfr_buf_free(&m.tree);
	return rc;
}

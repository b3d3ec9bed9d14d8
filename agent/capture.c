/* capture.c: see capture.h. */
#include "capture.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "agent.h"
#include "emit.h"

static jclass string_class;          /* global ref */
static pthread_mutex_t tag_lock = PTHREAD_MUTEX_INITIALIZER;
static jlong tag_next = 1;

void capture_init(JNIEnv *jni)
{
	jclass c = (*jni)->FindClass(jni, "java/lang/String");
	if (c) {
		string_class = (*jni)->NewGlobalRef(jni, c);
		(*jni)->DeleteLocalRef(jni, c);
	} else {
		(*jni)->ExceptionClear(jni);
	}
}

uint64_t capture_peek_tag(jobject obj)
{
	jlong tag = 0;

	if (!obj || (*agent.jvmti)->GetTag(agent.jvmti, obj, &tag) != JVMTI_ERROR_NONE)
		return 0;
	return (uint64_t)tag;
}

uint64_t capture_object_id(jobject obj)
{
	jvmtiEnv *jv = agent.jvmti;
	jlong tag = 0;

	if (!obj || !agent.caps.can_tag_objects)
		return 0;
	if ((*jv)->GetTag(jv, obj, &tag) != JVMTI_ERROR_NONE)
		return 0;
	if (tag)
		return (uint64_t)tag;
	/* check and set under one lock so two threads cannot give one object two ids */
	pthread_mutex_lock(&tag_lock);
	if ((*jv)->GetTag(jv, obj, &tag) == JVMTI_ERROR_NONE && tag == 0) {
		tag = tag_next++;
		if ((*jv)->SetTag(jv, obj, tag) != JVMTI_ERROR_NONE)
			tag = 0;
	}
	pthread_mutex_unlock(&tag_lock);
	return (uint64_t)tag;
}

static void none(struct wire_value *v)
{
	memset(v, 0, sizeof(*v));
	v->type = WIRE_T_NONE;
}

/* UTF-16 to standard UTF-8, at most MAX bytes, whole characters only.
 * Returns bytes written; *consumed gets the UTF-16 units used. */
static size_t utf16_to_utf8(const jchar *in, size_t n, char *out, size_t max, size_t *consumed)
{
	size_t o = 0, i = 0;

	while (i < n) {
		uint32_t cp = in[i];
		size_t units = 1;
		if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && in[i + 1] >= 0xDC00 && in[i + 1] <= 0xDFFF) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (in[i + 1] - 0xDC00);
			units = 2;
		} else if (cp >= 0xD800 && cp <= 0xDFFF) {
			cp = 0xFFFD;   /* a lone surrogate has no UTF-8 form */
		}
		size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
		if (o + len > max)
			break;
		if (len == 1) {
			out[o++] = (char)cp;
		} else if (len == 2) {
			out[o++] = (char)(0xC0 | (cp >> 6));
			out[o++] = (char)(0x80 | (cp & 0x3F));
		} else if (len == 3) {
			out[o++] = (char)(0xE0 | (cp >> 12));
			out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
			out[o++] = (char)(0x80 | (cp & 0x3F));
		} else {
			out[o++] = (char)(0xF0 | (cp >> 18));
			out[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
			out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
			out[o++] = (char)(0x80 | (cp & 0x3F));
		}
		i += units;
	}
	*consumed = i;
	return o;
}

static void capture_string(JNIEnv *jni, struct scratch *s, jstring str, struct wire_value *v)
{
	size_t max = agent.opt.strmax;
	jsize len = (*jni)->GetStringLength(jni, str);
	/* one more unit than bytes allowed, so a surrogate pair at the cut is seen whole */
	size_t take = (size_t)len < max + 1 ? (size_t)len : max + 1;
	jchar *units = scratch_alloc(s, take * sizeof(jchar) + 1);
	char *out = scratch_alloc(s, max + 1);

	if (!units || !out) {
		none(v);
		return;
	}
	(*jni)->GetStringRegion(jni, str, 0, (jsize)take, units);
	if ((*jni)->ExceptionCheck(jni)) {
		(*jni)->ExceptionClear(jni);
		none(v);
		return;
	}
	size_t used;
	size_t n = utf16_to_utf8(units, take, out, max, &used);
	memset(v, 0, sizeof(*v));
	v->type = WIRE_T_STRING;
	v->str.ptr = out;
	v->str.len = (uint32_t)n;
	v->truncated = used < (size_t)len;
}

int capture_class_of(JNIEnv *jni, struct scratch *s, jobject obj, struct wire_str *sig)
{
	jvmtiEnv *jv = agent.jvmti;
	jclass cls = (*jni)->GetObjectClass(jni, obj);
	char *jsig = NULL;
	size_t n = 0;
	int rc = -EIO;

	if (cls && agent_class_signature(cls, &jsig, &n) == 0) {
		char *copy = scratch_alloc(s, n);

		rc = -ENOMEM;
		if (copy) {
			memcpy(copy, jsig, n);
			sig->ptr = copy;
			sig->len = (uint32_t)n;
			rc = 0;
		}
	}
	if (jsig)
		(*jv)->Deallocate(jv, (unsigned char *)jsig);
	if (cls)
		(*jni)->DeleteLocalRef(jni, cls);
	return rc;
}

void capture_object(JNIEnv *jni, struct scratch *s, jobject obj, struct wire_value *v)
{
	memset(v, 0, sizeof(*v));
	if (!obj) {
		v->type = WIRE_T_NULL;
		return;
	}
	if (string_class && (*jni)->IsInstanceOf(jni, obj, string_class)) {
		capture_string(jni, s, (jstring)obj, v);
		return;
	}
	if (capture_class_of(jni, s, obj, &v->str) < 0) {
		none(v);
		return;
	}
	v->object_id = capture_object_id(obj);
	if (v->str.ptr[0] == '[') {
		v->type = WIRE_T_ARRAY;
		v->aux = (uint32_t)(*jni)->GetArrayLength(jni, (jarray)obj);
	} else {
		jint hash = 0;
		v->type = WIRE_T_OBJECT;
		(*agent.jvmti)->GetObjectHashCode(agent.jvmti, obj, &hash);
		v->aux = (uint32_t)hash;
	}
}

/* Skip one field type in a descriptor; returns the next position. */
static const char *skip_type(const char *p)
{
	while (*p == '[')
		p++;
	if (*p == 'L') {
		const char *semi = strchr(p, ';');
		return semi ? semi + 1 : p + strlen(p);
	}
	return *p ? p + 1 : p;
}

static void primitive(struct wire_value *v, char type, int64_t i)
{
	memset(v, 0, sizeof(*v));
	v->type = (uint8_t)type;
	v->v.i = i;
}

void capture_value(JNIEnv *jni, struct scratch *s, char type, jvalue value, struct wire_value *v)
{
	switch (type) {
	case 'V': primitive(v, 'V', 0); break;
	case 'Z': primitive(v, 'Z', value.z != 0); break;
	case 'B': primitive(v, 'B', value.b); break;
	case 'C': primitive(v, 'C', value.c); break;
	case 'S': primitive(v, 'S', value.s); break;
	case 'I': primitive(v, 'I', value.i); break;
	case 'J': primitive(v, 'J', value.j); break;
	case 'F': memset(v, 0, sizeof(*v)); v->type = WIRE_T_FLOAT; v->v.f = value.f; break;
	case 'D': memset(v, 0, sizeof(*v)); v->type = WIRE_T_DOUBLE; v->v.d = value.d; break;
	case 'L': case '[': capture_object(jni, s, value.l, v); break;
	default: none(v); break;
	}
}

const char *capture_next_param(const char *desc_pos, char *type)
{
	*type = *desc_pos;
	if (*type == ')' || *type == '\0')
		return NULL;
	return skip_type(desc_pos);
}

void capture_args_unavailable(const struct mentry *m, struct scratch *s)
{
	const char *p = m->name + m->desc_off + 1;
	unsigned n = 0;
	char t;

	while (n < WIRE_MAX_VALUES && (p = capture_next_param(p, &t)) != NULL)
		none(&s->ev.values[n++]);
	s->ev.nvalues = (uint8_t)n;
}

void capture_return(JNIEnv *jni, const struct mentry *m, jvalue value, struct scratch *s)
{
	capture_value(jni, s, m->ret_kind, value, &s->ev.retval);
}

static int32_t line_of(jmethodID method, jlocation loc)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiLineNumberEntry *table = NULL;
	jint n = 0;
	int32_t line = -1;

	if (loc < 0)
		return -2;   /* native */
	if (!agent.caps.can_get_line_numbers ||
	    (*jv)->GetLineNumberTable(jv, method, &n, &table) != JVMTI_ERROR_NONE)
		return -1;
	jlocation best = -1;
	/* the table is not necessarily sorted: take the closest start at or before loc */
	for (jint i = 0; i < n; i++)
		if (table[i].start_location <= loc && table[i].start_location >= best) {
			best = table[i].start_location;
			line = table[i].line_number;
		}
	(*jv)->Deallocate(jv, (unsigned char *)table);
	return line;
}

void capture_stack(jthread thread, jint depth, struct scratch *s)
{
	jvmtiEnv *jv = agent.jvmti;
	struct wire_trailer *t = &s->ev.trailer;
	jint count = 0;

	t->depth = 0;
	if ((*jv)->GetStackTrace(jv, thread, depth, (jint)agent.opt.stackmax, s->frames, &count) !=
	    JVMTI_ERROR_NONE)
		return;
	for (jint i = 0; i < count; i++) {
		const struct mentry *m = mcache_entry(s->frames[i].method);
		struct wire_frame *f = &t->frames[t->depth++];
		f->method.ptr = m ? m->name : "?";
		f->method.len = m ? m->name_len : 1;
		f->line = m && m->is_native ? -2 : line_of(s->frames[i].method, s->frames[i].location);
		f->source = m ? (struct wire_str){ m->source, m->source_len } : (struct wire_str){ "", 0 };
	}
}

void emission_capture_stack(struct emission *em, struct scratch *s, jthread thread)
{
	if (em->want.opt & WIRE_OPT_STACK) {
		capture_stack(thread, em->depth, s);
		em->stack_captured = true;
	}
}

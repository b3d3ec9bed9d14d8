/* rec_trc.c: the JinsightLive writer (rec_trc.h; the mapping of our events
 * and the readings chosen are doc/recording-seed-formats.md's).
 *
 * What is defined before use, and when: java/lang/Object and
 * java/lang/Thread at the start; a thread at its first event (THREAD_DEFINE,
 * and our note of its OS tid); a class at its load, or at the first call
 * of one of its methods when its load was not seen (with ticks 0: when it
 * was loaded is not known). The format lists a class's methods in its
 * _CLASS_LOAD and numbers them by position, but we learn a class's methods
 * one call at a time: a method not yet listed is appended and the class
 * described again under the same id (CLASS_DEFINE + _CLASS_LOAD), so every
 * id written before keeps its meaning. METHOD_LEAVE names no method, so the
 * writer keeps each thread's stack: a return leaves the innermost frame of
 * its method (and the frames above it, whose returns were lost); a return
 * whose enter is not on the stack is not written.
 */
#include "rec_trc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec_bytes.h"
#include "rec_tables.h"
#include "rec_text.h"

struct trc_class {
	uint64_t ticks;           /* of its CLASS_DEFINE: the load, 0 when not seen */
	uint32_t *methods;        /* method indexes, in id order */
	uint32_t nmethods;
	size_t cap;
};

struct trc_method {
	uint16_t cls, id;
	bool usable;              /* false: no id left in its class */
};

struct trc_state {
	struct rec_buf msg;
	struct rec_strmap class_keys;     /* class key -> class id */
	struct trc_class *classes;
	size_t classes_cap;
	struct rec_strmap method_names;   /* wire name -> method index */
	struct trc_method *methods;
	size_t methods_cap;
	struct rec_threads threads;       /* calls: method indexes */
	uint32_t pid;                     /* of the last "pid" note */
	bool pid_noted;
	uint64_t events;                  /* records written */
	char *name;                       /* scratch: a class's internal name */
};

static int emit(struct trc_state *s, struct record_out *out)
{
	s->events++;
	return record_out_write(out, s->msg.p, s->msg.len);
}

/* ticks + one u32: THREAD_START, THREAD_EXIT */
static int emit_thread_record(struct trc_state *s, struct record_out *out, uint8_t id, uint64_t ticks,
			      uint32_t thread)
{
	if (rec_buf_begin(&s->msg, 13) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, id);
	rec_put_u64(&s->msg, ticks);
	rec_put_u32(&s->msg, thread);
	return emit(s, out);
}

static int emit_user_event(struct trc_state *s, struct record_out *out, uint64_t ticks, const char *text,
			   size_t len)
{
	if (rec_buf_begin(&s->msg, 11 + len) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, TRC_USER_EVENT);
	rec_put_u64(&s->msg, ticks);
	rec_put_u16(&s->msg, (uint16_t)len);
	rec_put_bytes(&s->msg, text, len);
	return emit(s, out);
}

static int emit_note(struct trc_state *s, struct record_out *out, uint64_t ticks, const char *const keys[],
		     const uint64_t values[], size_t n)
{
	char text[128];

	return emit_user_event(s, out, ticks, text, rec_note_format(text, keys, values, n));
}

/* The events after this one belong to PID. */
static int note_pid(struct trc_state *s, struct record_out *out, const struct print_meta *meta)
{
	static const char *const keys[] = { "pid" };
	uint64_t v = meta->pid;

	if (s->pid_noted && s->pid == meta->pid)
		return 0;
	s->pid_noted = true;
	s->pid = meta->pid;
	return emit_note(s, out, meta->ts_ns, keys, &v, 1);
}

/* CLASS_DEFINE + _CLASS_LOAD of class C with the methods it has now. */
static int describe_class(struct trc_state *s, struct record_out *out, uint32_t c)
{
	const struct trc_class *k = &s->classes[c];
	uint32_t klen;
	const char *key = rec_strmap_str(&s->class_keys, c, &klen);
	size_t size = 15 + 17 + klen;
	int rc;

	for (uint32_t i = 0; i < k->nmethods; i++) {
		uint32_t n;

		rec_strmap_str(&s->method_names, k->methods[i], &n);
		size += 6 + n;
	}
	if (rec_buf_begin(&s->msg, size) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, TRC_CLASS_DEFINE);
	rec_put_u64(&s->msg, k->ticks);
	rec_put_u16(&s->msg, (uint16_t)c);
	rec_put_u32(&s->msg, 0);      /* classObjectID: we write no objects */
	if ((rc = emit(s, out)) < 0)
		return rc;

	s->msg.len = 0;
	rec_put_u8(&s->msg, TRC_CLASS_LOAD);
	rec_put_u64(&s->msg, k->ticks);
	rec_put_u16(&s->msg, (uint16_t)c);
	rec_put_u16(&s->msg, 0);      /* size: the instance size, not known */
	rec_put_u16(&s->msg, (uint16_t)klen);
	rec_class_key_to_internal(key, klen, s->name);
	rec_put_bytes(&s->msg, s->name, klen);
	rec_put_u16(&s->msg, (uint16_t)k->nmethods);
	for (uint32_t i = 0; i < k->nmethods; i++) {
		uint32_t n;
		const char *wire = rec_strmap_str(&s->method_names, k->methods[i], &n);
		struct rec_method_name m;

		rec_method_split(wire, n, &m);
		rec_put_u16(&s->msg, (uint16_t)m.name.len);
		rec_put_bytes(&s->msg, m.name.ptr, m.name.len);
		rec_put_u16(&s->msg, (uint16_t)m.sig.len);
		rec_put_bytes(&s->msg, m.sig.ptr, m.sig.len);
		rec_put_u16(&s->msg, 0);  /* accessFlags: not known */
	}
	rec_put_u16(&s->msg, 0);      /* numberOfFields */
	rec_put_u16(&s->msg, c == TRC_CLASS_OBJECT ? TRC_NO_CLASS : TRC_CLASS_OBJECT);
	rec_put_u16(&s->msg, 0);      /* numberOfInterfaces */
	return emit(s, out);
}

/* The id of the class with KEY into *C: 1 when it is new (not yet
 * described), 0 when known, 2 when there is no id left for it. */
static int class_id(struct trc_state *s, const char *key, size_t len, uint64_t ticks, uint32_t *c)
{
	int rc;

	if (len > 0xFFFF)
		return 2;
	if (rec_grow((void **)&s->classes, &s->classes_cap, (size_t)s->class_keys.n + 1, sizeof *s->classes) < 0)
		return -ENOMEM;
	rc = rec_strmap_intern(&s->class_keys, key, len, c);
	if (rc < 0)
		return rc;
	if (*c >= TRC_MAX_CLASSES)
		return 2;
	if (rc == 1)
		s->classes[*c].ticks = ticks;
	return rc;
}

/* Method index *M of wire name NAME, defined (its class described with it)
 * when new: 0, 1 when it has no id (skipped), or an error. */
static int method_for_enter(struct trc_state *s, struct record_out *out, const struct wire_str *name,
			    uint32_t *m)
{
	struct rec_method_name parts;
	struct trc_class *k;
	uint32_t c;
	int rc;

	if (rec_grow((void **)&s->methods, &s->methods_cap, (size_t)s->method_names.n + 1, sizeof *s->methods) < 0)
		return -ENOMEM;
	if ((rc = rec_strmap_intern(&s->method_names, name->ptr, name->len, m)) <= 0)
		return rc < 0 ? rc : s->methods[*m].usable ? 0 : 1;
	rec_method_split(name->ptr, name->len, &parts);
	rc = class_id(s, parts.cls.ptr, parts.cls.len, 0, &c);
	if (rc < 0)
		return rc;
	k = &s->classes[c];
	if (rc == 2 || k->nmethods >= TRC_MAX_METHODS)
		return 1;
	if (rec_grow((void **)&k->methods, &k->cap, (size_t)k->nmethods + 1, sizeof *k->methods) < 0)
		return -ENOMEM;
	s->methods[*m] = (struct trc_method){ (uint16_t)c, (uint16_t)k->nmethods, true };
	k->methods[k->nmethods++] = *m;
	return describe_class(s, out, c);
}

static struct rec_thread *thread_of(struct trc_state *s, uint32_t id)
{
	return &s->threads.v[id];
}

/* The id of META's thread, 0 when it has none yet. */
static uint32_t thread_find(struct trc_state *s, const struct print_meta *meta)
{
	return rec_threads_find(&s->threads, meta->pid, meta->tid);
}

/* A new thread for META: THREAD_DEFINE and the note of its tid. */
static int thread_define(struct trc_state *s, struct record_out *out, const struct print_meta *meta,
			 uint32_t *id)
{
	static const char *const keys[] = { "thread", "tid" };
	size_t n = meta->thread_name ? meta->thread_name_len : 0;
	uint64_t values[2];
	int rc;

	if ((rc = rec_threads_add(&s->threads, meta->pid, meta->tid, id)) != 0)
		return rc;
	if (n > 0xFFFF)
		n = 0xFFFF;
	if (rec_buf_begin(&s->msg, 21 + n) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, TRC_THREAD_DEFINE);
	rec_put_u64(&s->msg, meta->ts_ns);
	rec_put_u32(&s->msg, *id);
	rec_put_u32(&s->msg, 0);      /* objectID: we write no objects */
	rec_put_u16(&s->msg, TRC_CLASS_THREAD);
	rec_put_u16(&s->msg, (uint16_t)n);
	rec_put_bytes(&s->msg, meta->thread_name, n);
	if ((rc = emit(s, out)) < 0)
		return rc;
	values[0] = *id;
	values[1] = meta->tid;
	return emit_note(s, out, meta->ts_ns, keys, values, 2);
}

/* META's thread id, defined now if it has none: 0 or an error. */
static int thread_get(struct trc_state *s, struct record_out *out, const struct print_meta *meta,
		      uint32_t *id)
{
	if ((*id = thread_find(s, meta)) != 0)
		return 0;
	return thread_define(s, out, meta, id);
}

static int method_enter(struct trc_state *s, struct record_out *out, const struct print_meta *meta,
			const struct wire_event *ev)
{
	uint32_t thread, m;
	int rc;

	/* rc > 0: no id left for the thread or the method; the event is not written */
	if ((rc = note_pid(s, out, meta)) < 0 || (rc = thread_get(s, out, meta, &thread)) != 0 ||
	    (rc = method_for_enter(s, out, &ev->name, &m)) != 0)
		return rc < 0 ? rc : 0;
	if (rec_calls_push(&thread_of(s, thread)->calls, m, 0) < 0 || rec_buf_begin(&s->msg, 23) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, TRC_WIDE_METHOD_ENTER);
	rec_put_u64(&s->msg, meta->ts_ns);
	rec_put_u32(&s->msg, thread);
	rec_put_u16(&s->msg, s->methods[m].cls);
	rec_put_u16(&s->msg, s->methods[m].id);
	rec_put_u32(&s->msg, TRC_STATIC_OBJECT);
	rec_put_u16(&s->msg, 0);      /* lineNumber: not known */
	return emit(s, out);
}

static int method_return(struct trc_state *s, struct record_out *out, const struct print_meta *meta,
			 const struct wire_event *ev)
{
	struct rec_calls *calls;
	uint32_t thread, m;
	long above;
	int rc;

	if (rec_strmap_find(&s->method_names, ev->name.ptr, ev->name.len, &m) < 0 ||
	    (thread = thread_find(s, meta)) == 0)
		return 0;
	calls = &thread_of(s, thread)->calls;
	if ((above = rec_calls_find(calls, m)) < 0)
		return 0;
	if ((rc = note_pid(s, out, meta)) < 0)
		return rc;
	for (long i = 0; i <= above; i++) {
		if (rec_buf_begin(&s->msg, 21) < 0)
			return -ENOMEM;
		rec_put_u8(&s->msg, TRC_METHOD_LEAVE);
		rec_put_u64(&s->msg, meta->ts_ns);
		rec_put_u64(&s->msg, 0);      /* overhead */
		rec_put_u32(&s->msg, thread);
		if ((rc = emit(s, out)) < 0)
			return rc;
		calls->depth--;
	}
	return 0;
}

static int thread_start(struct trc_state *s, struct record_out *out, const struct print_meta *meta)
{
	uint32_t id = thread_find(s, meta);
	int rc;

	if ((rc = note_pid(s, out, meta)) < 0)
		return rc;
	if (id && thread_of(s, id)->started) { /* its tid is another thread's now */
		rec_threads_forget(&s->threads, meta->pid, meta->tid, id);
		id = 0;
	}
	if (!id && (rc = thread_define(s, out, meta, &id)) != 0)
		return rc < 0 ? rc : 0;
	thread_of(s, id)->started = true;
	return emit_thread_record(s, out, TRC_THREAD_START, meta->ts_ns, id);
}

static int thread_end(struct trc_state *s, struct record_out *out, const struct print_meta *meta)
{
	uint32_t id;
	int rc;

	if ((rc = note_pid(s, out, meta)) < 0 || (rc = thread_get(s, out, meta, &id)) != 0)
		return rc < 0 ? rc : 0;
	rc = emit_thread_record(s, out, TRC_THREAD_EXIT, meta->ts_ns, id);
	rec_threads_forget(&s->threads, meta->pid, meta->tid, id);
	return rc;
}

static int class_load(struct trc_state *s, struct record_out *out, const struct print_meta *meta,
		      const struct wire_event *ev)
{
	char *key = s->name;   /* a key is never longer than its signature */
	size_t n = rec_class_key_from_signature(ev->name.ptr, ev->name.len, key);
	uint32_t c;
	int rc;

	if ((rc = note_pid(s, out, meta)) < 0)
		return rc;
	/* class_id copies the key before describe_class reuses the scratch */
	rc = class_id(s, key, n, meta->ts_ns, &c);
	return rc == 1 ? describe_class(s, out, c) : rc < 0 ? rc : 0;
}

static int gc_record(struct trc_state *s, struct record_out *out, const struct print_meta *meta, uint8_t id)
{
	int rc;

	if ((rc = note_pid(s, out, meta)) < 0 || (rc = rec_buf_begin(&s->msg, 9)) < 0)
		return rc;
	rec_put_u8(&s->msg, id);
	rec_put_u64(&s->msg, meta->ts_ns);
	return emit(s, out);
}

static int note_lost(struct trc_state *s, struct record_out *out, uint64_t ts_ns, uint64_t count,
		     uint32_t pid, uint64_t tid)
{
	static const char *const keys[] = { "lost", "pid", "tid" };
	const uint64_t values[] = { count, pid, tid };

	return emit_note(s, out, ts_ns, keys, values, 3);
}

static int trc_event(void *state, struct record_out *out, const struct print_meta *meta,
		     const struct wire_event *ev)
{
	struct trc_state *s = state;

	switch (ev->code) {
	case WIRE_EV_METHOD_ENTER:
		return method_enter(s, out, meta, ev);
	case WIRE_EV_METHOD_EXIT:
		return method_return(s, out, meta, ev);
	case WIRE_EV_THREAD_START:
		return thread_start(s, out, meta);
	case WIRE_EV_THREAD_END:
		return thread_end(s, out, meta);
	case WIRE_EV_CLASS_LOAD:
		return class_load(s, out, meta, ev);
	case WIRE_EV_GC_START:
		return gc_record(s, out, meta, TRC_GC_START);
	case WIRE_EV_GC_FINISH:
		return gc_record(s, out, meta, TRC_GC_STOP);
	case WIRE_EV_LOST:
		return note_lost(s, out, meta->ts_ns, ev->lost, meta->pid, meta->tid);
	default: /* the format has no place for the others */
		return 0;
	}
}

static int trc_lost(void *state, struct record_out *out, uint64_t ts_ns, uint64_t count)
{
	return note_lost(state, out, ts_ns, count, 0, 0);
}

static int trc_begin(void *state, struct record_out *out, const struct record_info *info)
{
	struct trc_state *s = state;
	uint32_t wall_s = (uint32_t)(info->start_wall_ns / 1000000000u), c;
	int rc;

	if (!(s->name = malloc(0x10000)) || rec_buf_begin(&s->msg, TRC_HEADER_SIZE) < 0)
		return -ENOMEM;
	rec_put_u8(&s->msg, TRC_BINARY);
	rec_put_u32(&s->msg, TRC_VERSION);
	rec_put_u32(&s->msg, TRC_LINUX_X86);
	rec_put_u32(&s->msg, 0);      /* numberOfEvents, maxThreads, maxClasses: patched at the end */
	rec_put_u32(&s->msg, 0);
	rec_put_u32(&s->msg, 0);
	rec_put_u32(&s->msg, TRC_TICKS_PER_US);
	rec_put_u64(&s->msg, info->start_ns);
	rec_put_u32(&s->msg, wall_s); /* vmStartTime: the JVM's is not known */
	rec_put_u32(&s->msg, wall_s);
	rec_put_u32(&s->msg, 0);      /* overhead */
	if ((rc = record_out_write(out, s->msg.p, s->msg.len)) < 0)
		return rc;
	/* the client's quirk: these two, at these ids */
	if ((rc = class_id(s, "java.lang.Object", 16, 0, &c)) < 0 || (rc = describe_class(s, out, c)) < 0 ||
	    (rc = class_id(s, "java.lang.Thread", 16, 0, &c)) < 0 || (rc = describe_class(s, out, c)) < 0)
		return rc;
	return 0;
}

static int trc_end(void *state, struct record_out *out)
{
	struct trc_state *s = state;
	uint32_t nclasses = s->class_keys.n < TRC_MAX_CLASSES ? s->class_keys.n : TRC_MAX_CLASSES;
	int rc = out->error;

	/* a header that was never written (begin failed) has nothing to patch */
	if (!rc && out->offset >= TRC_HEADER_SIZE && rec_buf_begin(&s->msg, 12) == 0) {
		/* a count that does not fit is left 0: "not known" */
		rec_put_u32(&s->msg, s->events <= UINT32_MAX ? (uint32_t)s->events : 0);
		rec_put_u32(&s->msg, s->threads.n);
		rec_put_u32(&s->msg, nclasses);
		rc = record_out_patch(out, TRC_AT_EVENTS, s->msg.p, s->msg.len);
	}
	for (size_t i = 0; i < s->classes_cap; i++)
		free(s->classes[i].methods);
	free(s->classes);
	free(s->methods);
	free(s->name);
	rec_threads_free(&s->threads);
	rec_strmap_free(&s->class_keys);
	rec_strmap_free(&s->method_names);
	rec_buf_free(&s->msg);
	memset(s, 0, sizeof *s);
	return rc;
}

const struct record_format record_format_trc = {
	.name = "trc",
	.extension = ".trc",
	.state_size = sizeof(struct trc_state),
	.begin = trc_begin,
	.event = trc_event,
	.end = trc_end,
	.lost = trc_lost,
	.read = trc_read,
	.needs = &record_needs_thread_names,
};

/* rec_jfr.c: the JFR recording format (record.h), its writer (with
 * rec_jfr_pairs.c, the events in two halves); the reader is
 * rec_jfr_read.c. doc/recording-jfr.md says which JFR event each of ours
 * becomes, with which fields.
 *
 * A chunk is built in memory and handed to record_out whole, header
 * included, when it closes: at each tick that finds events in it, when it
 * reaches JFR_CHUNK_BYTES, and at the end. So the file on disk is a run of
 * complete chunks between two writes, which is what the JDK's `jfr` reads
 * (it refuses a file whose last chunk is cut). Method enters wait for their
 * return on a stack of open calls per thread (pairs of monitor and GC
 * events likewise), across chunks: the constant pools keep their ids for
 * the whole recording, and each chunk writes the entries its events use.
 */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec_jfr_read.h"
#include "rec_jfr_types.h"
#include "rec_jfr_value.h"
#include "rec_jfr_writer.h"

#define JFR_CHUNK_BYTES (8u << 20)
#define TICKS_PER_SECOND 1000000000u   /* our ticks are CLOCK_MONOTONIC nanoseconds */

/* ---- records: a type, fields, then the size in front */
size_t jw_begin(struct jfr_writer *w, unsigned type)
{
	size_t at;

	if (w->chunk.len == 0) {
		jfr_buf_reserve(&w->chunk, JFR_HEADER_SIZE);
		if (!w->chunk.error) {
			memset(w->chunk.data, 0, JFR_HEADER_SIZE);
			w->chunk.len = JFR_HEADER_SIZE;
		}
	}
	at = w->chunk.len;
	jfr_put_u8(&w->chunk, 0);        /* the size: one byte, most often */
	jfr_put_varint(&w->chunk, type);
	return at;
}

/* The record from AT on is complete; its time is TICKS. */
void jw_end(struct jfr_writer *w, size_t at, uint64_t ticks)
{
	struct jfr_buf *c = &w->chunk;
	size_t body = c->len - at - 1, size = jfr_record_size(body), extra = size - body - 1;

	if (c->error)
		return;
	if (extra && jfr_buf_reserve(c, extra)) {
		memmove(c->data + at + 1 + extra, c->data + at + 1, body);
		c->len += extra;
	}
	if (c->error)
		return;
	jfr_varint_encode(c->data + at, size);
	if (!w->records++ || ticks < w->first)
		w->first = ticks;
	if (ticks > w->last || w->records == 1)
		w->last = ticks;
}

void jw_key(struct jfr_buf *b, uint32_t id)
{
	jfr_put_varint(b, id == JFR_NONE ? 0 : (uint64_t)id + 1);
}

void jw_bool(struct jfr_buf *b, bool v)
{
	jfr_put_u8(b, v ? 1 : 0);
}

/* Values as two strings: their --print text and their type letters
 * (rec_jfr_value.h). */
int jw_values(struct jfr_writer *w, struct jfr_buf *b, const struct wire_value *v, size_t n)
{
	char types[WIRE_MAX_VALUES];
	int rc;

	w->text.len = 0;
	rc = jfr_values_format(&w->text, v, n);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		types[i] = (char)v[i].type;
	jfr_put_string(b, (const char *)w->text.data, w->text.len);
	jfr_put_string(b, types, n);
	return b->error;
}

uint32_t jw_stack(struct jfr_writer *w, const struct wire_event *ev)
{
	if (!ev->has_trailer || !(ev->trailer.flags & WIRE_TF_STACK))
		return JFR_NONE;
	return jfr_pool_stack(&w->pools, &ev->trailer);
}

/* ---- other events: each one record */
/* An instant event whose fields after the common ones the caller adds:
 * startTime, eventThread and, when the type has one, stackTrace. */
static size_t instant(struct jfr_writer *w, unsigned type, uint64_t ts, uint32_t thread, bool has_stack,
		      const struct wire_event *ev)
{
	size_t at = jw_begin(w, type);

	jfr_put_varint(&w->chunk, ts);
	if (type == JFR_E_CLASS_LOAD)
		jfr_put_varint(&w->chunk, 0);   /* duration: JVMTI tells the moment only */
	jw_key(&w->chunk, thread);
	if (has_stack)
		jw_key(&w->chunk, jw_stack(w, ev));
	return at;
}

static uint32_t thread_entry(struct jfr_writer *w, const struct print_meta *m)
{
	if (m->thread_name)
		return jfr_pool_thread_named(&w->pools, m->pid, m->tid, m->thread_name, m->thread_name_len);
	return jfr_pool_thread(&w->pools, m->pid, m->tid);
}

/* Write the chunk built so far: its constant pools and metadata after the
 * events, its header patched, the whole handed to OUT at once. */
static int close_chunk(struct jfr_writer *w, struct record_out *out, bool final)
{
	struct jfr_buf *c = &w->chunk;
	uint64_t cp, meta, wall;
	int rc;

	if (!w->records)
		return 0;
	cp = c->len;
	rc = jfr_pool_write(&w->pools, c, w->last);
	if (rc < 0)
		return rc;
	meta = c->len;
	jfr_put_bytes(c, w->meta.data, w->meta.len);
	if (c->error)
		return c->error;
	wall = w->info.start_wall_ns + (w->first - w->info.start_ns);   /* modulo 2^64: earlier is fine */
	memcpy(c->data, JFR_MAGIC, 4);
	jfr_store_be(c->data + 4, JFR_VERSION_MAJOR, 2);
	jfr_store_be(c->data + 6, JFR_VERSION_MINOR, 2);
	jfr_store_be(c->data + JFR_HDR_SIZE, c->len, 8);
	jfr_store_be(c->data + JFR_HDR_CP, cp, 8);
	jfr_store_be(c->data + JFR_HDR_META, meta, 8);
	jfr_store_be(c->data + JFR_HDR_START_NS, wall, 8);
	jfr_store_be(c->data + JFR_HDR_DURATION, w->last - w->first, 8);
	jfr_store_be(c->data + JFR_HDR_TICKS, w->first, 8);
	jfr_store_be(c->data + JFR_HDR_FREQ, TICKS_PER_SECOND, 8);
	c->data[JFR_HDR_STATE] = 0;
	jfr_store_be(c->data + JFR_HDR_FLAGS, JFR_FLAG_COMPRESSED_INTS | (final ? JFR_FLAG_FINAL_CHUNK : 0), 2);
	rc = record_out_write(out, c->data, c->len);
	if (rc == 0)
		rc = record_out_flush(out);
	c->len = 0;
	w->records = 0;
	return rc;
}

static int begin(void *state, struct record_out *out, const struct record_info *info)
{
	struct jfr_writer *w = state;
	int rc;

	w->info = *info;
	rc = jfr_pools_init(&w->pools);
	if (rc == 0)
		rc = jfr_types_metadata(&w->meta);
	if (rc < 0) {
		jfr_pools_free(&w->pools);
		jfr_buf_free(&w->meta);
	}
	return rc;
}

static int event(void *state, struct record_out *out, const struct print_meta *m, const struct wire_event *ev)
{
	struct jfr_writer *w = state;
	struct thread_state *t;
	struct jvm_state *j;
	uint32_t thread;
	size_t at;
	int rc = 0;

	if (w->error)
		return w->error;
	if (m->thread_name)   /* a name the bridge knows: the thread's from now on */
		jfr_pool_thread_named(&w->pools, m->pid, m->tid, m->thread_name, m->thread_name_len);
	if (m->java_tid)
		jfr_pool_thread_java_id(&w->pools, m->pid, m->tid, m->java_tid);
	switch (ev->code) {
	case WIRE_EV_METHOD_ENTER:
	case WIRE_EV_METHOD_EXIT:
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
	case WIRE_EV_MONITOR_WAIT:
	case WIRE_EV_MONITOR_WAITED:
		t = jw_thread(w, m->pid, m->tid);
		if (!t) {
			rc = -ENOMEM;
			break;
		}
		if (ev->code == WIRE_EV_METHOD_ENTER)
			rc = jw_call_enter(w, t, m, ev);
		else if (ev->code == WIRE_EV_METHOD_EXIT)
			jw_call_exit(w, t, m, ev);
		else if (ev->code == WIRE_EV_MONITOR_ENTER)
			jw_monitor_begin(w, t, &t->enter, m, ev);
		else if (ev->code == WIRE_EV_MONITOR_WAIT)
			jw_monitor_begin(w, t, &t->wait, m, ev);
		else
			jw_monitor_end(w, t, ev->code == WIRE_EV_MONITOR_WAITED ? &t->wait : &t->enter, m, ev);
		break;
	case WIRE_EV_GC_START:
	case WIRE_EV_GC_FINISH:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		j = jw_jvm(w, m->pid);
		if (!j) {
			rc = -ENOMEM;
			break;
		}
		jw_gc(w, j, thread, m, ev->code == WIRE_EV_GC_START);
		break;
	case WIRE_EV_THREAD_START:
		thread = thread_entry(w, m);
		at = instant(w, JFR_E_THREAD_START, m->ts_ns, thread, true, ev);
		jw_key(&w->chunk, thread);
		jw_key(&w->chunk, JFR_NONE);   /* parentThread: JVMTI does not say */
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_THREAD_END:
		thread = thread_entry(w, m);
		at = instant(w, JFR_E_THREAD_END, m->ts_ns, thread, false, ev);
		jw_key(&w->chunk, thread);
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_THREAD_NAME:
		jfr_pool_thread_named(&w->pools, m->pid, m->tid ? m->tid : ev->thread, ev->name.ptr, ev->name.len);
		break;
	case WIRE_EV_CLASS_LOAD:
	case WIRE_EV_CLASS_PREPARE:
	case WIRE_EV_CLASS_UNLOAD: {
		static const unsigned types[] = { JFR_E_CLASS_LOAD, JFR_E_CLASS_PREPARE, JFR_E_CLASS_UNLOAD };
		unsigned type = types[ev->code == WIRE_EV_CLASS_LOAD ? 0 : ev->code == WIRE_EV_CLASS_PREPARE ? 1 : 2];

		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, type, m->ts_ns, thread, type != JFR_E_CLASS_UNLOAD, ev);
		jw_key(&w->chunk, jfr_pool_class_sig(&w->pools, ev->name.ptr, ev->name.len));
		if (type != JFR_E_CLASS_PREPARE)
			jw_key(&w->chunk, JFR_NONE);    /* definingClassLoader */
		if (type == JFR_E_CLASS_LOAD)
			jw_key(&w->chunk, JFR_NONE);    /* initiatingClassLoader */
		jw_end(w, at, m->ts_ns);
		break;
	}
	case WIRE_EV_EXCEPTION_THROWN:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, JFR_E_EXCEPTION_THROW, m->ts_ns, thread, false, ev);
		/* the JDK's event has no field for the throwing method: it is
		 * the stack's top frame, or the only frame of a truncated one */
		if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_STACK) && ev->trailer.depth > 0)
			jw_key(&w->chunk, jw_stack(w, ev));
		else
			jw_key(&w->chunk, jfr_pool_stack_top(&w->pools, ev->method.ptr, ev->method.len));
		jfr_put_string(&w->chunk, NULL, 0);   /* message: not sent */
		jw_key(&w->chunk, jfr_pool_class_sig(&w->pools, ev->name.ptr, ev->name.len));
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_EXCEPTION_CATCH:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, JFR_E_EXCEPTION_CATCH, m->ts_ns, thread, true, ev);
		jw_key(&w->chunk, jfr_pool_class_sig(&w->pools, ev->name.ptr, ev->name.len));
		jw_key(&w->chunk, jfr_pool_method(&w->pools, ev->method.ptr, ev->method.len));
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_METHOD_COMPILE:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, JFR_E_METHOD_COMPILE, m->ts_ns, thread, false, ev);
		jw_key(&w->chunk, jfr_pool_method(&w->pools, ev->name.ptr, ev->name.len));
		jfr_put_int(&w->chunk, (int32_t)ev->u32);
		rc = jw_values(w, &w->chunk, ev->values, ev->nvalues);
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_VM_INIT:
	case WIRE_EV_VM_DEATH:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, ev->code == WIRE_EV_VM_INIT ? JFR_E_VM_INIT : JFR_E_VM_DEATH, m->ts_ns, thread, false,
			     ev);
		jw_end(w, at, m->ts_ns);
		break;
	case WIRE_EV_LOST:
		thread = jfr_pool_thread(&w->pools, m->pid, m->tid);
		at = instant(w, JFR_E_LOST, m->ts_ns, thread, false, ev);
		jfr_put_varint(&w->chunk, ev->lost);
		jw_bool(&w->chunk, false);
		jw_end(w, at, m->ts_ns);
		break;
	default:   /* Hello, Notice, Match: the connection's, not the program's */
		break;
	}
	if (rc == 0)
		rc = w->pools.error ? w->pools.error : w->chunk.error;
	if (rc == 0 && w->chunk.len >= JFR_CHUNK_BYTES)
		rc = close_chunk(w, out, false);
	if (rc < 0)
		w->error = rc;
	return rc;
}

static int tick(void *state, struct record_out *out, uint64_t now_ns)
{
	struct jfr_writer *w = state;
	int rc;

	if (w->error)
		return w->error;
	rc = close_chunk(w, out, false);
	if (rc < 0)
		w->error = rc;
	return rc;
}

static int lost(void *state, struct record_out *out, uint64_t ts_ns, uint64_t count)
{
	struct jfr_writer *w = state;
	size_t at;

	if (w->error)
		return w->error;
	at = instant(w, JFR_E_LOST, ts_ns, JFR_NONE, false, NULL);
	jfr_put_varint(&w->chunk, count);
	jw_bool(&w->chunk, true);
	jw_end(w, at, ts_ns);
	return w->error = w->chunk.error;
}

/* What waits for a second half is written alone, then the last chunk. */
static int end(void *state, struct record_out *out)
{
	struct jfr_writer *w = state;
	int rc = w->error;

	if (rc == 0)
		rc = jw_flush_waiting(w);
	if (rc == 0)
		rc = close_chunk(w, out, true);
	jw_free_waiting(w);
	jfr_pools_free(&w->pools);
	jfr_buf_free(&w->meta);
	jfr_buf_free(&w->chunk);
	jfr_buf_free(&w->text);
	memset(w, 0, sizeof *w);
	return rc;
}

const struct record_format record_format_jfr = {
	.name = "jfr",
	.extension = ".jfr",
	.state_size = sizeof(struct jfr_writer),
	.begin = begin,
	.event = event,
	.tick = tick,
	.end = end,
	.lost = lost,
	.read = jfr_read,
	.needs = &record_needs_thread_names,
};

/* jfr_live.c: see jfr_live.h. The chunk's bytes are held whole (a
 * constant's value is read where its checkpoint put it, and the metadata a
 * streaming JVM writes at its first flush may follow events and
 * checkpoints); records are framed as they complete; checkpoints are indexed
 * once there is metadata (all of them again after a new metadata event:
 * the class indexes change); an event is resolved once a checkpoint
 * follows it, by jfr_live_event.c. A JVM's flush writes several checkpoints
 * one after the other, and an event may refer to a constant of the last of
 * them: events wait for the checkpoint that ends a flush (or a chunk), the
 * one with JFR_CHECKPOINT_FLUSH or _HEADER set, as the JDK's streaming
 * reader waits for the header that says where the flush ends. */
#include "jfr_live.h"
#include "jfr_live_event.h"
#include "rec_jfr_meta.h"
#include "rec_tables.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(JFR_LIVE_MAX_CHUNK <= UINT32_MAX, "a chunk's offsets are kept in 32 bits");

struct jfr_live {
	jfr_live_want_fn want;
	jfr_live_event_fn fn;
	void *ctx;
	struct jfr_buf buf;       /* the chunk's bytes so far */
	struct jfr_chunk ch;      /* over buf; classes of the last metadata event */
	bool in_chunk, failed, header_read, have_meta;
	size_t scan;              /* the next record to frame */
	uint32_t *ckpts;          /* the checkpoints framed (a chunk's offsets fit), how many indexed */
	size_t nckpts, capckpts, indexed;
	unsigned nmeta;           /* metadata events in the chunk */
	size_t ready;             /* events before this offset have their constants */
	size_t next;              /* the first record not yet delivered (or passed) */
	bool *wanted;             /* per class of the metadata */
	uint8_t *roles;           /* per field of the metadata */
	uint64_t unresolved;
	struct jfr_live_flat flat;
};

int jfr_live_new(struct jfr_live **out, jfr_live_want_fn want, jfr_live_event_fn fn, void *ctx)
{
	struct jfr_live *s = calloc(1, sizeof *s);

	*out = s;
	if (!s)
		return -ENOMEM;
	s->want = want;
	s->fn = fn;
	s->ctx = ctx;
	/* a constant given again (a thread renamed) is new for the events after
	 * it, as for the JDK's streaming reader */
	s->ch.last_wins = true;
	return 0;
}

static void drop_meta(struct jfr_live *s)
{
	struct jfr_chunk *ch = &s->ch;

	free(ch->classes);
	free(ch->fields);
	free(ch->strings);
	free(ch->pool);
	ch->classes = NULL;
	ch->fields = NULL;
	ch->strings = NULL;
	ch->pool = NULL;
	ch->nclasses = ch->nfields = 0;
	ch->npool = ch->pool_mask = 0;
	free(s->wanted);
	s->wanted = NULL;
	free(s->roles);
	s->roles = NULL;
	s->flat.roles = NULL;
	s->have_meta = false;
	s->indexed = 0;
}

void jfr_live_free(struct jfr_live *s)
{
	if (!s)
		return;
	drop_meta(s);
	jfr_buf_free(&s->buf);
	free(s->ckpts);
	jfr_live_flat_free(&s->flat);
	free(s);
}

/* ---- the header */
static int read_header(struct jfr_live *s, struct record_error *err)
{
	const uint8_t *h = s->buf.data;
	unsigned major = (unsigned)jfr_load_be(h + 4, 2);

	if (memcmp(h, JFR_MAGIC, 4) != 0)
		return jfr_fail(err, 0, "no JFR chunk starts here (its magic is not \"FLR\\0\")");
	if (major != JFR_VERSION_MAJOR)
		return jfr_fail(err, 4, "JFR chunk version %u.%u: only version 2 is read", major,
				(unsigned)jfr_load_be(h + 6, 2));
	if (!(jfr_load_be(h + JFR_HDR_FLAGS, 2) & JFR_FLAG_COMPRESSED_INTS))
		return jfr_fail(err, JFR_HDR_FLAGS, "the chunk's integers are not compressed: not read");
	s->ch.ticks = jfr_load_be(h + JFR_HDR_TICKS, 8);
	s->ch.freq = jfr_load_be(h + JFR_HDR_FREQ, 8);
	s->flat.start_ns = (int64_t)jfr_load_be(h + JFR_HDR_START_NS, 8);
	if (s->ch.freq == 0)
		return jfr_fail(err, JFR_HDR_FREQ, "the chunk's clock has 0 ticks per second");
	s->header_read = true;
	return 0;
}

/* ---- metadata and checkpoints */
static int index_checkpoints(struct jfr_live *s, struct record_error *err)
{
	for (; s->indexed < s->nckpts; s->indexed++) {
		int64_t delta;
		uint8_t kind;
		int rc = jfr_index_checkpoint(&s->ch, s->ckpts[s->indexed], &delta, &kind, err);

		if (rc < 0)
			return rc;
		if (kind & (JFR_CHECKPOINT_FLUSH | JFR_CHECKPOINT_HEADER))
			s->ready = s->ckpts[s->indexed];
	}
	return 0;
}

static int metadata(struct jfr_live *s, size_t at, struct record_error *err)
{
	int rc;

	/* each indexes every checkpoint again: a bound, or a stream of them
	 * would cost the square of its length */
	if (++s->nmeta > JFR_LIVE_MAX_METADATA) {
		err->offset = at;
		snprintf(err->text, sizeof err->text, "more than %u metadata events in one chunk", JFR_LIVE_MAX_METADATA);
		return -E2BIG;
	}
	drop_meta(s);
	if ((rc = jfr_meta_read(&s->ch, at, NULL, 0, err)) < 0)
		return rc;
	s->wanted = calloc(s->ch.nclasses ? s->ch.nclasses : 1, sizeof *s->wanted);
	if (!s->wanted || jfr_live_roles(&s->ch, &s->roles) < 0)
		return -ENOMEM;
	s->flat.roles = s->roles;
	for (uint32_t i = 0; i < s->ch.nclasses; i++)
		s->wanted[i] = s->ch.classes[i].event && s->want(s->ctx, s->ch.classes[i].name);
	s->have_meta = true;
	return index_checkpoints(s, err);
}

/* ---- events */
/* The size and *TYPE of a record framed before (by frame()). */
static size_t frame_at(const struct jfr_live *s, size_t at, uint64_t *type)
{
	struct jfr_cursor c = { s->buf.data, at, s->buf.len, false };
	size_t size = (size_t)jfr_get_varint(&c);

	*type = jfr_get_varint(&c);
	return size;
}

/* The class of the event record at AT, JFR_NO_CLASS when it is none we want. */
static uint32_t wanted_class(const struct jfr_live *s, size_t at)
{
	struct jfr_cursor c = { s->buf.data, at, s->buf.len, false };
	uint32_t cls;

	jfr_get_varint(&c);
	cls = jfr_class_index(&s->ch, jfr_get_varint(&c));
	return cls != JFR_NO_CLASS && s->wanted[cls] ? cls : JFR_NO_CLASS;
}

/* Deliver the held events that have a checkpoint after them (STRICT: all,
 * those that refer to a constant no pool has counted, not delivered). The
 * records are framed again rather than kept in a list: a chunk of tiny
 * records would make the list larger than the chunk. */
static int deliver(struct jfr_live *s, bool strict, struct record_error *err)
{
	size_t end = strict ? s->scan : s->ready;

	if (!s->have_meta)
		return 0;
	while (s->next < end) {
		size_t at = s->next;
		uint64_t type;
		uint32_t cls;
		struct jfr_live_event ev;
		int rc;

		s->next += frame_at(s, at, &type);
		if (type <= JFR_TYPE_CPOOL || (cls = wanted_class(s, at)) == JFR_NO_CLASS)
			continue;
		rc = jfr_live_resolve(&s->flat, &s->ch, at, cls, strict, &ev, err);
		if (rc == 1)
			s->unresolved++;
		else if (rc < 0 || (rc = s->fn(s->ctx, &ev)) < 0)
			return rc;
	}
	return 0;
}

/* ---- records */
/* Frame the record at s->scan: 0 and *SIZE 0 when it is not whole yet. */
static int frame(struct jfr_live *s, size_t *size, uint64_t *type, struct record_error *err)
{
	struct jfr_cursor c = { s->buf.data, s->scan, s->buf.len, false };
	uint64_t n = jfr_get_varint(&c);

	*size = 0;
	if (c.bad)
		return 0;
	if (n == 0 || n > JFR_LIVE_MAX_CHUNK)
		return jfr_fail(err, s->scan, "a record of %" PRIu64 " bytes", n);
	if (n > s->buf.len - s->scan)
		return 0;
	c.end = s->scan + (size_t)n;
	*type = jfr_get_varint(&c);
	if (c.bad)
		return jfr_fail(err, s->scan, "a record of %" PRIu64 " bytes ends inside its type", n);
	*size = (size_t)n;
	return 0;
}

static int records(struct jfr_live *s, struct record_error *err)
{
	for (;;) {
		size_t at = s->scan, size;
		uint64_t type;
		int rc = frame(s, &size, &type, err);

		if (rc < 0 || size == 0)
			return rc;
		s->scan += size;
		if (type == JFR_TYPE_METADATA) {
			rc = metadata(s, at, err);
		} else if (type == JFR_TYPE_CPOOL) {
			rc = rec_grow((void **)&s->ckpts, &s->capckpts, s->nckpts + 1, sizeof *s->ckpts);
			if (rc == 0) {
				s->ckpts[s->nckpts++] = (uint32_t)at;
				if (s->have_meta)
					rc = index_checkpoints(s, err);
			}
		}
		/* delivered record by record: the same events, whatever the pieces */
		if (rc == 0 && type <= JFR_TYPE_CPOOL)
			rc = deliver(s, false, err);
		if (rc < 0)
			return rc;
	}
}

static int fail(struct jfr_live *s, int rc)
{
	s->failed = true;
	return rc;
}

int jfr_live_feed(struct jfr_live *s, const uint8_t *bytes, size_t len, struct record_error *err)
{
	bool over;
	int rc;

	if (!s->in_chunk && len > 0) {   /* the feeder's mistake: said, not hidden */
		err->offset = 0;
		snprintf(err->text, sizeof err->text, "%zu bytes fed with no chunk begun", len);
		return -EINVAL;
	}
	if (s->failed || len == 0)
		return 0;
	/* what fits is taken first: the refusal does not depend on the pieces */
	over = len > JFR_LIVE_MAX_CHUNK - s->buf.len;
	if (over)
		len = JFR_LIVE_MAX_CHUNK - s->buf.len;
	if (!jfr_buf_reserve(&s->buf, len))
		return fail(s, -ENOMEM);
	memcpy(s->buf.data + s->buf.len, bytes, len);
	s->buf.len += len;
	s->ch.data = s->buf.data;
	s->ch.start = 0;
	s->ch.end = s->buf.len;
	if (s->buf.len >= JFR_HEADER_SIZE) {
		if (!s->header_read && (rc = read_header(s, err)) < 0)
			return fail(s, rc);
		if ((rc = records(s, err)) < 0)
			return fail(s, rc);
	}
	if (over) {
		err->offset = JFR_LIVE_MAX_CHUNK;
		snprintf(err->text, sizeof err->text, "a chunk of more than %u bytes", JFR_LIVE_MAX_CHUNK);
		return fail(s, -E2BIG);
	}
	return 0;
}

/* The chunk's events still held never get their checkpoint: counted (all
 * of them without metadata, which would say which are wanted). */
static void forget_chunk(struct jfr_live *s)
{
	for (size_t at = s->next, size; !s->failed && at < s->scan; at += size) {
		uint64_t type;

		size = frame_at(s, at, &type);
		if (type > JFR_TYPE_CPOOL && (!s->have_meta || wanted_class(s, at) != JFR_NO_CLASS))
			s->unresolved++;
	}
	drop_meta(s);
	s->buf.len = 0;
	s->buf.error = 0;
	s->nckpts = 0;
	s->nmeta = 0;
	s->scan = s->next = JFR_HEADER_SIZE;
	s->ready = 0;
	s->in_chunk = s->failed = s->header_read = false;
}

/* The chunk ends: its held events are delivered when every constant they
 * refer to is there, counted otherwise. A chunk cut inside a record (the
 * JVM ended mid-flush) refuses nothing before it, but what it held waited
 * for that flush's end, which never came: all of it is counted
 * (forget_chunk), never delivered with constants the cut record may have
 * changed. */
static int end_chunk(struct jfr_live *s, struct record_error *err)
{
	bool cut = false;
	int rc = 0;

	if (s->in_chunk && !s->failed) {
		if (s->buf.len < JFR_HEADER_SIZE)
			rc = jfr_fail(err, 0, "the stream ended %zu bytes into a chunk header of %u", s->buf.len,
				      JFR_HEADER_SIZE);
		else if (s->scan < s->buf.len)
			cut = (rc = jfr_fail(err, s->scan, "the stream ended inside a record: %zu bytes of it came",
					     s->buf.len - s->scan)) < 0;
		else
			rc = deliver(s, true, err);
		if (rc < 0 && !cut)
			s->failed = true;
	}
	forget_chunk(s);
	return rc;
}

int jfr_live_chunk_begin(struct jfr_live *s)
{
	struct record_error unsaid;
	int rc = s->in_chunk && s->buf.len > 0 ? end_chunk(s, &unsaid) : 0;

	forget_chunk(s);
	s->in_chunk = true;
	return rc == -EINVAL || rc == -E2BIG ? 0 : rc;
}

int jfr_live_end(struct jfr_live *s, uint64_t *unresolved, struct record_error *err)
{
	int rc = end_chunk(s, err);

	if (unresolved)
		*unresolved = s->unresolved;
	s->unresolved = 0;
	return rc;
}

int jfr_live_types(const struct jfr_live *s, jfr_live_type_fn fn, void *ctx)
{
	struct jfr_live_flat fl;
	int rc = 0;

	if (!s->have_meta)
		return 0;
	memset(&fl, 0, sizeof fl);
	for (uint32_t i = 0; i < s->ch.nclasses && rc >= 0; i++) {
		const char **paths;
		size_t n;

		if (!s->ch.classes[i].event)
			continue;
		rc = jfr_live_type_paths(&fl, &s->ch, i, &paths, &n);
		if (rc == 0)
			rc = fn(ctx, s->ch.classes[i].name, paths, n);
	}
	jfr_live_flat_free(&fl);
	return rc;
}

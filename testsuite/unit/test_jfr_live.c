/* Unit tests of the live JFR chunk parser (formats/jfr_live.c,
 * jfr_live_event.c) on hand-built chunks (jfr_live_chunk.c): every string
 * encoding, every primitive, a nested struct, an array, a simple type, a
 * stack trace, constants resolved at the checkpoint that follows the event,
 * metadata that comes after events, pieces of one byte, the end of the
 * stream, the WANT predicate, the types' paths, and malformed input refused
 * with the message and the offset. testsuite/jfr_live.bats compares it with
 * the JDK's own reader on real recordings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_live.h"
#include "jfr_live_chunk.h"
#include "rec_jfr_parse.h"

/* ---- what the callbacks saw, as text */
struct seen {
	char text[16][2048];
	size_t n;
	const char *only;       /* the one type wanted; NULL: all */
	unsigned asked;
	int fail_with;          /* the callback's return */
};

static bool want(void *ctx, const char *type)
{
	struct seen *s = ctx;

	s->asked++;
	return !s->only || strcmp(s->only, type) == 0;
}

static int got(void *ctx, const struct jfr_live_event *ev)
{
	struct seen *s = ctx;
	char *p;
	size_t room = sizeof s->text[0];
	int n;

	assert_true(s->n < 16);
	p = s->text[s->n++];
	n = snprintf(p, room, "%s start=%" PRId64 " dur=%" PRId64 " tid=%" PRIu64 " thread=%s trunc=%d", ev->type,
		     ev->start_ns - (int64_t)JLC_START_NS, ev->duration_ns, ev->os_tid, ev->thread_name,
		     ev->stack_truncated);
	for (size_t i = 0; i < ev->nframes; i++)
		n += snprintf(p + n, room - (size_t)n, " | %s%s:%d %s", ev->frames[i].method, ev->frames[i].descriptor,
			      ev->frames[i].line, ev->frames[i].type);
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct jfr_live_field *f = &ev->fields[i];

		switch (f->v.kind) {
		case JFR_LIVE_LONG:
			n += snprintf(p + n, room - (size_t)n, " %s=%" PRId64, f->path, f->v.l);
			break;
		case JFR_LIVE_DOUBLE:
			n += snprintf(p + n, room - (size_t)n, " %s=%g", f->path, f->v.d);
			break;
		case JFR_LIVE_STRING:
			assert_int_equal(strlen(f->v.s), f->v.slen);
			n += snprintf(p + n, room - (size_t)n, " %s='%s'", f->path, f->v.s);
			break;
		default:
			n += snprintf(p + n, room - (size_t)n, " %s=null", f->path);
		}
	}
	return s->fail_with;
}

static const char EVERY[] =
	"test.Every start=1000 dur=250 tid=4242 thread=caf\xc3\xa9 trunc=1 | java.lang.Thread.run()V:77 Inlined"
	" eventThread.osName='os-1' eventThread.osThreadId=4242 eventThread.javaName='caf\xc3\xa9' s='pooled'"
	" n=-5 u=4294967291 pair.a=3 pair.b=null arr[0].a=1 arr[0].b='x' arr[1].a=2 arr[1].b='' cls.name='java/lang/Thread'"
	" f=1.5 d=-2.25 b=-1 c=233 z=1 sh=-2 span=3000000";

struct parser {
	struct jfr_live *s;
	struct seen seen;
	struct record_error err;
};

static void start(struct parser *p)
{
	memset(p, 0, sizeof *p);
	assert_int_equal(jfr_live_new(&p->s, want, got, &p->seen), 0);
	assert_int_equal(jfr_live_chunk_begin(p->s), 0);
}

static int feed(struct parser *p, const struct jfr_buf *b, size_t from, size_t to, size_t piece)
{
	for (size_t at = from; at < to;) {
		size_t n = piece < to - at ? piece : to - at;
		int rc = jfr_live_feed(p->s, b->data + at, n, &p->err);

		if (rc)
			return rc;
		at += n;
	}
	return 0;
}

/* A parser fed all of B in pieces of PIECE, which it takes. */
static void run(struct parser *p, const struct jfr_buf *b, size_t piece)
{
	start(p);
	assert_int_equal(feed(p, b, 0, b->len, piece), 0);
}

/* N events so far, each the usual test.Every. */
static void assert_every(const struct parser *p, size_t n)
{
	assert_int_equal(p->seen.n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(p->seen.text[i], EVERY);
}

static void done(struct parser *p, struct jfr_buf *b)
{
	jfr_live_free(p->s);
	jfr_buf_free(b);
}

/* The stream ends cleanly, and the test with it. */
static void end_ok(struct parser *p, struct jfr_buf *b)
{
	assert_int_equal(jfr_live_end(p->s, NULL, &p->err), 0);
	done(p, b);
}

/* ---- tests */
static void every_value_resolved_at_the_next_checkpoint(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	size_t before;
	uint64_t unresolved = 99;

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 1);
	before = b.len;
	jlc_constants(&b);
	start(&p);
	assert_int_equal(feed(&p, &b, 0, before, b.len), 0);
	assert_int_equal(p.seen.n, 0);       /* its constants are not there yet */
	assert_int_equal(feed(&p, &b, before, b.len - 1, b.len), 0);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(feed(&p, &b, b.len - 1, b.len, b.len), 0);
	assert_every(&p, 1);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), 0);
	assert_int_equal(unresolved, 0);
	assert_int_equal(p.seen.asked, 2);   /* once per event type */
	done(&p, &b);
}

/* The first checkpoint of a flush does not end it: the event waits. */
static void events_wait_for_the_flush_s_last_checkpoint(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	size_t second;

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 1);
	second = jlc_constants(&b);
	start(&p);
	assert_int_equal(feed(&p, &b, 0, second, b.len), 0);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(feed(&p, &b, second, b.len, b.len), 0);
	assert_every(&p, 1);
	done(&p, &b);
}

/* A chunk that ended with no flush after its last events: the next
 * chunk's begin delivers them (their constants are all there). */
static void the_next_chunk_ends_the_last(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	uint64_t unresolved = 9;

	(void)state;
	jlc_usual(&b);
	jlc_every(&b, 1);
	jlc_every(&b, 2);                        /* thread 2 is in no pool */
	run(&p, &b, b.len);
	assert_int_equal(p.seen.n, 1);
	assert_int_equal(jfr_live_chunk_begin(p.s), 0);
	assert_int_equal(p.seen.n, 2);
	assert_string_equal(p.seen.text[1], EVERY);
	b.len = 0;
	jlc_usual(&b);
	assert_int_equal(feed(&p, &b, 0, b.len, b.len), 0);
	assert_int_equal(p.seen.n, 3);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), 0);
	assert_int_equal(unresolved, 1);
	done(&p, &b);
}

/* An event is resolved at the flush after it, whether the bytes come
 * whole or in pieces: a constant of a later flush stays unknown to it (fed
 * whole, the parser once resolved events after every record was framed). */
static void the_pieces_do_not_change_the_events(void **state)
{
	struct jfr_buf b = { 0 };
	char text[2][2048];

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 2);
	jlc_constants(&b);
	jlc_thread(&b, 2, "later");
	for (size_t piece = 1, i = 0; i < 2; piece = b.len, i++) {
		struct parser p;

		start(&p);
		assert_int_equal(feed(&p, &b, 0, b.len, piece), 0);
		assert_int_equal(jfr_live_end(p.s, NULL, &p.err), 0);
		assert_int_equal(p.seen.n, 1);
		strcpy(text[i], p.seen.text[0]);
		jfr_live_free(p.s);
	}
	assert_non_null(strstr(text[0], " eventThread=null "));
	assert_string_equal(text[0], text[1]);
	jfr_buf_free(&b);
}

/* A constant a later flush gives again (a thread renamed) is the new value
 * for the events after it, the old one for those before, as for the JDK's
 * streaming reader. */
static void a_constant_given_again(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 1);
	jlc_constants(&b);
	jlc_every(&b, 7);
	jlc_thread(&b, 7, "before");
	jlc_every(&b, 7);
	jlc_thread(&b, 7, "after");
	run(&p, &b, 3);
	assert_int_equal(p.seen.n, 3);
	assert_non_null(strstr(p.seen.text[1], " thread=before "));
	assert_non_null(strstr(p.seen.text[2], " thread=after "));
	end_ok(&p, &b);
}

static void pieces_of_one_byte(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 1);
	jlc_constants(&b);
	jlc_every(&b, 1);
	jlc_constants(&b);
	run(&p, &b, 1);
	assert_every(&p, 2);
	end_ok(&p, &b);
}

/* A streaming JVM writes its metadata at its first flush, after events
 * and checkpoints (JDK 17 and 25 both). */
static void metadata_after_the_events(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_header(&b);
	jlc_constants(&b);
	jlc_every(&b, 1);
	jlc_constants(&b);
	jlc_every(&b, 1);
	jlc_metadata(&b);
	run(&p, &b, 7);
	assert_every(&p, 1);                 /* the second waits for a checkpoint */
	assert_int_equal(jfr_live_end(p.s, NULL, &p.err), 0);
	assert_every(&p, 2);                 /* at the end: its constants are all there */
	done(&p, &b);
}

static void the_end_counts_what_never_got_its_constants(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	uint64_t unresolved = 0;

	(void)state;
	jlc_begin(&b);
	jlc_constants(&b);
	jlc_every(&b, 1);
	jlc_every(&b, 2);                        /* thread 2 is in no pool */
	run(&p, &b, b.len);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), 0);
	assert_every(&p, 1);
	assert_int_equal(unresolved, 1);
	done(&p, &b);
}

/* No metadata ever came: every event is counted, none delivered. */
static void no_metadata_counts_every_event(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	uint64_t unresolved = 0;

	(void)state;
	jlc_header(&b);
	jlc_constants(&b);
	for (int i = 0; i < 3; i++)
		jlc_every(&b, 1);
	run(&p, &b, 11);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), 0);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(unresolved, 3);
	done(&p, &b);
}

/* B, cut 3 bytes into its last record (at CUT), ends with -EINVAL naming
 * CUT, delivers nothing and counts two held events. */
static void assert_cut_counts_two(struct jfr_buf *b, size_t cut)
{
	struct parser p;
	uint64_t unresolved = 0;

	b->len -= 3;
	run(&p, b, b->len);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), -EINVAL);
	assert_int_equal(p.err.offset, cut);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(unresolved, 2);
	done(&p, b);
}

/* A chunk cut inside its last record -- the checkpoint its events wait
 * for, or the metadata -- says where, and counts the events held for it,
 * as any events whose constants never came (a bug counted none when the
 * cut record was the metadata). */
static void a_chunk_cut_in_its_last_record_counts_what_it_held(void **state)
{
	struct jfr_buf b = { 0 };
	size_t cut;

	(void)state;
	/* the flush's checkpoints cut: its two events have no thread */
	jlc_begin(&b);
	jlc_every(&b, 1);
	jlc_every(&b, 1);
	cut = jlc_constants(&b);
	assert_cut_counts_two(&b, cut);

	/* the metadata cut, after the checkpoints: nothing says which are wanted */
	memset(&b, 0, sizeof b);
	jlc_header(&b);
	jlc_every(&b, 1);
	jlc_every(&b, 1);
	jlc_constants(&b);
	cut = b.len;
	jlc_metadata(&b);
	assert_cut_counts_two(&b, cut);
}

/* A constant no pool holds, once a checkpoint follows: null, as the JDK's reader says. */
static void an_absent_constant_is_null(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_begin(&b);
	jlc_every(&b, 2);
	jlc_constants(&b);
	run(&p, &b, b.len);
	assert_int_equal(p.seen.n, 1);
	assert_non_null(strstr(p.seen.text[0], "tid=0 thread= trunc=1"));
	assert_non_null(strstr(p.seen.text[0], " eventThread=null s='pooled'"));
	jfr_live_end(p.s, NULL, &p.err);
	done(&p, &b);
}

static void only_the_wanted_types(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_usual(&b);
	start(&p);
	p.seen.only = "test.Cycle";
	assert_int_equal(feed(&p, &b, 0, b.len, b.len), 0);
	assert_int_equal(p.seen.n, 0);
	assert_int_equal(p.seen.asked, 2);
	jfr_live_end(p.s, NULL, &p.err);
	done(&p, &b);
}

static int list_type(void *ctx, const char *type, const char *const *paths, size_t npaths)
{
	char *out = ctx;

	strcat(out, type);
	strcat(out, ":");
	for (size_t i = 0; i < npaths; i++) {
		strcat(out, " ");
		strcat(out, paths[i]);
	}
	strcat(out, "\n");
	return 0;
}

static void the_types_and_their_paths(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	char out[2048] = "";

	(void)state;
	jlc_begin(&b);
	start(&p);
	assert_int_equal(jfr_live_types(p.s, list_type, out), 0);
	assert_string_equal(out, "");        /* no metadata yet */
	assert_int_equal(feed(&p, &b, 0, b.len, b.len), 0);
	assert_int_equal(jfr_live_types(p.s, list_type, out), 0);
	assert_string_equal(out,
			    "test.Every: eventThread.osName eventThread.osThreadId eventThread.javaName s n u pair.a pair.b"
			    " arr[].a arr[].b cls.name f d b c z sh span\n"
			    "test.Cycle: node.next node.v\n");
	done(&p, &b);
}

static void a_new_chunk_after_a_bad_one(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	uint64_t unresolved = 0;

	(void)state;
	jlc_usual(&b);
	start(&p);
	assert_int_equal(jfr_live_feed(p.s, (const uint8_t *)"FLX\0", 4, &p.err), 0);
	assert_int_equal(feed(&p, &b, 4, 80, b.len), -EINVAL);
	assert_int_equal(p.err.offset, 0);
	assert_string_equal(p.err.text, "no JFR chunk starts here (its magic is not \"FLR\\0\")");
	assert_int_equal(feed(&p, &b, 80, b.len, b.len), 0);   /* skipped */
	assert_int_equal(jfr_live_chunk_begin(p.s), 0);
	assert_int_equal(feed(&p, &b, 0, b.len, 100), 0);
	assert_int_equal(p.seen.n, 1);
	assert_int_equal(jfr_live_end(p.s, &unresolved, &p.err), 0);
	assert_int_equal(unresolved, 0);
	done(&p, &b);
}

/* The JVM may register event types after its first flush: a new metadata
 * event in the chunk; the constants are indexed again by its classes. */
static void a_second_metadata_event(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_usual(&b);
	jlc_metadata(&b);
	jlc_every(&b, 1);
	jlc_constants(&b);
	run(&p, &b, 5);
	assert_every(&p, 2);
	assert_int_equal(p.seen.asked, 4);   /* once per type per metadata event */
	end_ok(&p, &b);
}

/* A time stamp as far from the chunk's start as a long goes: the extreme,
 * no overflow (UBSan would say). */
static void a_time_stamp_out_of_range(void **state)
{
	struct jfr_buf b = { 0 }, body = { 0 };
	struct parser p;
	char want[128];

	(void)state;
	jlc_begin(&b);
	jfr_put_varint(&body, JLC_CYCLE);
	jfr_put_varint(&body, (uint64_t)INT64_MAX - 1);
	jfr_put_varint(&body, 99);           /* a node in no pool */
	jlc_record(&b, &body);
	jfr_buf_free(&body);
	jlc_constants(&b);
	run(&p, &b, b.len);
	assert_int_equal(p.seen.n, 1);
	snprintf(want, sizeof want, "test.Cycle start=%" PRId64 " dur=0 tid=0 thread= trunc=0 node=null",
		 INT64_MAX - (int64_t)JLC_START_NS);
	assert_string_equal(p.seen.text[0], want);
	done(&p, &b);
}

static void bytes_before_a_chunk_are_refused(void **state)
{
	struct parser p;

	(void)state;
	memset(&p, 0, sizeof p);
	assert_int_equal(jfr_live_new(&p.s, want, got, &p.seen), 0);
	assert_int_equal(jfr_live_feed(p.s, (const uint8_t *)"FLR", 3, &p.err), -EINVAL);
	assert_string_equal(p.err.text, "3 bytes fed with no chunk begun");
	jfr_live_free(p.s);
}

static void the_callback_stops_the_feed(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;

	(void)state;
	jlc_usual(&b);
	start(&p);
	p.seen.fail_with = -ECANCELED;
	assert_int_equal(feed(&p, &b, 0, b.len, b.len), -ECANCELED);
	done(&p, &b);
}

/* ---- malformed input: each refused with its message and offset */
struct bad {
	const char *name;
	void (*build)(struct jfr_buf *b);
	int rc;                 /* from the feed; 0: from jfr_live_end */
	int end_rc;
	uint64_t offset;        /* 0: not checked here; BUILT: bad_at */
	const char *text;
};

/* Where the builder put the bad byte (a record starts 4 bytes before its
 * body: jlc_record pads its size). */
#define BUILT UINT64_MAX
static size_t bad_at;

static void b_magic(struct jfr_buf *b)
{
	jlc_header(b);
	b->data[3] = 'X';
}

static void b_version(struct jfr_buf *b)
{
	jlc_header(b);
	b->data[5] = 3;
}

static void b_freq(struct jfr_buf *b)
{
	jlc_header(b);
	memset(b->data + JFR_HDR_FREQ, 0, 8);
}

static void b_short_header(struct jfr_buf *b)
{
	jlc_header(b);
	b->len = 30;
}

static void b_cut_record(struct jfr_buf *b)
{
	jlc_begin(b);
	jlc_every(b, 1);
	b->len -= 5;
}

static void b_size_zero(struct jfr_buf *b)
{
	jlc_header(b);
	jfr_put_u8(b, 0);
}

static void b_size_huge(struct jfr_buf *b)
{
	jlc_header(b);
	jfr_put_varint(b, (uint64_t)JFR_LIVE_MAX_CHUNK + 1);
}

static void b_type_varint(struct jfr_buf *b)
{
	static const uint8_t rec[] = { 6, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

	jlc_header(b);
	jfr_put_bytes(b, rec, sizeof rec);
}

/* A test.Every up to its s, after the usual checkpoint. */
static void every_up_to_s(struct jfr_buf *b, struct jfr_buf *body)
{
	jlc_begin(b);
	jlc_constants(b);
	jfr_put_varint(body, JLC_EVERY);
	jfr_put_varint(body, JLC_TICKS);
	jfr_put_varint(body, 0);
	jfr_put_varint(body, 1);
	jfr_put_varint(body, 9);
}

/* BODY as a record, and a checkpoint after it. */
static void end_bad(struct jfr_buf *b, struct jfr_buf *body)
{
	jlc_record(b, body);
	jfr_buf_free(body);
	jlc_constants(b);
}

static void b_value_cut(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	every_up_to_s(b, &body);
	jfr_put_u8(&body, JFR_STR_UTF8);
	jfr_put_varint(&body, 50);           /* 50 bytes said, 2 there */
	jfr_put_bytes(&body, "ab", 2);
	bad_at = b->len + 4 + body.len;      /* the record's end */
	end_bad(b, &body);
}

static void b_encoding(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	every_up_to_s(b, &body);
	bad_at = b->len + 4 + body.len;
	jfr_put_u8(&body, 9);
	end_bad(b, &body);
}

static void b_cycle(struct jfr_buf *b)
{
	jlc_begin(b);
	jlc_constants(b);
	jlc_cycle(b);
	jlc_constants(b);
}

static void b_fields(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	every_up_to_s(b, &body);
	jfr_put_u8(&body, JFR_STR_NULL);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 1);            /* pair */
	jfr_put_u8(&body, JFR_STR_NULL);
	jfr_put_varint(&body, 200);          /* arr: 400 fields */
	bad_at = b->len + 4 + body.len + 124 * 2;   /* arr[124].a, the 257th */
	for (int i = 0; i < 200; i++) {
		jfr_put_varint(&body, 1);
		jfr_put_u8(&body, JFR_STR_NULL);
	}
	end_bad(b, &body);
}

static void b_pool_type(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	jlc_begin(b);
	jlc_checkpoint_start(&body, JFR_CHECKPOINT_FLUSH, 1);
	bad_at = b->len + 4 + body.len;
	jfr_put_varint(&body, 999);
	jfr_put_varint(&body, 0);
	jlc_record(b, &body);
	jfr_buf_free(&body);
}

static void b_meta_string(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	jlc_header(b);
	jfr_put_varint(&body, JFR_TYPE_METADATA);
	jfr_put_varint(&body, 0);
	jfr_put_varint(&body, 0);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 1);            /* one string */
	jlc_utf8(&body, "root");
	bad_at = b->len + 4 + body.len;
	jfr_put_varint(&body, 5);            /* the root element names string 5 */
	jlc_record(b, &body);
	jfr_buf_free(&body);
}

static void b_path(struct jfr_buf *b)
{
	static char name[JFR_LIVE_MAX_PATH];

	memset(name, 'p', sizeof name - 1);
	jlc_header(b);
	jlc_metadata_renamed(b, name);    /* "ppp...p.a": one byte too many */
	jlc_every(b, 1);
	jlc_constants(b);
}

/* A record as long as the bound, fed until the chunk passes it. */
static void b_chunk(struct jfr_buf *b)
{
	jlc_header(b);
	jfr_put_varint(b, JFR_LIVE_MAX_CHUNK);   /* it cannot end within the bound */
	assert_true(jfr_buf_reserve(b, JFR_LIVE_MAX_CHUNK + 1 - b->len));
	memset(b->data + b->len, 0, JFR_LIVE_MAX_CHUNK + 1 - b->len);
	b->len = JFR_LIVE_MAX_CHUNK + 1;
}

static void b_metadata(struct jfr_buf *b)
{
	jlc_begin(b);
	for (unsigned i = 0; i < JFR_LIVE_MAX_METADATA; i++) {
		if (i == JFR_LIVE_MAX_METADATA - 1)
			bad_at = b->len;
		jlc_metadata(b);
	}
}

static const struct bad bads[] = {
	{ "bad magic", b_magic, -EINVAL, 0, 0, "no JFR chunk starts here (its magic is not \"FLR\\0\")" },
	{ "version 3", b_version, -EINVAL, 0, 4, "JFR chunk version 3.1: only version 2 is read" },
	{ "no clock", b_freq, -EINVAL, 0, JFR_HDR_FREQ, "the chunk's clock has 0 ticks per second" },
	{ "cut header", b_short_header, 0, -EINVAL, 0, "the stream ended 30 bytes into a chunk header of 68" },
	{ "cut record", b_cut_record, 0, -EINVAL, 0, NULL },   /* offset: set by the test */
	{ "size 0", b_size_zero, -EINVAL, 0, 68, "a record of 0 bytes" },
	{ "size past the bound", b_size_huge, -EINVAL, 0, 68, "a record of 67108865 bytes" },
	{ "bad varint", b_type_varint, -EINVAL, 0, 68, "a record of 6 bytes ends inside its type" },
	{ "value cut", b_value_cut, -EINVAL, 0, BUILT, "a string runs past the end of its record" },
	{ "string encoding", b_encoding, -EINVAL, 0, BUILT, "unknown string encoding 9" },
	{ "pool cycle", b_cycle, -E2BIG, 0, 0, NULL },
	{ "too many fields", b_fields, -E2BIG, 0, BUILT, "an event of more than 256 fields (the next: arr[124].a)" },
	{ "pool of no type", b_pool_type, -EINVAL, 0, BUILT,
	  "a constant pool of type 999, which the metadata does not define" },
	{ "metadata string", b_meta_string, -EINVAL, 0, BUILT, "string 5 of a metadata table of 1" },
	{ "path past the bound", b_path, -E2BIG, 0, 0,
	  "a field path longer than 512 bytes (pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp...)" },
	{ "metadata past the bound", b_metadata, -E2BIG, 0, BUILT, "more than 64 metadata events in one chunk" },
	{ "chunk past the bound", b_chunk, -E2BIG, 0, JFR_LIVE_MAX_CHUNK, "a chunk of more than 67108864 bytes" },
};

static void malformed_input_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const struct bad *t = &bads[i];
		struct jfr_buf b = { 0 };
		struct parser p;
		int rc, end;

		t->build(&b);
		start(&p);
		/* pieces of 1 byte, of 64 KiB for the chunk past its bound, and whole */
		size_t small = b.len > 1000000 ? 65536 : 1;

		for (size_t piece = small; piece <= b.len; piece = piece == small ? b.len : b.len + 1) {
			struct record_error first;

			jfr_live_chunk_begin(p.s);
			memset(&p.err, 0, sizeof p.err);
			rc = feed(&p, &b, 0, b.len, piece);
			first = p.err;
			end = jfr_live_end(p.s, NULL, &p.err);
			if (rc != t->rc || (rc == 0 && end != t->end_rc))
				fail_msg("%s (pieces of %zu): %d, then %d: %s", t->name, piece, rc, end, p.err.text);
			if (rc)
				p.err = first;
			if (t->text)
				assert_string_equal(p.err.text, t->text);
			if (t->offset)
				assert_int_equal(p.err.offset, t->offset == BUILT ? bad_at : t->offset);
			assert_true(p.err.offset < b.len);
			assert_int_equal(p.seen.n, 0);
		}
		jfr_live_free(p.s);
		jfr_buf_free(&b);
	}
}

static void the_messages_name_the_offset(void **state)
{
	struct jfr_buf b = { 0 };
	struct parser p;
	size_t at;

	(void)state;
	jlc_begin(&b);
	at = b.len;
	jlc_every(&b, 1);
	b.len -= 5;
	run(&p, &b, b.len);
	assert_int_equal(jfr_live_end(p.s, NULL, &p.err), -EINVAL);
	assert_int_equal(p.err.offset, at);
	assert_non_null(strstr(p.err.text, "the stream ended inside a record: "));
	done(&p, &b);

	memset(&b, 0, sizeof b);
	b_cycle(&b);
	start(&p);
	assert_int_equal(feed(&p, &b, 0, b.len, b.len), -E2BIG);
	assert_string_equal(p.err.text, "values nested deeper than 16 (a constant pool cycle?) at "
			    "node.next.next.next.next.next.next.next.next.next.next.next.next.next.next.next");
	done(&p, &b);
}

/* Each constant pool numbers its keys from 1, so the same keys come in
 * every class: 64 classes of keys 1..64 spread over the table, no run of
 * taken slots longer than 40 (23 now; a class mixed into the hash's high
 * bits only made runs of 80, and 23 probes a lookup on a real recording).
 * The hash is fixed: the longest run is the same at every run. */
static void the_pools_spread_the_same_keys_of_many_classes(void **state)
{
	struct jfr_chunk ch = { 0 };
	size_t longest = 0, run = 0;

	(void)state;
	for (uint32_t cls = 0; cls < 64; cls++)
		for (uint64_t key = 1; key <= 64; key++)
			assert_int_equal(jfr_pool_add(&ch, cls, key, (size_t)(cls * 1000 + key)), 0);
	assert_int_equal(ch.npool, 64 * 64);
	for (uint32_t cls = 0; cls < 64; cls++)
		for (uint64_t key = 1; key <= 64; key++) {
			struct jfr_pool_slot *s = jfr_pool_find(&ch, cls, key);
			assert_non_null(s);
			assert_int_equal(s->cls, cls);
			assert_int_equal(s->pos, cls * 1000 + key);
		}
	/* twice round, for a run that wraps */
	for (size_t i = 0; i < 2 * (ch.pool_mask + 1); i++) {
		run = ch.pool[i & ch.pool_mask].cls == JFR_NO_CLASS ? 0 : run + 1;
		longest = run > longest ? run : longest;
	}
	print_message("the longest run of taken slots: %zu of %zu\n", longest, ch.pool_mask + 1);
	assert_true(longest <= 40);
	free(ch.pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_chunk_cut_in_its_last_record_counts_what_it_held),
		cmocka_unit_test(every_value_resolved_at_the_next_checkpoint),
		cmocka_unit_test(events_wait_for_the_flush_s_last_checkpoint),
		cmocka_unit_test(the_next_chunk_ends_the_last),
		cmocka_unit_test(the_pieces_do_not_change_the_events),
		cmocka_unit_test(a_constant_given_again),
		cmocka_unit_test(pieces_of_one_byte),
		cmocka_unit_test(metadata_after_the_events),
		cmocka_unit_test(the_end_counts_what_never_got_its_constants),
		cmocka_unit_test(no_metadata_counts_every_event),
		cmocka_unit_test(an_absent_constant_is_null),
		cmocka_unit_test(only_the_wanted_types),
		cmocka_unit_test(the_types_and_their_paths),
		cmocka_unit_test(a_new_chunk_after_a_bad_one),
		cmocka_unit_test(a_second_metadata_event),
		cmocka_unit_test(a_time_stamp_out_of_range),
		cmocka_unit_test(bytes_before_a_chunk_are_refused),
		cmocka_unit_test(the_callback_stops_the_feed),
		cmocka_unit_test(malformed_input_refused),
		cmocka_unit_test(the_messages_name_the_offset),
		cmocka_unit_test(the_pools_spread_the_same_keys_of_many_classes),
	};

	return cmocka_run_group_tests_name("jfr_live", tests, NULL, NULL);
}

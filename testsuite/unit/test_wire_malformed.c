/* test_wire_malformed.c: the decoders on bytes that are not (yet) a message.
 * Every prefix of every sample is "need more" (-EAGAIN), never malformed and
 * never read past its end (exact-size heap copies, under ASan); every
 * defect is -EBADMSG as soon as its bytes are there, naming the field and
 * its offset. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "wire.h"
#include "wire_bytes.h"
#include "wire_samples.h"

#define BUF_CAP (2 * WIRE_MAX_MESSAGE)
#define MAX_FIELDS 1024

static uint8_t *msg;
static struct wire_event *ev_in, *ev_out;
static struct wire_command *cmd_in, *cmd_out;
static struct wire_ref_field fields[MAX_FIELDS];

static int setup(void **state)
{
	(void)state;
	msg = malloc(BUF_CAP);
	ev_in = calloc(1, sizeof(*ev_in));
	ev_out = calloc(1, sizeof(*ev_out));
	cmd_in = calloc(1, sizeof(*cmd_in));
	cmd_out = calloc(1, sizeof(*cmd_out));
	return msg && ev_in && ev_out && cmd_in && cmd_out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(msg);
	free(ev_in);
	free(ev_out);
	free(cmd_in);
	free(cmd_out);
	return 0;
}

/* Decode buf[0..len) from an exact-size heap copy, so ASan sees any read
 * past the end. */
static int decode_exact(bool command, const struct wire_peer *peer, const uint8_t *buf,
			size_t len, size_t *used, struct wire_error *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	if (len)
		memcpy(copy, buf, len);
	memset(err, 0, sizeof(*err));
	if (command)
		rc = wire_decode_command(peer, copy, len, cmd_out, used, err);
	else
		rc = wire_decode_event(peer, copy, len, ev_out, used, err);
	free(copy);
	return rc;
}

static void expect_bad(const char *name, bool command, const struct wire_peer *peer,
		       const uint8_t *buf, size_t len, const char *hint, size_t offset)
{
	struct wire_error err;
	size_t used = 0;
	char why[240];
	int rc = decode_exact(command, peer, buf, len, &used, &err);

	if (rc != -EBADMSG)
		fail_msg("%s (%zu bytes): decode returned %d, expected -EBADMSG", name, len, rc);
	if (!wire_error_is(&err, hint, offset, why, sizeof(why)))
		fail_msg("%s (%zu bytes): %s", name, len, why);
}

static void expect_again(const char *name, bool command, const struct wire_peer *peer,
			 const uint8_t *buf, size_t len)
{
	struct wire_error err;
	size_t used = 0;
	int rc = decode_exact(command, peer, buf, len, &used, &err);

	if (rc != -EAGAIN)
		fail_msg("%s: prefix of %zu bytes: decode returned %d (%s), expected -EAGAIN",
			 name, len, rc, rc == -EBADMSG ? err.text : "");
}

/* ------------------------------------------------------------ truncation */
static void all_prefixes(const char *name, bool command, const struct wire_peer *peer,
			 const uint8_t *buf, size_t len)
{
	assert_true(len > 0);
	for (size_t k = 0; k < len; k++)
		expect_again(name, command, peer, buf, k);
}

static void test_truncated_events(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);
		size_t len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);

		all_prefixes(name, false, &peer, msg, len);
		if (ev_in->code == WIRE_EV_HELLO)
			ev_in->hello.order = wire_foreign_order();
		peer.swap = true;
		peer.hello = true;
		len = wire_ref_encode_event(ev_in, &peer, !wire_host_is_big_endian(), msg, BUF_CAP);
		all_prefixes(name, false, &peer, msg, len);
	}
}

static void test_truncated_commands(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd_in, &peer);
		size_t len = wire_ref_encode_command(cmd_in, wire_host_is_big_endian(), msg, BUF_CAP);

		all_prefixes(name, true, &peer, msg, len);
		if (cmd_in->code == WIRE_CMD_HELLO) {
			cmd_in->hello.order = wire_foreign_order();
			/* a swapped-order Hello before any Hello */
			len = wire_ref_encode_command(cmd_in, !wire_host_is_big_endian(), msg, BUF_CAP);
			if (!peer.hello)
				all_prefixes(name, true, &peer, msg, len);
		}
		peer.swap = true;
		peer.hello = true;
		len = wire_ref_encode_command(cmd_in, !wire_host_is_big_endian(), msg, BUF_CAP);
		all_prefixes(name, true, &peer, msg, len);
	}
}

/* ------------------------------------------------------------ codes */
static bool event_known(unsigned c)
{
	return (c >= 0x80 && c <= 0x8C) || (c >= 0x90 && c <= 0xA1);
}

static bool command_known(unsigned c)
{
	return (c >= 0x40 && c <= 0x46) || (c >= 0x50 && c <= 0x5B);
}

static void test_unknown_codes(void **state)
{
	struct wire_peer peer = { .swap = false, .hello = true, .caps = WIRE_CAP_ALL };
	uint8_t buf[32];
	char name[48];

	(void)state;
	memset(buf, 0, sizeof(buf));
	for (unsigned c = 0; c < 256; c++) {
		buf[0] = (uint8_t)c;
		snprintf(name, sizeof(name), "code 0x%02x", c);
		for (size_t len = 1; len <= sizeof(buf); len += sizeof(buf) - 1) {
			if (!event_known(c))
				expect_bad(name, false, &peer, buf, len, "code", 0);
			if (!command_known(c))
				expect_bad(name, true, &peer, buf, len, "code", 0);
		}
	}
}

static void test_extensions_not_negotiated(void **state)
{
	struct wire_peer peer;
	size_t len;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);

		if (ev_in->code < WIRE_EV_GC_START)
			continue;
		peer.caps &= ~events_get(ev_in->code)->caps;
		len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
		expect_bad(name, false, &peer, msg, 1, "code", 0);
		expect_bad(name, false, &peer, msg, len, "code", 0);
	}
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd_in, &peer);
		uint32_t need = cmd_in->code == 0x54 ? WIRE_CAP_SYNC
			      : cmd_in->code == 0x55 ? WIRE_CAP_SYNC | WIRE_CAP_END_ACK
			      : (cmd_in->code >= 0x50 && cmd_in->code <= 0x53) || cmd_in->code == 0x56
				? WIRE_CAP_EXT_CMDS
			      : cmd_in->code == 0x57 || cmd_in->code == 0x58 ? WIRE_CAP_IN_THREAD : 0;

		if (!need)
			continue;
		peer.caps = WIRE_CAP_ALL & ~need;
		len = wire_ref_encode_command(cmd_in, wire_host_is_big_endian(), msg, BUF_CAP);
		expect_bad(name, true, &peer, msg, 1, "code", 0);
		expect_bad(name, true, &peer, msg, len, "code", 0);
		peer.caps = 0;
		expect_bad(name, true, &peer, msg, len, "code", 0);
	}
}

/* ------------------------------------------------------------ one bad field at a time */
static void store(uint8_t *p, uint64_t v, unsigned size, bool be)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * (be ? size - 1 - i : i)));
}

/* Bad values for a field of this kind; returns how many. */
static size_t bad_values(const struct wire_ref_field *f, const struct wire_peer *peer,
			 uint8_t current, uint8_t kind_byte, uint64_t *out)
{
	size_t n = 0;

	switch (f->kind) {
	case WIRE_REF_STRLEN:
		out[n++] = WIRE_MAX_STRING + 1;
		out[n++] = 0x7FFFFFFFu;
		out[n++] = 0x80000000u; /* negative */
		out[n++] = 0xFFFFFFFFu; /* -1 */
		break;
	case WIRE_REF_BOOL:
		out[n++] = 2;
		out[n++] = 0xFF;
		break;
	case WIRE_REF_TYPE:
		out[n++] = 0;
		out[n++] = 'A';
		out[n++] = 'z';
		out[n++] = 'i';
		out[n++] = 0xFF;
		break;
	case WIRE_REF_FLAGS:
		out[n++] = current | 0x10;
		out[n++] = 0x80;
		out[n++] = 0xFF;
		if (!(peer->caps & WIRE_CAP_SYNC))
			out[n++] = current | WIRE_TF_SYNC;
		if (!(peer->caps & WIRE_CAP_STACK))
			out[n++] = current | WIRE_TF_STACK;
		if (!(peer->caps & WIRE_CAP_MONITOR_DETAIL))
			out[n++] = current | WIRE_TF_MONITOR;
		break;
	case WIRE_REF_DEPTH:
		out[n++] = WIRE_MAX_STACK_DEPTH + 1;
		out[n++] = 0xFFFF;
		break;
	case WIRE_REF_KIND:
		out[n++] = 0;
		out[n++] = 4;
		out[n++] = 0xFF;
		break;
	case WIRE_REF_EVENTS:
		out[n++] = 0;
		out[n++] = kind_byte == WIRE_KIND_EXCEPTION ? 0x04 : 0x08;
		out[n++] = 0xF0;
		break;
	case WIRE_REF_MODE:
		out[n++] = 2;
		out[n++] = 0xFF;
		break;
	case WIRE_REF_ORDER:
		out[n++] = 0;
		out[n++] = 'L';
		out[n++] = 'b';
		out[n++] = 0xFF;
		break;
	case WIRE_REF_VERSION:
		out[n++] = 0;
		break;
	case WIRE_REF_MAGIC:
		out[n++] = 0x58504453u; /* bytes "SDPX" / "XPDS" */
		out[n++] = 0;
		break;
	case WIRE_REF_JFR_FLAGS:
		out[n++] = current | 0x04;
		out[n++] = 0xFF;
		break;
	case WIRE_REF_NOTICE_SCOPE:
		out[n++] = WIRE_NOTICE_LAST_SCOPE + 1;
		out[n++] = 0xFF;
		break;
	default:
		fail_msg("field kind %c", f->kind);
	}
	return n;
}

/* Every checked field of buf[0..len) broken in every way: -EBADMSG naming
 * that field at its offset, both with the whole message and with the
 * prefix that ends with the field. */
static void break_each_field(const char *name, bool command, const struct wire_peer *peer,
			     bool be, size_t len, size_t nf)
{
	uint8_t *copy = malloc(len);
	uint64_t bad[8];
	char what[160];

	assert_non_null(copy);
	for (size_t k = 0; k < nf; k++) {
		const struct wire_ref_field *f = &fields[k];
		size_t nbad = bad_values(f, peer, msg[f->offset], msg[1], bad);

		for (size_t j = 0; j < nbad; j++) {
			uint32_t swapped = __builtin_bswap32((uint32_t)bad[j]);

			/* before a Hello, a RegisterMethod whose length is valid
			 * only byte-swapped may be a swapped bridge Hello */
			if (command && msg[0] == 0x40 && !peer->hello && f->kind == WIRE_REF_STRLEN &&
			    f->offset == 1 && swapped <= WIRE_MAX_STRING)
				continue;
			memcpy(copy, msg, len);
			store(copy + f->offset, bad[j], f->size, be);
			snprintf(what, sizeof(what), "%s%s: %s at %zu = 0x%llx", name, be ? " (BE)" : "",
				 f->hint, f->offset, (unsigned long long)bad[j]);
			expect_bad(what, command, peer, copy, len, f->hint, f->offset);
			expect_bad(what, command, peer, copy, f->offset + f->size, f->hint, f->offset);
		}
	}
	free(copy);
}

static void test_bad_event_fields(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);
		size_t nf = wire_ref_event_fields(ev_in, &peer, fields, MAX_FIELDS);
		bool be = wire_host_is_big_endian();
		size_t len;

		assert_true(nf < MAX_FIELDS);
		for (int pass = 0; pass < 2; pass++, be = !be) {
			if (pass == 1) {
				peer.swap = true;
				peer.hello = true;
				if (ev_in->code == WIRE_EV_HELLO)
					ev_in->hello.order = wire_foreign_order();
			}
			len = wire_ref_encode_event(ev_in, &peer, be, msg, BUF_CAP);
			break_each_field(name, false, &peer, be, len, nf);
		}
	}
}

static void test_bad_command_fields(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd_in, &peer);
		size_t nf = wire_ref_command_fields(cmd_in, fields, MAX_FIELDS);
		bool be = wire_host_is_big_endian();
		size_t len;

		for (int pass = 0; pass < 2; pass++, be = !be) {
			if (pass == 1) {
				peer.swap = true;
				peer.hello = true;
				if (cmd_in->code == WIRE_CMD_HELLO)
					cmd_in->hello.order = wire_foreign_order();
			}
			len = wire_ref_encode_command(cmd_in, be, msg, BUF_CAP);
			break_each_field(name, true, &peer, be, len, nf);
		}
	}
}

/* The samples have every kind of checked field. */
static void test_fields_cover_every_check(void **state)
{
	bool seen[128] = { false };
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		wire_sample_event(i, ev_in, &peer);
		for (size_t k = 0, n = wire_ref_event_fields(ev_in, &peer, fields, MAX_FIELDS); k < n; k++)
			seen[(int)fields[k].kind] = true;
	}
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		wire_sample_command(i, cmd_in, &peer);
		for (size_t k = 0, n = wire_ref_command_fields(cmd_in, fields, MAX_FIELDS); k < n; k++)
			seen[(int)fields[k].kind] = true;
	}
	for (const char *k = "sbtfdkemovg"; *k; k++)
		if (!seen[(int)*k])
			fail_msg("no sample has a field of kind '%c'", *k);
}

/* ------------------------------------------------------------ the bridge Hello's edges */
static void test_bridge_hello_edges(void **state)
{
	struct wire_peer fresh, greeted = { .swap = false, .hello = true, .caps = 0 };
	bool be = !wire_host_is_big_endian();
	uint8_t buf[32];

	(void)state;
	wire_peer_init(&fresh);
	/* a length valid only byte-swapped: maybe a swapped Hello while the
	 * bytes that follow match "\0STPJ" */
	buf[0] = 0x40;
	store(buf + 1, 20, 4, be);
	memcpy(buf + 5, "\0STPJ", 5);
	for (size_t len = 5; len < 10; len++)
		expect_again("swapped Hello prefix", true, &fresh, buf, len);
	memcpy(buf + 5, "\0STX", 4);
	expect_bad("swapped length, not a Hello", true, &fresh, buf, 9, "length", 1);
	buf[5] = 'j';
	expect_bad("swapped length, not a Hello", true, &fresh, buf, 6, "length", 1);
	/* after a Hello the peer's order is known: no guessing */
	memcpy(buf + 5, "\0STPJ", 5);
	expect_bad("swapped length after Hello", true, &greeted, buf, 5, "length", 1);

	/* the declared order must be the order the length was in */
	buf[10] = wire_host_order();
	expect_bad("swapped length, host order declared", true, &fresh, buf, 11, "byte order", 10);
	store(buf + 1, 20, 4, !be);
	buf[10] = wire_foreign_order();
	expect_bad("host length, foreign order declared", true, &fresh, buf, 11, "byte order", 10);

	/* "\0STPJ" but shorter than the Hello's fixed part */
	store(buf + 1, WIRE_HELLO_MIN_STRING - 1, 4, !be);
	memset(buf + 10, 0, sizeof(buf) - 10);
	buf[10] = wire_host_order();
	buf[11] = 1;
	expect_bad("short bridge Hello", true, &fresh, buf, 5 + WIRE_HELLO_MIN_STRING - 1, "length", 1);
	expect_bad("short bridge Hello", true, &greeted, buf, 10, "length", 1);
}

/* ------------------------------------------------------------ WIRE_MAX_MESSAGE */
static void test_message_too_big(void **state)
{
	static char big[WIRE_MAX_STRING];
	struct wire_peer peer;
	size_t len, at;

	(void)state;
	memset(big, 'x', sizeof(big));
	/* MethodEnter: 1+4+name+8+1, then 15 string values of 1+4+65535+1;
	 * a name 2 bytes longer than WIRE_MAX_MESSAGE allows makes the last
	 * value's contents cross the limit: its length shows it. */
	wire_sample_event(0, ev_in, &peer);
	ev_in->nvalues = 15;
	for (unsigned k = 0; k < 15; k++)
		ev_in->values[k] = (struct wire_value){ .type = WIRE_T_STRING,
							.str = { big, WIRE_MAX_STRING } };
	ev_in->name = (struct wire_str){ big, WIRE_MAX_MESSAGE - 14 - 15 * (WIRE_MAX_STRING + 6) + 2 };
	len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, WIRE_MAX_MESSAGE + 2);
	at = len - 1 - WIRE_MAX_STRING - 4;
	expect_bad("MethodEnter over the limit", false, &peer, msg, len, "length", at);
	expect_bad("MethodEnter over the limit", false, &peer, msg, at + 4, "length", at);

	/* one byte over: only the last bool is past the limit */
	ev_in->name.len--;
	len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, WIRE_MAX_MESSAGE + 1);
	expect_bad("MethodEnter 1 byte over", false, &peer, msg, len, NULL, WIRE_MAX_MESSAGE);

	/* a stack of big frames: 1 + 8+8+4+1+2, then frames of 4+65535+4;
	 * the 16th frame's method crosses the limit */
	memset(ev_in, 0, sizeof(*ev_in));
	ev_in->code = WIRE_EV_GC_START;
	ev_in->has_trailer = true;
	ev_in->trailer.flags = WIRE_TF_STACK;
	ev_in->trailer.depth = 20;
	for (unsigned k = 0; k < 20; k++)
		ev_in->trailer.frames[k] = (struct wire_frame){ { big, WIRE_MAX_STRING }, 1, { "", 0 } };
	peer = (struct wire_peer){ .swap = false, .hello = true, .caps = WIRE_CAP_ALL & ~WIRE_CAP_FRAME_SOURCE };
	len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, 24 + 20 * (WIRE_MAX_STRING + 8));
	at = 24 + 15 * (WIRE_MAX_STRING + 8);
	expect_bad("deep big stack", false, &peer, msg, len, "length", at);
	expect_bad("deep big stack", false, &peer, msg, at + 4, "length", at);
}

/* RegisterSlot names a marker slot0..slot255: 256 is refused at its offset. */
static void test_register_slot_bounds(void **state)
{
	struct wire_command cmd = { .code = WIRE_CMD_REGISTER_SLOT, .kind = WIRE_KIND_METHOD,
				    .events = WIRE_METHOD_ENTER, .slot = 256,
				    .pattern = { "a.B", 3 } };
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_ALL };
	size_t len;

	(void)state;
	len = wire_ref_encode_command(&cmd, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, 1 + 1 + 1 + 2 + 4 + 3);
	expect_bad("RegisterSlot 256", true, &peer, msg, len, "slot", 3);
	/* and our encoder will not write it */
	struct wire_buf b = { msg, BUF_CAP, 0 };
	assert_int_equal(wire_encode_command(&b, &cmd), -EINVAL);
}

/* A JfrEvent whose fields or stack hold other than the NUL-ended parts its
 * counts announce: refused, naming the string at its offset (the agent
 * splits them without another check), and never written by our encoder. */
static void test_jfr_event_parts(void **state)
{
	struct wire_command cmd = { .code = WIRE_CMD_JFR_EVENT, .jfr = {
		.type = { "jdk.X", 5 }, .thread_name = { "", 0 },
		.nfields = 1, .fields = { "a\0b\0", 4 }, .depth = 1, .stack = { "f:1\0", 4 } } };
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_JFR_FIRE };
	/* code, slots, tid, start, duration, type, thread name, count */
	const size_t fields_at = 1 + 32 + 4 + 5 + 4 + 2;
	const size_t stack_at = fields_at + 4 + 4 + 2;
	struct wire_buf b = { msg, BUF_CAP, 0 };
	size_t len;

	(void)state;
	len = wire_ref_encode_command(&cmd, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, stack_at + 4 + 4);
	cmd.jfr.nfields = 2;
	len = wire_ref_encode_command(&cmd, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("JfrEvent 2 fields in 2 parts", true, &peer, msg, len, "fields", fields_at);
	assert_int_equal(wire_encode_command(&b, &cmd), -EINVAL);
	cmd.jfr.nfields = 1;
	cmd.jfr.fields = (struct wire_str){ "a\0b", 3 };   /* the last part not ended */
	len = wire_ref_encode_command(&cmd, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("JfrEvent fields not NUL-ended", true, &peer, msg, len, "fields", fields_at);
	cmd.jfr.fields = (struct wire_str){ "a\0b\0", 4 };
	cmd.jfr.depth = 0;
	len = wire_ref_encode_command(&cmd, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("JfrEvent depth 0 with a frame", true, &peer, msg, len, "stack", stack_at);
	assert_int_equal(wire_encode_command(&b, &cmd), -EINVAL);
}

/* JfrData NONE goes alone and carries no bytes: anything else is refused,
 * naming the flags or the bytes at their offset, and never written. */
static void test_jfr_data_none(void **state)
{
	struct wire_event ev = { .code = WIRE_EV_JFR_DATA, .jfr_flags = WIRE_JFR_NONE };
	/* no trailer: the offsets are the message's own */
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_TRAILER };
	struct wire_buf b = { msg, BUF_CAP, 0 };
	size_t len, used;
	struct wire_error err;

	(void)state;
	len = wire_ref_encode_event(&ev, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(len, 1 + 1 + 4);
	assert_int_equal(decode_exact(false, &peer, msg, len, &used, &err), 0);
	assert_int_equal(ev_out->jfr_flags, WIRE_JFR_NONE);
	assert_int_equal(ev_out->name.len, 0);
	ev.jfr_flags = WIRE_JFR_NONE | WIRE_JFR_CHUNK_BEGIN;
	len = wire_ref_encode_event(&ev, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("JfrData NONE with CHUNK_BEGIN", false, &peer, msg, len, "jfr flags", 1);
	assert_int_equal(wire_encode_event(&b, &peer, &ev), -EINVAL);
	ev.jfr_flags = WIRE_JFR_NONE;
	ev.name = (struct wire_str){ "FLR", 3 };
	len = wire_ref_encode_event(&ev, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("JfrData NONE with bytes", false, &peer, msg, len, "jfr bytes", 2);
	b.len = 0;
	assert_int_equal(wire_encode_event(&b, &peer, &ev), -EINVAL);
}

/* A Notice's subject (CAP_NOTICE_SUBJECT): what its scope allows is read,
 * anything else refused naming the field at its offset, and never written. */
static void test_notice_subject(void **state)
{
	/* no trailer: the offsets are the message's own; text "x": the scope
	 * at 6, the kind at 7, the events at 8, the subject's length at 9 */
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_TRAILER };
	static const struct {
		const char *what;
		uint8_t scope, kind, events;
		const char *subject;
		const char *field;  /* NULL: taken */
		size_t at;
		const char *why;
	} cases[] = {
		{ "method", WIRE_NOTICE_METHOD, WIRE_KIND_METHOD, WIRE_METHOD_RETURN, "p.C.m()V", NULL, 0, NULL },
		{ "class", WIRE_NOTICE_CLASS, WIRE_KIND_METHOD, WIRE_METHOD_ENTER | WIRE_METHOD_RETURN, "p.C$$Lambda",
		  NULL, 0, NULL },
		{ "kind", WIRE_NOTICE_KIND, WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_THROWN, "", NULL, 0, NULL },
		{ "general", WIRE_NOTICE_GENERAL, 0, 0, "", NULL, 0, NULL },
		{ "scope 4", 4, WIRE_KIND_METHOD, 1, "p.C.m()V", "notice scope", 6,
		  "4 is not 0 (general), 1 (method), 2 (class) or 3 (kind)" },
		{ "general with a kind", WIRE_NOTICE_GENERAL, WIRE_KIND_CLASS, 0, "", "kind", 7,
		  "2 in a general notice, which has none" },
		{ "general with events", WIRE_NOTICE_GENERAL, 0, 1, "", "notice events", 8,
		  "0x01 in a general notice, which has none" },
		{ "general with a subject", WIRE_NOTICE_GENERAL, 0, 0, "p.C", "notice subject", 9,
		  "3 bytes in a notice that names nothing" },
		{ "method of kind exception", WIRE_NOTICE_METHOD, WIRE_KIND_EXCEPTION, 1, "p.C.m()V", "kind", 7,
		  "3: a notice about a method or a class is of kind 1 (method)" },
		{ "kind 0", WIRE_NOTICE_KIND, 0, 1, "", "kind", 7,
		  "0 is not 1 (method), 2 (class) or 3 (exception)" },
		{ "no events", WIRE_NOTICE_METHOD, WIRE_KIND_METHOD, 0, "p.C.m()V", "notice events", 8,
		  "0x00 is not a set of the kind's events (0x07)" },
		{ "events of no kind", WIRE_NOTICE_KIND, WIRE_KIND_EXCEPTION, 0x04, "", "notice events", 8,
		  "0x04 is not a set of the kind's events (0x03)" },
		{ "method without a name", WIRE_NOTICE_METHOD, WIRE_KIND_METHOD, 1, "", "notice subject", 9,
		  "empty: a notice about a method or a class names it" },
		{ "kind with a name", WIRE_NOTICE_KIND, WIRE_KIND_METHOD, 1, "p.C.m()V", "notice subject", 9,
		  "8 bytes in a notice that names nothing" },
	};
	uint8_t mine_bytes[64];
	struct wire_buf b = { msg, BUF_CAP, 0 }, mine = { mine_bytes, sizeof mine_bytes, 0 };
	size_t len, used;
	struct wire_error err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct wire_event ev = {
			.code = WIRE_EV_NOTICE, .name = { "x", 1 }, .notice_scope = cases[i].scope,
			.kind = cases[i].kind, .events = cases[i].events,
			.method = { cases[i].subject, (uint32_t)strlen(cases[i].subject) },
		};

		len = wire_ref_encode_event(&ev, &peer, wire_host_is_big_endian(), msg, BUF_CAP);
		assert_int_equal(len, 1 + 5 + 3 + 4 + strlen(cases[i].subject));
		if (!cases[i].field) {
			assert_int_equal(decode_exact(false, &peer, msg, len, &used, &err), 0);
			assert_int_equal(used, len);
			assert_int_equal(ev_out->notice_scope, cases[i].scope);
			assert_int_equal(ev_out->kind, cases[i].kind);
			assert_int_equal(ev_out->events, cases[i].events);
			assert_int_equal(ev_out->method.len, strlen(cases[i].subject));
			/* the decoded strings pointed into decode_exact's copy:
			 * the bytes are the reference's, which ours must equal */
			assert_memory_equal(msg + 13, cases[i].subject, strlen(cases[i].subject));
			assert_int_equal(wire_encode_event(&mine, &peer, &ev), 0);
			assert_int_equal(mine.len, len);
			assert_memory_equal(mine.data, msg, len);
			mine.len = 0;
			continue;
		}
		expect_bad(cases[i].what, false, &peer, msg, len, cases[i].field, cases[i].at);
		decode_exact(false, &peer, msg, len, &used, &err);
		if (!strstr(err.text, cases[i].why))
			fail_msg("%s: \"%s\" does not say \"%s\"", cases[i].what, err.text, cases[i].why);
		b.len = 0;
		assert_int_equal(wire_encode_event(&b, &peer, &ev), -EINVAL);
	}
	/* a stream without the bit: the text alone, the subject not sent */
	peer.caps &= ~(uint32_t)WIRE_CAP_NOTICE_SUBJECT;
	struct wire_event ev = { .code = WIRE_EV_NOTICE, .name = { "x", 1 }, .notice_scope = WIRE_NOTICE_KIND,
				 .kind = WIRE_KIND_CLASS, .events = WIRE_CLASS_LOAD };
	b.len = 0;
	assert_int_equal(wire_encode_event(&b, &peer, &ev), 0);
	assert_int_equal(b.len, 1 + 5);
	assert_int_equal(decode_exact(false, &peer, msg, b.len, &used, &err), 0);
	assert_int_equal(ev_out->notice_scope, 0);
	assert_int_equal(ev_out->kind, 0);
}

/* Ack needs either CAP_SYNC or CAP_END_ACK (the acknowledgement of the
 * stream's end), and DispatchMode still CAP_SYNC alone. */
static void test_ack_with_end_ack_alone(void **state)
{
	struct wire_command ack = { .code = WIRE_CMD_ACK, .seq = 4242 };
	struct wire_command mode = { .code = WIRE_CMD_DISPATCH_MODE, .mode = WIRE_DISPATCH_SYNC };
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_SYNC };
	size_t len, used;
	struct wire_error err;

	(void)state;
	len = wire_ref_encode_command(&ack, wire_host_is_big_endian(), msg, BUF_CAP);
	assert_int_equal(decode_exact(true, &peer, msg, len, &used, &err), 0);
	assert_int_equal(cmd_out->code, WIRE_CMD_ACK);
	assert_int_equal(cmd_out->seq, 4242);
	len = wire_ref_encode_command(&mode, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("DispatchMode without CAP_SYNC", true, &peer, msg, len, "code", 0);
	peer.caps &= ~(uint32_t)WIRE_CAP_END_ACK;
	len = wire_ref_encode_command(&ack, wire_host_is_big_endian(), msg, BUF_CAP);
	expect_bad("Ack with neither", true, &peer, msg, len, "code", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jfr_data_none),
		cmocka_unit_test(test_notice_subject),
		cmocka_unit_test(test_ack_with_end_ack_alone),
		cmocka_unit_test(test_register_slot_bounds),
		cmocka_unit_test(test_jfr_event_parts),
		cmocka_unit_test(test_truncated_events),
		cmocka_unit_test(test_truncated_commands),
		cmocka_unit_test(test_unknown_codes),
		cmocka_unit_test(test_extensions_not_negotiated),
		cmocka_unit_test(test_fields_cover_every_check),
		cmocka_unit_test(test_bad_event_fields),
		cmocka_unit_test(test_bad_command_fields),
		cmocka_unit_test(test_bridge_hello_edges),
		cmocka_unit_test(test_message_too_big),
	};

	return cmocka_run_group_tests_name("wire_malformed", tests, setup, teardown);
}

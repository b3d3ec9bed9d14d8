/* test_wire_roundtrip.c: every sample message encodes to the layout of the
 * seed's tables (checked against wire_ref.c, an independent encoder; the
 * bytes written by hand are in test_wire_layout.c), decodes back to the same
 * fields in both byte orders, and the Hello negotiation does what wire.h
 * says. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"
#include "wire_samples.h"

#define BUF_CAP (WIRE_MAX_MESSAGE + 64)

static uint8_t *enc, *ref;
static struct wire_event *ev_in, *ev_out;
static struct wire_command *cmd_in, *cmd_out;

static int setup(void **state)
{
	(void)state;
	enc = malloc(BUF_CAP);
	ref = malloc(BUF_CAP);
	ev_in = calloc(1, sizeof(*ev_in));
	ev_out = calloc(1, sizeof(*ev_out));
	cmd_in = calloc(1, sizeof(*cmd_in));
	cmd_out = calloc(1, sizeof(*cmd_out));
	return enc && ref && ev_in && ev_out && cmd_in && cmd_out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(enc);
	free(ref);
	free(ev_in);
	free(ev_out);
	free(cmd_in);
	free(cmd_out);
	return 0;
}

static void fail_because(const char *name, const char *what, const char *why)
{
	fail_msg("%s: %s: %s", name, what, why);
}

/* Encode with the implementation; the bytes must equal the reference's. */
static size_t encode_event_checked(const char *name, const struct wire_peer *peer,
				   const struct wire_event *ev)
{
	struct wire_buf b = { .data = enc, .cap = BUF_CAP, .len = 0 };
	size_t ref_len;
	int rc = wire_encode_event(&b, peer, ev);

	if (rc != 0)
		fail_msg("%s: wire_encode_event returned %d", name, rc);
	ref_len = wire_ref_encode_event(ev, peer, wire_host_is_big_endian(), ref, BUF_CAP);
	if (b.len != ref_len)
		fail_msg("%s: encoded %zu bytes, the seed's layout has %zu", name, b.len, ref_len);
	for (size_t i = 0; i < ref_len; i++)
		if (enc[i] != ref[i])
			fail_msg("%s: byte %zu is 0x%02x, the seed's layout says 0x%02x",
				 name, i, enc[i], ref[i]);
	return b.len;
}

static size_t encode_command_checked(const char *name, const struct wire_command *cmd)
{
	struct wire_buf b = { .data = enc, .cap = BUF_CAP, .len = 0 };
	size_t ref_len;
	int rc = wire_encode_command(&b, cmd);

	if (rc != 0)
		fail_msg("%s: wire_encode_command returned %d", name, rc);
	ref_len = wire_ref_encode_command(cmd, wire_host_is_big_endian(), ref, BUF_CAP);
	if (b.len != ref_len)
		fail_msg("%s: encoded %zu bytes, the seed's layout has %zu", name, b.len, ref_len);
	for (size_t i = 0; i < ref_len; i++)
		if (enc[i] != ref[i])
			fail_msg("%s: byte %zu is 0x%02x, the seed's layout says 0x%02x",
				 name, i, enc[i], ref[i]);
	return b.len;
}

/* Decode buf[0..len) + `extra` junk bytes: must use exactly len bytes. */
static void decode_event_checked(const char *name, const struct wire_peer *peer,
				 const uint8_t *buf, size_t len, const struct wire_event *want)
{
	static const uint8_t junk[3] = { 0xFF, 0x7F, 0x80 };
	uint8_t *copy = malloc(len + sizeof(junk));
	struct wire_error err = { 0 };
	size_t used = 0;
	char why[160];
	int rc;

	assert_non_null(copy);
	memcpy(copy, buf, len);
	memcpy(copy + len, junk, sizeof(junk));
	for (size_t extra = 0; extra <= sizeof(junk); extra += sizeof(junk)) {
		memset(ev_out, 0xA5, sizeof(*ev_out));
		rc = wire_decode_event(peer, copy, len + extra, ev_out, &used, &err);
		if (rc != 0)
			fail_msg("%s: decode returned %d (%s)", name, rc, rc == -EBADMSG ? err.text : "");
		if (used != len)
			fail_msg("%s: decode used %zu of %zu bytes", name, used, len);
		if (!wire_event_equal(want, ev_out, why, sizeof(why)))
			fail_because(name, "decoded event differs", why);
	}
	free(copy);
}

static void decode_command_checked(const char *name, const struct wire_peer *peer,
				   const uint8_t *buf, size_t len, const struct wire_command *want)
{
	static const uint8_t junk[3] = { 0xFF, 0x7F, 0x80 };
	uint8_t *copy = malloc(len + sizeof(junk));
	struct wire_error err = { 0 };
	size_t used = 0;
	char why[160];
	int rc;

	assert_non_null(copy);
	memcpy(copy, buf, len);
	memcpy(copy + len, junk, sizeof(junk));
	for (size_t extra = 0; extra <= sizeof(junk); extra += sizeof(junk)) {
		memset(cmd_out, 0xA5, sizeof(*cmd_out));
		rc = wire_decode_command(peer, copy, len + extra, cmd_out, &used, &err);
		if (rc != 0)
			fail_msg("%s: decode returned %d (%s)", name, rc, rc == -EBADMSG ? err.text : "");
		if (used != len)
			fail_msg("%s: decode used %zu of %zu bytes", name, used, len);
		if (!wire_command_equal(want, cmd_out, why, sizeof(why)))
			fail_because(name, "decoded command differs", why);
	}
	free(copy);
}

/* ------------------------------------------------------------ every sample */
static void test_roundtrip_every_event(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);
		size_t len = encode_event_checked(name, &peer, ev_in);

		decode_event_checked(name, &peer, enc, len, ev_in);
	}
}

static void test_roundtrip_every_command(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd_in, &peer);
		size_t len = encode_command_checked(name, cmd_in);

		decode_command_checked(name, &peer, enc, len, cmd_in);
	}
}

/* The samples cover every code and every value type. */
static void test_samples_cover_everything(void **state)
{
	bool ev_seen[256] = { false }, arg_seen[256] = { false }, ret_seen[256] = { false };
	bool cmd_seen[0x141] = { false }, stack = false, trailer = false;
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		wire_sample_event(i, ev_in, &peer);
		ev_seen[ev_in->code] = true;
		for (unsigned k = 0; ev_in->code == 0x80 && k < ev_in->nvalues; k++)
			arg_seen[ev_in->values[k].type] = true;
		if (ev_in->code == 0x81)
			ret_seen[ev_in->retval.type] = true;
		trailer |= ev_in->has_trailer;
		stack |= ev_in->has_trailer && (ev_in->trailer.flags & WIRE_TF_STACK);
	}
	for (unsigned c = 0x80; c <= 0x98; c++)
		if ((c <= 0x8C || c >= 0x90) && !ev_seen[c])
			fail_msg("no sample of event 0x%02x", c);
	for (const char *t = "ZBCSIJFDVN?TL["; *t; t++)
		if (!arg_seen[(uint8_t)*t] || !ret_seen[(uint8_t)*t])
			fail_msg("value type '%c' missing as argument or return value", *t);
	assert_true(trailer && stack);
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		wire_sample_command(i, cmd_in, &peer);
		cmd_seen[cmd_in->code] = true;
	}
	for (unsigned c = 0x40; c <= 0x56; c++)
		if ((c <= 0x46 || c >= 0x50) && !cmd_seen[c])
			fail_msg("no sample of command 0x%02x", c);
	assert_true(cmd_seen[WIRE_CMD_HELLO]);
}

/* ------------------------------------------------------------ the other byte order */
static void test_swapped_every_event(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);
		size_t len;

		peer.swap = true;
		peer.hello = true;
		if (ev_in->code == WIRE_EV_HELLO) {
			/* A Hello's fields are in the order it declares, whatever
			 * the peer's order was: decodes the same with or without swap. */
			len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), ref, BUF_CAP);
			decode_event_checked(name, &peer, ref, len, ev_in);
			ev_in->hello.order = wire_foreign_order();
			len = wire_ref_encode_event(ev_in, &peer, !wire_host_is_big_endian(), ref, BUF_CAP);
			decode_event_checked(name, &peer, ref, len, ev_in);
			peer.swap = false;
		}
		len = wire_ref_encode_event(ev_in, &peer, !wire_host_is_big_endian(), ref, BUF_CAP);
		assert_true(len > 0);
		decode_event_checked(name, &peer, ref, len, ev_in);
	}
}

static void test_swapped_every_command(void **state)
{
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd_in, &peer);
		size_t len;

		if (cmd_in->code == WIRE_CMD_HELLO)
			cmd_in->hello.order = wire_foreign_order();
		if (cmd_in->code == WIRE_CMD_HELLO && !peer.hello) {
			/* Before any Hello: recognised from its swapped length. */
			len = wire_ref_encode_command(cmd_in, !wire_host_is_big_endian(), ref, BUF_CAP);
			decode_command_checked(name, &peer, ref, len, cmd_in);
		}
		peer.swap = true;
		peer.hello = true;
		len = wire_ref_encode_command(cmd_in, !wire_host_is_big_endian(), ref, BUF_CAP);
		assert_true(len > 0);
		decode_command_checked(name, &peer, ref, len, cmd_in);
	}
}

/* ------------------------------------------------------------ limits that are still valid */
static void test_roundtrip_limits(void **state)
{
	char *big = malloc(WIRE_MAX_MESSAGE);
	struct wire_peer peer;
	size_t len;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', WIRE_MAX_MESSAGE);

	/* a string of exactly WIRE_MAX_STRING bytes */
	wire_sample_event(0, ev_in, &peer);
	ev_in->name = (struct wire_str){ big, WIRE_MAX_STRING };
	len = encode_event_checked("max string", &peer, ev_in);
	decode_event_checked("max string", &peer, enc, len, ev_in);

	/* WIRE_MAX_VALUES values */
	ev_in->name = (struct wire_str){ "m", 1 };
	ev_in->nvalues = WIRE_MAX_VALUES;
	for (unsigned k = 0; k < WIRE_MAX_VALUES; k++)
		ev_in->values[k] = (struct wire_value){ .type = WIRE_T_INT, .v.i = (int32_t)k * -7 };
	len = encode_event_checked("max values", &peer, ev_in);
	decode_event_checked("max values", &peer, enc, len, ev_in);

	/* a stack of WIRE_MAX_STACK_DEPTH frames */
	ev_in->nvalues = 0;
	peer.caps = WIRE_CAP_ALL;
	peer.hello = true;
	ev_in->has_trailer = true;
	ev_in->trailer.flags = WIRE_TF_STACK;
	ev_in->trailer.depth = WIRE_MAX_STACK_DEPTH;
	for (unsigned k = 0; k < WIRE_MAX_STACK_DEPTH; k++)
		ev_in->trailer.frames[k] = (struct wire_frame){ { big, k }, (int32_t)k - 2, { "", 0 } };
	len = encode_event_checked("max depth", &peer, ev_in);
	decode_event_checked("max depth", &peer, enc, len, ev_in);

	/* a message of exactly WIRE_MAX_MESSAGE bytes: header 1+4+name+8+1,
	 * then 15 string values of 1+4+65535+1 bytes */
	wire_peer_init(&peer);
	ev_in->has_trailer = false;
	ev_in->nvalues = 15;
	for (unsigned k = 0; k < 15; k++)
		ev_in->values[k] = (struct wire_value){ .type = WIRE_T_STRING, .truncated = k & 1,
							.str = { big, WIRE_MAX_STRING } };
	ev_in->name = (struct wire_str){ big, WIRE_MAX_MESSAGE - 14 - 15 * (WIRE_MAX_STRING + 6) };
	len = encode_event_checked("max message", &peer, ev_in);
	assert_int_equal(len, WIRE_MAX_MESSAGE);
	decode_event_checked("max message", &peer, enc, len, ev_in);
	free(big);
}

/* ------------------------------------------------------------ negotiation */
static void test_peer_init_and_accept_hello(void **state)
{
	struct wire_hello h = { wire_host_order(), 1, 77, WIRE_CAP_TRAILER | WIRE_CAP_SYNC, { "x", 1 } };
	struct wire_peer peer, before;

	(void)state;
	memset(&peer, 0xFF, sizeof(peer));
	wire_peer_init(&peer);
	assert_false(peer.swap);
	assert_false(peer.hello);
	assert_int_equal(peer.caps, 0);

	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), 0);
	assert_true(peer.hello);
	assert_false(peer.swap);
	assert_int_equal(peer.caps, WIRE_CAP_TRAILER | WIRE_CAP_SYNC);

	/* caps = ours AND theirs; order decides swap */
	wire_peer_init(&peer);
	h.order = wire_foreign_order();
	h.caps = WIRE_CAP_ALL;
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_EXT_EVENTS | WIRE_CAP_STACK), 0);
	assert_true(peer.swap);
	assert_true(peer.hello);
	assert_int_equal(peer.caps, WIRE_CAP_EXT_EVENTS | WIRE_CAP_STACK);

	wire_peer_init(&peer);
	h.caps = 0;
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), 0);
	assert_int_equal(peer.caps, 0);
	assert_true(peer.hello);

	/* unknown order, version 0: -EPROTO, peer untouched */
	wire_peer_init(&peer);
	before = peer;
	h = (struct wire_hello){ 'x', 1, 77, WIRE_CAP_ALL, { "", 0 } };
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), -EPROTO);
	assert_memory_equal(&peer, &before, sizeof(peer));
	h.order = 'L';
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), -EPROTO);
	h.order = 0;
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), -EPROTO);
	h = (struct wire_hello){ wire_host_order(), 0, 77, WIRE_CAP_ALL, { "", 0 } };
	assert_int_equal(wire_peer_accept_hello(&peer, &h, WIRE_CAP_ALL), -EPROTO);
	assert_memory_equal(&peer, &before, sizeof(peer));
}

static void test_hello_init(void **state)
{
	struct wire_hello h;

	(void)state;
	memset(&h, 0xEE, sizeof(h));
	wire_hello_init(&h, WIRE_CAP_TRAILER | WIRE_CAP_STACK, "stapjava test");
	assert_int_equal(h.order, wire_host_order());
	assert_int_equal(h.version, WIRE_PROTOCOL_VERSION);
	assert_int_equal(h.pid, (uint32_t)getpid());
	assert_int_equal(h.caps, WIRE_CAP_TRAILER | WIRE_CAP_STACK);
	assert_int_equal(h.description.len, strlen("stapjava test"));
	assert_memory_equal(h.description.ptr, "stapjava test", h.description.len);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(wire_event_name(0x80), "MethodEnter");
	assert_string_equal(wire_event_name(0x83), "ClassLoad");
	assert_string_equal(wire_command_name(0x40), "RegisterMethod");
	assert_string_equal(wire_command_name(WIRE_CMD_HELLO), "Hello");
	for (unsigned c = 0; c < 0x200; c++) {
		bool ev_known = (c >= 0x80 && c <= 0x8C) || (c >= 0x90 && c <= 0xA1);
		bool cmd_known = (c >= 0x40 && c <= 0x46) || (c >= 0x50 && c <= 0x5B) ||
				 c == WIRE_CMD_HELLO;

		if ((wire_event_name(c) != NULL) != ev_known)
			fail_msg("wire_event_name(0x%x)", c);
		if ((wire_command_name(c) != NULL) != cmd_known)
			fail_msg("wire_command_name(0x%x)", c);
		if (wire_event_is_extension(c) != (c >= 0x90 && c <= 0xA1))
			fail_msg("wire_event_is_extension(0x%x)", c);
		if (wire_command_is_extension(c) != ((c >= 0x50 && c <= 0x5B) || c == WIRE_CMD_HELLO))
			fail_msg("wire_command_is_extension(0x%x)", c);
	}
	/* names are distinct */
	for (unsigned a = 0x80; a <= 0x98; a++)
		for (unsigned b = a + 1; b <= 0x98; b++)
			if (wire_event_name(a) && wire_event_name(b) &&
			    strcmp(wire_event_name(a), wire_event_name(b)) == 0)
				fail_msg("events 0x%x and 0x%x share a name", a, b);
}

/* A message never shows fields of the one decoded before it into the same
 * struct: after ClassPrepare (name, thread) and a trailer, ThreadStarted must
 * leave name empty, and a MethodExit's retval must not survive into a
 * MethodEnter. Stale pointers would point into bytes already consumed. */
static void test_decode_clears_previous_message(void **state)
{
	(void)state;
	static const uint8_t prepare[] = { 0x84, 3, 0, 0, 0, 'L', 'a', ';', 9, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t started[] = { 0x87, 7, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t exit_ret[] = { 0x81, 1, 0, 0, 0, 'm', 5, 0, 0, 0, 0, 0, 0, 0, 1, '?' };
	static const uint8_t exit_int[] = { 0x81, 1, 0, 0, 0, 'm', 5, 0, 0, 0, 0, 0, 0, 0, 0, 'I', 42, 0, 0, 0 };
	static const uint8_t enter[] = { 0x80, 1, 0, 0, 0, 'm', 5, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct wire_peer peer;
	struct wire_event *ev = calloc(1, sizeof(*ev));
	struct wire_error err;
	size_t used;

	assert_non_null(ev);
	wire_peer_init(&peer);
	peer.swap = wire_host_is_big_endian(); /* the bytes above are little-endian */
	assert_int_equal(wire_decode_event(&peer, prepare, sizeof prepare, ev, &used, &err), 0);
	assert_int_equal(ev->name.len, 3);
	assert_int_equal(wire_decode_event(&peer, started, sizeof started, ev, &used, &err), 0);
	assert_int_equal(ev->thread, 7);
	assert_null(ev->name.ptr);
	assert_int_equal(ev->name.len, 0);
	assert_int_equal(wire_decode_event(&peer, exit_int, sizeof exit_int, ev, &used, &err), 0);
	assert_int_equal(ev->retval.type, 'I');
	assert_int_equal(ev->retval.v.i, 42);
	assert_int_equal(wire_decode_event(&peer, enter, sizeof enter, ev, &used, &err), 0);
	assert_int_equal(ev->retval.type, 0);
	assert_int_equal(ev->retval.v.i, 0);
	assert_false(ev->popped);
	assert_int_equal(wire_decode_event(&peer, exit_ret, sizeof exit_ret, ev, &used, &err), 0);
	assert_true(ev->popped);
	assert_int_equal(wire_decode_event(&peer, started, sizeof started, ev, &used, &err), 0);
	assert_false(ev->popped);
	free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_cover_everything),
		cmocka_unit_test(test_roundtrip_every_event),
		cmocka_unit_test(test_roundtrip_every_command),
		cmocka_unit_test(test_swapped_every_event),
		cmocka_unit_test(test_swapped_every_command),
		cmocka_unit_test(test_roundtrip_limits),
		cmocka_unit_test(test_peer_init_and_accept_hello),
		cmocka_unit_test(test_hello_init),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_decode_clears_previous_message),
	};

	return cmocka_run_group_tests_name("wire_roundtrip", tests, setup, teardown);
}

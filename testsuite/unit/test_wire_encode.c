/* test_wire_encode.c: the encoders' failures. -ENOSPC for every buffer too
 * small (nothing written, b->len unchanged, no write past cap under ASan),
 * -EINVAL for every struct the decoder would reject, and appending. */
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
#define PRE 3 /* bytes already in the buffer */

static uint8_t *ref;
static struct wire_event *ev;
static struct wire_command *cmd;
static char big[WIRE_MAX_STRING + 2];

static int setup(void **state)
{
	(void)state;
	memset(big, 'b', sizeof(big));
	ref = malloc(BUF_CAP);
	ev = calloc(1, sizeof(*ev));
	cmd = calloc(1, sizeof(*cmd));
	return ref && ev && cmd ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(ref);
	free(ev);
	free(cmd);
	return 0;
}

/* Encode into an exact-size heap buffer of PRE + room bytes that already
 * holds PRE bytes; returns the encoder's result after checking that a
 * failure left length and contents alone. */
static int encode_into(const char *name, const struct wire_peer *peer, size_t room, size_t want)
{
	uint8_t *data = malloc(PRE + room);
	struct wire_buf b = { .data = data, .cap = PRE + room, .len = PRE };
	int rc;

	assert_non_null(data);
	memset(data, 0xC3, PRE + room);
	rc = peer ? wire_encode_event(&b, peer, ev) : wire_encode_command(&b, cmd);
	if (rc == 0) {
		if (b.len != PRE + want)
			fail_msg("%s: length %zu, expected %zu", name, b.len - PRE, want);
		if (memcmp(data + PRE, ref, want) != 0)
			fail_msg("%s: bytes differ from the seed's layout", name);
	} else if (b.len != PRE) {
		fail_msg("%s: failed with %d but moved b->len to %zu", name, rc, b.len);
	}
	for (size_t i = 0; i < PRE; i++)
		if (data[i] != 0xC3)
			fail_msg("%s: clobbered byte %zu that was already in the buffer", name, i);
	free(data);
	return rc;
}

static void test_nospace_every_size(void **state)
{
	struct wire_peer peer;
	size_t n;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev, &peer);

		n = wire_ref_encode_event(ev, &peer, wire_host_is_big_endian(), ref, BUF_CAP);
		for (size_t room = 0; room < n; room++)
			if (encode_into(name, &peer, room, n) != -ENOSPC)
				fail_msg("%s: room for %zu of %zu bytes: not -ENOSPC", name, room, n);
		assert_int_equal(encode_into(name, &peer, n, n), 0);
	}
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, cmd, &peer);

		n = wire_ref_encode_command(cmd, wire_host_is_big_endian(), ref, BUF_CAP);
		for (size_t room = 0; room < n; room++)
			if (encode_into(name, NULL, room, n) != -ENOSPC)
				fail_msg("%s: room for %zu of %zu bytes: not -ENOSPC", name, room, n);
		assert_int_equal(encode_into(name, NULL, n, n), 0);
	}
}

static void test_appends(void **state)
{
	static uint8_t data[4096];
	struct wire_buf b = { .data = data, .cap = sizeof(data), .len = 0 };
	struct wire_peer peer;
	size_t at = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		size_t n;

		wire_sample_command(i * 7, cmd, &peer);
		assert_int_equal(wire_encode_command(&b, cmd), 0);
		n = wire_ref_encode_command(cmd, wire_host_is_big_endian(), ref, BUF_CAP);
		assert_int_equal(b.len, at + n);
		assert_memory_equal(data + at, ref, n);
		at += n;
	}
}

/* ------------------------------------------------------------ -EINVAL */
static void expect_invalid_event(const char *what, const struct wire_peer *peer)
{
	static uint8_t data[64];
	struct wire_buf b = { .data = data, .cap = sizeof(data), .len = 1 };
	struct wire_buf roomy = { .data = ref, .cap = BUF_CAP, .len = 1 };
	int rc = wire_encode_event(&b, peer, ev);

	if (rc != -EINVAL || b.len != 1)
		fail_msg("%s: small buffer: %d, len %zu (expected -EINVAL, 1)", what, rc, b.len);
	rc = wire_encode_event(&roomy, peer, ev);
	if (rc != -EINVAL || roomy.len != 1)
		fail_msg("%s: %d, len %zu (expected -EINVAL, 1)", what, rc, roomy.len);
}

static void expect_invalid_command(const char *what)
{
	struct wire_buf roomy = { .data = ref, .cap = BUF_CAP, .len = 2 };
	int rc = wire_encode_command(&roomy, cmd);

	if (rc != -EINVAL || roomy.len != 2)
		fail_msg("%s: %d, len %zu (expected -EINVAL, 2)", what, rc, roomy.len);
}

/* Sample 0 of each event code, with the peer it needs. */
static void sample_with_code(unsigned code, struct wire_peer *peer)
{
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		wire_sample_event(i, ev, peer);
		if (ev->code == code)
			return;
	}
	fail_msg("no sample of 0x%x", code);
}

static void test_invalid_events(void **state)
{
	static const unsigned bad_codes[] = { 0, 0x40, 0x7F, 0x8D, 0x8F, 0x99, 0xFF, 0x100, 0x180, 0x140 };
	static const struct { uint8_t type; int64_t v; } bad_ints[] = {
		{ 'Z', 2 }, { 'Z', -1 }, { 'B', 128 }, { 'B', -129 }, { 'C', -1 }, { 'C', 65536 },
		{ 'S', 32768 }, { 'S', -32769 }, { 'I', 2147483648LL }, { 'I', -2147483649LL },
	};
	static const uint8_t bad_types[] = { 0, 'A', 'z', 'i', 0xFF };
	struct wire_peer peer, all = { .swap = false, .hello = true, .caps = WIRE_CAP_ALL };
	char what[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_codes) / sizeof(bad_codes[0]); i++) {
		memset(ev, 0, sizeof(*ev));
		ev->code = bad_codes[i];
		snprintf(what, sizeof(what), "event code 0x%x", bad_codes[i]);
		expect_invalid_event(what, &all);
	}
	/* extension events need CAP_EXT_EVENTS, Notice CAP_NOTICE */
	for (unsigned c = 0x91; c <= 0x98; c++) {
		sample_with_code(c, &peer);
		assert_int_equal(events_get(c)->caps, c == 0x98 ? WIRE_CAP_NOTICE : WIRE_CAP_EXT_EVENTS);
		peer.caps &= ~events_get(c)->caps;
		snprintf(what, sizeof(what), "event 0x%x not negotiated", c);
		expect_invalid_event(what, &peer);
	}
	/* values: unknown types, integers the type cannot hold */
	for (size_t i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
		sample_with_code(0x80, &peer);
		ev->nvalues = 2;
		ev->values[1] = (struct wire_value){ .type = bad_types[i] };
		expect_invalid_event("unknown argument type", &peer);
		sample_with_code(0x81, &peer);
		ev->retval = (struct wire_value){ .type = bad_types[i] };
		expect_invalid_event("unknown return type", &peer);
	}
	for (size_t i = 0; i < sizeof(bad_ints) / sizeof(bad_ints[0]); i++) {
		sample_with_code(0x82, &peer);
		ev->nvalues = 1;
		ev->values[0] = (struct wire_value){ .type = bad_ints[i].type, .v.i = bad_ints[i].v };
		snprintf(what, sizeof(what), "'%c' = %lld", bad_ints[i].type, (long long)bad_ints[i].v);
		expect_invalid_event(what, &peer);
	}
	/* ClassLoad's thread is 4 bytes */
	sample_with_code(0x83, &peer);
	ev->thread = 0x100000000ull;
	expect_invalid_event("ClassLoad thread > u32", &peer);
}

static void test_invalid_strings(void **state)
{
	struct wire_peer peer;
	const struct wire_str too_long = { big, WIRE_MAX_STRING + 1 };
	const struct wire_str no_bytes = { NULL, 3 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct wire_str s = k ? no_bytes : too_long;

		sample_with_code(0x85, &peer);
		ev->name = s;
		expect_invalid_event("exception name", &peer);
		sample_with_code(0x85, &peer);
		ev->method = s;
		expect_invalid_event("exception method", &peer);
		sample_with_code(0x96, &peer);
		ev->name = s;
		expect_invalid_event("thread name", &peer);
		sample_with_code(0x81, &peer);
		ev->retval = (struct wire_value){ .type = WIRE_T_STRING, .str = s };
		expect_invalid_event("string value", &peer);
		ev->retval = (struct wire_value){ .type = WIRE_T_OBJECT, .str = s };
		expect_invalid_event("object class", &peer);
		ev->retval = (struct wire_value){ .type = WIRE_T_ARRAY, .str = s };
		expect_invalid_event("array class", &peer);
		sample_with_code(0x90, &peer);
		ev->hello.description = s;
		expect_invalid_event("hello description", &peer);
		*cmd = (struct wire_command){ .code = 0x41, .pattern = s };
		expect_invalid_command("pattern");
		*cmd = (struct wire_command){ .code = 0x50, .kind = 1, .events = 1, .pattern = s };
		expect_invalid_command("Register pattern");
	}
	/* the whole message over WIRE_MAX_MESSAGE: 16 values of 65535 bytes */
	sample_with_code(0x80, &peer);
	ev->nvalues = 16;
	for (unsigned k = 0; k < 16; k++)
		ev->values[k] = (struct wire_value){ .type = WIRE_T_STRING, .str = { big, WIRE_MAX_STRING } };
	expect_invalid_event("message over the limit", &peer);
}

static void test_invalid_trailers(void **state)
{
	struct wire_peer peer;

	(void)state;
	sample_with_code(0x87, &peer);
	peer = (struct wire_peer){ .swap = false, .hello = true, .caps = WIRE_CAP_TRAILER };
	ev->has_trailer = false;
	expect_invalid_event("negotiated trailer missing", &peer);
	ev->has_trailer = true;
	ev->trailer.flags = 0x08;
	expect_invalid_event("unknown trailer flag", &peer);
	ev->trailer.flags = WIRE_TF_SYNC;
	expect_invalid_event("sync flag without CAP_SYNC", &peer);
	ev->trailer.flags = WIRE_TF_STACK;
	expect_invalid_event("stack flag without CAP_STACK", &peer);
	peer.caps = WIRE_CAP_ALL;
	ev->trailer.depth = WIRE_MAX_STACK_DEPTH + 1;
	expect_invalid_event("stack too deep", &peer);
	ev->trailer.depth = 2;
	ev->trailer.frames[1].method = (struct wire_str){ big, WIRE_MAX_STRING + 1 };
	expect_invalid_event("frame method too long", &peer);
}

static void test_invalid_hellos(void **state)
{
	static const uint8_t bad_orders[] = { 0, 'L', 'b', 0xFF };
	struct wire_peer peer;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_orders); i++) {
		sample_with_code(0x90, &peer);
		ev->hello.order = bad_orders[i];
		expect_invalid_event("event Hello order", &peer);
		wire_sample_command(46, cmd, &peer);
		assert_int_equal(cmd->code, WIRE_CMD_HELLO);
		cmd->hello.order = bad_orders[i];
		expect_invalid_command("bridge Hello order");
	}
	sample_with_code(0x90, &peer);
	ev->hello.version = 0;
	expect_invalid_event("event Hello version 0", &peer);
	wire_sample_command(46, cmd, &peer);
	cmd->hello.version = 0;
	expect_invalid_command("bridge Hello version 0");
	/* the bridge Hello's description shares the string with 16 bytes */
	wire_sample_command(46, cmd, &peer);
	cmd->hello.description = (struct wire_str){ big, WIRE_MAX_STRING - WIRE_HELLO_MIN_STRING + 1 };
	expect_invalid_command("bridge Hello description");
	cmd->hello.description.len--;
	{
		struct wire_buf b = { .data = ref, .cap = BUF_CAP, .len = 0 };

		assert_int_equal(wire_encode_command(&b, cmd), 0);
		assert_int_equal(b.len, 5 + WIRE_MAX_STRING);
	}
	/* a RegisterMethod pattern that the agent would take for a Hello */
	*cmd = (struct wire_command){ .code = 0x40, .pattern = { "\0STPJ and more", 14 } };
	expect_invalid_command("pattern starting with \\0STPJ");
	cmd->pattern.len = 5;
	expect_invalid_command("pattern \\0STPJ");
}

static void test_invalid_commands(void **state)
{
	static const unsigned bad_codes[] = { 0, 0x3F, 0x47, 0x4F, 0x59, 0x80, 0x90, 0xFF, 0x100, 0x141 };
	static const uint8_t bad_register[][2] = {
		{ 0, 1 }, { 4, 1 }, { 0xFF, 1 },          /* kind */
		{ 1, 0 }, { 1, 0x08 }, { 2, 0 }, { 2, 0x10 }, { 3, 0 }, { 3, 0x04 }, { 3, 0x07 },
	};
	char what[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_codes) / sizeof(bad_codes[0]); i++) {
		*cmd = (struct wire_command){ .code = bad_codes[i] };
		snprintf(what, sizeof(what), "command code 0x%x", bad_codes[i]);
		expect_invalid_command(what);
	}
	for (size_t i = 0; i < sizeof(bad_register) / sizeof(bad_register[0]); i++) {
		*cmd = (struct wire_command){ .code = 0x50, .kind = bad_register[i][0],
					      .events = bad_register[i][1], .pattern = { "x", 1 } };
		snprintf(what, sizeof(what), "Register kind %u events 0x%x", bad_register[i][0],
			 bad_register[i][1]);
		expect_invalid_command(what);
	}
	for (unsigned kind = 0; kind < 256; kind += 4) {
		*cmd = (struct wire_command){ .code = 0x51, .kind = (uint8_t)kind, .pattern = { "x", 1 } };
		expect_invalid_command("Unregister kind");
	}
	for (unsigned mode = 2; mode < 256; mode++) {
		*cmd = (struct wire_command){ .code = 0x54, .mode = (uint8_t)mode };
		expect_invalid_command("DispatchMode mode");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nospace_every_size),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_invalid_events),
		cmocka_unit_test(test_invalid_strings),
		cmocka_unit_test(test_invalid_trailers),
		cmocka_unit_test(test_invalid_hellos),
		cmocka_unit_test(test_invalid_commands),
	};

	return cmocka_run_group_tests_name("wire_encode", tests, setup, teardown);
}

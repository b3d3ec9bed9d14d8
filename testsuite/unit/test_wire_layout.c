/* test_wire_layout.c: messages written by hand, byte by byte, from the
 * seed's Appendix A/B/C tables and wire.h, in both byte orders: the encoder
 * must produce exactly these bytes and the decoder must read them back (the
 * other order with peer->swap). This pins the layout itself, and with it
 * the reference encoder (wire_ref.c) the other tests compare against. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_samples.h"

#define BUF_CAP 4096

static uint8_t enc[BUF_CAP];
static struct wire_event *ev_in, *ev_out;
static struct wire_command *cmd_in, *cmd_out;

static int setup(void **state)
{
	(void)state;
	ev_in = calloc(1, sizeof(*ev_in));
	ev_out = calloc(1, sizeof(*ev_out));
	cmd_in = calloc(1, sizeof(*cmd_in));
	cmd_out = calloc(1, sizeof(*cmd_out));
	return ev_in && ev_out && cmd_in && cmd_out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(ev_in);
	free(ev_out);
	free(cmd_in);
	free(cmd_out);
	return 0;
}

/* Decode exactly buf[0..len) (an exact-size heap copy) into the same fields. */
static void decode_event_checked(const char *name, const struct wire_peer *peer,
				 const uint8_t *buf, size_t len, const struct wire_event *want)
{
	uint8_t *copy = malloc(len);
	struct wire_error err = { 0 };
	size_t used = 0;
	char why[160] = "";
	bool same;
	int rc;

	assert_non_null(copy);
	memcpy(copy, buf, len);
	memset(ev_out, 0xA5, sizeof(*ev_out));
	rc = wire_decode_event(peer, copy, len, ev_out, &used, &err);
	same = rc == 0 && wire_event_equal(want, ev_out, why, sizeof(why)); /* strings point into copy */
	free(copy);
	if (rc != 0)
		fail_msg("%s: decode returned %d (%s)", name, rc, rc == -EBADMSG ? err.text : "");
	if (used != len)
		fail_msg("%s: decode used %zu of %zu bytes", name, used, len);
	if (!same)
		fail_msg("%s: decoded event differs: %s", name, why);
}

static void decode_command_checked(const char *name, const struct wire_peer *peer,
				   const uint8_t *buf, size_t len, const struct wire_command *want)
{
	uint8_t *copy = malloc(len);
	struct wire_error err = { 0 };
	size_t used = 0;
	char why[160] = "";
	bool same;
	int rc;

	assert_non_null(copy);
	memcpy(copy, buf, len);
	memset(cmd_out, 0xA5, sizeof(*cmd_out));
	rc = wire_decode_command(peer, copy, len, cmd_out, &used, &err);
	same = rc == 0 && wire_command_equal(want, cmd_out, why, sizeof(why)); /* strings point into copy */
	free(copy);
	if (rc != 0)
		fail_msg("%s: decode returned %d (%s)", name, rc, rc == -EBADMSG ? err.text : "");
	if (used != len)
		fail_msg("%s: decode used %zu of %zu bytes", name, used, len);
	if (!same)
		fail_msg("%s: decoded command differs: %s", name, why);
}

/* The reference encoder writes the same bytes (so the other tests, which
 * trust it, stand on this file). */
static void check_ref_event(const uint8_t *native, size_t n, const struct wire_event *ev,
			    const struct wire_peer *peer)
{
	uint8_t ref[BUF_CAP];

	assert_int_equal(wire_ref_encode_event(ev, peer, wire_host_is_big_endian(), ref, sizeof(ref)), n);
	assert_memory_equal(ref, native, n);
}

static void check_ref_command(const uint8_t *native, size_t n, const struct wire_command *cmd)
{
	uint8_t ref[BUF_CAP];

	assert_int_equal(wire_ref_encode_command(cmd, wire_host_is_big_endian(), ref, sizeof(ref)), n);
	assert_memory_equal(ref, native, n);
}

/* native = bytes in host order (encoder output, decoded without swap),
 * foreign = the same message in the other order (decoded with swap). */
static void pin_event(const char *name, const uint8_t *le, const uint8_t *be, size_t n,
		      const struct wire_event *ev, uint32_t caps)
{
	struct wire_peer peer = { .swap = false, .hello = caps != 0, .caps = caps };
	struct wire_buf b = { .data = enc, .cap = BUF_CAP, .len = 0 };
	const uint8_t *native = wire_host_is_big_endian() ? be : le;
	const uint8_t *foreign = wire_host_is_big_endian() ? le : be;

	assert_int_equal(wire_encode_event(&b, &peer, ev), 0);
	assert_int_equal(b.len, n);
	assert_memory_equal(enc, native, n);
	check_ref_event(native, n, ev, &peer);
	decode_event_checked(name, &peer, native, n, ev);
	peer.swap = true;
	peer.hello = true;
	decode_event_checked(name, &peer, foreign, n, ev);
}

static void pin_command(const char *name, const uint8_t *le, const uint8_t *be, size_t n,
			const struct wire_command *cmd, uint32_t caps)
{
	struct wire_peer peer = { .swap = false, .hello = caps != 0, .caps = caps };
	struct wire_buf b = { .data = enc, .cap = BUF_CAP, .len = 0 };
	const uint8_t *native = wire_host_is_big_endian() ? be : le;
	const uint8_t *foreign = wire_host_is_big_endian() ? le : be;

	assert_int_equal(wire_encode_command(&b, cmd), 0);
	assert_int_equal(b.len, n);
	assert_memory_equal(enc, native, n);
	check_ref_command(native, n, cmd);
	decode_command_checked(name, &peer, native, n, cmd);
	peer.swap = true;
	peer.hello = true;
	decode_command_checked(name, &peer, foreign, n, cmd);
}

static void test_pinned_method_enter_int(void **state)
{
	static const uint8_t le[] = {
		0x80, 0x08, 0x00, 0x00, 0x00, 'a', '.', 'B', '.', 'c', '(', ')', 'V',
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x01, 'I', 0x44, 0x33, 0x22, 0x11,
	};
	static const uint8_t be[] = {
		0x80, 0x00, 0x00, 0x00, 0x08, 'a', '.', 'B', '.', 'c', '(', ')', 'V',
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x01, 'I', 0x11, 0x22, 0x33, 0x44,
	};
	struct wire_event *ev = ev_in;

	(void)state;
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_METHOD_ENTER;
	ev->name = (struct wire_str){ "a.B.c()V", 8 };
	ev->thread = 0x0102030405060708ull;
	ev->nvalues = 1;
	ev->values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 0x11223344 };
	pin_event("MethodEnter a.B.c()V int", le, be, sizeof(le), ev, 0);
}

/* Every value type's payload, as Appendix C places it. */
static void test_pinned_every_value_type(void **state)
{
	static const uint8_t le[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 'm', 0x2A, 0, 0, 0, 0, 0, 0, 0, 14,
		'Z', 0x01,
		'B', 0xFE,
		'C', 0x3A, 0x26,
		'S', 0xFD, 0xFF,
		'I', 0xFC, 0xFF, 0xFF, 0xFF,
		'J', 0x01, 0, 0, 0, 0, 0, 0, 0x80,
		'F', 0x00, 0x00, 0x80, 0x3F,
		'D', 0, 0, 0, 0, 0, 0, 0xF0, 0x3F,
		'V', 'N', '?',
		'T', 0x02, 0, 0, 0, 'h', 'i', 0x01,
		'L', 0x03, 0, 0, 0, 'L', 'A', ';', 0x05, 0, 0, 0, 0, 0, 0, 0, 0x06, 0, 0, 0,
		'[', 0x02, 0, 0, 0, '[', 'I', 0x07, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0,
	};
	static const uint8_t be[] = {
		0x80, 0x00, 0x00, 0x00, 0x01, 'm', 0, 0, 0, 0, 0, 0, 0, 0x2A, 14,
		'Z', 0x01,
		'B', 0xFE,
		'C', 0x26, 0x3A,
		'S', 0xFF, 0xFD,
		'I', 0xFF, 0xFF, 0xFF, 0xFC,
		'J', 0x80, 0, 0, 0, 0, 0, 0, 0x01,
		'F', 0x3F, 0x80, 0x00, 0x00,
		'D', 0x3F, 0xF0, 0, 0, 0, 0, 0, 0,
		'V', 'N', '?',
		'T', 0, 0, 0, 0x02, 'h', 'i', 0x01,
		'L', 0, 0, 0, 0x03, 'L', 'A', ';', 0, 0, 0, 0, 0, 0, 0, 0x05, 0, 0, 0, 0x06,
		'[', 0, 0, 0, 0x02, '[', 'I', 0, 0, 0, 0, 0, 0, 0, 0x07, 0, 0, 0, 0x08,
	};
	struct wire_event *ev = ev_in;
	struct wire_value *v = ev->values;

	(void)state;
	assert_int_equal(sizeof(le), sizeof(be));
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_METHOD_ENTER;
	ev->name = (struct wire_str){ "m", 1 };
	ev->thread = 42;
	ev->nvalues = 14;
	v[0] = (struct wire_value){ .type = 'Z', .v.i = 1 };
	v[1] = (struct wire_value){ .type = 'B', .v.i = -2 };
	v[2] = (struct wire_value){ .type = 'C', .v.i = 0x263A };
	v[3] = (struct wire_value){ .type = 'S', .v.i = -3 };
	v[4] = (struct wire_value){ .type = 'I', .v.i = -4 };
	v[5] = (struct wire_value){ .type = 'J', .v.i = (int64_t)0x8000000000000001ull };
	v[6] = (struct wire_value){ .type = 'F', .v.f = 1.0f };
	v[7] = (struct wire_value){ .type = 'D', .v.d = 1.0 };
	v[8] = (struct wire_value){ .type = 'V' };
	v[9] = (struct wire_value){ .type = 'N' };
	v[10] = (struct wire_value){ .type = '?' };
	v[11] = (struct wire_value){ .type = 'T', .str = { "hi", 2 }, .truncated = true };
	v[12] = (struct wire_value){ .type = 'L', .str = { "LA;", 3 }, .object_id = 5, .aux = 6 };
	v[13] = (struct wire_value){ .type = '[', .str = { "[I", 2 }, .object_id = 7, .aux = 8 };
	pin_event("MethodEnter every value type", le, be, sizeof(le), ev, 0);
}

static void test_pinned_method_exit_and_class_load(void **state)
{
	static const uint8_t exit_le[] = {
		0x81, 0x01, 0, 0, 0, 'f', 0x10, 0x20, 0, 0, 0, 0, 0, 0, 0x01,
		'J', 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	};
	static const uint8_t exit_be[] = {
		0x81, 0, 0, 0, 0x01, 'f', 0, 0, 0, 0, 0, 0, 0x20, 0x10, 0x01,
		'J', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE,
	};
	/* ClassLoad's thread is 4 bytes (the seed's "4 (unsigned long)") */
	static const uint8_t load_le[] = { 0x83, 0x03, 0, 0, 0, 'L', 'A', ';', 0x78, 0x56, 0x34, 0x12 };
	static const uint8_t load_be[] = { 0x83, 0, 0, 0, 0x03, 'L', 'A', ';', 0x12, 0x34, 0x56, 0x78 };
	struct wire_event *ev = ev_in;

	(void)state;
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_METHOD_EXIT;
	ev->name = (struct wire_str){ "f", 1 };
	ev->thread = 0x2010;
	ev->popped = true;
	ev->retval = (struct wire_value){ .type = WIRE_T_LONG, .v.i = -2 };
	pin_event("MethodExit", exit_le, exit_be, sizeof(exit_le), ev, 0);

	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_CLASS_LOAD;
	ev->name = (struct wire_str){ "LA;", 3 };
	ev->thread = 0x12345678;
	pin_event("ClassLoad", load_le, load_be, sizeof(load_le), ev, 0);
}

static void test_pinned_trailer_with_stack(void **state)
{
	static const uint8_t le[] = {
		0x8C, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0xE8, 0x03, 0, 0,
		0x09, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0x0B, 0, 0, 0,
		0x07, 0x02, 0x00,
		0x01, 0, 0, 0, 'm', 0x05, 0, 0, 0,
		0x00, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF,
	};
	static const uint8_t be[] = {
		0x8C, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0x03, 0xE8,
		0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0x0B,
		0x07, 0x00, 0x02,
		0, 0, 0, 0x01, 'm', 0, 0, 0, 0x05,
		0, 0, 0, 0x00, 0xFF, 0xFF, 0xFF, 0xFE,
	};
	struct wire_event *ev = ev_in;

	(void)state;
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_MONITOR_WAITED;
	ev->thread = 1;
	ev->object = 2;
	ev->u32 = 1000;
	ev->has_trailer = true;
	ev->trailer.seq = 9;
	ev->trailer.timestamp_ns = 10;
	ev->trailer.os_tid = 11;
	ev->trailer.flags = WIRE_TF_SYNC | WIRE_TF_STACK | WIRE_TF_TIMED_OUT;
	ev->trailer.depth = 2;
	ev->trailer.frames[0] = (struct wire_frame){ { "m", 1 }, 5, { "", 0 } };
	ev->trailer.frames[1] = (struct wire_frame){ { "", 0 }, -2, { "", 0 } };
	pin_event("MonitorWaited with trailer", le, be, sizeof(le), ev, 0x7F);
}

/* CAP_FRAME_SOURCE: each frame ends with its source file; TF_MONITOR: the
 * monitor's class, the owner's tid and name follow the stack. */
static void test_pinned_trailer_with_detail(void **state)
{
	static const uint8_t le[] = {
		0x89, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0,
		0x09, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0x0B, 0, 0, 0,
		0x0A, 0x01, 0x00,
		0x01, 0, 0, 0, 'm', 0x05, 0, 0, 0, 0x03, 0, 0, 0, 'A', '.', 'j',
		0x04, 0, 0, 0, 'L', 'O', ';', 'x', 0x0C, 0, 0, 0, 0x02, 0, 0, 0, 'w', '1',
	};
	static const uint8_t be[] = {
		0x89, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02,
		0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0x0B,
		0x0A, 0x00, 0x01,
		0, 0, 0, 0x01, 'm', 0, 0, 0, 0x05, 0, 0, 0, 0x03, 'A', '.', 'j',
		0, 0, 0, 0x04, 'L', 'O', ';', 'x', 0, 0, 0, 0x0C, 0, 0, 0, 0x02, 'w', '1',
	};
	struct wire_event *ev = ev_in;

	(void)state;
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_MONITOR_ENTER;
	ev->thread = 1;
	ev->object = 2;
	ev->has_trailer = true;
	ev->trailer.seq = 9;
	ev->trailer.timestamp_ns = 10;
	ev->trailer.os_tid = 11;
	ev->trailer.flags = WIRE_TF_STACK | WIRE_TF_MONITOR;
	ev->trailer.depth = 1;
	ev->trailer.frames[0] = (struct wire_frame){ { "m", 1 }, 5, { "A.j", 3 } };
	ev->trailer.monitor_class = (struct wire_str){ "LO;x", 4 };
	ev->trailer.owner_tid = 12;
	ev->trailer.owner_name = (struct wire_str){ "w1", 2 };
	pin_event("MonitorContendedEnter with detail", le, be, sizeof(le), ev, WIRE_CAP_ALL);
}

static void test_pinned_hello_event(void **state)
{
	static const uint8_t le[] = {
		0x90, 'S', 'T', 'P', 'J', 'l', 0x01, 0x00, 0x39, 0x30, 0, 0, 0x1F, 0, 0, 0,
		0x02, 0, 0, 0, 'a', 'g',
	};
	static const uint8_t be[] = {
		0x90, 'S', 'T', 'P', 'J', 'B', 0x00, 0x01, 0, 0, 0x30, 0x39, 0, 0, 0, 0x1F,
		0, 0, 0, 0x02, 'a', 'g',
	};
	struct wire_peer peer;
	struct wire_buf b = { .data = enc, .cap = BUF_CAP };
	struct wire_event *ev = ev_in;

	(void)state;
	memset(ev, 0, sizeof(*ev));
	ev->code = WIRE_EV_HELLO;
	ev->hello = (struct wire_hello){ wire_host_order(), 1, 12345, 0x1F, { "ag", 2 } };
	wire_peer_init(&peer);
	assert_int_equal(wire_encode_event(&b, &peer, ev), 0);
	assert_int_equal(b.len, sizeof(le));
	assert_memory_equal(enc, wire_host_is_big_endian() ? be : le, sizeof(le));
	check_ref_event(enc, b.len, ev, &peer);
	/* Each decodes by its own order byte, with or without swap; no trailer
	 * even when one was negotiated. */
	for (int swap = 0; swap < 2; swap++) {
		for (uint32_t caps = 0; caps <= WIRE_CAP_ALL; caps += WIRE_CAP_ALL) {
			peer = (struct wire_peer){ .swap = swap, .hello = caps != 0, .caps = caps };
			ev->hello.order = WIRE_ORDER_LITTLE;
			decode_event_checked("Hello le", &peer, le, sizeof(le), ev);
			ev->hello.order = WIRE_ORDER_BIG;
			decode_event_checked("Hello be", &peer, be, sizeof(be), ev);
		}
	}
}

static void test_pinned_commands(void **state)
{
	static const uint8_t reg_le[] = { 0x40, 0x03, 0, 0, 0, 'a', '.', '*' };
	static const uint8_t reg_be[] = { 0x40, 0, 0, 0, 0x03, 'a', '.', '*' };
	static const uint8_t gc[] = { 0x43, 0x01 };
	static const uint8_t opt_le[] = { 0x46, 0x03, 0, 0, 0 };
	static const uint8_t opt_be[] = { 0x46, 0, 0, 0, 0x03 };
	static const uint8_t ext_le[] = { 0x50, 0x02, 0x05, 0x01, 0, 0, 0, '*' };
	static const uint8_t ext_be[] = { 0x50, 0x02, 0x05, 0, 0, 0, 0x01, '*' };
	static const uint8_t unreg_le[] = { 0x51, 0x03, 0x01, 0, 0, 0, 'E' };
	static const uint8_t unreg_be[] = { 0x51, 0x03, 0, 0, 0, 0x01, 'E' };
	static const uint8_t reset[] = { 0x52 };
	static const uint8_t start[] = { 0x56 };
	static const uint8_t mode_le[] = { 0x54, 0x01, 0x20, 0xA1, 0x07, 0x00 };
	static const uint8_t mode_be[] = { 0x54, 0x01, 0x00, 0x07, 0xA1, 0x20 };
	static const uint8_t ack_le[] = { 0x55, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	static const uint8_t ack_be[] = { 0x55, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
	struct wire_command *c = cmd_in;

	(void)state;
	*c = (struct wire_command){ .code = 0x40, .pattern = { "a.*", 3 } };
	pin_command("RegisterMethod", reg_le, reg_be, sizeof(reg_le), c, 0);
	*c = (struct wire_command){ .code = 0x43, .enable = true };
	pin_command("GcEvents", gc, gc, sizeof(gc), c, 0);
	*c = (struct wire_command){ .code = 0x46, .mask = 3 };
	pin_command("OptionalData", opt_le, opt_be, sizeof(opt_le), c, 0);
	*c = (struct wire_command){ .code = 0x50, .kind = 2, .events = 5, .pattern = { "*", 1 } };
	pin_command("Register", ext_le, ext_be, sizeof(ext_le), c, WIRE_CAP_EXT_CMDS);
	*c = (struct wire_command){ .code = 0x51, .kind = 3, .pattern = { "E", 1 } };
	pin_command("Unregister", unreg_le, unreg_be, sizeof(unreg_le), c, WIRE_CAP_EXT_CMDS);
	*c = (struct wire_command){ .code = 0x52 };
	pin_command("Reset", reset, reset, sizeof(reset), c, WIRE_CAP_EXT_CMDS);
	*c = (struct wire_command){ .code = 0x56 };
	pin_command("Start", start, start, sizeof(start), c, WIRE_CAP_EXT_CMDS);
	*c = (struct wire_command){ .code = 0x54, .mode = 1, .timeout_us = 500000 };
	pin_command("DispatchMode", mode_le, mode_be, sizeof(mode_le), c, WIRE_CAP_SYNC);
	*c = (struct wire_command){ .code = 0x55, .seq = 0x0102030405060708ull };
	pin_command("Ack", ack_le, ack_be, sizeof(ack_le), c, WIRE_CAP_SYNC);
}

static void test_pinned_bridge_hello(void **state)
{
	static const uint8_t le[] = {
		0x40, 0x12, 0, 0, 0, 0x00, 'S', 'T', 'P', 'J', 'l', 0x01, 0x00,
		0xD2, 0x04, 0, 0, 0x1F, 0, 0, 0, 'b', 'r',
	};
	static const uint8_t be[] = {
		0x40, 0, 0, 0, 0x12, 0x00, 'S', 'T', 'P', 'J', 'B', 0x00, 0x01,
		0, 0, 0x04, 0xD2, 0, 0, 0, 0x1F, 'b', 'r',
	};
	struct wire_peer peer;
	struct wire_buf b = { .data = enc, .cap = BUF_CAP };
	struct wire_command *c = cmd_in;

	(void)state;
	*c = (struct wire_command){ .code = WIRE_CMD_HELLO,
		.hello = { wire_host_order(), 1, 1234, 0x1F, { "br", 2 } } };
	assert_int_equal(wire_encode_command(&b, c), 0);
	assert_int_equal(b.len, sizeof(le));
	assert_memory_equal(enc, wire_host_is_big_endian() ? be : le, sizeof(le));
	check_ref_command(enc, b.len, c);
	/* before any Hello, either order is recognised */
	wire_peer_init(&peer);
	c->hello.order = WIRE_ORDER_LITTLE;
	decode_command_checked("bridge Hello le", &peer, le, sizeof(le), c);
	c->hello.order = WIRE_ORDER_BIG;
	decode_command_checked("bridge Hello be", &peer, be, sizeof(be), c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pinned_method_enter_int),
		cmocka_unit_test(test_pinned_every_value_type),
		cmocka_unit_test(test_pinned_method_exit_and_class_load),
		cmocka_unit_test(test_pinned_trailer_with_stack),
		cmocka_unit_test(test_pinned_trailer_with_detail),
		cmocka_unit_test(test_pinned_hello_event),
		cmocka_unit_test(test_pinned_commands),
		cmocka_unit_test(test_pinned_bridge_hello),
	};

	return cmocka_run_group_tests_name("wire_layout", tests, setup, teardown);
}

/* test_plainev.c: agent/plainev.c, a plain method event as a thread's
 * buffer holds it: read back exactly, and made into the message the general
 * path sends for it (exact bytes, host order little-endian). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "plainev.h"
#include "wire_bytes.h"

static struct wire_event ev;

/* EV for FORM of a.B.c()V on thread 12345, numbered 7 at 0x0102030405060708
 * ns, encoded for a peer that negotiated CAPS: exactly WANT (LEN bytes),
 * the trailer at TRAILER_AT. */
static void check(uint8_t form, bool void_value, uint32_t caps, const uint8_t *want, size_t len, size_t trailer_at)
{
	struct wire_peer peer;
	uint8_t out[128];
	struct wire_buf b = { .data = out, .cap = sizeof(out) };
	size_t at;

	if (WIRE_HOST_ORDER != WIRE_ORDER_LITTLE)
		skip();
	memset(&ev, 0xA5, sizeof(ev));  /* must not rely on zeroed memory */
	assert_int_equal(plainev_event(&ev, form, "a.B.c()V", 8, 12345, void_value), 0);
	ev.trailer.seq = 7;
	ev.trailer.timestamp_ns = 0x0102030405060708ull;
	wire_peer_init(&peer);
	peer.caps = caps;
	assert_int_equal(wire_encode_event_at(&b, &peer, &ev, &at), 0);
	assert_int_equal(b.len, len);
	assert_memory_equal(out, want, len);
	assert_int_equal(at, trailer_at);
}

#define NAME 0x08, 0x00, 0x00, 0x00, 'a', '.', 'B', '.', 'c', '(', ')', 'V'
#define THREAD 0x39, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
#define TRAILER 0x07, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, \
		0x39, 0x30, 0x00, 0x00, 0x00

static void enter_as_the_wire_has_it(void **state)
{
	static const uint8_t want[] = { 0x80, NAME, THREAD, 0x00, TRAILER };

	(void)state;
	check(PLAINEV_ENTER, false, WIRE_CAP_TRAILER, want, sizeof(want), 22);
}

static void exit_as_the_wire_has_it(void **state)
{
	static const uint8_t want[] = { 0x81, NAME, THREAD, 0x00, '?', TRAILER };

	(void)state;
	check(PLAINEV_EXIT, false, WIRE_CAP_TRAILER, want, sizeof(want), 23);
}

/* A void method's exit to a connection that wants return values: the void
 * value, as the general path captures it; an enter is not changed by it. */
static void void_value(void **state)
{
	static const uint8_t exit_want[] = { 0x81, NAME, THREAD, 0x00, 'V', TRAILER };
	static const uint8_t enter_want[] = { 0x80, NAME, THREAD, 0x00, TRAILER };

	(void)state;
	check(PLAINEV_EXIT, true, WIRE_CAP_TRAILER, exit_want, sizeof(exit_want), 23);
	check(PLAINEV_ENTER, true, WIRE_CAP_TRAILER, enter_want, sizeof(enter_want), 22);
}

static void returns_void(void **state)
{
	(void)state;
	assert_true(plainev_returns_void("a.B.c()V", 8, 5));
	assert_true(plainev_returns_void("a.B.c(IJ[Ljava/lang/String;)V", 29, 5));
	assert_false(plainev_returns_void("a.B.c()I", 8, 5));
	assert_false(plainev_returns_void("a.B.c()[V", 9, 5));
	assert_false(plainev_returns_void("a.B.c(V)I", 9, 5));
	assert_false(plainev_returns_void("a.B.c()", 7, 5));
	assert_false(plainev_returns_void("a.B.c()V", 8, 8));
	assert_false(plainev_returns_void("a.B.c()V", 8, 9));
}

/* An Appendix-only peer: the body alone, no trailer. */
static void without_trailer(void **state)
{
	static const uint8_t want[] = { 0x80, NAME, THREAD, 0x00 };

	(void)state;
	check(PLAINEV_ENTER, false, 0, want, sizeof(want), 0);
}

static void record_read_back(void **state)
{
	const struct plainev in = { .site = 4242, .tid = 99 };
	uint8_t buf[PLAINEV_BYTES + 1];
	struct plainev p;

	(void)state;
	memcpy(buf, &in, PLAINEV_BYTES);
	assert_int_equal(plainev_read(buf, PLAINEV_BYTES, &p), 0);
	assert_int_equal(p.site, 4242);
	assert_int_equal(p.tid, 99);
	assert_int_equal(plainev_read(buf, PLAINEV_BYTES - 1, &p), -EINVAL);
	assert_int_equal(plainev_read(buf, PLAINEV_BYTES + 1, &p), -EINVAL);
}

static void forms(void **state)
{
	(void)state;
	assert_int_equal(plainev_form_of(WIRE_EV_METHOD_ENTER), PLAINEV_ENTER);
	assert_int_equal(plainev_form_of(WIRE_EV_METHOD_EXIT), PLAINEV_EXIT);
	assert_int_equal(plainev_form_of(WIRE_EV_METHOD_COMPILE), 0);
	assert_int_equal(plainev_event(&ev, 0, "a", 1, 1, false), -EINVAL);
	assert_int_equal(plainev_event(&ev, PLAINEV_EXIT + 1, "a", 1, 1, false), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enter_as_the_wire_has_it),
		cmocka_unit_test(exit_as_the_wire_has_it),
		cmocka_unit_test(void_value),
		cmocka_unit_test(returns_void),
		cmocka_unit_test(without_trailer),
		cmocka_unit_test(record_read_back),
		cmocka_unit_test(forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

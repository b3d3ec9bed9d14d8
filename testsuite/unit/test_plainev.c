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
	/* a parameter's class named "Odd)" or "Odd)V": the first ')' is not the end of the parameters */
	assert_true(plainev_returns_void("a.B.c(LOdd);)V", 14, 5));
	assert_false(plainev_returns_void("a.B.c(LOdd)V;)I", 15, 5));
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

/* EV encoded for a peer with every capability: its bytes into OUT, the
 * length returned, its trailer's offset in *AT. */
static size_t encoded(const struct wire_event *e, uint8_t *out, size_t cap, size_t *at)
{
	struct wire_peer peer = { .hello = true, .caps = WIRE_CAP_ALL };
	struct wire_buf b = { .data = out, .cap = cap };

	assert_int_equal(wire_encode_event_at(&b, &peer, e, at), 0);
	return b.len;
}

/* A method event with values as the Java thread writes it (PLAINEV_BY_SITE:
 * its number the site), made by number and by name: exactly what the
 * encoder makes of the event by number and by name, the trailer moved by
 * the name. CODE_BY_NAME: the event's code by name. */
static void by_site_both_ways(unsigned code_by_name)
{
	static const char method[] = "shop.Cart.add(ILjava/lang/String;)J";
	const uint32_t name_len = sizeof(method) - 1;
	uint8_t rec[512], got[512], want[512];
	size_t rec_len, rec_at, want_len, want_at;
	int32_t site;

	memset(&ev, 0, sizeof(ev));
	ev.code = code_by_name == WIRE_EV_METHOD_ENTER ? WIRE_EV_METHOD_ENTER_ID_VALUES : WIRE_EV_METHOD_EXIT_ID_VALUE;
	ev.method_id = 4242;   /* the site */
	ev.thread = 12345;
	if (code_by_name == WIRE_EV_METHOD_ENTER) {
		ev.nvalues = 2;
		ev.values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = -7 };
		ev.values[1] = (struct wire_value){ .type = WIRE_T_STRING, .str = { "order-17", 8 } };
	} else {
		ev.popped = true;
		ev.retval = (struct wire_value){ .type = WIRE_T_OBJECT, .str = { "Ljava/io/IOException;", 21 },
						 .object_id = 9, .aux = 0xBEEF };
	}
	ev.has_trailer = true;
	ev.trailer = (struct wire_trailer){ .os_tid = 12345, .flags = WIRE_TF_STACK, .depth = 1 };
	ev.trailer.frames[0] = (struct wire_frame){ { method, name_len }, 12, { "Cart.java", 9 } };
	rec_len = encoded(&ev, rec, sizeof(rec), &rec_at);
	assert_int_equal(plainev_by_site_read(rec, rec_len, &site), 0);
	assert_int_equal(site, 4242);

	/* by number: only the number changes */
	ev.method_id = 9;
	want_len = encoded(&ev, want, sizeof(want), &want_at);
	assert_int_equal(plainev_by_site_make(got, rec, rec_len, 9, NULL, 0), (ssize_t)want_len);
	assert_memory_equal(got, want, want_len);
	assert_int_equal(want_at, rec_at);

	/* by name: the string where the number was, everything after it moved */
	ev.code = code_by_name;
	ev.name = (struct wire_str){ method, name_len };
	want_len = encoded(&ev, want, sizeof(want), &want_at);
	assert_int_equal(want_len, rec_len + name_len);
	assert_int_equal(plainev_by_site_make(got, rec, rec_len, 9, method, name_len), (ssize_t)want_len);
	assert_memory_equal(got, want, want_len);
	assert_int_equal(want_at, rec_at + name_len);
}

static void by_site_enter(void **state)
{
	(void)state;
	by_site_both_ways(WIRE_EV_METHOD_ENTER);
}

static void by_site_exit(void **state)
{
	(void)state;
	by_site_both_ways(WIRE_EV_METHOD_EXIT);
}

/* Anything but a message by number with a site is refused. */
static void by_site_refused(void **state)
{
	uint8_t msg[16] = { WIRE_EV_METHOD_ENTER_ID_VALUES, 1, 0, 0, 0 }, out[64];
	int32_t site;

	(void)state;
	assert_int_equal(plainev_by_site_read(msg, 4, &site), -EINVAL);
	assert_int_equal(plainev_by_site_read(msg, 5, &site), 0);
	assert_int_equal(site, 1);
	msg[4] = 0x80;   /* a negative site */
	assert_int_equal(plainev_by_site_read(msg, 5, &site), -EINVAL);
	msg[4] = 0;
	msg[0] = WIRE_EV_METHOD_ENTER_ID;
	assert_int_equal(plainev_by_site_read(msg, sizeof(msg), &site), -EINVAL);
	msg[0] = WIRE_EV_METHOD_ENTER;
	assert_int_equal(plainev_by_site_make(out, msg, sizeof(msg), 1, "a", 1), -EINVAL);
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
		cmocka_unit_test(by_site_enter),
		cmocka_unit_test(by_site_exit),
		cmocka_unit_test(by_site_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

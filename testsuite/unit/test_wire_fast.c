/* test_wire_fast.c: wire_decode_event()'s fast reading of method events by
 * number (runtime/wire_decode.c) against the general reading
 * (wire_decode_event_general): on every sample, in both byte orders, under
 * every mutation of one byte and every truncation, the two give the same
 * verdict, length, fields and error. The fast reading must take nothing the
 * general one refuses, and read what it takes the same. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_samples.h"

#define BUF_CAP (WIRE_MAX_MESSAGE + 64)

static uint8_t *msg, *tail;
static struct wire_event *ev_in, *fast, *general;
static unsigned long compared, decoded;

static int setup(void **state)
{
	(void)state;
	msg = malloc(BUF_CAP);
	tail = malloc(BUF_CAP);
	ev_in = calloc(1, sizeof(*ev_in));
	fast = calloc(1, sizeof(*fast));
	general = calloc(1, sizeof(*general));
	return msg && tail && ev_in && fast && general ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(msg);
	free(tail);
	free(ev_in);
	free(fast);
	free(general);
	return 0;
}

/* Both readings of BUF[0..LEN): the same in every respect. Read from a
 * copy that ends where its allocation does, so that ASan sees a read past
 * LEN (a truncation's last byte). */
static void same(const char *name, const struct wire_peer *peer, const uint8_t *msg_bytes, size_t len)
{
	uint8_t *buf = tail + BUF_CAP - len;
	struct wire_error e1, e2;
	size_t u1 = 0, u2 = 0;
	char why[160];

	memmove(buf, msg_bytes, len);
	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	int r1 = wire_decode_event(peer, buf, len, fast, &u1, &e1);
	int r2 = wire_decode_event_general(peer, buf, len, general, &u2, &e2);
	strcpy(why, "a value's field differs");
	if (r1 != r2 ||
	    (r1 == 0 && (u1 != u2 || !wire_event_equal(fast, general, why, sizeof(why)) ||
			 !wire_values_identical(fast, general))) ||
	    (r1 == -EBADMSG && (e1.offset != e2.offset || strcmp(e1.text, e2.text) != 0)))
		fail_msg("%s (%zu bytes): fast %d (%s), general %d (%s)%s%s", name, len, r1, e1.text, r2, e2.text,
			 r1 == 0 && r2 == 0 ? ": " : "", r1 == 0 && r2 == 0 ? why : "");
	compared++;
	decoded += r1 == 0;
}

/* Every truncation of the LEN bytes in MSG, and every byte set to each of
 * a few values that matter to the readings (the value types, the flag
 * bits, the codes, zero and all ones, the byte's neighbours). */
static void mutations(const char *name, const struct wire_peer *peer, size_t len)
{
	static const uint8_t values[] = {
		0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x80, 0xff, '?', 'V', 'N', 'Z', 'B', 'C', 'S', 'I', 'J',
		'F', 'D', 'T', 'L', '[', WIRE_EV_METHOD_ENTER_ID, WIRE_EV_METHOD_EXIT_ID,
		WIRE_EV_METHOD_ENTER_ID_VALUES, WIRE_EV_METHOD_EXIT_ID_VALUE, WIRE_EV_METHOD_ENTER,
		WIRE_EV_METHOD_EXIT,
	};

	for (size_t k = 0; k <= len; k++)
		same(name, peer, msg, k);
	/* a long message (255 values) in its first and last 96 bytes: the
	 * count, the first values, the last ones and the trailer */
	for (size_t at = 0; at < len; at = at == 95 && len > 192 ? len - 96 : at + 1) {
		const uint8_t orig = msg[at];
		for (size_t v = 0; v < sizeof(values) + 2; v++) {
			msg[at] = v < sizeof(values) ? values[v] : (uint8_t)(orig + (v == sizeof(values) ? 1 : -1));
			same(name, peer, msg, len);
		}
		msg[at] = orig;
	}
}

static void test_fast_equals_general(void **state)
{
	struct wire_peer peer;
	unsigned by_number = 0;

	(void)state;
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, ev_in, &peer);
		const bool numbered = ev_in->code >= WIRE_EV_METHOD_ENTER_ID && ev_in->code <= WIRE_EV_METHOD_EXIT_ID_VALUE;
		size_t len = wire_ref_encode_event(ev_in, &peer, wire_host_is_big_endian(), msg, BUF_CAP);

		by_number += numbered;
		if (numbered) {
			mutations(name, &peer, len);
			/* without the trailer, and without the extension */
			struct wire_peer other = peer;
			other.caps &= ~(uint32_t)WIRE_CAP_TRAILER;
			mutations(name, &other, wire_ref_encode_event(ev_in, &other, wire_host_is_big_endian(), msg, BUF_CAP));
			other = peer;
			other.caps &= ~(uint32_t)WIRE_CAP_METHOD_IDS;
			mutations(name, &other, len);
			/* an agent of methods by number, not with values */
			other = peer;
			other.caps &= ~(uint32_t)WIRE_CAP_METHOD_ID_VALUES;
			mutations(name, &other, len);
		} else {
			same(name, &peer, msg, len);
		}
		if (ev_in->code == WIRE_EV_HELLO)
			continue;
		peer.swap = true;
		peer.hello = true;
		len = wire_ref_encode_event(ev_in, &peer, !wire_host_is_big_endian(), msg, BUF_CAP);
		if (numbered)
			mutations(name, &peer, len);
		else
			same(name, &peer, msg, len);
	}
	assert_true(by_number >= 8);   /* the samples have every event by number, with values of each kind */
	print_message("%lu decodings compared, %lu of them decoded\n", compared, decoded);
}

/* The fast reading's own fields, by hand: an exit by number, void, with a
 * trailer, in our order. */
static void test_exit_by_number_fields(void **state)
{
	struct wire_peer peer = { .caps = WIRE_CAP_ALL, .hello = true };
	uint8_t b[64];
	size_t n = 0, used = 0;
	uint32_t id = 77, tid = 4242;
	uint64_t thread = 0x1122334455667788ull, seq = 9, ts = 123456789;
	struct wire_error err;

	(void)state;
	b[n++] = WIRE_EV_METHOD_EXIT_ID;
	memcpy(b + n, &id, 4), n += 4;
	memcpy(b + n, &thread, 8), n += 8;
	b[n++] = 'V';
	memcpy(b + n, &seq, 8), n += 8;
	memcpy(b + n, &ts, 8), n += 8;
	memcpy(b + n, &tid, 4), n += 4;
	b[n++] = 0;
	assert_int_equal(wire_decode_event(&peer, b, n, fast, &used, &err), 0);
	assert_int_equal(used, n);
	assert_int_equal(fast->code, WIRE_EV_METHOD_EXIT_ID);
	assert_int_equal(fast->method_id, 77);
	assert_int_equal(fast->thread, thread);
	assert_int_equal(fast->retval.type, WIRE_T_VOID);
	assert_false(fast->popped);
	assert_true(fast->has_trailer);
	assert_int_equal(fast->trailer.seq, 9);
	assert_int_equal(fast->trailer.timestamp_ns, 123456789);
	assert_int_equal(fast->trailer.os_tid, 4242);
	assert_int_equal(fast->trailer.flags, 0);
	b[13] = 'I';   /* any other value type: refused, by the general reading's words */
	assert_int_equal(wire_decode_event(&peer, b, n, fast, &used, &err), -EBADMSG);
	assert_int_equal(err.offset, 13);
	assert_non_null(strstr(err.text, "carries '?' or 'V'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_equals_general),
		cmocka_unit_test(test_exit_by_number_fields),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* Unit tests for the record channel (stpd-bridge/recchan.c) and a worker's
 * forwarder (recfwd.c): records decode to what was put, faults are named
 * with their offset, a full channel drops and counts (never waits) and the
 * count arrives ahead of the next batch, a gone recorder ends forwarding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "recchan.h"
#include "recfwd.h"

static struct wire_event ev, got; /* large: static */
static uint8_t buf[1 << 16];

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

static void monitor_event(void)
{
	memset(&ev, 0, offsetof(struct wire_event, values));
	ev.code = WIRE_EV_MONITOR_ENTER;
	ev.thread = 77;
	ev.object = 5;
	ev.retval.type = WIRE_T_NONE;
	ev.has_trailer = true;
	ev.trailer = (struct wire_trailer){ .seq = 9, .timestamp_ns = 123, .os_tid = 77,
					    .flags = WIRE_TF_STACK | WIRE_TF_MONITOR | WIRE_TF_SYNC, .depth = 1 };
	ev.trailer.frames[0] = (struct wire_frame){ S("A.b()V"), 3, S("A.java") };
	ev.trailer.monitor_class = S("LA;");
	ev.trailer.owner_tid = 78;
	ev.trailer.owner_name = S("holder");
}

static void test_event_and_dropped_records(void **state)
{
	(void)state;
	struct print_meta meta = { .pid = 4242, .tid = 1077, .ts_ns = 555, .thread_name = "wörker",
				   .thread_name_len = strlen("wörker"), .owner_tid = 1078,
				   .java_tid = 0x0102030405060708ull };
	struct recchan_record r;
	size_t len = 0, used;
	char why[200] = "";

	monitor_event();
	assert_int_equal(recchan_put_event(buf, sizeof buf, &len, &meta, &ev), 0);
	/* an Appendix-only agent's event has no trailer */
	ev.code = WIRE_EV_THREAD_END;
	ev.has_trailer = false;
	assert_int_equal(recchan_put_event(buf, sizeof buf, &len, &(struct print_meta){ .pid = 1 }, &ev), 0);
	assert_int_equal(recchan_put_dropped(buf, sizeof buf, &len, 4242, 600, 31), 0);

	size_t at = 0;
	assert_int_equal(recchan_decode(buf, len, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_EVENT);
	assert_int_equal(r.meta.pid, 4242);
	assert_int_equal(r.meta.tid, 1077);
	assert_int_equal(r.meta.ts_ns, 555);
	assert_int_equal(r.meta.owner_tid, 1078);
	assert_int_equal(r.meta.java_tid, 0x0102030405060708ull);
	assert_int_equal(r.meta.thread_name_len, strlen("wörker"));
	assert_memory_equal(r.meta.thread_name, "wörker", r.meta.thread_name_len);
	assert_int_equal(got.code, WIRE_EV_MONITOR_ENTER);
	assert_int_equal(got.object, 5);
	assert_true(got.has_trailer);
	assert_int_equal(got.trailer.flags, WIRE_TF_STACK | WIRE_TF_MONITOR | WIRE_TF_SYNC);
	assert_int_equal(got.trailer.depth, 1);
	assert_memory_equal(got.trailer.frames[0].source.ptr, "A.java", 6);
	assert_int_equal(got.trailer.owner_tid, 78);
	at += used;
	assert_int_equal(recchan_decode(buf + at, len - at, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_EVENT);
	assert_null(r.meta.thread_name);
	assert_int_equal(r.meta.java_tid, 0);
	assert_int_equal(got.code, WIRE_EV_THREAD_END);
	assert_false(got.has_trailer);
	at += used;
	assert_int_equal(recchan_decode(buf + at, len - at, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_DROPPED);
	assert_int_equal(r.meta.pid, 4242);
	assert_int_equal(r.meta.ts_ns, 600);
	assert_int_equal(r.count, 31);
	assert_int_equal(at + used, len);
	/* no room: nothing appended */
	len = 0;
	assert_int_equal(recchan_put_dropped(buf, 24, &len, 1, 2, 3), -ENOSPC);
	assert_int_equal(len, 0);
}

static void assert_fault(const uint8_t *p, size_t n, const char *want)
{
	struct recchan_record r;
	size_t used;
	char why[200] = "";

	assert_int_equal(recchan_decode(p, n, &r, &got, &used, why, sizeof why), -EBADMSG);
	assert_string_equal(why, want);
}

static void test_faults(void **state)
{
	(void)state;
	struct print_meta meta = { .pid = 1, .tid = 2 };
	size_t len = 0;

	assert_fault(buf, 3, "record channel: record at offset 0: 3 bytes, too short");
	memcpy(buf, (uint32_t[]){ 9 }, 4);
	buf[4] = RECCHAN_DROPPED;
	assert_fault(buf, 8, "record channel: record length at offset 0: 9 does not fit");
	assert_fault(buf, 13, "record channel: dropped record at offset 5: 8 bytes, not 20");
	buf[4] = 7;
	assert_fault(buf, 13, "record channel: record kind at offset 4: 7 is unknown");

	monitor_event();
	assert_int_equal(recchan_put_event(buf, sizeof buf, &len, &meta, &ev), 0);
	buf[45] = 2; /* the trailer flag, after the fields and an empty name */
	assert_fault(buf, len, "record channel: trailer flag at offset 45: 2 is not 0 or 1");
	buf[45] = 0; /* the event has a trailer the flag denies */
	assert_fault(buf, len, "record channel: event at offset 46: 68 bytes follow it in its record");
	buf[45] = 1;
	buf[46] = 0x77; /* no event's code */
	assert_fault(buf, len, "record channel: event at offset 46: unknown event code 0x77 at offset 0");
	memcpy(buf + 41, (uint32_t[]){ 70000 }, 4);
	assert_fault(buf, len, "record channel: thread name length at offset 41: 70000 is too long");
}

/* A channel whose reader does not read: the forwarder never waits, drops
 * whole batches and counts them; once the reader drains, the count comes
 * first, then the next batch. */
static void test_full_channel_drops_and_counts(void **state)
{
	(void)state;
	int sv[2], size = 4096;
	struct recfwd f;
	struct print_meta meta = { .pid = 9, .tid = 1 };
	uint64_t sent = 0;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size), 0);
	assert_int_equal(recfwd_init(&f, sv[1], 9), 0);
	monitor_event();
	/* until a flush fails: every flush is one batch of 3 events */
	while (f.dropped == 0) {
		for (int i = 0; i < 3; i++)
			recfwd_event(&f, &meta, &ev);
		recfwd_flush(&f);
		sent += 3;
		assert_true(sent < 100000);
	}
	assert_int_equal(f.dropped, 3);
	recfwd_event(&f, &meta, &ev);
	recfwd_flush(&f); /* still full */
	assert_int_equal(f.dropped, 4);
	/* drain what got through */
	uint64_t delivered = 0;
	for (;;) {
		ssize_t n = recv(sv[0], buf, sizeof buf, MSG_DONTWAIT);
		if (n <= 0)
			break;
		delivered += 3;
	}
	assert_int_equal(delivered, sent - 3);
	recfwd_event(&f, &meta, &ev);
	recfwd_flush(&f);
	assert_int_equal(f.dropped, 0);

	struct recchan_record r;
	size_t used;
	char why[200];
	ssize_t n = recv(sv[0], buf, sizeof buf, MSG_DONTWAIT);
	assert_true(n > 0);
	assert_int_equal(recchan_decode(buf, (size_t)n, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_DROPPED);
	assert_int_equal(r.count, 4);
	assert_int_equal(r.meta.pid, 9);
	assert_int_equal(used, (size_t)n);
	n = recv(sv[0], buf, sizeof buf, MSG_DONTWAIT);
	assert_true(n > 0);
	assert_int_equal(recchan_decode(buf, (size_t)n, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_EVENT);
	assert_int_equal(used, (size_t)n);

	/* the recorder gone: no more sends, nothing counted */
	close(sv[0]);
	recfwd_event(&f, &meta, &ev);
	recfwd_flush(&f);
	assert_false(recfwd_on(&f));
	recfwd_event(&f, &meta, &ev);
	assert_int_equal(f.len, 0);
	recfwd_finish(&f);
	close(sv[1]);
}

/* The last batch waits for room at the end (bounded), and goes. */
static void test_finish_sends_the_rest(void **state)
{
	(void)state;
	int sv[2];
	struct recfwd f;
	struct print_meta meta = { .pid = 9, .tid = 1 };

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_int_equal(recfwd_init(&f, sv[1], 9), 0);
	monitor_event();
	recfwd_event(&f, &meta, &ev);
	f.dropped = 2;
	recfwd_finish(&f);
	assert_int_equal(recv(sv[0], buf, sizeof buf, MSG_DONTWAIT) > 0, 1);  /* the count */
	ssize_t n = recv(sv[0], buf, sizeof buf, MSG_DONTWAIT);              /* the event */
	struct recchan_record r;
	size_t used;
	char why[200];
	assert_int_equal(recchan_decode(buf, (size_t)n, &r, &got, &used, why, sizeof why), 0);
	assert_int_equal(r.kind, RECCHAN_EVENT);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_and_dropped_records),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_full_channel_drops_and_counts),
		cmocka_unit_test(test_finish_sends_the_rest),
	};
	return cmocka_run_group_tests_name("recchan", tests, NULL, NULL);
}

/* test_wire_stream.c: long streams of mixed messages, split at random
 * points, through wire_reader_push/fill, decode and consume: the same
 * messages come out, in order, whatever the split. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wire.h"
#include "wire_samples.h"

#define NMSG 4000
#define BIG_EVERY 97                  /* every so many messages, a ~60 KiB one */
#define STREAM_CAP (16u << 20)

static uint8_t *stream;
static size_t stream_len;
static struct wire_event *ev_want, *ev_got;
static struct wire_command *cmd_want, *cmd_got;
static char big[60000];
static const uint32_t our_caps = WIRE_CAP_ALL;

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* splitmix64: fixed seeds give the same splits on every machine */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------ the streams */
/* Event i of the stream. Message 0 is the agent's Hello offering every cap;
 * after it every event carries a trailer whose seq is i. */
static void stream_event(size_t i, struct wire_event *ev)
{
	struct wire_peer ignored;
	uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;

	if (i == 0) {
		memset(ev, 0, sizeof(*ev));
		ev->code = WIRE_EV_HELLO;
		wire_hello_init(&ev->hello, WIRE_CAP_ALL, "stream test agent");
		return;
	}
	wire_sample_event((size_t)(h >> 33) % wire_sample_event_count(), ev, &ignored);
	if (ev->code == WIRE_EV_HELLO) { /* a second Hello would renegotiate */
		memset(ev, 0, sizeof(*ev));
		ev->code = WIRE_EV_GC_FINISH;
	}
	if (i % BIG_EVERY == 0) {
		memset(ev, 0, sizeof(*ev));
		ev->code = WIRE_EV_METHOD_ENTER;
		ev->name = (struct wire_str){ big, (uint32_t)(i % 1000) };
		ev->nvalues = 1;
		ev->values[0] = (struct wire_value){ .type = WIRE_T_STRING,
						     .str = { big, (uint32_t)(sizeof(big) - i % 777) } };
	}
	ev->has_trailer = true;
	ev->trailer.seq = i;
}

static void stream_command(size_t i, struct wire_command *cmd)
{
	struct wire_peer ignored;
	uint64_t h = (i + 7) * 0x9E3779B97F4A7C15ull;

	if (i == 0) {
		memset(cmd, 0, sizeof(*cmd));
		cmd->code = WIRE_CMD_HELLO;
		wire_hello_init(&cmd->hello, WIRE_CAP_ALL, "stream test bridge");
		return;
	}
	wire_sample_command((size_t)(h >> 33) % wire_sample_command_count(), cmd, &ignored);
	if (cmd->code == WIRE_CMD_HELLO) { /* a second Hello would renegotiate */
		memset(cmd, 0, sizeof(*cmd));
		cmd->code = WIRE_CMD_RESET;
	}
	if (i % BIG_EVERY == 0) {
		memset(cmd, 0, sizeof(*cmd));
		cmd->code = WIRE_CMD_REGISTER_CLASS;
		cmd->pattern = (struct wire_str){ big, (uint32_t)(sizeof(big) - i % 1000) };
	}
}

static void build_stream(bool commands)
{
	struct wire_buf b = { .data = stream, .cap = STREAM_CAP, .len = 0 };
	struct wire_peer peer;

	wire_peer_init(&peer);
	for (size_t i = 0; i < NMSG; i++) {
		int rc;

		if (commands) {
			stream_command(i, cmd_want);
			rc = wire_encode_command(&b, cmd_want);
		} else {
			stream_event(i, ev_want);
			rc = wire_encode_event(&b, &peer, ev_want);
			if (i == 0)
				peer.caps = WIRE_CAP_ALL; /* what the receiver will negotiate */
		}
		if (rc != 0)
			fail_msg("encoding message %zu of the stream: %d", i, rc);
	}
	stream_len = b.len;
	assert_true(stream_len > 2 * WIRE_MAX_MESSAGE); /* the reader must reuse its space */
}

/* ------------------------------------------------------------ the receiving side */
struct receiver {
	struct wire_reader r;
	struct wire_peer peer;
	bool commands;
	size_t next;      /* index of the next expected message */
};

static void receiver_init(struct receiver *rx, bool commands)
{
	memset(rx, 0, sizeof(*rx));
	assert_int_equal(wire_reader_init(&rx->r, WIRE_MAX_MESSAGE), 0);
	wire_peer_init(&rx->peer);
	rx->commands = commands;
}

/* Decode everything complete in the reader. */
static void receiver_drain(struct receiver *rx)
{
	for (;;) {
		struct wire_error err;
		char why[160];
		size_t len, used = 0;
		const uint8_t *data = wire_reader_data(&rx->r, &len);
		int rc;

		if (rx->commands)
			rc = wire_decode_command(&rx->peer, data, len, cmd_got, &used, &err);
		else
			rc = wire_decode_event(&rx->peer, data, len, ev_got, &used, &err);
		if (rc == -EAGAIN)
			return;
		if (rc != 0)
			fail_msg("message %zu: decode returned %d: %s", rx->next, rc, err.text);
		if (rx->next >= NMSG)
			fail_msg("message %zu decoded past the end of the stream", rx->next);
		assert_true(used > 0 && used <= len);
		if (rx->commands) {
			stream_command(rx->next, cmd_want);
			if (!wire_command_equal(cmd_want, cmd_got, why, sizeof(why)))
				fail_msg("command %zu: %s", rx->next, why);
			if (cmd_got->code == WIRE_CMD_HELLO)
				assert_int_equal(wire_peer_accept_hello(&rx->peer, &cmd_got->hello, our_caps), 0);
		} else {
			stream_event(rx->next, ev_want);
			if (!wire_event_equal(ev_want, ev_got, why, sizeof(why)))
				fail_msg("event %zu: %s", rx->next, why);
			if (ev_got->code == WIRE_EV_HELLO)
				assert_int_equal(wire_peer_accept_hello(&rx->peer, &ev_got->hello, our_caps), 0);
		}
		wire_reader_consume(&rx->r, used);
		rx->next++;
	}
}

static void receiver_finish(struct receiver *rx)
{
	size_t left;

	wire_reader_data(&rx->r, &left);
	assert_int_equal(rx->next, NMSG);
	assert_int_equal(left, 0);
	assert_int_equal(rx->peer.caps, WIRE_CAP_ALL);
	wire_reader_free(&rx->r);
}

/* Split points: mostly small, some single bytes, some large. */
static size_t next_chunk(size_t left)
{
	uint64_t r = rng();
	size_t n;

	switch (r % 8) {
	case 0: n = 1; break;
	case 1: n = 1 + (r >> 8) % 8; break;
	case 2: n = 1 + (r >> 8) % (256 * 1024); break;
	default: n = 1 + (r >> 8) % 4096; break;
	}
	return n < left ? n : left;
}

static void run_push(bool commands, uint64_t seed)
{
	struct receiver rx;
	size_t pos = 0;

	rng_state = seed;
	receiver_init(&rx, commands);
	while (pos < stream_len) {
		size_t n = next_chunk(stream_len - pos);

		if (wire_reader_push(&rx.r, stream + pos, n) != 0)
			fail_msg("seed %llu: push of %zu bytes at %zu failed",
				 (unsigned long long)seed, n, pos);
		pos += n;
		receiver_drain(&rx);
	}
	receiver_finish(&rx);
}

static void test_event_stream_push(void **state)
{
	static const uint64_t seeds[] = { 1, 2, 3, 42, 20261122 };

	(void)state;
	build_stream(false);
	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++)
		run_push(false, seeds[s]);
}

static void test_command_stream_push(void **state)
{
	static const uint64_t seeds[] = { 5, 6, 7, 99 };

	(void)state;
	build_stream(true);
	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++)
		run_push(true, seeds[s]);
}

/* One message at a time and one byte at a time over the start. */
static void test_stream_byte_by_byte(void **state)
{
	struct receiver rx;

	(void)state;
	build_stream(false);
	receiver_init(&rx, false);
	for (size_t pos = 0; pos < stream_len; pos++) {
		assert_int_equal(wire_reader_push(&rx.r, stream + pos, 1), 0);
		receiver_drain(&rx);
	}
	receiver_finish(&rx);
}

/* ------------------------------------------------------------ from a file descriptor */
static void write_all_random(int fd, uint64_t seed)
{
	size_t pos = 0;

	rng_state = seed;
	while (pos < stream_len) {
		size_t n = next_chunk(stream_len - pos);
		ssize_t w = write(fd, stream + pos, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		pos += (size_t)w;
	}
	close(fd);
	_exit(0);
}

static void run_fill(bool commands, bool use_pipe, uint64_t seed)
{
	struct receiver rx;
	int fds[2], status;
	long n;
	pid_t pid;

	if (use_pipe)
		assert_int_equal(pipe(fds), 0);
	else
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		write_all_random(fds[1], seed);
	}
	close(fds[1]);
	receiver_init(&rx, commands);
	while ((n = wire_reader_fill(&rx.r, fds[0])) > 0)
		receiver_drain(&rx);
	assert_int_equal(n, 0); /* EOF, not an error */
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	receiver_finish(&rx);
}

static void test_stream_fill(void **state)
{
	(void)state;
	build_stream(false);
	run_fill(false, false, 11);
	run_fill(false, true, 12);
	build_stream(true);
	run_fill(true, false, 13);
	run_fill(true, true, 14);
}

/* ------------------------------------------------------------ the reader itself */
static void test_reader_edges(void **state)
{
	static uint8_t chunk[4096];
	struct wire_reader r;
	const uint8_t *data;
	size_t len, held;
	int fds[2];

	(void)state;
	assert_int_equal(wire_reader_init(&r, WIRE_MAX_MESSAGE - 1), -EINVAL);
	assert_int_equal(wire_reader_init(&r, WIRE_MAX_MESSAGE), 0);
	data = wire_reader_data(&r, &len);
	assert_int_equal(len, 0);
	(void)data;

	/* fill: -EAGAIN on an empty non-blocking socket, 0 at EOF */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
	assert_int_equal(wire_reader_fill(&r, fds[0]), -EAGAIN);
	memset(chunk, 0x5A, sizeof(chunk));
	assert_int_equal(write(fds[1], chunk, 100), 100);
	assert_int_equal(wire_reader_fill(&r, fds[0]), 100);
	data = wire_reader_data(&r, &len);
	assert_int_equal(len, 100);
	assert_int_equal(data[99], 0x5A);
	close(fds[1]);
	assert_int_equal(wire_reader_fill(&r, fds[0]), 0);
	close(fds[0]);
	assert_int_equal(wire_reader_fill(&r, -1), -EBADF);

	/* push: -ENOSPC when it cannot fit, nothing changed */
	wire_reader_consume(&r, 40);
	data = wire_reader_data(&r, &len);
	assert_int_equal(len, 60);
	for (size_t pos = 0; pos + sizeof(chunk) <= WIRE_MAX_MESSAGE - 60; pos += sizeof(chunk))
		assert_int_equal(wire_reader_push(&r, chunk, sizeof(chunk)), 0);
	wire_reader_data(&r, &len);
	held = len;
	assert_int_equal(wire_reader_push(&r, chunk, WIRE_MAX_MESSAGE - held + 1), -ENOSPC);
	data = wire_reader_data(&r, &len);
	assert_int_equal(len, held);
	assert_int_equal(data[0], 0x5A);
	assert_int_equal(data[len - 1], 0x5A);
	assert_int_equal(wire_reader_push(&r, chunk, WIRE_MAX_MESSAGE - len), 0);
	wire_reader_data(&r, &len);
	assert_int_equal(len, WIRE_MAX_MESSAGE);
	/* full of bytes no message completes: fill refuses instead of reading */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], chunk, 1), 1);
	assert_true(wire_reader_fill(&r, fds[0]) < 0);
	close(fds[0]);
	close(fds[1]);
	/* consuming frees space for push again */
	wire_reader_consume(&r, 1000);
	assert_int_equal(wire_reader_push(&r, chunk, 1000), 0);
	wire_reader_consume(&r, WIRE_MAX_MESSAGE * 2); /* more than held: everything */
	wire_reader_data(&r, &len);
	assert_int_equal(len, 0);
	wire_reader_free(&r);
}

/* A defect in the middle of a stream is reported where it is. */
static void test_stream_stops_at_garbage(void **state)
{
	struct wire_reader r;
	struct wire_peer peer;
	struct wire_error err;
	const uint8_t *data;
	size_t len, used, count = 0;
	uint8_t junk[2] = { 0x7F, 0x00 };
	int rc;

	(void)state;
	build_stream(false);
	wire_peer_init(&peer);
	assert_int_equal(wire_reader_init(&r, WIRE_MAX_MESSAGE), 0);
	/* the stream's Hello, then an unknown code */
	assert_int_equal(wire_decode_event(&peer, stream, stream_len, ev_got, &used, &err), 0);
	assert_int_equal(wire_reader_push(&r, stream, used), 0);
	assert_int_equal(wire_reader_push(&r, junk, sizeof(junk)), 0);
	for (;;) {
		data = wire_reader_data(&r, &len);
		rc = wire_decode_event(&peer, data, len, ev_got, &used, &err);
		if (rc != 0)
			break;
		count++;
		wire_reader_consume(&r, used);
	}
	assert_int_equal(count, 1);
	assert_int_equal(rc, -EBADMSG);
	assert_int_equal(err.offset, 0);
	assert_non_null(strstr(err.text, "0x7f"));
	wire_reader_free(&r);
}

static int setup(void **state)
{
	(void)state;
	memset(big, 'q', sizeof(big));
	stream = malloc(STREAM_CAP);
	ev_want = calloc(1, sizeof(*ev_want));
	ev_got = calloc(1, sizeof(*ev_got));
	cmd_want = calloc(1, sizeof(*cmd_want));
	cmd_got = calloc(1, sizeof(*cmd_got));
	signal(SIGPIPE, SIG_IGN);
	return stream && ev_want && ev_got && cmd_want && cmd_got ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(stream);
	free(ev_want);
	free(ev_got);
	free(cmd_want);
	free(cmd_got);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_stream_push),
		cmocka_unit_test(test_command_stream_push),
		cmocka_unit_test(test_stream_byte_by_byte),
		cmocka_unit_test(test_stream_fill),
		cmocka_unit_test(test_reader_edges),
		cmocka_unit_test(test_stream_stops_at_garbage),
	};

	return cmocka_run_group_tests_name("wire_stream", tests, setup, teardown);
}

/* make_corpus.c: writes the fuzz seed corpus into a directory: every sample
 * message of wire_samples in our byte order and in the other one, each
 * behind the three selector bytes fuzz_wire_decode.c reads (caps, swap, hello),
 * and a few whole conversations that start with a Hello.
 *
 * usage: make_corpus DIR */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_samples.h"

#define SEL_SWAP   0x20u
#define SEL_HELLO  0x40u
#define SEL_FOLLOW 0x80u
#define SELECTOR_BYTES 3
#define OUT_CAP    (1u << 20)

static struct wire_event ev;
static struct wire_command cmd;
static uint8_t out[OUT_CAP];

static int write_file(const char *dir, const char *name, const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "make_corpus: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The three selector bytes: caps bits 0-4, swap, hello, follow; caps bits
 * 5-12; caps bits 13-20. */
static void selector(const struct wire_peer *peer, uint8_t sel[SELECTOR_BYTES])
{
	sel[0] = (uint8_t)((peer->caps & 0x1Fu) | (peer->swap ? SEL_SWAP : 0) |
			   (peer->hello ? SEL_HELLO : 0));
	sel[1] = (uint8_t)((peer->caps & WIRE_CAP_ALL) >> 5);
	sel[2] = (uint8_t)((peer->caps & WIRE_CAP_ALL) >> 13);
}

/* One sample, both byte orders: "NAME" and "NAME.swapped". */
static int write_sample(const char *dir, const char *name, struct wire_peer *peer, bool command)
{
	char file[160];
	size_t n;

	for (int swapped = 0; swapped < 2; swapped++) {
		bool be = wire_host_is_big_endian() != (swapped != 0);

		if (swapped) {
			peer->swap = true;
			peer->hello = true;
			if (command && cmd.code == WIRE_CMD_HELLO)
				cmd.hello.order = wire_foreign_order();
			if (!command && ev.code == WIRE_EV_HELLO)
				ev.hello.order = wire_foreign_order();
		}
		selector(peer, out);
		n = command ? wire_ref_encode_command(&cmd, be, out + SELECTOR_BYTES, OUT_CAP - SELECTOR_BYTES)
			    : wire_ref_encode_event(&ev, peer, be, out + SELECTOR_BYTES, OUT_CAP - SELECTOR_BYTES);
		snprintf(file, sizeof(file), "%s%s", name, swapped ? ".swapped" : "");
		if (n == 0 || write_file(dir, file, out, n + SELECTOR_BYTES) != 0)
			return -1;
	}
	return 0;
}

/* A conversation: the peer's Hello, then every sample under every cap, as
 * a receiver that starts knowing nothing and follows the Hello. */
static int write_conversation(const char *dir, bool command)
{
	struct wire_peer all = { .swap = false, .hello = true, .caps = WIRE_CAP_ALL }, ignored;
	struct wire_buf b = { .data = out + SELECTOR_BYTES, .cap = OUT_CAP - SELECTOR_BYTES, .len = 0 };
	size_t count = command ? wire_sample_command_count() : wire_sample_event_count();

	wire_peer_init(&ignored);
	out[0] = SEL_FOLLOW;
	out[1] = 0;
	out[2] = 0;
	if (command) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.code = WIRE_CMD_HELLO;
		wire_hello_init(&cmd.hello, WIRE_CAP_ALL, "corpus bridge");
		cmd.hello.pid = 4242; /* the same corpus from every run */
		if (wire_encode_command(&b, &cmd) != 0)
			return -1;
	} else {
		memset(&ev, 0, sizeof(ev));
		ev.code = WIRE_EV_HELLO;
		wire_hello_init(&ev.hello, WIRE_CAP_ALL, "corpus agent");
		ev.hello.pid = 31337;
		if (wire_encode_event(&b, &ignored, &ev) != 0)
			return -1;
	}
	for (size_t i = 0; i < count; i++) {
		if (command) {
			wire_sample_command(i, &cmd, &ignored);
			if (cmd.code == WIRE_CMD_HELLO)
				continue;
			if (wire_encode_command(&b, &cmd) != 0)
				return -1;
		} else {
			wire_sample_event(i, &ev, &ignored);
			if (ev.code == WIRE_EV_HELLO || !ev.has_trailer)
				continue;
			if (wire_encode_event(&b, &all, &ev) != 0)
				return -1;
		}
	}
	return write_file(dir, command ? "conversation-commands" : "conversation-events",
			  out, b.len + SELECTOR_BYTES);
}

int main(int argc, char **argv)
{
	struct wire_peer peer;
	const char *dir = argc == 2 ? argv[1] : NULL;

	if (!dir) {
		fprintf(stderr, "usage: make_corpus DIR\n");
		return 2;
	}
	for (size_t i = 0; i < wire_sample_event_count(); i++) {
		const char *name = wire_sample_event(i, &ev, &peer);

		if (write_sample(dir, name, &peer, false) != 0)
			return 1;
	}
	for (size_t i = 0; i < wire_sample_command_count(); i++) {
		const char *name = wire_sample_command(i, &cmd, &peer);

		if (write_sample(dir, name, &peer, true) != 0)
			return 1;
	}
	if (write_conversation(dir, false) != 0 || write_conversation(dir, true) != 0) {
		fprintf(stderr, "make_corpus: a sample does not encode\n");
		return 1;
	}
	return 0;
}

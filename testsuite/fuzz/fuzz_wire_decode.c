/* fuzz_wire_decode.c: libFuzzer target for the wire decoders.
 *
 * Input: three selector bytes, then a byte stream. The selector is the
 * receiving side's view of its peer: bits 0-4 of the first byte the
 * negotiated caps' bits 0-4, bit 5 swap, bit 6 "a Hello was received", bit 7
 * "accept Hellos met in the stream" (renegotiating as a real receiver does);
 * the second byte the caps' bits 5-12, the third their bits 13-20. The
 * stream is decoded
 * message by message as events, then again as commands.
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - decoded: used is within the input, every shorter prefix is -EAGAIN,
 *    the message re-encodes (in our order, same caps) and decodes back to
 *    the same fields; without swap the re-encoding is the input's bytes;
 *  - -EBADMSG: the error names a field at an offset inside the bytes, and
 *    the bytes before that offset are a valid prefix (-EAGAIN);
 *  - an event decodes as wire_decode_event_general() decodes it (the same
 *    result, length, fields or error): the fast reading of events by
 *    number takes nothing the general one would not, and reads it the same;
 *  - a decoded Hello is one wire_peer_accept_hello() takes;
 *  - and ASan/UBSan: no read past a prefix (each is an exact-size copy).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENC_CAP (WIRE_MAX_MESSAGE + 64)

static struct wire_event ev, ev2;
static struct wire_command cmd, cmd2;
static uint8_t enc[ENC_CAP];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_wire_decode: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static int decode(bool command, const struct wire_peer *peer, const uint8_t *buf, size_t len,
		  bool second, size_t *used, struct wire_error *err)
{
	memset(err, 0, sizeof(*err));
	if (command)
		return wire_decode_command(peer, buf, len, second ? &cmd2 : &cmd, used, err);
	return wire_decode_event(peer, buf, len, second ? &ev2 : &ev, used, err);
}

/* Decode an exact-size heap copy of buf[0..k), into the scratch structs. */
static int decode_prefix(bool command, const struct wire_peer *peer, const uint8_t *buf, size_t k,
			 struct wire_error *err)
{
	uint8_t *copy = malloc(k ? k : 1);
	size_t used;
	int rc;

	if (!copy)
		abort();
	memcpy(copy, buf, k);
	rc = decode(command, peer, copy, k, true, &used, err);
	free(copy);
	return rc;
}

static void check_prefixes(bool command, const struct wire_peer *peer, const uint8_t *buf, size_t used)
{
	struct wire_error err;
	size_t step = used <= 512 ? 1 : used / 61;

	for (size_t k = 0; k < used; k += step)
		if (decode_prefix(command, peer, buf, k, &err) != -EAGAIN)
			die("a prefix of a decoded message is not -EAGAIN", err.text);
	if (decode_prefix(command, peer, buf, used - 1, &err) != -EAGAIN)
		die("the message minus its last byte is not -EAGAIN", err.text);
}

static void check_error(bool command, const struct wire_peer *peer, const uint8_t *buf, size_t len,
			const struct wire_error *err)
{
	struct wire_error again;
	int rc;

	if (!memchr(err->text, 0, sizeof(err->text)) || !err->text[0])
		die("-EBADMSG without a terminated error text", NULL);
	if (!err->field || !err->field[0])
		die("-EBADMSG without a field", err->text);
	if (err->offset >= len)
		die("-EBADMSG at an offset past the bytes given", err->text);
	/* everything before the bad field was fine */
	if (decode_prefix(command, peer, buf, err->offset, &again) != -EAGAIN)
		die("the bytes before a malformed field are not a valid prefix", err->text);
	/* one byte less: still incomplete, or the same verdict */
	rc = decode_prefix(command, peer, buf, len - 1, &again);
	if (rc == -EBADMSG && (again.offset != err->offset || strcmp(again.field, err->field) != 0))
		die("a shorter input is malformed somewhere else", again.text);
	if (rc != -EBADMSG && rc != -EAGAIN)
		die("a shorter input decodes although the longer one is malformed", err->text);
}

/* The event just decoded into ev (RC, USED, ERR), decoded again without
 * the fast path: the same in every respect. */
static void check_general(const struct wire_peer *peer, const uint8_t *buf, size_t len, int rc, size_t used,
			  const struct wire_error *err)
{
	struct wire_error err2;
	size_t used2 = 0;
	char why[160];
	int rc2;

	memset(&err2, 0, sizeof(err2));
	rc2 = wire_decode_event_general(peer, buf, len, &ev2, &used2, &err2);
	if (rc2 != rc)
		die("the fast decoding and the general one disagree on the verdict", err2.text);
	if (rc == 0 && (used2 != used || !wire_event_equal(&ev, &ev2, why, sizeof(why))))
		die("the fast decoding and the general one read different fields", why);
	if (rc == 0 && !wire_values_identical(&ev, &ev2))
		die("the fast decoding and the general one leave a value's fields different", "");
	if (rc == -EBADMSG && (err2.offset != err->offset || strcmp(err2.text, err->text) != 0))
		die("the fast decoding and the general one give different errors", err2.text);
}

/* Re-encode the decoded message and decode it back. */
static void check_roundtrip(bool command, const struct wire_peer *peer, const uint8_t *buf, size_t used)
{
	/* A Hello (either form) is written whole in the order it declares, so its
	 * re-encoding is read in that order and gives back the very input bytes;
	 * every other message comes back in our order. */
	const struct wire_hello *hello = command && cmd.code == WIRE_CMD_HELLO ? &cmd.hello
				       : !command && ev.code == WIRE_EV_HELLO ? &ev.hello : NULL;
	struct wire_peer ours = {
		.swap = command && hello && hello->order != wire_host_order(),
		.hello = peer->hello, .caps = peer->caps,
	};
	struct wire_buf b = { .data = enc, .cap = ENC_CAP, .len = 0 };
	struct wire_error err;
	size_t used2 = 0;
	char why[160];
	bool same_bytes = !peer->swap || hello;
	int rc;

	rc = command ? wire_encode_command(&b, &cmd) : wire_encode_event(&b, &ours, &ev);
	if (rc != 0)
		die("a decoded message does not encode", command ? "command" : "event");
	rc = decode(command, &ours, enc, b.len, true, &used2, &err);
	if (rc != 0)
		die("a re-encoded message does not decode", err.text);
	if (used2 != b.len)
		die("a re-encoded message decodes with another length", NULL);
	if (command ? !wire_command_equal(&cmd, &cmd2, why, sizeof(why))
		    : !wire_event_equal(&ev, &ev2, why, sizeof(why)))
		die("decode(encode(m)) != m", why);
	if (same_bytes && (b.len != used || memcmp(enc, buf, used) != 0))
		die("re-encoding in the same byte order changed the bytes", NULL);
}

static void run_stream(bool command, struct wire_peer peer, bool follow, const uint8_t *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		struct wire_error err;
		size_t used = 0;
		int rc = decode(command, &peer, buf + pos, len - pos, false, &used, &err);
		const struct wire_hello *hello = NULL;

		if (!command)
			check_general(&peer, buf + pos, len - pos, rc, used, &err);
		if (rc == -EAGAIN)
			return;
		if (rc == -EBADMSG) {
			check_error(command, &peer, buf + pos, len - pos, &err);
			return;
		}
		if (rc != 0)
			die("decode returned something else than 0, -EAGAIN, -EBADMSG", NULL);
		if (used == 0 || used > len - pos)
			die("decode used a length outside the input", NULL);
		check_prefixes(command, &peer, buf + pos, used);
		check_roundtrip(command, &peer, buf + pos, used);
		if (command && cmd.code == WIRE_CMD_HELLO)
			hello = &cmd.hello;
		if (!command && ev.code == WIRE_EV_HELLO)
			hello = &ev.hello;
		if (hello && follow && wire_peer_accept_hello(&peer, hello, WIRE_CAP_ALL) != 0)
			die("a decoded Hello is refused by wire_peer_accept_hello", NULL);
		pos += used;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_peer peer;

	if (size < 3)
		return 0;
	peer.caps = ((data[0] & 0x1Fu) | (uint32_t)data[1] << 5 | (uint32_t)data[2] << 13) & WIRE_CAP_ALL;
	peer.swap = (data[0] & 0x20) != 0;
	peer.hello = (data[0] & 0x40) != 0;
	run_stream(false, peer, data[0] & 0x80, data + 3, size - 3);
	run_stream(true, peer, data[0] & 0x80, data + 3, size - 3);
	return 0;
}

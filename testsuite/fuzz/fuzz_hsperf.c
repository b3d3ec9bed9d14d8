/* fuzz_hsperf.c: libFuzzer target for hsperf_each and hsperf_string
 * (stpd-bridge/hsperf.c), which read a HotSpot performance-data file that
 * the JVM's user may have written anything into.
 *
 * Input: any bytes, taken as the file. Oracles:
 *  - every entry visited lies inside the input: its name ends with a NUL
 *    before the input does, its data is within it (and is read, for ASan);
 *  - an independent walk (byte by byte, written apart) finds the same
 *    entries, at the same offsets, and agrees on whether the input is
 *    accepted;
 *  - hsperf_string finds sun.rt.jvmCapabilities exactly when that walk
 *    has it as a string, with the same bytes.
 * Any failure aborts (libFuzzer reports a crash); and ASan/UBSan.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsperf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENTRIES 4096

static void die(const char *what)
{
	fprintf(stderr, "fuzz_hsperf: %s\n", what);
	abort();
}

struct found {
	const uint8_t *buf;
	size_t len, n;
	size_t name_at[MAX_ENTRIES], data_at[MAX_ENTRIES], data_len[MAX_ENTRIES];
	unsigned sum;
};

static int visit(void *ctx, const struct hsperf_entry *e)
{
	struct found *f = ctx;
	const uint8_t *name = (const uint8_t *)e->name;

	if (name < f->buf || name >= f->buf + f->len || e->data < f->buf ||
	    e->data_len > (size_t)(f->buf + f->len - e->data))
		die("an entry outside the input");
	if (!memchr(name, '\0', (size_t)(f->buf + f->len - name)))
		die("a name without its NUL in the input");
	for (size_t i = 0; i < e->data_len; i++)
		f->sum += e->data[i];
	if (f->n < MAX_ENTRIES) {
		f->name_at[f->n] = (size_t)(name - f->buf);
		f->data_at[f->n] = (size_t)(e->data - f->buf);
		f->data_len[f->n] = e->data_len;
	}
	f->n++;
	return 0;
}

static uint64_t field(const uint8_t *p, bool little)
{
	uint64_t v = 0;
	for (int i = 0; i < 4; i++)
		v = v << 8 | p[little ? 3 - i : i];
	return v;
}

/* The walk written apart: 64-bit arithmetic, no early bound on the count. */
static int walk_apart(const uint8_t *b, size_t len, struct found *f)
{
	if (len < 32 || b[0] != 0xca || b[1] != 0xfe || b[2] != 0xc0 || b[3] != 0xc0 || b[4] > 1)
		return -EINVAL;
	bool little = b[4];
	if (b[7] != 1)
		return -EAGAIN;
	uint64_t end = field(b + 8, little), at = field(b + 24, little), n = field(b + 28, little);
	if (end > len)
		end = len;
	if (at < 32 || at > end)
		return -EINVAL;
	for (uint64_t i = 0; i < n; i++) {
		if (at + 20 > end)
			return -EINVAL;
		uint64_t elen = field(b + at, little), name = field(b + at + 4, little);
		uint64_t vlen = field(b + at + 8, little), data = field(b + at + 16, little);
		uint64_t dlen = vlen ? vlen : b[at + 12] == 'J' ? 8 : 4;
		if (elen < 20 || at + elen > end || name < 20 || name >= elen)
			return -EINVAL;
		bool nul = false;
		for (uint64_t k = at + name; k < at + elen && !nul; k++)
			nul = b[k] == 0;
		if (!nul || data < 20 || data + dlen > elen)
			return -EINVAL;
		if (f->n < MAX_ENTRIES) {
			f->name_at[f->n] = (size_t)(at + name);
			f->data_at[f->n] = (size_t)(at + data);
			f->data_len[f->n] = (size_t)dlen;
		}
		f->n++;
		at += elen;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct found got, want;
	const char *why = NULL;
	char caps[128];

	memset(&got, 0, sizeof got);
	memset(&want, 0, sizeof want);
	got.buf = data;
	got.len = size;
	int rc = hsperf_each(data, size, visit, &got, &why);
	int rc2 = walk_apart(data, size, &want);
	if (rc != rc2)
		die("the walk written apart disagrees on the input");
	if (rc < 0 && (!why || !*why))
		die("refused without a reason");
	if (rc == 0) {
		if (got.n != want.n)
			die("the walk written apart finds another number of entries");
		for (size_t i = 0; i < got.n && i < MAX_ENTRIES; i++)
			if (got.name_at[i] != want.name_at[i] || got.data_at[i] != want.data_at[i] ||
			    got.data_len[i] != want.data_len[i])
				die("the walk written apart finds an entry elsewhere");
		/* the first entry of that name, if a string, is what hsperf_string gives */
		int s = hsperf_string(data, size, "sun.rt.jvmCapabilities", caps, sizeof caps, &why);
		size_t k = 0;
		while (k < got.n && k < MAX_ENTRIES &&
		       strcmp((const char *)data + got.name_at[k], "sun.rt.jvmCapabilities") != 0)
			k++;
		if (k == got.n && s != -ENOENT)
			die("hsperf_string found a name the walk did not");
		if (k < got.n && k < MAX_ENTRIES && s == 0 &&
		    strncmp(caps, (const char *)data + got.data_at[k], got.data_len[k]) != 0)
			die("hsperf_string's bytes are not the entry's");
	}
	return 0;
}

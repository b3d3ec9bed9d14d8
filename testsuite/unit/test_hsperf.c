/* Unit tests of stpd-bridge/hsperf.c: a HotSpot performance-data file read in
 * both byte orders, every truncation and fault refused with a reason, and the
 * attach check's search of a /tmp (symlinks not followed). The reading is
 * checked against the JDK's own (jcmd) in agent.bats. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "hsperf.h"

struct img {
	uint8_t b[2048];
	size_t len;
	bool little;
	uint32_t n;
};

static void put4(struct img *im, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		im->b[at + (size_t)i] = (uint8_t)(v >> (im->little ? 8 * i : 24 - 8 * i));
}

static void begin(struct img *im, bool little)
{
	memset(im, 0, sizeof *im);
	im->little = little;
	im->b[0] = 0xca, im->b[1] = 0xfe, im->b[2] = 0xc0, im->b[3] = 0xc0;
	im->b[4] = little;
	im->b[5] = 2;
	im->b[7] = 1;                  /* accessible */
	put4(im, 24, 32);
	im->len = 32;
}

/* An entry: header, NAME, then DATA_LEN bytes of DATA at a 4-byte boundary. */
static size_t add(struct img *im, const char *name, char type, uint8_t variability,
		  uint32_t vlen, const void *data, size_t data_len)
{
	size_t at = im->len, nl = strlen(name) + 1;
	size_t data_off = (20 + nl + 3) & ~(size_t)3;
	size_t elen = (data_off + data_len + 3) & ~(size_t)3;

	assert_true(at + elen <= sizeof im->b);
	put4(im, at, (uint32_t)elen);
	put4(im, at + 4, 20);
	put4(im, at + 8, vlen);
	im->b[at + 12] = (uint8_t)type;
	im->b[at + 15] = variability;
	put4(im, at + 16, (uint32_t)data_off);
	memcpy(im->b + at + 20, name, nl);
	memcpy(im->b + at + data_off, data, data_len);
	im->len += elen;
	im->n++;
	put4(im, 8, (uint32_t)im->len);
	put4(im, 28, im->n);
	return at;
}

static size_t add_string(struct img *im, const char *name, const char *value, uint32_t vlen)
{
	char v[256] = { 0 };
	assert_true(vlen <= sizeof v && strlen(value) <= vlen);
	memcpy(v, value, strlen(value));
	return add(im, name, 'B', 1, vlen, v, vlen);
}

static size_t add_long(struct img *im, const char *name, int64_t value)
{
	uint8_t v[8];
	for (int i = 0; i < 8; i++)
		v[i] = (uint8_t)((uint64_t)value >> (im->little ? 8 * i : 56 - 8 * i));
	return add(im, name, 'J', 1, 0, v, 8);
}

static void good(struct img *im, bool little)
{
	begin(im, little);
	add_long(im, "sun.rt.createVmBeginTime", 1795863417030);
	add_string(im, "java.property.java.version", "17.0.15", 8);
	add_long(im, "sun.os.hrt.ticks", -5);
	add_string(im, "sun.rt.jvmCapabilities",
		   "0100000000000000000000000000000000000000000000000000000000000000", 65);
}

struct seen {
	int n;
	char names[8][64];
	int64_t longs[8];
	int stop_at;
};

static int record(void *ctx, const struct hsperf_entry *e)
{
	struct seen *s = ctx;

	snprintf(s->names[s->n], sizeof s->names[0], "%s", e->name);
	s->longs[s->n] = e->type == 'J' ? hsperf_long(e) : 0;
	s->n++;
	return s->n == s->stop_at ? 7 : 0;
}

/* Both byte orders: every entry, in order, with its value. */
static void test_read(void **state)
{
	(void)state;
	for (int little = 0; little <= 1; little++) {
		struct img im;
		struct seen s = { 0 };
		const char *why = NULL;
		char out[80];
		good(&im, little);
		assert_int_equal(hsperf_each(im.b, im.len, record, &s, &why), 0);
		assert_int_equal(s.n, 4);
		assert_string_equal(s.names[0], "sun.rt.createVmBeginTime");
		assert_int_equal(s.longs[0], 1795863417030);
		assert_string_equal(s.names[1], "java.property.java.version");
		assert_int_equal(s.longs[2], -5);
		assert_int_equal(hsperf_string(im.b, im.len, "java.property.java.version", out, sizeof out,
					       &why), 0);
		assert_string_equal(out, "17.0.15");
		assert_int_equal(hsperf_string(im.b, im.len, "sun.rt.jvmCapabilities", out, sizeof out,
					       &why), 0);
		assert_int_equal(strlen(out), 64);
		assert_int_equal(out[0], '0');
		/* a long is not a string (and bytes past `used`, the file's unused
		 * rest, are not read as entries) */
		assert_int_equal(hsperf_string(im.b, im.len + 100, "sun.os.hrt.ticks", out, sizeof out,
					       &why), -EINVAL);
		assert_string_equal(why, "the entry is not a string");
		assert_int_equal(hsperf_string(im.b, im.len, "sun.rt.other", out, sizeof out, &why),
				 -ENOENT);
		assert_int_equal(hsperf_string(im.b, im.len, "java.property.java.version", out, 7, &why),
				 -ENOSPC);
	}
}

/* The visitor's non-zero answer stops the walk and is returned. */
static void test_visitor_stops(void **state)
{
	(void)state;
	struct img im;
	struct seen s = { .stop_at = 2 };
	const char *why = NULL;

	good(&im, true);
	assert_int_equal(hsperf_each(im.b, im.len, record, &s, &why), 7);
	assert_int_equal(s.n, 2);
}

static void expect_bad(const uint8_t *b, size_t len, int err, const char *why_part)
{
	struct seen s = { 0 };
	const char *why = NULL;

	assert_int_equal(hsperf_each(b, len, record, &s, &why), err);
	assert_non_null(why);
	if (!strstr(why, why_part))
		print_error("reason '%s' does not name '%s'\n", why, why_part);
	assert_non_null(strstr(why, why_part));
}

/* Every prefix of a good file is refused; so is each fault, with its reason. */
static void test_malformed(void **state)
{
	(void)state;
	struct img im, bad;

	good(&im, true);
	for (size_t len = 0; len < im.len; len++)
		expect_bad(im.b, len, -EINVAL, len < 32 ? "prologue" : "");
	expect_bad(im.b, 40, -EINVAL, "entry");

	bad = im;
	bad.b[1] = 0xff;
	expect_bad(bad.b, bad.len, -EINVAL, "magic");
	bad = im;
	bad.b[4] = 2;
	expect_bad(bad.b, bad.len, -EINVAL, "byte order");
	bad = im;
	bad.b[7] = 0;
	expect_bad(bad.b, bad.len, -EAGAIN, "not accessible");
	bad = im;
	put4(&bad, 24, 16);
	expect_bad(bad.b, bad.len, -EINVAL, "first entry");
	bad = im;
	put4(&bad, 28, 0x7fffffff);            /* more entries than there is room for */
	expect_bad(bad.b, bad.len, -EINVAL, "cut short");

	begin(&bad, true);
	size_t at = add_string(&bad, "a.b", "xy", 4);
	struct img e = bad;
	put4(&e, at, 12);                      /* shorter than a header */
	expect_bad(e.b, e.len, -EINVAL, "length");
	e = bad;
	put4(&e, at, 4096);                    /* past the data */
	expect_bad(e.b, e.len, -EINVAL, "length");
	e = bad;
	put4(&e, at + 4, 4);                   /* name inside the header */
	expect_bad(e.b, e.len, -EINVAL, "name");
	e = bad;
	put4(&e, at + 4, 500);                 /* name past the entry */
	expect_bad(e.b, e.len, -EINVAL, "name");
	e = bad;
	memset(e.b + at + 20, 'n', e.len - at - 20);  /* name never ends */
	expect_bad(e.b, e.len, -EINVAL, "name");
	e = bad;
	put4(&e, at + 8, 200);                 /* vector past the entry */
	expect_bad(e.b, e.len, -EINVAL, "data");
	e = bad;
	put4(&e, at + 16, 2);                  /* data inside the header */
	expect_bad(e.b, e.len, -EINVAL, "data");
}

/* ------------------------------------------------------------ the /tmp search */

struct tmp {
	char dir[64];
	int fd;
};

static void tmp_make(struct tmp *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/test_hsperf.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	t->fd = open(t->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(t->fd >= 0);
}

static void tmp_file(const struct tmp *t, const char *rel, const void *b, size_t len)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", t->dir, rel);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	fclose(f);
}

static void tmp_free(struct tmp *t)
{
	char cmd[128];
	close(t->fd);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
}

static void test_attach_disabled(void **state)
{
	(void)state;
	struct tmp t;
	struct img im;
	char path[300] = "", p[256], q[256];

	tmp_make(&t);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -ENOENT);
	snprintf(p, sizeof p, "%s/hsperfdata_someone", t.dir);
	assert_int_equal(mkdir(p, 0755), 0);
	/* a file without the capabilities: it does not say */
	begin(&im, true);
	add_long(&im, "sun.rt.createVmBeginTime", 1);
	tmp_file(&t, "hsperfdata_someone/4242", im.b, im.len);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -ENOENT);
	/* another uid's: not read */
	good(&im, true);
	tmp_file(&t, "hsperfdata_someone/4242", im.b, im.len);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid() + 1, 4242, path, sizeof path), -ENOENT);
	/* the JVM's, not accessible yet: ask again */
	good(&im, true);
	im.b[7] = 0;
	tmp_file(&t, "hsperfdata_someone/4242", im.b, im.len);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -EAGAIN);
	im.b[7] = 1;
	tmp_file(&t, "hsperfdata_someone/4242", im.b, im.len);
	/* the JVM's: attach off */
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), 1);
	assert_string_equal(path, "/tmp/hsperfdata_someone/4242");
	/* on */
	uint8_t *caps = memmem(im.b, im.len, "0100000000", 10);
	assert_non_null(caps);
	caps[0] = '1';
	tmp_file(&t, "hsperfdata_someone/4242", im.b, im.len);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), 0);
	/* through a symlink, file or directory: not followed */
	snprintf(p, sizeof p, "%s/hsperfdata_someone/4242", t.dir);
	snprintf(q, sizeof q, "%s/real", t.dir);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -ENOENT);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof p, "%s/realdir", t.dir);
	assert_int_equal(mkdir(p, 0755), 0);
	good(&im, true);
	tmp_file(&t, "realdir/4242", im.b, im.len);
	snprintf(q, sizeof q, "%s/hsperfdata_link", t.dir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -ENOENT);
	/* a FIFO by that name does not hold it */
	snprintf(p, sizeof p, "%s/hsperfdata_someone/4242", t.dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(hsperf_attach_disabled(t.fd, getuid(), 4242, path, sizeof path), -ENOENT);
	tmp_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_visitor_stops),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_attach_disabled),
	};
	return cmocka_run_group_tests_name("hsperf", tests, NULL, NULL);
}

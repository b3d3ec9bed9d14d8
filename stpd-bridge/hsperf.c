/* hsperf.c: see hsperf.h. */
#define _GNU_SOURCE
#include "hsperf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire_bytes.h"

enum {
	PROLOGUE_SIZE = 32,
	ENTRY_HEADER_SIZE = 20,
	CAPABILITY_ATTACH = 0,      /* sun.rt.jvmCapabilities[0]: attach supported */
};

/* the file's byte order against ours: wire_bytes.h's loads swap or not */
static bool swapped(bool little)
{
	return little != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
}

static uint32_t get_u4(const uint8_t *p, bool little)
{
	return wire_load_u32(p, swapped(little));
}

int64_t hsperf_long(const struct hsperf_entry *e)
{
	return e->data_len < 8 ? 0 : (int64_t)wire_load_u64(e->data, swapped(e->little_endian));
}

static int malformed(const char **why, const char *what)
{
	*why = what;
	return -EINVAL;
}

int hsperf_each(const uint8_t *buf, size_t len, hsperf_visit_fn fn, void *ctx, const char **why)
{
	static const uint8_t magic[4] = { 0xca, 0xfe, 0xc0, 0xc0 };

	if (len < PROLOGUE_SIZE)
		return malformed(why, "shorter than its prologue");
	if (memcmp(buf, magic, 4) != 0)
		return malformed(why, "not a HotSpot performance-data file (its magic)");
	if (buf[4] > 1)
		return malformed(why, "an unknown byte order");
	bool little = buf[4] == 1;
	if (buf[7] != 1) {
		*why = "not accessible yet";
		return -EAGAIN;
	}
	uint32_t used = get_u4(buf + 8, little), off = get_u4(buf + 24, little);
	uint32_t n = get_u4(buf + 28, little);
	/* what the JVM has written so far, within what was read */
	size_t end = used < len ? used : len;
	if (off < PROLOGUE_SIZE || off > end)
		return malformed(why, "its first entry outside the data");
	for (uint32_t i = 0; i < n; i++) {
		if (end - off < ENTRY_HEADER_SIZE)
			return malformed(why, "an entry cut short");
		const uint8_t *e = buf + off;
		uint32_t elen = get_u4(e, little), name_off = get_u4(e + 4, little);
		uint32_t vlen = get_u4(e + 8, little), data_off = get_u4(e + 16, little);
		if (elen < ENTRY_HEADER_SIZE || elen > end - off)
			return malformed(why, "an entry's length outside the data");
		if (name_off < ENTRY_HEADER_SIZE || name_off >= elen ||
		    !memchr(e + name_off, '\0', elen - name_off))
			return malformed(why, "an entry's name outside it or not terminated");
		struct hsperf_entry ent = {
			.name = (const char *)(e + name_off), .type = (char)e[12], .variability = e[15],
			.vector_length = vlen, .little_endian = little,
		};
		ent.data_len = vlen ? vlen : ent.type == 'J' ? 8 : 4;
		if (data_off < ENTRY_HEADER_SIZE || data_off > elen || ent.data_len > elen - data_off)
			return malformed(why, "an entry's data outside it");
		ent.data = e + data_off;
		int rc = fn(ctx, &ent);
		if (rc)
			return rc;
		off += elen;
	}
	return 0;
}

struct want_string {
	const char *name;
	char *out;
	size_t cap;
	int rc;
};

static int take_string(void *ctx, const struct hsperf_entry *e)
{
	struct want_string *w = ctx;

	if (strcmp(e->name, w->name) != 0)
		return 0;
	if (e->type != 'B' || !e->vector_length) {
		w->rc = -EINVAL;
		return 1;
	}
	const uint8_t *nul = memchr(e->data, '\0', e->data_len);
	size_t n = nul ? (size_t)(nul - e->data) : e->data_len;
	if (n >= w->cap) {
		w->rc = -ENOSPC;
		return 1;
	}
	memcpy(w->out, e->data, n);
	w->out[n] = '\0';
	w->rc = 0;
	return 1;
}

int hsperf_string(const uint8_t *buf, size_t len, const char *name, char *out, size_t cap,
		  const char **why)
{
	struct want_string w = { name, out, cap, -ENOENT };
	int rc = hsperf_each(buf, len, take_string, &w, why);

	if (rc < 0)
		return rc;
	if (w.rc == -EINVAL)
		*why = "the entry is not a string";
	return w.rc;
}

/* The file NAME in DIRFD, if it is a regular file of UID: its bytes, malloc()ed. */
static int read_own_file(int dirfd, const char *name, uid_t uid, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* O_NONBLOCK: a FIFO put there must not hold the worker */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != uid) {
		close(fd);
		return -EPERM;
	}
	size_t cap = st.st_size < HSPERF_MAX_SIZE ? (size_t)st.st_size : HSPERF_MAX_SIZE;
	uint8_t *b = malloc(cap ? cap : 1);
	ssize_t got = 0;
	size_t n = 0;
	while (b && n < cap && (got = pread(fd, b + n, cap - n, (off_t)n)) > 0)
		n += (size_t)got;
	close(fd);
	if (!b || got < 0) {
		free(b);
		return b ? -EIO : -ENOMEM;
	}
	*buf = b;
	*len = n;
	return 0;
}

int hsperf_attach_disabled(int tmpfd, uid_t uid, pid_t nspid, char *path, size_t pathcap)
{
	char file[32], caps[80];
	int rc = -ENOENT, dfd = openat(tmpfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		int err = -errno;
		if (dfd >= 0)
			close(dfd);
		return err;
	}
	snprintf(file, sizeof file, "%d", (int)nspid);
	while (rc < 0 && rc != -EAGAIN && (de = readdir(d))) {
		struct stat st;
		if (strncmp(de->d_name, "hsperfdata_", 11) != 0)
			continue;
		int sub = openat(dirfd(d), de->d_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		uint8_t *buf = NULL;
		size_t len = 0;
		const char *why = NULL;
		int got = -ENOENT;
		if (fstat(sub, &st) == 0 && st.st_uid == uid &&
		    read_own_file(sub, file, uid, &buf, &len) == 0)
			got = hsperf_string(buf, len, "sun.rt.jvmCapabilities", caps, sizeof caps, &why);
		if (got == 0 && caps[CAPABILITY_ATTACH] != '\0') {
			rc = caps[CAPABILITY_ATTACH] == '0';
			snprintf(path, pathcap, "/tmp/%s/%s", de->d_name, file);
		} else if (got == -EAGAIN) {
			rc = -EAGAIN;   /* the JVM's, not ready: the caller may ask again */
		}
		free(buf);
		close(sub);
	}
	closedir(d);
	return rc;
}

/* record.c: see record.h. The formats' table is record_formats.c. */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"

extern const struct record_format *const record_formats[];

static int out_fail(struct record_out *o, int rc)
{
	if (!o->error)
		o->error = rc;
	return rc;
}

int record_out_flush(struct record_out *o)
{
	if (o->error)
		return o->error;
	int rc = o->len ? fd_write_all(o->fd, o->buf, o->len) : 0;

	if (rc < 0)
		return out_fail(o, rc);
	o->len = 0;
	return 0;
}

int record_out_write(struct record_out *o, const void *p, size_t n)
{
	if (o->error)
		return o->error;
	/* what fits is written: the cap cuts between two writes, never inside one */
	if (o->max && o->offset + n > o->max) {
		record_out_flush(o);
		return out_fail(o, -EFBIG);
	}
	if (!o->buf) {
		o->cap = RECORD_OUT_CHUNK;
		if (!(o->buf = malloc(o->cap)))
			return out_fail(o, -ENOMEM);
	}
	while (n) {
		size_t take = o->cap - o->len < n ? o->cap - o->len : n;
		memcpy(o->buf + o->len, p, take);
		o->len += take;
		o->offset += take;
		p = (const uint8_t *)p + take;
		n -= take;
		if (o->len == o->cap && record_out_flush(o) < 0)
			return o->error;
	}
	return 0;
}

int record_out_patch(struct record_out *o, uint64_t off, const void *p, size_t n)
{
	uint64_t buffered_from = o->offset - o->len;

	if (o->error)
		return o->error;
	if (off + n > o->offset)
		return out_fail(o, -EINVAL);
	if (off >= buffered_from) {
		memcpy(o->buf + (off - buffered_from), p, n);
		return 0;
	}
	/* written already (a part may still be buffered: flush it first) */
	if (record_out_flush(o) < 0)
		return o->error;
	for (size_t done = 0; done < n;) {
		ssize_t w = pwrite(o->fd, (const uint8_t *)p + done, n - done, (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return out_fail(o, w < 0 ? -errno : -EIO);
		done += (size_t)w;
	}
	return 0;
}

void record_out_release(struct record_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = o->cap = 0;
}

const struct record_format *record_format_by_name(const char *name)
{
	for (size_t i = 0; record_formats[i]; i++)
		if (strcmp(record_formats[i]->name, name) == 0)
			return record_formats[i];
	return NULL;
}

const struct record_format *record_format_for_path(const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; record_formats[i]; i++) {
		size_t e = strlen(record_formats[i]->extension);
		if (n > e && strcmp(path + n - e, record_formats[i]->extension) == 0)
			return record_formats[i];
	}
	return NULL;
}

const char *record_format_names(void)
{
	static char names[128];

	if (!names[0])
		for (size_t i = 0; record_formats[i]; i++) {
			size_t at = strlen(names);
			snprintf(names + at, sizeof(names) - at, "%s%s", i ? ", " : "", record_formats[i]->name);
		}
	return names;
}

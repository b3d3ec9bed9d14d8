/* jfrrepo.c: see jfrrepo.h. */
#define _GNU_SOURCE
#include "jfrrepo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "conn.h"
#include "io.h"
#include "log.h"

#define JFR_PIECE 65535u            /* bytes of one JfrData (one wire string) */
#define JFR_ROUND_BYTES (4u << 20)  /* read for one connection in one round, at most */
#define JFR_HEADER 68u
#define JFR_RMDIR_TRIES 50          /* rounds to wait for JFR to delete its last chunks */

/* the JFR thread's */
static uint8_t piece[JFR_PIECE];
static struct wire_event data_ev;

/* Chunk file names sort by time: "2026_11_26_07_14_13.jfr" before
 * "2026_11_26_07_14_13_01.jfr" ('.' < '_'). The first one after AFTER
 * ("": the last one) in DIR into OUT; false if none. */
static bool next_chunk(const char *dir, const char *after, char *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n < 5 || n >= cap || strcmp(de->d_name + n - 4, ".jfr") != 0)
			continue;
		if (after[0] ? (strcmp(de->d_name, after) > 0 && (!found || strcmp(de->d_name, out) < 0))
			     : (!found || strcmp(de->d_name, out) > 0)) {
			memcpy(out, de->d_name, n + 1);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static int open_chunk(const struct jfrrepo *r, struct jfrrepo_stream *st, const char *name)
{
	char path[sizeof r->dir + 300];

	snprintf(path, sizeof path, "%s/%s", r->dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (st->fd >= 0)
		close(st->fd);
	st->fd = fd;
	snprintf(st->file, sizeof st->file, "%s", name);
	st->offset = 0;
	return 0;
}

int jfrrepo_open_newest(const struct jfrrepo *r, struct jfrrepo_stream *st)
{
	char first[256];

	if (!r->dir[0] || !next_chunk(r->dir, "", first, sizeof first))
		return -ENOENT;
	return open_chunk(r, st, first);
}

/* How far the chunk ST reads is written for sure: its header's size, which
 * JFR sets at each flush, once the data before it is in the file (bytes past
 * it may be a write under way: JDK 25 was seen with zeros there). The header
 * is read as JFR's own reader does: the state byte at 64 before and after
 * (255 while JFR rewrites the header), the same both times. 0 with the
 * header being rewritten. *COMPLETE: state 0, the chunk is finished. */
static uint64_t chunk_written(const struct jfrrepo_stream *st, bool *complete)
{
	uint8_t h[JFR_HEADER], again;
	uint64_t size = 0;

	*complete = false;
	if (pread(st->fd, h, sizeof h, 0) != (ssize_t)sizeof h || h[64] == 255 ||
	    pread(st->fd, &again, 1, 64) != 1 || again != h[64])
		return 0;
	for (int i = 8; i < 16; i++)
		size = size << 8 | h[i];   /* big-endian, as every JFR header field */
	*complete = h[64] == 0;
	return size;
}

bool jfrrepo_unsent(const struct jfrrepo_stream *st)
{
	bool complete;

	return st->fd >= 0 && chunk_written(st, &complete) > st->offset;
}

/* Queue one JfrData of FLAGS and the N BYTES to C while it is the
 * connection opened as GEN, still open, and negotiated CAPS: 0, -EPIPE (not
 * that connection), -EOPNOTSUPP (not negotiated), or conn_queue_locked's. */
static int queue_data(struct conn *c, uint64_t gen, uint32_t caps, uint8_t flags, const uint8_t *bytes, size_t n)
{
	int rc = -EPIPE;

	memset(&data_ev, 0, offsetof(struct wire_event, values));
	data_ev.code = WIRE_EV_JFR_DATA;
	data_ev.jfr_flags = flags;
	data_ev.name.ptr = (const char *)bytes;
	data_ev.name.len = (uint32_t)n;
	data_ev.has_trailer = true;
	data_ev.trailer.timestamp_ns = agent_now_ns();
	pthread_mutex_lock(&c->lock);
	if (c->active && c->opened_gen == gen && !c->ended)
		rc = (c->peer.caps & caps) == caps ? conn_queue_locked(c, &data_ev) : -EOPNOTSUPP;
	pthread_mutex_unlock(&c->lock);
	return rc;
}

size_t jfrrepo_send(const struct jfrrepo *r, struct jfrrepo_stream *st, unsigned idx, uint64_t gen)
{
	struct conn *c = &conns[idx];
	size_t total = 0;

	while (st->fd >= 0 && total < JFR_ROUND_BYTES) {
		pthread_mutex_lock(&c->lock);
		bool ok = c->active && c->opened_gen == gen && !c->ended;
		size_t half = c->out_cap / 2, queued = conn_queued(c);
		pthread_mutex_unlock(&c->lock);
		if (!ok || queued + 128 >= half)
			break;
		bool complete;
		uint64_t written = chunk_written(st, &complete);
		if (written <= st->offset) {
			char next[256];
			if (complete && written == st->offset && next_chunk(r->dir, st->file, next, sizeof next) &&
			    open_chunk(r, st, next) == 0)
				continue;
			break;
		}
		size_t want = half - queued - 128;
		if (want > JFR_PIECE)
			want = JFR_PIECE;
		if (want > written - st->offset)
			want = (size_t)(written - st->offset);
		ssize_t n = pread(st->fd, piece, want, (off_t)st->offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (queue_data(c, gen, 0, st->offset == 0 ? WIRE_JFR_CHUNK_BEGIN : 0, piece, (size_t)n))
			break;
		st->offset += (uint64_t)n;
		total += (size_t)n;
	}
	return total;
}

int jfrrepo_send_none(unsigned idx, uint64_t gen)
{
	int rc = queue_data(&conns[idx], gen, WIRE_CAP_JFR_NONE, WIRE_JFR_NONE, NULL, 0);

	if (rc == 0)
		io_wake();
	return rc;
}

void jfrrepo_close(struct jfrrepo_stream *st)
{
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
}

void jfrrepo_release(struct jfrrepo *r)
{
	if (r->ours)
		r->rmdir_tries = JFR_RMDIR_TRIES;
}

void jfrrepo_keep(struct jfrrepo *r)
{
	r->rmdir_tries = 0;
}

/* JFR deletes the chunks of a closed recording on its own time: the
 * directory our first recording made goes once it is empty. */
void jfrrepo_tidy(struct jfrrepo *r)
{
	if (!r->rmdir_tries)
		return;
	r->rmdir_tries--;
	if (rmdir(r->dir) == 0 || errno == ENOENT) {
		sj_info("JFR repository %s removed", r->dir);
		r->rmdir_tries = 0;
		r->ours = false;
		r->dir[0] = '\0';
	} else if (!r->rmdir_tries) {
		sj_info("JFR repository %s left: %s", r->dir, strerror(errno));
	}
}

/* recfwd.c: see recfwd.h. */
#include "recfwd.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "monoclock.h"
#include "recchan.h"

#define CAP (RECFWD_BATCH + RECCHAN_MAX_RECORD)

int recfwd_init(struct recfwd *f, int fd, uint32_t pid)
{
	memset(f, 0, sizeof *f);
	f->fd = fd;
	f->pid = pid;
	if (fd < 0)
		return 0;
	f->buf = malloc(CAP);
	return f->buf ? 0 : -ENOMEM;
}

bool recfwd_on(const struct recfwd *f)
{
	return f->fd >= 0 && !f->over;
}

/* One message, all or nothing (SOCK_SEQPACKET): 0, -EAGAIN (full: count
 * and drop), or another error (the recorder is gone). */
static int send_message(struct recfwd *f, const uint8_t *p, size_t n)
{
	ssize_t w;

	do
		w = send(f->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w == (ssize_t)n)
		return 0;
	/* ENOBUFS and EMSGSIZE (a record larger than the channel takes) are a
	 * full channel too: the events are counted, not lost silently */
	if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EMSGSIZE))
		return -EAGAIN;
	sj_debug("pid %u: the recorder is gone (%s): recording no more", f->pid,
		 w < 0 ? strerror(errno) : "short send");
	f->over = true;
	return -EPIPE;
}

/* The count of what was dropped goes ahead of the next batch. */
static int report_dropped(struct recfwd *f)
{
	uint8_t rec[64];
	size_t n = 0;

	if (!f->dropped)
		return 0;
	recchan_put_dropped(rec, sizeof rec, &n, f->pid, monotonic_ns(), f->dropped);
	int rc = send_message(f, rec, n);
	if (rc == 0)
		f->dropped = 0;
	return rc;
}

void recfwd_flush(struct recfwd *f)
{
	if (!recfwd_on(f) || !f->len)
		return;
	if (report_dropped(f) < 0 || send_message(f, f->buf, f->len) < 0)
		f->dropped += f->batched;
	f->len = 0;
	f->batched = 0;
}

void recfwd_event(struct recfwd *f, const struct print_meta *meta, const struct wire_event *ev)
{
	if (!recfwd_on(f))
		return;
	/* a batch stays under RECFWD_BATCH but for a lone large record */
	if (f->len >= RECFWD_BATCH)
		recfwd_flush(f);
	if (recchan_put_event(f->buf, CAP, &f->len, meta, ev) < 0) {
		f->dropped++; /* an event the encoder refuses: counted like the others */
		return;
	}
	f->batched++;
}

/* The end: the JVM is gone or the session ends, so waiting a little for
 * room slows nobody; what still does not fit is counted. */
void recfwd_finish(struct recfwd *f)
{
	uint64_t deadline = monotonic_ns() + (uint64_t)RECFWD_FINISH_MS * 1000000u;

	while (recfwd_on(f) && (f->len || f->dropped)) {
		int rc = report_dropped(f);

		if (rc == 0 && f->len && (rc = send_message(f, f->buf, f->len)) == 0) {
			f->len = 0;
			f->batched = 0;
		}
		if (rc == 0)
			continue;
		uint64_t now = monotonic_ns();
		struct pollfd p = { .fd = f->fd, .events = POLLOUT };
		if (rc != -EAGAIN || now >= deadline ||
		    poll(&p, 1, (int)((deadline - now) / 1000000u) + 1) <= 0)
			break;
	}
	free(f->buf);
	f->buf = NULL;
	f->len = 0;
}

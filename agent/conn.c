/* conn.c: see conn.h. */
#include "conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "clock.h"
#include "lineage.h"
#include "log.h"
#include "plainev.h"
#include "sites.h"
#include "tbuf.h"

struct conn conns[AGENT_MAX_CONNS];
/* read at every event: a line of its own */
_Alignas(64) atomic_uint_fast64_t conn_generation = 1;
static unsigned conn_serial_next;

void conn_table_init(void)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	/* sync waits use deadlines on the monotonic clock: wall-clock jumps must not stretch them */
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		pthread_mutex_init(&conns[i].lock, NULL);
		pthread_cond_init(&conns[i].acked, &ca);
		regset_init(&conns[i].regs);
		conns[i].fd = -1;
	}
	pthread_condattr_destroy(&ca);
}

void conn_compact_locked(struct conn *c)
{
	memmove(c->out, c->out + c->out_head, c->out_len - c->out_head);
	c->out_len -= c->out_head;
	c->out_head = 0;
}

/* A full tail moved to the front, unless a send is under way (conn.h):
 * whether that made any room. */
static bool compact_if_useful_locked(struct conn *c)
{
	if (c->out_head == 0 || c->sending)
		return false;
	conn_compact_locked(c);
	return true;
}

/* Event CODE was appended as number c->seq + 1: it is C's next, and
 * VmDeath ends the stream. */
static void queued_locked(struct conn *c, unsigned code)
{
	c->seq++;
	c->ended = code == WIRE_EV_VM_DEATH;
}

int conn_append_locked(struct conn *c, const struct wire_event *ev)
{
	struct wire_buf b = { .data = c->out, .cap = c->out_cap, .len = c->out_len };
	int rc = wire_encode_event(&b, &c->peer, ev);

	if (rc == -ENOSPC && compact_if_useful_locked(c)) {
		b.len = c->out_len;
		rc = wire_encode_event(&b, &c->peer, ev);
	}
	if (rc == 0)
		c->out_len = b.len;
	return rc;
}

/* Room for LEN bytes of one message at the end of C's queue, taken: where
 * they go, or NULL (no room). The caller writes them all, and numbers it. */
static uint8_t *reserve_bytes_locked(struct conn *c, size_t len)
{
	if (c->out_cap - c->out_len < len)
		compact_if_useful_locked(c);
	if (c->out_cap - c->out_len < len)
		return NULL;
	c->out_len += len;
	return c->out + c->out_len - len;
}

/* Nothing after VmDeath (see queue_locked). LEN bytes of one message,
 * numbered by the caller. */
static int append_bytes_locked(struct conn *c, const uint8_t *msg, size_t len)
{
	uint8_t *at = reserve_bytes_locked(c, len);

	if (!at)
		return -ENOSPC;
	memcpy(at, msg, len);
	return 0;
}

/* The sequence number and time of the message of LEN bytes just queued,
 * whose trailer is at AT (0: none): stamped in the copy, never in the
 * thread's buffer (a line of it written here would have to come back from
 * this core's cache at the thread's next write there, where a line only
 * read is just invalidated). */
static void stamp_queued_locked(struct conn *c, size_t len, size_t at, uint64_t ts)
{
	if (at && at + 16 <= len) {
		uint8_t *msg = c->out + c->out_len - len;
		uint64_t seq = c->seq + 1, ns = clock_to_ns(ts);
		memcpy(msg + at, &seq, 8);   /* our byte order: the sender's (wire.h) */
		memcpy(msg + at + 8, &ns, 8);
	}
	queued_locked(c, c->out[c->out_len - len]);
}

/* The drain holds one connection's lock at a time, across the records that
 * go to it in a row (usually all of them), not a lock per record. */
struct taking {
	struct conn *locked;
};

static struct conn *taking_lock(struct taking *tk, unsigned slot)
{
	struct conn *c = &conns[slot];

	if (tk->locked != c) {
		if (tk->locked)
			pthread_mutex_unlock(&tk->locked->lock);
		pthread_mutex_lock(&c->lock);
		tk->locked = c;
	}
	return c;
}

/* A struct wire_event is ~19 KiB (stack frames, values): never on a
 * thread's stack. Each connection's Lost and plain events (plainev.h) are
 * made under its lock in its own slots. */
static struct wire_event lost_ev[AGENT_MAX_CONNS], plain_ev[AGENT_MAX_CONNS];
/* MethodName's are small: their own, so that making one leaves plain_ev be */
static struct wire_event name_ev[AGENT_MAX_CONNS];

static int queue_locked(struct conn *c, struct wire_event *ev);

/* Methods named to a connection: bits by the method's number (mcache.h),
 * grown by the I/O thread only (a Java thread that drains its own buffer
 * allocates nothing: it sends the name). */
#define NAMED_MAX (1u << 22)

/* Method E by number to C: 1, its MethodName queued now if it had none; 0,
 * by name (no CAP_METHOD_IDS, or no room to remember it); -EAGAIN, by name
 * this time (a Java thread taking its own buffer, which allocates nothing,
 * found the table too short: the I/O thread grows it); -ENOSPC, the
 * MethodName could not be queued. Under c->lock. */
static int method_by_id(struct conn *c, const struct mentry *e)
{
	const uint32_t word = e->number / 64u;
	const uint64_t bit = 1ull << (e->number % 64u);

	if (!(c->peer.caps & WIRE_CAP_METHOD_IDS) || e->number >= NAMED_MAX)
		return 0;
	if (word >= c->named_words) {
		if (atomic_load(&agent.io_tid) != (int)agent_gettid())
			return -EAGAIN;
		uint32_t n = c->named_words ? c->named_words : 64;
		while (n <= word)
			n *= 2;
		uint64_t *grown = realloc(c->named, n * sizeof(*grown));
		if (!grown)
			return 0;
		memset(grown + c->named_words, 0, (n - c->named_words) * sizeof(*grown));
		c->named = grown;
		c->named_words = n;
	}
	if (c->named[word] & bit)
		return 1;
	struct wire_event *ev = &name_ev[c - conns];
	ev->code = WIRE_EV_METHOD_NAME;
	ev->method_id = e->number;
	ev->name = (struct wire_str){ e->name, e->name_len };
	ev->has_trailer = true;
	ev->trailer.os_tid = 0;
	ev->trailer.flags = 0;
	ev->trailer.timestamp_ns = 0;
	if (queue_locked(c, ev) != 0)
		return -ENOSPC;
	c->named[word] |= bit;
	return 1;
}

/* A plain event's message, numbered and stamped, queued to C: copied from
 * its template (made at its site's first event), its thread set. */
static void take_plain(struct conn *c, const struct tbuf_rec *r)
{
	struct wire_event *ev = &plain_ev[c - conns];
	const struct mentry *e;
	struct plainev p;

	if (plainev_read(r->msg, r->len, &p) < 0) {
		c->dropped++;   /* cannot happen: emit.c writes only what plainev.h reads */
		return;
	}
	const struct evtemplate_key k = {
		.site = p.site, .slot = (uint8_t)(c - conns),
		.code = r->meta.form == PLAINEV_ENTER ? WIRE_EV_METHOD_ENTER : WIRE_EV_METHOD_EXIT,
		.serial = c->serial, .caps = c->peer.caps,
		/* a plain exit to a connection that wants return values is a void
		 * method's (probe.c): it carries the void value */
		.void_value = r->meta.form == PLAINEV_EXIT &&
			      (__atomic_load_n(&c->opt, __ATOMIC_RELAXED) & WIRE_OPT_RETURN_VALUE),
	};
	const struct evtemplate *t = c->plain ? evtemplate_find(c->plain, &k) : NULL;
	uint64_t seq = c->seq + 1, ns = clock_to_ns(r->meta.ts), thread = p.tid;

	if (!t) {
		uint8_t msg[EVTEMPLATE_BYTES];
		struct wire_buf b = { .data = msg, .cap = sizeof(msg) };
		size_t trailer_at;

		if (!(e = sites_method(p.site)) || plainev_event(ev, r->meta.form, e->name, e->name_len, p.tid,
				  k.void_value && plainev_returns_void(e->name, e->name_len, e->desc_off)) < 0) {
			c->dropped++;   /* cannot happen either: the site was made before its call */
			return;
		}
		/* by number (CAP_METHOD_IDS): named once, then the template says
		 * its number instead of its name */
		const int by_id = c->plain ? method_by_id(c, e) : 0;
		if (by_id < 0 && by_id != -EAGAIN) {
			c->dropped++;   /* its MethodName could not be queued: nor can it */
			return;
		}
		if (by_id > 0) {
			ev->code = r->meta.form == PLAINEV_ENTER ? WIRE_EV_METHOD_ENTER_ID : WIRE_EV_METHOD_EXIT_ID;
			ev->method_id = e->number;
			seq = c->seq + 1;
		}
		ev->trailer.seq = seq;
		ev->trailer.timestamp_ns = ns;
		/* the thread follows the code and the name (PROTOCOL.md, MethodEnter
		 * and MethodExit) or the number; kept only where the encoding shows
		 * it there */
		const size_t thread_at = 1 + 4 + (by_id > 0 ? 0 : (size_t)e->name_len);
		/* by name this once: a template kept now would say the name for
		 * the connection's life (the Java thread's first take of a site
		 * decided it before, in a burst) */
		if (by_id == -EAGAIN || !c->plain || wire_encode_event_at(&b, &c->peer, ev, &trailer_at) < 0 ||
		    thread_at + 8 > b.len || memcmp(msg + thread_at, &thread, 8) != 0 ||
		    evtemplate_keep(c->plain, &k, msg, b.len, thread_at, trailer_at) < 0 ||
		    !(t = evtemplate_find(c->plain, &k))) {
			if (queue_locked(c, ev) != 0)
				c->dropped++;
			return;
		}
	}
	if (append_bytes_locked(c, t->bytes, t->len) != 0) {
		c->dropped++;
		return;
	}
	/* our byte order: the sender's (wire.h) */
	uint8_t *msg = c->out + c->out_len - t->len;
	uint32_t tid = p.tid;
	memcpy(msg + t->thread_at, &thread, 8);
	if (t->trailer_at) {
		memcpy(msg + t->trailer_at, &seq, 8);
		memcpy(msg + t->trailer_at + 8, &ns, 8);
		memcpy(msg + t->trailer_at + 16, &tid, 4);
	}
	queued_locked(c, msg[0]);
}

/* A method event with values by its site (plainev.h, PLAINEV_BY_SITE),
 * queued to C by the method's number when C takes values by number and has
 * (or now gets) its MethodName, else by its name. */
static void take_by_site(struct conn *c, const struct tbuf_rec *r)
{
	const struct mentry *e;
	int32_t site;

	if (plainev_by_site_read(r->msg, r->len, &site) < 0 || !(e = sites_method(site))) {
		c->dropped++;   /* cannot happen: emit.c writes only sites it was called from */
		return;
	}
	const int by_id = c->peer.caps & WIRE_CAP_METHOD_ID_VALUES ? method_by_id(c, e) : 0;
	if (by_id < 0 && by_id != -EAGAIN) {
		c->dropped++;   /* its MethodName could not be queued: nor can it */
		return;
	}
	const uint32_t name_len = by_id > 0 ? 0 : e->name_len;
	uint8_t *msg = reserve_bytes_locked(c, r->len + name_len);
	if (!msg) {
		c->dropped++;
		return;
	}
	ssize_t len = plainev_by_site_make(msg, r->msg, r->len, e->number, by_id > 0 ? NULL : e->name, name_len);
	stamp_queued_locked(c, (size_t)len, r->meta.trailer_at ? r->meta.trailer_at + name_len : 0, r->meta.ts);
}

/* The sink of tbuf_drain: one asynchronous event a thread made for the
 * connection at slot R->meta.slot, numbered and stamped here. */
static void take_record(void *ctx, struct tbuf_rec *r)
{
	struct conn *c = taking_lock(ctx, r->meta.slot);
	size_t at = r->meta.trailer_at;

	if (!c->active || c->serial != r->meta.serial || c->ended)
		return;
	conn_queue_lost_locked(c);
	if (r->meta.form == PLAINEV_BY_SITE) {
		take_by_site(c, r);
		return;
	}
	if (r->meta.form) {
		take_plain(c, r);
		return;
	}
	if (append_bytes_locked(c, r->msg, r->len) != 0) {
		c->dropped++;
		return;
	}
	stamp_queued_locked(c, r->len, at, r->meta.ts);
}

static void take_drops(void *ctx, unsigned slot, uint32_t serial, uint64_t n)
{
	struct conn *c = taking_lock(ctx, slot);

	if (c->active && c->serial == serial)
		c->dropped += n;
}

/* The drain is over: the last connection's lock goes. Returns N. */
static size_t taking_done(struct taking *tk, size_t n)
{
	if (tk->locked)
		pthread_mutex_unlock(&tk->locked->lock);
	return n;
}

size_t conn_take_own_buffer(struct tbuf *t)
{
	struct taking tk = { NULL };

	return taking_done(&tk, tbuf_drain_mine(t, take_record, take_drops, &tk));
}

size_t conn_take_thread_buffers(void)
{
	struct taking tk = { NULL };

	clock_calibrate();
	return taking_done(&tk, tbuf_drain(take_record, take_drops, &tk));
}


/* Nothing after VmDeath: a callback that was already running when the VM
 * began to die finds the connection ended (-ESHUTDOWN), so a bridge never
 * sees an event, nor a Lost, follow the end of the stream. */
static int queue_locked(struct conn *c, struct wire_event *ev)
{
	if (c->ended)
		return -ESHUTDOWN;
	ev->trailer.seq = c->seq + 1;
	int rc = conn_append_locked(c, ev);
	if (rc == 0)
		queued_locked(c, ev->code);
	return rc;
}

void conn_queue_lost_locked(struct conn *c)
{
	if (!conn_lost_unsaid(c) || !conn_ext(c) || c->ended)
		return;
	struct wire_event *ev = &lost_ev[c - conns];
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->code = WIRE_EV_LOST;
	ev->lost = c->dropped;
	ev->has_trailer = true;
	ev->trailer.timestamp_ns = agent_now_ns();
	if (queue_locked(c, ev) == 0)
		c->lost_sent = c->dropped;
}

int conn_queue_locked(struct conn *c, struct wire_event *ev)
{
	conn_queue_lost_locked(c);
	int rc = queue_locked(c, ev);
	if (rc == -ENOSPC)
		c->dropped++;
	return rc;
}

void conn_count_unreported(uint32_t want, uint64_t n)
{
	for (uint32_t w = want; w; w &= w - 1) {
		struct conn *c = &conns[__builtin_ctz(w)];
		pthread_mutex_lock(&c->lock);
		if (c->active && !c->ended) {
			c->dropped += n;
			c->unreported += n;
		}
		pthread_mutex_unlock(&c->lock);
	}
}

unsigned conn_serial_newest(void)
{
	return __atomic_load_n(&conn_serial_next, __ATOMIC_RELAXED);
}

struct conn *conn_open(int fd, pid_t pid, uid_t uid, size_t bufsize)
{
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (c->fd >= 0)
			continue;
		uint8_t *out = malloc(bufsize);
		if (!out)
			return NULL;
		if (wire_reader_init(&c->rd, WIRE_MAX_MESSAGE + 4096) < 0) {
			free(out);
			return NULL;
		}
		/* once per slot: kept for the slot's next connections */
		struct evtemplates *plain = c->plain ? c->plain : malloc(sizeof(*plain));
		pthread_mutex_lock(&c->lock);
		c->plain = plain;
		if (plain)
			evtemplates_clear(plain);
		if (c->named)
			memset(c->named, 0, c->named_words * sizeof(*c->named));
		c->fd = fd;
		__atomic_store_n(&c->serial, __atomic_add_fetch(&conn_serial_next, 1, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		c->peer_pid = pid;
		c->peer_uid = uid;
		wire_peer_init(&c->peer);
		c->first_seen = false;
		c->accepted_ms = 0;   /* set by io.c on accept */
		c->partial_since_ms = 0;
		c->started = false;
		c->early = (struct wire_early_window){ 0 };
		c->families = 0;
		__atomic_store_n(&c->opt, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->sync, false, __ATOMIC_RELAXED);
		__atomic_store_n(&c->in_thread, false, __ATOMIC_RELAXED);
		__atomic_store_n(&c->session, 0, __ATOMIC_RELAXED);
		c->sync_stalled = false;
		c->last_sync_seq = 0;
		c->timeout_us = 0;
		c->out = out;
		c->out_head = c->out_len = 0;
		c->sending = c->out_blocked = false;
		c->out_cap = bufsize;
		c->seq = c->acked_seq = 0;
		c->dropped = c->lost_sent = c->sync_timeouts = c->unreported = 0;
		c->want_flush_close = false;
		c->ended = false;
		c->opened_gen = atomic_fetch_add(&conn_generation, 1) + 1;
		__atomic_store_n(&c->active, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&c->lock);
		return c;
	}
	return NULL;
}

void conn_close(struct conn *c, const char *why)
{
	pthread_mutex_lock(&c->lock);
	__atomic_store_n(&c->active, false, __ATOMIC_RELAXED);
	__atomic_store_n(&c->in_thread, false, __ATOMIC_RELEASE);
	memset(c->ev_bits, 0, sizeof(c->ev_bits));
	free(c->out);
	c->out = NULL;
	c->out_head = c->out_len = c->out_cap = 0;
	pthread_cond_broadcast(&c->acked);
	pthread_mutex_unlock(&c->lock);
	regset_free(&c->regs);
	atomic_fetch_add(&conn_generation, 1);
	if (c->sync_timeouts)
		sj_warn("conn#%u: %llu synchronous events were not acknowledged in time",
			c->serial, (unsigned long long)c->sync_timeouts);
	if (c->dropped > c->unreported)
		sj_info("conn#%u: %llu events dropped in total (buffer full)", c->serial,
			(unsigned long long)(c->dropped - c->unreported));
	if (c->unreported)
		sj_info("conn#%u: %llu method.return lost in total (no stack left to report them)",
			c->serial, (unsigned long long)c->unreported);
	sj_info("conn#%u (pid %ld uid %ld) closed: %s", c->serial, (long)c->peer_pid,
		(long)c->peer_uid, why);
	close(c->fd);
	wire_reader_free(&c->rd);
	c->fd = -1;
}

int conn_publish_regs(struct conn *c)
{
	uint8_t bits[4];
	int rc = regset_publish(&c->regs, bits);

	if (rc < 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	memcpy(c->ev_bits, bits, sizeof(bits));
	pthread_mutex_unlock(&c->lock);
	/* classes are noted as they are prepared while a root pattern is registered */
	bool roots = false;
	for (size_t i = 0; i < AGENT_MAX_CONNS && !roots; i++)
		roots = __atomic_load_n(&conns[i].active, __ATOMIC_ACQUIRE) && regset_has_roots(&conns[i].regs);
	lineage_want(roots);
	atomic_fetch_add(&conn_generation, 1);
	return 0;
}

bool conns_want_method_class(const char *sig, uint8_t events)
{
	char dotted[1024];
	ssize_t n = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));

	if (n < 0)
		return n == -ENAMETOOLONG;   /* cannot pre-test: look at its methods */
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (__atomic_load_n(&conns[i].active, __ATOMIC_ACQUIRE) &&
		    regset_may_select_class(&conns[i].regs, events, dotted, (size_t)n))
			return true;
	return false;
}

uint8_t conns_method_events(const char *name, size_t len, uint32_t want[3], struct fire_set fire[3])
{
	uint8_t all = 0;

	if (want)
		memset(want, 0, 3 * sizeof(*want));
	if (fire)
		memset(fire, 0, 3 * sizeof(*fire));
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		if (!__atomic_load_n(&conns[i].active, __ATOMIC_ACQUIRE))
			continue;
		uint8_t bits = regset_match_method(&conns[i].regs, name, len, fire);
		all |= bits;
		for (unsigned b = 0; want && b < 3; b++)
			if (bits & (1u << b))
				want[b] |= 1u << i;
	}
	return all;
}

void conns_match_class(struct class_wants *cw, uint8_t kind, uint8_t bit, const char *sig, size_t len,
		       struct fire_set *into)
{
	cw->conns = 0;
	cw->into = into;
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (!__atomic_load_n(&c->active, __ATOMIC_ACQUIRE))
			continue;
		/* the serial first: registrations read after it are this connection's or a later one's,
		 * and a later one has another serial, which conn_class_wanted() sees */
		cw->serial[i] = __atomic_load_n(&c->serial, __ATOMIC_ACQUIRE);
		memset(&cw->fire[i], 0, sizeof(cw->fire[i]));
		if (regset_match_class(&c->regs, kind, bit, sig, len, &cw->fire[i]) & bit)
			cw->conns |= 1u << i;
	}
}

bool conn_class_wanted(const struct conn *c, const void *arg)
{
	const struct class_wants *cw = arg;
	size_t i = (size_t)(c - conns);

	if (!(cw->conns & (1u << i)) || cw->serial[i] != c->serial)
		return false;
	for (unsigned w = 0; w < INTHREAD_MAX_IDS / 64; w++)
		cw->into->w[w] |= cw->fire[i].w[w];
	return true;
}

/* listing.c: see listing.h. */
#include "listing.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "agent.h"
#include "lineage.h"
#include "lineage_jvm.h"
#include "log.h"
#include "mcache.h"
#include "pattern.h"

struct listing {
	struct conn *c;
	uint8_t kind;
	struct pattern pat;
	jclass throwable;         /* exceptions: java.lang.Throwable */
	uint32_t total;           /* matches found */
	bool full;                /* no more Matches go out */
};

/* One Match on the queue, unless it is getting full. */
static void send_match(struct listing *l, const char *name, size_t len)
{
	static struct wire_event ev;   /* I/O thread only; ~19 KiB */
	struct conn *c = l->c;

	l->total++;
	if (l->full)
		return;
	memset(&ev, 0, offsetof(struct wire_event, values));
	ev.code = WIRE_EV_MATCH;
	ev.kind = l->kind;
	ev.name = (struct wire_str){ name, (uint32_t)len };
	ev.has_trailer = true;
	ev.trailer.timestamp_ns = agent_now_ns();
	pthread_mutex_lock(&c->lock);
	/* the queue only drains on this thread, after the list: keep room for
	 * the events that come meanwhile */
	if (conn_queued(c) + len + 64 > c->out_cap / 2 || conn_queue_locked(c, &ev) != 0)
		l->full = true;
	pthread_mutex_unlock(&c->lock);
}

static bool list_method(void *ctx, const struct mentry *e)
{
	struct listing *l = ctx;

	if (!e->is_abstract && !e->is_native &&
	    pattern_match_method_via(&l->pat, e->name, e->name_len, lineage_descends, NULL))
		send_match(l, e->name, e->name_len);
	return true;
}

static int list_class(void *ctx, JNIEnv *jni, jclass klass, const char *sig)
{
	struct listing *l = ctx;
	size_t len = strlen(sig);

	size_t rlen;
	if (l->kind == WIRE_KIND_METHOD && pattern_root(&l->pat, &rlen)) {
		/* a root pattern: any class may descend from the root */
		lineage_learn(jni, klass, sig);
		mcache_each_method(NULL, klass, sig, list_method, l);
	} else if (l->kind == WIRE_KIND_METHOD) {
		mcache_each_method(&l->pat, klass, sig, list_method, l);
	}
	if (l->kind != WIRE_KIND_METHOD && pattern_match_class(&l->pat, sig, len) &&
		 (l->kind == WIRE_KIND_CLASS || (*jni)->IsAssignableFrom(jni, klass, l->throwable)))
		send_match(l, sig, len);
	return 0;
}

int listing_answer(struct conn *c, JNIEnv *jni, uint8_t kind, const struct wire_str *pattern)
{
	static struct listing l;       /* I/O thread only; a pattern is 4 KiB */
	static struct wire_event end;
	char err[200];

	memset(&l, 0, sizeof(l));
	l.c = c;
	l.kind = kind;
	if (pattern_compile(&l.pat, kind == WIRE_KIND_METHOD ? PATTERN_METHOD : PATTERN_CLASS,
			    pattern->ptr, pattern->len, err, sizeof(err)) != 0) {
		sj_warn("conn#%u: ListMatches pattern \"%.*s\": %s; disconnecting", c->serial,
			(int)(pattern->len > 200 ? 200 : pattern->len), pattern->ptr, err);
		return -EINVAL;
	}
	if (kind == WIRE_KIND_EXCEPTION && !(l.throwable = (*jni)->FindClass(jni, "java/lang/Throwable")))
		(*jni)->ExceptionClear(jni);
	/* no Throwable class, no exception to list: the answer still ends */
	if (kind != WIRE_KIND_EXCEPTION || l.throwable)
		agent_each_prepared_class(jni, false, list_class, &l);
	if (l.throwable)
		(*jni)->DeleteLocalRef(jni, l.throwable);
	memset(&end, 0, offsetof(struct wire_event, values));
	end.code = WIRE_EV_MATCH_END;
	end.kind = kind;
	end.u32 = l.total;
	end.has_trailer = true;
	end.trailer.timestamp_ns = agent_now_ns();
	pthread_mutex_lock(&c->lock);
	int rc = conn_queue_locked(c, &end);
	pthread_mutex_unlock(&c->lock);
	if (rc != 0)
		sj_warn("conn#%u: the end of a ListMatches answer does not fit the queue (%d)", c->serial, rc);
	return 0;
}

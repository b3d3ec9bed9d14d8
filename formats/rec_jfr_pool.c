/* rec_jfr_pool.c: see rec_jfr_pool.h. The entries are written as the JDK's
 * types (rec_jfr_types.c): what we do not know (class loaders, modules,
 * modifiers, bytecode indexes, a Java thread id the agent did not send) is null, 0,
 * false or -1. */
#define _GNU_SOURCE /* memrchr */
#include "rec_jfr_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_jfr_types.h"
#include "rec_text.h"

#define FRAME_TYPE_NATIVE_KEY 1u
#define LINE_NATIVE (-2)      /* the wire's line of a native method's frame */

/* ---- interning */
/* The id of KEY, added (*CREATED) when new. */
static int intern(struct jfr_intern *t, const void *key, size_t len, uint32_t *id, bool *created)
{
	int rc = rec_strmap_intern(&t->map, key, len, id);

	*created = rc == 1;
	if (rc == 1)
		rc = rec_grow((void **)&t->e, &t->cap, (size_t)*id + 1, sizeof *t->e);   /* zeroed */
	return rc < 0 ? rc : 0;
}

static const uint8_t *key_of(const struct jfr_intern *t, uint32_t id, uint32_t *len)
{
	return (const uint8_t *)rec_strmap_str(&t->map, id, len);
}

static void mark(struct jfr_pools *p, struct jfr_intern *t, uint32_t id)
{
	if (id == JFR_NONE || t->e[id].marked == p->chunk)
		return;
	if (rec_grow((void **)&t->marked, &t->capmarked, (size_t)t->nmarked + 1, sizeof *t->marked) < 0) {
		p->error = -ENOMEM;
		return;
	}
	t->e[id].marked = p->chunk;
	t->marked[t->nmarked++] = id;
}

static void intern_free(struct jfr_intern *t)
{
	rec_strmap_free(&t->map);
	free(t->e);
	free(t->marked);
	memset(t, 0, sizeof *t);
}

/* ---- the pools */
int jfr_pools_init(struct jfr_pools *p)
{
	memset(p, 0, sizeof *p);
	p->chunk = 1;
	return 0;
}

void jfr_pools_free(struct jfr_pools *p)
{
	intern_free(&p->symbols);
	intern_free(&p->packages);
	intern_free(&p->classes);
	intern_free(&p->methods);
	intern_free(&p->stacks);
	intern_free(&p->groups);
	intern_free(&p->thread_keys);
	free(p->threads);
	free(p->threads_marked);
	jfr_buf_free(&p->names);
	jfr_buf_free(&p->scratch);
	jfr_buf_free(&p->name);
	memset(p, 0, sizeof *p);
}

/* Intern KEY in T; JFR_NONE (and p->error) on failure. */
static uint32_t lookup(struct jfr_pools *p, struct jfr_intern *t, const void *key, size_t len, bool *created)
{
	uint32_t id;
	int rc;

	if (p->error)
		return JFR_NONE;
	rc = intern(t, key, len, &id, created);
	if (rc < 0) {
		p->error = rc;
		return JFR_NONE;
	}
	return id;
}

static uint32_t symbol(struct jfr_pools *p, const char *s, size_t n)
{
	bool created;

	return lookup(p, &p->symbols, s, n, &created);
}

/* A class by its name as the JDK writes it: "java/lang/String", "[I". */
static uint32_t class_internal(struct jfr_pools *p, const char *name, size_t n)
{
	bool created;
	uint32_t id = lookup(p, &p->classes, name, n, &created);

	if (id != JFR_NONE && created) {
		const char *slash = name[0] == '[' ? NULL : memrchr(name, '/', n);
		uint32_t pkg = JFR_NONE;

		if (slash) {
			size_t pn = (size_t)(slash - name);

			pkg = lookup(p, &p->packages, name, pn, &created);
			if (pkg != JFR_NONE && created)
				p->packages.e[pkg].v[0] = symbol(p, name, pn);
		}
		p->classes.e[id].v[0] = symbol(p, name, n);
		p->classes.e[id].v[1] = pkg;
	}
	return id;
}

/* The JDK's `jfr print` reads the types of a descriptor's parameters, and
 * an array class's name, as a descriptor, and fails on a '[' with nothing
 * after it or an 'L' with no ';': are the N bytes at S types it can read? */
static bool types_readable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		while (i < n && s[i] == '[')
			i++;
		if (i == n)
			return false;
		if (s[i] == 'L') {
			const char *semi = memchr(s + i, ';', n - i);

			if (!semi)
				return false;
			i = (size_t)(semi - s);
		}
	}
	return true;
}

/* N bytes of room in p->name, NULL (and p->error) when memory runs out. */
static char *name_room(struct jfr_pools *p, size_t n)
{
	p->name.len = 0;
	if (!jfr_buf_reserve(&p->name, n + 1)) {
		p->error = -ENOMEM;
		return NULL;
	}
	return (char *)p->name.data;
}

uint32_t jfr_pool_class_sig(struct jfr_pools *p, const char *sig, size_t n)
{
	uint32_t id;
	char *safe;

	if (n >= 3 && sig[0] == 'L' && sig[n - 1] == ';') {
		id = class_internal(p, sig + 1, n - 2);
	} else if (n && sig[0] == '[' && !types_readable(sig, n)) {
		/* not a signature: kept, but not as an array's name */
		if (!(safe = name_room(p, n)))
			return JFR_NONE;
		memcpy(safe, sig, n);
		safe[0] = '_';
		id = class_internal(p, safe, n);
	} else {
		id = class_internal(p, sig, n);
	}
	mark(p, &p->classes, id);
	return id;
}

/* "a.b.C.m(I)V": class "a/b/C", name "m", descriptor "(I)V". A name that
 * does not split so, whose class part has a '/' (which the reader would
 * take back as '.') or whose parameters `jfr print` cannot read, is the
 * name of a method of the class "". */
static uint32_t method(struct jfr_pools *p, const char *s, size_t n)
{
	bool created;
	uint32_t id = lookup(p, &p->methods, s, n, &created);
	struct rec_method_name m;
	const char *close;
	char *internal;

	if (id == JFR_NONE || !created)
		return id;
	rec_method_split(s, n, &m);
	close = m.sig.len ? memrchr(m.sig.ptr, ')', m.sig.len) : NULL;
	if (m.cls.len && m.name.len && close && types_readable(m.sig.ptr + 1, (size_t)(close - m.sig.ptr - 1)) &&
	    !memchr(m.cls.ptr, '/', m.cls.len)) {
		if (!(internal = name_room(p, m.cls.len)))
			return JFR_NONE;
		rec_class_key_to_internal(m.cls.ptr, m.cls.len, internal);
		p->methods.e[id].v[0] = class_internal(p, internal, m.cls.len);
		p->methods.e[id].v[1] = symbol(p, m.name.ptr, m.name.len);
		p->methods.e[id].v[2] = symbol(p, m.sig.ptr, m.sig.len);
	} else {
		/* "()": `jfr print` reads a descriptor; the reader ignores it */
		p->methods.e[id].v[0] = class_internal(p, "", 0);
		p->methods.e[id].v[1] = symbol(p, s, n);
		p->methods.e[id].v[2] = symbol(p, "()", 2);
	}
	return id;
}

uint32_t jfr_pool_method(struct jfr_pools *p, const char *name, size_t n)
{
	uint32_t id = method(p, name, n);

	mark(p, &p->methods, id);
	return id;
}

void jfr_pool_mark_class(struct jfr_pools *p, uint32_t id)
{
	mark(p, &p->classes, id);
}

void jfr_pool_mark_method(struct jfr_pools *p, uint32_t id)
{
	mark(p, &p->methods, id);
}

/* The key of a stack: per frame, its method's id and its line. */
struct frame_key {
	uint32_t method;
	int32_t line;
};

/* A truncated stack's key has one byte more. */
#define TRUNCATED_MARK 'T'

uint32_t jfr_pool_stack(struct jfr_pools *p, const struct wire_trailer *t)
{
	struct frame_key *k;
	bool created;
	uint32_t id;

	p->scratch.len = 0;
	if (!jfr_buf_reserve(&p->scratch, (size_t)t->depth * sizeof *k + 1)) {
		p->error = -ENOMEM;
		return JFR_NONE;
	}
	k = (struct frame_key *)(void *)p->scratch.data;
	for (size_t i = 0; i < t->depth; i++) {
		k[i].method = method(p, t->frames[i].method.ptr, t->frames[i].method.len);
		k[i].line = t->frames[i].line;
	}
	id = lookup(p, &p->stacks, k, (size_t)t->depth * sizeof *k, &created);
	mark(p, &p->stacks, id);
	return id;
}

uint32_t jfr_pool_stack_top(struct jfr_pools *p, const char *name, size_t n)
{
	uint8_t key[sizeof(struct frame_key) + 1];
	struct frame_key f = { method(p, name, n), -1 };
	bool created;
	uint32_t id;

	memcpy(key, &f, sizeof f);
	key[sizeof f] = TRUNCATED_MARK;
	id = lookup(p, &p->stacks, key, sizeof key, &created);
	mark(p, &p->stacks, id);
	return id;
}

void jfr_pool_mark_stack(struct jfr_pools *p, uint32_t id)
{
	mark(p, &p->stacks, id);
}

/* ---- threads */
static void mark_thread(struct jfr_pools *p, uint32_t id)
{
	if (id == JFR_NONE || p->threads[id].marked == p->chunk)
		return;
	if (rec_grow((void **)&p->threads_marked, &p->capthreads_marked, (size_t)p->nthreads_marked + 1,
		     sizeof *p->threads_marked) < 0) {
		p->error = -ENOMEM;
		return;
	}
	p->threads[id].marked = p->chunk;
	p->threads_marked[p->nthreads_marked++] = id;
}

void jfr_pool_mark_thread(struct jfr_pools *p, uint32_t id)
{
	mark_thread(p, id);
}

static uint32_t new_thread(struct jfr_pools *p, uint32_t pid, uint64_t tid)
{
	bool created;
	uint32_t group = lookup(p, &p->groups, &pid, sizeof pid, &created);
	struct jfr_thread *th;

	if (group == JFR_NONE)
		return JFR_NONE;
	if (p->nthreads == UINT32_MAX - 1 ||
	    rec_grow((void **)&p->threads, &p->capthreads, (size_t)p->nthreads + 1, sizeof *p->threads) < 0) {
		p->error = -ENOMEM;
		return JFR_NONE;
	}
	th = &p->threads[p->nthreads];
	memset(th, 0, sizeof *th);
	th->tid = tid;
	th->group = group;
	return p->nthreads++;
}

/* The slot of (PID, TID) in thread_keys: its v[0] is the current entry. */
uint32_t jfr_pool_thread_slot(struct jfr_pools *p, uint32_t pid, uint64_t tid)
{
	uint8_t key[12];
	bool created;
	uint32_t slot;

	memcpy(key, &pid, 4);
	memcpy(key + 4, &tid, 8);
	slot = lookup(p, &p->thread_keys, key, sizeof key, &created);
	if (slot != JFR_NONE && created)
		p->thread_keys.e[slot].v[0] = new_thread(p, pid, tid);
	return slot;
}

uint32_t jfr_pool_thread(struct jfr_pools *p, uint32_t pid, uint64_t tid)
{
	uint32_t slot = jfr_pool_thread_slot(p, pid, tid), id;

	if (slot == JFR_NONE)
		return JFR_NONE;
	id = p->thread_keys.e[slot].v[0];
	mark_thread(p, id);
	return id;
}

uint32_t jfr_pool_thread_named(struct jfr_pools *p, uint32_t pid, uint64_t tid, const char *name, size_t n)
{
	uint32_t slot = jfr_pool_thread_slot(p, pid, tid), id;
	struct jfr_thread *th;

	if (slot == JFR_NONE || (id = p->thread_keys.e[slot].v[0]) == JFR_NONE)
		return JFR_NONE;
	th = &p->threads[id];
	if (!th->named || th->name_len != n || (n && memcmp(p->names.data + th->name_off, name, n) != 0)) {
		/* renamed: an entry some event already refers to keeps its name */
		if (th->marked || th->named) {
			id = new_thread(p, pid, tid);
			if (id == JFR_NONE)
				return JFR_NONE;
			p->thread_keys.e[slot].v[0] = id;
			th = &p->threads[id];
		}
		if (p->names.len + n > UINT32_MAX) {
			p->error = -E2BIG;
			return JFR_NONE;
		}
		th->name_off = (uint32_t)p->names.len;
		th->name_len = (uint32_t)n;
		th->named = true;
		jfr_put_bytes(&p->names, name, n);
		if (p->names.error) {
			p->error = p->names.error;
			return JFR_NONE;
		}
	}
	mark_thread(p, id);
	return id;
}

void jfr_pool_thread_java_id(struct jfr_pools *p, uint32_t pid, uint64_t tid, uint64_t java_tid)
{
	uint32_t slot = jfr_pool_thread_slot(p, pid, tid), id;

	if (slot != JFR_NONE && (id = p->thread_keys.e[slot].v[0]) != JFR_NONE)
		p->threads[id].java_tid = java_tid;
}

/* ---- the constant pool event */
static void put_key(struct jfr_buf *b, uint32_t id)
{
	jfr_put_varint(b, id == JFR_NONE ? 0 : (uint64_t)id + 1);
}

static void put_symbol(struct jfr_buf *b, const struct jfr_intern *t, uint32_t id)
{
	uint32_t n;
	const uint8_t *s = key_of(t, id, &n);

	jfr_put_string(b, (const char *)s, n);
}

/* The JDK's reader refuses a pool with no entry: such a pool is not written. */
static void pool_header(struct jfr_buf *b, unsigned type, uint32_t count)
{
	if (!count)
		return;
	jfr_put_varint(b, type);
	jfr_put_varint(b, count);
}

static void write_threads(struct jfr_pools *p, struct jfr_buf *b)
{
	pool_header(b, JFR_C_THREAD, p->nthreads_marked);
	for (uint32_t i = 0; i < p->nthreads_marked; i++) {
		uint32_t id = p->threads_marked[i];
		const struct jfr_thread *th = &p->threads[id];
		const char *name = !th->named ? NULL : th->name_len ? (const char *)p->names.data + th->name_off : "";

		put_key(b, id);
		jfr_put_string(b, name, th->name_len);   /* osName */
		jfr_put_varint(b, th->tid);
		jfr_put_string(b, name, th->name_len);   /* javaName */
		jfr_put_varint(b, th->java_tid);         /* javaThreadId, 0: not known */
		put_key(b, th->group);
	}
	pool_header(b, JFR_C_THREAD_GROUP, p->groups.nmarked);
	for (uint32_t i = 0; i < p->groups.nmarked; i++) {
		uint32_t id = p->groups.marked[i], n, pid;
		char name[32];

		memcpy(&pid, key_of(&p->groups, id, &n), sizeof pid);
		put_key(b, id);
		put_key(b, JFR_NONE);
		jfr_put_string(b, name, (size_t)snprintf(name, sizeof name, JFR_GROUP_PREFIX "%u", pid));
	}
}

static void write_stacks(struct jfr_pools *p, struct jfr_buf *b)
{
	pool_header(b, JFR_C_STACK_TRACE, p->stacks.nmarked);
	for (uint32_t i = 0; i < p->stacks.nmarked; i++) {
		uint32_t id = p->stacks.marked[i], n;
		const uint8_t *key = key_of(&p->stacks, id, &n);

		put_key(b, id);
		jfr_put_u8(b, n % sizeof(struct frame_key) != 0);   /* truncated */
		jfr_put_varint(b, n / sizeof(struct frame_key));
		for (uint32_t at = 0; at + sizeof(struct frame_key) <= n; at += sizeof(struct frame_key)) {
			struct frame_key f;

			memcpy(&f, key + at, sizeof f);
			put_key(b, f.method);
			jfr_put_int(b, f.line == LINE_NATIVE ? -1 : f.line);
			jfr_put_int(b, -1);              /* bytecodeIndex: not known */
			jfr_put_varint(b, f.line == LINE_NATIVE ? FRAME_TYPE_NATIVE_KEY : 0);
		}
	}
}

static void write_code(struct jfr_pools *p, struct jfr_buf *b)
{
	pool_header(b, JFR_C_METHOD, p->methods.nmarked);
	for (uint32_t i = 0; i < p->methods.nmarked; i++) {
		const struct jfr_entry *e = &p->methods.e[p->methods.marked[i]];

		put_key(b, p->methods.marked[i]);
		put_key(b, e->v[0]);
		put_key(b, e->v[1]);
		put_key(b, e->v[2]);
		jfr_put_int(b, 0);                       /* modifiers */
		jfr_put_u8(b, 0);                        /* hidden */
	}
	pool_header(b, JFR_C_CLASS, p->classes.nmarked);
	for (uint32_t i = 0; i < p->classes.nmarked; i++) {
		const struct jfr_entry *e = &p->classes.e[p->classes.marked[i]];

		put_key(b, p->classes.marked[i]);
		put_key(b, JFR_NONE);                    /* classLoader */
		put_key(b, e->v[0]);
		put_key(b, e->v[1]);
		jfr_put_int(b, 0);
		jfr_put_u8(b, 0);
	}
	pool_header(b, JFR_C_PACKAGE, p->packages.nmarked);
	for (uint32_t i = 0; i < p->packages.nmarked; i++) {
		put_key(b, p->packages.marked[i]);
		put_key(b, p->packages.e[p->packages.marked[i]].v[0]);
		put_key(b, JFR_NONE);                    /* module */
		jfr_put_u8(b, 0);                        /* exported */
	}
	pool_header(b, JFR_C_SYMBOL, p->symbols.nmarked);
	for (uint32_t i = 0; i < p->symbols.nmarked; i++) {
		put_key(b, p->symbols.marked[i]);
		put_symbol(b, &p->symbols, p->symbols.marked[i]);
	}
	pool_header(b, JFR_C_FRAME_TYPE, 1);
	jfr_put_varint(b, FRAME_TYPE_NATIVE_KEY);
	jfr_put_string(b, JFR_FRAME_TYPE_NATIVE, strlen(JFR_FRAME_TYPE_NATIVE));
}

/* What the marked entries refer to is marked too, in the order they refer. */
static void mark_referred(struct jfr_pools *p)
{
	for (uint32_t i = 0; i < p->stacks.nmarked; i++) {
		uint32_t n;
		const uint8_t *key = key_of(&p->stacks, p->stacks.marked[i], &n);

		for (uint32_t at = 0; at + sizeof(struct frame_key) <= n; at += sizeof(struct frame_key)) {
			struct frame_key f;

			memcpy(&f, key + at, sizeof f);
			mark(p, &p->methods, f.method);
		}
	}
	for (uint32_t i = 0; i < p->methods.nmarked; i++) {
		const struct jfr_entry *e = &p->methods.e[p->methods.marked[i]];

		mark(p, &p->classes, e->v[0]);
		mark(p, &p->symbols, e->v[1]);
		mark(p, &p->symbols, e->v[2]);
	}
	for (uint32_t i = 0; i < p->classes.nmarked; i++) {
		mark(p, &p->symbols, p->classes.e[p->classes.marked[i]].v[0]);
		mark(p, &p->packages, p->classes.e[p->classes.marked[i]].v[1]);
	}
	for (uint32_t i = 0; i < p->packages.nmarked; i++)
		mark(p, &p->symbols, p->packages.e[p->packages.marked[i]].v[0]);
	for (uint32_t i = 0; i < p->nthreads_marked; i++)
		mark(p, &p->groups, p->threads[p->threads_marked[i]].group);
}

int jfr_pool_write(struct jfr_pools *p, struct jfr_buf *out, uint64_t ticks)
{
	struct jfr_buf *b = &p->scratch;

	mark_referred(p);
	if (p->error)
		return p->error;
	b->len = 0;
	jfr_put_varint(b, JFR_TYPE_CPOOL);
	jfr_put_varint(b, ticks);
	jfr_put_varint(b, 0);          /* duration */
	jfr_put_varint(b, 0);          /* delta to the previous one: none, it is the chunk's only */
	jfr_put_u8(b, 0);              /* checkpoint kind: a plain one */
	jfr_put_varint(b, 1 + (p->nthreads_marked > 0) + (p->groups.nmarked > 0) + (p->stacks.nmarked > 0) +
			       (p->methods.nmarked > 0) + (p->classes.nmarked > 0) + (p->packages.nmarked > 0) +
			       (p->symbols.nmarked > 0));   /* the frame type's is never empty */
	write_threads(p, b);
	write_stacks(p, b);
	write_code(p, b);
	if (b->error)
		return p->error = b->error;
	jfr_put_varint(out, jfr_record_size(b->len));
	jfr_put_bytes(out, b->data, b->len);
	if (out->error)
		return out->error;
	p->chunk++;
	p->symbols.nmarked = p->packages.nmarked = p->classes.nmarked = p->methods.nmarked = 0;
	p->stacks.nmarked = p->groups.nmarked = p->thread_keys.nmarked = p->nthreads_marked = 0;
	return 0;
}

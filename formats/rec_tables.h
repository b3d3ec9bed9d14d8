/* rec_tables.h: the bookkeeping of the seed trace formats' writers and
 * readers (rec_trc*.c, rec_trcbin*.c): names to dense numbers, pairs of
 * numbers to a number, and per-thread call stacks.
 *
 * Contract. rec_strmap gives each distinct byte string an index 0, 1, 2 ...
 * in the order strings are first added, and keeps a copy of the bytes.
 * rec_pairmap maps a pair of u64 to a u32, and forgets a pair on request.
 * Both are open-addressing hash tables that double at 3/4 full: a lookup
 * is one hash and nearly always one comparison, and nothing allocates
 * once a table has grown to the working set. rec_calls is a stack of
 * (method, ticket) frames; past REC_CALLS_MAX frames it forgets its oldest
 * half, so a thread whose returns never come (enter-only registrations)
 * costs bounded memory. rec_threads numbers a writer's threads. Functions
 * return 0 or -ENOMEM; the *_free ones
 * leave a zeroed table, and a zeroed table is an empty one.
 */
#ifndef STPD_BRIDGE_REC_TABLES_H
#define STPD_BRIDGE_REC_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- strings */
struct rec_strent {
	uint64_t hash;
	size_t off;          /* into bytes */
	uint32_t len;
};

struct rec_strmap {
	uint32_t *slots;     /* entry index + 1; 0: empty */
	uint32_t mask;       /* slots - 1 */
	struct rec_strent *ents;
	uint32_t n;
	size_t cap;
	char *bytes;
	size_t nbytes, bytecap;
};

/* *INDEX of S[0..LEN): 1 when it was added now, 0 when it was there, or
 * -ENOMEM (-E2BIG for a string longer than UINT32_MAX). */
int rec_strmap_intern(struct rec_strmap *m, const char *s, size_t len, uint32_t *index);
/* 0 and *INDEX, or -ENOENT. */
int rec_strmap_find(const struct rec_strmap *m, const char *s, size_t len, uint32_t *index);
/* The bytes of entry INDEX (< m->n); valid until the next intern. */
const char *rec_strmap_str(const struct rec_strmap *m, uint32_t index, uint32_t *len);
void rec_strmap_free(struct rec_strmap *m);

/* ---------------------------------------------------------------- pairs */
struct rec_pairent {
	uint64_t a, b;
	uint32_t value;
	bool used;
};

struct rec_pairmap {
	struct rec_pairent *slots;
	uint32_t mask, n;
};

/* 0 and *VALUE, or -ENOENT. */
int rec_pairmap_get(const struct rec_pairmap *m, uint64_t a, uint64_t b, uint32_t *value);
/* Add or replace. */
int rec_pairmap_put(struct rec_pairmap *m, uint64_t a, uint64_t b, uint32_t value);
void rec_pairmap_remove(struct rec_pairmap *m, uint64_t a, uint64_t b);
void rec_pairmap_free(struct rec_pairmap *m);

/* ---------------------------------------------------------------- arrays */
/* Room for NEED elements of SIZE bytes in *P (*CAP of them now; doubling
 * from 16), the new ones zeroed: 0 or -ENOMEM (then *P is unchanged). */
int rec_grow(void **p, size_t *cap, size_t need, size_t size);

/* ---------------------------------------------------------------- call stacks */
#define REC_CALLS_MAX 8192u

struct rec_frame {
	uint32_t method, ticket;
};

struct rec_calls {
	struct rec_frame *frames;
	uint32_t depth;
	size_t cap;
};

int rec_calls_push(struct rec_calls *s, uint32_t method, uint32_t ticket);
/* How many frames lie above the innermost frame of METHOD (0: it is on
 * top), or -1 when METHOD is not on the stack. */
long rec_calls_find(const struct rec_calls *s, uint32_t method);
void rec_calls_free(struct rec_calls *s);

/* ---------------------------------------------------------------- threads */
/* A writer's threads: (pid, tid) -> id, from 1, never used twice, with the
 * thread's call stack. The last thread looked up is remembered, since
 * events come in runs from one thread. */
struct rec_thread {
	struct rec_calls calls;
	uint32_t pid;
	bool started;             /* its start was written */
};

struct rec_threads {
	struct rec_pairmap ids;
	struct rec_thread *v;     /* [id] */
	size_t cap;
	uint32_t n;               /* ids used: 1 .. n */
	uint64_t last_pid, last_tid;
	uint32_t last;            /* 0: none */
};

/* The id of (PID, TID), 0 when it has none. */
uint32_t rec_threads_find(struct rec_threads *t, uint64_t pid, uint64_t tid);
/* A new id for (PID, TID) into *ID: 0, 1 when there is none left, or -ENOMEM. */
int rec_threads_add(struct rec_threads *t, uint32_t pid, uint64_t tid, uint32_t *id);
/* (PID, TID) has no id any more (its thread ended); ID's stack is freed. */
void rec_threads_forget(struct rec_threads *t, uint64_t pid, uint64_t tid, uint32_t id);
void rec_threads_free(struct rec_threads *t);

#endif

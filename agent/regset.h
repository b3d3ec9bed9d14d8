/* regset.h: one connection's registrations, as the I/O thread edits them
 * and as every other thread matches names against them.
 *
 * Why: registrations come in bursts (a session sends thousands in one
 * write), and every method the JVM runs or rewrites and every class it
 * loads is matched against them, on Java threads, class-loading threads
 * and the I/O thread. Applied one by one and matched by trying each, 2,000
 * registrations took 14 s and a flood of 100,000 starved another session's
 * events for 100 s.
 *
 * Contract: the I/O thread edits the list (regset_add, regset_remove,
 * regset_clear: a batch of commands) and then publishes it once
 * (regset_publish): an immutable, indexed snapshot (patindex.h), built
 * without any lock and swapped in under the set's write lock, which nobody
 * holds but to look a name up in the snapshot. The matching functions take
 * only the read lock: they never wait for a batch being built, and the
 * connection's own lock, which events take, is not held for them (lock
 * order: a connection's lock, then its set's). What a removed registration
 * holds (its pattern, its fire id) goes when the snapshot that still shows
 * it is replaced. A list is bounded: REGSET_MAX_REGS registrations and
 * REGSET_MAX_BYTES bytes (registrations, patterns, texts and their share
 * of the index); an addition past a bound is refused with a message naming
 * it. A root method pattern ("^C.m", pattern.h) also selects the methods
 * of the classes lineage.h says descend from C. Functions return 0 or a
 * negative errno.
 */
#ifndef STAPJAVA_AGENT_REGSET_H
#define STAPJAVA_AGENT_REGSET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inthread.h"
#include "pattern.h"

#define REGSET_MAX_REGS 16384u
#define REGSET_MAX_BYTES (8u << 20)

struct reg {
	uint8_t kind;            /* enum wire_kind */
	uint8_t events;          /* enum wire_event_bits of that kind */
	bool checked;            /* nomatch.h looked for a loaded match (I/O thread) */
	bool nocode_said;        /* a line pattern: its line without code was said (__atomic) */
	int16_t fire_id;         /* RegisterSlot: its fire id (inthread.h); -1: none */
	uint32_t text_len;
	char *text;              /* as the peer sent it, for Unregister */
	struct pattern *pat;     /* pattern_dup()'s copy */
};

struct regset_snapshot;

struct regset {
	pthread_rwlock_t lock;
	struct regset_snapshot *live;   /* under lock; NULL: nothing registered */
	/* I/O thread only: the list as the commands so far left it */
	struct reg **v;
	size_t n, cap, bytes;
	/* removed since the last publish: freed once no snapshot shows them */
	struct reg **gone;
	size_t ngone, gonecap;
};

void regset_init(struct regset *s);
/* Add a registration; SLOT >= 0: a RegisterSlot of the connection at index
 * CONN (inthread.h). -EINVAL (a bad pattern), -E2BIG (a bound), -ENOSPC
 * (no fire id left), -ENOMEM; ERR says which, for the peer. */
int regset_add(struct regset *s, unsigned conn, uint8_t kind, uint8_t events, int slot,
	       const char *text, uint32_t len, char *err, size_t errlen);
/* Remove every registration of KIND whose text is TEXT; how many. */
size_t regset_remove(struct regset *s, uint8_t kind, const char *text, uint32_t len);
void regset_clear(struct regset *s);
/* Make the list what matching sees; EV_BITS gets, per wire_kind, the union
 * of the registered events. -ENOMEM: the snapshot before stays. */
int regset_publish(struct regset *s, uint8_t ev_bits[4]);
/* At close: nothing registered, everything freed. */
void regset_free(struct regset *s);

/* The line registrations (":LINE", pattern.h) that select line L of the
 * method WIRE[0..N) where L is none of LINES[0..NL) (increasing: the lines
 * the method has code on), each once for the registration's life: FN gets
 * its text and L after the read lock is released (FN may take locks). At
 * most 4 a call. */
void regset_lines_without_code(struct regset *s, const char *wire, size_t n, const uint32_t *lines, size_t nl,
			       void (*fn)(void *ctx, const char *text, uint32_t line), void *ctx);

/* Some registration is a root method pattern ("^C.m", lineage.h). */
bool regset_has_roots(struct regset *s);
/* FN(root) once for each distinct root of the registrations that class
 * DOTTED descends from (lineage.h; not DOTTED itself), as they stood when
 * called: the roots are copied under the read lock, FN called without it;
 * returns how many. */
size_t regset_roots_above(struct regset *s, const char *dotted, size_t len,
			  void (*fn)(void *ctx, const char *root, size_t rlen), void *ctx);

/* The method events (WIRE_METHOD_*) the registrations selecting wire method
 * NAME want; with FIRE, the fire ids of those of slots, per event bit (i < 3). */
uint8_t regset_match_method(struct regset *s, const char *name, size_t len, struct fire_set fire[3]);
/* The events of KIND the registrations selecting class signature SIG want;
 * with FIRE, the fire ids of those of slots with event BIT. */
uint8_t regset_match_class(struct regset *s, uint8_t kind, uint8_t bit, const char *sig, size_t len,
			   struct fire_set *fire);
/* Might a method registration for one of EVENTS select a method of class
 * DOTTED (Java form)? False only when none can (pattern.h's prefix test). */
bool regset_may_select_class(struct regset *s, uint8_t events, const char *dotted, size_t len);

#endif

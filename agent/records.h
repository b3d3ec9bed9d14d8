/* records.h: which methods of which loaded class carry injected calls.
 *
 * Why: a class is retransformed only when a wanted method lacks a call it
 * needs, and only the classes that were changed are restored when the last
 * method registration goes; a method the rewriter refused is remembered so
 * its events come another way (fallback.h) instead of a retransform per
 * registration.
 *
 * Contract: one record per (class signature, defining loader's identity
 * hash), replaced whole by records_set(); names are wire method names, each
 * with its REC_* flags. Thread-safe (one lock, never held across JNI or
 * JVMTI); records_flags() copies nothing out but the flags.
 */
#ifndef STAPJAVA_AGENT_RECORDS_H
#define STAPJAVA_AGENT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* REC_REFUSED: no calls, fallback.h reports it; REC_SKIPPED: no calls and not
 * reported at all (an empty finalize(), which the VM never calls). */
enum { REC_ENTER = 1, REC_EXIT = 2, REC_REFUSED = 4, REC_SKIPPED = 8 };

/* A record being built: NUL-terminated names, each followed by a flags byte. */
struct record_names {
	char *buf;
	size_t size, cap, n;
	bool nomem;
};

void record_names_add(struct record_names *rn, const char *name, size_t len, uint8_t flags);
void record_names_free(struct record_names *rn);
/* Replace the record of SIG/LOADER_HASH with RN (taken over; emptied); no names drops it. */
void records_set(const char *sig, uint32_t loader_hash, struct record_names *rn);
/* -1: the class has no record; else NAME's flags (0: no call in it). */
int records_flags(const char *sig, uint32_t loader_hash, const char *name);
size_t records_count(void);
void records_clear(void);

#endif

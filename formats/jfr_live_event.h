/* jfr_live_event.h: one JFR event record resolved into a struct
 * jfr_live_event, for jfr_live.c: its fields flattened to paths, its
 * constants followed, its stack trace as frames, its times in nanoseconds.
 *
 * Contract: the record's bytes and the constants it refers to are in CH
 * (its metadata read, its checkpoints indexed). Every read is bounded by
 * CH->end and by the record's budget (CH->budget, set by the caller);
 * nesting by JFR_LIVE_MAX_DEPTH, the fields by JFR_LIVE_MAX_FIELDS and a
 * path's length by JFR_LIVE_MAX_PATH (-E2BIG); -EINVAL with ERR naming what
 * and where; -ENOMEM. The strings and paths live in the jfr_live_flat until
 * the next event is resolved in it.
 */
#ifndef STAPJAVA_JFR_LIVE_EVENT_H
#define STAPJAVA_JFR_LIVE_EVENT_H

#include "jfr_live.h"
#include "rec_jfr_parse.h"

struct jfr_live_flat {
	struct jfr_buf text;          /* paths and string values, by offset while built */
	struct jfr_live_field *fields;
	size_t nfields, capfields, cappath, capstr;
	size_t *field_path, *field_str;   /* offsets in text; SIZE_MAX: none */
	struct jfr_live_frame *frames;
	size_t nframes, capframes, capftext;
	size_t *frame_text;           /* 3 offsets a frame: method, descriptor, type */
	char path[JFR_LIVE_MAX_PATH + 1];
	size_t plen;
	const uint8_t *roles;         /* per field of the metadata: JFR_LIVE_ROLE_* (jfr_live_roles) */
	bool strict;                  /* an absent constant makes the event unresolved */
	bool unresolved;
	int64_t start_ns;             /* the chunk's start (its header) */
};

void jfr_live_flat_free(struct jfr_live_flat *fl);

/* What a field is for the struct jfr_live_event, found once per metadata:
 * *ROLES (malloc'd) has one per field of CH. An event's own fields have
 * the first four; any other field whose name a stack trace's walk reads has
 * its name's (JFR_LIVE_NAME_*), so that no frame compares strings. */
enum {
	JFR_LIVE_ROLE_OTHER, JFR_LIVE_ROLE_START, JFR_LIVE_ROLE_DURATION, JFR_LIVE_ROLE_STACK, JFR_LIVE_ROLE_THREAD,
	JFR_LIVE_NAME_FRAMES, JFR_LIVE_NAME_TRUNCATED, JFR_LIVE_NAME_METHOD, JFR_LIVE_NAME_TYPE,
	JFR_LIVE_NAME_LINE, JFR_LIVE_NAME_NAME, JFR_LIVE_NAME_DESCRIPTOR,
};
int jfr_live_roles(const struct jfr_chunk *ch, uint8_t **roles);

/* The event record at AT (its size and type read again) of class CLS into
 * *EV, with FL->roles those of CH's metadata. STRICT: 1 (and nothing in *EV) when a constant it refers to is in
 * no pool of CH yet; otherwise such a constant is a null. */
int jfr_live_resolve(struct jfr_live_flat *fl, struct jfr_chunk *ch, size_t at, uint32_t cls, bool strict,
		     struct jfr_live_event *ev, struct record_error *err);

/* The paths of an event class's fields, as jfr_live_resolve gives them,
 * without values: an array's elements as "name[]", a class already on the
 * way down as its own path (no value says how deep it goes). At most
 * JFR_LIVE_MAX_FIELDS; *PATHS point into FL's text. */
int jfr_live_type_paths(struct jfr_live_flat *fl, const struct jfr_chunk *ch, uint32_t cls, const char ***paths,
			size_t *npaths);

/* ---- between jfr_live_event.c and jfr_live_stack.c */
#define JFR_LIVE_NONE SIZE_MAX   /* no text: null */

struct jfr_live_walk {
	struct jfr_live_flat *fl;
	struct jfr_chunk *ch;
	struct record_error *err;
};

/* One value read: -EINVAL (and ERR) once the event's budget is spent. */
int jfr_live_take(struct jfr_live_walk *w, const struct jfr_cursor *c);
/* Text into FL's: its offset, JFR_LIVE_NONE when memory ran out. */
size_t jfr_live_text_put(struct jfr_live_flat *fl, const char *p, size_t n);
const char *jfr_live_text_at(const struct jfr_live_flat *fl, size_t at, const char *none);
/* A string at C, a pooled one followed: *OUT its offset (JFR_LIVE_NONE: null). */
int jfr_live_string(struct jfr_live_walk *w, struct jfr_cursor *c, size_t *out, size_t *len);
/* A constant pool reference to class CLS at C: *OUT where its value is (*FOUND false: in no pool). */
int jfr_live_deref(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, struct jfr_cursor *out, bool *found);
/* -E2BIG when DEPTH reaches JFR_LIVE_MAX_DEPTH. */
int jfr_live_deeper(struct jfr_live_walk *w, const struct jfr_cursor *c, unsigned depth);
void jfr_live_path_pop(struct jfr_live_flat *fl, size_t saved);
int jfr_live_grow_fields(struct jfr_live_flat *fl, size_t need);
/* The stackTrace field F at C into EV's frames and stack_truncated. */
int jfr_live_stack(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f,
		   struct jfr_live_event *ev);

#endif

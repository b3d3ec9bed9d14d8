/* rec_jfr_parse.h: reading a JFR chunk from untrusted bytes -- its header,
 * its metadata (the classes and their fields) and an index of its constant
 * pools -- and the values of its records, for the reader (rec_jfr_read.c).
 *
 * Contract: nothing is trusted. Every read is bounded by the chunk (or the
 * record) it is in; recursion (the metadata's elements, values nested in
 * values) is bounded by depth, and the values one record may hold by a
 * budget, so a crafted file cannot make the parser loop or recurse without
 * end. A failure returns -EINVAL with ERR naming what was wrong and the
 * file offset where (ENOMEM: -ENOMEM). The parser knows JFR's rules, not
 * our types: the caller gives the class names it wants and, per class, the
 * field names it reads (struct jfr_role); other classes are skipped.
 */
#ifndef STPD_BRIDGE_REC_JFR_PARSE_H
#define STPD_BRIDGE_REC_JFR_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_jfr_bytes.h"
#include "record.h"

#define JFR_MAX_WANT 16u      /* fields a role reads */
#define JFR_NO_CLASS UINT32_MAX

enum jfr_prim {
	JFR_P_STRUCT, JFR_P_BOOLEAN, JFR_P_BYTE, JFR_P_CHAR, JFR_P_SHORT, JFR_P_INT, JFR_P_LONG,
	JFR_P_FLOAT, JFR_P_DOUBLE, JFR_P_STRING,
};

/* A class the caller reads: its name, and the names of the fields it reads
 * (NULL-terminated), which are found by name wherever the file puts them. */
struct jfr_role {
	const char *name;
	const char *fields[JFR_MAX_WANT + 1];
};

/* What a field's time annotation (@Timespan, @Timestamp) says its unit is. */
enum jfr_unit {
	JFR_U_NONE, JFR_U_SPAN_TICKS, JFR_U_SPAN_NS, JFR_U_SPAN_US, JFR_U_SPAN_MS, JFR_U_SPAN_S,
	JFR_U_STAMP_TICKS, JFR_U_STAMP_NS, JFR_U_STAMP_MS,
};

#define JFR_MAX_ANN 4u        /* annotations of a field the metadata reader keeps */

struct jfr_pfield {
	const char *name;
	uint32_t namelen;     /* strlen(name): a path is made of it for every value */
	uint64_t type_id;
	uint32_t type;        /* index in the chunk's classes */
	bool pool, array;
	bool is_unsigned;     /* @Unsigned */
	uint8_t unit;         /* enum jfr_unit */
	/* while the metadata is read: the annotations that may be one of those */
	uint8_t nann;
	uint8_t ann_unit[JFR_MAX_ANN];   /* the unit its value names, as a span */
	uint64_t ann_class[JFR_MAX_ANN];
};

struct jfr_pclass {
	uint64_t id;
	const char *name;
	uint32_t field0, nfields;
	uint8_t prim;         /* enum jfr_prim */
	bool event;           /* its super type is jdk.jfr.Event */
	bool simple;          /* simpleType: the JDK shows it as its only field */
	int16_t role;         /* index in the caller's roles, -1: none */
	int16_t want[JFR_MAX_WANT];   /* the role's fields: index among this class's, -1: absent */
};

struct jfr_pool_slot {
	uint32_t cls;         /* JFR_NO_CLASS: empty */
	uint64_t key;
	size_t pos;           /* the value's first byte in the file */
};

struct jfr_chunk {
	const uint8_t *data;  /* the whole file */
	size_t start, end;    /* this chunk's bytes */
	uint64_t ticks;       /* at its start, and per second */
	uint64_t freq;
	struct jfr_pclass *classes;
	uint32_t nclasses;
	struct jfr_pfield *fields;
	uint32_t nfields;
	struct jfr_pool_slot *pool;
	size_t pool_mask, npool;
	char *strings;        /* the metadata's strings, NUL-terminated UTF-8 */
	uint32_t string_class;   /* java.lang.String's index, JFR_NO_CLASS: none */
	uint64_t budget;      /* value reads left for the record being read */
	bool last_wins;       /* a key added again takes its new value (read forward) */
};

/* Parse the chunk at START of DATA[0..LEN): header, metadata, pools. With
 * ROLES[0..NROLES), each class gets its role and wanted fields. */
int jfr_chunk_parse(struct jfr_chunk *ch, const uint8_t *data, size_t len, size_t start,
		    const struct jfr_role *roles, size_t nroles, struct record_error *err);
void jfr_chunk_free(struct jfr_chunk *ch);

/* The class of type ID, JFR_NO_CLASS if the metadata has none. */
uint32_t jfr_class_index(const struct jfr_chunk *ch, uint64_t id);

/* Skip a value of class CLS at C->pos (POOL: a constant pool reference;
 * ARRAY: a count, then that many), DEPTH levels down. */
int jfr_skip_value(struct jfr_chunk *ch, struct jfr_cursor *c, uint32_t cls, bool pool, bool array, unsigned depth,
		   struct record_error *err);

/* The constant pools: the slot of (CLS, KEY) -- the empty slot where it
 * would go when absent (its cls JFR_NO_CLASS; NULL when there are no pools
 * yet) -- and adding one: the first value given for a key stays, or with
 * CH->last_wins the last. */
struct jfr_pool_slot *jfr_pool_find(const struct jfr_chunk *ch, uint32_t cls, uint64_t key);
int jfr_pool_add(struct jfr_chunk *ch, uint32_t cls, uint64_t key, size_t pos);
/* Index the constants of the checkpoint record at AT (it ends by CH->end);
 * *DELTA: its offset to the chunk's previous one (0: none); *KIND its
 * JFR_CHECKPOINT_* bits. */
int jfr_index_checkpoint(struct jfr_chunk *ch, size_t at, int64_t *delta, uint8_t *kind, struct record_error *err);

/* Before reading a record of RECORD_BYTES: the value reads it may cost. */
void jfr_set_budget(struct jfr_chunk *ch, size_t record_bytes);
/* Skip the fields of a value of class CLS at C->pos, noting where each of
 * the role's wanted fields starts (POS[k], 0 when the class has none). */
int jfr_read_fields(struct jfr_chunk *ch, uint32_t cls, struct jfr_cursor *c, size_t pos[JFR_MAX_WANT],
		    struct record_error *err);

/* A wanted field's value, read at POS[k] of a value of class CLS. */
bool jfr_has(const struct jfr_chunk *ch, uint32_t cls, unsigned k);
int jfr_get_long(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, int64_t *out,
		 struct record_error *err);
/* A string field, or the first string of the value a field refers to (a
 * Symbol's string, a FrameType's description). */
int jfr_get_text(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, struct jfr_text *out,
		 struct record_error *err);
/* The value a field holds or refers to: its class and where it starts;
 * *CLS_OUT JFR_NO_CLASS for null (or a key the pools do not have). */
int jfr_get_ref(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, uint32_t *cls_out,
		size_t *at, struct record_error *err);
/* An array field: its element count, and where the first element starts. */
int jfr_get_array(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, uint64_t *count,
		  size_t *first, struct record_error *err);
/* The element of an array field at C->pos: its class and where its value
 * starts (following a pool reference; JFR_NO_CLASS: null); C moves past it. */
int jfr_array_element(struct jfr_chunk *ch, uint32_t cls, unsigned k, struct jfr_cursor *c, uint32_t *ecls,
		      size_t *at, struct record_error *err);
/* The class index of an array or struct field's elements. */
uint32_t jfr_field_class(const struct jfr_chunk *ch, uint32_t cls, unsigned k);

/* ERR says what was wrong at OFFSET, in one line (a control byte is '?'); -EINVAL. */
int jfr_fail(struct record_error *err, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "WHAT runs past the end of its record", at C's position. */
int jfr_cut(struct record_error *err, const struct jfr_cursor *c, const char *what);

/* For rec_jfr_meta.c: a string at C (a pool reference is left to the
 * caller: *POOL_KEY), and the start of a record WHAT of type TYPE: its
 * size checked against C->end, which becomes the record's end. */
int jfr_read_string(struct jfr_cursor *c, struct jfr_text *t, uint64_t *pool_key, struct record_error *err);
int jfr_record_start(struct jfr_cursor *c, uint64_t type, struct record_error *err, const char *what);

#endif

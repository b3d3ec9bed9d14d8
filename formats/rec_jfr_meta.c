/* rec_jfr_meta.c: see rec_jfr_meta.h. */
#include "rec_jfr_meta.h"
#include "rec_tables.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32u         /* elements within elements */

static const char *const prim_names[] = {
	[JFR_P_BOOLEAN] = "boolean", [JFR_P_BYTE] = "byte", [JFR_P_CHAR] = "char", [JFR_P_SHORT] = "short",
	[JFR_P_INT] = "int", [JFR_P_LONG] = "long", [JFR_P_FLOAT] = "float", [JFR_P_DOUBLE] = "double",
	[JFR_P_STRING] = "java.lang.String",
};

/* The chunk's classes sorted by id: ch->classes is in that order. */
static int by_id(const void *a, const void *b)
{
	const struct jfr_pclass *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The words the reader looks for among the metadata's strings: each string
 * gets its word once, and elements and attributes are told apart by it. */
enum word { W_OTHER, W_NAME, W_ID, W_CLASS, W_POOL, W_DIMENSION, W_SUPER, W_SIMPLE, W_VALUE, W_FIELD,
	    W_ANNOTATION, W_COUNT };
static const char *const words[W_COUNT] = {
	[W_NAME] = "name", [W_ID] = "id", [W_CLASS] = "class", [W_POOL] = "constantPool",
	[W_DIMENSION] = "dimension", [W_SUPER] = "superType", [W_SIMPLE] = "simpleType", [W_VALUE] = "value",
	[W_FIELD] = "field", [W_ANNOTATION] = "annotation",
};

struct meta_parse {
	struct jfr_chunk *ch;
	struct jfr_buf text;      /* the strings, each NUL-terminated */
	size_t *at;               /* string i starts at text.data + at[i] */
	uint8_t *word;            /* string i is enum word word[i] */
	uint64_t nstrings;
	size_t capclasses, capfields;
	struct record_error *err;
};

enum element_kind { EL_OTHER, EL_CLASS, EL_FIELD };

/* One string of the table, as UTF-8. */
static int meta_string(struct meta_parse *mp, struct jfr_cursor *c, size_t i)
{
	struct jfr_text t;
	uint64_t key;
	size_t at = c->pos;
	int rc = jfr_read_string(c, &t, &key, mp->err);

	if (rc < 0)
		return rc;
	if (t.enc == JFR_STR_POOL)
		return jfr_fail(mp->err, at, "a metadata string refers to a constant pool");
	mp->at[i] = mp->text.len;
	if (!jfr_buf_reserve(&mp->text, jfr_text_max(&t) + 1))
		return mp->text.error;
	mp->text.len += jfr_text_utf8(&t, (char *)mp->text.data + mp->text.len);
	jfr_put_u8(&mp->text, 0);
	mp->word[i] = W_OTHER;
	for (uint8_t w = W_NAME; w < W_COUNT && !mp->text.error && t.len <= 12; w++)   /* the words are short */
		if (strcmp((const char *)mp->text.data + mp->at[i], words[w]) == 0)
			mp->word[i] = w;
	return mp->text.error;
}

/* String index V, checked; its text is resolved once the table is complete. */
static int string_ref(struct meta_parse *mp, struct jfr_cursor *c, uint64_t *out)
{
	size_t at = c->pos;

	*out = jfr_get_varint(c);
	if (c->bad)
		return jfr_cut(mp->err, c, "a metadata element");
	if (*out >= mp->nstrings)
		return jfr_fail(mp->err, at, "string %" PRIu64 " of a metadata table of %" PRIu64, *out, mp->nstrings);
	return 0;
}

static const char *str(const struct meta_parse *mp, uint64_t i)
{
	return (const char *)mp->text.data + mp->at[i];
}

static bool parse_u64(const char *s, uint64_t *v)
{
	*v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || *v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return true;
}

/* The unit an annotation's value names (as a span; finish_classes makes
 * it a time stamp's when the annotation is @Timestamp). */
static uint8_t unit_named(const char *v)
{
	static const struct { const char *name; uint8_t unit; } units[] = {
		{ "TICKS", JFR_U_SPAN_TICKS }, { "NANOSECONDS", JFR_U_SPAN_NS }, { "MICROSECONDS", JFR_U_SPAN_US },
		{ "MILLISECONDS", JFR_U_SPAN_MS }, { "SECONDS", JFR_U_SPAN_S },
		{ "MILLISECONDS_SINCE_EPOCH", JFR_U_STAMP_MS }, { "NANOSECONDS_SINCE_EPOCH", JFR_U_STAMP_NS },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(v, units[i].name) == 0)
			return units[i].unit;
	return JFR_U_NONE;
}

static int element(struct meta_parse *mp, struct jfr_cursor *c, unsigned depth, enum element_kind parent)
{
	struct jfr_chunk *ch = mp->ch;
	size_t at = c->pos;
	uint64_t name, nattrs, nchildren, v;
	const char *attr[W_COUNT] = { NULL };
	enum element_kind kind = EL_OTHER;
	int rc;

	if (depth > MAX_DEPTH)
		return jfr_fail(mp->err, at, "metadata elements nested deeper than %u", MAX_DEPTH);
	if ((rc = string_ref(mp, c, &name)) < 0)
		return rc;
	nattrs = jfr_get_varint(c);
	if (c->bad || nattrs > (c->end - c->pos) / 2)
		return jfr_fail(mp->err, at, "a metadata element with more attributes than bytes");
	for (uint64_t i = 0; i < nattrs; i++) {
		uint64_t k;

		if ((rc = string_ref(mp, c, &k)) < 0 || (rc = string_ref(mp, c, &v)) < 0)
			return rc;
		attr[mp->word[k]] = str(mp, v);
	}
	/* a class is any "class" element but one inside a class; a field,
	 * a "field" right inside a class */
	if (mp->word[name] == W_CLASS && parent != EL_CLASS && parent != EL_FIELD) {
		struct jfr_pclass *k;

		if (!attr[W_NAME] || !attr[W_ID] || !parse_u64(attr[W_ID], &v))
			return jfr_fail(mp->err, at, "a metadata class without a name or a numeric id");
		if (ch->nclasses == UINT32_MAX ||
		    rec_grow((void **)&ch->classes, &mp->capclasses, (size_t)ch->nclasses + 1, sizeof *ch->classes) < 0)
			return -ENOMEM;
		k = &ch->classes[ch->nclasses++];
		memset(k, 0, sizeof *k);
		k->id = v;
		k->name = attr[W_NAME];
		k->field0 = ch->nfields;
		k->event = attr[W_SUPER] && strcmp(attr[W_SUPER], "jdk.jfr.Event") == 0;
		k->simple = attr[W_SIMPLE] && strcmp(attr[W_SIMPLE], "true") == 0;
		kind = EL_CLASS;
	} else if (mp->word[name] == W_FIELD && parent == EL_CLASS) {
		struct jfr_pfield *f;

		if (!attr[W_NAME] || !attr[W_CLASS] || !parse_u64(attr[W_CLASS], &v))
			return jfr_fail(mp->err, at, "a metadata field without a name or a numeric class");
		if (attr[W_DIMENSION] && strcmp(attr[W_DIMENSION], "1") != 0 && strcmp(attr[W_DIMENSION], "0") != 0)
			return jfr_fail(mp->err, at, "field %s has dimension %s: only 1 is read", attr[W_NAME],
					attr[W_DIMENSION]);
		if (ch->nfields == UINT32_MAX ||
		    rec_grow((void **)&ch->fields, &mp->capfields, (size_t)ch->nfields + 1, sizeof *ch->fields) < 0)
			return -ENOMEM;
		f = &ch->fields[ch->nfields++];
		memset(f, 0, sizeof *f);
		f->name = attr[W_NAME];
		f->type_id = v;
		f->pool = attr[W_POOL] && strcmp(attr[W_POOL], "true") == 0;
		f->array = attr[W_DIMENSION] && strcmp(attr[W_DIMENSION], "1") == 0;
		ch->classes[ch->nclasses - 1].nfields++;
		kind = EL_FIELD;
	} else if (mp->word[name] == W_ANNOTATION && parent == EL_FIELD) {
		struct jfr_pfield *f = &ch->fields[ch->nfields - 1];

		uint8_t unit = attr[W_VALUE] ? unit_named(attr[W_VALUE]) : JFR_U_NONE;

		/* only those that may be @Unsigned (no value), @Timespan or @Timestamp */
		if (attr[W_CLASS] && parse_u64(attr[W_CLASS], &v) && f->nann < JFR_MAX_ANN &&
		    (!attr[W_VALUE] || unit != JFR_U_NONE)) {
			f->ann_class[f->nann] = v;
			f->ann_unit[f->nann++] = unit;
		}
	}
	nchildren = jfr_get_varint(c);
	if (c->bad || nchildren > (c->end - c->pos) / 3)
		return jfr_fail(mp->err, at, "a metadata element with more children than bytes");
	for (uint64_t i = 0; i < nchildren; i++)
		if ((rc = element(mp, c, depth + 1, kind)) < 0)
			return rc;
	return 0;
}

/* A field's @Unsigned, @Timespan and @Timestamp, from its annotations. */
static void field_units(const struct jfr_chunk *ch, struct jfr_pfield *f)
{
	for (unsigned a = 0; a < f->nann; a++) {
		uint32_t k = jfr_class_index(ch, f->ann_class[a]);
		const char *name = k == JFR_NO_CLASS ? "" : ch->classes[k].name;
		uint8_t u = f->ann_unit[a];

		if (strcmp(name, "jdk.jfr.Unsigned") == 0)
			f->is_unsigned = true;
		else if (strcmp(name, "jdk.jfr.Timespan") == 0 && u >= JFR_U_SPAN_TICKS && u <= JFR_U_SPAN_S)
			f->unit = u;
		else if (strcmp(name, "jdk.jfr.Timestamp") == 0)
			f->unit = u == JFR_U_SPAN_TICKS ? JFR_U_STAMP_TICKS : u == JFR_U_SPAN_NS ? JFR_U_STAMP_NS :
				  u == JFR_U_STAMP_MS ? JFR_U_STAMP_MS : JFR_U_NONE;
	}
}

/* The table's text becomes the chunk's (names point into it); classes are
 * sorted, field types resolved, roles found. */
static int finish_classes(struct meta_parse *mp, size_t meta_at, const struct jfr_role *roles, size_t nroles)
{
	struct jfr_chunk *ch = mp->ch;

	ch->strings = (char *)mp->text.data;
	mp->text.data = NULL;
	/* the fields of class i are [field0, field0 + nfields): sorting moves classes, not fields */
	if (ch->nclasses)
		qsort(ch->classes, ch->nclasses, sizeof *ch->classes, by_id);
	for (uint32_t i = 0; i + 1 < ch->nclasses; i++)
		if (ch->classes[i].id == ch->classes[i + 1].id)
			return jfr_fail(mp->err, meta_at, "the metadata defines class %" PRIu64 " twice",
					ch->classes[i].id);
	ch->string_class = JFR_NO_CLASS;
	for (uint32_t i = 0; i < ch->nclasses; i++) {
		struct jfr_pclass *k = &ch->classes[i];

		k->prim = JFR_P_STRUCT;
		for (unsigned p = JFR_P_BOOLEAN; p <= JFR_P_STRING; p++)
			if (strcmp(k->name, prim_names[p]) == 0)
				k->prim = (uint8_t)p;
		if (k->prim == JFR_P_STRING)
			ch->string_class = i;
		k->role = -1;
		for (unsigned w = 0; w < JFR_MAX_WANT; w++)
			k->want[w] = -1;
		for (size_t r = 0; r < nroles && k->role < 0; r++) {
			if (strcmp(k->name, roles[r].name) != 0)
				continue;
			k->role = (int16_t)r;
			for (unsigned w = 0; w < JFR_MAX_WANT && roles[r].fields[w]; w++)
				for (uint32_t f = 0; f < k->nfields && f < INT16_MAX; f++)
					if (strcmp(ch->fields[k->field0 + f].name, roles[r].fields[w]) == 0) {
						k->want[w] = (int16_t)f;
						break;
					}
		}
	}
	for (uint32_t i = 0; i < ch->nfields; i++) {
		struct jfr_pfield *f = &ch->fields[i];

		f->namelen = (uint32_t)strlen(f->name);   /* within a chunk's 64 MiB */
		f->type = jfr_class_index(ch, f->type_id);
		if (f->type == JFR_NO_CLASS)
			return jfr_fail(mp->err, meta_at, "field %s has type %" PRIu64 ", which the metadata does not define",
					f->name, f->type_id);
		field_units(ch, f);
	}
	return 0;
}

int jfr_meta_read(struct jfr_chunk *ch, size_t at, const struct jfr_role *roles, size_t nroles,
		  struct record_error *err)
{
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	struct meta_parse mp = { .ch = ch, .err = err };
	int rc = jfr_record_start(&c, JFR_TYPE_METADATA, err, "the metadata event");

	if (rc < 0)
		return rc;
	jfr_get_varint(&c);   /* start time */
	jfr_get_varint(&c);   /* duration */
	jfr_get_varint(&c);   /* metadata id */
	mp.nstrings = jfr_get_varint(&c);
	if (c.bad || mp.nstrings > c.end - c.pos)
		return jfr_fail(err, at, "a metadata table of more strings than bytes");
	mp.at = malloc((size_t)(mp.nstrings ? mp.nstrings : 1) * sizeof *mp.at);
	mp.word = malloc((size_t)(mp.nstrings ? mp.nstrings : 1));
	if (!mp.at || !mp.word) {
		free(mp.at);
		free(mp.word);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < mp.nstrings && rc == 0; i++)
		rc = meta_string(&mp, &c, (size_t)i);
	if (rc == 0)
		rc = element(&mp, &c, 0, EL_OTHER);
	if (rc == 0)
		rc = finish_classes(&mp, at, roles, nroles);
	free(mp.at);
	free(mp.word);
	jfr_buf_free(&mp.text);
	return rc;
}


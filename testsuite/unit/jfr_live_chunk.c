/* jfr_live_chunk.c: see jfr_live_chunk.h. */
#include "jfr_live_chunk.h"

#include <string.h>

void jlc_header(struct jfr_buf *b)
{
	uint8_t h[JFR_HEADER_SIZE] = { 0 };

	memcpy(h, JFR_MAGIC, 4);
	jfr_store_be(h + 4, JFR_VERSION_MAJOR, 2);
	jfr_store_be(h + 6, JFR_VERSION_MINOR, 2);
	jfr_store_be(h + JFR_HDR_START_NS, JLC_START_NS, 8);
	jfr_store_be(h + JFR_HDR_TICKS, JLC_TICKS, 8);
	jfr_store_be(h + JFR_HDR_FREQ, JLC_FREQ, 8);
	h[JFR_HDR_STATE] = 1;
	jfr_store_be(h + JFR_HDR_FLAGS, JFR_FLAG_COMPRESSED_INTS, 2);
	jfr_put_bytes(b, h, sizeof h);
}

void jlc_record(struct jfr_buf *b, const struct jfr_buf *body)
{
	uint64_t n = body->len + 4;

	/* padded to 4 bytes, as the JDK writes a size it fills in afterwards */
	jfr_put_u8(b, (uint8_t)(0x80 | (n & 0x7F)));
	jfr_put_u8(b, (uint8_t)(0x80 | (n >> 7 & 0x7F)));
	jfr_put_u8(b, (uint8_t)(0x80 | (n >> 14 & 0x7F)));
	jfr_put_u8(b, (uint8_t)(n >> 21 & 0x7F));
	jfr_put_bytes(b, body->data, body->len);
}

void jlc_checkpoint_start(struct jfr_buf *body, uint8_t kind, uint64_t npools)
{
	jfr_put_varint(body, JFR_TYPE_CPOOL);
	jfr_put_varint(body, JLC_TICKS);
	jfr_put_varint(body, 0);
	jfr_put_varint(body, 0);      /* delta: the live parser reads forward */
	jfr_put_u8(body, kind);
	jfr_put_varint(body, npools);
}

void jlc_utf8(struct jfr_buf *b, const char *s)
{
	jfr_put_string(b, s, s ? strlen(s) : 0);
}

void jlc_latin1(struct jfr_buf *b, const uint8_t *s, size_t n)
{
	jfr_put_u8(b, JFR_STR_LATIN1);
	jfr_put_varint(b, n);
	jfr_put_bytes(b, s, n);
}

void jlc_utf16(struct jfr_buf *b, const uint16_t *units, size_t n)
{
	jfr_put_u8(b, JFR_STR_UTF16);
	jfr_put_varint(b, n);
	for (size_t i = 0; i < n; i++)
		jfr_put_varint(b, units[i]);
}

/* ---- the metadata: its string table, then its elements */
struct meta {
	const char *strings[128];
	size_t n;
	struct jfr_buf el;
};

static uint64_t intern(struct meta *m, const char *s)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->strings[i], s) == 0)
			return i;
	m->strings[m->n] = s;
	return m->n++;
}

/* An element NAME with NATTRS pairs of attributes and NCHILDREN to follow. */
static void element(struct meta *m, const char *name, size_t nchildren, size_t nattrs, const char *const *attrs)
{
	jfr_put_varint(&m->el, intern(m, name));
	jfr_put_varint(&m->el, nattrs);
	for (size_t i = 0; i < 2 * nattrs; i++)
		jfr_put_varint(&m->el, intern(m, attrs[i]));
	jfr_put_varint(&m->el, nchildren);
}

static void class_el(struct meta *m, const char *id, const char *name, const char *super, bool simple,
		     size_t nfields)
{
	const char *a[] = { "id", id, "name", name, super ? "superType" : "simpleType", super ? super : "true" };

	element(m, "class", nfields, super || simple ? 3 : 2, a);
}

/* A field: "p" in FLAGS for a constant pool, "a" for an array; ANN (an
 * annotation class id, NULL: none) with VALUE (NULL: none). */
static void field_el(struct meta *m, const char *name, const char *cls, const char *flags, const char *ann,
		     const char *value)
{
	const char *a[8] = { "name", name, "class", cls };
	size_t n = 2;

	if (strchr(flags, 'p')) {
		a[2 * n] = "constantPool";
		a[2 * n++ + 1] = "true";
	}
	if (strchr(flags, 'a')) {
		a[2 * n] = "dimension";
		a[2 * n++ + 1] = "1";
	}
	element(m, "field", ann ? 1 : 0, n, a);
	if (ann) {
		const char *aa[] = { "class", ann, "value", value };

		element(m, "annotation", 0, value ? 2 : 1, aa);
	}
}

#define S_(x) #x
#define S(x) S_(x)

struct field_def { const char *name, *cls, *flags, *ann, *value; };
struct class_def {
	const char *id, *name, *super;
	bool simple;
	struct field_def fields[17];
};

#define P(i, n) { .id = i, .name = n }
#define F(n, c, fl) { .name = n, .cls = c, .flags = fl }
#define FA(n, c, a, v) { .name = n, .cls = c, .flags = "", .ann = a, .value = v }
static const struct class_def classes[] = {
	P(S(JLC_LONG), "long"), P(S(JLC_INT), "int"), P(S(JLC_STRING), "java.lang.String"),
	P(S(JLC_BOOLEAN), "boolean"), P(S(JLC_FLOAT), "float"), P(S(JLC_DOUBLE), "double"),
	P(S(JLC_BYTE), "byte"), P(S(JLC_SHORT), "short"), P(S(JLC_CHAR), "char"),
	P(S(JLC_TIMESTAMP), "jdk.jfr.Timestamp"), P(S(JLC_TIMESPAN), "jdk.jfr.Timespan"),
	P(S(JLC_UNSIGNED), "jdk.jfr.Unsigned"),
	{ .id = S(JLC_THREAD), .name = "java.lang.Thread", .fields = {
	  F("osName", S(JLC_STRING), ""), F("osThreadId", S(JLC_LONG), ""), F("javaName", S(JLC_STRING), "") } },
	{ .id = S(JLC_SYMBOL), .name = "jdk.types.Symbol", .simple = true, .fields = {
	  F("string", S(JLC_STRING), "") } },
	{ .id = S(JLC_CLASS), .name = "java.lang.Class", .fields = { F("name", S(JLC_SYMBOL), "p") } },
	{ .id = S(JLC_PAIR), .name = "test.Pair", .fields = {
	  F("a", S(JLC_INT), ""), F("b", S(JLC_STRING), "") } },
	{ .id = S(JLC_NODE), .name = "test.Node", .fields = {
	  F("next", S(JLC_NODE), "p"), F("v", S(JLC_INT), "") } },
	{ .id = S(JLC_STACKTRACE), .name = "jdk.types.StackTrace", .fields = {
	  F("truncated", S(JLC_BOOLEAN), ""), F("frames", S(JLC_FRAME), "a") } },
	{ .id = S(JLC_FRAME), .name = "jdk.types.StackFrame", .fields = {
	  F("method", S(JLC_METHOD), "p"), F("lineNumber", S(JLC_INT), ""), F("type", S(JLC_FRAMETYPE), "p") } },
	{ .id = S(JLC_METHOD), .name = "jdk.types.Method", .fields = {
	  F("type", S(JLC_CLASS), "p"), F("name", S(JLC_SYMBOL), "p"), F("descriptor", S(JLC_SYMBOL), "p") } },
	{ .id = S(JLC_FRAMETYPE), .name = "jdk.types.FrameType", .simple = true, .fields = {
	  F("description", S(JLC_STRING), "") } },
	{ .id = S(JLC_EVERY), .name = "test.Every", .super = "jdk.jfr.Event", .fields = {
	  FA("startTime", S(JLC_LONG), S(JLC_TIMESTAMP), "TICKS"), FA("duration", S(JLC_LONG), S(JLC_TIMESPAN), "TICKS"),
	  F("eventThread", S(JLC_THREAD), "p"), F("stackTrace", S(JLC_STACKTRACE), "p"),
	  F("s", S(JLC_STRING), ""), F("n", S(JLC_INT), ""), FA("u", S(JLC_INT), S(JLC_UNSIGNED), NULL),
	  F("pair", S(JLC_PAIR), ""), F("arr", S(JLC_PAIR), "a"), F("cls", S(JLC_CLASS), "p"),
	  F("f", S(JLC_FLOAT), ""), F("d", S(JLC_DOUBLE), ""), F("b", S(JLC_BYTE), ""),
	  F("c", S(JLC_CHAR), ""), F("z", S(JLC_BOOLEAN), ""), F("sh", S(JLC_SHORT), ""),
	  FA("span", S(JLC_LONG), S(JLC_TIMESPAN), "MILLISECONDS") } },
	{ .id = S(JLC_CYCLE), .name = "test.Cycle", .super = "jdk.jfr.Event", .fields = {
	  FA("startTime", S(JLC_LONG), S(JLC_TIMESTAMP), "TICKS"), F("node", S(JLC_NODE), "p") } },
};

void jlc_metadata(struct jfr_buf *b)
{
	const size_t nclasses = sizeof classes / sizeof classes[0];
	struct meta m = { .n = 0 };
	struct jfr_buf body = { 0 };

	element(&m, "root", nclasses, 0, NULL);
	for (size_t i = 0; i < nclasses; i++) {
		const struct class_def *c = &classes[i];
		size_t n = 0;

		while (n < 17 && c->fields[n].name)
			n++;
		class_el(&m, c->id, c->name, c->super, c->simple, n);
		for (size_t f = 0; f < n; f++)
			field_el(&m, c->fields[f].name, c->fields[f].cls, c->fields[f].flags, c->fields[f].ann,
				 c->fields[f].value);
	}

	jfr_put_varint(&body, JFR_TYPE_METADATA);
	jfr_put_varint(&body, JLC_TICKS);
	jfr_put_varint(&body, 0);
	jfr_put_varint(&body, 1);     /* metadata id */
	jfr_put_varint(&body, m.n);
	for (size_t i = 0; i < m.n; i++)
		jlc_utf8(&body, m.strings[i]);
	jfr_put_bytes(&body, m.el.data, m.el.len);
	jlc_record(b, &body);
	jfr_buf_free(&body);
	jfr_buf_free(&m.el);
}

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
	jlc_metadata_renamed(b, NULL);
}

void jlc_metadata_renamed(struct jfr_buf *b, const char *pair)
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
		for (size_t f = 0; f < n; f++) {
			const char *name = c->fields[f].name;

			if (pair && strcmp(name, "pair") == 0)
				name = pair;
			field_el(&m, name, c->fields[f].cls, c->fields[f].flags, c->fields[f].ann, c->fields[f].value);
		}
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

/* ---- the constants and events the tests use */
static void put_be32(struct jfr_buf *b, uint32_t v)
{
	uint8_t x[4];

	jfr_store_be(x, v, 4);
	jfr_put_bytes(b, x, 4);
}

size_t jlc_constants(struct jfr_buf *b)
{
	static const uint16_t inlined[] = { 'I', 'n', 'l', 'i', 'n', 'e', 'd' };
	static const uint8_t cafe[] = { 'c', 'a', 'f', 0xE9 };
	struct jfr_buf body = { 0 };
	size_t second;

	jlc_checkpoint_start(&body, 0, 2);
	jfr_put_varint(&body, JLC_STRING);   /* a pooled string */
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 7);
	jlc_utf8(&body, "pooled");
	jfr_put_varint(&body, JLC_THREAD);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 1);
	jlc_utf8(&body, "os-1");
	jfr_put_varint(&body, 4242);
	jlc_latin1(&body, cafe, sizeof cafe);
	jlc_record(b, &body);
	second = b->len;
	body.len = 0;
	jlc_checkpoint_start(&body, JFR_CHECKPOINT_FLUSH | JFR_CHECKPOINT_HEADER, 6);
	jfr_put_varint(&body, JLC_SYMBOL);
	jfr_put_varint(&body, 3);
	jfr_put_varint(&body, 10);
	jlc_utf8(&body, "java/lang/Thread");
	jfr_put_varint(&body, 11);
	jlc_utf8(&body, "run");
	jfr_put_varint(&body, 12);
	jlc_utf8(&body, "()V");
	jfr_put_varint(&body, JLC_FRAMETYPE);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 1);
	jlc_utf16(&body, inlined, 7);
	jfr_put_varint(&body, JLC_CLASS);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 5);
	jfr_put_varint(&body, 10);
	jfr_put_varint(&body, JLC_METHOD);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 3);
	jfr_put_varint(&body, 5);
	jfr_put_varint(&body, 11);
	jfr_put_varint(&body, 12);
	jfr_put_varint(&body, JLC_STACKTRACE);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 9);
	jfr_put_u8(&body, 1);                /* truncated */
	jfr_put_varint(&body, 1);            /* one frame */
	jfr_put_varint(&body, 3);
	jfr_put_varint(&body, 77);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, JLC_NODE);     /* a cycle: 1 -> 2 -> 1 */
	jfr_put_varint(&body, 2);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 2);
	jfr_put_varint(&body, 100);
	jfr_put_varint(&body, 2);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, 200);
	jlc_record(b, &body);
	jfr_buf_free(&body);
	return second;
}

void jlc_every(struct jfr_buf *b, uint64_t thread)
{
	struct jfr_buf body = { 0 };

	jfr_put_varint(&body, JLC_EVERY);
	jfr_put_varint(&body, JLC_TICKS + 1000);
	jfr_put_varint(&body, 250);
	jfr_put_varint(&body, thread);
	jfr_put_varint(&body, 9);
	jfr_put_u8(&body, JFR_STR_POOL);
	jfr_put_varint(&body, 7);
	jfr_put_int(&body, -5);
	jfr_put_int(&body, -5);              /* u: @Unsigned */
	jfr_put_varint(&body, 3);            /* pair {3, null} */
	jfr_put_u8(&body, JFR_STR_NULL);
	jfr_put_varint(&body, 2);            /* arr */
	jfr_put_varint(&body, 1);
	jlc_utf8(&body, "x");
	jfr_put_varint(&body, 2);
	jfr_put_u8(&body, JFR_STR_EMPTY);
	jfr_put_varint(&body, 5);            /* cls */
	put_be32(&body, 0x3FC00000);         /* 1.5f */
	put_be32(&body, 0xC0020000);         /* -2.25 */
	put_be32(&body, 0);
	jfr_put_u8(&body, 0xFF);             /* b: -1 */
	jfr_put_varint(&body, 0xE9);         /* c */
	jfr_put_u8(&body, 1);
	jfr_put_varint(&body, (uint64_t)(int64_t)-2);   /* sh: sign-extended to 64 bits */
	jfr_put_varint(&body, 3);            /* span: 3 ms */
	jlc_record(b, &body);
	jfr_buf_free(&body);
}

void jlc_cycle(struct jfr_buf *b)
{
	struct jfr_buf body = { 0 };

	jfr_put_varint(&body, JLC_CYCLE);
	jfr_put_varint(&body, JLC_TICKS);
	jfr_put_varint(&body, 1);
	jlc_record(b, &body);
	jfr_buf_free(&body);
}

void jlc_begin(struct jfr_buf *b)
{
	jlc_header(b);
	jlc_metadata(b);
}

void jlc_usual(struct jfr_buf *b)
{
	jlc_begin(b);
	jlc_every(b, 1);
	jlc_constants(b);
}

void jlc_thread(struct jfr_buf *b, uint64_t key, const char *name)
{
	struct jfr_buf body = { 0 };

	jlc_checkpoint_start(&body, JFR_CHECKPOINT_FLUSH, 1);
	jfr_put_varint(&body, JLC_THREAD);
	jfr_put_varint(&body, 1);
	jfr_put_varint(&body, key);
	jlc_utf8(&body, name);
	jfr_put_varint(&body, key);
	jlc_utf8(&body, name);
	jlc_record(b, &body);
	jfr_buf_free(&body);
}

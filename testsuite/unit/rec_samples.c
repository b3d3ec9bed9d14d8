/* rec_samples.c: see rec_samples.h. */
#define _GNU_SOURCE
#include "rec_samples.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define S(s) ((struct wire_str){ (s), (uint32_t)sizeof(s) - 1 })

enum { MAIN = 100, WORKER = 101, CART = 102, VM_THREAD = 7, OTHER_MAIN = 200 };
enum { PID = 4242, OTHER_PID = 4343 };

static const struct wire_str shop_main = S("com.acme.Shop.main([Ljava/lang/String;)V");
static const struct wire_str object_init = S("java.lang.Object.<init>()V");
static const struct wire_str shop_price = S("com.acme.Shop.price(ILjava/lang/String;)J");
static const struct wire_str shop_work = S("com.acme.Shop.work()V");
static const struct wire_str cart_add = S("com.acme.Shop$Cart.add(Ljava/lang/Object;)Z");

static struct wire_value integer(uint8_t type, int64_t v)
{
	return (struct wire_value){ .type = type, .v.i = v };
}

static struct wire_value string(struct wire_str s)
{
	return (struct wire_value){ .type = WIRE_T_STRING, .str = s };
}

static void name_thread(struct print_meta *m, struct wire_str name)
{
	m->thread_name = name.ptr;
	m->thread_name_len = name.len;
}

/* The stack of the monitor events on WORKER: in work(), called by run(). */
static void worker_stack(struct wire_trailer *t)
{
	t->flags |= WIRE_TF_STACK;
	t->depth = 2;
	t->frames[0] = (struct wire_frame){ S("com.acme.Shop.work()V"), 12, S("Shop.java") };
	t->frames[1] = (struct wire_frame){ S("com.acme.Shop.run()V"), 30, S("Shop.java") };
}

void rec_sample_event(size_t i, struct print_meta *m, struct wire_event *ev)
{
	static const unsigned codes[REC_SAMPLE_EVENTS] = {
		WIRE_EV_VM_INIT, WIRE_EV_THREAD_START, WIRE_EV_CLASS_LOAD, WIRE_EV_METHOD_ENTER,
		WIRE_EV_METHOD_ENTER, WIRE_EV_METHOD_EXIT, WIRE_EV_METHOD_ENTER, WIRE_EV_METHOD_EXIT,
		WIRE_EV_THREAD_START, WIRE_EV_METHOD_ENTER, WIRE_EV_MONITOR_ENTER, WIRE_EV_MONITOR_ENTERED,
		WIRE_EV_GC_START, WIRE_EV_GC_FINISH, WIRE_EV_EXCEPTION_THROWN, WIRE_EV_METHOD_EXIT,
		WIRE_EV_MONITOR_WAIT, WIRE_EV_MONITOR_WAITED, WIRE_EV_LOST, WIRE_EV_METHOD_EXIT,
		WIRE_EV_THREAD_END, WIRE_EV_CLASS_PREPARE, WIRE_EV_CLASS_LOAD, WIRE_EV_METHOD_ENTER,
		WIRE_EV_METHOD_EXIT, WIRE_EV_THREAD_START, WIRE_EV_METHOD_ENTER, WIRE_EV_METHOD_EXIT,
		WIRE_EV_GC_START, WIRE_EV_VM_DEATH,
	};
	static const uint64_t tids[REC_SAMPLE_EVENTS] = {
		MAIN, MAIN, MAIN, MAIN, MAIN, MAIN, MAIN, MAIN, WORKER, WORKER,
		WORKER, WORKER, VM_THREAD, VM_THREAD, WORKER, WORKER, MAIN, MAIN, MAIN, MAIN,
		WORKER, MAIN, MAIN, CART, CART, OTHER_MAIN, OTHER_MAIN, OTHER_MAIN, VM_THREAD, MAIN,
	};

	memset(m, 0, sizeof *m);
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->retval = (struct wire_value){ .type = WIRE_T_NONE };
	ev->code = codes[i];
	m->pid = i >= 25 && i <= 27 ? OTHER_PID : PID;
	m->tid = tids[i];
	m->ts_ns = REC_SAMPLE_START_NS + 1000 * (i + 1);
	ev->thread = m->tid;
	ev->has_trailer = true;
	ev->trailer = (struct wire_trailer){ .seq = i + 1, .timestamp_ns = m->ts_ns, .os_tid = (uint32_t)m->tid };
	switch (i) {
	case 1: case 25:
		name_thread(m, S("main"));
		break;
	case 8: case 20:
		name_thread(m, S("worker-1"));
		break;
	case 2: case 21:
		ev->name = S("Lcom/acme/Shop;");
		break;
	case 22:
		ev->name = S("Lcom/acme/Shop$Cart;");
		break;
	case 3:
		ev->name = shop_main;
		ev->nvalues = 1;
		ev->values[0] = (struct wire_value){ .type = WIRE_T_ARRAY, .str = S("[Ljava/lang/String;"),
						     .object_id = 5, .aux = 0 };
		break;
	case 4: case 5:
		ev->name = object_init;
		ev->retval = (struct wire_value){ .type = WIRE_T_VOID };
		break;
	case 6: case 26:
		ev->name = shop_price;
		ev->nvalues = 2;
		ev->values[0] = integer(WIRE_T_INT, i == 6 ? 3 : 1);
		ev->values[1] = string(i == 6 ? S("apple") : S("pear"));
		break;
	case 7: case 27:
		ev->name = shop_price;
		ev->retval = integer(WIRE_T_LONG, i == 7 ? 42 : 7);
		break;
	case 9:
		ev->name = shop_work;
		break;
	case 10:
		ev->object = 77;
		worker_stack(&ev->trailer);
		ev->trailer.flags |= WIRE_TF_MONITOR;
		ev->trailer.monitor_class = S("Ljava/lang/Object;");
		ev->trailer.owner_tid = MAIN;
		ev->trailer.owner_name = S("main");
		m->owner_tid = MAIN;
		break;
	case 11:
		ev->object = 77;
		worker_stack(&ev->trailer);
		break;
	case 14:
		ev->name = S("Ljava/lang/IllegalStateException;");
		ev->method = shop_work;
		break;
	case 15:
		ev->name = shop_work;
		ev->popped = true;
		break;
	case 16: case 17:
		ev->object = 78;
		ev->u32 = 500;
		ev->trailer.flags |= WIRE_TF_STACK | (i == 17 ? WIRE_TF_TIMED_OUT : 0);
		ev->trailer.depth = 1;
		ev->trailer.frames[0] = (struct wire_frame){ S("java.lang.Object.wait(J)V"), -2, S("") };
		break;
	case 18:
		ev->lost = 3;
		break;
	case 19:
		ev->name = shop_main;
		ev->retval = (struct wire_value){ .type = WIRE_T_VOID };
		break;
	case 23:
		ev->name = cart_add;
		ev->nvalues = 1;
		ev->values[0] = (struct wire_value){ .type = WIRE_T_OBJECT, .str = S("Lcom/acme/Item;"),
						     .object_id = 9, .aux = 0xbeef };
		break;
	case 24:
		ev->name = cart_add;
		ev->retval = integer(WIRE_T_BOOLEAN, 1);
		break;
	default:
		break;
	}
}

uint64_t rec_sample_lost_ts(void)
{
	return REC_SAMPLE_START_NS + 1000 * (REC_SAMPLE_LOST_AFTER + 1) + 500;
}

struct sample_range {
	size_t n;
};

/* The events, with the bridge's loss after REC_SAMPLE_LOST_AFTER. */
static int sample_source(void *ctx, size_t i, struct print_meta *meta, struct wire_event *ev)
{
	size_t event = i > REC_SAMPLE_LOST_AFTER ? i - 1 : i;

	if (event >= ((struct sample_range *)ctx)->n)
		return 0;
	if (i == REC_SAMPLE_LOST_AFTER + 1) {
		memset(meta, 0, sizeof *meta);
		meta->ts_ns = rec_sample_lost_ts();
		ev->lost = REC_SAMPLE_LOST_COUNT;
		return REC_SAMPLE_BRIDGE_LOSS;
	}
	rec_sample_event(event, meta, ev);
	return 1;
}

static int memfd_bytes(int fd, uint8_t **data, size_t *len)
{
	struct stat st;
	ssize_t got;

	if (fstat(fd, &st) < 0)
		return -errno;
	*len = (size_t)st.st_size;
	if (!(*data = malloc(*len ? *len : 1)))
		return -ENOMEM;
	got = pread(fd, *data, *len, 0);
	if (got != (ssize_t)*len) {
		free(*data);
		return got < 0 ? -errno : -EIO;
	}
	return 0;
}

int rec_sample_record_from(const struct record_format *f, rec_sample_source each, void *ctx, uint8_t **data,
			   size_t *len)
{
	static struct wire_event ev;
	const struct record_info info = { REC_SAMPLE_START_NS, REC_SAMPLE_START_WALL_NS };
	struct record_out out = { .fd = memfd_create("rec-sample", MFD_CLOEXEC) };
	struct print_meta meta;
	void *state = calloc(1, f->state_size);
	int rc, end_rc;

	if (out.fd < 0 || !state) {
		free(state);
		if (out.fd >= 0)
			close(out.fd);
		return out.fd < 0 ? -errno : -ENOMEM;
	}
	rc = f->begin(state, &out, &info);
	for (size_t i = 0; rc == 0; i++) {
		int more = each(ctx, i, &meta, &ev);

		if (more <= 0) {
			rc = more;
			break;
		}
		if (more == REC_SAMPLE_BRIDGE_LOSS)
			rc = f->lost ? f->lost(state, &out, meta.ts_ns, ev.lost) : 0;
		else
			rc = f->event(state, &out, &meta, &ev);
	}
	end_rc = f->end(state, &out);
	if (rc == 0)
		rc = end_rc;
	if (rc == 0)
		rc = record_out_flush(&out);
	record_out_release(&out);
	free(state);
	if (rc == 0)
		rc = memfd_bytes(out.fd, data, len);
	close(out.fd);
	return rc;
}

int rec_sample_record(const struct record_format *f, size_t n, uint8_t **data, size_t *len)
{
	struct sample_range range = { n };

	return rec_sample_record_from(f, sample_source, &range, data, len);
}

struct lines {
	char *buf;
	size_t len, cap;
	char *line;
};

static int collect_line(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	struct lines *l = ctx;
	ssize_t n = print_event_line(l->line, PRINT_LINE_MAX, meta, ev);

	if (n < 0)
		return (int)n;
	if (l->len + (size_t)n + 1 > l->cap) {
		size_t cap = 2 * (l->len + (size_t)n + 1);
		char *p = realloc(l->buf, cap);

		if (!p)
			return -ENOMEM;
		l->buf = p;
		l->cap = cap;
	}
	memcpy(l->buf + l->len, l->line, (size_t)n + 1);
	l->len += (size_t)n;
	return 0;
}

int rec_sample_read(const struct record_format *f, const uint8_t *data, size_t len, char **lines,
		    struct record_error *err)
{
	struct lines l = { calloc(1, 1), 0, 1, malloc(PRINT_LINE_MAX) };
	int rc = l.buf && l.line ? f->read(data, len, collect_line, &l, err) : -ENOMEM;

	free(l.line);
	*lines = l.buf;
	return rc;
}

const char rec_sample_lines[] =
	"vm.init pid=4242 tid=100 ts=1000001000\n"
	"thread.start pid=4242 tid=100 ts=1000002000 thread=\"main\"\n"
	"class.load pid=4242 tid=100 ts=1000003000 class=com.acme.Shop\n"
	"method.enter pid=4242 tid=100 ts=1000004000 method=com.acme.Shop.main([Ljava/lang/String;)V "
	"args=java.lang.String[0]#5\n"
	"method.enter pid=4242 tid=100 ts=1000005000 method=java.lang.Object.<init>()V args=\n"
	"method.return pid=4242 tid=100 ts=1000006000 method=java.lang.Object.<init>()V popped=0 ret=void\n"
	"method.enter pid=4242 tid=100 ts=1000007000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"args=3,\"apple\"\n"
	"method.return pid=4242 tid=100 ts=1000008000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=42\n"
	"thread.start pid=4242 tid=101 ts=1000009000 thread=\"worker-1\"\n"
	"method.enter pid=4242 tid=101 ts=1000010000 method=com.acme.Shop.work()V args=\n"
	"monitor.contended_enter pid=4242 tid=101 ts=1000011000 object=77 class=java.lang.Object owner=100 "
	"owner_thread=\"main\" stack=com.acme.Shop.work()V:12|com.acme.Shop.run()V:30\n"
	"monitor.contended_entered pid=4242 tid=101 ts=1000012000 object=77 "
	"stack=com.acme.Shop.work()V:12|com.acme.Shop.run()V:30\n"
	"gc.start pid=4242 tid=7 ts=1000013000\n"
	"gc.finish pid=4242 tid=7 ts=1000014000\n"
	"exception.thrown pid=4242 tid=101 ts=1000015000 exception=java.lang.IllegalStateException "
	"method=com.acme.Shop.work()V\n"
	"method.return pid=4242 tid=101 ts=1000016000 method=com.acme.Shop.work()V popped=1 ret=?\n"
	"monitor.wait pid=4242 tid=100 ts=1000017000 object=78 timeout_ms=500 stack=java.lang.Object.wait(J)V:-2\n"
	"monitor.waited pid=4242 tid=100 ts=1000018000 object=78 timeout_ms=500 timed_out=1 "
	"stack=java.lang.Object.wait(J)V:-2\n"
	"lost pid=4242 tid=100 ts=1000019000 lost=3\n"
	"method.return pid=4242 tid=100 ts=1000020000 method=com.acme.Shop.main([Ljava/lang/String;)V popped=0 "
	"ret=void\n"
	"thread.end pid=4242 tid=101 ts=1000021000 thread=\"worker-1\"\n"
	"class.prepare pid=4242 tid=100 ts=1000022000 class=com.acme.Shop\n"
	"class.load pid=4242 tid=100 ts=1000023000 class=com.acme.Shop$Cart\n"
	"method.enter pid=4242 tid=102 ts=1000024000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z "
	"args=com.acme.Item@beef#9\n"
	"method.return pid=4242 tid=102 ts=1000025000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z "
	"popped=0 ret=true\n"
	"thread.start pid=4343 tid=200 ts=1000026000 thread=\"main\"\n"
	"method.enter pid=4343 tid=200 ts=1000027000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"args=1,\"pear\"\n"
	"method.return pid=4343 tid=200 ts=1000028000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=7\n"
	"gc.start pid=4242 tid=7 ts=1000029000\n"
	"vm.death pid=4242 tid=100 ts=1000030000\n";

static uint8_t *rx_room(struct rec_expect *x, size_t n)
{
	uint8_t *p = x->b + x->n;

	if (x->n + n > REC_EXPECT_MAX)
		abort(); /* a test that expects more: raise REC_EXPECT_MAX */
	x->n += n;
	return p;
}

/* V's N low bytes in X's order. */
static void rx_int(struct rec_expect *x, uint64_t v, size_t n)
{
	uint8_t *p = rx_room(x, n);

	for (size_t i = 0; i < n; i++)
		p[x->big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

void rx_u8(struct rec_expect *x, uint8_t v)
{
	rx_int(x, v, 1);
}

void rx_u16(struct rec_expect *x, uint16_t v)
{
	rx_int(x, v, 2);
}

void rx_u32(struct rec_expect *x, uint32_t v)
{
	rx_int(x, v, 4);
}

void rx_u64(struct rec_expect *x, uint64_t v)
{
	rx_int(x, v, 8);
}

void rx_raw(struct rec_expect *x, const void *p, size_t n)
{
	memcpy(rx_room(x, n), p, n);
}

void rx_str16(struct rec_expect *x, const char *s)
{
	rx_u16(x, (uint16_t)strlen(s));
	rx_raw(x, s, strlen(s));
}

void rx_cstr(struct rec_expect *x, const char *s)
{
	rx_raw(x, s, strlen(s) + 1);
}

long rx_diff(const struct rec_expect *x, const uint8_t *data, size_t len)
{
	size_t n = len < x->n ? len : x->n;

	for (size_t i = 0; i < n; i++)
		if (data[i] != x->b[i])
			return (long)i;
	return len == x->n ? -1 : (long)n;
}

static struct {
	struct print_meta meta;
	struct wire_event ev;
	int kind;
} script[REC_SCRIPT_MAX];
static size_t nscript;

void rec_script_reset(void)
{
	nscript = 0;
}

static size_t script_next(void)
{
	if (nscript == REC_SCRIPT_MAX)
		abort(); /* a longer script: raise REC_SCRIPT_MAX */
	memset(&script[nscript].meta, 0, sizeof script[nscript].meta);
	memset(&script[nscript].ev, 0, offsetof(struct wire_event, values));
	script[nscript].ev.retval = (struct wire_value){ .type = WIRE_T_NONE };
	return nscript++;
}

struct wire_event *rec_script_add(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts, struct print_meta **meta)
{
	size_t i = script_next();
	struct wire_event *ev = &script[i].ev;

	script[i].kind = 1;
	script[i].meta = (struct print_meta){ .pid = pid, .tid = tid, .ts_ns = ts };
	ev->code = code;
	ev->thread = tid;
	ev->has_trailer = true;
	ev->trailer = (struct wire_trailer){ .seq = i + 1, .timestamp_ns = ts, .os_tid = (uint32_t)tid };
	if (meta)
		*meta = &script[i].meta;
	return ev;
}

void rec_script_add_loss(uint64_t ts, uint64_t count)
{
	size_t i = script_next();

	script[i].kind = REC_SAMPLE_BRIDGE_LOSS;
	script[i].meta.ts_ns = ts;
	script[i].ev.lost = count;
}

static int script_source(void *ctx, size_t i, struct print_meta *meta, struct wire_event *ev)
{
	(void)ctx;
	if (i >= nscript)
		return 0;
	*meta = script[i].meta;
	memcpy(ev, &script[i].ev, sizeof *ev);
	return script[i].kind;
}

int rec_script_record(const struct record_format *f, uint8_t **data, size_t *len)
{
	return rec_sample_record_from(f, script_source, NULL, data, len);
}

void rec_script_add_named(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts, const char *name)
{
	struct print_meta *m;

	rec_script_add(code, pid, tid, ts, &m);
	m->thread_name = name;
	m->thread_name_len = strlen(name);
}

void rec_script_add_method(unsigned code, uint64_t tid, uint64_t ts, const char *name)
{
	rec_script_add(code, PID, tid, ts, NULL)->name = (struct wire_str){ name, (uint32_t)strlen(name) };
}

long rec_script_diff(const struct record_format *f, const struct rec_expect *x, size_t *len)
{
	uint8_t *data;
	long d;

	if (rec_script_record(f, &data, len) < 0)
		return 0;
	d = rx_diff(x, data, *len);
	free(data);
	return d;
}

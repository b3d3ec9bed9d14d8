/* evstream.c: see evstream.h.
 *
 * The mix, per step of the generator (a step is a pair of events, or four
 * for a thread's life), by a fixed pseudo-random sequence (method events as
 * our agent sends them: each method named once, then by number with its
 * values; a MethodName counts as an event):
 *   70.0 %  the hot method: MethodEnter (2 ints) + MethodExit (an int)
 *   20.0 %  one of 24 library methods (java.util, java.lang, java.io),
 *           arguments and return value made from its descriptor
 *    7.0 %  one of 512 application methods (com.acme.shop.*): many
 *           distinct names, as a wide pattern selects
 *    1.0 %  ClassLoad + ClassPrepare      0.5 %  ExceptionThrown + Catch
 *    0.5 %  MonitorContendedEnter + Entered
 *    0.4 %  ThreadName + ThreadStarted + ThreadName + ThreadFinished
 *    0.6 %  GcStart + GcFinish
 * 1 % of the method exits are popped by an exception ('?'). Strings are
 * short (an order id); objects name a class from a small pool.
 */
#include "evstream.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

const char *const evstream_bridge_options[] = {
	"--fire", "--args", "--return", "--gc", "--threads",
	"--slot", "0:method.enter:" "bench.Hot.add",
	"--slot", "1:method.return:" "bench.Hot.add",
	"--slot", "2:method.enter:java.util.HashMap.*",
	"--slot", "3:method.return:java.util.*.get",
	"--slot", "4:method.enter:java.lang.StringBuilder.append",
	"--slot", "5:method.enter:com.acme.*",
	"--slot", "6:class.load:com.acme.*",
	"--slot", "7:exception.thrown:java.lang.*Exception",
	/* what the other events are registered by (no slot: as -m/-e would) */
	"-m", "java.*", "-m", "com.acme.*", "-c", "com.acme.*", "-e", "java.lang.*Exception",
	NULL,
};

static const char *const library_methods[] = {
	"java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;",
	"java.util.HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
	"java.util.HashMap.hash(Ljava/lang/Object;)I",
	"java.util.HashMap.getNode(Ljava/lang/Object;)Ljava/util/HashMap$Node;",
	"java.util.ArrayList.add(Ljava/lang/Object;)Z",
	"java.util.ArrayList.get(I)Ljava/lang/Object;",
	"java.util.ArrayList.size()I",
	"java.util.ArrayList.grow(I)[Ljava/lang/Object;",
	"java.lang.StringBuilder.append(Ljava/lang/String;)Ljava/lang/StringBuilder;",
	"java.lang.StringBuilder.append(I)Ljava/lang/StringBuilder;",
	"java.lang.StringBuilder.append(C)Ljava/lang/StringBuilder;",
	"java.lang.StringBuilder.toString()Ljava/lang/String;",
	"java.lang.String.charAt(I)C",
	"java.lang.String.length()I",
	"java.lang.String.equals(Ljava/lang/Object;)Z",
	"java.lang.String.hashCode()I",
	"java.lang.Integer.valueOf(I)Ljava/lang/Integer;",
	"java.lang.Math.max(JJ)J",
	"java.lang.Double.compare(DD)I",
	"java.io.BufferedWriter.write(Ljava/lang/String;II)V",
	"java.io.BufferedWriter.flushBuffer()V",
	"java.util.concurrent.ConcurrentHashMap.get(Ljava/lang/Object;)Ljava/lang/Object;",
	"java.util.Arrays.copyOf([BI)[B",
	"java.util.Objects.requireNonNull(Ljava/lang/Object;)Ljava/lang/Object;",
};
#define N_LIBRARY (sizeof library_methods / sizeof library_methods[0])

#define N_APP_CLASSES 64u
#define N_APP_METHODS 8u
static const char *const app_descriptors[N_APP_METHODS] = {
	"(Ljava/lang/String;J)V", "(I)Z", "()Ljava/lang/String;", "(Ljava/lang/Object;)V",
	"(JJ)J", "([BI)I", "()V", "(Ljava/lang/String;I)Ljava/lang/Object;",
};

static const char *const object_classes[] = {
	"Ljava/lang/Integer;", "Ljava/util/HashMap$Node;", "Lcom/acme/shop/Order;",
	"Ljava/lang/StringBuilder;",
};

#define N_THREADS 8u
#define TID0 5000u

/* method numbers (CAP_METHOD_IDS): the hot method, the library's, the application's */
#define N_NUMBERS (1u + N_LIBRARY + N_APP_CLASSES * N_APP_METHODS)

struct gen {
	uint64_t rng;
	bool named[N_NUMBERS];
	uint64_t seq, ts;
	bool sync;
	struct wire_peer peer;
	uint8_t *out;
	size_t len, cap;
	size_t events, nevents;
	char names[N_APP_CLASSES * N_APP_METHODS][96];
	char classes[N_APP_CLASSES][48];
	struct wire_event ev;
};

static uint64_t next(struct gen *g)
{
	uint64_t x = g->rng; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static unsigned below(struct gen *g, unsigned n)
{
	return (unsigned)(next(g) % n);
}

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

static int append(struct gen *g, const uint8_t *p, size_t n)
{
	if (g->len + n > g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 1u << 20;
		uint8_t *grown;

		while (cap < g->len + n)
			cap *= 2;
		grown = realloc(g->out, cap);
		if (!grown)
			return -ENOMEM;
		g->out = grown;
		g->cap = cap;
	}
	memcpy(g->out + g->len, p, n);
	g->len += n;
	return 0;
}

/* Encode g->ev with its trailer on thread TID (0: not a Java thread). */
static int emit(struct gen *g, uint32_t tid)
{
	uint8_t data[4096];
	struct wire_buf b = { data, sizeof data, 0 };
	struct wire_event *ev = &g->ev;
	bool java_thread = tid != 0 && ev->code != WIRE_EV_GC_START &&
			   ev->code != WIRE_EV_GC_FINISH && ev->code != WIRE_EV_CLASS_UNLOAD;
	int rc;

	if (g->events >= g->nevents)
		return 0;
	ev->has_trailer = true;
	ev->trailer.seq = ++g->seq;
	g->ts += 250 + below(g, 200);
	ev->trailer.timestamp_ns = g->ts;
	ev->trailer.os_tid = tid;
	ev->trailer.flags &= WIRE_TF_TIMED_OUT;
	if (g->sync && java_thread)
		ev->trailer.flags |= WIRE_TF_SYNC;
	rc = wire_encode_event(&b, &g->peer, ev);
	if (rc < 0)
		return rc;
	g->events++;
	return append(g, b.data, b.len);
}

static void start(struct gen *g, unsigned code, uint64_t thread)
{
	memset(&g->ev, 0, offsetof(struct wire_event, values));
	g->ev.nvalues = 0;
	g->ev.retval = (struct wire_value){ .type = WIRE_T_VOID };
	g->ev.has_trailer = false;
	g->ev.trailer.flags = 0;
	g->ev.trailer.depth = 0;
	g->ev.code = code;
	g->ev.thread = thread;
}

/* One value of the JVM type at *D (advanced past it). */
static void make_value(struct gen *g, const char **d, struct wire_value *v, bool ret)
{
	static const char *const texts[] = { "order-4711", "ok", "customer@example.com",
					     "Hello, world" };
	const char *p = *d;

	memset(v, 0, sizeof *v);
	switch (*p) {
	case 'Z': v->type = WIRE_T_BOOLEAN; v->v.i = below(g, 2); break;
	case 'B': v->type = WIRE_T_BYTE; v->v.i = (int8_t)below(g, 256); break;
	case 'C': v->type = WIRE_T_CHAR; v->v.i = 'a' + below(g, 26); break;
	case 'S': v->type = WIRE_T_SHORT; v->v.i = (int16_t)below(g, 65536); break;
	case 'I': v->type = WIRE_T_INT; v->v.i = (int32_t)below(g, 100000); break;
	case 'J': v->type = WIRE_T_LONG; v->v.i = (int64_t)(next(g) >> 20); break;
	case 'F': v->type = WIRE_T_FLOAT; v->v.f = (float)below(g, 1000) / 8.0f; break;
	case 'D': v->type = WIRE_T_DOUBLE; v->v.d = (double)below(g, 100000) / 16.0; break;
	case 'V': v->type = WIRE_T_VOID; break;
	case '[':
		while (p[1] == '[')
			p++;
		v->type = WIRE_T_ARRAY;
		v->str = S(p[1] == 'L' ? "[Ljava/lang/Object;" : "[B");
		v->object_id = 1000 + below(g, 5000);
		v->aux = below(g, 64);
		if (p[1] == 'L')
			p = strchr(p, ';');
		else
			p++;
		break;
	case 'L':
		if (ret && below(g, 8) == 0) {
			v->type = WIRE_T_NULL;
		} else if (strncmp(p, "Ljava/lang/String;", 18) == 0) {
			v->type = WIRE_T_STRING;
			v->str = S(texts[below(g, 4)]);
		} else {
			v->type = WIRE_T_OBJECT;
			v->str = S(object_classes[below(g, 4)]);
			v->object_id = 1000 + below(g, 5000);
			v->aux = (uint32_t)next(g);
		}
		p = strchr(p, ';');
		break;
	default:
		v->type = WIRE_T_NONE;
		break;
	}
	*d = p + 1;
}

/* MethodEnter + MethodExit of NAME, method number ID, on a random thread,
 * as our agent sends them to a bridge that negotiated every capability:
 * the method named once (MethodName), then by number, with its values
 * (MethodEnterIdValues, MethodExitIdValue), a void return without them
 * (MethodExitId). */
static int method_pair(struct gen *g, uint32_t id, const char *name)
{
	uint32_t tid = TID0 + below(g, N_THREADS);
	const char *d = strchr(name, '(') + 1;
	int rc;

	if (!g->named[id]) {
		start(g, WIRE_EV_METHOD_NAME, 0);
		g->ev.method_id = id;
		g->ev.name = S(name);
		rc = emit(g, 0);
		if (rc < 0)
			return rc;
		g->named[id] = true;
	}
	start(g, WIRE_EV_METHOD_ENTER_ID_VALUES, tid);
	g->ev.method_id = id;
	while (*d != ')' && g->ev.nvalues < WIRE_MAX_VALUES)
		make_value(g, &d, &g->ev.values[g->ev.nvalues++], false);
	rc = emit(g, tid);
	if (rc < 0)
		return rc;
	start(g, WIRE_EV_METHOD_EXIT_ID_VALUE, tid);
	g->ev.method_id = id;
	d++;
	if (below(g, 100) == 0) {
		g->ev.popped = true;
		g->ev.retval.type = WIRE_T_NONE;
	} else
		make_value(g, &d, &g->ev.retval, true);
	if (!g->ev.popped && g->ev.retval.type == WIRE_T_VOID)
		g->ev.code = WIRE_EV_METHOD_EXIT_ID;
	return emit(g, tid);
}

static int two(struct gen *g, unsigned code1, unsigned code2, const char *name,
	       const char *method, uint32_t tid)
{
	int rc;

	start(g, code1, tid);
	g->ev.name = S(name);
	g->ev.method = S(method);
	g->ev.object = 77 + below(g, 4);
	rc = emit(g, tid);
	if (rc < 0)
		return rc;
	start(g, code2, tid);
	g->ev.name = S(name);
	g->ev.method = S(method);
	g->ev.object = 77;
	return emit(g, tid);
}

static int thread_life(struct gen *g)
{
	static const char *const names[] = { "pool-1-thread-3", "ForkJoinPool.commonPool-worker-1",
					     "http-nio-8080-exec-7" };
	uint32_t tid = TID0 + N_THREADS + below(g, 100);
	const char *name = names[below(g, 3)];
	int rc;

	start(g, WIRE_EV_THREAD_NAME, tid);
	g->ev.name = S(name);
	rc = emit(g, tid);
	start(g, WIRE_EV_THREAD_START, tid);
	rc = rc < 0 ? rc : emit(g, tid);
	start(g, WIRE_EV_THREAD_NAME, tid);
	g->ev.name = S(name);
	rc = rc < 0 ? rc : emit(g, tid);
	start(g, WIRE_EV_THREAD_END, tid);
	return rc < 0 ? rc : emit(g, tid);
}

static int step(struct gen *g)
{
	unsigned r = below(g, 1000);
	uint32_t tid = TID0 + below(g, N_THREADS);
	unsigned app = below(g, N_APP_CLASSES * N_APP_METHODS);

	if (r < 700)
		return method_pair(g, 0, EVSTREAM_HOT_METHOD);
	if (r < 900) {
		unsigned lib = below(g, N_LIBRARY);
		return method_pair(g, 1 + lib, library_methods[lib]);
	}
	if (r < 970)
		return method_pair(g, 1 + N_LIBRARY + app, g->names[app]);
	if (r < 980)
		return two(g, WIRE_EV_CLASS_LOAD, WIRE_EV_CLASS_PREPARE,
			   g->classes[app / N_APP_METHODS], "", tid);
	if (r < 985)
		return two(g, WIRE_EV_EXCEPTION_THROWN, WIRE_EV_EXCEPTION_CATCH,
			   "Ljava/lang/IllegalStateException;", g->names[app], tid);
	if (r < 990)
		return two(g, WIRE_EV_MONITOR_ENTER, WIRE_EV_MONITOR_ENTERED, "", "", tid);
	if (r < 994)
		return thread_life(g);
	return two(g, WIRE_EV_GC_START, WIRE_EV_GC_FINISH, "", "", 0);
}

int evstream_generate(size_t nevents, bool sync, uint64_t seed, uint8_t **out, size_t *len)
{
	uint8_t data[256];
	struct wire_buf b = { data, sizeof data, 0 };
	struct gen *g = calloc(1, sizeof *g);
	int rc;

	*out = NULL;
	*len = 0;
	if (!g)
		return -ENOMEM;
	g->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
	g->ts = 1000000000000ull;
	g->sync = sync;
	g->nevents = nevents;
	for (unsigned c = 0; c < N_APP_CLASSES; c++) {
		snprintf(g->classes[c], sizeof g->classes[c], "Lcom/acme/shop/Service%u;", c);
		for (unsigned m = 0; m < N_APP_METHODS; m++)
			snprintf(g->names[c * N_APP_METHODS + m], sizeof g->names[0],
				 "com.acme.shop.Service%u.handle%u%s", c, m, app_descriptors[m]);
	}
	/* the agent's Hello, then the events as the negotiated peer reads them */
	wire_peer_init(&g->peer);
	g->peer.hello = true;
	g->peer.caps = WIRE_CAP_ALL;
	g->ev.code = WIRE_EV_HELLO;
	wire_hello_init(&g->ev.hello, WIRE_CAP_ALL, "stapjava bench evstream 1");
	rc = wire_encode_event(&b, &g->peer, &g->ev);
	if (rc == 0)
		rc = append(g, b.data, b.len);
	while (rc == 0 && g->events < g->nevents)
		rc = step(g);
	if (rc < 0) {
		free(g->out);
		free(g);
		return rc;
	}
	*out = g->out;
	*len = g->len;
	free(g);
	return 0;
}

/* sjprint.c: see sjprint.h. */
#include "sjprint.h"

#include <math.h>
#include <string.h>

#include "pattern.h"

const char *sjprint_event_name(unsigned code)
{
	switch (code) {
	case WIRE_EV_METHOD_ENTER: return "method.enter";
	case WIRE_EV_METHOD_EXIT: return "method.return";
	case WIRE_EV_METHOD_COMPILE: return "method.compile";
	case WIRE_EV_CLASS_LOAD: return "class.load";
	case WIRE_EV_CLASS_PREPARE: return "class.prepare";
	case WIRE_EV_CLASS_UNLOAD: return "class.unload";
	case WIRE_EV_EXCEPTION_THROWN: return "exception.thrown";
	case WIRE_EV_EXCEPTION_CATCH: return "exception.catch";
	case WIRE_EV_THREAD_START: return "thread.start";
	case WIRE_EV_THREAD_END: return "thread.end";
	case WIRE_EV_VM_INIT: return "vm.init";
	case WIRE_EV_VM_DEATH: return "vm.death";
	case WIRE_EV_GC_START: return "gc.start";
	case WIRE_EV_GC_FINISH: return "gc.finish";
	case WIRE_EV_MONITOR_ENTER: return "monitor.contended_enter";
	case WIRE_EV_MONITOR_ENTERED: return "monitor.contended_entered";
	case WIRE_EV_MONITOR_WAIT: return "monitor.wait";
	case WIRE_EV_MONITOR_WAITED: return "monitor.waited";
	case WIRE_EV_LOST: return "lost";
	default: return NULL;
	}
}

void sjprint_thread_name(struct sjprint_names *names, const struct wire_event *ev)
{
	size_t i;

	for (i = 0; i < names->n; i++)
		if (names->e[i].tid == ev->thread)
			break;
	if (i == names->n) {
		if (names->n == SJPRINT_MAX_NAMES)
			i = names->n - 1;   /* full: reuse the last slot */
		else
			names->n++;
	}
	names->e[i].tid = ev->thread;
	size_t len = ev->name.len < sizeof(names->e[i].name) - 1 ? ev->name.len : sizeof(names->e[i].name) - 1;
	memcpy(names->e[i].name, ev->name.ptr, len);
	names->e[i].name[len] = '\0';
}

static void print_quoted(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		switch (ch) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (ch < 0x20 || ch == 0x7f)
				fprintf(out, "\\x%02X", ch);
			else
				fputc(ch, out);
		}
	}
	fputc('"', out);
}

static void print_dotted(FILE *out, const struct wire_str *sig)
{
	char buf[WIRE_MAX_STRING + 1];
	ssize_t n = name_class_signature_to_dotted(sig->ptr, sig->len, buf, sizeof(buf));

	if (n < 0)
		fprintf(out, "%.*s", (int)sig->len, sig->ptr);
	else
		fputs(buf, out);
}

static void print_fp(FILE *out, double d, int digits)
{
	if (isnan(d))
		fputs("NaN", out);
	else if (isinf(d))
		fputs(d > 0 ? "Infinity" : "-Infinity", out);
	else
		fprintf(out, "%.*g", digits, d);
}

static void print_value(FILE *out, const struct wire_value *v)
{
	switch (v->type) {
	case WIRE_T_BOOLEAN: fputs(v->v.i ? "true" : "false", out); break;
	case WIRE_T_BYTE: case WIRE_T_SHORT: case WIRE_T_INT: case WIRE_T_LONG:
		fprintf(out, "%lld", (long long)v->v.i);
		break;
	case WIRE_T_CHAR:
		if (v->v.i >= 0x20 && v->v.i < 0x7f && v->v.i != '\'' && v->v.i != '\\')
			fprintf(out, "'%c'", (int)v->v.i);
		else
			fprintf(out, "U+%04X", (unsigned)v->v.i);
		break;
	case WIRE_T_FLOAT: print_fp(out, v->v.f, 9); break;
	case WIRE_T_DOUBLE: print_fp(out, v->v.d, 17); break;
	case WIRE_T_VOID: fputs("void", out); break;
	case WIRE_T_NULL: fputs("null", out); break;
	case WIRE_T_STRING:
		print_quoted(out, v->str.ptr, v->str.len);
		if (v->truncated)
			fputs("...", out);
		break;
	case WIRE_T_OBJECT:
		print_dotted(out, &v->str);
		fprintf(out, "@%x#%llu", v->aux, (unsigned long long)v->object_id);
		break;
	case WIRE_T_ARRAY: {
		/* element type, then the length in the first pair of brackets: "int[3]", "int[3][]" */
		struct wire_str elem = { v->str.ptr + 1, v->str.len ? v->str.len - 1 : 0 };
		char buf[WIRE_MAX_STRING + 1];
		size_t dims = 0;
		while (dims < elem.len && elem.ptr[dims] == '[')
			dims++;
		struct wire_str base = { elem.ptr + dims, elem.len - (uint32_t)dims };
		ssize_t n = name_class_signature_to_dotted(base.ptr, base.len, buf, sizeof(buf));
		fprintf(out, "%s[%u]", n < 0 ? "?" : buf, v->aux);
		for (size_t i = 0; i < dims; i++)
			fputs("[]", out);
		fprintf(out, "#%llu", (unsigned long long)v->object_id);
		break;
	}
	default: fputc('?', out); break;
	}
}

static const char *name_of(const struct sjprint_names *names, uint64_t tid)
{
	for (size_t i = 0; names && i < names->n; i++)
		if (names->e[i].tid == tid)
			return names->e[i].name;
	return NULL;
}

int sjprint_event(FILE *out, const struct wire_event *ev, uint32_t pid, uint64_t ts_fallback,
		  const struct sjprint_names *names)
{
	const char *what = sjprint_event_name(ev->code);

	if (!what)
		return 0;
	uint64_t tid = ev->has_trailer ? ev->trailer.os_tid : ev->thread;
	uint64_t ts = ev->has_trailer ? ev->trailer.timestamp_ns : ts_fallback;
	fprintf(out, "%s pid=%u tid=%llu ts=%llu", what, pid, (unsigned long long)tid,
		(unsigned long long)ts);
	switch (ev->code) {
	case WIRE_EV_METHOD_ENTER:
		fprintf(out, " method=%.*s args=", (int)ev->name.len, ev->name.ptr);
		for (unsigned i = 0; i < ev->nvalues; i++) {
			if (i)
				fputc(',', out);
			print_value(out, &ev->values[i]);
		}
		break;
	case WIRE_EV_METHOD_EXIT:
		fprintf(out, " method=%.*s popped=%d ret=", (int)ev->name.len, ev->name.ptr, ev->popped);
		print_value(out, &ev->retval);
		break;
	case WIRE_EV_METHOD_COMPILE:
		fprintf(out, " method=%.*s code_size=%u", (int)ev->name.len, ev->name.ptr, ev->u32);
		if (ev->nvalues >= 1 && ev->values[0].type == WIRE_T_LONG)
			fprintf(out, " code_addr=0x%llx", (unsigned long long)ev->values[0].v.i);
		break;
	case WIRE_EV_CLASS_LOAD:
	case WIRE_EV_CLASS_PREPARE:
	case WIRE_EV_CLASS_UNLOAD:
		fputs(" class=", out);
		print_dotted(out, &ev->name);
		break;
	case WIRE_EV_EXCEPTION_THROWN:
	case WIRE_EV_EXCEPTION_CATCH:
		fputs(" exception=", out);
		print_dotted(out, &ev->name);
		fprintf(out, " method=%.*s", (int)ev->method.len, ev->method.ptr);
		break;
	case WIRE_EV_THREAD_START:
	case WIRE_EV_THREAD_END: {
		const char *n = name_of(names, ev->thread);
		fputs(" thread=", out);
		print_quoted(out, n ? n : "", n ? strlen(n) : 0);
		break;
	}
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
		fprintf(out, " object=%llu", (unsigned long long)ev->object);
		break;
	case WIRE_EV_MONITOR_WAIT:
		fprintf(out, " object=%llu timeout_ms=%u", (unsigned long long)ev->object, ev->u32);
		break;
	case WIRE_EV_MONITOR_WAITED:
		fprintf(out, " object=%llu timeout_ms=%u timed_out=%d", (unsigned long long)ev->object,
			ev->u32, ev->has_trailer && (ev->trailer.flags & WIRE_TF_TIMED_OUT) ? 1 : 0);
		break;
	case WIRE_EV_LOST:
		fprintf(out, " lost=%llu", (unsigned long long)ev->lost);
		break;
	default:
		break;
	}
	if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_STACK)) {
		fputs(" stack=", out);
		for (unsigned i = 0; i < ev->trailer.depth; i++)
			fprintf(out, "%s%.*s:%d", i ? "|" : "", (int)ev->trailer.frames[i].method.len,
				ev->trailer.frames[i].method.ptr, ev->trailer.frames[i].line);
	}
	fputc('\n', out);
	return 1;
}

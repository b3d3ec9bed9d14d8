/* stackmap.c: see stackmap.h. */
#include "stackmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfbytes.h"

void stackmap_free(struct stackmap *sm)
{
	free(sm->f);
	free(sm->pool);
	memset(sm, 0, sizeof(*sm));
}

static int pool_take(struct stackmap *sm, size_t n, size_t *first)
{
	if (sm->poolcap - sm->npool < n) {
		size_t cap = sm->poolcap ? sm->poolcap : 32;
		while (cap - sm->npool < n)
			cap *= 2;
		struct sm_type *p = realloc(sm->pool, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		sm->pool = p;
		sm->poolcap = cap;
	}
	*first = sm->npool;
	sm->npool += n;
	return 0;
}

static struct sm_frame *frame_new(struct stackmap *sm)
{
	if (sm->n == sm->cap) {
		size_t cap = sm->cap ? sm->cap * 2 : 16;
		struct sm_frame *f = realloc(sm->f, cap * sizeof(*f));
		if (!f)
			return NULL;
		sm->f = f;
		sm->cap = cap;
	}
	struct sm_frame *f = &sm->f[sm->n++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* Read N verification types into the pool; *FIRST gets where they start. */
static int read_types(struct cf_rd *r, struct stackmap *sm, uint32_t n, size_t *first)
{
	if (pool_take(sm, n, first) < 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct sm_type *t = &sm->pool[*first + i];
		t->tag = (uint8_t)rd_u1(r);
		t->data = 0;
		if (t->tag == SM_T_OBJECT || t->tag == SM_T_UNINIT)
			t->data = (uint16_t)rd_u2(r);
		else if (t->tag > SM_T_UNINIT)
			return -EINVAL;
		if (r->err)
			return -EINVAL;
	}
	return 0;
}

int stackmap_decode(const uint8_t *body, uint32_t len, struct stackmap *sm, const char **why)
{
	struct cf_rd r = { .p = body, .len = len };
	uint32_t n = rd_u2(&r);
	int64_t pc = -1;

	memset(sm, 0, sizeof(*sm));
	for (uint32_t i = 0; i < n && !r.err; i++) {
		uint32_t t = rd_u1(&r), delta, nl = 0, ns = 0;
		struct sm_frame *f = frame_new(sm);
		int rc = 0;
		if (!f)
			return -ENOMEM;
		if (t <= 63) {
			f->form = SM_SAME;
			delta = t;
		} else if (t <= 127) {
			f->form = SM_SAME_LOCALS_1;
			delta = t - 64;
			ns = 1;
		} else if (t == 247) {
			f->form = SM_SAME_LOCALS_1;
			delta = rd_u2(&r);
			ns = 1;
		} else if (t >= 248 && t <= 250) {
			f->form = SM_CHOP;
			f->chop = (uint8_t)(251 - t);
			delta = rd_u2(&r);
		} else if (t == 251) {
			f->form = SM_SAME;
			delta = rd_u2(&r);
		} else if (t >= 252 && t <= 254) {
			f->form = SM_APPEND;
			delta = rd_u2(&r);
			nl = t - 251;
		} else if (t == 255) {
			f->form = SM_FULL;
			delta = rd_u2(&r);
		} else {
			return *why = "reserved StackMapTable frame type", -EINVAL;
		}
		pc += (int64_t)delta + 1;
		f->pc = (uint32_t)pc;
		if (f->form == SM_FULL) {
			nl = rd_u2(&r);
			rc = read_types(&r, sm, nl, &f->locals);
			ns = rc == 0 ? rd_u2(&r) : 0;
			rc = rc ? rc : read_types(&r, sm, ns, &f->stack);
		} else {
			rc = read_types(&r, sm, nl, &f->locals);
			rc = rc ? rc : read_types(&r, sm, ns, &f->stack);
		}
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			return *why = "StackMapTable malformed", -EINVAL;
		f->nlocals = (uint16_t)nl;
		f->nstack = (uint16_t)ns;
	}
	if (r.err || r.off != len)
		return *why = "StackMapTable malformed", -EINVAL;
	return 0;
}

int stackmap_add(struct stackmap *sm, uint32_t pc, uint8_t form, const struct sm_type *locals,
		 uint16_t nlocals, const struct sm_type *stack, uint16_t nstack)
{
	size_t l = 0, s = 0;

	if (pool_take(sm, nlocals, &l) < 0 || pool_take(sm, nstack, &s) < 0)
		return -ENOMEM;
	struct sm_frame *f = frame_new(sm);
	if (!f)
		return -ENOMEM;
	if (nlocals)
		memcpy(&sm->pool[l], locals, nlocals * sizeof(*locals));
	if (nstack)
		memcpy(&sm->pool[s], stack, nstack * sizeof(*stack));
	f->pc = pc;
	f->form = form;
	f->added = true;
	f->locals = l;
	f->stack = s;
	f->nlocals = nlocals;
	f->nstack = nstack;
	return 0;
}

bool stackmap_has(const struct stackmap *sm, uint32_t pc)
{
	for (size_t i = 0; i < sm->n; i++)
		if (!sm->f[i].added && sm->f[i].pc == pc)
			return true;
	return false;
}

static void write_types(struct cf_wr *w, const struct stackmap *sm, size_t first, uint32_t n,
			stackmap_map_fn map, void *ctx)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct sm_type *t = &sm->pool[first + i];
		wr_u1(w, t->tag);
		if (t->tag == SM_T_OBJECT)
			wr_u2(w, t->data);
		else if (t->tag == SM_T_UNINIT)
			wr_u2(w, map(ctx, t->data));
	}
}

struct placed {
	uint32_t pc;
	const struct sm_frame *f;
};

static int by_pc(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return 0;
}

int stackmap_encode(const struct stackmap *sm, stackmap_map_fn map, void *ctx, uint8_t **out,
		    size_t *out_len)
{
	struct cf_wr w = { 0 };
	struct placed *order = malloc((sm->n ? sm->n : 1) * sizeof(*order));
	int64_t prev = -1;

	*out = NULL;
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < sm->n; i++) {
		order[i].f = &sm->f[i];
		order[i].pc = sm->f[i].added ? sm->f[i].pc : map(ctx, sm->f[i].pc);
	}
	qsort(order, sm->n, sizeof(*order), by_pc);
	wr_u2(&w, (uint32_t)sm->n);
	for (size_t i = 0; i < sm->n; i++) {
		const struct sm_frame *f = order[i].f;
		if ((int64_t)order[i].pc <= prev || order[i].pc - prev - 1 > 65535) {
			free(order);
			free(w.p);
			return -EINVAL;
		}
		uint32_t delta = (uint32_t)(order[i].pc - prev - 1);
		prev = order[i].pc;
		switch (f->form) {
		case SM_SAME:
			if (delta <= 63) {
				wr_u1(&w, delta);
			} else {
				wr_u1(&w, 251);
				wr_u2(&w, delta);
			}
			break;
		case SM_SAME_LOCALS_1:
			if (delta <= 63) {
				wr_u1(&w, 64 + delta);
			} else {
				wr_u1(&w, 247);
				wr_u2(&w, delta);
			}
			write_types(&w, sm, f->stack, 1, map, ctx);
			break;
		case SM_CHOP:
			wr_u1(&w, 251u - f->chop);
			wr_u2(&w, delta);
			break;
		case SM_APPEND:
			wr_u1(&w, 251u + f->nlocals);
			wr_u2(&w, delta);
			write_types(&w, sm, f->locals, f->nlocals, map, ctx);
			break;
		default:
			wr_u1(&w, 255);
			wr_u2(&w, delta);
			wr_u2(&w, f->nlocals);
			write_types(&w, sm, f->locals, f->nlocals, map, ctx);
			wr_u2(&w, f->nstack);
			write_types(&w, sm, f->stack, f->nstack, map, ctx);
			break;
		}
	}
	free(order);
	if (w.err) {
		free(w.p);
		return -ENOMEM;
	}
	*out = w.p;
	*out_len = w.len;
	return 0;
}

/* codeedit.c: see codeedit.h. */
#include "codeedit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"

#define MAX_CODE 65535u

struct code_layout {
	const uint8_t *code;
	uint32_t len, ninsn, new_len;
	const struct code_insert *ins;
	size_t nins;
	struct bc_insn *insn;
	uint32_t *newpc;         /* per instruction */
	uint32_t *label;         /* per instruction, and [ninsn] for the end */
	bool *widened;           /* per instruction: goto/jsr became goto_w/jsr_w */
	uint32_t *ins_pos;       /* per insert */
	int32_t *index_of;       /* per old offset (len + 1 of them): instruction index or -1 */
};

void codeedit_free(struct code_layout *l)
{
	if (!l)
		return;
	free(l->insn);
	free(l->newpc);
	free(l->label);
	free(l->widened);
	free(l->ins_pos);
	free(l->index_of);
	free(l);
}

static int decode_all(struct code_layout *l, const char **why)
{
	uint32_t cap = 0;

	for (uint32_t pc = 0; pc < l->len;) {
		if (l->ninsn == cap) {
			cap = cap ? cap * 2 : 64;
			struct bc_insn *n = realloc(l->insn, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			l->insn = n;
		}
		struct bc_insn *in = &l->insn[l->ninsn];
		if (bytecode_decode(l->code, l->len, pc, in) < 0)
			return *why = "unknown or truncated instruction", -EINVAL;
		l->index_of[pc] = (int32_t)l->ninsn++;
		pc += in->len;
	}
	l->index_of[l->len] = (int32_t)l->ninsn;
	return 0;
}

/* Index of the instruction at old offset T, or -1. */
static int64_t index_at(const struct code_layout *l, int64_t t)
{
	if (t < 0 || t >= l->len)
		return -1;
	return l->index_of[t];
}

static uint32_t insn_size(const struct code_layout *l, uint32_t i, uint32_t pos)
{
	const struct bc_insn *in = &l->insn[i];

	if (in->kind == BC_SWITCH)
		return 1 + ((0u - (pos + 1)) & 3) + bytecode_switch_body_len(in->op, in->ntargets);
	if (in->kind == BC_GOTO && l->widened[i])
		return 5;
	return in->len;
}

/* One pass: place inserts and instructions. */
static void place(struct code_layout *l)
{
	uint32_t pos = 0;
	size_t k = 0;

	for (uint32_t i = 0; i <= l->ninsn; i++) {
		uint32_t pc = i < l->ninsn ? l->insn[i].pc : l->len;
		bool labelled = false;
		/* the old end is the end of the old code: what is appended is outside it */
		if (i == l->ninsn) {
			l->label[i] = pos;
			labelled = true;
		}
		for (; k < l->nins && l->ins[k].at == pc; k++) {
			l->ins_pos[k] = pos;
			if (l->ins[k].labelled && !labelled) {
				l->label[i] = pos;
				labelled = true;
			}
			pos += l->ins[k].len;
		}
		if (!labelled)
			l->label[i] = pos;
		if (i == l->ninsn)
			break;
		l->newpc[i] = pos;
		pos += insn_size(l, i, pos);
	}
	l->new_len = pos;
}

static bool fits16(int64_t d)
{
	return d >= -32768 && d <= 32767;
}

/* Check each branch's displacement; widen goto/jsr that no longer reach.
 * Returns 1 when something was widened, 0 when all reach, or -errno. */
static int check_branches(struct code_layout *l, const char **why)
{
	int changed = 0;

	for (uint32_t i = 0; i < l->ninsn; i++) {
		const struct bc_insn *in = &l->insn[i];
		if (in->kind == BC_COND || in->kind == BC_GOTO) {
			int64_t t = index_at(l, in->target);
			if (t < 0)
				return *why = "a branch to no instruction", -EINVAL;
			int64_t d = (int64_t)l->label[t] - l->newpc[i];
			if (fits16(d) || l->widened[i])
				continue;
			if (in->kind == BC_COND)
				return *why = "a conditional branch would no longer reach (method near 64 KiB)", -ENOTSUP;
			l->widened[i] = true;
			changed = 1;
		} else if (in->kind == BC_GOTO_W) {
			if (index_at(l, in->target) < 0)
				return *why = "a branch to no instruction", -EINVAL;
		} else if (in->kind == BC_SWITCH) {
			for (uint32_t j = 0; j < in->ntargets; j++)
				if (index_at(l, bytecode_switch_target(l->code, in, j)) < 0)
					return *why = "a switch to no instruction", -EINVAL;
		}
	}
	return changed;
}

int codeedit_layout(const uint8_t *code, uint32_t len, const struct code_insert *ins, size_t nins,
		    struct code_layout **out, const char **why)
{
	struct code_layout *l = calloc(1, sizeof(*l));
	int rc = -ENOMEM;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	l->code = code;
	l->len = len;
	l->ins = ins;
	l->nins = nins;
	/* before the tables its length sizes */
	if (len == 0 || len > MAX_CODE) {
		*why = "code length out of range";
		free(l);
		return -EINVAL;
	}
	l->index_of = malloc(((size_t)len + 1) * sizeof(*l->index_of));
	l->ins_pos = calloc(nins ? nins : 1, sizeof(*l->ins_pos));
	if (!l->index_of || !l->ins_pos)
		goto fail;
	for (uint32_t pc = 0; pc <= len; pc++)
		l->index_of[pc] = -1;
	rc = decode_all(l, why);
	if (rc < 0)
		goto fail;
	rc = -ENOMEM;
	l->newpc = calloc(l->ninsn, sizeof(*l->newpc));
	l->label = calloc((size_t)l->ninsn + 1, sizeof(*l->label));
	l->widened = calloc(l->ninsn, sizeof(*l->widened));
	if (!l->newpc || !l->label || !l->widened)
		goto fail;
	for (size_t k = 0; k < nins; k++) {
		if (ins[k].at > len || l->index_of[ins[k].at] < 0 || (k && ins[k].at < ins[k - 1].at)) {
			*why = "an insert not at an instruction, or out of order";
			rc = -EINVAL;
			goto fail;
		}
	}
	/* widening only grows the code, and each branch widens at most once */
	do {
		place(l);
		rc = check_branches(l, why);
	} while (rc == 1);
	if (rc < 0)
		goto fail;
	if (l->new_len > MAX_CODE) {
		*why = "the method's code would reach 64 KiB";
		rc = -ENOTSUP;
		goto fail;
	}
	*out = l;
	return 0;
fail:
	codeedit_free(l);
	return rc;
}

uint32_t codeedit_new_len(const struct code_layout *l)
{
	return l->new_len;
}

bool codeedit_is_insn(const struct code_layout *l, uint32_t pc)
{
	return pc <= l->len && l->index_of[pc] >= 0;
}

uint32_t codeedit_map(const struct code_layout *l, uint32_t pc)
{
	return codeedit_is_insn(l, pc) ? l->label[l->index_of[pc]] : 0;
}

uint32_t codeedit_insert_at(const struct code_layout *l, size_t k)
{
	return k < l->nins ? l->ins_pos[k] : 0;
}

static void put_u2(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_u4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* New displacement from instruction I to old target T. */
static int32_t disp(const struct code_layout *l, uint32_t i, int64_t t)
{
	return (int32_t)((int64_t)l->label[l->index_of[t]] - l->newpc[i]);
}

static void emit_switch(const struct code_layout *l, uint32_t i, uint8_t *o)
{
	const struct bc_insn *in = &l->insn[i];
	const uint8_t *src = l->code + in->pc + 1 + in->pad;
	uint32_t pad = (0u - (l->newpc[i] + 1)) & 3;

	o[0] = in->op;
	memset(o + 1, 0, pad);
	o += 1 + pad;
	memcpy(o, src, bytecode_switch_body_len(in->op, in->ntargets));
	put_u4(o, (uint32_t)disp(l, i, bytecode_switch_target(l->code, in, 0)));
	for (uint32_t j = 1; j < in->ntargets; j++) {
		uint32_t at = in->op == OP_TABLESWITCH ? 12 + 4 * (j - 1) : 8 + 8 * (j - 1) + 4;
		put_u4(o + at, (uint32_t)disp(l, i, bytecode_switch_target(l->code, in, j)));
	}
}

void codeedit_emit(const struct code_layout *l, uint8_t *out)
{
	for (size_t k = 0; k < l->nins; k++)
		memcpy(out + l->ins_pos[k], l->ins[k].bytes, l->ins[k].len);
	for (uint32_t i = 0; i < l->ninsn; i++) {
		const struct bc_insn *in = &l->insn[i];
		uint8_t *o = out + l->newpc[i];
		switch (in->kind) {
		case BC_COND:
			o[0] = in->op;
			put_u2(o + 1, (uint32_t)disp(l, i, in->target));
			break;
		case BC_GOTO:
			if (l->widened[i]) {
				o[0] = in->op == OP_GOTO ? OP_GOTO_W : OP_JSR_W;
				put_u4(o + 1, (uint32_t)disp(l, i, in->target));
			} else {
				o[0] = in->op;
				put_u2(o + 1, (uint32_t)disp(l, i, in->target));
			}
			break;
		case BC_GOTO_W:
			o[0] = in->op;
			put_u4(o + 1, (uint32_t)disp(l, i, in->target));
			break;
		case BC_SWITCH:
			emit_switch(l, i, o);
			break;
		default:
			memcpy(o, l->code + in->pc, in->len);
			break;
		}
	}
}

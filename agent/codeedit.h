/* codeedit.h: insert bytes into a method's code and relocate everything else.
 *
 * Why: reporting a method's returns and exceptional exit from bytecode means
 * code in front of every return and a handler after the body, so every
 * branch, switch and code offset of the method moves (the class-file
 * rewriter, classfile.h, drives this and fixes the code's tables with
 * codeedit_map()).
 *
 * Contract: codeedit_layout() decodes CODE (bytecode.h), places each insert
 * in front of the instruction at its AT (AT == the code length appends it),
 * in the order given, and lays out the new code: switch padding recomputed,
 * goto/jsr that no longer reach widened to goto_w/jsr_w (repeated until
 * nothing moves). A conditional branch that no longer reaches, a branch into
 * the middle of an instruction, or new code of 64 KiB or more is refused
 * (-ENOTSUP, -EINVAL for malformed code) with *WHY set. Inserted bytes must
 * be position-independent (no switch; their own branches stay inside them).
 *
 * Offsets: an insert marked LABELLED is where branches (and exception-table
 * and frame offsets) to its AT now land, so it runs every time the
 * instruction does; an unlabelled one (a method prologue at 0) is jumped
 * over by branches to AT. codeedit_map() gives the new offset of an old one
 * under that rule (the old length maps to the end of the old code, before
 * what is appended there); codeedit_insert_at() where an insert's bytes
 * begin.
 * Pure: no JVMTI, no global state.
 */
#ifndef STAPJAVA_AGENT_CODEEDIT_H
#define STAPJAVA_AGENT_CODEEDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct code_insert {
	uint32_t at;
	const uint8_t *bytes;
	uint32_t len;
	bool labelled;
};

struct code_layout;

int codeedit_layout(const uint8_t *code, uint32_t len, const struct code_insert *ins, size_t nins,
		    struct code_layout **out, const char **why);
uint32_t codeedit_new_len(const struct code_layout *l);
/* The new offset for old offset PC (an instruction start, or the old length). */
uint32_t codeedit_map(const struct code_layout *l, uint32_t pc);
/* Is PC the start of an old instruction (or the old length)? */
bool codeedit_is_insn(const struct code_layout *l, uint32_t pc);
uint32_t codeedit_insert_at(const struct code_layout *l, size_t k);
/* Write the new code (codeedit_new_len() bytes) to OUT. */
void codeedit_emit(const struct code_layout *l, uint8_t *out);
void codeedit_free(struct code_layout *l);

#endif

/* bytecode.h: just enough of the JVM's instruction set to find branch targets.
 *
 * Contract: bytecode_branches_to() walks CODE[0..LEN) instruction by
 * instruction (JVMS 6.5 lengths, tableswitch/lookupswitch padding, wide) and
 * says whether any branch (if*, goto, jsr, their _w forms, switch targets)
 * lands on TARGET. It never reads outside CODE; an unknown opcode or a
 * truncated instruction gives -EINVAL, so callers treat the method as one
 * they cannot reason about. Pure: no JVMTI, no allocation.
 */
#ifndef STAPJAVA_AGENT_BYTECODE_H
#define STAPJAVA_AGENT_BYTECODE_H

#include <stddef.h>
#include <stdint.h>

/* 1: some branch targets TARGET; 0: none does; -EINVAL: malformed code. */
int bytecode_branches_to(const uint8_t *code, size_t len, size_t target);

#endif

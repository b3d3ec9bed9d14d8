/* codeattr.h: one method's Code attribute, rewritten with its injected calls.
 *
 * Why: classfile.c handles the class (pool, methods, constants) and this the
 * code of one method: the calls classfile.h describes, and every offset the
 * method's code and its attributes hold moved to match (codeedit.h,
 * stackmap.h, preinit.h).
 *
 * Contract: codeattr_rewrite() reads the attribute body BODY[0..LEN) (after
 * its name index and length) and appends the new body to W. It returns 0,
 * -ENOTSUP or -EINVAL (the method stays as it was: W is as before, *WHY says
 * why), or -ENOMEM. Pure.
 */
#ifndef STAPJAVA_AGENT_CODEATTR_H
#define STAPJAVA_AGENT_CODEATTR_H

#include <stdbool.h>
#include <stdint.h>

#include "cfbytes.h"
#include "cfpool.h"
#include "classfile.h"

/* The handler after the body (classfile.h), one copy: the catch-all from
 * 0 (its call of Probe.thrown at CODEATTR_THROWN_CALL_AT, 3 bytes), then
 * the count of a failed report from CODEATTR_COUNT_AT, which a handler
 * entry over that call reaches; both rethrow with their last byte. */
#define CODEATTR_HANDLER_LEN 32u
#define CODEATTR_THROWN_CALL_AT 4u
#define CODEATTR_COUNT_AT 8u
/* Are P[0..CODEATTR_HANDLER_LEN) a copy of that handler (operands aside)? */
bool codeattr_is_handler(const uint8_t *p);

/* A line's call: in front of the instruction at PC, Probe.enter with the
 * Integer constant SITE. */
struct codeattr_line {
	uint32_t pc;
	uint32_t site;
};

struct codeattr_ctx {
	const struct cfpool *cp;
	uint16_t major;              /* class file version: frames from 50 on */
	const char *name, *desc;     /* the method's (not NUL-terminated) */
	size_t name_len, desc_len;
	bool is_static;
	bool enter, exit;
	/* constant-pool indices of what the calls use */
	uint32_t site;               /* Integer: the site id */
	int32_t site_id;             /* its value (the lost count's row and column) */
	uint32_t probe[CF_NPROBE];   /* Methodrefs */
	uint32_t throwable;          /* Class java/lang/Throwable */
	uint32_t smt_name;           /* Utf8 "StackMapTable" */
	uint32_t lost_field, overflows_field;   /* Fieldrefs (with exits) */
	const struct codeattr_line *lines;   /* by increasing pc */
	size_t nlines;
	/* Integer constants of the notify()V [0] and notifyAll()V [1] call
	 * sites (classfile.h), 0 for none */
	uint32_t notify_site[2];
};

/* Which of notify()V (bit 0) and notifyAll()V (bit 1) does the invoke
 * instruction OP with pool operand IDX call? 0 for any other instruction. */
unsigned codeattr_notify_kind(const struct cfpool *cp, uint8_t op, uint32_t idx);

int codeattr_rewrite(const struct codeattr_ctx *c, const uint8_t *body, uint32_t len,
		     struct cf_wr *w, const char **why);

#endif

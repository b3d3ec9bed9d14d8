/* rec_jfr_meta.h: a JFR chunk's metadata event, read from untrusted bytes
 * for rec_jfr_parse.c: its classes and their fields.
 *
 * Contract: fills CH's classes (sorted by id, each with its fields, its
 * primitive kind when it is one, and its role among ROLES with the fields
 * the role reads) and fields (each type resolved to a class), and the
 * strings they name. Bounded: every read within the record, elements
 * nested at most 32 deep, counts no larger than the bytes left; -EINVAL
 * with ERR naming what and where, or -ENOMEM.
 */
#ifndef STPD_BRIDGE_REC_JFR_META_H
#define STPD_BRIDGE_REC_JFR_META_H

#include "rec_jfr_parse.h"

/* The metadata event at AT of CH's chunk. */
int jfr_meta_read(struct jfr_chunk *ch, size_t at, const struct jfr_role *roles, size_t nroles,
		  struct record_error *err);

#endif

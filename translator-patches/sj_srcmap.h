/* sj_srcmap.h: stap's messages about the translated scripts, in the user's own text.
 *
 * Contract: for an error or a warning at a token, stap 4.8 prints the token's
 * location at the end of a line,
 *     ... at FILE:LINE:COL
 * (FILE left out, "at :LINE:COL", when it is the file of the token printed before),
 * maybe lines of details, then the line of FILE with a caret under the column:
 *     <blanks>source: <line LINE of FILE>
 *     <blanks>        <blanks up to COL>^
 * For a script stap-java translated, FILE is the translated copy (a temporary path,
 * or <input>, <inputN> for -e and -E) and that line is translated text.
 * sj_srcmap_line() rewrites one line of stap's stderr: each temporary path becomes
 * the user's file name; a source line of a translated script whose LINE is within
 * the user's text (not the code stap-java appends) becomes the user's own line, and
 * the caret line after it is drawn again from that line (its tabs kept), at the
 * same column since translation keeps every column.  Lines come in order, one at a
 * time, with or without their newline; the map keeps what it needs between them.
 * After a line with an escape character (stap --color=always), only paths are
 * replaced.  The internal name of a slot probe ('__stapjava_sN', in a message about
 * it) becomes the Java probe point the user wrote (SLOT_POINTS[N]), and the probe
 * stap then calls 'process' is called 'java'.  Returns 0 or -ENOMEM.
 */
#ifndef STAPJAVA_SJ_SRCMAP_H
#define STAPJAVA_SJ_SRCMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "sj_buf.h"

struct sj_srcmap_file {
	const char *stap_name;	/* the name stap prints */
	const char *user_name;	/* printed instead; NULL: stap_name is the user's name */
	const char *text;	/* the user's text */
	size_t len;
};

struct sj_srcmap {
	const struct sj_srcmap_file *files;
	size_t nfiles;
	const struct sj_srcmap_file *last;	/* file of the last location; NULL: not ours */
	const struct sj_srcmap_file *at;	/* the location a source line may follow */
	unsigned line, col;
	char *const *slot_points;	/* slot N's probe point as written, java.KIND("P").EVENT */
	size_t nslots;
	const char *caret_src;	/* the user's line just printed; NULL: no caret to redraw */
	size_t caret_len, caret_indent;
	bool colour;
};

void sj_srcmap_init(struct sj_srcmap *m, const struct sj_srcmap_file *files, size_t nfiles);
int sj_srcmap_line(struct sj_srcmap *m, const char *line, size_t len, struct sj_buf *out);

#endif

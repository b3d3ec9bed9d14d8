/* gen-tapset: writes stapjava.stp at build time, so that the family aliases
 * come from the tables and are written nowhere by hand.
 *
 *   gen-tapset TEMPLATE   TEMPLATE (tapset/stapjava.stp.in: the doc comments
 *                         and the functions) on stdout, with after each doc
 *                         comment " * probe java.LABEL - ..." the alias of
 *                         that family event (sj_emit_family_alias(): its
 *                         marker from runtime/events.h, its variables from
 *                         translator-patches/sj_emit.c)
 *   gen-tapset --vars     each family alias as stap -L lists it, less the
 *                         markers' $argN: "java.LABEL NAME:TYPE ...", for
 *                         the tests that hold the built tapset to the tables
 *
 * A doc comment must name with @NAME: exactly the variables its alias sets,
 * give the table's code, name and label on its @java_event: and
 * @java_event_name: lines, and every event with a family marker must have
 * one: else the build stops with a message naming the template's line.
 * Status 0, or 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "log.h"
#include "sj_buf.h"
#include "sj_emit.h"

#define N_CODES 256u

/* The doc comment being read. */
struct doc {
	unsigned first_line;
	char label[64];		/* of " * probe java.LABEL - ", "" for another comment */
	char **names;		/* its @NAME:s */
	char **texts;		/* and what follows each on its line */
	size_t nnames;
};

struct gen {
	const char *path;
	struct sj_buf out;
	bool done[N_CODES];	/* the events whose alias is written */
	unsigned errors;
};

static void doc_reset(struct doc *doc, unsigned line)
{
	for (size_t i = 0; i < doc->nnames; i++) {
		free(doc->names[i]);
		free(doc->texts[i]);
	}
	free(doc->names);
	free(doc->texts);
	*doc = (struct doc){ .first_line = line };
}

/* LINE of a doc comment: its label or one of its @NAME:s. 0 or -ENOMEM. */
static int doc_line(struct doc *doc, const char *line)
{
	static const char probe[] = " * probe java.";

	if (doc->label[0] == '\0' && strncmp(line, probe, sizeof probe - 1) == 0) {
		const char *label = line + sizeof probe - 1;
		snprintf(doc->label, sizeof doc->label, "%.*s", (int)strcspn(label, " \n"), label);
		return 0;
	}
	if (strncmp(line, " * @", 4) != 0)
		return 0;
	size_t len = strcspn(line + 4, ": \n");
	if (line[4 + len] != ':')
		return 0;
	char **names = realloc(doc->names, (doc->nnames + 1) * sizeof *names);
	if (names)
		doc->names = names;
	char **texts = realloc(doc->texts, (doc->nnames + 1) * sizeof *texts);
	if (texts)
		doc->texts = texts;
	if (!names || !texts)
		return -ENOMEM;
	const char *text = line + 4 + len + 1;
	text += *text == ' ';
	names[doc->nnames] = strndup(line + 4, len);
	texts[doc->nnames] = strndup(text, strcspn(text, "\n"));
	if (!names[doc->nnames] || !texts[doc->nnames]) {
		free(names[doc->nnames]);
		free(texts[doc->nnames]);
		return -ENOMEM;
	}
	doc->nnames++;
	return 0;
}

/* What DOC says of @NAME: on its line, NULL when it does not name it. */
static const char *doc_text(const struct doc *doc, const char *name)
{
	for (size_t i = 0; i < doc->nnames; i++)
		if (strcmp(doc->names[i], name) == 0)
			return doc->texts[i];
	return NULL;
}

/* The doc comment's word on @NAME: must be WANT, from the table. */
static void check_text(struct gen *g, const struct doc *doc, const char *name, const char *want)
{
	const char *text = doc_text(doc, name);

	if (text && strcmp(text, want) != 0) {
		sj_error("%s:%u: the doc comment of java.%s says @%s: %s, the table of events %s",
			 g->path, doc->first_line, doc->label, name, text, want);
		g->errors++;
	}
}

/* After the doc comment DOC: its event's alias, once its names are checked. */
static int alias_after(struct gen *g, const struct doc *doc)
{
	const struct event_desc *d = events_by_label(doc->label, strlen(doc->label));
	const struct sj_alias_var *vars[SJ_MAX_ALIAS_VARS];
	size_t n;

	if (!d || !d->marker) {
		sj_error("%s:%u: probe java.%s: no event of runtime/events.h has that label and a family marker",
			 g->path, doc->first_line, doc->label);
		g->errors++;
		return 0;
	}
	if (g->done[d->code]) {
		sj_error("%s:%u: probe java.%s is documented twice", g->path, doc->first_line, doc->label);
		g->errors++;
		return 0;
	}
	g->done[d->code] = true;
	n = sj_alias_vars(d->label, vars, SJ_MAX_ALIAS_VARS);
	char code[64], label[80];
	snprintf(code, sizeof code, "the event code (0x%02x, %s)", d->code, d->name);
	snprintf(label, sizeof label, "\"%s\"", d->label);
	check_text(g, doc, "java_event", code);
	check_text(g, doc, "java_event_name", label);
	for (size_t i = 0; i < n && i < SJ_MAX_ALIAS_VARS; i++)
		if (!doc_text(doc, vars[i]->name)) {
			sj_error("%s:%u: the doc comment of java.%s has no @%s:, a variable its alias sets",
				 g->path, doc->first_line, d->label, vars[i]->name);
			g->errors++;
		}
	for (size_t k = 0; k < doc->nnames; k++) {
		size_t i = 0;
		while (i < n && i < SJ_MAX_ALIAS_VARS && strcmp(vars[i]->name, doc->names[k]) != 0)
			i++;
		if (i == n || i == SJ_MAX_ALIAS_VARS) {
			sj_error("%s:%u: the doc comment of java.%s names @%s:, which its alias does not set"
				 " (translator-patches/sj_emit.c, alias_vars)",
				 g->path, doc->first_line, d->label, doc->names[k]);
			g->errors++;
		}
	}
	return sj_emit_family_alias(d, &g->out);
}

static int expand(struct gen *g, FILE *in)
{
	struct doc doc = { 0 };
	bool in_doc = false;
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int rc = 0;

	while (rc == 0 && getline(&line, &cap, in) >= 0) {
		lineno++;
		rc = sj_buf_puts(&g->out, line) ? -ENOMEM : 0;
		if (!in_doc && strcmp(line, "/**\n") == 0) {
			in_doc = true;
			doc_reset(&doc, lineno);
		} else if (in_doc && strcmp(line, " */\n") == 0) {
			in_doc = false;
			if (rc == 0 && doc.label[0])
				rc = alias_after(g, &doc);
		} else if (in_doc && rc == 0) {
			rc = doc_line(&doc, line);
		}
	}
	if (rc == 0 && ferror(in))
		rc = -errno;
	free(line);
	doc_reset(&doc, 0);
	for (unsigned code = 0; rc == 0 && code < N_CODES; code++) {
		const struct event_desc *d = events_get(code);
		if (d && d->marker && !g->done[code]) {
			sj_error("%s: no doc comment \" * probe java.%s - ...\" for the event %s, which has a"
				 " family marker (runtime/events.h): its alias goes after it",
				 g->path, d->label, d->name);
			g->errors++;
		}
	}
	return rc;
}

static int print_vars(void)
{
	for (unsigned code = 0; code < N_CODES; code++) {
		const struct event_desc *d = events_get(code);
		const struct sj_alias_var *vars[SJ_MAX_ALIAS_VARS];

		if (!d || !d->marker)
			continue;
		size_t n = sj_alias_vars(d->label, vars, SJ_MAX_ALIAS_VARS);
		printf("java.%s", d->label);
		for (size_t i = 0; i < n && i < SJ_MAX_ALIAS_VARS; i++)
			printf(" %s:%s", vars[i]->name, vars[i]->type);
		printf("\n");
	}
	return fflush(stdout) == 0 ? 0 : -EIO;
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	FILE *in;
	int rc;

	sj_log_open("gen-tapset", -1, SJ_LOG_ERROR);
	if (argc != 2) {
		sj_error("usage: gen-tapset TEMPLATE >stapjava.stp, or gen-tapset --vars");
		return 2;
	}
	if (strcmp(argv[1], "--vars") == 0)
		return print_vars() == 0 ? 0 : 1;
	g.path = argv[1];
	if (!(in = fopen(g.path, "r"))) {
		sj_error("%s: %s", g.path, strerror(errno));
		return 1;
	}
	rc = sj_buf_puts(&g.out, "// Generated by tapset/gen-tapset from tapset/stapjava.stp.in and the tables of\n"
				 "// runtime/events.h and translator-patches/sj_emit.c: edit those.\n");
	rc = rc ? -ENOMEM : expand(&g, in);
	fclose(in);
	if (rc < 0)
		sj_error("%s: %s", g.path, strerror(-rc));
	else if (g.errors == 0 && (fwrite(g.out.data, 1, g.out.len, stdout) != g.out.len || fflush(stdout) != 0))
		rc = -EIO, sj_error("writing stapjava.stp: %s", strerror(errno));
	sj_buf_free(&g.out);
	return rc < 0 || g.errors ? 1 : 0;
}

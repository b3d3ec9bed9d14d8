/* registry.c: see registry.h. */
#include "registry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "jfrspec.h"

void registry_init(struct registry *r)
{
	memset(r, 0, sizeof *r);
}

void registry_free(struct registry *r)
{
	free(r->entries);
	free(r->jfr);
	free(r->jfr_slots);
	registry_init(r);
}

int registry_add(struct registry *r, uint8_t kind, uint8_t events, const char *text,
		 char *err, size_t errlen)
{
	enum pattern_kind pk = kind == WIRE_KIND_METHOD ? PATTERN_METHOD : PATTERN_CLASS;
	struct registry_entry *grown;
	int rc;

	if (events == 0 || kind < WIRE_KIND_METHOD || kind > WIRE_KIND_EXCEPTION)
		return -EINVAL;
	grown = realloc(r->entries, (r->n + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	r->entries = grown;
	rc = pattern_compile(&grown[r->n].pat, pk, text, strlen(text), err, errlen);
	if (rc < 0)
		return rc;
	grown[r->n].kind = kind;
	grown[r->n].events = events;
	r->n++;
	return 0;
}

static bool entry_matches(const struct registry_entry *e, const struct wire_str *name,
			  pattern_descends_fn descends, void *ctx)
{
	if (e->kind == WIRE_KIND_METHOD)
		return pattern_match_method_via(&e->pat, name->ptr, name->len, descends, ctx);
	return pattern_match_class_name(&e->pat, name->ptr, name->len);
}

int registry_family_wanted(const struct registry *r, unsigned code)
{
	const struct event_desc *d = events_get(code);

	if (!d || d->family == EVENT_BY_PATTERN || d->family == EVENT_BOOKKEEPING)
		return -1;
	return d->family == EVENT_ALWAYS || registry_family_on(r, d->family);
}

bool registry_wants(const struct registry *r, const struct wire_event *ev)
{
	return registry_wants_counted(r, ev, NULL);
}

bool registry_wants_counted(const struct registry *r, const struct wire_event *ev, uint64_t *hits)
{
	return registry_wants_via(r, ev, hits, NULL, NULL);
}

bool registry_wants_via(const struct registry *r, const struct wire_event *ev, uint64_t *hits,
			pattern_descends_fn descends, void *ctx)
{
	const struct event_desc *d = events_get(ev->code);
	int family = registry_family_wanted(r, ev->code);
	bool wanted = false;

	if (family >= 0)
		return family;
	if (!d || d->family != EVENT_BY_PATTERN)
		return false;
	for (size_t i = 0; i < r->n; i++) {
		if (r->entries[i].kind == d->kind && (r->entries[i].events & d->bit) &&
		    entry_matches(&r->entries[i], &ev->name, descends, ctx)) {
			wanted = true;
			if (!hits)
				break;
			hits[i]++;
		}
	}
	return wanted;
}

bool registry_is_empty(const struct registry *r)
{
	return r->n == 0 && !r->families && !r->jfr_len;
}

int registry_add_jfr(struct registry *r, const char *spec, size_t len, int slot, char *err, size_t errlen)
{
	struct jfrspec_entry e;
	int8_t *slots;
	char *grown;

	if (jfrspec_parse(spec, len, &e, err, errlen) < 0)
		return -EINVAL;
	if (r->jfr_entries == JFRSPEC_MAX_ENTRIES) {
		snprintf(err, errlen, "more than %u event types", JFRSPEC_MAX_ENTRIES);
		return -EINVAL;
	}
	slots = realloc(r->jfr_slots, r->jfr_entries + 1);
	if (!slots)
		return -ENOMEM;
	r->jfr_slots = slots;
	slots[r->jfr_entries] = (int8_t)slot;
	grown = realloc(r->jfr, r->jfr_len + len + 2);
	if (!grown)
		return -ENOMEM;
	r->jfr = grown;
	if (r->jfr_len)
		r->jfr[r->jfr_len++] = '\n';
	memcpy(r->jfr + r->jfr_len, spec, len);
	r->jfr_len += len;
	r->jfr[r->jfr_len] = '\0';
	r->jfr_entries++;
	return 0;
}

int registry_jfr_disable(struct registry *r)
{
	static const char off[] = "enabled=false";
	size_t cap = r->jfr_len + r->jfr_entries * (sizeof off + 1) + 1, n = 0;
	char *text = malloc(cap);

	if (!text)
		return -ENOMEM;
	for (const char *line = r->jfr; line && *line;) {
		size_t len = strcspn(line, "\n");
		n += (size_t)snprintf(text + n, cap - n, "%s%.*s%c%s", n ? "\n" : "", (int)len, line,
				      memchr(line, '#', len) ? ';' : '#', off);
		line += len + (line[len] ? 1 : 0);
	}
	free(r->jfr);
	r->jfr = text;
	r->jfr_len = n;
	return 0;
}

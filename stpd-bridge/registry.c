/* registry.c: see registry.h. */
#include "registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void registry_init(struct registry *r)
{
	memset(r, 0, sizeof *r);
}

void registry_free(struct registry *r)
{
	free(r->entries);
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

/* The registration kind and event bit a decoded event belongs to. */
static bool event_kind_bit(unsigned code, uint8_t *kind, uint8_t *bit)
{
	static const struct {
		unsigned code;
		uint8_t kind, bit;
	} map[] = {
		{ WIRE_EV_METHOD_ENTER, WIRE_KIND_METHOD, WIRE_METHOD_ENTER },
		{ WIRE_EV_METHOD_EXIT, WIRE_KIND_METHOD, WIRE_METHOD_RETURN },
		{ WIRE_EV_METHOD_COMPILE, WIRE_KIND_METHOD, WIRE_METHOD_COMPILE },
		{ WIRE_EV_CLASS_LOAD, WIRE_KIND_CLASS, WIRE_CLASS_LOAD },
		{ WIRE_EV_CLASS_PREPARE, WIRE_KIND_CLASS, WIRE_CLASS_PREPARE },
		{ WIRE_EV_CLASS_UNLOAD, WIRE_KIND_CLASS, WIRE_CLASS_UNLOAD },
		{ WIRE_EV_EXCEPTION_THROWN, WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_THROWN },
		{ WIRE_EV_EXCEPTION_CATCH, WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_CATCH },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].code == code) {
			*kind = map[i].kind;
			*bit = map[i].bit;
			return true;
		}
	return false;
}

static bool entry_matches(const struct registry_entry *e, const struct wire_str *name)
{
	if (e->kind == WIRE_KIND_METHOD)
		return pattern_match_method(&e->pat, name->ptr, name->len);
	return pattern_match_class(&e->pat, name->ptr, name->len);
}

int registry_family_wanted(const struct registry *r, unsigned code)
{
	switch (code) {
	case WIRE_EV_THREAD_START:
	case WIRE_EV_THREAD_END:
		return r->threads;
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
	case WIRE_EV_MONITOR_WAIT:
	case WIRE_EV_MONITOR_WAITED:
		return r->monitors;
	case WIRE_EV_GC_START:
	case WIRE_EV_GC_FINISH:
		return r->gc;
	case WIRE_EV_VM_INIT:
	case WIRE_EV_VM_DEATH:
		return r->vm;
	case WIRE_EV_LOST:
		return 1;
	default:
		return -1;
	}
}

bool registry_wants(const struct registry *r, const struct wire_event *ev)
{
	uint8_t kind, bit;
	int family = registry_family_wanted(r, ev->code);

	if (family >= 0)
		return family;
	if (!event_kind_bit(ev->code, &kind, &bit))
		return false;
	for (size_t i = 0; i < r->n; i++)
		if (r->entries[i].kind == kind && (r->entries[i].events & bit) &&
		    entry_matches(&r->entries[i], &ev->name))
			return true;
	return false;
}

bool registry_is_empty(const struct registry *r)
{
	return r->n == 0 && !r->gc && !r->threads && !r->monitors && !r->vm;
}

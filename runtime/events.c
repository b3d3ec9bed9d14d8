/* events.c: see events.h. */
#include "events.h"

#include <string.h>

#define FIRST_CODE 0x80u
#define LAST_CODE  WIRE_EV_LAST_EXTENSION

#define EVENT_MARKER_NAME_EVENT_MARKER(m) #m
#define EVENT_MARKER_NAME_EVENT_NO_MARKER(m) NULL
#define EVENT_FIELDS(...) { __VA_ARGS__ }
#define EVENT_ROW(code, name, label, family, kind, bit, has, marker, caps, fields)              \
	[(code) - FIRST_CODE] = { code, name, label, family, kind, bit, EVENT_MARKER_NAME_##has(marker), \
				  caps, EVENT_FIELDS fields },

/* indexed by code - FIRST_CODE; codes that are no event have no name */
static const struct event_desc table[LAST_CODE - FIRST_CODE + 1] = { STAPJAVA_EVENTS(EVENT_ROW) };

#define N_ROWS (sizeof table / sizeof table[0])

const struct event_desc *events_get(unsigned code)
{
	if (code < FIRST_CODE || code > LAST_CODE || !table[code - FIRST_CODE].name)
		return NULL;
	return &table[code - FIRST_CODE];
}

const struct event_desc *events_by_kind_bit(uint8_t kind, uint8_t bit)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (table[i].name && table[i].family == EVENT_BY_PATTERN && table[i].kind == kind &&
		    table[i].bit == bit)
			return &table[i];
	return NULL;
}

const char *events_word(const struct event_desc *d)
{
	const char *dot = d->label ? strchr(d->label, '.') : NULL;

	return dot ? dot + 1 : "";
}

/* The list's order, not the codes': ClassUnload (an extension) comes after
 * ClassLoad and ClassPrepare because the list says so. */
const struct event_desc *events_of_kind(uint8_t kind, size_t i)
{
#define EVENT_OF_KIND(code, name, label, family, k, bit, has, marker, caps, fields) \
	if ((family) == EVENT_BY_PATTERN && (k) == kind && n++ == i)                     \
		return events_get(code);
	size_t n = 0;

	STAPJAVA_EVENTS(EVENT_OF_KIND)
	return NULL;
#undef EVENT_OF_KIND
}

const struct event_desc *events_by_kind_word(uint8_t kind, const char *word, size_t len)
{
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct event_desc *d = &table[i];
		if (d->name && d->family == EVENT_BY_PATTERN && d->kind == kind &&
		    strlen(events_word(d)) == len && memcmp(events_word(d), word, len) == 0)
			return d;
	}
	return NULL;
}

const struct event_desc *events_by_label(const char *label, size_t len)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (table[i].label && strlen(table[i].label) == len && memcmp(table[i].label, label, len) == 0)
			return &table[i];
	return NULL;
}

#define FAMILY_ROW(family, name, probe, command, ext_only) { family, name, probe, command, ext_only },
const struct family_desc event_families[N_SWITCHED_FAMILIES] = { STAPJAVA_FAMILIES(FAMILY_ROW) };

const struct family_desc *events_family(enum event_family f)
{
	for (size_t i = 0; i < N_SWITCHED_FAMILIES; i++)
		if (event_families[i].family == f)
			return &event_families[i];
	return NULL;
}

const struct family_desc *events_family_of_switch(unsigned command)
{
	for (size_t i = 0; i < N_SWITCHED_FAMILIES; i++)
		if (event_families[i].switch_command == command)
			return &event_families[i];
	return NULL;
}

const struct family_desc *events_family_by_name(const char *name)
{
	for (size_t i = 0; i < N_SWITCHED_FAMILIES; i++)
		if (strcmp(event_families[i].name, name) == 0)
			return &event_families[i];
	return NULL;
}

/* events.c: see events.h. */
#include "events.h"

#include <string.h>

#define FIRST_CODE 0x80u
#define LAST_CODE  0x98u

#define EVENT_MARKER_NAME_EVENT_MARKER(m) #m
#define EVENT_MARKER_NAME_EVENT_NO_MARKER(m) NULL
#define EVENT_ROW(code, name, label, family, kind, bit, has, marker) \
	[(code) - FIRST_CODE] = { code, name, label, family, kind, bit, EVENT_MARKER_NAME_##has(marker) },

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

const struct event_desc *events_by_label(const char *label, size_t len)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (table[i].label && strlen(table[i].label) == len && memcmp(table[i].label, label, len) == 0)
			return &table[i];
	return NULL;
}

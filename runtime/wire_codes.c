/* wire_codes.c: names of wire codes, as the seed spells them (CamelCase);
 * the events' are in their table (events.h). What kind of code each is,
 * and so which commands the early-Appendix window ignores. */
#include "wire.h"

#include "events.h"

#include <stddef.h>

static const char *const appendix_command_names[] = {
	[WIRE_CMD_REGISTER_METHOD - 0x40]    = "RegisterMethod",
	[WIRE_CMD_REGISTER_CLASS - 0x40]     = "RegisterClass",
	[WIRE_CMD_REGISTER_EXCEPTION - 0x40] = "RegisterException",
	[WIRE_CMD_GC_EVENTS - 0x40]          = "GcEvents",
	[WIRE_CMD_THREAD_EVENTS - 0x40]      = "ThreadEvents",
	[WIRE_CMD_MONITOR_EVENTS - 0x40]     = "MonitorEvents",
	[WIRE_CMD_OPTIONAL_DATA - 0x40]      = "RequestForOptionalData",
};

static const char *const extension_command_names[] = {
	[WIRE_CMD_REGISTER - 0x50]      = "Register",
	[WIRE_CMD_UNREGISTER - 0x50]    = "Unregister",
	[WIRE_CMD_RESET - 0x50]         = "Reset",
	[WIRE_CMD_VM_EVENTS - 0x50]     = "VmEvents",
	[WIRE_CMD_DISPATCH_MODE - 0x50] = "DispatchMode",
	[WIRE_CMD_ACK - 0x50]           = "Ack",
	[WIRE_CMD_START - 0x50]         = "Start",
	[WIRE_CMD_FIRE_IN_THREAD - 0x50] = "FireInThread",
	[WIRE_CMD_REGISTER_SLOT - 0x50] = "RegisterSlot",
	[WIRE_CMD_LIST_MATCHES - 0x50]  = "ListMatches",
	[WIRE_CMD_JFR_SETTINGS - 0x50]  = "JfrSettings",
	[WIRE_CMD_JFR_EVENT - 0x50]     = "JfrEvent",
};

#define TABLE_LEN(t) (sizeof(t) / sizeof((t)[0]))

static const char *name_in(const char *const *table, size_t n, unsigned first, unsigned code)
{
	if (code < first || code - first >= n)
		return NULL;
	return table[code - first];
}

const char *wire_event_name(unsigned code)
{
	const struct event_desc *d = events_get(code);

	return d ? d->name : NULL;
}

const char *wire_command_name(unsigned code)
{
	const char *name;

	if (code == WIRE_CMD_HELLO)
		return "Hello";
	name = name_in(appendix_command_names, TABLE_LEN(appendix_command_names), 0x40, code);
	if (name)
		return name;
	return name_in(extension_command_names, TABLE_LEN(extension_command_names), 0x50, code);
}

bool wire_event_is_extension(unsigned code)
{
	return code >= WIRE_EV_HELLO && code <= WIRE_EV_LAST_EXTENSION;
}

bool wire_command_is_extension(unsigned code)
{
	return (code >= WIRE_CMD_REGISTER && code <= WIRE_CMD_LAST_EXTENSION) || code == WIRE_CMD_HELLO;
}

bool wire_early_window_ignores(struct wire_early_window *w, const struct wire_peer *peer, unsigned code)
{
	if (code >= WIRE_CMD_REGISTER && code <= WIRE_CMD_LAST_EXTENSION)
		w->closed = true;
	if (w->closed || !(peer->caps & WIRE_CAP_EARLY_APPENDIX) ||
	    code < WIRE_CMD_REGISTER_METHOD || code > WIRE_CMD_OPTIONAL_DATA)
		return false;
	w->ignored++;
	return true;
}

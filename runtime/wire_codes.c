/* wire_codes.c: names of wire codes, as the seed spells them (CamelCase). */
#include "wire.h"

#include <stddef.h>

static const char *const appendix_event_names[] = {
	[WIRE_EV_METHOD_ENTER - 0x80]     = "MethodEnter",
	[WIRE_EV_METHOD_EXIT - 0x80]      = "MethodExit",
	[WIRE_EV_METHOD_COMPILE - 0x80]   = "MethodCompile",
	[WIRE_EV_CLASS_LOAD - 0x80]       = "ClassLoad",
	[WIRE_EV_CLASS_PREPARE - 0x80]    = "ClassPrepare",
	[WIRE_EV_EXCEPTION_THROWN - 0x80] = "ExceptionThrown",
	[WIRE_EV_EXCEPTION_CATCH - 0x80]  = "ExceptionCatch",
	[WIRE_EV_THREAD_START - 0x80]     = "ThreadStarted",
	[WIRE_EV_THREAD_END - 0x80]       = "ThreadFinished",
	[WIRE_EV_MONITOR_ENTER - 0x80]    = "MonitorContendedEnter",
	[WIRE_EV_MONITOR_ENTERED - 0x80]  = "MonitorContendedEntered",
	[WIRE_EV_MONITOR_WAIT - 0x80]     = "MonitorWait",
	[WIRE_EV_MONITOR_WAITED - 0x80]   = "MonitorWaited",
};

static const char *const extension_event_names[] = {
	[WIRE_EV_HELLO - 0x90]        = "Hello",
	[WIRE_EV_GC_START - 0x90]     = "GcStart",
	[WIRE_EV_GC_FINISH - 0x90]    = "GcFinish",
	[WIRE_EV_VM_INIT - 0x90]      = "VmInit",
	[WIRE_EV_VM_DEATH - 0x90]     = "VmDeath",
	[WIRE_EV_CLASS_UNLOAD - 0x90] = "ClassUnload",
	[WIRE_EV_THREAD_NAME - 0x90]  = "ThreadName",
	[WIRE_EV_LOST - 0x90]         = "Lost",
	[WIRE_EV_NOTICE - 0x90]       = "Notice",
};

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
	const char *name = name_in(appendix_event_names, TABLE_LEN(appendix_event_names), 0x80, code);

	if (name)
		return name;
	return name_in(extension_event_names, TABLE_LEN(extension_event_names), 0x90, code);
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
	return code >= WIRE_EV_HELLO && code <= WIRE_EV_NOTICE;
}

bool wire_command_is_extension(unsigned code)
{
	return (code >= WIRE_CMD_REGISTER && code <= WIRE_CMD_REGISTER_SLOT) || code == WIRE_CMD_HELLO;
}

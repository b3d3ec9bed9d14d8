/* Unit tests for runtime/events.c: the one table of events. Every code
 * round-trips through it, and what the bridge, the markers and --print read
 * from it agrees with the wire codec. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "events.h"
#include "markers.h"
#include "print.h"
#include "wire.h"

/* Every byte is an event of the table exactly when the codec knows it as an event. */
static void test_every_code_round_trips(void **state)
{
	unsigned n = 0;

	(void)state;
	for (unsigned code = 0; code < 0x200; code++) {
		const struct event_desc *d = events_get(code);
		const char *name = wire_event_name(code);

		if (!d) {
			assert_null(name);
			assert_null(print_event_label(code));
			assert_false(markers_has_family(code));
			continue;
		}
		n++;
		assert_int_equal(d->code, code);
		assert_string_equal(d->name, name);
		assert_ptr_equal(print_event_label(code), d->label);
		/* a family marker exactly for the events a switch (or nothing: Lost) selects */
		assert_int_equal(markers_has_family(code), d->marker != NULL);
		assert_int_equal(d->marker != NULL,
				 d->family != EVENT_BY_PATTERN && d->family != EVENT_BOOKKEEPING);
		/* bookkeeping has no line; everything else has a label that finds it */
		assert_int_equal(d->label == NULL, d->family == EVENT_BOOKKEEPING);
		if (d->label)
			assert_ptr_equal(events_by_label(d->label, strlen(d->label)), d);
		if (d->family == EVENT_BY_PATTERN) {
			assert_true(d->kind >= WIRE_KIND_METHOD && d->kind <= WIRE_KIND_EXCEPTION);
			assert_int_equal(__builtin_popcount(d->bit), 1);
			assert_ptr_equal(events_by_kind_bit(d->kind, d->bit), d);
			assert_true(strncmp(d->label, d->kind == WIRE_KIND_METHOD ? "method." :
					    d->kind == WIRE_KIND_CLASS ? "class." : "exception.",
					    strlen(d->kind == WIRE_KIND_METHOD ? "method." :
						   d->kind == WIRE_KIND_CLASS ? "class." : "exception.")) == 0);
		} else {
			assert_int_equal(d->kind, 0);
			assert_int_equal(d->bit, 0);
		}
	}
	/* Appendix A's 13, ours 18 (0x90..0xA1) */
	assert_int_equal(n, 31);
}

/* Where a decoded event keeps each field (struct wire_event), as events.h
 * says; the test's own copy, so that a row that lists two fields of one
 * place (a class name and a method name, both in .name) is caught. */
static const char *field_place(uint8_t f)
{
	switch (f) {
	case EF_METHOD_NAME: case EF_CLASS_NAME: case EF_EXCEPTION_NAME: case EF_THREAD_NAME:
	case EF_NOTICE_TEXT: case EF_MATCHED_NAME: case EF_JFR_BYTES:
		return "name";
	case EF_SITE_METHOD: case EF_ROOT_CLASS:
		return "method";
	case EF_THREAD: case EF_THREAD_U32:
		return "thread";
	case EF_CODE_SIZE: case EF_TIMEOUT_MS: case EF_TOTAL:
		return "u32";
	case EF_RETVAL: case EF_RETVAL_TYPE:
		return "retval";
	case EF_OBJECT: return "object";
	case EF_METHOD_ID: return "method_id";
	case EF_VALUES: return "values";
	case EF_POPPED: return "popped";
	case EF_LOST: return "lost";
	case EF_KIND: return "kind";
	case EF_JFR_FLAGS: return "jfr_flags";
	case EF_HELLO: return "hello";
	case EF_JAVA_THREAD_ID: return "java_tid";
	case EF_NOTICE_SUBJECT: return "method";
	default: return NULL;
	}
}

/* Each row's payload: known fields, one per place, to EF_END; the
 * capabilities: none for the seed's events and the Hello that negotiates,
 * some for every extension. */
static void test_every_payload_is_well_formed(void **state)
{
	(void)state;
	for (unsigned code = 0; code < 0x100; code++) {
		const struct event_desc *d = events_get(code);
		size_t n = 0;

		if (!d)
			continue;
		for (; n <= EVENT_MAX_FIELDS && d->fields[n] != EF_END; n++) {
			const char *place = field_place(d->fields[n]);

			assert_non_null(place);
			assert_true(d->fields[n] < EF_COUNT);
			for (size_t k = 0; k < n; k++)
				if (strcmp(field_place(d->fields[k]), place) == 0)
					fail_msg("%s: two fields in .%s", d->name, place);
		}
		assert_true(n <= EVENT_MAX_FIELDS);
		/* the Hello alone is its whole payload; a field that only some
		 * streams carry ends one */
		for (size_t k = 0; k < n; k++) {
			if (d->fields[k] == EF_HELLO)
				assert_int_equal(n, 1);
			if (d->fields[k] == EF_JAVA_THREAD_ID || d->fields[k] == EF_NOTICE_SUBJECT)
				assert_int_equal(k, n - 1);
		}
		if (code < WIRE_EV_HELLO)
			assert_int_equal(d->caps, 0);
		else if (code == WIRE_EV_HELLO)
			assert_int_equal(d->caps, 0);
		else
			assert_int_not_equal(d->caps, 0);
		assert_int_equal(d->caps & ~WIRE_CAP_ALL, 0);
	}
	/* a few rows as PROTOCOL.md has them */
	assert_memory_equal(events_get(WIRE_EV_METHOD_EXIT)->fields,
			    ((const uint8_t[]){ EF_METHOD_NAME, EF_THREAD, EF_POPPED, EF_RETVAL, EF_END }), 5);
	assert_memory_equal(events_get(WIRE_EV_CLASS_LOAD)->fields,
			    ((const uint8_t[]){ EF_CLASS_NAME, EF_THREAD_U32, EF_END }), 3);
	assert_int_equal(events_get(WIRE_EV_GC_START)->fields[0], EF_END);
	assert_int_equal(events_get(WIRE_EV_METHOD_EXIT_ID_VALUE)->caps,
			 WIRE_CAP_METHOD_IDS | WIRE_CAP_METHOD_ID_VALUES);
}

/* Every kind's every event bit has its event: a registration can select each. */
static void test_every_registration_bit_has_an_event(void **state)
{
	static const uint8_t bits[] = { [WIRE_KIND_METHOD] = 0x7, [WIRE_KIND_CLASS] = 0x7,
					[WIRE_KIND_EXCEPTION] = 0x3 };

	(void)state;
	for (uint8_t kind = WIRE_KIND_METHOD; kind <= WIRE_KIND_EXCEPTION; kind++) {
		for (uint8_t bit = 1; bit; bit <<= 1) {
			const struct event_desc *d = events_by_kind_bit(kind, bit);
			if (bits[kind] & bit)
				assert_non_null(d);
			else
				assert_null(d);
		}
	}
	/* each kind's words in the list's order, the first the default */
	static const char *const words[][4] = {
		[WIRE_KIND_METHOD] = { "enter", "return", "compile" },
		[WIRE_KIND_CLASS] = { "load", "prepare", "unload" },
		[WIRE_KIND_EXCEPTION] = { "thrown", "catch" },
	};
	for (uint8_t kind = WIRE_KIND_METHOD; kind <= WIRE_KIND_EXCEPTION; kind++) {
		for (size_t i = 0; i < 4; i++) {
			const struct event_desc *ev = events_of_kind(kind, i);
			if (!words[kind][i]) {
				assert_null(ev);
				break;
			}
			assert_non_null(ev);
			assert_string_equal(events_word(ev), words[kind][i]);
			assert_ptr_equal(events_by_kind_word(kind, words[kind][i], strlen(words[kind][i])), ev);
		}
	}
	assert_null(events_by_kind_word(WIRE_KIND_EXCEPTION, "enter", 5));
	assert_null(events_by_label("method", 6));
	assert_null(events_by_label("method.enterx", 13));
	assert_ptr_equal(events_by_label("method.enterx", 12), events_get(WIRE_EV_METHOD_ENTER));
}

/* Every switched family: its switch command and name find it; every event
 * of a family is in one of them, and each family has events. */
static void test_families(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_SWITCHED_FAMILIES; i++) {
		const struct family_desc *f = &event_families[i];
		unsigned n = 0;

		assert_ptr_equal(events_family(f->family), f);
		assert_ptr_equal(events_family_of_switch(f->switch_command), f);
		assert_ptr_equal(events_family_by_name(f->name), f);
		assert_string_equal(wire_command_name(f->switch_command),
				    f->family == EVENT_FAMILY_GC ? "GcEvents" : f->family == EVENT_FAMILY_VM ? "VmEvents"
				    : f->family == EVENT_FAMILY_THREADS ? "ThreadEvents" : "MonitorEvents");
		for (unsigned code = 0x80; code <= 0x98; code++) {
			const struct event_desc *d = events_get(code);
			if (d && d->family == f->family) {
				n++;
				/* its label is java.PROBE.* */
				assert_int_equal(strncmp(d->label, f->probe, strlen(f->probe)), 0);
				assert_int_equal(d->label[strlen(f->probe)], '.');
			}
		}
		assert_true(n >= 2);
	}
	assert_null(events_family(EVENT_BY_PATTERN));
	assert_null(events_family(EVENT_ALWAYS));
	assert_null(events_family_of_switch(WIRE_CMD_REGISTER));
	/* VM last: the order stap-java writes the families in (sj_emit.c) */
	assert_int_equal(event_families[N_SWITCHED_FAMILIES - 1].family, EVENT_FAMILY_VM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_round_trips),
		cmocka_unit_test(test_every_payload_is_well_formed),
		cmocka_unit_test(test_every_registration_bit_has_an_event),
		cmocka_unit_test(test_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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
		cmocka_unit_test(test_every_registration_bit_has_an_event),
		cmocka_unit_test(test_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* record_formats.c: the table of recording formats (record.h), the one
 * place that lists them; NULL ends it. */
#include "record.h"

const struct record_needs record_needs_thread_names = {
	.families = EVENT_FAMILY_BIT(EVENT_FAMILY_THREADS),
};

const struct record_format *const record_formats[] = {
	&record_format_jfr,
	&record_format_trc,
	&record_format_trcbin,
	&record_format_clog,
	NULL,
};

/* descriptor.c: see descriptor.h. */
#include "descriptor.h"

#include <errno.h>
#include <string.h>

int descriptor_next(const char *d, size_t len, size_t *pos, char *kind)
{
	size_t p = *pos;

	if (p >= len)
		return -EINVAL;
	*kind = d[p];
	while (p < len && d[p] == '[')
		p++;
	if (p - *pos > 255 || p >= len)
		return -EINVAL;
	switch (d[p]) {
	case 'B': case 'C': case 'F': case 'I': case 'S': case 'Z':
		p++;
		break;
	case 'D': case 'J':
		p++;
		break;
	case 'L': {
		const char *semi = memchr(d + p, ';', len - p);
		if (!semi || semi == d + p + 1)
			return -EINVAL;
		p = (size_t)(semi - d) + 1;
		break;
	}
	default:
		return -EINVAL;
	}
	*pos = p;
	return (*kind == 'J' || *kind == 'D') ? 2 : 1;
}

int descriptor_field_slots(const char *d, size_t len)
{
	size_t pos = 0;
	char kind;
	int n = descriptor_next(d, len, &pos, &kind);

	return n > 0 && pos == len ? n : -1;
}

/* POS just after ')' or -1. */
static long args_end(const char *d, size_t len, int *slots)
{
	size_t pos = 1;
	int n = 0;

	if (len < 3 || d[0] != '(')
		return -EINVAL;
	while (pos < len && d[pos] != ')') {
		char kind;
		int s = descriptor_next(d, len, &pos, &kind);
		if (s < 0)
			return -EINVAL;
		n += s;
	}
	if (pos >= len)
		return -EINVAL;
	*slots = n;
	return (long)pos + 1;
}

int descriptor_arg_slots(const char *d, size_t len)
{
	int n;

	return args_end(d, len, &n) < 0 ? -1 : n;
}

int descriptor_ret_slots(const char *d, size_t len)
{
	int n;
	long at = args_end(d, len, &n);

	if (at < 0)
		return -EINVAL;
	if ((size_t)at + 1 == len && d[at] == 'V')
		return 0;
	return descriptor_field_slots(d + at, len - (size_t)at);
}

char descriptor_ret_kind(const char *d, size_t len)
{
	int n;
	long at = args_end(d, len, &n);

	if (at < 0 || descriptor_ret_slots(d, len) < 0)
		return 0;
	return d[at];
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/target.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bo_target_check_dev(const char *target, const char *what, const char *dev, struct bo_err *err)
{
	if (!dev || !*dev)
		return bo_err_set(err, EINVAL, "%s table: no %s given", target, what);
	for (const char *p = dev; *p; p++)
		if (isspace((unsigned char) *p))
			return bo_err_set(err, EINVAL,
					  "%s table: %s '%s' contains whitespace, which the kernel "
					  "would split into two arguments",
					  target, what, dev);
	return 0;
}

int bo_target_format(char **ret, struct bo_err *err, const char *target, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*ret = NULL;
		return bo_err_set(err, ENOMEM, "%s table: out of memory", target);
	}
	return 0;
}

bool bo_target_next_word(const char **p, char *buf, size_t len)
{
	const char *s = *p, *e;

	while (isspace((unsigned char) *s))
		s++;
	for (e = s; *e && !isspace((unsigned char) *e); e++)
		;
	if (e == s || (size_t) (e - s) >= len)
		return false;
	memcpy(buf, s, (size_t) (e - s));
	buf[e - s] = '\0';
	*p = e;
	return true;
}

bool bo_target_next_u64(const char **p, uint64_t *ret)
{
	const char *s = *p;
	char tok[32];

	if (!bo_target_next_word(&s, tok, sizeof(tok)) || bo_parse_u64(tok, ret) < 0)
		return false;
	*p = s;
	return true;
}

bool bo_target_at_end(const char *p)
{
	while (isspace((unsigned char) *p))
		p++;
	return *p == '\0';
}

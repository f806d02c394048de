// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sanitize.c — a stranger's text made safe for where it goes (sanitize.h): a terminal, a shell
 * line, JSON. Below both input.c, whose rule calls for it, and util.c, whose messages quote
 * such text: it uses nothing of the project.
 */
#include "harness/base/sanitize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at @p (of @n bytes left), 0 when it is not one. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF; and the C1 controls (U+0080..U+009F),
	 * which terminals obey as escapes too. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return len;
}

char *bo_sanitize_n(const char *s, size_t n, bool oneline)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *) s;
	char *out, *o;

	if (!s)
		return NULL;
	/* At worst every byte becomes four. */
	if (n > (SIZE_MAX - 1) / 4)
		return NULL;
	out = malloc(4 * n + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);
		bool keep = len > 1 || (len == 1 && p[i] >= 0x20 && p[i] != 0x7f) ||
			    (len == 1 && !oneline && (p[i] == '\n' || p[i] == '\t'));

		if (keep) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
			continue;
		}
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[p[i] >> 4];
		*o++ = hex[p[i] & 15];
		i++;
	}
	*o = '\0';
	return out;
}

char *bo_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *) s;
	char *out, *o;

	if (!s || n > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(3 * n + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		/* utf8_len() refuses the C1 controls, which are valid UTF-8: kept here. */
		if (!len && p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			len = 2;
		if (len) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = '\0';
	return out;
}

char *bo_sanitize(const char *s, bool oneline)
{
	return s ? bo_sanitize_n(s, strlen(s), oneline) : NULL;
}

char *bo_shell_quote(const char *s)
{
	size_t n = 0;
	char *out, *o;

	if (!s)
		return NULL;
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    "@%+=:,./_-") == strlen(s))
		return strdup(s);
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	out = malloc(n + 3);
	if (!out)
		return NULL;
	o = out;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

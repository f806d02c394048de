// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/scenario/ini.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"

#define MAX_FILE (1u << 20)

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* @s without the blanks at either end, in place. */
static char *trim(char *s)
{
	char *e;

	while (blank(*s))
		s++;
	e = s + strlen(s);
	while (e > s && blank(e[-1]))
		*--e = '\0';
	return s;
}

/* Cut an inline comment: ';' after a blank, to the end of the line. */
static void cut_comment(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == ';' && p > s && blank(p[-1])) {
			*p = '\0';
			return;
		}
}

/* Put "ORIGIN:LINE: " in front of a message that does not name the file yet. */
static int located(struct bo_err *err, const char *origin, unsigned line, int r)
{
	size_t n = strlen(origin);

	if (err && strncmp(err->msg, origin, n))
		return bo_err_prefix(err, "%s:%u", origin, line);
	return r;
}

int bo_ini_parse(const char *text, size_t len, const char *origin,
		 int (*fn)(void *ctx, const struct bo_ini_item *it, struct bo_err *err), void *ctx,
		 struct bo_err *err)
{
	_cleanup_free_ char *buf = malloc(BO_INI_LINE_MAX + 2);
	char section[BO_INI_LINE_MAX + 1] = "", name[BO_INI_LINE_MAX + 1] = "";
	bool have_name = false;
	unsigned lineno = 0;
	size_t pos = 0;

	if (!buf)
		return bo_err_set(err, ENOMEM, "%s: out of memory", origin);
	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - line) : len - pos;
		struct bo_ini_item it = {.origin = origin, .line = ++lineno};
		char *s, *sep;
		int r;

		pos += n + (nl != NULL);
		if (memchr(line, '\0', n))
			return bo_err_set(err, EINVAL, "%s:%u: NUL byte in the file", origin,
					  lineno);
		if (n > BO_INI_LINE_MAX)
			return bo_err_set(err, E2BIG, "%s:%u: line longer than %d bytes", origin,
					  lineno, BO_INI_LINE_MAX);
		memcpy(buf, line, n);
		buf[n] = '\0';
		s = trim(buf);
		if (!*s || *s == ';' || *s == '#')
			continue;
		cut_comment(s);
		s = trim(s);
		if (*s == '[') {
			char *end = strchr(s, ']'), *arg;

			if (!end)
				return bo_err_set(err, EINVAL,
						  "%s:%u: syntax error: '[' without ']'", origin,
						  lineno);
			if (*trim(end + 1))
				return bo_err_set(err, EINVAL,
						  "%s:%u: syntax error: text after ']'", origin,
						  lineno);
			*end = '\0';
			s = trim(s + 1);
			arg = s + strcspn(s, " \t");
			have_name = *arg != '\0';
			if (have_name) {
				*arg++ = '\0';
				snprintf(name, sizeof(name), "%s", trim(arg));
			}
			snprintf(section, sizeof(section), "%s", s);
			it.section = section;
			it.name = have_name ? name : NULL;
			r = fn(ctx, &it, err);
			if (r < 0)
				return located(err, origin, lineno, r);
			continue;
		}
		sep = s + strcspn(s, "=:");
		if (!*sep || sep == s)
			return bo_err_set(
				err, EINVAL,
				"%s:%u: syntax error: expected '[section]' or 'key = value'",
				origin, lineno);
		*sep = '\0';
		it.section = section;
		it.name = have_name ? name : NULL;
		it.key = trim(s);
		it.value = trim(sep + 1);
		r = fn(ctx, &it, err);
		if (r < 0)
			return located(err, origin, lineno, r);
	}
	return 0;
}

int bo_ini_load(const char *path,
		int (*fn)(void *ctx, const struct bo_ini_item *it, struct bo_err *err), void *ctx,
		struct bo_err *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	/* The user's own file, through a symlink too; a FIFO or a device is refused, not
	 * read (docs/safety.md). */
	int r = bo_input_read_path(path, BO_INPUT_FOLLOW, MAX_FILE, &text, &len, err);

	if (r < 0)
		return r;
	return bo_ini_parse(text, len, path, fn, ctx, err);
}

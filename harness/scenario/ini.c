// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict INI reader (ini.h). One function reads a line (split_line()): by it the parser
 * hands on the sections and keys of a file, and the rewriter finds the keys it replaces in a
 * copy of a user's file (nightly's cells, shrink's minimal scenario), so that the two never
 * disagree about what a line is.
 */
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

/* What one line of INI text is, split in place (split_line()). */
struct ini_line {
	enum { LINE_NONE, LINE_SECTION, LINE_KEY } kind; /* NONE: blank, or a comment */
	char *section, *name; /* LINE_SECTION: [section NAME], name NULL without one */
	char *key, *value;    /* LINE_KEY */
};

/*
 * The one reading of a line, @s (NUL-terminated, without its newline), split in place into
 * @ret. 0, or -EINVAL with what is wrong with it in *@why: every reader of INI text here, the
 * parser and the rewriter alike, takes a line as this says.
 */
static int split_line(char *s, struct ini_line *ret, const char **why)
{
	char *sep;

	*ret = (struct ini_line){.kind = LINE_NONE};
	s = trim(s);
	if (!*s || *s == ';' || *s == '#')
		return 0;
	cut_comment(s);
	s = trim(s);
	if (*s == '[') {
		char *end = strchr(s, ']'), *arg;

		*why = !end ? "syntax error: '[' without ']'" : "syntax error: text after ']'";
		if (!end || *trim(end + 1))
			return -EINVAL;
		*end = '\0';
		s = trim(s + 1);
		arg = s + strcspn(s, " \t");
		if (*arg) {
			*arg++ = '\0';
			ret->name = trim(arg);
		}
		ret->kind = LINE_SECTION;
		ret->section = s;
		return 0;
	}
	sep = s + strcspn(s, "=:");
	*why = "syntax error: expected '[section]' or 'key = value'";
	if (!*sep || sep == s)
		return -EINVAL;
	*sep = '\0';
	ret->kind = LINE_KEY;
	ret->key = trim(s);
	ret->value = trim(sep + 1);
	return 0;
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
		struct ini_line l;
		const char *why;
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
		if (split_line(buf, &l, &why) < 0)
			return bo_err_set(err, EINVAL, "%s:%u: %s", origin, lineno, why);
		if (l.kind == LINE_NONE)
			continue;
		if (l.kind == LINE_SECTION) {
			have_name = l.name != NULL;
			if (have_name)
				snprintf(name, sizeof(name), "%s", l.name);
			snprintf(section, sizeof(section), "%s", l.section);
		}
		it.section = section;
		it.name = have_name ? name : NULL;
		if (l.kind == LINE_KEY) {
			it.key = l.key;
			it.value = l.value;
		}
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

static void put_missing(FILE *out, const char *section, const char *const (*sets)[3], bool *done)
{
	for (size_t i = 0; sets[i][0]; i++)
		if (!done[i] && !strcmp(sets[i][0], section)) {
			if (sets[i][2])
				fprintf(out, "%s = %s\n", sets[i][1], sets[i][2]);
			done[i] = true;
		}
}

/* Blank lines are held back until the next line, so that keys added at the end of a
 * section go before the blank lines that separate it from the next one. */
static void flush_blanks(FILE *out, unsigned *blanks)
{
	for (; *blanks; (*blanks)--)
		fputc('\n', out);
}

/* Whether the key line @l of @section is one of @sets (@n), and so is written as they say
 * (or not at all) rather than as it is. */
static bool override_key(FILE *out, const struct ini_line *l, const char *section,
			 const char *const (*sets)[3], size_t n, bool *done, unsigned *blanks)
{
	bool replaced = false;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(sets[i][0], section) && !strcmp(sets[i][1], l->key)) {
			if (sets[i][2] && !done[i]) {
				flush_blanks(out, blanks);
				fprintf(out, "%s = %s\n", l->key, sets[i][2]);
			}
			done[i] = true;
			replaced = true;
		}
	return replaced;
}

int bo_ini_override(FILE *in, FILE *out, const char *const (*sets)[3])
{
	_cleanup_free_ char *line = NULL, *copy = malloc(BO_INI_LINE_MAX + 2);
	_cleanup_free_ bool *done = NULL;
	char section[BO_INI_LINE_MAX + 2] = "";
	size_t cap = 0, n = 0;
	unsigned blanks = 0;
	ssize_t len;

	while (sets[n][0])
		n++;
	done = calloc(n + 1, sizeof(*done));
	if (!done || !copy)
		return -ENOMEM;
	while ((len = bo_input_read_line(in, BO_INI_LINE_MAX, &line, &cap)) > 0) {
		struct ini_line l;
		const char *why;

		if (!line[strspn(line, " \t\r\n")]) {
			blanks++;
			continue;
		}
		/* The line is read by the parser's rule, from a copy: it is written as it is. */
		snprintf(copy, BO_INI_LINE_MAX + 2, "%.*s", (int) strcspn(line, "\n"), line);
		if (split_line(copy, &l, &why) < 0)
			l.kind = LINE_NONE; /* the parser's to refuse: copied */
		if (l.kind == LINE_SECTION) {
			put_missing(out, section, sets, done);
			snprintf(section, sizeof(section), "%s%s%s", l.section, l.name ? " " : "",
				 l.name ? l.name : "");
		} else if (l.kind == LINE_KEY &&
			   override_key(out, &l, section, sets, n, done, &blanks)) {
			continue;
		}
		flush_blanks(out, &blanks);
		fputs(line, out);
		if (line[len - 1] != '\n')
			fputc('\n', out);
	}
	if (len < 0)
		return (int) len;
	put_missing(out, section, sets, done);
	for (size_t i = 0; i < n; i++)
		if (!done[i] && sets[i][2]) {
			fprintf(out, "\n[%s]\n", sets[i][0]);
			put_missing(out, sets[i][0], sets, done);
		}
	flush_blanks(out, &blanks);
	return ferror(out) ? -EIO : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ini.h — the strict INI reader of scenario files and nightly matrices (docs/scenarios.md,
 * "Syntax"): `[section]` or `[section NAME]` lines and `key = value` (or `key: value`) lines;
 * blanks around keys and values, and at the start of a line, are ignored; a line that starts
 * with `;` or `#` is a comment, and so is `;` after a blank up to the end of the line. There
 * are no continuation lines: every line stands alone, so an indented line is never taken as
 * part of the one above. A NUL byte, a line over the limit, a line that is none of these or a
 * `[` without `]` is an error naming the file and the line. bo_ini_override() rewrites keys
 * of such text, its lines read the same way.
 */
#ifndef BO_INI_H
#define BO_INI_H

#include <stddef.h>
#include <stdio.h>

#include "harness/base/util.h"

/* The longest line accepted: a real command line fits. */
#define BO_INI_LINE_MAX 4096

/* One line of content, as the reader hands it on. */
struct bo_ini_item {
	const char *origin;  /* the file (for messages) */
	unsigned line;	     /* 1-based */
	const char *section; /* the current section ("" before the first) */
	const char *name;    /* [section NAME]'s NAME, or NULL */
	const char *key;     /* NULL on a section line */
	const char *value;   /* "" for an empty value */
};

/*
 * Read @len bytes of @text (need not be NUL-terminated), named @origin in messages, calling
 * @fn for each section line (key NULL) and each key line, in order. @fn returns < 0 to stop,
 * with @err filled; its message gets "ORIGIN:LINE: " in front unless it begins with @origin.
 */
_must_check_ int bo_ini_parse(const char *text, size_t len, const char *origin,
			      int (*fn)(void *ctx, const struct bo_ini_item *it,
					struct bo_err *err),
			      void *ctx, struct bo_err *err);

/* The same for the file at @path (at most 1 MiB). */
_must_check_ int bo_ini_load(const char *path,
			     int (*fn)(void *ctx, const struct bo_ini_item *it, struct bo_err *err),
			     void *ctx, struct bo_err *err);

/*
 * Copy the INI text of @in to @out with each key of @sets ({section, key, value} triples,
 * terminated by a NULL section) set: an existing line of that key in that section is
 * replaced, otherwise the key is added at the end of the section (or in a new section at the
 * end). A NULL value removes the key. Lines are read as bo_ini_parse() reads them; one it
 * would refuse is copied as it is. Returns 0 or -errno: -E2BIG for a line longer than
 * BO_INI_LINE_MAX.
 */
_must_check_ int bo_ini_override(FILE *in, FILE *out, const char *const (*sets)[3]);

#endif

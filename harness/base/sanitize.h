/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sanitize.h — a string from a stranger's file (input.h, docs/safety.md) made safe before a
 * terminal, a shell line or a JSON document sees it. Each returns a new string, freed by the
 * caller, or NULL without memory (or for a NULL @s).
 */
#ifndef BO_SANITIZE_H
#define BO_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @s made safe for a terminal, in a new string (NULL without memory): every control
 * character (C0 but newline and tab, DEL, C1) and every byte of invalid UTF-8 is written as
 * \xHH, and a backslash as itself. With @oneline, newline and tab are escaped too.
 */
char *bo_sanitize(const char *s, bool oneline);

/* The same over @len bytes of @s. */
char *bo_sanitize_n(const char *s, size_t len, bool oneline);

/* The @n bytes of @s as valid UTF-8, in a new string: each byte that is not part of a valid
 * sequence becomes U+FFFD. For --json output, whose control characters json-c escapes. */
char *bo_utf8_valid(const char *s, size_t n);

/* @s as one word of a POSIX shell line, in a new string: as it is when it holds only
 * [A-Za-z0-9@%+=:,./_-] (and is not empty), else in single quotes ('\'' for a quote). */
char *bo_shell_quote(const char *s);

#endif

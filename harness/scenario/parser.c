// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every part of the scenario parser (scenario.c, keys.c, device.c, paths.c) uses of its
 * state: the messages, each naming the file and the line (of the parse, or of the key they are
 * about, which the parser keeps for its key table), and a value stored in a key's field. It
 * calls none of them, so they all call down to it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/scenario/scenario_int.h"

/* Record the first error as "ORIGIN:LINE: ..." and stop the parse. */
int scenario_fail(struct scenario_parser *p, int errnum, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (p->failed)
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->failed = true;
	bo_err_set(p->err, errnum, "%s:%d: %s", p->origin, p->lineno, msg);
	return 0;
}

/* An error about line @line, whatever line the parser is at. */
int scenario_fail_at(struct scenario_parser *p, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return bo_err_set(p->err, EINVAL, "%s:%d: %s", p->origin, line, msg);
}

/* An error about key @name found on its line, or about the file when it is absent. */
int scenario_invalid(struct scenario_parser *p, const char *section, const char *name,
		     const char *fmt, ...)
{
	int line = scenario_key_line(p, section, name);
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		return bo_err_set(p->err, EINVAL, "%s:%d: [%s] %s: %s", p->origin, line,
				  scenario_label(p, section), name, msg);
	return bo_err_set(p->err, EINVAL, "%s: [%s] %s: %s", p->origin, scenario_label(p, section),
			  name, msg);
}

int scenario_key_line(const struct scenario_parser *p, const char *section, const char *name)
{
	for (size_t i = 0; i < p->nkeys; i++)
		if (!strcmp(p->keys[i].section, section) && !strcmp(p->keys[i].name, name))
			return p->key_line[i];
	return 0;
}

int scenario_set_string(struct scenario_parser *p, const struct scenario_key *k, const char *value)
{
	char **field = (char **) ((char *) p->sc + k->off);

	free(*field);
	*field = strdup(value);
	if (!*field)
		return scenario_fail(p, ENOMEM, "out of memory");
	return 1;
}

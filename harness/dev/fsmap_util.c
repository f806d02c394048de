// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsmap_util.c — what the readers of each filesystem's tool share (fsmap_int.h): running the
 * tool, cutting its output into lines, tidying and joining the paths it names, and naming the
 * blocks it said nothing about. The calls run one way: fsmap.c to a reader, a reader to here;
 * nothing here calls back.
 */
#include <stdio.h>
#include <string.h>

#include "harness/dev/fsmap_int.h"

static char *const c_locale[] = {"LC_ALL=C", NULL};

/* Run the tool @argv, its output (stderr merged) in @ret. */
int fsmap_run(const char *const *argv, unsigned timeout_ms, struct bo_proc_result *ret,
	      struct bo_err *err)
{
	struct bo_proc_opts o = {
		.argv = (char *const *) argv, /* exec does not write to its arguments */
		.env_add = c_locale,
		.timeout_ms = timeout_ms,
		.max_output = 4u << 20,
		.merge_stderr = true,
	};

	return bo_proc_run(&o, ret, err);
}

/* The first line of a tool's output, for a block it could not map. */
void fsmap_not_mapped(struct bo_fsmap_block *v, size_t n, const char *tool, const char *out)
{
	size_t len = strcspn(out, "\n");

	for (size_t i = 0; i < n; i++)
		if (!v[i].what[0])
			snprintf(v[i].what, sizeof(v[i].what), "not mapped: %s: %.*s", tool,
				 (int) (len > 80 ? 80 : len), out);
}

/* Append @s to @buf (of @len), comma-separated; "..." once it is full. */
void fsmap_append_path(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	if (used + strlen(s) + 6 >= len) {
		if (used + 4 < len && !strstr(buf, "..."))
			strcat(buf, ", ...");
		return;
	}
	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", s);
}

/* One line of a tool's output, cut out in place. */
char *fsmap_next_line(char **p)
{
	char *line = *p, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl)
		*nl++ = '\0';
	*p = nl;
	return line;
}

/* debugfs writes "//f7" for a name in the root directory. */
const char *fsmap_tidy_path(const char *p)
{
	while (p[0] == '/' && p[1] == '/')
		p++;
	return p;
}

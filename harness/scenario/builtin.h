/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * builtin.h — the built-in workloads a scenario may name ([workload] builtin): each family's
 * program and checker mode, its variants and its planted bugs. Internal to bo_scenario:
 * scenario.c checks names against it, builtin.c makes the command lines.
 */
#ifndef BO_SCENARIO_BUILTIN_H
#define BO_SCENARIO_BUILTIN_H

#include <stdbool.h>

/* scenarios/<family>/, executable blackout-<family> with its checker mode; @args (may be "")
 * selects a variant of the family, e.g. SQLite's journal mode. */
struct bo_builtin {
	const char *name, *exe, *args;
	const char *const *bugs; /* the bugs it can plant ([workload] bug), NULL-terminated */
};

/* The builtins' names, for messages. */
#define BO_BUILTIN_NAMES \
	"fsops, bounded, applog, replace, sqlite-wal, sqlite-rollback, kvd, kvd-compact"

/* The builtin called @name, or NULL. */
const struct bo_builtin *bo_builtin_find(const char *name);

/* Whether @b can plant the bug @bug. */
bool bo_builtin_has_bug(const struct bo_builtin *b, const char *bug);

/* Whether @v is all, none, or fsops' op families (BO_FSOPS_FAMILIES, fsops.h) separated by
 * commas, each once. */
bool bo_fsops_families_valid(const char *v);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * builtin.c — the built-in workloads (builtin.h), and the command lines a scenario's workload
 * and checker run (scenario.h).
 */
#include "harness/scenario/builtin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/dev/fstab.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/scenario.h"

static const struct bo_builtin builtins[] = {
	{"fsops", "blackout-fsops", "",
	 (const char *const[]){"ack-without-fsync", "ignore-fsync-error", NULL}},
	/* The bounded space of fsops workloads (blackout-fsops --bounded). */
	{"bounded", "blackout-fsops", "",
	 (const char *const[]){"ack-without-fsync", "ignore-fsync-error", NULL}},
	{"applog", "blackout-applog", "", (const char *const[]){"ack-before-fsync", NULL}},
	{"replace", "blackout-replace", "",
	 (const char *const[]){"no-fsync-before-rename", "no-dir-fsync", NULL}},
	{"sqlite-wal", "blackout-sqlite", " --journal=wal",
	 (const char *const[]){"synchronous-off", NULL}},
	{"sqlite-rollback", "blackout-sqlite", " --journal=delete",
	 (const char *const[]){"synchronous-off", "synchronous-full", NULL}},
	{"kvd", "blackout-kvd", "", (const char *const[]){"skip-fsync", NULL}},
	/* kvd compacting its log in each recovery: the twins of check --recovery-crashes. */
	{"kvd-compact", "blackout-kvd", " --compact",
	 (const char *const[]){"compact-in-place", NULL}},
};

const struct bo_builtin *bo_builtin_find(const char *name)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

bool bo_builtin_has_bug(const struct bo_builtin *b, const char *bug)
{
	for (const char *const *p = b->bugs; *p; p++)
		if (!strcmp(*p, bug))
			return true;
	return false;
}

enum bo_fs bo_scenario_workload_fs(const struct bo_scenario *sc, const char **mkfs)
{
	for (size_t i = 0; i < sc->ndevices; i++)
		if (!sc->devices[i].raw) {
			*mkfs = sc->devices[i].mkfs_options;
			return sc->devices[i].fs;
		}
	*mkfs = sc->mkfs_options;
	return sc->fs;
}

bool bo_scenario_no_links(const struct bo_scenario *sc)
{
	const char *mkfs;

	return bo_fs_desc(bo_scenario_workload_fs(sc, &mkfs))->no_links;
}

bool bo_scenario_promises_posix(const struct bo_scenario *sc)
{
	const char *mkfs;
	enum bo_fs fs = bo_scenario_workload_fs(sc, &mkfs);

	if (sc->promises != BO_PROMISES_AUTO)
		return sc->promises == BO_PROMISES_POSIX;
	/* The filesystem's row (fstab.h): Linux's promises where fstests asserts them, on
	 * filesystems with metadata journaling, so not on ext4 made without its journal. */
	if (!bo_fs_desc(fs)->posix && bo_fs_desc(fs)->journal == BO_FS_JOURNAL_SUPERBLOCK)
		return mkfs && strstr(mkfs, "^has_journal");
	return bo_fs_desc(fs)->posix;
}

/* Whether family @name (of @n bytes) is one of the comma-separated @list's. */
static bool family_in(const char *list, const char *name, size_t n)
{
	for (const char *q = list; *q; q += strspn(q, ", ")) {
		size_t m = strcspn(q, ",");

		if (m == n && !strncmp(q, name, n))
			return true;
		q += m;
	}
	return false;
}

bool bo_fsops_families_valid(const char *v)
{
	const char *q = v;

	if (!strcmp(v, "all") || !strcmp(v, "none"))
		return true;
	for (;;) {
		size_t n = strcspn(q, ",");

		if (!family_in(BO_FSOPS_FAMILIES, q, n))
			return false;
		for (const char *r = v; r < q; r += strcspn(r, ",") + 1)
			if (strcspn(r, ",") == n && !strncmp(r, q, n))
				return false;
		if (!q[n])
			return true;
		q += n + 1;
	}
}

/* Whether the comma-separated @list names a family of the comma-separated @of. */
static bool families_meet(const char *list, const char *of)
{
	for (const char *q = list; *q; q += strspn(q, ", ")) {
		size_t m = strcspn(q, ",");

		if (family_in(of, q, m))
			return true;
		q += m;
	}
	return false;
}

int bo_scenario_families(const struct bo_scenario *sc, char *buf, size_t n, struct bo_err *err)
{
	bool bounded = sc->builtin && !strcmp(sc->builtin, "bounded");
	const char *mkfs, *want = sc->families ? sc->families : bounded ? "all" : "none";
	const struct bo_fs_desc *row = bo_fs_desc(bo_scenario_workload_fs(sc, &mkfs));
	const char *lacks = row->lacks ? row->lacks : "";
	/* The bounded space draws no op of some families: what the filesystem lacks of those
	 * leaves its workloads as they are. */
	const char *every = bounded ? BO_BOUNDED_FAMILIES : BO_FSOPS_FAMILIES;
	bool all = !strcmp(want, "all");
	size_t len = 0;

	*buf = 0;
	if (all && !families_meet(lacks, every))
		return bounded || snprintf(buf, n, "all") < (int) n
			       ? 0
			       : bo_err_set(err, ENAMETOOLONG, "op families too long");
	if (all)
		want = every;
	for (const char *q = want; *q; q += strspn(q, ", ")) {
		size_t m = strcspn(q, ",");

		if (family_in(lacks, q, m) && !all)
			return bo_err_set(err, EINVAL,
					  "%s has no %.*s (its ops fail there): leave it out, or "
					  "'all' takes the families %s has",
					  row->name, (int) m, q, row->name);
		if (!family_in(lacks, q, m) && strcmp(want, "none")) {
			int k = snprintf(buf + len, n - len, "%s%.*s", len ? "," : "", (int) m, q);

			if (k < 0 || (size_t) k >= n - len)
				return bo_err_set(err, ENAMETOOLONG, "op families too long");
			len += (size_t) k;
		}
		q += m;
	}
	if (!len && snprintf(buf, n, "none") >= (int) n)
		return bo_err_set(err, ENAMETOOLONG, "op families too long");
	return 0;
}

/* The builtin's command line: "blackout-fsops [check] --seed S --ops N [--fsync=inode]
 * [--families=F] [--no-links] [--keep IDS] [--promises=posix] [--bug=B]", or "... --bounded L
 * [--workloads A-B] [--sample I/N] [--families=F] [--no-links] ..."; the families and
 * --no-links as the filesystem's row says (bo_scenario_families()). */
static int builtin_command(const struct bo_scenario *sc, const char *mode, char **ret)
{
	const struct bo_builtin *b = bo_builtin_find(sc->builtin);
	bool posix = *mode && sc->fsync_inode && bo_scenario_promises_posix(sc);
	bool fsops = !strcmp(b->name, "fsops"), bounded = !strcmp(b->name, "bounded");
	bool no_links = (fsops || bounded) && bo_scenario_no_links(sc);
	char families[128] = "";
	struct bo_err err;
	int n;

	/* a family the filesystem lacks was refused with the scenario (scenario.c) */
	if ((fsops && sc->families) || bounded)
		if (bo_scenario_families(sc, families, sizeof(families), &err) < 0)
			return -EINVAL;
	if (bounded) {
		posix = *mode && bo_scenario_promises_posix(sc);
		n = asprintf(
			ret, "%s%s --bounded %" PRIu64 "%s%s%s%s%s%s%s%s --seed %" PRIu64 "%s%s%s",
			b->exe, mode, sc->length, sc->workloads ? " --workloads " : "",
			sc->workloads ? sc->workloads : "", sc->sample ? " --sample " : "",
			sc->sample ? sc->sample : "", sc->fresh ? " --fresh" : "",
			*families ? " --families=" : "", families, no_links ? " --no-links" : "",
			sc->workload_seed, posix ? " --promises=posix" : "",
			sc->bug ? " --bug=" : "", sc->bug ? sc->bug : "");
		return n < 0 ? -ENOMEM : 0;
	}
	n = asprintf(ret, "%s%s%s --seed %" PRIu64 " --ops %" PRIu64 "%s%s%s%s%s%s%s%s%s", b->exe,
		     mode, b->args, sc->workload_seed, sc->ops,
		     sc->fsync_inode ? " --fsync=inode" : "", *families ? " --families=" : "",
		     families, no_links ? " --no-links" : "", sc->keep_ops ? " --keep " : "",
		     sc->keep_ops ? sc->keep_ops : "", posix ? " --promises=posix" : "",
		     sc->bug ? " --bug=" : "", sc->bug ? sc->bug : "");
	return n < 0 ? -ENOMEM : 0;
}

int bo_scenario_workload_command(const struct bo_scenario *sc, char **ret)
{
	if (sc->workload == BO_WORKLOAD_BUILTIN)
		return builtin_command(sc, "", ret);
	*ret = strdup(sc->command);
	return *ret ? 0 : -ENOMEM;
}

int bo_scenario_export_command(const struct bo_scenario *sc, const char *form, uint64_t upto,
			       char **ret)
{
	_cleanup_free_ char *cmd = NULL, *mode = NULL;

	*ret = NULL;
	if (sc->workload != BO_WORKLOAD_BUILTIN || !bo_builtin_find(sc->builtin) ||
	    strcmp(bo_builtin_find(sc->builtin)->exe, "blackout-fsops"))
		return -ENOTSUP;
	if (asprintf(&mode, " %s", form) < 0 || builtin_command(sc, mode, &cmd) < 0 ||
	    asprintf(ret, "%s --upto %" PRIu64, cmd, upto) < 0)
		return -ENOMEM;
	return 0;
}

int bo_scenario_checker_command(const struct bo_scenario *sc, char **ret)
{
	switch (sc->checker) {
	case BO_CHECKER_NONE:
		*ret = NULL;
		return 0;
	case BO_CHECKER_BUILTIN:
		return builtin_command(sc, " check", ret);
	case BO_CHECKER_COMMAND:
		break;
	}
	*ret = strdup(sc->checker_command);
	return *ret ? 0 : -ENOMEM;
}

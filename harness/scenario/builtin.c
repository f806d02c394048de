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

/* The workload's filesystem: the first device's that has one, with its mkfs options. */
static enum bo_fs workload_fs(const struct bo_scenario *sc, const char **mkfs)
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

	return bo_fs_desc(workload_fs(sc, &mkfs))->no_links;
}

bool bo_scenario_promises_posix(const struct bo_scenario *sc)
{
	const char *mkfs;
	enum bo_fs fs = workload_fs(sc, &mkfs);

	if (sc->promises != BO_PROMISES_AUTO)
		return sc->promises == BO_PROMISES_POSIX;
	/* The filesystem's row (fstab.h): Linux's promises where fstests asserts them, on
	 * filesystems with metadata journaling, so not on ext4 made without its journal. */
	if (!bo_fs_desc(fs)->posix && bo_fs_desc(fs)->journal == BO_FS_JOURNAL_SUPERBLOCK)
		return mkfs && strstr(mkfs, "^has_journal");
	return bo_fs_desc(fs)->posix;
}

/* The builtin's command line: "blackout-fsops [check] --seed S --ops N [--fsync=inode]
 * [--families=F] [--no-links] [--keep IDS] [--promises=posix] [--bug=B]"; --no-links where
 * the filesystem's row says it has no hard links. */
static int builtin_command(const struct bo_scenario *sc, const char *mode, char **ret)
{
	const struct bo_builtin *b = bo_builtin_find(sc->builtin);
	bool posix = *mode && sc->fsync_inode && bo_scenario_promises_posix(sc);
	bool no_links = !strcmp(b->name, "fsops") && bo_scenario_no_links(sc);
	int n;

	if (!strcmp(b->name, "bounded")) {
		posix = *mode && bo_scenario_promises_posix(sc);
		n = asprintf(ret, "%s%s --bounded %" PRIu64 "%s%s%s%s --seed %" PRIu64 "%s%s%s",
			     b->exe, mode, sc->length, sc->workloads ? " --workloads " : "",
			     sc->workloads ? sc->workloads : "", sc->sample ? " --sample " : "",
			     sc->sample ? sc->sample : "", sc->workload_seed,
			     posix ? " --promises=posix" : "", sc->bug ? " --bug=" : "",
			     sc->bug ? sc->bug : "");
		return n < 0 ? -ENOMEM : 0;
	}
	n = asprintf(ret, "%s%s%s --seed %" PRIu64 " --ops %" PRIu64 "%s%s%s%s%s%s%s%s%s", b->exe,
		     mode, b->args, sc->workload_seed, sc->ops,
		     sc->fsync_inode ? " --fsync=inode" : "", sc->families ? " --families=" : "",
		     sc->families ? sc->families : "", no_links ? " --no-links" : "",
		     sc->keep_ops ? " --keep " : "", sc->keep_ops ? sc->keep_ops : "",
		     posix ? " --promises=posix" : "", sc->bug ? " --bug=" : "",
		     sc->bug ? sc->bug : "");
	return n < 0 ? -ENOMEM : 0;
}

int bo_scenario_workload_command(const struct bo_scenario *sc, char **ret)
{
	if (sc->workload == BO_WORKLOAD_BUILTIN)
		return builtin_command(sc, "", ret);
	*ret = strdup(sc->command);
	return *ret ? 0 : -ENOMEM;
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

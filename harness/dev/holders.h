/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * holders.h — the processes that hold something: a mount point busy, a run's files or
 * devices. One walk of /proc for every question of that kind: each process's working
 * directory, root, open files and mappings, each a path, judged by the caller. A busy unmount
 * names its holders with it (dev/mount.c); `blackout cleanup` finds what works in a dead
 * run's directory with it.
 */
#ifndef BO_DEV_HOLDERS_H
#define BO_DEV_HOLDERS_H

#include <stdbool.h>
#include <sys/types.h>

#include "harness/base/util.h"

/* One process and the first thing it holds that the caller asked about. */
struct bo_holder {
	pid_t pid;
	const char *comm; /* its name, made safe to print */
	const char *how;  /* "cwd", "root", "fd 3", "mmap" */
	const char *path; /* what it holds, as /proc reads it (may end in " (deleted)") */
};

/*
 * Call @fn once for each process (this one too) whose working directory, root, an open file
 * or a mapping is a path @match accepts: the first such path of each. A non-zero return of
 * @fn stops the walk and is returned; 0 when all were seen. Processes that go while they are
 * read are passed over.
 */
_must_check_ int bo_holders_each(bool (*match)(const char *path, void *ctx),
				 int (*fn)(const struct bo_holder *h, void *ctx), void *ctx);

/* The processes holding @dir or anything beneath it, as a line: "postgres (pid 412: cwd
 * '/blackout/mnt'), sh (pid 400: fd 3 '/blackout/mnt/log')", at most a few, then "and N
 * more"; "" when none is found (a hold /proc does not show: a loop device, a bind mount).
 * Malloc'd; NULL without memory. */
char *bo_holders_of(const char *dir);

#endif

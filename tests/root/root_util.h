/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the root suites: they bind real loop devices and mount real filesystems on the
 * host, so they need root and /dev/loop-control, and they must leave nothing behind.
 */
#ifndef BO_ROOT_UTIL_H
#define BO_ROOT_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit code ctest counts as "skipped" (SKIP_RETURN_CODE). */
#define ROOT_SKIP 77

/* 0 if the suite can run; else print why, loudly, and return ROOT_SKIP. */
int root_require(const char *suite);

/* Whether program @name is in PATH. */
bool root_have(const char *name);

/* Create (or truncate) sparse file @path of @size bytes. */
void root_make_file(const char *path, off_t size);

/* A directory @name inside the scratch directory, created. */
const char *root_dir(const char *name);

/*
 * Whether anything the suite made is still there: loop devices bound to files in the scratch
 * directory, or mounts under it. Each leftover is printed, removed as a courtesy, and counted.
 */
int root_leftovers(void);

/* Run a shell command line (test setup only, never the code under test); its exit status. */
int root_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

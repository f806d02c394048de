/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path.h — building paths, and where blackout itself lives.
 */
#ifndef BO_PATH_H
#define BO_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/macro.h"

/* snprintf for paths: -ENAMETOOLONG instead of a silently truncated path. Joining is
 * bo_pathf(buf, len, "%s/%s", dir, name). */
_must_check_ int bo_pathf(char *buf, size_t len, const char *fmt, ...) _printf_(3, 4);

/* This binary, which the VM carries at the same path ("blackout" when it cannot be read). */
const char *bo_self_exe(void);

/*
 * Where blackout's helper programs (the built-in workloads, blackout-*) are: beside the binary
 * in a build tree, else libexec/blackout of the tree it is installed in (BO_HELPER_REL from
 * its bin directory).
 */
const char *bo_libexec_dir(void);

/*
 * The program @name as the shell would find it through @path (a PATH value; NULL: this
 * process's), into @buf: the first regular executable file. False when the shell had better
 * look: a name with a '/', a PATH entry that is empty or relative (another process's working
 * directory, not this one's), or no such file.
 */
bool bo_path_find(const char *name, const char *path, char *buf, size_t len);

#endif

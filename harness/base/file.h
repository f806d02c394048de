/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmutil.h — small helpers shared by the vm/ files: whole-file I/O, running a helper
 * program, the cache directory and its locks.
 */
#ifndef BO_VMUTIL_H
#define BO_VMUTIL_H

#include <stddef.h>
#include <sys/types.h>

#include "harness/base/util.h"

/* Read all of @path into a NUL-terminated buffer (*@ret, freed by the caller) of *@ret_len
 * bytes (may be NULL). Refuses files over @max bytes with -EFBIG. */
int bo_read_file(const char *path, size_t max, char **ret, size_t *ret_len);

/* Create @path and its missing parents with mode 0755. */
int bo_mkdir_p(const char *path);

/*
 * Run @argv (argv[0] looked up in PATH) with stdin from /dev/null and capture its standard
 * output, at most @max bytes, into *@ret (NUL-terminated, freed by the caller) and its length
 * into *@ret_len (may be NULL). Its stderr is discarded. Returns its exit status (>= 0) or
 * -errno when it could not run; output over @max is -EFBIG.
 */
int bo_run_capture(char *const argv[], size_t max, char **ret, size_t *ret_len);

/* blackout's cache directory, ${XDG_CACHE_HOME:-$HOME/.cache}/blackout/@sub, written to @buf;
 * created when @create. */
int bo_cache_dir(const char *sub, bool create, char *buf, size_t len, struct bo_err *err);

/* Take an exclusive flock on @path (created if needed) and return its fd; closing the fd
 * releases it. */
int bo_lock_file(const char *path, struct bo_err *err);

/* snprintf for paths: -ENAMETOOLONG instead of a silently truncated path. */
int bo_pathf(char *buf, size_t len, const char *fmt, ...) _printf_(3, 4);

/* Monotonic clock in seconds. */
double bo_now(void);

#endif

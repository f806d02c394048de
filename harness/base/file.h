/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.h — files: full-length reads and writes, whole files in and out (atomically), copies,
 * directories, blackout's cache directory and its locks.
 */
#ifndef BO_FILE_H
#define BO_FILE_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/base/util.h"

/* pread/pwrite that loop over short transfers and EINTR. pread returns bytes read (short
 * only at end of file), pwrite returns 0; both return -errno on failure. */
_must_check_ ssize_t bo_pread_full(int fd, void *buf, size_t len, uint64_t off);
_must_check_ int bo_pwrite_full(int fd, const void *buf, size_t len, uint64_t off);

/* Read all of @path into a NUL-terminated buffer (*@ret, freed by the caller) of *@ret_len
 * bytes (may be NULL). Refuses files over @max bytes with -EFBIG. */
_must_check_ int bo_read_file(const char *path, size_t max, char **ret, size_t *ret_len);

/*
 * A temporary file beside @name (relative to @dirfd, or AT_FDCWD) that is to replace it:
 * created mode 0644 with O_EXCL under a fresh name ("@name.tmp<pid>.<random>"), so that
 * nothing already there is ever opened, truncated or followed (a hard link to another file, a
 * FIFO, a symlink: another name is drawn). A writer in a directory a stranger can write to (a
 * results directory, a shard, the cache) makes every temporary this way. Its fd (O_CLOEXEC) and
 * names in @t; bo_tmpfile_commit() puts it in place, bo_tmpfile_abort() removes it. 0 or
 * -errno.
 */
struct bo_tmpfile {
	int dirfd;
	int fd;
	const char *name;
	char tmp[PATH_MAX];
};

_must_check_ int bo_tmpfile_open(struct bo_tmpfile *t, int dirfd, const char *name);

/* Close @t's file and rename it over its name (what was there, whatever it was, is replaced,
 * never written). 0, or -errno with the temporary removed. */
_must_check_ int bo_tmpfile_commit(struct bo_tmpfile *t);

/* Close and remove @t's file, when it is open. */
void bo_tmpfile_abort(struct bo_tmpfile *t);

/* Replace @name (relative to @dirfd) with @buf atomically: written to a temporary beside it
 * (bo_tmpfile_open()), then renamed over it. 0 or -errno; no temporary is left behind. */
_must_check_ int bo_write_file_at(int dirfd, const char *name, const void *buf, size_t len);

/* Copy the file @src (a regular file, not through a symlink: harness/base/input.h) to @dst,
 * which must not exist yet: refused before a byte is written when it would not fit
 * (bo_space_check()), and removed again when the copy fails. */
_must_check_ int bo_copy_file(const char *src, const char *dst, struct bo_err *err);

/* The same from the open @in (@src in messages), at most @size bytes. */
_must_check_ int bo_copy_fd(int in, uint64_t size, const char *src, const char *dst,
			    struct bo_err *err);

/* Remove the directory @path and all beneath it, never through a symlink: what a command
 * made and must not leave behind when it fails (a retry would find it "already exists"). */
_must_check_ int bo_remove_tree(const char *path);

/* The same of the directory @name in the directory @dirfd (AT_FDCWD: @name is a path): opened
 * beneath it without following a symlink, walked and emptied by descriptor, removed by name:
 * nothing outside it is touched, whatever is swapped in on the way. A symlink or another kind
 * is -ENOTDIR (or -ELOOP), left as it is; a missing one is 0. */
_must_check_ int bo_remove_tree_at(int dirfd, const char *name);

/* A stream of the directory @rel beneath @dirfd, opened without following a symlink (@rel
 * NULL: @dirfd itself, which stays the caller's). NULL with errno set. */
DIR *bo_opendirat(int dirfd, const char *rel);

/* Create @path and its missing parents with mode 0755. */
_must_check_ int bo_mkdir_p(const char *path);

/* blackout's cache directory, ${XDG_CACHE_HOME:-$HOME/.cache}/blackout/@sub (a relative
 * XDG_CACHE_HOME is ignored, as the XDG spec says), written to @buf;
 * created when @create. Without @create, a missing one is fine, and one that is, or lies
 * under, something other than a directory is -ENOTDIR saying what is in the way. */
_must_check_ int bo_cache_dir(const char *sub, bool create, char *buf, size_t len,
			      struct bo_err *err);

/* Mark cache entry @path used now (its modification time): pruning goes by last use. */
void bo_cache_touch(const char *path);

/*
 * Remove the least recently used regular files of cache directory @dir (not its dot files,
 * never @keep) until what stays takes at most @max_bytes; and, with @older_than (seconds, 0:
 * no such limit), every one not used for that long. @dir is never followed as a symlink, and
 * its files are removed through it, by name. The count removed, or -errno.
 */
_must_check_ int bo_cache_trim(const char *dir, uint64_t max_bytes, uint64_t older_than,
			       const char *keep, uint64_t *ret_freed, struct bo_err *err);

/* Take an exclusive flock on @path (created if needed) and return its fd; closing the fd
 * releases it. */
_must_check_ int bo_lock_file(const char *path, struct bo_err *err);

#endif

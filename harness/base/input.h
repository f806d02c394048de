/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.h — reading what strangers wrote (docs/safety.md, "Inputs from strangers"): results
 * directories, shards, logs and by-products come from a guest, another machine or a bug
 * report. The one rule, applied here for every reader:
 *
 *  - a file is opened beneath its directory without following a symlink anywhere on the way
 *    (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS where the kernel has it, else a walk of
 *    openat(O_NOFOLLOW) one plain component at a time), and O_NONBLOCK, so a FIFO cannot
 *    hang the open;
 *  - fstat must say a regular file (a block device only where the caller allows one), and
 *    its size is bounded where the size is not the point;
 *  - an id that becomes a path is a plain name (bo_name_plain());
 *  - a string from such a file is sanitized before a terminal or a shell line sees it
 *    (sanitize.h: bo_sanitize(), bo_shell_quote()).
 *
 * And for writers of big files: bo_space_check() refuses before a byte is written when the
 * file would not fit.
 */
#ifndef BO_INPUT_H
#define BO_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The rule's last point: what reads a stranger's file sanitizes what it quotes. */
#include "harness/base/sanitize.h"
#include "harness/base/util.h"

/* Bounds for files whose size is not the point. */
#define BO_INPUT_MAX_JSON (256u << 20) /* differential.json, a nightly tree's summary.json */
#define BO_INPUT_MAX_TEXT (64u << 20)  /* a by-product, a scenario, a matrix */

/* Flags of bo_input_open(). */
enum {
	BO_INPUT_BLOCKDEV = 1 << 0, /* a block device is fine too (a log given as a device) */
	/* bo_input_open_path() of a file the user names as their own (a scenario, a matrix):
	 * a symlink to it is followed; what it leads to is checked all the same. */
	BO_INPUT_FOLLOW = 1 << 1,
	/* A by-product of a results directory: a file of one name. A hard link (st_nlink > 1)
	 * may be any file of the filesystem that whoever wrote the directory could link, and is
	 * refused (-EMLINK). Not for a LOG or a write.log, which blackout links itself. */
	BO_INPUT_ONELINK = 1 << 2,
};

/*
 * Whether @name is a plain name: 1..255 of [A-Za-z0-9,:._~+@-], not starting with '.' or
 * '-' (so no '/', no "..", nothing a shell or a glob reads, no control character). Every id
 * from a results directory that becomes a path (a state id: states/<id>/, a cluster's
 * c57@n1+n3 too) is checked with this, and only this.
 */
bool bo_name_plain(const char *name);

/*
 * Whether @rel, a path read from a stranger's file (@what names it: "'T/differential.json':
 * kernels[0].results"), is relative and made of plain names (bo_name_plain() each, so no "",
 * "." or ".." and no leading '/'): 0, else -EINVAL with @err naming @what and @rel. Every path
 * such a file gives is checked with this, and only this, before it is joined to its
 * directory.
 */
_must_check_ int bo_input_rel_check(const char *rel, const char *what, struct bo_err *err);

/*
 * The directory @rel beneath the directory @dir, as bo_input_rel_check() (@what) allows it,
 * opened without following a symlink anywhere on the way (as bo_input_openat()): its fd
 * (O_CLOEXEC), or -errno with @err saying why (-ELOOP a symlink, -ENOTDIR not a directory).
 */
_must_check_ int bo_input_opendir(const char *dir, const char *rel, const char *what,
				  struct bo_err *err);

/*
 * Open @rel (relative: plain names joined by '/') beneath the directory @dirfd for reading,
 * by the rule above: no symlink followed, no "..", a regular file (or with BO_INPUT_BLOCKDEV
 * a block device), at most @max bytes (0: any size). The fd (O_CLOEXEC, blocking again), its
 * size in *@ret_size (may be NULL), or -errno with @err naming @what/@rel and what it is
 * (-ELOOP a symlink, -EISDIR a directory, -EINVAL another kind, -EMLINK a hard link with
 * BO_INPUT_ONELINK, -EFBIG too big).
 */
_must_check_ int bo_input_openat(int dirfd, const char *what, const char *rel, unsigned flags,
				 uint64_t max, uint64_t *ret_size, struct bo_err *err);

/* The same beneath the directory @dir (the directory itself is the caller's choice and may
 * be reached through a symlink; nothing in it is). */
_must_check_ int bo_input_open(const char *dir, const char *rel, unsigned flags, uint64_t max,
			       uint64_t *ret_size, struct bo_err *err);

/* A path named by the user (a LOG, a baseline): its last component not a symlink (unless
 * BO_INPUT_FOLLOW), not a FIFO, a regular file (or a block device with BO_INPUT_BLOCKDEV). */
_must_check_ int bo_input_open_path(const char *path, unsigned flags, uint64_t max,
				    uint64_t *ret_size, struct bo_err *err);

/* All of @path by bo_input_open_path(), NUL-terminated, in *@ret (freed by the caller) of
 * *@ret_len bytes (may be NULL): a scenario, a matrix. */
_must_check_ int bo_input_read_path(const char *path, unsigned flags, size_t max, char **ret,
				    size_t *ret_len, struct bo_err *err);

/*
 * Whether the host file @path can go into a VM ([vm] files, --file: copied into its root at
 * the same path, a directory with all beneath it): it exists, through its symlinks (a loop
 * or a dangling one is refused), and is a regular file or a directory; a FIFO, a socket or a
 * device is refused with what it is, for its copy would hang or never end. Judged on the
 * host, before anything is made. 0, or -errno with @err quoting @path.
 */
_must_check_ int bo_input_shippable(const char *path, struct bo_err *err);

/*
 * Open @path for writing a file blackout makes (synth --out): created mode 0644 when absent,
 * never through a symlink, O_NONBLOCK so that a FIFO cannot hang the open, refused unless it
 * is a regular file (a FIFO, a socket, a device or a directory with what it is), and only
 * then truncated. The fd (O_CLOEXEC, blocking), or -errno with @err; a refused @path is left
 * as it was.
 */
_must_check_ int bo_output_open(const char *path, struct bo_err *err);

/*
 * Open @path to write in place (replay --onto): never through a symlink (a dangling one
 * creates nothing), a regular file, created mode 0644 when nothing is there (*@ret_created
 * then true: the caller removes it when it fails), or a block device blackout made, opened
 * O_EXCL (bo_own_check_fd()). What it is is judged on a descriptor (O_PATH) before it is
 * opened for writing, through that descriptor: a FIFO, a character device or somebody
 * else's disk is never opened for writing. Not truncated. The fd (O_RDWR, O_CLOEXEC), or
 * -errno with @err.
 */
_must_check_ int bo_output_open_target(const char *path, bool *ret_created, struct bo_err *err);

/* All of @rel beneath @dir by bo_input_open(), NUL-terminated, in *@ret (freed by the
 * caller) of *@ret_len bytes (may be NULL). */
_must_check_ int bo_input_read(const char *dir, const char *rel, size_t max, char **ret,
			       size_t *ret_len, struct bo_err *err);

/* All of the open @fd (of @size bytes said, a hint), at most @max bytes (0: any), named @what
 * in messages: as bo_input_read(). */
_must_check_ int bo_input_read_fd(int fd, uint64_t size, const char *what, size_t max, char **ret,
				  size_t *ret_len, struct bo_err *err);

/*
 * The next line of @f into *@buf (of *@cap bytes, grown as getline() grows it; free() it),
 * its newline kept and a NUL after it: the line's length in bytes, 0 at the end of the file,
 * -E2BIG when the line holds more than @max bytes before its newline (no more than @max + 1
 * of them are read), -ENOMEM, or -errno when reading fails. The one line reader of files a
 * stranger wrote: a line is never held whole whatever its length, and running out of memory
 * or a read error is never taken as the end of the file.
 */
_must_check_ ssize_t bo_input_read_line(FILE *f, size_t max, char **buf, size_t *cap);

/*
 * Whether @bytes more fit on the filesystem of @path (the file to be written, or the
 * directory it goes in): statvfs's space available to this user, with 1% of the filesystem
 * (at least 64 MiB) kept free for everything else. -ENOSPC with @err saying what (@what)
 * would write how much and how much is free.
 */
_must_check_ int bo_space_check(const char *path, uint64_t bytes, const char *what,
				struct bo_err *err);

/* The same for the file open at @fd (@path in the message): its filesystem, whatever its
 * path leads to now. */
_must_check_ int bo_space_check_fd(int fd, const char *path, uint64_t bytes, const char *what,
				   struct bo_err *err);

#endif

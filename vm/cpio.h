/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpio.h — build a cpio "newc" archive (the initramfs format, see the kernel's
 * Documentation/driver-api/early-userspace/buffer-format.rst) from an in-memory tree.
 *
 * The archive is reproducible: entries sorted by path, inode numbers by position, mtime 0,
 * uid and gid 0, one link each. Paths are absolute guest paths; the leading '/' is dropped in
 * the archive. Symlinks already in the tree are followed when a later entry is placed, so an
 * archive that holds the host's "/lib -> usr/lib" puts "/lib/modules/..." under usr/lib.
 */
#ifndef BO_CPIO_H
#define BO_CPIO_H

#include <stddef.h>
#include <sys/types.h>

#include "harness/base/util.h"

struct bo_cpio;

/* A new, empty tree in *@ret; -ENOMEM. */
_must_check_ int bo_cpio_new(struct bo_cpio **ret);

/* Free @c and everything it holds; NULL is fine. */
void bo_cpio_free(struct bo_cpio *c);

/* Number of entries (directories included) in @c. */
size_t bo_cpio_count(const struct bo_cpio *c);

/* Add directory @path (and missing parents, 0755) with permissions @perm. Adding an existing
 * directory again is not an error. */
_must_check_ int bo_cpio_add_dir(struct bo_cpio *c, const char *path, mode_t perm,
				 struct bo_err *err);

/* Add regular file @path whose content is copied from host file @src when the archive is
 * written. Adding the same path with the same source again is not an error. */
_must_check_ int bo_cpio_add_file(struct bo_cpio *c, const char *path, const char *src, mode_t perm,
				  struct bo_err *err);

/* Add regular file @path holding a copy of @len bytes at @data. */
_must_check_ int bo_cpio_add_data(struct bo_cpio *c, const char *path, const void *data, size_t len,
				  mode_t perm, struct bo_err *err);

/* Add symlink @path pointing to @target. The same link again is not an error. */
_must_check_ int bo_cpio_add_symlink(struct bo_cpio *c, const char *path, const char *target,
				     struct bo_err *err);

/* Add the host file, directory or symlink at absolute @host_path at the same path in the
 * guest. Every symlink met on the way, in a directory component or at the end, is added as
 * a symlink and followed, so the guest resolves the path exactly as the host does. A
 * directory is added as an empty directory (not recursively). Files and directories keep
 * the host's mode and owner (uid and gid), so the guest's accounts may do there what the
 * host's may. Devices, fifos and sockets are refused with -EINVAL. */
_must_check_ int bo_cpio_add_host(struct bo_cpio *c, const char *host_path, struct bo_err *err);

/* Whether @path (a guest path, symlinks in the tree followed) is in @c. */
bool bo_cpio_has(const struct bo_cpio *c, const char *path);

/* Write @c as one newc archive, sorted by path and padded to 512 bytes, to the seekable @fd at
 * its current offset, and leave the offset after it (so archives can be concatenated). */
_must_check_ int bo_cpio_write(const struct bo_cpio *c, int fd, struct bo_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * initramfs.h — the guest's root file system, as two concatenated cpio archives: a cached
 * base (modules, busybox, file system tools) and a small per-launch part (this blackout
 * binary as /init, extra files, the command to run).
 */
#ifndef BO_INITRAMFS_H
#define BO_INITRAMFS_H

#include <stddef.h>

#include "harness/base/util.h"
#include "vm/kernel.h"
#include "vm/moddir.h"

/* Where the per-launch archive puts the launch description (see guest_init.c). */
#define BO_GUEST_LAUNCH "/blackout/launch"

/*
 * The path of the base archive for kernel @k with module directory @m and the programs and
 * modules of the filesystems @fstab (NULL-name-terminated; those installed) in @buf, building it
 * when no archive for the same inputs is cached (initramfs/<sha256 of the inputs>.cpio).
 * Concurrent callers wait for one another with a lock.
 */
_must_check_ int bo_initramfs_base(const struct bo_kernel *k, const struct bo_moddir *m,
				   const struct bo_guest_fs *fstab, char *buf, size_t len,
				   struct bo_err *err);

/*
 * Whether the host has every program of each filesystem of @fstab that @fs names
 * (NULL-terminated, or NULL): -ENOPKG naming the first missing and its package
 * ("xfs needs 'mkfs.xfs' (package xfsprogs; scripts/setup installs it)"), before a boot.
 */
_must_check_ int bo_initramfs_check_tools(const struct bo_guest_fs *fstab, const char *const *fs,
					  struct bo_err *err);

/*
 * The path of an archive of the host paths @files (NULL-terminated; directories recursively,
 * executables with their libraries, at the same paths) in @buf, building it when none for the
 * same files is cached (files/<sha256 of their metadata>.cpio): a big tree costs one copy,
 * not one per launch. Libraries the base archive @base holds already are left out.
 */
_must_check_ int bo_initramfs_files(const char *base, const char *const *files, char *buf,
				    size_t len, struct bo_err *err);

/*
 * Write the per-launch archive at @fd's offset: this program (/proc/self/exe) at its own
 * path with its libraries, /init and /sbin/modprobe linked to it, and @launch_len bytes of
 * @launch at BO_GUEST_LAUNCH. Libraries that the base archive @base holds are left out.
 */
_must_check_ int bo_initramfs_launch(int fd, const char *base, const void *launch,
				     size_t launch_len, struct bo_err *err);

#endif

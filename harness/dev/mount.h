/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount.h — mount and unmount through libmount, with its exit codes turned into -errno and a
 * message that says what failed.
 *
 * No /sbin/mount.<type> helpers are run and no utab is written: blackout mounts its own
 * devices with the kernel's mount(2), inside a VM that has no mount helpers anyway.
 */
#ifndef BO_MOUNT_H
#define BO_MOUNT_H

#include <stdbool.h>

#include "harness/base/util.h"
#include "harness/dev/fs.h"

enum bo_umount_flags {
	/* If the unmount fails because the filesystem is busy, detach it lazily (MNT_DETACH):
	 * gone from the namespace, but the device stays in use until the last user lets go. */
	BO_UMOUNT_DETACH_ON_FAILURE = 1u << 0,
};

/*
 * The mount options @own (NULL: none) of a filesystem @fs with the other devices @devs (NULL:
 * none): its external journal (ext4) or log (xfs), "@own,journal_path=J" or "@own,logdev=J";
 * each device it also spans (btrfs), ",device=D". malloc'd; NULL when out of memory or when
 * @fs takes no such device.
 */
char *bo_mount_options_devs(enum bo_fs fs, const char *own, const struct bo_fs_devs *devs);

/*
 * Before mounting a crash state of a filesystem @fs that spans several devices: make the
 * kernel forget every device of such filesystems that no mount holds (btrfs's
 * BTRFS_IOC_FORGET_DEV). It keeps, of two devices with one filesystem identity, the path it
 * saw first unless the newer has a generation as high: a state's devices, made from one
 * recording, must not be assembled with another state's or the recording's. Nothing for a
 * filesystem of one device.
 */
_must_check_ int bo_mount_forget_devices(enum bo_fs fs, struct bo_err *err);

/*
 * Mount @source on @target as @fstype (NULL: let libblkid detect it) with @options (a mount
 * options string such as "noinit_itable,data=ordered"; NULL for none). On failure returns
 * -errno (the mount(2) errno when the syscall ran) and @err quotes source, target, type,
 * options and libmount's explanation.
 */
_must_check_ int bo_mount(const char *source, const char *target, const char *fstype,
			  const char *options, struct bo_err *err);

/*
 * Unmount @target. Returns 0 when unmounted; with BO_UMOUNT_DETACH_ON_FAILURE, 1 when a busy
 * filesystem had to be detached lazily (then @err says so, since its device is still held).
 */
_must_check_ int bo_umount(const char *target, unsigned flags, struct bo_err *err);

/* 1 if a filesystem is mounted exactly on @target (per /proc/self/mountinfo), 0 if not. */
_must_check_ int bo_mount_is_mounted(const char *target, struct bo_err *err);

#endif

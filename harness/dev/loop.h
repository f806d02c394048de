/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.h — loop devices over files blackout created (drivers/block/loop.c).
 *
 * blackout only ever binds files inside its own run directory, and a loop device belongs to a
 * run only if its backing file is inside that run's directory: that is how cleanup finds what a
 * crashed run left behind without touching anybody else's loops.
 */
#ifndef BO_LOOP_H
#define BO_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

enum bo_loop_flags {
	/* Bind read-only (the backing file is opened read-only too). */
	BO_LOOP_READ_ONLY = 1u << 0,
	/* Ask for direct I/O on the backing file; see bo_loop_dev.direct_io for the outcome. */
	BO_LOOP_DIRECT_IO = 1u << 1,
	/* Detach by itself when the last opener closes it. The loop device stays open in
	 * bo_loop_dev.fd for as long as the caller wants it bound. */
	BO_LOOP_AUTOCLEAR = 1u << 2,
	/* Use LOOP_SET_FD + LOOP_SET_STATUS64 even where LOOP_CONFIGURE exists (Linux >= 5.8):
	 * the fallback for older kernels, selectable so that it can be tested. */
	BO_LOOP_LEGACY_IOCTLS = 1u << 3,
};

/* An attached loop device. */
struct bo_loop_dev {
	int nr;		/* N of /dev/loopN */
	char path[32];	/* "/dev/loopN" */
	int fd;		/* open on the device (O_CLOEXEC) with BO_LOOP_AUTOCLEAR, else -1 */
	bool direct_io; /* direct I/O in effect (the kernel turns it off where it cannot) */
};

/*
 * Bind regular file @file to a free loop device. @file must resolve (after symlinks) to a file
 * inside @allowed_dir; anything else is refused with -EPERM before any device is touched.
 * @block_size is the logical block size (512..4096, a power of two) or 0 for the default.
 * @flags is a set of enum bo_loop_flags. *@ret is written only on success.
 */
_must_check_ int bo_loop_attach(const char *file, const char *allowed_dir, unsigned flags,
				uint32_t block_size, struct bo_loop_dev *ret, struct bo_err *err);

/* Close dev->fd if open (with BO_LOOP_AUTOCLEAR this detaches once nobody else holds it). */
void bo_loop_dev_close(struct bo_loop_dev *dev);

/*
 * Unbind loop device @dev (LOOP_CLR_FD). -ENXIO if it is not bound. When somebody still holds
 * the device open the kernel only marks it for detaching at the last close; that is reported
 * as -EBUSY, because the loop is still there.
 */
_must_check_ int bo_loop_detach(const char *dev, struct bo_err *err);

/*
 * The backing file of loop device @dev (from sysfs, which has the full path; " (deleted)"
 * removed) into @buf. -ENXIO when @dev is not bound.
 */
_must_check_ int bo_loop_backing_file(const char *dev, char *buf, size_t len, struct bo_err *err);

/*
 * All bound loop devices whose backing file lies inside @dir, as a NULL-terminated array of
 * "/dev/loopN" to free with bo_loop_list_free(). Empty when there are none.
 */
_must_check_ int bo_loop_list_inside(const char *dir, char ***ret, struct bo_err *err);

/* Free a list returned by bo_loop_list_inside(); NULL is fine. */
void bo_loop_list_free(char **list);

/*
 * Whether absolute, normalised @path lies strictly inside directory @dir (also absolute and
 * normalised), comparing whole components: /run/a/x is inside /run/a, /run/ab/x is not.
 */
bool bo_path_within(const char *dir, const char *path);

#endif

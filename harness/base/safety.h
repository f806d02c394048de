/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safety.h — what blackout may touch, and stopping a run cleanly (docs/safety.md).
 *
 * Ownership: blackout writes only to regular files and to block devices it created itself: a
 * dm device whose uuid is BLACKOUT-<run>-<role> (name blackout-<run>-<role>), or a loop device
 * whose backing file lies inside a run's work directory /run/blackout-<run>/. Anything else —
 * a disk, a partition, somebody else's loop or dm device, a character device — is refused
 * before a single byte is written. Ownership is read from sysfs by device number (the fd's
 * st_rdev), so a symlink or a second node of the same device changes nothing.
 *
 * Stopping: SIGINT, SIGTERM and SIGHUP only set a flag (bo_stop_install()). Every wait of a
 * run (child processes, marks, the state loop, the test stall points) looks at it, stops, and
 * returns -EINTR, so that the normal error path unwinds everything the run created.
 */
#ifndef BO_SAFETY_H
#define BO_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/base/util.h"

/* A run's work directory is BO_WORKDIR_PREFIX<run-id>, a tmpfs of its own in the guest. */
#define BO_WORKDIR_PREFIX "/run/blackout-"

/* Longest run id accepted (the generated ones are ~40 characters). */
#define BO_RUNID_MAX 96

/*
 * Whether @id is a valid run id: 1..BO_RUNID_MAX letters, digits, '.', '_' and '-', not
 * starting with '.' or '-'. Nothing else ever reaches a device name or a path, so no id can
 * glob, climb out of /run or name a device that is not a run's.
 */
bool bo_runid_valid(const char *id);

/* A new run id, YYYYMMDD-HHMMSS-<seed>-<nonce> (UTC): sortable, and never the same twice. */
void bo_runid_make(uint64_t seed, char *buf, size_t len);

/*
 * Whether block device @rdev was made by blackout: a dm device with a BLACKOUT- uuid and a
 * blackout- name, or a loop device over a file inside BO_WORKDIR_PREFIX<id>/ — of run @runid,
 * or of any run when @runid is NULL. When not, @why (of @len bytes) says what it is.
 */
bool bo_own_blockdev(dev_t rdev, const char *runid, char *why, size_t len);

/*
 * Check a write target before it is opened: a path that does not exist or is a regular file
 * is fine; a block device must be blackout's (bo_own_blockdev()); anything else (character
 * device, fifo, socket, directory) is refused. -EPERM with @err naming the device and why.
 */
_must_check_ int bo_own_check_target(const char *path, struct bo_err *err);

/* The same check on an open @fd (for @path in messages): closes the gap between check and
 * open. */
_must_check_ int bo_own_check_fd(int fd, const char *path, struct bo_err *err);

/*
 * Device-mapper and loop work happens inside the VM blackout made (@inside_vm), or on the
 * host only with --allow-host (@allow_host). -EPERM with @err telling @cmd's user what to do.
 */
_must_check_ int bo_own_dm_allowed(const char *cmd, bool inside_vm, bool allow_host,
				   struct bo_err *err);

/* Install the stop handler for SIGINT, SIGTERM and SIGHUP (without SA_RESTART, so that a
 * blocking wait returns EINTR). */
void bo_stop_install(void);

/* Signal handler (async-signal-safe): remember @signo. */
void bo_stop_request(int signo);

/* Whether a stop was requested, and by which signal (0: none, or requested without one). */
bool bo_stop_requested(void);
_must_check_ int bo_stop_signal(void);

/* -EINTR with @err saying the run was stopped by which signal, while @what. */
_must_check_ int bo_stop_error(struct bo_err *err, const char *what);

/*
 * Test hook: when the environment variable BLACKOUT_TEST_STALL names @point, print
 * "blackout: stalled at @point (pid N)" to stderr and wait until a signal asks to stop (then
 * -EINTR) or the process is killed. 0 otherwise. Lets a test kill a run at a known point.
 */
_must_check_ int bo_test_stall(const char *point, struct bo_err *err);

#endif

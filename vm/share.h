/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share.h — the host side of the results share: what a guest wrote is untrusted input.
 *
 * The guest owns the share's contents: it can leave a symlink pointing anywhere on the host,
 * and a host reader that followed it would read (or, worse, write) outside the results
 * directory. These helpers never follow a symlink and never leave the directory.
 */
#ifndef BO_SHARE_H
#define BO_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

struct bo_share_report {
	size_t files, dirs;
	uint64_t bytes;		  /* in regular files */
	size_t rejected;	  /* symlinks, devices, fifos and sockets found */
	char first_rejected[256]; /* the first one's path relative to the share */
};

/*
 * Walk the results directory @dir without following symlinks (each level opened relative to
 * its parent with O_NOFOLLOW) and count what is there into *@ret. Anything but regular files
 * and directories is rejected: removed when @remove, and reported either way. Returns 0
 * when nothing was rejected or everything rejected was removed, -ELOOP when something was
 * rejected and left, -errno when the walk failed.
 */
_must_check_ int bo_share_check(const char *dir, bool remove, struct bo_share_report *ret,
				struct bo_err *err);

/*
 * Open @relpath inside the results directory @dir with open(2) @flags, refusing any symlink
 * and any ".." that would leave it (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS).
 */
_must_check_ int bo_share_open(const char *dir, const char *relpath, int flags, struct bo_err *err);

#endif

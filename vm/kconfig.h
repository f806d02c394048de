/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig.h — what a kernel must be built with to run blackout, judged from its `.config`
 * before a VM boots: the dm targets, loop, virtio and 9p, the filesystem under test, and
 * what boots at all (an initramfs, devtmpfs, the serial console). Each need is a CONFIG
 * option, built in (=y) or, in a kernel with CONFIG_MODULES, a module (=m); the refusal names
 * every option missing, and bo_kconfig_fragment() writes the lines a developer merges into a
 * config (scripts/kconfig/merge_config.sh, then make olddefconfig).
 */
#ifndef BO_KCONFIG_H
#define BO_KCONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "harness/base/util.h"
#include "vm/guestfs.h"

struct bo_kconfig;

/*
 * Read the kernel config @path (a `.config`, or Debian's /boot/config-<release>): lines
 * `CONFIG_NAME=value` and comments (`# CONFIG_NAME is not set`). A line of another shape, a
 * name that is not [A-Za-z0-9_] or a file past 16 MiB is refused with @err naming the file
 * and the line.
 */
_must_check_ int bo_kconfig_read(const char *path, struct bo_kconfig **ret, struct bo_err *err);

void bo_kconfig_free(struct bo_kconfig *kc);

/* The value of option @name ("CONFIG_DM_FLAKEY": "y", "m", a number or a quoted string), or
 * NULL when it is not set. */
const char *bo_kconfig_get(const struct bo_kconfig *kc, const char *name);

/*
 * Whether @kc has what a VM that tests the filesystems @fs (NULL-terminated; NULL: none
 * named, as for vm run), each a row of @fstab (NULL-name-terminated), needs, and with @base_image what a host-written base image needs
 * (check's virtio-pmem): -ENOPKG with @err naming the options missing (those only modules in
 * a kernel without CONFIG_MODULES too) as far as its message holds them, and with @detail
 * each of them on a line of its own with what it is for. @what names the config in @err.
 */
_must_check_ int bo_kconfig_check(const struct bo_kconfig *kc, const char *what,
				  const char *const *fs, const struct bo_guest_fs *fstab,
				  bool base_image, FILE *detail, struct bo_err *err);

/* The config fragment blackout needs for the filesystems @fs (NULL-terminated; NULL or
 * empty: every row of @fstab), to @out: one `CONFIG_NAME=y` line per option, with a comment
 * of what each is for. With @modules, the dm targets, the filesystems and the drivers that may
 * be modules are `=m`. */
void bo_kconfig_fragment(FILE *out, const char *const *fs, const struct bo_guest_fs *fstab,
			 bool modules);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modload.h — load kernel modules in the guest, with their dependencies, from the running
 * kernel's module directory. blackout is the guest's modprobe: the kernel's request_module()
 * runs it (via /proc/sys/kernel/modprobe) when a mount or a dm table needs a module.
 */
#ifndef BO_MODLOAD_H
#define BO_MODLOAD_H

#include "harness/base/util.h"

struct bo_modload;

/* Open /lib/modules/<uname -r> for loading. */
_must_check_ int bo_modload_open(struct bo_modload **ret, struct bo_err *err);

/* How a module file goes into the kernel: 0, or -errno (-EEXIST: it is there already). */
typedef int (*bo_modload_insert_fn)(const char *path, void *ctx);

/* Open the module directory @dir for loading through @insert (NULL: finit_module(2)); for
 * the tests, which load nothing. */
_must_check_ int bo_modload_open_dir(const char *dir, bo_modload_insert_fn insert, void *ctx,
				     struct bo_modload **ret, struct bo_err *err);

/* Free @l; NULL is fine. Loaded modules stay loaded. */
void bo_modload_free(struct bo_modload *l);

/*
 * Load @name (a module name or an alias, as modprobe takes them) with its pre soft
 * dependencies, its dependencies, and its post soft dependencies. A built-in or already
 * loaded module is success. -ENOENT when nothing provides @name. A module that failed to load
 * is tried again by the next call that needs it.
 */
_must_check_ int bo_modload_load(struct bo_modload *l, const char *name, struct bo_err *err);

#endif

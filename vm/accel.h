/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accel.h — KVM or TCG. /dev/kvm existing proves nothing on some hosts (nested
 * virtualisation that cannot emulate what the guest does), so "auto" trusts a probe boot,
 * and remembers its answer per host kernel and QEMU build.
 */
#ifndef BO_ACCEL_H
#define BO_ACCEL_H

#include <stddef.h>

#include "harness/base/util.h"

/*
 * Pick the accelerator into @buf ("kvm" or "tcg"). @requested "kvm" or "tcg" is taken as
 * is; NULL or "auto" looks the answer up in the cache (accel/<key>), and otherwise calls
 * @probe(@ctx) — which boots a VM under KVM and returns 1 if it worked, 0 if not — unless
 * /dev/kvm cannot be opened, and caches what it found. Concurrent callers probe once.
 */
_must_check_ int bo_accel_pick(const char *requested, int (*probe)(void *ctx), void *ctx, char *buf,
			       size_t len, struct bo_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * versions.h — the device-mapper targets the running kernel has registered, with versions.
 */
#ifndef BO_DM_VERSIONS_H
#define BO_DM_VERSIONS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/util.h"

struct bo_dm_target_version {
	char name[64];
	uint32_t version[3];
};

/*
 * List the targets of the running kernel's device-mapper (the DM_LIST_VERSIONS ioctl, via
 * libdevmapper's DM_DEVICE_LIST_VERSIONS task) into *@ret (freed by the caller), *@ret_n
 * entries, in the kernel's order. A target module that is not loaded is not listed.
 */
int bo_dm_target_versions(struct bo_dm_target_version **ret, size_t *ret_n, struct bo_err *err);

#endif

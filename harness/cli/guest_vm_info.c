// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __vm-info — the guest side of `blackout vm info` (vm.c): load the device-mapper targets
 * blackout's runs use, then list what device-mapper has, with their versions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "dmtargets/dm.h"
#include "harness/cli/cli.h"
#include "vm/modload.h"
#include "vm/vm.h"

/* The targets "vm info" loads before listing: the ones blackout's runs use. */
static const char *const info_targets[] = {"dm-log-writes", "dm-flakey", "dm-snapshot",
					   "dm-thin-pool", NULL};

static int cmd_guest_vm_info(int argc, char **argv)
{
	struct bo_dm_target_version *v = NULL;
	struct bo_modload *l = NULL;
	struct bo_err err = {0};
	struct utsname u;
	size_t n = 0;
	int ret = BO_EXIT_OK;

	if (!bo_vm_inside()) {
		bo_cli_error("__vm-info runs only inside a blackout VM");
		return BO_EXIT_USAGE;
	}
	uname(&u);
	printf("guest:   Linux %s %s\n", u.release, u.version);
	if (bo_modload_open(&l, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	for (const char *const *t = info_targets; *t; t++)
		if (bo_modload_load(l, *t, &err) < 0) {
			bo_cli_error("%s", bo_err_str(&err));
			ret = BO_EXIT_HARNESS;
		}
	bo_modload_free(l);
	if (bo_dm_target_versions(&v, &n, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	puts("dm targets:");
	for (size_t i = 0; i < n; i++)
		printf("  %-16s v%u.%u.%u\n", v[i].name, v[i].version.major, v[i].version.minor,
		       v[i].version.patch);
	free(v);
	return ret;
}

const struct bo_cmd bo_cmd_guest_vm_info = {"__vm-info", cmd_guest_vm_info, NULL};

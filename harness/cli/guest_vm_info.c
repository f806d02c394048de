// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __vm-info — the guest side of `blackout vm info` (vm.c): load the device-mapper targets
 * blackout's runs use, then print the guest kernel and what device-mapper has, with their
 * versions, as one JSON object for the host to show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "dmtargets/dm.h"
#include "harness/base/json.h"
#include "harness/cli/cli.h"
#include "vm/modload.h"
#include "vm/vm.h"

/* The targets "vm info" loads before listing: the ones blackout's runs use. */
static const char *const info_targets[] = {"dm-log-writes", "dm-flakey", "dm-snapshot",
					   "dm-thin-pool", NULL};

static int cmd_guest_vm_info(int argc, char **argv)
{
	_cleanup_json_ struct json_object *o = json_object_new_object();
	struct json_object *targets = json_object_new_array();
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
	if (!o || !targets) {
		json_object_put(targets);
		bo_cli_error("__vm-info: out of memory");
		return BO_EXIT_HARNESS;
	}
	uname(&u);
	json_object_object_add(o, "release", json_object_new_string(u.release));
	json_object_object_add(o, "version", json_object_new_string(u.version));
	json_object_object_add(o, "dm_targets", targets);
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
	for (size_t i = 0; i < n; i++) {
		struct json_object *t = json_object_new_object();
		char ver[40];

		snprintf(ver, sizeof(ver), "%u.%u.%u", v[i].version.major, v[i].version.minor,
			 v[i].version.patch);
		json_object_object_add(t, "name", json_object_new_string(v[i].name));
		json_object_object_add(t, "version", json_object_new_string(ver));
		json_object_array_add(targets, t);
	}
	free(v);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	return ret;
}

const struct bo_cmd bo_cmd_guest_vm_info = {"__vm-info", cmd_guest_vm_info, NULL};

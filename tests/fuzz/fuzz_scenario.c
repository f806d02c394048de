// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the scenario parser: any bytes as a scenario file; what parses must
 * also render as JSON and as command lines.
 */
#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness/scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fuzzed text names paths and users of this machine: they are not looked up. */
static const struct bo_scenario_opts fuzz_opts = {.host = false};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bo_scenario *sc = NULL;
	struct json_object *j = NULL;
	struct bo_err err = {0};
	char *cmd = NULL;

	if (bo_scenario_parse((const char *) data, size, "fuzz.ini", &fuzz_opts, &sc, &err) < 0) {
		/* A refusal always says why. */
		if (!err.msg[0])
			__builtin_trap();
		return 0;
	}
	if (bo_scenario_to_json(sc, &j) == 0) {
		(void) json_object_to_json_string(j);
		json_object_put(j);
	}
	if (bo_scenario_workload_command(sc, &cmd) == 0)
		free(cmd);
	if (bo_scenario_checker_command(sc, &cmd) == 0)
		free(cmd);
	bo_scenario_free(sc);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Fault plans against a kernel's flakey: the tables each entry loads, refusal of a feature the
 * kernel lacks with the scenario line, the reaction count and the never-fired guard. */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/record/faultrun.h"

#define DEV "/dev/mapper/blackout-r1-lw"

static struct bo_scenario *scenario(const char *faults)
{
	char text[1024];
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};

	snprintf(text, sizeof(text),
		 "[device]\nfs = ext4\n[workload]\nbuiltin = fsops\n[faults]\n%s", faults);
	CU_ASSERT_FATAL(bo_scenario_parse(text, strlen(text), "s.ini", NULL, &sc, &err) == 0);
	return sc;
}

/* Debian 12's 6.1 kernel: flakey 1.5.0, probed, without the Linux 6.5 features. */
static struct bo_flakey_caps caps_61(void)
{
	struct bo_dm_target_version v[] = {{"flakey", {1, 5, 0}}};
	struct bo_flakey_caps caps;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_flakey_caps_from_versions(v, 1, &caps, &err) == 0);
	caps.probed = true;
	return caps;
}

static int no_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	(void) ctx;
	(void) name;
	(void) ret_entry;
	return bo_err_set(err, EIO, "not expected");
}

static void test_refused_with_line(void)
{
	struct bo_scenario *sc =
		scenario("at = ack:3 drop_writes\nat = mark:x random_write_corrupt 1000\n");
	struct bo_flakey_caps caps = caps_61();
	struct bo_faultrun_config cfg = {.sc = sc,
					 .caps = &caps,
					 .flakey = "blackout-r1-flakey",
					 .below = DEV,
					 .sectors = 8,
					 .mark = no_mark};
	struct bo_faultrun *fr = NULL;
	struct bo_err err = {0};

	CU_ASSERT(bo_faultrun_new(&cfg, &fr, &err) == -EOPNOTSUPP);
	CU_ASSERT(fr == NULL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:7: [faults] at: ") == bo_err_str(&err));
	CU_ASSERT(strstr(bo_err_str(&err), "does not support feature 'random_write_corrupt'") !=
		  NULL);
	bo_scenario_free(sc);
}

static void test_reaction_and_guard(void)
{
	struct bo_scenario *sc = scenario("at = ack:3 drop_writes\nat = mark:back up\n");
	struct bo_flakey_caps caps = caps_61();
	struct bo_faultrun_config cfg = {.sc = sc,
					 .caps = &caps,
					 .flakey = "blackout-r1-flakey",
					 .below = DEV,
					 .sectors = 8,
					 .mark = no_mark};
	struct bo_faultrun *fr = NULL;
	struct json_object *rec = NULL, *o;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_faultrun_new(&cfg, &fr, &err) == 0);
	/* Marks that trigger nothing: no switch, no record, nothing counted before a fault. */
	CU_ASSERT(bo_faultrun_on_mark(fr, "issue:1", 5, &rec, &err) == 0 && rec == NULL);
	CU_ASSERT(bo_faultrun_on_mark(fr, "ack:1", 6, &rec, &err) == 0 && rec == NULL);
	CU_ASSERT(!bo_faultrun_fired(fr));
	CU_ASSERT(bo_faultrun_check_fired(fr, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:6: [faults] at: the trigger 'ack:3' never "
					   "reached the log") != NULL);
	o = bo_faultrun_outcome(fr, "exited with status 0", 0);
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			 "\"fired\":false") != NULL);
	json_object_put(o);
	bo_faultrun_free(fr);
	bo_scenario_free(sc);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a feature the kernel lacks is refused with its line", test_refused_with_line},
		{"reaction counts and the never-fired guard", test_reaction_and_guard},
		{NULL, NULL},
	};

	return bo_test_run("faultrun", tests);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.h — the one reader of config.json, the effective configuration of a run or a check
 * (docs/results.md): the object as written, and the fields other commands rely on.
 */
#ifndef BO_CONFIG_H
#define BO_CONFIG_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"

/*
 * The largest config.json read. Its writers put in it the scenario (at most 1 MiB, the bound of
 * the scenario reader), the options of the command line and the paths the VM was given (at
 * most ARG_MAX, 2 MiB by default), a byte of them at most 6 as JSON ("\u001b"): under 20 MiB.
 */
#define BO_CONFIG_MAX (32u << 20)

/* Results directory @dir's config.json in *@ret (put by the caller), never read through a
 * symlink; -errno with @err naming the file when it is missing or not a JSON object. */
_must_check_ int bo_config_read(const char *dir, struct json_object **ret, struct bo_err *err);

/* The seed a run used (its "run": {"seed"}), in *@ret; false when @cfg has none. */
bool bo_config_run_seed(struct json_object *cfg, uint64_t *ret);

/* Whether @cfg is a check's ("kind": "check"), whose options are under "options". */
bool bo_config_is_check(struct json_object *cfg);

/* Whether @cfg is a run's: the scenario it ran ("scenario", an object) and its "run_id". */
bool bo_config_is_run(struct json_object *cfg);

/*
 * Add where and when the run or check starts to @cfg: "host" (this machine's name) and
 * "started" (now, UTC, YYYY-MM-DDTHH:MM:SS), which junit.xml reports however late and
 * wherever it is rendered. Shards of one check differ only in these, their run id and shard.
 */
void bo_config_add_origin(struct json_object *cfg);

/* The members bo_config_add_origin() adds, for those that compare configurations. */
#define BO_CONFIG_ORIGIN_KEYS "host", "started"

#endif

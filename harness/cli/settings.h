/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * settings.h — what a crash state is checked with, made in one place for every command that
 * checks states: the check options (check_opts.h) over the scenario's [check] and [device]
 * keys over the defaults. run, check, reproduce and shrink make them on the host to record
 * them (config.json "settings"), and their guests make them again from the same options and
 * scenario to check with (bo_settings_explore()): a setting a run was checked with is the
 * setting its reproduction and its shrink check with.
 *
 * A new setting is one row of settings.c's table (its config.json key and where the scenario
 * and the options hold it), a field here and in struct bo_explore_opts, and its line in
 * bo_settings_explore(); docs/hacking.md walks through one.
 */
#ifndef BO_CLI_SETTINGS_H
#define BO_CLI_SETTINGS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/cli/check_opts.h"
#include "harness/cli/opts.h"
#include "harness/dev/fs.h"
#include "harness/explore/explore.h"
#include "harness/scenario/scenario.h"
#include "harness/states/persona.h"

struct bo_settings {
	const char *fs, *mount_options, *cuts, *checker; /* NULL: the default */
	uint64_t size;		/* bytes of the data device; 0: from the log */
	uint64_t seed;		/* sampling and tearing draw from it, as the checker does */
	uint64_t workload_seed; /* BLACKOUT_SEED of the checker */
	uint64_t reorder, budget, recovery_crashes, witness;
	bool ordered, torn, witness_full;
	enum bo_persona persona;
	enum bo_recovery recovery;
	unsigned fsck_timeout, checker_timeout; /* seconds */
	unsigned shard_i, shard_n;
	enum bo_bench_mode bench;
};

/*
 * The settings of a check given the options @a (each NULL when not given; their values were
 * judged by check_opts.c's table) and the scenario @sc (or NULL) whose checker command is
 * @sc_checker, into @s: an option over the scenario over the default, and a persona's own
 * states and budget when none were asked for (bo_persona_defaults()). 0, or -EINVAL with @err
 * naming the option.
 */
_must_check_ int bo_settings_make(const struct bo_check_args *a, const struct bo_scenario *sc,
				  const char *sc_checker, struct bo_settings *s,
				  struct bo_err *err);

/* What of @eo the settings @s say (every field of it that has a row here); the rest of @eo
 * (where, which state, the account, the devices) is the caller's. */
void bo_settings_explore(const struct bo_settings *s, struct bo_explore_opts *eo);

/* @s as config.json's "settings" object (a new reference), or NULL out of memory. */
struct json_object *bo_settings_json(const struct bo_settings *s);

/* Add to config.json @cfg the options of table @t (@n rows) that @args holds ("options", the
 * keys reproduce and shrink read back) and the settings @s ("settings"). 0, or -ENOMEM. */
_must_check_ int bo_settings_config(struct json_object *cfg, const struct bo_opt *t, size_t n,
				    const void *args, const struct bo_settings *s);

#endif

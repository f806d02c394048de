/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diary.h — a results directory read for diagnosis, from its own files alone: its summary,
 * its state and alias records in order, its configuration, its write.log and scenario.ini
 * when it has them, and the by-products of a state. `explain` tells a state's story from it,
 * `reproduce` re-runs a state with the configuration it recorded.
 */
#ifndef BO_DIARY_H
#define BO_DIARY_H

#include <json-c/json.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/log/log.h"
#include "harness/results/summary.h"
#include "harness/scenario/scenario.h"

struct bo_diary {
	const char *dir;
	struct json_object *summary; /* summary.json */
	struct bo_summary sum;	     /* ... as its reader validated it */
	struct json_object *states;  /* array: the "state" records of stream.jsonl, in order */
	struct json_object *aliases; /* array: its "alias" records */
	struct json_object *config;  /* config.json, or NULL without one */
	struct bo_log *log;	     /* write.log, or NULL without one */
	struct bo_scenario *sc;	     /* scenario.ini, or NULL (with the run's seed set) */
	uint64_t seed;		     /* the run's seed (config.json, else the scenario's) */
};

/* Read results directory @dir into @d; bo_diary_clear() it after, whatever this returned. */
_must_check_ int bo_diary_load(struct bo_diary *d, const char *dir, struct bo_err *err);
void bo_diary_clear(struct bo_diary *d);

/* Aliases followed from one state before the chain is refused: an alias names a state
 * checked before it, so a longer chain is no exploration's. */
#define BO_DIARY_ALIAS_MAX 16

/*
 * The state record named @id in *@ret, or with @id NULL the first one that is not consistent
 * (NULL when there is none). An alias (a state not checked again: the same image and op sets
 * as an earlier one) stands for the state it repeats: *@ret_alias_of (when not NULL) names
 * that one, else is set to NULL. This is where aliases are followed, for every command: a
 * chain that comes back to a state it passed, or is longer than BO_DIARY_ALIAS_MAX, is
 * -ELOOP with @err naming it; no record of @id (or of the state an alias names) is -ENOENT.
 */
_must_check_ int bo_diary_state(const struct bo_diary *d, const char *id, struct json_object **ret,
				const char **ret_alias_of, struct bo_err *err);

/*
 * The text of by-product @name of state @id (states/@id/@name) in *@ret (freed by the
 * caller): 0; -ENOENT when there is none; else -errno with @err saying why it was refused and
 * not read (a symlink, a FIFO, bigger than BO_INPUT_MAX_TEXT, or @id not a plain name).
 */
_must_check_ int bo_diary_byproduct(const struct bo_diary *d, const char *id, const char *name,
				    char **ret, struct bo_err *err);

#endif

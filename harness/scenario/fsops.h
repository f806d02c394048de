/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsops.h — what the harness asks of the builtin fsops workload (scenarios/fsops/) about a
 * scenario: its op list, as `blackout-fsops list` prints it, one op a line ("ID WHAT ...").
 * Used by shrink (which ops a candidate list performs) and explain (what a lost op was). And
 * the names of its op families, which the scenario checks before any boot (tests/cli/fsops.sh
 * holds them equal to the workload's own).
 */
#ifndef BO_SCENARIO_FSOPS_H
#define BO_SCENARIO_FSOPS_H

#include <stddef.h>

#include "harness/base/util.h"
#include "harness/scenario/scenario.h"

/* Whether @sc runs the builtin fsops workload. */
bool bo_fsops_is(const struct bo_scenario *sc);

/* Whether @sc runs builtin bounded: the bounded space of fsops workloads (blackout-fsops
 * --bounded). */
bool bo_bounded_is(const struct bo_scenario *sc);

/* fsops' op families, as [workload] families takes them (blackout-fsops --families). */
#define BO_FSOPS_FAMILIES \
	"falloc, direct, dsync, mmap, xattr, rename2, copy, clone, symlink, collapse"
/* Those the bounded space draws ops of (scenarios/fsops/bounded.c). */
#define BO_BOUNDED_FAMILIES "falloc, direct, dsync, mmap, xattr, rename2"

/*
 * The ops of @sc's fsops workload with op list @keep (NULL: the scenario's own), as the
 * blackout-fsops in @libexec lists them: *@ret the text, one line per op, freed by the caller.
 * For builtin bounded, the ops of its workloads, each line ending "workload=seqL-RANK" (and
 * " ack"); @keep does not apply.
 */
_must_check_ int bo_fsops_list(const struct bo_scenario *sc, const char *libexec, const char *keep,
			       char **ret, struct bo_err *err);

#endif

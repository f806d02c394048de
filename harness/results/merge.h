/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.h — combine the results of the shards of one check (`check --shard I/N`, or the VMs of
 * `check --jobs N`) into one results directory with the summary a single run gives.
 *
 * Shards must come from the same log and the same configuration: their config.json must be
 * equal but for the run id and the shard, and together they must be shards 0..N-1 of one N,
 * each exactly once. State and alias records are merged in cut order; the summary is computed
 * again from them; states/<id>/ directories are copied.
 */
#ifndef BO_MERGE_H
#define BO_MERGE_H

#include <stddef.h>

#include "harness/base/util.h"

/* Merge the shard results directories @dirs into the new results directory @out. */
_must_check_ int bo_merge(const char *out, char *const *dirs, size_t n, struct bo_err *err);

/* Merge into @out, which exists already with write.log and config.json (check --jobs). */
_must_check_ int bo_merge_into(const char *out, char *const *dirs, size_t n, struct bo_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_int.h — the stages of the fsops checker's judge() (check.c), each in a file of its
 * own: the walk of the tree (observe.c), the ops indexed by object (opindex.c), the sync ops
 * judged (promise.c). Internal to the fsops program.
 */
#ifndef BO_FSOPS_CHECK_INT_H
#define BO_FSOPS_CHECK_INT_H

#include <stdint.h>

#include "scenarios/fsops/checker.h"

/*
 * Look at the namespace in directory @dfd (-1: it does not exist, so nothing does), at the
 * file names of @slots (a bit per slot); the others are absent. Returns 0 or -ENOMEM.
 */
int observe(struct checker *c, int dfd, uint64_t slots);

/*
 * Index @c's ops by object: its futures (one per inode), by_slot, by_dir, slot_last and
 * dir_last. Returns 0 or -ENOMEM.
 */
int index_ops(struct checker *c);

/*
 * Replay the model and judge every issued sync-class op at its own point. What the tracks
 * know is kept current op by op, so a sync op costs what its inode's names hold, not the
 * ops before or after it.
 */
int judge_syncs(struct checker *c);

#endif

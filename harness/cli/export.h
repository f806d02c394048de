/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.h — what `blackout export` (export.c) writes beside repro.c: the shell scripts that
 * reproduce a lost acknowledgement without blackout (export_scripts.c) and the replayer of a
 * dm-log-writes log the volatile cache's route needs (export_replay.c). docs/export.md.
 */
#ifndef BO_CLI_EXPORT_H
#define BO_CLI_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "harness/scenario/scenario.h"

/* Export state @state of results directory @results (NULL: its first that is not consistent)
 * into directory @out (made, or empty): 0, or -1 once said why (nothing left in @out). */
int bo_export_state(const char *results, const char *state, const char *out);

/* The label the scripts give the filesystems they make, and know them by. */
#define BO_EXPORT_LABEL "borepro"

/* What the scripts of one export are made of: the filesystem's commands on "$1", and what
 * the state is, for their first lines. */
struct bo_export_script {
	const struct bo_scenario *sc;
	const char *mkfs;   /* mkfs of the scenario's filesystem on "$1", with the label */
	const char *repair; /* the repair before the mount ("" : the mount recovers it) */
	uint64_t upto;	    /* the acknowledged op */
	const char *what;   /* one line: which state of which results */
	/* A workload that speaks the control channel (NULL: repro.c's ops): its command line
	 * and its checker's, their program beside the scripts, and the seed it runs with. */
	const char *workload, *checker;
	uint64_t seed;
	unsigned timeout, checker_timeout; /* seconds */
};

/* run.sh [DEVICE]: dm-flakey's power cut right after the ack. 0, or -ENOMEM. */
int bo_export_run_sh(FILE *f, const struct bo_export_script *s);

/* cache.sh [DEVICE]: the ops recorded through dm-log-writes, the log replayed to the ack as a
 * volatile cache leaves it (replay.c). */
int bo_export_cache_sh(FILE *f, const struct bo_export_script *s);

/* replay.c's text, and ctl.c's (the control channel's stand-in). */
extern const char bo_export_replay_c[], bo_export_ctl_c[];

#endif

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
	/* A workload of its own that speaks the control channel (NULL: repro.c's ops), and the
	 * seed it runs with. */
	const struct bo_export_workload *workload;
	uint64_t seed;
	unsigned timeout, checker_timeout; /* seconds */
};

/* run.sh [DEVICE]: dm-flakey's power cut right after the ack. 0, or -ENOMEM. */
int bo_export_run_sh(FILE *f, const struct bo_export_script *s);

/* cache.sh [DEVICE]: the ops recorded through dm-log-writes, the log replayed to the ack as a
 * volatile cache leaves it (replay.c). */
int bo_export_cache_sh(FILE *f, const struct bo_export_script *s);

/* A workload of its own (export_workload.c): what run.sh runs in repro's place. */
struct bo_export_workload {
	const char *exe;     /* a builtin's program, copied from libexec; NULL: a command line */
	char *cmd, *checker; /* what run.sh execs for each (shell text) */
	char *line, *check_line; /* the two command lines as the scenario has them */
	char **copied;		 /* host files and folders copied under files/ at their paths */
	char **needed;		 /* installed host files the workload needs on the machine */
	const char *user;	 /* [workload] user, or NULL (root) */
};

/* What @sc's workload (not fsops') is exported as, into @w (bo_export_workload_clear() it):
 * 0, or -1 once said why not (@dir names the results in the message). */
int bo_export_workload_make(const struct bo_scenario *sc, const char *dir,
			    struct bo_export_workload *w);
void bo_export_workload_clear(struct bo_export_workload *w);

/* REPORT.md's "Reproduce" of @w, whose cut comes after op @upto's ack, into @f. */
void bo_export_workload_report(FILE *f, const struct bo_export_workload *w, uint64_t upto);

/* The builtin's program, or files/, into the export directory @out: 0, or -1 with errno. */
int bo_export_workload_write(const char *out, const struct bo_export_workload *w);

/* replay.c's text, and ctl.c's (the control channel's stand-in). */
extern const char bo_export_replay_c[], bo_export_ctl_c[];

#endif

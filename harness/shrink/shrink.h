/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shrink.h — a failure made small: the earliest failing prefix cut of a saved log, by
 * bisection (bo_shrink_bisect()), and for the builtin fsops workload a 1-minimal op list that
 * still fails, by delta debugging (base/ddmin.h) over candidates judged once each
 * (bo_shrink_ops()). What judges a probe or a candidate is a struct bo_shrink_judge:
 * bo_shrink_vm_judge (trial.c) records and checks on this machine's kernel, so that a
 * candidate costs mkfs, the workload and its checks, never a boot; a test gives one of its
 * own. The library never prints: its caller is told of every probe and candidate (report),
 * and records them.
 */
#ifndef BO_SHRINK_H
#define BO_SHRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"
#include "harness/base/proc.h"
#include "harness/base/util.h"
#include "harness/explore/explore.h"
#include "harness/log/layout.h"
#include "harness/log/log.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"
#include "harness/states/classify.h"

/* What one probe or candidate showed. */
struct bo_shrink_trial {
	bool checked;	    /* a probe: its state was checked (the rest below is set) */
	bool fails;	    /* the class wanted showed */
	bool harness_error; /* a probe: its state could not be evaluated */
	uint64_t states;    /* crash states checked */
	int error;	    /* -errno: the check could not be done, @err says why; else 0 */
	struct bo_err err;
};

enum bo_shrink_phase {
	BO_SHRINK_BISECT, /* a probe: one prefix state of the saved log */
	BO_SHRINK_DDMIN,  /* a candidate: the workload recorded again with fewer ops */
};

/* One probe or candidate, as the caller is told of it when it is judged (a candidate that
 * performs an op list judged before is not judged again, nor told of). */
struct bo_shrink_step {
	enum bo_shrink_phase phase;
	const char *state; /* a probe: its state, c<N>, */
	uint64_t cut;	   /* ... after this many entries of the log */
	unsigned n;	   /* a candidate: its number, from 1, */
	/* ... the op list it performs (bo_ids_format()); NULL when it could not be listed:
	 * nothing was judged, t->err says why, and the search stops with -ENOMEM */
	const char *ops;
	size_t op_count, asked; /* ... its ops, of the ops asked for */
	const struct bo_shrink_trial *t;
	double seconds; /* the time it took */
};

struct bo_shrink_in;

/* How probes and candidates are judged; ctx of the struct bo_shrink_in is theirs. */
struct bo_shrink_judge {
	/*
	 * Check prefix state @cut of @log, states from @first on (probe @i, from 0), into *@t
	 * (t->checked once it was checked). -errno with @err when the work around the check
	 * failed: before it (t->checked false, nothing to record) or after it.
	 */
	int (*probe)(const struct bo_shrink_in *in, const struct bo_log *log, uint64_t cut,
		     uint64_t first, unsigned i, struct bo_shrink_trial *t, struct bo_err *err);
	/* The op ids the workload performs with op list @keep (NULL: the one it starts with),
	 * ascending, into a new array *@ret of *@ret_n. 0, or -errno with @err. */
	int (*perform)(const struct bo_shrink_in *in, const char *keep, uint64_t **ret,
		       size_t *ret_n, struct bo_err *err);
	/* Judge candidate @n, the workload performing op list @keep (not empty): 1 when the
	 * class wanted shows, 0 when not, -errno when it could not be judged, with t->err;
	 * t->states counts the states checked. */
	int (*test)(const struct bo_shrink_in *in, const char *keep, unsigned n,
		    struct bo_shrink_trial *t);
};

/* What a shrink is asked. */
struct bo_shrink_in {
	enum bo_class want; /* the class that must still show */
	const char *state;  /* bisection: the failing prefix state, c<N>, */
	const char *log;    /* ... of this saved log, bisected from its mkfs mark on */
	unsigned max_tests; /* delta debugging: at most this many tests (0: no limit) */
	const struct bo_shrink_judge *judge;
	void *ctx;
	/* Told, when not NULL, of every probe and candidate as it is judged. */
	void (*report)(void *rctx, const struct bo_shrink_step *st);
	void *rctx;
};

/* What a shrink found. */
struct bo_shrink_out {
	uint64_t cut;	 /* bisection: the earliest failing prefix cut */
	unsigned probes; /* ... found with this many probes */
	/* Delta debugging: the op list that still fails, each of its ops needed (freed by the
	 * caller), its ops and those it started with, the candidates judged. */
	char *keep;
	uint64_t ops_before, ops_after;
	unsigned candidates;
};

/*
 * The earliest prefix cut of in->log at which in->want shows, between its mkfs mark (a
 * fresh filesystem, taken as passing) and in->state, which failed, into @out. Assumes that
 * once a prefix fails, longer ones up to the known failure do too; each probe is reported,
 * so that a violation shows. 0, or -errno with @err: -EINVAL for a state not of that form
 * or not after the mkfs mark, -EIO for a probe that could not be checked.
 */
_must_check_ int bo_shrink_bisect(const struct bo_shrink_in *in, struct bo_shrink_out *out,
				  struct bo_err *err);

/*
 * A 1-minimal op list that still shows in->want, into @out: the op list the workload starts
 * with must show it first (-ENOENT with @err when it does not), then delta debugging over
 * its ops, each candidate judged in the form the workload performs it, once. A candidate that
 * could not be judged counts as passing. 0, or -errno with @err.
 */
_must_check_ int bo_shrink_ops(const struct bo_shrink_in *in, struct bo_shrink_out *out,
			       struct bo_err *err);

/* The judge on this machine's kernel (trial.c): in->ctx is a struct bo_shrink_vm. */
struct bo_shrink_vm {
	const char *runid;   /* devices and work directories of probe N are <runid>-b<N>, ... */
	const char *workdir; /* ... of candidate N <runid>-k<N>, each a tmpfs under this */
	const char *libexec; /* the workload programs */
	/* The account and root directory of workload and checker (NULL: root, and ours). */
	const struct bo_proc_user *user;
	const char *root;
	bool in_place;		/* the work directories are this machine's memory (--in-place) */
	struct bo_scenario *sc; /* the run's; its op list is set to each candidate's */
	/* What each state is checked with (the run's settings); where, which state, the
	 * checker's command line and the devices are set for each check. */
	const struct bo_explore_opts *eo;
	char *const *checker_env;
	struct bo_results *res; /* where the states of probes are recorded */
	/* What the caller's session makes: a tmpfs of its own on a new directory (that other
	 * accounts may pass through when @pass) and its undoing; the devices of a log's states
	 * for @eo, @l holding them. */
	int (*tmpfs)(const char *path, bool pass, struct bo_err *err);
	int (*tmpfs_drop)(const char *path, struct bo_err *err);
	int (*devices)(const struct bo_scenario *sc, const struct bo_log *log, struct bo_layout *l,
		       struct bo_explore_opts *eo, struct bo_err *err);
};

extern const struct bo_shrink_judge bo_shrink_vm_judge;

#endif

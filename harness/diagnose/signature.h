/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signature.h — the failing states of results directories grouped into findings by signature:
 * filesystem, mkfs and mount options, kernel, class, the broken promise (the kind of op whose
 * ack was lost, or that appeared unissued) and the op skeleton (for builtin bounded, the ops
 * of the workload after its setup). Ten thousand failing states of one bug are one finding,
 * with its count of states, the workloads it is seen in and its smallest one, and the state
 * to look at first. A set of findings is compared with a baseline's by signature through the
 * comparison nightly makes too (compare.h). `blackout findings` prints them.
 */
#ifndef BO_SIGNATURE_H
#define BO_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/base/strmap.h"
#include "harness/base/util.h"

/* A finding: the failing states of one signature. */
struct bo_sig {
	char *key;  /* the signature */
	char *cell; /* its cell: filesystem, options and kernel */
	char *fs, *opts, *kernel, *cls, *promise, *skeleton;
	uint64_t states;
	uint64_t workloads; /* distinct ones seen */
	char **seen;	    /* their names (room for seen_cap), */
	size_t seen_cap;
	struct bo_strmap seen_at;      /* ... found by name */
	uint64_t last_run, last_state; /* to count a state once: the run and record counted last */
	char smallest[32];	       /* the workload with fewest ops, or "" */
	uint64_t smallest_ops;
	char *dir, *state;  /* where to look first: the smallest's first state */
	const char *status; /* against a baseline: "new", "unchanged", "fixed" or "not run" */
};

/* What went wrong with one run read (bo_sigset_search()). */
enum bo_sig_problem {
	BO_SIG_UNREADABLE, /* it could not be read: the set is marked failed */
	BO_SIG_NO_OPS,	   /* its ops could not be listed: its states are grouped as 'op' */
};

/* Every string of a finding was written by a guest or a stranger: each is kept sanitized
 * (bo_sanitize()), so that the text and JSON printed hold no control character. */
struct bo_sigset {
	struct bo_sig *v;
	size_t n, cap;
	struct bo_strmap index; /* v by signature, until v is sorted */
	/* The cells of the runs read that ran to their end, failing or not: a finding of a
	 * baseline gone from one is fixed, from any other cell not run. */
	char **cells;
	size_t ncells;
	struct bo_strmap ran;
	bool failed;   /* a directory could not be read */
	uint64_t run;  /* the run being read, counted from 1 */
	uint64_t read; /* the runs read whole */
	/* Told, when not NULL, about each run read that had a problem: its directory, which
	 * problem, and why. */
	void (*report)(void *rctx, const char *dir, enum bo_sig_problem p,
		       const struct bo_err *err);
	void *rctx;
};

/*
 * The failing states of the runs under @path (a results directory, or the trees of run
 * --kernels and nightly, searched for them without following links) into @s. -ENOENT when
 * @path holds none: a tree in which nothing was read has no findings, but "every state is
 * consistent" would be a lie. -ENOMEM.
 */
_must_check_ int bo_sigset_search(struct bo_sigset *s, const char *path, struct bo_err *err);

/* The findings of baseline @path (a tree of runs, or a file `findings --json` wrote) into
 * @base; a run of a tree that cannot be read marks @base failed. */
_must_check_ int bo_sigset_read_baseline(struct bo_sigset *base, const char *path,
					 struct bo_err *err);

/* Order @s by count of states, most first, then by signature; its index is then stale. */
void bo_sigset_sort(struct bo_sigset *s);

/*
 * Mark each finding of @cur "new" or "unchanged" by its signature in @base, and each of
 * @base that @cur lacks "fixed" when @cur ran its cell (filesystem, options, kernel) to its
 * end, else "not run": a cell not checked tonight fixed nothing (compare.h). The number of
 * new findings, or -ENOMEM.
 */
_must_check_ ssize_t bo_sigset_compare(struct bo_sigset *cur, struct bo_sigset *base);

/* Release what @s holds; it is then empty. */
void bo_sigset_clear(struct bo_sigset *s);

#endif

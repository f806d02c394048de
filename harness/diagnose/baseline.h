/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * baseline.h — the failing states of a nightly run and their comparison with a previous one.
 *
 * A failure is identified by its cell (scenario, filesystem, mount options, kernel, device
 * persona) and its state id, never by
 * counts: a run that trades one failing state for another has one new failure and one fixed
 * one, although its counts did not move. A failure found again is compared by its class *and*
 * its findings (states/findings.h): a state that was fsck-dirty and is now fsck-dirty with a
 * lost ack has changed.
 */
#ifndef BO_BASELINE_H
#define BO_BASELINE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"

/* A cell of a nightly matrix; NULL kernel, persona or options: the default (""). */
struct bo_cell {
	const char *scenario, *fs, *options, *kernel, *persona;
};

/* A failure's strings come from a guest's stream or a stranger's baseline: each is kept
 * sanitized (bo_sanitize()), so that what is printed or written as JSON holds no control
 * character and no invalid UTF-8. */
struct bo_failure {
	char *scenario, *fs, *options, *kernel, *persona; /* "": the default */
	char *state, *cls;
	char *findings;		      /* its findings in words (bo_findings_str()), "" for none */
	char *was_cls, *was_findings; /* in a diff's "changed": what the baseline had; else NULL */
	char *cell, *key;	      /* its cell, and its identity (the cell and the state) */
};

struct bo_failset {
	struct bo_failure *v;
	size_t n, cap;
	/* The cells that ran to their end (bo_failset_ran()): a failure of the baseline that
	 * is gone from one of them is fixed; from any other cell, not run. */
	char **ran;
	size_t nran;
};

/* Add the failure of @state (class @cls, findings @findings in words, NULL for none) in cell
 * @c (the strings are copied, sanitized). 0 or -ENOMEM. */
_must_check_ int bo_failset_add(struct bo_failset *s, const struct bo_cell *c, const char *state,
				const char *cls, const char *findings);

/* Note that cell @c ran to its end: its run exited 0 or 1 and its stream was read. 0 or
 * -ENOMEM. */
_must_check_ int bo_failset_ran(struct bo_failset *s, const struct bo_cell *c);

/* Release what @s holds; it is then empty. */
void bo_failset_clear(struct bo_failset *s);

/*
 * Read the failures listed in a nightly summary (its "runs"[]."failing"[]). Returns -errno
 * with a message naming the file and what is wrong in @err.
 */
_must_check_ int bo_failset_from_summary(struct json_object *summary, const char *what,
					 struct bo_failset *ret, struct bo_err *err);

/* Add the failing states a results directory's stream.jsonl records (states and aliases of
 * another class than consistent) in cell @c, each state's id after @prefix (NULL: none; a part
 * of a run in parts: "part-3/"). */
_must_check_ int bo_failset_from_stream(struct bo_failset *s, const char *dir, const char *prefix,
					const struct bo_cell *c, struct bo_err *err);

struct bo_baseline_diff {
	struct bo_failset added, fixed; /* new in current; gone from a cell of @cur that ran */
	struct bo_failset not_run;	/* the baseline's, in a cell that did not run to its end */
	struct bo_failset changed;	/* in both, with another class or other findings */
	struct bo_failset same;		/* in both, alike */
};

/* Compare @cur with @base by cell and state, then class and findings (harness/diagnose/
 * compare.h: the comparison findings makes too). 0 or -ENOMEM. */
_must_check_ int bo_baseline_diff(const struct bo_failset *base, const struct bo_failset *cur,
				  struct bo_baseline_diff *ret);

void bo_baseline_diff_clear(struct bo_baseline_diff *d);

/* The diff as JSON: {"new": [...], "fixed": [...], "not_run": [...], "changed": [...] (with
 * "was_class" and "was_findings"), "unchanged": [...]}. */
struct json_object *bo_baseline_diff_json(const struct bo_baseline_diff *d);

#endif

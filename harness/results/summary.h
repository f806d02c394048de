/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h — counts per class, the first failing state of each class, the verdict and the
 * timings of a run, and the vacuous-pass rule: a run that checked nothing is an error.
 */
#ifndef BO_SUMMARY_H
#define BO_SUMMARY_H

#include <json-c/json.h>
#include <stdint.h>

#include "harness/states/classify.h"
#include "harness/states/findings.h"

enum bo_verdict_kind {
	BO_VERDICT_CONSISTENT, /* every state checked was consistent */
	BO_VERDICT_FAILED,     /* at least one state failed a check */
	BO_VERDICT_ERROR,      /* blackout could not evaluate (including: nothing checked) */
};

/*
 * The largest summary.json of a run read: bo_summary_json() writes struct bo_summary, of fixed
 * size, whose strings (ids of 63 bytes, an error of 511) take at most 6 bytes a byte as JSON:
 * some 40 KiB at most.
 */
#define BO_SUMMARY_MAX (1u << 20)

/* The first few op ids of a finding, for the class table. */
#define BO_SUMMARY_OPS 8

/* The error a summary of no state at all carries when it has none of its own. */
#define BO_SUMMARY_NOTHING_CHECKED "no crash state was checked"

/* The states with one finding (states/findings.h), and the ops they hold. */
struct bo_summary_finding {
	uint64_t states;
	char first[64];		      /* the first state with it */
	uint64_t ops[BO_SUMMARY_OPS]; /* the smallest op ids of it over those states, ascending */
	unsigned n_ops;
	bool more; /* more ops than ops[] holds */
};

struct bo_summary {
	uint64_t counts[BO_CLASS_COUNT];
	char first[BO_CLASS_COUNT][64]; /* first state id per class, "" if none */
	/* Findings, whatever the class: the states with each; and per class the states that
	 * also have a finding the class does not name (a fsck-dirty state that lost an ack). */
	struct bo_summary_finding findings[BO_FINDING_COUNT];
	struct bo_summary_finding also[BO_CLASS_COUNT][BO_FINDING_COUNT];
	uint64_t states;  /* states checked */
	uint64_t aliases; /* states not checked again: same image and op sets */
	double seconds_total;
	double seconds_check; /* sum of per-state check times */
	char error[512];      /* a run-level harness error, if any */
};

/* Count a checked state of class @c named @id, with its findings @v (NULL: none). */
void bo_summary_add(struct bo_summary *s, enum bo_class c, const char *id, double seconds,
		    const struct bo_verdict *v);

/* "fsck-dirty 3 (1 also lost-ack: op 2)": what the states of class @c also found, into
 * @buf ("" when nothing). Returns @buf. */
const char *bo_summary_also_str(const struct bo_summary *s, enum bo_class c, char *buf, size_t len);

/* Record a run-level error (the first one wins). */
void bo_summary_error(struct bo_summary *s, const char *msg);

/* Add summary @one (another run's) to @sum: its counts, first states, states and aliases, and
 * its error when @sum has none (the parts of a run in parts, a nightly cell of them). */
void bo_summary_sum(struct bo_summary *sum, const struct bo_summary *one);

/* The verdict: error if a run-level error was recorded, nothing was checked, or any state is a
 * harness-error or checker-error (never counted as a pass); failed if any state failed;
 * else consistent. */
enum bo_verdict_kind bo_summary_verdict(const struct bo_summary *s);

const char *bo_verdict_name(enum bo_verdict_kind v);

/* The process exit status for a verdict: 0, 1 or 3. */
int bo_verdict_exit(enum bo_verdict_kind v);

/* The summary as JSON for summary.json. */
struct json_object *bo_summary_json(const struct bo_summary *s);

/* Read a summary back from summary.json's object (host side; untrusted input). */
_must_check_ int bo_summary_from_json(struct json_object *o, struct bo_summary *ret,
				      struct bo_err *err);

/*
 * The one reader of summary.json: results directory @dir's summary into *@ret, and when
 * @ret_json is not NULL the object as read (put by the caller). The file is never read
 * through a symlink. -errno when it cannot be read (@err names its path), -EBADMSG when it is
 * not a summary (@err says what is wrong, "summary.json: ...").
 */
_must_check_ int bo_summary_read(const char *dir, struct bo_summary *ret,
				 struct json_object **ret_json, struct bo_err *err);

#endif

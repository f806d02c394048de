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

enum bo_verdict_kind {
	BO_VERDICT_CONSISTENT, /* every state checked was consistent */
	BO_VERDICT_FAILED,     /* at least one state failed a check */
	BO_VERDICT_ERROR,      /* blackout could not evaluate (including: nothing checked) */
};

struct bo_summary {
	uint64_t counts[BO_CLASS_COUNT];
	char first[BO_CLASS_COUNT][64]; /* first state id per class, "" if none */
	uint64_t states;		/* states checked */
	uint64_t aliases;		/* states not checked again: same image and op sets */
	double seconds_total;
	double seconds_check; /* sum of per-state check times */
	char error[512];      /* a run-level harness error, if any */
};

/* Count a checked state of class @c named @id. */
void bo_summary_add(struct bo_summary *s, enum bo_class c, const char *id, double seconds);

/* Record a run-level error (the first one wins). */
void bo_summary_error(struct bo_summary *s, const char *msg);

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

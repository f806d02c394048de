/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oracle.h — the durability oracle, on sets of op ids (never counts).
 *
 * The log is self-describing: its `issue:<id>` and `ack:<id>` marks say which operations were
 * issued and acknowledged before any cut. A checker run on the crash state says which ops it
 * found (`present <id> [digest]` lines, then `done`). The oracle then demands
 *
 *   acknowledged-before-cut  is a subset of  present   (else lost-ack)
 *   present                  is a subset of  issued-before-cut   (else phantom)
 *
 * and, when the ack carried a digest (`ack:<id>:<digest>`), that the present digest matches
 * (else lost-ack, wrong content). With the `ordered` property (logs, WALs), present must also
 * be closed under issue order: if op B is present, every op issued before B is present —
 * recovery must stop at the first gap, never resurrect a record past a lost one.
 *
 * Fault switches (harness/faultplan.h) leave `fault:<n>:<what>` marks. From a switch whose
 * features include drop_writes until the next switch, the device drops every write while
 * reporting success: the power is off while the host keeps running. An op acknowledged in that
 * window was acknowledged after the power cut, on the word of a device that no longer
 * persisted anything; the application saw no error and had no way to know. Such an ack is not
 * a promise any crash state can be held to: it is kept apart (powercut_ack_entry) and never
 * judged. docs/crash-states.md, "Fault plans", says why.
 */
#ifndef BO_ORACLE_H
#define BO_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/log/log.h"

/* A set of op ids, kept sorted. */
struct bo_opset {
	uint64_t *v;
	size_t n, cap;
};

_must_check_ int bo_opset_add(struct bo_opset *s, uint64_t id);
bool bo_opset_has(const struct bo_opset *s, uint64_t id);
void bo_opset_clear(struct bo_opset *s);
/* "1,2,5" into @buf (truncated with "..." when long); returns @buf. */
const char *bo_opset_str(const struct bo_opset *s, char *buf, size_t len);

#define BO_NO_ENTRY UINT64_MAX

/* One operation as the log's marks describe it. */
struct bo_op {
	uint64_t id;
	uint64_t issue_entry;	     /* entry of its issue: mark, or BO_NO_ENTRY */
	uint64_t ack_entry;	     /* entry of its ack: mark, or BO_NO_ENTRY */
	uint64_t powercut_ack_entry; /* entry of an ack: mark after a drop_writes switch (then
				      * ack_entry is BO_NO_ENTRY), or BO_NO_ENTRY */
	char *digest;		     /* from ack:<id>:<digest>, or NULL */
};

/* A fresh filesystem (a workload's: the marks `reset:L` and `fresh:L`, after `base`). */
struct bo_fresh {
	uint64_t reset; /* entry of its reset: mark: the writes back to the base follow */
	uint64_t fresh; /* entry of its fresh: mark (the device is the base), or BO_NO_ENTRY */
};

/* Every operation of a log, sorted by id. */
struct bo_ops {
	struct bo_op *v;
	size_t n;
	/* A fresh filesystem per workload: the entry of the `base` mark (else BO_NO_ENTRY) and
	 * the fresh filesystems in log order. A state counts the ops issued before `base` and
	 * those of its own filesystem, issued since the fresh: mark before its cut. */
	uint64_t base_entry;
	struct bo_fresh *fresh;
	size_t n_fresh;
	uint64_t n_acks;	  /* ack: marks in the log */
	uint64_t n_powercut_acks; /* of which after a drop_writes switch (never judged) */
};

/* Whether fault mark @name (fault:<n>:<what>) switched to dropping writes. */
bool bo_fault_mark_drops_writes(const char *name);

/*
 * Read the issue:/ack: marks of @log, and its fault: marks for the power-cut windows. A
 * malformed id, a repeated issue or ack of one id, or ids that do not increase in log order is
 * an error naming the entry.
 */
_must_check_ int bo_ops_from_log(const struct bo_log *log, struct bo_ops *ret, struct bo_err *err);
void bo_ops_clear(struct bo_ops *ops);

/* The fresh filesystem of the state after @cut entries (the last whose fresh: mark lies before
 * the cut), or NULL: the base's (or the first workload's, after it), or a log without. */
const struct bo_fresh *bo_ops_fresh_at(const struct bo_ops *ops, uint64_t cut);

/* Whether the state after @cut entries is the device on its way back to the base, which is no
 * state of any workload: past a reset: mark and its first write, its fresh: mark not applied. */
bool bo_ops_resetting(const struct bo_ops *ops, uint64_t cut);

/* The op with id @id, or NULL. */
const struct bo_op *bo_ops_find(const struct bo_ops *ops, uint64_t id);

/* What a checker printed. */
struct bo_checker_report {
	struct bo_opset present;
	char **digests; /* parallel to present.v; NULL entries where none was given */
	/* "absent <id> <why>": ops whose promise the checker found broken, and its reason
	 * (parallel to absent.v, NULL where none was given). Informative: the oracle decides
	 * what is lost from present alone; the reasons name the findings. */
	struct bo_opset absent;
	char **why;
	bool done;	   /* the final line was "done" */
	char problem[256]; /* why the output is not well formed, if it is not */
};

/*
 * Parse checker output: lines "present <id> [digest]" and "absent <id> [why...]", blank lines
 * and "# comments", and a final line "done". Output without "done", with lines after it, with
 * an op both present and absent, or with any other line is not well formed: report->done is
 * false and report->problem says why. Returns -errno only when memory runs out.
 */
_must_check_ int bo_checker_parse(const char *out, size_t len, struct bo_checker_report *ret);
void bo_checker_report_clear(struct bo_checker_report *rep);

/* The checker's reason for op @id's absence ("absent <id> <why>"), or NULL. */
const char *bo_checker_why(const struct bo_checker_report *rep, uint64_t id);

struct bo_verdict {
	struct bo_opset lost;	   /* acknowledged before the cut, not present */
	struct bo_opset wrong;	   /* acknowledged and present with another digest */
	struct bo_opset phantom;   /* present, never issued before the cut */
	struct bo_opset unordered; /* ordered only: missing though a later-issued op is present */
};

/* Judge the crash state after @cut entries. @rep must be well formed (done). */
_must_check_ int bo_oracle_judge(const struct bo_ops *ops, uint64_t cut,
				 const struct bo_checker_report *rep, bool ordered,
				 struct bo_verdict *ret);
void bo_verdict_clear(struct bo_verdict *v);

/*
 * Every op the workload got an acknowledgement for (@acked, from the control channel) must be
 * an ack: mark of @ops: a log that lost one would let a lost write pass unnoticed. Compared as
 * sets; -EBADMSG names the first op missing.
 */
_must_check_ int bo_ops_check_acked(const struct bo_ops *ops, const uint64_t *acked, size_t n,
				    struct bo_err *err);

/* The ids issued / acknowledged before the cut, one per line, for the checker's files. */
_must_check_ int bo_ops_write_before(const struct bo_ops *ops, uint64_t cut, bool acked, int fd);

#endif

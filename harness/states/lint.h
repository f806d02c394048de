/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint.h — the durability lint: what a log's marks say about its barriers, with no replay.
 *
 * An op's `ack:<id>` promises that what it wrote is durable. The device makes writes durable
 * only at a FLUSH (everything completed before it) or a FUA write (itself), so an ack with no
 * FLUSH- or FUA-flagged entry between its `issue:<id>` and itself was given when no barrier
 * could have made anything of the op durable. That is a finding to look at, not a verdict: an
 * op that wrote nothing, or whose writes were made durable by an earlier op's barrier, needs
 * none. A crash state cut right after such an ack is where a lost acknowledgement shows.
 *
 * In a log of several devices a barrier of any device counts (the lint does not know which
 * device an op wrote to). Acks after a power-cut switch (oracle.h) are never judged, and an
 * ack without an issue mark has no window to look at: both are counted, not linted.
 */
#ifndef BO_LINT_H
#define BO_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "harness/log/log.h"
#include "harness/states/oracle.h"

struct bo_lint_finding {
	uint64_t op;
	uint64_t issue_entry, ack_entry;
	uint64_t writes;       /* entries carrying data between the two marks */
	uint64_t next_barrier; /* the first FLUSH or FUA entry after the ack, or BO_NO_ENTRY */
};

struct bo_lint {
	struct bo_lint_finding *v; /* by op id */
	size_t n;
	uint64_t acks;	   /* acks linted: with an issue mark, before any power cut */
	uint64_t unpaired; /* acks without an issue mark */
	uint64_t barriers; /* FLUSH or FUA entries in the log */
};

/* Lint the acks of @log, its op marks read by bo_ops_from_log() (whose errors it returns).
 * Free with bo_lint_clear(). */
_must_check_ int bo_lint_log(const struct bo_log *log, struct bo_lint *ret, struct bo_err *err);
void bo_lint_clear(struct bo_lint *l);

/* One finding as a sentence, without a newline: "op 7: acked at entry 131, issued at entry
 * 120, with no FLUSH or FUA between (3 writes between; the next barrier is entry 150)". */
const char *bo_lint_finding_str(const struct bo_lint_finding *f, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultplan.h — fault plans: which dm-flakey fault goes live at which point of a workload.
 *
 * A scenario's [faults] section holds one `at = TRIGGER FAULT...` line per switch
 * (docs/scenarios.md). The trigger is a mark of the run — `ack:<opid>`, `issue:<opid>` or a
 * user mark `mark:<name>` — never a time: flakey's own up/down clock starts at table load and
 * drifts from the workload's. The fault is a set of flakey features (or `up`, the way back to
 * a pass-through), loaded with the "always down" form of the table when the trigger's mark is
 * in the log, before the workload gets its reply.
 *
 * Each switch leaves a mark `fault:<n>:<what>` in the log (n: the plan entry, from 1; what:
 * the features joined by ','), so that a saved log says where each fault went live. A
 * `drop_writes` switch is a power cut while the host keeps running: see
 * bo_fault_mark_drops_writes() and docs/crash-states.md.
 *
 * Only syntax and the kernel's conflict rules are checked here; whether the running kernel's
 * flakey has a feature is asked at record time (dmtargets/flakey.h).
 */
#ifndef BO_FAULTPLAN_H
#define BO_FAULTPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"

/* The prefix of the marks a fault switch leaves in the log; workloads may not use it. */
#define BO_FAULT_MARK_PREFIX "fault:"

/* At most this many entries in one plan. */
#define BO_FAULT_MAX 64

/* One entry of a fault plan. */
struct bo_fault {
	int line;      /* line of the scenario file it came from */
	char *trigger; /* the log mark that fires it: "ack:40", "issue:7" or a user mark name */
	char *what;    /* the features as the log mark names them: "drop_writes", "up",
			* "corrupt_bio_byte,32,w,1,0" */
	bool up;       /* back to a pass-through; then no feature below is set */
	bool drop_writes, error_writes, error_reads;
	bool corrupt_bio_byte; /* then the four fields below apply */
	uint32_t corrupt_nth_byte;
	char corrupt_direction; /* 'r' or 'w' */
	uint8_t corrupt_value;
	uint32_t corrupt_flags;
	uint32_t random_read_corrupt; /* probability in units of 1e-9; 0 off */
	uint32_t random_write_corrupt;
};

/*
 * The log mark a trigger word names — `ack:<opid>`, `issue:<opid>`, `mark:<name>` — into
 * *@ret (malloc'd; canonical: "ack:007" is "ack:7"). -EINVAL with why in @why; -ENOMEM.
 */
_must_check_ int bo_trigger_parse(const char *w, char **ret, char *why, size_t whylen);

/*
 * Parse the value of one `at` line, "TRIGGER FAULT [FAULT...]", into *@ret (cleared first).
 * On failure returns -EINVAL and says why in @why (@whylen bytes), without quoting the value:
 * the caller names the file, line and value.
 */
_must_check_ int bo_fault_parse(const char *value, struct bo_fault *ret, char *why, size_t whylen);

/* Release what bo_fault_parse() allocated; a cleared or NULL entry is fine. */
void bo_fault_clear(struct bo_fault *f);

/* The log mark of the @n-th switch (from 1) of @f into *@ret, malloc'd; -ENOMEM. */
_must_check_ int bo_fault_mark_name(const struct bo_fault *f, unsigned n, char **ret);

#endif

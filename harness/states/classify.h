/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * classify.h — the outcome classes of a crash state and the order in which they are decided.
 */
#ifndef BO_CLASSIFY_H
#define BO_CLASSIFY_H

#include <stdbool.h>

#include "harness/dev/fstool.h"
#include "harness/states/oracle.h"

enum bo_class {
	BO_CLASS_CONSISTENT,
	BO_CLASS_UNMOUNTABLE,
	BO_CLASS_FSCK_DIRTY,
	/* Recovered by fsck (recovery = fsck): the repair failed, or left errors that the
	 * read-only fsck after the checker still finds. */
	BO_CLASS_REPAIR_FAILED,
	BO_CLASS_LOST_ACK,
	BO_CLASS_PHANTOM,
	BO_CLASS_APP_RECOVERY_FAILED,
	/* Consistent after its recovery, but a crash during that recovery leaves a state whose
	 * own recovery fails (--recovery-crashes): given by the exploration, never by
	 * bo_classify(). */
	BO_CLASS_RECOVERY_UNSAFE,
	BO_CLASS_CHECKER_ERROR,
	BO_CLASS_HARNESS_ERROR,
	BO_CLASS_COUNT,
};

/* "consistent", "lost-ack", ... */
const char *bo_class_name(enum bo_class c);

/* Parse a class name; -EINVAL if unknown. */
_must_check_ int bo_class_from_name(const char *name, enum bo_class *ret);

enum bo_checker_end {
	BO_CHECKER_NOT_CONFIGURED, /* no checker configured */
	BO_CHECKER_EXITED,	   /* exited with a status */
	BO_CHECKER_SIGNALED,	   /* killed by a signal: crashed */
	BO_CHECKER_TIMEOUT,	   /* killed by blackout at its timeout */
	BO_CHECKER_NOT_RUN,	   /* could not be started */
};

/* Everything observed about one crash state. */
struct bo_observation {
	bool harness_failed;	       /* blackout itself could not build or evaluate the state */
	bool mounted;		       /* mount (with the filesystem's recovery) succeeded */
	bool repaired;		       /* recovered by fsck: the repair ran before the mount */
	enum bo_repair_verdict repair; /* its verdict, when repaired */
	enum bo_fsck_verdict fsck;     /* the read-only fsck after the checker */
	enum bo_checker_end checker;
	int checker_status;			/* exit status when checker == EXITED */
	const struct bo_checker_report *report; /* parsed output, when a checker ran */
	const struct bo_verdict *verdict;	/* oracle result, when the report was done */
};

/*
 * The class of a crash state. The first failure in this order names it: harness-error,
 * repair-failed (recovered by fsck: its repair failed, or the read-only fsck after it is
 * dirty; a repair that could not run is a harness-error), unmountable, fsck-dirty (an fsck
 * that could not run is a harness-error), checker-error
 * (crashed, timed out, or output without the final `done`), app-recovery-failed (the checker
 * finished its report but exited non-zero: the application's recovery failed, whatever it
 * could still read), lost-ack (missing or wrong content), phantom (including ordered
 * violations), else consistent.
 */
enum bo_class bo_classify(const struct bo_observation *obs);

#endif

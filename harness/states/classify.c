// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/classify.h"

#include <errno.h>
#include <string.h>

static const char *const names[BO_CLASS_COUNT] = {
	[BO_CLASS_CONSISTENT] = "consistent",
	[BO_CLASS_UNMOUNTABLE] = "unmountable",
	[BO_CLASS_FSCK_DIRTY] = "fsck-dirty",
	[BO_CLASS_REPAIR_FAILED] = "repair-failed",
	[BO_CLASS_LOST_ACK] = "lost-ack",
	[BO_CLASS_PHANTOM] = "phantom",
	[BO_CLASS_APP_RECOVERY_FAILED] = "app-recovery-failed",
	[BO_CLASS_RECOVERY_UNSAFE] = "recovery-unsafe",
	[BO_CLASS_CHECKER_ERROR] = "checker-error",
	[BO_CLASS_HARNESS_ERROR] = "harness-error",
};

const char *bo_class_name(enum bo_class c)
{
	return c < BO_CLASS_COUNT ? names[c] : "invalid";
}

int bo_class_from_name(const char *name, enum bo_class *ret)
{
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		if (!strcmp(name, names[c])) {
			*ret = (enum bo_class) c;
			return 0;
		}
	return -EINVAL;
}

enum bo_class bo_classify(const struct bo_observation *o)
{
	if (o->harness_failed)
		return BO_CLASS_HARNESS_ERROR;
	/* What fsck fixed before the mount is this filesystem's recovery, not a finding; that
	 * it could not, or that the filesystem is dirty again afterwards, is. */
	if (o->repaired && o->repair == BO_REPAIR_TOOL_ERROR)
		return BO_CLASS_HARNESS_ERROR;
	if (o->repaired && (o->repair == BO_REPAIR_FAILED || o->fsck == BO_FSCK_DIRTY))
		return BO_CLASS_REPAIR_FAILED;
	if (!o->mounted)
		return BO_CLASS_UNMOUNTABLE;
	if (o->fsck == BO_FSCK_TOOL_ERROR)
		return BO_CLASS_HARNESS_ERROR;
	if (o->fsck == BO_FSCK_DIRTY)
		return BO_CLASS_FSCK_DIRTY;
	if (o->checker == BO_CHECKER_NOT_CONFIGURED)
		return BO_CLASS_CONSISTENT;
	/* "Found nothing" and "did not look" must differ: only a report ending in `done` from
	 * a checker that exited on its own is evidence. */
	if (o->checker != BO_CHECKER_EXITED || !o->report || !o->report->done)
		return BO_CLASS_CHECKER_ERROR;
	if (!o->verdict)
		return BO_CLASS_HARNESS_ERROR;
	/* A daemon that cannot recover at all is worse than one that lost what it promised:
	 * its report (what it could still read, and so what is lost) stays in the record. */
	if (o->checker_status != 0)
		return BO_CLASS_APP_RECOVERY_FAILED;
	if (o->verdict->lost.n || o->verdict->wrong.n)
		return BO_CLASS_LOST_ACK;
	if (o->verdict->phantom.n || o->verdict->unordered.n)
		return BO_CLASS_PHANTOM;
	return BO_CLASS_CONSISTENT;
}

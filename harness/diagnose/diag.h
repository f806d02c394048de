/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diag.h — diagnostics of the machine a run happened on, before and after it
 * (diagnostics/pre|post in the results): kernel, dm target versions, filesystem tool
 * versions, mounts, memory, and the blackout- devices present.
 */
#ifndef BO_DIAG_H
#define BO_DIAG_H

#include "harness/results/results.h"

/* Write diagnostics/<@phase>/ ("pre" or "post"). Best effort: a missing tool is noted. */
_must_check_ int bo_diag_capture(struct bo_results *res, const char *phase, struct bo_err *err);

/*
 * Leftovers of run @runid (dev/leftovers.h): dm devices named blackout-<runid>-*, loop devices
 * backed by files in @workdir, mounts under @workdir and on its mount area. Returns how many
 * there are (0: clean) and lists them in @buf.
 */
_must_check_ int bo_diag_leftovers(const char *runid, const char *workdir, char *buf, size_t len,
				   struct bo_err *err);

#endif

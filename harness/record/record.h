/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h — record a workload's writes on the real kernel.
 *
 *   loop (image, tmpfs) <- dm log-writes (log on a loop over a tmpfs file) <- dm flakey <- fs
 *
 * flakey sits on top of log-writes: dm-log-writes logs a write when it completes and does not
 * look at its status (normal_end_io()), so with log-writes on top a write that flakey dropped
 * or failed would still be logged and replay would resurrect it. Below flakey the log holds
 * exactly what passed the fault layer. Marks are messages to the log-writes device: `mkfs`
 * after mkfs, then whatever the workload asks for through the control channel.
 */
#ifndef BO_RECORD_H
#define BO_RECORD_H

#include <stdint.h>

#include "harness/base/proc.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"

struct bo_record_opts {
	const struct bo_scenario *sc;
	const char *runid;
	const char *workdir; /* tmpfs directory for the image, the log and the mount point */
	/* The work directory is this machine's own memory (--in-place, docs/vm.md): the room the
	 * image and the log are made with is judged first (bo_space_check()). */
	bool in_place;
	const char *libexec; /* directory holding blackout's workload programs */
	/* The account the workload runs as (it gets the file system's root directory and the
	 * control socket), or NULL for root; the root directory it runs in, or NULL. */
	const struct bo_proc_user *user;
	const char *root;
};

/*
 * Run the scenario's workload over dm-flakey and dm-log-writes. On success the log is at
 * "<workdir>/log.img" and every kernel object created is gone again. Fails (-errno, @err)
 * when anything could make the log incomplete or wrong: the log device filled up
 * (logging_disabled), the workload broke the control protocol or did not finish.
 */
_must_check_ int bo_record(const struct bo_record_opts *o, struct bo_results *res,
			   struct bo_err *err);

#endif

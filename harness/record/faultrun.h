/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultrun.h — carry out a scenario's fault plan (faultplan.h) during a recording.
 *
 * The recorder calls bo_faultrun_on_mark() for every mark the control channel put in the log,
 * from the control server's thread, before the workload gets its reply. When the mark is a
 * plan entry's trigger, the flakey device is switched — the new table loaded, then suspended
 * with noflush and without lockfs (a power cut gives the filesystem no chance to write
 * back), then resumed — and a mark `fault:<n>:<what>` is put in the log, where the switch
 * took effect. So the workload's next I/O already sees the fault, and the log says where it
 * began. It also counts what the workload did after each switch: its reaction.
 */
#ifndef BO_FAULTRUN_H
#define BO_FAULTRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "dmtargets/flakey.h"
#include "harness/scenario/scenario.h"
#include "harness/base/util.h"

struct json_object;
struct bo_faultrun;

/* How the run puts a mark in the log and learns its entry (the recorder's insert). */
typedef int (*bo_faultrun_mark_fn)(void *ctx, const char *name, uint64_t *ret_entry,
				   struct bo_err *err);

struct bo_faultrun_config {
	const struct bo_scenario *sc;
	const struct bo_flakey_caps *caps; /* of the running kernel (bo_flakey_probe()) */
	const char *flakey;		   /* the flakey dm device to switch */
	const char *below;		   /* the device flakey sits on */
	uint64_t sectors;		   /* its length */
	bo_faultrun_mark_fn mark;
	void *ctx;
};

/*
 * Build the table of every entry of the plan for the running kernel. A feature this kernel's
 * flakey does not have is refused here, before anything runs, as "FILE:LINE: [faults] at:
 * ...". *@ret is written only on success; a scenario without faults gives a run that does
 * nothing.
 */
_must_check_ int bo_faultrun_new(const struct bo_faultrun_config *cfg, struct bo_faultrun **ret,
				 struct bo_err *err);
void bo_faultrun_free(struct bo_faultrun *fr);

/*
 * The mark @name is in the log at @entry: count it into the reaction to the current fault,
 * and if it triggers a plan entry, switch. On a switch, *@ret_record is the stream record
 * (event "fault") to emit; otherwise NULL. -errno with @err when a switch failed.
 */
_must_check_ int bo_faultrun_on_mark(struct bo_faultrun *fr, const char *name, uint64_t entry,
				     struct json_object **ret_record, struct bo_err *err);

/* Whether any switch happened. */
bool bo_faultrun_fired(const struct bo_faultrun *fr);

/*
 * The stream record (event "fault-outcome") of the whole plan: for each entry whether and
 * where it fired and the ops issued and acknowledged after it (until the next switch), with
 * the workload's ending @how and exit @status.
 */
struct json_object *bo_faultrun_outcome(const struct bo_faultrun *fr, const char *how, int status);

/* -ENOENT naming the file, line and trigger of the first entry that never fired. */
_must_check_ int bo_faultrun_check_fired(const struct bo_faultrun *fr, struct bo_err *err);

#endif

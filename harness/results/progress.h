/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h — states done / total, rate and ETA of `blackout run` and `blackout check`.
 *
 * The states are checked in the VM; the host only waits. So the guest writes a machine line
 * "@@blackout-progress DONE TOTAL" to its stderr at most twice a second and once at the end,
 * and the host reads the stderr of each of its VMs through a pipe (the relay): progress lines
 * are summed over the VMs and drawn, everything else is passed through unchanged.
 *
 * On a terminal the relay redraws one line with \r; otherwise it prints a plain line every
 * 10 seconds, or when another tenth of the states is done, and at the end.
 */
#ifndef BO_PROGRESS_H
#define BO_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

#define BO_PROGRESS_TAG "@@blackout-progress "

/* Guest side: @total states (and aliases) will be visited; start counting. */
void bo_progress_begin(uint64_t total);

/* Guest side: one more visited; writes the machine line when due. */
void bo_progress_step(void);

/* A share claimed as it went (check --jobs) is complete: its total is what was done, so
 * that the VMs' totals add up to the states of the run. */
void bo_progress_share_done(void);

/* Guest side: write the final count. */
void bo_progress_end(void);

/* "checked 12/40 states (30%), 2.5 states/s, ETA 11s" into @buf (@elapsed in seconds). */
void bo_progress_format(char *buf, size_t len, uint64_t done, uint64_t total, double elapsed,
			unsigned vms);

struct bo_progress_relay;

/*
 * Host side: one pipe per VM. Returns the write ends in @ret_fds (@n of them), to be given to
 * the VMs as their stderr; what they write goes to @out_fd (2: stderr), drawn for a terminal
 * when @tty. A thread reads until stop.
 */
_must_check_ int bo_progress_relay_start(unsigned n, int out_fd, bool tty, int *ret_fds,
					 struct bo_progress_relay **ret, struct bo_err *err);

/* Close the write ends (the VMs are done), drain the pipes and end the line. NULL is fine. */
void bo_progress_relay_stop(struct bo_progress_relay *r);

#endif

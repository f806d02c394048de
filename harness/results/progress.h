/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h — states done / total, rate and ETA of `blackout run` and `blackout check`.
 *
 * The states are checked in the VM; the host only waits. So the guest writes a machine line
 * "@@blackout-progress DONE TOTAL" to its stderr at most twice a second and once at the end,
 * and the host reads the stderr of each of its VMs through a pipe (the relay): progress lines
 * are summed over the VMs and drawn, everything else is passed through unchanged.
 *
 * On a terminal the relay redraws one line with \r; otherwise (or with TERM=dumb) it prints
 * a plain line every 10 seconds, or when another tenth of the states is done, and at the end;
 * with --no-progress or -q, none.
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

enum bo_progress_draw {
	BO_PROGRESS_TERMINAL, /* one line redrawn with \r and the erase-line sequence */
	BO_PROGRESS_LINES,    /* plain lines now and then: no cursor control */
	BO_PROGRESS_NONE,     /* no progress lines at all */
};

/* No progress lines from now on (--no-progress, -q). */
void bo_progress_off(void);

/* How progress is drawn on @fd: none when turned off, terminal lines on a terminal whose TERM
 * is not "dumb", else plain lines. */
enum bo_progress_draw bo_progress_draw_for(int fd);

/*
 * Host side: one pipe per VM. Returns the write ends in @ret_fds (@n of them), to be given to
 * the VMs as their stderr; what they write goes to @out_fd (2: stderr), its progress lines
 * drawn as @how says. A thread reads until stop.
 */
_must_check_ int bo_progress_relay_start(unsigned n, int out_fd, enum bo_progress_draw how,
					 int *ret_fds, struct bo_progress_relay **ret,
					 struct bo_err *err);

/* Close the write ends (the VMs are done), drain the pipes and end the line. NULL is fine. */
void bo_progress_relay_stop(struct bo_progress_relay *r);

#endif

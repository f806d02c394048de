// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * makeprobe.c — stages 3 and 4 of stages.h as one step, for the check loop of explore.c and
 * the trials of witness.c: a fresh snapshot of the state the base holds (snapshot.c), the
 * probe (probe.c; with recovery crashes through recovery.c's logging device), and the
 * snapshot's status, with the times the state took. It calls down into those stages, which
 * call nothing of it.
 */
#include "harness/explore/stages.h"

int make_and_probe(struct explore *x, struct state_run *s, bool big, bool log_recovery,
		   struct bo_err *fatal)
{
	double t0 = bo_now(), t = 0;
	bool made = false, probed = false;
	int k = 0, r;

	if (probe_begin(x, s) >= 0)
		k = snapshot_make(x, s, big, &made, fatal);
	if (k > 0) {
		/* With recovery crashes, on a device that logs what the recovery writes. */
		const char *dev = log_recovery ? recovery_begin(x, s) : x->snap_dev;

		if (dev && probe(x, s, dev) == 0) {
			t = bo_now();
			probed = true;
		}
		k = log_recovery ? recovery_end(x, s, fatal) : 0;
	}
	r = k < 0 ? k : 0;
	if (made) {
		int d = snapshot_done(x, s, probed, fatal);

		r = d < 0 ? d : r;
	}
	probe_end(x, s);
	s->seconds = bo_now() - t0 - s->t_wait;
	if (t > 0)
		s->t_drop = bo_now() - t;
	/* The floor of scripts/bench-scale (bench.c): what no check can avoid. */
	if (x->o->bench == BO_BENCH_FLOOR)
		s->seconds = s->t_mount + s->t_checker + s->t_umount + s->t_fsck;
	return r;
}

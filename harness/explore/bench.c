// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench.c — the hidden modes of scripts/bench-scale, which measure the check loop against what
 * it replaces and against what it cannot avoid; a check never runs them. BO_BENCH_NAIVE is the
 * baseline: each state rebuilt from nothing, as fstests' replay-log does at every cut.
 * BO_BENCH_FLOOR (explore.c) counts only the probe's mount, checker, umount and fsck.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/explore/stages.h"

/* The state after @s->applied entries on a fresh zeroed image replayed from entry 0, on a loop
 * device; then the same probe as a check. */
int bench_naive_state(struct explore *x, struct state_run *s, struct bo_err *fatal)
{
	char img[PATH_MAX];
	struct bo_loop_dev loop;
	struct bo_replay *rp = NULL;
	struct bo_err err = {0};
	double t0 = bo_now();
	int fd, r;

	if (snprintf(img, sizeof(img), "%s/naive.img", x->o->workdir) >= (int) sizeof(img))
		return bo_err_set(fatal, ENAMETOOLONG, "work directory path too long");
	fd = open(img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t) x->o->image_size) < 0) {
		r = bo_err_set(fatal, errno, "creating '%s': %s", img, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	close(fd);
	r = bo_replay_new(x->log, img, 0, 0, &rp, &err);
	if (r >= 0)
		r = bo_replay_to(rp, s->applied, &err);
	if (r >= 0)
		r = bo_replay_sync(rp, &err);
	bo_replay_free(rp);
	if (r >= 0)
		r = bo_loop_attach(img, x->o->workdir, 0, bo_log_sectorsize(x->log), &loop, &err);
	if (r < 0) {
		unlink(img);
		return bo_err_set(fatal, err.errnum, "%s", bo_err_str(&err));
	}
	s->t_replay = bo_now() - t0;
	(void) probe(x, s, loop.path);
	r = bo_loop_detach(loop.path, fatal);
	unlink(img);
	s->seconds = bo_now() - t0;
	return r;
}

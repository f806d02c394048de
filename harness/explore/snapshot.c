// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * snapshot.c — stage 3 of the check loop (stages.h): make the crash state. One snapshot device
 * serves every state: each gets a fresh, empty, non-persistent dm-snapshot of the base, on
 * which a generated state's epoch writes (or a witness trial's) are applied; so the check's own
 * writes (journal recovery, the application's recovery, fsck) never reach the base. After the
 * probe, the snapshot's status says whether its CoW store held everything the state wrote.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dmtargets/linear.h"
#include "dmtargets/snapshot.h"
#include "harness/base/macro.h"
#include "harness/base/safety.h"
#include "harness/explore/stages.h"

/* How many CoW stores an exploration of @o makes, and store @i's size as made. */
static unsigned cow_count(const struct bo_explore_opts *o)
{
	return o->image_size > COW_SMALL ? COW_N : COW_BIG;
}

static uint64_t cow_size(const struct bo_explore_opts *o, unsigned i)
{
	return i == COW_BIG || o->image_size <= COW_SMALL ? o->image_size : COW_SMALL;
}

uint64_t snapshot_scratch(const struct bo_explore_opts *o)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cow_count(o); i++)
		n += cow_size(o, i);
	return n;
}

int snapshot_setup(struct explore *x, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	int r = 0;

	x->n_cow = cow_count(o);
	x->cow_small = cow_size(o, COW_A);
	for (unsigned i = 0; i < x->n_cow; i++) {
		uint64_t size = cow_size(o, i);

		snprintf(x->cow[i], sizeof(x->cow[i]), "%s/cow%u.img", o->workdir, i);
		x->cow_fd[i] = open(x->cow[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (x->cow_fd[i] < 0 || ftruncate(x->cow_fd[i], (off_t) size) < 0)
			return bo_err_set(err, errno, "creating '%s': %s", x->cow[i],
					  strerror(errno));
	}
	for (unsigned i = 0; i < x->n_cow && r >= 0; i++) {
		r = bo_loop_attach(x->cow[i], o->workdir, 0,
				   x->host_base ? bo_log_sectorsize(x->log) : 0, &x->cow_loop[i],
				   err);
		if (r >= 0)
			r = explore_keep(x, "loop", x->cow_loop[i].path, err);
		if (r >= 0)
			r = bo_snap_table(x->sectors, x->origin, x->cow_loop[i].path, SNAP_CHUNK,
					  &x->snap_table[i], err);
	}
	if (r >= 0)
		r = bo_dm_name(o->runid, "state", x->snap, x->snap_uuid, err);
	if (r < 0)
		return r;
	return bo_dm_device_path(x->snap, x->snap_dev, sizeof(x->snap_dev)) < 0
		       ? bo_err_set(err, ENAMETOOLONG, "device path of '%s'", x->snap)
		       : 0;
}

void snapshot_teardown(struct explore *x)
{
	x->snap_live = false;
	for (unsigned i = 0; i < x->n_cow; i++) {
		free(x->snap_table[i]);
		x->snap_table[i] = NULL;
		if (x->cow_fd[i] >= 0)
			close(x->cow_fd[i]);
		x->cow_fd[i] = -1;
		unlink(x->cow[i]);
	}
}

/* The devices of a layout on the snapshot device, made once with it: the swaps underneath
 * leave them be. */
static int parts_make(struct explore *x, struct bo_err *err)
{
	const struct bo_layout *l = x->o->layout;
	int r = 0;

	for (unsigned i = 0; r >= 0 && i < x->n_parts; i++) {
		char role[32];
		_cleanup_free_ char *table = NULL;

		snprintf(role, sizeof(role), "state-%s", l->v[i].name);
		r = bo_dm_name(x->o->runid, role, x->part[i], x->part_uuid[i], err);
		if (r >= 0 &&
		    bo_dm_device_path(x->part[i], x->part_dev[i], sizeof(x->part_dev[i])) < 0)
			r = bo_err_set(err, ENAMETOOLONG, "device path of '%s'", x->part[i]);
		if (r >= 0)
			r = bo_linear_table(l->v[i].sectors, x->snap_dev, l->v[i].start, &table,
					    err);
		if (r >= 0)
			r = bo_dm_create(x->part[i], x->part_uuid[i], table, err);
		if (r >= 0)
			r = explore_keep(x, "dm", x->part[i], err);
		if (r >= 0)
			x->parts_kept++;
	}
	for (unsigned i = 0; r >= 0 && i < x->n_parts; i++)
		bo_fs_devs_pick(x->part_dev, x->n_parts, l->v[i].journal, l->v[i].spans,
				&x->part_devs[i]);
	return r;
}

/* Drop the page cache of block device @dev: nothing of an earlier state is read from it. */
static int drop_cache(const char *dev, struct bo_err *err)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0 || ioctl(fd, BLKFLSBUF, 0) < 0)
		r = bo_err_set(err, errno, "dropping the page cache of '%s': %s", dev,
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * Give the snapshot device a fresh, empty snapshot of the base as it is now. The first state
 * creates the device; every later one swaps a new table in (suspend, load, resume): 3.3 ms
 * under TCG where a create and a remove cost 37, as the device, its disk and its node stay.
 * The new table takes another CoW loop than the live one: a snapshot loaded on the CoW of the
 * live one would be a handover in dm-snapshot, and inherit the old state's exceptions. @big
 * asks for the CoW store as big as the device. The old table's snapshot goes at the resume.
 * Last, the device's page cache is dropped, so that nothing of the previous state can be read
 * from it. On failure the device is removed, so the next state starts from a new one; when
 * even that fails, x->snap_live stays true and the exploration cannot go on.
 */
static int fresh_snapshot(struct explore *x, bool big, struct bo_err *err)
{
	unsigned next = big ? COW_BIG : x->snap_live && x->snap_cur == COW_A ? COW_B : COW_A;
	struct bo_err e2 = {0};
	int r;

	if (!x->snap_live) {
		r = bo_dm_create(x->snap, x->snap_uuid, x->snap_table[next], err);
		if (r >= 0)
			r = explore_keep(x, "dm", x->snap, err);
		if (r < 0)
			return r;
		x->snap_live = true;
		r = parts_make(x, err);
	} else {
		r = bo_dm_suspend(x->snap, BO_DM_SUSPEND_SKIP_LOCKFS, err);
		if (r >= 0)
			r = bo_dm_load(x->snap, x->snap_table[next], err);
		if (r >= 0)
			r = bo_dm_resume(x->snap, err);
		if (r < 0)
			bo_err_prefix(err, "swapping in a fresh snapshot");
	}
	if (r >= 0) {
		x->snap_cur = next;
		r = drop_cache(x->snap_dev, err);
		for (unsigned i = 0; r >= 0 && i < x->n_parts; i++)
			r = drop_cache(x->part_dev[i], err);
	}
	/* On failure the devices go, the ones on the snapshot first, then the snapshot. */
	if (r < 0 && x->snap_live) {
		while (x->parts_kept > 0 && bo_teardown_undo_top(x->td, &e2) == 0)
			x->parts_kept--;
		if (x->parts_kept == 0 && bo_teardown_undo_top(x->td, &e2) == 0)
			x->snap_live = false;
	}
	return r < 0 ? r : 0;
}

/*
 * Make the snapshot hold the state @b describes: the base holds what comes before b->from;
 * apply the entries up to b->to in log order, but for the skipped ones, and only the first
 * bytes of a torn one. Writes go through the snapshot, so the base stays where it is.
 */
static int build_state(struct explore *x, const struct state_build *b, struct bo_err *err)
{
	struct bo_replay *r = NULL;
	size_t d = 0;
	int k;

	k = bo_replay_new(x->log, x->snap_dev, x->n_parts ? BO_REPLAY_HELD : 0, 0, &r, err);
	for (uint64_t n = b->from; k >= 0 && n < b->to; n++) {
		while (d < b->n_skip && b->skip[d] < n)
			d++;
		if (d < b->n_skip && b->skip[d] == n)
			continue;
		if (n == b->torn)
			k = bo_replay_apply_head(r, n, b->torn_bytes, err);
		else
			k = bo_replay_apply(r, n, 0, UINT64_MAX, err);
	}
	if (k >= 0)
		k = bo_replay_sync(r, err);
	bo_replay_free(r);
	return k < 0 ? bo_err_prefix(err, "building state on '%s'", x->snap_dev) : 0;
}

/* A generated state @cs: its epoch up to its cut, but for its dropped and torn entries. */
static int build_crash_state(struct explore *x, const struct bo_crash_state *cs, struct bo_err *err)
{
	struct state_build b = {
		.from = cs->epoch_start,
		.to = cs->cut,
		.skip = cs->dropped,
		.n_skip = cs->n_dropped,
		.torn = cs->torn ? cs->torn_entry : UINT64_MAX,
		.torn_bytes = cs->torn ? bo_crash_torn_bytes(x->log, cs) : 0,
	};

	return build_state(x, &b, err);
}

/*
 * Wait for the base the state is built on (base_to()); the time waited is the replay's, not
 * the state's. A failed replay ends the exploration: the base holds no known state.
 */
static int wait_base(struct explore *x, struct state_run *s, struct bo_err *fatal)
{
	double t = bo_now();
	int r = base_wait(x, fatal);

	s->t_wait += bo_now() - t;
	s->t_replay += bo_now() - t;
	if (r < 0) {
		bo_err_prefix(fatal, "state %s", s->id);
		state_run_fail(s, fatal);
	}
	return r;
}

int snapshot_make(struct explore *x, struct state_run *s, bool big, bool *made,
		  struct bo_err *fatal)
{
	struct bo_err err = {0};
	double t0 = bo_now(), w = s->t_wait;
	int r;

	*made = false;
	/* The crash state before any recovery touched it. */
	if (x->o->hash_image) {
		r = wait_base(x, s, fatal);
		if (r < 0)
			return r;
		if (bo_sha256_file(x->base, s->sha256, &err) < 0)
			state_run_fail(s, &err);
	}
	if (fresh_snapshot(x, big, &err) < 0) {
		state_run_fail(s, &err);
		if (x->snap_live)
			return bo_err_set(fatal, err.errnum,
					  "state %s: %s; the snapshot device could not be removed "
					  "either",
					  s->id, bo_err_str(&err));
		return 0;
	}
	*made = true;
	/* The swap read nothing of the base; what the state's writes and the mount read must
	 * be there. */
	r = wait_base(x, s, fatal);
	if (r < 0)
		return r;
	if (bo_test_stall("snapshot", &err) < 0 ||
	    (s->build && build_state(x, s->build, &err) < 0) ||
	    (!s->build && s->cs && build_crash_state(x, s->cs, &err) < 0)) {
		state_run_fail(s, &err);
		return 0;
	}
	s->t_snap = bo_now() - t0 - (s->t_wait - w);
	return 1;
}

int snapshot_done(struct explore *x, struct state_run *s, bool probed, struct bo_err *fatal)
{
	struct bo_snap_status st;
	struct bo_err err = {0};
	uint64_t used = UINT64_MAX; /* bytes of the CoW store the state used */

	/* A CoW store that overflowed makes everything read from the snapshot suspect. */
	if (!probed) {
		/* Nothing read the snapshot: what it holds is not known. */
	} else if (bo_snap_status(x->snap, &st, &err) < 0) {
		state_run_fail(s, &err);
	} else if (bo_snap_status_check(x->snap, &st, &err) < 0) {
		state_run_fail(s, &err);
		s->cow_full = st.state == BO_SNAP_INVALID || st.state == BO_SNAP_OVERFLOW;
	} else if (st.state == BO_SNAP_VALID) {
		used = st.used_sectors * 512;
	}
	/*
	 * The snapshot stays until the next state swaps it out, unused: nothing reads its CoW
	 * store any more. A fresh snapshot never reads what an earlier one left in its store (it
	 * copies a chunk in before anything reads it there), so what a state wrote is only memory:
	 * up to COW_SMALL it stays for the next state on this store to write over, more than that
	 * (or not known) is given back now.
	 */
	if (used > COW_SMALL &&
	    fallocate(x->cow_fd[x->snap_cur], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t) (x->sectors * 512)) < 0) {
		int r = bo_err_set(fatal, errno, "emptying the CoW store '%s': %s",
				   x->cow[x->snap_cur], strerror(errno));

		state_run_fail(s, fatal);
		return r;
	}
	return 0;
}

/*
 * After a state filled a small CoW store: make COW_A and COW_B four times as big (up to the
 * device), file and loop, while the live table is on COW_BIG. Their tables stay as they are:
 * a snapshot takes the size of its CoW device when its table is loaded. A store that cannot
 * grow is no error: the states that fill it are checked again, as before.
 */
void snapshot_grow(struct explore *x)
{
	uint64_t size = x->cow_small * 4 < x->o->image_size ? x->cow_small * 4 : x->o->image_size;

	if (x->cow_small >= x->o->image_size)
		return;
	for (unsigned i = COW_A; i <= COW_B; i++) {
		int fd;

		if (ftruncate(x->cow_fd[i], (off_t) size) < 0)
			return;
		fd = open(x->cow_loop[i].path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, LOOP_SET_CAPACITY, 0) < 0) {
			bo_debug(BO_DBG_RUN, "CoW store '%s' not grown: %s", x->cow_loop[i].path,
				 strerror(errno));
			if (fd >= 0)
				close(fd);
			return;
		}
		close(fd);
	}
	bo_debug(BO_DBG_RUN, "CoW stores grown from %" PRIu64 " to %" PRIu64 " MiB",
		 x->cow_small >> 20, size >> 20);
	x->cow_small = size;
}

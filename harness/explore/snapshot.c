// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explore_state.c — check one crash state: the snapshot it is mounted from, mount, checker,
 * umount and fsck, and its classification (its record and by-products: explore_record.c);
 * and the devices every state of an exploration shares (explore_setup()).
 */
#include "harness/explore/stages.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dmtargets/dm.h"
#include "dmtargets/linear.h"
#include "dmtargets/snapshot.h"
#include "harness/states/classify.h"
#include "harness/base/macro.h"
#include "harness/dev/fstool.h"
#include "harness/dev/kmsg.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"
#include "harness/states/oracle.h"
#include "harness/results/progress.h"
#include "harness/base/proc.h"
#include "harness/replay/replay.h"
#include "harness/base/safety.h"
#include "harness/dev/teardown.h"
#include "harness/base/sha256.h"

static void state_run_clear(struct state_run *s)
{
	bo_checker_report_clear(&s->report);
	bo_verdict_clear(&s->verdict);
	free(s->fsck_out);
	free(s->checker_out);
	free(s->checker_err);
	free(s->dmesg);
}

static void harness_fail(struct state_run *s, const struct bo_err *err)
{
	s->obs.harness_failed = true;
	if (!s->harness_msg[0])
		snprintf(s->harness_msg, sizeof(s->harness_msg), "%s", bo_err_str(err));
}

static int write_op_files(struct explore *x, uint64_t applied, struct bo_err *err)
{
	const char *paths[2] = {x->issued, x->acked};

	for (int i = 0; i < 2; i++) {
		_cleanup_close_ int fd = open(paths[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		int r;

		if (fd < 0)
			return bo_err_set(err, errno, "writing '%s': %s", paths[i],
					  strerror(errno));
		r = bo_ops_write_before(&x->ops, applied, i == 1, fd);
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", paths[i], strerror(-r));
	}
	return 0;
}

static void run_checker(struct explore *x, struct state_run *s)
{
	const struct bo_explore_opts *o = x->o;
	char *argv[] = {"/bin/sh", "-c", (char *) o->checker, NULL};
	char e_mnt[PATH_MAX + 16], e_state[BO_CRASH_ID_MAX + 16], e_iss[PATH_MAX + 20],
		e_ack[PATH_MAX + 20];
	char e_cut[48];
	char *env[32];
	size_t n = 0;
	struct bo_proc_opts po = {
		.argv = argv,
		.env_add = env,
		.cwd = x->mnt,
		.timeout_ms = o->checker_timeout * 1000u,
	};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	snprintf(e_mnt, sizeof(e_mnt), "BLACKOUT_MNT=%s", x->mnt);
	snprintf(e_state, sizeof(e_state), "BLACKOUT_STATE=%s", s->id);
	snprintf(e_iss, sizeof(e_iss), "BLACKOUT_ISSUED=%s", x->issued);
	snprintf(e_ack, sizeof(e_ack), "BLACKOUT_ACKED=%s", x->acked);
	snprintf(e_cut, sizeof(e_cut), "BLACKOUT_CUT=%" PRIu64, s->applied);
	env[n++] = e_mnt;
	env[n++] = e_state;
	env[n++] = e_iss;
	env[n++] = e_ack;
	env[n++] = e_cut;
	for (size_t i = 0; o->checker_env && o->checker_env[i] && n + 1 < BO_ARRAY_SIZE(env); i++)
		env[n++] = o->checker_env[i];
	env[n] = NULL;

	if (bo_proc_run(&po, &r, &err) < 0) {
		s->obs.checker = BO_CHECKER_NOT_RUN;
		snprintf(s->checker_how, sizeof(s->checker_how), "%s", bo_err_str(&err));
		return;
	}
	bo_proc_describe(&r, &po, s->checker_how, sizeof(s->checker_how));
	s->obs.checker = r.end == BO_PROC_EXITED     ? BO_CHECKER_EXITED
			 : r.end == BO_PROC_SIGNALED ? BO_CHECKER_SIGNALED
						     : BO_CHECKER_TIMEOUT;
	s->obs.checker_status = r.status;
	if (bo_checker_parse(r.out, r.out_len, &s->report) < 0) {
		bo_err_set(&err, ENOMEM, "parsing checker output");
		harness_fail(s, &err);
	} else {
		s->have_report = true;
		s->obs.report = &s->report;
	}
	s->checker_out = BO_TAKE_PTR(r.out);
	s->checker_err = BO_TAKE_PTR(r.err);
	bo_proc_result_clear(&r);
	if (s->have_report && s->report.done) {
		if (bo_oracle_judge(&x->ops, s->applied, &s->report, o->ordered, &s->verdict) < 0) {
			bo_err_set(&err, ENOMEM, "judging");
			harness_fail(s, &err);
		} else {
			s->have_verdict = true;
			s->obs.verdict = &s->verdict;
		}
	}
}

/*
 * Make the snapshot hold generated state @cs: the base holds the epoch's opening state; apply
 * the epoch's entries up to the cut in log order, but for the dropped ones, and only the first
 * blocks of a torn one. Writes go through the snapshot, so the base stays at the epoch start.
 */
static int build_state(struct explore *x, const struct bo_crash_state *cs, struct bo_err *err)
{
	struct bo_replay *r = NULL;
	unsigned d = 0;
	int k;

	k = bo_replay_new(x->log, x->snap_dev, 0, 0, &r, err);
	for (uint64_t n = cs->epoch_start; k >= 0 && n < cs->cut; n++) {
		if (d < cs->n_dropped && cs->dropped[d] == n) {
			d++;
			continue;
		}
		k = bo_replay_apply(
			r, n, 0, cs->torn && cs->torn_entry == n ? cs->torn_keep : UINT64_MAX, err);
	}
	if (k >= 0)
		k = bo_replay_sync(r, err);
	bo_replay_free(r);
	return k < 0 ? bo_err_prefix(err, "building state on '%s'", x->snap_dev) : 0;
}

static int keep(struct explore *x, const char *kind, const char *name, struct bo_err *err);

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
	int fd, r;

	if (!x->snap_live) {
		r = bo_dm_create(x->snap, x->snap_uuid, x->snap_table[next], err);
		if (r >= 0)
			r = keep(x, "dm", x->snap, err);
		if (r < 0)
			return r;
		x->snap_live = true;
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
		fd = open(x->snap_dev, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, BLKFLSBUF, 0) < 0)
			r = bo_err_set(err, errno, "dropping the page cache of '%s': %s",
				       x->snap_dev, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	if (r < 0 && x->snap_live && bo_teardown_undo_top(x->td, &e2) == 0)
		x->snap_live = false;
	return r < 0 ? r : 0;
}

static void down_report(void *rctx, const char *kind, const char *arg, const struct bo_err *e)
{
	struct explore *x = rctx;

	if (x->down_first == 0)
		x->down_first = bo_err_set(x->down_err, e->errnum, "%s", bo_err_str(e));
}

/*
 * Record a loop or dm device just made on the teardown stack; should that fail (it has room
 * for all exploring makes), the object is undone at once rather than lost.
 */
static int keep(struct explore *x, const char *kind, const char *name, struct bo_err *err)
{
	bool loop = !strcmp(kind, "loop");
	int k = loop ? bo_teardown_push_loop(x->td, name, err)
		     : bo_teardown_push_dm(x->td, name, err);
	struct bo_err e2;

	if (k < 0)
		(void) (loop ? bo_loop_detach(name, &e2) : bo_dm_remove(name, &e2));
	return k;
}

/*
 * Mount the state on @dev, run the checker, unmount, fsck: what every state costs at least.
 * Returns -1 when the mount had to be detached lazily (the state is a harness error).
 */
static int probe(struct explore *x, struct state_run *s, const char *dev, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	struct bo_proc_result fr = {0};
	double t = bo_now();
	int r;

	if (bo_mount(dev, x->mnt, o->fs, o->mount_options, err) < 0) {
		snprintf(s->mount_msg, sizeof(s->mount_msg), "%s", bo_err_str(err));
	} else {
		s->obs.mounted = true;
		s->t_mount = bo_now() - t;
		t = bo_now();
		if (bo_test_stall("check", err) < 0)
			harness_fail(s, err);
		else if (o->checker)
			run_checker(x, s);
		s->t_checker = bo_now() - t;
		t = bo_now();
		/* Something the checker started may still hold the mount: detach it lazily so
		 * the next state gets a free mount point, and count this state as not evaluated. */
		r = bo_umount(x->mnt, BO_UMOUNT_DETACH_ON_FAILURE, err);
		if (r != 0) {
			if (r > 0)
				bo_err_set(err, EBUSY,
					   "'%s' was busy and had to be detached lazily", x->mnt);
			harness_fail(s, err);
			return -1;
		}
		s->t_umount = bo_now() - t;
	}
	t = bo_now();
	if (bo_test_stall("fsck", err) < 0)
		harness_fail(s, err);
	/* On a state that did not mount, fsck's output is evidence, its verdict is not: xfs_repair
	 * refuses a log that was never replayed. */
	if (bo_fsck(x->fs, dev, o->fsck_timeout * 1000u, NULL, &s->obs.fsck, &fr, err) < 0 &&
	    s->obs.mounted)
		harness_fail(s, err);
	s->fsck_out = BO_TAKE_PTR(fr.out);
	bo_proc_result_clear(&fr);
	s->t_fsck = bo_now() - t;
	return 0;
}

/*
 * Wait for the host base's answer to the replay of @s (explore_replay_start()); the time
 * waited is added to *@w and to the state's replay time. A failed replay ends the exploration:
 * the base holds no known state.
 */
static int wait_base(struct explore *x, struct state_run *s, double *w, struct bo_err *fatal)
{
	double t = bo_now();
	int r = explore_replay_wait(x, fatal);

	*w += bo_now() - t;
	s->t_replay += bo_now() - t;
	if (r < 0) {
		bo_err_prefix(fatal, "state %s", s->id);
		harness_fail(s, fatal);
	}
	return r;
}

/*
 * Check the state the base holds now, on a fresh snapshot (@big: on the CoW store as big as
 * the device). Returns -errno only when the exploration cannot go on (a failed snapshot could
 * not be removed: later states would be built on a wrong device; or its CoW store, which holds
 * more than COW_SMALL, could not be emptied: the guest would run out of memory).
 */
static int check_state_on(struct explore *x, struct state_run *s, bool big, struct bo_err *fatal)
{
	const struct bo_explore_opts *o = x->o;
	struct bo_kmsg *km = NULL;
	struct bo_snap_status st;
	struct bo_err err = {0};
	double t0 = bo_now(), t = 0, w = 0;
	uint64_t used = UINT64_MAX; /* bytes of the CoW store the state used */
	bool snap = false;
	int r = 0;

	/* The crash state before any recovery touched it. */
	if (o->hash_image) {
		r = wait_base(x, s, &w, fatal);
		if (r < 0)
			goto out;
		if (bo_sha256_file(x->base, s->sha256, &err) < 0)
			harness_fail(s, &err);
	}
	if (bo_kmsg_begin(s->id, &km, &err) < 0)
		harness_fail(s, &err);
	/* The op files are the checker's input: without a checker nothing reads them. */
	if (o->checker && write_op_files(x, s->applied, &err) < 0) {
		harness_fail(s, &err);
		goto out;
	}
	if (fresh_snapshot(x, big, &err) < 0) {
		harness_fail(s, &err);
		if (x->snap_live) {
			r = bo_err_set(fatal, err.errnum,
				       "state %s: %s; the snapshot device could not be removed "
				       "either",
				       s->id, bo_err_str(&err));
		}
		goto out;
	}
	snap = true;
	/* The swap read nothing of the base; what the state's writes and the mount read must
	 * be there. */
	r = wait_base(x, s, &w, fatal);
	if (r < 0)
		goto drop;
	if (bo_test_stall("snapshot", &err) < 0 || (s->cs && build_state(x, s->cs, &err) < 0)) {
		harness_fail(s, &err);
		goto drop;
	}
	s->t_snap = bo_now() - t0 - w;
	if (probe(x, s, x->snap_dev, &err) < 0)
		goto drop;
	t = bo_now();
	/* A CoW store that overflowed makes everything read from the snapshot suspect. */
	if (bo_snap_status(x->snap, &st, &err) < 0) {
		harness_fail(s, &err);
	} else if (bo_snap_status_check(x->snap, &st, &err) < 0) {
		harness_fail(s, &err);
		s->cow_full = st.state == BO_SNAP_INVALID || st.state == BO_SNAP_OVERFLOW;
	} else if (st.state == BO_SNAP_VALID) {
		used = st.used_sectors * 512;
	}
drop:
	/*
	 * The snapshot stays until the next state swaps it out, unused: nothing reads its CoW
	 * store any more. A fresh snapshot never reads what an earlier one left in its store (it
	 * copies a chunk in before anything reads it there), so what a state wrote is only memory:
	 * up to COW_SMALL it stays for the next state on this store to write over, more than that
	 * (or not known) is given back now.
	 */
	if (snap && used > COW_SMALL &&
	    fallocate(x->cow_fd[x->snap_cur], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t) (x->sectors * 512)) < 0) {
		r = bo_err_set(fatal, errno, "emptying the CoW store '%s': %s", x->cow[x->snap_cur],
			       strerror(errno));
		harness_fail(s, fatal);
	}
out:
	if (km && bo_kmsg_collect(km, &s->dmesg, &err) < 0)
		harness_fail(s, &err);
	bo_kmsg_free(km);
	s->seconds = bo_now() - t0 - w;
	if (t > 0)
		s->t_drop = bo_now() - t;
	if (o->bench == BO_BENCH_FLOOR)
		s->seconds = s->t_mount + s->t_checker + s->t_umount + s->t_fsck;
	return r;
}

/*
 * After a state filled a small CoW store: make COW_A and COW_B four times as big (up to the
 * device), file and loop, while the live table is on COW_BIG. Their tables stay as they are:
 * a snapshot takes the size of its CoW device when its table is loaded. A store that cannot
 * grow is no error: the states that fill it are checked again, as before.
 */
static void grow_cow(struct explore *x)
{
	uint64_t size = x->cow_small * 4 < x->o->image_size ? x->cow_small * 4 : x->o->image_size;

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

/*
 * Check the state the base holds now; a state that filled a CoW store smaller than the device
 * is checked again from the start on one as big as the device. Returns -errno only when the
 * exploration cannot go on.
 */
static int check_state(struct explore *x, struct state_run *s, struct bo_err *fatal)
{
	struct state_run again = {.applied = s->applied, .cs = s->cs, .t_replay = s->t_replay};
	double first;
	int r = check_state_on(x, s, false, fatal);

	if (r < 0 || !s->cow_full || x->n_cow <= COW_BIG || bo_stop_requested())
		return r;
	first = s->seconds;
	memcpy(again.id, s->id, sizeof(again.id));
	state_run_clear(s);
	*s = again;
	s->cow_retry = true;
	r = check_state_on(x, s, true, fatal);
	s->seconds += first;
	if (r >= 0 && x->cow_small < x->o->image_size)
		grow_cow(x);
	return r;
}

/*
 * The baseline of scripts/bench-scale: the state after @s->applied entries rebuilt from
 * nothing, as the fstests replay-log does at every cut: a fresh zeroed image, a replay from
 * entry 0, a loop device; then the same mount, umount and fsck as a check.
 */
static int naive_state(struct explore *x, struct state_run *s, struct bo_err *fatal)
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
	probe(x, s, loop.path, &err);
	r = bo_loop_detach(loop.path, fatal);
	unlink(img);
	s->seconds = bo_now() - t0;
	return r;
}

/* Cut a host base bigger than the image to its size: a linear device over its start becomes
 * the base, so that the states and their hashes are those of a device of the image's size. */
static int trim_base(struct explore *x, struct bo_err *err)
{
	char name[BO_DM_NAME_MAX], uuid[BO_DM_UUID_MAX], path[PATH_MAX];
	_cleanup_free_ char *table = NULL;
	int r;

	r = bo_dm_name(x->o->runid, "base", name, uuid, err);
	if (r >= 0)
		r = bo_linear_table(x->sectors, x->base, 0, &table, err);
	if (r >= 0)
		r = bo_dm_create(name, uuid, table, err);
	if (r >= 0)
		r = keep(x, "dm", name, err);
	if (r < 0)
		return r;
	if (bo_dm_device_path(name, path, sizeof(path)) < 0)
		return bo_err_set(err, ENAMETOOLONG, "device path of '%s'", name);
	snprintf(x->base, sizeof(x->base), "%s", path);
	snprintf(x->origin, sizeof(x->origin), "%s", path);
	return 0;
}

int explore_setup(struct explore *x, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	int r, fd, host;

	snprintf(x->base, sizeof(x->base), "%s/base.img", o->workdir);
	x->n_cow = o->image_size > COW_SMALL ? COW_N : COW_BIG;
	x->cow_small = o->image_size > COW_SMALL ? COW_SMALL : o->image_size;
	for (unsigned i = 0; i < x->n_cow; i++)
		snprintf(x->cow[i], sizeof(x->cow[i]), "%s/cow%u.img", o->workdir, i);
	snprintf(x->mnt, sizeof(x->mnt), "%s/state", o->workdir);
	snprintf(x->issued, sizeof(x->issued), "%s/issued", o->workdir);
	snprintf(x->acked, sizeof(x->acked), "%s/acked", o->workdir);
	if (mkdir(x->mnt, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", x->mnt, strerror(errno));
	host = explore_use_host_base(x, err);
	if (host < 0)
		return host;
	/* Fresh, sparse, zeroed: the device before the log's first write. */
	fd = host ? -1 : open(x->base, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (!host && (fd < 0 || ftruncate(fd, (off_t) o->image_size) < 0)) {
		r = bo_err_set(err, errno, "creating '%s': %s", x->base, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (fd >= 0)
		close(fd);
	for (unsigned i = 0; i < x->n_cow; i++) {
		uint64_t size = i == COW_BIG ? o->image_size : x->cow_small;

		x->cow_fd[i] = open(x->cow[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (x->cow_fd[i] < 0 || ftruncate(x->cow_fd[i], (off_t) size) < 0)
			return bo_err_set(err, errno, "creating '%s': %s", x->cow[i],
					  strerror(errno));
	}
	r = host ? 0 : bo_replay_new(x->log, x->base, 0, 0, &x->replay, err);
	if (r < 0)
		return r;
	r = bo_teardown_new(2 + COW_N, down_report, x, &x->td); /* loops, the snapshot */
	if (r < 0)
		return bo_err_set(err, -r, "exploring: out of memory");
	if (!host) {
		/* The replay writes the file through its page cache and the loop device reads
		 * the same cache (no direct I/O), so a snapshot sees every write replayed
		 * before it. */
		r = bo_loop_attach(x->base, o->workdir, 0, bo_log_sectorsize(x->log), &x->base_loop,
				   err);
		if (r < 0)
			return r;
		snprintf(x->origin, sizeof(x->origin), "%s", x->base_loop.path);
		r = keep(x, "loop", x->base_loop.path, err);
	} else if (x->base_trim) {
		r = trim_base(x, err);
	}
	bo_debug(BO_DBG_RUN, "base: %s (%s)", x->origin, host ? "host base" : "replayed here");
	for (unsigned i = 0; i < x->n_cow && r >= 0; i++) {
		r = bo_loop_attach(x->cow[i], o->workdir, 0, host ? bo_log_sectorsize(x->log) : 0,
				   &x->cow_loop[i], err);
		if (r >= 0)
			r = keep(x, "loop", x->cow_loop[i].path, err);
		if (r >= 0)
			r = bo_snap_table(x->sectors, x->origin, x->cow_loop[i].path, SNAP_CHUNK,
					  &x->snap_table[i], err);
	}
	if (r < 0)
		return r;
	r = bo_test_stall("replay", err);
	if (r >= 0)
		r = bo_dm_name(o->runid, "state", x->snap, x->snap_uuid, err);
	if (r < 0)
		return r;
	return bo_dm_device_path(x->snap, x->snap_dev, sizeof(x->snap_dev)) < 0
		       ? bo_err_set(err, ENAMETOOLONG, "device path of '%s'", x->snap)
		       : 0;
}

/* Undo explore_setup() in reverse; every failure is reported in @err (the first one kept). */
int explore_teardown(struct explore *x, struct bo_err *err)
{
	int r = 0;

	if (x->td) {
		x->down_err = err;
		x->down_first = 0;
		(void) bo_teardown_unwind(x->td);
		r = x->down_first;
		bo_teardown_free(x->td);
		x->td = NULL;
	}
	bo_replay_free(x->replay);
	x->replay = NULL;
	if (x->base_port >= 0)
		close(x->base_port);
	x->base_port = -1;
	x->snap_live = false;
	for (unsigned i = 0; i < x->n_cow; i++) {
		free(x->snap_table[i]);
		x->snap_table[i] = NULL;
		if (x->cow_fd[i] >= 0)
			close(x->cow_fd[i]);
		x->cow_fd[i] = -1;
		unlink(x->cow[i]);
	}
	if (!x->host_base)
		unlink(x->base);
	unlink(x->issued);
	unlink(x->acked);
	rmdir(x->mnt);
	return r;
}

int explore_check_and_record(struct explore *x, struct state_run *s, enum bo_class *ret_class,
			     struct bo_err *err)
{
	int r = x->o->bench == BO_BENCH_NAIVE ? naive_state(x, s, err) : check_state(x, s, err);
	enum bo_class c;

	/* A state cut short by a stop request was not checked: it is not recorded. */
	if (bo_stop_requested()) {
		state_run_clear(s);
		return r < 0 ? r : bo_stop_error(err, "checking crash states");
	}
	c = bo_classify(&s->obs);
	if (bo_test_stall("results", err) < 0) {
		state_run_clear(s);
		return -EINTR;
	}

	bo_summary_add(x->sum, c, s->id, s->seconds);
	bo_progress_step();
	if (explore_record_state(x, s, c, err) < 0 ||
	    (c != BO_CLASS_CONSISTENT && explore_write_byproducts(x, s, c, err) < 0))
		r = r < 0 ? r : -EIO;
	state_run_clear(s);
	*ret_class = c;
	return r;
}

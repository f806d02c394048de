// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recovery.c — crashes during recovery (stages.h). Journal replay, a database's redo and a
 * daemon's log truncation all write: a recovery that is not idempotent turns one power cut
 * into data loss at the second. With --recovery-crashes N, the probe of every state runs on a
 * dm-log-writes device over its snapshot, so that what the mount, the checker (the
 * application's recovery) and the umount write is logged. A state consistent after that
 * recovery gets up to N states cut at the flush points of its recovery log (seeded), each made
 * again from the base, the recovery's writes up to the cut applied, and recovered from
 * scratch. The oracle is the first level's: the second recovery must end in a state the first
 * could have produced (the same acknowledged ops present, nothing phantom, fsck clean). When it
 * does not, the state is recovery-unsafe, with the class its recovery gave and both logs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmtargets/logwrites.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/rand.h"
#include "harness/base/safety.h"
#include "harness/explore/stages.h"
#include "harness/log/log.h"

/* Room for what a recovery writes beyond the device itself: a header block per entry. */
#define REC_SLACK (64ull << 20)

uint64_t recovery_scratch(const struct bo_explore_opts *o)
{
	return o->recovery_crashes ? o->image_size + REC_SLACK : 0;
}

int recovery_setup(struct explore *x, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	int r;

	x->rec_fd = -1;
	if (!o->recovery_crashes)
		return 0;
	if (x->n_parts)
		return bo_err_set(err, EINVAL,
				  "recovery crashes: a log of one device only, not of several");
	if (o->bench)
		return bo_err_set(err, EINVAL, "recovery crashes: not in a benchmark mode");
	snprintf(x->rec_file, sizeof(x->rec_file), "%s/recovery.log", o->workdir);
	x->rec_fd = open(x->rec_file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (x->rec_fd < 0 || ftruncate(x->rec_fd, (off_t) recovery_scratch(o)) < 0)
		return bo_err_set(err, errno, "creating '%s': %s", x->rec_file, strerror(errno));
	r = bo_loop_attach(x->rec_file, o->workdir, 0, 0, &x->rec_loop, err);
	if (r >= 0)
		r = explore_keep(x, "loop", x->rec_loop.path, err);
	if (r >= 0)
		r = bo_dm_name(o->runid, "recovery", x->rec_dm, x->rec_uuid, err);
	if (r >= 0 && bo_dm_device_path(x->rec_dm, x->rec_dev, sizeof(x->rec_dev)) < 0)
		r = bo_err_set(err, ENAMETOOLONG, "device path of '%s'", x->rec_dm);
	x->rec = r >= 0;
	return r;
}

void recovery_teardown(struct explore *x)
{
	if (x->rec_fd >= 0) {
		close(x->rec_fd);
		unlink(x->rec_file);
	}
	x->rec_fd = -1;
	x->rec = false;
}

const char *recovery_begin(struct explore *x, struct state_run *s)
{
	_cleanup_free_ char *table = NULL;
	struct bo_err err = {0};
	int r;

	if (!x->rec)
		return x->snap_dev;
	/* An empty log: no entry, and no super block, of the state before. */
	if (fallocate(x->rec_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t) (x->o->image_size + REC_SLACK)) < 0) {
		bo_err_set(&err, errno, "emptying '%s': %s", x->rec_file, strerror(errno));
		state_run_fail(s, &err);
		return NULL;
	}
	r = bo_lw_table(x->sectors, x->snap_dev, x->rec_loop.path, &table, &err);
	if (r >= 0)
		r = bo_dm_create(x->rec_dm, x->rec_uuid, table, &err);
	if (r >= 0)
		r = explore_keep(x, "dm", x->rec_dm, &err);
	if (r < 0) {
		bo_err_prefix(&err, "logging the recovery of state %s", s->id);
		state_run_fail(s, &err);
		return NULL;
	}
	x->rec_live = true;
	return x->rec_dev;
}

int recovery_end(struct explore *x, struct state_run *s, struct bo_err *fatal)
{
	struct bo_lw_status st;
	struct bo_err err = {0};

	if (!x->rec_live)
		return 0;
	/* The kernel writes the log's entry count after MARK and FUA entries only. */
	if (bo_lw_mark(x->rec_dm, "recovered", bo_log_sectorsize(x->log), &err) < 0 ||
	    bo_lw_status(x->rec_dm, &st, &err) < 0 || bo_lw_status_check(x->rec_dm, &st, &err) < 0)
		state_run_fail(s, &err);
	if (bo_teardown_undo_top(x->td, &err) < 0) {
		state_run_fail(s, &err);
		return bo_err_set(fatal, err.errnum, "state %s: %s", s->id, bo_err_str(&err));
	}
	x->rec_live = false;
	return 0;
}

/* Apply the first @k entries of the recovery log @rl on the state's snapshot. */
static int apply_recovery(struct explore *x, const struct bo_log *rl, uint64_t k,
			  struct bo_err *err)
{
	struct bo_replay *r = NULL;
	int n = bo_replay_new(rl, x->snap_dev, 0, 0, &r, err);

	if (n >= 0)
		n = bo_replay_to(r, k, err);
	if (n >= 0)
		n = bo_replay_sync(r, err);
	bo_replay_free(r);
	return n < 0 ? bo_err_prefix(err, "applying %" PRIu64 " entries of the recovery log", k)
		     : 0;
}

/* Check the state cut after @k entries of @first's recovery log @rl (at @rl_path): made,
 * recovered, judged and recorded. -errno when the exploration cannot go on. */
static int second(struct explore *x, const struct state_run *first, const struct bo_log *rl,
		  const char *rl_path, uint64_t k, struct bo_err *fatal)
{
	struct state_run s = {
		.applied = first->applied,
		.cs = first->cs,
		.base_at = first->base_at,
		.recovery_of = first->id,
		.recovery_cut = k,
		.recovery_entries = bo_log_count(rl),
		.recovery_log = rl_path,
		.cow_retry = first->cow_retry,
	};
	struct bo_err err = {0};
	bool made = false, probed = false;
	double t0 = bo_now();
	enum bo_class c;
	int made_ok = 0, r;

	if (strlen(first->id) > 200 ||
	    snprintf(s.id, sizeof(s.id), "%.200s~r%" PRIu64, first->id, k) >= (int) sizeof(s.id))
		return bo_err_set(fatal, ENAMETOOLONG, "state id %s~r%" PRIu64, first->id, k);
	/* On the CoW store as big as the device when the state or its recovery writes much. */
	bool big = first->cow_retry || bo_log_end_offset(rl) > x->cow_small / 2;

	if (probe_begin(x, &s) >= 0)
		made_ok = snapshot_make(x, &s, big && x->n_cow > COW_BIG, &made, fatal);
	if (made_ok > 0 && apply_recovery(x, rl, k, &err) < 0)
		state_run_fail(&s, &err);
	else if (made_ok > 0 && probe(x, &s, x->snap_dev) == 0)
		probed = true;
	r = made_ok < 0 ? made_ok : 0;
	if (made) {
		int d = snapshot_done(x, &s, probed, fatal);

		r = d < 0 ? d : r;
	}
	probe_end(x, &s);
	s.seconds = bo_now() - t0;
	if (r < 0 || bo_stop_requested()) {
		state_run_clear(&s);
		return r;
	}
	s.second = judge(x, &s);
	c = s.second == BO_CLASS_CONSISTENT	 ? BO_CLASS_CONSISTENT
	    : s.second == BO_CLASS_HARNESS_ERROR ? BO_CLASS_HARNESS_ERROR
						 : BO_CLASS_RECOVERY_UNSAFE;
	bo_summary_add(x->sum, c, s.id, s.seconds, s.have_verdict ? &s.verdict : NULL);
	if (save_state(x, &s, c, fatal) < 0 ||
	    (c != BO_CLASS_CONSISTENT && save_byproducts(x, &s, c, fatal) < 0))
		r = -EIO;
	state_run_clear(&s);
	return r;
}

/* The flush points of @rl (cuts after a FLUSH or FUA entry), up to @n of them drawn with
 * @seed when there are more, ascending, into @v (room for @n). Returns how many. */
static size_t flush_points(const struct bo_log *rl, unsigned n, uint64_t seed, uint64_t *v)
{
	uint64_t seen = 0;
	size_t got = 0;

	/* Reservoir sampling: one pass, every point equally likely, in log order. */
	for (uint64_t e = 0; e < bo_log_count(rl); e++) {
		const struct bo_log_entry *le = bo_log_entry(rl, e);

		if (!bo_log_entry_barrier(le))
			continue;
		if (got < n) {
			v[got++] = e + 1;
		} else {
			uint64_t j = bo_rand_next(&seed) % (seen + 1);

			if (j < n) {
				/* Replace slot j, keeping the slots ascending. */
				memmove(v + j, v + j + 1, (n - j - 1) * sizeof(*v));
				v[n - 1] = e + 1;
			}
		}
		seen++;
	}
	return got;
}

/* A number of the state's id: its second-level states are drawn apart from the others'. */
static uint64_t id_seed(uint64_t seed, const char *id)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *id; id++)
		h = (h ^ (unsigned char) *id) * 0x100000001b3ULL;
	return seed ^ h;
}

int recovery_states(struct explore *x, const struct state_run *first, struct bo_err *fatal)
{
	const unsigned n = x->o->recovery_crashes;
	_cleanup_free_ uint64_t *cuts = calloc(n, sizeof(*cuts));
	struct bo_log *rl = NULL;
	struct bo_err err = {0};
	size_t m;
	int r = 0;

	if (!x->rec || !cuts)
		return cuts ? 0 : bo_err_set(fatal, ENOMEM, "recovery crashes");
	/* A recovery log that cannot be read is this state's problem, not the run's: its
	 * second level is not checked, and says why. */
	if (bo_log_open(x->rec_file, 0, &rl, &err) < 0) {
		bo_debug(BO_DBG_RUN, "state %s: no recovery states: %s", first->id,
			 bo_err_str(&err));
		return 0;
	}
	m = flush_points(rl, n, id_seed(x->o->seed, first->id), cuts);
	bo_debug(BO_DBG_RUN, "state %s: recovery of %" PRIu64 " entries, %zu states cut in it",
		 first->id, bo_log_count(rl), m);
	for (size_t i = 0; i < m && r >= 0 && !bo_stop_requested(); i++)
		r = second(x, first, rl, x->rec_file, cuts[i], fatal);
	bo_log_free(rl);
	return r;
}

int recovery_one(struct explore *x, const struct state_run *first, struct bo_err *fatal)
{
	struct bo_log *rl = NULL;
	int r;

	r = bo_log_open(x->o->recovery_log, 0, &rl, fatal);
	if (r < 0)
		return bo_err_prefix(fatal, "the recovery log of state %s", first->id);
	if (x->rec_only > bo_log_count(rl)) {
		r = bo_err_set(fatal, ERANGE,
			       "state %s~r%" PRIu64 ": its recovery log '%s' has %" PRIu64
			       " entries",
			       first->id, x->rec_only, x->o->recovery_log, bo_log_count(rl));
		bo_log_free(rl);
		return r;
	}
	r = second(x, first, rl, x->o->recovery_log, x->rec_only, fatal);
	bo_log_free(rl);
	return r;
}

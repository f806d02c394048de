// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explore.c — check the crash states of a log: the loop that takes each state through the
 * stages of stages.h, in order, and the setup and teardown of what every state shares.
 */
#include "harness/explore/explore.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/safety.h"
#include "harness/explore/stages.h"
#include "harness/results/progress.h"

static void down_report(void *rctx, const char *kind, const char *arg, const struct bo_err *e)
{
	struct explore *x = rctx;

	if (x->down_first == 0)
		x->down_first = bo_err_set(x->down_err, e->errnum, "%s", bo_err_str(e));
}

/* The mount point, the base and the snapshot's CoW stores, in the order they are undone. */
static int setup(struct explore *x, struct bo_err *err)
{
	/* The base and CoW loops, a trim, the snapshot and the devices on it. */
	/* ... and the recovery log's loop and log-writes device. */
	int r = bo_teardown_new(3 + COW_N + BO_LAYOUT_MAX + 2, down_report, x, &x->td);

	if (r < 0)
		return bo_err_set(err, -r, "exploring: out of memory");
	/* In place the work directory is this machine's own memory (docs/vm.md): the room its
	 * files are made with is judged before the first, and said when it is not there. */
	if (x->o->in_place)
		r = bo_space_check(
			x->o->workdir,
			base_scratch(x->o) + snapshot_scratch(x->o) + recovery_scratch(x->o),
			"checking in place (the base image, the copy-on-write stores, the "
			"recovery log)",
			err);
	if (r >= 0)
		r = probe_setup(x, err);
	if (r >= 0)
		r = base_setup(x, err);
	if (r >= 0)
		r = snapshot_setup(x, err);
	if (r >= 0)
		r = recovery_setup(x, err);
	if (r >= 0)
		r = bo_test_stall("replay", err);
	return r;
}

/* Undo setup() in reverse; every failure is reported in @err (the first one kept). */
static int teardown(struct explore *x, struct bo_err *err)
{
	int r = 0;

	if (x->td) {
		x->down_err = err;
		x->down_first = 0;
		(void) !bo_teardown_unwind(x->td);
		r = x->down_first;
		bo_teardown_free(x->td);
		x->td = NULL;
	}
	witness_teardown(x);
	recovery_teardown(x);
	snapshot_teardown(x);
	base_teardown(x);
	probe_teardown(x);
	return r;
}

/*
 * Stages 3 and 4 for state @s; a state that filled a CoW store smaller than the device is
 * checked again from the start on one as big as the device, and the small stores grow.
 */
static int check(struct explore *x, struct state_run *s, struct bo_err *fatal)
{
	struct state_run again = {.applied = s->applied,
				  .cs = s->cs,
				  .base_at = s->base_at,
				  .t_replay = s->t_replay,
				  .set = s->set};
	double first;
	int r;

	if (x->o->bench == BO_BENCH_NAIVE)
		return bench_naive_state(x, s, fatal);
	r = make_and_probe(x, s, false, true, fatal);
	if (r < 0 || !s->cow_full || x->n_cow <= COW_BIG || bo_stop_requested())
		return r;
	first = s->seconds;
	memcpy(again.id, s->id, sizeof(again.id));
	state_run_clear(s);
	*s = again;
	s->cow_retry = true;
	r = make_and_probe(x, s, true, true, fatal);
	s->seconds += first;
	if (r >= 0)
		snapshot_grow(x);
	return r;
}

/* Stages 3 to 6 for state @s, the base at its cut: its class in *@ret. */
static int check_state(struct explore *x, struct state_run *s, enum bo_class *ret,
		       struct bo_err *err)
{
	enum bo_class c;
	int r;

	/* 3, 4. The state made, mounted, checked, unmounted, fsck'd. */
	r = check(x, s, err);
	/* A state cut short by a stop request was not checked: it is not recorded. */
	if (bo_stop_requested()) {
		state_run_clear(s);
		return r < 0 ? r : bo_stop_error(err, "checking crash states");
	}
	/* 5. Its class. */
	c = judge(x, s);
	if (bo_test_stall("results", err) < 0) {
		state_run_clear(s);
		return -EINTR;
	}
	bo_summary_add(x->sum, c, s->id, s->seconds, s->have_verdict ? &s->verdict : NULL);
	/* A failure's minimal witness, when asked for: trials, not states. */
	if (r >= 0 && !s->set && witness_wanted(x, s, c))
		r = witness_find(x, s, c, err);
	bo_progress_step();
	/* 6. Its record. */
	if (save_state(x, s, c, err) < 0 ||
	    (c != BO_CLASS_CONSISTENT && save_byproducts(x, s, c, err) < 0))
		r = r < 0 ? r : -EIO;
	/* A state its recovery left consistent: crashes during that recovery. */
	if (r >= 0 && !s->set && c == BO_CLASS_CONSISTENT)
		r = recovery_states(x, s, err);
	state_run_clear(s);
	*ret = c;
	return r;
}

/* The id of state @id through survivor set @set into @buf (BO_CRASH_ID_MAX): @id itself for
 * the set of all nodes, else "<id>@<set>". -ENAMETOOLONG with @err when it does not fit. */
static int set_id(const struct explore *x, const char *id, uint32_t set, char *buf,
		  struct bo_err *err)
{
	char name[BO_CLUSTER_SET_NAME_MAX];

	if (set == bo_cluster_all(x->o->cluster))
		return snprintf(buf, BO_CRASH_ID_MAX, "%s", id) < 0 ? -EINVAL : 0;
	bo_cluster_set_name(x->o->cluster, set, name, sizeof(name));
	if ((size_t) snprintf(buf, BO_CRASH_ID_MAX, "%s@%s", id, name) >= BO_CRASH_ID_MAX)
		return bo_err_set(err, ENAMETOOLONG, "state %s@%s: id too long", id, name);
	return 0;
}

/*
 * A cluster's state @s through each survivor set in turn, each on a fresh snapshot of the one
 * base (a set's recovery writes to its nodes' disks), under set_id()'s ids. The first class
 * that is not consistent in *@ret.
 */
static int check_sets(struct explore *x, struct state_run *s, enum bo_class *ret,
		      struct bo_err *err)
{
	int r = 0;

	*ret = BO_CLASS_CONSISTENT;
	for (size_t i = 0; r >= 0 && i < x->nsets; i++) {
		struct state_run one = {.applied = s->applied,
					.cs = s->cs,
					.base_at = s->base_at,
					.t_replay = i ? 0 : s->t_replay,
					.set = x->sets[i]};
		enum bo_class c;

		if (set_id(x, s->id, x->sets[i], one.id, err) < 0)
			return -ENAMETOOLONG;
		if (bo_stop_requested())
			return bo_stop_error(err, "checking crash states");
		r = check_state(x, &one, &c, err);
		x->set_cls[i] = c;
		if (*ret == BO_CLASS_CONSISTENT)
			*ret = c;
	}
	snprintf(x->set_rep, sizeof(x->set_rep), "%s", s->id);
	return r;
}

/*
 * An alias of a cluster's state, through each survivor set: set_id() of it an alias of
 * set_id() of its representative, with the class that set gave it (the representative's
 * worst when it was not the last checked, which select.c's cut aliases always are).
 */
static int save_set_aliases(struct explore *x, const struct select_alias *a, struct bo_err *err)
{
	bool known = !strcmp(a->of, x->set_rep);
	int r = 0;

	for (size_t i = 0; r >= 0 && i < x->nsets; i++) {
		struct select_alias one = *a;
		char of[BO_CRASH_ID_MAX];

		if (set_id(x, a->id, x->sets[i], one.id, err) < 0 ||
		    set_id(x, a->of, x->sets[i], of, err) < 0)
			return -ENAMETOOLONG;
		one.of = of;
		one.cls = known ? x->set_cls[i] : a->cls;
		r = save_alias(x, &one, err);
	}
	return r;
}

/* Stages 2 to 6 for state @s; its class in *@ret. -errno when the exploration cannot go on. */
static int explore_state(struct explore *x, struct state_run *s, uint64_t last_cut,
			 enum bo_class *ret, struct bo_err *err)
{
	double t = bo_now();
	int r = 0;

	/* 2. The base at the state's cut or epoch start (the fstests way rebuilds it). */
	if (x->o->bench != BO_BENCH_NAIVE) {
		r = base_to(x, s->base_at, err);
		if (r < 0)
			return bo_err_prefix(err, "bringing the base to state %s", s->id);
		s->t_replay = bo_now() - t;
		/* The next states' log data is read while this state is checked. */
		base_prefetch(x, last_cut);
	}
	/* A state cut inside another's recovery, alone: made, its recovery's writes applied. */
	if (x->rec_only != UINT64_MAX) {
		r = recovery_one(x, s, err);
		bo_progress_step();
		state_run_clear(s);
		*ret = BO_CLASS_CONSISTENT;
		return r;
	}
	if (!x->nsets)
		return check_state(x, s, ret, err);
	r = check_sets(x, s, ret, err);
	state_run_clear(s);
	return r;
}

/* 1. Every state select.c gives, in order: checked, or recorded as an alias. */
static int explore_states(struct explore *x, struct select *sel, struct bo_err *err)
{
	struct select_alias a;
	struct state_run s;
	enum bo_class c = BO_CLASS_HARNESS_ERROR;
	int k, r = 0;

	/* A cluster's state is checked once per survivor set. */
	size_t per = x->nsets ? x->nsets : 1;

	bo_progress_begin(select_total(sel) * per);
	while (r >= 0) {
		if (bo_stop_requested())
			return bo_stop_error(err, "checking crash states");
		k = select_next(sel, &s, &a, err);
		if (k <= SELECT_END)
			return k;
		if (k == SELECT_ALIAS) {
			for (size_t i = 0; a.count && i < per; i++)
				bo_progress_step();
			if (a.record)
				r = x->nsets ? save_set_aliases(x, &a, err)
					     : save_alias(x, &a, err);
			continue;
		}
		r = explore_state(x, &s, select_last_cut(sel), &c, err);
		select_checked(sel, c);
	}
	return r;
}

int bo_explore(const struct bo_log *log, const struct bo_explore_opts *o, struct bo_results *res,
	       struct bo_summary *sum, struct bo_err *err)
{
	struct explore x = {
		.log = log,
		.o = o,
		.res = res,
		.sum = sum,
		.cow_fd = {-1, -1, -1},
		.base_port = -1,
		.rec_fd = -1,
		.rec_only = UINT64_MAX,
	};
	struct bo_explore_opts alone;
	char first_id[BO_CRASH_ID_MAX], set_id[BO_CRASH_ID_MAX];
	struct select *sel = NULL;
	struct bo_err terr = {0};
	double t0 = bo_now();
	int r;

	/* Vacuous-pass guards: a log without entries, or a policy that selects nothing (in
	 * select.c), could not have failed. */
	if (bo_log_count(log) == 0) {
		r = bo_err_set(err, ENODATA, "log '%s' has no entries: nothing to check",
			       bo_log_path(log));
		goto out;
	}
	if (o->image_size == 0 || o->image_size % 512) {
		r = bo_err_set(err, EINVAL, "image size %" PRIu64 " is not a multiple of 512",
			       o->image_size);
		goto out;
	}
	x.sectors = o->image_size / 512;
	if (bo_fs_from_name(o->fs, &x.fs) < 0) {
		r = bo_err_set(err, EINVAL, "unknown filesystem '%s' (" BO_FS_NAMES ")", o->fs);
		goto out;
	}
	x.n_parts = o->layout ? o->layout->n : 0;
	for (unsigned i = 0; i < x.n_parts; i++) {
		const struct bo_layout_dev *d = &o->layout->v[i];

		x.part_raw[i] = !strcmp(d->kind, "raw");
		if (!x.part_raw[i] && bo_fs_from_name(d->kind, &x.part_fs[i]) < 0) {
			r = bo_err_set(err, EINVAL, "device '%s': unknown filesystem '%s'", d->name,
				       d->kind);
			goto out;
		}
		if (d->start + d->sectors > x.sectors) {
			r = bo_err_set(err, EINVAL,
				       "device '%s' ends at sector %" PRIu64
				       ", past the image's %" PRIu64,
				       d->name, d->start + d->sectors, x.sectors);
			goto out;
		}
	}
	if (x.n_parts && o->bench) {
		r = bo_err_set(err, EINVAL, "the benchmark modes check one device");
		goto out;
	}
	/* A state alone is that state alone: none cut inside its recovery. */
	if (o->only_state && o->recovery_crashes) {
		alone = *o;
		alone.recovery_crashes = 0;
		x.o = o = &alone;
	}
	/* "<id>~r<K>": state <id> made, then the first K entries of its recovery log applied. */
	if (o->only_state && strstr(o->only_state, "~r")) {
		const char *k = strstr(o->only_state, "~r");

		if (!o->recovery_log || bo_parse_u64(k + 2, &x.rec_only) < 0 ||
		    (size_t) (k - o->only_state) >= sizeof(first_id)) {
			r = bo_err_set(err, EINVAL,
				       "state id '%s': a state cut inside a recovery needs its "
				       "recovery log (--recovery-log) and a number after ~r",
				       o->only_state);
			goto out;
		}
		snprintf(first_id, sizeof(first_id), "%.*s", (int) (k - o->only_state),
			 o->only_state);
		alone = *o;
		alone.only_state = first_id;
		x.o = &alone;
	}
	/* A cluster's nodes run in network namespaces on a bridge, named in /etc/hosts: changes to
	 * the machine that only blackout's own VM may take. A failing state's witness and the
	 * crashes inside its recovery are single-node levels, not taken yet with nodes. */
	if (o->cluster && (o->in_place || o->witness || o->recovery_crashes)) {
		r = bo_err_set(err, EINVAL,
			       "a cluster's states are checked in blackout's own VM, without "
			       "%s",
			       o->in_place  ? "--in-place (its network and /etc/hosts are the VM's)"
			       : o->witness ? "--witness (not yet taken with nodes)"
					    : "--recovery-crashes (not yet taken with nodes)");
		goto out;
	}
	/* "<id>@<set>": state <id> through the survivors <set> alone; a cluster's "<id>", through
	 * all its nodes. */
	if (o->cluster) {
		const char *at = x.o->only_state ? strchr(x.o->only_state, '@') : NULL;
		uint32_t set = bo_cluster_all(x.o->cluster);

		if (at && (bo_cluster_set_parse(x.o->cluster, at + 1, &set) < 0 ||
			   (size_t) (at - x.o->only_state) >= sizeof(set_id))) {
			r = bo_err_set(err, EINVAL,
				       "state id '%s': after '@', the names of nodes of the "
				       "cluster joined by '+'",
				       x.o->only_state);
			goto out;
		}
		if (x.o->only_state)
			x.sets[x.nsets++] = set;
		else
			x.nsets = bo_cluster_sets(x.o->cluster, x.sets);
		if (at) {
			snprintf(set_id, sizeof(set_id), "%.*s", (int) (at - x.o->only_state),
				 x.o->only_state);
			alone = *x.o;
			alone.only_state = set_id;
			x.o = &alone;
		}
	} else if (x.o->only_state && strchr(x.o->only_state, '@')) {
		r = bo_err_set(err, EINVAL,
			       "state id '%s': a survivor set after '@' is a cluster's, and this "
			       "check has none (its scenario's [node NAME] sections)",
			       x.o->only_state);
		goto out;
	}
	r = bo_ops_from_log(log, &x.ops, err);
	if (r >= 0)
		r = select_new(&x, &sel, err);
	if (r < 0)
		goto out;
	r = setup(&x, err);
	if (r >= 0)
		r = explore_states(&x, sel, err);
	if (r >= 0 && select_claims(sel))
		bo_progress_share_done();
	bo_progress_end();
	if (teardown(&x, &terr) < 0 && r >= 0)
		r = bo_err_set(err, terr.errnum, "tearing down: %s", bo_err_str(&terr));
out:
	if (r < 0)
		bo_summary_error(sum, bo_err_str(err));
	select_free(sel);
	bo_ops_clear(&x.ops);
	sum->seconds_total += bo_now() - t0;
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explore.c — walk the crash states of a log in order: cut points or generated states, their
 * aliases, and this shard's share of them; explore_state.c checks each one.
 */
#include "harness/explore/explore.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/states/crashdedup.h"
#include "harness/states/crashgen.h"
#include "harness/states/cutsel.h"
#include "harness/explore/stages.h"
#include "harness/dev/fstool.h"
#include "harness/states/oracle.h"
#include "harness/results/progress.h"
#include "harness/replay/replay.h"
#include "harness/base/safety.h"

/* The crashdedup tag of a representative another shard checks (see explore_states()). */
#define NOT_MINE (-1)

void bo_state_id(uint64_t applied, char *buf, size_t len)
{
	if (applied == 0)
		snprintf(buf, len, "c-start");
	else
		snprintf(buf, len, "c%" PRIu64, applied - 1);
}

/* Did anything the state depends on change between the two cuts: data, or the op sets? */
static bool state_changes(const struct bo_log *log, uint64_t from, uint64_t to)
{
	for (uint64_t n = from; n < to; n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);
		const char *m = bo_log_mark_name(log, n);

		if (e->nr_sectors && !(e->flags & BO_LOG_MARK))
			return true;
		if (m && (!strncmp(m, "issue:", 6) || !strncmp(m, "ack:", 4)))
			return true;
	}
	return false;
}

bool bo_state_in_shard(const char *id, unsigned index, unsigned count)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (count <= 1)
		return true;
	/* FNV-1a of the id: the same share on every machine, for every run of the same log. */
	for (const char *p = id; *p; p++)
		h = (h ^ (uint8_t) *p) * 0x100000001b3ULL;
	return h % count == index;
}

static int emit_alias(struct explore *x, const char *id, uint64_t cut, const char *of,
		      enum bo_class c, struct bo_err *err)
{
	struct json_object *rec = json_object_new_object();

	json_object_object_add(rec, "state", json_object_new_string(id));
	json_object_object_add(rec, "cut", json_object_new_uint64(cut));
	json_object_object_add(rec, "alias_of", json_object_new_string(of));
	json_object_object_add(rec, "class", json_object_new_string(bo_class_name(c)));
	x->sum->aliases++;
	return bo_results_emit(x->res, "alias", rec, err);
}

/*
 * Whether this shard takes representative @id: 1 yes, 0 no, -errno when the claim failed.
 * --shard I/N goes by the id alone, so the share is the same on every machine whatever else
 * is checked. The VMs of --jobs N claim each representative in turn, and the first to ask
 * takes it (mkdir is atomic on the host behind 9p): a VM that boots late or runs slower on a
 * busy host takes fewer, and none is left checking alone at the end. (By id, 201 states
 * split 92/109 over two VMs, and their speeds differed by as much as 45%.)
 */
static int take(struct explore *x, const char *id, struct bo_err *err)
{
	if (x->claim_fd < 0)
		return bo_state_in_shard(id, x->o->shard_index, x->o->shard_count);
	if (mkdirat(x->claim_fd, id, 0755) == 0)
		return 1;
	if (errno == EEXIST)
		return 0;
	return bo_err_set(err, errno, "claiming state %s in '%s': %s", id, x->o->claim_dir,
			  strerror(errno));
}

/* An even share of @all states for this shard, when claims decide who checks what. */
static uint64_t even_share(const struct explore *x, uint64_t all)
{
	unsigned n = x->o->shard_count ? x->o->shard_count : 1;

	return all / n + (x->o->shard_index < all % n);
}

/* How many states and aliases explore_cuts() visits in this shard (for the progress line). */
static uint64_t cuts_mine(const struct explore *x, const struct bo_cuts *cuts)
{
	char id[BO_CRASH_ID_MAX];
	uint64_t n = 0, rep_cut = 0;
	bool have_rep = false, rep_mine = false;

	if (x->claim_fd >= 0)
		return even_share(x, cuts->n);
	for (size_t i = 0; i < cuts->n; i++) {
		if (have_rep && !state_changes(x->log, rep_cut, cuts->v[i])) {
			n += rep_mine;
			continue;
		}
		bo_state_id(cuts->v[i], id, sizeof(id));
		have_rep = true;
		rep_cut = cuts->v[i];
		rep_mine = bo_state_in_shard(id, x->o->shard_index, x->o->shard_count);
		n += rep_mine;
	}
	return n;
}

/*
 * Check every cut in order. A cut whose image and op sets did not change since the last
 * state checked (its representative) is an alias of it. Representatives are found over the
 * whole cut list before any sharding, and a shard takes a representative with its aliases, so
 * shards merged give exactly what one run gives.
 */
static int explore_cuts(struct explore *x, const struct bo_cuts *cuts, struct bo_err *err)
{
	char rep_id[BO_CRASH_ID_MAX] = "";
	enum bo_class rep_class = BO_CLASS_HARNESS_ERROR;
	uint64_t rep_cut = 0;
	bool rep_mine = false;
	double t;
	int r;

	bo_progress_begin(cuts_mine(x, cuts));
	for (size_t i = 0; i < cuts->n; i++) {
		struct state_run s = {.applied = cuts->v[i]};
		enum bo_class c;

		if (bo_stop_requested())
			return bo_stop_error(err, "checking crash states");
		bo_state_id(s.applied, s.id, sizeof(s.id));
		if (rep_id[0] && !state_changes(x->log, rep_cut, s.applied)) {
			if (!rep_mine)
				continue;
			bo_progress_step();
			r = emit_alias(x, s.id, s.applied, rep_id, rep_class, err);
			if (r < 0)
				return r;
			continue;
		}
		snprintf(rep_id, sizeof(rep_id), "%s", s.id);
		rep_cut = s.applied;
		r = take(x, s.id, err);
		if (r < 0)
			return r;
		rep_mine = r > 0;
		if (!rep_mine)
			continue;
		t = bo_now();
		r = x->o->bench == BO_BENCH_NAIVE ? 0 : explore_replay_start(x, s.applied, err);
		if (r < 0)
			return bo_err_prefix(err, "replaying to state %s", s.id);
		if (x->o->bench != BO_BENCH_NAIVE) {
			s.t_replay = bo_now() - t;
			/* The next cut's log data is read while this state is checked. */
			explore_replay_prefetch(x, cuts->v[cuts->n - 1]);
		}
		r = explore_check_and_record(x, &s, &c, err);
		if (r < 0)
			return r;
		rep_class = c;
	}
	return 0;
}

/* Check the one generated state @cs (check --state c12-d5,9). */
static int explore_one(struct explore *x, const struct bo_crash_state *cs, struct bo_err *err)
{
	struct state_run s = {.applied = cs->cut, .cs = cs};
	enum bo_class c;
	int r;

	bo_crash_state_id(cs, s.id, sizeof(s.id));
	bo_progress_begin(1);
	r = explore_replay_start(x, cs->epoch_start, err);
	if (r < 0)
		return r;
	return explore_check_and_record(x, &s, &c, err);
}

/*
 * Check the generated states (reordered within an epoch, torn writes, and the prefix states
 * among them). The base rolls forward to each state's epoch start; the rest is applied on the
 * snapshot. A state that leaves the blocks and op sets of one generated before it in its epoch
 * (crashdedup.h) is an alias of that one. Every shard sees every state in the same order, so
 * all agree on the representatives; the shard of a representative records its aliases.
 */
static int explore_states(struct explore *x, const struct bo_cuts *cuts, struct bo_err *err)
{
	struct bo_crashgen_opts go = {
		.reorder_k = x->o->reorder_k,
		.torn = x->o->torn,
		.seed = x->o->seed,
		.budget = x->o->budget,
	};
	struct bo_crashgen *g = NULL;
	struct bo_crashdedup *dd = NULL;
	struct bo_crash_state cs;
	int r, k;

	/* A first pass counts the states of this shard, for the progress line. With claims, a
	 * shard's share is known only as it goes: it is counted as an even one. */
	r = bo_crashgen_new(x->log, cuts, &go, &g, err);
	if (r < 0)
		return r;
	{
		uint64_t total = 0, all = 0;

		while ((k = bo_crashgen_next(g, &cs)) > 0) {
			char id[BO_CRASH_ID_MAX];

			bo_crash_state_id(&cs, id, sizeof(id));
			total += bo_state_in_shard(id, x->o->shard_index, x->o->shard_count);
			all++;
		}
		bo_crashgen_free(g);
		g = NULL;
		if (x->claim_fd >= 0)
			total = even_share(x, all);
		bo_progress_begin(total);
	}
	r = bo_crashgen_new(x->log, cuts, &go, &g, err);
	if (r >= 0)
		r = bo_crashdedup_new(x->log, &dd, err);
	if (r < 0) {
		bo_crashgen_free(g);
		return r;
	}
	while (r >= 0 && (k = bo_crashgen_next(g, &cs)) != 0) {
		struct state_run s = {.applied = cs.cut, .cs = &cs};
		enum bo_class c;
		size_t rep;

		if (k < 0) {
			r = bo_err_set(err, -k, "generating crash states");
			break;
		}
		if (bo_stop_requested()) {
			r = bo_stop_error(err, "checking crash states");
			break;
		}
		bo_crash_state_id(&cs, s.id, sizeof(s.id));
		k = bo_crashdedup_add(dd, &cs, s.id, &rep, err);
		if (k < 0) {
			r = bo_err_prefix(err, "state %s", s.id);
			break;
		}
		if (k > 0) {
			int tag = bo_crashdedup_tag(dd, rep);

			/* The alias is recorded by the shard that checks its representative. The
			 * progress total counted this shard's ids, or an even share. */
			if (x->claim_fd >= 0
				    ? tag != NOT_MINE
				    : bo_state_in_shard(s.id, x->o->shard_index, x->o->shard_count))
				bo_progress_step();
			if (tag != NOT_MINE)
				r = emit_alias(x, s.id, s.applied, bo_crashdedup_id(dd, rep),
					       (enum bo_class) tag, err);
			continue;
		}
		/* The tag of a representative is its class once checked, NOT_MINE when another
		 * shard checks it. */
		r = take(x, s.id, err);
		if (r <= 0) {
			bo_crashdedup_set_tag(dd, rep, NOT_MINE);
			continue;
		}
		r = explore_replay_start(x, cs.epoch_start, err);
		if (r < 0) {
			bo_err_prefix(err, "replaying to the epoch of state %s", s.id);
			break;
		}
		explore_replay_prefetch(x, cuts->v[cuts->n - 1]);
		r = explore_check_and_record(x, &s, &c, err);
		bo_crashdedup_set_tag(dd, rep, (int) c);
	}
	bo_crashdedup_free(dd);
	bo_crashgen_free(g);
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
		.claim_fd = -1,
		.base_port = -1,
	};
	struct bo_cuts cuts = {0};
	struct bo_err terr = {0};
	double t0 = bo_now();
	int r;

	/* Vacuous-pass guards: a log without entries, or a policy that selects nothing, could
	 * not have failed. */
	if (bo_log_count(log) == 0) {
		r = bo_err_set(err, ENODATA, "log '%s' has no entries: nothing to check",
			       bo_log_path(log));
		goto out_sum;
	}
	if (o->image_size == 0 || o->image_size % 512) {
		r = bo_err_set(err, EINVAL, "image size %" PRIu64 " is not a multiple of 512",
			       o->image_size);
		goto out_sum;
	}
	x.sectors = o->image_size / 512;
	r = bo_fs_from_name(o->fs, &x.fs);
	if (r < 0) {
		r = bo_err_set(err, EINVAL, "unknown filesystem '%s' (ext4, xfs, btrfs)", o->fs);
		goto out_sum;
	}
	r = bo_ops_from_log(log, &x.ops, err);
	if (r < 0)
		goto out_sum;
	if (o->only_state) {
		struct bo_crash_state st;

		r = bo_crash_state_parse(log, o->only_state, &st, err);
		if (r < 0)
			goto out_sum;
		if (st.n_dropped > 0 || st.torn) {
			r = explore_setup(&x, err);
			if (r >= 0)
				r = explore_one(&x, &st, err);
			goto out_teardown;
		}
		cuts.v = malloc(sizeof(*cuts.v));
		if (!cuts.v) {
			r = bo_err_set(err, ENOMEM, "selecting cuts");
			goto out_sum;
		}
		cuts.v[0] = st.cut;
		cuts.n = 1;
	} else {
		r = bo_cutsel_select(log, o->cuts, o->first_cut, &cuts, err);
		if (r < 0)
			goto out_sum;
	}
	if (cuts.n == 0) {
		r = bo_err_set(err, ENODATA, "cut policy '%s' selects no cut point in '%s'",
			       o->cuts, bo_log_path(log));
		goto out_sum;
	}
	if (o->claim_dir) {
		x.claim_fd = open(o->claim_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (x.claim_fd < 0) {
			r = bo_err_set(err, errno, "the claims directory '%s': %s", o->claim_dir,
				       strerror(errno));
			goto out_sum;
		}
	}
	r = explore_setup(&x, err);
	if (r >= 0)
		r = o->reorder_k || o->torn ? explore_states(&x, &cuts, err)
					    : explore_cuts(&x, &cuts, err);
	if (r >= 0 && x.claim_fd >= 0)
		bo_progress_share_done();
out_teardown:
	bo_progress_end();
	if (explore_teardown(&x, &terr) < 0 && r >= 0)
		r = bo_err_set(err, terr.errnum, "tearing down: %s", bo_err_str(&terr));
out_sum:
	if (r < 0)
		bo_summary_error(sum, bo_err_str(err));
	if (x.claim_fd >= 0)
		close(x.claim_fd);
	bo_ops_clear(&x.ops);
	bo_cuts_clear(&cuts);
	sum->seconds_total += bo_now() - t0;
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c — stage 1 of the check loop (stages.h): the crash states of an exploration, in
 * order. Either the cut points of the policy (prefix states), or the generated states of
 * their epochs (reordered, torn; states/crashgen.h); a state whose image and op sets equal
 * one checked before it is an alias of that one, recorded and not checked again; and of what
 * is left, this shard's share.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/explore/stages.h"
#include "harness/states/crashdedup.h"
#include "harness/states/cutsel.h"

/* The crashdedup tag of a representative another shard checks. */
#define NOT_MINE (-1)

struct select {
	struct explore *x;
	struct bo_cuts cuts;
	int claim_fd; /* o->claim_dir, or -1 */
	uint64_t total;
	/* The one generated state of --state c12-d5,9; its walk ends after it. */
	bool one, one_done;
	/* The walk over generated states (reorder, torn). */
	struct bo_crashgen *gen;
	struct bo_crashdedup *dd;
	struct bo_crash_state cs; /* the state select_next() returned last */
	size_t rep;		  /* its entry in dd */
	/* The walk over cut points. */
	size_t i;
	char rep_id[BO_CRASH_ID_MAX]; /* the last representative, "" before the first */
	enum bo_class rep_class;
	uint64_t rep_cut;
	bool rep_mine;
};

void bo_state_id(uint64_t applied, char *buf, size_t len)
{
	if (applied == 0)
		snprintf(buf, len, "c-start");
	else
		snprintf(buf, len, "c%" PRIu64, applied - 1);
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

/* Did anything the state depends on change between the two cuts: data, or the op sets? */
static bool state_changes(const struct bo_log *log, uint64_t from, uint64_t to)
{
	for (uint64_t n = from; n < to; n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);
		const char *m = bo_log_mark_name(log, n);

		if (e->nr_sectors && !(e->flags & BO_LOG_MARK))
			return true;
		if (m && (!strncmp(m, "issue:", 6) || !strncmp(m, "ack:", 4) ||
			  !strncmp(m, "fresh:", 6) || !strcmp(m, "base")))
			return true;
	}
	return false;
}

/*
 * Whether this shard takes representative @id: 1 yes, 0 no, -errno when the claim failed.
 * --shard I/N goes by the id alone, so the share is the same on every machine whatever else
 * is checked. The VMs of --jobs N claim each representative in turn, and the first to ask
 * takes it (mkdir is atomic on the host behind 9p): a VM that boots late or runs slower on a
 * busy host takes fewer, and none is left checking alone at the end. (By id, 201 states
 * split 92/109 over two VMs, and their speeds differed by as much as 45%.)
 */
static int take(struct select *sel, const char *id, struct bo_err *err)
{
	const struct bo_explore_opts *o = sel->x->o;

	if (sel->claim_fd < 0)
		return bo_state_in_shard(id, o->shard_index, o->shard_count);
	if (mkdirat(sel->claim_fd, id, 0755) == 0)
		return 1;
	if (errno == EEXIST)
		return 0;
	return bo_err_set(err, errno, "claiming state %s in '%s': %s", id, o->claim_dir,
			  strerror(errno));
}

static bool in_my_shard(const struct select *sel, const char *id)
{
	return bo_state_in_shard(id, sel->x->o->shard_index, sel->x->o->shard_count);
}

/* An even share of @all states for this shard, when claims decide who checks what. */
static uint64_t even_share(const struct select *sel, uint64_t all)
{
	unsigned n = sel->x->o->shard_count ? sel->x->o->shard_count : 1;

	return all / n + (sel->x->o->shard_index < all % n);
}

/* How many states and aliases the cut walk visits in this shard. */
static uint64_t cuts_mine(const struct select *sel)
{
	char id[BO_CRASH_ID_MAX];
	uint64_t n = 0, rep_cut = 0;
	bool have_rep = false, rep_mine = false;

	if (sel->claim_fd >= 0)
		return even_share(sel, sel->cuts.n);
	for (size_t i = 0; i < sel->cuts.n; i++) {
		if (have_rep && !state_changes(sel->x->log, rep_cut, sel->cuts.v[i])) {
			n += rep_mine;
			continue;
		}
		bo_state_id(sel->cuts.v[i], id, sizeof(id));
		have_rep = true;
		rep_cut = sel->cuts.v[i];
		rep_mine = in_my_shard(sel, id);
		n += rep_mine;
	}
	return n;
}

static struct bo_crashgen_opts gen_opts(const struct bo_explore_opts *o)
{
	return (struct bo_crashgen_opts){
		.reorder_k = o->reorder_k,
		.torn = o->torn,
		.seed = o->seed,
		.budget = o->budget,
		.persona = o->persona,
		.floor = o->first_cut,
	};
}

/* How many generated states this shard visits: a first pass over them. With claims, a
 * shard's share is known only as it goes: it is counted as an even one. */
static int states_mine(struct select *sel, struct bo_err *err)
{
	struct bo_crashgen_opts go = gen_opts(sel->x->o);
	struct bo_crashgen *g = NULL;
	struct bo_crash_state cs;
	uint64_t all = 0;
	int k = bo_crashgen_new(sel->x->log, &sel->cuts, &go, &g, err);

	if (k < 0)
		return k;
	sel->total = 0;
	while ((k = bo_crashgen_next(g, &cs)) > 0) {
		char id[BO_CRASH_ID_MAX];

		bo_crash_state_id(&cs, id, sizeof(id));
		sel->total += in_my_shard(sel, id);
		all++;
	}
	bo_crashgen_free(g);
	if (sel->claim_fd >= 0)
		sel->total = even_share(sel, all);
	return 0;
}

/*
 * A fresh filesystem's way back to its base (bo_ops_resetting()) holds no state of any
 * workload: its cuts are left out, and a state asked for by id there is refused.
 */
static int skip_resets(struct select *sel, struct bo_err *err)
{
	const struct bo_ops *ops = &sel->x->ops;
	size_t k = 0;

	if (!ops->n_fresh)
		return 0;
	for (size_t i = 0; i < sel->cuts.n; i++) {
		char id[BO_CRASH_ID_MAX];

		if (!bo_ops_resetting(ops, sel->cuts.v[i])) {
			sel->cuts.v[k++] = sel->cuts.v[i];
			continue;
		}
		if (!sel->x->o->only_state)
			continue;
		bo_state_id(sel->cuts.v[i], id, sizeof(id));
		return bo_err_set(err, EINVAL,
				  "state %s: the device on its way back to the base between a "
				  "reset: and a fresh: mark, no state of any workload",
				  id);
	}
	sel->cuts.n = k;
	return 0;
}

int select_new(struct explore *x, struct select **ret, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	struct select *sel = calloc(1, sizeof(*sel));
	struct bo_crashgen_opts go = gen_opts(o);
	int r = 0;

	if (!sel)
		return bo_err_set(err, ENOMEM, "selecting states");
	sel->x = x;
	sel->claim_fd = -1;
	if (o->only_state) {
		r = bo_crash_state_parse(x->log, &go, o->only_state, &sel->cs, err);
		if (r >= 0 && (sel->cs.n_dropped > 0 || sel->cs.torn)) {
			sel->one = true;
			sel->total = 1;
			*ret = sel;
			return 0;
		}
		if (r >= 0 && !(sel->cuts.v = malloc(sizeof(*sel->cuts.v))))
			r = bo_err_set(err, ENOMEM, "selecting cuts");
		if (r >= 0) {
			sel->cuts.v[0] = sel->cs.cut;
			sel->cuts.n = 1;
		}
	} else {
		r = bo_cutsel_select(x->log, o->cuts, o->first_cut, &sel->cuts, err);
	}
	if (r >= 0)
		r = skip_resets(sel, err);
	/* A vacuous-pass guard: a policy that selects nothing could not have failed. */
	if (r >= 0 && sel->cuts.n == 0)
		r = bo_err_set(err, ENODATA, "cut policy '%s' selects no cut point in '%s'",
			       o->cuts, bo_log_path(x->log));
	if (r >= 0 && o->claim_dir) {
		sel->claim_fd = open(o->claim_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sel->claim_fd < 0)
			r = bo_err_set(err, errno, "the claims directory '%s': %s", o->claim_dir,
				       strerror(errno));
	}
	if (r >= 0 && (o->reorder_k || o->torn)) {
		r = states_mine(sel, err);
		if (r >= 0)
			r = bo_crashgen_new(x->log, &sel->cuts, &go, &sel->gen, err);
		if (r >= 0)
			r = bo_crashdedup_new(x->log, &sel->dd, err);
	} else if (r >= 0) {
		sel->total = cuts_mine(sel);
	}
	if (r < 0) {
		select_free(sel);
		return r;
	}
	*ret = sel;
	return 0;
}

void select_free(struct select *sel)
{
	if (!sel)
		return;
	if (sel->claim_fd >= 0)
		close(sel->claim_fd);
	bo_crashdedup_free(sel->dd);
	bo_crashgen_free(sel->gen);
	bo_cuts_clear(&sel->cuts);
	free(sel);
}

uint64_t select_total(const struct select *sel)
{
	return sel->total;
}

bool select_claims(const struct select *sel)
{
	return sel->claim_fd >= 0;
}

uint64_t select_last_cut(const struct select *sel)
{
	return sel->one ? sel->cs.epoch_start : sel->cuts.v[sel->cuts.n - 1];
}

/*
 * The cut walk. A cut whose image and op sets did not change since the last state checked
 * (its representative) is an alias of it. Representatives are found over the whole cut list
 * before any sharding, and a shard takes a representative with its aliases, so shards merged
 * give exactly what one run gives.
 */
static int next_cut(struct select *sel, struct state_run *s, struct select_alias *a,
		    struct bo_err *err)
{
	int r;

	while (sel->i < sel->cuts.n) {
		uint64_t applied = sel->cuts.v[sel->i++];
		char id[BO_CRASH_ID_MAX];

		bo_state_id(applied, id, sizeof(id));
		if (sel->rep_id[0] && !state_changes(sel->x->log, sel->rep_cut, applied)) {
			if (!sel->rep_mine)
				continue;
			*a = (struct select_alias){.cut = applied,
						   .of = sel->rep_id,
						   .cls = sel->rep_class,
						   .count = true,
						   .record = true};
			snprintf(a->id, sizeof(a->id), "%s", id);
			return SELECT_ALIAS;
		}
		snprintf(sel->rep_id, sizeof(sel->rep_id), "%s", id);
		sel->rep_cut = applied;
		sel->rep_class = BO_CLASS_HARNESS_ERROR;
		r = take(sel, id, err);
		if (r < 0)
			return r;
		sel->rep_mine = r > 0;
		if (!sel->rep_mine)
			continue;
		*s = (struct state_run){.applied = applied, .base_at = applied};
		snprintf(s->id, sizeof(s->id), "%s", id);
		return SELECT_CHECK;
	}
	return SELECT_END;
}

/*
 * The generated walk: the base rolls forward to each state's epoch start; the rest is applied
 * on the snapshot. A state that leaves the blocks and op sets of one generated before it in
 * its epoch (crashdedup.h) is an alias of that one. Every shard sees every state in the same
 * order, so all agree on the representatives; the shard of a representative records its
 * aliases. The tag of a representative is its class once checked, NOT_MINE when another shard
 * checks it.
 */
static int next_generated(struct select *sel, struct state_run *s, struct select_alias *a,
			  struct bo_err *err)
{
	char id[BO_CRASH_ID_MAX];
	size_t rep;
	int k, r;

	while ((k = bo_crashgen_next(sel->gen, &sel->cs)) != 0) {
		if (k < 0)
			return bo_err_set(err, -k, "generating crash states");
		bo_crash_state_id(&sel->cs, id, sizeof(id));
		k = bo_crashdedup_add(sel->dd, &sel->cs, id, &rep, err);
		if (k < 0)
			return bo_err_prefix(err, "state %s", id);
		if (k > 0) {
			int tag = bo_crashdedup_tag(sel->dd, rep);

			/* The alias is recorded by the shard that checks its representative. The
			 * progress total counted this shard's ids, or an even share. */
			*a = (struct select_alias){
				.cut = sel->cs.cut,
				.of = bo_crashdedup_id(sel->dd, rep),
				.cls = (enum bo_class) tag,
				.count =
					sel->claim_fd >= 0 ? tag != NOT_MINE : in_my_shard(sel, id),
				.record = tag != NOT_MINE,
			};
			snprintf(a->id, sizeof(a->id), "%s", id);
			if (a->count || a->record)
				return SELECT_ALIAS;
			continue;
		}
		r = take(sel, id, err);
		if (r <= 0) {
			bo_crashdedup_set_tag(sel->dd, rep, NOT_MINE);
			if (r < 0)
				return r;
			continue;
		}
		sel->rep = rep;
		*s = (struct state_run){
			.applied = sel->cs.cut, .cs = &sel->cs, .base_at = sel->cs.epoch_start};
		snprintf(s->id, sizeof(s->id), "%s", id);
		return SELECT_CHECK;
	}
	return SELECT_END;
}

int select_next(struct select *sel, struct state_run *s, struct select_alias *a, struct bo_err *err)
{
	if (sel->one) {
		if (sel->one_done)
			return SELECT_END;
		sel->one_done = true;
		*s = (struct state_run){
			.applied = sel->cs.cut, .cs = &sel->cs, .base_at = sel->cs.epoch_start};
		bo_crash_state_id(&sel->cs, s->id, sizeof(s->id));
		return SELECT_CHECK;
	}
	return sel->gen ? next_generated(sel, s, a, err) : next_cut(sel, s, a, err);
}

void select_checked(struct select *sel, enum bo_class c)
{
	if (sel->gen)
		bo_crashdedup_set_tag(sel->dd, sel->rep, (int) c);
	else
		sel->rep_class = c;
}

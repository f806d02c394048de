// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * witness.c — the minimal witness of a failing state (stages.h, docs/crash-states.md "Minimal
 * witness"). A crash state differs from a state that passes in writes that are not on its
 * disk: entries of the cut's epoch the crash dropped or tore, and entries logged after the
 * cut (held back in the page cache or the disk's cache when the power went). The witness is
 * the fewest of those writes whose absence alone keeps the state failing: every other write
 * of the difference on disk, the failure stays; any one of the witness added back, it goes.
 *
 *   1. The reference: the state with every write up to entry R on disk, which passes. R is
 *      the cut itself when the cut's prefix passes (the failure is the dropped or torn
 *      writes'); else the first cut after a write past the cut with which the failure goes,
 *      found by doubling and halving up to the end of the log (when it never goes, the state
 *      has no witness: no write left out decides the failure). A trial is judged as a cut at
 *      R, against the ops acknowledged and issued before R.
 *   2. Delta debugging (base/ddmin.h) over the difference between the failing state and
 *      the reference: a trial state holds every write up to R but a subset, and "fails" when
 *      it fails the same way as the state (its class, and one of its failing ops).
 *   3. The reference made once more, mounted and unmounted: the filesystem's own tools map
 *      each write's first missing block to its inode and path (dev/fsmap.h); the log's
 *      issue: and ack: marks name the op each write was logged for.
 *
 * Trials are states made on the snapshot like generated ones (stage 3), probed and judged
 * (stages 4 and 5), never recorded. Their outcomes are remembered per cut and failure, so the
 * reordered and torn states of a cut reuse what its prefix state's witness found. At most
 * o->witness trials per state; a witness cut short by that budget is the smallest failing set
 * found, and says it is not minimal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/ddmin.h"
#include "harness/base/macro.h"
#include "harness/base/safety.h"
#include "harness/explore/stages.h"

/* A tool mapping blocks to files that takes longer has hung. */
#define FSMAP_TIMEOUT_MS 60000
/*
 * Trial outcomes, remembered for the whole exploration. A trial's image depends only on its
 * reference and its missing writes (the base holds the log before them, whatever the state),
 * and it is judged at its reference: its class and failing ops hold for every state, which
 * then asks whether they are its own failure (a phantom, judged at the state's cut, keys by
 * the cut too). So the states of a run that fail alike reuse each other's trials.
 */
#define MEMO_MAX 4096
/* Failing ops of a trial kept; one with more says so. */
#define MEMO_OPS 32
/* Witnesses kept, to start the next states' searches from. */
#define MEMO_FOUND 8

struct memo_entry {
	uint64_t key;
	enum bo_class cls;
	unsigned n_ops;
	bool more;		/* it failed more ops than kept */
	uint64_t ops[MEMO_OPS]; /* its failing ops, ascending */
};

/* A witness found, its reference, and what its writes are once described. */
struct memo_found {
	uint64_t to;
	uint64_t *w;
	size_t n;
	bool described;
	struct bo_fsmap_block map[WITNESS_SHOWN]; /* its writes' blocks in the reference */
	char mapped[200];
};

struct witness_memo {
	struct memo_entry v[MEMO_MAX];
	size_t n, next; /* entries used; the one to replace when all are */
	struct memo_found found[MEMO_FOUND];
	size_t n_found, next_found;
};

/* One witness search. */
struct search {
	struct explore *x;
	const struct state_run *s;
	enum bo_class cls;
	struct witness *w;
	uint64_t torn;	 /* the state's torn entry, or UINT64_MAX */
	uint64_t to;	 /* the reference: trial states hold the entries before it */
	unsigned budget; /* trials left */
	struct bo_err *fatal;
	int fatal_r; /* the exploration cannot go on */
};

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
	return h;
}

void witness_teardown(struct explore *x)
{
	for (size_t i = 0; x->memo && i < x->memo->n_found; i++)
		free(x->memo->found[i].w);
	free(x->memo);
	x->memo = NULL;
}

bool witness_wanted(const struct explore *x, const struct state_run *s, enum bo_class c)
{
	switch (c) {
	case BO_CLASS_UNMOUNTABLE:
	case BO_CLASS_FSCK_DIRTY:
	case BO_CLASS_REPAIR_FAILED:
	case BO_CLASS_LOST_ACK:
	case BO_CLASS_PHANTOM:
	case BO_CLASS_APP_RECOVERY_FAILED:
		break;
	default:
		return false;
	}
	return x->o->witness && !s->recovery_of && !s->cow_full && !x->n_parts && !x->o->bench;
}

/* Add the ops of @v's failures to @set. */
static int failing_ops(const struct bo_verdict *v, struct bo_opset *set)
{
	const struct bo_opset *sets[] = {&v->lost, &v->wrong, &v->phantom, &v->unordered};
	int r = 0;

	for (size_t i = 0; i < BO_ARRAY_SIZE(sets); i++)
		for (size_t k = 0; k < sets[i]->n && r >= 0; k++)
			r = bo_opset_add(set, sets[i]->v[k]);
	return r < 0 ? r : 0;
}

/* The class and failing ops of trial @t (class @c) into @m. */
static void remember(const struct state_run *t, enum bo_class c, struct memo_entry *m)
{
	struct bo_opset all = {0};

	m->cls = c;
	m->n_ops = 0;
	m->more = t->have_verdict && failing_ops(&t->verdict, &all) < 0;
	for (size_t k = 0; k < all.n; k++) {
		if (m->n_ops == MEMO_OPS) {
			m->more = true;
			break;
		}
		m->ops[m->n_ops++] = all.v[k];
	}
	bo_opset_clear(&all);
}

/* What remembered trial @m says of the search's state: 1 it fails the same way (its class,
 * and one of the state's failing ops; the first few of those into @decided when not NULL), 0
 * not, -1 not known (it failed more ops than kept, none of them the state's). */
static int judged(const struct search *q, const struct memo_entry *m, uint64_t *decided,
		  unsigned *n_decided)
{
	unsigned n = 0;

	if (m->cls != q->cls)
		return 0;
	if (!q->w->ops.n)
		return 1;
	for (unsigned i = 0; i < m->n_ops; i++)
		if (bo_opset_has(&q->w->ops, m->ops[i])) {
			if (decided && n < BO_ARRAY_SIZE(q->w->decided))
				decided[n] = m->ops[i];
			n++;
		}
	if (n_decided)
		*n_decided = n < BO_ARRAY_SIZE(q->w->decided) ? n : BO_ARRAY_SIZE(q->w->decided);
	return n ? 1 : m->more ? -1 : 0;
}

/*
 * Make, probe and judge the trial state: the entries before @to on disk but for @missing
 * (ascending; the state's torn entry among them stays torn). It is judged as a cut at @to:
 * the ops acknowledged and issued before it, so that a later op that superseded a lost op's
 * effect is no phantom and vouches for it (docs/checkers.md); a phantom, which only the
 * state's own cut can tell, at that cut. Its class and failing ops into @m. -errno when the
 * exploration cannot go on.
 */
static int trial_run(struct search *q, uint64_t to, const uint64_t *missing, size_t n,
		     struct memo_entry *m)
{
	struct explore *x = q->x;
	const struct state_run *s = q->s;
	_cleanup_free_ uint64_t *skip = malloc((n ? n : 1) * sizeof(*skip));
	struct state_build b = {.from = s->base_at, .to = to, .skip = skip, .torn = UINT64_MAX};
	struct state_run t = {
		.applied = q->cls == BO_CLASS_PHANTOM || to < s->applied ? s->applied : to,
		.base_at = s->base_at,
		.build = &b,
	};
	enum bo_class c;
	int r;

	if (!skip)
		return bo_err_set(q->fatal, ENOMEM, "witness of state %s", s->id);
	for (size_t i = 0; i < n; i++) {
		if (missing[i] == q->torn) {
			b.torn = q->torn;
			b.torn_bytes = bo_crash_torn_bytes(x->log, s->cs);
		} else {
			skip[b.n_skip++] = missing[i];
		}
	}
	snprintf(t.id, sizeof(t.id), "%.200s~w%u", s->id, q->w->trials);
	q->w->trials++;
	/* Its recovery is not the point: no device logs it. */
	r = make_and_probe(x, &t, s->cow_retry && x->n_cow > COW_BIG, false, q->fatal);
	c = judge(x, &t);
	/* A trial that could not be made or filled its CoW store says nothing: not a failure. */
	remember(&t, r < 0 || t.cow_full ? BO_CLASS_HARNESS_ERROR : c, m);
	bo_debug(BO_DBG_RUN, "state %s: witness trial %u: %" PRIu64 " entries, %zu missing: %s",
		 s->id, q->w->trials, to - s->base_at, n, bo_class_name(c));
	state_run_clear(&t);
	return r;
}

/* The key of a trial in the memo. */
static uint64_t trial_key(const struct search *q, uint64_t to, const uint64_t *missing, size_t n)
{
	uint64_t key = fnv(fnv(0xcbf29ce484222325ULL, to), n);

	for (size_t i = 0; i < n; i++) {
		key = fnv(key, missing[i]);
		/* A torn entry is missing only its tail: how much, the state says. */
		if (missing[i] == q->torn)
			key = fnv(key, bo_crash_torn_bytes(q->x->log, q->s->cs));
	}
	return q->cls == BO_CLASS_PHANTOM ? fnv(fnv(key, q->cls), q->s->applied) : key;
}

/* The remembered trial, or NULL. */
static struct memo_entry *memo_find(struct witness_memo *m, uint64_t key)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].key == key)
			return &m->v[i];
	return NULL;
}

/* The trial, its outcome remembered; a trial over the budget does not fail. */
static int trial(struct search *q, uint64_t to, const uint64_t *missing, size_t n, bool *fails)
{
	struct witness_memo *m = q->x->memo;
	uint64_t key = trial_key(q, to, missing, n);
	struct memo_entry *seen = memo_find(m, key), e = {.key = key};
	int k = seen ? judged(q, seen, NULL, NULL) : -1, r;

	*fails = k == 1;
	if (k >= 0 || !q->budget || bo_stop_requested())
		return 0;
	q->budget--;
	r = trial_run(q, to, missing, n, &e);
	if (r < 0)
		return r;
	*fails = judged(q, &e, NULL, NULL) == 1;
	if (!seen) {
		seen = &m->v[m->n < MEMO_MAX ? m->n++ : m->next];
		m->next = m->n < MEMO_MAX ? m->next : (m->next + 1) % MEMO_MAX;
	}
	*seen = e;
	return 0;
}

/* ddmin's test: the trial missing @ids from the reference. */
static int ddmin_test(const uint64_t *ids, size_t n, void *ctx)
{
	struct search *q = ctx;
	bool fails;
	int r = trial(q, q->to, ids, n, &fails);

	if (r < 0) {
		q->fatal_r = r;
		return r;
	}
	return fails;
}

/* The first barrier at or after entry @e: a FLUSH (what came before is durable) or a FUA
 * write (durable itself), or UINT64_MAX. */
static uint64_t next_barrier(const struct bo_log *log, uint64_t e)
{
	for (; e < bo_log_count(log); e++)
		if (bo_log_entry_barrier(bo_log_entry(log, e)))
			return e;
	return UINT64_MAX;
}

/* Whether entry @e puts blocks on the device (a write or a discard, not a mark or a bare
 * flush). */
static bool writes(const struct bo_log *log, uint64_t e)
{
	const struct bo_log_entry *le = bo_log_entry(log, e);

	return !(le->flags & BO_LOG_MARK) && le->nr_sectors > 0;
}

/* The budget ran out while looking for the reference. */
static int out_of_budget(struct search *q, uint64_t to)
{
	snprintf(q->w->none, sizeof(q->w->none),
		 "the budget of %u trials ran out before a state without the failure was found "
		 "(the last had %" PRIu64 " entries on disk)",
		 q->x->o->witness, to);
	return 1;
}

/* The candidate references past @cut: a cut after each write, and the end of the log,
 * ascending, into *@ret. */
static int write_points(const struct bo_log *log, uint64_t cut, uint64_t **ret, size_t *ret_n)
{
	uint64_t end = bo_log_count(log);
	uint64_t *v = malloc((end - cut + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (uint64_t e = cut; e < end; e++)
		if (writes(log, e))
			v[n++] = e + 1;
	if (!n || v[n - 1] != end)
		v[n++] = end;
	*ret = v;
	*ret_n = n;
	return 0;
}

/*
 * Step 1: the reference, the fewest entries on disk with which the failure goes, into q->to:
 * the cut itself when a dropped or torn state's prefix passes; else the first cut after a
 * write past the cut that passes, found by doubling (the 1st, 2nd, 4th, ... write, then the
 * end of the log) and halving between the last that failed and the first that passed. A
 * reference as near the cut as that holds the fewest writes that are not the state's: one
 * further on holds the same changes twice (a journal's commit and its checkpoint), and its
 * witness needs both. 0 when found, 1 when there is none (w->none says why).
 */
static int find_reference(struct search *q)
{
	const struct bo_log *log = q->x->log;
	const struct bo_crash_state *cs = q->s->cs;
	const uint64_t cut = q->s->applied;
	_cleanup_free_ uint64_t *pts = NULL;
	size_t n = 0, lo = SIZE_MAX, hi = SIZE_MAX;
	bool fails = true;
	int r;

	if (cs && (cs->n_dropped || cs->torn)) {
		r = trial(q, cut, NULL, 0, &fails);
		if (r < 0 || !fails) {
			q->to = cut;
			return r;
		}
	}
	r = write_points(log, cut, &pts, &n);
	if (r < 0)
		return bo_err_set(q->fatal, -r, "witness of state %s", q->s->id);
	for (size_t i = 0; hi == SIZE_MAX; i = 2 * i + 1) {
		if (i >= n)
			i = n - 1;
		if (!q->budget || bo_stop_requested())
			return out_of_budget(q, pts[i]);
		r = trial(q, pts[i], NULL, 0, &fails);
		if (r < 0)
			return r;
		if (!fails) {
			hi = i;
		} else if (i == n - 1) {
			snprintf(q->w->none, sizeof(q->w->none),
				 "the failure stays with every write of the log on disk: no write "
				 "the crash left out decides it");
			return 1;
		} else {
			lo = i;
		}
	}
	while (lo != SIZE_MAX && hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (!q->budget || bo_stop_requested())
			return out_of_budget(q, pts[mid]);
		r = trial(q, pts[mid], NULL, 0, &fails);
		if (r < 0)
			return r;
		*(fails ? &lo : &hi) = mid;
	}
	q->to = pts[hi];
	return 0;
}

/* The difference between the state and the reference: its dropped and torn entries, and the
 * writes after its cut, ascending. */
static int difference(const struct search *q, uint64_t **ret, size_t *ret_n)
{
	const struct bo_crash_state *cs = q->s->cs;
	uint64_t cut = q->s->applied;
	size_t n = 0, cap = 16 + (size_t) (q->to - cut);
	uint64_t *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	/* Before the cut and ascending: crashgen.h keeps dropped entries so, and a torn state
	 * drops none. */
	for (unsigned i = 0; cs && i < cs->n_dropped; i++)
		v[n++] = cs->dropped[i];
	if (cs && cs->torn)
		v[n++] = cs->torn_entry;
	for (uint64_t e = cut; e < q->to; e++)
		if (writes(q->x->log, e))
			v[n++] = e;
	*ret = v;
	*ret_n = n;
	return 0;
}

/* The op entry @e was logged for: in flight (issued, not yet acknowledged), the last issued
 * such; else the last acknowledged before it. */
static void attribute(const struct explore *x, uint64_t e, struct witness_write *ww)
{
	uint64_t best_issue = 0, best_ack = 0;

	ww->op = UINT64_MAX;
	for (size_t i = 0; i < x->ops.n; i++) {
		const struct bo_op *op = &x->ops.v[i];

		if (op->issue_entry != BO_NO_ENTRY && op->issue_entry < e &&
		    (op->ack_entry == BO_NO_ENTRY || op->ack_entry > e) &&
		    (!ww->in_flight || op->issue_entry >= best_issue)) {
			ww->op = op->id;
			ww->in_flight = true;
			best_issue = op->issue_entry;
		} else if (!ww->in_flight && op->ack_entry != BO_NO_ENTRY && op->ack_entry < e &&
			   op->ack_entry >= best_ack) {
			ww->op = op->id;
			best_ack = op->ack_entry;
		}
	}
}

/* The remembered witness @w (@n writes, reference @to), or NULL. */
static struct memo_found *found_find(struct witness_memo *m, uint64_t to, const uint64_t *w,
				     size_t n)
{
	for (size_t i = 0; i < m->n_found; i++)
		if (m->found[i].to == to && m->found[i].n == n &&
		    !memcmp(m->found[i].w, w, n * sizeof(*w)))
			return &m->found[i];
	return NULL;
}

/* Remember witness @w (@n writes, reference @to), its description once there is one. */
static void memo_found(struct witness_memo *m, uint64_t to, const uint64_t *w, size_t n,
		       const struct witness *desc)
{
	struct memo_found *f = found_find(m, to, w, n);
	uint64_t *copy;

	if (!f) {
		copy = malloc((n ? n : 1) * sizeof(*w));
		if (!copy)
			return;
		memcpy(copy, w, n * sizeof(*w));
		f = &m->found[m->n_found < MEMO_FOUND ? m->n_found++ : m->next_found];
		m->next_found =
			m->n_found < MEMO_FOUND ? m->next_found : (m->next_found + 1) % MEMO_FOUND;
		free(f->w);
		*f = (struct memo_found){.to = to, .w = copy, .n = n};
	}
	if (desc && !f->described) {
		for (size_t i = 0; i < WITNESS_SHOWN; i++) {
			f->map[i] = desc->v[i].map;
			f->map[i].data = NULL;
		}
		memcpy(f->mapped, desc->mapped, sizeof(f->mapped));
		f->described = true;
	}
}

/* Step 3: what each write is. The reference made again, recovered by its probe, its blocks
 * mapped (once per witness and reference, @f when remembered); a map that fails says why, the
 * witness stands. */
static int describe(struct search *q, const uint64_t *wit, const struct memo_found *f)
{
	struct explore *x = q->x;
	const struct bo_crash_state *cs = q->s->cs;
	struct witness *w = q->w;
	const uint32_t ss = bo_log_sectorsize(x->log);
	size_t shown = w->n < WITNESS_SHOWN ? w->n : WITNESS_SHOWN;
	struct bo_fsmap_block map[WITNESS_SHOWN];
	unsigned char data[WITNESS_SHOWN][2048];
	struct bo_err err = {0};
	struct memo_entry m;
	int r;

	for (size_t i = 0; i < shown; i++) {
		struct witness_write *ww = &w->v[i];
		const struct bo_log_entry *le = bo_log_entry(x->log, wit[i]);
		uint64_t skip = 0;

		ww->entry = wit[i];
		ww->bytes = le->nr_sectors * ss;
		ww->flush = UINT64_MAX;
		if (cs && cs->torn && wit[i] == cs->torn_entry) {
			ww->how = "torn";
			skip = bo_crash_torn_bytes(x->log, cs);
			ww->bytes -= skip;
		} else if (wit[i] < q->s->applied) {
			ww->how = "dropped";
		} else {
			ww->how = "held back";
			ww->flush = next_barrier(x->log, wit[i]);
		}
		attribute(x, wit[i], ww);
		map[i].byte = le->sector * ss + skip / ss * ss;
		/* What it wrote, for the writes that name others (a journal's super block). */
		map[i].data = NULL;
		if (bo_log_data_bytes(x->log, le) >= skip / ss * ss + sizeof(data[i]) &&
		    bo_log_read_data(x->log, wit[i], skip / ss * ss, data[i], sizeof(data[i]),
				     &err) >= 0)
			map[i].data = data[i];
	}
	/* Described for an earlier state: the same blocks of the same reference. */
	if (f && f->described) {
		for (size_t i = 0; i < shown; i++)
			w->v[i].map = f->map[i];
		memcpy(w->mapped, f->mapped, sizeof(w->mapped));
		return 0;
	}
	/* The reference, made and recovered again: its blocks are what the trials kept. */
	r = trial_run(q, q->to, NULL, 0, &m);
	if (r < 0)
		return r;
	if (bo_fsmap(x->fs, x->snap_dev, map, shown, FSMAP_TIMEOUT_MS, &err) < 0)
		snprintf(w->mapped, sizeof(w->mapped), "%s", bo_err_str(&err));
	for (size_t i = 0; !w->mapped[0] && i < shown; i++)
		w->v[i].map = map[i];
	memo_found(x->memo, q->to, wit, w->n, w);
	return 0;
}

/* Whether every id of @a (ascending, @na) is in @b (ascending, @nb). */
static bool subset(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t j = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return false;
	}
	return true;
}

static char *story(const struct explore *x, const struct state_run *s, enum bo_class c);

int witness_find(struct explore *x, struct state_run *s, enum bo_class c, struct bo_err *fatal)
{
	const struct bo_crash_state *cs = s->cs;
	struct search q = {
		.x = x,
		.s = s,
		.cls = c,
		.torn = cs && cs->torn ? cs->torn_entry : UINT64_MAX,
		.budget = x->o->witness,
		.fatal = fatal,
	};
	_cleanup_free_ uint64_t *diff = NULL;
	uint64_t *wit = NULL;
	size_t n_diff = 0, n_wit = 0;
	const struct memo_entry *m;
	const unsigned max_tests = 16 * x->o->witness + 256;
	unsigned tests = 0;
	double t0 = bo_now();
	int r;

	q.w = s->witness = calloc(1, sizeof(*s->witness));
	if (!q.w || (!x->memo && !(x->memo = calloc(1, sizeof(*x->memo)))) ||
	    (s->have_verdict && failing_ops(&s->verdict, &q.w->ops) < 0))
		return bo_err_set(fatal, ENOMEM, "witness of state %s", s->id);
	r = find_reference(&q);
	if (r != 0)
		goto out;
	q.w->reference = q.to;
	r = difference(&q, &diff, &n_diff);
	if (r < 0) {
		r = bo_err_set(fatal, -r, "witness of state %s", s->id);
		goto out;
	}
	/* Start from a witness found before when it is part of this difference and fails the
	 * same way here: its trials, and ddmin's over it, are remembered. */
	for (size_t i = x->o->witness_full ? 0 : x->memo->n_found; i-- > 0 && !q.w->reused;) {
		const struct memo_found *f = &x->memo->found[i];
		bool fails;

		if (f->to != q.to || !subset(f->w, f->n, diff, n_diff) || f->n == n_diff)
			continue;
		r = trial(&q, q.to, f->w, f->n, &fails);
		if (r < 0)
			goto out;
		if (fails) {
			memcpy(diff, f->w, f->n * sizeof(*diff));
			n_diff = f->n;
			q.w->reused = true;
		}
	}
	if (x->o->witness_full) {
		wit = malloc((n_diff ? n_diff : 1) * sizeof(*wit));
		if (!wit) {
			r = bo_err_set(fatal, ENOMEM, "witness of state %s", s->id);
			goto out;
		}
		memcpy(wit, diff, n_diff * sizeof(*wit));
		n_wit = n_diff;
	} else {
		/* Once the budget is spent every new candidate counts as passing and costs only
		 * its look-up; ddmin's own bound keeps those few over a long difference. */
		r = bo_ddmin(diff, n_diff, ddmin_test, &q, max_tests, &wit, &n_wit, &tests);
		if (r < 0 || q.fatal_r < 0) {
			r = q.fatal_r < 0 ? q.fatal_r
					  : bo_err_set(fatal, -r, "witness of state %s", s->id);
			goto out;
		}
	}
	if (!n_wit) {
		snprintf(q.w->none, sizeof(q.w->none),
			 "the state fails, yet made again with every write up to entry %" PRIu64
			 " it passes: its outcome is not reproducible",
			 q.to - 1);
		goto out;
	}
	/* A trial over the budget counts as passing, and ddmin stops at its bound: either way
	 * its answer is then not known to be minimal. */
	q.w->minimal = !x->o->witness_full && q.budget > 0 && tests < max_tests;
	q.w->n = n_wit;
	/* Which of the state's failing ops the witness alone fails: its trial's, or (when it is
	 * the whole difference, the state itself) the state's. */
	m = memo_find(x->memo, trial_key(&q, q.to, wit, n_wit));
	if (!m || judged(&q, m, q.w->decided, &q.w->n_decided) != 1) {
		q.w->n_decided = 0;
		while (q.w->n_decided < q.w->ops.n &&
		       q.w->n_decided < BO_ARRAY_SIZE(q.w->decided)) {
			q.w->decided[q.w->n_decided] = q.w->ops.v[q.w->n_decided];
			q.w->n_decided++;
		}
	}
	memo_found(x->memo, q.to, wit, n_wit, NULL);
	r = describe(&q, wit, found_find(x->memo, q.to, wit, n_wit));
out:
	free(wit);
	q.w->seconds = bo_now() - t0;
	q.w->story = story(x, s, c);
	return r < 0 ? r : 0;
}

/* What failed, in a few words: "op 4 lost", "ops 4, 8 lost", "fsck finds damage". */
static void failure_words(const struct witness *w, enum bo_class c, char *buf, size_t len)
{
	const uint64_t *ops = w->n_decided ? w->decided : w->ops.v;
	size_t n = w->n_decided ? w->n_decided : w->ops.n;
	size_t used;

	switch (c) {
	case BO_CLASS_UNMOUNTABLE:
		snprintf(buf, len, "the state does not mount");
		return;
	case BO_CLASS_FSCK_DIRTY:
		snprintf(buf, len, "fsck finds damage");
		return;
	case BO_CLASS_REPAIR_FAILED:
		snprintf(buf, len, "fsck cannot repair the state");
		return;
	case BO_CLASS_APP_RECOVERY_FAILED:
		snprintf(buf, len, "the application's recovery fails");
		return;
	default:
		break;
	}
	snprintf(buf, len, "op%s", n > 1 ? "s" : "");
	for (size_t i = 0; i < n && i < 8; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %" PRIu64, i ? "," : "", ops[i]);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "%s %s", n > 8 ? ", ..." : "",
		 c == BO_CLASS_PHANTOM ? "phantom" : "lost");
}

/* The witness of @s (class @c) told in lines (malloc'd; NULL when out of memory). */
static char *story(const struct explore *x, const struct state_run *s, enum bo_class c)
{
	const struct witness *w = s->witness;
	char *buf = NULL, what[200];
	size_t len = 0;
	FILE *f;

	if (!w || !(f = open_memstream(&buf, &len)))
		return NULL;
	failure_words(w, c, what, sizeof(what));
	if (w->none[0]) {
		fprintf(f, "%s: no witness: %s (%u trials, %.1f s)\n", what, w->none, w->trials,
			w->seconds);
		goto out;
	}
	if (w->reference == s->applied)
		fprintf(f,
			"%s: %zu write%s decide%s it. The cut's prefix (its whole epoch on disk) "
			"passes; without %s it fails again",
			what, w->n, w->n == 1 ? "" : "s", w->n == 1 ? "s" : "",
			w->n == 1 ? "this one" : "these");
	else
		fprintf(f,
			"%s: %zu write%s decide%s it. With the log up to entry %" PRIu64
			" on disk it passes; without %s it fails again",
			what, w->n, w->n == 1 ? "" : "s", w->n == 1 ? "s" : "", w->reference - 1,
			w->n == 1 ? "this one" : "these");
	fprintf(f, " (%s, %u trials, %.1f s):\n",
		!w->minimal
			? (x->o->witness_full ? "not minimised" : "not minimal: the budget ran out")
		: w->reused ? "minimal, as for an earlier state"
			    : "minimal",
		w->trials, w->seconds);
	for (size_t i = 0; i < w->n && i < WITNESS_SHOWN; i++) {
		const struct witness_write *ww = &w->v[i];

		fprintf(f, "  entry %" PRIu64 ", %s: ", ww->entry, ww->how);
		if (!strcmp(ww->how, "torn"))
			fprintf(f, "its last %" PRIu64 " bytes never reached the disk", ww->bytes);
		else if (!strcmp(ww->how, "dropped"))
			fprintf(f, "%" PRIu64 " bytes of the cut's epoch the crash left out",
				ww->bytes);
		else if (ww->flush == ww->entry)
			fprintf(f, "%" PRIu64 " bytes logged after the cut, a FUA write",
				ww->bytes);
		else if (ww->flush != UINT64_MAX)
			fprintf(f,
				"%" PRIu64 " bytes logged after the cut, durable at entry %" PRIu64
				" (%s)",
				ww->bytes, ww->flush,
				bo_log_entry(x->log, ww->flush)->flags & BO_LOG_FLUSH ? "FLUSH"
										      : "FUA");
		else
			fprintf(f, "%" PRIu64 " bytes logged after the cut, never flushed",
				ww->bytes);
		if (ww->op != UINT64_MAX && ww->in_flight)
			fprintf(f, "; logged during op %" PRIu64, ww->op);
		else if (ww->op != UINT64_MAX)
			fprintf(f, "; logged after the ack of op %" PRIu64, ww->op);
		if (ww->map.what[0]) {
			fprintf(f, "; block %" PRIu64 ": %s", ww->map.block, ww->map.what);
			if (ww->map.inode && !strcmp(ww->map.what, "data"))
				fprintf(f, " of inode %" PRIu64, ww->map.inode);
			if (ww->map.path[0])
				fprintf(f, " (%s)", ww->map.path);
		}
		fputc('\n', f);
	}
	if (w->n > WITNESS_SHOWN)
		fprintf(f, "  ... and %zu more\n", w->n - WITNESS_SHOWN);
	if (w->mapped[0])
		fprintf(f, "  (blocks not mapped to files: %s)\n", w->mapped);
out:
	fclose(f);
	return buf;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The search of a shrink (shrink.h): bisection over the prefix states of the saved log for the
 * earliest failing cut, then delta debugging over the workload's op list, each candidate
 * judged in the form the workload performs it and only once. How a probe or a candidate is
 * judged is the judge's (trial.c on the kernel); what is recorded of each, the caller's.
 */
#include "harness/shrink/shrink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/ddmin.h"
#include "harness/base/macro.h"
#include "harness/log/cut.h"
#include "scenarios/blackout-ids.h"

struct seen {
	char *ops;
	int fails;
};

/* One delta debugging: its candidates so far. */
struct search {
	const struct bo_shrink_in *in;
	unsigned step;
	struct seen *seen; /* candidates already judged, by their performed op list */
	size_t nseen;
};

static void report(const struct bo_shrink_in *in, const struct bo_shrink_step *st)
{
	if (in->report)
		in->report(in->rctx, st);
}

int bo_shrink_bisect(const struct bo_shrink_in *in, struct bo_shrink_out *out, struct bo_err *err)
{
	const char *state = in->state;
	struct bo_log *log = NULL;
	uint64_t lo, hi, last;
	unsigned probes = 0;
	char id[64];
	int r;

	if (state[0] != 'c' || bo_parse_u64(state + 1, &last) < 0)
		return bo_err_set(err, EINVAL,
				  "state '%s' is not a prefix state (c<N>): nothing to bisect",
				  state);
	r = bo_log_open(in->log, 0, &log, err);
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &lo, err);
	hi = last + 1;
	if (r >= 0 && lo >= hi)
		r = bo_err_set(err, EINVAL, "state %s is not after the mkfs mark", state);
	while (r >= 0 && hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct bo_shrink_trial t = {0};
		struct bo_shrink_step st = {
			.phase = BO_SHRINK_BISECT, .state = id, .cut = mid, .t = &t};
		double t0 = bo_now();

		bo_state_id(mid, id, sizeof(id));
		r = in->judge->probe(in, log, mid, lo, probes, &t, err);
		if (!t.checked)
			break;
		probes++;
		st.seconds = bo_now() - t0;
		report(in, &st);
		if (t.error < 0 || t.harness_error) {
			r = bo_err_set(err, EIO, "probing state %s: %s", id,
				       t.error < 0 ? bo_err_str(&t.err) : "harness error");
			break;
		}
		if (t.fails)
			hi = mid;
		else
			lo = mid;
	}
	bo_log_free(log);
	if (r < 0)
		return r;
	out->cut = hi;
	out->probes = probes;
	return 0;
}

/* Remember that candidate @ops (taken) failed or not. */
static int remember(struct search *s, char *ops, int fails)
{
	struct seen *nv = reallocarray(s->seen, s->nseen + 1, sizeof(*nv));

	if (!nv) {
		free(ops);
		return -ENOMEM;
	}
	s->seen = nv;
	s->seen[s->nseen].ops = ops;
	s->seen[s->nseen++].fails = fails;
	return 0;
}

/* The ddmin test: the performed form of @ids, judged once. */
static int candidate(const uint64_t *ids, size_t n, void *ctx)
{
	struct search *s = ctx;
	const struct bo_shrink_in *in = s->in;
	_cleanup_free_ char *want = bo_ids_format(ids, n), *keep = NULL;
	_cleanup_free_ uint64_t *perf = NULL;
	struct bo_shrink_trial t = {0};
	struct bo_shrink_step st = {.phase = BO_SHRINK_DDMIN, .asked = n, .t = &t};
	size_t np = 0;
	double t0 = bo_now();
	int fails = 0;

	if (!want || in->judge->perform(in, want, &perf, &np, &t.err) < 0) {
		if (!want)
			bo_err_set(&t.err, ENOMEM, "no memory");
		t.error = -ENOMEM;
		report(in, &st);
		return -ENOMEM;
	}
	keep = bo_ids_format(perf, np);
	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i].ops, keep))
			return s->seen[i].fails;
	s->step++;
	/* An op list that performs nothing cannot fail. */
	if (np > 0)
		fails = in->judge->test(in, keep, s->step, &t);
	t.fails = fails > 0;
	t.error = fails < 0 ? fails : 0;
	st.n = s->step;
	st.ops = keep;
	st.op_count = np;
	st.seconds = bo_now() - t0;
	report(in, &st);
	/* A candidate that could not be evaluated is no evidence of failure. */
	if (fails < 0)
		fails = 0;
	if (remember(s, BO_TAKE_PTR(keep), fails) < 0)
		return -ENOMEM;
	return fails;
}

/* Delta debugging from the op list the workload starts with, through the search @s. */
static int search(struct search *s, struct bo_shrink_out *out, struct bo_err *err)
{
	const struct bo_shrink_in *in = s->in;
	_cleanup_free_ uint64_t *all = NULL, *min = NULL;
	size_t n = 0, nmin = 0;
	unsigned tests = 0;
	int r;

	r = in->judge->perform(in, NULL, &all, &n, err);
	if (r < 0)
		return r;
	/* The starting point must fail under the candidates' cheaper cut policy too. */
	r = candidate(all, n, s);
	if (r < 0)
		return bo_err_set(err, -r, "running the full op list");
	if (r == 0)
		return bo_err_set(err, ENOENT,
				  "the full op list (%zu ops) shows no %s at its ack cuts: the "
				  "failure does not reproduce when recorded again",
				  n, bo_class_name(in->want));
	r = bo_ddmin(all, n, candidate, s, in->max_tests, &min, &nmin, &tests);
	if (r < 0)
		return bo_err_set(err, -r, "delta debugging");
	out->ops_before = n;
	out->ops_after = nmin;
	out->candidates = s->step;
	out->keep = bo_ids_format(min, nmin);
	return out->keep ? 0 : bo_err_set(err, ENOMEM, "op list");
}

int bo_shrink_ops(const struct bo_shrink_in *in, struct bo_shrink_out *out, struct bo_err *err)
{
	struct search s = {.in = in};
	int r = search(&s, out, err);

	for (size_t i = 0; i < s.nseen; i++)
		free(s.seen[i].ops);
	free(s.seen);
	return r;
}

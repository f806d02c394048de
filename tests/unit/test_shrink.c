// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shrink library with a judge of its own, no VM: delta debugging finds the exact minimal
 * op list of a fake workload (in the form it performs it, each candidate judged once), a
 * failure that does not reproduce, a candidate that cannot be judged or listed; bisection
 * over a synthetic log finds the earliest failing cut.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/log/writer.h"
#include "harness/shrink/shrink.h"
#include "scenarios/blackout-ids.h"

/* The fake workload's ops: op 2k writes the file op 2k-1 creates, and is dropped without it,
 * as blackout-fsops list drops what cannot run. */
#define NOPS 30

struct fake {
	const uint64_t *needs; /* the failure shows when all of these run */
	size_t nneeds;
	uint64_t cut;	     /* bisection: prefix states from this cut on fail */
	uint64_t broken;     /* a candidate with this op, not all, cannot be judged */
	unsigned fail_list;  /* the listing (from 1) that fails (0: none) */
	unsigned lists;	     /* listings made */
	char *tested[512];   /* the op lists tested, in order */
	unsigned ntested;    /* ... how many */
	unsigned reported;   /* steps reported */
	unsigned candidates; /* ... of them candidates judged (a number given) */
	unsigned empty;	     /* ... of them op lists that perform nothing */
	unsigned errors;     /* ... of them that could not be judged */
	unsigned unlisted;   /* ... of them that could not be listed */
	uint64_t probed[64]; /* the cuts probed, in order */
	bool harness_error;  /* every probe's state is a harness error */
	bool probe_unmade;   /* no probe can be made */
};

static bool has(const uint64_t *v, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

/* @keep parsed; "" is no op. */
static void parse(const char *keep, uint64_t **ret, size_t *ret_n)
{
	*ret = NULL;
	*ret_n = 0;
	if (*keep)
		CU_ASSERT_FATAL(bo_ids_parse(keep, NOPS, ret, ret_n) == 0);
}

static int fake_perform(const struct bo_shrink_in *in, const char *keep, uint64_t **ret,
			size_t *ret_n, struct bo_err *err)
{
	struct fake *f = in->ctx;
	bool on[NOPS + 1] = {false};
	uint64_t *asked = NULL, *v = calloc(NOPS, sizeof(*v));
	size_t na = 0, n = 0;

	CU_ASSERT_FATAL(v != NULL);
	if (++f->lists == f->fail_list) {
		free(v);
		return bo_err_set(err, EIO, "blackout-fsops list: exit status 1");
	}
	if (!keep) {
		for (uint64_t id = 1; id <= NOPS; id++)
			on[id] = true;
	} else {
		parse(keep, &asked, &na);
		for (size_t i = 0; i < na; i++)
			on[asked[i]] = true;
		free(asked);
	}
	for (uint64_t id = 1; id <= NOPS; id++)
		if (on[id] && (id % 2 || on[id - 1]))
			v[n++] = id;
	*ret = v;
	*ret_n = n;
	return 0;
}

static int fake_test(const struct bo_shrink_in *in, const char *keep, unsigned n,
		     struct bo_shrink_trial *t)
{
	struct fake *f = in->ctx;
	uint64_t *ids = NULL;
	size_t nids = 0;
	int fails = 1;

	/* Each candidate is judged once, numbered in order, in the form it is performed. */
	for (unsigned i = 0; i < f->ntested; i++)
		CU_ASSERT(strcmp(f->tested[i], keep) != 0);
	CU_ASSERT_FATAL(f->ntested < 512);
	f->tested[f->ntested++] = strdup(keep);
	parse(keep, &ids, &nids);
	CU_ASSERT(nids > 0);
	for (size_t i = 0; i < nids; i++)
		CU_ASSERT(ids[i] % 2 || has(ids, nids, ids[i] - 1));
	for (size_t i = 0; i < f->nneeds; i++)
		if (!has(ids, nids, f->needs[i]))
			fails = 0;
	t->states = nids;
	if (f->broken && has(ids, nids, f->broken) && nids < NOPS)
		fails = bo_err_set(&t->err, EIO, "mkfs failed");
	free(ids);
	return fails;
}

static int fake_probe(const struct bo_shrink_in *in, const struct bo_log *log, uint64_t cut,
		      uint64_t first, unsigned i, struct bo_shrink_trial *t, struct bo_err *err)
{
	struct fake *f = in->ctx;

	CU_ASSERT(log != NULL);
	CU_ASSERT(first >= 1 && first < cut); /* the last cut passing, from the mkfs mark on */
	CU_ASSERT_FATAL(i < 64);
	if (f->probe_unmade)
		return bo_err_set(err, ENOSPC, "no room for a work directory");
	f->probed[i] = cut;
	t->checked = true;
	t->fails = cut >= f->cut;
	t->harness_error = f->harness_error;
	t->states = 1;
	return 0;
}

static const struct bo_shrink_judge fake_judge = {fake_probe, fake_perform, fake_test};

static void fake_report(void *rctx, const struct bo_shrink_step *st)
{
	struct fake *f = rctx;

	f->reported++;
	if (st->phase == BO_SHRINK_BISECT) {
		char id[32];

		snprintf(id, sizeof(id), "c%llu", (unsigned long long) st->cut - 1);
		CU_ASSERT_STRING_EQUAL(st->state, id);
		CU_ASSERT(st->t->fails == (st->cut >= f->cut));
		return;
	}
	if (!st->ops) {
		f->unlisted++;
		CU_ASSERT(strstr(bo_err_str(&st->t->err), "exit status 1") != NULL);
		return;
	}
	CU_ASSERT(st->n == ++f->candidates);
	if (st->op_count == 0) {
		f->empty++;
		CU_ASSERT(!st->t->fails);
		return;
	}
	/* What the test was given and what is reported are one. */
	CU_ASSERT_FATAL(f->ntested > 0);
	CU_ASSERT_STRING_EQUAL(st->ops, f->tested[f->ntested - 1]);
	if (st->t->error < 0) {
		f->errors++;
		CU_ASSERT(!st->t->fails);
		CU_ASSERT_STRING_EQUAL(bo_err_str(&st->t->err), "mkfs failed");
	}
}

static struct bo_shrink_in fake_in(struct fake *f)
{
	return (struct bo_shrink_in){
		.want = BO_CLASS_LOST_ACK,
		.judge = &fake_judge,
		.ctx = f,
		.report = fake_report,
		.rctx = f,
	};
}

static void fake_clear(struct fake *f)
{
	for (unsigned i = 0; i < f->ntested; i++)
		free(f->tested[i]);
}

static const uint64_t needs[] = {7, 12, 20};

static void test_minimal(void)
{
	struct fake f = {.needs = needs, .nneeds = BO_ARRAY_SIZE(needs)};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_shrink_ops(&in, &out, &err) == 0);
	/* Ops 12 and 20 run only after 11 and 19: the minimal list is the one performed. */
	CU_ASSERT_STRING_EQUAL(out.keep, "7,11-12,19-20");
	CU_ASSERT(out.ops_before == NOPS);
	CU_ASSERT(out.ops_after == 5);
	/* The full list first, then the search; every candidate is reported once. */
	CU_ASSERT_FATAL(f.ntested > 1);
	CU_ASSERT_STRING_EQUAL(f.tested[0], "1-30");
	CU_ASSERT(out.candidates == f.candidates);
	CU_ASSERT(f.candidates == f.ntested + f.empty);
	CU_ASSERT(f.reported == f.candidates);
	CU_ASSERT(f.errors == 0 && f.unlisted == 0);
	free(out.keep);
	fake_clear(&f);
}

static void test_limits(void)
{
	struct fake f = {.needs = needs, .nneeds = BO_ARRAY_SIZE(needs)};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};
	uint64_t *ids = NULL;
	size_t n = 0;

	in.max_tests = 16;
	CU_ASSERT_FATAL(bo_shrink_ops(&in, &out, &err) == 0);
	/* The full list, and at most sixteen more: the smallest failing list so far. */
	CU_ASSERT(f.ntested <= 17);
	parse(out.keep, &ids, &n);
	CU_ASSERT(n == out.ops_after && n < NOPS);
	CU_ASSERT(n > 5); /* short of the minimal list */
	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++)
		CU_ASSERT(has(ids, n, needs[i]));
	free(ids);
	free(out.keep);
	fake_clear(&f);
}

static void test_not_reproduced(void)
{
	static const uint64_t never[] = {7, 31}; /* op 31 is not in the workload */
	struct fake f = {.needs = never, .nneeds = BO_ARRAY_SIZE(never)};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	CU_ASSERT(bo_shrink_ops(&in, &out, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "the full op list (30 ops) shows no lost-ack") != NULL);
	CU_ASSERT(f.ntested == 1 && out.keep == NULL);
	fake_clear(&f);
}

static void test_unjudged(void)
{
	struct fake f = {.needs = needs, .nneeds = BO_ARRAY_SIZE(needs), .broken = 3};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	/* A candidate that cannot be judged passes: the search goes on without it. */
	CU_ASSERT_FATAL(bo_shrink_ops(&in, &out, &err) == 0);
	CU_ASSERT(f.errors > 0);
	CU_ASSERT_STRING_EQUAL(out.keep, "7,11-12,19-20");
	free(out.keep);
	fake_clear(&f);
}

static void test_unlisted(void)
{
	struct fake f = {.needs = needs, .nneeds = BO_ARRAY_SIZE(needs), .fail_list = 3};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	/* A candidate whose ops cannot be listed stops the search, and is reported. */
	CU_ASSERT(bo_shrink_ops(&in, &out, &err) == -ENOMEM);
	CU_ASSERT_STRING_EQUAL(err.msg, "delta debugging");
	CU_ASSERT(f.unlisted == 1 && out.keep == NULL);
	fake_clear(&f);
	/* The op list at the start: its own error. */
	f = (struct fake){.needs = needs, .nneeds = BO_ARRAY_SIZE(needs), .fail_list = 1};
	CU_ASSERT(bo_shrink_ops(&in, &out, &err) == -EIO);
	CU_ASSERT_STRING_EQUAL(err.msg, "blackout-fsops list: exit status 1");
	CU_ASSERT(f.reported == 0);
}

/* A log of a mkfs mark (entry 0) and 63 writes: prefix cuts 1 to 64. */
static const char *sample_log(void)
{
	const char *p = bo_test_path("shrink.log");
	struct bo_log_writer *w;
	struct bo_err err = {0};
	char blk[512] = {1};

	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_writer_mark(w, "mkfs", &err) == 0);
	for (uint64_t i = 1; i < 64; i++)
		CU_ASSERT_FATAL(bo_log_writer_add(w, i, 1, 0, blk, &err) == (int64_t) i);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	return p;
}

static void test_bisect(void)
{
	struct fake f = {.cut = 40};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	in.log = sample_log();
	in.state = "c63";
	CU_ASSERT_FATAL(bo_shrink_bisect(&in, &out, &err) == 0);
	CU_ASSERT(out.cut == 40);
	CU_ASSERT(out.probes == 6 && f.reported == 6);
	CU_ASSERT(f.probed[0] == 32 && f.probed[1] == 48);
	/* Past the known failure: that it fails is taken as given, and never probed. */
	in.state = "c38";
	f = (struct fake){.cut = 40};
	CU_ASSERT_FATAL(bo_shrink_bisect(&in, &out, &err) == 0);
	CU_ASSERT(out.cut == 39);
}

static void test_bisect_errors(void)
{
	struct fake f = {.cut = 40};
	struct bo_shrink_in in = fake_in(&f);
	struct bo_shrink_out out = {0};
	struct bo_err err = {0};

	in.log = sample_log();
	in.state = "c5-d3";
	CU_ASSERT(bo_shrink_bisect(&in, &out, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "is not a prefix state") != NULL);
	in.state = "c0";
	CU_ASSERT(bo_shrink_bisect(&in, &out, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "not after the mkfs mark") != NULL);
	/* A probe the harness could not evaluate stops the search: it is recorded first. */
	in.state = "c63";
	f.harness_error = true;
	CU_ASSERT(bo_shrink_bisect(&in, &out, &err) == -EIO);
	CU_ASSERT_STRING_EQUAL(err.msg, "probing state c31: harness error");
	CU_ASSERT(f.reported == 1);
	/* One that could not be made is not recorded. */
	f = (struct fake){.cut = 40, .probe_unmade = true};
	CU_ASSERT(bo_shrink_bisect(&in, &out, &err) == -ENOSPC);
	CU_ASSERT(f.reported == 0);
	CU_ASSERT(out.cut == 0 && out.probes == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"ddmin finds the exact minimal op list as performed", test_minimal},
		{"ddmin stops at its limit with a failing list", test_limits},
		{"a failure that does not reproduce is an error", test_not_reproduced},
		{"a candidate that cannot be judged counts as passing", test_unjudged},
		{"a candidate that cannot be listed stops the search", test_unlisted},
		{"bisection finds the earliest failing cut", test_bisect},
		{"bisection errors", test_bisect_errors},
		{NULL, NULL},
	};

	return bo_test_run("shrink", tests);
}

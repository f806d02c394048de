// SPDX-License-Identifier: GPL-2.0-or-later
/* The crash-state generator: epochs, counts, order, sampling, torn writes and state ids. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/states/crashgen.h"
#include "harness/log/writer.h"

/*
 * A log from space-separated items: "W<n>" a plain write of n blocks (n defaults to 1), "U<n>"
 * a FUA write, "D<n>" a discard, "P<n>" a FLUSH-flagged write (a preflush write), "Q<n>" a
 * FLUSH- and FUA-flagged one, "F" a pure flush, "M" a mark; blocks of @ss bytes.
 */
static struct bo_log *log_ss(const char *items, uint32_t ss)
{
	const char *p = bo_test_path("crashgen.log");
	static char blk[64 * 4096];
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	char *copy = strdup(items), *save = NULL;
	unsigned marks = 0;

	CU_ASSERT_FATAL(copy != NULL);
	CU_ASSERT_FATAL(bo_log_writer_new(p, ss, &w, &err) == 0);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		uint64_t nr = t[1] ? strtoull(t + 1, NULL, 10) : 1;
		int64_t r;
		char name[32];

		CU_ASSERT_FATAL(nr <= 64);
		switch (t[0]) {
		case 'W':
			r = bo_log_writer_add(w, 8, nr, 0, blk, &err);
			break;
		case 'U':
			r = bo_log_writer_add(w, 8, nr, BO_LOG_FUA, blk, &err);
			break;
		case 'D':
			r = bo_log_writer_add(w, 8, nr, BO_LOG_DISCARD, NULL, &err);
			break;
		case 'P':
			r = bo_log_writer_add(w, 8, nr, BO_LOG_FLUSH, blk, &err);
			break;
		case 'Q':
			r = bo_log_writer_add(w, 8, nr, BO_LOG_FLUSH | BO_LOG_FUA, blk, &err);
			break;
		case 'F':
			r = bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
			break;
		default:
			snprintf(name, sizeof(name), "m%u", marks++);
			r = bo_log_writer_mark(w, name, &err);
			break;
		}
		CU_ASSERT_FATAL(r >= 0);
	}
	free(copy);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	return log;
}

static struct bo_log *log_of(const char *items)
{
	return log_ss(items, 512);
}

/* Every cut 0..count. */
static struct bo_cuts all_cuts(const struct bo_log *log)
{
	struct bo_cuts c = {.n = bo_log_count(log) + 1};

	c.v = calloc(c.n, sizeof(*c.v));
	CU_ASSERT_FATAL(c.v != NULL);
	for (size_t i = 0; i < c.n; i++)
		c.v[i] = i;
	return c;
}

static uint64_t choose(uint64_t n, uint64_t k)
{
	uint64_t c = 1;

	if (k > n)
		return 0;
	for (uint64_t i = 0; i < k; i++)
		c = c * (n - i) / (i + 1);
	return c;
}

/* Droppable and multi-block droppable entries at @cut, counted independently of crashgen. */
static void epoch_counts(const struct bo_log *log, uint64_t cut, uint64_t *n, uint64_t *nm)
{
	*n = *nm = 0;
	for (uint64_t e = 0; e < cut; e++) {
		const struct bo_log_entry *le = bo_log_entry(log, e);

		if (le->flags & BO_LOG_FLUSH)
			*n = *nm = 0;
		else if (le->nr_sectors && !(le->flags & (BO_LOG_FUA | BO_LOG_MARK))) {
			(*n)++;
			*nm += le->nr_sectors >= 2;
		}
	}
}

/* Canonical order of two states of the same cut: prefix, then by size, lex; torn last. */
static int state_cmp(const struct bo_crash_state *a, const struct bo_crash_state *b)
{
	if (a->torn != b->torn)
		return a->torn ? 1 : -1;
	if (a->torn)
		return a->torn_entry < b->torn_entry ? -1 : a->torn_entry > b->torn_entry;
	if (a->n_dropped != b->n_dropped)
		return a->n_dropped < b->n_dropped ? -1 : 1;
	for (unsigned i = 0; i < a->n_dropped; i++)
		if (a->dropped[i] != b->dropped[i])
			return a->dropped[i] < b->dropped[i] ? -1 : 1;
	return 0;
}

static bool state_eq(const struct bo_crash_state *a, const struct bo_crash_state *b)
{
	return a->cut == b->cut && a->epoch_start == b->epoch_start && !state_cmp(a, b) &&
	       a->torn_keep == b->torn_keep;
}

/* All the states of a generator, checked for shape on the way. */
static struct bo_crash_state *collect(const struct bo_log *log, const struct bo_cuts *cuts,
				      const struct bo_crashgen_opts *o, size_t *ret_n)
{
	struct bo_crashgen *g;
	struct bo_err err = {0};
	struct bo_crash_state *v = NULL, s;
	size_t n = 0, cap = 0;
	int r;

	CU_ASSERT_FATAL(bo_crashgen_new(log, cuts, o, &g, &err) == 0);
	while ((r = bo_crashgen_next(g, &s)) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
			CU_ASSERT_FATAL(v != NULL);
		}
		CU_ASSERT(s.epoch_start == bo_crash_epoch_start(log, o, s.cut));
		for (unsigned i = 0; i < s.n_dropped; i++) {
			CU_ASSERT(s.dropped[i] >= s.epoch_start && s.dropped[i] < s.cut);
			CU_ASSERT(bo_crash_droppable(o, bo_log_entry(log, s.dropped[i])));
			CU_ASSERT(i == 0 || s.dropped[i] > s.dropped[i - 1]);
		}
		CU_ASSERT(s.n_dropped <= o->reorder_k);
		if (n > 0 && v[n - 1].cut == s.cut) {
			CU_ASSERT(state_cmp(&v[n - 1], &s) < 0);
		} else {
			/* The prefix state comes first. */
			CU_ASSERT(s.n_dropped == 0 && !s.torn);
		}
		v[n++] = s;
	}
	CU_ASSERT(r == 0);
	CU_ASSERT(n == bo_crashgen_count(g));
	bo_crashgen_free(g);
	*ret_n = n;
	return v;
}

static void test_epochs(void)
{
	/* 0:W 1:W3 2:F 3:W 4:U 5:D4 6:M 7:W2 8:P2 9:W */
	struct bo_log *log = log_of("W W3 F W U D4 M W2 P2 W");
	static const uint64_t start[] = {0, 0, 0, 3, 3, 3, 3, 3, 3, 9, 9};
	static const bool droppable[] = {1, 1, 0, 1, 0, 1, 0, 1, 0, 1};

	for (uint64_t c = 0; c <= 10; c++)
		CU_ASSERT(bo_crash_epoch_start(log, NULL, c) == start[c]);
	for (uint64_t e = 0; e < 10; e++)
		CU_ASSERT(bo_crash_droppable(NULL, bo_log_entry(log, e)) == droppable[e]);
	bo_log_free(log);
}

/* Counts match sum over cuts of sum_{k <= K} C(n, k) (+ multi-block entries when torn). */
static void check_counts(const char *items)
{
	struct bo_log *log = log_of(items);
	struct bo_cuts cuts = all_cuts(log);

	for (unsigned k = 0; k <= 4; k++) {
		for (int torn = 0; torn <= 1; torn++) {
			struct bo_crashgen_opts o = {.reorder_k = k, .torn = torn, .seed = 7};
			uint64_t want = 0;
			struct bo_crash_state *v;
			size_t n;

			for (size_t i = 0; i < cuts.n; i++) {
				uint64_t d, dm;

				epoch_counts(log, cuts.v[i], &d, &dm);
				for (unsigned j = 0; j <= k; j++)
					want += choose(d, j);
				want += torn ? dm : 0;
			}
			v = collect(log, &cuts, &o, &n);
			CU_ASSERT(n == want);
			free(v);
		}
	}
	bo_cuts_clear(&cuts);
	bo_log_free(log);
}

static void test_counts(void)
{
	check_counts("W W3 F W U D4 M W2 P2 W");
	check_counts("W W W W W W F W W");
	check_counts("M W2 W D2 W U W3 M W F F W4 W W U2 D1");
	check_counts("F F M U U");
	check_counts("W5 W W2 W W P1 W W W W W W W W M");
}

static void test_prefix_only(void)
{
	struct bo_log *log = log_of("W W3 F W U D4 M W2 P2 W");
	struct bo_cuts cuts = {.v = (uint64_t[]){0, 2, 3, 8, 10}, .n = 5};
	struct bo_crashgen_opts o = {.seed = 1};
	struct bo_crash_state *v;
	size_t n;

	v = collect(log, &cuts, &o, &n);
	CU_ASSERT_FATAL(n == cuts.n);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(v[i].cut == cuts.v[i] && v[i].n_dropped == 0 && !v[i].torn);
	free(v);
	bo_log_free(log);
}

/* Is every state of @a in @b, in the same order? */
static bool ordered_subset(const struct bo_crash_state *a, size_t na,
			   const struct bo_crash_state *b, size_t nb)
{
	size_t j = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nb && !state_eq(&a[i], &b[j]))
			j++;
		if (j == nb)
			return false;
		j++;
	}
	return true;
}

static void test_sampling(void)
{
	/* 12 droppable writes after a flush, a FUA among them: 12 + 66 + 220 = 298 subsets. */
	struct bo_log *log = log_of("W F W W W W U W W W W W W W W");
	struct bo_cuts cuts = {.v = (uint64_t[]){1, 8, 15}, .n = 3};
	struct bo_crashgen_opts full = {.reorder_k = 3, .seed = 42};
	struct bo_crashgen_opts o = full;
	struct bo_crash_state *all, *a, *b, *c;
	size_t n_all, na, nb, nc;

	all = collect(log, &cuts, &full, &n_all);
	CU_ASSERT(n_all == (1 + 1) + (1 + 5 + 10 + 10) + (1 + 298));

	o.budget = 50;
	a = collect(log, &cuts, &o, &na);
	/* The first two cuts fit the budget; the last one is sampled: prefix + 50. */
	CU_ASSERT(na == 2 + 26 + 51);
	CU_ASSERT(ordered_subset(a, na, all, n_all));
	CU_ASSERT(a[28].cut == 15 && a[28].n_dropped == 0);

	b = collect(log, &cuts, &o, &nb);
	CU_ASSERT(nb == na && !memcmp(a, b, na * sizeof(*a)));
	o.seed = 43;
	c = collect(log, &cuts, &o, &nc);
	CU_ASSERT(nc == na && memcmp(a, c, na * sizeof(*a)));
	CU_ASSERT(ordered_subset(c, nc, all, n_all));
	free(b);
	free(c);

	/* One below the count: every rank but one is unranked, in order. */
	o.budget = 297;
	c = collect(log, &cuts, &o, &nc);
	CU_ASSERT(nc == n_all - 1 && ordered_subset(c, nc, all, n_all));
	free(c);
	/* At the count: no sampling, the full enumeration. */
	o.budget = 298;
	c = collect(log, &cuts, &o, &nc);
	CU_ASSERT(nc == n_all && !memcmp(c, all, nc * sizeof(*c)));
	free(c);
	free(a);
	free(all);
	bo_log_free(log);
}

/* An epoch too big to enumerate: counting fails without a budget and samples with one. */
static void test_big_epoch(void)
{
	char *items = malloc(3000 * 2 + 1);
	struct bo_log *log;
	struct bo_cuts cuts = {.v = (uint64_t[]){2999, 3000}, .n = 2};
	struct bo_crashgen_opts o = {.reorder_k = 8, .seed = 5};
	struct bo_crashgen *g;
	struct bo_err err = {0};
	struct bo_crash_state *v;
	size_t n;

	CU_ASSERT_FATAL(items != NULL);
	for (int i = 0; i < 3000; i++)
		memcpy(items + 2 * i, "W ", 2);
	items[2 * 3000 - 1] = '\0';
	log = log_of(items);
	free(items);
	CU_ASSERT(bo_crashgen_new(log, &cuts, &o, &g, &err) == -EOVERFLOW);
	CU_ASSERT(strstr(err.msg, "set a budget") != NULL);
	o.budget = 100;
	v = collect(log, &cuts, &o, &n);
	CU_ASSERT(n == 2 * 101);
	/* Sizes 1..7 hold a vanishing share of C(3000, <=8): nearly all samples drop 8. */
	CU_ASSERT(v[100].n_dropped == 8 && v[201].n_dropped == 8);
	free(v);
	bo_log_free(log);
}

static void test_torn(void)
{
	/* 0:W3 1:W 2:D4 3:U3 4:W64 5:F 6:W2 7:P2 8:W40 */
	struct bo_log *log = log_of("W3 W D4 U3 W64 F W2 P2 W40");
	struct bo_cuts cuts = all_cuts(log);
	struct bo_crashgen_opts o = {.torn = true, .seed = 11};
	struct bo_crash_state *a, *b;
	uint64_t keep[9] = {0};
	size_t na, nb, torn = 0;
	bool differs = false;

	a = collect(log, &cuts, &o, &na);
	for (size_t i = 0; i < na; i++) {
		const struct bo_log_entry *le;

		if (!a[i].torn)
			continue;
		torn++;
		CU_ASSERT(a[i].n_dropped == 0);
		CU_ASSERT_FATAL(a[i].torn_entry < 9);
		le = bo_log_entry(log, a[i].torn_entry);
		CU_ASSERT(bo_crash_droppable(NULL, le) && le->nr_sectors >= 2);
		CU_ASSERT(a[i].torn_keep >= 1 && a[i].torn_keep < le->nr_sectors);
		/* The same entry tears at the same place at every cut. */
		CU_ASSERT(!keep[a[i].torn_entry] || keep[a[i].torn_entry] == a[i].torn_keep);
		keep[a[i].torn_entry] = a[i].torn_keep;
	}
	/* cuts 1, 2: W3; 3, 4: W3 D4; 5: W3 D4 W64; 6: -; 7: W2; 8: -; 9: W40 */
	CU_ASSERT(torn == 1 + 1 + 2 + 2 + 3 + 0 + 1 + 0 + 1);
	CU_ASSERT(keep[0] && keep[2] && keep[4] && keep[6] && keep[8]);
	CU_ASSERT(!keep[1] && !keep[3] && !keep[5] && !keep[7]);

	o.seed = 12;
	b = collect(log, &cuts, &o, &nb);
	CU_ASSERT(nb == na);
	for (size_t i = 0; i < nb; i++) {
		CU_ASSERT(b[i].torn == a[i].torn && b[i].torn_entry == a[i].torn_entry);
		differs |= b[i].torn_keep != a[i].torn_keep;
	}
	CU_ASSERT(differs);
	free(b);
	o.seed = 11;
	b = collect(log, &cuts, &o, &nb);
	CU_ASSERT(nb == na && !memcmp(a, b, na * sizeof(*a)));
	free(b);

	/* Torn states follow the reorder states of their cut. */
	o.reorder_k = 2;
	free(a);
	a = collect(log, &cuts, &o, &na);
	CU_ASSERT(na > 0);
	free(a);
	bo_cuts_clear(&cuts);
	bo_log_free(log);
}

static void test_id_roundtrip(void)
{
	struct bo_log *log = log_of("W3 W D4 U3 W64 F W2 P2 W40 M W W2");
	struct bo_cuts cuts = all_cuts(log);
	struct bo_crashgen_opts o = {.reorder_k = 3, .torn = true, .seed = 3};
	struct bo_crash_state *v, s;
	struct bo_err err = {0};
	size_t n, forms[3] = {0};
	char id[BO_CRASH_ID_MAX];

	v = collect(log, &cuts, &o, &n);
	for (size_t i = 0; i < n; i++) {
		bo_crash_state_id(&v[i], id, sizeof(id));
		CU_ASSERT_FATAL(bo_crash_state_parse(log, NULL, id, &s, &err) == 0);
		CU_ASSERT(state_eq(&s, &v[i]));
		forms[v[i].torn ? 2 : v[i].n_dropped ? 1 : 0]++;
	}
	CU_ASSERT(forms[0] == cuts.n && forms[1] > 0 && forms[2] > 0);

	s = (struct bo_crash_state){.cut = 12, .n_dropped = 2, .dropped = {10, 11}};
	bo_crash_state_id(&s, id, sizeof(id));
	CU_ASSERT_STRING_EQUAL(id, "c11-d10,11");
	s = (struct bo_crash_state){.cut = 5, .torn = true, .torn_entry = 2, .torn_keep = 3};
	bo_crash_state_id(&s, id, sizeof(id));
	CU_ASSERT_STRING_EQUAL(id, "c4-t2:3");
	s = (struct bo_crash_state){0};
	bo_crash_state_id(&s, id, sizeof(id));
	CU_ASSERT_STRING_EQUAL(id, "c-start");

	CU_ASSERT(bo_crash_state_parse(log, NULL, "c4-t2:3", &s, &err) == 0);
	CU_ASSERT(s.cut == 5 && s.torn && s.torn_entry == 2 && s.torn_keep == 3 &&
		  s.epoch_start == 0 && s.n_dropped == 0);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c11-d10,11", &s, &err) == 0);
	CU_ASSERT(s.cut == 12 && s.epoch_start == 8 && s.n_dropped == 2 && s.dropped[0] == 10 &&
		  s.dropped[1] == 11);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c-start", &s, &err) == 0 && s.cut == 0);
	free(v);
	bo_cuts_clear(&cuts);
	bo_log_free(log);
}

static void bad_id(const struct bo_log *log, const char *id, int errnum, const char *msg)
{
	struct bo_crash_state s = {.cut = 777};
	struct bo_err err = {0};

	CU_ASSERT(bo_crash_state_parse(log, NULL, id, &s, &err) == -errnum);
	CU_ASSERT(s.cut == 777);
	CU_ASSERT(strstr(err.msg, id) != NULL);
	if (!strstr(err.msg, msg))
		fprintf(stderr, "id '%s': message '%s' lacks '%s'\n", id, err.msg, msg);
	CU_ASSERT(strstr(err.msg, msg) != NULL);
}

static void test_bad_ids(void)
{
	/* 0:W3 1:W 2:D4 3:U3 4:W64 5:F 6:W2 7:P2 8:W40 9:M 10:W 11:W2 */
	struct bo_log *log = log_of("W3 W D4 U3 W64 F W2 P2 W40 M W W2");

	bad_id(log, "", EINVAL, "expected c<entry>");
	bad_id(log, "x12", EINVAL, "expected c<entry>");
	bad_id(log, "c", EINVAL, "expected c<entry>");
	bad_id(log, "c01", EINVAL, "expected c<entry>");
	bad_id(log, "c+1", EINVAL, "expected c<entry>");
	bad_id(log, "c18446744073709551615", EINVAL, "expected c<entry>");
	bad_id(log, "c99999999999999999999", EINVAL, "expected c<entry>");
	bad_id(log, "c12", ERANGE, "past the end");
	bad_id(log, "c4-", EINVAL, "unexpected '-'");
	bad_id(log, "c4x", EINVAL, "unexpected 'x'");
	bad_id(log, "c4-d", EINVAL, "expected c<entry>");
	bad_id(log, "c4-d1,", EINVAL, "expected c<entry>");
	bad_id(log, "c4-d1-t0:1", EINVAL, "unexpected '-t0:1'");
	bad_id(log, "c4-d2,1", EINVAL, "ascending without repeats");
	bad_id(log, "c4-d1,1", EINVAL, "ascending without repeats");
	bad_id(log, "c4-d0,1,2,4,5,6,7,8,9", EINVAL, "more than 8 dropped entries");
	bad_id(log, "c4-d5", EINVAL, "not before the cut");
	bad_id(log, "c4-d3", EINVAL, "never lost");
	bad_id(log, "c8-d7", EINVAL, "is durable");
	bad_id(log, "c10-d9", EINVAL, "never lost");
	bad_id(log, "c11-d1", EINVAL, "is durable");
	bad_id(log, "c11-d4", EINVAL, "epoch starts at entry 8");
	bad_id(log, "c-start-d0", EINVAL, "not before the cut");
	bad_id(log, "c4-t2", EINVAL, "expected c<entry>");
	bad_id(log, "c4-t2:", EINVAL, "expected c<entry>");
	bad_id(log, "c4-t2:0", EINVAL, "tears after 1..3 blocks");
	bad_id(log, "c4-t2:4", EINVAL, "tears after 1..3 blocks");
	bad_id(log, "c4-t1:1", EINVAL, "cannot tear");
	bad_id(log, "c4-t3:1", EINVAL, "never lost");
	bad_id(log, "c6-t0:1", EINVAL, "is durable");
	bad_id(log, "c4-t2:1,3", EINVAL, "unexpected ',3'");
	bo_log_free(log);
}

/*
 * Two devices in one log (harness/log/layout.h): "a" at 512-byte sectors 2048.., "b" at
 * 4096... Items: "aW"/"bW" a plain write to a or b, "aF"/"bF" a flush that went to a or b,
 * "F" a flush the kernel left at sector 0 (no device's), "M" a mark.
 */
static struct bo_log *two_devices(const char *items)
{
	const char *p = bo_test_path("two.log");
	static char blk[512];
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	char *copy = strdup(items), *save = NULL;

	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_writer_mark(w, "layout:a=raw@2048+2048,b=raw@4096+2048", &err) >= 0);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		uint64_t at = t[0] == 'a' ? 2048 : t[0] == 'b' ? 4096 : 0;
		char kind = t[0] == 'a' || t[0] == 'b' ? t[1] : t[0];
		int64_t r = kind == 'W'	  ? bo_log_writer_add(w, at + 8, 1, 0, blk, &err)
			    : kind == 'F' ? bo_log_writer_add(w, at, 0, BO_LOG_FLUSH, NULL, &err)
					  : bo_log_writer_mark(w, "m", &err);

		CU_ASSERT_FATAL(r >= 0);
	}
	free(copy);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	return log;
}

/* A flush makes its own device's writes durable, not the other's. */
static void test_two_devices(void)
{
	/* 0:layout 1:aW 2:bW 3:aF 4:bW 5:M 6:bF 7:aW 8:bW 9:F 10:aW */
	struct bo_log *log = two_devices("aW bW aF bW M bF aW bW F aW");
	static const uint64_t start[] = {0, 0, 0, 0, 2, 2, 2, 7, 7, 7, 10, 10};
	/* The droppable entries at each cut (after so many entries). */
	static const char *const drop[] = {"",	  "", "1", "1,2", "2", "2,4",
					   "2,4", "", "7", "7,8", "",  "10"};
	struct bo_cuts cuts = all_cuts(log);
	struct bo_crashgen_opts o = {.reorder_k = 2};
	struct bo_crash_state *v, st;
	struct bo_err err = {0};
	size_t n;

	CU_ASSERT(bo_log_layout(log)->n == 2);
	for (uint64_t c = 0; c <= 11; c++)
		CU_ASSERT(bo_crash_epoch_start(log, NULL, c) == start[c]);
	v = collect(log, &cuts, &o, &n);
	for (uint64_t c = 0; c <= 11; c++) {
		char seen[64] = "";

		/* The one-entry dropped sets of cut c, in order: its droppable entries. */
		for (size_t i = 0; i < n; i++)
			if (v[i].cut == c && v[i].n_dropped == 1)
				snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
					 "%s%" PRIu64, seen[0] ? "," : "", v[i].dropped[0]);
		CU_ASSERT(!strcmp(seen, drop[c]));
	}
	free(v);
	/* After a's flush (entry 3) b's write 2 may still be lost, a's write 1 not. */
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c4-d2,4", &st, &err) == 0 &&
		  st.epoch_start == 2);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c4-d1", &st, &err) == -EINVAL);
	/* A flush of no device closes every epoch. */
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c8-d7,8", &st, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c9-d7", &st, &err) == -EINVAL);
	free(cuts.v);
	bo_log_free(log);
	/* 1:bW 2:aW 3:aF: the epoch reaches back to b's write, a's stays durable. */
	log = two_devices("bW aW aF");
	CU_ASSERT(bo_crash_epoch_start(log, NULL, 4) == 1);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c3-d1", &st, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, NULL, "c3-d2", &st, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "a flush of its device follows at entry 3") != NULL);
	bo_log_free(log);
}

static void test_bad_opts(void)
{
	struct bo_log *log = log_of("W W F W");
	struct bo_cuts unsorted = {.v = (uint64_t[]){3, 2}, .n = 2};
	struct bo_cuts past = {.v = (uint64_t[]){5}, .n = 1};
	struct bo_crashgen_opts o = {.reorder_k = BO_CRASH_MAX_DROP + 1};
	struct bo_crashgen *g = NULL;
	struct bo_err err = {0};

	CU_ASSERT(bo_crashgen_new(log, &past, &o, &g, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "reorder:9") != NULL);
	o.reorder_k = 1;
	CU_ASSERT(bo_crashgen_new(log, &past, &o, &g, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "past the log or out of order") != NULL);
	CU_ASSERT(bo_crashgen_new(log, &unsorted, &o, &g, &err) == -EINVAL);
	CU_ASSERT(g == NULL);
	bo_crashgen_free(NULL);
	bo_log_free(log);
}

/* Each persona's rules, and its generated states parse back to themselves under it. */
static void test_personas(void)
{
	/* 0 M, 1 W, 2 W2, 3 F, 4 W, 5 U, 6 Q2, 7 W, 8 F, 9 W, 10 W16 (sectors 8..23) */
	struct bo_log *log = log_of("M W W2 F W U Q2 W F W W16"), *big;
	struct bo_cuts cuts = all_cuts(log);
	struct bo_crashgen_opts o[BO_PERSONA_COUNT];
	struct bo_crash_state *v, s;
	struct bo_err err = {0};
	enum bo_persona p;
	char id[BO_CRASH_ID_MAX];
	size_t n;

	for (unsigned i = 0; i < BO_PERSONA_COUNT; i++) {
		o[i] = (struct bo_crashgen_opts){
			.reorder_k = 2, .torn = true, .seed = 9, .floor = 1};
		o[i].persona = (enum bo_persona) i;
		CU_ASSERT(bo_persona_parse(bo_persona_name(o[i].persona), &p) == 0 && p == i);
		v = collect(log, &cuts, &o[i], &n);
		for (size_t k = 0; k < n; k++) {
			bo_crash_state_id(&v[k], id, sizeof(id));
			CU_ASSERT_FATAL(bo_crash_state_parse(log, &o[i], id, &s, &err) == 0);
			CU_ASSERT(state_eq(&s, &v[k]) && s.torn_bytes == v[k].torn_bytes);
		}
		free(v);
	}
	CU_ASSERT(bo_persona_parse("lying", &p) == -EINVAL);
	/* ignores-fua: a FLUSH|FUA write is droppable (its flush covers only what came before). */
	CU_ASSERT(bo_crash_epoch_start(log, &o[BO_PERSONA_HONEST], 8) == 7);
	CU_ASSERT(bo_crash_epoch_start(log, &o[BO_PERSONA_IGNORES_FUA], 8) == 6);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_IGNORES_FUA], "c7-d6", &s, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_IGNORES_FUA], "c7-d5", &s, &err) < 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_HONEST], "c7-d6", &s, &err) < 0);
	/* lost-flush: back to the second last flush. */
	CU_ASSERT(bo_crash_epoch_start(log, &o[BO_PERSONA_LOST_FLUSH], 8) == 4);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_LOST_FLUSH], "c7-d4,7", &s, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_LOST_FLUSH], "c7-d2", &s, &err) < 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_HONEST], "c7-d4", &s, &err) < 0);
	/* ignores-flush: everything after the floor, FUA writes still durable. */
	CU_ASSERT(bo_crash_epoch_start(log, &o[BO_PERSONA_IGNORES_FLUSH], 11) == 1);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_IGNORES_FLUSH], "c10-d1,4", &s, &err) ==
		  0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_IGNORES_FLUSH], "c10-d5", &s, &err) < 0);
	CU_ASSERT(bo_crash_epoch_start(log, &o[BO_PERSONA_HONEST], 11) == 9);
	/* atomic-4k on 512-byte blocks: entry 10 tears only at sector 16, W2 never. */
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_ATOMIC_4K], "c10-t10:8", &s, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_ATOMIC_4K], "c10-t10:3", &s, &err) < 0);
	CU_ASSERT(strstr(err.msg, "tears after 8..8 blocks") != NULL);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_HONEST], "c10-t10:3", &s, &err) == 0);
	CU_ASSERT(bo_crash_state_parse(log, &o[BO_PERSONA_ATOMIC_4K], "c2-t2:1", &s, &err) < 0);
	free(cuts.v);
	bo_log_free(log);

	/* atomic-512 on 4 KiB blocks: a single block tears, in bytes. */
	big = log_ss("M W", 4096);
	CU_ASSERT(bo_crash_state_parse(big, &o[BO_PERSONA_ATOMIC_512], "c1-t1:1536B", &s, &err) ==
		  0);
	CU_ASSERT(s.torn && s.torn_bytes && bo_crash_torn_bytes(big, &s) == 1536);
	bo_crash_state_id(&s, id, sizeof(id));
	CU_ASSERT_STRING_EQUAL(id, "c1-t1:1536B");
	CU_ASSERT(bo_crash_state_parse(big, &o[BO_PERSONA_ATOMIC_512], "c1-t1:1", &s, &err) < 0);
	CU_ASSERT(bo_crash_state_parse(big, &o[BO_PERSONA_ATOMIC_512], "c1-t1:1000B", &s, &err) <
		  0);
	CU_ASSERT(bo_crash_state_parse(big, &o[BO_PERSONA_HONEST], "c1-t1:1536B", &s, &err) < 0);
	cuts = all_cuts(big);
	v = collect(big, &cuts, &o[BO_PERSONA_ATOMIC_512], &n);
	/* 3 prefixes, one dropped, one torn */
	CU_ASSERT(n == 5 && v[n - 1].torn && v[n - 1].torn_bytes);
	free(v);
	free(cuts.v);
	bo_log_free(big);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"epochs", test_epochs},
		{"counts", test_counts},
		{"prefix_only", test_prefix_only},
		{"sampling", test_sampling},
		{"big_epoch", test_big_epoch},
		{"torn", test_torn},
		{"id_roundtrip", test_id_roundtrip},
		{"bad_ids", test_bad_ids},
		{"bad_opts", test_bad_opts},
		{"two devices", test_two_devices},
		{"device personas", test_personas},
		{NULL, NULL},
	};

	return bo_test_run("crashgen", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Crash states that coincide: overwritten drops, identical data, torn blocks, marks, epochs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/states/crashdedup.h"
#include "harness/states/crashgen.h"
#include "harness/states/cutsel.h"
#include "harness/log/writer.h"

/*
 * A log from space-separated items: "W<sector>:<blocks>:<c>" a plain write of blocks filled
 * with byte c ('0' writes zeros), "D<sector>:<blocks>" a discard, "F" a flush, "I" an issue:
 * mark, "A" an ack: mark, "M" another mark.
 */
static struct bo_log *log_of(const char *items)
{
	const char *p = bo_test_path("dedup.log");
	static char blk[16 * 512];
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	char *copy = strdup(items), *save = NULL;
	unsigned marks = 0;

	CU_ASSERT_FATAL(copy != NULL);
	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		unsigned long long sector = 0, nr = 0;
		char c = 0, name[32];
		int64_t r;

		switch (t[0]) {
		case 'W':
			CU_ASSERT_FATAL(sscanf(t + 1, "%llu:%llu:%c", &sector, &nr, &c) == 3);
			CU_ASSERT_FATAL(nr <= 16);
			memset(blk, c == '0' ? 0 : c, sizeof(blk));
			r = bo_log_writer_add(w, sector, nr, 0, blk, &err);
			break;
		case 'D':
			CU_ASSERT_FATAL(sscanf(t + 1, "%llu:%llu", &sector, &nr) == 2);
			r = bo_log_writer_add(w, sector, nr, BO_LOG_DISCARD, NULL, &err);
			break;
		case 'F':
			r = bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
			break;
		default:
			snprintf(name, sizeof(name), "%s%u",
				 t[0] == 'I'   ? "issue:"
				 : t[0] == 'A' ? "ack:"
					       : "m",
				 marks++);
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

/*
 * Generate the states of @items at @cut (0: every cut) under @k and @torn and de-duplicate them
 * in order. Returns "id id=rep ..." (an alias as id=its representative) in a static buffer and
 * the number of aliases in *@ret_aliases.
 */
static const char *dedup(const char *items, uint64_t cut, unsigned k, bool torn,
			 unsigned *ret_aliases)
{
	static char out[8192];
	struct bo_log *log = log_of(items);
	struct bo_crashgen_opts o = {.reorder_k = k, .torn = torn, .seed = 7};
	struct bo_cuts cuts = {0};
	struct bo_crashgen *g;
	struct bo_crashdedup *d;
	struct bo_crash_state s;
	struct bo_err err = {0};
	size_t off = 0;
	int r;

	if (cut) {
		cuts.n = 1;
		cuts.v = malloc(sizeof(*cuts.v));
		CU_ASSERT_FATAL(cuts.v != NULL);
		cuts.v[0] = cut;
	} else {
		cuts.n = bo_log_count(log) + 1;
		cuts.v = calloc(cuts.n, sizeof(*cuts.v));
		CU_ASSERT_FATAL(cuts.v != NULL);
		for (size_t i = 0; i < cuts.n; i++)
			cuts.v[i] = i;
	}
	*ret_aliases = 0;
	out[0] = '\0';
	CU_ASSERT_FATAL(bo_crashgen_new(log, &cuts, &o, &g, &err) == 0);
	CU_ASSERT_FATAL(bo_crashdedup_new(log, &d, &err) == 0);
	while ((r = bo_crashgen_next(g, &s)) == 1) {
		char id[BO_CRASH_ID_MAX];
		size_t rep;
		int a;

		bo_crash_state_id(&s, id, sizeof(id));
		a = bo_crashdedup_add(d, &s, id, &rep, &err);
		CU_ASSERT_FATAL(a >= 0);
		off += (size_t) snprintf(out + off, sizeof(out) - off, "%s%s%s%s", off ? " " : "",
					 id, a ? "=" : "", a ? bo_crashdedup_id(d, rep) : "");
		CU_ASSERT_FATAL(off < sizeof(out));
		*ret_aliases += a;
	}
	CU_ASSERT(r == 0);
	bo_crashdedup_free(d);
	bo_crashgen_free(g);
	free(cuts.v);
	bo_log_free(log);
	return out;
}

/* A dropped write fully overwritten by a kept later one leaves the prefix state's disk. */
static void test_overwritten(void)
{
	unsigned n;

	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a W0:1:b", 2, 2, false, &n),
			       "c1 c1-d0=c1 c1-d1 c1-d0,1");
	CU_ASSERT_EQUAL(n, 1);
	/* Partly overwritten: block 1 of the first write survives, so nothing coincides. */
	CU_ASSERT_STRING_EQUAL(dedup("W0:2:a W0:1:b", 2, 2, false, &n), "c1 c1-d0 c1-d1 c1-d0,1");
	CU_ASSERT_EQUAL(n, 0);
	/* Two later writes of the same data: whichever one is dropped, the block holds it. */
	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a W0:1:b W0:1:b", 3, 1, false, &n),
			       "c2 c2-d0=c2 c2-d1=c2 c2-d2=c2");
	CU_ASSERT_EQUAL(n, 3);
}

/* n writes to distinct blocks: all 2^n subsets differ; n identical rewrites: only 2 states. */
static void test_closed_form(void)
{
	for (unsigned w = 1; w <= 6; w++) {
		char items[256] = "";
		size_t off = 0;
		unsigned n;

		for (unsigned i = 0; i < w; i++)
			off += (size_t) snprintf(items + off, sizeof(items) - off, "W%u:1:%c ", i,
						 'a' + i);
		dedup(items, w, w, false, &n);
		CU_ASSERT_EQUAL(n, 0);

		off = 0;
		for (unsigned i = 0; i < w; i++)
			off += (size_t) snprintf(items + off, sizeof(items) - off, "W5:1:x ");
		dedup(items, w, w, false, &n);
		/* 2^w states: the empty kept set, and one disk for every other. */
		CU_ASSERT_EQUAL(n, (1u << w) - 2);
	}
}

/* Different entries leaving identical contents: a discard and a zero write. */
static void test_same_contents(void)
{
	unsigned n;

	CU_ASSERT_STRING_EQUAL(dedup("W0:1:0 D0:1", 2, 2, false, &n),
			       "c1 c1-d0=c1 c1-d1=c1 c1-d0,1");
	CU_ASSERT_EQUAL(n, 2);
}

/* A torn write whose lost blocks are overwritten later is the prefix state. */
static void test_torn(void)
{
	unsigned n;
	const char *s = dedup("W0:4:a W0:4:b", 2, 2, true, &n);

	/* c1-d0 and the torn first write alias c1; the torn second write is new. */
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "c1 c1-d0=c1 c1-d1 c1-d0,1 c1-t0:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "=c1 c1-t1:"));
	CU_ASSERT_PTR_NULL(strstr(strstr(s, "c1-t1:"), "="));
}

/* The op sets count: an issue or ack mark between two states keeps them apart. */
static void test_marks(void)
{
	unsigned n;

	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a I W0:1:a", 0, 1, false, &n),
			       "c-start c0 c0-d0=c-start c1 c1-d0 c2=c1 c2-d0=c1 c2-d2=c1");
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a A W0:1:a", 0, 1, false, &n),
			       "c-start c0 c0-d0=c-start c1 c1-d0 c2=c1 c2-d0=c1 c2-d2=c1");
	CU_ASSERT_EQUAL(n, 4);
	/* Another mark changes nothing the check sees. */
	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a M W0:1:a", 0, 1, false, &n),
			       "c-start c0 c0-d0=c-start c1=c0 c1-d0=c-start c2=c0 c2-d0=c0 "
			       "c2-d2=c0");
	CU_ASSERT_EQUAL(n, 6);
}

/* States of different epochs are built on different bases: never compared. */
static void test_epochs(void)
{
	unsigned n;

	CU_ASSERT_STRING_EQUAL(dedup("W0:1:a F W0:1:a", 0, 1, false, &n),
			       "c-start c0 c0-d0=c-start c1 c2 c2-d2=c1");
	CU_ASSERT_EQUAL(n, 2);
}

/* The flush/N cut policy: N flush cuts evenly spread, the k-th at flush ceil(k * F / N). */
static void test_flush_n(void)
{
	static const struct {
		const char *policy;
		const char *cuts;
	} cases[] = {
		{"flush/5", "4 8 12 16 20"},
		{"flush/3", "8 14 20"},
		{"flush/1", "20"},
		{"flush/10", "2 4 6 8 10 12 14 16 18 20"},
		{"flush/99", "2 4 6 8 10 12 14 16 18 20"},
	};
	struct bo_log *log = log_of("W0:1:a F W0:1:a F W0:1:a F W0:1:a F W0:1:a F "
				    "W0:1:a F W0:1:a F W0:1:a F W0:1:a F W0:1:a F");
	struct bo_err err = {0};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bo_cuts c = {0};
		char got[256] = "";
		size_t off = 0;

		CU_ASSERT_FATAL(bo_cutsel_select(log, cases[i].policy, 0, &c, &err) == 0);
		for (size_t k = 0; k < c.n; k++)
			off += (size_t) snprintf(got + off, sizeof(got) - off, "%s%llu",
						 k ? " " : "", (unsigned long long) c.v[k]);
		CU_ASSERT_STRING_EQUAL(got, cases[i].cuts);
		bo_cuts_clear(&c);
	}
	CU_ASSERT(bo_cutsel_validate("flush/0", &err) == -EINVAL);
	CU_ASSERT(bo_cutsel_validate("flush/x", &err) == -EINVAL);
	bo_log_free(log);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"overwritten", test_overwritten},
		{"closed_form", test_closed_form},
		{"same_contents", test_same_contents},
		{"torn", test_torn},
		{"marks", test_marks},
		{"epochs", test_epochs},
		{"flush_n", test_flush_n},
		{NULL, NULL},
	};

	return bo_test_run("crashdedup", tests);
}

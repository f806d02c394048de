/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h — report.html and junit.xml of a results directory (and a nightly's index.html), built from the directory's own
 * files (summary.json, config.json, stream.jsonl, write.log, states/<id>/, diagnostics/), so
 * that they can be written again at any time (`blackout report DIR`).
 *
 * Everything in a results directory came from the guest and is untrusted: every string is
 * escaped for HTML or XML, invalid UTF-8 and control characters are replaced, files are opened
 * without following symlinks, and what is shown inline is capped.
 */
#ifndef BO_REPORT_H
#define BO_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "harness/base/util.h"

struct bo_report_opts {
	size_t full_states;   /* failing states shown with their by-products inline (0: 50) */
	size_t listed_states; /* failing states listed at all (0: 2000) */
	size_t byproduct_max; /* bytes of one by-product shown inline (0: 16 KiB) */
	size_t buckets;	      /* timeline columns at most (0: 400) */
};

/* Write @dir/report.html and @dir/junit.xml (atomically, each replacing an older one). 0; 1
 * when written but summary.json contradicts stream.jsonl (said in both files and in @err);
 * -errno. */
_must_check_ int bo_report_write(const char *dir, const struct bo_report_opts *o,
				 struct bo_err *err);

/* One cell of a nightly for its combined junit.xml: its name (the suite's, so that cells
 * never share a test), its results directory (NULL when the run left none) and where to look
 * when it did not. */
struct bo_junit_cell {
	const char *name;
	const char *dir;
	const char *log;
};

/*
 * Write one junit.xml at @out (atomically) holding a testsuite for each of the @n cells: the
 * suite of its results directory, as its own junit.xml has it; a cell without one, or whose
 * directory cannot be read, is a suite of that name with one error naming why.
 */
_must_check_ int bo_report_junit_combined(const char *out, const struct bo_junit_cell *cells,
					  size_t n, struct bo_err *err);

/* Write @out (atomically): the @n cells' results as KernelCI's report data (KCIDB, schema
 * v5.3, report_kcidb.c): each kernel a checkout and a build, each class of states a test. A
 * cell without a results directory it can read adds nothing. */
_must_check_ int bo_report_kcidb(const char *out, const struct bo_junit_cell *cells, size_t n,
				 struct bo_err *err);

struct bo_differ;

/*
 * check --kernels: write @tree/report.html and @tree/junit.xml for the @n results
 * directories @dirs, one per kernel (@names), whose states @d joins: the states that differ
 * first, with what each kernel saw of them side by side.
 */
_must_check_ int bo_report_differential(const char *tree, const char *log, const char *const *dirs,
					const char *const *names, size_t n,
					const struct bo_differ *d, struct bo_err *err);

struct bo_markdiff;
struct bo_log;

/*
 * run --kernels: write @tree/report.html and @tree/junit.xml for the @n results directories
 * @dirs, one per kernel (@names), of scenario @scenario, whose marks @d compares (@logs
 * their logs): the marks that differ first, with what each kernel wrote before them side by
 * side.
 */
_must_check_ int bo_report_marks(const char *tree, const char *scenario, const char *const *dirs,
				 const char *const *names, size_t n, const struct bo_markdiff *d,
				 struct bo_log *const *logs, struct bo_err *err);

struct json_object;

/*
 * Write a nightly tree's index.html to @path from its summary @sum (docs/nightly.md): the
 * runs, their counts and links, the baseline comparison. The runs' strings come from their
 * guests: escaped, only known verdicts and classes shown, no script runs in the page.
 */
_must_check_ int bo_nightly_index(const char *path, struct json_object *sum, struct bo_err *err);

/*
 * Append @s (@len bytes) to @f escaped for HTML text and attribute values (and so for XML):
 * & < > " ' become entities, invalid UTF-8 and control characters other than tab and newline
 * become U+FFFD. Exported for the tests.
 */
void bo_report_escape(FILE *f, const char *s, size_t len);

#endif

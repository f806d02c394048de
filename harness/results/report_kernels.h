// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_kernels.h — what the reports of one workload on several kernels share (report_differ.c
 * for check --kernels, report_markdiff.c for run --kernels): the kernels' reports opened and
 * both documents written, the table of the kernels in report.html, and junit.xml's head and
 * tail around the suite of the differences. Internal to the report.
 */
#ifndef BO_REPORT_KERNELS_H
#define BO_REPORT_KERNELS_H

#include <stddef.h>
#include <stdio.h>

#include "harness/base/macro.h"
#include "harness/results/report_model.h"

struct report_kernels {
	struct report *R; /* one per kernel, open while report_kernels_write() writes */
	const char *const *names;
	size_t n;
};

/*
 * Open the results directories @dirs of the @k->n kernels into @k->R, each a test suite of its
 * own, and write @tree/report.html with @html and @tree/junit.xml with @junit (given @ctx,
 * which holds @k); then close them. 0 or -errno.
 */
_must_check_ int report_kernels_write(const char *tree, const char *const *dirs,
				      struct report_kernels *k, void (*html)(FILE *, void *),
				      void (*junit)(FILE *, void *), void *ctx, struct bo_err *err);

/* report.html: the table of the kernels, each linking its own report, then the head of the
 * table of the section @heading whose first columns are @cols, and one column per kernel. */
void report_kernels_html_table(FILE *f, const struct report_kernels *k, const char *heading,
			       const char *cols);

/* junit.xml up to the suite "differential" of @tests testcases, @failures of them failing,
 * after each kernel's own suite; report_kernels_junit_close() ends it. */
void report_kernels_junit_open(FILE *f, const struct report_kernels *k, size_t tests,
			       size_t failures);
void report_kernels_junit_close(FILE *f);

/* The opening of the testcase @name of the suite "differential". */
void report_kernels_junit_case(FILE *f, const char *name);

#endif

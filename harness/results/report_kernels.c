// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the reports of one workload on several kernels share (report_kernels.h): the kernels'
 * reports opened, report.html and junit.xml written into the tree that holds them, the table of
 * the kernels and junit.xml's suite of the differences around the rows report_differ.c and
 * report_markdiff.c write.
 */
#include "harness/results/report_kernels.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"

/* Open the reports of the kernels, each a test suite of its own named for its kernel: 0, or
 * -errno with every one closed. */
static int open_kernels(struct report *R, const char *const *dirs, const char *const *names,
			size_t n, struct bo_err *err)
{
	for (size_t c = 0; c < n; c++) {
		int r = report_open(&R[c], dirs[c], NULL, err);

		R[c].suite_kernel = names[c]; /* the kernels' suites are tests of their own */
		if (r < 0) {
			for (size_t k = 0; k <= c; k++)
				report_close(&R[k]);
			return r;
		}
	}
	return 0;
}

int report_kernels_write(const char *tree, const char *const *dirs, struct report_kernels *k,
			 void (*html)(FILE *, void *), void (*junit)(FILE *, void *), void *ctx,
			 struct bo_err *err)
{
	_cleanup_free_ struct report *R = calloc(k->n ? k->n : 1, sizeof(*R));
	_cleanup_close_ int dirfd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (!R)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (dirfd < 0)
		return bo_err_set(err, errno, "'%s': %s", tree, strerror(errno));
	r = open_kernels(R, dirs, k->names, k->n, err);
	if (r < 0)
		return r;
	k->R = R;
	r = report_render(dirfd, tree, "report.html", html, ctx, err);
	if (r >= 0)
		r = report_render(dirfd, tree, "junit.xml", junit, ctx, err);
	for (size_t c = 0; c < k->n; c++)
		report_close(&R[c]);
	k->R = NULL;
	return r;
}

void report_kernels_html_table(FILE *f, const struct report_kernels *k, const char *heading,
			       const char *cols)
{
	fputs("<table><tr><th>kernel</th><th>results</th></tr>\n", f);
	for (size_t c = 0; c < k->n; c++) {
		const char *base = strrchr(k->R[c].dir, '/');

		fputs("<tr><td>", f);
		report_esc(f, k->names[c]);
		fputs("</td><td><a href=\"", f);
		report_esc(f, k->names[c]);
		fputc('/', f);
		report_esc(f, base ? base + 1 : k->R[c].dir);
		fputs("/report.html\">", f);
		report_esc(f, k->R[c].dir);
		fputs("</a></td></tr>\n", f);
	}
	fprintf(f, "</table>\n<h2>%s</h2>\n<table><tr>%s", heading, cols);
	for (size_t c = 0; c < k->n; c++) {
		fputs("<th>", f);
		report_esc(f, k->names[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
}

void report_kernels_junit_open(FILE *f, const struct report_kernels *k, size_t tests,
			       size_t failures)
{
	struct report_junit_totals t = {0};

	for (size_t c = 0; c < k->n; c++)
		report_junit_count(&k->R[c], &t);
	t.tests += (unsigned) tests;
	t.failures += (unsigned) failures;
	report_junit_open(f, &t);
	for (size_t c = 0; c < k->n; c++)
		report_junit_suite(&k->R[c], f);
	fprintf(f,
		"  <testsuite name=\"differential\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"0\">\n",
		tests, failures);
}

void report_kernels_junit_close(FILE *f)
{
	fputs("  </testsuite>\n", f);
	report_junit_close(f);
}

void report_kernels_junit_case(FILE *f, const char *name)
{
	fputs("    <testcase classname=\"blackout.differential\" name=\"", f);
	report_esc(f, name);
	fputs("\">\n", f);
}

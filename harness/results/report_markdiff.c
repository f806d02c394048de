// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of run --kernels (markdiff.h): report.html and junit.xml of the tree that holds
 * one whole run per kernel. The marks whose verdict or lint differs come first, each with
 * what every kernel wrote before it side by side. Everything shown came from the guests:
 * escaped as in report.html.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/results/markdiff.h"
#include "harness/results/report.h"
#include "harness/results/report_model.h"

/* Differing marks shown with their entries, and entries shown per kernel. */
#define SHOWN_MAX   50
#define ENTRIES_MAX 200

struct marks_doc {
	struct report *R;
	const char *const *names;
	size_t n;
	const struct bo_markdiff *d;
	struct bo_log *const *logs;
	const char *scenario;
};

static void verdict(FILE *f, const struct bo_markdiff_row *row, size_t c)
{
	const char *lint = bo_markdiff_lint_str(row->side[c].lint);
	char buf[700];

	report_esc(f, bo_markdiff_verdict_str(row, c, buf, sizeof(buf)));
	if (lint) {
		fputs("; ", f);
		report_esc(f, lint);
	}
}

/* The first class of side @c, for its colour. */
static unsigned first_class(const struct bo_markdiff_side *s)
{
	for (unsigned k = 0; k < BO_CLASS_COUNT; k++)
		if (s->classes & ~(1u << BO_CLASS_CONSISTENT) & (1u << k))
			return k;
	return s->classes ? BO_CLASS_CONSISTENT : UNKNOWN;
}

static void write_html(FILE *f, const struct marks_doc *m)
{
	const struct bo_markdiff *d = m->d;
	size_t shown = 0;

	report_html_head(f, "blackout: one workload, several kernels");
	fputs("<h1>One workload, several kernels</h1>\n<p>Scenario <code>", f);
	report_esc(f, m->scenario);
	fprintf(f, "</code>: %zu marks, <b>%zu differ</b> between the kernels%s.</p>\n", d->nrow,
		d->ndiffer, d->ndiffer ? "" : " (no difference)");
	fputs("<table><tr><th>kernel</th><th>results</th></tr>\n", f);
	for (size_t c = 0; c < m->n; c++) {
		const char *base = strrchr(m->R[c].dir, '/');

		fputs("<tr><td>", f);
		report_esc(f, m->names[c]);
		fputs("</td><td><a href=\"", f);
		report_esc(f, m->names[c]);
		fputc('/', f);
		report_esc(f, base ? base + 1 : m->R[c].dir);
		fputs("/report.html\">", f);
		report_esc(f, m->R[c].dir);
		fputs("</a></td></tr>\n", f);
	}
	fputs("</table>\n<h2>Marks</h2>\n<table><tr><th>mark</th>", f);
	for (size_t c = 0; c < m->n; c++) {
		fputs("<th>", f);
		report_esc(f, m->names[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_markdiff_row *row = &d->rows[i];

		fprintf(f, "<tr%s><td>", row->differs ? " style=\"font-weight:600\"" : "");
		if (row->differs && i < SHOWN_MAX)
			fprintf(f, "<a href=\"#m-%zu\">", i);
		report_esc(f, row->mark);
		fputs(row->differs && i < SHOWN_MAX ? "</a>" : "", f);
		fputs(row->lint_differs ? " (lint differs)" : "", f);
		fputs("</td>", f);
		for (size_t c = 0; c < m->n; c++) {
			fprintf(f, "<td><span class=\"sw\" style=\"background:%s\"></span>",
				report_class_color(first_class(&row->side[c])));
			verdict(f, row, c);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (d->ndiffer)
		fputs("<h2>What each kernel wrote before the marks that differ</h2>\n", f);
	for (size_t i = 0; i < d->nrow && d->rows[i].differs && shown < SHOWN_MAX; i++, shown++) {
		const struct bo_markdiff_row *row = &d->rows[i];

		fprintf(f, "<div class=\"state\" id=\"m-%zu\"><h3>", i);
		report_esc(f, row->mark);
		fputs("</h3><table><tr>", f);
		for (size_t c = 0; c < m->n; c++) {
			fputs("<th>", f);
			report_esc(f, m->names[c]);
			fputs(": ", f);
			verdict(f, row, c);
			if (row->side[c].state) {
				fputs(" (state ", f);
				report_esc(f, row->side[c].state);
				fputc(')', f);
			}
			fputs("</th>", f);
		}
		fputs("</tr><tr>", f);
		for (size_t c = 0; c < m->n; c++) {
			const struct bo_markdiff_side *s = &row->side[c];
			char buf[160];

			fputs("<td style=\"vertical-align:top\"><pre>", f);
			if (!s->present)
				fputs("(no such mark in this log)", f);
			else if (s->entry == s->from)
				fputs("(no entry since the previous mark)", f);
			for (uint64_t e = s->from; s->present && e < s->entry; e++) {
				if (e - s->from == ENTRIES_MAX) {
					fprintf(f, "... %" PRIu64 " more\n", s->entry - e);
					break;
				}
				fprintf(f, "%" PRIu64 " ", e);
				report_esc(f,
					   bo_markdiff_entry_str(m->logs[c], e, buf, sizeof(buf)));
				fputc('\n', f);
			}
			fputs("</pre></td>", f);
		}
		fputs("</tr></table></div>\n", f);
	}
	fputs("</body></html>\n", f);
}

static void write_junit(FILE *f, const struct marks_doc *m)
{
	const struct bo_markdiff *d = m->d;
	struct report_junit_totals t = {0};

	for (size_t c = 0; c < m->n; c++)
		report_junit_count(&m->R[c], &t);
	t.tests += (unsigned) d->nrow;
	t.failures += (unsigned) d->ndiffer;
	report_junit_open(f, &t);
	for (size_t c = 0; c < m->n; c++)
		report_junit_suite(&m->R[c], f);
	/* One testcase per mark: it fails when the kernels do not agree on it. */
	fprintf(f,
		"  <testsuite name=\"differential\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"0\">\n",
		d->nrow, d->ndiffer);
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_markdiff_row *row = &d->rows[i];
		char buf[160];

		fputs("    <testcase classname=\"blackout.differential\" name=\"", f);
		report_esc(f, row->mark);
		fputs("\">\n", f);
		if (row->differs) {
			fprintf(f, "      <failure type=\"%s\" message=\"",
				row->lint_differs ? "lint-differs" : "differs");
			for (size_t c = 0; c < m->n; c++) {
				fputs(c ? " | " : "", f);
				report_esc(f, m->names[c]);
				fputs(": ", f);
				verdict(f, row, c);
			}
			fputs("\"/>\n      <system-out>", f);
			for (size_t c = 0; c < m->n; c++) {
				const struct bo_markdiff_side *s = &row->side[c];

				fputs("### ", f);
				report_esc(f, m->names[c]);
				fputc('\n', f);
				for (uint64_t e = s->from;
				     s->present && e < s->entry && e - s->from < ENTRIES_MAX; e++) {
					fprintf(f, "%" PRIu64 " ", e);
					report_esc(f, bo_markdiff_entry_str(m->logs[c], e, buf,
									    sizeof(buf)));
					fputc('\n', f);
				}
			}
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n", f);
	report_junit_close(f);
}

static void html_of(FILE *f, void *m)
{
	write_html(f, m);
}

static void junit_of(FILE *f, void *m)
{
	write_junit(f, m);
}

int bo_report_marks(const char *tree, const char *scenario, const char *const *dirs,
		    const char *const *names, size_t n, const struct bo_markdiff *d,
		    struct bo_log *const *logs, struct bo_err *err)
{
	_cleanup_free_ struct report *R = calloc(n ? n : 1, sizeof(*R));
	_cleanup_close_ int dirfd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct marks_doc m = {.names = names, .n = n, .d = d, .logs = logs, .scenario = scenario};
	int r = 0;

	if (!R)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (dirfd < 0)
		return bo_err_set(err, errno, "'%s': %s", tree, strerror(errno));
	r = report_open_kernels(R, dirs, names, n, err);
	if (r < 0)
		return r;
	m.R = R;
	r = report_render(dirfd, tree, "report.html", html_of, &m, err);
	if (r >= 0)
		r = report_render(dirfd, tree, "junit.xml", junit_of, &m, err);
	for (size_t c = 0; c < n; c++)
		report_close(&R[c]);
	return r;
}

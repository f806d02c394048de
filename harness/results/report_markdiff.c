// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of run --kernels (markdiff.h): report.html and junit.xml of the tree that holds
 * one whole run per kernel. The marks whose verdict or lint differs come first, each with
 * what every kernel wrote before it side by side. Everything shown came from the guests:
 * escaped as in report.html.
 */
#include <inttypes.h>
#include <stdio.h>

#include "harness/results/markdiff.h"
#include "harness/results/report.h"
#include "harness/results/report_kernels.h"

/* Differing marks shown with their entries, and entries shown per kernel. */
#define SHOWN_MAX   50
#define ENTRIES_MAX 200

struct marks_doc {
	struct report_kernels k;
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

static void write_html(FILE *f, void *p)
{
	const struct marks_doc *m = p;
	const struct bo_markdiff *d = m->d;
	size_t shown = 0;

	report_html_head(f, "blackout: one workload, several kernels");
	fputs("<h1>One workload, several kernels</h1>\n<p>Scenario <code>", f);
	report_esc(f, m->scenario);
	fprintf(f, "</code>: %zu marks, <b>%zu differ</b> between the kernels%s.</p>\n", d->nrow,
		d->ndiffer, d->ndiffer ? "" : " (no difference)");
	report_kernels_html_table(f, &m->k, "Marks", "<th>mark</th>");
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_markdiff_row *row = &d->rows[i];

		fprintf(f, "<tr%s><td>", row->differs ? " style=\"font-weight:600\"" : "");
		if (row->differs && i < SHOWN_MAX)
			fprintf(f, "<a href=\"#m-%zu\">", i);
		report_esc(f, row->mark);
		fputs(row->differs && i < SHOWN_MAX ? "</a>" : "", f);
		fputs(row->lint_differs ? " (lint differs)" : "", f);
		fputs("</td>", f);
		for (size_t c = 0; c < m->k.n; c++) {
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
		for (size_t c = 0; c < m->k.n; c++) {
			fputs("<th>", f);
			report_esc(f, m->k.names[c]);
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
		for (size_t c = 0; c < m->k.n; c++) {
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

static void write_junit(FILE *f, void *p)
{
	const struct marks_doc *m = p;
	const struct bo_markdiff *d = m->d;

	/* One testcase per mark: it fails when the kernels do not agree on it. */
	report_kernels_junit_open(f, &m->k, d->nrow, d->ndiffer);
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_markdiff_row *row = &d->rows[i];
		char buf[160];

		report_kernels_junit_case(f, row->mark);
		if (row->differs) {
			fprintf(f, "      <failure type=\"%s\" message=\"",
				row->lint_differs ? "lint-differs" : "differs");
			for (size_t c = 0; c < m->k.n; c++) {
				fputs(c ? " | " : "", f);
				report_esc(f, m->k.names[c]);
				fputs(": ", f);
				verdict(f, row, c);
			}
			fputs("\"/>\n      <system-out>", f);
			for (size_t c = 0; c < m->k.n; c++) {
				const struct bo_markdiff_side *s = &row->side[c];

				fputs("### ", f);
				report_esc(f, m->k.names[c]);
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
	report_kernels_junit_close(f);
}

int bo_report_marks(const char *tree, const char *scenario, const char *const *dirs,
		    const char *const *names, size_t n, const struct bo_markdiff *d,
		    struct bo_log *const *logs, struct bo_err *err)
{
	struct marks_doc m = {
		.k = {.names = names, .n = n}, .d = d, .logs = logs, .scenario = scenario};

	return report_kernels_write(tree, dirs, &m.k, write_html, write_junit, &m, err);
}

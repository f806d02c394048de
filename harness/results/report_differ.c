// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of check --kernels (differ.h): report.html and junit.xml of the tree that holds
 * one whole check per kernel. The states whose class or findings differ come first, each with what every
 * kernel saw of it side by side: its verdict, mount error, fsck output and kernel messages.
 * Everything shown came from the guests: escaped and capped as in report.html.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "harness/base/macro.h"
#include "harness/results/differ.h"
#include "harness/results/report.h"
#include "harness/results/report_kernels.h"

/* Differing states shown with their evidence; all are in the table and in differential.json. */
#define SHOWN_MAX    50
#define EVIDENCE_MAX 4096

static const char *const evidence_files[] = {"verdict.txt", "mount.err", "fsck.out", "checker.out",
					     "dmesg.txt"};

/* The by-product @name of @state in @R's directory, capped, escaped into @f; nothing when
 * there is none, why when it was refused. Whether anything was written. */
static bool byproduct(FILE *f, struct report *R, const char *state, const char *name, bool xml)
{
	char rel[PATH_MAX];
	uint64_t total = 0;
	_cleanup_free_ char *text = NULL;
	struct bo_err e = {0};

	if (!report_id_ok(state) ||
	    snprintf(rel, sizeof(rel), "states/%s/%s", state, name) >= (int) sizeof(rel))
		return false;
	text = report_read_capped(R->dirfd, rel, EVIDENCE_MAX, &total, &e);
	if (!text) {
		report_refused(f, &e, !xml);
		return e.errnum != ENOENT;
	}
	if (!*text)
		return false;
	fprintf(f, xml ? "== %s ==\n" : "<div class=\"muted\">%s</div><pre>", name);
	report_esc(f, text);
	if (total > EVIDENCE_MAX)
		fprintf(f, "\n[... %" PRIu64 " bytes in all]", total);
	fputs(xml ? "\n" : "</pre>", f);
	return true;
}

struct differ_doc {
	struct report_kernels k;
	const struct bo_differ *d;
	const char *log;
};

static void write_html(FILE *f, void *p)
{
	const struct differ_doc *m = p;
	const struct bo_differ *d = m->d;
	struct report *R = m->k.R;
	const char *const *names = m->k.names;
	size_t n = m->k.n, shown = 0;

	report_html_head(f, "blackout: one log, several kernels");
	fputs("<h1>One log, several kernels</h1>\n<p>Log: <code>", f);
	report_esc(f, m->log);
	fprintf(f, "</code>: %zu states, <b>%zu differ</b> between the kernels.</p>\n", d->nrow,
		d->ndiffer);
	report_kernels_html_table(f, &m->k, "States", "<th>state</th><th>cut</th>");
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_differ_row *row = &d->rows[i];
		char cell[600];

		fprintf(f, "<tr%s><td>", row->differs ? " style=\"font-weight:600\"" : "");
		if (row->differs && report_id_ok(row->state) && i < SHOWN_MAX) {
			fputs("<a href=\"#d-", f);
			report_esc(f, row->state);
			fputs("\">", f);
			report_esc(f, row->state);
			fputs("</a>", f);
		} else {
			report_esc(f, row->state);
		}
		fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td>", row->cut);
		for (size_t c = 0; c < n; c++) {
			fprintf(f, "<td><span class=\"sw\" style=\"background:%s\"></span>",
				report_class_color(row->cls[c]));
			report_esc(f, bo_differ_cell_str(row, c, cell, sizeof(cell)));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (d->ndiffer)
		fputs("<h2>What each kernel saw of the states that differ</h2>\n", f);
	for (size_t i = 0; i < d->nrow && d->rows[i].differs && shown < SHOWN_MAX; i++, shown++) {
		const struct bo_differ_row *row = &d->rows[i];
		char cell[600];

		if (!report_id_ok(row->state))
			continue;
		fputs("<div class=\"state\" id=\"d-", f);
		report_esc(f, row->state);
		fputs("\"><h3>", f);
		report_esc(f, row->state);
		fputs("</h3><table><tr>", f);
		for (size_t c = 0; c < n; c++) {
			fputs("<th>", f);
			report_esc(f, names[c]);
			fputs(": ", f);
			report_esc(f, bo_differ_cell_str(row, c, cell, sizeof(cell)));
			fputs("</th>", f);
		}
		fputs("</tr><tr>", f);
		for (size_t c = 0; c < n; c++) {
			bool any = false;

			fputs("<td style=\"width:50%\">", f);
			for (size_t k = 0; k < BO_ARRAY_SIZE(evidence_files); k++)
				any |= byproduct(f, &R[c], row->state, evidence_files[k], false);
			if (!any)
				fputs("<div class=\"muted\">nothing kept: a consistent state "
				      "leaves "
				      "no by-products</div>",
				      f);
			fputs("</td>", f);
		}
		fputs("</tr></table></div>\n", f);
	}
	fputs("</body></html>\n", f);
}

static void write_junit(FILE *f, void *p)
{
	const struct differ_doc *m = p;
	const struct bo_differ *d = m->d;
	struct report *R = m->k.R;
	const char *const *names = m->k.names;
	size_t n = m->k.n;

	/* One testcase per state: it fails when the kernels do not agree on it. */
	report_kernels_junit_open(f, &m->k, d->nrow, d->ndiffer);
	for (size_t i = 0; i < d->nrow; i++) {
		const struct bo_differ_row *row = &d->rows[i];
		char cell[600];

		report_kernels_junit_case(f, row->state);
		if (row->differs) {
			fputs("      <failure type=\"differs\" message=\"", f);
			for (size_t c = 0; c < n; c++) {
				fputs(c ? "; " : "", f);
				report_esc(f, names[c]);
				fputs(": ", f);
				report_esc(f, bo_differ_cell_str(row, c, cell, sizeof(cell)));
			}
			fputs("\"/>\n      <system-out>", f);
			for (size_t c = 0; c < n; c++) {
				fputs("### ", f);
				report_esc(f, names[c]);
				fputc('\n', f);
				for (size_t k = 0; k + 1 < BO_ARRAY_SIZE(evidence_files); k++)
					(void) byproduct(f, &R[c], row->state, evidence_files[k],
							 true);
			}
			fputs("</system-out>\n      <system-err>", f);
			for (size_t c = 0; c < n; c++) {
				fputs("### ", f);
				report_esc(f, names[c]);
				fputc('\n', f);
				(void) byproduct(f, &R[c], row->state, "dmesg.txt", true);
			}
			fputs("</system-err>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	report_kernels_junit_close(f);
}

int bo_report_differential(const char *tree, const char *log, const char *const *dirs,
			   const char *const *names, size_t n, const struct bo_differ *d,
			   struct bo_err *err)
{
	struct differ_doc m = {.k = {.names = names, .n = n}, .d = d, .log = log};

	return report_kernels_write(tree, dirs, &m.k, write_html, write_junit, &m, err);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline of report.html (report_html.c): the write log drawn as one SVG, its entries
 * gathered into columns (writes, flushes, FUA, discards, marks, the durability lint's acks)
 * above the checked states at their cuts, coloured by class; its legend and the log's named
 * marks. A log of several devices has a row of each device's own writes, flushes and power
 * cuts, a cluster's a row of each node's: every node's writes on the guest's one clock.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/cluster/cluster.h"
#include "harness/log/layout.h"
#include "harness/results/report_model.h"

#define SVG_W	  1000
#define SVG_LEFT  90
#define STATE_MAX 2000 /* states drawn one by one in the timeline; more are aggregated */

/* The classes drawn on top of others, worst first. */
static const enum bo_class severity[] = {
	BO_CLASS_HARNESS_ERROR, BO_CLASS_CHECKER_ERROR,	      BO_CLASS_REPAIR_FAILED,
	BO_CLASS_UNMOUNTABLE,	BO_CLASS_FSCK_DIRTY,	      BO_CLASS_LOST_ACK,
	BO_CLASS_PHANTOM,	BO_CLASS_APP_RECOVERY_FAILED, BO_CLASS_RECOVERY_UNSAFE,
	BO_CLASS_CONSISTENT,
};

/* The rows of a log of several devices: a node's (config.json's cluster) or a device's. */
struct rows {
	struct bo_layout layout;
	unsigned n;
	char name[BO_LAYOUT_MAX][BO_LAYOUT_NAME_MAX + 1];
	int row_of[BO_LAYOUT_MAX]; /* the row of each device of the layout, or -1 */
};

struct bucket {
	uint32_t writes, flush, fua, discard, named, issue, ack, lint;
	/* Of each row: its writes, its flushes, its power cuts (node-cut:NAME:...). */
	uint32_t row_w[BO_LAYOUT_MAX], row_f[BO_LAYOUT_MAX], row_cut[BO_LAYOUT_MAX];
	uint32_t states[NCLASS];
	uint32_t also;	  /* states with a finding their class does not name */
	const char *mark; /* the first named mark */
	const char *first_fail;
};

static double bx(size_t b, size_t nb)
{
	return SVG_LEFT + (double) b * SVG_W / (double) nb;
}

/* The column counts at @field as ticks in the row at @y, titled @label; the row's name too unless
 * @overlay (a second layer of ticks on a row already named). */
static void ticks(FILE *f, const struct bucket *bk, size_t nb, uint64_t n, size_t field, double y,
		  const char *label, const char *color, bool overlay)
{
	double w = (double) SVG_W / (double) nb;

	if (!overlay) {
		fprintf(f, "<text x=\"4\" y=\"%.0f\">", y + 11);
		report_esc(f, label);
		fputs("</text>\n", f);
	}
	for (size_t b = 0; b < nb; b++) {
		uint32_t k = *(const uint32_t *) ((const char *) &bk[b] + field);

		if (!k)
			continue;
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"14\" fill=\"%s\">"
			"<title>",
			bx(b, nb), y, w < 1.5 ? 1.5 : w, color);
		report_esc(f, label);
		fprintf(f, ": %" PRIu32 " in entries %" PRIu64 "-%" PRIu64, k, b * n / nb,
			(b + 1) * n / nb - 1);
		if (bk[b].mark && field == offsetof(struct bucket, named)) {
			fputs(" (", f);
			report_esc(f, bk[b].mark);
			fputs(k > 1 ? ", ...)" : ")", f);
		}
		fputs("</title></rect>\n", f);
	}
}

static void tick_row(FILE *f, const struct bucket *bk, size_t nb, uint64_t n, size_t field,
		     double y, const char *label, const char *color)
{
	ticks(f, bk, nb, n, field, y, label, color, false);
}

/* The row of device @dev of @layout: its node's, when config.json names the cluster's. */
static void row_of_node(struct rows *rw, struct json_object *nodes, unsigned dev)
{
	for (size_t i = 0; i < json_object_array_length(nodes) && i < BO_LAYOUT_MAX; i++) {
		struct json_object *nd = json_object_array_get_idx(nodes, i), *devs, *name;

		if (!json_object_object_get_ex(nd, "devices", &devs) ||
		    !json_object_object_get_ex(nd, "name", &name))
			continue;
		for (size_t d = 0; d < json_object_array_length(devs); d++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(devs, d))
					    ?: "",
				    rw->layout.v[dev].name)) {
				rw->row_of[dev] = (int) i;
				if (rw->n <= i)
					rw->n = (unsigned) i + 1;
				snprintf(rw->name[i], sizeof(rw->name[i]), "%s",
					 json_object_get_string(name) ?: "?");
			}
	}
}

/* The rows of @R's log: none for one device; a node's for a cluster, else a device's. */
static void find_rows(struct report *R, struct rows *rw)
{
	struct json_object *cl = NULL, *nodes = NULL;

	rw->n = 0;
	if (!R->log || bo_log_layout(R->log)->n < 2)
		return;
	rw->layout = *bo_log_layout(R->log);
	if (R->config && json_object_object_get_ex(R->config, "cluster", &cl) && cl)
		json_object_object_get_ex(cl, "nodes", &nodes);
	for (unsigned i = 0; i < rw->layout.n; i++) {
		rw->row_of[i] = -1;
		if (json_object_is_type(nodes, json_type_array)) {
			row_of_node(rw, nodes, i);
			continue;
		}
		rw->row_of[i] = (int) i;
		memcpy(rw->name[i], rw->layout.v[i].name, sizeof(rw->name[i]));
		rw->n = i + 1;
	}
}

/* Entry @e of the log into the row of its device (a flush names its device by its sector). */
static void count_row(struct report *R, const struct rows *rw, struct bucket *b, uint64_t e)
{
	const struct bo_log_entry *le = bo_log_entry(R->log, e);
	int d, row;

	if (le->flags & BO_LOG_MARK) {
		const char *m = bo_log_mark_name(R->log, e);

		for (unsigned r = 0; m && r < rw->n; r++)
			if (bo_cluster_is_cut_of(m, rw->name[r]))
				b->row_cut[r]++;
		return;
	}
	d = bo_layout_device(&rw->layout, bo_log_sectorsize(R->log), le->sector);
	/* A flush at no device's sector closes every device's epoch (docs/crash-states.md). */
	if (d < 0 && (le->flags & BO_LOG_FLUSH)) {
		for (unsigned r = 0; r < rw->n; r++)
			b->row_f[r]++;
		return;
	}
	row = d < 0 ? -1 : rw->row_of[d];
	if (row < 0)
		return;
	if (le->flags & BO_LOG_FLUSH)
		b->row_f[row]++;
	else if (le->nr_sectors && !(le->flags & BO_LOG_DISCARD))
		b->row_w[row]++;
}

/* The log's entries, and the acks the lint found without a barrier, into their columns. */
static void count_entries(struct report *R, const struct rows *rw, struct bucket *bk, size_t nb,
			  uint64_t n)
{
	for (uint64_t e = 0; R->log && e < n; e++) {
		const struct bo_log_entry *le = bo_log_entry(R->log, e);
		struct bucket *b = &bk[e * nb / n];

		if (rw->n)
			count_row(R, rw, b, e);
		if (le->flags & BO_LOG_MARK) {
			const char *m = bo_log_mark_name(R->log, e);

			if (m && !strncmp(m, "issue:", 6)) {
				b->issue++;
			} else if (m && !strncmp(m, "ack:", 4)) {
				b->ack++;
			} else {
				b->named++;
				if (!b->mark)
					b->mark = m;
			}
			continue;
		}
		if (le->flags & BO_LOG_FLUSH)
			b->flush++;
		if (le->flags & BO_LOG_FUA)
			b->fua++;
		if (le->flags & BO_LOG_DISCARD)
			b->discard++;
		else if (le->nr_sectors)
			b->writes++;
	}
	for (size_t i = 0; i < R->lint.n; i++)
		if (R->lint.v[i].ack_entry < n)
			bk[R->lint.v[i].ack_entry * nb / n].lint++;
}

/* The states into the columns of their cuts; how many of them were checked (not aliases). */
static size_t count_states(struct report *R, struct bucket *bk, size_t nb, uint64_t n)
{
	size_t checked = 0;

	for (size_t i = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		uint64_t at = s->cut ? s->cut - 1 : 0;
		struct bucket *b = &bk[(at < n ? at : n - 1) * nb / n];

		b->states[s->cls]++;
		b->also += s->also && !s->alias;
		if (s->cls != BO_CLASS_CONSISTENT && !b->first_fail && s->path_ok)
			b->first_fail = s->id;
		checked += !s->alias;
	}
	return checked;
}

/* The writes of each column as a bar chart, @y from the top. */
static void draw_writes(FILE *f, const struct bucket *bk, size_t nb, uint64_t n, double y)
{
	uint32_t maxw = 1;

	for (size_t b = 0; b < nb; b++)
		if (bk[b].writes > maxw)
			maxw = bk[b].writes;
	fprintf(f, "<text x=\"4\" y=\"%.0f\">writes</text>\n", y + 24);
	for (size_t b = 0; b < nb; b++) {
		double bh = bk[b].writes ? 2 + 38.0 * bk[b].writes / maxw : 0;
		double w = (double) SVG_W / (double) nb;

		if (!bh)
			continue;
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			"fill=\"#90a4ae\">"
			"<title>%" PRIu32 " writes in entries %" PRIu64 "-%" PRIu64
			"</title></rect>\n",
			bx(b, nb), y + 40 - bh, w < 1.5 ? 1.5 : w, bh, bk[b].writes, b * n / nb,
			(b + 1) * n / nb - 1);
	}
}

/* Each state at its own cut, in the row at @y: consistent ones first, failing ones on top. */
static void draw_states(struct report *R, FILE *f, uint64_t n, double y)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < R->n; i++) {
			const struct rstate *s = &R->st[i];
			bool fail = s->cls != BO_CLASS_CONSISTENT;
			double x = SVG_LEFT +
				   (double) SVG_W * (double) (s->cut ? s->cut - 1 : 0) / (double) n;

			if (fail != (pass == 1))
				continue;
			if (fail && s->path_ok) {
				fputs("<a href=\"#s-", f);
				report_esc(f, s->id);
				fputs("\">", f);
			}
			fprintf(f,
				"<rect class=\"st\" x=\"%.2f\" y=\"%.0f\" width=\"2\" "
				"height=\"%d\" fill=\"%s\"><title>",
				x - 1, fail ? y - 4 : y + 2, fail ? 32 : 20,
				report_class_color(s->cls));
			report_esc(f, s->id);
			fprintf(f, ": %s%s, cut %" PRIu64, report_class_name(s->cls),
				s->alias ? " (alias)" : "", s->cut);
			if (s->findings) {
				fputs("; ", f);
				report_esc(f, s->findings);
			}
			fputs("</title></rect>", f);
			/* A finding its class does not name: marked above the state. */
			if (s->also) {
				fprintf(f,
					"<circle class=\"also\" cx=\"%.2f\" cy=\"%.0f\" "
					"r=\"3\" fill=\"%s\"><title>",
					x, y - 8, report_class_color(BO_CLASS_LOST_ACK));
				report_esc(f, s->id);
				fputs(" also: ", f);
				report_esc(f, s->findings);
				fputs("</title></circle>", f);
			}
			fputs(fail && s->path_ok ? "</a>\n" : "\n", f);
		}
}

/* Too many states to draw one by one: the states of each column, in the row at @y. */
static void draw_columns(FILE *f, const struct bucket *bk, size_t nb, uint64_t n, double y)
{
	double w = (double) SVG_W / (double) nb;

	for (size_t b = 0; b < nb; b++) {
		unsigned total = 0;
		double yy = y;

		for (unsigned c = 0; c < NCLASS; c++)
			total += bk[b].states[c];
		if (!total)
			continue;
		if (bk[b].first_fail) {
			fputs("<a href=\"#s-", f);
			report_esc(f, bk[b].first_fail);
			fputs("\">", f);
		}
		fprintf(f, "<g class=\"st\"><title>entries %" PRIu64 "-%" PRIu64 ":", b * n / nb,
			(b + 1) * n / nb - 1);
		for (unsigned c = 0, k = 0; c < NCLASS; c++) {
			if (!bk[b].states[c])
				continue;
			fprintf(f, "%s %" PRIu32 " %s", k++ ? "," : "", bk[b].states[c],
				report_class_name(c));
		}
		if (bk[b].first_fail) {
			fputs("; first failing: ", f);
			report_esc(f, bk[b].first_fail);
		}
		if (bk[b].also)
			fprintf(f, "; %" PRIu32 " with a finding beyond their class", bk[b].also);
		fputs("</title>", f);
		if (bk[b].also)
			fprintf(f,
				"<circle class=\"also\" cx=\"%.2f\" cy=\"%.0f\" r=\"3\" "
				"fill=\"%s\"/>",
				bx(b, nb) + w / 2, y - 8, report_class_color(BO_CLASS_LOST_ACK));
		/* The column stacked by class, the worst on top, each at least 2 px. */
		for (size_t k = 0; k <= BO_ARRAY_SIZE(severity); k++) {
			unsigned c = k ? (unsigned) severity[k - 1] : UNKNOWN;
			double hh = 24.0 * bk[b].states[c] / total;

			if (!bk[b].states[c])
				continue;
			hh = hh < 2 ? 2 : hh;
			hh = yy + hh > y + 24 ? y + 24 - yy : hh;
			if (hh <= 0)
				break;
			fprintf(f,
				"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" "
				"fill=\"%s\"/>",
				bx(b, nb), yy, w < 1.5 ? 1.5 : w, hh, report_class_color(c));
			yy += hh;
		}
		fputs(bk[b].first_fail ? "</g></a>\n" : "</g>\n", f);
	}
}

/* The row of the states at @y: each state, or each column's when there are too many. */
static void draw_state_row(struct report *R, FILE *f, const struct bucket *bk, size_t nb,
			   uint64_t n, double y)
{
	fprintf(f, "<text x=\"4\" y=\"%.0f\">states</text>\n", y + 16);
	fprintf(f,
		"<rect x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"24\" fill=\"none\" "
		"stroke=\"#e0e0e0\"/>\n",
		SVG_LEFT, y, SVG_W);
	if (R->n <= STATE_MAX)
		draw_states(R, f, n, y);
	else
		draw_columns(f, bk, nb, n, y);
}

/* Each row of @rw below @*y, named: its writes, its flushes over them, its power cuts over
 * both. */
static void draw_rows(FILE *f, const struct rows *rw, const struct bucket *bk, size_t nb,
		      uint64_t n, double *y)
{
	for (unsigned r = 0; r < rw->n; r++) {
		char label[BO_LAYOUT_NAME_MAX + 24];

		*y += 18;
		fprintf(f, "<text x=\"4\" y=\"%.0f\">", *y + 11);
		report_esc(f, rw->name[r]);
		fputs("</text>\n", f);
		snprintf(label, sizeof(label), "%s writes", rw->name[r]);
		ticks(f, bk, nb, n, offsetof(struct bucket, row_w) + r * sizeof(uint32_t), *y,
		      label, "#b0bec5", true);
		snprintf(label, sizeof(label), "%s flushes", rw->name[r]);
		ticks(f, bk, nb, n, offsetof(struct bucket, row_f) + r * sizeof(uint32_t), *y,
		      label, "#1565c0", true);
		snprintf(label, sizeof(label), "%s power cut", rw->name[r]);
		ticks(f, bk, nb, n, offsetof(struct bucket, row_cut) + r * sizeof(uint32_t), *y,
		      label, "#c62828", true);
	}
}

/* The entries at the quarters of the log, dashed lines down to @y. */
static void draw_axis(FILE *f, uint64_t n, double y)
{
	for (int q = 0; q <= 4; q++) {
		double x = SVG_LEFT + SVG_W * q / 4.0;

		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"2\" y2=\"%.0f\" stroke=\"#bdbdbd\" "
			"stroke-dasharray=\"2,3\"/><text x=\"%.1f\" y=\"%.0f\" "
			"text-anchor=\"%s\">entry %" PRIu64 "</text>\n",
			x, x, y - 6, x, y + 10,
			q == 0	 ? "start"
			: q == 4 ? "end"
				 : "middle",
			q == 4 ? n - 1 : n * (uint64_t) q / 4);
	}
}

/* The colour of each class, and how many states were drawn. */
static void legend(struct report *R, FILE *f, size_t checked)
{
	fputs("<p>", f);
	for (unsigned c = 0; c < NCLASS; c++)
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>%s &nbsp; ",
			report_class_color(c), report_class_name(c));
	fprintf(f,
		"<span class=\"sw\" style=\"background:%s;border-radius:50%%\"></span>a finding "
		"beyond the class (a lost ack in a fsck-dirty state)",
		report_class_color(BO_CLASS_LOST_ACK));
	fprintf(f, "</p>\n<p class=\"muted\">%zu states drawn (%zu checked, %zu aliases).</p>\n",
		R->n, checked, R->n - checked);
}

/* The log's named marks (the first 200) with their entries; issue and ack marks counted. */
static void marks_table(struct report *R, FILE *f)
{
	size_t shown = 0, named = 0;

	if (!R->log || !bo_log_mark_count(R->log))
		return;
	for (size_t i = 0; i < bo_log_mark_count(R->log); i++) {
		const char *m = bo_log_mark_at(R->log, i)->name;

		named += strncmp(m, "issue:", 6) && strncmp(m, "ack:", 4);
	}
	fprintf(f,
		"<details><summary>%zu named marks (and %zu issue/ack marks)</summary>"
		"<table>",
		named, bo_log_mark_count(R->log) - named);
	for (size_t i = 0; i < bo_log_mark_count(R->log) && shown < 200; i++) {
		const struct bo_log_mark *m = bo_log_mark_at(R->log, i);

		if (!strncmp(m->name, "issue:", 6) || !strncmp(m->name, "ack:", 4))
			continue;
		fprintf(f, "<tr><td class=\"n\">entry %" PRIu64 "</td><td><code>", m->entry);
		report_esc(f, m->name);
		fputs("</code></td></tr>", f);
		shown++;
	}
	fputs(shown < named ? "<tr><td></td><td>...</td></tr></table></details>\n"
			    : "</table></details>\n",
	      f);
}

void report_html_timeline(struct report *R, FILE *f)
{
	uint64_t n = R->log ? bo_log_count(R->log) : 0;
	size_t nb, checked;
	_cleanup_free_ struct bucket *bk = NULL;
	_cleanup_free_ struct rows *rw = calloc(1, sizeof(*rw));
	double y, h;

	for (size_t i = 0; i < R->n; i++)
		if (R->st[i].cut > n && !R->log)
			n = R->st[i].cut;
	fputs("<h2 id=\"timeline-h\">Timeline of the write log</h2>\n", f);
	if (!R->log) {
		fputs("<p class=\"muted\">", f);
		report_esc(f, R->log_err);
		fputs(": the timeline shows the checked states only.</p>\n", f);
	}
	if (n == 0) {
		fputs("<p id=\"timeline\">Nothing to draw: no log entries and no states.</p>\n", f);
		return;
	}
	nb = n < R->o.buckets ? (size_t) n : R->o.buckets;
	bk = calloc(nb, sizeof(*bk));
	if (!bk || !rw) {
		fputs("<p id=\"timeline\">out of memory</p>\n", f);
		return;
	}
	find_rows(R, rw);
	count_entries(R, rw, bk, nb, n);
	checked = count_states(R, bk, nb, n);
	h = 2 + 46 + (6 + rw->n) * 18 + 24 + 34 + 16;
	fprintf(f,
		"<p class=\"muted\">%" PRIu64 " log entries%s in %zu columns of %.1f entries; "
		"x is the position in the log (entries in the order they became durable). Each "
		"checked state is drawn at its cut, coloured by class; hover for details, click a "
		"failing state to jump to it.</p>\n",
		n, R->log ? "" : " (from the states' cuts)", nb, (double) n / (double) nb);
	fprintf(f,
		"<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" "
		"viewBox=\"0 0 %d %.0f\" role=\"img\" aria-label=\"timeline of the write log\">\n",
		SVG_LEFT + SVG_W + 10, h);
	y = 2;
	draw_writes(f, bk, nb, n, y);
	y += 46;
	tick_row(f, bk, nb, n, offsetof(struct bucket, flush), y, "flush", "#1565c0");
	tick_row(f, bk, nb, n, offsetof(struct bucket, fua), y += 18, "FUA", "#6a1b9a");
	tick_row(f, bk, nb, n, offsetof(struct bucket, discard), y += 18, "discard", "#795548");
	tick_row(f, bk, nb, n, offsetof(struct bucket, named), y += 18, "marks", "#37474f");
	tick_row(f, bk, nb, n, offsetof(struct bucket, issue), y += 18, "issue", "#9e9e9e");
	tick_row(f, bk, nb, n, offsetof(struct bucket, ack), y += 18, "ack", "#00897b");
	tick_row(f, bk, nb, n, offsetof(struct bucket, lint), y += 18, "lint", "#e65100");
	draw_rows(f, rw, bk, nb, n, &y);
	y += 24;
	draw_state_row(R, f, bk, nb, n, y);
	y += 34;
	draw_axis(f, n, y);
	fputs("</svg>\n", f);
	legend(R, f, checked);
	marks_table(R, f);
}

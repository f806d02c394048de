// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.html: one self-contained page of a results directory read by report.c — summary,
 * environment, the write log's timeline (report_timeline.c), its durability lint and the states
 * that were not consistent.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/results/report_model.h"

void report_html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n<title>",
	      f);
	report_esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;"
	      "padding:0 1em;color:#212121}\n"
	      "h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin-top:1.6em;"
	      "border-bottom:1px solid #ddd}h3{font-size:1.05em;margin:1.2em 0 .3em}\n"
	      "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left;"
	      "vertical-align:top;border-bottom:1px solid #eee}th{background:#f5f5f5}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "pre{background:#f7f7f7;border:1px solid #e0e0e0;padding:6px;overflow:auto;"
	      "max-height:24em;white-space:pre-wrap;word-break:break-all;margin:.2em 0}\n"
	      ".sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;"
	      "vertical-align:-1px;margin-right:4px}\n"
	      ".verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;"
	      "font-weight:600}\n"
	      ".state{border-left:4px solid #ccc;padding-left:10px;margin:1em 0}\n"
	      "details>summary{cursor:pointer;color:#424242}\n"
	      "code{background:#f3f3f3;padding:0 3px}.muted{color:#757575}\n"
	      "svg text{font:11px system-ui,sans-serif;fill:#424242}\n"
	      "</style></head><body>\n",
	      f);
}

/* Every finding, whatever the class of the states that hold it: a milder-looking class never
 * hides a lost acknowledged op. */
static void section_findings(struct report *R, FILE *f)
{
	bool any = false;

	for (int k = 0; k < BO_FINDING_COUNT; k++)
		any |= R->sum.findings[k].states > 0;
	if (!any)
		return;
	fputs("<table id=\"findings\"><tr><th>finding</th><th>states</th><th>first state</th>"
	      "<th>ops</th></tr>\n",
	      f);
	for (int k = 0; k < BO_FINDING_COUNT; k++) {
		const struct bo_summary_finding *x = &R->sum.findings[k];

		if (!x->states)
			continue;
		fprintf(f, "<tr><td>%s</td><td class=\"n\">%" PRIu64 "</td><td>",
			bo_finding_name((enum bo_finding) k), x->states);
		if (report_id_ok(x->first)) {
			fputs("<a href=\"#s-", f);
			report_esc(f, x->first);
			fputs("\">", f);
		}
		report_esc(f, x->first);
		fputs(report_id_ok(x->first) ? "</a></td><td>" : "</td><td>", f);
		for (unsigned i = 0; i < x->n_ops; i++)
			fprintf(f, "%s%" PRIu64, i ? "," : "", x->ops[i]);
		fputs(x->more ? ",...</td></tr>\n" : "</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void section_summary(struct report *R, FILE *f)
{
	char also[512];

	enum bo_verdict_kind v = R->have_sum && !R->contradiction[0] ? bo_summary_verdict(&R->sum)
								     : BO_VERDICT_ERROR;
	const char *vc = v == BO_VERDICT_CONSISTENT ? "#2e7d32"
			 : v == BO_VERDICT_FAILED   ? "#c62828"
						    : "#212121";

	fprintf(f,
		"<p>verdict: <span class=\"verdict\" id=\"verdict\" style=\"background:%s\">%s"
		"</span>",
		vc, bo_verdict_name(v));
	if (R->contradiction[0]) {
		fputs("</p>\n<p id=\"contradiction\" style=\"background:#c62828;color:#fff;"
		      "padding:.5em;font-weight:bold\">",
		      f);
		report_esc(f, R->contradiction);
		fputs(": the verdict is not to be trusted</p>\n<p>", f);
	}
	if (!R->have_sum) {
		fputs(" <span class=\"muted\">(", f);
		report_esc(f, R->sum_err);
		fputs(")</span></p>\n", f);
		return;
	}
	fprintf(f,
		" &nbsp; %" PRIu64 " states checked, %" PRIu64 " aliased, %.1f s in all, %.1f s "
		"checking</p>\n",
		R->sum.states, R->sum.aliases, R->sum.seconds_total, R->sum.seconds_check);
	if (R->sum.error[0]) {
		fputs("<p><b>error:</b> <code>", f);
		report_esc(f, R->sum.error);
		fputs("</code></p>\n", f);
	}
	fputs("<table id=\"summary\"><tr><th>class</th><th>states</th><th>first state</th>"
	      "<th>also found</th></tr>\n",
	      f);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		if (!R->sum.counts[c] && c != BO_CLASS_CONSISTENT)
			continue;
		fprintf(f,
			"<tr><td><span class=\"sw\" style=\"background:%s\"></span>%s</td>"
			"<td class=\"n\">%" PRIu64 "</td><td>",
			report_class_color((unsigned) c), report_class_name((unsigned) c),
			R->sum.counts[c]);
		if (c != BO_CLASS_CONSISTENT && R->sum.first[c][0]) {
			if (report_id_ok(R->sum.first[c])) {
				fputs("<a href=\"#s-", f);
				report_esc(f, R->sum.first[c]);
				fputs("\">", f);
				report_esc(f, R->sum.first[c]);
				fputs("</a>", f);
			} else {
				report_esc(f, R->sum.first[c]);
			}
		}
		fputs("</td><td class=\"also\">", f);
		report_esc(f, bo_summary_also_str(&R->sum, (enum bo_class) c, also, sizeof(also)));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	section_findings(R, f);
}

static void row(FILE *f, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	fputs("<tr><th>", f);
	report_esc(f, k);
	fputs("</th><td><code>", f);
	report_esc(f, v);
	fputs("</code></td></tr>\n", f);
}

static void section_environment(struct report *R, FILE *f)
{
	static const struct {
		const char *label, *path;
	} keys[] = {
		{"run id", "run_id"},
		{"kind", "kind"},
		{"scenario", "scenario.name"},
		{"description", "scenario.description"},
		{"scenario file", "scenario.file"},
		{"filesystem", "device.fs"},
		{"filesystem", "options.fs"},
		{"device size", "device.size"},
		{"sector size", "device.sector_size"},
		{"mkfs options", "device.mkfs_options"},
		{"mount options", "device.mount_options"},
		{"mount options", "options.mount_options"},
		{"workload", "workload.command"},
		{"seed", "run.seed"},
		{"seed", "options.seed"},
		{"cut policy", "check.cuts.policy"},
		{"cut policy", "options.cuts"},
		{"checker", "check.checker"},
		{"checker", "options.checker"},
		{"state", "options.state"},
		{"shard", "shard"},
		{"log sha256", "log_sha256"},
		{"blackout version", "blackout"},
		{"host kernel", "host_kernel"},
	};
	_cleanup_free_ char *versions = NULL;
	struct bo_err e = {0};
	uint64_t total = 0;

	fputs("<h2 id=\"environment\">Scenario and environment</h2>\n<table>\n", f);
	if (!R->config)
		row(f, "config.json", R->cfg_err);
	for (size_t i = 0; R->config && i < BO_ARRAY_SIZE(keys); i++)
		row(f, keys[i].label, report_cfg_str(R->config, keys[i].path));
	/* The crash-state model the states were drawn under (docs/crash-states.md). */
	if (R->config) {
		const char *p = report_cfg_str(R->config, "options.persona");

		p = p ? p : report_cfg_str(R->config, "check.persona");
		row(f, "device persona", p ? p : "honest");
	}
	versions = report_read_capped(R->dirfd, "diagnostics/pre/versions.txt", 8192, &total, &e);
	if (versions) {
		char *nl = strchr(versions, '\n');

		if (!strncmp(versions, "kernel: ", 8)) {
			if (nl)
				*nl = '\0';
			row(f, "guest kernel", versions + 8);
			if (nl)
				*nl = '\n';
		}
	}
	fputs("</table>\n", f);
	report_refused(f, &e, true);
	if (versions) {
		fputs("<details><summary>guest versions (diagnostics/pre/versions.txt)</summary>"
		      "<pre>",
		      f);
		report_esc(f, versions);
		fputs("</pre></details>\n", f);
	}
	if (R->config) {
		fputs("<details><summary>config.json</summary><pre>", f);
		report_esc(f, json_object_to_json_string_ext(
				      R->config,
				      JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		fputs("</pre></details>\n", f);
	}
}

static void byproduct(struct report *R, FILE *f, const struct rstate *s, const char *name,
		      bool open)
{
	char rel[PATH_MAX];
	_cleanup_free_ char *text = NULL;
	struct bo_err e = {0};
	uint64_t total = 0;

	if (snprintf(rel, sizeof(rel), "states/%s/%s", s->id, name) >= (int) sizeof(rel))
		return;
	text = report_read_capped(R->dirfd, rel, R->o.byproduct_max, &total, &e);
	if (!text) {
		report_refused(f, &e, true);
		return;
	}
	fprintf(f, "<details class=\"bp\"%s><summary>%s (%" PRIu64 " bytes)</summary>",
		open && *text ? " open" : "", name, total);
	if (*text) {
		fputs("<pre>", f);
		report_esc(f, text);
		if (total > R->o.byproduct_max)
			fprintf(f, "\n[... %" PRIu64 " more bytes in ", total - R->o.byproduct_max);
		if (total > R->o.byproduct_max) {
			report_esc(f, rel);
			fputs("]", f);
		}
		fputs("</pre>", f);
	}
	fputs("</details>\n", f);
}

/* A cluster's state (docs/clusters.md): each survivor's by-products under nodes/NAME/, its
 * recovery log open. The names are the record's, the guest's word: only plain ones are read. */
static void node_byproducts(struct report *R, FILE *f, const struct rstate *s)
{
	static const char *const files[] = {"recovery.log", "writes.txt", "dmesg.txt"};
	struct json_object *v;
	const char *t;

	if (!json_object_object_get_ex(s->rec, "survivors", &v) || !(t = json_object_get_string(v)))
		return;
	while (*t) {
		size_t len = strcspn(t, "+");
		bool plain = len > 0 && len <= 16 &&
			     strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_") >= len;
		char name[64];

		for (size_t i = 0; plain && i < BO_ARRAY_SIZE(files); i++) {
			snprintf(name, sizeof(name), "nodes/%.*s/%s", (int) len, t, files[i]);
			byproduct(R, f, s, name, i == 0);
		}
		t += len + (t[len] == '+');
	}
}

static void section_states(struct report *R, FILE *f)
{
	size_t failing = 0, full = 0, listed = 0;

	for (size_t i = 0; i < R->n; i++)
		failing += !R->st[i].alias && R->st[i].cls != BO_CLASS_CONSISTENT;
	fprintf(f, "<h2 id=\"failing\">Failing states (%zu)</h2>\n", failing);
	if (!failing) {
		fputs("<p>None: every checked state was consistent.</p>\n", f);
		return;
	}
	if (failing > R->o.full_states)
		fprintf(f,
			"<p class=\"muted\">The first %zu are shown with their by-products; the "
			"rest are listed with links to their directories.</p>\n",
			R->o.full_states);
	for (size_t i = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		struct json_object *v;
		_cleanup_free_ char *repro = NULL, *sh = NULL;
		char rel[PATH_MAX];

		if (s->alias || s->cls == BO_CLASS_CONSISTENT)
			continue;
		if (full >= R->o.full_states)
			break;
		full++;
		fprintf(f, "<div class=\"state\" style=\"border-color:%s\"",
			report_class_color(s->cls));
		if (s->path_ok) {
			fputs(" id=\"s-", f);
			report_esc(f, s->id);
			fputs("\"", f);
		}
		fputs("><h3>", f);
		report_esc(f, s->id);
		fprintf(f,
			" &mdash; <span style=\"color:%s\">%s</span> <span class=\"muted\">cut "
			"%" PRIu64 ", %.2f s",
			report_class_color(s->cls), report_class_name(s->cls), s->cut, s->seconds);
		if (s->path_ok) {
			fputs(", <a href=\"states/", f);
			report_esc(f, s->id);
			fputs("/\">states/", f);
			report_esc(f, s->id);
			fputs("/</a>", f);
		}
		fputs("</span></h3>\n", f);
		if (s->findings) {
			fputs("<p class=\"findings\"><b>findings:</b> ", f);
			report_esc(f, s->findings);
			if (s->also)
				fputs(" <span class=\"muted\">(beyond its class)</span>", f);
			fputs("</p>\n", f);
		}
		if (json_object_object_get_ex(s->rec, "error", &v)) {
			fputs("<p><b>error:</b> <code>", f);
			report_esc(f, json_object_get_string(v));
			fputs("</code></p>\n", f);
		}
		/* Its minimal witness (check --witness), as the record tells it. */
		if (json_object_object_get_ex(s->rec, "witness", &v) &&
		    json_object_object_get_ex(v, "story", &v)) {
			fputs("<div class=\"witness\"><b>minimal witness</b><pre>", f);
			report_esc(f, json_object_get_string(v));
			fputs("</pre></div>\n", f);
		}
		if (!s->path_ok) {
			fputs("<p class=\"muted\">(state id not usable as a directory "
			      "name)</p></div>\n",
			      f);
			continue;
		}
		/* What it runs is the whole of repro.sh, shown below: not one line of it. */
		if (snprintf(rel, sizeof(rel), "states/%s/repro.sh", s->id) < (int) sizeof(rel))
			repro = report_read_capped(R->dirfd, rel, 0, NULL, NULL);
		sh = repro ? bo_shell_quote(rel) : NULL;
		if (sh) {
			fputs("<p>reproduce: <code>sh ", f);
			report_esc(f, sh);
			fputs("</code> (repro.sh below)</p>\n", f);
		}
		byproduct(R, f, s, "verdict.txt", true);
		byproduct(R, f, s, "mount.err", true);
		byproduct(R, f, s, "fsck.out", true);
		byproduct(R, f, s, "checker.out", true);
		byproduct(R, f, s, "dmesg.txt", false);
		node_byproducts(R, f, s);
		byproduct(R, f, s, "repro.sh", true);
		fputs("</div>\n", f);
	}
	if (full == failing)
		return;
	fputs("<h3>More failing states</h3>\n<table id=\"more\"><tr><th>state</th><th>class</th>"
	      "<th>cut</th><th>details</th></tr>\n",
	      f);
	for (size_t i = 0, k = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		struct json_object *v;

		if (s->alias || s->cls == BO_CLASS_CONSISTENT || k++ < full)
			continue;
		if (listed >= R->o.listed_states)
			break;
		listed++;
		fputs("<tr><td>", f);
		if (s->path_ok) {
			fputs("<a href=\"states/", f);
			report_esc(f, s->id);
			fputs("/\">", f);
			report_esc(f, s->id);
			fputs("</a>", f);
		} else {
			report_esc(f, s->id);
		}
		fprintf(f,
			"</td><td><span class=\"sw\" style=\"background:%s\"></span>%s</td>"
			"<td class=\"n\">%" PRIu64 "</td><td>",
			report_class_color(s->cls), report_class_name(s->cls), s->cut);
		if (json_object_object_get_ex(s->rec, "mounted", &v) && !json_object_get_boolean(v))
			fputs("not mounted ", f);
		if (json_object_object_get_ex(s->rec, "fsck", &v)) {
			fputs("fsck ", f);
			report_esc(f, json_object_get_string(v));
			fputs(" ", f);
		}
		if (s->findings) {
			report_esc(f, s->findings);
			fputs(" ", f);
		}
		if (json_object_object_get_ex(s->rec, "witness", &v) &&
		    json_object_object_get_ex(v, "size", &v))
			fprintf(f, "witness: %" PRIu64 " write%s ", json_object_get_uint64(v),
				json_object_get_uint64(v) == 1 ? "" : "s");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (full + listed < failing)
		fprintf(f,
			"<p class=\"muted\">... and %zu more: see stream.jsonl and states/.</p>\n",
			failing - full - listed);
}

/* The durability lint's findings (states/lint.h), the first of them one by one. */
static void section_lint(struct report *R, FILE *f)
{
	enum { SHOWN = 20 };
	char buf[256];

	if (!R->log)
		return;
	fputs("<h2 id=\"lint-h\">Durability lint</h2>\n<p id=\"lint\">", f);
	if (!R->lint.n) {
		fprintf(f,
			"Each of the %" PRIu64 " acks has a FLUSH or FUA entry between its issue "
			"and itself.</p>\n",
			R->lint.acks);
		return;
	}
	fprintf(f,
		"%zu of %" PRIu64 " acks have no FLUSH or FUA entry between their issue and "
		"themselves: no barrier could have made the op durable when it was acknowledged "
		"(the <em>lint</em> row of the timeline). A finding to look at, not a verdict: an "
		"op that wrote nothing needs no barrier. <code>blackout lint write.log</code> "
		"lists them all.</p>\n<ul class=\"lint\">\n",
		R->lint.n, R->lint.acks);
	for (size_t i = 0; i < R->lint.n && i < SHOWN; i++) {
		fputs("<li>", f);
		report_esc(f, bo_lint_finding_str(&R->lint.v[i], buf, sizeof(buf)));
		fputs("</li>\n", f);
	}
	if (R->lint.n > SHOWN)
		fprintf(f, "<li>... and %zu more</li>\n", R->lint.n - SHOWN);
	fputs("</ul>\n", f);
}

void report_write_html(struct report *R, FILE *f)
{
	const char *name = R->config ? report_cfg_str(R->config, "scenario.name") : NULL;
	const char *runid = R->config ? report_cfg_str(R->config, "run_id") : NULL;
	char title[256];

	snprintf(title, sizeof(title), "blackout %s%s%s", name ? name : "check", runid ? " " : "",
		 runid ? runid : "");
	report_html_head(f, title);
	fputs("<h1>", f);
	report_esc(f, title);
	fputs("</h1>\n", f);
	section_summary(R, f);
	section_environment(R, f);
	report_html_timeline(R, f);
	section_lint(R, f);
	section_states(R, f);
	if (R->torn)
		fputs("<p class=\"muted\">The last record of stream.jsonl was cut short (blackout "
		      "or its VM stopped while writing it): it is not shown.</p>\n",
		      f);
	fputs("<p class=\"muted\">Files: <a href=\"summary.json\">summary.json</a> "
	      "<a href=\"stream.jsonl\">stream.jsonl</a> <a href=\"config.json\">config.json</a> "
	      "<a href=\"junit.xml\">junit.xml</a> <a href=\"vm/console.log\">vm/console.log</a> "
	      "<a href=\"states/\">states/</a>. Written by <code>blackout report</code>.</p>\n"
	      "</body></html>\n",
	      f);
}

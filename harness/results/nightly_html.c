// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nightly_html.c — a nightly tree's index.html (docs/nightly.md): every run with its counts
 * and links, and the comparison with the baseline. Its strings come from the runs'
 * summary.json files, which their guests wrote: every one is escaped (bo_report_escape()), a
 * verdict or a class is shown only when it is one blackout knows, and the page runs no
 * script (Content-Security-Policy), as report.html.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/file.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/results/report.h"
#include "harness/states/classify.h"

static void esc(FILE *f, const char *s)
{
	if (s)
		bo_report_escape(f, s, strlen(s));
}

/* @v when it is a verdict a nightly writes, else "error": it names a CSS class too. */
static const char *verdict(const char *v)
{
	static const char *const known[] = {"consistent", "failed", "error"};

	for (size_t i = 0; v && i < BO_ARRAY_SIZE(known); i++)
		if (!strcmp(v, known[i]))
			return known[i];
	return "error";
}

static void failures(FILE *f, const char *title, struct json_object *a)
{
	size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;

	fprintf(f, "<h2>%s (%zu)</h2>\n", title, n);
	if (!n)
		return;
	fputs("<table><tr><th>scenario</th><th>fs</th><th>options</th><th>state</th>"
	      "<th>class</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		const char *keys[] = {"scenario", "fs", "mount_options", "state", "class"};

		fputs("<tr>", f);
		for (size_t k = 0; k < BO_ARRAY_SIZE(keys); k++) {
			fputs("<td>", f);
			esc(f, bo_json_str(o, keys[k]));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A run's counts: the classes blackout knows, by name, and nothing else. */
static void counts(FILE *f, struct json_object *r)
{
	struct json_object *c, *v;

	if (!json_object_object_get_ex(r, "counts", &c) ||
	    !json_object_is_type(c, json_type_object))
		return;
	for (enum bo_class k = 0; k < BO_CLASS_COUNT; k++) {
		uint64_t n;

		if (!json_object_object_get_ex(c, bo_class_name(k), &v) ||
		    !json_object_is_type(v, json_type_int) || !(n = json_object_get_uint64(v)))
			continue;
		fprintf(f, "%s: %" PRIu64 " ", bo_class_name(k), n);
	}
}

static void run_row(FILE *f, struct json_object *r)
{
	const char *keys[] = {"name", "scenario", "fs", "mount_options"};
	const char *v = verdict(bo_json_str(r, "verdict"));
	struct json_object *failing;

	fprintf(f, "<tr class=\"%s\">", v);
	for (size_t k = 0; k < BO_ARRAY_SIZE(keys); k++) {
		fputs("<td>", f);
		esc(f, bo_json_str(r, keys[k]));
		fputs("</td>", f);
	}
	fprintf(f, "<td>%s</td><td>", v);
	counts(f, r);
	fputs("</td><td>", f);
	if (json_object_object_get_ex(r, "failing", &failing) &&
	    json_object_is_type(failing, json_type_array))
		for (size_t j = 0; j < json_object_array_length(failing) && j < 20; j++) {
			esc(f, bo_json_str(json_object_array_get_idx(failing, j), "state"));
			fputc(' ', f);
		}
	fputs("</td><td>", f);
	if (bo_json_str(r, "results")) {
		fputs("<a href=\"", f);
		esc(f, bo_json_str(r, "results"));
		fputs("/\">results</a> <a href=\"", f);
		esc(f, bo_json_str(r, "report"));
		fputs("\">report</a> ", f);
	}
	fputs("<a href=\"", f);
	esc(f, bo_json_str(r, "log"));
	fputs("\">log</a></td></tr>\n", f);
}

int bo_nightly_index(const char *path, struct json_object *sum, struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *runs, *base, *a;
	bool bad;
	int k;

	if (!f)
		return bo_err_set(err, ENOMEM, "writing '%s': out of memory", path);
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n<title>blackout nightly</title>\n"
	      "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
	      "collapse}td,th{border:1px solid #999;padding:.2em .6em;text-align:left}"
	      ".failed{background:#fdd}.error{background:#fec}.consistent{background:#dfd}"
	      "</style></head><body>\n<h1>blackout nightly</h1>\n",
	      f);
	fprintf(f, "<p>verdict: <b>%s</b>, ", verdict(bo_json_str(sum, "verdict")));
	esc(f, bo_json_str(sum, "started"));
	fputs("</p>\n<table><tr><th>run</th><th>scenario</th><th>fs</th><th>options</th>"
	      "<th>verdict</th><th>counts</th><th>failing states</th><th>links</th></tr>\n",
	      f);
	if (json_object_object_get_ex(sum, "runs", &runs) &&
	    json_object_is_type(runs, json_type_array))
		for (size_t i = 0; i < json_object_array_length(runs); i++)
			run_row(f, json_object_array_get_idx(runs, i));
	fputs("</table>\n", f);
	if (json_object_object_get_ex(sum, "baseline", &base)) {
		fputs("<p>baseline: ", f);
		esc(f, bo_json_str(base, "path"));
		fputs("</p>\n", f);
		failures(f, "New failures", json_object_object_get_ex(base, "new", &a) ? a : NULL);
		failures(f, "Fixed", json_object_object_get_ex(base, "fixed", &a) ? a : NULL);
		failures(f, "Unchanged failures",
			 json_object_object_get_ex(base, "unchanged", &a) ? a : NULL);
	}
	fputs("</body></html>\n", f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return bo_err_set(err, ENOMEM, "writing '%s': out of memory", path);
	/* Whole or not at all: a temporary beside it, renamed. */
	k = bo_write_file_at(AT_FDCWD, path, buf, len);
	if (k < 0)
		return bo_err_set(err, -k, "writing '%s': %s", path, strerror(-k));
	return 0;
}

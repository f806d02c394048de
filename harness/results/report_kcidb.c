// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcidb.json: results directories as KernelCI's report data (KCIDB, schema v5.3; docs/
 * results.md), to be submitted beside junit.xml. Origin "blackout". The kernel each ran is a
 * checkout and a build (its release: a Debian package's or a build tree's); each class of
 * states with states in it is a test, as junit.xml has its testcases, at the path
 * blackout.SUITE.CLASS; a run that ended in an error, or has no summary, one test more whose
 * status is ERROR. Statuses: consistent PASS, a harness error ERROR, every other class FAIL.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/results/report.h"
#include "harness/results/report_model.h"

#define ORIGIN "blackout"

/* @s as one segment of a KCIDB path ([a-zA-Z0-9_-]), anything else '_', into @buf. */
static const char *segment(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		buf[n++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
					   (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'
				   ? *s
				   : '_';
	buf[n] = '\0';
	return n ? buf : "_";
}

/* Whether array @a holds an object whose "id" is @id. */
static bool has_id(struct json_object *a, const char *id)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *v;

		if (json_object_object_get_ex(json_object_array_get_idx(a, i), "id", &v) &&
		    !strcmp(json_object_get_string(v), id))
			return true;
	}
	return false;
}

static void put(struct json_object *o, const char *k, const char *v)
{
	if (v && *v)
		json_object_object_add(o, k, json_object_new_string(v));
}

/* The run's start as a date-time with its zone ("Z" where config.json's has none). */
static void started(struct report *R, char *buf, size_t len)
{
	const char *s = R->config ? report_cfg_str(R->config, "started") : NULL;
	unsigned y, mo, d, h, mi, sec;

	buf[0] = '\0';
	if (s && sscanf(s, "%4u-%2u-%2uT%2u:%2u:%2u", &y, &mo, &d, &h, &mi, &sec) == 6)
		snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02uZ", y, mo, d, h, mi, sec);
}

/* The kernel of @R: its checkout and build (once per kernel), into @co and @bu; its build's
 * id into @build. */
static void kernel(struct report *R, struct json_object *co, struct json_object *bu, char *build,
		   size_t len)
{
	const char *rel = R->config ? report_cfg_str(R->config, "kernel.release") : NULL;
	const char *pkg = R->config ? report_cfg_str(R->config, "kernel.package") : NULL;
	const char *tree = R->config ? report_cfg_str(R->config, "kernel.tree") : NULL;
	const char *sha = R->config ? report_cfg_str(R->config, "kernel.image_sha256") : NULL;
	const char *desc = R->config ? report_cfg_str(R->config, "kernel.describe") : NULL;
	char checkout[256], comment[PATH_MAX + 64];
	struct json_object *o;

	if (!rel || !*rel)
		rel = *R->guest_release ? R->guest_release : "unknown";
	/* A build tree is its own kernel, whatever release it calls itself (a fix built with the
	 * release of the package it fixes): known by its image too. */
	snprintf(checkout, sizeof(checkout), ORIGIN ":%s%s%.16s", rel, tree && sha ? "@" : "",
		 tree && sha ? sha : "");
	snprintf(build, len, "%s/x86_64", checkout);
	if (tree)
		snprintf(comment, sizeof(comment), "a kernel build tree: %s", tree);
	else
		snprintf(comment, sizeof(comment), "%s", pkg ? pkg : "a kernel build tree");
	if (!has_id(co, checkout)) {
		o = json_object_new_object();
		put(o, "id", checkout);
		put(o, "origin", ORIGIN);
		put(o, "tree_name", pkg && !strncmp(pkg, "linux-image-", 12) ? "debian" : rel);
		put(o, "git_commit_name", desc && *desc ? desc : rel);
		put(o, "comment", comment);
		json_object_array_add(co, o);
	}
	if (!has_id(bu, build)) {
		o = json_object_new_object();
		put(o, "id", build);
		put(o, "checkout_id", checkout);
		put(o, "origin", ORIGIN);
		put(o, "architecture", "x86_64");
		put(o, "comment", "booted in blackout's VM");
		put(o, "status", "PASS");
		json_object_array_add(bu, o);
	}
}

/* A test of @R: @name its last path segment, @status, @comment. */
static void test(struct report *R, struct json_object *te, const char *build, const char *name,
		 const char *status, const char *comment, double seconds, const char *first)
{
	const char *run = R->config ? report_cfg_str(R->config, "run_id") : NULL;
	char suite[512], seg[512], seg2[64], path[600], id[800], when[40];
	struct json_object *o = json_object_new_object(), *misc = json_object_new_object();

	report_suite_name(R, suite, sizeof(suite));
	snprintf(path, sizeof(path), ORIGIN ".%s.%s", segment(suite, seg, sizeof(seg)),
		 segment(name, seg2, sizeof(seg2)));
	snprintf(id, sizeof(id), ORIGIN ":%s/%s/%s", run ? run : R->dir, suite, name);
	started(R, when, sizeof(when));
	put(o, "id", id);
	put(o, "build_id", build);
	put(o, "origin", ORIGIN);
	put(o, "path", path);
	put(o, "status", status);
	put(o, "comment", comment);
	put(o, "start_time", when);
	json_object_object_add(o, "duration", json_object_new_double(seconds));
	put(misc, "results", R->dir);
	put(misc, "first_state", first);
	json_object_object_add(o, "misc", misc);
	json_object_array_add(te, o);
}

/* @R's kernel and tests into the three arrays. */
static void add(struct report *R, struct json_object *co, struct json_object *bu,
		struct json_object *te)
{
	char build[300], comment[1200];

	kernel(R, co, bu, build, sizeof(build));
	if (!R->have_sum || R->sum.error[0] || R->sum.states == 0 || R->contradiction[0]) {
		snprintf(comment, sizeof(comment), "the run did not complete: %s",
			 !R->have_sum	       ? "no summary.json"
			 : R->sum.error[0]     ? R->sum.error
			 : R->contradiction[0] ? R->contradiction
					       : "no state was checked");
		test(R, te, build, "run", "ERROR", comment, R->have_sum ? R->sum.seconds_total : 0,
		     NULL);
	}
	for (unsigned c = 0; R->have_sum && c < BO_CLASS_COUNT; c++) {
		uint64_t k = R->sum.counts[c];

		if (!k && c != BO_CLASS_CONSISTENT)
			continue;
		snprintf(comment, sizeof(comment), "%" PRIu64 " state%s %s", k, k == 1 ? "" : "s",
			 report_class_name(c));
		test(R, te, build, report_class_name(c),
		     c == BO_CLASS_CONSISTENT	? "PASS"
		     : report_class_is_error(c) ? "ERROR"
						: "FAIL",
		     comment, R->class_seconds[c],
		     c == BO_CLASS_CONSISTENT ? NULL : R->sum.first[c]);
	}
}

int bo_report_kcidb(const char *out, const struct bo_junit_cell *cells, size_t n,
		    struct bo_err *err)
{
	struct json_object *doc = json_object_new_object(), *v = json_object_new_object();
	struct json_object *co = json_object_new_array(), *bu = json_object_new_array();
	struct json_object *te = json_object_new_array();
	const char *slash = strrchr(out, '/'), *text;
	_cleanup_close_ int dirfd = -1;
	char dir[PATH_MAX];
	int r = 0;

	json_object_object_add(v, "major", json_object_new_int(5));
	json_object_object_add(v, "minor", json_object_new_int(3));
	json_object_object_add(doc, "version", v);
	for (size_t i = 0; i < n; i++) {
		struct bo_err e = {0};
		struct report R;

		/* a cell without results has no kernel that ran: nothing to say of it */
		if (cells[i].dir && report_open(&R, cells[i].dir, NULL, &e) >= 0) {
			R.suite = cells[i].name;
			add(&R, co, bu, te);
		}
		if (cells[i].dir)
			report_close(&R);
	}
	json_object_object_add(doc, "checkouts", co);
	json_object_object_add(doc, "builds", bu);
	json_object_object_add(doc, "tests", te);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int) (slash - out) : 1, slash ? out : ".");
	dirfd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!text)
		r = bo_err_set(err, ENOMEM, "'%s': out of memory", out);
	else if (dirfd < 0)
		r = bo_err_set(err, errno, "'%s': %s", dir, strerror(errno));
	else if ((r = bo_write_file_at(dirfd, slash ? slash + 1 : out, text, strlen(text))) < 0)
		r = bo_err_set(err, -r, "writing '%s': %s", out, strerror(-r));
	json_object_put(doc);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * junit.xml: one testsuite per results directory read by report.c, one testcase per class,
 * for CI dashboards (docs/results.md). A suite's identity is its scenario, filesystem and
 * mount options, so that the cells of a nightly matrix, written into one file, never share
 * a test; its timestamp and host are those config.json recorded, not the renderer's.
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

/* What one by-product of the first failing state may put into system-out or system-err. */
#define EVIDENCE_MAX 4096

/* The config member at the first of @paths that holds a string, or NULL. */
static const char *cfg_first(struct report *R, const char *const *paths)
{
	for (; R->config && *paths; paths++) {
		const char *v = report_cfg_str(R->config, *paths);

		if (v)
			return v;
	}
	return NULL;
}

static const char *cfg_fs(struct report *R)
{
	static const char *const p[] = {"device.fs", "options.fs", NULL};

	return cfg_first(R, p);
}

static const char *cfg_mount_options(struct report *R)
{
	static const char *const p[] = {"device.mount_options", "options.mount_options", NULL};
	const char *v = cfg_first(R, p);

	return v && *v ? v : NULL;
}

void report_suite_name(struct report *R, char *buf, size_t len)
{
	const char *name = R->config ? report_cfg_str(R->config, "scenario.name") : NULL;
	const char *fs = cfg_fs(R), *mo = cfg_mount_options(R);

	if (R->suite) {
		snprintf(buf, len, "%s", R->suite);
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s%s%s", name ? name : "check", fs ? "@" : "", fs ? fs : "",
		 mo ? "+" : "", mo ? mo : "", R->suite_kernel ? "~" : "",
		 R->suite_kernel ? R->suite_kernel : "");
}

/* The JUnit classname of the suite's testcases: "blackout." and the suite's name with its
 * dots made '_', so that dashboards split package from class at the first dot. */
static void class_name(const char *suite, char *buf, size_t len)
{
	snprintf(buf, len, "blackout.%s", suite);
	for (char *p = buf + strlen("blackout."); *p; p++)
		if (*p == '.')
			*p = '_';
}

/* When the run started, as config.json has it; else from the run id (its UTC date and time);
 * else 1970. */
static void suite_stamp(struct report *R, char *buf, size_t len)
{
	const char *started = R->config ? report_cfg_str(R->config, "started") : NULL;
	const char *id = R->config ? report_cfg_str(R->config, "run_id") : NULL;
	unsigned y, mo, d, h, mi, s;

	snprintf(buf, len, "1970-01-01T00:00:00");
	if (started && sscanf(started, "%4u-%2u-%2uT%2u:%2u:%2u", &y, &mo, &d, &h, &mi, &s) == 6)
		snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02u", y, mo, d, h, mi, s);
	else if (id && sscanf(id, "%4u%2u%2u-%2u%2u%2u", &y, &mo, &d, &h, &mi, &s) == 6)
		snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02u", y, mo, d, h, mi, s);
}

/* A property, when it has a value. */
static void property(FILE *f, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	report_esc(f, value);
	fputs("\"/>\n", f);
}

/* The first failing state's by-product @name, capped, into the open system-out or -err. */
static void evidence(struct report *R, FILE *f, const char *state, const char *name)
{
	char rel[PATH_MAX];
	uint64_t total = 0;
	_cleanup_free_ char *text = NULL;
	struct bo_err e = {0};

	if (snprintf(rel, sizeof(rel), "states/%s/%s", state, name) >= (int) sizeof(rel))
		return;
	text = report_read_capped(R->dirfd, rel, EVIDENCE_MAX, &total, &e);
	if (!text && e.errnum != ENOENT) {
		fprintf(f, "== %s ==\n", name);
		report_refused(f, &e, false);
	}
	if (!text || !*text)
		return;
	fprintf(f, "== %s ==\n", name);
	report_esc(f, text);
	if (total > EVIDENCE_MAX)
		fprintf(f, "\n[... %" PRIu64 " bytes in all: %s/%s]", total, R->dir, rel);
	fputc('\n', f);
}

/* The testcase of class @c. */
static void testcase(struct report *R, FILE *f, const char *cls, unsigned c)
{
	uint64_t k = R->have_sum ? R->sum.counts[c] : 0;
	const char *first = R->have_sum ? R->sum.first[c] : "";
	bool bad = k && c != BO_CLASS_CONSISTENT;
	const char *tag = report_class_is_error(c) ? "error" : "failure";
	_cleanup_free_ char *repro = NULL, *sh = NULL;
	char rel[PATH_MAX + 16], also[512] = "";

	if (R->have_sum)
		bo_summary_also_str(&R->sum, (enum bo_class) c, also, sizeof(also));
	fputs("    <testcase classname=\"", f);
	report_esc(f, cls);
	fprintf(f, "\" name=\"%s\" time=\"%.3f\">\n", report_class_name(c), R->class_seconds[c]);
	if (!bad) {
		fprintf(f, "      <system-out>%" PRIu64 " state%s %s</system-out>\n", k,
			k == 1 ? "" : "s", report_class_name(c));
		fputs("    </testcase>\n", f);
		return;
	}
	/* The line to paste into a shell: the path quoted for it. What it runs is the whole of
	 * repro.sh, in system-out below. */
	if (report_id_ok(first) &&
	    snprintf(rel, sizeof(rel), "states/%s/repro.sh", first) < (int) sizeof(rel))
		repro = report_read_capped(R->dirfd, rel, 0, NULL, NULL);
	if (repro &&
	    snprintf(rel, sizeof(rel), "%s/states/%s/repro.sh", R->dir, first) < (int) sizeof(rel))
		sh = bo_shell_quote(rel);
	fprintf(f, "      <%s type=\"%s\" message=\"%" PRIu64 " state%s %s", tag,
		report_class_name(c), k, k == 1 ? "" : "s", report_class_name(c));
	if (*also) {
		fputs(" (", f);
		report_esc(f, also);
		fputs(")", f);
	}
	fputs("; first: ", f);
	report_esc(f, first);
	fputs("\">first failing state: ", f);
	report_esc(f, first);
	/* What the class does not say, and where to see it first. */
	for (int k2 = 0; *also && k2 < BO_FINDING_COUNT; k2++) {
		const struct bo_summary_finding *a = &R->sum.also[c][k2];

		if (!a->states)
			continue;
		fprintf(f, "\nalso %s in %" PRIu64 " of them, ops ",
			bo_finding_name((enum bo_finding) k2), a->states);
		for (unsigned i = 0; i < a->n_ops; i++)
			fprintf(f, "%s%" PRIu64, i ? "," : "", a->ops[i]);
		fputs(a->more ? ",...; first: " : "; first: ", f);
		report_esc(f, a->first);
	}
	fputs("\nstate directory: ", f);
	report_esc(f, R->dir);
	fputs("/states/", f);
	report_esc(f, first);
	fputs("/", f);
	if (sh) {
		fputs("\nrepro: sh ", f);
		report_esc(f, sh);
		fputs(" (repro.sh in system-out)", f);
	}
	fprintf(f, "\n</%s>\n", tag);
	/* The evidence of the first failing state: what it was, why the mount or fsck said
	 * so, what the checker said; the kernel's messages of that state apart. */
	fprintf(f, "      <system-out>%" PRIu64 " state%s %s; the first, ", k, k == 1 ? "" : "s",
		report_class_name(c));
	report_esc(f, first);
	fputs(":\n", f);
	if (report_id_ok(first)) {
		evidence(R, f, first, "verdict.txt");
		evidence(R, f, first, "mount.err");
		evidence(R, f, first, "fsck.out");
		evidence(R, f, first, "checker.out");
		evidence(R, f, first, "repro.sh");
	}
	fputs("</system-out>\n", f);
	if (report_id_ok(first)) {
		fputs("      <system-err>", f);
		evidence(R, f, first, "dmesg.txt");
		fputs("</system-err>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* The suite's tests, failures and errors. */
static void counts(struct report *R, unsigned *tests, unsigned *failures, unsigned *errors)
{
	bool run_error =
		!R->have_sum || R->sum.error[0] || R->sum.states == 0 || R->contradiction[0];

	*tests = BO_CLASS_COUNT + run_error;
	*failures = 0;
	*errors = run_error;
	for (int c = 0; R->have_sum && c < BO_CLASS_COUNT; c++) {
		if (!R->sum.counts[c] || c == BO_CLASS_CONSISTENT)
			continue;
		if (report_class_is_error((unsigned) c))
			(*errors)++;
		else
			(*failures)++;
	}
}

void report_junit_count(struct report *R, struct report_junit_totals *t)
{
	unsigned tests, failures, errors;

	counts(R, &tests, &failures, &errors);
	t->tests += tests;
	t->failures += failures;
	t->errors += errors;
	t->seconds += R->sum.seconds_total;
}

void report_junit_suite(struct report *R, FILE *f)
{
	static const char *const seeds[] = {"run.seed", "options.seed", NULL};
	char suite[512], cls[600], stamp[32], platform[600];
	const char *host = R->config ? report_cfg_str(R->config, "host") : NULL;
	bool run_error =
		!R->have_sum || R->sum.error[0] || R->sum.states == 0 || R->contradiction[0];
	unsigned tests, failures, errors;

	report_suite_name(R, suite, sizeof(suite));
	class_name(suite, cls, sizeof(cls));
	suite_stamp(R, stamp, sizeof(stamp));
	counts(R, &tests, &failures, &errors);

	fputs("  <testsuite name=\"", f);
	report_esc(f, suite);
	fprintf(f,
		"\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\" time=\"%.3f\" "
		"timestamp=\"%s\"",
		tests, failures, errors, R->sum.seconds_total, stamp);
	if (host) {
		fputs(" hostname=\"", f);
		report_esc(f, host);
		fputc('"', f);
	}
	fputs(">\n    <properties>\n", f);
	/* Under the names fstests' reports give them, which dashboards key on. */
	property(f, "SECTION", suite);
	property(f, "FSTYP", cfg_fs(R));
	property(f, "MKFS_OPTIONS",
		 R->config ? report_cfg_str(R->config, "device.mkfs_options") : NULL);
	property(f, "MOUNT_OPTIONS", cfg_mount_options(R));
	if (*R->guest_release) {
		snprintf(platform, sizeof(platform), "Linux/x86_64 %s %s", host ? host : "-",
			 R->guest_release);
		property(f, "PLATFORM", platform);
		property(f, "KERNEL", R->guest_release);
	}
	property(f, "run_id", R->config ? report_cfg_str(R->config, "run_id") : NULL);
	property(f, "blackout", R->config ? report_cfg_str(R->config, "blackout") : NULL);
	property(f, "seed", cfg_first(R, seeds));
	property(f, "results", R->dir);
	fputs("    </properties>\n", f);
	if (run_error) {
		fputs("    <testcase classname=\"", f);
		report_esc(f, cls);
		fputs("\" name=\"run\" time=\"0\">\n      <error type=\"harness\" message=\"", f);
		report_esc(f, R->contradiction[0] ? R->contradiction
			      : R->have_sum	  ? (R->sum.error[0] ? R->sum.error
								     : BO_SUMMARY_NOTHING_CHECKED)
						  : R->sum_err);
		fputs("\">results: ", f);
		report_esc(f, R->dir);
		fputs("</error>\n    </testcase>\n", f);
	}
	for (unsigned c = 0; c < BO_CLASS_COUNT; c++)
		testcase(R, f, cls, c);
	fputs("  </testsuite>\n", f);
}

void report_junit_missing(FILE *f, const char *name, const char *why, struct report_junit_totals *t)
{
	char cls[600];

	class_name(name, cls, sizeof(cls));
	t->tests++;
	t->errors++;
	fputs("  <testsuite name=\"", f);
	report_esc(f, name);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
	      "    <testcase classname=\"",
	      f);
	report_esc(f, cls);
	fputs("\" name=\"run\" time=\"0\">\n      <error type=\"harness\" message=\"", f);
	report_esc(f, why);
	fputs("\"/>\n    </testcase>\n  </testsuite>\n", f);
}

void report_junit_open(FILE *f, const struct report_junit_totals *t)
{
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"blackout\" "
		"tests=\"%u\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n",
		t->tests, t->failures, t->errors, t->seconds);
}

void report_junit_close(FILE *f)
{
	fputs("</testsuites>\n", f);
}

void report_write_junit(struct report *R, FILE *f)
{
	struct report_junit_totals t = {0};

	report_junit_count(R, &t);
	report_junit_open(f, &t);
	report_junit_suite(R, f);
	report_junit_close(f);
}

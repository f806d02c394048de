// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * junit.xml: one testcase per class of a results directory read by report.c, for CI.
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

#include "harness/base/macro.h"
#include "harness/results/report_model.h"

/* The JUnit name of the scenario: its name, else "check" with the filesystem. */
static void suite_name(struct report *R, char *buf, size_t len)
{
	const char *name = R->config ? report_cfg_str(R->config, "scenario.name") : NULL;
	const char *fs = R->config ? report_cfg_str(R->config, "options.fs") : NULL;

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "check%s%s", fs ? "-" : "", fs ? fs : "");
}

void report_write_junit(struct report *R, FILE *f)
{
	char suite[128], stamp[32] = "1970-01-01T00:00:00", host[256] = "localhost";
	unsigned failures = 0, errors = 0, tests = BO_CLASS_COUNT;
	bool run_error = !R->have_sum || R->sum.error[0] || R->sum.states == 0;
	struct stat st;

	suite_name(R, suite, sizeof(suite));
	if (fstatat(R->dirfd, "summary.json", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct tm tm;

		gmtime_r(&st.st_mtime, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	gethostname(host, sizeof(host) - 1);
	for (int c = 0; R->have_sum && c < BO_CLASS_COUNT; c++) {
		if (!R->sum.counts[c] || c == BO_CLASS_CONSISTENT)
			continue;
		if (report_class_is_error((unsigned) c))
			errors++;
		else
			failures++;
	}
	tests += run_error;
	errors += run_error;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"blackout\" "
		"tests=\"%u\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n",
		tests, failures, errors, R->sum.seconds_total);
	fputs("  <testsuite name=\"", f);
	report_esc(f, suite);
	fprintf(f,
		"\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\" time=\"%.3f\" "
		"timestamp=\"%s\" hostname=\"",
		tests, failures, errors, R->sum.seconds_total, stamp);
	report_esc(f, host);
	fputs("\">\n    <properties>\n", f);
	for (int i = 0; i < 5 && R->config; i++) {
		static const char *const k[] = {"run_id", "blackout", "device.fs",
						"device.mount_options", "run.seed"};
		const char *v = report_cfg_str(R->config, k[i]);

		if (!v)
			continue;
		fprintf(f, "      <property name=\"%s\" value=\"", k[i]);
		report_esc(f, v);
		fputs("\"/>\n", f);
	}
	fputs("      <property name=\"results\" value=\"", f);
	report_esc(f, R->dir);
	fputs("\"/>\n    </properties>\n", f);
	if (run_error) {
		fputs("    <testcase classname=\"blackout.", f);
		report_esc(f, suite);
		fputs("\" name=\"run\" time=\"0\">\n      <error type=\"harness\" message=\"", f);
		report_esc(f, R->have_sum ? (R->sum.error[0] ? R->sum.error
							     : "no crash state was checked")
					  : R->sum_err);
		fputs("\">results: ", f);
		report_esc(f, R->dir);
		fputs("</error>\n    </testcase>\n", f);
	}
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		uint64_t k = R->have_sum ? R->sum.counts[c] : 0;
		const char *first = R->have_sum ? R->sum.first[c] : "";
		bool bad = k && c != BO_CLASS_CONSISTENT;
		const char *tag = report_class_is_error((unsigned) c) ? "error" : "failure";

		fputs("    <testcase classname=\"blackout.", f);
		report_esc(f, suite);
		fprintf(f, "\" name=\"%s\" time=\"%.3f\">\n", report_class_name((unsigned) c),
			R->class_seconds[c]);
		if (bad) {
			_cleanup_free_ char *repro = NULL, *cmd = NULL;
			char rel[PATH_MAX];

			if (report_id_ok(first) && snprintf(rel, sizeof(rel), "states/%s/repro.sh",
							    first) < (int) sizeof(rel))
				repro = report_read_capped(R->dirfd, rel, 4096, NULL);
			cmd = report_repro_command(repro);
			fprintf(f,
				"      <%s type=\"%s\" message=\"%" PRIu64 " state%s %s; first: ",
				tag, report_class_name((unsigned) c), k, k == 1 ? "" : "s",
				report_class_name((unsigned) c));
			report_esc(f, first);
			fputs("\">first failing state: ", f);
			report_esc(f, first);
			fputs("\nstate directory: ", f);
			report_esc(f, R->dir);
			fputs("/states/", f);
			report_esc(f, first);
			fputs("/\nrepro: sh ", f);
			report_esc(f, R->dir);
			fputs("/states/", f);
			report_esc(f, first);
			fputs("/repro.sh", f);
			if (cmd) {
				fputs("\n  which runs: ", f);
				report_esc(f, cmd);
			}
			fprintf(f, "\n</%s>\n", tag);
		}
		fprintf(f, "      <system-out>%" PRIu64 " state%s %s</system-out>\n", k,
			k == 1 ? "" : "s", report_class_name((unsigned) c));
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

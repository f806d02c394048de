// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout report — write report.html and junit.xml of results directories again, from their
 * own files.
 */
#include <getopt.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/results/config.h"
#include "harness/results/report.h"
#include "harness/results/summary.h"

static void report_help(void)
{
	puts("usage: blackout report RESULTS-DIR...\n\n"
	     "Write RESULTS-DIR/report.html (a self-contained page: summary, scenario and\n"
	     "environment, a timeline of the write log with every checked state, the failing\n"
	     "states with their by-products) and RESULTS-DIR/junit.xml again from the\n"
	     "directory's own files. run, check and merge write both themselves.\n\n"
	     "Exit status: 0 written, 3 a directory could not be read or written, or its\n"
	     "summary.json contradicts its stream.jsonl (written, and said on the page).");
}

/*
 * Whether @dir is a run's results, to be reported: one whose summary.json and config.json,
 * when there, read (a format this blackout knows), and that has one of them or a stream.jsonl
 * (a run that died before its summary still gets a report saying so). An empty directory or
 * '/' gets none: a report would speak of a run that is not there.
 */
static int judge(const char *dir, struct bo_err *err)
{
	static const char *const files[] = {"summary.json", "config.json", "stream.jsonl"};
	struct json_object *cfg = NULL;
	struct bo_summary sum;
	char path[PATH_MAX];
	bool any = false;

	for (size_t k = 0; k < BO_ARRAY_SIZE(files); k++) {
		struct stat st;

		if (bo_pathf(path, sizeof(path), "%s/%s", dir, files[k]) < 0)
			return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dir);
		if (lstat(path, &st) < 0)
			continue;
		any = true;
		if (k == 0 && bo_summary_read(dir, &sum, NULL, err) < 0)
			return bo_err_prefix(err, "'%s'", dir);
		if (k == 1 && bo_config_read(dir, &cfg, err) < 0)
			return bo_err_prefix(err, "'%s'", dir);
		json_object_put(cfg);
		cfg = NULL;
	}
	if (!any)
		return bo_err_set(err, ENOENT,
				  "'%s' is not a results directory (no summary.json, "
				  "config.json or stream.jsonl): no report written",
				  dir);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{},
	};
	int c, ret = BO_EXIT_OK;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			report_help();
			return BO_EXIT_OK;
		}
		return bo_cli_usage_error("report", "bad option");
	}
	if (optind >= argc)
		return bo_cli_usage_error("report", "expected at least one RESULTS-DIR");
	for (int i = optind; i < argc; i++) {
		struct bo_err err = {0};
		int k;

		if (judge(argv[i], &err) < 0) {
			bo_cli_error("report: %s", bo_err_str(&err));
			ret = BO_EXIT_HARNESS;
			continue;
		}
		k = bo_report_write(argv[i], NULL, &err);
		if (k < 0) {
			bo_cli_error("report: %s", bo_err_str(&err));
			ret = BO_EXIT_HARNESS;
			continue;
		}
		/* Written, saying so on the page: the results contradict themselves. */
		if (k > 0) {
			bo_cli_error("report: %s", bo_err_str(&err));
			ret = BO_EXIT_HARNESS;
		}
		printf("%s/report.html\n%s/junit.xml\n", argv[i], argv[i]);
	}
	return ret;
}

const struct bo_cmd bo_cmd_report = {
	"report", cmd_report, "write report.html and junit.xml of a results directory again"};

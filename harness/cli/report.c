// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout report — write report.html and junit.xml of results directories again, from their
 * own files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/results/config.h"
#include "harness/results/report.h"
#include "harness/results/summary.h"

struct report_args {
	bool kcidb;
};

static const struct bo_opt report_opts[] = {
	{"kcidb", NULL, offsetof(struct report_args, kcidb), BO_OPT_HOST, NULL, NULL,
	 "also write RESULTS-DIR/kcidb.json: the results as KernelCI's report data\n"
	 "(KCIDB, schema v5.3), to submit with kcidb-submit"},
};

static void report_help(void)
{
	puts("usage: blackout report [--kcidb] RESULTS-DIR...\n\n"
	     "Write RESULTS-DIR/report.html (a self-contained page: summary, scenario and\n"
	     "environment, a timeline of the write log with every checked state, the failing\n"
	     "states with their by-products) and RESULTS-DIR/junit.xml again from the\n"
	     "directory's own files. run, check and merge write both themselves. Only a\n"
	     "results directory blackout made (its config.json, stream.jsonl and states/)\n"
	     "is written into.\n");
	bo_opts_help(stdout, report_opts, BO_ARRAY_SIZE(report_opts));
	puts("\nExit status: 0 written, 3 a directory could not be read or written or is not\n"
	     "blackout's, or its summary.json contradicts its stream.jsonl (written, and said\n"
	     "on the page).");
}

/* Add @what to the list @buf of what a directory lacks. */
static void lacks(char *buf, size_t len, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", what);
}

/*
 * Whether @dir is results blackout made, to be reported into: what a run, a check and a merge
 * write the moment their directory exists (stream.jsonl, states/ and a config.json of their
 * kind: a check's "kind": "check", a run's scenario and run id), and a summary.json, when
 * there, that reads (a format this blackout knows). A run that died before its summary still
 * gets a report saying so. A directory that lacks one of them (an empty one, '/', somebody's
 * directory holding a config.json or a stream.jsonl) gets nothing written into it: a report
 * would speak of a run that is not there.
 */
static int judge(const char *dir, struct bo_err *err)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_json_ struct json_object *cfg = NULL;
	struct bo_summary sum;
	char missing[160] = "";
	struct bo_err e = {0};
	struct stat st;
	int fd;

	if (dfd < 0)
		return bo_err_set(err, errno,
				  "'%s' is not a results directory (%s): no report written", dir,
				  strerror(errno));
	if (fstatat(dfd, "summary.json", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    bo_summary_read(dir, &sum, NULL, err) < 0)
		return bo_err_prefix(err, "'%s'", dir);
	if (bo_config_read(dir, &cfg, &e) < 0 && e.errnum != ENOENT)
		return bo_err_set(err, e.errnum, "'%s': %s", dir, bo_err_str(&e));
	if (!cfg)
		lacks(missing, sizeof(missing), "config.json");
	else if (!bo_config_is_check(cfg) && !bo_config_is_run(cfg))
		lacks(missing, sizeof(missing), "a config.json of a run or a check");
	fd = bo_input_openat(dfd, dir, "stream.jsonl", 0, 0, NULL, &e);
	if (fd < 0 && e.errnum != ENOENT)
		return bo_err_set(err, e.errnum, "%s", bo_err_str(&e));
	if (fd < 0)
		lacks(missing, sizeof(missing), "stream.jsonl");
	else
		close(fd);
	if (fstatat(dfd, "states", &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
		lacks(missing, sizeof(missing), "states/");
	if (*missing)
		return bo_err_set(err, ENOENT,
				  "'%s' is not a results directory of blackout (no %s; a run, a "
				  "check and a merge write each): no report written",
				  dir, missing);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	struct report_args ra = {0};
	const struct bo_opt_set sets[] = {{report_opts, BO_ARRAY_SIZE(report_opts), &ra}};
	int first = bo_opts_parse("report", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, report_help,
				  argc, argv);
	int ret = BO_EXIT_OK;

	if (first <= 0)
		return first ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (first >= argc)
		return bo_cli_usage_error("report", "expected at least one RESULTS-DIR");
	for (int i = first; i < argc; i++) {
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
		if (ra.kcidb) {
			const struct bo_junit_cell cell = {.dir = argv[i]};
			char out[PATH_MAX];

			if (snprintf(out, sizeof(out), "%s/kcidb.json", argv[i]) >=
				    (int) sizeof(out) ||
			    bo_report_kcidb(out, &cell, 1, &err) < 0) {
				bo_cli_error("report: %s", err.msg[0]
								   ? bo_err_str(&err)
								   : "kcidb.json: path too long");
				ret = BO_EXIT_HARNESS;
				continue;
			}
			printf("%s\n", out);
		}
	}
	return ret;
}

const struct bo_cmd bo_cmd_report = {
	"report", cmd_report, "write report.html and junit.xml of a results directory again"};

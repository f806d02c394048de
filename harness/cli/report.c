// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout report — write report.html and junit.xml of results directories again, from their
 * own files.
 */
#include <getopt.h>
#include <stdio.h>

#include "harness/cli/cli.h"
#include "harness/results/report.h"

static void report_help(void)
{
	puts("usage: blackout report RESULTS-DIR...\n\n"
	     "Write RESULTS-DIR/report.html (a self-contained page: summary, scenario and\n"
	     "environment, a timeline of the write log with every checked state, the failing\n"
	     "states with their by-products) and RESULTS-DIR/junit.xml again from the\n"
	     "directory's own files. run, check and merge write both themselves.\n\n"
	     "Exit status: 0 written, 3 a directory could not be read or written.");
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

		if (bo_report_write(argv[i], NULL, &err) < 0) {
			bo_cli_error("report: %s", bo_err_str(&err));
			ret = BO_EXIT_HARNESS;
			continue;
		}
		printf("%s/report.html\n%s/junit.xml\n", argv[i], argv[i]);
	}
	return ret;
}

const struct bo_cmd bo_cmd_report = {
	"report", cmd_report, "write report.html and junit.xml of a results directory again"};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout ctl — the control-channel client for shell workloads.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "scenarios/blackout-ctl.h"

static void help(void)
{
	puts("usage: blackout ctl [--print-entry] issue OPID\n"
	     "       blackout ctl [--print-entry] ack OPID\n"
	     "       blackout ctl [--print-entry] mark NAME\n\n"
	     "Tell the harness about a workload operation, through the socket named by\n"
	     "$BLACKOUT_CTL, and wait until the matching mark (issue:OPID, ack:OPID or NAME) is\n"
	     "in the write log, at most $BLACKOUT_CTL_TIMEOUT seconds (default 600). Op ids are\n"
	     "decimal and strictly increasing; acknowledge an op only once it is durable (after\n"
	     "fsync). See docs/ctl.md.\n\n"
	     "  --print-entry   print the log entry number of the inserted mark\n\n"
	     "Exit status: 0 done, 2 usage error, 3 the harness refused the request, could not\n"
	     "be reached or did not answer in time (the run is then failed).");
}

static int cmd_ctl(int argc, char **argv)
{
	static const struct option opts[] = {
		{"print-entry", no_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	bool print_entry = false;
	const char *verb, *arg;
	uint64_t entry;
	int c;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return BO_EXIT_OK;
		}
		if (c != 'p')
			return bo_cli_usage_error("ctl", "unknown option");
		print_entry = true;
	}
	if (argc - optind != 2)
		return bo_cli_usage_error("ctl", "expected a request and its argument");
	verb = argv[optind];
	arg = argv[optind + 1];
	if (strcmp(verb, "issue") && strcmp(verb, "ack") && strcmp(verb, "mark"))
		return bo_cli_usage_error("ctl", "unknown request '%s' (issue, ack or mark)", verb);
	if (bo_ctl_request(verb, arg, &entry) < 0) {
		bo_cli_error("%s", bo_ctl_error());
		return BO_EXIT_HARNESS;
	}
	if (print_entry)
		printf("%" PRIu64 "\n", entry);
	return BO_EXIT_OK;
}

const struct bo_cmd bo_cmd_ctl = {
	"ctl", cmd_ctl, "tell the harness about a workload operation (for shell workloads)"};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout ctl — the control-channel client for shell workloads.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "scenarios/blackout-ctl.h"

struct ctl_args {
	bool print_entry;
};

static const struct bo_opt ctl_opts[] = {
	{"print-entry", NULL, offsetof(struct ctl_args, print_entry), BO_OPT_HOST, NULL, NULL,
	 "print the log entry number of the inserted mark"},
};

static void help(void)
{
	puts("usage: blackout ctl [--print-entry] issue OPID\n"
	     "       blackout ctl [--print-entry] ack OPID\n"
	     "       blackout ctl [--print-entry] mark NAME\n\n"
	     "Tell the harness about a workload operation, through the socket named by\n"
	     "$BLACKOUT_CTL, and wait until the matching mark (issue:OPID, ack:OPID or NAME) is\n"
	     "in the write log, at most $BLACKOUT_CTL_TIMEOUT seconds (default 600). Op ids are\n"
	     "decimal and strictly increasing; acknowledge an op only once it is durable (after\n"
	     "fsync). See docs/ctl.md.\n");
	bo_opts_help(stdout, ctl_opts, BO_ARRAY_SIZE(ctl_opts));
	puts("\nExit status: 0 done, 2 usage error, 3 the harness refused the request, could not\n"
	     "be reached or did not answer in time (the run is then failed).");
}

static int cmd_ctl(int argc, char **argv)
{
	struct ctl_args a = {0};
	const struct bo_opt_set sets[] = {{ctl_opts, BO_ARRAY_SIZE(ctl_opts), &a}};
	const char *verb, *arg;
	uint64_t entry;
	int k;

	/* The request ends the options: a mark's NAME is the workload's, dashes and all. */
	k = bo_opts_parse("ctl", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST | BO_OPT_STOP, help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (argc - k != 2)
		return bo_cli_usage_error("ctl", "expected a request and its argument");
	verb = argv[k];
	arg = argv[k + 1];
	if (strcmp(verb, "issue") && strcmp(verb, "ack") && strcmp(verb, "mark"))
		return bo_cli_usage_error("ctl", "unknown request '%s' (issue, ack or mark)", verb);
	if (bo_ctl_request(verb, arg, &entry) < 0) {
		bo_cli_error("%s", bo_ctl_error());
		return BO_EXIT_HARNESS;
	}
	if (a.print_entry)
		printf("%" PRIu64 "\n", entry);
	return BO_EXIT_OK;
}

const struct bo_cmd bo_cmd_ctl = {
	"ctl", cmd_ctl, "tell the harness about a workload operation (for shell workloads)"};

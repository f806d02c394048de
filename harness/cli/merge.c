// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout merge — join the results directories of `blackout check --shard I/N`, run on any
 * machines, into the one results directory an unsharded check gives (harness/results/merge.h).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/cli/cli.h"
#include "harness/results/merge.h"

static void merge_help(void)
{
	puts("usage: blackout merge --out DIR SHARD-DIR...\n\n"
	     "Combine the results directories of `blackout check --shard I/N` (run on any\n"
	     "machines) into DIR, with the summary one unsharded check gives. Shards of\n"
	     "different logs, seeds or configurations are refused, as are missing or repeated\n"
	     "shards, a shard whose write.log is not the log its config.json names, and one\n"
	     "whose states/ holds anything but regular files of one name and at most 64 MiB.\n"
	     "Exit status as for check: 0 consistent, 1 failures, 3 error.");
}

static int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{"out", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	const char *out = NULL;
	struct bo_err err = {0};
	char abs[PATH_MAX];
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			merge_help();
			return BO_EXIT_OK;
		}
		if (c != 'o')
			return bo_cli_usage_error("merge", "bad option");
		out = optarg;
	}
	if (!out || optind >= argc)
		return bo_cli_usage_error("merge", "expected --out DIR and at least one SHARD-DIR");
	if (bo_merge(out, argv + optind, (size_t) (argc - optind), &err) < 0) {
		bo_cli_error("merge: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	return bo_cli_results(realpath(out, abs) ? abs : out, "merged");
}

const struct bo_cmd bo_cmd_merge = {"merge", cmd_merge,
				    "combine the results of check --shard I/N into one"};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout merge — join the results directories of `blackout check --shard I/N`, run on any
 * machines, into the one results directory an unsharded check gives (harness/results/merge.h).
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/results/merge.h"

struct merge_args {
	const char *out;
};

static const struct bo_opt merge_opts[] = {
	{"out", "DIR", offsetof(struct merge_args, out), BO_OPT_HOST, NULL, NULL, NULL},
};

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
	struct merge_args a = {0};
	const struct bo_opt_set sets[] = {{merge_opts, BO_ARRAY_SIZE(merge_opts), &a}};
	struct bo_err err = {0};
	char abs[PATH_MAX];
	int k;

	k = bo_opts_parse("merge", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, merge_help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (!a.out || k >= argc)
		return bo_cli_usage_error("merge", "expected --out DIR and at least one SHARD-DIR");
	if (bo_merge(a.out, argv + k, (size_t) (argc - k), &err) < 0) {
		bo_cli_error("merge: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	return bo_cli_results(realpath(a.out, abs) ? abs : a.out, "merged");
}

const struct bo_cmd bo_cmd_merge = {"merge", cmd_merge,
				    "combine the results of check --shard I/N into one"};

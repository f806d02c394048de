// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout synth — write a synthetic dm-log-writes log.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "harness/cli/cli.h"
#include "harness/log/synth.h"

static void help(void)
{
	puts("usage: blackout synth --out LOG [--entries N] [--seed N] [--sectorsize BYTES]\n"
	     "                      [--device-size BYTES] [--max-write BLOCKS]\n"
	     "                      [--flush-every N] [--mark-every N]\n\n"
	     "Write a synthetic log shaped like a filesystem workload: writes of 1..max-write\n"
	     "blocks, a flush about every N writes, FUA and metadata writes, discards, and\n"
	     "issue:/ack: mark pairs. The same options give the same bytes. For tests,\n"
	     "benchmarks and trying the other commands without a VM.\n\n"
	     "Defaults: --entries 2000 --seed 1 --sectorsize 4096 --device-size 268435456\n"
	     "          --max-write 64 --flush-every 20 --mark-every 10");
}

static int cmd_synth(int argc, char **argv)
{
	static const struct option opts[] = {
		{"out", required_argument, NULL, 'o'},
		{"entries", required_argument, NULL, 'n'},
		{"seed", required_argument, NULL, 's'},
		{"sectorsize", required_argument, NULL, 'b'},
		{"device-size", required_argument, NULL, 'd'},
		{"max-write", required_argument, NULL, 'm'},
		{"flush-every", required_argument, NULL, 'f'},
		{"mark-every", required_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	struct bo_synth_params p = {
		.seed = 1,
		.entries = 2000,
		.sectorsize = 4096,
		.max_blocks = 64,
		.flush_every = 20,
		.mark_every = 10,
	};
	uint64_t dev_size = 256ULL << 20, v;
	const char *out = NULL;
	struct bo_err err = {0};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return BO_EXIT_OK;
		}
		if (c == 'o') {
			out = optarg;
			continue;
		}
		if (c == '?' || bo_parse_u64(optarg, &v) < 0)
			return bo_cli_usage_error("synth", "bad option or value");
		switch (c) {
		case 'n':
			p.entries = v;
			break;
		case 's':
			p.seed = v;
			break;
		case 'b':
			p.sectorsize = (uint32_t) v;
			break;
		case 'd':
			dev_size = v;
			break;
		case 'm':
			p.max_blocks = (uint32_t) v;
			break;
		case 'f':
			p.flush_every = (uint32_t) v;
			break;
		case 'k':
			p.mark_every = (uint32_t) v;
			break;
		}
	}
	if (!out || optind != argc)
		return bo_cli_usage_error("synth", "--out LOG is required and takes no operands");
	if (!p.sectorsize)
		return bo_cli_usage_error("synth", "--sectorsize must be a power of two >= 512");
	if (!p.entries)
		return bo_cli_usage_error(
			"synth", "--entries 0: at least 1 (a log begins with its 'mkfs' mark)");
	p.dev_blocks = dev_size / p.sectorsize;
	if (bo_synth_log(out, &p, &err) < 0) {
		bo_cli_error("synth: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	printf("wrote '%s': %" PRIu64 " %s\n", out, p.entries,
	       BO_PLURAL(p.entries, "entry", "entries"));
	return BO_EXIT_OK;
}

const struct bo_cmd bo_cmd_synth = {"synth", cmd_synth,
				    "write a synthetic log (for tests, benchmarks, examples)"};

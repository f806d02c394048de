// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout synth — write a synthetic dm-log-writes log.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/log/log.h"
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

/* The largest write synth makes: its data is one buffer in memory, and a filesystem's
 * writes are far smaller. */
#define MAX_WRITE_BYTES (64u << 20)

/* The numbers synth takes, each within what its field and the log format hold: none is
 * truncated to fit. */
static const struct {
	int c;
	const char *name;
	uint64_t min, max;
} numbers[] = {
	{'n', "entries", 0, UINT64_MAX},
	{'s', "seed", 0, UINT64_MAX},
	{'b', "sectorsize", BO_LOG_MIN_SECTORSIZE, BO_LOG_MAX_SECTORSIZE},
	{'d', "device-size", 0, INT64_MAX},
	{'m', "max-write", 1, MAX_WRITE_BYTES / BO_LOG_MIN_SECTORSIZE},
	{'f', "flush-every", 0, UINT32_MAX},
	{'k', "mark-every", 0, UINT32_MAX},
};

/* The value @val of the number option @c into *@ret: 0, or a usage error saying its range. */
static int number(int c, const char *val, uint64_t *ret)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(numbers); i++) {
		int r;

		if (numbers[i].c != c)
			continue;
		r = bo_parse_u64_in(val, numbers[i].min, numbers[i].max, ret);
		if (r == -EINVAL)
			return bo_cli_usage_error("synth", "--%s '%s': not a number",
						  numbers[i].name, val);
		if (r < 0)
			return bo_cli_usage_error(
				"synth", "--%s '%s': out of range (%" PRIu64 " to %" PRIu64 ")",
				numbers[i].name, val, numbers[i].min, numbers[i].max);
		return 0;
	}
	return bo_cli_usage_error("synth", "bad option");
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
		.max_blocks = 64,
		.flush_every = 20,
		.mark_every = 10,
	};
	uint64_t dev_size = 256ULL << 20, ss = 4096, max_blocks = p.max_blocks, v = 0;
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
		if (number(c, optarg, &v) != 0)
			return BO_EXIT_USAGE;
		switch (c) {
		case 'n':
			p.entries = v;
			break;
		case 's':
			p.seed = v;
			break;
		case 'b':
			ss = v;
			break;
		case 'd':
			dev_size = v;
			break;
		case 'm':
			max_blocks = v;
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
	if (ss < BO_LOG_MIN_SECTORSIZE || (ss & (ss - 1)))
		return bo_cli_usage_error("synth",
					  "--sectorsize %" PRIu64 ": a power of two from %u to %u",
					  ss, BO_LOG_MIN_SECTORSIZE, BO_LOG_MAX_SECTORSIZE);
	if (!p.entries)
		return bo_cli_usage_error(
			"synth", "--entries 0: at least 1 (a log begins with its 'mkfs' mark)");
	if (!max_blocks || max_blocks * ss > MAX_WRITE_BYTES)
		return bo_cli_usage_error("synth",
					  "--max-write %" PRIu64 ": 1 to %" PRIu64
					  " blocks (at most %u MiB of %" PRIu64 "-byte blocks)",
					  max_blocks, MAX_WRITE_BYTES / ss, MAX_WRITE_BYTES >> 20,
					  ss);
	if (dev_size / ss < max_blocks)
		return bo_cli_usage_error("synth",
					  "--device-size %" PRIu64 ": at least --max-write %" PRIu64
					  " blocks of --sectorsize %" PRIu64 " (%" PRIu64 " bytes)",
					  dev_size, max_blocks, ss, max_blocks * ss);
	p.sectorsize = (uint32_t) ss;
	p.max_blocks = (uint32_t) max_blocks;
	p.dev_blocks = dev_size / ss;
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

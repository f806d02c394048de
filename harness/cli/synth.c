// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout synth — write a synthetic dm-log-writes log.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
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

/* What is wrong with @val as a number from @min to @max, or NULL. The numbers synth takes are
 * each within what its field and the log format hold: none is truncated to fit. */
static const char *in_range(const char *val, uint64_t min, uint64_t max)
{
	static char problem[64];
	uint64_t v;
	int r = bo_parse_u64_in(val, min, max, &v);

	if (r == -EINVAL)
		return "not a number";
	if (r < 0) {
		snprintf(problem, sizeof(problem), "out of range (%" PRIu64 " to %" PRIu64 ")", min,
			 max);
		return problem;
	}
	return NULL;
}

static const char *sectorsize_problem(const char *val)
{
	return in_range(val, BO_LOG_MIN_SECTORSIZE, BO_LOG_MAX_SECTORSIZE);
}

static const char *device_size_problem(const char *val)
{
	return in_range(val, 0, INT64_MAX);
}

static const char *max_write_problem(const char *val)
{
	return in_range(val, 1, MAX_WRITE_BYTES / BO_LOG_MIN_SECTORSIZE);
}

static const char *u32_problem(const char *val)
{
	return in_range(val, 0, UINT32_MAX);
}

static const char *u64_problem(const char *val)
{
	return in_range(val, 0, UINT64_MAX);
}

struct synth_args {
	const char *out, *entries, *seed, *sectorsize, *device_size, *max_write, *flush_every,
		*mark_every;
};

#define A(field) offsetof(struct synth_args, field)

/* Told of in the help's text, with their defaults. */
static const struct bo_opt synth_opts[] = {
	{"out", "LOG", A(out), BO_OPT_HOST, NULL, NULL, NULL},
	{"entries", "N", A(entries), BO_OPT_HOST, NULL, u64_problem, NULL},
	{"seed", "N", A(seed), BO_OPT_HOST, NULL, u64_problem, NULL},
	{"sectorsize", "BYTES", A(sectorsize), BO_OPT_HOST, NULL, sectorsize_problem, NULL},
	{"device-size", "BYTES", A(device_size), BO_OPT_HOST, NULL, device_size_problem, NULL},
	{"max-write", "BLOCKS", A(max_write), BO_OPT_HOST, NULL, max_write_problem, NULL},
	{"flush-every", "N", A(flush_every), BO_OPT_HOST, NULL, u32_problem, NULL},
	{"mark-every", "N", A(mark_every), BO_OPT_HOST, NULL, u32_problem, NULL},
};

/* The number @val (checked by its row), or @dflt when it was not given. */
static uint64_t number(const char *val, uint64_t dflt)
{
	uint64_t v;

	return val && bo_parse_u64(val, &v) == 0 ? v : dflt;
}

static int cmd_synth(int argc, char **argv)
{
	struct synth_args a = {0};
	const struct bo_opt_set sets[] = {{synth_opts, BO_ARRAY_SIZE(synth_opts), &a}};
	struct bo_synth_params p = {0};
	uint64_t dev_size, ss, max_blocks;
	struct bo_err err = {0};
	int k;

	k = bo_opts_parse("synth", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (!a.out || k != argc)
		return bo_cli_usage_error("synth", "--out LOG is required and takes no operands");
	p.entries = number(a.entries, 2000);
	p.seed = number(a.seed, 1);
	ss = number(a.sectorsize, 4096);
	dev_size = number(a.device_size, 256ULL << 20);
	max_blocks = number(a.max_write, 64);
	p.flush_every = (uint32_t) number(a.flush_every, 20);
	p.mark_every = (uint32_t) number(a.mark_every, 10);
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
	if (bo_synth_log(a.out, &p, &err) < 0) {
		bo_cli_error("synth: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	printf("wrote '%s': %" PRIu64 " %s\n", a.out, p.entries,
	       BO_PLURAL(p.entries, "entry", "entries"));
	return BO_EXIT_OK;
}

const struct bo_cmd bo_cmd_synth = {"synth", cmd_synth,
				    "write a synthetic log (for tests, benchmarks, examples)"};

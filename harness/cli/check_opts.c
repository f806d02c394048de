// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/cli/check_opts.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"
#include "harness/dev/fs.h"
#include "harness/states/persona.h"

#define A(field) offsetof(struct bo_check_args, field)

const char *bo_check_shard_problem(const char *val)
{
	unsigned i, n;

	/* Both below 2^32, as the guest reads them: never a number's low bits. */
	return bo_parse_share(val, UINT32_MAX, &i, &n) < 0 ? "expected I/N with 0 <= I < N < 2^32"
							   : NULL;
}

static const char *reorder_problem(const char *val)
{
	uint64_t k;

	return bo_parse_u64(val, &k) < 0 || k > 8 ? "K from 0 to 8" : NULL;
}

static const char *persona_problem(const char *val)
{
	enum bo_persona p;

	return bo_persona_parse(val, &p) < 0 ? BO_PERSONA_NAMES : NULL;
}

static const char *recovery_problem(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 || n > 1000 ? "0 to 1000" : NULL;
}

static const char *recovery_mode_problem(const char *val)
{
	enum bo_recovery r;

	return bo_recovery_from_name(val, &r) < 0 ? "auto, mount or fsck" : NULL;
}

static const char *witness_problem(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 || n > 1000 ? "0 to 1000" : NULL;
}

static const char *witness_mode_problem(const char *val)
{
	return strcmp(val, "full") ? "full" : NULL;
}

static const char *bench_problem(const char *val)
{
	return strcmp(val, "naive") && strcmp(val, "floor") ? "naive or floor" : NULL;
}

/*
 * The settings run and shrink take too (settings.h): rows of both tables, written once.
 */
/* clang-format off */
#define SETTING_ROWS \
	{"persona", "NAME", A(persona), BO_OPT_BOTH, "persona", persona_problem, \
	 "the disk under the stack: honest (default), ignores-flush,\n" \
	 "ignores-fua, lost-flush (states dropping 1 write of the epoch,\n" \
	 "16 sampled per cut, unless check asks for its own reordered or\n" \
	 "torn states), atomic-4k, atomic-512 (torn writes)"}, \
	{"recovery", "HOW", A(recovery), BO_OPT_BOTH, "recovery", recovery_mode_problem, \
	 "how each state is recovered: mount (the kernel's journal or log\n" \
	 "replay), fsck (the repair a boot runs, then the mount; ext2,\n" \
	 "ext4, vfat, exfat, jfs), auto (default: fsck where the\n" \
	 "filesystem has a repair and no journal its mount replays,\n" \
	 "else mount)"}, \
	{"recovery-crashes", "N", A(recovery_crashes), BO_OPT_BOTH, "recovery_crashes", \
	 recovery_problem, \
	 "also up to N states cut at the flush points of each consistent\n" \
	 "state's recovery (mount, checker, umount), each recovered again\n" \
	 "(class recovery-unsafe when that fails; default: the scenario's)"}, \
	{"witness", "N", A(witness), BO_OPT_BOTH, "witness", witness_problem, \
	 "find each failing state's minimal witness: the fewest writes\n" \
	 "whose absence keeps it failing, what they are (op, block,\n" \
	 "inode, path), in at most N trial states each (default: the\n" \
	 "scenario's, else 0: none)"}, \
	/* tests/vm/witness.sh's mutant: the witness is the whole difference, not minimised. */ \
	{"witness-mode", "full", A(witness_mode), BO_OPT_BOTH, "witness_mode", witness_mode_problem, \
	 NULL},
/* clang-format on */

const struct bo_opt bo_setting_opts[] = {SETTING_ROWS};
const size_t bo_setting_opts_n = BO_ARRAY_SIZE(bo_setting_opts);

const struct bo_opt bo_check_opts[] = {
	{"scenario", "FILE", A(scen), BO_OPT_HOST, NULL, NULL,
	 "take fs, size, mount options, cuts and checker from a scenario"},
	{"fs", "FS", A(fs), BO_OPT_BOTH, "fs", NULL, "the filesystem (default: from --scenario)"},
	{"size", "BYTES", A(size), BO_OPT_BOTH, "size", bo_opt_check_u64,
	 "size of the logged device (default: from --scenario, else the\n"
	 "highest sector the log touches, rounded up to 1 MiB)"},
	{"mount-options", "OPTS", A(mopt), BO_OPT_BOTH, "mount_options", NULL,
	 "mount options of every state (default: from --scenario)"},
	{"cuts", "POLICY", A(cuts), BO_OPT_BOTH, "cuts", NULL,
	 "flush, flush/N, fua, mark, every:N, all, entry:A-B,\n"
	 "comma-separated (default: from --scenario, else flush)"},
	{"from", "CUT", A(from), BO_OPT_BOTH, "from", NULL,
	 "skip cuts before CUT (default: mark:mkfs if the log has it)"},
	{"checker", "CMD", A(checker), BO_OPT_BOTH, "checker", NULL,
	 "run CMD in each mounted state (see docs/checkers.md)"},
	{"seed", "N", A(seed), BO_OPT_BOTH, "seed", bo_opt_check_u64,
	 "the seed of the run (checker, sampling, tearing)"},
	{"reorder", "K", A(reorder), BO_OPT_BOTH, "reorder", reorder_problem,
	 "also every state that drops up to K writes of the cut's epoch\n"
	 "(writes since the last flush; FUA writes are never dropped)"},
	{"torn", NULL, A(torn), BO_OPT_BOTH, "torn", NULL,
	 "also every multi-block write of the epoch torn at a seeded block"},
	{"budget", "N", A(budget), BO_OPT_BOTH, "budget", bo_opt_check_u64,
	 "sample N dropped sets per cut (seeded) when there are more"},
	/* clang-format off */
	SETTING_ROWS
	/* clang-format on */
	{"recovery-log", "FILE", A(recovery_log), BO_OPT_BOTH, "recovery_log", NULL,
	 "with --state ID~rK: the recovery log of state ID to cut after K\n"
	 "entries (states/ID~rK/recovery.log; repro.sh passes it)"},
	{"state", "ID", A(state), BO_OPT_BOTH, "state", NULL,
	 "check only the state ID: c1234 (the prefix after entry 1234),\n"
	 "c1234-d5,9 (entries 5 and 9 dropped), c1234-t7:3 (entry 7 torn\n"
	 "after 3 blocks), c1234~r5 (cut after 5 entries of the recovery\n"
	 "of c1234, with --recovery-log)"},
	{"shard", "I/N", A(shard), BO_OPT_BOTH, NULL, bo_check_shard_problem,
	 "check only shard I of N (by state id; see blackout merge)"},
	{"jobs", "N", A(jobs), BO_OPT_HOST, NULL, bo_opt_check_jobs,
	 "split the states over N single-vCPU VMs at once and merge\n"
	 "them (default: the number of online cores; 1: one VM)"},
	{"kernels", "A,B", A(kernels), BO_OPT_HOST, NULL, NULL,
	 "check the same states under each cached kernel (releases or\n"
	 "prefixes, blackout kernel list), one check each; states whose\n"
	 "class differs first"},
	{"expect", "CLASS", A(expect), BO_OPT_HOST, NULL, NULL,
	 "with --state: exit 0 if the state's class is CLASS, else 1"},
	{"hash", NULL, A(hash), BO_OPT_BOTH, "hash", NULL,
	 "record each state's image sha256 in stream.jsonl"},
	{"results", "DIR", A(parent), BO_OPT_HOST, NULL, NULL,
	 "parent of the results directory (default ./results)"},
	/* scripts/bench-scale's baseline and floor: a benchmark, not a check. */
	{"bench-mode", "naive|floor", A(bench), BO_OPT_BOTH, "bench_mode", bench_problem, NULL},
	/* The guests replay the log themselves, as before the host base (scripts/bench). */
	{"guest-replay", NULL, A(guest_replay), BO_OPT_HOST, NULL, NULL, NULL},
	/* What the host tells the guest. */
	{"results", "DIR", A(results), BO_OPT_GUEST, NULL, NULL, NULL},
	{"run-id", "ID", A(runid), BO_OPT_GUEST, NULL, NULL, NULL},
	{"libexec", "DIR", A(libexec), BO_OPT_GUEST, NULL, NULL, NULL},
	{"scenario", "FILE", A(guest_scen), BO_OPT_GUEST, NULL, NULL, NULL},
	{"claims", "DIR", A(claims), BO_OPT_GUEST, NULL, NULL, NULL},
	{"log-index", "FILE", A(log_index), BO_OPT_GUEST, NULL, NULL, NULL},
	{"allow-host", NULL, A(allow_host), BO_OPT_GUEST, NULL, NULL, NULL},
};
const size_t bo_check_opts_n = BO_ARRAY_SIZE(bo_check_opts);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/scenario/fsops.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/path.h"
#include "harness/base/proc.h"

bool bo_fsops_is(const struct bo_scenario *sc)
{
	return sc->builtin && !strcmp(sc->builtin, "fsops");
}

bool bo_bounded_is(const struct bo_scenario *sc)
{
	return sc->builtin && !strcmp(sc->builtin, "bounded");
}

/* The most output a listing may make (blackout-fsops is killed there). */
#define LIST_MAX (64u << 20)

/* blackout-fsops lists the workloads of builtin bounded by walking its space in one fixed order
 * up to the last rank listed. Lengths 1 and 2 have 192 and 46721 workloads (tests/cli/fsops.sh),
 * walked in a fraction of a second; length 3 has millions, walked in tens of seconds and listed
 * in gigabytes. Up to this rank its walk takes a few seconds. */
#define BOUNDED_WALK_MAX 1000000

/*
 * Whether the listing of builtin bounded @sc can be made, judged from the scenario before
 * blackout-fsops runs: lengths 1 and 2 always; length 3 only up to a rank of at most
 * BOUNDED_WALK_MAX ([workload] workloads = A-B). 0, or -EFBIG saying so.
 */
static int bounded_listable(const struct bo_scenario *sc, struct bo_err *err)
{
	uint64_t lo, hi = UINT64_MAX;

	if (sc->length <= 2 || (sc->workloads && bo_parse_range(sc->workloads, &lo, &hi) == 0 &&
				hi <= BOUNDED_WALK_MAX))
		return 0;
	return bo_err_set(err, EFBIG,
			  "builtin bounded of length %" PRIu64 " has millions of workloads to walk "
			  "for a listing of ops up to rank %s (at most %u: [workload] workloads = "
			  "A-B): not listed",
			  sc->length, sc->workloads ? sc->workloads : "all", BOUNDED_WALK_MAX);
}

int bo_fsops_list(const struct bo_scenario *sc, const char *libexec, const char *keep, char **ret,
		  struct bo_err *err)
{
	char prog[PATH_MAX], seed[32], ops[32], fams[128], families[140];
	const char *k = keep ? keep : sc->keep_ops;
	char *argv[] = {prog,
			"list",
			"--seed",
			seed,
			"--ops",
			ops,
			sc->fsync_inode ? "--fsync=inode" : "--fsync=path",
			families,
			NULL,
			NULL,
			NULL,
			NULL};
	size_t na = 8;
	/* builtin bounded: its workloads, each op with its workload's name. */
	char *bounded[14] = {prog, "list", "--seed", seed, "--bounded", ops};
	size_t nb = 6;
	struct bo_proc_opts o = {.argv = bo_bounded_is(sc) ? bounded : argv,
				 .timeout_ms = 60000,
				 .max_output = LIST_MAX,
				 .kill_at_max = true};
	struct bo_proc_result r = {0};
	int st;

	if (bo_pathf(prog, sizeof(prog), "%s/blackout-fsops", libexec) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/blackout-fsops': path too long", libexec);
	snprintf(seed, sizeof(seed), "%" PRIu64, sc->workload_seed);
	snprintf(ops, sizeof(ops), "%" PRIu64, bo_bounded_is(sc) ? sc->length : sc->ops);
	/* the sequence the workload ran (bo_scenario_workload_command()) */
	if ((st = bo_scenario_families(sc, fams, sizeof(fams), err)) < 0)
		return st;
	snprintf(families, sizeof(families), "--families=%s", fams);
	if (*fams && bo_bounded_is(sc))
		bounded[nb++] = families;
	if (bo_scenario_no_links(sc)) {
		argv[na++] = "--no-links";
		bounded[nb++] = "--no-links";
	}
	if (k) {
		argv[na++] = "--keep";
		argv[na++] = (char *) k;
	}
	if (sc->workloads) {
		bounded[nb++] = "--workloads";
		bounded[nb++] = sc->workloads;
	}
	if (sc->sample) {
		bounded[nb++] = "--sample";
		bounded[nb++] = sc->sample;
	}
	if (bo_bounded_is(sc) && sc->fresh)
		bounded[nb++] = "--fresh";
	if (bo_bounded_is(sc) && (st = bounded_listable(sc, err)) < 0)
		return st;
	st = bo_proc_run(&o, &r, err);
	if (st < 0)
		return st;
	if (r.end != BO_PROC_EXITED || r.status != 0 || r.truncated) {
		char how[128];

		bo_proc_describe(&r, &o, how, sizeof(how));
		if (r.truncated)
			snprintf(how, sizeof(how), "printed more than %u MiB: stopped there",
				 LIST_MAX >> 20);
		st = bo_err_set(err, r.truncated ? EFBIG : EIO, "'%s list' %s%s%.200s", prog, how,
				*r.err ? ": " : "", r.err);
		bo_proc_result_clear(&r);
		return st;
	}
	*ret = r.out;
	r.out = NULL;
	bo_proc_result_clear(&r);
	return 0;
}

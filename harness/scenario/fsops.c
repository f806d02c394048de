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

/* Whether the @n bytes at @name are one of BO_FSOPS_FAMILIES. */
static bool family_known(const char *name, size_t n)
{
	const char *q = BO_FSOPS_FAMILIES;

	while (*q) {
		size_t m = strcspn(q, ",");

		if (m == n && !strncmp(q, name, n))
			return true;
		q += m;
		q += strspn(q, ", ");
	}
	return false;
}

bool bo_fsops_families_valid(const char *v)
{
	const char *q = v;

	if (!strcmp(v, "all") || !strcmp(v, "none"))
		return true;
	for (;;) {
		size_t n = strcspn(q, ",");

		if (!family_known(q, n))
			return false;
		for (const char *r = v; r < q; r += strcspn(r, ",") + 1)
			if (strcspn(r, ",") == n && !strncmp(r, q, n))
				return false;
		if (!q[n])
			return true;
		q += n + 1;
	}
}

int bo_fsops_list(const struct bo_scenario *sc, const char *libexec, const char *keep, char **ret,
		  struct bo_err *err)
{
	char prog[PATH_MAX], seed[32], ops[32], families[128];
	const char *k = keep ? keep : sc->keep_ops;
	char *argv[] = {prog,
			"list",
			"--seed",
			seed,
			"--ops",
			ops,
			sc->fsync_inode ? "--fsync=inode" : "--fsync=path",
			families,
			k ? "--keep" : NULL,
			(char *) k,
			NULL};
	/* builtin bounded: its workloads, each op with its workload's name. */
	char *bounded[9] = {prog, "list", "--seed", seed, "--bounded", ops};
	size_t nb = 6;
	struct bo_proc_opts o = {.argv = bo_bounded_is(sc) ? bounded : argv,
				 .timeout_ms = 60000,
				 .max_output = 64u << 20};
	struct bo_proc_result r = {0};
	int st;

	if (bo_pathf(prog, sizeof(prog), "%s/blackout-fsops", libexec) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/blackout-fsops': path too long", libexec);
	snprintf(seed, sizeof(seed), "%" PRIu64, sc->workload_seed);
	snprintf(ops, sizeof(ops), "%" PRIu64, bo_bounded_is(sc) ? sc->length : sc->ops);
	snprintf(families, sizeof(families), "--families=%s", sc->families ? sc->families : "none");
	if (sc->workloads) {
		bounded[nb++] = "--workloads";
		bounded[nb++] = sc->workloads;
	}
	if (sc->sample) {
		bounded[nb++] = "--sample";
		bounded[nb++] = sc->sample;
	}
	st = bo_proc_run(&o, &r, err);
	if (st < 0)
		return st;
	if (r.end != BO_PROC_EXITED || r.status != 0 || r.truncated) {
		char how[128];

		bo_proc_describe(&r, &o, how, sizeof(how));
		st = bo_err_set(err, EIO, "'%s list' %s%s%.200s", prog,
				r.truncated ? "printed too much" : how, *r.err ? ": " : "", r.err);
		bo_proc_result_clear(&r);
		return st;
	}
	*ret = r.out;
	r.out = NULL;
	bo_proc_result_clear(&r);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/cli/shrink_opts.h"

#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"

#define A(field) offsetof(struct bo_shrink_args, field)

static const char *max_tests_problem(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 || n > 100000 ? "0 to 100000" : NULL;
}

const struct bo_opt bo_shrink_opts[] = {
	{"state", "ID", A(state), BO_OPT_BOTH, NULL, NULL,
	 "the failing state to start from (default: the first one)"},
	{"no-bisect", NULL, A(no_bisect), BO_OPT_BOTH, NULL, NULL, "skip the bisection"},
	{"max-tests", "N", A(max_tests), BO_OPT_BOTH, NULL, max_tests_problem,
	 "stop delta debugging after N candidates (default: none)"},
	{"host-root", NULL, A(host_root), BO_OPT_HOST, NULL, NULL,
	 "share the host's root into the VM, read-only, as the run's\n"
	 "scenario says ([vm] root = host): never without this"},
	/* What the host tells the guest. */
	{"class", "CLASS", A(cls), BO_OPT_GUEST, NULL, NULL, NULL},
	{"seed", "N", A(seed), BO_OPT_GUEST, NULL, bo_opt_check_u64, NULL},
};
const size_t bo_shrink_opts_n = BO_ARRAY_SIZE(bo_shrink_opts);

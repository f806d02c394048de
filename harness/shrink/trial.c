// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The judge of a shrink on this machine's kernel (bo_shrink_vm_judge, shrink.h): a probe
 * checks one prefix state of the saved log; a candidate records the fsops workload with its
 * op list and checks the states right after its ack marks, one at a time. Each works in a
 * tmpfs of its own, so that a candidate costs mkfs, the workload and its checks, never a boot.
 */
#include "harness/shrink/shrink.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/log/cut.h"
#include "harness/record/record.h"
#include "harness/results/summary.h"
#include "harness/scenario/fsops.h"

/* A tmpfs work directory of its own under vm->workdir, gone with everything in it when
 * unmounted (vm->tmpfs_drop()). */
static int workdir_make(const struct bo_shrink_vm *vm, const char *name, char *buf, size_t len,
			struct bo_err *err)
{
	if (bo_pathf(buf, len, "%s/%s", vm->workdir, name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "work directory name too long");
	return vm->tmpfs(buf, vm->user != NULL, err);
}

/* Check the states @cuts selects (or @only) of @log; the class counts go to @sum. */
static int check_log(const struct bo_shrink_vm *vm, const struct bo_log *log, const char *workdir,
		     const char *cuts, const char *only, uint64_t first, struct bo_results *res,
		     struct bo_summary *sum, const char *runid, struct bo_err *err)
{
	_cleanup_free_ char *checker = NULL;
	struct bo_layout l;
	struct bo_explore_opts eo = *vm->eo;

	eo.runid = runid;
	eo.workdir = workdir;
	eo.checker_env = vm->checker_env;
	eo.log_name = "write.log";
	eo.user = vm->user;
	eo.root = vm->root;
	eo.in_place = vm->in_place;
	/* The checker of the candidate: its command line names the ops it kept (--keep). */
	if (bo_scenario_checker_command(vm->sc, &checker) < 0)
		return bo_err_set(err, ENOMEM, "building the checker command");
	eo.checker = checker;
	eo.cuts = cuts;
	eo.only_state = only;
	eo.first_cut = first;
	if (vm->devices(vm->sc, log, &l, &eo, err) < 0)
		return -EINVAL;
	return bo_explore(log, &eo, res, sum, err);
}

static int probe(const struct bo_shrink_in *in, const struct bo_log *log, uint64_t cut,
		 uint64_t first, unsigned i, struct bo_shrink_trial *t, struct bo_err *err)
{
	const struct bo_shrink_vm *vm = in->ctx;
	struct bo_summary sum = {0};
	char id[64], runid[128], wd[PATH_MAX];
	int r;

	bo_state_id(cut, id, sizeof(id));
	snprintf(runid, sizeof(runid), "%s-b%u", vm->runid, i);
	r = workdir_make(vm, runid, wd, sizeof(wd), err);
	if (r < 0)
		return r;
	r = check_log(vm, log, wd, "all", id, first, vm->res, &sum, runid, &t->err);
	t->error = r < 0 ? r : 0;
	r = vm->tmpfs_drop(wd, err);
	t->checked = true;
	t->fails = sum.counts[in->want] > 0;
	t->harness_error = sum.counts[BO_CLASS_HARNESS_ERROR] > 0;
	t->states = sum.states;
	return r;
}

/* The op ids the workload performs with op list @keep: blackout-fsops list, which drops
 * what cannot run. */
static int perform(const struct bo_shrink_in *in, const char *keep, uint64_t **ret, size_t *ret_n,
		   struct bo_err *err)
{
	const struct bo_shrink_vm *vm = in->ctx;
	_cleanup_free_ char *out = NULL;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	int r = bo_fsops_list(vm->sc, vm->libexec, keep, &out, err);

	if (r < 0)
		return r;
	for (char *line = out; *line;
	     line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		if (n == cap) {
			size_t c2 = cap ? 2 * cap : 256;
			uint64_t *nv = reallocarray(v, c2, sizeof(*v));

			if (!nv) {
				free(v);
				return bo_err_set(err, ENOMEM, "listing ops");
			}
			v = nv;
			cap = c2;
		}
		v[n++] = strtoull(line, NULL, 10);
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/*
 * The states of a candidate, in log order: right after each ack mark, where an acknowledged
 * op must already be durable; without acks, the end of the log.
 */
static int ack_states(const struct bo_log *log, uint64_t **ret, size_t *ret_n)
{
	uint64_t *v = calloc(bo_log_mark_count(log) + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < bo_log_mark_count(log); i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);

		if (!strncmp(m->name, "ack:", 4))
			v[n++] = m->entry + 1;
	}
	if (!n)
		v[n++] = bo_log_count(log);
	*ret = v;
	*ret_n = n;
	return 0;
}

/* Record the workload with op list @keep and check its ack cuts; 1 when class @want shows. */
static int try_ops(const struct bo_shrink_vm *vm, enum bo_class want, const char *keep,
		   unsigned step, struct bo_summary *sum, struct bo_err *err)
{
	char runid[128], wd[PATH_MAX], rdir[PATH_MAX + 8], logpath[PATH_MAX + 16];
	struct bo_results *cres = NULL;
	struct bo_log *log = NULL;
	_cleanup_free_ uint64_t *cuts = NULL;
	size_t ncuts = 0;
	struct bo_err derr = {0};
	uint64_t first = 0;
	int r;

	snprintf(runid, sizeof(runid), "%s-k%u", vm->runid, step);
	r = bo_scenario_set_keep_ops(vm->sc, keep);
	if (r < 0)
		return bo_err_set(err, -r, "op list '%s'", keep);
	r = workdir_make(vm, runid, wd, sizeof(wd), err);
	if (r < 0)
		return r;
	snprintf(rdir, sizeof(rdir), "%s/res", wd);
	snprintf(logpath, sizeof(logpath), "%s/log.img", wd);
	r = bo_results_create(rdir, &cres, err);
	if (r >= 0) {
		struct bo_record_opts ro = {
			.sc = vm->sc,
			.runid = runid,
			.workdir = wd,
			.libexec = vm->libexec,
			.user = vm->user,
			.root = vm->root,
			.in_place = vm->in_place,
		};

		r = bo_record(&ro, cres, err);
	}
	if (r >= 0)
		r = bo_log_open(logpath, 0, &log, err);
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &first, err);
	if (r >= 0 && ack_states(log, &cuts, &ncuts) < 0)
		r = bo_err_set(err, ENOMEM, "cut list");
	/* One state at a time, stopping at the first that shows the class: a failing candidate
	 * usually fails at its first ack, and only passing ones pay for every state. */
	for (size_t i = 0; r >= 0 && i < ncuts && !sum->counts[want]; i++) {
		char id[64];

		if (cuts[i] <= first)
			continue;
		bo_state_id(cuts[i], id, sizeof(id));
		r = check_log(vm, log, wd, "all", id, first, cres, sum, runid, err);
	}
	bo_log_free(log);
	bo_results_free(cres);
	if (vm->tmpfs_drop(wd, &derr) < 0 && r >= 0)
		r = bo_err_set(err, derr.errnum, "%s", bo_err_str(&derr));
	return r < 0 ? r : sum->counts[want] > 0;
}

static int test(const struct bo_shrink_in *in, const char *keep, unsigned n,
		struct bo_shrink_trial *t)
{
	struct bo_summary sum = {0};
	int r = try_ops(in->ctx, in->want, keep, n, &sum, &t->err);

	t->states = sum.states;
	return r;
}

const struct bo_shrink_judge bo_shrink_vm_judge = {probe, perform, test};

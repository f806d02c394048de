// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run_parts.c — run --jobs N of a bounded scenario (run_parts.h): its workloads dealt into
 * parts, each a whole run (record and check) in a VM of its own, N at once, in one tree.
 *
 * The workloads of a bounded run are independent of each other, so a part needs nothing of
 * another: part j of P keeps the ranks the scenario's own `sample = I/M` keeps that are also
 * I + j*M modulo P*M (`sample = 0/1` when it has none): every P-th of its workloads, spread
 * over the whole space, so that the parts take about as long. There are N parts, or more
 * when the workloads would not fit one log each: a fresh filesystem per workload logs about
 * 640 KiB of it (its writes, the way back to the base, its marks), so a part takes at most
 * what its log holds at 1 MiB a workload (PART_LOG), and the parts queue for the N VMs. Each
 * part is a results directory as one run makes it (its log, its states); `blackout findings
 * TREE` groups the findings of all of them.
 */
#include "harness/cli/run_parts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/exit.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/results/progress.h"
#include "harness/results/summary.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"

/* The most VMs at once: as check --jobs. */
#define JOBS_MAX 64u
/* The most parts of one run. */
#define PARTS_MAX 4096u
/* The log a workload is given room for, with the mkfs's: PART_LOG each, MKFS_LOG once. */
#define PART_LOG (1ull << 20)
#define MKFS_LOG (64ull << 20)

/* One part: its scenario, where its run goes, what it ran with. */
struct part {
	char ini[PATH_MAX], parent[PATH_MAX];
	struct vm_args v;
	bo_run_part_fn *fn;
	void *ctx;
};

static int run_part(void *ctx)
{
	struct part *p = ctx;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	/* Its summary is printed once by the parent, from its results. */
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	return p->fn(p->ctx, p->ini, p->parent, &p->v);
}

/* The part's scenario file: the scenario's text with its share of the sample, and its name
 * (nightly.c's cells are written the same way). */
static int write_part(const struct bo_scenario *sc, const char *text, size_t len, uint64_t at,
		      uint64_t every, unsigned j, unsigned n, const char *ini, struct bo_err *err)
{
	char sample[64];
	const char *const sets[][3] = {
		{"scenario", "name", sc->name},
		{"workload", "sample", sample},
		{NULL, NULL, NULL},
	};
	_cleanup_fclose_ FILE *in = NULL, *out = NULL;
	int r;

	snprintf(sample, sizeof(sample), "%" PRIu64 "/%" PRIu64, at + j * every, every * n);
	if (!(in = fmemopen((void *) text, len, "r")))
		return bo_err_set(err, ENOMEM, "out of memory");
	if (!(out = fopen(ini, "wxe")))
		return bo_err_set(err, errno, "writing '%s': %s", ini, strerror(errno));
	r = bo_ini_override(in, out, sets);
	return r < 0 ? bo_err_set(err, -r, "writing '%s'", ini) : 0;
}

/* The results directory a run made under part @p's parent, into @buf; false if none. */
static bool part_results(const struct part *p, char *buf, size_t len)
{
	DIR *d = opendir(p->parent);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = e->d_name[0] != '.' && e->d_type == DT_DIR &&
			bo_pathf(buf, len, "%s/%s", p->parent, e->d_name) == 0;
	if (d)
		closedir(d);
	return found;
}

/* Wait for the first of the @n parts running (@pids, -1 where none) to end: its slot, its
 * exit status in *@st (-errno when waiting failed: the first still running is given up). */
static unsigned wait_any(const pid_t *pids, unsigned n, int *st)
{
	int status;

	for (;;) {
		pid_t p = waitpid(-1, &status, 0);

		for (unsigned i = 0; p > 0 && i < n; i++)
			if (pids[i] == p) {
				*st = WIFEXITED(status) ? WEXITSTATUS(status)
							: 128 + WTERMSIG(status);
				return i;
			}
		if (p < 0 && errno != EINTR)
			for (unsigned i = 0; i < n; i++)
				if (pids[i] >= 0) {
					*st = -errno;
					return i;
				}
	}
}

/* How many parts the workloads of @sc take, @jobs at least: *@ret, or -errno with @err. */
static int count_parts(const struct bo_scenario *sc, unsigned jobs, unsigned *ret,
		       struct bo_err *err)
{
	_cleanup_free_ char *text = NULL;
	uint64_t workloads = 0, fit;
	const char *last = NULL;
	size_t last_len = 0;

	if (bo_fsops_list(sc, bo_libexec_dir(), NULL, &text, err) < 0)
		return -EINVAL;
	/* The listing goes workload by workload: a name is new where it changes. */
	for (const char *w = text; (w = strstr(w, " workload="));) {
		size_t len = strcspn(w + 10, " \n");

		if (!last || len != last_len || memcmp(last, w + 10, len))
			workloads++;
		last = w + 10;
		last_len = len;
		w += 10 + len;
	}
	fit = sc->log_size > MKFS_LOG + PART_LOG ? (sc->log_size - MKFS_LOG) / PART_LOG : 1;
	*ret = (unsigned) ((workloads + fit - 1) / fit);
	if (*ret > PARTS_MAX)
		return bo_err_set(
			err, E2BIG,
			"%" PRIu64 " workloads at %" PRIu64 " a part (what its log holds, "
			"[run] log_size) would be %u parts, more than %u: a larger log_size "
			"or a range of ranks",
			workloads, fit, *ret, PARTS_MAX);
	if (*ret < jobs)
		*ret = jobs;
	return 0;
}

/*
 * The states of the first @started of the @n parts by class, and the summary of each that did
 * not pass; *@worst raised to what they say. How many left a results directory.
 */
static unsigned report_parts(const char *name, const char *runid, const struct part *parts,
			     unsigned started, unsigned n, int *worst)
{
	struct bo_summary total = {0};
	char dir[PATH_MAX];
	unsigned ran = 0;

	for (unsigned j = 0; j < started; j++) {
		struct bo_summary sm;
		struct bo_err e = {0};
		char what[160];

		if (!part_results(&parts[j], dir, sizeof(dir))) {
			bo_cli_error("run %s: part %u left no results directory", runid, j);
			*worst = BO_EXIT_HARNESS;
			continue;
		}
		ran++;
		if (bo_summary_read(dir, &sm, NULL, &e) < 0 ||
		    bo_summary_verdict(&sm) != BO_VERDICT_CONSISTENT) {
			int st;

			snprintf(what, sizeof(what), "%s part %u of %u", name, j, n);
			st = bo_cli_results(dir, what);
			*worst = st > *worst ? st : *worst;
			if (e.msg[0])
				continue;
		}
		bo_summary_sum(&total, &sm);
	}
	if (!ran)
		return 0;
	printf("%s: %" PRIu64 " states checked, %" PRIu64 " aliased, in %u parts\n", name,
	       total.states, total.aliases, ran);
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		if (total.counts[c])
			printf("  %-26s %" PRIu64 "\n", bo_class_name((enum bo_class) c),
			       total.counts[c]);
	printf("verdict: %s\n", *worst == BO_EXIT_OK	    ? "consistent"
				: *worst == BO_EXIT_FAILURE ? "failed"
							    : "error");
	return ran;
}

int bo_run_parts(const struct bo_scenario *sc, unsigned jobs, const char *parent,
		 const struct vm_args *v, bo_run_part_fn *fn, void *ctx)
{
	_cleanup_free_ struct part *parts = NULL;
	_cleanup_free_ char *text = NULL;
	_cleanup_json_ struct json_object *kernel = NULL;
	struct vm_args judged = *v;
	char **ship = NULL;
	struct bo_progress_relay *relay = NULL;
	struct bo_err err = {0};
	char runid[BO_RUNID_MAX], tree[PATH_MAX];
	uint64_t at = 0, every = 1;
	int efds[JOBS_MAX];
	pid_t pids[JOBS_MAX];
	size_t tlen = 0;
	int r, worst = BO_EXIT_OK;
	bool made = false;
	unsigned n = 0, started = 0, running = 0, ran = 0;

	if (jobs < 2 || jobs > JOBS_MAX)
		return bo_cli_usage_error("run", "--jobs %u: 2 to %u VMs", jobs, JOBS_MAX);
	/* The kernel (with what the scenario needs of it) and --file first: refused, no tree
	 * is made. */
	r = bo_guest_vm_for(sc, &judged, &ship) < 0 ? bo_err_set(&err, ENOMEM, "out of memory") : 0;
	if (r >= 0)
		r = bo_vm_args_judge(&judged, &err);
	if (r >= 0)
		r = bo_vm_args_kernel(&judged, &kernel, &err);
	if (r >= 0 && sc->sample && sscanf(sc->sample, "%" SCNu64 "/%" SCNu64, &at, &every) != 2)
		r = bo_err_set(&err, EINVAL, "sample '%s'", sc->sample);
	if (r >= 0)
		r = count_parts(sc, jobs, &n, &err);
	if (r >= 0 && bo_scenario_text(sc, &text, &tlen) < 0)
		r = bo_err_set(&err, ENOMEM, "out of memory");
	if (r >= 0 && (mkdir(parent, 0755) < 0 && errno != EEXIST))
		r = bo_err_set(&err, errno, "creating '%s': %s", parent, strerror(errno));
	bo_runid_make(sc->seed, runid, sizeof(runid));
	if (r >= 0 && bo_pathf(tree, sizeof(tree), "%s/%s", parent, runid) < 0)
		r = bo_err_set(&err, ENAMETOOLONG, "'%s': path too long", parent);
	if (r >= 0 && mkdir(tree, 0755) < 0)
		r = bo_err_set(&err, errno, "creating '%s': %s", tree, strerror(errno));
	made = r >= 0;
	if (r >= 0 && !(parts = calloc(n, sizeof(*parts))))
		r = bo_err_set(&err, ENOMEM, "out of memory");
	for (unsigned j = 0; r >= 0 && j < n; j++) {
		struct part *p = &parts[j];

		*p = (struct part){.v = *v, .fn = fn, .ctx = ctx};
		if (bo_pathf(p->ini, sizeof(p->ini), "%s/part-%u.ini", tree, j) < 0 ||
		    bo_pathf(p->parent, sizeof(p->parent), "%s/part-%u", tree, j) < 0)
			r = bo_err_set(&err, ENAMETOOLONG, "'%s': path too long", tree);
		if (r >= 0)
			r = write_part(sc, text, tlen, at, every, j, n, p->ini, &err);
	}
	if (r >= 0)
		r = bo_progress_relay_start(jobs, 2, bo_progress_draw_for(2), efds, &relay, &err);
	bo_strv_free(ship);
	if (r < 0) {
		/* Refused before a VM booted: the tree it made goes too. */
		if (made)
			(void) !bo_remove_tree(tree);
		bo_cli_error("run: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	bo_cli_note("run %s: %s's workloads in %u parts, %u VMs at once (results in %s)", runid,
		    sc->name, n, jobs, tree);
	/* The parts in order, each in the first VM slot free. */
	for (unsigned slot = 0; slot < jobs; slot++)
		pids[slot] = -1;
	while (started < n || running) {
		unsigned slot = 0;
		int st;

		for (; started < n && running < jobs && !bo_stop_requested(); running++) {
			while (pids[slot] >= 0)
				slot++;
			parts[started].v.stderr_fd = efds[slot];
			if (bo_proc_fork(run_part, &parts[started], &pids[slot], &err) < 0) {
				bo_cli_error("run: part %u: %s", started, bo_err_str(&err));
				worst = BO_EXIT_HARNESS;
				n = started;
				break;
			}
			started++;
		}
		if (!running)
			break;
		/* The first to end frees its slot. */
		slot = wait_any(pids, jobs, &st);
		pids[slot] = -1;
		running--;
		if (st < 0 || st > BO_EXIT_HARNESS)
			st = BO_EXIT_HARNESS;
		worst = st > worst ? st : worst;
		if (bo_stop_requested())
			n = started;
	}
	bo_progress_relay_stop(relay);
	ran = report_parts(sc->name, runid, parts, started, n, &worst);
	/* Refused in every VM before it booted: nothing ran, nothing is left. */
	if (!ran) {
		(void) !bo_remove_tree(tree);
		return worst;
	}
	printf("findings: blackout findings %s\nresults: %s\n", tree, tree);
	return worst;
}

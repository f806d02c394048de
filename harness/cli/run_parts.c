// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run_parts.c — run --jobs N of a bounded scenario (run_parts.h): its workloads dealt into N
 * parts, each a whole run (record and check) in a VM of its own, all at once, in one tree.
 *
 * The workloads of a bounded run are independent of each other, so a part needs nothing of
 * another: part j of N keeps the ranks the scenario's own `sample = I/M` keeps that are also
 * I + j*M modulo N*M (`sample = 0/1` when it has none): every N-th of its workloads, spread
 * over the whole space, so that the parts take about as long. Each part is a results
 * directory as one run makes it (its log, its states); `blackout findings TREE` groups the
 * findings of all of them.
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
#include "harness/scenario/scenario.h"

/* The most parts: as check --jobs. */
#define PARTS_MAX 64u

/* @text with [@section] @key = @value: the key's lines in that section replaced by one, or
 * added after its header (the section added at the end when it has none). NULL: no memory. */
static char *set_key(const char *text, const char *section, const char *key, const char *value)
{
	char *out = NULL, head[64];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	bool in = false, done = false;

	if (!f)
		return NULL;
	snprintf(head, sizeof(head), "[%s]", section);
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n"), k = strspn(l, " \t");
		bool header = l[k] == '[';

		if (header && in && !done) {
			fprintf(f, "%s = %s\n", key, value);
			done = true;
		}
		if (header)
			in = !strncmp(l + k, head, strlen(head));
		/* the key itself, as "key = v" or "key=v", in the section: dropped */
		if (!(in && !header && !strncmp(l + k, key, strlen(key)) &&
		      l[k + strlen(key) + strspn(l + k + strlen(key), " \t")] == '='))
			fprintf(f, "%.*s\n", (int) n, l);
		if (header && in && !done) {
			fprintf(f, "%s = %s\n", key, value);
			done = true;
		}
		l += n + (l[n] == '\n');
	}
	if (!done)
		fprintf(f, "[%s]\n%s = %s\n", section, key, value);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

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

/* The part's scenario file: the scenario's text with its share of the sample, and its name. */
static int write_part(const struct bo_scenario *sc, const char *text, uint64_t at, uint64_t every,
		      unsigned j, unsigned n, const char *ini, struct bo_err *err)
{
	_cleanup_free_ char *named = NULL, *shared = NULL;
	char sample[64];
	int r;

	snprintf(sample, sizeof(sample), "%" PRIu64 "/%" PRIu64, at + j * every, every * n);
	named = set_key(text, "scenario", "name", sc->name);
	shared = named ? set_key(named, "workload", "sample", sample) : NULL;
	if (!shared)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_write_file_at(AT_FDCWD, ini, shared, strlen(shared));
	return r < 0 ? bo_err_set(err, -r, "writing '%s': %s", ini, strerror(-r)) : 0;
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

int bo_run_parts(const char *path, unsigned n, const char *parent, const struct vm_args *v,
		 bo_run_part_fn *fn, void *ctx)
{
	_cleanup_free_ struct part *parts = NULL;
	_cleanup_free_ char *text = NULL;
	_cleanup_json_ struct json_object *kernel = NULL;
	struct vm_args judged = *v;
	char **ship = NULL;
	struct bo_scenario *sc = NULL;
	struct bo_progress_relay *relay = NULL;
	struct bo_err err = {0};
	char runid[BO_RUNID_MAX], tree[PATH_MAX], dir[PATH_MAX];
	uint64_t at = 0, every = 1;
	int efds[PARTS_MAX];
	pid_t pids[PARTS_MAX];
	size_t tlen = 0;
	int r, worst = BO_EXIT_OK;
	unsigned started = 0, ran = 0;

	if (n < 2 || n > PARTS_MAX)
		return bo_cli_usage_error("run", "--jobs %u: 2 to %u parts", n, PARTS_MAX);
	/* The scenario, the kernel (with what the scenario needs of it) and --file first:
	 * refused, no tree is made. */
	r = bo_scenario_load(path, &sc, &err);
	if (r >= 0 && bo_guest_vm_for(sc, &judged, &ship) < 0)
		r = bo_err_set(&err, ENOMEM, "out of memory");
	if (r >= 0)
		r = bo_vm_args_judge(&judged, &err);
	if (r >= 0)
		r = bo_vm_args_kernel(&judged, &kernel, &err);
	if (r >= 0 && sc->sample && sscanf(sc->sample, "%" SCNu64 "/%" SCNu64, &at, &every) != 2)
		r = bo_err_set(&err, EINVAL, "sample '%s'", sc->sample);
	if (r >= 0 && bo_scenario_text(sc, &text, &tlen) < 0)
		r = bo_err_set(&err, ENOMEM, "out of memory");
	if (r >= 0 && (mkdir(parent, 0755) < 0 && errno != EEXIST))
		r = bo_err_set(&err, errno, "creating '%s': %s", parent, strerror(errno));
	bo_runid_make(r >= 0 ? sc->seed : 0, runid, sizeof(runid));
	if (r >= 0 && bo_pathf(tree, sizeof(tree), "%s/%s", parent, runid) < 0)
		r = bo_err_set(&err, ENAMETOOLONG, "'%s': path too long", parent);
	if (r >= 0 && mkdir(tree, 0755) < 0)
		r = bo_err_set(&err, errno, "creating '%s': %s", tree, strerror(errno));
	if (r >= 0 && !(parts = calloc(n, sizeof(*parts))))
		r = bo_err_set(&err, ENOMEM, "out of memory");
	for (unsigned j = 0; r >= 0 && j < n; j++) {
		struct part *p = &parts[j];

		*p = (struct part){.v = *v, .fn = fn, .ctx = ctx};
		if (bo_pathf(p->ini, sizeof(p->ini), "%s/part-%u.ini", tree, j) < 0 ||
		    bo_pathf(p->parent, sizeof(p->parent), "%s/part-%u", tree, j) < 0)
			r = bo_err_set(&err, ENAMETOOLONG, "'%s': path too long", tree);
		if (r >= 0)
			r = write_part(sc, text, at, every, j, n, p->ini, &err);
	}
	if (r >= 0)
		r = bo_progress_relay_start(n, 2, bo_progress_draw_for(2), efds, &relay, &err);
	bo_strv_free(ship);
	if (r < 0) {
		bo_cli_error("run: %s", bo_err_str(&err));
		bo_scenario_free(sc);
		return BO_EXIT_HARNESS;
	}
	bo_cli_note("run %s: %s's workloads in %u parts, a VM each (results in %s)", runid,
		    sc->name, n, tree);
	for (; started < n; started++) {
		parts[started].v.stderr_fd = efds[started];
		if (bo_proc_fork(run_part, &parts[started], &pids[started], &err) < 0) {
			bo_cli_error("run: part %u: %s", started, bo_err_str(&err));
			worst = BO_EXIT_HARNESS;
			break;
		}
	}
	for (unsigned j = 0; j < started; j++) {
		int st = bo_proc_wait(pids[j]);

		if (st < 0 || st > BO_EXIT_HARNESS)
			st = BO_EXIT_HARNESS;
		worst = st > worst ? st : worst;
	}
	bo_progress_relay_stop(relay);
	/* Each part's summary, as a run of it prints it. */
	for (unsigned j = 0; j < started; j++) {
		char what[160];
		int st;

		snprintf(what, sizeof(what), "%s part %u/%u", sc->name, j, n);
		if (!part_results(&parts[j], dir, sizeof(dir))) {
			bo_cli_error("run %s: part %u left no results directory", runid, j);
			worst = BO_EXIT_HARNESS;
			continue;
		}
		ran++;
		st = bo_cli_results(dir, what);
		worst = st > worst ? st : worst;
	}
	/* Refused in every VM before it booted: nothing ran, nothing is left. */
	if (!ran) {
		(void) !bo_remove_tree(tree);
		bo_scenario_free(sc);
		return worst;
	}
	printf("findings: blackout findings %s\nresults: %s\n", tree, tree);
	bo_scenario_free(sc);
	return worst;
}

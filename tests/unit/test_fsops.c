// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops workload and checker on the host: the workload runs in a scratch directory
 * against the real control server (with a mark callback that only counts), then the checker
 * looks at the tree. No crash happens here, so every acked op must be reported present; the
 * tampering tests break the tree the way a lost write would and the checker must notice.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/ctl/ctl.h"
#include "scenarios/fsops/fsops.h"

static int count_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	*ret_entry = (*(uint64_t *) ctx)++;
	return 0;
}

/* Run @argv in directory @dir with stdout to @out (or /dev/null); return the exit status. */
static int run(const char *dir, const char *out, char *const argv[])
{
	int status;
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || chdir(dir) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void write_ids(const char *path, const uint64_t *ids, size_t n)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%llu\n", (unsigned long long) ids[i]);
	CU_ASSERT_FATAL(fclose(f) == 0);
}

struct result {
	bool present[2048];
	bool done;
	int status;
};

static char seed_arg[32], ops_arg[32];

/* Run the checker on @dir with the given issued/acked sets. */
static void check(const char *dir, const uint64_t *issued, size_t ni, const uint64_t *acked,
		  size_t na, struct result *res)
{
	char *argv[] = {BO_FSOPS_BIN, "check", "--seed", seed_arg, "--ops", ops_arg, NULL};
	const char *out = bo_test_path("check.out");
	char line[128];
	FILE *f;

	write_ids(bo_test_path("issued"), issued, ni);
	write_ids(bo_test_path("acked"), acked, na);
	setenv("BLACKOUT_ISSUED", bo_test_path("issued"), 1);
	setenv("BLACKOUT_ACKED", bo_test_path("acked"), 1);
	memset(res, 0, sizeof(*res));
	res->status = run(dir, out, argv);
	f = fopen(out, "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long id;

		CU_ASSERT_FALSE(res->done); /* nothing after "done" */
		if (!strcmp(line, "done\n"))
			res->done = true;
		else if (sscanf(line, "present %llu", &id) == 1 && id < 2048)
			res->present[id] = true;
		else
			CU_FAIL("unexpected checker output");
	}
	fclose(f);
}

struct workload {
	char dir[256];
	uint64_t issued[2048], acked[2048];
	size_t ni, na;
};

/* Run blackout-fsops with @seed and @ops in a fresh directory against a real server. */
static void workload(struct workload *w, uint64_t seed, uint64_t ops, const char *bug)
{
	static unsigned runs;
	struct bo_ctl_server_config cfg = {.mark = count_mark};
	char *argv[] = {BO_FSOPS_BIN, "--seed", seed_arg, "--ops", ops_arg, (char *) bug, NULL};
	struct bo_ctl_server *srv;
	struct bo_err err = {0};
	uint64_t entries = 0;
	const uint64_t *v;

	snprintf(seed_arg, sizeof(seed_arg), "%llu", (unsigned long long) seed);
	snprintf(ops_arg, sizeof(ops_arg), "%llu", (unsigned long long) ops);
	snprintf(w->dir, sizeof(w->dir), "%s", bo_test_path(""));
	snprintf(w->dir + strlen(w->dir), sizeof(w->dir) - strlen(w->dir), "run%u", runs++);
	CU_ASSERT_FATAL(mkdir(w->dir, 0755) == 0);
	cfg.ctx = &entries;
	cfg.path = bo_test_path("fsops.sock");
	CU_ASSERT_FATAL(bo_ctl_server_start(&cfg, &srv, &err) == 0);
	setenv("BLACKOUT_CTL", cfg.path, 1);
	CU_ASSERT_FATAL(run(w->dir, NULL, argv) == 0);
	bo_ctl_server_stop(srv);
	CU_ASSERT(bo_ctl_server_failure(srv, &err) == 0);
	v = bo_ctl_state_issued(bo_ctl_server_state(srv), &w->ni);
	CU_ASSERT_FATAL(w->ni == ops);
	memcpy(w->issued, v, w->ni * sizeof(*v));
	v = bo_ctl_state_acked(bo_ctl_server_state(srv), &w->na);
	memcpy(w->acked, v, w->na * sizeof(*v));
	CU_ASSERT(entries == w->ni + w->na);
	bo_ctl_server_free(srv);
}

static void clean_runs_keep_every_ack(void)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct fsops_params p = {.seed = seed, .ops = 400};
		struct workload w;
		struct result res;
		struct fsops_op *ops;
		size_t nsync = 0;

		workload(&w, seed, p.ops, NULL);
		CU_ASSERT_FATAL(fsops_generate(&p, &ops) == 0);
		for (uint64_t i = 0; i < p.ops; i++)
			nsync += fsops_is_sync(ops[i].type);
		/* Exactly the sync-class ops were acknowledged, in order. */
		CU_ASSERT(w.na == nsync && nsync > 20);
		for (size_t i = 0; i < w.na; i++)
			CU_ASSERT(fsops_is_sync(ops[w.acked[i] - 1].type));
		check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
		CU_ASSERT(res.status == 0 && res.done);
		for (size_t i = 0; i < w.na; i++)
			if (!res.present[w.acked[i]]) {
				fprintf(stderr, "seed %llu: acked op %llu not present\n",
					(unsigned long long) seed, (unsigned long long) w.acked[i]);
				CU_FAIL("lost ack on an uncrashed tree");
			}
		/* And nothing present that was not issued (everything was). */
		for (uint64_t id = p.ops + 1; id < 2048; id++)
			CU_ASSERT_FALSE(res.present[id]);
		free(ops);
	}
}

/* The last op of a sequence of @ops with @seed, and its details. */
static struct fsops_op last_op(uint64_t seed, uint64_t ops)
{
	struct fsops_params p = {.seed = seed, .ops = ops};
	struct fsops_op *v, last;

	CU_ASSERT_FATAL(fsops_generate(&p, &v) == 0);
	last = v[ops - 1];
	free(v);
	return last;
}

/* Find an op count whose last op is an fsync (or a sync) of a file with data. */
static uint64_t find_last(uint64_t seed, enum fsops_type type, struct fsops_op *ret)
{
	struct fsops_params p = {.seed = seed, .ops = 600};
	struct fsops_model m;
	struct fsops_op *v;
	uint64_t found = 0;

	CU_ASSERT_FATAL(fsops_generate(&p, &v) == 0);
	fsops_model_init(&m, &(struct fsops_params){.seed = seed});
	for (uint64_t i = 0; i < p.ops; i++) {
		fsops_model_apply(&m, &v[i]);
		if (v[i].type == type && i > 100 &&
		    (type == FSOPS_SYNC || fsops_model_inode(&m, v[i].ino)->size > 100)) {
			found = v[i].id;
			*ret = v[i];
			break;
		}
	}
	fsops_model_release(&m);
	free(v);
	CU_ASSERT_FATAL(found != 0);
	return found;
}

static void tamper_fsync(void)
{
	struct fsops_op op;
	uint64_t n = find_last(3, FSOPS_FSYNC, &op);
	struct workload w;
	struct result res;
	char path[512], rel[16];
	int fd;
	uint8_t byte;

	workload(&w, 3, n, NULL);
	CU_ASSERT(last_op(3, n).type == FSOPS_FSYNC);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done && res.present[n]);

	/* Change one byte of the fsynced file: the promise is broken. */
	snprintf(path, sizeof(path), "%s/%s", w.dir, fsops_slot_path(op.a, rel, sizeof(rel)));
	fd = open(path, O_RDWR);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(pread(fd, &byte, 1, 50) == 1);
	byte ^= 0x5a;
	CU_ASSERT_FATAL(pwrite(fd, &byte, 1, 50) == 1);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done);
	CU_ASSERT_FALSE(res.present[n]);
	/* Put it back: present again (the test can tell the two apart). */
	byte ^= 0x5a;
	CU_ASSERT_FATAL(pwrite(fd, &byte, 1, 50) == 1);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.present[n]);
	/* Cut the file short, as a lost append would. */
	CU_ASSERT_FATAL(ftruncate(fd, 10) == 0);
	close(fd);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT_FALSE(res.present[n]);
	/* Delete every name of the file (it may have hard links). */
	{
		struct stat mine, other;
		char p2[512];

		snprintf(path, sizeof(path), "%s/%s", w.dir,
			 fsops_slot_path(op.a, rel, sizeof(rel)));
		CU_ASSERT_FATAL(stat(path, &mine) == 0);
		for (int s = 0; s < FSOPS_NSLOTS; s++) {
			snprintf(p2, sizeof(p2), "%s/%s", w.dir,
				 fsops_slot_path(s, rel, sizeof(rel)));
			if (stat(p2, &other) == 0 && other.st_ino == mine.st_ino)
				CU_ASSERT_FATAL(unlink(p2) == 0);
		}
	}
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done);
	CU_ASSERT_FALSE(res.present[n]);
	/* The earlier acks about other files still hold. */
	CU_ASSERT(res.present[w.acked[0]] || w.acked[0] == n);
}

static void tamper_sync(void)
{
	struct fsops_op op;
	uint64_t n = find_last(5, FSOPS_SYNC, &op);
	struct workload w;
	struct result res;
	char path[512], rel[16];
	struct stat st;
	int victim = -1;

	workload(&w, 5, n, NULL);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done && res.present[n]);
	/* Remove a file with data: the tree as of the sync is gone. */
	for (int s = 0; s < FSOPS_NSLOTS && victim < 0; s++) {
		snprintf(path, sizeof(path), "%s/%s", w.dir, fsops_slot_path(s, rel, sizeof(rel)));
		if (stat(path, &st) == 0 && st.st_size > 0)
			victim = s;
	}
	CU_ASSERT_FATAL(victim >= 0);
	CU_ASSERT_FATAL(rename(path, bo_test_path("saved")) == 0);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done);
	CU_ASSERT_FALSE(res.present[n]);
	CU_ASSERT_FATAL(rename(bo_test_path("saved"), path) == 0);
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT(res.present[n]);
	/* A name the sync said was not there appears: also broken. */
	victim = -1;
	for (int s = 0; s < FSOPS_FILES_PER_DIR && victim < 0; s++) {
		snprintf(path, sizeof(path), "%s/%s", w.dir, fsops_slot_path(s, rel, sizeof(rel)));
		if (stat(path, &st) < 0)
			victim = s;
	}
	CU_ASSERT_FATAL(victim >= 0);
	{
		int fd = open(path, O_WRONLY | O_CREAT, 0644);

		CU_ASSERT_FATAL(fd >= 0);
		close(fd);
	}
	check(w.dir, w.issued, w.ni, w.acked, w.na, &res);
	CU_ASSERT_FALSE(res.present[n]);
}

/*
 * The tree as it was after op K, while ops up to K + 60 were issued (none of them reached the
 * disk): every op acked up to K must still be present.
 */
static void older_tree_with_later_issues(void)
{
	for (uint64_t seed = 7; seed <= 10; seed++) {
		uint64_t k = 90 + 40 * (seed - 7), issued[2048];
		struct fsops_params p = {.seed = seed, .ops = k + 60};
		struct workload w;
		struct result res;

		workload(&w, seed, k, NULL);
		for (uint64_t i = 0; i < p.ops; i++)
			issued[i] = i + 1;
		snprintf(ops_arg, sizeof(ops_arg), "%llu", (unsigned long long) p.ops);
		check(w.dir, issued, p.ops, w.acked, w.na, &res);
		CU_ASSERT(res.status == 0 && res.done);
		for (size_t i = 0; i < w.na; i++)
			if (!res.present[w.acked[i]]) {
				fprintf(stderr, "seed %llu: acked op %llu not present\n",
					(unsigned long long) seed, (unsigned long long) w.acked[i]);
				CU_FAIL("lost ack on an older tree");
			}
	}
}

/* A cut before the end: what the tree shows beyond the issued ops is a phantom. */
static void phantom_positive_control(void)
{
	struct workload w;
	struct result res;
	size_t cut = 150, phantoms = 0;

	workload(&w, 2, 300, NULL);
	/* Pretend the power went after op 150: issued 1..150, acked those <= 150. */
	while (w.na && w.acked[w.na - 1] > cut)
		w.na--;
	check(w.dir, w.issued, cut, w.acked, w.na, &res);
	CU_ASSERT(res.status == 0 && res.done);
	for (uint64_t id = cut + 1; id <= 300; id++)
		phantoms += res.present[id];
	CU_ASSERT(phantoms > 10);
}

/* Count fsync-family syscalls of a workload run under strace; -1 without strace. */
static long traced_syncs(const char *bug)
{
	struct bo_ctl_server_config cfg = {.mark = count_mark};
	const char *trace = bo_test_path("strace.out");
	/* LeakSanitizer cannot run under ptrace: switch it off in an Asan build. */
	char *argv[] = {"strace",
			"-f",
			"-qq",
			"-E",
			"ASAN_OPTIONS=detect_leaks=0",
			"-e",
			"trace=fsync,fdatasync,syncfs",
			"-o",
			(char *) trace,
			BO_FSOPS_BIN,
			"--ops",
			"200",
			(char *) bug,
			NULL};
	struct bo_ctl_server *srv;
	struct bo_err err = {0};
	uint64_t entries = 0;
	char dir[256], line[256];
	static unsigned n;
	long count = 0;
	FILE *f;
	int st;

	snprintf(dir, sizeof(dir), "%s", bo_test_path(""));
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "traced%u", n++);
	CU_ASSERT_FATAL(mkdir(dir, 0755) == 0);
	cfg.ctx = &entries;
	cfg.path = bo_test_path("trace.sock");
	CU_ASSERT_FATAL(bo_ctl_server_start(&cfg, &srv, &err) == 0);
	setenv("BLACKOUT_CTL", cfg.path, 1);
	st = run(dir, NULL, argv);
	bo_ctl_server_free(srv);
	if (st == 127)
		return -1;
	CU_ASSERT_FATAL(st == 0);
	f = fopen(trace, "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f))
		count += strstr(line, "sync") != NULL;
	fclose(f);
	return count;
}

static void planted_bug_skips_syncs(void)
{
	long good = traced_syncs(NULL), bad;

	if (good < 0) {
		fputs("\n*** SKIPPED: strace is not installed; the planted bug's missing syncs "
		      "are not verified here ***\n",
		      stderr);
		return;
	}
	bad = traced_syncs("--bug=ack-without-fsync");
	CU_ASSERT(good > 20);
	CU_ASSERT(bad == 0);
}

/* Every k-th op of @p's sequence, for several k: each kept op that can be performed on the
 * kept ops before it, in order, with its id. */
static void keep_every_kth(struct fsops_params *p, const struct fsops_op *all)
{
	struct fsops_op *v;
	uint64_t n = 0;

	for (uint64_t round = 0; round < 40; round++) {
		uint64_t keep[300];
		struct fsops_model m;
		size_t nk = 0, j = 0;

		/* Every k-th op, for several k and offsets. */
		for (uint64_t id = 1 + round % 3; id <= p->ops; id += 1 + round % 7)
			keep[nk++] = id;
		p->keep = keep;
		p->nkeep = nk;
		CU_ASSERT_FATAL(fsops_sequence(p, &v, &n) == 0);
		CU_ASSERT(n <= nk);
		fsops_model_init(&m, p);
		for (uint64_t i = 0; i < n; i++) {
			struct fsops_op again;

			/* A subset of the kept ids, ascending, each one performable in order. */
			while (j < nk && keep[j] < v[i].id)
				j++;
			CU_ASSERT(j < nk && keep[j] == v[i].id);
			CU_ASSERT(i == 0 || v[i - 1].id < v[i].id);
			CU_ASSERT(fsops_adapt(&m, &all[v[i].id - 1], &again));
			CU_ASSERT(fsops_model_apply(&m, &v[i]) == 0);
		}
		fsops_model_release(&m);
		free(v);
	}
	p->keep = NULL;
}

/* An op subset: kept ops keep their ids; ops that need a dropped one are dropped too. */
static void keep_subset(void)
{
	struct fsops_params p = {.seed = 1, .ops = 300};
	struct fsops_op *all, *v;
	uint64_t n = 0;

	/* With every op family too: copies, shifts and symlinks re-checked on the kept ops. */
	p.families = FSOPS_FAMILY_ALL;
	CU_ASSERT_FATAL(fsops_generate(&p, &all) == 0);
	keep_every_kth(&p, all);
	free(all);
	p.families = 0;
	CU_ASSERT_FATAL(fsops_generate(&p, &all) == 0);
	keep_every_kth(&p, all);
	/* Without a subset: the whole generated sequence. */
	CU_ASSERT_FATAL(fsops_sequence(&p, &v, &n) == 0);
	CU_ASSERT(n == p.ops && !memcmp(v, all, n * sizeof(*v)));
	free(v);
	/* A write alone has no file to go to: dropped. */
	for (uint64_t i = 0; i < p.ops; i++)
		if (fsops_is_data(all[i].type)) {
			uint64_t one = all[i].id;

			p.keep = &one;
			p.nkeep = 1;
			CU_ASSERT(fsops_sequence(&p, &v, &n) == 0 && n == 0);
			free(v);
			break;
		}
	free(all);
}

/*
 * The ranges of copies, clones, collapses and inserts, drawn over many seeds, obey the calls'
 * own rules against the tree they act on (else the run stops with EINVAL), and a symlink is
 * acted on only by renames and unlinks.
 */
static void new_family_ranges(void)
{
	unsigned drawn[FSOPS_NTYPES] = {0};

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct fsops_params p = {.seed = seed, .ops = 2000, .families = FSOPS_FAMILY_ALL};
		struct fsops_model m;
		struct fsops_op *v;

		CU_ASSERT_FATAL(fsops_generate(&p, &v) == 0);
		fsops_model_init(&m, &p);
		for (uint64_t i = 0; i < p.ops; i++) {
			const struct fsops_op *op = &v[i];
			const struct fsops_inode *in =
				op->ino ? fsops_model_inode(&m, op->ino) : NULL;
			const struct fsops_inode *src =
				fsops_is_copy(op->type) ? fsops_model_inode(&m, op->victim) : NULL;

			drawn[op->type]++;
			if (in && in->symlink)
				CU_ASSERT(op->type == FSOPS_RENAME ||
					  op->type == FSOPS_RENAME_NOREPLACE ||
					  op->type == FSOPS_UNLINK);
			if (src) {
				CU_ASSERT(src != in && !src->symlink &&
					  op->off + op->len <= src->size);
				CU_ASSERT(op->off <= in->size && op->len > 0);
			}
			if (op->type == FSOPS_CLONE)
				CU_ASSERT(op->off == 0 && op->len == src->size &&
					  in->size <= src->size);
			if (op->type == FSOPS_CLONE_RANGE || fsops_is_shift(op->type))
				CU_ASSERT(op->off % 4096 == 0 && op->len % 4096 == 0 &&
					  op->len > 0);
			if (op->type == FSOPS_COLLAPSE)
				CU_ASSERT(op->off + op->len < in->size);
			if (op->type == FSOPS_INSERT)
				CU_ASSERT(op->off < in->size &&
					  in->size + op->len <= FSOPS_MAX_SIZE);
			CU_ASSERT_FATAL(fsops_model_apply(&m, op) == 0);
		}
		fsops_model_release(&m);
		free(v);
	}
	for (int t = FSOPS_COPY; t <= FSOPS_INSERT; t++)
		CU_ASSERT(drawn[t] > 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"keep_subset", keep_subset},
		{"clean_runs_keep_every_ack", clean_runs_keep_every_ack},
		{"tamper_fsync", tamper_fsync},
		{"tamper_sync", tamper_sync},
		{"older_tree_with_later_issues", older_tree_with_later_issues},
		{"phantom_positive_control", phantom_positive_control},
		{"planted_bug_skips_syncs", planted_bug_skips_syncs},
		{"new_family_ranges", new_family_ranges},
		{},
	};

	return bo_test_run("fsops", tests);
}

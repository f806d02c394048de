// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker: re-derive the op sequence from the seed, look at the tree of a crash
 * state, and print "present <id>" for every op whose effect is there, then "done".
 * docs/checkers.md states the rules; in short:
 *
 *  - a sync-class op is present when it was issued and the state it promised holds, allowing
 *    for whatever later issued ops may have changed since;
 *  - a data op is present when its bytes are in a file (a whole 8-byte word of them);
 *  - create/rename/link/mkdir are present when the name they were first to create exists;
 *  - any non-sync op is present when a later op on the same object (inode, name or
 *    directory) is present: it ran before that one, even if its own effect was superseded.
 *
 * Where a state is ambiguous the reading that invents no failure wins: the harness flags a
 * sync op that is acked but not present (lost-ack) and any op present but not issued
 * (phantom), so "present" is never claimed on weak evidence and a promise is held to be kept
 * whenever some legal history explains the tree. Only known names are looked at, files are
 * read up to FSOPS_MAX_SIZE bytes, and nothing found in the tree can make the checker fail.
 *
 * This file reads the ids, runs the stages of judge() (check_int.h: the walk of the tree,
 * observe.c; the ops indexed by object, opindex.c; the sync ops judged, promise.c), judges the
 * names and the order of the ops itself and reports, for the seeded sequence and for each
 * workload of a bounded run.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/fsops/check_int.h"
#include "scenarios/fsops/track.h"

static int die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Report why the checker could not do its job; the exit status says "not checked". */
static int die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("blackout-fsops check: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 3;
}

/* The whole file at @path into a new buffer *@ret of *@ret_len bytes; -errno. */
static int slurp(const char *path, char **ret, size_t *ret_len)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC), e;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *more = cap < ((size_t) 1 << 30) ? realloc(buf, cap ? 2 * cap : 65536)
							      : NULL;

			if (!more) {
				e = ENOMEM;
				goto fail;
			}
			buf = more;
			cap = cap ? 2 * cap : 65536;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t) n;
	}
	close(fd);
	*ret = buf;
	*ret_len = len;
	return 0;
fail:
	close(fd);
	free(buf);
	return -e;
}

/*
 * Read the op ids listed one per line in the file named by $@env into @set. Read whole and
 * parsed by hand: a state of a long run lists a million ids, and stdio's per-line cost was a
 * tenth of the checker's.
 */
static int read_ids(struct checker *c, const char *env, bool *set)
{
	const char *path = getenv(env), *p, *end;
	unsigned lineno = 0;
	size_t len = 0;
	char *buf = NULL;
	int r;

	if (!path)
		return die("%s is not set", env);
	r = slurp(path, &buf, &len);
	if (r < 0)
		return die("cannot read %s '%s': %s", env, path, strerror(-r));
	for (p = buf, end = buf + len; p < end; p++) {
		const char *nl = memchr(p, '\n', (size_t) (end - p)), *q;
		uint64_t id = 0;

		nl = nl ? nl : end;
		lineno++;
		for (q = p; q < nl && *q >= '0' && *q <= '9' && id <= c->n; q++)
			id = 10 * id + (uint64_t) (*q - '0');
		if (q != nl || (id == 0 && nl != p) || id > c->n) {
			int show = nl - p < 60 ? (int) (nl - p) : 60;

			r = die("%s '%s' line %u: '%.*s' is not an op id of this workload "
				"(1..%llu; "
				"wrong --seed or --ops?)",
				env, path, lineno, show, p, (unsigned long long) c->n);
			free(buf);
			return r;
		}
		if (id)
			set[id] = true; /* else an empty line */
		p = nl;
	}
	free(buf);
	return 0;
}

/* Open the mount point, BLACKOUT_MNT or the current directory, into *@ret. */
static int open_mount(int *ret)
{
	const char *mnt = getenv("BLACKOUT_MNT");

	*ret = open(mnt ? mnt : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*ret < 0)
		return die("cannot open the mount point '%s': %s", mnt ? mnt : ".",
			   strerror(errno));
	return 0;
}

/* The name an op was the first to bring into existence, as evidence of the op. */
static void judge_names(struct checker *c)
{
	uint64_t first_slot[FSOPS_NSLOTS] = {0}, first_dir[FSOPS_NDIRS] = {0};

	for (uint64_t i = 0; i < c->nops; i++) {
		const struct fsops_op *op = &c->ops[i];
		int s = op->type == FSOPS_CREATE || op->type == FSOPS_SYMLINK ? op->a
			: op->type == FSOPS_RENAME || op->type == FSOPS_RENAME_NOREPLACE ||
					op->type == FSOPS_LINK
				? op->b
				: -1;

		if (s >= 0 && !first_slot[s]) {
			/* the type of what the name holds: a symlink, or a file */
			bool link = c->by_id[op->ino] && c->by_id[op->ino]->type == FSOPS_SYMLINK;

			first_slot[s] = op->id;
			c->present[op->id] |= c->slot[s].kind == (link ? OBS_SYMLINK : OBS_FILE);
		}
		if (op->type == FSOPS_MKDIR && !first_dir[op->a]) {
			first_dir[op->a] = op->id;
			c->present[op->id] |= c->dir[op->a] == OBS_DIR;
		}
	}
}

/*
 * A non-sync op ran before any later op on the same object: when the later one is present,
 * so is it. Objects: inodes, file names, directories (also as the home of a file name).
 */
static int propagate(struct checker *c)
{
	bool *ino_seen = calloc(c->n + 1, sizeof(bool));
	bool slot_seen[FSOPS_NSLOTS] = {false}, dir_seen[FSOPS_NDIRS] = {false};

	if (!ino_seen)
		return -ENOMEM;
	for (uint64_t i = c->nops; i-- > 0;) {
		const struct fsops_op *op = &c->ops[i];
		bool dir_op = op->type == FSOPS_MKDIR || op->type == FSOPS_RMDIR;
		int slots[2] = {dir_op ? -1 : op->a, op->b};
		bool *p = &c->present[op->id];

		/* A sync op's presence is its promise (judge_syncs()); one that wrote data is
		 * evidence for the ops before it, as a write is. */
		if (fsops_is_sync(op->type) && !fsops_is_data(op->type))
			continue;
		*p |= (op->ino && ino_seen[op->ino]) || (op->victim && ino_seen[op->victim]) ||
		      (dir_op && dir_seen[op->a]);
		for (int j = 0; j < 2; j++)
			if (slots[j] >= 0)
				*p |= slot_seen[slots[j]] || (fsops_slot_dir(slots[j]) >= 0 &&
							      dir_seen[fsops_slot_dir(slots[j])]);
		if (!*p)
			continue;
		if (op->ino)
			ino_seen[op->ino] = true;
		if (op->victim)
			ino_seen[op->victim] = true;
		if (dir_op)
			dir_seen[op->a] = true;
		for (int j = 0; j < 2; j++)
			if (slots[j] >= 0) {
				slot_seen[slots[j]] = true;
				if (fsops_slot_dir(slots[j]) >= 0)
					dir_seen[fsops_slot_dir(slots[j])] = true;
			}
	}
	free(ino_seen);
	return 0;
}

static int validate_acks(const struct checker *c)
{
	for (uint64_t i = 0; i < c->nops; i++) {
		const struct fsops_op *op = &c->ops[i];

		if (!c->acked[op->id])
			continue;
		if (!c->issued[op->id])
			return die("op %llu is in BLACKOUT_ACKED but not in BLACKOUT_ISSUED",
				   (unsigned long long) op->id);
		if (!fsops_is_sync(op->type))
			return die("op %llu is acked but is a %s here (wrong --seed or --ops?)",
				   (unsigned long long) op->id, fsops_type_name(op->type));
	}
	return 0;
}

/* "present <id>" on a line, without printf's cost per line (a state may report a million). */
static void put_present(uint64_t id)
{
	char line[32], *p = line + sizeof(line);

	*--p = '\n';
	do
		*--p = (char) ('0' + id % 10);
	while (id /= 10);
	p -= 8;
	memcpy(p, "present ", 8);
	fwrite(p, 1, (size_t) (line + sizeof(line) - p), stdout);
}

/*
 * Judge the tree in @dfd (see observe()) against @c's ops and its issued and acked ids: fill
 * c->present. Returns 0, or the exit status of a checker that could not check.
 */
static int judge(struct checker *c, int dfd, uint64_t slots)
{
	int r;

	c->present = calloc(c->n + 1, sizeof(bool));
	c->by_id = calloc(c->n + 1, sizeof(*c->by_id));
	if (!c->present || !c->by_id)
		return die("out of memory");
	for (uint64_t i = 0; i < c->nops; i++)
		c->by_id[c->ops[i].id] = &c->ops[i];
	r = validate_acks(c);
	if (r)
		return r;
	if (observe(c, dfd, slots) < 0 || index_ops(c) < 0)
		return die("out of memory");
	judge_names(c);
	if (propagate(c) < 0 || judge_syncs(c) < 0)
		return die("out of memory");
	return 0;
}

/* The run's id of @c's op @id: its own for the first @setup (a fresh filesystem's base holds
 * them), @base + id for the others. */
static uint64_t run_id(uint64_t id, uint64_t base, uint64_t setup)
{
	return id > setup ? base + id : id;
}

/* Print "present <run id>" for each op @c found present (run_id()). */
static void print_present(const struct checker *c, uint64_t base, uint64_t setup)
{
	for (uint64_t id = 1; id <= c->n; id++)
		if (c->present[id])
			put_present(run_id(id, base, setup));
}

/* Release what judge() made of @c (not its ops, nor its issued and acked ids). */
static void checker_release(struct checker *c)
{
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		free(c->slot[s].runs);
		free(c->slot[s].odd);
		free(c->by_slot[s].v);
	}
	for (int d = 0; d < FSOPS_NDIRS; d++)
		free(c->by_dir[d].v);
	for (size_t i = 0; c->fut && i < c->nfut; i++) {
		struct future *f = &c->fut[i];

		tracks_free(f);
		free(f->changes.v);
		free(f->names.v);
		free(f->xattrs.v);
		free(f->min_size);
		free(f->max_size);
		free(f->min_cut);
	}
	free(c->fut);
	free(c->fut_at);
	free(c->present);
	free(c->by_id);
}

static int finish(void)
{
	puts("done");
	if (fflush(stdout) == EOF || ferror(stdout))
		return die("writing the result failed");
	return 0;
}

/* The checker of the seeded sequence: the namespace at the mount point. */
static int check_sequence(struct checker *c)
{
	int r, dfd;

	if (fsops_sequence(c->p, &c->ops, &c->nops) < 0)
		return die("out of memory");
	c->issued = calloc(c->n + 1, sizeof(bool));
	c->acked = calloc(c->n + 1, sizeof(bool));
	if (!c->issued || !c->acked)
		return die("out of memory");
	r = read_ids(c, "BLACKOUT_ISSUED", c->issued);
	if (!r)
		r = read_ids(c, "BLACKOUT_ACKED", c->acked);
	if (!r)
		r = open_mount(&dfd);
	if (r)
		return r;
	r = judge(c, dfd, UINT64_MAX);
	close(dfd);
	if (r)
		return r;
	print_present(c, 0, 0);
	return finish();
}

/* The ids issued and acked of ops 1..@n (BLACKOUT_ISSUED, BLACKOUT_ACKED) into @all: 0, or the
 * exit status of a checker that could not read them. */
static int read_all_ids(struct checker *all, uint64_t n)
{
	int r;

	all->n = n;
	all->issued = calloc(n + 1, sizeof(bool));
	all->acked = calloc(n + 1, sizeof(bool));
	if (!all->issued || !all->acked)
		return die("out of memory");
	r = read_ids(all, "BLACKOUT_ISSUED", all->issued);
	return r ? r : read_ids(all, "BLACKOUT_ACKED", all->acked);
}

/* The workloads of a bounded run, as the checker collects them. */
struct workloads {
	struct workload {
		uint64_t rank, n;
		struct fsops_op *ops;
	} * v;
	size_t count;
	uint64_t total; /* their ops */
};

static int collect(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
		   uint64_t n)
{
	struct workloads *w = ctx;
	struct workload *v = reallocarray(w->v, w->count + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	w->v = v;
	v[w->count] = (struct workload){rank, n, malloc(n * sizeof(*ops))};
	if (!v[w->count].ops)
		return -ENOMEM;
	memcpy(v[w->count].ops, ops, n * sizeof(*ops));
	w->count++;
	w->total += n;
	return 0;
}

/*
 * The checker of a bounded run: each workload in its directory w<rank>, judged on its own,
 * its op ids offset by the ops of the workloads before it.
 */
static int check_bounded(const struct fsops_params *p)
{
	/* The names the bounded space uses: d0/f0, d0/f1, d1/f0, d1/f1. */
	const uint64_t slots = 1ull << 8 | 1ull << 9 | 1ull << 16 | 1ull << 17;
	struct workloads w = {0};
	struct checker all = {.p = p};
	uint64_t base = 0;
	int r, mnt = -1;

	r = fsops_bounded_each(p, collect, &w);
	if (r < 0) {
		r = die("out of memory");
		goto out;
	}
	r = read_all_ids(&all, w.total);
	if (!r)
		r = open_mount(&mnt);
	for (size_t i = 0; i < w.count && !r; i++) {
		struct checker c = {.p = p, .ops = w.v[i].ops, .nops = w.v[i].n, .n = w.v[i].n};
		char dir[32];
		int dfd;

		bool started = false;

		c.issued = all.issued + base;
		c.acked = all.acked + base;
		for (uint64_t id = 1; id <= c.n && !started; id++)
			started = c.issued[id];
		snprintf(dir, sizeof(dir), "w%llu", (unsigned long long) w.v[i].rank);
		dfd = openat(mnt, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* A workload not started whose directory is not there shows nothing: the cost of
		 * a state is that of the workloads before its cut. */
		if (!started && dfd < 0) {
			base += w.v[i].n;
			continue;
		}
		r = judge(&c, dfd, slots);
		if (dfd >= 0)
			close(dfd);
		if (!r)
			print_present(&c, base, 0);
		checker_release(&c);
		base += w.v[i].n;
	}
	if (!r)
		r = finish();
out:
	if (mnt >= 0)
		close(mnt);
	for (size_t i = 0; i < w.count; i++)
		free(w.v[i].ops);
	free(w.v);
	free(all.issued);
	free(all.acked);
	return r;
}

/*
 * The workload a state of a fresh filesystem is of (BLACKOUT_FRESH, its fresh: mark's label,
 * "seqL-<rank>/<first id>/<code>"), into *@first and @ops (*@n: its setup's, then its own);
 * *@first 0 when it is unset (a state of the setup, before the first fresh filesystem). An exit
 * status on a label this run's space has no workload for.
 */
static int fresh_workload(const struct fsops_params *p, uint64_t *first, struct fsops_op *ops,
			  uint64_t *n)
{
	const char *label = getenv("BLACKOUT_FRESH");
	unsigned length = 0;
	uint64_t rank;
	int at = 0, end = 0;
	char code[FSOPS_BOUNDED_CODE_MAX];

	*first = 0;
	if (!label)
		return fsops_bounded_setup_ops(p, ops, n) < 0 ? die("out of memory") : 0;
	/* digits only: sscanf's %llu alone would take a sign and blanks */
	if (strspn(label, "seq0123456789-/.") == strlen(label) && !strncmp(label, "seq", 3) &&
	    isdigit((unsigned char) label[3]) && strchr(label, '-') &&
	    isdigit((unsigned char) strchr(label, '-')[1]) &&
	    sscanf(label, "seq%u-%" SCNu64 "/%n%" SCNu64 "/%n", &length, &rank, &at, first, &end) ==
		    3 &&
	    end && label[at] >= '1' && label[at] <= '9' && length == p->bounded &&
	    *first > fsops_bounded_setup(p) && *first < (1ull << 48) &&
	    strlen(label + end) < sizeof(code) && fsops_bounded_decode(p, label + end, ops, n) == 0)
		return 0;
	return die("BLACKOUT_FRESH '%.80s' is no workload of this bounded space "
		   "('seqL-<rank>/<first id>/<code>' of its fresh: mark, as blackout-fsops run "
		   "--fresh makes it)",
		   label);
}

/*
 * A fresh filesystem without the setup's directory w but with a workload's own w<rank>: a log
 * of the earlier form, each workload's setup on its fresh filesystem, which these ids do not
 * fit. An exit status saying so; 0 when it is not that.
 */
static int earlier_form(int mnt)
{
	struct dirent *e;
	int fd = dup(mnt), r = 0;
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while (!r && (e = readdir(d)))
		if (e->d_name[0] == 'w' && isdigit((unsigned char) e->d_name[1]))
			r = die("the fresh filesystem holds '%s', not the setup's 'w': a run of an "
				"earlier blackout-fsops --fresh (each workload's setup its own), "
				"which "
				"this one cannot judge",
				e->d_name);
	closedir(d);
	return r;
}

/*
 * The checker of a bounded run on a fresh filesystem per workload: the state's one workload
 * (fresh_workload()) in directory w, its setup's ids 1.. (it is in the base), its own from its
 * first on; or, before the first fresh filesystem, the setup alone.
 */
static int check_fresh(const struct fsops_params *p)
{
	const uint64_t slots = 1ull << 8 | 1ull << 9 | 1ull << 16 | 1ull << 17;
	struct fsops_op ops[FSOPS_BOUNDED_OPS_MAX];
	bool issued[FSOPS_BOUNDED_OPS_MAX + 1] = {0}, acked[FSOPS_BOUNDED_OPS_MAX + 1] = {0};
	uint64_t first, n = 0, setup = fsops_bounded_setup(p), base = 0;
	struct checker all = {.p = p}, c = {.p = p, .ops = ops, .issued = issued, .acked = acked};
	int r, mnt = -1, dfd = -1;

	r = fresh_workload(p, &first, ops, &n);
	if (r)
		return r;
	/* The workload's op k after its setup (its own ids: setup + 1..) is the run's base + k. */
	if (first)
		base = first - 1 - setup;
	c.nops = c.n = n;
	r = read_all_ids(&all, base + n);
	for (uint64_t id = 1; !r && id <= n; id++) {
		issued[id] = all.issued[run_id(id, base, setup)];
		acked[id] = all.acked[run_id(id, base, setup)];
	}
	if (!r)
		r = open_mount(&mnt);
	if (!r) {
		dfd = openat(mnt, "w", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		r = dfd < 0 && first ? earlier_form(mnt) : 0;
	}
	/* The setup not begun, the empty filesystem: nothing to judge. */
	if (!r && (issued[1] || dfd >= 0))
		r = judge(&c, dfd, slots);
	if (!r) {
		if (c.present)
			print_present(&c, base, setup);
		r = finish();
	}
	checker_release(&c);
	if (dfd >= 0)
		close(dfd);
	if (mnt >= 0)
		close(mnt);
	free(all.issued);
	free(all.acked);
	return r;
}

int fsops_check(const struct fsops_params *p)
{
	struct checker *c;
	int r;

	if (p->bounded && p->fresh)
		return check_fresh(p);
	if (p->bounded)
		return check_bounded(p);
	c = calloc(1, sizeof(*c));
	if (!c)
		return die("out of memory");
	c->p = p;
	c->n = p->ops;
	r = check_sequence(c);
	checker_release(c);
	free(c->ops);
	free(c->issued);
	free(c->acked);
	free(c);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker: re-derive the op sequence from the seed, look at the tree of a crash
 * state, and print "present <id>" for every op whose effect is there, then "done".
 * docs/checkers.md states the rules; in short:
 *
 *  - a sync-class op is present when it was issued and the state it promised holds, allowing
 *    for whatever later issued ops may have changed since;
 *  - a data op is present when its bytes are in a file (16 aligned bytes of them);
 *  - create/rename/link/mkdir are present when the name they were first to create exists;
 *  - any non-sync op is present when a later op on the same object (inode, name or
 *    directory) is present: it ran before that one, even if its own effect was superseded.
 *
 * Where a state is ambiguous the reading that invents no failure wins: the harness flags a
 * sync op that is acked but not present (lost-ack) and any op present but not issued
 * (phantom), so "present" is never claimed on weak evidence and a promise is held to be kept
 * whenever some legal history explains the tree. Only known names are looked at, files are
 * read up to FSOPS_MAX_SIZE bytes, and nothing found in the tree can make the checker fail.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenarios/fsops/fsops.h"

/* Bytes of an op's data that must be found in place to count as evidence. */
#define EVIDENCE 16u

enum obs_kind {
	OBS_ABSENT,
	OBS_FILE,
	OBS_DIR,
	OBS_OTHER,	/* something that is not what the model can produce */
	OBS_UNREADABLE, /* a regular file that could not be read whole */
};

struct obs_file {
	enum obs_kind kind;
	uint64_t size;
	uint64_t have; /* bytes in data: min(size, FSOPS_MAX_SIZE) */
	uint8_t *data;
};

/* The ops on one object (an inode, a file name, a directory), in id order. */
struct oplist {
	const struct fsops_op **v;
	size_t n, cap;
};

struct checker {
	const struct fsops_params *p;
	struct fsops_op *ops; /* the ops performed, in order (with an op subset, not all ids) */
	uint64_t nops;
	uint64_t n;			     /* the largest op id */
	struct oplist *by_ino;		     /* indexed by inode number (the creating op's id) */
	struct oplist by_slot[FSOPS_NSLOTS]; /* ops that change a file name */
	struct oplist by_dir[FSOPS_NDIRS];   /* mkdir and rmdir */
	bool *issued, *acked, *present;	     /* indexed by op id */
	struct obs_file slot[FSOPS_NSLOTS];
	enum obs_kind dir[FSOPS_NDIRS];
	uint8_t buf[FSOPS_MAX_WRITE];
	const struct fsops_op **later;	  /* acceptable()'s later writes: room for every op */
	bool unexplained[FSOPS_MAX_SIZE]; /* acceptable()'s bytes no history explains yet */
};

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

/* Read the op ids listed one per line in the file named by $@env into @set. */
static int read_ids(struct checker *c, const char *env, bool *set)
{
	const char *path = getenv(env);
	char line[64];
	unsigned lineno = 0;
	FILE *f;

	if (!path)
		return die("%s is not set", env);
	f = fopen(path, "re");
	if (!f)
		return die("cannot read %s '%s': %s", env, path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long long id;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		errno = 0;
		id = strtoull(line, &end, 10);
		if (line[0] < '0' || line[0] > '9' || *end || errno || id == 0 || id > c->n) {
			fclose(f);
			return die(
				"%s '%s' line %u: '%s' is not an op id of this workload (1..%llu; "
				"wrong --seed or --ops?)",
				env, path, lineno, line, (unsigned long long) c->n);
		}
		set[id] = true;
	}
	if (ferror(f)) {
		fclose(f);
		return die("error reading %s '%s'", env, path);
	}
	fclose(f);
	return 0;
}

static void observe_file(int dfd, const char *path, struct obs_file *o)
{
	struct stat st;
	ssize_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		o->kind = errno == ENOENT || errno == ENOTDIR ? OBS_ABSENT : OBS_UNREADABLE;
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		o->kind = OBS_OTHER;
		return;
	}
	o->kind = OBS_UNREADABLE;
	fd = openat(dfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	o->size = (uint64_t) st.st_size;
	o->have = o->size < FSOPS_MAX_SIZE ? o->size : FSOPS_MAX_SIZE;
	o->data = malloc(o->have ? o->have : 1);
	if (!o->data)
		goto out;
	n = pread(fd, o->data, o->have, 0);
	while (n >= 0 && (uint64_t) n < o->have) {
		ssize_t more = pread(fd, o->data + n, o->have - (uint64_t) n, n);

		if (more <= 0)
			break;
		n += more;
	}
	if (n >= 0 && (uint64_t) n == o->have)
		o->kind = OBS_FILE;
out:
	if (fd >= 0)
		close(fd);
	if (o->kind != OBS_FILE) {
		free(o->data);
		o->data = NULL;
	}
}

static int observe(struct checker *c)
{
	const char *mnt = getenv("BLACKOUT_MNT");
	char path[16];
	struct stat st;
	int dfd = open(mnt ? mnt : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return die("cannot open the mount point '%s': %s", mnt ? mnt : ".",
			   strerror(errno));
	for (int d = 0; d < FSOPS_NDIRS; d++) {
		if (fstatat(dfd, fsops_dir_path(d, path, sizeof(path)), &st, AT_SYMLINK_NOFOLLOW))
			c->dir[d] = errno == ENOENT ? OBS_ABSENT : OBS_UNREADABLE;
		else
			c->dir[d] = S_ISDIR(st.st_mode) ? OBS_DIR : OBS_OTHER;
	}
	for (int s = 0; s < FSOPS_NSLOTS; s++)
		observe_file(dfd, fsops_slot_path(s, path, sizeof(path)), &c->slot[s]);
	close(dfd);
	return 0;
}

/* Some EVIDENCE aligned bytes of data op @op are in place in some file. */
static bool data_visible(struct checker *c, const struct fsops_op *op)
{
	fsops_fill(c->p->seed, op->id, op->off, c->buf, op->len);
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];

		if (o->kind != OBS_FILE)
			continue;
		for (uint64_t w = 0; w + EVIDENCE <= op->len && op->off + w + EVIDENCE <= o->have;
		     w += EVIDENCE)
			if (!memcmp(o->data + op->off + w, c->buf + w, EVIDENCE))
				return true;
	}
	return false;
}

static int oplist_add(struct oplist *l, const struct fsops_op *op)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		const struct fsops_op **v = reallocarray(l->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = op;
	return 0;
}

static int index_ops(struct checker *c)
{
	int r = 0;

	c->by_ino = calloc(c->n + 1, sizeof(*c->by_ino));
	c->later = calloc(c->nops + 1, sizeof(*c->later));
	if (!c->by_ino || !c->later)
		return -ENOMEM;
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];

		if (op->ino)
			r |= oplist_add(&c->by_ino[op->ino], op);
		if (op->victim)
			r |= oplist_add(&c->by_ino[op->victim], op);
		switch (op->type) {
		case FSOPS_CREATE:
		case FSOPS_UNLINK:
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_RENAME:
			r |= oplist_add(&c->by_slot[op->a], op);
			/* fall through */
		case FSOPS_LINK:
			r |= oplist_add(&c->by_slot[op->b], op);
			break;
		case FSOPS_MKDIR:
		case FSOPS_RMDIR:
			r |= oplist_add(&c->by_dir[op->a], op);
			break;
		default:
			break;
		}
	}
	return r ? -ENOMEM : 0;
}

/* The next op of @l after op @k that was issued, from position *@i on; NULL at the end. */
static const struct fsops_op *next_issued(const struct checker *c, const struct oplist *l,
					  uint64_t k, size_t *i)
{
	while (*i < l->n) {
		const struct fsops_op *m = l->v[(*i)++];

		if (m->id > k && c->issued[m->id])
			return m;
	}
	return NULL;
}

/*
 * Whether file @o can be inode @in as it was at op @k, changed by any subset of the later
 * issued ops on it: each byte holds its value at k, or what a later write put there, or zero
 * where a later truncate cut; the size lies between the smallest and the largest it had.
 *
 * Each byte is judged on its own, so the later ops are gathered once and each write's data is
 * made once, for the bytes its value at k does not explain, newest first until none is left:
 * the cost is the file's size and the later writes' lengths, not their product.
 */
static bool acceptable(struct checker *c, const struct fsops_inode *in, uint64_t k,
		       const struct obs_file *o)
{
	const struct oplist *l = &c->by_ino[in->ino];
	const struct fsops_op *m;
	uint64_t lo = in->size, hi = in->size, cut = UINT64_MAX, unexplained = 0;
	size_t i = 0, nw = 0;

	if (o->kind != OBS_FILE)
		return false;
	if (o->size == in->size && !memcmp(o->data, in->data, in->size))
		return true;
	while ((m = next_issued(c, l, k, &i))) {
		if (m->ino != in->ino || !(fsops_is_data(m->type) || m->type == FSOPS_TRUNCATE))
			continue;
		lo = m->size_after < lo ? m->size_after : lo;
		hi = m->size_after > hi ? m->size_after : hi;
		if (m->type == FSOPS_TRUNCATE)
			cut = m->off < cut ? m->off : cut;
		else
			c->later[nw++] = m;
	}
	if (o->size < lo || o->size > hi || o->size > FSOPS_MAX_SIZE)
		return false;
	for (uint64_t off = 0; off < o->size; off++) {
		uint8_t v = o->data[off];

		c->unexplained[off] =
			v != (off < in->size ? in->data[off] : 0) && !(v == 0 && off >= cut);
		unexplained += c->unexplained[off];
	}
	/* Newest first: what a state shows is mostly what the last writes left. */
	for (size_t w = nw; w-- > 0 && unexplained;) {
		uint64_t from = c->later[w]->off, to = from + c->later[w]->len;

		if (from >= o->size)
			continue;
		to = to < o->size ? to : o->size;
		fsops_fill(c->p->seed, c->later[w]->id, from, c->buf, to - from);
		for (uint64_t off = from; off < to; off++)
			if (c->unexplained[off] && o->data[off] == c->buf[off - from]) {
				c->unexplained[off] = false;
				unexplained--;
			}
	}
	return unexplained == 0;
}

/*
 * The promise about inode @in made at op @k: some name it had at k or got later holds it
 * (acceptably), unless later issued ops dropped its last name.
 */
static bool inode_kept(struct checker *c, const struct fsops_model *md,
		       const struct fsops_inode *in, uint64_t k)
{
	const struct fsops_op *m;
	int64_t nlink = in->nlink;
	size_t i = 0;

	for (int s = 0; s < FSOPS_NSLOTS; s++)
		if (md->slot_ino[s] == in->ino && acceptable(c, in, k, &c->slot[s]))
			return true;
	while ((m = next_issued(c, &c->by_ino[in->ino], k, &i))) {
		if ((m->type == FSOPS_RENAME || m->type == FSOPS_LINK) && m->ino == in->ino &&
		    acceptable(c, in, k, &c->slot[m->b]))
			return true;
		if ((m->type == FSOPS_UNLINK && m->ino == in->ino) ||
		    (m->type == FSOPS_RENAME && m->victim == in->ino))
			nlink--;
		if (m->type == FSOPS_LINK && m->ino == in->ino)
			nlink++;
		if (nlink == 0)
			return true;
	}
	return false;
}

/* Whether a later issued op changed the name @l is about. */
static bool name_touched(const struct checker *c, const struct oplist *l, uint64_t k)
{
	size_t i = 0;

	return next_issued(c, l, k, &i) != NULL;
}

/* syncfs at @k: every directory, name and file as of k, but for what later ops changed. */
static bool tree_kept(struct checker *c, const struct fsops_model *md, uint64_t k)
{
	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (!name_touched(c, &c->by_dir[d], k) &&
		    c->dir[d] != (md->dir_exists[d] ? OBS_DIR : OBS_ABSENT))
			return false;
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		if (name_touched(c, &c->by_slot[s], k))
			continue;
		if (!md->slot_ino[s] ? c->slot[s].kind != OBS_ABSENT
				     : !acceptable(c, fsops_model_inode(md, md->slot_ino[s]), k,
						   &c->slot[s]))
			return false;
	}
	for (size_t i = 0; i < md->ninodes; i++)
		if (!inode_kept(c, md, md->inodes[i], k))
			return false;
	return true;
}

/* Replay the model and judge every issued sync-class op at its own point. */
static int judge_syncs(struct checker *c)
{
	struct fsops_model md;
	int r = 0;

	fsops_model_init(&md, c->p->seed);
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];

		r = fsops_model_apply(&md, op);
		if (r < 0 || !fsops_is_sync(op->type) || !c->issued[op->id])
			continue;
		if (op->type == FSOPS_SYNC)
			c->present[op->id] = tree_kept(c, &md, op->id);
		else
			c->present[op->id] =
				inode_kept(c, &md, fsops_model_inode(&md, op->ino), op->id);
	}
	fsops_model_release(&md);
	return r;
}

/* The name an op was the first to bring into existence, as evidence of the op. */
static void judge_names(struct checker *c)
{
	uint64_t first_slot[FSOPS_NSLOTS] = {0}, first_dir[FSOPS_NDIRS] = {0};

	for (uint64_t i = 0; i < c->nops; i++) {
		const struct fsops_op *op = &c->ops[i];
		int s = op->type == FSOPS_CREATE			     ? op->a
			: op->type == FSOPS_RENAME || op->type == FSOPS_LINK ? op->b
									     : -1;

		if (s >= 0 && !first_slot[s]) {
			first_slot[s] = op->id;
			c->present[op->id] |= c->slot[s].kind == OBS_FILE;
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

		if (fsops_is_sync(op->type))
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

static int check(struct checker *c)
{
	int r;

	if (fsops_sequence(c->p, &c->ops, &c->nops) < 0)
		return die("out of memory");
	c->issued = calloc(c->n + 1, sizeof(bool));
	c->acked = calloc(c->n + 1, sizeof(bool));
	c->present = calloc(c->n + 1, sizeof(bool));
	if (!c->issued || !c->acked || !c->present)
		return die("out of memory");
	r = read_ids(c, "BLACKOUT_ISSUED", c->issued);
	if (!r)
		r = read_ids(c, "BLACKOUT_ACKED", c->acked);
	if (!r)
		r = validate_acks(c);
	if (!r)
		r = observe(c);
	if (r)
		return r;
	if (index_ops(c) < 0)
		return die("out of memory");
	for (uint64_t i = 0; i < c->nops; i++)
		if (fsops_is_data(c->ops[i].type))
			c->present[c->ops[i].id] = data_visible(c, &c->ops[i]);
	judge_names(c);
	if (propagate(c) < 0 || judge_syncs(c) < 0)
		return die("out of memory");
	for (uint64_t id = 1; id <= c->n; id++)
		if (c->present[id])
			printf("present %llu\n", (unsigned long long) id);
	puts("done");
	if (fflush(stdout) == EOF || ferror(stdout))
		return die("writing the result failed");
	return 0;
}

int fsops_check(const struct fsops_params *p)
{
	struct checker *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return die("out of memory");
	c->p = p;
	c->n = p->ops;
	r = check(c);
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		free(c->slot[s].data);
		free(c->by_slot[s].v);
	}
	for (int d = 0; d < FSOPS_NDIRS; d++)
		free(c->by_dir[d].v);
	for (uint64_t i = 0; c->by_ino && i <= c->n; i++)
		free(c->by_ino[i].v);
	free(c->by_ino);
	free(c->later);
	free(c->ops);
	free(c->issued);
	free(c->acked);
	free(c->present);
	free(c);
	return r;
}

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
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "scenarios/fsops/checker.h"
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

/* What the checker reads a file into: one file at a time, as a file is kept only as runs of
 * its words (classify()). */
static uint8_t scratch[FSOPS_MAX_SIZE];

/* Append @v to the @n items of @size at *@p (room for *@cap); -ENOMEM. */
static int append(void *p, uint32_t *n, uint32_t *cap, size_t size, const void *v)
{
	char **items = p;

	if (*n == *cap) {
		uint32_t more = *cap ? 2 * *cap : 16;
		char *w = reallocarray(*items, more, size);

		if (!w)
			return -ENOMEM;
		*items = w;
		*cap = more;
	}
	memcpy(*items + (size_t) (*n)++ * size, v, size);
	return 0;
}

/*
 * A data op is present when one whole word of its data is in place in some file: each word
 * of each file read is decoded to the op that wrote it, a write's words a run at a time, so
 * this costs what the files hold. What the words are (the write whose whole words they are,
 * zeros, or odd), in runs, and the inodes whose writes a file holds (its owner) are noted for
 * the tracks. @data holds the file's o->have bytes.
 */
static int classify(struct checker *c, struct obs_file *o, const uint8_t *data)
{
	uint64_t words = (o->have + 7) / 8, whole = o->have / 8, seed = c->p->seed;
	uint32_t runs_cap = 0, odd_cap = 0;

	for (uint64_t w = 0, n; w < words; w += n) {
		uint64_t id = w < whole ? fsops_decode(seed, data, w) : 0;
		const struct fsops_op *op = id && id <= c->n ? c->by_id[id] : NULL;
		uint32_t v = (uint32_t) id;

		n = 0;
		if (op && fsops_is_data(op->type) && op->off <= 8 * w &&
		    8 * w + 8 <= op->off + op->len) {
			uint64_t end = (op->off + op->len) / 8; /* its last whole word, + 1 */

			c->present[id] = true;
			o->owner = !o->owner || o->owner == op->ino ? op->ino : UINT64_MAX;
			n = fsops_decode_span(seed, data, w, end < whole ? end : whole, id);
		} else if (w < whole) {
			v = 0;
			n = fsops_decode_span(seed, data, w, whole, 0);
		}
		if (n == 0) { /* bytes of several writes, or that no write made */
			struct odd_word odd = {(uint32_t) w, {0}};
			uint8_t any = 0;

			memcpy(odd.bytes, data + 8 * w, w < whole ? 8 : o->have - 8 * w);
			for (int i = 0; i < 8; i++)
				any |= odd.bytes[i];
			v = any ? WORD_ODD | o->nodd : 0;
			if (any && append(&o->odd, &o->nodd, &odd_cap, sizeof(odd), &odd) < 0)
				return -ENOMEM;
			n = 1;
		}
		if ((!o->nruns || o->runs[o->nruns - 1].value != v) &&
		    append(&o->runs, &o->nruns, &runs_cap, sizeof(*o->runs),
			   &(struct word_run){(uint32_t) w, v}) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Look at the file @path in @dfd: its kind, size, data (classified) and attributes. */
static int observe_file(struct checker *c, int dfd, const char *path, struct obs_file *o)
{
	struct stat st;
	ssize_t n;
	int fd, r = 0;

	memset(o, 0, sizeof(*o));
	if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		o->kind = errno == ENOENT || errno == ENOTDIR ? OBS_ABSENT : OBS_UNREADABLE;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		o->kind = OBS_OTHER;
		return 0;
	}
	o->kind = OBS_UNREADABLE;
	fd = openat(dfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	o->size = (uint64_t) st.st_size;
	o->have = o->size < FSOPS_MAX_SIZE ? o->size : FSOPS_MAX_SIZE;
	n = pread(fd, scratch, o->have, 0);
	while (n >= 0 && (uint64_t) n < o->have) {
		ssize_t more = pread(fd, scratch + n, o->have - (uint64_t) n, n);

		if (more <= 0)
			break;
		n += more;
	}
	if (n < 0 || (uint64_t) n != o->have)
		goto out;
	o->kind = OBS_FILE;
	/* Attributes only where the sequence has them: what no op set is not looked for. */
	for (int x = 0; x < FSOPS_NXATTRS && (c->p->families & FSOPS_FAMILY_XATTR); x++) {
		char name[] = "user.fsops0", v[64];
		ssize_t len;
		const struct fsops_op *op;

		name[sizeof(name) - 2] = (char) ('0' + x);
		len = fgetxattr(fd, name, v, sizeof(v));
		if (len < 0)
			/* No such attribute, or none on this filesystem: absent. */
			o->xattr[x] = errno == ENODATA || errno == ENOTSUP ? 0 : UINT64_MAX;
		else
			o->xattr[x] =
				fsops_xattr_decode(c->p->seed, x, v, (size_t) len) ?: UINT64_MAX;
		op = o->xattr[x] && o->xattr[x] <= c->n ? c->by_id[o->xattr[x]] : NULL;
		if (op && op->type == FSOPS_SETXATTR && op->off == (uint64_t) x)
			c->present[op->id] = true;
	}
	r = classify(c, o, scratch);
out:
	if (fd >= 0)
		close(fd);
	return r;
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

/*
 * Look at the namespace in directory @dfd (-1: it does not exist, so nothing does), at the
 * file names of @slots (a bit per slot); the others are absent. Returns 0 or -ENOMEM.
 */
static int observe(struct checker *c, int dfd, uint64_t slots)
{
	char path[16];
	struct stat st;
	int r = 0;

	for (int d = 0; d < FSOPS_NDIRS; d++) {
		if (dfd < 0)
			c->dir[d] = OBS_ABSENT;
		else if (fstatat(dfd, fsops_dir_path(d, path, sizeof(path)), &st,
				 AT_SYMLINK_NOFOLLOW))
			c->dir[d] = errno == ENOENT ? OBS_ABSENT : OBS_UNREADABLE;
		else
			c->dir[d] = S_ISDIR(st.st_mode) ? OBS_DIR : OBS_OTHER;
	}
	for (int s = 0; s < FSOPS_NSLOTS && r == 0; s++) {
		if (dfd < 0 || !(slots & (1ull << s)))
			c->slot[s] = (struct obs_file){.kind = OBS_ABSENT};
		else
			r = observe_file(c, dfd, fsops_slot_path(s, path, sizeof(path)),
					 &c->slot[s]);
	}
	return r;
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

/* The largest issued op id of @l, or 0. */
static uint64_t last_issued(const struct checker *c, const struct oplist *l)
{
	for (size_t i = l->n; i-- > 0;)
		if (c->issued[l->v[i]->id])
			return l->v[i]->id;
	return 0;
}

/* For every position j of @f's issued changes: what changes[j..] leave (sizes, smallest cut). */
static int future_index(struct future *f)
{
	size_t n = f->changes.n;

	f->min_size = malloc((n + 1) * sizeof(uint64_t));
	f->max_size = malloc((n + 1) * sizeof(uint64_t));
	f->min_cut = malloc((n + 1) * sizeof(uint64_t));
	if (!f->min_size || !f->max_size || !f->min_cut)
		return -ENOMEM;
	f->min_size[n] = f->min_cut[n] = UINT64_MAX;
	f->max_size[n] = 0;
	for (size_t j = n; j-- > 0;) {
		const struct fsops_op *m = f->changes.v[j];

		f->min_size[j] =
			m->size_after < f->min_size[j + 1] ? m->size_after : f->min_size[j + 1];
		f->max_size[j] =
			m->size_after > f->max_size[j + 1] ? m->size_after : f->max_size[j + 1];
		f->min_cut[j] = m->type == FSOPS_TRUNCATE && m->off < f->min_cut[j + 1]
					? m->off
					: f->min_cut[j + 1];
	}
	return 0;
}

static int index_ops(struct checker *c)
{
	int r = 0;

	for (uint64_t i = 0; i < c->nops; i++)
		c->nfut += c->ops[i].type == FSOPS_CREATE;
	c->fut = calloc(c->nfut, sizeof(*c->fut));
	c->fut_at = calloc(c->n + 1, sizeof(*c->fut_at));
	if ((!c->fut && c->nfut) || !c->fut_at)
		return -ENOMEM;
	for (uint64_t i = 0, j = 0; i < c->nops; i++)
		if (c->ops[i].type == FSOPS_CREATE)
			c->fut_at[c->ops[i].ino] = (uint32_t) j++;
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		bool issued = c->issued[op->id];

		switch (op->type) {
		case FSOPS_CREATE:
			future_of(c, op->ino)->slots |= 1ull << op->a;
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_UNLINK:
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_EXCHANGE:
			future_of(c, op->victim)->slots |= 1ull << op->a;
			/* fall through */
		case FSOPS_RENAME:
		case FSOPS_RENAME_NOREPLACE:
			if (issued && op->victim)
				r |= oplist_add(&future_of(c, op->victim)->names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			/* fall through */
		case FSOPS_LINK:
			future_of(c, op->ino)->slots |= 1ull << op->b;
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->names, op);
			r |= oplist_add(&c->by_slot[op->b], op);
			break;
		case FSOPS_MKDIR:
		case FSOPS_RMDIR:
			r |= oplist_add(&c->by_dir[op->a], op);
			break;
		case FSOPS_SETXATTR:
		case FSOPS_REMOVEXATTR:
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->xattrs, op);
			break;
		default:
			if (!fsops_is_change(op->type))
				break;
			if (op->size_after > future_of(c, op->ino)->max_ever)
				future_of(c, op->ino)->max_ever = op->size_after;
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->changes, op);
			break;
		}
	}
	for (size_t i = 0; i < c->nfut && r == 0; i++)
		r = future_index(&c->fut[i]);
	for (int s = 0; s < FSOPS_NSLOTS; s++)
		c->slot_last[s] = last_issued(c, &c->by_slot[s]);
	for (int d = 0; d < FSOPS_NDIRS; d++)
		c->dir_last[d] = last_issued(c, &c->by_dir[d]);
	return r ? -ENOMEM : 0;
}

/*
 * Whether attribute user.fsops<x> of name @s's file holds what inode @in's has at the op being
 * judged, or what a later issued setxattr or removexattr on it leaves, for every x.
 */
static bool xattrs_kept(const struct checker *c, const struct fsops_inode *in, int s)
{
	const struct future *f = future_of(c, in->ino);

	for (int x = 0; x < FSOPS_NXATTRS; x++) {
		uint64_t v = c->slot[s].xattr[x];
		size_t j = f->xattrs_pos;

		if (v == in->xattr[x])
			continue;
		for (; j < f->xattrs.n; j++) {
			const struct fsops_op *m = f->xattrs.v[j];

			if (m->off == (uint64_t) x && v == (m->type == FSOPS_SETXATTR ? m->id : 0))
				break;
		}
		if (j == f->xattrs.n)
			return false;
	}
	return true;
}

/* What a sync promises of an inode: bytes [from, to) and, with meta, its attributes. */
struct promise {
	uint64_t from, to;
	bool meta;
};
#define WHOLE_FILE ((struct promise){0, UINT64_MAX, true})

/* Whether name @s holds inode @in as @pr promises. */
static bool holds(const struct checker *c, const struct fsops_inode *in, int s, struct promise pr)
{
	return track_range_ok(c, in, s, pr.from, pr.to) && (!pr.meta || xattrs_kept(c, in, s));
}

/*
 * The promise @pr about inode @in made at op @k: some name it had at k or got later holds it
 * (acceptably), unless later issued ops dropped its last name.
 */
static bool inode_kept(struct checker *c, const struct fsops_model *md,
		       const struct fsops_inode *in, uint64_t k, struct promise pr)
{
	struct future *f = future_of(c, in->ino);
	int64_t nlink = in->nlink;

	/* The names it has at k are among those it is ever given. */
	for (uint64_t left = f->slots; left; left &= left - 1) {
		int s = __builtin_ctzll(left);

		if (md->slot_ino[s] == in->ino && holds(c, in, s, pr))
			return true;
	}
	while (f->names_pos < f->names.n && f->names.v[f->names_pos]->id <= k)
		f->names_pos++;
	for (size_t j = f->names_pos; j < f->names.n; j++) {
		const struct fsops_op *m = f->names.v[j];

		if ((fsops_is_rename(m->type) || m->type == FSOPS_LINK) && m->ino == in->ino &&
		    holds(c, in, m->b, pr))
			return true;
		if (m->type == FSOPS_EXCHANGE && m->victim == in->ino && holds(c, in, m->a, pr))
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

/* syncfs at @k: every directory, name and file as of k, but for what later ops changed. */
static bool tree_kept(struct checker *c, const struct fsops_model *md, uint64_t k)
{
	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (c->dir_last[d] <= k && c->dir[d] != (md->dir_exists[d] ? OBS_DIR : OBS_ABSENT))
			return false;
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		if (c->slot_last[s] > k)
			continue;
		if (!md->slot_ino[s]
			    ? c->slot[s].kind != OBS_ABSENT
			    : !holds(c, fsops_model_inode(md, md->slot_ino[s]), s, WHOLE_FILE))
			return false;
	}
	for (size_t i = 0; i < md->ninodes; i++)
		if (!inode_kept(c, md, md->inodes[i], k, WHOLE_FILE))
			return false;
	return true;
}

/*
 * fsync of file @in at @k, by the promise table: every name it has at k that no later op
 * touched holds it — with promises = linux every such name (what ext4, xfs and btrfs promise:
 * the names it was created, linked or renamed under), and some name it had at k or got later
 * (inode_kept()); with promises = posix only the names a directory fsync or a syncfs made
 * durable before (POSIX promises its data and size, reachable through those).
 */
static bool file_kept(struct checker *c, const struct fsops_model *md, const struct fsops_inode *in,
		      uint64_t k, struct promise pr)
{
	bool posix = c->p->promises == FSOPS_PROMISES_POSIX;

	for (int s = 0; s < FSOPS_NSLOTS; s++)
		if (md->slot_ino[s] == in->ino && c->slot_last[s] <= k &&
		    (!posix || fsops_name_durable(md, s)) && !holds(c, in, s, pr))
			return false;
	return posix || inode_kept(c, md, in, k, pr);
}

/*
 * fsync of directory @d (-1: the root) at @k: its entries as of k, for every name in it that
 * no later op touched — absent if it was absent, else a file (its data is not promised),
 * and not a file of another inode (the name's old inode, say, when a rename replaced it).
 * The root's entries include d0..d3. A directory whose own name was never made durable is
 * excused if it is not there. With promises = posix, a name is required to hold its file only
 * when that file was fsync'd itself since its create (or a syncfs ran), a directory only when
 * it was: POSIX makes the entry durable, not the inode it names.
 */
static bool dir_kept(const struct checker *c, const struct fsops_model *md, int d, uint64_t k)
{
	bool posix = c->p->promises == FSOPS_PROMISES_POSIX;

	for (int e = 0; e < FSOPS_NDIRS && d < 0; e++) {
		if (c->dir_last[e] > k)
			continue;
		if (!md->dir_exists[e] ? c->dir[e] != OBS_ABSENT
				       : (!posix || c->dir_synced[e]) && c->dir[e] != OBS_DIR)
			return false;
	}
	if (d >= 0 && !md->dir_durable[d] && c->dir[d] != OBS_DIR)
		return true;
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];
		uint64_t ino = md->slot_ino[s];

		if (fsops_slot_dir(s) != d || c->slot_last[s] > k ||
		    (ino && posix && !future_of(c, ino)->synced))
			continue;
		if (!ino ? o->kind != OBS_ABSENT
			 : (o->kind != OBS_FILE && o->kind != OBS_UNREADABLE) ||
				    (o->kind == OBS_FILE && o->owner && o->owner != ino))
			return false;
	}
	return true;
}

/* What op @op (just replayed into @md) synced of itself: an inode, a directory, everything. */
static void note_synced(struct checker *c, const struct fsops_model *md, const struct fsops_op *op)
{
	switch (op->type) {
	case FSOPS_FSYNC:
	case FSOPS_FSYNC_FILE:
	case FSOPS_FDATASYNC:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		future_of(c, op->ino)->synced = true;
		break;
	case FSOPS_FSYNC_DIR:
		if (op->a >= 0)
			c->dir_synced[op->a] = true;
		break;
	case FSOPS_SYNC:
		for (size_t i = 0; i < md->ninodes; i++)
			future_of(c, md->inos[i])->synced = true;
		for (int d = 0; d < FSOPS_NDIRS; d++)
			c->dir_synced[d] = md->dir_exists[d];
		break;
	case FSOPS_MKDIR:
		c->dir_synced[op->a] = false;
		break;
	default:
		break;
	}
}

/*
 * Replay the model and judge every issued sync-class op at its own point. What the tracks
 * know is kept current op by op, so a sync op costs what its inode's names hold, not the
 * ops before or after it.
 */
static int judge_syncs(struct checker *c)
{
	struct fsops_model md;
	int r = 0;

	fsops_model_init(&md, c->p);
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		struct fsops_inode *in = op->ino ? fsops_model_inode(&md, op->ino) : NULL;
		struct promise range = {op->off, op->off + op->len, false};

		if (in && fsops_is_change(op->type))
			r = tracks_replay(c, op, in);
		if (r == 0)
			r = fsops_model_apply(&md, op);
		if (r < 0)
			break;
		if ((op->type == FSOPS_SETXATTR || op->type == FSOPS_REMOVEXATTR) &&
		    c->issued[op->id])
			future_of(c, op->ino)->xattrs_pos++;
		if (op->type == FSOPS_CREATE)
			r = tracks_start(c, fsops_model_inode(&md, op->ino));
		/* An inode without a name is never judged again. */
		if (op->type == FSOPS_UNLINK && !fsops_model_inode(&md, op->ino))
			tracks_free(future_of(c, op->ino));
		if (op->type == FSOPS_RENAME && op->victim && !fsops_model_inode(&md, op->victim))
			tracks_free(future_of(c, op->victim));
		if (r < 0)
			break;
		note_synced(c, &md, op);
		if (!fsops_is_sync(op->type) || !c->issued[op->id])
			continue;
		in = op->ino ? fsops_model_inode(&md, op->ino) : NULL;
		switch (op->type) {
		case FSOPS_SYNC:
			c->present[op->id] = tree_kept(c, &md, op->id);
			break;
		case FSOPS_FSYNC_DIR:
			c->present[op->id] = dir_kept(c, &md, op->a, op->id);
			break;
		case FSOPS_FSYNC_FILE:
			c->present[op->id] = file_kept(c, &md, in, op->id, WHOLE_FILE);
			break;
		case FSOPS_SYNC_WRITE:
			/* O_SYNC: its own bytes, and the inode's metadata as fsync's. */
			range.meta = true;
			c->present[op->id] = file_kept(c, &md, in, op->id, range);
			break;
		case FSOPS_DSYNC_WRITE:
		case FSOPS_MMAP_WRITE:
			/* RWF_DSYNC, msync: a data sync of the range written. */
			c->present[op->id] = inode_kept(c, &md, in, op->id, range);
			break;
		case FSOPS_FDATASYNC:
			c->present[op->id] = inode_kept(c, &md, in, op->id,
							(struct promise){0, UINT64_MAX, false});
			break;
		default: /* the path fsync: the file, its directory and the root */
			c->present[op->id] = inode_kept(c, &md, in, op->id, WHOLE_FILE);
			break;
		}
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
		int s = op->type == FSOPS_CREATE ? op->a
			: op->type == FSOPS_RENAME || op->type == FSOPS_RENAME_NOREPLACE ||
					op->type == FSOPS_LINK
				? op->b
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

/* Print "present <@base + id>" for each op @c found present. */
static void print_present(const struct checker *c, uint64_t base)
{
	for (uint64_t id = 1; id <= c->n; id++)
		if (c->present[id])
			put_present(base + id);
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
	print_present(c, 0);
	return finish();
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

static int collect(void *ctx, uint64_t rank, const struct fsops_op *ops, uint64_t n)
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

	r = fsops_bounded_each(p->bounded, &p->ranks, collect, &w);
	if (r < 0) {
		r = die("out of memory");
		goto out;
	}
	all.n = w.total;
	all.issued = calloc(w.total + 1, sizeof(bool));
	all.acked = calloc(w.total + 1, sizeof(bool));
	if (!all.issued || !all.acked) {
		r = die("out of memory");
		goto out;
	}
	r = read_ids(&all, "BLACKOUT_ISSUED", all.issued);
	if (!r)
		r = read_ids(&all, "BLACKOUT_ACKED", all.acked);
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
			print_present(&c, base);
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

int fsops_check(const struct fsops_params *p)
{
	struct checker *c;
	int r;

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

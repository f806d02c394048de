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
#include <unistd.h>

#include "scenarios/fsops/fsops.h"

/* An odd word: bytes of several writes, or that no write made; judged byte by byte. */
#define WORD_ODD (1u << 31)
/* A word of an inode's content that is no one write's: its bytes are in the content's bytes. */
#define WORD_MIXED UINT32_MAX

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
	/* The inode whose writes it holds: 0 if none, UINT64_MAX if of more than one. */
	uint64_t owner;
	/* Each word of data (the last one maybe short): the write whose whole word it holds, 0
	 * if its bytes are zeros, else WORD_ODD | its index in odd (a word of several writes). */
	uint32_t *word;
	uint32_t *late; /* per word: its write if that was issued, else 0 */
	uint32_t *odd;	/* the odd words, ascending */
	uint32_t nodd;
};

/* The ops on one object (an inode, a file name, a directory), in id order. */
struct oplist {
	const struct fsops_op **v;
	size_t n, cap;
};

/*
 * What name @slot's file shows of one inode, as the replay goes: which of the file's words
 * nothing explains (not the inode's value now, not what a later issued write put there, not
 * zeros past a later cut), and how many; and for the bytes of its odd words, how many later
 * issued writes put the value found there.
 */
struct track {
	struct track *next; /* of the same inode */
	int slot;
	uint32_t *cnt; /* 8 per odd word of the file */
	bool *is_bad;  /* per word of the file */
	uint64_t bad;  /* of those */
};

/*
 * An inode's bytes as the replay goes, as far as a track looks: each word is the write whose
 * whole word it is, 0 for zeros, or WORD_MIXED, with its bytes then in bytes.
 */
struct content {
	uint64_t words;
	uint32_t *word;
	uint8_t *bytes;
};

/* An inode's future, for judging the promises made about it (indexed by inode number). */
struct future {
	uint64_t slots;		       /* a bit for every name it is ever given */
	uint64_t max_ever;	       /* the largest size it ever has */
	struct oplist changes;	       /* its issued data ops and truncates */
	struct oplist names;	       /* its issued renames, links and unlinks (also as victim) */
	size_t pos, names_pos;	       /* the first of each not yet replayed */
	uint64_t *min_size, *max_size; /* of changes[j..]: the sizes they leave */
	uint64_t *min_cut;	       /* of changes[j..]: the smallest truncate */
	struct track *tracks;	       /* one per name that holds a readable file */
	struct content now;	       /* while it has tracks */
};

struct checker {
	const struct fsops_params *p;
	struct fsops_op *ops; /* the ops performed, in order (with an op subset, not all ids) */
	uint64_t nops;
	const struct fsops_op **by_id;	     /* the ops performed, by id; NULL for one dropped */
	uint64_t n;			     /* the largest op id */
	struct future *fut;		     /* indexed by inode number (the creating op's id) */
	struct oplist by_slot[FSOPS_NSLOTS]; /* ops that change a file name */
	struct oplist by_dir[FSOPS_NDIRS];   /* mkdir and rmdir */
	uint64_t slot_last[FSOPS_NSLOTS];    /* the last issued op of each by_slot, or 0 */
	uint64_t dir_last[FSOPS_NDIRS];	     /* the last issued op of each by_dir, or 0 */
	bool *issued, *acked, *present;	     /* indexed by op id */
	struct obs_file slot[FSOPS_NSLOTS];
	enum obs_kind dir[FSOPS_NDIRS];
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

/*
 * A data op is present when one whole word of its data is in place in some file: each word
 * of each file read is decoded to the op that wrote it, so this costs what the files hold.
 * What each word is (the write whose whole word it is, zeros, or odd) and the inodes whose
 * writes a file holds (its owner) are noted for the tracks.
 */
static int judge_data(struct checker *c)
{
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		struct obs_file *o = &c->slot[s];
		uint64_t words = (o->have + 7) / 8;
		/* The write of the last whole word: its id, end, and id if issued. */
		uint32_t last_id = 0, last_late = 0;
		uint64_t last_end = 0;

		if (o->kind != OBS_FILE)
			continue;
		o->word = malloc((words ? words : 1) * sizeof(*o->word));
		o->late = malloc((words ? words : 1) * sizeof(*o->late));
		o->odd = malloc((words ? words : 1) * sizeof(*o->odd));
		if (!o->word || !o->late || !o->odd)
			return -ENOMEM;
		fsops_decode(c->p->seed, o->data, o->have / 8, o->word);
		for (uint64_t w = 0; w < words; w++) {
			uint32_t id = w < o->have / 8 ? o->word[w] : 0;
			uint8_t any = 0;

			/* A write's words come in a row: the op of the word before is checked
			 * first. */
			if (id != last_id) {
				const struct fsops_op *op = id && id <= c->n ? c->by_id[id] : NULL;

				if (op && fsops_is_data(op->type) && op->off <= 8 * w) {
					last_id = id;
					last_end = op->off + op->len;
					last_late = c->issued[id] ? id : 0;
					c->present[id] = true;
					o->owner = !o->owner || o->owner == op->ino ? op->ino
										    : UINT64_MAX;
				}
			}
			if (id && id == last_id && 8 * w + 8 <= last_end) {
				o->late[w] = last_late;
				continue;
			}
			o->late[w] = 0;
			for (uint64_t i = 8 * w; i < 8 * w + 8 && i < o->have; i++)
				any |= o->data[i];
			if (!any) {
				o->word[w] = 0;
			} else {
				o->word[w] = WORD_ODD | o->nodd;
				o->odd[o->nodd++] = (uint32_t) w;
			}
		}
	}
	return 0;
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

	c->fut = calloc(c->n + 1, sizeof(*c->fut));
	if (!c->fut)
		return -ENOMEM;
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		bool issued = c->issued[op->id];

		switch (op->type) {
		case FSOPS_CREATE:
			c->fut[op->ino].slots |= 1ull << op->a;
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_UNLINK:
			if (issued)
				r |= oplist_add(&c->fut[op->ino].names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_RENAME:
			if (issued && op->victim)
				r |= oplist_add(&c->fut[op->victim].names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			/* fall through */
		case FSOPS_LINK:
			c->fut[op->ino].slots |= 1ull << op->b;
			if (issued)
				r |= oplist_add(&c->fut[op->ino].names, op);
			r |= oplist_add(&c->by_slot[op->b], op);
			break;
		case FSOPS_MKDIR:
		case FSOPS_RMDIR:
			r |= oplist_add(&c->by_dir[op->a], op);
			break;
		default:
			if (!fsops_is_data(op->type) && op->type != FSOPS_TRUNCATE)
				break;
			if (op->size_after > c->fut[op->ino].max_ever)
				c->fut[op->ino].max_ever = op->size_after;
			if (issued)
				r |= oplist_add(&c->fut[op->ino].changes, op);
			break;
		}
	}
	for (uint64_t i = 0; i < c->nops && r == 0; i++)
		if (c->ops[i].type == FSOPS_CREATE)
			r = future_index(&c->fut[c->ops[i].ino]);
	for (int s = 0; s < FSOPS_NSLOTS; s++)
		c->slot_last[s] = last_issued(c, &c->by_slot[s]);
	for (int d = 0; d < FSOPS_NDIRS; d++)
		c->dir_last[d] = last_issued(c, &c->by_dir[d]);
	return r ? -ENOMEM : 0;
}

/* The bytes of word @w of content @n, into @out. */
static void content_bytes(const struct checker *c, const struct content *n, uint64_t w,
			  uint8_t out[8])
{
	if (n->word[w] == WORD_MIXED)
		memcpy(out, n->bytes + 8 * w, 8);
	else if (n->word[w] == 0)
		memset(out, 0, 8);
	else
		fsops_fill(c->p->seed, n->word[w], 8 * w, out, 8);
}

/* Word @w of content @n as bytes of its own, to be changed in part. */
static void content_mix(const struct checker *c, struct content *n, uint64_t w)
{
	if (n->word[w] != WORD_MIXED)
		content_bytes(c, n, w, n->bytes + 8 * w);
	n->word[w] = WORD_MIXED;
}

/* Bytes [@lo, @hi) of word @w of content @n are write @m's. */
static void content_part(const struct checker *c, struct content *n, const struct fsops_op *m,
			 uint64_t w, uint64_t lo, uint64_t hi)
{
	lo = lo > 8 * w ? lo : 8 * w;
	hi = hi < 8 * w + 8 ? hi : 8 * w + 8;
	content_mix(c, n, w);
	fsops_fill(c->p->seed, m->id, lo, n->bytes + lo, hi - lo);
}

/* Write @m on content @n: a word it covers whole is its, a word in part is mixed. */
static void content_write(const struct checker *c, struct content *n, const struct fsops_op *m)
{
	uint64_t end = m->off + m->len < 8 * n->words ? m->off + m->len : 8 * n->words;
	uint64_t first = (m->off + 7) / 8, last = end / 8; /* the words it covers whole */
	uint64_t head = m->off / 8, tail = (end - 1) / 8;

	if (end <= m->off)
		return;
	for (uint64_t w = first; w < last; w++)
		n->word[w] = (uint32_t) m->id;
	if (head < first || head >= last)
		content_part(c, n, m, head, m->off, end);
	if (tail != head && tail >= last)
		content_part(c, n, m, tail, m->off, end);
}

/* Truncate content @n of size @size to @to < @size: what is cut off reads as zeros. */
static void content_cut(const struct checker *c, struct content *n, uint64_t to, uint64_t size)
{
	uint64_t end = size < 8 * n->words ? size : 8 * n->words;

	for (uint64_t w = to / 8; 8 * w < end; w++) {
		if (8 * w >= to) {
			n->word[w] = 0;
			continue;
		}
		content_mix(c, n, w);
		memset(n->bytes + to, 0, 8 * w + 8 - to);
	}
}

/*
 * Whether nothing explains word @w of @t's file, which is not explained whole (as the inode's
 * value now, or as a later issued write's), with @cut the smallest later truncate: a byte is
 * explained by the inode's value now, as a zero at or past the cut, or, in an odd word, by a
 * later issued write that put the same value there. A word one write made whole is explained
 * by a later write only as a whole: that a later write explains its bytes one by one is chance.
 * Not inlined: recount() calls it for few of its words, and its loop is the hot one.
 */
static __attribute__((noinline)) bool word_bad(const struct checker *c, const struct track *t,
					       const struct future *f, uint64_t w, uint64_t cut)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint32_t v = o->word[w], now = f->now.word[w];
	uint64_t lo = 8 * w, hi = 8 * w + 8 < o->size ? 8 * w + 8 : o->size;
	uint8_t d[8];

	/* Two whole words of different writes (or zeros) differ in some byte. */
	if (!(v & WORD_ODD) && now != WORD_MIXED && hi == lo + 8 && hi <= cut)
		return true;
	content_bytes(c, &f->now, w, d);
	for (uint64_t i = lo; i < hi; i++) {
		uint8_t x = o->data[i];

		if (x == d[i - lo] || (i >= cut && x == 0))
			continue;
		if ((v & WORD_ODD) && t->cnt[8 * (v & ~WORD_ODD) + i - lo])
			continue;
		return true;
	}
	return false;
}

/*
 * Judge again the words of @t's file from the one holding byte @from to the one holding byte
 * @to - 1, after a change to them, to the later writes or to the smallest later cut @cut.
 */
static void recount(const struct checker *c, struct track *t, const struct future *f, uint64_t cut,
		    uint64_t from, uint64_t to)
{
	const struct obs_file *o = &c->slot[t->slot];
	const uint32_t *file = o->word, *late = o->late, *now = f->now.word;
	bool *is_bad = t->is_bad;
	/* A write of the inode is still to be replayed when issued and from here on. */
	uint64_t next = f->pos < f->changes.n ? f->changes.v[f->pos]->id : UINT64_MAX;
	uint64_t end = to < o->size ? to : o->size, n = t->bad;

	for (uint64_t w = from / 8; 8 * w < end; w++) {
		bool bad = file[w] != now[w] && late[w] < next && word_bad(c, t, f, w, cut);

		n += (uint64_t) bad - is_bad[w];
		is_bad[w] = bad;
	}
	t->bad = n;
}

/* Add @delta to the count of each byte of an odd word of @t's file that write @m puts there. */
static void odd_count(const struct checker *c, struct track *t, const struct fsops_op *m,
		      uint32_t delta)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint64_t end = m->off + m->len < o->size ? m->off + m->len : o->size;
	size_t lo = 0, hi = o->nodd;

	if (end <= m->off)
		return; /* the file ends before the write begins */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (8 * (uint64_t) o->odd[mid] + 8 <= m->off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j < o->nodd && 8 * (uint64_t) o->odd[j] < end; j++) {
		uint64_t w = o->odd[j], a = 8 * w > m->off ? 8 * w : m->off;
		uint64_t b = 8 * w + 8 < end ? 8 * w + 8 : end;
		uint8_t d[8];

		fsops_fill(c->p->seed, m->id, a, d, b - a);
		for (uint64_t i = a; i < b; i++)
			t->cnt[8 * j + i - 8 * w] += (uint32_t) (o->data[i] == d[i - a]) * delta;
	}
}

/*
 * Inode @in is new (its create op was replayed): start a track for every name it will have
 * that holds a readable file, and count for each byte of its odd words the later issued
 * writes that explain it. The inode's content is followed as far as a track looks.
 */
static int tracks_start(struct checker *c, const struct fsops_inode *in)
{
	struct future *f = &c->fut[in->ino];
	uint64_t reach = 0; /* the largest file a track looks at */

	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];
		struct track *t;

		/* A file larger than the inode ever was cannot be it, nor one that holds another
		 * inode's data (a whole word of it: that its 8 bytes are all explained otherwise
		 * is a chance of 2^-64). */
		if (!(f->slots & (1ull << s)) || o->kind != OBS_FILE || o->size > f->max_ever ||
		    (o->owner && o->owner != in->ino))
			continue;
		t = calloc(1, sizeof(*t));
		if (t) {
			t->cnt = calloc(8 * (size_t) o->nodd + 1, sizeof(*t->cnt));
			t->is_bad = calloc(o->size / 8 + 1, sizeof(*t->is_bad));
		}
		if (!t || !t->cnt || !t->is_bad) {
			if (t) {
				free(t->cnt);
				free(t->is_bad);
			}
			free(t);
			return -ENOMEM;
		}
		t->slot = s;
		t->next = f->tracks;
		f->tracks = t;
		reach = o->size > reach ? o->size : reach;
	}
	if (!f->tracks)
		return 0;
	f->now.words = (reach + 7) / 8;
	f->now.word = calloc(f->now.words + 1, sizeof(*f->now.word));
	f->now.bytes = malloc(8 * f->now.words + 1);
	if (!f->now.word || !f->now.bytes)
		return -ENOMEM;
	for (size_t j = 0; j < f->changes.n; j++)
		for (struct track *t = f->tracks; t; t = t->next)
			if (f->changes.v[j]->type != FSOPS_TRUNCATE)
				odd_count(c, t, f->changes.v[j], 1);
	for (struct track *t = f->tracks; t; t = t->next)
		recount(c, t, f, f->min_cut[0], 0, UINT64_MAX);
	return 0;
}

static void tracks_free(struct future *f)
{
	while (f->tracks) {
		struct track *t = f->tracks;

		f->tracks = t->next;
		free(t->cnt);
		free(t->is_bad);
		free(t);
	}
	free(f->now.word);
	free(f->now.bytes);
	memset(&f->now, 0, sizeof(f->now));
}

/*
 * Replay data op or truncate @op on inode @in in model @md, keeping the tracks of @in true:
 * only the words it changes (and, for a truncate, those between the old and the new smallest
 * later cut) are judged again, and an issued write no longer explains what it wrote.
 */
static int replay_change(struct checker *c, struct fsops_model *md, const struct fsops_op *op,
			 struct fsops_inode *in)
{
	struct future *f = &c->fut[in->ino];
	bool mine = f->pos < f->changes.n && f->changes.v[f->pos] == op;
	uint64_t cut = f->min_cut[f->pos], cut_after = f->min_cut[f->pos + mine];
	uint64_t from = op->off, to = op->type == FSOPS_TRUNCATE ? in->size : op->off + op->len;

	if (op->type == FSOPS_TRUNCATE && cut_after != cut) {
		/* cut only grows: [cut, cut_after) changes with the truncated bytes. */
		from = cut < from ? cut : from;
		to = cut_after == UINT64_MAX ? UINT64_MAX : cut_after > to ? cut_after : to;
	}
	if (f->tracks && op->type == FSOPS_TRUNCATE && op->off < in->size)
		content_cut(c, &f->now, op->off, in->size);
	else if (f->tracks && op->type != FSOPS_TRUNCATE)
		content_write(c, &f->now, op);
	/* What it wrote is now the inode's value: no longer a later write's. */
	if (mine && op->type != FSOPS_TRUNCATE)
		for (struct track *t = f->tracks; t; t = t->next)
			odd_count(c, t, op, UINT32_MAX);
	f->pos += mine;
	for (struct track *t = f->tracks; t; t = t->next)
		recount(c, t, f, cut_after, from, to);
	return fsops_model_apply(md, op);
}

/*
 * Whether name @s can hold inode @in as it was at the op being judged, changed by any subset
 * of the later issued ops on it: each byte holds its value then, or what a later write put
 * there, or zero where a later truncate cut; the size lies between the smallest and the
 * largest it had. O(1): the tracks count the bytes nothing explains as the replay goes.
 */
static bool acceptable(const struct checker *c, const struct fsops_inode *in, int s)
{
	const struct future *f = &c->fut[in->ino];
	const struct obs_file *o = &c->slot[s];
	uint64_t lo = f->min_size[f->pos], hi = f->max_size[f->pos];
	const struct track *t = f->tracks;

	while (t && t->slot != s)
		t = t->next;
	lo = in->size < lo ? in->size : lo;
	hi = in->size > hi ? in->size : hi;
	return t && o->size >= lo && o->size <= hi && t->bad == 0;
}

/*
 * The promise about inode @in made at op @k: some name it had at k or got later holds it
 * (acceptably), unless later issued ops dropped its last name.
 */
static bool inode_kept(struct checker *c, const struct fsops_model *md,
		       const struct fsops_inode *in, uint64_t k)
{
	struct future *f = &c->fut[in->ino];
	int64_t nlink = in->nlink;

	for (int s = 0; s < FSOPS_NSLOTS; s++)
		if (md->slot_ino[s] == in->ino && acceptable(c, in, s))
			return true;
	while (f->names_pos < f->names.n && f->names.v[f->names_pos]->id <= k)
		f->names_pos++;
	for (size_t j = f->names_pos; j < f->names.n; j++) {
		const struct fsops_op *m = f->names.v[j];

		if ((m->type == FSOPS_RENAME || m->type == FSOPS_LINK) && m->ino == in->ino &&
		    acceptable(c, in, m->b))
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
		if (!md->slot_ino[s] ? c->slot[s].kind != OBS_ABSENT
				     : !acceptable(c, fsops_model_inode(md, md->slot_ino[s]), s))
			return false;
	}
	for (size_t i = 0; i < md->ninodes; i++)
		if (!inode_kept(c, md, md->inodes[i], k))
			return false;
	return true;
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

	fsops_model_init(&md, c->p->seed);
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		struct fsops_inode *in = op->ino ? fsops_model_inode(&md, op->ino) : NULL;

		if (in && (fsops_is_data(op->type) || op->type == FSOPS_TRUNCATE)) {
			r = replay_change(c, &md, op, in);
			continue;
		}
		r = fsops_model_apply(&md, op);
		if (r < 0)
			break;
		if (op->type == FSOPS_CREATE)
			r = tracks_start(c, fsops_model_inode(&md, op->ino));
		/* An inode without a name is never judged again. */
		if (op->type == FSOPS_UNLINK && !fsops_model_inode(&md, op->ino))
			tracks_free(&c->fut[op->ino]);
		if (op->type == FSOPS_RENAME && op->victim && !fsops_model_inode(&md, op->victim))
			tracks_free(&c->fut[op->victim]);
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

static int check(struct checker *c)
{
	int r;

	if (fsops_sequence(c->p, &c->ops, &c->nops) < 0)
		return die("out of memory");
	c->issued = calloc(c->n + 1, sizeof(bool));
	c->acked = calloc(c->n + 1, sizeof(bool));
	c->present = calloc(c->n + 1, sizeof(bool));
	c->by_id = calloc(c->n + 1, sizeof(*c->by_id));
	if (!c->issued || !c->acked || !c->present || !c->by_id)
		return die("out of memory");
	for (uint64_t i = 0; i < c->nops; i++)
		c->by_id[c->ops[i].id] = &c->ops[i];
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
	if (judge_data(c) < 0)
		return die("out of memory");
	judge_names(c);
	if (propagate(c) < 0 || judge_syncs(c) < 0)
		return die("out of memory");
	for (uint64_t id = 1; id <= c->n; id++)
		if (c->present[id])
			put_present(id);
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
		free(c->slot[s].word);
		free(c->slot[s].late);
		free(c->slot[s].odd);
		free(c->by_slot[s].v);
	}
	for (int d = 0; d < FSOPS_NDIRS; d++)
		free(c->by_dir[d].v);
	for (uint64_t i = 0; c->fut && i <= c->n; i++) {
		struct future *f = &c->fut[i];

		tracks_free(f);
		free(f->changes.v);
		free(f->names.v);
		free(f->min_size);
		free(f->max_size);
		free(f->min_cut);
	}
	free(c->fut);
	free(c->ops);
	free(c->issued);
	free(c->acked);
	free(c->present);
	free(c->by_id);
	free(c);
	return r;
}

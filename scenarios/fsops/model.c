// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops model: the generator of the op sequence and the in-memory tree it describes.
 * Generation depends only on the seed and on the model, never on what a filesystem did, so
 * the workload and the checker derive the same sequence. What an op is (its type's name and
 * class, the paths it acts on) is ops.c's; the bytes it writes, data.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"
#include "scenarios/fsops/model_int.h"

/*
 * Relative weights of the op types in the generator, by fsync mode. The path mode's are those
 * the sequence always had: a seed draws the same ops it did before the inode mode existed.
 */
#define WEIGHTS_BUT_FSYNC                                                                    \
	[FSOPS_CREATE] = 12, [FSOPS_WRITE] = 10, [FSOPS_APPEND] = 10, [FSOPS_OVERWRITE] = 8, \
	[FSOPS_TRUNCATE] = 5, [FSOPS_RENAME] = 7, [FSOPS_LINK] = 3, [FSOPS_UNLINK] = 6,      \
	[FSOPS_MKDIR] = 3, [FSOPS_RMDIR] = 2, [FSOPS_FDATASYNC] = 6, [FSOPS_SYNC] = 3
static const unsigned weights[2][FSOPS_NTYPES] = {
	[FSOPS_FSYNC_PATH] = {WEIGHTS_BUT_FSYNC, [FSOPS_FSYNC] = 12},
	[FSOPS_FSYNC_INODE] = {WEIGHTS_BUT_FSYNC, [FSOPS_FSYNC_FILE] = 9, [FSOPS_FSYNC_DIR] = 5},
};
#undef WEIGHTS_BUT_FSYNC

/* The weights a family adds: none is drawn without it, so the base sequence stays as it was. */
static const struct {
	enum fsops_type type;
	unsigned family, weight;
} family_weights[] = {
	{FSOPS_FALLOC, FSOPS_FAMILY_FALLOC, 2},
	{FSOPS_FALLOC_KEEP, FSOPS_FAMILY_FALLOC, 2},
	{FSOPS_PUNCH, FSOPS_FAMILY_FALLOC, 3},
	{FSOPS_ZERO, FSOPS_FAMILY_FALLOC, 2},
	{FSOPS_ZERO_KEEP, FSOPS_FAMILY_FALLOC, 2},
	{FSOPS_DIO_WRITE, FSOPS_FAMILY_DIRECT, 6},
	{FSOPS_DSYNC_WRITE, FSOPS_FAMILY_DSYNC, 4},
	{FSOPS_SYNC_WRITE, FSOPS_FAMILY_DSYNC, 3},
	{FSOPS_MMAP_WRITE, FSOPS_FAMILY_MMAP, 4},
	{FSOPS_SETXATTR, FSOPS_FAMILY_XATTR, 4},
	{FSOPS_REMOVEXATTR, FSOPS_FAMILY_XATTR, 2},
	{FSOPS_RENAME_NOREPLACE, FSOPS_FAMILY_RENAME2, 3},
	{FSOPS_EXCHANGE, FSOPS_FAMILY_RENAME2, 3},
	{FSOPS_COPY, FSOPS_FAMILY_COPY, 6},
	{FSOPS_CLONE, FSOPS_FAMILY_CLONE, 3},
	{FSOPS_CLONE_RANGE, FSOPS_FAMILY_CLONE, 4},
	{FSOPS_SYMLINK, FSOPS_FAMILY_SYMLINK, 6},
	{FSOPS_COLLAPSE, FSOPS_FAMILY_COLLAPSE, 4},
	{FSOPS_INSERT, FSOPS_FAMILY_COLLAPSE, 4},
};

unsigned fsops_type_family(enum fsops_type type)
{
	for (size_t i = 0; i < sizeof(family_weights) / sizeof(*family_weights); i++)
		if (family_weights[i].type == type)
			return family_weights[i].family;
	return 0;
}

int fsops_slot_dir(int s)
{
	return s / FSOPS_FILES_PER_DIR - 1;
}

bool fsops_name_durable(const struct fsops_model *m, int s)
{
	int d = fsops_slot_dir(s);

	return m->slot_ino[s] && m->slot_durable[s] && (d < 0 || m->dir_durable[d]);
}

void fsops_model_init(struct fsops_model *m, const struct fsops_params *p)
{
	memset(m, 0, sizeof(*m));
	m->seed = p->seed;
	m->fsync = p->fsync;
	m->families = p->families;
	m->rng = p->seed;
	m->next_id = 1;
	memcpy(m->weight, weights[m->fsync], sizeof(m->weight));
	for (size_t i = 0; i < sizeof(family_weights) / sizeof(*family_weights); i++)
		if (m->families & family_weights[i].family)
			m->weight[family_weights[i].type] = family_weights[i].weight;
	if (p->no_links)
		m->weight[FSOPS_LINK] = 0;
	for (int t = 0; t < FSOPS_NTYPES; t++)
		m->weight_sum += m->weight[t];
}

void fsops_model_release(struct fsops_model *m)
{
	for (size_t i = 0; i < m->ninodes; i++)
		free(m->inodes[i]);
	m->ninodes = 0;
	memset(m->ino_at, 0, sizeof(m->ino_at));
}

#define INO_AT (sizeof(((struct fsops_model *) 0)->ino_at))

/* The first place of inode @ino in ino_at (linear probing from there). */
static size_t ino_home(uint64_t ino)
{
	return (size_t) ((ino * 0x9e3779b97f4a7c15ULL) >> 32) % INO_AT;
}

/* The place in ino_at of live inode @ino, or of the empty one where it would go. */
static size_t ino_place(const struct fsops_model *m, uint64_t ino)
{
	size_t h = ino_home(ino);

	while (m->ino_at[h] && m->inos[m->ino_at[h] - 1] != ino)
		h = (h + 1) % INO_AT;
	return h;
}

/* Inode @ino leaves ino_at: the places after it that probed past it move back. */
static void ino_forget(struct fsops_model *m, uint64_t ino)
{
	size_t h = ino_place(m, ino), j = h;

	for (;;) {
		size_t k;

		j = (j + 1) % INO_AT;
		if (!m->ino_at[j])
			break;
		k = ino_home(m->inos[m->ino_at[j] - 1]);
		/* The entry at j may fill h when its home is not in (h, j], cyclically. */
		if (h < j ? k <= h || k > j : k <= h && k > j) {
			m->ino_at[h] = m->ino_at[j];
			h = j;
		}
	}
	m->ino_at[h] = 0;
}

struct fsops_inode *fsops_model_inode(const struct fsops_model *m, uint64_t ino)
{
	size_t h = ino_place(m, ino);

	return m->ino_at[h] ? m->inodes[m->ino_at[h] - 1] : NULL;
}

static bool slot_dir_exists(const struct fsops_model *m, int s)
{
	int d = fsops_slot_dir(s);

	return d < 0 || m->dir_exists[d];
}

/* Pick a slot satisfying @want; -1 if none does. Inlined, so that @want is: it runs 40 times a
 * pick, a pick or two an op. */
static inline __attribute__((always_inline)) int
pick_slot(struct fsops_model *m, bool (*want)(const struct fsops_model *, int, int), int other)
{
	int cand[FSOPS_NSLOTS], n = 0;

	for (int s = 0; s < FSOPS_NSLOTS; s++)
		if (want(m, s, other))
			cand[n++] = s;
	return n ? cand[rnd(m) % (uint64_t) n] : -1;
}

/* A name of a regular file: what data ops, syncs of a file, links and copies act on. */
static bool is_file(const struct fsops_model *m, int s, int other)
{
	return m->slot_ino[s] != 0 && !fsops_model_inode(m, m->slot_ino[s])->symlink;
}

/* A name of a file or a symlink: what a rename moves and an unlink removes. */
static bool is_entry(const struct fsops_model *m, int s, int other)
{
	return m->slot_ino[s] != 0;
}

static bool is_free(const struct fsops_model *m, int s, int other)
{
	return !m->slot_ino[s] && slot_dir_exists(m, s);
}

static bool is_durable_file(const struct fsops_model *m, int s, int other)
{
	return fsops_name_durable(m, s) && is_file(m, s, other);
}

/* A rename target: any name in an existing directory but the source and its other links
 * (renaming a file onto one of its own links does nothing). */
static bool is_rename_target(const struct fsops_model *m, int s, int src)
{
	return slot_dir_exists(m, s) && m->slot_ino[s] != m->slot_ino[src];
}

static bool dir_is_empty(const struct fsops_model *m, int d)
{
	for (int f = 0; f < FSOPS_FILES_PER_DIR; f++)
		if (m->slot_ino[(d + 1) * FSOPS_FILES_PER_DIR + f])
			return false;
	return true;
}

static int pick_dir(struct fsops_model *m, bool exists, bool need_empty)
{
	int cand[FSOPS_NDIRS], n = 0;

	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (m->dir_exists[d] == exists && (!need_empty || dir_is_empty(m, d)))
			cand[n++] = d;
	return n ? cand[rnd(m) % (uint64_t) n] : -1;
}

/* A directory to fsync: an existing one of d0..d3, or the root (-1). */
static int pick_sync_dir(struct fsops_model *m)
{
	int cand[FSOPS_NDIRS + 1] = {-1}, n = 1;

	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (m->dir_exists[d])
			cand[n++] = d;
	return cand[rnd(m) % (uint64_t) n];
}

static enum fsops_type draw_type(struct fsops_model *m)
{
	unsigned r = (unsigned) (rnd(m) % m->weight_sum);

	for (int t = 0; t < FSOPS_NTYPES; t++) {
		if (r < m->weight[t])
			return (enum fsops_type) t;
		r -= m->weight[t];
	}
	return FSOPS_SYNC;
}

/* A file of another inode than slot @src's, for an exchange or a copy's source. */
static bool is_other_file(const struct fsops_model *m, int s, int src)
{
	return is_file(m, s, src) && m->slot_ino[s] != m->slot_ino[src];
}

/* The key of an existing attribute of @in, drawn; -1 if it has none. */
static int pick_xattr(struct fsops_model *m, const struct fsops_inode *in)
{
	int cand[FSOPS_NXATTRS], n = 0;

	for (int x = 0; x < FSOPS_NXATTRS; x++)
		if (in->xattr[x])
			cand[n++] = x;
	return n ? cand[rnd(m) % (uint64_t) n] : -1;
}

/* The name an op of @type on one file acts on, drawn; -1 if there is none. */
static int pick_acted_on(struct fsops_model *m, enum fsops_type type)
{
	switch (type) {
	case FSOPS_FDATASYNC:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		/* Data syncs promise no name (POSIX, nor fstests): drawn where one is durable. */
		return pick_slot(m, is_durable_file, 0);
	case FSOPS_RENAME:
	case FSOPS_RENAME_NOREPLACE:
	case FSOPS_UNLINK:
		return pick_slot(m, is_entry, 0);
	default:
		return pick_slot(m, is_file, 0);
	}
}

/* Fill the op's details for @type; false if no op of that type is possible now. */
static bool draw_op(struct fsops_model *m, enum fsops_type type, struct fsops_op *op)
{
	struct fsops_inode *in = NULL;
	uint64_t size = 0, max_len;

	op->type = type;
	op->a = op->b = -1;
	op->ino = op->victim = op->off = op->len = op->size_after = 0;
	switch (type) {
	case FSOPS_CREATE:
	case FSOPS_SYMLINK:
		op->a = pick_slot(m, is_free, 0);
		op->ino = op->id;
		return op->a >= 0;
	case FSOPS_MKDIR:
	case FSOPS_RMDIR:
		op->a = pick_dir(m, type == FSOPS_RMDIR, type == FSOPS_RMDIR);
		return op->a >= 0;
	case FSOPS_SYNC:
		return true;
	case FSOPS_FSYNC_DIR:
		op->a = pick_sync_dir(m);
		return true;
	default:
		op->a = pick_acted_on(m, type);
		break;
	}
	if (op->a < 0)
		return false;
	op->ino = m->slot_ino[op->a];
	in = fsops_model_inode(m, op->ino);
	size = in->size;
	switch (type) {
	case FSOPS_FALLOC:
	case FSOPS_FALLOC_KEEP:
	case FSOPS_PUNCH:
	case FSOPS_ZERO:
	case FSOPS_ZERO_KEEP:
		/* Unaligned, inside the file, across its end or past it (KEEP_SIZE past the end
		 * is the preallocation that later extends must read as zeros). */
		op->off = rnd_range(m, 0,
				    size + 4096 < FSOPS_MAX_SIZE - FSOPS_MIN_WRITE
					    ? size + 4096
					    : FSOPS_MAX_SIZE - FSOPS_MIN_WRITE);
		op->len = rnd_range(m, 1,
				    FSOPS_MAX_SIZE - op->off < FSOPS_MAX_WRITE
					    ? FSOPS_MAX_SIZE - op->off
					    : FSOPS_MAX_WRITE);
		op->size_after =
			(type == FSOPS_FALLOC || type == FSOPS_ZERO) && op->off + op->len > size
				? op->off + op->len
				: size;
		return true;
	case FSOPS_DIO_WRITE: {
		uint64_t blocks = FSOPS_MAX_SIZE / FSOPS_DIO_ALIGN, at;

		/* An aligned block inside the file, at its end, or one past it (a hole). */
		at = rnd_range(m, 0,
			       size / FSOPS_DIO_ALIGN + 1 < blocks - 1 ? size / FSOPS_DIO_ALIGN + 1
								       : blocks - 1);
		op->off = at * FSOPS_DIO_ALIGN;
		op->len = FSOPS_DIO_ALIGN * rnd_range(m, 1, blocks - at < 4 ? blocks - at : 4);
		op->size_after = op->off + op->len > size ? op->off + op->len : size;
		return true;
	}
	case FSOPS_SETXATTR:
		op->off = rnd(m) % FSOPS_NXATTRS;
		return true;
	case FSOPS_REMOVEXATTR: {
		int x = pick_xattr(m, in);

		op->off = x < 0 ? 0 : (uint64_t) x;
		return x >= 0;
	}
	case FSOPS_RENAME_NOREPLACE:
		op->b = pick_slot(m, is_free, 0);
		return op->b >= 0;
	case FSOPS_EXCHANGE:
		op->b = pick_slot(m, is_other_file, op->a);
		op->victim = op->b >= 0 ? m->slot_ino[op->b] : 0;
		return op->b >= 0;
	case FSOPS_COPY:
	case FSOPS_CLONE:
	case FSOPS_CLONE_RANGE:
		op->b = pick_slot(m, is_other_file, op->a);
		if (op->b < 0)
			return false;
		op->victim = m->slot_ino[op->b];
		return fsops_draw_copy(m, op, size, fsops_model_inode(m, op->victim)->size);
	case FSOPS_COLLAPSE:
	case FSOPS_INSERT:
		return fsops_draw_shift(m, op, size);
	case FSOPS_WRITE:
		op->off = rnd_range(m, 0,
				    size + 4096 < FSOPS_MAX_SIZE - FSOPS_MIN_WRITE
					    ? size + 4096
					    : FSOPS_MAX_SIZE - FSOPS_MIN_WRITE);
		break;
	case FSOPS_APPEND:
		if (size > FSOPS_MAX_SIZE - FSOPS_MIN_WRITE)
			return false;
		op->off = size;
		break;
	case FSOPS_OVERWRITE:
	case FSOPS_MMAP_WRITE: /* a mapping cannot extend the file */
		if (size < FSOPS_MIN_WRITE)
			return false;
		op->off = rnd_range(m, 0, size - FSOPS_MIN_WRITE);
		break;
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
		/* As write: anywhere up to a page past the end. */
		op->off = rnd_range(m, 0,
				    size + 4096 < FSOPS_MAX_SIZE - FSOPS_MIN_WRITE
					    ? size + 4096
					    : FSOPS_MAX_SIZE - FSOPS_MIN_WRITE);
		break;
	case FSOPS_TRUNCATE:
		op->off = rnd(m) % 2 && size
				  ? rnd_range(m, 0, size - 1)
				  : rnd_range(m, size,
					      size + 8192 < FSOPS_MAX_SIZE ? size + 8192
									   : FSOPS_MAX_SIZE);
		op->size_after = op->off;
		return true;
	case FSOPS_RENAME:
		op->b = pick_slot(m, is_rename_target, op->a);
		op->victim = op->b >= 0 ? m->slot_ino[op->b] : 0;
		return op->b >= 0;
	case FSOPS_LINK:
		op->b = pick_slot(m, is_free, 0);
		return op->b >= 0;
	default:
		return true;
	}
	max_len = FSOPS_MAX_SIZE - op->off;
	if (type == FSOPS_OVERWRITE || type == FSOPS_MMAP_WRITE)
		max_len = size - op->off;
	if (max_len > FSOPS_MAX_WRITE)
		max_len = FSOPS_MAX_WRITE;
	op->len = rnd_range(m, FSOPS_MIN_WRITE, max_len);
	op->size_after = op->off + op->len > size ? op->off + op->len : size;
	return true;
}

int fsops_model_next(struct fsops_model *m, struct fsops_op *op)
{
	op->id = m->next_id;
	/* Types that are impossible right now are drawn again; sync always is possible. */
	for (int tries = 0; tries < 64; tries++)
		if (draw_op(m, draw_type(m), op))
			return 0;
	draw_op(m, FSOPS_SYNC, op);
	return 0;
}

static int inode_new(struct fsops_model *m, uint64_t ino, bool symlink)
{
	struct fsops_inode *in = calloc(1, sizeof(*in));

	if (!in || m->ninodes == FSOPS_NSLOTS) {
		free(in);
		return -ENOMEM;
	}
	in->ino = ino;
	in->nlink = 1;
	in->symlink = symlink;
	m->inos[m->ninodes] = ino;
	m->inodes[m->ninodes++] = in;
	m->ino_at[ino_place(m, ino)] = (uint8_t) m->ninodes;
	return 0;
}

static void inode_unref(struct fsops_model *m, uint64_t ino)
{
	size_t h = ino_place(m, ino), i, last;

	if (!m->ino_at[h] || --m->inodes[m->ino_at[h] - 1]->nlink)
		return;
	i = m->ino_at[h] - 1u;
	last = --m->ninodes;
	free(m->inodes[i]);
	ino_forget(m, ino);
	/* The last inode takes its place. */
	if (i != last) {
		m->ino_at[ino_place(m, m->inos[last])] = (uint8_t) (i + 1);
		m->inos[i] = m->inos[last];
		m->inodes[i] = m->inodes[last];
	}
}

int fsops_model_apply(struct fsops_model *m, const struct fsops_op *op)
{
	struct fsops_inode *in = op->ino ? fsops_model_inode(m, op->ino) : NULL;

	m->next_id = op->id + 1;
	switch (op->type) {
	case FSOPS_CREATE:
	case FSOPS_SYMLINK:
		m->slot_ino[op->a] = op->ino;
		m->slot_durable[op->a] = false;
		return inode_new(m, op->ino, op->type == FSOPS_SYMLINK);
	case FSOPS_WRITE:
	case FSOPS_APPEND:
	case FSOPS_OVERWRITE:
	case FSOPS_DIO_WRITE:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_MMAP_WRITE:
	case FSOPS_FALLOC:
	case FSOPS_FALLOC_KEEP:
	case FSOPS_PUNCH:
	case FSOPS_ZERO:
	case FSOPS_ZERO_KEEP:
	case FSOPS_COPY:
	case FSOPS_CLONE:
	case FSOPS_CLONE_RANGE:
	case FSOPS_COLLAPSE:
	case FSOPS_INSERT:
		in->size = op->size_after;
		return 0;
	case FSOPS_TRUNCATE:
		in->size = op->off;
		return 0;
	case FSOPS_SETXATTR:
		in->xattr[op->off] = op->id;
		return 0;
	case FSOPS_REMOVEXATTR:
		in->xattr[op->off] = 0;
		return 0;
	case FSOPS_EXCHANGE:
		m->slot_ino[op->a] = op->victim;
		m->slot_ino[op->b] = op->ino;
		m->slot_durable[op->a] = m->slot_durable[op->b] = false;
		return 0;
	case FSOPS_RENAME_NOREPLACE:
	case FSOPS_RENAME:
		if (op->victim)
			inode_unref(m, op->victim);
		m->slot_ino[op->b] = op->ino;
		m->slot_ino[op->a] = 0;
		m->slot_durable[op->a] = m->slot_durable[op->b] = false;
		return 0;
	case FSOPS_LINK:
		m->slot_ino[op->b] = op->ino;
		m->slot_durable[op->b] = false;
		in->nlink++;
		return 0;
	case FSOPS_UNLINK:
		m->slot_ino[op->a] = 0;
		m->slot_durable[op->a] = false;
		inode_unref(m, op->ino);
		return 0;
	case FSOPS_MKDIR:
	case FSOPS_RMDIR:
		m->dir_exists[op->a] = op->type == FSOPS_MKDIR;
		m->dir_durable[op->a] = false;
		return 0;
	case FSOPS_FSYNC:
		/* The file, its directory and the root: its name and its directory's. */
		m->slot_durable[op->a] = true;
		if (fsops_slot_dir(op->a) >= 0)
			m->dir_durable[fsops_slot_dir(op->a)] = true;
		return 0;
	case FSOPS_FDATASYNC:
	case FSOPS_FSYNC_FILE:
		/* No name: POSIX promises none (what Linux filesystems do is the checker's). */
		return 0;
	case FSOPS_FSYNC_DIR:
		/* Its entries: the names of its files, and for the root, those of d0..d3. */
		for (int s = 0; s < FSOPS_NSLOTS; s++)
			if (fsops_slot_dir(s) == op->a)
				m->slot_durable[s] = m->slot_ino[s] != 0;
		for (int d = 0; d < FSOPS_NDIRS && op->a < 0; d++)
			m->dir_durable[d] = m->dir_exists[d];
		return 0;
	case FSOPS_SYNC:
		for (int s = 0; s < FSOPS_NSLOTS; s++)
			m->slot_durable[s] = m->slot_ino[s] != 0;
		for (int d = 0; d < FSOPS_NDIRS; d++)
			m->dir_durable[d] = m->dir_exists[d];
		return 0;
	case FSOPS_NTYPES:
		break;
	}
	return -EINVAL;
}

int fsops_generate(const struct fsops_params *p, struct fsops_op **ret)
{
	struct fsops_op *ops = calloc(p->ops, sizeof(*ops));
	struct fsops_model m;
	int r = 0;

	if (!ops)
		return -ENOMEM;
	fsops_model_init(&m, p);
	for (uint64_t i = 0; i < p->ops && r == 0; i++) {
		r = fsops_model_next(&m, &ops[i]);
		if (r == 0)
			r = fsops_model_apply(&m, &ops[i]);
	}
	fsops_model_release(&m);
	if (r < 0) {
		free(ops);
		return r;
	}
	*ret = ops;
	return 0;
}

bool fsops_kept(const struct fsops_params *p, uint64_t id)
{
	size_t lo = 0, hi = p->nkeep;

	if (!p->keep)
		return true;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->keep[mid] == id)
			return true;
		if (p->keep[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool fsops_adapt(const struct fsops_model *m, const struct fsops_op *op, struct fsops_op *ret)
{
	const struct fsops_inode *in = NULL;

	*ret = *op;
	switch (op->type) {
	case FSOPS_CREATE:
	case FSOPS_SYMLINK:
		return is_free(m, op->a, 0);
	case FSOPS_MKDIR:
		return !m->dir_exists[op->a];
	case FSOPS_RMDIR:
		return m->dir_exists[op->a] && dir_is_empty(m, op->a);
	case FSOPS_SYNC:
		return true;
	case FSOPS_FSYNC_DIR:
		return op->a < 0 || m->dir_exists[op->a];
	case FSOPS_FDATASYNC:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		if (!is_durable_file(m, op->a, 0))
			return false;
		break;
	case FSOPS_RENAME:
	case FSOPS_RENAME_NOREPLACE:
	case FSOPS_UNLINK:
		if (!is_entry(m, op->a, 0))
			return false;
		break;
	default:
		if (!is_file(m, op->a, 0))
			return false;
		break;
	}
	ret->ino = m->slot_ino[op->a];
	in = fsops_model_inode(m, ret->ino);
	switch (op->type) {
	case FSOPS_WRITE:
	case FSOPS_APPEND:
	case FSOPS_OVERWRITE:
		/* Offsets and lengths stay as generated (they fit FSOPS_MAX_SIZE); an append or
		 * overwrite may now land elsewhere relative to the end, which only the size
		 * afterwards reflects. */
		ret->type = FSOPS_WRITE;
		/* fall through */
	case FSOPS_DIO_WRITE:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_FALLOC:
	case FSOPS_ZERO:
		ret->size_after = op->off + op->len > in->size ? op->off + op->len : in->size;
		return true;
	case FSOPS_MMAP_WRITE:
		/* A mapping reaches only as far as the file. */
		ret->size_after = in->size;
		return op->off + op->len <= in->size;
	case FSOPS_FALLOC_KEEP:
	case FSOPS_PUNCH:
	case FSOPS_ZERO_KEEP:
		ret->size_after = in->size;
		return true;
	case FSOPS_REMOVEXATTR:
		return in->xattr[op->off] != 0;
	case FSOPS_RENAME_NOREPLACE:
		return is_free(m, op->b, 0);
	case FSOPS_EXCHANGE:
		if (!is_other_file(m, op->b, op->a))
			return false;
		ret->victim = m->slot_ino[op->b];
		return true;
	case FSOPS_COPY:
	case FSOPS_CLONE:
	case FSOPS_CLONE_RANGE:
		/* The source must still hold the range (FICLONE: all of it, now). */
		if (!is_other_file(m, op->b, op->a))
			return false;
		ret->victim = m->slot_ino[op->b];
		if (op->type == FSOPS_CLONE)
			ret->len = fsops_model_inode(m, ret->victim)->size;
		return fsops_copy_fits(ret, in->size, fsops_model_inode(m, ret->victim)->size);
	case FSOPS_COLLAPSE:
	case FSOPS_INSERT:
		return fsops_shift_fits(ret, in->size);
	case FSOPS_TRUNCATE:
		return true;
	case FSOPS_RENAME:
		if (!is_rename_target(m, op->b, op->a))
			return false;
		ret->victim = m->slot_ino[op->b];
		return true;
	case FSOPS_LINK:
		return is_free(m, op->b, 0);
	default:
		return true;
	}
}

int fsops_sequence(const struct fsops_params *p, struct fsops_op **ret, uint64_t *ret_n)
{
	struct fsops_model fm;
	struct fsops_op *ops;
	uint64_t n = 0;
	int r;

	r = fsops_generate(p, &ops);
	if (r < 0)
		return r;
	if (!p->keep) {
		*ret = ops;
		*ret_n = p->ops;
		return 0;
	}
	fsops_model_init(&fm, p);
	for (uint64_t i = 0; i < p->ops && r == 0; i++) {
		struct fsops_op a;

		if (!fsops_kept(p, ops[i].id) || !fsops_adapt(&fm, &ops[i], &a))
			continue;
		r = fsops_model_apply(&fm, &a);
		ops[n++] = a;
	}
	fsops_model_release(&fm);
	if (r < 0) {
		free(ops);
		return r;
	}
	*ret = ops;
	*ret_n = n;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops model: the generator of the op sequence and the in-memory tree it describes.
 * Generation depends only on the seed and on the model, never on what a filesystem did, so
 * the workload and the checker derive the same sequence.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"

static const char *const type_names[FSOPS_NTYPES] = {
	[FSOPS_CREATE] = "create",
	[FSOPS_WRITE] = "write",
	[FSOPS_APPEND] = "append",
	[FSOPS_OVERWRITE] = "overwrite",
	[FSOPS_TRUNCATE] = "truncate",
	[FSOPS_RENAME] = "rename",
	[FSOPS_LINK] = "link",
	[FSOPS_UNLINK] = "unlink",
	[FSOPS_MKDIR] = "mkdir",
	[FSOPS_RMDIR] = "rmdir",
	[FSOPS_FSYNC] = "fsync",
	[FSOPS_FDATASYNC] = "fdatasync",
	[FSOPS_SYNC] = "sync",
	[FSOPS_FSYNC_FILE] = "fsync-file",
	[FSOPS_FSYNC_DIR] = "fsync-dir",
	[FSOPS_FALLOC] = "falloc",
	[FSOPS_FALLOC_KEEP] = "falloc-keep",
	[FSOPS_PUNCH] = "punch",
	[FSOPS_ZERO] = "zero",
	[FSOPS_ZERO_KEEP] = "zero-keep",
	[FSOPS_DIO_WRITE] = "dio-write",
	[FSOPS_DSYNC_WRITE] = "dsync-write",
	[FSOPS_SYNC_WRITE] = "sync-write",
	[FSOPS_MMAP_WRITE] = "mmap-write",
	[FSOPS_SETXATTR] = "setxattr",
	[FSOPS_REMOVEXATTR] = "removexattr",
	[FSOPS_RENAME_NOREPLACE] = "rename-noreplace",
	[FSOPS_EXCHANGE] = "exchange",
};

static const char *const family_names[] = {"falloc", "direct", "dsync", "mmap", "xattr", "rename2"};

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
};

bool fsops_is_sync(enum fsops_type type)
{
	return type == FSOPS_FSYNC || type == FSOPS_FDATASYNC || type == FSOPS_SYNC ||
	       type == FSOPS_FSYNC_FILE || type == FSOPS_FSYNC_DIR || type == FSOPS_DSYNC_WRITE ||
	       type == FSOPS_SYNC_WRITE || type == FSOPS_MMAP_WRITE;
}

bool fsops_is_data(enum fsops_type type)
{
	return type == FSOPS_WRITE || type == FSOPS_APPEND || type == FSOPS_OVERWRITE ||
	       type == FSOPS_DIO_WRITE || type == FSOPS_DSYNC_WRITE || type == FSOPS_SYNC_WRITE ||
	       type == FSOPS_MMAP_WRITE;
}

bool fsops_is_zeroing(enum fsops_type type)
{
	return type == FSOPS_PUNCH || type == FSOPS_ZERO || type == FSOPS_ZERO_KEEP;
}

bool fsops_is_change(enum fsops_type type)
{
	return fsops_is_data(type) || fsops_is_zeroing(type) || type == FSOPS_TRUNCATE ||
	       type == FSOPS_FALLOC || type == FSOPS_FALLOC_KEEP;
}

bool fsops_is_rename(enum fsops_type type)
{
	return type == FSOPS_RENAME || type == FSOPS_RENAME_NOREPLACE || type == FSOPS_EXCHANGE;
}

int fsops_families_parse(const char *list, unsigned *ret)
{
	const char *p = list;

	*ret = 0;
	if (!strcmp(list, "none"))
		return 0;
	if (!strcmp(list, "all")) {
		*ret = FSOPS_FAMILY_ALL;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(family_names) / sizeof(*family_names); i++)
			if (strlen(family_names[i]) == n && !strncmp(p, family_names[i], n))
				break;
		if (i == sizeof(family_names) / sizeof(*family_names))
			return -1;
		*ret |= 1u << i;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	return *ret ? 0 : -1;
}

const char *fsops_type_name(enum fsops_type type)
{
	return (unsigned) type < FSOPS_NTYPES ? type_names[type] : "?";
}

/* splitmix64's finaliser: a good 64-bit mix. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * The data a write puts at file word w (bytes [8w, 8w + 8)) names its op and can be read
 * back: the low FSOPS_ID_BITS bits are the op id masked by a value of (seed, w), the other
 * bits a check of (that value, id). So a word found in a file is decoded to the op that wrote
 * it at that offset in O(1) (fsops_decode()), and a word nothing wrote decodes to no op but
 * for a chance of 2^-44. A word of zeros is zeros: a write's word is never all zeros but for a
 * chance of 2^-64.
 */
#define ID_MASK ((1ull << FSOPS_ID_BITS) - 1)

/* The masks of the word indexes 0..n-1, for the seed they were made for. */
static struct {
	uint64_t seed;
	uint64_t n;
	uint64_t v[FSOPS_MAX_SIZE / 8];
} masks;

/* The masks of words 0..@words-1 (at most FSOPS_MAX_SIZE / 8), made as far as asked. */
static const uint64_t *word_masks(uint64_t seed, uint64_t words)
{
	uint64_t key = mix(seed ^ 0x9e3779b97f4a7c15ULL);

	if (masks.seed != seed)
		masks.n = 0;
	masks.seed = seed;
	words = words < FSOPS_MAX_SIZE / 8 ? words : FSOPS_MAX_SIZE / 8;
	for (; masks.n < words; masks.n++)
		masks.v[masks.n] = mix(key ^ (masks.n * 0xd6e8feb86659fd93ULL));
	return masks.v;
}

static uint64_t check_bits(uint64_t mask, uint64_t id)
{
	return ((mask ^ (id * 0x632be59bd9b4e019ULL)) * 0xbf58476d1ce4e5b9ULL) & ~ID_MASK;
}

static uint64_t word(const uint64_t *mask, uint64_t id, uint64_t w)
{
	return ((id ^ mask[w]) & ID_MASK) | check_bits(mask[w], id);
}

/* The 8 bytes at @p, least significant first. */
static inline uint64_t load_word(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

uint64_t fsops_decode(uint64_t seed, const uint8_t *data, uint64_t w)
{
	const uint64_t *mask = word_masks(seed, w + 1);
	uint64_t v = load_word(data + 8 * w), id = (v ^ mask[w]) & ID_MASK;

	return v && (v & ~ID_MASK) == check_bits(mask[w], id) ? id : 0;
}

uint64_t fsops_decode_span(uint64_t seed, const uint8_t *data, uint64_t w, uint64_t end,
			   uint64_t id)
{
	const uint64_t *mask;
	uint64_t i = w;

	end = end < FSOPS_MAX_SIZE / 8 ? end : FSOPS_MAX_SIZE / 8;
	if (id == 0) {
		while (i < end && load_word(data + 8 * i) == 0)
			i++;
		return i - w;
	}
	mask = word_masks(seed, end);
	while (i < end && load_word(data + 8 * i) == word(mask, id, i))
		i++;
	return i - w;
}

void fsops_fill(uint64_t seed, uint64_t id, uint64_t off, uint8_t *buf, size_t len)
{
	const uint64_t *mask = word_masks(seed, (off + len + 7) / 8);
	size_t i = 0;

	while (i < len) {
		uint64_t w = word(mask, id, (off + i) >> 3);
		unsigned b = (unsigned) ((off + i) & 7);

		if (b == 0 && len - i >= 8) {
			/* A whole word, least significant byte first. */
			for (b = 0; b < 8; b++)
				buf[i + b] = (uint8_t) (w >> (b * 8));
			i += 8;
			continue;
		}
		for (; b < 8 && i < len; b++)
			buf[i++] = (uint8_t) (w >> (b * 8));
	}
}

/* The check of setxattr op @id's value of attribute @x. */
static uint64_t xattr_check(uint64_t seed, uint64_t id, int x)
{
	return mix(mix(seed ^ 0x5851f42d4c957f2dULL) ^ (id * 0x9e3779b97f4a7c15ULL) ^ (uint64_t) x);
}

void fsops_xattr_value(uint64_t seed, uint64_t id, int x, char *buf, size_t len)
{
	snprintf(buf, len, "fsops %llu %016llx", (unsigned long long) id,
		 (unsigned long long) xattr_check(seed, id, x));
}

uint64_t fsops_xattr_decode(uint64_t seed, int x, const char *v, size_t len)
{
	char want[64];
	uint64_t id = 0;
	size_t i = 6;

	if (len < 8 || len > 40 || memcmp(v, "fsops ", 6))
		return 0;
	for (; i < len && v[i] >= '0' && v[i] <= '9' && id <= FSOPS_MAX_OPS; i++)
		id = 10 * id + (uint64_t) (v[i] - '0');
	if (id == 0 || id > FSOPS_MAX_OPS)
		return 0;
	fsops_xattr_value(seed, id, x, want, sizeof(want));
	return strlen(want) == len && !memcmp(want, v, len) ? id : 0;
}

int fsops_slot_dir(int s)
{
	return s / FSOPS_FILES_PER_DIR - 1;
}

/* @str into @buf of @len bytes, cut short to fit. Paths are made by hand, not by snprintf():
 * the checker makes several a workload of a bounded run. */
static const char *put(char *buf, size_t len, const char *str)
{
	size_t n = strlen(str);

	if (len == 0)
		return buf;
	n = n < len - 1 ? n : len - 1;
	memcpy(buf, str, n);
	buf[n] = '\0';
	return buf;
}

const char *fsops_slot_path(int s, char *buf, size_t len)
{
	int d = fsops_slot_dir(s);
	char name[6] = {'d', (char) ('0' + d), '/', 'f', (char) ('0' + s % FSOPS_FILES_PER_DIR)};

	return put(buf, len, d < 0 ? name + 3 : name);
}

const char *fsops_dir_path(int d, char *buf, size_t len)
{
	return put(buf, len, (char[3]){'d', (char) ('0' + d)});
}

void fsops_op_paths(const struct fsops_op *op, char *a, char *b, size_t len)
{
	snprintf(a, len, "-");
	snprintf(b, len, "-");
	if (op->type == FSOPS_MKDIR || op->type == FSOPS_RMDIR ||
	    (op->type == FSOPS_FSYNC_DIR && op->a >= 0))
		fsops_dir_path(op->a, a, len);
	else if (op->type == FSOPS_FSYNC_DIR)
		snprintf(a, len, ".");
	else if (op->a >= 0)
		fsops_slot_path(op->a, a, len);
	if (op->b >= 0)
		fsops_slot_path(op->b, b, len);
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

/* splitmix64 */
static uint64_t rnd(struct fsops_model *m)
{
	m->rng += 0x9e3779b97f4a7c15ULL;
	return mix(m->rng);
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_range(struct fsops_model *m, uint64_t lo, uint64_t hi)
{
	return lo + rnd(m) % (hi - lo + 1);
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

static bool is_file(const struct fsops_model *m, int s, int other)
{
	return m->slot_ino[s] != 0;
}

static bool is_free(const struct fsops_model *m, int s, int other)
{
	return !m->slot_ino[s] && slot_dir_exists(m, s);
}

static bool is_durable_file(const struct fsops_model *m, int s, int other)
{
	return fsops_name_durable(m, s);
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

/* A file of another inode than slot @src's, for an exchange. */
static bool is_other_file(const struct fsops_model *m, int s, int src)
{
	return m->slot_ino[s] && m->slot_ino[s] != m->slot_ino[src];
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
	case FSOPS_FDATASYNC:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		/* Data syncs promise no name (POSIX, nor fstests): drawn where one is durable. */
		op->a = pick_slot(m, is_durable_file, 0);
		break;
	default:
		op->a = pick_slot(m, is_file, 0);
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

static int inode_new(struct fsops_model *m, uint64_t ino)
{
	struct fsops_inode *in = calloc(1, sizeof(*in));

	if (!in || m->ninodes == FSOPS_NSLOTS) {
		free(in);
		return -ENOMEM;
	}
	in->ino = ino;
	in->nlink = 1;
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
		m->slot_ino[op->a] = op->ino;
		m->slot_durable[op->a] = false;
		return inode_new(m, op->ino);
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

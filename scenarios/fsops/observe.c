// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's walk of the tree: the directories and file names of the namespace looked
 * at, each file read whole (up to FSOPS_MAX_SIZE bytes) and its words decoded to the ops that
 * wrote them, kept as runs (struct obs_file). A data op or setxattr whose value is found is
 * marked present here. Only known names are looked at, and nothing found in the tree can make
 * the checker fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "scenarios/fsops/check_int.h"

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

/* The data op whose whole word word @w of @data is, written at word @at, or NULL. */
static const struct fsops_op *word_write(const struct checker *c, const uint8_t *data, uint64_t w,
					 uint64_t at)
{
	uint64_t id = fsops_decode(c->p->seed, data, w, at);
	const struct fsops_op *op = id && id <= c->n ? c->by_id[id] : NULL;

	return op && fsops_is_data(op->type) && op->off <= 8 * at && 8 * at + 8 <= op->off + op->len
		       ? op
		       : NULL;
}

/*
 * The data op whose whole word word @w of @data is, written there or, where collapses and
 * inserts may have moved it, a whole number of blocks away (*@moved of them: what it was
 * written at less where it is); NULL if none's.
 */
static const struct fsops_op *moved_write(const struct checker *c, const uint8_t *data, uint64_t w,
					  int *moved)
{
	const int64_t per = FSOPS_BLOCK / 8, blocks = FSOPS_MAX_SIZE / FSOPS_BLOCK;
	const struct fsops_op *op = word_write(c, data, w, w);
	static const uint8_t zeros[8];

	*moved = 0;
	if (op || !(c->p->families & FSOPS_FAMILY_COLLAPSE) || !memcmp(data + 8 * w, zeros, 8))
		return op;
	for (int64_t m = 1 - blocks; m < blocks && !op; m++) {
		int64_t at = (int64_t) w + m * per;

		if (m != 0 && at >= 0 && at < (int64_t) (FSOPS_MAX_SIZE / 8)) {
			op = word_write(c, data, w, (uint64_t) at);
			*moved = (int) m;
		}
	}
	return op;
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
		int moved = 0;
		const struct fsops_op *op = w < whole ? moved_write(c, data, w, &moved) : NULL;
		uint32_t v = 0;

		n = 0;
		if (op) {
			uint64_t at = word_at(word_of(op->id, moved), w);
			/* its last whole word, + 1, where it is now */
			uint64_t end = w + (op->off + op->len) / 8 - at;

			v = word_of(op->id, moved);
			c->present[op->id] = true;
			o->owner = !o->owner || o->owner == op->ino ? op->ino : UINT64_MAX;
			n = fsops_decode_span(seed, data, w, end < whole ? end : whole, op->id, at);
		} else if (w < whole) {
			n = fsops_decode_span(seed, data, w, whole, 0, w);
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
	if (S_ISLNK(st.st_mode)) {
		const struct fsops_op *op;
		char v[64];
		ssize_t len = readlinkat(dfd, path, v, sizeof(v));

		o->kind = len < 0 ? OBS_UNREADABLE : OBS_SYMLINK;
		o->link = len > 0 ? fsops_symlink_decode(c->p->seed, v, (size_t) len) : 0;
		op = o->link && o->link <= c->n ? c->by_id[o->link] : NULL;
		/* Its target names the op that made it: evidence that it ran. */
		if (op && op->type == FSOPS_SYMLINK)
			c->present[op->id] = true;
		else
			o->link = 0;
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

int observe(struct checker *c, int dfd, uint64_t slots)
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

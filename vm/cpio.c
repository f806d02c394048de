// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpio.c — reproducible cpio "newc" archives for the initramfs.
 */
#include "vm/cpio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"

/* Symlinks followed while placing one path, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40

enum kind { K_DIR, K_FILE, K_DATA, K_LINK };

struct entry {
	char *path; /* without the leading '/' */
	enum kind kind;
	mode_t perm;
	uid_t uid; /* the host's owner of what bo_cpio_add_host() added; root otherwise */
	gid_t gid;
	char *src;  /* K_FILE: host source; K_LINK: target */
	void *data; /* K_DATA */
	size_t len;
};

struct bo_cpio {
	struct entry *v;
	size_t n, cap;
	size_t *slot; /* open-addressing index into v, +1 (0 = empty) */
	size_t nslot;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 1099511628211ull;
	return h;
}

static struct entry *lookup(const struct bo_cpio *c, const char *path)
{
	if (!c->nslot)
		return NULL;
	for (size_t i = hash(path) & (c->nslot - 1);; i = (i + 1) & (c->nslot - 1)) {
		if (!c->slot[i])
			return NULL;
		if (!strcmp(c->v[c->slot[i] - 1].path, path))
			return &c->v[c->slot[i] - 1];
	}
}

static int reindex(struct bo_cpio *c, size_t nslot)
{
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t k = 0; k < c->n; k++) {
		size_t i = hash(c->v[k].path) & (nslot - 1);

		while (slot[i])
			i = (i + 1) & (nslot - 1);
		slot[i] = k + 1;
	}
	free(c->slot);
	c->slot = slot;
	c->nslot = nslot;
	return 0;
}

/* Append an entry; takes ownership of @path. */
static struct entry *append(struct bo_cpio *c, char *path, enum kind kind, mode_t perm)
{
	struct entry *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct entry *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	if (2 * (c->n + 1) > c->nslot && reindex(c, c->nslot ? 2 * c->nslot : 512) < 0)
		return NULL;
	e = &c->v[c->n++];
	*e = (struct entry){.path = path, .kind = kind, .perm = perm & 07777};
	{
		size_t i = hash(path) & (c->nslot - 1);

		while (c->slot[i])
			i = (i + 1) & (c->nslot - 1);
		c->slot[i] = c->n;
	}
	return e;
}

int bo_cpio_new(struct bo_cpio **ret)
{
	struct bo_cpio *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	*ret = c;
	return 0;
}

void bo_cpio_free(struct bo_cpio *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].src);
		free(c->v[i].data);
	}
	free(c->v);
	free(c->slot);
	free(c);
}

size_t bo_cpio_count(const struct bo_cpio *c)
{
	return c->n;
}

/*
 * Resolve the directory part of @path through the tree, creating missing directories when
 * @c is not NULL (@ro is the tree to look in), and write the resolved path (no leading '/')
 * to @out. Symlinks in the tree are followed like the kernel will follow them in the guest;
 * ".." never climbs above the root.
 */
static int place(struct bo_cpio *c, const struct bo_cpio *ro, const char *path, char *out,
		 size_t outlen, struct bo_err *err)
{
	char work[2 * PATH_MAX], cur[PATH_MAX] = "";
	size_t links = 0;
	char *p = work;

	if (path[0] != '/')
		return bo_err_set(err, EINVAL, "archive path '%s' is not absolute", path);
	if (strlen(path) >= PATH_MAX)
		return bo_err_set(err, ENAMETOOLONG, "archive path '%s' is too long", path);
	snprintf(work, sizeof(work), "%s", path);
	for (;;) {
		char *slash, comp[NAME_MAX + 1], cand[PATH_MAX];
		struct entry *e;
		size_t n;

		while (*p == '/')
			p++;
		slash = strchr(p, '/');
		if (!slash) /* the last component is the entry itself */
			break;
		n = (size_t) (slash - p);
		if (n > NAME_MAX)
			return bo_err_set(err, ENAMETOOLONG, "archive path '%s' is too long", path);
		memcpy(comp, p, n);
		comp[n] = '\0';
		p = slash + 1;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *up = strrchr(cur, '/');

			*(up ? up : cur) = '\0';
			continue;
		}
		if ((size_t) snprintf(cand, sizeof(cand), "%s%s%s", cur, *cur ? "/" : "", comp) >=
		    sizeof(cand))
			return bo_err_set(err, ENAMETOOLONG, "archive path '%s' is too long", path);
		e = lookup(ro, cand);
		if (e && e->kind == K_LINK) {
			char rest[2 * PATH_MAX];

			if (++links > MAX_LINKS)
				return bo_err_set(err, ELOOP,
						  "archive path '%s': too many symlinks", path);
			snprintf(rest, sizeof(rest), "%s/%s", e->src, p);
			if (e->src[0] == '/')
				cur[0] = '\0';
			snprintf(work, sizeof(work), "%s", rest);
			p = work;
			continue;
		}
		if (e && e->kind != K_DIR)
			return bo_err_set(err, ENOTDIR,
					  "archive path '%s': '/%s' is not a directory", path,
					  cand);
		if (!e && !c)
			return -ENOENT;
		if (!e) {
			char *dup = strdup(cand);

			if (!dup || !append(c, dup, K_DIR, 0755))
				return free(dup), bo_err_set(err, ENOMEM, "out of memory");
		}
		memcpy(cur, cand, strlen(cand) + 1);
	}
	if (!*p || !strcmp(p, ".") || !strcmp(p, ".."))
		return bo_err_set(err, EINVAL, "archive path '%s' names no entry", path);
	if ((size_t) snprintf(out, outlen, "%s%s%s", cur, *cur ? "/" : "", p) >= outlen)
		return bo_err_set(err, ENAMETOOLONG, "archive path '%s' is too long", path);
	return 0;
}

static bool same(const struct entry *e, enum kind kind, const char *src, const void *data,
		 size_t len)
{
	if (e->kind != kind)
		return false;
	switch (kind) {
	case K_DIR:
		return true;
	case K_FILE:
	case K_LINK:
		return !strcmp(e->src, src);
	case K_DATA:
		return e->len == len && !memcmp(e->data, data, len);
	}
	return false;
}

static int add_owned(struct bo_cpio *c, const char *path, enum kind kind, mode_t perm,
		     const struct stat *owner, const char *src, const void *data, size_t len,
		     struct bo_err *err)
{
	char where[PATH_MAX];
	struct entry *e;
	char *dup;
	int r;

	r = place(c, c, path, where, sizeof(where), err);
	if (r < 0)
		return r;
	e = lookup(c, where);
	if (e) {
		if (same(e, kind, src, data, len))
			return 0;
		return bo_err_set(err, EEXIST, "archive path '%s' is already there as '/%s'", path,
				  where);
	}
	dup = strdup(where);
	if (!dup || !(e = append(c, dup, kind, perm)))
		return free(dup), bo_err_set(err, ENOMEM, "out of memory");
	if (owner) {
		e->uid = owner->st_uid;
		e->gid = owner->st_gid;
	}
	if (src && !(e->src = strdup(src)))
		return bo_err_set(err, ENOMEM, "out of memory");
	if (kind == K_DATA) {
		e->data = malloc(len ? len : 1);
		if (!e->data)
			return bo_err_set(err, ENOMEM, "out of memory");
		memcpy(e->data, data, len);
		e->len = len;
	}
	return 0;
}

static int add(struct bo_cpio *c, const char *path, enum kind kind, mode_t perm, const char *src,
	       const void *data, size_t len, struct bo_err *err)
{
	return add_owned(c, path, kind, perm, NULL, src, data, len, err);
}

int bo_cpio_add_dir(struct bo_cpio *c, const char *path, mode_t perm, struct bo_err *err)
{
	return add(c, path, K_DIR, perm, NULL, NULL, 0, err);
}

int bo_cpio_add_file(struct bo_cpio *c, const char *path, const char *src, mode_t perm,
		     struct bo_err *err)
{
	return add(c, path, K_FILE, perm, src, NULL, 0, err);
}

int bo_cpio_add_data(struct bo_cpio *c, const char *path, const void *data, size_t len, mode_t perm,
		     struct bo_err *err)
{
	return add(c, path, K_DATA, perm, NULL, data, len, err);
}

int bo_cpio_add_symlink(struct bo_cpio *c, const char *path, const char *target, struct bo_err *err)
{
	if (!*target)
		return bo_err_set(err, EINVAL, "symlink '%s' has an empty target", path);
	return add(c, path, K_LINK, 0777, target, NULL, 0, err);
}

bool bo_cpio_has(const struct bo_cpio *c, const char *path)
{
	char where[PATH_MAX];

	if (place(NULL, c, path, where, sizeof(where), NULL) < 0)
		return false;
	return lookup(c, where) != NULL;
}

int bo_cpio_add_host(struct bo_cpio *c, const char *host_path, struct bo_err *err)
{
	char todo[2 * PATH_MAX], cur[PATH_MAX] = "";
	size_t links = 0;
	char *p = todo;
	int r;

	if (host_path[0] != '/')
		return bo_err_set(err, EINVAL, "host path '%s' is not absolute", host_path);
	if (strlen(host_path) >= PATH_MAX)
		return bo_err_set(err, ENAMETOOLONG, "host path '%s' is too long", host_path);
	snprintf(todo, sizeof(todo), "%s", host_path);
	for (;;) {
		char comp[NAME_MAX + 1], cand[PATH_MAX + 1];
		struct stat st;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			return bo_err_set(err, ENAMETOOLONG, "host path '%s' is too long",
					  host_path);
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *up = strrchr(cur, '/');

			if (up)
				*up = '\0';
			continue;
		}
		if ((size_t) snprintf(cand, sizeof(cand), "%s/%s", cur, comp) >= PATH_MAX)
			return bo_err_set(err, ENAMETOOLONG, "host path '%s' is too long",
					  host_path);
		if (lstat(cand, &st) < 0)
			return bo_err_set(err, errno, "host path '%s': '%s': %m", host_path, cand);
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX], rest[2 * PATH_MAX];
			ssize_t len = readlink(cand, target, sizeof(target) - 1);

			if (len < 0)
				return bo_err_set(err, errno, "readlink '%s': %m", cand);
			target[len] = '\0';
			if (++links > MAX_LINKS)
				return bo_err_set(err, ELOOP, "host path '%s': too many symlinks",
						  host_path);
			r = bo_cpio_add_symlink(c, cand, target, err);
			if (r < 0)
				return r;
			snprintf(rest, sizeof(rest), "%s/%s", target, p);
			if (target[0] == '/')
				cur[0] = '\0';
			snprintf(todo, sizeof(todo), "%s", rest);
			p = todo;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			r = add_owned(c, cand, K_DIR, st.st_mode, &st, NULL, NULL, 0, err);
			if (r < 0)
				return r;
			memcpy(cur, cand, strlen(cand) + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			return bo_err_set(err, EINVAL, "host path '%s': '%s' is not a regular file",
					  host_path, cand);
		p += strspn(p, "/");
		if (*p)
			return bo_err_set(err, ENOTDIR, "host path '%s': '%s' is not a directory",
					  host_path, cand);
		return add_owned(c, cand, K_FILE, st.st_mode, &st, cand, NULL, 0, err);
	}
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp((*(const struct entry *const *) a)->path,
		      (*(const struct entry *const *) b)->path);
}

struct out {
	int fd;
	uint64_t off;
	char buf[1 << 16];
	size_t used;
};

static int out_flush(struct out *o)
{
	int r = bo_pwrite_full(o->fd, o->buf, o->used, o->off);

	if (r < 0)
		return r;
	o->off += o->used;
	o->used = 0;
	return 0;
}

static int out_put(struct out *o, const void *p, size_t len)
{
	while (len) {
		size_t n = sizeof(o->buf) - o->used;
		int r;

		if (n > len)
			n = len;
		memcpy(o->buf + o->used, p, n);
		o->used += n;
		p = (const char *) p + n;
		len -= n;
		if (o->used == sizeof(o->buf) && (r = out_flush(o)) < 0)
			return r;
	}
	return 0;
}

static int out_pad(struct out *o, unsigned align)
{
	static const char zero[512];
	uint64_t pos = o->off + o->used;

	return out_put(o, zero, (align - pos % align) % align);
}

static int out_header(struct out *o, unsigned ino, mode_t mode, const struct entry *owner,
		      unsigned nlink, uint64_t size, const char *name)
{
	char h[111];
	int r;

	if (size > UINT32_MAX)
		return -EFBIG;
	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor,
	 * rdevminor, namesize, check */
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ino,
		 (unsigned) mode, owner ? (unsigned) owner->uid : 0,
		 owner ? (unsigned) owner->gid : 0, nlink, 0, (unsigned) size, 0, 0, 0, 0,
		 (unsigned) strlen(name) + 1, 0);
	r = out_put(o, h, 110);
	if (r >= 0)
		r = out_put(o, name, strlen(name) + 1);
	return r < 0 ? r : out_pad(o, 4);
}

static int out_file(struct out *o, unsigned ino, const struct entry *e, struct bo_err *err)
{
	_cleanup_close_ int fd = open(e->src, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint64_t done = 0;
	int r;

	if (fd < 0 || fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "archive: '%s': %m", e->src);
	if (!S_ISREG(st.st_mode))
		return bo_err_set(err, EINVAL, "archive: '%s' is not a regular file", e->src);
	r = out_header(o, ino, S_IFREG | e->perm, e, 1, (uint64_t) st.st_size, e->path);
	if (r < 0)
		return bo_err_set(err, -r, "archive: '%s': %s", e->src, strerror(-r));
	while (done < (uint64_t) st.st_size) {
		size_t want = sizeof(o->buf) - o->used;
		ssize_t n;

		if (want > (uint64_t) st.st_size - done)
			want = (size_t) ((uint64_t) st.st_size - done);
		n = bo_pread_full(fd, o->buf + o->used, want, done);
		if (n < 0)
			return bo_err_set(err, (int) -n, "archive: read '%s': %s", e->src,
					  strerror((int) -n));
		if ((size_t) n != want)
			return bo_err_set(err, EIO, "archive: '%s' shrank while being copied",
					  e->src);
		o->used += want;
		done += want;
		if (o->used == sizeof(o->buf) && (r = out_flush(o)) < 0)
			return bo_err_set(err, -r, "archive: write: %s", strerror(-r));
	}
	return out_pad(o, 4);
}

int bo_cpio_write(const struct bo_cpio *c, int fd, struct bo_err *err)
{
	_cleanup_free_ const struct entry **sorted = calloc(c->n ? c->n : 1, sizeof(*sorted));
	_cleanup_free_ struct out *o = malloc(sizeof(*o));
	int r = 0;

	if (!sorted || !o)
		return bo_err_set(err, ENOMEM, "out of memory");
	o->fd = fd;
	if ((off_t) (o->off = (uint64_t) lseek(fd, 0, SEEK_CUR)) < 0)
		return bo_err_set(err, errno, "archive: output is not seekable: %m");
	o->used = 0;
	for (size_t i = 0; i < c->n; i++)
		sorted[i] = &c->v[i];
	qsort(sorted, c->n, sizeof(*sorted), cmp_entry);
	for (size_t i = 0; i < c->n && r >= 0; i++) {
		const struct entry *e = sorted[i];
		unsigned ino = (unsigned) i + 1;

		switch (e->kind) {
		case K_DIR:
			r = out_header(o, ino, S_IFDIR | e->perm, e, 2, 0, e->path);
			break;
		case K_LINK:
			r = out_header(o, ino, S_IFLNK | 0777, e, 1, strlen(e->src), e->path);
			if (r >= 0)
				r = out_put(o, e->src, strlen(e->src));
			if (r >= 0)
				r = out_pad(o, 4);
			break;
		case K_DATA:
			r = out_header(o, ino, S_IFREG | e->perm, e, 1, e->len, e->path);
			if (r >= 0)
				r = out_put(o, e->data, e->len);
			if (r >= 0)
				r = out_pad(o, 4);
			break;
		case K_FILE:
			r = out_file(o, ino, e, err);
			if (r < 0)
				return r;
			break;
		}
		if (r < 0)
			return bo_err_set(err, -r, "archive: '/%s': %s", e->path, strerror(-r));
	}
	r = out_header(o, 0, 0, NULL, 1, 0, "TRAILER!!!");
	if (r >= 0)
		r = out_pad(o, 512);
	if (r >= 0)
		r = out_flush(o);
	if (r < 0)
		return bo_err_set(err, -r, "archive: write: %s", strerror(-r));
	if (lseek(fd, (off_t) o->off, SEEK_SET) < 0)
		return bo_err_set(err, errno, "archive: seek: %m");
	return 0;
}

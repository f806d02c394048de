// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsmap_btrfs.c — btrfs's blocks named by btrfs inspect-internal (fsmap.h), read-only on the
 * unmounted device. A block of the device is a physical offset; btrfs addresses everything by
 * logical address, so:
 *
 *   1. dump-tree -t chunk: the chunks, each a logical range and the physical offset of each of
 *      its stripes (two for DUP); the block's logical address, and its chunk's type;
 *   2. dump-tree -t extent: the extent holding that address — a data extent's backrefs name
 *      the inode (root, objectid), a tree block's the tree that owns it;
 *   3. for a leaf of the filesystem tree, dump-tree -b: the inodes it holds items of;
 *   4. dump-tree -t fs: INODE_REF items (inode, parent, name), walked up to the root directory
 *      (256) for a path.
 *
 * The super block (and its copies at 64 MiB and 256 GiB) is named by its place; a write of it
 * commits a generation, and names the inodes the filesystem tree's leaves of that generation
 * hold. Subvolumes other than the top one name their inodes, not paths.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/dev/fsmap_int.h"

#define STRIPES 4
/* The top subvolume's tree, and its root directory's inode. */
#define FS_TREE	 5
#define ROOT_DIR 256
/* Inodes of one leaf named. */
#define LEAF_INODES 8
/* Most directory levels walked for a path. */
#define PATH_DEPTH 64

struct chunk {
	uint64_t logical, length;
	uint64_t phys[STRIPES];
	unsigned n;
	char type[32]; /* "DATA|single", "METADATA|DUP", ... */
};

/* What each block is found to be, beside v[]. */
struct blk {
	uint64_t logical; /* UINT64_MAX: in no chunk */
	const struct chunk *c;
	uint64_t root;	/* a data extent's backref root, or a tree block's owner (0: none) */
	char owner[32]; /* a tree block's owner, as dump-tree names it */
	uint64_t start; /* the extent's or tree block's logical start */
	uint64_t inodes[LEAF_INODES];
	unsigned n_inodes;
};

/* "btrfs inspect-internal WHAT [ARGS] DEV" (@args NULL-terminated, at most 4; NULL: none), its
 * output in @ret. */
static int inspect(const char *what, const char *const *args, const char *dev, unsigned timeout_ms,
		   struct bo_proc_result *ret, struct bo_err *err)
{
	const char *argv[9] = {"btrfs", "inspect-internal", what};
	size_t n = 3;

	for (; args && *args && n < 7; args++)
		argv[n++] = *args;
	argv[n++] = dev;
	argv[n] = NULL;
	return fsmap_run(argv, timeout_ms, ret, err);
}

static int read_chunks(const char *dev, unsigned timeout_ms, struct chunk **ret, size_t *ret_n,
		       struct bo_err *err)
{
	struct bo_proc_result res = {0};
	struct chunk *v = NULL, *c = NULL;
	size_t n = 0, cap = 0;
	char *p, *line;
	int r = inspect("dump-tree", (const char *[]){"-t", "chunk", NULL}, dev, timeout_ms, &res,
			err);

	for (p = res.out; r >= 0 && (line = fsmap_next_line(&p));) {
		uint64_t a, b;
		unsigned k;
		const char *t;

		if (sscanf(line, " item %*u key (FIRST_CHUNK_TREE CHUNK_ITEM %" SCNu64 ")", &a) ==
		    1) {
			if (n == cap) {
				struct chunk *nv =
					realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

				if (!nv) {
					r = bo_err_set(err, ENOMEM, "reading the chunks of '%s'",
						       dev);
					break;
				}
				v = nv;
			}
			c = &v[n++];
			*c = (struct chunk){.logical = a};
		} else if (c && sscanf(line, " length %" SCNu64, &a) == 1) {
			c->length = a;
			t = strstr(line, " type ");
			if (t)
				snprintf(c->type, sizeof(c->type), "%.*s",
					 (int) strcspn(t + 6, " \t"), t + 6);
		} else if (c &&
			   sscanf(line, " stripe %u devid %" SCNu64 " offset %" SCNu64, &k, &b,
				  &a) == 3 &&
			   c->n < STRIPES) {
			c->phys[c->n++] = a;
		}
	}
	bo_proc_result_clear(&res);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* The node size from dump-super ("nodesize 16384"), or 16 KiB. */
static uint64_t node_size(const char *dev, unsigned timeout_ms)
{
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	uint64_t size = 16384;
	const char *p;

	if (inspect("dump-super", NULL, dev, timeout_ms, &res, &err) >= 0 && res.out &&
	    (p = strstr(res.out, "\nnodesize")))
		size = strtoull(p + 9 + strspn(p + 9, " \t"), NULL, 10);
	bo_proc_result_clear(&res);
	return size ? size : 16384;
}

/* The root named by dump-tree ("FS_TREE", "EXTENT_TREE", or a number). */
static uint64_t root_id(const char *name)
{
	return !strcmp(name, "FS_TREE") ? FS_TREE : strtoull(name, NULL, 10);
}

/* Step 2: the extent of each block that has a logical address, from the extent tree. */
static int read_extents(const char *dev, struct blk *b, size_t n, uint64_t nodesize,
			unsigned timeout_ms, struct bo_err *err)
{
	struct bo_proc_result res = {0};
	uint64_t start = 0, len = 0;
	char *p, *line;
	int r = inspect("dump-tree", (const char *[]){"-t", "extent", NULL}, dev, timeout_ms, &res,
			err);

	for (p = res.out; r >= 0 && (line = fsmap_next_line(&p));) {
		uint64_t x, y, o;
		char type[32], name[32];

		if (sscanf(line, " item %*u key (%" SCNu64 " %31s %" SCNu64 ")", &x, type, &y) ==
		    3) {
			start = x;
			len = !strcmp(type, "EXTENT_ITEM")     ? y
			      : !strcmp(type, "METADATA_ITEM") ? nodesize
							       : 0;
			continue;
		}
		for (size_t i = 0; len && i < n; i++) {
			if (b[i].logical < start || b[i].logical >= start + len || b[i].root)
				continue;
			if (sscanf(line, " extent data backref root %31s objectid %" SCNu64, name,
				   &o) == 2) {
				b[i].root = root_id(name);
				b[i].start = start;
				b[i].inodes[0] = o;
				b[i].n_inodes = 1;
			} else if (sscanf(line, " tree block backref root %31s", name) == 1) {
				b[i].root = root_id(name);
				snprintf(b[i].owner, sizeof(b[i].owner), "%s", name);
				b[i].start = start;
			}
		}
	}
	bo_proc_result_clear(&res);
	return r;
}

/* Step 3: the inodes a leaf of a filesystem tree holds items of (dump-tree -b). */
static int read_leaf(const char *dev, struct blk *b, unsigned timeout_ms, struct bo_err *err)
{
	struct bo_proc_result res = {0};
	char at[32], *p, *line;
	int r;

	snprintf(at, sizeof(at), "%" PRIu64, b->start);
	r = inspect("dump-tree", (const char *[]){"-b", at, NULL}, dev, timeout_ms, &res, err);
	for (p = res.out; r >= 0 && (line = fsmap_next_line(&p)) && b->n_inodes < LEAF_INODES;) {
		uint64_t o;
		bool seen = false;

		if (sscanf(line, " item %*u key (%" SCNu64, &o) != 1 || o < ROOT_DIR)
			continue;
		for (unsigned k = 0; k < b->n_inodes; k++)
			seen |= b->inodes[k] == o;
		if (!seen)
			b->inodes[b->n_inodes++] = o;
	}
	bo_proc_result_clear(&res);
	return r;
}

/* One INODE_REF of the filesystem tree: @ino is named @name in directory @parent. */
struct ref {
	uint64_t ino, parent;
	char name[64];
};

/* Step 4: the INODE_REFs of the top subvolume; with @gen (not 0), the inodes the leaves of
 * that generation hold items of, into @sb (what a written super block commits). */
static int read_refs(const char *dev, const char *const *tree, uint64_t gen, struct blk *sb,
		     unsigned timeout_ms, struct ref **ret, size_t *ret_n, struct bo_err *err)
{
	bool in_gen = false;
	struct bo_proc_result res = {0};
	struct ref *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t ino = 0, parent = 0;
	char *p, *line;
	int r = inspect("dump-tree", tree, dev, timeout_ms, &res, err);

	for (p = res.out; r >= 0 && (line = fsmap_next_line(&p));) {
		const char *name;
		uint64_t g, o;

		if (sscanf(line, "leaf %*u items %*u free space %*u generation %" SCNu64, &g) ==
		    1) {
			in_gen = gen && g == gen;
			continue;
		}
		if (!strncmp(line, "node ", 5)) {
			in_gen = false; /* its keys point at leaves, they are not items */
			continue;
		}
		if (in_gen && sb && sscanf(line, " item %*u key (%" SCNu64, &o) == 1 &&
		    o >= ROOT_DIR && sb->n_inodes < LEAF_INODES) {
			bool seen = false;

			for (unsigned k = 0; k < sb->n_inodes; k++)
				seen |= sb->inodes[k] == o;
			if (!seen)
				sb->inodes[sb->n_inodes++] = o;
		}
		if (strstr(line, " key (")) {
			if (sscanf(line, " item %*u key (%" SCNu64 " INODE_REF %" SCNu64 ")", &ino,
				   &parent) != 2)
				ino = 0;
			continue;
		}
		name = strstr(line, " name: ");
		if (!ino || !name || !strstr(line, "index "))
			continue;
		if (n == cap) {
			struct ref *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv) {
				r = bo_err_set(err, ENOMEM, "reading the names of '%s'", dev);
				break;
			}
			v = nv;
		}
		v[n] = (struct ref){.ino = ino, .parent = parent};
		snprintf(v[n++].name, sizeof(v[0].name), "%s", name + 7);
		ino = 0;
	}
	bo_proc_result_clear(&res);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* The path of inode @ino from @refs into @buf ("" when it has none). */
static void path_of(const struct ref *refs, size_t n, uint64_t ino, char *buf, size_t len)
{
	const char *parts[PATH_DEPTH];
	unsigned depth = 0;

	buf[0] = '\0';
	while (ino != ROOT_DIR && depth < PATH_DEPTH) {
		const struct ref *f = NULL;

		for (size_t i = 0; i < n && !f; i++)
			if (refs[i].ino == ino)
				f = &refs[i];
		if (!f)
			return;
		parts[depth++] = f->name;
		ino = f->parent;
	}
	if (ino != ROOT_DIR)
		return;
	for (unsigned k = depth; k-- > 0;) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, "/%s", parts[k]);
	}
	if (!depth)
		snprintf(buf, len, "/");
}

/* The filesystem tree's root at the generation a written super block @sb commits: its root
 * tree (bytenr at byte 80) holds FS_TREE's ROOT_ITEM ("... bytenr X ..."); 0 when not found
 * (the block has been written over since). */
static uint64_t committed_fs_root(const char *dev, const unsigned char *sb, unsigned timeout_ms)
{
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	uint64_t root = 0, x = 0;
	char at[32], *p, *line;
	bool item = false;

	for (int k = 7; k >= 0; k--)
		root = root << 8 | sb[80 + k];
	snprintf(at, sizeof(at), "%" PRIu64, root);
	if (inspect("dump-tree", (const char *[]){"-b", at, NULL}, dev, timeout_ms, &res, &err) < 0)
		return 0;
	for (p = res.out; !x && (line = fsmap_next_line(&p));) {
		const char *b = strstr(line, " bytenr ");

		if (strstr(line, " key ("))
			item = strstr(line, "key (FS_TREE ROOT_ITEM ") != NULL;
		else if (item && b)
			x = strtoull(b + 8, NULL, 10);
	}
	bo_proc_result_clear(&res);
	return x;
}

int fsmap_btrfs(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
		struct bo_err *err)
{
	static const uint64_t supers[] = {64ull << 10, 64ull << 20, 256ull << 30};
	struct blk b[BO_FSMAP_MAX] = {0};
	struct chunk *chunks = NULL;
	struct ref *refs = NULL;
	size_t n_chunks = 0, n_refs = 0, sb = SIZE_MAX;
	uint64_t gen = 0, fs_root = 0;
	char at[32];
	bool any_extent = false, any_inode = false;
	int r = read_chunks(dev, timeout_ms, &chunks, &n_chunks, err);

	/* Step 1: each block's logical address. */
	for (size_t i = 0; r >= 0 && i < n; i++) {
		b[i].logical = UINT64_MAX;
		for (size_t s = 0; s < BO_ARRAY_SIZE(supers); s++)
			if (v[i].byte >= supers[s] && v[i].byte < supers[s] + 4096)
				snprintf(v[i].what, sizeof(v[i].what), "super block");
		/* A super block a write put there commits its generation: the trees written
		 * since the last (magic "_BHRfS_M" at byte 64, the generation at 72). */
		if (v[i].what[0] && v[i].data && !memcmp(v[i].data + 64, "_BHRfS_M", 8)) {
			gen = 0;
			for (int k = 7; k >= 0; k--)
				gen = gen << 8 | v[i].data[72 + k];
			snprintf(v[i].what, sizeof(v[i].what),
				 "super block, committing generation %" PRIu64, gen);
			b[i].root = FS_TREE;
			sb = i;
		}
		for (size_t c = 0; !v[i].what[0] && c < n_chunks && !b[i].c; c++)
			for (unsigned k = 0; k < chunks[c].n; k++)
				if (v[i].byte >= chunks[c].phys[k] &&
				    v[i].byte < chunks[c].phys[k] + chunks[c].length) {
					b[i].c = &chunks[c];
					b[i].logical =
						chunks[c].logical + v[i].byte - chunks[c].phys[k];
				}
		any_extent |= b[i].c != NULL;
		v[i].block = b[i].logical != UINT64_MAX ? b[i].logical : v[i].byte;
	}
	if (r >= 0 && any_extent)
		r = read_extents(dev, b, n, node_size(dev, timeout_ms), timeout_ms, err);
	for (size_t i = 0; r >= 0 && i < n; i++) {
		if (v[i].what[0])
			continue;
		if (!b[i].c) {
			snprintf(
				v[i].what, sizeof(v[i].what),
				"not mapped: in no chunk (the device's first MiB, or unallocated)");
			continue;
		}
		if (!b[i].root) {
			snprintf(v[i].what, sizeof(v[i].what), "%s, logical %" PRIu64 ", free",
				 b[i].c->type, b[i].logical);
			continue;
		}
		if (b[i].n_inodes) {
			snprintf(v[i].what, sizeof(v[i].what), "data");
			if (b[i].root != FS_TREE)
				snprintf(v[i].what, sizeof(v[i].what), "data of subvolume %" PRIu64,
					 b[i].root);
		} else {
			snprintf(v[i].what, sizeof(v[i].what),
				 "a tree block of %s (logical %" PRIu64 ")", b[i].owner,
				 b[i].start);
			if (b[i].root == FS_TREE)
				r = read_leaf(dev, &b[i], timeout_ms, err);
		}
		v[i].inode = b[i].n_inodes ? b[i].inodes[0] : 0;
		any_inode |= b[i].n_inodes && b[i].root == FS_TREE;
	}
	/* A committed generation is read in its own filesystem tree (the state has moved on
	 * since: the check's mount commits another); else the tree as it is. */
	if (r >= 0 && sb != SIZE_MAX)
		fs_root = committed_fs_root(dev, v[sb].data, timeout_ms);
	snprintf(at, sizeof(at), "%" PRIu64, fs_root);
	if (r >= 0 && (any_inode || gen))
		r = read_refs(dev,
			      fs_root ? (const char *[]){"-b", at, "--follow", NULL}
				      : (const char *[]){"-t", "fs", NULL},
			      gen, sb != SIZE_MAX ? &b[sb] : NULL, timeout_ms, &refs, &n_refs, err);
	for (size_t i = 0; r >= 0 && i < n; i++)
		for (unsigned k = 0; b[i].root == FS_TREE && k < b[i].n_inodes; k++) {
			char path[256];

			path_of(refs, n_refs, b[i].inodes[k], path, sizeof(path));
			if (path[0] && !strstr(v[i].path, path))
				fsmap_append_path(v[i].path, sizeof(v[i].path), path);
		}
	free(chunks);
	free(refs);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsmap_ext4.c — ext4's blocks named by debugfs (fsmap.h): icheck (block to inode), ncheck
 * (inode to path), the group table of stats for the blocks no inode owns (inode tables with
 * the inodes they hold, bitmaps), the group descriptors from the super block, and logdump for
 * a block of the journal (the blocks of the filesystem its transaction logs). A write of the
 * super block, or of the journal's super block, is read for what it turns on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/dev/fsmap_int.h"

/* Most inodes of inode table blocks whose paths are looked up, in all. */
#define TABLE_INODES_MAX 256

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 |
	       (uint32_t) p[3];
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
	       (uint32_t) p[3] << 24;
}

/* What ext4 needs of its super block: the block size, the inode tables' shape, where the
 * group descriptors are. */
struct ext4_geo {
	uint64_t block_size;
	uint32_t inodes_per_group, inode_size;
	uint64_t gdt_first, gdt_blocks;
};

static int ext4_geometry(const char *dev, struct ext4_geo *g, struct bo_err *err)
{
	unsigned char sb[1024];
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, sb, sizeof(sb), 1024);
	int e = errno;

	if (fd >= 0)
		close(fd);
	if (got != (ssize_t) sizeof(sb))
		return bo_err_set(err, got < 0 ? e : EIO, "reading the super block of '%s': %s",
				  dev, got < 0 ? strerror(e) : "short read");
	if (sb[56] != 0x53 || sb[57] != 0xef || le32(sb + 24) > 6)
		return bo_err_set(err, EINVAL, "'%s' holds no ext4 super block", dev);
	g->block_size = 1024ull << le32(sb + 24);
	g->inodes_per_group = le32(sb + 40);
	g->inode_size = le32(sb + 76) ? (uint32_t) sb[88] | (uint32_t) sb[89] << 8 : 128;
	if (!g->inodes_per_group || !g->inode_size || g->inode_size > g->block_size)
		return bo_err_set(err, EINVAL, "'%s': an ext4 super block of no inodes", dev);
	/* The descriptors follow the super block's block: 32 bytes each, or s_desc_size with
	 * the 64bit feature (0x80 of s_feature_incompat). */
	{
		uint64_t first = le32(sb + 20), blocks = le32(sb + 4), per = le32(sb + 32);
		uint64_t dsz = (le32(sb + 96) & 0x80) && (sb[254] | sb[255] << 8) >= 32
				       ? (uint64_t) (sb[254] | sb[255] << 8)
				       : 32;
		uint64_t groups = per && blocks > first ? (blocks - first + per - 1) / per : 0;

		g->gdt_first = first + 1;
		g->gdt_blocks = (groups * dsz + g->block_size - 1) / g->block_size;
	}
	return 0;
}

/* "debugfs -R CMD DEV", its output in @ret. */
static int debugfs(const char *dev, const char *cmd, unsigned timeout_ms,
		   struct bo_proc_result *ret, struct bo_err *err)
{
	const char *argv[] = {"debugfs", "-R", cmd, dev, NULL};

	return fsmap_run(argv, timeout_ms, ret, err);
}

/* A number after @key in @line ("inode table at 44"), or UINT64_MAX. */
static uint64_t number_after(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : UINT64_MAX;
}

/* Blocks no inode owns: the group table of `stats` says which are inode tables and bitmaps. */
static int ext4_metadata(const char *dev, const struct ext4_geo *g, struct bo_fsmap_block *v,
			 size_t n, unsigned timeout_ms, struct bo_err *err)
{
	uint64_t table_blocks =
		((uint64_t) g->inodes_per_group * g->inode_size + g->block_size - 1) /
		g->block_size;
	struct bo_proc_result res = {0};
	int r = debugfs(dev, "stats", timeout_ms, &res, err);

	for (char *cur = res.out, *line; r >= 0 && (line = fsmap_next_line(&cur));) {
		uint64_t group, bb, ib, it;

		if (sscanf(line, " Group %" SCNu64 ":", &group) != 1)
			continue;
		bb = number_after(line, "block bitmap at ");
		ib = number_after(line, "inode bitmap at ");
		it = number_after(line, "inode table at ");
		for (size_t i = 0; i < n; i++) {
			uint64_t b = v[i].block;

			if (v[i].what[0])
				continue;
			if (b == bb)
				snprintf(v[i].what, sizeof(v[i].what),
					 "block bitmap of group %" PRIu64, group);
			else if (b == ib)
				snprintf(v[i].what, sizeof(v[i].what),
					 "inode bitmap of group %" PRIu64, group);
			else if (it != UINT64_MAX && b >= it && b < it + table_blocks) {
				uint64_t per = g->block_size / g->inode_size;

				v[i].inode = group * g->inodes_per_group + (b - it) * per + 1;
				snprintf(v[i].what, sizeof(v[i].what),
					 "inode table (inodes %" PRIu64 "-%" PRIu64 ")", v[i].inode,
					 v[i].inode + per - 1);
			}
		}
	}
	bo_proc_result_clear(&res);
	for (size_t i = 0; r >= 0 && i < n; i++) {
		/* The super block a write put there: with needs_recovery (0x4 of
		 * s_feature_incompat) the mount replays the journal. */
		const unsigned char *sb = !v[i].data			       ? NULL
					  : v[i].block * g->block_size == 0    ? v[i].data + 1024
					  : v[i].block * g->block_size == 1024 ? v[i].data
									       : NULL;

		if (!v[i].what[0] && sb && sb[56] == 0x53 && sb[57] == 0xef)
			snprintf(v[i].what, sizeof(v[i].what), "super block, %s",
				 le32(sb + 96) & 0x4
					 ? "needs_recovery set: the mount replays the journal"
					 : "needs_recovery clear: the journal is not replayed");
	}
	for (size_t i = 0; r >= 0 && i < n; i++)
		if (!v[i].what[0])
			snprintf(v[i].what, sizeof(v[i].what), "%s",
				 v[i].block * g->block_size < 2048 ? "super block"
				 : v[i].block >= g->gdt_first &&
						 v[i].block < g->gdt_first + g->gdt_blocks
					 ? "group descriptors"
					 : "metadata (no inode owns it)");
	return r;
}

/* The paths of the inodes @v name (an inode table block: of all the inodes it holds). */
static int ext4_paths(const char *dev, const struct ext4_geo *g, struct bo_fsmap_block *v, size_t n,
		      unsigned timeout_ms, struct bo_err *err)
{
	const uint64_t per = g->block_size / g->inode_size;
	char cmd[8192] = "ncheck";
	struct bo_proc_result res = {0};
	unsigned asked = 0;
	int r;

	for (size_t i = 0; i < n; i++) {
		bool table = !strncmp(v[i].what, "inode table", 11);

		for (uint64_t k = 0; v[i].inode && k < (table ? per : 1); k++) {
			size_t used = strlen(cmd);

			if (asked >= TABLE_INODES_MAX || used + 24 >= sizeof(cmd))
				break;
			snprintf(cmd + used, sizeof(cmd) - used, " %" PRIu64, v[i].inode + k);
			asked++;
		}
	}
	if (!asked)
		return 0;
	r = debugfs(dev, cmd, timeout_ms, &res, err);
	for (char *cur = res.out, *line; r >= 0 && (line = fsmap_next_line(&cur));) {
		uint64_t ino;
		int at = 0;

		if (sscanf(line, "%" SCNu64 "\t%n", &ino, &at) != 1 || !at)
			continue;
		for (size_t i = 0; i < n; i++) {
			bool table = !strncmp(v[i].what, "inode table", 11);

			if (v[i].inode && ino >= v[i].inode &&
			    ino < v[i].inode + (table ? per : 1) &&
			    !strstr(v[i].path, fsmap_tidy_path(line + at)))
				fsmap_append_path(v[i].path, sizeof(v[i].path),
						  fsmap_tidy_path(line + at));
		}
	}
	bo_proc_result_clear(&res);
	return r;
}

/* icheck, the group table and ncheck for the blocks v[i].block of ext4 @g on @dev. */
static int ext4_map_blocks(const char *dev, const struct ext4_geo *g, struct bo_fsmap_block *v,
			   size_t n, unsigned timeout_ms, struct bo_err *err)
{
	char cmd[2048] = "icheck";
	struct bo_proc_result res = {0};
	int r;

	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(cmd);

		snprintf(cmd + used, sizeof(cmd) - used, " %" PRIu64, v[i].block);
	}
	r = debugfs(dev, cmd, timeout_ms, &res, err);
	for (char *cur = res.out, *line; r >= 0 && (line = fsmap_next_line(&cur));) {
		uint64_t b, ino;

		if (sscanf(line, "%" SCNu64 "\t%" SCNu64, &b, &ino) != 2)
			continue;
		for (size_t i = 0; i < n; i++)
			if (v[i].block == b && !v[i].inode) {
				v[i].inode = ino;
				/* Inodes 1 to 10 are reserved: 7 the resize inode, 8 the journal. */
				snprintf(v[i].what, sizeof(v[i].what), "%s",
					 ino == 8   ? "journal"
					 : ino == 7 ? "reserved group descriptors"
					 : ino == 2 ? "root directory"
						    : "data");
			}
	}
	bo_proc_result_clear(&res);
	if (r >= 0)
		r = ext4_metadata(dev, g, v, n, timeout_ms, err);
	if (r >= 0)
		r = ext4_paths(dev, g, v, n, timeout_ms, err);
	return r;
}

/* Most blocks of the filesystem one journal block names (a commit names its transaction's). */
#define JOURNAL_TARGETS 4

/* What a block of the journal holds, from logdump: a logged copy of a block of the filesystem,
 * or a descriptor or commit block of a transaction (then the blocks it logs). */
struct journal_block {
	uint64_t j;	  /* the block's number inside the journal, or UINT64_MAX */
	uint64_t seq;	  /* its transaction, or UINT64_MAX when logdump did not see it */
	bool copy;	  /* a logged copy of target[0] */
	const char *kind; /* "descriptor", "commit", "revoke" */
	uint64_t target[JOURNAL_TARGETS];
	unsigned n_target;
};

/* Inside the journal (inode 8): the number of physical block @b, from `stat <8>`'s extents
 * ("(0-4095):16385-20480"), or UINT64_MAX. */
static uint64_t journal_logical(const char *stat, uint64_t b)
{
	for (const char *p = stat ? strchr(stat, '(') : NULL; p; p = strchr(p + 1, '(')) {
		uint64_t l0, l1, p0, p1;

		if (sscanf(p, "(%" SCNu64 "-%" SCNu64 "):%" SCNu64 "-%" SCNu64, &l0, &l1, &p0,
			   &p1) == 4) {
			if (b >= p0 && b <= p1)
				return l0 + (b - p0);
		} else if (sscanf(p, "(%" SCNu64 "):%" SCNu64, &l0, &p0) == 2 && b == p0) {
			return l0;
		}
	}
	return UINT64_MAX;
}

/* Read logdump -aO (every transaction the journal still holds, old ones too) for @jb. */
static void journal_read(const char *out, struct journal_block *jb, size_t n)
{
	uint64_t seq = UINT64_MAX;

	for (const char *line = out; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		uint64_t a, b;
		char kind[32];

		if (sscanf(line,
			   "Dumping descriptor block, sequence %" SCNu64 ", at block %" SCNu64, &a,
			   &b) == 2) {
			seq = a;
			for (size_t i = 0; i < n; i++)
				if (jb[i].j == b) {
					jb[i].seq = a;
					jb[i].kind = "descriptor";
				}
		} else if (sscanf(line,
				  "Found expected sequence %" SCNu64
				  ", type %*u (%31[a-z ]) at block %" SCNu64,
				  &a, kind, &b) == 3) {
			for (size_t i = 0; i < n; i++)
				if (jb[i].j == b && !strncmp(kind, "commit", 6)) {
					jb[i].seq = a;
					jb[i].kind = "commit";
				} else if (jb[i].j == b && !strncmp(kind, "revoke", 6)) {
					jb[i].seq = a;
					jb[i].kind = "revoke";
				}
		} else if (sscanf(line, "  FS block %" SCNu64 " logged at journal block %" SCNu64,
				  &a, &b) == 2) {
			for (size_t i = 0; i < n; i++) {
				if (jb[i].j == b) {
					jb[i].seq = seq;
					jb[i].copy = true;
					jb[i].target[0] = a;
					jb[i].n_target = 1;
				}
				/* A descriptor or commit: the blocks of its transaction; the
				 * super block: of the transactions from its s_sequence on. */
				if (!jb[i].copy && seq != UINT64_MAX &&
				    jb[i].n_target < JOURNAL_TARGETS &&
				    (jb[i].kind && !strcmp(jb[i].kind, "super") ? seq >= jb[i].seq
										: jb[i].seq == seq))
					jb[i].target[jb[i].n_target++] = a;
			}
		}
	}
}

/*
 * Blocks of the journal: the blocks of the filesystem they log, mapped in turn. A commit
 * block's transaction is read before it; its blocks named once it is known.
 */
static int ext4_journal(const char *dev, const struct ext4_geo *g, struct bo_fsmap_block *v,
			size_t n, unsigned timeout_ms, struct bo_err *err)
{
	struct journal_block jb[BO_FSMAP_MAX];
	struct bo_fsmap_block sub[BO_FSMAP_MAX];
	struct bo_proc_result st = {0}, ld = {0};
	size_t n_sub = 0;
	bool any = false;
	int r;

	for (size_t i = 0; i < n; i++)
		any |= v[i].inode == 8;
	if (!any)
		return 0;
	r = debugfs(dev, "stat <8>", timeout_ms, &st, err);
	if (r >= 0)
		r = debugfs(dev, "logdump -aO", timeout_ms, &ld, err);
	for (size_t i = 0; i < n; i++) {
		jb[i] = (struct journal_block){
			.j = r >= 0 && v[i].inode == 8 ? journal_logical(st.out, v[i].block)
						       : UINT64_MAX,
			.seq = UINT64_MAX,
		};
		/* The journal's super block: replay starts at its s_sequence (jbd2's header and
		 * fields are big-endian: magic 0xc03b3998, s_sequence at byte 24). */
		if (jb[i].j == 0 && v[i].data && be32(v[i].data) == 0xc03b3998u) {
			jb[i].kind = "super";
			jb[i].seq = be32(v[i].data + 24);
		}
	}
	if (r >= 0)
		journal_read(ld.out, jb, n);
	/* A commit's transaction: its descriptor's blocks, met before the commit. */
	for (size_t i = 0; r >= 0 && i < n; i++)
		for (size_t k = 0; k < jb[i].n_target && n_sub < BO_FSMAP_MAX; k++)
			sub[n_sub++] = (struct bo_fsmap_block){.block = jb[i].target[k]};
	if (r >= 0 && n_sub)
		r = ext4_map_blocks(dev, g, sub, n_sub, timeout_ms, err);
	for (size_t i = 0, s = 0; r >= 0 && i < n; i++) {
		char *what = v[i].what;
		size_t len = sizeof(v[i].what);
		int k;

		if (jb[i].j == UINT64_MAX)
			continue;
		/* The target's own name may not fit: what is cut is the end of it. */
		if (jb[i].copy)
			k = snprintf(what, len,
				     "journal block %" PRIu64 ": transaction %" PRIu64
				     "'s copy of block %" PRIu64 ", %s",
				     jb[i].j, jb[i].seq, jb[i].target[0], sub[s].what);
		else if (jb[i].kind && !strcmp(jb[i].kind, "super"))
			k = snprintf(
				what, len,
				"the journal's super block: replay starts at transaction %" PRIu64,
				jb[i].seq);
		else if (jb[i].kind)
			k = snprintf(what, len,
				     "journal block %" PRIu64
				     ": the %s block of transaction %" PRIu64,
				     jb[i].j, jb[i].kind, jb[i].seq);
		else
			k = snprintf(what, len,
				     "journal block %" PRIu64 " (no transaction holds it now)",
				     jb[i].j);
		if (k >= (int) len)
			memcpy(what + len - 4, "...", 4);
		for (size_t t = 0; t < jb[i].n_target && s < n_sub; t++, s++)
			if (sub[s].path[0])
				fsmap_append_path(v[i].path, sizeof(v[i].path), sub[s].path);
	}
	bo_proc_result_clear(&st);
	bo_proc_result_clear(&ld);
	return r;
}

int fsmap_ext4(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
	       struct bo_err *err)
{
	struct ext4_geo g;
	int r = ext4_geometry(dev, &g, err);

	for (size_t i = 0; r >= 0 && i < n; i++)
		v[i].block = v[i].byte / g.block_size;
	if (r >= 0)
		r = ext4_map_blocks(dev, &g, v, n, timeout_ms, err);
	if (r >= 0)
		r = ext4_journal(dev, &g, v, n, timeout_ms, err);
	return r;
}

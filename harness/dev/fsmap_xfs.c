// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsmap_xfs.c — xfs's blocks named by xfs_db (fsmap.h): blockget -n, then blockuse -n per
 * block (its type, inode and path); for a block of the log, xfs_logprint -t names the inodes
 * of the record it starts, and xfs_db ncheck their paths.
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

/* xfs_db's blockuse for each block: its type, inode and path. */
static int xfs_blocks(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
		      struct bo_err *err)
{
	const char *argv[7 + 4 * BO_FSMAP_MAX] = {"xfs_db", "-r"};
	char daddr[BO_FSMAP_MAX][40];
	struct bo_proc_result res = {0};
	struct stat st;
	size_t a = 2, k = 0;
	int r;

	/* An image file, not a device: xfs_db wants to be told. */
	if (stat(dev, &st) == 0 && S_ISREG(st.st_mode))
		argv[a++] = "-f";
	argv[a++] = "-c";
	argv[a++] = "blockget -n";

	for (size_t i = 0; i < n; i++) {
		snprintf(daddr[i], sizeof(daddr[i]), "daddr %" PRIu64, v[i].byte / 512);
		argv[a++] = "-c";
		argv[a++] = daddr[i];
		argv[a++] = "-c";
		argv[a++] = "blockuse -n";
	}
	argv[a++] = dev;
	argv[a] = NULL;
	r = fsmap_run(argv, timeout_ms, &res, err);
	/* "block 1234 (0/1234) type data inode 131 d/f7", one line per blockuse, in order. */
	for (char *cur = res.out, *line; r >= 0 && k < n && (line = fsmap_next_line(&cur));) {
		char type[32];
		unsigned ag, agb;
		int at = 0;

		if (sscanf(line, "block %" SCNu64 " (%u/%u) type %31s%n", &v[k].block, &ag, &agb,
			   type, &at) != 4)
			continue;
		snprintf(v[k].what, sizeof(v[k].what), "%s",
			 !strcmp(type, "log")	  ? "journal"
			 : !strcmp(type, "inode") ? "inode cluster"
						  : type);
		const char *rest = line + at;
		int at2 = 0;

		if (sscanf(rest, " inode %" SCNu64 "%n", &v[k].inode, &at2) == 1 && at2) {
			const char *p = rest + at2 + strspn(rest + at2, " ");

			if (*p)
				snprintf(v[k].path, sizeof(v[k].path), "%s%s", *p == '/' ? "" : "/",
					 p);
		}
		k++;
	}
	if (r >= 0 && k < n)
		fsmap_not_mapped(v + k, n - k, "xfs_db", res.out ? res.out : "");
	bo_proc_result_clear(&res);
	return r;
}

/* Most inodes of one log record named. */
#define XFS_LOG_INODES 8

/*
 * A block of xfs's log: the inodes its log record holds (xfs_logprint -t from the record at
 * that block of the log), then their paths (xfs_db ncheck). A block inside a record, not at
 * its start, names none.
 */
static int xfs_log(const char *dev, struct bo_fsmap_block *b, unsigned timeout_ms,
		   struct bo_err *err)
{
	static const char rec[] = "LOG REC AT LSN cycle ";
	struct bo_proc_result lp = {0}, nc = {0};
	const char *argv[40] = {"xfs_logprint", "-t", "-s"};
	char start[32], cvt[64], ino_arg[XFS_LOG_INODES][32];
	uint64_t logstart = UINT64_MAX, inodes[XFS_LOG_INODES];
	unsigned n = 0;
	const char *p;
	size_t a;
	int r;

	/* The log's first sector: its first block (logstart), converted by xfs_db. */
	{
		const char *sb[] = {"xfs_db", "-r", "-c", "sb 0", "-c", "p logstart", dev, NULL};
		const char *cv[] = {"xfs_db", "-r", "-c", cvt, dev, NULL};

		r = fsmap_run(sb, timeout_ms, &lp, err);
		p = r >= 0 && lp.out ? strstr(lp.out, "logstart = ") : NULL;
		snprintf(cvt, sizeof(cvt), "convert fsblock %" PRIu64 " daddr",
			 p ? (uint64_t) strtoull(p + 11, NULL, 10) : 0);
		bo_proc_result_clear(&lp);
		if (p)
			r = fsmap_run(cv, timeout_ms, &lp, err);
		/* "0x50030 (327728)" */
		p = p && r >= 0 && lp.out ? strchr(lp.out, '(') : NULL;
		if (p)
			logstart = strtoull(p + 1, NULL, 10);
		bo_proc_result_clear(&lp);
	}
	if (r < 0 || logstart == UINT64_MAX || b->byte / 512 < logstart)
		return r;
	snprintf(start, sizeof(start), "%" PRIu64, b->byte / 512 - logstart);
	argv[3] = start;
	argv[4] = dev;
	r = fsmap_run(argv, timeout_ms, &lp, err);
	p = r >= 0 && lp.out ? strstr(lp.out, rec) : NULL;
	/* The record's inodes, until the next record. */
	if (p && strstr(p, " block ") &&
	    strtoull(strstr(p, " block ") + 7, NULL, 10) == b->byte / 512 - logstart) {
		const char *end = strstr(p + 1, rec);

		for (const char *q = strstr(p, "ino:0x");
		     q && (!end || q < end) && n < XFS_LOG_INODES; q = strstr(q + 1, "ino:0x")) {
			uint64_t ino = strtoull(q + 6, NULL, 16);
			bool seen = false;

			for (unsigned k = 0; k < n; k++)
				seen |= inodes[k] == ino;
			if (!seen)
				inodes[n++] = ino;
		}
	}
	bo_proc_result_clear(&lp);
	if (r < 0 || !n)
		return r;
	snprintf(b->what, sizeof(b->what), "journal: a log record of inode%s", n > 1 ? "s" : "");
	for (unsigned k = 0; k < n; k++) {
		size_t used = strlen(b->what);

		snprintf(b->what + used, sizeof(b->what) - used, "%s %" PRIu64, k ? "," : "",
			 inodes[k]);
	}
	b->inode = inodes[0];
	a = 0;
	argv[a++] = "xfs_db";
	argv[a++] = "-r";
	argv[a++] = "-c";
	argv[a++] = "blockget -n";
	for (unsigned k = 0; k < n; k++) {
		snprintf(ino_arg[k], sizeof(ino_arg[k]), "ncheck -i %" PRIu64, inodes[k]);
		argv[a++] = "-c";
		argv[a++] = ino_arg[k];
	}
	argv[a++] = dev;
	argv[a] = NULL;
	r = fsmap_run(argv, timeout_ms, &nc, err);
	/* "      131 d1/f7" */
	for (char *cur = nc.out, *line; r >= 0 && (line = fsmap_next_line(&cur));) {
		uint64_t ino;
		int off = 0;

		if (sscanf(line, " %" SCNu64 " %n", &ino, &off) == 1 && off && line[off]) {
			char path[256];

			size_t len;

			snprintf(path, sizeof(path), "/%s", line + off);
			/* A directory is named by its "." entry: "d0/.". */
			len = strlen(path);
			if (len > 2 && !strcmp(path + len - 2, "/."))
				path[len - 2] = '\0';
			if (!strstr(b->path, path))
				fsmap_append_path(b->path, sizeof(b->path), path);
		}
	}
	bo_proc_result_clear(&nc);
	return r;
}

int fsmap_xfs(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
	      struct bo_err *err)
{
	int r = xfs_blocks(dev, v, n, timeout_ms, err);

	for (size_t i = 0; r >= 0 && i < n; i++)
		if (!strcmp(v[i].what, "journal"))
			r = xfs_log(dev, &v[i], timeout_ms, err);
	return r;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsmap_int.h — what the readers of fsmap.h share: one file per filesystem's tools
 * (fsmap_ext4.c: debugfs; fsmap_xfs.c: xfs_db, xfs_logprint; fsmap_btrfs.c: btrfs
 * inspect-internal), each parsing its tool's output line by line, which fsmap.c picks from,
 * and the helpers they share (fsmap_util.c).
 */
#ifndef BO_FSMAP_INT_H
#define BO_FSMAP_INT_H

#include <stddef.h>

#include "harness/base/proc.h"
#include "harness/dev/fsmap.h"

/* Run the tool @argv (argv[0] looked up in PATH, LC_ALL=C, killed after @timeout_ms), its
 * output (stderr merged, up to 4 MiB) in @ret. -errno when it could not be run. */
_must_check_ int fsmap_run(const char *const *argv, unsigned timeout_ms, struct bo_proc_result *ret,
			   struct bo_err *err);

/* Blocks @v (@n) the tool said nothing about: "not mapped: TOOL: its first line". */
void fsmap_not_mapped(struct bo_fsmap_block *v, size_t n, const char *tool, const char *out);

/* Append path @s to @buf (of @len), comma-separated; "..." once it is full. */
void fsmap_append_path(char *buf, size_t len, const char *s);

/* The next line of a tool's output at *@p, NUL-terminated in place, *@p moved past it; NULL
 * at the end. */
char *fsmap_next_line(char **p);

/* @p without the leading "/" debugfs doubles ("//f7"). */
const char *fsmap_tidy_path(const char *p);

/* The readers: every block of @v mapped, or "not mapped: why"; -errno as bo_fsmap(). */
_must_check_ int fsmap_ext4(const char *dev, struct bo_fsmap_block *v, size_t n,
			    unsigned timeout_ms, struct bo_err *err);
_must_check_ int fsmap_xfs(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
			   struct bo_err *err);
_must_check_ int fsmap_btrfs(const char *dev, struct bo_fsmap_block *v, size_t n,
			     unsigned timeout_ms, struct bo_err *err);

#endif

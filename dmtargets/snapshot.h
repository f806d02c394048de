/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot.h — the dm-snapshot target (drivers/md/dm-snap.c), non-persistent CoW only.
 *
 *   table   0 <sectors> snapshot <origin> <cow> N <chunk sectors>
 *   status  <used sectors>/<total sectors> <metadata sectors>
 *           | Invalid | Overflow | Merge failed | Unknown
 *
 * Every crash state is checked on such a snapshot of the replay device, so the check's own
 * writes (journal recovery, fsck) land on the CoW device and never on the replay device. When
 * the CoW device fills up, the kernel invalidates the snapshot ("Invalid": every I/O fails
 * from then on), which must be told apart from a filesystem that is simply broken.
 */
#ifndef BO_SNAPSHOT_H
#define BO_SNAPSHOT_H

#include <stdint.h>

#include "harness/base/util.h"

/* 8 sectors: 4 KiB chunks, the filesystem block size of every scenario. */
#define BO_SNAP_DEFAULT_CHUNK 8u

enum bo_snap_state {
	BO_SNAP_VALID,	      /* usage numbers are set */
	BO_SNAP_INVALID,      /* the kernel dropped the snapshot: CoW full or an I/O error */
	BO_SNAP_OVERFLOW,     /* CoW full, snapshot kept but further writes fail */
	BO_SNAP_MERGE_FAILED, /* only for snapshot-merge, which blackout does not use */
	BO_SNAP_UNKNOWN,      /* the exception store reports no usage */
};

/* What snapshot_status() reports (STATUSTYPE_INFO). */
struct bo_snap_status {
	enum bo_snap_state state;
	uint64_t used_sectors;	   /* of the CoW device */
	uint64_t total_sectors;	   /* size of the CoW device */
	uint64_t metadata_sectors; /* 0 for a non-persistent store */
};

/*
 * Build "0 @sectors snapshot @origin @cow N @chunk" into *@ret (free()). @chunk is in sectors
 * and must be a power of two (BO_SNAP_DEFAULT_CHUNK is 4 KiB); @sectors must be the origin's
 * size, > 0.
 */
_must_check_ int bo_snap_table(uint64_t sectors, const char *origin, const char *cow,
			       uint32_t chunk, char **ret, struct bo_err *err);

/* Parse a snapshot status string; -EPROTO with @err quoting @params when it is malformed. */
_must_check_ int bo_snap_status_parse(const char *params, struct bo_snap_status *ret,
				      struct bo_err *err);

/* Read and parse the status of snapshot device @name. */
_must_check_ int bo_snap_status(const char *name, struct bo_snap_status *ret, struct bo_err *err);

/*
 * Fail (-ENOSPC) when @st says the snapshot @name is no longer usable (Invalid, Overflow,
 * Merge failed), with a message that says the CoW device is the cause, not the filesystem.
 */
_must_check_ int bo_snap_status_check(const char *name, const struct bo_snap_status *st,
				      struct bo_err *err);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mntarea.h — where the filesystems of a run are mounted: BO_MNT_ROOT, the same path for the
 * recording and for every crash state's probe, in every command (run, check, reproduce,
 * shrink, across kernels, in place). A daemon that stored an absolute path while the workload
 * ran (PostgreSQL's pg_wal link to another device, a tablespace, a config naming its data
 * directory) finds it again in each crash state, as it would after a real power cut
 * (docs/checkers.md, "Where a state is mounted").
 *
 * The area is a tmpfs of the run mounted on BO_MNT_ROOT (its source "blackout-<run-id>"),
 * so that the mount points of several devices (BO_MNT_ROOT/NAME) live and go with it; a
 * state's filesystem is mounted on it (one device) or in it (several), and it only ever
 * holds the filesystems of the state being probed or the workload being recorded. In a VM it
 * is the VM's own; in place, a lock on BO_MNT_LOCK lets one run at a time have it.
 */
#ifndef BO_MNTAREA_H
#define BO_MNTAREA_H

#include <stdbool.h>

#include "harness/base/mounts.h"
#include "harness/base/util.h"
#include "harness/dev/teardown.h"

#define BO_MNT_ROOT BO_FIXED_DIR "/mnt"
#define BO_MNT_LOCK BO_FIXED_DIR "/lock"

/*
 * Make the area of run @runid: BO_MNT_ROOT created if missing, the lock taken (-EBUSY when
 * another run holds it, naming it), nothing mounted there yet (-EBUSY naming what is: a
 * killed run's leftovers, for `blackout cleanup --run ID`), its tmpfs mounted and put on @td,
 * the lock released with it.
 */
_must_check_ int bo_mnt_area_setup(const char *runid, struct bo_teardown *td, struct bo_err *err);

/* Whether @path is BO_MNT_ROOT or lies under it. */
bool bo_mnt_area_holds(const char *path);

/* Whether @m is the area of run @runid: its tmpfs on BO_MNT_ROOT. */
bool bo_mnt_area_of(const struct bo_mount_entry *m, const char *runid);

/*
 * The mounts of run @runid's area, its own tmpfs and what is mounted on it, in the mount
 * table's order (the area first) into a NULL-terminated array of their mount points (free
 * with bo_strv_free()); empty when the area is not mounted or is another run's.
 */
_must_check_ int bo_mnt_area_mounts(const char *runid, char ***ret, struct bo_err *err);

#endif

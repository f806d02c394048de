// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explore_int.h — what explore.c, which walks the states of a log, and explore_state.c, which
 * checks one of them, share. Internal to the exploration.
 */
#ifndef BO_EXPLORE_INT_H
#define BO_EXPLORE_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmtargets/dm.h"
#include "harness/states/crashgen.h"
#include "harness/explore/explore.h"
#include "harness/dev/loop.h"
#include "harness/states/oracle.h"
#include "harness/replay/replay.h"
#include "harness/dev/teardown.h"
#include "harness/base/sha256.h"

/* 4 KiB CoW chunks: small enough that a mount's metadata writes copy little. */
#define SNAP_CHUNK 8u
/*
 * The CoW store of a state holds what its mount, recovery and checker write, mostly far less
 * than the device (under 200 KiB for the states of scripts/bench-scale). dm-snapshot sizes its
 * exception hash by the CoW device (one bucket per chunk, up to 2 MiB of buckets), made and
 * walked at every table swap: under TCG a 1 GiB store swaps in 7 ms, a 256 MiB one in 3.3, a
 * 32 MiB one a millisecond less again. So the stores start at COW_SMALL; a state that fills
 * one is checked again on a store as big as the device, and the two small stores then grow
 * fourfold (grow_cow()), so that a workload whose states write more retries a few times, not
 * at every state.
 */
#define COW_SMALL (32ull << 20)
enum { COW_A, COW_B, COW_BIG, COW_N };

struct explore {
	const struct bo_log *log;
	const struct bo_explore_opts *o;
	struct bo_results *res;
	struct bo_summary *sum;
	enum bo_fs fs;
	struct bo_ops ops;
	struct bo_replay *replay; /* NULL with a host base */
	bool host_base;		  /* the base is the host base's device (x->base) */
	bool base_trim;		  /* ... cut to the image's size by a linear device */
	int base_port;		  /* the host base's port, or -1 */
	bool base_pending;	  /* a request to the host base awaits its answer */
	uint64_t base_target;	  /* the entries it asked for */
	char origin[PATH_MAX]; /* the device under every snapshot: the base loop or the host base */
	uint64_t sectors;      /* of the data device, in 512-byte sectors */
	char base[PATH_MAX], cow[COW_N][PATH_MAX], mnt[PATH_MAX];
	char issued[PATH_MAX], acked[PATH_MAX];
	struct bo_loop_dev base_loop, cow_loop[COW_N];
	/* The loops under every state, and the snapshot device the states are checked on. */
	struct bo_teardown *td;
	struct bo_err *down_err; /* where unwinding reports its first failure */
	int down_first;
	char snap[BO_DM_NAME_MAX], snap_uuid[BO_DM_UUID_MAX], snap_dev[PATH_MAX];
	/*
	 * One snapshot device serves every state; each state gets a fresh snapshot table on it,
	 * the base loop under one of the CoW loops (fresh_snapshot()): COW_A and COW_B in turn,
	 * COW_BIG (as big as the device; only when the others are smaller) for a state that
	 * filled one of them. snap_table[i] uses cow[i]; snap_cur is the CoW of the table live
	 * now, when snap_live.
	 */
	char *snap_table[COW_N];
	int cow_fd[COW_N];
	int claim_fd; /* o->claim_dir, or -1 */
	unsigned n_cow;
	uint64_t cow_small; /* the size of COW_A and COW_B now */
	unsigned snap_cur;
	bool snap_live;
};

/* What one check saw, for the record and the by-products. */
struct state_run {
	char id[BO_CRASH_ID_MAX];
	uint64_t applied;
	const struct bo_crash_state *cs; /* a generated state, built on a snapshot; or NULL */
	struct bo_observation obs;
	struct bo_checker_report report;
	struct bo_verdict verdict;
	bool have_report, have_verdict;
	char harness_msg[512];
	char mount_msg[512];
	char *fsck_out;
	char *checker_out;
	char *checker_err;
	char checker_how[128];
	char *dmesg;
	double seconds;
	double t_replay; /* rolling the base forward to this state (naive: from entry 0) */
	double t_snap, t_mount, t_checker, t_umount, t_fsck; /* where the time went */
	double t_drop; /* after fsck: the snapshot's status, emptying its CoW, the kernel log */
	char sha256[BO_SHA256_HEX]; /* of the image, when asked */
	bool cow_full;		    /* the state's CoW store filled up: its results say nothing */
	bool cow_retry; /* so it was checked again on a CoW store as big as the device */
};

/* The loops, the CoW stores, the mount point and the base image of an exploration, and
 * their undoing. */
int explore_setup(struct explore *x, struct bo_err *err);
int explore_teardown(struct explore *x, struct bo_err *err);

/* The record of checked state @s, of class @c, in stream.jsonl (explore_record.c). */
int explore_record_state(struct explore *x, struct state_run *s, enum bo_class c,
			 struct bo_err *err);

/* The by-products of state @s under states/<id>/, for a state that is not consistent. */
int explore_write_byproducts(struct explore *x, struct state_run *s, enum bo_class c,
			     struct bo_err *err);

/* Check state @s, classify it, count it and record it with its by-products; *@ret_class
 * is its class. Returns -errno when the exploration cannot go on. */
int explore_check_and_record(struct explore *x, struct state_run *s, enum bo_class *ret_class,
			     struct bo_err *err);

/* Use the host base of x->o when it fits (x->base, x->origin, x->base_port); 1 when it is
 * used, 0 when the base is to be a file replayed here, -errno. */
int explore_use_host_base(struct explore *x, struct bo_err *err);

/*
 * Bring the base to @applied entries: by replaying here, or by asking the host. The host's
 * answer is awaited by explore_replay_wait(), which check_state_on() calls once the snapshot
 * swap, which does not read the base, is done: the guest swaps while the host replays.
 */
int explore_replay_start(struct explore *x, uint64_t applied, struct bo_err *err);
int explore_replay_wait(struct explore *x, struct bo_err *err);

/* Read ahead the log data up to @applied entries (bo_replay_prefetch()); the host base reads
 * ahead on its own. */
void explore_replay_prefetch(struct explore *x, uint64_t applied);

#endif

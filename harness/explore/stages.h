// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stages.h — the check loop of an exploration as a pipeline, one file per stage, called in
 * this order by explore.c for every crash state:
 *
 *   1. select.c    which states: cut points or generated states, their aliases, this shard's
 *   2. base.c      bring the base (the device every state is a snapshot of) to the state's cut
 *                  or epoch start: replayed here, or by the host (harness/replay/basesrv.h)
 *   3. snapshot.c  make the state: a fresh snapshot of the base, the epoch's writes applied
 *                  on it for a generated state; afterwards its status, and its CoW store
 *                  given back
 *   4. probe.c     what the state does: mount (recovery), the checker, umount, fsck, with the
 *                  kernel's messages of that state alone
 *   5. judge.c     the checker's report against the log's ops (the oracle), and the class
 *   6. save.c      the state's record in stream.jsonl, its by-products under states/<id>/
 *
 * recovery.c adds a level (--recovery-crashes): the probe of a state runs on a dm-log-writes
 * device over its snapshot, so that its recovery's writes are logged; a state consistent after
 * it gets states cut inside that recovery, each made again (stage 3), its recovery's writes up
 * to the cut applied, and taken through stages 4 to 6 as "<id>~r<K>".
 *
 * witness.c adds trials (--witness N): a failing state's minimal witness, the fewest writes
 * whose absence keeps it failing, found by delta debugging over states made like generated
 * ones (stage 3) and taken through stages 4 and 5, never recorded; then what each write is.
 *
 * bench.c holds the hidden modes of scripts/bench-scale (BO_BENCH_NAIVE replaces stages 2
 * and 3 with the fstests way; BO_BENCH_FLOOR times only stage 4). Stages share the struct
 * explore (what every state uses) and the struct state_run (what one check saw).
 *
 * makeprobe.c is stages 3 and 4 as one step, for explore.c and witness.c; state.c is what
 * every stage takes from below it (a state marked failed, its findings freed, a device kept
 * on the teardown stack). The calls run one way: explore.c to the levels (recovery.c,
 * witness.c) and the stages, those to the stages they take a state through and to state.c,
 * which calls none; nothing calls back into explore.c.
 */
#ifndef BO_EXPLORE_STAGES_H
#define BO_EXPLORE_STAGES_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmtargets/dm.h"
#include "harness/base/sha256.h"
#include "harness/dev/fsmap.h"
#include "harness/dev/kmsg.h"
#include "harness/dev/loop.h"
#include "harness/dev/teardown.h"
#include "harness/explore/explore.h"
#include "harness/replay/replay.h"
#include "harness/states/classify.h"
#include "harness/states/crashgen.h"
#include "harness/states/oracle.h"

/* 4 KiB CoW chunks: small enough that a mount's metadata writes copy little. */
#define SNAP_CHUNK 8u
/*
 * The CoW store of a state holds what its mount, recovery and checker write, mostly far less
 * than the device (under 200 KiB for the states of scripts/bench-scale). dm-snapshot sizes its
 * exception hash by the CoW device (one bucket per chunk, up to 2 MiB of buckets), made and
 * walked at every table swap: under TCG a 1 GiB store swaps in 7 ms, a 256 MiB one in 3.3, a
 * 32 MiB one a millisecond less again. So the stores start at COW_SMALL; a state that fills
 * one is checked again on a store as big as the device, and the two small stores then grow
 * fourfold (snapshot_grow()), so that a workload whose states write more retries a few times,
 * not at every state.
 */
#define COW_SMALL (32ull << 20)
enum { COW_A, COW_B, COW_BIG, COW_N };

/* What every state of an exploration uses: set up before the first, undone after the last. */
struct explore {
	const struct bo_log *log;
	const struct bo_explore_opts *o;
	struct bo_results *res;
	struct bo_summary *sum;
	enum bo_fs fs;
	struct bo_ops ops; /* the log's issue: and ack: marks, for the oracle and the checker */
	uint64_t sectors;  /* of the data device, in 512-byte sectors */
	/* The loops, the snapshot device and the linear trim of a host base, undone in
	 * reverse by explore_teardown(); where it reports its first failure. */
	struct bo_teardown *td;
	struct bo_err *down_err;
	int down_first;

	/* 2. The base (base.c). */
	struct bo_replay *replay; /* NULL with a host base */
	bool host_base;		  /* the base is the host base's device (base[]) */
	bool base_trim;		  /* ... cut to the image's size by a linear device */
	int base_port;		  /* the host base's port, or -1 */
	bool base_pending;	  /* a request to the host base awaits its answer */
	uint64_t base_target;	  /* the entries it asked for */
	char base[PATH_MAX];	  /* the base image, or the host base's device */
	char origin[PATH_MAX];	  /* the device under every snapshot: the base loop or base[] */
	struct bo_loop_dev base_loop;

	/* 3. The snapshot (snapshot.c). One snapshot device serves every state; each state gets
	 * a fresh snapshot table on it, the base under one of the CoW loops: COW_A and COW_B in
	 * turn, COW_BIG (as big as the device; only when the others are smaller) for a state
	 * that filled one of them. snap_table[i] uses cow[i]; snap_cur is the CoW of the table
	 * live now, when snap_live. */
	char snap[BO_DM_NAME_MAX], snap_uuid[BO_DM_UUID_MAX], snap_dev[PATH_MAX];
	char cow[COW_N][PATH_MAX];
	struct bo_loop_dev cow_loop[COW_N];
	char *snap_table[COW_N];
	int cow_fd[COW_N];
	unsigned n_cow;
	uint64_t cow_small; /* the size of COW_A and COW_B now */
	unsigned snap_cur;
	bool snap_live;

	/* Several devices (o->layout): one dm-linear each on the snapshot device, made with it
	 * (snapshot.c) and swapped along with it; parts 0 without a layout. */
	unsigned n_parts;
	char part[BO_LAYOUT_MAX][BO_DM_NAME_MAX], part_uuid[BO_LAYOUT_MAX][BO_DM_UUID_MAX];
	char part_dev[BO_LAYOUT_MAX][PATH_MAX];
	/* Each part's filesystem's other devices (its journal, the devices it spans), over
	 * part_dev: made with them, the same for every state. */
	struct bo_fs_devs part_devs[BO_LAYOUT_MAX];
	unsigned parts_kept; /* on the teardown stack, above the snapshot */

	/* 4. The probe (probe.c): the mount point (with several devices, the directory of
	 * theirs, part_mnt) and the checker's op files. */
	char mnt[PATH_MAX], issued[PATH_MAX], acked[PATH_MAX];
	char part_mnt[BO_LAYOUT_MAX][PATH_MAX];
	enum bo_fs part_fs[BO_LAYOUT_MAX];
	bool part_raw[BO_LAYOUT_MAX];
	/* With recovery AUTO: whether each filesystem (parts 0 without a layout) was last seen
	 * with a journal (1), without (0), or not yet (-1), for a state whose super block says
	 * nothing. */
	int part_journal[BO_LAYOUT_MAX];

	/* Recovery crashes (recovery.c): the log-writes device a state's probe runs on, over the
	 * snapshot, and its log, a sparse file on a loop; rec_only: a second-level state checked
	 * alone (its K), else UINT64_MAX. */
	bool rec;
	char rec_file[PATH_MAX];
	int rec_fd;
	struct bo_loop_dev rec_loop;
	char rec_dm[BO_DM_NAME_MAX], rec_uuid[BO_DM_UUID_MAX], rec_dev[PATH_MAX];
	bool rec_live;
	uint64_t rec_only;

	/* Witnesses (witness.c): the trials and witnesses of the exploration, remembered. */
	struct witness_memo *memo;

	/* A cluster (o->cluster): its network and nodes, the survivor sets every state is
	 * checked through (nsets 0 without a cluster), and each node's working directory, its
	 * first filesystem's mount point. */
	struct bo_cluster_run *cluster;
	char **cluster_env; /* bo_cluster_env_vars(), made once */
	uint32_t sets[BO_CLUSTER_SETS_MAX];
	size_t nsets;
	const char *node_cwd[BO_CLUSTER_MAX];
	/* The last state checked through the sets, and its class through each: what an alias of
	 * it is, set by set. */
	char set_rep[BO_CRASH_ID_MAX];
	enum bo_class set_cls[BO_CLUSTER_SETS_MAX];
};

/*
 * What a state is made of beyond the base: entries [from, to) of the log applied in order but
 * for @skip (ascending), and of entry @torn (among them; UINT64_MAX: none) only its first
 * @torn_bytes. A generated state is one (its epoch start to its cut, its dropped entries, its
 * torn one); a witness's trial is another.
 */
struct state_build {
	uint64_t from, to;
	const uint64_t *skip;
	size_t n_skip;
	uint64_t torn, torn_bytes;
};

/* One write of a minimal witness (witness.c), and what it is. */
struct witness_write {
	uint64_t entry;
	const char *how; /* "dropped", "torn", "held back" */
	uint64_t op;	 /* the op it was logged for (see in_flight), or UINT64_MAX */
	bool in_flight;	 /* logged between issue:op and ack:op; else after ack:op, the last
			  * acknowledgement before it */
	uint64_t flush;	 /* held back: the barrier that made it durable (a FLUSH, or itself
			  * when FUA), or UINT64_MAX */
	uint64_t bytes;	 /* of the write (torn: of what did not reach the disk) */
	struct bo_fsmap_block map;
};

/* Most writes of a witness described; a longer one is counted. */
#define WITNESS_SHOWN 16

/* The minimal witness of a failing state: the fewest writes whose absence keeps it failing. */
struct witness {
	uint64_t reference; /* the entries of the log on disk in the state that passes */
	size_t n;	    /* writes in the witness (of which WITNESS_SHOWN described) */
	struct witness_write v[WITNESS_SHOWN];
	struct bo_opset ops; /* the ops of the failure: lost, wrong, phantom, unordered */
	uint64_t decided[4]; /* of which the witness alone fails (its first few) */
	unsigned n_decided;
	unsigned trials; /* states checked to find it */
	double seconds;
	bool minimal;	  /* 1-minimal: no write of it can go (else the budget ran out) */
	bool reused;	  /* an earlier state's witness, found to fail here too */
	char none[200];	  /* no witness: why */
	char mapped[200]; /* the blocks could not be mapped: why, or "" */
	char *story;	  /* all of it in lines, for the record and witness.txt (malloc'd) */
};

/* What one check of a state saw, for its class, its record and its by-products. */
struct state_run {
	char id[BO_CRASH_ID_MAX];
	uint64_t applied;		 /* entries of the log before the cut */
	const struct bo_crash_state *cs; /* a generated state, built on a snapshot; or NULL */
	const struct state_build *build; /* a witness's trial, built on a snapshot; or NULL */
	uint64_t base_at;		 /* the entries the base holds under it: the cut, or the
					  * epoch start of a generated state */
	struct bo_observation obs;
	struct bo_checker_report report;
	struct bo_verdict verdict;
	bool have_report, have_verdict;
	char harness_msg[512];
	char mount_msg[512];
	/* When it did not mount: what libblkid finds on it ("ext4", "none", "ambivalent",
	 * "unreadable"): whether the superblock is gone or the mount refused one that is there. */
	char signature[64];
	char *fsck_out;
	char *repair_out; /* recovered by fsck: what the repair printed (obs.repaired) */
	char *checker_out;
	size_t checker_out_len;
	char *checker_err;
	char checker_how[128];
	/* What the checker left running when it ended, ended with it: "3 processes, killed:
	 * postgres (pid 412), ..." (malloc'd), or NULL. */
	char *checker_left;
	char *dmesg;
	struct bo_kmsg *km; /* the kernel's messages of this state, from the probe's start */
	double seconds;
	double t_replay; /* rolling the base forward to this state (naive: from entry 0) */
	double t_snap, t_repair, t_mount, t_checker, t_umount, t_fsck; /* where the time went */
	double t_drop; /* after fsck: the snapshot's status, emptying its CoW, the kernel log */
	double t_wait; /* waiting for the host base (in t_replay; not in seconds or t_snap) */
	char sha256[BO_SHA256_HEX]; /* of the image, when asked */
	bool cow_full;		    /* the state's CoW store filled up: its results say nothing */
	bool cow_retry; /* so it was checked again on a CoW store as big as the device */
	/* A state cut inside the recovery of another (recovery.c): that state's id, the entries
	 * of its recovery log applied and in all, and the class its own recovery gave. */
	const char *recovery_of;
	uint64_t recovery_cut, recovery_entries;
	enum bo_class second;
	const char *recovery_log; /* the log, to keep beside the state's by-products */
	struct witness *witness;  /* with --witness, for a failing state */
	/* A cluster's state: the survivor set its nodes were restarted as (0: not a cluster),
	 * what each did at its stop (malloc'd), and each node's output (malloc'd, or NULL). */
	uint32_t set;
	char *nodes_report;
	char *node_log[BO_CLUSTER_MAX];
};

/*
 * Stages 3 and 4 for the state the base holds (or is being brought to): a fresh snapshot of
 * it (@big: on the CoW store as big as the device), the probe (@log_recovery: through the
 * device that logs its recovery, with --recovery-crashes), the snapshot's status (makeprobe.c).
 * Returns -errno only when the exploration cannot go on (a failed snapshot could not be
 * removed: later states would be built on a wrong device; or its CoW store, which holds more
 * than COW_SMALL, could not be emptied: the guest would run out of memory).
 */
_must_check_ int make_and_probe(struct explore *x, struct state_run *s, bool big, bool log_recovery,
				struct bo_err *fatal);

/* state.c, below every stage: a state could not be evaluated: the first reason is kept, the
 * state is a harness-error. */
void state_run_fail(struct state_run *s, const struct bo_err *err);
/* What a check of @s found, freed: @s can be checked again. */
void state_run_clear(struct state_run *s);

/* state.c: put a loop or dm device just made on x->td; should that fail, it is undone at once. */
_must_check_ int explore_keep(struct explore *x, const char *kind, const char *name,
			      struct bo_err *err);

/* 1. select.c: the states of the exploration, in order. */
struct select;
enum select_what { SELECT_END, SELECT_CHECK, SELECT_ALIAS };
struct select_alias {
	char id[BO_CRASH_ID_MAX];
	uint64_t cut;
	const char *of; /* the representative's id (valid until the next call) */
	enum bo_class cls;
	bool count;  /* it is one of this shard's states, for the progress line */
	bool record; /* this shard records it (it checked the representative) */
};
_must_check_ int select_new(struct explore *x, struct select **ret, struct bo_err *err);
void select_free(struct select *sel);
/* The states and aliases this shard visits, for the progress line. */
uint64_t select_total(const struct select *sel);
/* Whether the shards claim their states as they go (check --jobs) rather than by id. */
bool select_claims(const struct select *sel);
/* The last cut the base will reach, for reading the log ahead. */
uint64_t select_last_cut(const struct select *sel);
/* The next state to check (SELECT_CHECK, in *@ret), or an alias to record (SELECT_ALIAS, in
 * *@ret_alias), or SELECT_END; -errno. */
_must_check_ int select_next(struct select *sel, struct state_run *ret,
			     struct select_alias *ret_alias, struct bo_err *err);
/* The class of the state select_next() returned last, for its aliases. */
void select_checked(struct select *sel, enum bo_class c);

/* 2. base.c: the base, and bringing it to a state's cut or epoch start. */
_must_check_ int base_setup(struct explore *x, struct bo_err *err);
/* The bytes its file in the work directory is made with (none with a host base). */
uint64_t base_scratch(const struct bo_explore_opts *o);
void base_teardown(struct explore *x);
/* Start bringing the base to @applied entries: replayed here, or asked of the host; the
 * host's answer is awaited by base_wait(), which snapshot_make() calls once the swap, which
 * does not read the base, is done: the guest swaps while the host replays. */
_must_check_ int base_to(struct explore *x, uint64_t applied, struct bo_err *err);
_must_check_ int base_wait(struct explore *x, struct bo_err *err);
/* Read ahead the log data up to @applied entries (bo_replay_prefetch()); the host base reads
 * ahead on its own. */
void base_prefetch(struct explore *x, uint64_t applied);

/* 3. snapshot.c: the state itself. */
_must_check_ int snapshot_setup(struct explore *x, struct bo_err *err);
/* The bytes its CoW stores are made with, in the work directory. */
uint64_t snapshot_scratch(const struct bo_explore_opts *o);
void snapshot_teardown(struct explore *x);
/*
 * A fresh snapshot of the base for state @s (@big: on the CoW store as big as the device),
 * the base awaited, a generated state built on it. 1 when the state is ready to probe, 0 when
 * it could not be made (marked failed: state_run_fail()), -errno when the exploration cannot
 * go on. *@made says whether a snapshot was swapped in (snapshot_done() is then due).
 */
_must_check_ int snapshot_make(struct explore *x, struct state_run *s, bool big, bool *made,
			       struct bo_err *fatal);
/* After the probe (@probed: it ran to the end): the snapshot's status (a full CoW store marks
 * s->cow_full), and its CoW store given back when it held much or what it held is not known.
 * -errno when the exploration cannot go on. */
_must_check_ int snapshot_done(struct explore *x, struct state_run *s, bool probed,
			       struct bo_err *fatal);
/* After a state filled a small CoW store: grow the small stores. */
void snapshot_grow(struct explore *x);

/* 4. probe.c: what the state does on the kernel. */
_must_check_ int probe_setup(struct explore *x, struct bo_err *err);
void probe_teardown(struct explore *x);
/* Before the state is made: its kernel-log nonce and the checker's op files. -1 when the
 * state cannot be checked (failed). */
int probe_begin(struct explore *x, struct state_run *s);
/* Mount the state on @dev, run the checker, unmount, fsck. -1 when the mount had to be
 * detached lazily (the state is a harness error). */
int probe(struct explore *x, struct state_run *s, const char *dev);
/* The kernel's messages of the state. */
void probe_end(struct explore *x, struct state_run *s);

/* recovery.c: crashes during recovery. */
_must_check_ int recovery_setup(struct explore *x, struct bo_err *err);
/* The bytes its recovery log is made with, in the work directory (none without). */
uint64_t recovery_scratch(const struct bo_explore_opts *o);
void recovery_teardown(struct explore *x);
/* The device to probe state @s on: the snapshot, or with recovery crashes a log-writes device
 * over it, its log emptied first. NULL when that could not be made (@s failed: state_run_fail). */
const char *recovery_begin(struct explore *x, struct state_run *s);
/* After the probe of @s: its recovery log closed and the log-writes device removed. -errno when
 * the exploration cannot go on (the device stays). */
_must_check_ int recovery_end(struct explore *x, struct state_run *s, struct bo_err *fatal);
/* The states cut inside the recovery of @first, which was consistent: up to
 * o->recovery_crashes of its recovery log's flush points, seeded, each checked and recorded. */
_must_check_ int recovery_states(struct explore *x, const struct state_run *first,
				 struct bo_err *fatal);
/* A state "<id>~r<K>" alone (check --state with --recovery-log): @first is <id>. */
_must_check_ int recovery_one(struct explore *x, const struct state_run *first,
			      struct bo_err *fatal);

/* witness.c: the minimal witness of a failing state. */
void witness_teardown(struct explore *x);
/* Whether state @s of class @c gets a witness: --witness, a failure of the state itself. */
bool witness_wanted(const struct explore *x, const struct state_run *s, enum bo_class c);
/* Find the witness of @s (class @c) into s->witness, within o->witness trials, and tell it
 * (its story); a witness that cannot be found says why. -errno when the exploration cannot go
 * on. */
_must_check_ int witness_find(struct explore *x, struct state_run *s, enum bo_class c,
			      struct bo_err *fatal);

/* 5. judge.c: the checker's report against the ops, and the class. */
enum bo_class judge(struct explore *x, struct state_run *s);

/* 6. save.c: what a checked state leaves in the results. */
_must_check_ int save_state(struct explore *x, struct state_run *s, enum bo_class c,
			    struct bo_err *err);
_must_check_ int save_alias(struct explore *x, const struct select_alias *a, struct bo_err *err);
_must_check_ int save_byproducts(struct explore *x, struct state_run *s, enum bo_class c,
				 struct bo_err *err);

/* bench.c: scripts/bench-scale's baseline: the state rebuilt from nothing, as fstests'
 * replay-log does at every cut, then the same probe. */
_must_check_ int bench_naive_state(struct explore *x, struct state_run *s, struct bo_err *fatal);

#endif

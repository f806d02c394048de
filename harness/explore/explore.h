/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore.h — check the crash states of a log on the real kernel.
 *
 * One replay target rolls forward through the log (incremental replay: the writes between
 * two cuts are applied once). At each cut, a non-persistent dm-snapshot of it is taken, so
 * the check's own writes (journal recovery, the application's recovery, fsck) never reach the
 * base; the state is mounted, the checker runs, it is unmounted and fsck'd, the oracle judges
 * it, and the snapshot is dropped. Needs root and device-mapper: inside blackout's VM.
 */
#ifndef BO_EXPLORE_H
#define BO_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/base/proc.h"
#include "harness/cluster/cluster.h"
#include "harness/log/layout.h"
#include "harness/log/log.h"
#include "harness/results/results.h"
#include "harness/results/summary.h"
#include "harness/states/crashgen.h"

/* Hidden modes of scripts/bench-scale, on the same cuts and states as a check. */
enum bo_bench_mode {
	BO_BENCH_NONE,
	/* The fstests way, the baseline: per cut a fresh zeroed image replayed from entry 0,
	 * on a loop device, then mount, umount, fsck. */
	BO_BENCH_NAIVE,
	/* The floor: each state prepared untimed as a check prepares it; only mount, umount
	 * and fsck are timed. */
	BO_BENCH_FLOOR,
};

struct bo_explore_opts {
	const char *runid;	   /* names the dm devices: blackout-<runid>-... */
	const char *workdir;	   /* directory (tmpfs) for the base image and the CoW store */
	const char *fs;		   /* "ext4", "xfs" or "btrfs" */
	const char *mount_options; /* "" for the defaults */
	const char *cuts;	   /* cut policy, see cutsel.h */
	uint64_t first_cut;	   /* cuts with fewer entries applied are skipped */
	const char *only_state;	   /* check only the state with this id, or NULL */
	const char *checker;	   /* command line run by /bin/sh -c, or NULL for none */
	char *const *checker_env;  /* extra KEY=VALUE for the checker, NULL-terminated */
	bool ordered;		   /* the `ordered` property of the oracle */
	unsigned fsck_timeout;	   /* seconds, also of a repair */
	enum bo_recovery recovery; /* mount, or fsck's repair first (dev/fs.h); AUTO: by state */
	unsigned checker_timeout;  /* seconds */
	uint64_t image_size;	   /* bytes of the data device */
	const char *log_name;	   /* the log as the results name it, for repro.sh */
	const char *repro_args;	   /* extra arguments repro.sh passes to `blackout check` */
	bool hash_image;	   /* record each state's image sha256 (costs a full read) */
	unsigned reorder_k;	   /* drop subsets of up to K writes of each epoch (crashgen.h) */
	bool torn;		   /* tear each multi-block write of each epoch once */
	uint64_t budget;	   /* sample dropped sets above this many per cut (0: all) */
	enum bo_persona persona;   /* the disk's crash-state model (crashgen.h) */
	/* Crash during recovery (recovery.c): record the recovery of every state (mount, checker,
	 * umount) and check up to this many states cut inside it, each recovered again. 0: no. */
	unsigned recovery_crashes;
	/* With only_state "<id>~r<K>": the recovery log (of state <id>) to cut after K entries. */
	const char *recovery_log;
	/* The minimal witness of every failing state (witness.c): at most this many trial states
	 * each; 0: none. witness_full: the whole difference, not minimised (a mutant the tests
	 * must catch). */
	unsigned witness;
	bool witness_full;
	uint64_t seed;	      /* for sampling and tearing */
	unsigned shard_index; /* check only the states of shard shard_index of shard_count */
	unsigned shard_count; /* (0 or 1: all of them) */
	/* A directory the VMs of check --jobs share: each representative goes to the shard that
	 * claims it first (shard_index/count then only size the progress line); NULL: by id. */
	const char *claim_dir;
	enum bo_bench_mode bench; /* BO_BENCH_NONE for a check */
	/* "DEVICE PORT": the host base (harness/basesrv.h), a block device the host replays the
	 * log into when asked over the port; NULL, or a device of another size than image_size:
	 * the base is a file here, replayed by this process. */
	const char *host_base;
	/* The account the checker runs as, and the root directory it runs in; NULL: root, and
	 * the guest's own. */
	const struct bo_proc_user *user;
	const char *root;
	/* Several devices in the log (harness/log/layout.h; NULL or n == 0: one, of fs, mounted
	 * with mount_options): each filesystem mounted at state/NAME with dev_mount_options[i]
	 * (NULL: none) and its external journal, fsck'd with it; raw devices only named to the
	 * checker, which works in the primary device's mount point (-1: in state/). */
	const struct bo_layout *layout;
	const char *dev_mount_options[BO_LAYOUT_MAX];
	int primary;
	/* A cluster (harness/cluster/cluster.h; NULL: none): every state is checked once per
	 * survivor set, its nodes restarted from their devices of the layout (by name) before the
	 * checker and stopped after it; a set short of all nodes is the state "<id>@<set>". */
	const struct bo_cluster *cluster;
	/* The work directory is this machine's own memory (run, check and shrink --in-place,
	 * docs/vm.md): the room its files are made with is judged first (bo_space_check()). */
	bool in_place;
};

/*
 * Check the crash states of @log selected by @o, recording each in @res (stream.jsonl and
 * states/<id>/ for every non-consistent state) and counting it in @sum. Returns -errno when
 * the exploration itself could not go on (the message is also recorded in @sum); a state
 * that could not be evaluated is a harness-error state, not a failure of the whole run.
 */
_must_check_ int bo_explore(const struct bo_log *log, const struct bo_explore_opts *o,
			    struct bo_results *res, struct bo_summary *sum, struct bo_err *err);

/* Is the state @id in shard @index of @count? Stable across machines and runs. */
bool bo_state_in_shard(const char *id, unsigned index, unsigned count);

/* The canonical id of the prefix state after @applied entries: "c<last entry>". */
void bo_state_id(uint64_t applied, char *buf, size_t len);

#endif

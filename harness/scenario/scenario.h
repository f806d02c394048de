/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scenario.h — scenario files: what to run and how to check it, as an INI file in the spirit
 * of fio job files (every key is documented in docs/scenarios.md):
 *
 *   [scenario]  name, description
 *   [device]    fs, size, sector_size, mkfs_options, mount_options; or [device NAME]
 *               sections, each with those and journal (fs may be raw)
 *   [workload]  builtin (+ ops, bug), command or script; user, seed, timeout
 *   [check]     cuts, checker or script, ordered, persona, recovery, recovery_crashes,
 *               witness, mount_timeout, fsck_timeout, checker_timeout
 *   [run]       seed, log_size
 *   [faults]    at = TRIGGER FAULT... (repeatable: a dm-flakey fault plan, faultplan.h)
 *   [vm]        files = PATH... (repeatable: host files the guest needs), root
 *   [node NAME] devices, address, start, stop: a node of a cluster (docs/clusters.md)
 *
 * Parsing is strict: an unknown section or key, a key given twice, a bad value or a missing
 * required key is an error naming the file, the line, the key and the value. What parses is
 * complete: every default is filled in, so struct bo_scenario is the effective configuration.
 */
#ifndef BO_SCENARIO_H
#define BO_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/cluster/cluster.h"
#include "harness/scenario/faultplan.h"
#include "harness/dev/fs.h"
#include "harness/log/layout.h"
#include "harness/base/util.h"
#include "harness/states/persona.h"

struct json_object;

/* Which log entries become cut points (DESIGN.md, "Cut policies"). */

enum bo_workload_kind {
	BO_WORKLOAD_BUILTIN, /* a workload shipped with blackout (scenarios/) */
	BO_WORKLOAD_COMMAND, /* a command line (or a script) run by /bin/sh -c in the mount
			      * point */
};

/*
 * What the fsops checker holds a persistence op on one inode to promise (docs/checkers.md,
 * "What each filesystem promises"). AUTO: what the filesystem's developers promise
 * (bo_scenario_promises_posix()).
 */
enum bo_promises {
	BO_PROMISES_AUTO,
	BO_PROMISES_LINUX,
	BO_PROMISES_POSIX,
};

enum bo_checker_kind {
	BO_CHECKER_NONE,    /* no application check: mount and fsck only */
	BO_CHECKER_BUILTIN, /* the checker mode of a builtin workload */
	BO_CHECKER_COMMAND, /* a command line run by /bin/sh -c in the mount point */
};

/* A [device NAME] section. */
struct bo_device {
	char *name;
	bool raw; /* fs = raw: no filesystem, the workload's block device */
	enum bo_fs fs;
	uint64_t size;
	uint32_t sector_size;
	char *mkfs_options, *mount_options;
	char *journal_name; /* journal = NAME, or NULL */
	int journal;	    /* the raw device holding its external journal or log, or -1 */
	char *spans_names;  /* spans = NAME..., or NULL */
	uint32_t spans;	    /* bit k: the filesystem also spans (raw) device k (btrfs) */
	int line, journal_line, spans_line;
	uint64_t start; /* its first 512-byte sector in the log's device (harness/log/layout.h) */
};

struct bo_scenario {
	char *origin; /* the file it was read from (or what the caller named the text) */
	char *dir;    /* what relative paths in it are relative to */
	char *text;   /* the text it was parsed from (NUL-terminated), text_len bytes */
	size_t text_len;

	/* [scenario] */
	char *name; /* default: the file name without directory and ".ini" */
	char *description;

	/* [device] */
	enum bo_fs fs;
	uint64_t size;	      /* bytes */
	uint32_t sector_size; /* 512 or 4096 */
	char *mkfs_options;   /* split on whitespace; "" for none */
	char *mount_options;  /* for mount -o; "" for the defaults */

	/* [workload] */
	enum bo_workload_kind workload;
	char *builtin;		/* BO_WORKLOAD_BUILTIN: "fsops" */
	char *command;		/* BO_WORKLOAD_COMMAND: the command line */
	uint64_t ops;		/* builtin: number of operations */
	char *bug;		/* builtin: planted bug, or NULL for none */
	char *keep_ops;		/* fsops: the op subset performed ("3,17,40-42"), or NULL */
	bool fsync_inode;	/* fsops: fsync = inode (fsync-file, fsync-dir); default path */
	char *families;		/* fsops: op families beyond the base ("falloc,xattr"), or NULL */
	uint64_t length;	/* bounded: the length of its workloads, 1..3 */
	char *workloads;	/* bounded: the ranks run ("0-99"), or NULL for all */
	char *sample;		/* bounded: "I/N", of those the ranks I modulo N, or NULL */
	bool fresh;		/* bounded: a fresh filesystem per workload (default no) */
	uint64_t workload_seed; /* default: the run seed */
	bool workload_seed_set; /* the scenario gave [workload] seed */
	unsigned workload_timeout; /* seconds */

	/* [check] */
	char *cuts_spec; /* cut policy as written (see harness/cutsel.h) */
	enum bo_checker_kind checker;
	char *checker_command;	   /* BO_CHECKER_COMMAND: the command line; BUILTIN: the builtin */
	bool ordered;		   /* the oracle's `ordered` property (logs, WALs); default no */
	enum bo_persona persona;   /* the disk's crash-state model (crashgen.h); default honest */
	uint64_t recovery_crashes; /* states cut inside each state's recovery; default 0 */
	enum bo_recovery recovery; /* mount, or fsck's repair first; default auto (dev/fs.h) */
	enum bo_promises promises; /* the fsops checker's promise table; default auto */
	uint64_t witness;	   /* trials for each failing state's witness; default 0 */
	unsigned mount_timeout, fsck_timeout, checker_timeout; /* seconds */

	/* [run] */
	uint64_t seed;
	uint64_t log_size; /* bytes of the dm-log-writes log device */

	/* [device NAME] sections, in file order; none with a [device] section. With them, size
	 * is the one log device's (every device, and the first MiB, which is none's); fs,
	 * mkfs_options and mount_options are the primary device's: the first that is not raw,
	 * whose mount point is the workload's and checker's working directory. */
	struct bo_device *devices;
	size_t ndevices;
	int primary; /* index into devices, or -1 (all raw, or no [device NAME]) */

	/* [node NAME] sections, with [check] survivors: a cluster (cluster.h), or NULL; the
	 * scripts their start and stop lines run (shipped with the scenario), NULL-terminated. */
	struct bo_cluster *cluster;
	char **node_scripts;

	/* [faults], in file order */
	struct bo_fault *faults;
	size_t nfaults;

	/* [workload] script and [check] script: absolute paths (the workload or checker
	 * command runs them); user: the account workload and checker run as, or NULL (root). */
	char *workload_script, *checker_script;
	char *user;

	/* [vm] files: absolute host paths the guest needs (NULL-terminated, may be NULL); the
	 * scripts are shipped too (bo_scenario_files()). root_host: the workload and checker run
	 * in the host's root, read-only with a tmpfs over it, instead of blackout's own. */
	char **files;
	bool root_host;
	/* [vm] kernel: the cached kernel the VM boots, by release or version prefix; NULL: the
	 * default (--kernel-release overrides it). */
	char *kernel;
	/* [vm] kernel_tree: a kernel build tree the VM boots as it is (docs/vm.md); NULL: none
	 * (--kernel-tree and the other kernel options override it). */
	char *kernel_tree;

	/* The lines whose relative paths were resolved, and to what (bo_scenario_save()). */
	struct bo_scenario_path *paths;
	size_t npaths;
};

struct bo_scenario_path {
	int line;
	char *key;
	char *value; /* the line's value with every path absolute */
};

/* How a scenario file is read. */
struct bo_scenario_opts {
	/* Relative paths are resolved against this directory; NULL: the file's own. */
	const char *dir;
	/* On the host: the paths must exist and the user too (in the guest, the paths are
	 * shipped or under the host's root, and the account is made from the host's). */
	bool host;
};

/*
 * Read and parse the scenario file @path. On failure returns -errno with a message in @err of
 * the form "FILE:LINE: [SECTION] KEY: ..." quoting the bad value (or "FILE: ..." for what has
 * no line, like a missing key). *@ret is written only on success.
 */
_must_check_ int bo_scenario_load(const char *path, struct bo_scenario **ret, struct bo_err *err);

/* bo_scenario_load() as @o says (bo_scenario_load() reads on the host, relative to the
 * file). */
_must_check_ int bo_scenario_load_opts(const char *path, const struct bo_scenario_opts *o,
				       struct bo_scenario **ret, struct bo_err *err);

/* bo_scenario_load_opts() of @dir/scenario.ini in a results directory (a stranger's: read by
 * harness/base/input.h's rule, never through a symlink). */
_must_check_ int bo_scenario_load_in(const char *dir, const struct bo_scenario_opts *o,
				     struct bo_scenario **ret, struct bo_err *err);

/*
 * Parse scenario text @text of @len bytes (it need not be NUL-terminated and may contain
 * NUL bytes, which are rejected). @origin names it in messages and provides the default name.
 */
_must_check_ int bo_scenario_parse(const char *text, size_t len, const char *origin,
				   const struct bo_scenario_opts *o, struct bo_scenario **ret,
				   struct bo_err *err);

/* The text @sc was parsed from with every relative path made absolute, in *@ret (free()
 * it), *@len bytes. */
_must_check_ int bo_scenario_text(const struct bo_scenario *sc, char **ret, size_t *len);

/*
 * Write the scenario text @sc was parsed from to @dst (which must not exist), with every
 * relative path made absolute, so that the copy in a results directory means what the
 * original meant wherever it is read.
 */
_must_check_ int bo_scenario_save(const struct bo_scenario *sc, const char *dst,
				  struct bo_err *err);

/* How the devices of @sc lie in its one log device (n == 0 without [device NAME]). */
void bo_scenario_layout(const struct bo_scenario *sc, struct bo_layout *ret);

/* The host paths the guest needs for @sc: [vm] files and the scripts, NULL-terminated, in
 * *@ret (bo_strv_free() it). */
_must_check_ int bo_scenario_files(const struct bo_scenario *sc, char ***ret);

/* Release a scenario; NULL is fine. */
void bo_scenario_free(struct bo_scenario *sc);

/* Override the run seed (blackout run --seed); the workload's seed follows it unless the
 * scenario set [workload] seed. */
void bo_scenario_set_seed(struct bo_scenario *sc, uint64_t seed);

/* Whether @s is a list of op ids and ranges ("3,17,40-42") within 1..@max: 0 or -EINVAL. */
_must_check_ int bo_scenario_op_ids_check(const char *s, uint64_t max);

/* Whether @spec may name a kernel ([vm] kernel, a nightly's kernel axis): a release, a
 * version prefix or a pattern (6.12.117+deb12-amd64, 6.12, 6.12.*), nothing like a path. */
bool bo_scenario_kernel_ok(const char *spec);

/* Perform only the ops @ids of a builtin fsops workload (NULL: all). 0, -EINVAL or -ENOMEM. */
_must_check_ int bo_scenario_set_keep_ops(struct bo_scenario *sc, const char *ids);

/*
 * The shell command line that runs the workload (for a builtin, its executable from PATH with
 * the scenario's parameters) into *@ret, malloc'd. Returns 0 or -ENOMEM.
 */
_must_check_ int bo_scenario_workload_command(const struct bo_scenario *sc, char **ret);

/* Why recovery @r does not fit the filesystems of @sc (fsck for xfs or btrfs) into @buf (@len
 * bytes), or NULL (bo_fs_recovery_problem()). */
const char *bo_scenario_recovery_problem(const struct bo_scenario *sc, enum bo_recovery r,
					 char *buf, size_t len);

/*
 * The shell command line of the checker into *@ret, malloc'd, or NULL when the scenario has
 * no checker. Returns 0 or -ENOMEM.
 */
_must_check_ int bo_scenario_checker_command(const struct bo_scenario *sc, char **ret);

/* Whether the fsops checker holds one-inode fsyncs to POSIX's promises: the scenario's
 * [check] promises, or with auto, by the workload's filesystem's row (harness/dev/fstab.h). */
bool bo_scenario_promises_posix(const struct bo_scenario *sc);

/* The command line that prints the reproducer of @sc's builtin fsops or bounded workload up
 * to acknowledged op @upto in @form ("repro": repro.c of `blackout export`; "fstests": its
 * test in fstests' form), malloc'd into *@ret; -ENOTSUP for another workload, -ENOMEM. */
_must_check_ int bo_scenario_export_command(const struct bo_scenario *sc, const char *form,
					    uint64_t upto, char **ret);

/* The workload's filesystem: the first device's that has one, with its mkfs options into
 * *@mkfs. */
enum bo_fs bo_scenario_workload_fs(const struct bo_scenario *sc, const char **mkfs);

/* Whether the workload's filesystem has no hard links (its row): fsops runs, checks and lists
 * its sequence with --no-links. */
bool bo_scenario_no_links(const struct bo_scenario *sc);

/*
 * The op families builtin fsops or bounded @sc runs with (blackout-fsops --families) into
 * @buf: fsops' [workload] families (none unless given), bounded's all; "all" is every family
 * the workload's filesystem has (harness/dev/fstab.h, its row's lacks), or "all" where it has
 * them all ("" for bounded: it takes no option). 0, -EINVAL naming a family the scenario
 * asks for and the filesystem lacks, or -ENAMETOOLONG.
 */
_must_check_ int bo_scenario_families(const struct bo_scenario *sc, char *buf, size_t n,
				      struct bo_err *err);

/* The effective configuration as a new json-c object (for results/config.json). */
_must_check_ int bo_scenario_to_json(const struct bo_scenario *sc, struct json_object **ret);

#endif

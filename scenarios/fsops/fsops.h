/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsops.h — the builtin fsops workload: a seeded random sequence of file and directory
 * operations over a small fixed namespace, and the model both the workload and its checker
 * replay. docs/checkers.md describes the op model and what each acknowledgement promises.
 *
 * The namespace: directories d0..d3 under the working directory (the root), and file names
 * f0..f7 in the root and in each directory — 40 file names ("slots"). Slot s lives in
 * directory s / 8 (0 is the root, 1..4 are d0..d3) under the name f<s % 8>.
 *
 * Every byte a data op writes is derived from (seed, op id, file offset), and each 8-byte word
 * of a file decodes to the op that wrote it there (fsops_decode()).
 */
#ifndef BO_FSOPS_H
#define BO_FSOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FSOPS_NDIRS	    4
#define FSOPS_FILES_PER_DIR 8
#define FSOPS_NSLOTS	    ((FSOPS_NDIRS + 1) * FSOPS_FILES_PER_DIR)
#define FSOPS_MAX_SIZE	    (128u * 1024)
#define FSOPS_MIN_WRITE	    16u
#define FSOPS_MAX_WRITE	    16384u
#define FSOPS_MAX_OPS	    1000000u
#define FSOPS_ID_BITS	    20 /* an op id in a data word: FSOPS_MAX_OPS < 2^20 */

enum fsops_type {
	FSOPS_CREATE,	 /* a: new empty file */
	FSOPS_WRITE,	 /* a: pwrite [off, off+len), may extend or leave a hole */
	FSOPS_APPEND,	 /* a: pwrite at the current size */
	FSOPS_OVERWRITE, /* a: pwrite inside the current size */
	FSOPS_TRUNCATE,	 /* a: truncate to off */
	FSOPS_RENAME,	 /* a -> b; b may exist and is then replaced */
	FSOPS_LINK,	 /* a -> b; b does not exist */
	FSOPS_UNLINK,	 /* a */
	FSOPS_MKDIR,	 /* directory a */
	FSOPS_RMDIR,	 /* directory a, empty */
	FSOPS_FSYNC,	 /* a: fsync the file, its directory and the root; acked */
	FSOPS_FDATASYNC, /* a (a name already durable): fdatasync; acked */
	FSOPS_SYNC,	 /* syncfs of the filesystem; acked */
	/* With fsync = inode, persistence ops on one inode instead of FSOPS_FSYNC: */
	FSOPS_FSYNC_FILE, /* a: fsync the file only; acked */
	FSOPS_FSYNC_DIR,  /* a: fsync directory a, or the root when a is -1; acked */
	/* The op families a sequence may add (enum fsops_family); none is drawn without its. */
	FSOPS_FALLOC,		/* falloc: a: fallocate mode 0 [off, off+len), may extend */
	FSOPS_FALLOC_KEEP,	/* falloc: a: FALLOC_FL_KEEP_SIZE, also past the end */
	FSOPS_PUNCH,		/* falloc: a: FALLOC_FL_PUNCH_HOLE | KEEP_SIZE: zeros */
	FSOPS_ZERO,		/* falloc: a: FALLOC_FL_ZERO_RANGE: zeros, may extend */
	FSOPS_ZERO_KEEP,	/* falloc: a: FALLOC_FL_ZERO_RANGE | KEEP_SIZE */
	FSOPS_DIO_WRITE,	/* direct: a: O_DIRECT pwrite, 4096-aligned offset and length */
	FSOPS_DSYNC_WRITE,	/* dsync: a (durable name): pwritev2 RWF_DSYNC; acked */
	FSOPS_SYNC_WRITE,	/* dsync: a: pwrite through O_SYNC; acked */
	FSOPS_MMAP_WRITE,	/* mmap: a: store through a shared mapping inside the size, then
			    * msync MS_SYNC; acked */
	FSOPS_SETXATTR,		/* xattr: a: set user.fsops<off> to a value naming the op */
	FSOPS_REMOVEXATTR,	/* xattr: a: remove user.fsops<off> */
	FSOPS_RENAME_NOREPLACE, /* rename2: a -> b, b free: renameat2 RENAME_NOREPLACE */
	FSOPS_EXCHANGE,		/* rename2: a <-> b, two inodes: renameat2 RENAME_EXCHANGE */
	FSOPS_COPY,		/* copy: b's [off, off+len) into a at the same offset:
			    * copy_file_range */
	FSOPS_CLONE,		/* clone: a becomes a clone of all of b: FICLONE */
	FSOPS_CLONE_RANGE,	/* clone: b's [off, off+len) into a at the same offset, whole
			    * blocks: FICLONERANGE */
	FSOPS_SYMLINK,		/* symlink: a new symbolic link a, its target naming the op */
	FSOPS_COLLAPSE,		/* collapse: a: FALLOC_FL_COLLAPSE_RANGE [off, off+len), blocks
			    * before the end: what follows moves down by len */
	FSOPS_INSERT,		/* collapse: a: FALLOC_FL_INSERT_RANGE at off before the end,
			    * len in blocks: what follows moves up by len, a hole between */
	FSOPS_NTYPES,
};

/* Op families beyond the base ops, a set of bits: a parameter of the sequence. */
enum fsops_family {
	FSOPS_FAMILY_FALLOC = 1u << 0,	/* fallocate: falloc, falloc-keep, punch, zero, zero-keep */
	FSOPS_FAMILY_DIRECT = 1u << 1,	/* O_DIRECT writes */
	FSOPS_FAMILY_DSYNC = 1u << 2,	/* writes that sync: RWF_DSYNC, O_SYNC */
	FSOPS_FAMILY_MMAP = 1u << 3,	/* stores through mmap, msync'd */
	FSOPS_FAMILY_XATTR = 1u << 4,	/* setxattr, removexattr */
	FSOPS_FAMILY_RENAME2 = 1u << 5, /* renameat2: NOREPLACE, EXCHANGE */
	FSOPS_FAMILY_COPY = 1u << 6,	/* copy_file_range between two files */
	FSOPS_FAMILY_CLONE = 1u << 7,	/* FICLONE, FICLONERANGE: a filesystem with reflink */
	FSOPS_FAMILY_SYMLINK = 1u << 8, /* symlinks, which renames and unlinks then move too */
	FSOPS_FAMILY_COLLAPSE = 1u << 9, /* fallocate COLLAPSE_RANGE and INSERT_RANGE */
	FSOPS_FAMILY_ALL = (1u << 10) - 1,
};
#define FSOPS_FAMILY_NAMES \
	"falloc, direct, dsync, mmap, xattr, rename2, copy, clone, symlink, collapse"
#define FSOPS_NXATTRS	2 /* user.fsops0, user.fsops1 */
#define FSOPS_DIO_ALIGN 4096u
/* The filesystem block: what collapse and insert move bytes by and align to, and what
 * clone-range aligns to. */
#define FSOPS_BLOCK 4096u

/* The smaller of @a and @b: for the model's ranges and the checker's words alike. */
static inline uint64_t fsops_min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

enum fsops_bug {
	FSOPS_BUG_NONE,
	FSOPS_BUG_ACK_WITHOUT_FSYNC, /* ack sync-class ops without syncing */
	FSOPS_BUG_IGNORE_SYNC_ERROR, /* ack sync-class ops whose sync failed (EIO) */
};

/* What the generator's fsync ops sync (a parameter of the sequence, like the seed). */
enum fsops_fsync_mode {
	FSOPS_FSYNC_PATH,  /* fsync F: the file, its directory and the root (FSOPS_FSYNC) */
	FSOPS_FSYNC_INODE, /* fsync-file F and fsync-dir D: one inode each */
};

/*
 * What the checker holds a persistence op on one inode to promise (docs/checkers.md, "What
 * each filesystem promises").
 */
enum fsops_promises {
	FSOPS_PROMISES_LINUX, /* ext4, xfs, btrfs: fsync of a file persists its names too */
	FSOPS_PROMISES_POSIX, /* fsync of a file persists its data and size, not its names */
};

/* Which workloads of the bounded space: ranks first..last whose rank is @at modulo @every. */
struct fsops_ranks {
	uint64_t first, last;
	uint64_t every, at; /* every 1, at 0: all of first..last */
};

struct fsops_params {
	uint64_t seed;
	uint64_t ops;
	/* The bounded space instead of the seeded sequence (bounded.c): its workloads of this
	 * length (0: the seeded sequence), those of @ranks, each in its own directory. */
	unsigned bounded;
	struct fsops_ranks ranks;
	/* With @bounded, a fresh filesystem per workload (docs/checkers.md): the setup once, in
	 * directory w, then `base`; each workload after `fresh:<label>`, in w, its ids after
	 * the setup's and those of the workloads before it (fsops_bounded_lay()). */
	bool fresh;
	enum fsops_fsync_mode fsync;
	unsigned families;	      /* enum fsops_family bits */
	bool no_links;		      /* no link op is drawn: a filesystem without hard links */
	enum fsops_promises promises; /* the checker's only */
	enum fsops_bug bug;
	/* An op subset (the shrinker's candidates): only these ids of the generated sequence
	 * are performed, sorted ascending; NULL for all. A kept op keeps its id, its names and
	 * its data; one that no longer makes sense without the ops dropped before it (a write to
	 * a file never created) is dropped too. */
	const uint64_t *keep;
	size_t nkeep;
};

struct fsops_op {
	uint64_t id;
	enum fsops_type type;
	int a, b;	     /* file slots, or directory indexes for mkdir/rmdir; -1 if unused */
	uint64_t ino;	     /* the inode acted on: created, written, synced, moved, unlinked */
	uint64_t victim;     /* rename: the inode whose name b was replaced, or 0; exchange: b's;
			      * copy, clone, clone-range: the source, b's */
	uint64_t off, len;   /* data ops, fallocate, copies: the range; truncate: off, the size;
			      * xattr ops: off is the attribute's index */
	uint64_t size_after; /* data ops, copies, truncate: the size afterwards */
};

struct fsops_inode {
	uint64_t ino; /* the id of the op that created it */
	bool symlink; /* a symbolic link (FSOPS_SYMLINK), not a regular file */
	uint32_t nlink;
	uint64_t size;
	uint64_t xattr[FSOPS_NXATTRS]; /* the setxattr whose value each holds, or 0: none */
};

struct fsops_model {
	uint64_t seed;
	enum fsops_fsync_mode fsync;
	unsigned families;
	uint64_t rng;
	uint64_t next_id;
	bool dir_exists[FSOPS_NDIRS];
	uint64_t slot_ino[FSOPS_NSLOTS]; /* 0: no file of that name */
	/* The name was made durable and not changed since (by what POSIX promises: an fsync of
	 * its directory, or syncfs; a name in d0..d3 also needs dir_durable). */
	bool slot_durable[FSOPS_NSLOTS];
	bool dir_durable[FSOPS_NDIRS];		  /* directory d's name, likewise */
	struct fsops_inode *inodes[FSOPS_NSLOTS]; /* live inodes (never more than names) */
	uint64_t inos[FSOPS_NSLOTS];		  /* their numbers */
	size_t ninodes;
	/* Where each live inode is, by number: 1 + its index in inodes, open-addressed. */
	uint8_t ino_at[4 * FSOPS_NSLOTS];
	/* The weights the op types are drawn with, by fsync mode and families, and their sum. */
	unsigned weight[FSOPS_NTYPES];
	unsigned weight_sum;
};

/* Whether an op of @type is acknowledged (a persistence op: fsync, fdatasync, sync, ...). */
bool fsops_is_sync(enum fsops_type type);

/* Whether @type writes data derived from (seed, op id, offset). */
bool fsops_is_data(enum fsops_type type);

/* Whether @type changes an inode's bytes or size: a data op, truncate or fallocate. */
bool fsops_is_change(enum fsops_type type);

/* Whether @type makes [off, off+len) of its inode read as zeros (punch, zero, zero-keep). */
bool fsops_is_zeroing(enum fsops_type type);

/*
 * Whether @type puts another inode's bytes (b's, op->victim) in a at the offsets they had there:
 * copy, clone, clone-range.
 */
bool fsops_is_copy(enum fsops_type type);

/* Whether @type moves the bytes from its offset on by its length: collapse, insert. */
bool fsops_is_shift(enum fsops_type type);

/* Whether @type moves a name: rename, rename-noreplace or exchange. */
bool fsops_is_rename(enum fsops_type type);

/* The family of op type @type (an enum fsops_family bit), 0 for a base op. */
unsigned fsops_type_family(enum fsops_type type);

/* The family bits named by @list ("falloc,xattr", "all", "none"); -1 on a name it lacks. */
int fsops_families_parse(const char *list, unsigned *ret);

/* The value setxattr op @id gives attribute @x, into @buf (NUL-terminated). */
void fsops_xattr_value(uint64_t seed, uint64_t id, int x, char *buf, size_t len);

/* The setxattr op whose value (@len bytes at @v) attribute @x holds, or 0 when none's. */
uint64_t fsops_xattr_decode(uint64_t seed, int x, const char *v, size_t len);

/* The target symlink op @id gives its link, into @buf (NUL-terminated): a value of the same
 * form, "fsops <id> <check>", for an attribute no op sets. */
void fsops_symlink_target(uint64_t seed, uint64_t id, char *buf, size_t len);

/* The symlink op whose target (@len bytes at @v) a link holds, or 0 when none's. */
uint64_t fsops_symlink_decode(uint64_t seed, const char *v, size_t len);

/* "create", "write", ... */
const char *fsops_type_name(enum fsops_type type);

/* Fill @buf with the @len bytes op @id writes from offset @off. Offsets stay under
 * FSOPS_MAX_SIZE. */
void fsops_fill(uint64_t seed, uint64_t id, uint64_t off, uint8_t *buf, size_t len);

/*
 * The op whose write put word @w of @data, the start of a file (its bytes [8w, 8w + 8), w <
 * FSOPS_MAX_SIZE / 8), there when it wrote it at word @at (@w, unless a collapse or an insert
 * moved it since; at < FSOPS_MAX_SIZE / 8), or 0 when no op's data reads so; a word of zeros
 * is zeros.
 */
uint64_t fsops_decode(uint64_t seed, const uint8_t *data, uint64_t w, uint64_t at);

/*
 * How many of the words of @data from @w on, before word @end, are op @id's data in a row, as
 * it wrote it from word @at on (with @id 0: how many are zeros). A write's words come in a row,
 * so a file is decoded a run at a time, each word compared with what it would hold.
 */
uint64_t fsops_decode_span(uint64_t seed, const uint8_t *data, uint64_t w, uint64_t end,
			   uint64_t id, uint64_t at);

/* Path of file slot @s ("f3", "d1/f0") and of directory @d ("d2"), into @buf. */
const char *fsops_slot_path(int s, char *buf, size_t len);
const char *fsops_dir_path(int d, char *buf, size_t len);

/* The directory index of slot @s: -1 for the root, else 0..FSOPS_NDIRS-1. */
int fsops_slot_dir(int s);

/* The paths @op acts on, into @a and @b ("-" where it has none; "." for the root). */
void fsops_op_paths(const struct fsops_op *op, char *a, char *b, size_t len);

/* Whether slot @s holds a file whose name is durable in @m (its directory's too). */
bool fsops_name_durable(const struct fsops_model *m, int s);

/* Start a model: an empty root, the generator seeded with @p's seed, drawing @p's fsync ops. */
void fsops_model_init(struct fsops_model *m, const struct fsops_params *p);

/* Release what a model holds. */
void fsops_model_release(struct fsops_model *m);

/* The live inode @ino, or NULL. */
struct fsops_inode *fsops_model_inode(const struct fsops_model *m, uint64_t ino);

/*
 * Draw the next op from the generator (a pure function of the seed and the ops before it)
 * into *@op, without applying it. Returns 0 or -ENOMEM.
 */
int fsops_model_next(struct fsops_model *m, struct fsops_op *op);

/* Apply @op to the model. Returns 0 or -ENOMEM. */
int fsops_model_apply(struct fsops_model *m, const struct fsops_op *op);

/*
 * Generate the whole sequence of @p->ops ops into a new array *@ret. Returns 0 or -ENOMEM.
 */
int fsops_generate(const struct fsops_params *p, struct fsops_op **ret);

/* Whether op @id is in @p's op subset (always, without one). */
bool fsops_kept(const struct fsops_params *p, uint64_t id);

/*
 * Fit generated op @op to model @m, which holds only the kept ops before it: re-derive what
 * depends on the tree (the inode a name holds, a rename's victim, sizes) into *@ret. False
 * when the op cannot be performed on that tree; it is then dropped.
 */
bool fsops_adapt(const struct fsops_model *m, const struct fsops_op *op, struct fsops_op *ret);

/*
 * The ops @p performs: the generated sequence, or with an op subset its kept and performable
 * ops, with their original ids. Into a new array *@ret of *@ret_n ops. Returns 0 or -ENOMEM.
 */
int fsops_sequence(const struct fsops_params *p, struct fsops_op **ret, uint64_t *ret_n);

/* The longest workloads of the bounded space. */
#define FSOPS_BOUNDED_MAX 3

/* The most ops of a bounded workload, its setup's and two a step. */
#define FSOPS_BOUNDED_OPS_MAX (8 + 2 * FSOPS_BOUNDED_MAX)

/* The longest code of a workload: its steps, "57.1-103.0" (core op.persistence op, each). */
#define FSOPS_BOUNDED_CODE_MAX 32

/* Called with each workload of the bounded space: its rank, its code, its ops (ids 1..@n). */
typedef int fsops_bounded_fn(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
			     uint64_t n);

/*
 * Call @fn for the workloads of length @p->bounded (1..FSOPS_BOUNDED_MAX) that @p->ranks
 * selects and @p's filesystem can perform (its families and links), in rank order, until it
 * returns non-zero. Returns 0, @fn's negative return, -EINVAL or -ENOMEM.
 */
int fsops_bounded_each(const struct fsops_params *p, fsops_bounded_fn *fn, void *ctx);

/* The ops of every workload's setup (the first ones of each, its syncfs last). */
uint64_t fsops_bounded_setup(const struct fsops_params *p);

/*
 * Called with the ops of the bounded space as a run lays them out (fsops_bounded_lay()): @n
 * ops, each of id @base + its own (@ops' ids are the workload's own: 1.. for a whole workload
 * or the setup, setup + 1.. for a workload's ops after its setup), performed in
 * directory @dir; @setup when they are the setup alone. @rank and @code are the workload's
 * (the first one's for a setup laid out once).
 */
typedef int fsops_bounded_laid_fn(void *ctx, uint64_t rank, const char *code,
				  const struct fsops_op *ops, uint64_t n, uint64_t base,
				  const char *dir, bool setup);

/*
 * fsops_bounded_each() as a run lays the workloads out. On one filesystem for all: each
 * workload whole in its directory w<rank>, its ids after those of the workloads before it. On
 * a fresh filesystem per workload (@p->fresh), the setup goes into the base: it is laid out
 * once, before the first workload (ids 1..setup, directory "w"), and each workload is its
 * ops after its setup, in "w", their ids after those of the setup and the workloads before.
 */
int fsops_bounded_lay(const struct fsops_params *p, fsops_bounded_laid_fn *fn, void *ctx);

/* The setup alone, as a workload's first ops (ids 1..*@n), into @ops: 0 or -errno. */
int fsops_bounded_setup_ops(const struct fsops_params *p, struct fsops_op *ops, uint64_t *n);

/*
 * The ops of the workload of code @text (ids 1..*@n, its setup first) into @ops (room for
 * FSOPS_BOUNDED_OPS_MAX), as the walk gives them. -EINVAL when @text is no workload of @p's
 * space, or -ENOMEM.
 */
int fsops_bounded_decode(const struct fsops_params *p, const char *text, struct fsops_op *ops,
			 uint64_t *n);

/* How many workloads of length @p->bounded its filesystem can perform, into *@ret. */
int fsops_bounded_count(const struct fsops_params *p, uint64_t *ret);

/* A workload's stable name, "seq2-00412", into @buf; its directory is "w<rank>" (one
 * filesystem for all) or "w" (a fresh one each). */
void fsops_bounded_name(unsigned length, uint64_t rank, char *buf, size_t len);

/* Run the workload in the current directory (run.c). Returns a process exit status. */
int fsops_run(const struct fsops_params *p);

/* Run the checker on BLACKOUT_MNT or the current directory (check.c). Exit status. */
int fsops_check(const struct fsops_params *p);

/* repro: a C program of the ops up to acknowledged op @upto, printed (repro.c); 0, 1 out of
 * memory or output, 2 when @upto is no acknowledged op. */
int fsops_repro(const struct fsops_params *p, uint64_t upto);

/* fstests: the same as a test in fstests' own form (its helpers, dm-flakey's power failure,
 * the expected tree in $TEST_DIR), printed; as fsops_repro(). */
int fsops_fstests(const struct fsops_params *p, uint64_t upto);

#endif

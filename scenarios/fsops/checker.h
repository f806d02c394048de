/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checker.h — the fsops checker's state, the types and constants all its files share:
 * check.c judges the ops (reads the ids, then the tree, observe.c, indexes the ops, opindex.c,
 * replays the model and judges each promise, promise.c); track.c follows, as the replay goes,
 * what each file may hold of an inode (its tracks), and uses nothing of the others (track.h is
 * what they call of it). Internal to the fsops program.
 */
#ifndef BO_FSOPS_CHECKER_H
#define BO_FSOPS_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenarios/fsops/fsops.h"

/*
 * A whole word's value: the write whose word it is (its low FSOPS_ID_BITS bits), and by how
 * many blocks a collapse or an insert has moved it since (the WORD_MOVE_BITS above, signed):
 * word w of value v holds what its write put at word word_at(v, w). 0 for zeros.
 */
#define WORD_MOVE_BITS 7

static inline uint32_t word_id(uint32_t v)
{
	return v & ((1u << FSOPS_ID_BITS) - 1);
}

static inline int word_moved(uint32_t v)
{
	int m = (int) ((v >> FSOPS_ID_BITS) & ((1u << WORD_MOVE_BITS) - 1));

	return m >= 1 << (WORD_MOVE_BITS - 1) ? m - (1 << WORD_MOVE_BITS) : m;
}

/* The value of write @id's word moved by @moved blocks. */
static inline uint32_t word_of(uint64_t id, int moved)
{
	uint32_t m = (uint32_t) moved & ((1u << WORD_MOVE_BITS) - 1);

	return id ? (uint32_t) id | m << FSOPS_ID_BITS : 0;
}

/* The word a whole word @w of value @v was written at. */
static inline uint64_t word_at(uint32_t v, uint64_t w)
{
	return (uint64_t) ((int64_t) w + (int64_t) word_moved(v) * (FSOPS_BLOCK / 8));
}

/* An odd word: bytes of several writes, or that no write made; judged byte by byte. */
#define WORD_ODD (1u << 31)
/* A word of an inode's content that is no one write's: its bytes are in the content's bytes. */
#define WORD_MIXED UINT32_MAX

enum obs_kind {
	OBS_ABSENT,
	OBS_FILE,
	OBS_DIR,
	OBS_SYMLINK,	/* a symbolic link: its target in link */
	OBS_OTHER,	/* something that is not what the model can produce */
	OBS_UNREADABLE, /* a regular file that could not be read whole */
};

/*
 * A run of a file's words or of an inode's content: from word @start to the next run's start
 * (the last to the end), each word @value: the write whose whole word it is, 0 for zeros, or
 * (one word alone) an odd word of a file (WORD_ODD | its index in odd) or a mixed word of a
 * content (WORD_MIXED, its bytes then in @bytes).
 */
struct word_run {
	uint32_t start;
	uint32_t value;
};

/* A word of a file that is no one write's whole word, nor zeros: its bytes (zeros past the end
 * of the file) are judged one by one. */
struct odd_word {
	uint32_t w;
	uint8_t bytes[8];
};

struct obs_file {
	enum obs_kind kind;
	uint64_t size;
	uint64_t have; /* bytes read: min(size, FSOPS_MAX_SIZE) */
	/* The inode whose writes it holds: 0 if none, UINT64_MAX if of more than one. */
	uint64_t owner;
	uint64_t link; /* a symlink: the symlink op whose target it holds, or 0 */
	/* Each attribute user.fsops<x>: the setxattr whose value it holds, 0 if absent,
	 * UINT64_MAX if it holds what no setxattr wrote or could not be read. */
	uint64_t xattr[FSOPS_NXATTRS];
	/* Its (have + 7) / 8 words (the last one maybe short), in runs: a write's words come
	 * in a row, so a file costs what it holds of each write, not its length. */
	struct word_run *runs;
	uint32_t nruns;
	struct odd_word *odd; /* ascending */
	uint32_t nodd;
};

/* The ops on one object (an inode, a file name, a directory), in id order. */
struct oplist {
	const struct fsops_op **v;
	size_t n, cap;
};

/*
 * What name @slot's file shows of one inode, as the replay goes: which of the file's words
 * nothing explains (not the inode's value now, not what a later issued write put there, not
 * zeros past a later cut), and how many; and for the bytes of its odd words, how many later
 * issued writes put the value found there.
 */
struct track {
	struct track *next; /* of the same inode */
	uint64_t ino;	    /* that inode */
	int slot;
	uint32_t *cnt;	  /* 8 per odd word of the file (in the track's own allocation) */
	uint32_t *zero;	  /* per word of the file: the later issued zeroing ops over it, or NULL
			   * when the inode has none (likewise) */
	uint32_t *copied; /* per word of the file: the later issued copies over it, collapses and
			   * inserts before it (likewise) */
	uint64_t *is_bad; /* a bit per word of the file (likewise) */
	uint64_t bad;	  /* of those */
};

/*
 * An inode's bytes as the replay goes, as far as a track looks: runs of words (struct
 * word_run), each the write whose whole word it is, 0 for zeros, or one word of WORD_MIXED
 * with its bytes.
 */
struct content_run {
	struct word_run r;
	uint8_t bytes[8];
};

struct content {
	uint64_t words;
	struct content_run *v; /* ascending, the first at word 0 */
	size_t n, cap;
};

/* An inode's future, for judging the promises made about it (future_of() finds it). */
struct future {
	uint64_t slots;	       /* a bit for every name it is ever given */
	uint64_t max_ever;     /* the largest size it ever has */
	struct oplist changes; /* its issued data ops, truncates and fallocates */
	struct oplist names;   /* its issued renames, links and unlinks (also as victim) */
	struct oplist xattrs;  /* its issued setxattrs and removexattrs */
	size_t pos, names_pos, xattrs_pos; /* the first of each not yet replayed */
	uint64_t *min_size, *max_size;	   /* of changes[j..]: the sizes they leave */
	uint64_t *min_cut;		   /* of changes[j..]: the smallest truncate */
	struct track *tracks;		   /* one per name that holds a readable file */
	struct content now;		   /* while it has tracks, or is a source */
	bool source;  /* an issued copy's source: its content is followed whole, for the copy */
	bool shifted; /* collapsed or inserted into: its content is followed whole */
	bool synced;  /* as the replay goes: an fsync of its own (or a syncfs) since its create */
};

struct checker {
	const struct fsops_params *p;
	struct fsops_op *ops; /* the ops performed, in order (with an op subset, not all ids) */
	uint64_t nops;
	const struct fsops_op **by_id; /* the ops performed, by id; NULL for one dropped */
	uint64_t n;		       /* the largest op id */
	struct future *fut;	       /* one per inode, in the order of their creates */
	size_t nfut;
	uint32_t *fut_at; /* by inode number (the creating op's id): its index in fut */
	struct oplist by_slot[FSOPS_NSLOTS]; /* ops that change a file name */
	struct oplist by_dir[FSOPS_NDIRS];   /* mkdir and rmdir */
	uint64_t slot_last[FSOPS_NSLOTS];    /* the last issued op of each by_slot, or 0 */
	uint64_t dir_last[FSOPS_NDIRS];	     /* the last issued op of each by_dir, or 0 */
	bool *issued, *acked, *present;	     /* indexed by op id */
	struct obs_file slot[FSOPS_NSLOTS];
	enum obs_kind dir[FSOPS_NDIRS];
	bool dir_synced[FSOPS_NDIRS]; /* as the replay goes: d fsync'd (or a syncfs) since mkdir */
};

/* The future of inode @ino. */
static inline struct future *future_of(const struct checker *c, uint64_t ino)
{
	return &c->fut[c->fut_at[ino]];
}

#endif

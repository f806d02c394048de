// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's judging of the sync-class ops: the model replayed, and each issued sync
 * op judged at its own point against what it promised (docs/checkers.md, the promise table):
 * syncfs the whole tree, a directory fsync its entries, a file fsync its inode (and with
 * promises = linux its names), a range sync its bytes, each allowing for whatever later issued
 * ops may have changed since. Whether a name holds an inode is the tracks' (track.c), kept
 * current op by op.
 */
#include <stdint.h>

#include "scenarios/fsops/check_int.h"
#include "scenarios/fsops/track.h"

/*
 * Whether attribute user.fsops<x> of name @s's file holds what inode @in's has at the op being
 * judged, or what a later issued setxattr or removexattr on it leaves, for every x.
 */
static bool xattrs_kept(const struct checker *c, const struct fsops_inode *in, int s)
{
	const struct future *f = future_of(c, in->ino);

	for (int x = 0; x < FSOPS_NXATTRS; x++) {
		uint64_t v = c->slot[s].xattr[x];
		size_t j = f->xattrs_pos;

		if (v == in->xattr[x])
			continue;
		for (; j < f->xattrs.n; j++) {
			const struct fsops_op *m = f->xattrs.v[j];

			if (m->off == (uint64_t) x && v == (m->type == FSOPS_SETXATTR ? m->id : 0))
				break;
		}
		if (j == f->xattrs.n)
			return false;
	}
	return true;
}

/* What a sync promises of an inode: bytes [from, to) and, with meta, its attributes. */
struct promise {
	uint64_t from, to;
	bool meta;
};
#define WHOLE_FILE ((struct promise){0, UINT64_MAX, true})

/* Whether name @s holds inode @in as @pr promises: a symlink, its target. */
static bool holds(const struct checker *c, const struct fsops_inode *in, int s, struct promise pr)
{
	if (in->symlink)
		return c->slot[s].kind == OBS_SYMLINK && c->slot[s].link == in->ino;
	return track_range_ok(c, in, s, pr.from, pr.to) && (!pr.meta || xattrs_kept(c, in, s));
}

/*
 * The promise @pr about inode @in made at op @k: some name it had at k or got later holds it
 * (acceptably), unless later issued ops dropped its last name.
 */
static bool inode_kept(struct checker *c, const struct fsops_model *md,
		       const struct fsops_inode *in, uint64_t k, struct promise pr)
{
	struct future *f = future_of(c, in->ino);
	int64_t nlink = in->nlink;

	/* The names it has at k are among those it is ever given. */
	for (uint64_t left = f->slots; left; left &= left - 1) {
		int s = __builtin_ctzll(left);

		if (md->slot_ino[s] == in->ino && holds(c, in, s, pr))
			return true;
	}
	while (f->names_pos < f->names.n && f->names.v[f->names_pos]->id <= k)
		f->names_pos++;
	for (size_t j = f->names_pos; j < f->names.n; j++) {
		const struct fsops_op *m = f->names.v[j];

		if ((fsops_is_rename(m->type) || m->type == FSOPS_LINK) && m->ino == in->ino &&
		    holds(c, in, m->b, pr))
			return true;
		if (m->type == FSOPS_EXCHANGE && m->victim == in->ino && holds(c, in, m->a, pr))
			return true;
		if ((m->type == FSOPS_UNLINK && m->ino == in->ino) ||
		    (m->type == FSOPS_RENAME && m->victim == in->ino))
			nlink--;
		if (m->type == FSOPS_LINK && m->ino == in->ino)
			nlink++;
		if (nlink == 0)
			return true;
	}
	return false;
}

/* syncfs at @k: every directory, name and file as of k, but for what later ops changed. */
static bool tree_kept(struct checker *c, const struct fsops_model *md, uint64_t k)
{
	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (c->dir_last[d] <= k && c->dir[d] != (md->dir_exists[d] ? OBS_DIR : OBS_ABSENT))
			return false;
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		if (c->slot_last[s] > k)
			continue;
		if (!md->slot_ino[s]
			    ? c->slot[s].kind != OBS_ABSENT
			    : !holds(c, fsops_model_inode(md, md->slot_ino[s]), s, WHOLE_FILE))
			return false;
	}
	for (size_t i = 0; i < md->ninodes; i++)
		if (!inode_kept(c, md, md->inodes[i], k, WHOLE_FILE))
			return false;
	return true;
}

/*
 * fsync of file @in at @k, by the promise table: every name it has at k that no later op
 * touched holds it — with promises = linux every such name (what ext4, xfs and btrfs promise:
 * the names it was created, linked or renamed under), and some name it had at k or got later
 * (inode_kept()); with promises = posix only the names a directory fsync or a syncfs made
 * durable before (POSIX promises its data and size, reachable through those).
 */
static bool file_kept(struct checker *c, const struct fsops_model *md, const struct fsops_inode *in,
		      uint64_t k, struct promise pr)
{
	bool posix = c->p->promises == FSOPS_PROMISES_POSIX;

	for (int s = 0; s < FSOPS_NSLOTS; s++)
		if (md->slot_ino[s] == in->ino && c->slot_last[s] <= k &&
		    (!posix || fsops_name_durable(md, s)) && !holds(c, in, s, pr))
			return false;
	return posix || inode_kept(c, md, in, k, pr);
}

/*
 * Whether a directory's entry that holds inode @in shows @o as its fsync promised: a file (its
 * data is not promised), and not one of another inode's data (but for what issued copies
 * into it could have put there: track_foreign_ok());
 * a symlink with its target (fstests generic/348).
 */
static bool entry_kept(const struct checker *c, const struct fsops_inode *in,
		       const struct obs_file *o)
{
	if (in->symlink)
		return o->kind == OBS_SYMLINK && o->link == in->ino;
	if (o->kind == OBS_FILE)
		return track_foreign_ok(c, in->ino, o);
	return o->kind == OBS_UNREADABLE;
}

/*
 * fsync of directory @d (-1: the root) at @k: its entries as of k, for every name in it that
 * no later op touched — absent if it was absent, else a file (its data is not promised),
 * and not a file of another inode (the name's old inode, say, when a rename replaced it).
 * The root's entries include d0..d3. A directory whose own name was never made durable is
 * excused if it is not there. With promises = posix, a name is required to hold its file only
 * when that file was fsync'd itself since its create (or a syncfs ran), a directory only when
 * it was: POSIX makes the entry durable, not the inode it names.
 */
static bool dir_kept(const struct checker *c, const struct fsops_model *md, int d, uint64_t k)
{
	bool posix = c->p->promises == FSOPS_PROMISES_POSIX;

	for (int e = 0; e < FSOPS_NDIRS && d < 0; e++) {
		if (c->dir_last[e] > k)
			continue;
		if (!md->dir_exists[e] ? c->dir[e] != OBS_ABSENT
				       : (!posix || c->dir_synced[e]) && c->dir[e] != OBS_DIR)
			return false;
	}
	if (d >= 0 && !md->dir_durable[d] && c->dir[d] != OBS_DIR)
		return true;
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];
		uint64_t ino = md->slot_ino[s];

		if (fsops_slot_dir(s) != d || c->slot_last[s] > k ||
		    (ino && posix && !future_of(c, ino)->synced))
			continue;
		if (!ino ? o->kind != OBS_ABSENT : !entry_kept(c, fsops_model_inode(md, ino), o))
			return false;
	}
	return true;
}

/* What op @op (just replayed into @md) synced of itself: an inode, a directory, everything. */
static void note_synced(struct checker *c, const struct fsops_model *md, const struct fsops_op *op)
{
	switch (op->type) {
	case FSOPS_FSYNC:
	case FSOPS_FSYNC_FILE:
	case FSOPS_FDATASYNC:
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		future_of(c, op->ino)->synced = true;
		break;
	case FSOPS_FSYNC_DIR:
		if (op->a >= 0)
			c->dir_synced[op->a] = true;
		break;
	case FSOPS_SYNC:
		for (size_t i = 0; i < md->ninodes; i++)
			future_of(c, md->inos[i])->synced = true;
		for (int d = 0; d < FSOPS_NDIRS; d++)
			c->dir_synced[d] = md->dir_exists[d];
		break;
	case FSOPS_MKDIR:
		c->dir_synced[op->a] = false;
		break;
	default:
		break;
	}
}

int judge_syncs(struct checker *c)
{
	struct fsops_model md;
	int r = 0;

	fsops_model_init(&md, c->p);
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		struct fsops_inode *in = op->ino ? fsops_model_inode(&md, op->ino) : NULL;
		struct promise range = {op->off, op->off + op->len, false};

		if (in && fsops_is_change(op->type))
			r = tracks_replay(c, op, in);
		if (r == 0)
			r = fsops_model_apply(&md, op);
		if (r < 0)
			break;
		if ((op->type == FSOPS_SETXATTR || op->type == FSOPS_REMOVEXATTR) &&
		    c->issued[op->id])
			future_of(c, op->ino)->xattrs_pos++;
		if (op->type == FSOPS_CREATE)
			r = tracks_start(c, fsops_model_inode(&md, op->ino));
		/* An inode without a name is never judged again. */
		if (op->type == FSOPS_UNLINK && !fsops_model_inode(&md, op->ino))
			tracks_free(future_of(c, op->ino));
		if (op->type == FSOPS_RENAME && op->victim && !fsops_model_inode(&md, op->victim))
			tracks_free(future_of(c, op->victim));
		if (r < 0)
			break;
		note_synced(c, &md, op);
		if (!fsops_is_sync(op->type) || !c->issued[op->id])
			continue;
		in = op->ino ? fsops_model_inode(&md, op->ino) : NULL;
		switch (op->type) {
		case FSOPS_SYNC:
			c->present[op->id] = tree_kept(c, &md, op->id);
			break;
		case FSOPS_FSYNC_DIR:
			c->present[op->id] = dir_kept(c, &md, op->a, op->id);
			break;
		case FSOPS_FSYNC_FILE:
			c->present[op->id] = file_kept(c, &md, in, op->id, WHOLE_FILE);
			break;
		case FSOPS_SYNC_WRITE:
			/* O_SYNC: its own bytes, and the inode's metadata as fsync's. */
			range.meta = true;
			c->present[op->id] = file_kept(c, &md, in, op->id, range);
			break;
		case FSOPS_DSYNC_WRITE:
		case FSOPS_MMAP_WRITE:
			/* RWF_DSYNC, msync: a data sync of the range written. */
			c->present[op->id] = inode_kept(c, &md, in, op->id, range);
			break;
		case FSOPS_FDATASYNC:
			c->present[op->id] = inode_kept(c, &md, in, op->id,
							(struct promise){0, UINT64_MAX, false});
			break;
		default: /* the path fsync: the file, its directory and the root */
			c->present[op->id] = inode_kept(c, &md, in, op->id, WHOLE_FILE);
			break;
		}
	}
	fsops_model_release(&md);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-fsops fstests: the ops up to an acknowledged op N as a test in fstests' own form
 * (docs/export.md): fstests' helpers, the ops as xfs_io and shell commands run once in
 * $TEST_DIR and once on the scratch device, dm-flakey's power failure right after op N's
 * acknowledgement, and what it promised compared; the golden output is the line repro.c's
 * check prints on the kept side.
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"
#include "scenarios/fsops/upto.h"

/* The fill byte of op @id's writes in the fstests form (xfs_io -S): never 0, a hole's. */
static unsigned pattern(uint64_t id)
{
	return (unsigned) (id % 255) + 1;
}

/* One op as an fstests shell line (in the directory the ops run in). */
static void emit_shell_op(const struct fsops_op *op)
{
	unsigned long long off = (unsigned long long) op->off, len = (unsigned long long) op->len;
	unsigned s = pattern(op->id);
	char a[16], b[16];

	fsops_op_paths(op, a, b, sizeof(a));
	printf("\t# op %llu: %s\n\t", (unsigned long long) op->id, fsops_type_name(op->type));
	switch (op->type) {
	case FSOPS_CREATE:
		printf("touch %s\n", a);
		break;
	case FSOPS_WRITE:
	case FSOPS_APPEND:
	case FSOPS_OVERWRITE:
		printf("$XFS_IO_PROG -c \"pwrite -S 0x%02x %llu %llu\" %s >>$seqres.full\n", s, off,
		       len, a);
		break;
	case FSOPS_DIO_WRITE:
		printf("$XFS_IO_PROG -d -c \"pwrite -S 0x%02x %llu %llu\" %s >>$seqres.full\n", s,
		       off, len, a);
		break;
	case FSOPS_DSYNC_WRITE:
		printf("$XFS_IO_PROG -c \"pwrite -V 1 -D -S 0x%02x %llu %llu\" %s >>$seqres.full\n",
		       s, off, len, a);
		break;
	case FSOPS_SYNC_WRITE:
		printf("$XFS_IO_PROG -s -c \"pwrite -S 0x%02x %llu %llu\" %s >>$seqres.full\n", s,
		       off, len, a);
		break;
	case FSOPS_MMAP_WRITE:
		printf("$XFS_IO_PROG -c \"mmap -rw 0 %llu\" -c \"mwrite -S 0x%02x %llu %llu\" -c "
		       "\"msync "
		       "-s 0 %llu\" %s >>$seqres.full\n",
		       off + len, s, off, len, off + len, a);
		break;
	case FSOPS_FALLOC:
		printf("$XFS_IO_PROG -c \"falloc %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_FALLOC_KEEP:
		printf("$XFS_IO_PROG -c \"falloc -k %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_PUNCH:
		printf("$XFS_IO_PROG -c \"fpunch %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_ZERO:
		printf("$XFS_IO_PROG -c \"fzero %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_ZERO_KEEP:
		printf("$XFS_IO_PROG -c \"fzero -k %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_COLLAPSE:
		printf("$XFS_IO_PROG -c \"fcollapse %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_INSERT:
		printf("$XFS_IO_PROG -c \"finsert %llu %llu\" %s\n", off, len, a);
		break;
	case FSOPS_SETXATTR:
		printf("$SETFATTR_PROG -n user.fsops%d -v op%llu %s\n", (int) op->off,
		       (unsigned long long) op->id, a);
		break;
	case FSOPS_REMOVEXATTR:
		printf("$SETFATTR_PROG -x user.fsops%d %s\n", (int) op->off, a);
		break;
	case FSOPS_RENAME:
		printf("mv -T %s %s\n", a, b);
		break;
	case FSOPS_RENAME_NOREPLACE:
		printf("$here/src/renameat2 -n %s %s\n", a, b);
		break;
	case FSOPS_EXCHANGE:
		printf("$here/src/renameat2 -x %s %s\n", a, b);
		break;
	case FSOPS_COPY:
		printf("$XFS_IO_PROG -c \"copy_range -s %llu -d %llu -l %llu %s\" %s "
		       ">>$seqres.full\n",
		       off, off, len, b, a);
		break;
	case FSOPS_CLONE:
		printf("$XFS_IO_PROG -c \"reflink %s\" %s >>$seqres.full\n", b, a);
		break;
	case FSOPS_CLONE_RANGE:
		printf("$XFS_IO_PROG -c \"reflink %s %llu %llu %llu\" %s >>$seqres.full\n", b, off,
		       off, len, a);
		break;
	case FSOPS_SYMLINK:
		/* its target names the op, as a setxattr's value does */
		printf("ln -s op%llu %s\n", (unsigned long long) op->id, a);
		break;
	case FSOPS_TRUNCATE:
		printf("$XFS_IO_PROG -c \"truncate %llu\" %s\n", off, a);
		break;
	case FSOPS_LINK:
		printf("ln %s %s\n", a, b);
		break;
	case FSOPS_UNLINK:
		printf("rm %s\n", a);
		break;
	case FSOPS_MKDIR:
		printf("mkdir %s\n", a);
		break;
	case FSOPS_RMDIR:
		printf("rmdir %s\n", a);
		break;
	case FSOPS_FSYNC:
		printf("$XFS_IO_PROG -c fsync %s\n", a);
		if (fsops_slot_dir(op->a) >= 0)
			printf("\t$XFS_IO_PROG -c fsync %s\n",
			       fsops_dir_path(fsops_slot_dir(op->a), b, sizeof(b)));
		printf("\t$XFS_IO_PROG -c fsync .\n");
		break;
	case FSOPS_FDATASYNC:
		printf("$XFS_IO_PROG -c fdatasync %s\n", a);
		break;
	case FSOPS_FSYNC_FILE:
	case FSOPS_FSYNC_DIR:
		printf("$XFS_IO_PROG -c fsync %s\n", a);
		break;
	case FSOPS_SYNC:
		printf("$XFS_IO_PROG -c syncfs .\n");
		break;
	case FSOPS_NTYPES:
		break;
	}
}

int fsops_fstests(const struct fsops_params *p, uint64_t upto)
{
	bool linux_names = p->promises == FSOPS_PROMISES_LINUX;
	bool has[FSOPS_NTYPES] = {false};
	struct fsops_upto c = {0};
	const struct fsops_op *last;
	const char *dir = "";
	char promise[128], a[16], b[16], path[48];
	int rc = fsops_upto_collect(p, upto, &c);

	if (rc)
		goto out;
	if (p->bug != FSOPS_BUG_NONE) {
		fputs("blackout-fsops: the fstests form has no planted bug: a test of the kernel\n",
		      stderr);
		rc = 2;
		goto out;
	}
	last = &c.v[c.n - 1];
	for (uint64_t i = 0; i < c.n; i++)
		has[c.v[i].type] = true;
	fsops_op_paths(last, a, b, sizeof(a));
	fsops_upto_path(c.dir[c.n - 1], a, path, sizeof(path));
	fsops_upto_promise(last, a, linux_names, promise, sizeof(promise));
	printf("#! /bin/bash\n# SPDX-License-Identifier: GPL-2.0\n#\n# FS QA Test No. 999\n#\n"
	       "# Ops 1-%llu of blackout-fsops %s, then a power failure right after op %llu's\n"
	       "# acknowledgement (%s): what it promised must be there after the mount,\n"
	       "# as the same ops left it without the failure (in $TEST_DIR). Written by blackout\n"
	       "# export; renumber it with ./new.\n#\n",
	       (unsigned long long) upto, fsops_upto_source(p), (unsigned long long) upto, promise);
	printf(". ./common/preamble\n_begin_fstest auto quick log metadata\n\n"
	       "_cleanup()\n{\n\t_cleanup_flakey\n\tcd /\n\trm -rf $tmp.* "
	       "$TEST_DIR/$seq.expected\n}\n\n"
	       ". ./common/filter\n. ./common/dmflakey\n");
	if (has[FSOPS_SETXATTR] || has[FSOPS_REMOVEXATTR])
		printf(". ./common/attr\n");
	if (has[FSOPS_RENAME_NOREPLACE] || has[FSOPS_EXCHANGE])
		printf(". ./common/renameat2\n");
	if (has[FSOPS_CLONE] || has[FSOPS_CLONE_RANGE])
		printf(". ./common/reflink\n");
	printf("\n_require_scratch\n_require_test\n_require_dm_target flakey\n");
	if (has[FSOPS_LINK])
		printf("_require_hardlinks\n");
	if (has[FSOPS_SYMLINK])
		printf("_require_symlinks\n");
	if (has[FSOPS_DIO_WRITE])
		printf("_require_odirect\n");
	if (has[FSOPS_FALLOC] || has[FSOPS_FALLOC_KEEP])
		printf("_require_xfs_io_command \"falloc\"\n");
	if (has[FSOPS_PUNCH])
		printf("_require_xfs_io_command \"fpunch\"\n");
	if (has[FSOPS_ZERO] || has[FSOPS_ZERO_KEEP])
		printf("_require_xfs_io_command \"fzero\"\n");
	if (has[FSOPS_COLLAPSE])
		printf("_require_xfs_io_command \"fcollapse\"\n");
	if (has[FSOPS_INSERT])
		printf("_require_xfs_io_command \"finsert\"\n");
	if (has[FSOPS_DSYNC_WRITE])
		printf("_require_xfs_io_command \"pwrite\" \"-D\"\n");
	if (has[FSOPS_SETXATTR] || has[FSOPS_REMOVEXATTR])
		printf("_require_attrs user\n");
	if (has[FSOPS_RENAME_NOREPLACE])
		printf("_require_renameat2 noreplace\n");
	if (has[FSOPS_EXCHANGE])
		printf("_require_renameat2 exchange\n");
	if (has[FSOPS_COPY])
		printf("_require_xfs_io_command \"copy_range\"\n");
	/* The ops run in $TEST_DIR as well as on the scratch device. */
	if (has[FSOPS_CLONE] || has[FSOPS_CLONE_RANGE])
		printf("_require_test_reflink\n_require_scratch_reflink\n");
	printf("\n_scratch_mkfs >>$seqres.full 2>&1\n_init_flakey\n_scratch_mount\n\n"
	       "# The ops, in directory $1, up to op %llu's acknowledgement and nothing after.\n"
	       "ops()\n{\n\tcd $1 || _fail \"cd $1\"\n",
	       (unsigned long long) upto);
	for (uint64_t i = 0; i < c.n; i++) {
		if (strcmp(dir, c.dir[i])) {
			if (*dir)
				printf("\tcd ..\n");
			if (*c.dir[i])
				printf("\tmkdir %s\n\tcd %s\n", c.dir[i], c.dir[i]);
			dir = c.dir[i];
		}
		emit_shell_op(&c.v[i]);
	}
	printf("\tcd /\n}\n\n"
	       "expected=$TEST_DIR/$seq.expected\nrm -rf $expected\nmkdir $expected\n"
	       "ops $expected\nops $SCRATCH_MNT\n\n"
	       "# The power failure: every write after the acknowledgement dropped.\n"
	       "_flakey_drop_and_remount\n\n"
	       "lost()\n{\n\techo \"LOST: op %llu's acknowledgement (%s): $1\"\n}\n\n",
	       (unsigned long long) upto, promise);
	switch (last->type) {
	case FSOPS_FSYNC_DIR:
		printf("names()\n{\n\tls -A $1 | grep -v '^lost+found$'\n}\n"
		       "if [ \"$(names $SCRATCH_MNT/%s)\" != \"$(names $expected/%s)\" ]; then\n"
		       "\tlost \"directory %s does not hold the names promised\"\n",
		       path, path, path);
		break;
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		printf("if ! cmp -s -i %llu -n %llu $SCRATCH_MNT/%s $expected/%s; then\n"
		       "\tlost \"%s does not hold the bytes promised in the range written\"\n",
		       (unsigned long long) last->off, (unsigned long long) last->len, path, path,
		       path);
		break;
	case FSOPS_SYNC:
		printf("if ! diff -r -q --no-dereference --exclude=lost+found $SCRATCH_MNT "
		       "$expected >>$seqres.full; then\n\tlost \"the tree differs from the one "
		       "promised\"\n");
		break;
	default:
		printf("if [ ! -e $SCRATCH_MNT/%s ]; then\n\t%s\n"
		       "elif ! cmp -s $SCRATCH_MNT/%s $expected/%s; then\n"
		       "\tlost \"%s does not hold the bytes and size promised\"\n",
		       path,
		       last->type == FSOPS_FSYNC_FILE && !linux_names
			       ? ": # its name was not promised"
			       : "lost \"the file is gone\"",
		       path, path, path);
		break;
	}
	printf("else\n\techo \"kept: op %llu's acknowledgement (%s)\"\nfi\n\n"
	       "_scratch_unmount\n_cleanup_flakey\n\nstatus=0\nexit\n",
	       (unsigned long long) upto, promise);
out:
	fsops_upto_free(&c);
	return rc;
}

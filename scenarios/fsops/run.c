// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops workload: perform the generated ops in the current directory, announcing each
 * with "issue <id>" before it starts and acknowledging each sync-class op with "ack <id>"
 * once the sync returned. The only link to the harness is scenarios/blackout-ctl.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "scenarios/blackout-ctl.h"
#include "scenarios/fsops/fsops.h"

struct runner {
	_Alignas(FSOPS_DIO_ALIGN) uint8_t buf[FSOPS_MAX_WRITE]; /* aligned for O_DIRECT */
	const struct fsops_params *p;
	char what[240]; /* the call that failed, for the message */
};

static int fail(struct runner *r, const char *call, const char *path)
{
	int e = errno;

	snprintf(r->what, sizeof(r->what), "%s '%s': %s%s", call, path, strerror(e),
		 e == EOPNOTSUPP || (e == EINVAL && !strcmp(call, "open O_DIRECT"))
			 ? " (this filesystem does not support it: leave its family out of "
			   "[workload] families)"
			 : "");
	return -e;
}

/* fsync @path (a file or a directory). */
static int sync_path(struct runner *r, const char *path, bool data_only)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return fail(r, "open", path);
	rc = data_only ? fdatasync(fd) : fsync(fd);
	if (rc < 0) {
		rc = fail(r, data_only ? "fdatasync" : "fsync", path);
		close(fd);
		return rc;
	}
	close(fd);
	return 0;
}

/* pwritev2 @op's data to @path opened with @flags more, each call with @rwf. */
static int do_write(struct runner *r, const struct fsops_op *op, const char *path, int flags,
		    int rwf)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	size_t done = 0;

	if (fd < 0)
		return fail(r, flags & O_DIRECT ? "open O_DIRECT" : "open", path);
	fsops_fill(r->p->seed, op->id, op->off, r->buf, op->len);
	while (done < op->len) {
		struct iovec v = {r->buf + done, op->len - done};
		ssize_t n = pwritev2(fd, &v, 1, (off_t) (op->off + done), rwf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			n = fail(r, rwf ? "pwritev2 RWF_DSYNC" : "pwrite", path);
			close(fd);
			return (int) n;
		}
		done += (size_t) n;
	}
	if (close(fd) < 0)
		return fail(r, "close", path);
	return 0;
}

/* Store @op's data through a shared mapping of @path, then msync it unless @skip_sync. */
static int do_mmap_write(struct runner *r, const struct fsops_op *op, const char *path,
			 bool skip_sync)
{
	uint64_t page = (uint64_t) sysconf(_SC_PAGESIZE), start = op->off / page * page;
	size_t maplen = (size_t) (op->off + op->len - start);
	int fd = open(path, O_RDWR | O_CLOEXEC), rc = 0;
	uint8_t *map;

	if (fd < 0)
		return fail(r, "open", path);
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t) start);
	if (map == MAP_FAILED) {
		rc = fail(r, "mmap", path);
		close(fd);
		return rc;
	}
	fsops_fill(r->p->seed, op->id, op->off, r->buf, op->len);
	memcpy(map + (op->off - start), r->buf, op->len);
	if (!skip_sync && msync(map, maplen, MS_SYNC) < 0)
		rc = fail(r, "msync", path);
	munmap(map, maplen);
	close(fd);
	return rc;
}

static int do_fallocate(struct runner *r, const struct fsops_op *op, const char *path, int mode)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return fail(r, "open", path);
	if (fallocate(fd, mode, (off_t) op->off, (off_t) op->len) < 0)
		rc = fail(r, "fallocate", path);
	close(fd);
	return rc;
}

/* Copy @op's range of @src into @dst at the same offsets: copy_file_range(), FICLONE or
 * FICLONERANGE by its type. */
static int do_copy(struct runner *r, const struct fsops_op *op, const char *src, const char *dst)
{
	int sfd = open(src, O_RDONLY | O_CLOEXEC), dfd = -1, rc = 0;
	loff_t in = (loff_t) op->off, out = (loff_t) op->off;
	uint64_t done = 0;

	if (sfd < 0)
		return fail(r, "open", src);
	dfd = open(dst, O_WRONLY | O_CLOEXEC);
	if (dfd < 0) {
		rc = fail(r, "open", dst);
		goto out;
	}
	if (op->type == FSOPS_CLONE) {
		if (ioctl(dfd, FICLONE, sfd) < 0)
			rc = fail(r, "ioctl FICLONE", dst);
		goto out;
	}
	if (op->type == FSOPS_CLONE_RANGE) {
		struct file_clone_range fcr = {sfd, op->off, op->len, op->off};

		if (ioctl(dfd, FICLONERANGE, &fcr) < 0)
			rc = fail(r, "ioctl FICLONERANGE", dst);
		goto out;
	}
	/* copy_file_range may copy less than asked: go on from where it stopped. */
	while (done < op->len && rc == 0) {
		ssize_t n = copy_file_range(sfd, &in, dfd, &out, op->len - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO; /* the source ends before the range: not the model's tree */
		if (n <= 0)
			rc = fail(r, "copy_file_range", dst);
		else
			done += (uint64_t) n;
	}
out:
	if (dfd >= 0 && close(dfd) < 0 && rc == 0)
		rc = fail(r, "close", dst);
	close(sfd);
	return rc;
}

/* Perform @op on the filesystem. */
static int perform(struct runner *r, const struct fsops_op *op)
{
	bool bug = r->p->bug == FSOPS_BUG_ACK_WITHOUT_FSYNC;
	char a[16], b[16];
	int fd, rc;

	fsops_op_paths(op, a, b, sizeof(a));

	switch (op->type) {
	case FSOPS_CREATE:
		fd = open(a, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return fail(r, "create", a);
		return close(fd) < 0 ? fail(r, "close", a) : 0;
	case FSOPS_WRITE:
	case FSOPS_APPEND:
	case FSOPS_OVERWRITE:
		return do_write(r, op, a, 0, 0);
	case FSOPS_DIO_WRITE:
		return do_write(r, op, a, O_DIRECT, 0);
	case FSOPS_DSYNC_WRITE:
		return do_write(r, op, a, 0, bug ? 0 : RWF_DSYNC);
	case FSOPS_SYNC_WRITE:
		return do_write(r, op, a, bug ? 0 : O_SYNC, 0);
	case FSOPS_MMAP_WRITE:
		return do_mmap_write(r, op, a, bug);
	case FSOPS_FALLOC:
		return do_fallocate(r, op, a, 0);
	case FSOPS_FALLOC_KEEP:
		return do_fallocate(r, op, a, FALLOC_FL_KEEP_SIZE);
	case FSOPS_PUNCH:
		return do_fallocate(r, op, a, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE);
	case FSOPS_ZERO:
		return do_fallocate(r, op, a, FALLOC_FL_ZERO_RANGE);
	case FSOPS_ZERO_KEEP:
		return do_fallocate(r, op, a, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE);
	case FSOPS_COLLAPSE:
		return do_fallocate(r, op, a, FALLOC_FL_COLLAPSE_RANGE);
	case FSOPS_INSERT:
		return do_fallocate(r, op, a, FALLOC_FL_INSERT_RANGE);
	case FSOPS_SETXATTR: {
		char name[32], value[64];

		snprintf(name, sizeof(name), "user.fsops%d", (int) op->off);
		fsops_xattr_value(r->p->seed, op->id, (int) op->off, value, sizeof(value));
		return setxattr(a, name, value, strlen(value), 0) < 0 ? fail(r, "setxattr", a) : 0;
	}
	case FSOPS_REMOVEXATTR: {
		char name[32];

		snprintf(name, sizeof(name), "user.fsops%d", (int) op->off);
		return removexattr(a, name) < 0 ? fail(r, "removexattr", a) : 0;
	}
	case FSOPS_RENAME_NOREPLACE:
		return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE) < 0
			       ? fail(r, "renameat2 RENAME_NOREPLACE", a)
			       : 0;
	case FSOPS_EXCHANGE:
		return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) < 0
			       ? fail(r, "renameat2 RENAME_EXCHANGE", a)
			       : 0;
	case FSOPS_COPY:
	case FSOPS_CLONE:
	case FSOPS_CLONE_RANGE:
		return do_copy(r, op, b, a);
	case FSOPS_SYMLINK: {
		char target[64];

		fsops_symlink_target(r->p->seed, op->id, target, sizeof(target));
		return symlink(target, a) < 0 ? fail(r, "symlink", a) : 0;
	}
	case FSOPS_TRUNCATE:
		return truncate(a, (off_t) op->off) < 0 ? fail(r, "truncate", a) : 0;
	case FSOPS_RENAME:
		return rename(a, b) < 0 ? fail(r, "rename", a) : 0;
	case FSOPS_LINK:
		return link(a, b) < 0 ? fail(r, "link", a) : 0;
	case FSOPS_UNLINK:
		return unlink(a) < 0 ? fail(r, "unlink", a) : 0;
	case FSOPS_MKDIR:
		return mkdir(a, 0755) < 0 ? fail(r, "mkdir", a) : 0;
	case FSOPS_RMDIR:
		return rmdir(a) < 0 ? fail(r, "rmdir", a) : 0;
	case FSOPS_FSYNC:
		if (bug)
			return 0;
		/* The file, then the directory holding its name, then the root holding the
		 * directory's name: what makes both the data and the name durable. */
		rc = sync_path(r, a, false);
		if (rc == 0 && fsops_slot_dir(op->a) >= 0)
			rc = sync_path(r, fsops_dir_path(fsops_slot_dir(op->a), b, sizeof(b)),
				       false);
		return rc < 0 ? rc : sync_path(r, ".", false);
	case FSOPS_FDATASYNC:
		return bug ? 0 : sync_path(r, a, true);
	case FSOPS_FSYNC_FILE:
	case FSOPS_FSYNC_DIR:
		return bug ? 0 : sync_path(r, a, false);
	case FSOPS_SYNC:
		if (bug)
			return 0;
		/* syncfs rather than sync: the same promise for this filesystem, and since
		 * Linux 5.8 it reports writeback errors, which sync(2) never does. */
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return fail(r, "open", ".");
		rc = syncfs(fd) < 0 ? fail(r, "syncfs", ".") : 0;
		close(fd);
		return rc;
	case FSOPS_NTYPES:
		break;
	}
	errno = EINVAL;
	return fail(r, "unknown op", a);
}

/* Refuse to start over an existing tree: the model assumes an empty namespace. */
static int check_empty(void)
{
	char path[16];
	struct stat st;

	for (int d = 0; d < FSOPS_NDIRS; d++)
		if (lstat(fsops_dir_path(d, path, sizeof(path)), &st) == 0)
			goto exists;
	for (int s = 0; s < FSOPS_FILES_PER_DIR; s++)
		if (lstat(fsops_slot_path(s, path, sizeof(path)), &st) == 0)
			goto exists;
	return 0;
exists:
	fprintf(stderr, "blackout-fsops: '%s' already exists: start in a fresh directory\n", path);
	return -EEXIST;
}

/*
 * Announce, perform and acknowledge one op, as op @base + its id; -1 (after saying why) when
 * the run must stop.
 */
static int step(struct runner *r, const struct fsops_op *op, uint64_t base)
{
	if (bo_ctl_issue(base + op->id) < 0) {
		fprintf(stderr, "blackout-fsops: op %llu: %s\n",
			(unsigned long long) (base + op->id), bo_ctl_error());
		return -1;
	}
	if (perform(r, op) < 0) {
		fprintf(stderr, "blackout-fsops: op %llu (%s): %s\n",
			(unsigned long long) (base + op->id), fsops_type_name(op->type), r->what);
		/* The planted bug: a failed sync is reported, then acknowledged as if it had
		 * worked — what an application that ignores fsync's EIO does. */
		if (!(r->p->bug == FSOPS_BUG_IGNORE_SYNC_ERROR && fsops_is_sync(op->type)))
			return -1;
	}
	if (fsops_is_sync(op->type) && bo_ctl_ack(base + op->id) < 0) {
		fprintf(stderr, "blackout-fsops: op %llu: %s\n",
			(unsigned long long) (base + op->id), bo_ctl_error());
		return -1;
	}
	return 0;
}

struct bounded_run {
	struct runner *r;
	/* --fresh: the filesystem's mount point, where the workload started */
	char mnt[PATH_MAX];
};

/*
 * Leave the filesystem, ask for mark @name (`base`, or `fresh:<label>`: the harness unmounts
 * it, keeps it as the base or takes it back there, and mounts it again), and come back.
 */
static int remount(struct bounded_run *b, const char *name)
{
	if (chdir("/") < 0) {
		fprintf(stderr, "blackout-fsops: leaving '%s': %s\n", b->mnt, strerror(errno));
		return -1;
	}
	if (bo_ctl_mark(name) < 0) {
		fprintf(stderr, "blackout-fsops: mark '%s': %s\n", name, bo_ctl_error());
		return -1;
	}
	if (chdir(b->mnt) < 0) {
		fprintf(stderr, "blackout-fsops: after mark '%s': '%s': %s\n", name, b->mnt,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Run what fsops_bounded_lay() lays out, each workload in its directory. On a fresh
 * filesystem per workload the setup comes first, then `base` (the filesystem every workload
 * starts from: the setup's), and before each workload `fresh:<name>/<first id>/<code>`, what
 * the checker is told the state's workload is (its first id: that of its first op after the
 * setup).
 */
static int run_laid(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
		    uint64_t n, uint64_t base, const char *dir, bool setup)
{
	struct bounded_run *b = ctx;
	bool fresh = b->r->p->fresh;
	int rc = 0;

	if (fresh && !setup) {
		char name[32], mark[32 + 24 + FSOPS_BOUNDED_CODE_MAX + 16];

		fsops_bounded_name(b->r->p->bounded, rank, name, sizeof(name));
		snprintf(mark, sizeof(mark), "fresh:%s/%llu/%s", name,
			 (unsigned long long) (base + ops[0].id), code);
		if (remount(b, mark) < 0)
			return -1;
	}
	/* The setup makes the directory; on a fresh filesystem it is in the base. */
	if ((!fresh || setup) && mkdir(dir, 0755) < 0) {
		fprintf(stderr, "blackout-fsops: workload directory '%s': %s%s\n", dir,
			strerror(errno), errno == EEXIST ? ": start in a fresh directory" : "");
		return -1;
	}
	if (chdir(dir) < 0) {
		fprintf(stderr, "blackout-fsops: workload directory '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (uint64_t i = 0; i < n && rc == 0; i++)
		rc = step(b->r, &ops[i], base);
	if (rc == 0 && chdir("..") < 0) {
		fprintf(stderr, "blackout-fsops: leaving '%s': %s\n", dir, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && setup && remount(b, "base") < 0)
		rc = -1;
	return rc;
}

int fsops_run(const struct fsops_params *p)
{
	struct runner *r = aligned_alloc(FSOPS_DIO_ALIGN, sizeof(struct runner));
	struct fsops_op *seq = NULL;
	struct fsops_model m;
	struct fsops_op op;
	uint64_t n = 0;
	int rc = 0;

	if (!r) {
		fputs("blackout-fsops: out of memory\n", stderr);
		return 1;
	}
	memset(r, 0, sizeof(*r));
	r->p = p;
	if (p->bounded) {
		struct bounded_run b = {.r = r};

		if (p->fresh && !getcwd(b.mnt, sizeof(b.mnt))) {
			perror("blackout-fsops: getcwd");
			free(r);
			return 1;
		}
		rc = fsops_bounded_lay(p, run_laid, &b);
		if (rc == -ENOMEM)
			fputs("blackout-fsops: out of memory\n", stderr);
		bo_ctl_close();
		free(r);
		return rc ? 1 : 0;
	}
	if (check_empty() < 0) {
		free(r);
		return 1;
	}
	/* An op subset is small: it is derived whole. The full sequence is drawn as it goes. */
	if (p->keep && fsops_sequence(p, &seq, &n) < 0) {
		fputs("blackout-fsops: out of memory\n", stderr);
		free(r);
		return 1;
	}
	fsops_model_init(&m, p);
	for (uint64_t i = 0; i < (p->keep ? n : p->ops); i++) {
		if (p->keep) {
			op = seq[i];
		} else if (fsops_model_next(&m, &op) < 0 || fsops_model_apply(&m, &op) < 0) {
			fputs("blackout-fsops: out of memory\n", stderr);
			rc = 1;
			break;
		}
		if (step(r, &op, 0) < 0) {
			rc = 1;
			break;
		}
	}
	bo_ctl_close();
	fsops_model_release(&m);
	free(seq);
	free(r);
	return rc;
}

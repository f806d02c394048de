// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real filesystems on real loop devices: mkfs, blkid detection, mount and umount with their
 * errors, and fsck verdicts on a clean and on a deliberately damaged filesystem of each kind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/fsdetect.h"
#include "harness/dev/fstool.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"
#include "root_util.h"

#define TIMEOUT_MS 120000

static const char *run, *mnt;

/* A fresh image file @name of @mib MiB in the run directory (0: the file as it is), bound to a
 * loop device. */
static struct bo_loop_dev attach_image(const char *name, int mib)
{
	struct bo_loop_dev dev = {.fd = -1};
	struct bo_err err = {0};
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", run, name);
	if (mib)
		root_make_file(path, (off_t) mib << 20);
	if (bo_loop_attach(path, run, 0, 0, &dev, &err) < 0) {
		fprintf(stderr, "attach: %s\n", err.msg);
		CU_FAIL_FATAL("attach");
	}
	return dev;
}

static void detach(struct bo_loop_dev *dev)
{
	struct bo_err err = {0};

	CU_ASSERT(bo_loop_detach(dev->path, &err) == 0);
	if (err.msg[0])
		fprintf(stderr, "detach: %s\n", err.msg);
}

/* Damage what fsck of @fs must notice; @ino is the inode of a file on it. */
static int damage(enum bo_fs fs, const char *dev, unsigned long ino)
{
	switch (fs) {
	case BO_FS_EXT4:
	case BO_FS_EXT2:
		/* Clear the file's inode: its directory entry now points at nothing. */
		return root_sh("debugfs -w -R 'clri <%lu>' %s >/dev/null 2>&1", ino, dev);
	case BO_FS_XFS:
		/* A wrong link count. */
		return root_sh("xfs_db -x -c 'inode %lu' -c 'write -d core.nlinkv2 5' %s "
			       ">/dev/null 2>&1",
			       ino, dev);
	case BO_FS_BTRFS:
		/* A flipped byte in the primary super block (at 64 KiB): its checksum fails. */
		return root_sh("printf '\\377' | dd of=%s bs=1 seek=%d conv=notrunc "
			       "status=none",
			       dev, 65536 + 200);
	case BO_FS_VFAT:
		/* The boot sector's dirty bit (FAT16: byte 37), what a crash while mounted
		 * leaves: Linux sets it at mount and clears it at unmount. */
		return root_sh("printf '\001' | dd of=%s bs=1 seek=37 conv=notrunc status=none",
			       dev);
	case BO_FS_F2FS:
	case BO_FS_NILFS2:
	case BO_FS_EXFAT:
	case BO_FS_JFS:
	case BO_FS_UDF:
		/* Not in a host's kernel here: their tools on image files are test_fstool's,
		 * their crash states tests/vm/filesystems.sh's. */
	case BO_FS_COUNT:
		break;
	}
	return -1;
}

/* Whether the running kernel has filesystem @name (/proc/filesystems): a host's may not. */
static bool kernel_has(const char *name)
{
	char line[128];
	bool has = false;
	FILE *f = fopen("/proc/filesystems", "re");

	while (f && !has && fgets(line, sizeof(line), f)) {
		char *t = strrchr(line, '\t');

		has = t && !strncmp(t + 1, name, strlen(name)) && t[1 + strlen(name)] == '\n';
	}
	if (f)
		fclose(f);
	return has;
}

static void fs_cycle(enum bo_fs fs, const char *mkfs_tool, const char *fsck_tool,
		     const char *damage_tool, const char *const *mkfs_opts, const char *mount_opts)
{
	const char *name = bo_fs_name(fs);
	enum bo_fsck_verdict v = BO_FSCK_CLEAN;
	struct bo_proc_result res = {0};
	struct bo_loop_dev dev;
	struct bo_err err = {0};
	char type[32] = "", version[128] = "", file[PATH_MAX], out[PATH_MAX];
	unsigned long ino;
	struct stat st;
	int fd;

	if (!root_have(mkfs_tool) || !root_have(fsck_tool) || !root_have(damage_tool)) {
		fprintf(stderr, "\n*** SKIP %s: %s, %s or %s not installed ***\n", name, mkfs_tool,
			fsck_tool, damage_tool);
		return;
	}
	if (!kernel_has(name)) {
		fprintf(stderr, "\n*** SKIP %s: this kernel does not have it ***\n", name);
		return;
	}
	dev = attach_image(name, 320);
	CU_ASSERT_FATAL(bo_mkfs(fs, dev.path, NULL, mkfs_opts, TIMEOUT_MS, NULL, &err) == 0);
	CU_ASSERT(bo_fs_tool_version(fs, BO_TOOL_MKFS, version, sizeof(version), &err) == 0);
	CU_ASSERT(bo_fs_tool_version(fs, BO_TOOL_FSCK, version, sizeof(version), &err) == 0);
	fprintf(stderr, "(%s) ", version);
	CU_ASSERT(bo_fs_detect(dev.path, type, sizeof(type), &err) == 0);
	CU_ASSERT_STRING_EQUAL(type, name);

	CU_ASSERT_FATAL(bo_mount(dev.path, mnt, name, mount_opts, &err) == 0);
	CU_ASSERT(bo_mount_is_mounted(mnt, &err) == 1);
	snprintf(file, sizeof(file), "%s/file", mnt);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, "data\n", 5) == 5 && fsync(fd) == 0 && fstat(fd, &st) == 0);
	ino = (unsigned long) st.st_ino;

	/* Mounted: the checker is not even run, and that is no verdict. */
	CU_ASSERT(bo_fsck(fs, dev.path, NULL, TIMEOUT_MS, NULL, &v, NULL, &err) == -EBUSY);
	CU_ASSERT(v == BO_FSCK_TOOL_ERROR);
	/* Busy: umount fails and says so. */
	CU_ASSERT(bo_umount(mnt, 0, &err) == -EBUSY);
	CU_ASSERT(strstr(err.msg, "umount '") != NULL);
	CU_ASSERT(bo_mount_is_mounted(mnt, &err) == 1);
	close(fd);
	CU_ASSERT(bo_umount(mnt, 0, &err) == 0);
	CU_ASSERT(bo_mount_is_mounted(mnt, &err) == 0);

	snprintf(out, sizeof(out), "%s/%s.fsck", run, name);
	CU_ASSERT(bo_fsck(fs, dev.path, NULL, TIMEOUT_MS, out, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_CLEAN);
	if (v != BO_FSCK_CLEAN)
		fprintf(stderr, "%s\n", res.out);
	CU_ASSERT(stat(out, &st) == 0 && (size_t) st.st_size == res.out_len && res.out_len > 0);
	bo_proc_result_clear(&res);

	/* The positive control: damage must be found. */
	CU_ASSERT_FATAL(damage(fs, dev.path, ino) == 0);
	CU_ASSERT(bo_fsck(fs, dev.path, NULL, TIMEOUT_MS, NULL, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_DIRTY);
	if (v != BO_FSCK_DIRTY)
		fprintf(stderr, "%s\n%s\n", err.msg, res.out);
	bo_proc_result_clear(&res);
	/* Where recovery is fsck's, the repair fixes it and the check after it is clean. */
	if (bo_fs_can_repair(fs)) {
		enum bo_repair_verdict rv = BO_REPAIR_TOOL_ERROR;

		CU_ASSERT(bo_repair(fs, dev.path, NULL, TIMEOUT_MS, &rv, &res, &err) == 0);
		CU_ASSERT(rv == BO_REPAIR_FIXED);
		if (rv != BO_REPAIR_FIXED)
			fprintf(stderr, "%s\n%s\n", err.msg, res.out);
		bo_proc_result_clear(&res);
		CU_ASSERT(bo_repair(fs, dev.path, NULL, TIMEOUT_MS, &rv, NULL, &err) == 0);
		CU_ASSERT(rv == BO_REPAIR_CLEAN);
		CU_ASSERT(bo_fsck(fs, dev.path, NULL, TIMEOUT_MS, NULL, &v, NULL, &err) == 0);
		CU_ASSERT(v == BO_FSCK_CLEAN);
		/* Nothing it can open as a filesystem: the repair failed, not the tool. */
		CU_ASSERT_FATAL(root_sh("dd if=/dev/zero of=%s bs=1M count=320 status=none",
					dev.path) == 0);
		CU_ASSERT(bo_repair(fs, dev.path, NULL, TIMEOUT_MS, &rv, NULL, &err) == 0 ||
			  fs == BO_FS_VFAT);
		CU_ASSERT(rv == (fs == BO_FS_VFAT ? BO_REPAIR_FIXED : BO_REPAIR_FAILED));
		/* fsck.fat says 1 for "found errors" whether or not it fixed them: the read-only
		 * check after it tells. */
		CU_ASSERT(bo_fsck(fs, dev.path, NULL, TIMEOUT_MS, NULL, &v, NULL, &err) == 0 ||
			  bo_fs_is_ext(fs));
		CU_ASSERT(v != BO_FSCK_CLEAN);
	} else {
		enum bo_repair_verdict rv;

		CU_ASSERT(bo_repair(fs, dev.path, NULL, TIMEOUT_MS, &rv, NULL, &err) == -EINVAL);
	}
	detach(&dev);
}

static void test_ext4(void)
{
	static const char *const opts[] = {"-b", "4096", "-E", "lazy_itable_init=0", NULL};

	fs_cycle(BO_FS_EXT4, "mkfs.ext4", "e2fsck", "debugfs", opts, "noinit_itable");
}

static void test_xfs(void)
{
	fs_cycle(BO_FS_XFS, "mkfs.xfs", "xfs_repair", "xfs_db", NULL, NULL);
}

static void test_btrfs(void)
{
	fs_cycle(BO_FS_BTRFS, "mkfs.btrfs", "btrfs", "dd", NULL, NULL);
}

static void test_ext2(void)
{
	fs_cycle(BO_FS_EXT2, "mkfs.ext2", "e2fsck", "debugfs", NULL, NULL);
}

static void test_vfat(void)
{
	fs_cycle(BO_FS_VFAT, "mkfs.vfat", "fsck.vfat", "dd", NULL, NULL);
}

/*
 * A btrfs over two devices (raid1) is judged on its own two: a copy of it, whose second device
 * then lost its filesystem, is fsck'd beside the original, whose devices carry the same
 * identity and a newer generation. Seeing all devices, btrfs check takes the original's second
 * device (the control: the hazard is real); seeing the copy's alone, it finds its second
 * device missing. Mounted after the kernel forgot the devices it saw, the copy does not come
 * up on the original's.
 */
static void test_btrfs_spans(void)
{
	static const char *const raid1[] = {"-d", "raid1", "-m", "raid1", NULL};
	struct bo_loop_dev a1, b1, a2, b2;
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	enum bo_fsck_verdict v;
	struct bo_fs_devs one = {0}, two = {0};
	char *mo;

	if (!root_have("mkfs.btrfs") || !root_have("wipefs") || !kernel_has("btrfs")) {
		fprintf(stderr, "\n*** SKIP btrfs over two devices: no mkfs.btrfs, wipefs or "
				"btrfs here ***\n");
		return;
	}
	a1 = attach_image("a1", 130);
	b1 = attach_image("b1", 130);
	one.spans[0] = b1.path;
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_BTRFS, a1.path, one.spans, raid1, TIMEOUT_MS, NULL, &err) ==
			0);
	mo = bo_mount_options_devs(BO_FS_BTRFS, "noatime", &one);
	CU_ASSERT_FATAL(mo != NULL);
	CU_ASSERT(!strncmp(mo, "noatime,device=", 15) && !strcmp(mo + 15, b1.path));
	CU_ASSERT(bo_mount_forget_devices(BO_FS_BTRFS, &err) == 0);
	CU_ASSERT_FATAL(bo_mount(a1.path, mnt, "btrfs", mo, &err) == 0);
	CU_ASSERT(root_sh("echo one > %s/f && sync", mnt) == 0);
	CU_ASSERT(bo_umount(mnt, 0, &err) == 0);
	CU_ASSERT_FATAL(root_sh("cp %s/a1 %s/a2 && cp %s/b1 %s/b2", run, run, run, run) == 0);
	a2 = attach_image("a2", 0);
	b2 = attach_image("b2", 0);
	/* The original goes on: a newer generation on both its devices. */
	CU_ASSERT(bo_mount(a1.path, mnt, "btrfs", mo, &err) == 0);
	CU_ASSERT(root_sh("for i in 1 2 3 4 5 6 7 8; do echo $i > %s/g$i; sync; done", mnt) == 0);
	CU_ASSERT(bo_umount(mnt, 0, &err) == 0);
	free(mo);
	CU_ASSERT_FATAL(root_sh("wipefs -a -q %s", b2.path) == 0);

	/* The control: seeing every device, the check assembles the copy with b1. */
	CU_ASSERT(bo_fsck(BO_FS_BTRFS, a2.path, NULL, TIMEOUT_MS, NULL, &v, &res, &err) == 0);
	CU_ASSERT(res.out && !strstr(res.out, "is missing"));
	bo_proc_result_clear(&res);
	/* Its own devices alone: b2 is no btrfs device now. */
	two.spans[0] = b2.path;
	(void) !bo_fsck(BO_FS_BTRFS, a2.path, &two, TIMEOUT_MS, NULL, &v, &res, &err);
	CU_ASSERT(res.out && strstr(res.out, "device 2 is missing"));
	if (!res.out || !strstr(res.out, "device 2 is missing"))
		fprintf(stderr, "btrfs check of the copy: %s\n", res.out ? res.out : err.msg);
	bo_proc_result_clear(&res);
	mo = bo_mount_options_devs(BO_FS_BTRFS, NULL, &two);
	CU_ASSERT(bo_mount_forget_devices(BO_FS_BTRFS, &err) == 0);
	CU_ASSERT(mo && bo_mount(a2.path, mnt, "btrfs", mo, &err) < 0);
	free(mo);
	CU_ASSERT(bo_mount_forget_devices(BO_FS_BTRFS, &err) == 0);
	detach(&a1);
	detach(&b1);
	detach(&a2);
	detach(&b2);
}

static void test_mount_errors(void)
{
	struct bo_loop_dev dev = attach_image("blank.img", 16);
	struct bo_err err = {0};
	char want[PATH_MAX + 64];
	int r;

	/* Nothing on it. */
	r = bo_mount(dev.path, mnt, "ext4", NULL, &err);
	CU_ASSERT(r == -EINVAL);
	snprintf(want, sizeof(want), "mount '%s' on '%s' (type ext4, options '')", dev.path, mnt);
	CU_ASSERT(strstr(err.msg, want) != NULL);
	fprintf(stderr, "(%s) ", err.msg);
	/* An option ext4 does not know. */
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_EXT4, dev.path, NULL, NULL, TIMEOUT_MS, NULL, &err) == 0);
	CU_ASSERT(bo_mount(dev.path, mnt, "ext4", "no_such_option", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "options 'no_such_option'") != NULL);
	CU_ASSERT(bo_mount_is_mounted(mnt, &err) == 0);
	/* Not mounted. */
	CU_ASSERT(bo_umount(mnt, 0, &err) < 0);
	CU_ASSERT(strstr(err.msg, "umount '") != NULL);
	/* Type detection when no type is given. */
	CU_ASSERT(bo_mount(dev.path, mnt, NULL, NULL, &err) == 0);
	CU_ASSERT(bo_umount(mnt, 0, &err) == 0);
	detach(&dev);
}

static void test_lazy_detach(void)
{
	struct bo_loop_dev dev = attach_image("lazy.img", 16);
	struct bo_err err = {0};
	char file[PATH_MAX];
	int fd;

	CU_ASSERT_FATAL(bo_mkfs(BO_FS_EXT4, dev.path, NULL, NULL, TIMEOUT_MS, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_mount(dev.path, mnt, "ext4", NULL, &err) == 0);
	snprintf(file, sizeof(file), "%s/held", mnt);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(bo_umount(mnt, BO_UMOUNT_DETACH_ON_FAILURE, &err) == 1);
	CU_ASSERT(strstr(err.msg, "detached lazily") != NULL);
	/* Who held it is named: this process, by the file it has open. */
	{
		char who[64];

		snprintf(who, sizeof(who), "(pid %d: fd %d '", (int) getpid(), fd);
		CU_ASSERT(strstr(err.msg, "held by ") != NULL && strstr(err.msg, who) != NULL &&
			  strstr(err.msg, "/held')") != NULL);
	}
	CU_ASSERT(bo_mount_is_mounted(mnt, &err) == 0);
	/* The filesystem is still alive behind the open file, and so is the loop under it. */
	CU_ASSERT(bo_loop_detach(dev.path, &err) == -EBUSY);
	close(fd);
	/* The detach asked for above happens once the last user is gone. */
	CU_ASSERT(bo_loop_backing_file(dev.path, file, sizeof(file), &err) == -ENXIO);
}

static void test_ambivalent(void)
{
	struct bo_loop_dev dev = attach_image("both.img", 320);
	struct bo_err err = {0};
	char type[32] = "";

	if (!root_have("mkfs.xfs")) {
		fprintf(stderr, "\n*** SKIP ambivalent: mkfs.xfs not installed ***\n");
		detach(&dev);
		return;
	}
	/* An XFS super block (sector 0) over an ext4 one (byte 1024): which is it? */
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_XFS, dev.path, NULL, NULL, TIMEOUT_MS, NULL, &err) == 0);
	CU_ASSERT_FATAL(
		root_sh("dd if=%s of=%s/xfs.sb bs=512 count=1 status=none", dev.path, run) == 0);
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_EXT4, dev.path, NULL, NULL, TIMEOUT_MS, NULL, &err) == 0);
	CU_ASSERT_FATAL(root_sh("dd if=%s/xfs.sb of=%s bs=512 count=1 conv=notrunc status=none",
				run, dev.path) == 0);
	CU_ASSERT(bo_fs_detect(dev.path, type, sizeof(type), &err) == -ENOTUNIQ);
	CU_ASSERT(strstr(err.msg, "contradict") != NULL);
	detach(&dev);
}

static void test_nothing_left(void)
{
	CU_ASSERT(root_leftovers() == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"ext4: mkfs, detect, mount, fsck clean and dirty", test_ext4},
		{"xfs: mkfs, detect, mount, fsck clean and dirty", test_xfs},
		{"btrfs: mkfs, detect, mount, fsck clean and dirty", test_btrfs},
		{"ext2: mkfs, detect, mount, fsck clean and dirty, repair", test_ext2},
		{"vfat: mkfs, detect, mount, fsck clean and dirty, repair", test_vfat},
		{"btrfs over two devices: judged on its own", test_btrfs_spans},
		{"mount and umount errors say what failed", test_mount_errors},
		{"umount detaches lazily only when asked", test_lazy_detach},
		{"contradicting signatures are ambivalent", test_ambivalent},
		{"nothing left behind", test_nothing_left},
		{NULL, NULL},
	};
	int r = root_require("root_fs");

	if (r)
		return r;
	if (!root_have("mkfs.ext4") || !root_have("e2fsck")) {
		fprintf(stderr, "\n*** SKIP root_fs: e2fsprogs not installed ***\n\n");
		return ROOT_SKIP;
	}
	run = root_dir("run");
	mnt = root_dir("run/mnt");
	r = bo_test_run("root_fs", tests);
	if (root_leftovers() > 0)
		r = 1;
	return r;
}

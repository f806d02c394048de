// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs/fsck runner and verdicts. The tools are small fake scripts in a directory put first in
 * PATH, so that every exit code, signal and hang can be produced on purpose; no real fsck runs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/fsdetect.h"
#include "harness/dev/fstool.h"

static char bindir[512], *saved_path;

/* Runs before the scratch directory is removed (atexit order), which needs rm from PATH. */
static void restore_path(void)
{
	if (saved_path)
		setenv("PATH", saved_path, 1);
}

/* Install fake tool @name whose body is @body (a /bin/sh script). */
static void fake(const char *name, const char *body)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", bindir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "#!/bin/sh\nPATH=/usr/bin:/bin\n%s\n", body);
	fclose(f);
	CU_ASSERT_FATAL(chmod(path, 0755) == 0);
}

/* A file to stand in for the device. */
static const char *image(void)
{
	const char *p = bo_test_path("dev.img");
	FILE *f = fopen(p, "w");

	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
	return p;
}

static enum bo_fsck_verdict fsck_with(enum bo_fs fs, const char *tool, const char *body, int *ret)
{
	enum bo_fsck_verdict v = BO_FSCK_CLEAN;
	struct bo_err err = {0};

	fake(tool, body);
	*ret = bo_fsck(fs, image(), NULL, 5000, NULL, &v, NULL, &err);
	/* A tool error always comes with an error return, a verdict never does. */
	CU_ASSERT((v == BO_FSCK_TOOL_ERROR) == (*ret < 0));
	return v;
}

static void test_e2fsck_codes(void)
{
	int r;

	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 0", &r) == BO_FSCK_CLEAN);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 4", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 1", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 2", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 8", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(r == -EIO);
	/* Aborted on a corruption -n cannot get past: the filesystem is not valid. */
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 12", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 10", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 16", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 32", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 128", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "exit 64", &r) == BO_FSCK_TOOL_ERROR);
}

static void test_xfs_repair_codes(void)
{
	int r;

	CU_ASSERT(fsck_with(BO_FS_XFS, "xfs_repair", "exit 0", &r) == BO_FSCK_CLEAN);
	CU_ASSERT(fsck_with(BO_FS_XFS, "xfs_repair", "exit 1", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_XFS, "xfs_repair", "exit 2", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_XFS, "xfs_repair", "exit 4", &r) == BO_FSCK_TOOL_ERROR);
}

static void test_btrfs_check_codes(void)
{
	int r;

	CU_ASSERT(fsck_with(BO_FS_BTRFS, "btrfs", "exit 0", &r) == BO_FSCK_CLEAN);
	CU_ASSERT(fsck_with(BO_FS_BTRFS, "btrfs", "exit 1", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_BTRFS, "btrfs", "exit 127", &r) == BO_FSCK_TOOL_ERROR);
}

/* The five of fstab.c's later rows: f2fs's own codes; exfat's and jfs's e2fsck-like ones, with
 * the repair a boot runs; nilfs2 and udf, which have no fsck at all. */
static void test_more_codes(void)
{
	const char *argv[BO_TOOL_ARGV_MAX];
	struct bo_proc_result res = {0};
	enum bo_fsck_verdict v;
	struct bo_err err = {0};
	char out[600], text[200] = "";
	FILE *f;
	int r;

	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 0", &r) == BO_FSCK_CLEAN);
	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 1", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 4", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 255", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 8", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_F2FS, "fsck.f2fs", "exit 16", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_EXFAT, "fsck.exfat", "exit 4", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_EXFAT, "fsck.exfat", "exit 8", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_JFS, "fsck.jfs", "exit 1", &r) == BO_FSCK_DIRTY);
	CU_ASSERT(fsck_with(BO_FS_JFS, "fsck.jfs", "exit 16", &r) == BO_FSCK_TOOL_ERROR);
	/* jfs's repair replays its log: 1 is its recovery; 4 and 8 a filesystem that does not
	 * come back. */
	CU_ASSERT(bo_fs_can_repair(BO_FS_JFS) && bo_fs_can_repair(BO_FS_EXFAT));
	CU_ASSERT(!bo_fs_can_repair(BO_FS_F2FS) && !bo_fs_can_repair(BO_FS_NILFS2));
	CU_ASSERT_FATAL(bo_repair_argv(BO_FS_JFS, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "fsck.jfs") && !strcmp(argv[1], "-p") && !argv[3]);
	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_F2FS, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "fsck.f2fs") && !strcmp(argv[1], "-f") &&
		  !strcmp(argv[2], "--dry-run") && !strcmp(argv[3], "/dev/x") && !argv[4]);
	/* No fsck: clean, since nothing can say otherwise, and its output says why. */
	snprintf(out, sizeof(out), "%s", bo_test_path("nilfs2.fsck"));
	CU_ASSERT(bo_fsck(BO_FS_NILFS2, "/nonexistent", NULL, 5000, out, &v, &res, &err) ==
		  -ENOENT);
	CU_ASSERT(v == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(bo_fsck(BO_FS_NILFS2, image(), NULL, 5000, out, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_CLEAN && res.out && strstr(res.out, "nilfs2 has no fsck"));
	bo_proc_result_clear(&res);
	f = fopen(out, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fgets(text, sizeof(text), f) && strstr(text, "its mount"));
	fclose(f);
	CU_ASSERT(bo_fsck_argv(BO_FS_UDF, "/dev/x", NULL, argv, &err) == -ENOENT);
	CU_ASSERT(bo_fs_tool_version(BO_FS_UDF, BO_TOOL_FSCK, text, sizeof(text), &err) == 0);
	CU_ASSERT_STRING_EQUAL(text, "none: udf has no fsck");
}

static void test_deaths_are_never_clean(void)
{
	enum bo_fsck_verdict v = BO_FSCK_CLEAN;
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	struct timespec a, b;
	int r;

	/* Killed by a signal (as if it crashed). */
	CU_ASSERT(fsck_with(BO_FS_EXT4, "e2fsck", "kill -SEGV $$", &r) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(fsck_with(BO_FS_XFS, "xfs_repair", "kill -KILL $$", &r) == BO_FSCK_TOOL_ERROR);
	/* Hangs: killed at the timeout, with the child it started. */
	fake("e2fsck", "sleep 30 & sleep 30");
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = bo_fsck(BO_FS_EXT4, image(), NULL, 300, NULL, &v, &res, &err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CU_ASSERT(r == -ETIMEDOUT);
	CU_ASSERT(v == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(res.end == BO_PROC_TIMEOUT);
	CU_ASSERT(strstr(err.msg, "timed out after 0.3 s") != NULL);
	CU_ASSERT(b.tv_sec - a.tv_sec < 5);
	bo_proc_result_clear(&res);
	/* Not there at all. */
	unlink(bo_test_path("bin/btrfs"));
	r = bo_fsck(BO_FS_BTRFS, image(), NULL, 5000, NULL, &v, NULL, &err);
	CU_ASSERT(r == -ENOENT);
	CU_ASSERT(v == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(strstr(err.msg, "fsck btrfs on") != NULL && strstr(err.msg, "not found") != NULL);
	/* The device cannot be opened: the checker is not even asked. */
	fake("e2fsck", "exit 0");
	r = bo_fsck(BO_FS_EXT4, bo_test_path("no-such-dev"), NULL, 5000, NULL, &v, NULL, &err);
	CU_ASSERT(r == -ENOENT);
	CU_ASSERT(v == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(strstr(err.msg, "cannot open it exclusively") != NULL);
}

static void test_interpret(void)
{
	struct bo_proc_result ok = {.end = BO_PROC_EXITED}, sig = {.end = BO_PROC_SIGNALED};
	struct bo_proc_result late = {.end = BO_PROC_TIMEOUT};
	const char *why = NULL;

	CU_ASSERT(bo_fsck_interpret(BO_FS_EXT4, &ok, &why) == BO_FSCK_CLEAN);
	CU_ASSERT_STRING_EQUAL(why, "no errors");
	/* A signal or a timeout is a tool error even with a status that looks clean. */
	CU_ASSERT(bo_fsck_interpret(BO_FS_BTRFS, &sig, &why) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT(bo_fsck_interpret(BO_FS_XFS, &late, &why) == BO_FSCK_TOOL_ERROR);
	CU_ASSERT_STRING_EQUAL(why, "timed out");
	ok.status = 4;
	CU_ASSERT(bo_fsck_interpret(BO_FS_EXT4, &ok, NULL) == BO_FSCK_DIRTY);
	CU_ASSERT_STRING_EQUAL(bo_fsck_verdict_name(BO_FSCK_TOOL_ERROR), "tool-error");
	CU_ASSERT_STRING_EQUAL(bo_fsck_verdict_name(BO_FSCK_DIRTY), "dirty");
}
static void test_argv(void)
{
	static const char *const opts[] = {"-b", "4096", "-E", "lazy_itable_init=0", NULL};
	const char *argv[BO_TOOL_ARGV_MAX];
	const char *many[BO_TOOL_ARGV_MAX + 1];
	struct bo_err err = {0};
	char line[256] = "";

	CU_ASSERT_FATAL(bo_mkfs_argv(BO_FS_EXT4, "/dev/loop0", NULL, opts, argv, &err) == 0);
	for (const char **a = argv; *a; a++)
		strcat(strcat(line, *a), " ");
	CU_ASSERT_STRING_EQUAL(line, "mkfs.ext4 -F -q -b 4096 -E lazy_itable_init=0 /dev/loop0 ");
	CU_ASSERT_FATAL(bo_mkfs_argv(BO_FS_XFS, "/dev/loop0", NULL, NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "mkfs.xfs") && !strcmp(argv[1], "-f") &&
		  !strcmp(argv[2], "-q") && !strcmp(argv[3], "/dev/loop0") && !argv[4]);
	CU_ASSERT_FATAL(bo_mkfs_argv(BO_FS_BTRFS, "/dev/x", NULL, NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "mkfs.btrfs") && !strcmp(argv[1], "-f") &&
		  !strcmp(argv[2], "-q") && !strcmp(argv[3], "/dev/x") && !argv[4]);
	/* A btrfs over three devices: its own first (devid 1), then the others; only btrfs. */
	{
		static const char *const spans[] = {"/dev/y", "/dev/z", NULL};
		static const char *const raid1[] = {"-d", "raid1", "-m", "raid1", NULL};

		CU_ASSERT_FATAL(bo_mkfs_argv(BO_FS_BTRFS, "/dev/x", spans, raid1, argv, &err) == 0);
		line[0] = '\0';
		for (const char **a = argv; *a; a++)
			strcat(strcat(line, *a), " ");
		CU_ASSERT_STRING_EQUAL(line,
				       "mkfs.btrfs -f -q -d raid1 -m raid1 /dev/x /dev/y /dev/z ");
		CU_ASSERT(bo_mkfs_argv(BO_FS_XFS, "/dev/x", spans, NULL, argv, &err) == -EINVAL);
		CU_ASSERT(strstr(bo_err_str(&err), "xfs is made on one device") != NULL);
		/* fsck names only its own: btrfs check finds the others */
		CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_BTRFS, "/dev/x",
					     &(struct bo_fs_devs){.spans = {"/dev/y"}}, argv,
					     &err) == 0);
		CU_ASSERT(!strcmp(argv[3], "/dev/x") && !argv[4]);
	}

	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_EXT4, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "e2fsck") && !strcmp(argv[1], "-fn") &&
		  !strcmp(argv[2], "/dev/x") && !argv[3]);
	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_XFS, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "xfs_repair") && !strcmp(argv[1], "-n") &&
		  !strcmp(argv[2], "/dev/x") && !argv[3]);
	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_BTRFS, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "btrfs") && !strcmp(argv[1], "check") &&
		  !strcmp(argv[2], "--readonly") && !strcmp(argv[3], "/dev/x") && !argv[4]);
	/* An external journal, or log. */
	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_EXT4, "/dev/x",
				     &(struct bo_fs_devs){.journal = "/dev/j"}, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[1], "-fn") && !strcmp(argv[2], "-j") && !strcmp(argv[3], "/dev/j") &&
		  !strcmp(argv[4], "/dev/x") && !argv[5]);
	CU_ASSERT_FATAL(bo_fsck_argv(BO_FS_XFS, "/dev/x", &(struct bo_fs_devs){.journal = "/dev/j"},
				     argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[1], "-n") && !strcmp(argv[2], "-l") && !strcmp(argv[3], "/dev/j") &&
		  !strcmp(argv[4], "/dev/x") && !argv[5]);
	CU_ASSERT(bo_fsck_argv(BO_FS_BTRFS, "/dev/x", &(struct bo_fs_devs){.journal = "/dev/j"},
			       argv, &err) == -EINVAL);

	for (int i = 0; i < BO_TOOL_ARGV_MAX; i++)
		many[i] = "-x";
	many[BO_TOOL_ARGV_MAX] = NULL;
	CU_ASSERT(bo_mkfs_argv(BO_FS_EXT4, "/dev/x", NULL, many, argv, &err) == -E2BIG);
}

static void test_mkfs_runs_the_tool(void)
{
	static const char *const opts[] = {"-b", "4096", NULL};
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	char want[600];

	/* The arguments arrive as given, no shell in between. */
	fake("mkfs.ext4", "echo \"$@\"");
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_EXT4, "/dev/my dev", NULL, opts, 5000, &res, &err) == 0);
	snprintf(want, sizeof(want), "-F -q -b 4096 /dev/my dev\n");
	CU_ASSERT_STRING_EQUAL(res.out, want);
	bo_proc_result_clear(&res);

	fake("mkfs.xfs", "echo 'mkfs.xfs: size 12m too small' >&2; echo line2 >&2; exit 1");
	CU_ASSERT(bo_mkfs(BO_FS_XFS, "/dev/x", NULL, NULL, 5000, NULL, &err) == -EIO);
	CU_ASSERT(strstr(err.msg, "mkfs xfs on '/dev/x': mkfs.xfs exited with status 1: "
				  "mkfs.xfs: size 12m too small; line2") != NULL);
	/* No timeout, no run. */
	CU_ASSERT(bo_mkfs(BO_FS_XFS, "/dev/x", NULL, NULL, 0, NULL, &err) == -EINVAL);
}

static void test_output_capture(void)
{
	const char *out = bo_test_path("fsck.out");
	enum bo_fsck_verdict v;
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	struct stat st;
	char buf[64] = "", note[80];
	FILE *f;

	/* stdout and stderr both, also into the file; in the C locale. */
	fake("e2fsck", "echo to-stdout; echo \"to-stderr $LC_ALL\" >&2; exit 4");
	CU_ASSERT_FATAL(bo_fsck(BO_FS_EXT4, image(), NULL, 5000, out, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_DIRTY);
	CU_ASSERT_STRING_EQUAL(res.out, "to-stdout\nto-stderr C\n");
	bo_proc_result_clear(&res);
	f = fopen(out, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fread(buf, 1, sizeof(buf) - 1, f) == 22);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "to-stdout\nto-stderr C\n");

	/* 9 MiB of output: 8 MiB kept and saved, and the file says it was cut. */
	fake("e2fsck", "head -c 9437184 /dev/zero | tr '\\0' x; exit 0");
	CU_ASSERT_FATAL(bo_fsck(BO_FS_EXT4, image(), NULL, 20000, out, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_CLEAN);
	CU_ASSERT(res.out_len == BO_FSCK_OUTPUT_MAX && res.truncated);
	bo_proc_result_clear(&res);
	snprintf(note, sizeof(note), "\nblackout: output cut after %u bytes\n", BO_FSCK_OUTPUT_MAX);
	CU_ASSERT(stat(out, &st) == 0 && st.st_size == (off_t) (BO_FSCK_OUTPUT_MAX + strlen(note)));
	f = fopen(out, "r");
	CU_ASSERT_FATAL(f != NULL);
	memset(buf, 0, sizeof(buf));
	CU_ASSERT(fseek(f, BO_FSCK_OUTPUT_MAX, SEEK_SET) == 0);
	CU_ASSERT(fread(buf, 1, sizeof(buf) - 1, f) == strlen(note));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, note);
}
static void test_background_child_does_not_hang(void)
{
	const char *pidfile = bo_test_path("grandchild.pid");
	enum bo_fsck_verdict v;
	struct bo_proc_result res = {0};
	struct bo_err err = {0};
	char script[600];
	FILE *f;
	int pid = 0;

	/* A grandchild would keep the output pipe open after the checker exits. */
	snprintf(script, sizeof(script), "echo started; sleep 30 & echo $! > %s; exit 0", pidfile);
	fake("e2fsck", script);
	CU_ASSERT_FATAL(bo_fsck(BO_FS_EXT4, image(), NULL, 20000, NULL, &v, &res, &err) == 0);
	CU_ASSERT(v == BO_FSCK_CLEAN && res.end == BO_PROC_EXITED);
	CU_ASSERT(res.seconds < 5);
	CU_ASSERT(strstr(res.out, "started") != NULL);
	bo_proc_result_clear(&res);
	f = fopen(pidfile, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fscanf(f, "%d", &pid) == 1 && pid > 0);
	fclose(f);
	if (pid > 0)
		kill(pid, SIGKILL);
}
static void test_versions(void)
{
	struct bo_err err = {0};
	char v[128] = "";

	fake("e2fsck", "[ \"$1\" = -V ] || exit 16\n"
		       "echo 'e2fsck 1.47.0 (5-Feb-2023)' >&2\n"
		       "echo '	Using EXT2FS Library version 1.47.0, 5-Feb-2023' >&2");
	CU_ASSERT(bo_fs_tool_version(BO_FS_EXT4, BO_TOOL_FSCK, v, sizeof(v), &err) == 0);
	CU_ASSERT_STRING_EQUAL(v, "e2fsck 1.47.0 (5-Feb-2023)");
	fake("mkfs.btrfs", "[ \"$1\" = --version ] || exit 1\n"
			   "echo 'mkfs.btrfs, part of btrfs-progs v6.2'");
	CU_ASSERT(bo_fs_tool_version(BO_FS_BTRFS, BO_TOOL_MKFS, v, sizeof(v), &err) == 0);
	CU_ASSERT_STRING_EQUAL(v, "mkfs.btrfs, part of btrfs-progs v6.2");
	fake("xfs_repair", "exit 1");
	CU_ASSERT(bo_fs_tool_version(BO_FS_XFS, BO_TOOL_FSCK, v, sizeof(v), &err) == -EIO);
	CU_ASSERT(strstr(err.msg, "'xfs_repair -V' exited with status 1") != NULL);
	fake("mkfs.xfs", "exit 0");
	CU_ASSERT(bo_fs_tool_version(BO_FS_XFS, BO_TOOL_MKFS, v, sizeof(v), &err) == -EIO);
	CU_ASSERT(strstr(err.msg, "no output") != NULL);
	/* dosfstools has no version option: the line naming it, whatever the status. */
	fake("mkfs.vfat", "echo 'mkfs.fat 4.2 (2021-01-31)'\n"
			  "echo \"mkfs.vfat: unrecognized option '--version'\" >&2\nexit 1");
	CU_ASSERT(bo_fs_tool_version(BO_FS_VFAT, BO_TOOL_MKFS, v, sizeof(v), &err) == 0);
	CU_ASSERT_STRING_EQUAL(v, "mkfs.fat 4.2 (2021-01-31)");
}

static enum bo_repair_verdict repair_with(enum bo_fs fs, const char *tool, const char *body)
{
	enum bo_repair_verdict v = BO_REPAIR_CLEAN;
	struct bo_err err = {0};
	int r;

	fake(tool, body);
	r = bo_repair(fs, image(), NULL, 5000, &v, NULL, &err);
	CU_ASSERT((v == BO_REPAIR_TOOL_ERROR) == (r < 0));
	return v;
}

static void test_repair(void)
{
	const char *argv[BO_TOOL_ARGV_MAX];
	enum bo_recovery rec;
	enum bo_fsck_verdict fv;
	struct bo_err err = {0};
	int r;

	/* e2fsck -y: 1 and 2 fixed, 4 left, 8 nothing it could open; the rest the tool's. */
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 0") == BO_REPAIR_CLEAN);
	CU_ASSERT(repair_with(BO_FS_EXT2, "e2fsck", "exit 1") == BO_REPAIR_FIXED);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 3") == BO_REPAIR_FIXED);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 4") == BO_REPAIR_FAILED);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 8") == BO_REPAIR_FAILED);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 16") == BO_REPAIR_TOOL_ERROR);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "exit 36") == BO_REPAIR_TOOL_ERROR);
	CU_ASSERT(repair_with(BO_FS_EXT4, "e2fsck", "kill -KILL $$") == BO_REPAIR_TOOL_ERROR);
	/* fsck.fat -a: 1 found (and fixed, or not: the read-only fsck after it tells), 2 usage. */
	CU_ASSERT(repair_with(BO_FS_VFAT, "fsck.vfat", "exit 0") == BO_REPAIR_CLEAN);
	CU_ASSERT(repair_with(BO_FS_VFAT, "fsck.vfat", "exit 1") == BO_REPAIR_FIXED);
	CU_ASSERT(repair_with(BO_FS_VFAT, "fsck.vfat", "exit 2") == BO_REPAIR_TOOL_ERROR);
	fake("fsck.vfat", "exit 1");
	CU_ASSERT(bo_fsck(BO_FS_VFAT, image(), NULL, 5000, NULL, &fv, NULL, &err) == 0 &&
		  fv == BO_FSCK_DIRTY);
	/* The command lines, and none for filesystems recovered by their mount. */
	CU_ASSERT_FATAL(bo_repair_argv(BO_FS_EXT4, "/dev/x",
				       &(struct bo_fs_devs){.journal = "/dev/j"}, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "e2fsck") && !strcmp(argv[1], "-fy") && !strcmp(argv[2], "-j") &&
		  !strcmp(argv[3], "/dev/j") && !strcmp(argv[4], "/dev/x") && !argv[5]);
	CU_ASSERT_FATAL(bo_repair_argv(BO_FS_VFAT, "/dev/x", NULL, argv, &err) == 0);
	CU_ASSERT(!strcmp(argv[0], "fsck.vfat") && !strcmp(argv[1], "-a") && !argv[3]);
	CU_ASSERT(bo_repair_argv(BO_FS_XFS, "/dev/x", NULL, argv, &err) == -EINVAL);
	CU_ASSERT(bo_repair_argv(BO_FS_BTRFS, "/dev/x", NULL, argv, &err) == -EINVAL);
	CU_ASSERT(!bo_fs_can_repair(BO_FS_XFS) && bo_fs_can_repair(BO_FS_EXT2));
	r = bo_recovery_from_name("fsck", &rec);
	CU_ASSERT(r == 0 && rec == BO_RECOVERY_FSCK);
	CU_ASSERT(bo_recovery_from_name("repair", &rec) == -EINVAL);
	CU_ASSERT_STRING_EQUAL(bo_recovery_name(BO_RECOVERY_AUTO), "auto");
}

/* The journal test reads the super block itself: an image with has_journal set and cleared. */
static void test_has_journal(void)
{
	const char *p = bo_test_path("sb.img");
	unsigned char sb[2048] = {0};
	struct bo_err err = {0};
	FILE *f;

	sb[1024 + 0x38] = 0x53;
	sb[1024 + 0x39] = 0xef;
	sb[1024 + 0x5c] = 0x04;
	f = fopen(p, "w");
	CU_ASSERT_FATAL(f && fwrite(sb, 1, sizeof(sb), f) == sizeof(sb));
	fclose(f);
	CU_ASSERT(bo_fs_has_journal(BO_FS_EXT4, p, &err) == 1);
	sb[1024 + 0x5c] = 0x38;
	f = fopen(p, "w");
	CU_ASSERT_FATAL(f && fwrite(sb, 1, sizeof(sb), f) == sizeof(sb));
	fclose(f);
	CU_ASSERT(bo_fs_has_journal(BO_FS_EXT2, p, &err) == 0);
	CU_ASSERT(bo_fs_has_journal(BO_FS_VFAT, p, &err) == 0);
	CU_ASSERT(bo_fs_has_journal(BO_FS_XFS, p, &err) == 1);
	/* jfs keeps a journal its mount does not replay: fsck's to recover. */
	CU_ASSERT(bo_fs_has_journal(BO_FS_JFS, p, &err) == 0);
	CU_ASSERT(bo_fs_has_journal(BO_FS_F2FS, p, &err) == 1);
	CU_ASSERT(bo_fs_has_journal(BO_FS_EXT4, image(), &err) == -ENODATA);
	CU_ASSERT(bo_fs_has_journal(BO_FS_EXT4, "/nonexistent", &err) == -ENOENT);
}

static void test_names(void)
{
	enum bo_fs fs;

	CU_ASSERT(bo_fs_from_name("vfat", &fs) == 0 && fs == BO_FS_VFAT);
	CU_ASSERT(bo_fs_from_name("ext2", &fs) == 0 && fs == BO_FS_EXT2);
	CU_ASSERT(bo_fs_from_name("xfs", &fs) == 0 && fs == BO_FS_XFS);
	CU_ASSERT(bo_fs_from_name("btrfs", &fs) == 0 && fs == BO_FS_BTRFS);
	CU_ASSERT(bo_fs_from_name("nilfs2", &fs) == 0 && fs == BO_FS_NILFS2);
	CU_ASSERT(bo_fs_from_name("ext3", &fs) == -EINVAL);
	CU_ASSERT_STRING_EQUAL(bo_fs_name(BO_FS_EXT4), "ext4");
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"e2fsck exit codes", test_e2fsck_codes},
		{"xfs_repair -n exit codes", test_xfs_repair_codes},
		{"btrfs check exit codes", test_btrfs_check_codes},
		{"f2fs, exfat, jfs exit codes; nilfs2 and udf without fsck", test_more_codes},
		{"signals, timeouts, missing tools are never clean", test_deaths_are_never_clean},
		{"interpretation of results", test_interpret},
		{"command lines", test_argv},
		{"mkfs runs the tool and reports its failure", test_mkfs_runs_the_tool},
		{"output capture, file copy and cap", test_output_capture},
		{"a lingering grandchild does not hang the check",
		 test_background_child_does_not_hang},
		{"tool versions", test_versions},
		{"filesystem names", test_names},
		{"repair before the mount: exit codes, command lines", test_repair},
		{"a journal, per the super block", test_has_journal},
		{NULL, NULL},
	};

	snprintf(bindir, sizeof(bindir), "%s", bo_test_path("bin"));
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	atexit(restore_path);
	if (mkdir(bindir, 0755) < 0 || setenv("PATH", bindir, 1) < 0) {
		perror(bindir);
		return 1;
	}
	return bo_test_run("fstool", tests);
}

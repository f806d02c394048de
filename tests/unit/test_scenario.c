// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenario files: defaults, every key, every error class with its file:line message, JSON;
 * INI text with keys overridden. */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/states/cutsel.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"

static struct bo_scenario *parse_ok(const char *text)
{
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};

	if (bo_scenario_parse(text, strlen(text), "dir/t.ini", NULL, &sc, &err) < 0) {
		fprintf(stderr, "unexpected error: %s\n", bo_err_str(&err));
		CU_FAIL("parse");
	}
	return sc;
}

/* Parsing @text must fail with a message containing @needle. */
static void parse_bad(const char *text, const char *needle)
{
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	int r = bo_scenario_parse(text, strlen(text), "dir/t.ini", NULL, &sc, &err);

	CU_ASSERT(r < 0);
	CU_ASSERT(sc == NULL);
	if (r < 0 && !strstr(bo_err_str(&err), needle)) {
		fprintf(stderr, "\nmessage '%s'\n   lacks '%s'\n", bo_err_str(&err), needle);
		CU_FAIL("error message");
	}
	if (r == 0) {
		fprintf(stderr, "\naccepted: %s\n", text);
		bo_scenario_free(sc);
	}
}

#define MIN "[device]\nfs = ext4\n[workload]\nbuiltin = fsops\n"

static void defaults(void)
{
	struct bo_scenario *sc = parse_ok(MIN);

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT_STRING_EQUAL(sc->name, "t");
	CU_ASSERT_STRING_EQUAL(sc->description, "");
	CU_ASSERT(sc->fs == BO_FS_EXT4);
	CU_ASSERT(sc->size == 256ULL << 20);
	CU_ASSERT(sc->sector_size == 4096);
	CU_ASSERT_STRING_EQUAL(sc->mkfs_options, "");
	CU_ASSERT_STRING_EQUAL(sc->mount_options, "");
	CU_ASSERT(sc->workload == BO_WORKLOAD_BUILTIN);
	CU_ASSERT_STRING_EQUAL(sc->builtin, "fsops");
	CU_ASSERT(sc->ops == 200 && sc->bug == NULL);
	CU_ASSERT(sc->seed == 1 && sc->workload_seed == 1);
	CU_ASSERT(sc->workload_timeout == 600);
	CU_ASSERT_STRING_EQUAL(sc->cuts_spec, "mark");
	CU_ASSERT(sc->checker == BO_CHECKER_BUILTIN);
	CU_ASSERT_STRING_EQUAL(sc->checker_command, "fsops");
	CU_ASSERT(sc->mount_timeout == 60 && sc->fsck_timeout == 300 && sc->checker_timeout == 120);
	CU_ASSERT(sc->log_size == 512ULL << 20);
	CU_ASSERT(sc->witness == 0 && sc->recovery_crashes == 0);
	bo_scenario_free(sc);
}

static void every_key(void)
{
	struct bo_scenario *sc = parse_ok("; a comment\n"
					  "# another\n"
					  "[scenario]\n"
					  "name = my.test-1\n"
					  "description = fsync ordering on xfs ; inline comment\n"
					  "\n"
					  "  [device]\r\n"
					  "  fs = xfs\r\n"
					  "size = 1G\n"
					  "sector_size = 512\n"
					  "mkfs_options = -m crc=1 -K\n"
					  "mount_options = noatime,logbsize=256k\n"
					  "[workload]\n"
					  "builtin = fsops\n"
					  "ops = 50\n"
					  "bug = ack-without-fsync\n"
					  "seed = 010\n"
					  "timeout = 30\n"
					  "[check]\n"
					  "cuts = entry:3-90\n"
					  "checker = fsops\n"
					  "mount_timeout = 5\n"
					  "fsck_timeout = 6\n"
					  "checker_timeout = 7\n"
					  "witness = 40\n"
					  "[run]\n"
					  "seed = 99\n"
					  "log_size = 64M\n");
	char *cmd = NULL;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT_STRING_EQUAL(sc->name, "my.test-1");
	CU_ASSERT_STRING_EQUAL(sc->description, "fsync ordering on xfs");
	CU_ASSERT(sc->fs == BO_FS_XFS && sc->size == 1ULL << 30 && sc->sector_size == 512);
	CU_ASSERT_STRING_EQUAL(sc->mkfs_options, "-m crc=1 -K");
	CU_ASSERT_STRING_EQUAL(sc->mount_options, "noatime,logbsize=256k");
	CU_ASSERT(sc->ops == 50);
	CU_ASSERT_STRING_EQUAL(sc->bug, "ack-without-fsync");
	CU_ASSERT(sc->workload_seed == 10); /* decimal, not octal */
	CU_ASSERT(sc->seed == 99);
	CU_ASSERT(sc->workload_timeout == 30);
	CU_ASSERT_STRING_EQUAL(sc->cuts_spec, "entry:3-90");
	CU_ASSERT(sc->mount_timeout == 5 && sc->fsck_timeout == 6 && sc->checker_timeout == 7);
	CU_ASSERT(sc->witness == 40);
	CU_ASSERT(sc->log_size == 64ULL << 20);
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
	CU_ASSERT_STRING_EQUAL(cmd, "blackout-fsops --seed 10 --ops 50 --bug=ack-without-fsync");
	free(cmd);
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
	CU_ASSERT_STRING_EQUAL(cmd,
			       "blackout-fsops check --seed 10 --ops 50 --bug=ack-without-fsync");
	free(cmd);
	bo_scenario_free(sc);
}

static void command_workload(void)
{
	struct bo_scenario *sc = parse_ok("[device]\nfs = btrfs\nsize = 128M\n"
					  "[workload]\ncommand = ./kv-bench --durable 100\n"
					  "[check]\nchecker = /usr/local/bin/kv-check --strict\n");
	char *cmd = NULL;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->workload == BO_WORKLOAD_COMMAND && sc->checker == BO_CHECKER_COMMAND);
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
	CU_ASSERT_STRING_EQUAL(cmd, "./kv-bench --durable 100");
	free(cmd);
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
	CU_ASSERT_STRING_EQUAL(cmd, "/usr/local/bin/kv-check --strict");
	free(cmd);
	bo_scenario_free(sc);

	sc = parse_ok("[device]\nfs = ext4\n[workload]\ncommand = sh -c true\n[check]\n"
		      "checker = none\n");
	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->checker == BO_CHECKER_NONE);
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0 && cmd == NULL);
	bo_scenario_free(sc);
}

/* fsync = inode and the promise table: the command lines, auto by filesystem, the errors. */
static void fsync_and_promises(void)
{
	/* vfat and exfat have no hard links: fsops draws none there (--no-links). */
#define NL " --no-links"
	static const struct {
		const char *device, *check, *want;
	} cases[] = {
		{"fs = ext4\n", "", "blackout-fsops check --seed 1 --ops 9 --fsync=inode"},
		{"fs = xfs\nsize = 300M\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode"},
		{"fs = btrfs\nsize = 128M\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode"},
		{"fs = vfat\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode" NL " --promises=posix"},
		{"fs = ext2\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode --promises=posix"},
		{"fs = ext4\nmkfs_options = -O ^has_journal\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode --promises=posix"},
		{"fs = ext4\n", "promises = posix\n",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode --promises=posix"},
		{"fs = vfat\n", "promises = linux\n",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode" NL},
		{"fs = exfat\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode" NL " --promises=posix"},
		{"fs = f2fs\nsize = 64M\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode --promises=posix"},
		{"fs = nilfs2\nsize = 136M\n", "",
		 "blackout-fsops check --seed 1 --ops 9 --fsync=inode"},
	};
	char text[512], *cmd = NULL;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bo_scenario *sc;

		snprintf(text, sizeof(text),
			 "[device]\n%s[workload]\nbuiltin = fsops\nops = 9\nfsync = inode\n"
			 "[check]\n%s[run]\nseed = 1\n",
			 cases[i].device, cases[i].check);
		sc = parse_ok(text);
		CU_ASSERT_FATAL(sc != NULL);
		CU_ASSERT(sc->fsync_inode);
		CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
		if (!cmd || strcmp(cmd, cases[i].want))
			fprintf(stderr, "\ncase %zu: '%s'\n  wanted '%s'\n", i, cmd, cases[i].want);
		CU_ASSERT(cmd && !strcmp(cmd, cases[i].want));
		free(cmd);
		CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
		CU_ASSERT(cmd &&
			  !strcmp(cmd, strstr(cases[i].want, NL)
					       ? "blackout-fsops --seed 1 --ops 9 --fsync=inode" NL
					       : "blackout-fsops --seed 1 --ops 9 --fsync=inode"));
		free(cmd);
		bo_scenario_free(sc);
	}
#undef NL
	/* The path mode is the default and says nothing. */
	{
		struct bo_scenario *sc =
			parse_ok("[device]\nfs = vfat\n[workload]\nbuiltin = fsops\n"
				 "ops = 9\n[run]\nseed = 1\n");

		CU_ASSERT_FATAL(sc != NULL);
		CU_ASSERT(!sc->fsync_inode);
		CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
		CU_ASSERT(cmd && !strcmp(cmd, "blackout-fsops check --seed 1 --ops 9 --no-links"));
		free(cmd);
		bo_scenario_free(sc);
	}
	parse_bad(MIN "fsync = file\n", "[workload] fsync: bad value 'file' (expected path");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = applog\nfsync = inode\n",
		  "only builtin fsops takes 'fsync'");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./w\nfsync = inode\n[check]\nchecker "
		  "= none\n",
		  "only builtin fsops takes 'fsync'");
	parse_bad(MIN "[check]\npromises = ext4\n",
		  "[check] promises: bad value 'ext4' (expected auto, linux or posix)");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = applog\n[check]\npromises = posix\n",
		  "only the fsops and bounded checkers take 'promises'");
}

/* Scenario @text parses, and its workload and checker run @workload and @checker. */
static void commands_are(const char *text, const char *workload, const char *checker)
{
	struct bo_scenario *sc = parse_ok(text);
	char *cmd = NULL;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
	if (!cmd || strcmp(cmd, workload))
		fprintf(stderr, "\nworkload '%s'\n  wanted '%s'\n", cmd, workload);
	CU_ASSERT(cmd && !strcmp(cmd, workload));
	free(cmd);
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
	if (!cmd || strcmp(cmd, checker))
		fprintf(stderr, "\nchecker '%s'\n  wanted '%s'\n", cmd, checker);
	CU_ASSERT(cmd && !strcmp(cmd, checker));
	free(cmd);
	bo_scenario_free(sc);
}

/* builtin bounded: its length and ranks, passed on to the workload and checker. */
static void bounded(void)
{
	commands_are(
		"[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 2\n"
		"workloads = 100-199\nbug = ack-without-fsync\n[run]\nseed = 3\n",
		"blackout-fsops --bounded 2 --workloads 100-199 --seed 3 --bug=ack-without-fsync",
		"blackout-fsops check --bounded 2 --workloads 100-199 --seed 3 "
		"--bug=ack-without-fsync");
	/* All the workloads of the length its filesystem can perform (vfat has no xattrs, no hole
	 * punched and no hard links: harness/dev/fstab.c); posix promises where it has them. */
	commands_are("[device]\nfs = vfat\n[workload]\nbuiltin = bounded\nlength = 1\n"
		     "[run]\nseed = 1\n",
		     "blackout-fsops --bounded 1 --families=direct,dsync,mmap,rename2 --no-links "
		     "--seed 1",
		     "blackout-fsops check --bounded 1 --families=direct,dsync,mmap,rename2 "
		     "--no-links --seed 1 --promises=posix");
	commands_are(
		"[device]\nfs = jfs\n[workload]\nbuiltin = bounded\nlength = 1\n"
		"[run]\nseed = 1\n",
		"blackout-fsops --bounded 1 --families=direct,dsync,mmap,xattr --seed 1",
		"blackout-fsops check --bounded 1 --families=direct,dsync,mmap,xattr --seed 1");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\n",
		  "builtin bounded needs the length of its workloads");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 4\n",
		  "[workload] length: bad value '4'");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\nops = 9\n",
		  "it takes 'length', not 'ops'");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\n"
		  "workloads = 9-3\n",
		  "[workload] workloads: bad value '9-3'");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\n"
		  "families = all\n",
		  "only builtin fsops takes 'families'");
	parse_bad(MIN "length = 1\n", "only builtin bounded takes 'length'");
	parse_bad(MIN "workloads = 1-2\n", "only builtin bounded takes 'workloads'");
	/* A sample: of the ranks given (or all), those I modulo N. */
	commands_are("[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 2\n"
		     "workloads = 0-4671\nsample = 3/10\n[run]\nseed = 1\n",
		     "blackout-fsops --bounded 2 --workloads 0-4671 --sample 3/10 --seed 1",
		     "blackout-fsops check --bounded 2 --workloads 0-4671 --sample 3/10 --seed 1");
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = {"10/10", "3", "1/0", "-1/4", "3/x"};
		char text[160];

		snprintf(text, sizeof(text),
			 "[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\n"
			 "sample = %s\n",
			 bad[i]);
		parse_bad(text, "[workload] sample: bad value");
	}
	parse_bad(MIN "sample = 0/2\n", "only builtin bounded takes 'sample'");
}

/* [workload] families: op families beyond the base, passed on to the workload and checker;
 * all is what the filesystem has (nilfs2 lacks falloc, xattr, rename2, copy and clone, ext4
 * clone), one it lacks is refused. */
static void families(void)
{
	static const struct {
		const char *device, *value, *flag;
	} cases[] = {
		{"fs = ext4\n", "falloc,xattr", " --families=falloc,xattr"},
		{"fs = xfs\nsize = 300M\n", "all", " --families=all"},
		{"fs = ext4\n", "all",
		 " --families=falloc,direct,dsync,mmap,xattr,rename2,copy,symlink,collapse"},
		{"fs = ext4\n", "copy", " --families=copy"},
		{"fs = ext4\n", "rename2,direct,dsync,mmap",
		 " --families=rename2,direct,dsync,mmap"},
		{"fs = ext4\n", "none", ""},
		{"fs = nilfs2\nsize = 136M\n", "all", " --families=direct,dsync,mmap,symlink"},
	};
	static const char *const bad[] = {"bogus",	  "falloc,", ",falloc",	  "falloc,falloc",
					  "falloc xattr", "fallocx", "all,falloc"};
	char text[512], want[256], *cmd = NULL;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bo_scenario *sc;

		snprintf(text, sizeof(text),
			 "[device]\n%s[workload]\nbuiltin = fsops\nops = 9\n"
			 "families = %s\n[run]\nseed = 1\n",
			 cases[i].device, cases[i].value);
		sc = parse_ok(text);
		CU_ASSERT_FATAL(sc != NULL);
		snprintf(want, sizeof(want), "blackout-fsops --seed 1 --ops 9%s", cases[i].flag);
		CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
		if (!cmd || strcmp(cmd, want))
			fprintf(stderr, "\ncase %zu: '%s'\n  wanted '%s'\n", i, cmd, want);
		CU_ASSERT(cmd && !strcmp(cmd, want));
		free(cmd);
		snprintf(want, sizeof(want), "blackout-fsops check --seed 1 --ops 9%s",
			 cases[i].flag);
		CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0);
		CU_ASSERT(cmd && !strcmp(cmd, want));
		free(cmd);
		bo_scenario_free(sc);
	}
	parse_bad("[device]\nfs = udf\n[workload]\nbuiltin = fsops\nfamilies = mmap,xattr\n",
		  "[workload] families: udf has no xattr (its ops fail there): leave it out, or "
		  "'all' takes the families udf has");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = fsops\nfamilies = copy,clone\n",
		  "[workload] families: ext4 has no clone (its ops fail there): leave it out, or "
		  "'all' takes the families ext4 has");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), MIN "families = %s\n", bad[i]);
		parse_bad(text, "[workload] families: bad value");
	}
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = applog\nfamilies = all\n",
		  "only builtin fsops takes 'families'");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./w\nfamilies = all\n[check]\n"
		  "checker = none\n",
		  "only builtin fsops takes 'families'");
}

static void cuts(void)
{
	static const char *const good[] = {"flush",    "fua",	    "all",
					   "mark",     "every:10",  "entry:7",
					   "entry:3-", "entry:0-0", "flush,mark"};
	static const char *const bad[] = {"every:0",  "every:",	   "every:0x10", "entry:5-3",
					  "entry:-3", "entry:a-b", "entry:",	 "Flush"};
	struct bo_err err = {0};

	for (size_t i = 0; i < BO_ARRAY_SIZE(good); i++)
		CU_ASSERT(bo_cutsel_validate(good[i], &err) == 0);
	for (size_t i = 0; i < BO_ARRAY_SIZE(bad); i++)
		CU_ASSERT(bo_cutsel_validate(bad[i], &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "unknown cut policy 'Flush'") != NULL);
}

static void errors(void)
{
	char longline[4200];

	parse_bad("[device]\nfs = ext4\n[bogus]\nx = 1\n", "t.ini:3: unknown section '[bogus]'");
	parse_bad(MIN "[empty]\n", "t.ini:5: unknown section '[empty]'");
	parse_bad(MIN "[check]\npersona = lying\n",
		  "t.ini:6: [check] persona: bad value 'lying' (expected a device persona");
	parse_bad(MIN "[check]\nrecovery = repair\n",
		  "t.ini:6: [check] recovery: bad value 'repair' (expected auto, mount or fsck");
	parse_bad("[device]\nfs = xfs\nsize = 300M\n[workload]\nbuiltin = fsops\n[check]\n"
		  "recovery = fsck\n",
		  "t.ini:7: [check] recovery: xfs is recovered by its mount");
	{
		struct bo_scenario *sc = parse_ok("[device]\nfs = vfat\n[workload]\nbuiltin = "
						  "fsops\n[check]\nrecovery = fsck\n");

		CU_ASSERT(sc && sc->fs == BO_FS_VFAT && sc->recovery == BO_RECOVERY_FSCK);
		bo_scenario_free(sc);
		sc = parse_ok(MIN);
		CU_ASSERT(sc && sc->recovery == BO_RECOVERY_AUTO);
		bo_scenario_free(sc);
	}
	parse_bad(MIN "[check]\nrecovery_crashes = 1001\n",
		  "t.ini:6: [check] recovery_crashes: bad value '1001' (expected a number");
	parse_bad(MIN "[check]\nwitness = -1\n",
		  "t.ini:6: [check] witness: bad value '-1' (expected a number");
	parse_bad("[device]\nfstype = ext4\n", "t.ini:2: [device]: unknown key 'fstype'");
	parse_bad("[device]\nfs = ext5\n", "t.ini:2: [device] fs: bad value 'ext5' (expected");
	parse_bad("fs = ext4\n", "t.ini:1: key 'fs' outside of a section");
	parse_bad(MIN "just some words\n", "t.ini:5: syntax error");
	parse_bad("[device\nfs = ext4\n", "t.ini:1: syntax error");
	parse_bad("[device]\nfs = ext4\nfs = xfs\n",
		  "t.ini:3: [device] fs: given twice (first on line 2)");
	parse_bad(MIN "[device]\nfs = xfs\n", "t.ini:6: [device] fs: given twice");
	parse_bad("[device]\nfs = ext4\nsize = 12X\n", "t.ini:3: [device] size: bad value '12X'");
	parse_bad("[device]\nsize = 1.5G\n", "[device] size: bad value '1.5G'");
	parse_bad("[device]\nsize = 0\n", "[device] size: bad value '0'");
	parse_bad("[device]\nsize = 99999999999999999999G\n", "bad value '99999999999999999999G'");
	parse_bad("[device]\nsize = 17179869184G\n", "bad value '17179869184G'");
	parse_bad("[device]\nsize = 1GB\n", "bad value '1GB'");
	parse_bad("[device]\nsize = -1\n", "bad value '-1'");
	parse_bad("[device]\nsector_size = 1024\n", "[device] sector_size: bad value '1024'");
	parse_bad("[device]\nmkfs_options = -L 'my label'\n", "[device] mkfs_options: bad value");
	parse_bad("[device]\nmount_options = noatime, sync\n", "[device] mount_options: bad");
	parse_bad("[scenario]\nname = my scenario\n", "[scenario] name: bad value 'my scenario'");
	parse_bad("[workload]\nbuiltin = fsop\n", "[workload] builtin: bad value 'fsop'");
	parse_bad("[workload]\ncommand =\n", "[workload] command: bad value ''");
	parse_bad("[workload]\nops = 0\n", "[workload] ops: bad value '0'");
	parse_bad("[workload]\nseed = 0x10\n", "[workload] seed: bad value '0x10'");
	parse_bad("[workload]\ntimeout = 5s\n", "[workload] timeout: bad value '5s'");
	parse_bad("[check]\nfsck_timeout = 0\n", "[check] fsck_timeout: bad value '0'");
	parse_bad("[check]\nmount_timeout = 86401\n", "bad value '86401'");
	parse_bad("[check]\ncuts = every:0\n", "t.ini:2: [check] cuts: cut policy 'every:0'");
	parse_bad("[check]\ncuts = entry:9-3\n", "[check] cuts: cut policy 'entry:9-3'");
	parse_bad("[check]\ncuts = sometimes\n", "unknown cut policy 'sometimes'");
	parse_bad("[check]\nchecker = fsop\n", "t.ini:2: [check] checker: bad value 'fsop'");
	parse_bad("[run]\nlog_size = 1T\n", "[run] log_size: bad value '1T'");

	/* Whole-file checks: no line, or the line of the key at fault. */
	parse_bad("[workload]\nbuiltin = fsops\n", "dir/t.ini: [device] fs: required");
	parse_bad("[device]\nfs = ext4\n", "[workload] builtin: exactly one of");
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = fsops\ncommand = ./x\n",
		  "t.ini:5: [workload] command: exactly one of");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./x\nops = 5\n[check]\n"
		  "checker = none\n",
		  "t.ini:5: [workload] ops: only builtin workloads");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./x\nbug = ack-without-fsync\n"
		  "[check]\nchecker = none\n",
		  "t.ini:5: [workload] bug: only builtin workloads");
	parse_bad(MIN "bug = eat-data\n", "t.ini:5: [workload] bug: bad value 'eat-data'");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./x\n",
		  "[check] checker: required with a command or script workload");
	parse_bad("[device]\nfs = ext4\n[workload]\ncommand = ./x\n[check]\nchecker = fsops\n",
		  "t.ini:6: [check] checker: builtin checker 'fsops' needs the builtin workload");
	parse_bad("[device]\nfs = xfs\n[workload]\nbuiltin = fsops\n",
		  "[device] size: 268435456 bytes is outside 300M..64G for xfs");
	parse_bad("[device]\nfs = btrfs\nsize = 100M\n[workload]\nbuiltin = fsops\n",
		  "t.ini:3: [device] size: 104857600 bytes is outside 110M..64G for btrfs");
	parse_bad("[device]\nfs = ext4\nsize = 65G\n[workload]\nbuiltin = fsops\n",
		  "outside 16M..64G");
	parse_bad("[device]\nfs = ext4\nsize = 16777728\n[workload]\nbuiltin = fsops\n",
		  "t.ini:3: [device] size: 16777728 is not a multiple of sector_size 4096");
	parse_bad(MIN "[run]\nlog_size = 512K\n", "t.ini:6: [run] log_size: 524288 must be");

	/* A real command line fits (4 KiB); a longer line is an error, never split. */
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, MIN "description = ", strlen(MIN "description = "));
	memcpy(longline + sizeof(longline) - 2, "\n", 2);
	parse_bad(longline, "t.ini:5: line longer than 4096 bytes");
	{
		char fits[4200];
		struct bo_scenario *sc;
		int n = snprintf(fits, sizeof(fits), "[scenario]\ndescription = ");

		memset(fits + n, 'y', 4096 - strlen("description = "));
		snprintf(fits + n + 4096 - strlen("description = "),
			 sizeof(fits) - 4096 - (size_t) n, "\n" MIN);
		sc = parse_ok(fits);
		CU_ASSERT(sc && strlen(sc->description) == 4096 - strlen("description = "));
		bo_scenario_free(sc);
	}
	/* An indented line is a line of its own, never a continuation of the one above. */
	parse_bad(MIN "ops = 5\n    7\n", "t.ini:6: syntax error: expected '[section]' or");
	{
		static const char nul[] = "[device]\nfs = ext4\0xfs\n";
		struct bo_scenario *sc = NULL;
		struct bo_err err = {0};

		CU_ASSERT(bo_scenario_parse(nul, sizeof(nul) - 1, "n.ini", NULL, &sc, &err) ==
			  -EINVAL);
		CU_ASSERT(strstr(bo_err_str(&err), "n.ini:2: NUL byte") != NULL);
	}
	/* A continuation-looking line is a line of its own, not part of the value above. */
	parse_bad(MIN "[scenario]\ndescription = one\n   two = three\n",
		  "t.ini:7: [scenario]: unknown key 'two'");
}

/* [faults]: a plan of dm-flakey switches at marks, with file:line errors. */
static void faults(void)
{
	struct bo_scenario *sc =
		parse_ok(MIN "[faults]\nat = ack:040 drop_writes\nat = mark:phase2 up\n"
			     "at: issue:7 error_writes error_reads ; both\n"
			     "at = mark:p3 corrupt_bio_byte 32 w 1 0 random_read_corrupt 1000\n");
	char *name = NULL;

	CU_ASSERT_FATAL(sc != NULL && sc->nfaults == 4);
	CU_ASSERT_STRING_EQUAL(sc->faults[0].trigger, "ack:40");
	CU_ASSERT(sc->faults[0].drop_writes && sc->faults[0].line == 6);
	CU_ASSERT_STRING_EQUAL(sc->faults[0].what, "drop_writes");
	CU_ASSERT(sc->faults[1].up && !strcmp(sc->faults[1].trigger, "phase2"));
	CU_ASSERT(sc->faults[2].error_writes && sc->faults[2].error_reads);
	CU_ASSERT_STRING_EQUAL(sc->faults[2].what, "error_writes,error_reads");
	CU_ASSERT(sc->faults[3].corrupt_bio_byte && sc->faults[3].corrupt_nth_byte == 32 &&
		  sc->faults[3].corrupt_direction == 'w' && sc->faults[3].corrupt_value == 1);
	CU_ASSERT(sc->faults[3].random_read_corrupt == 1000);
	CU_ASSERT(bo_fault_mark_name(&sc->faults[3], 4, &name) == 0);
	CU_ASSERT_STRING_EQUAL(name, "fault:4:corrupt_bio_byte,32,w,1,0,random_read_corrupt,1000");
	free(name);
	bo_scenario_free(sc);

	parse_bad(MIN "[faults]\nwhen = ack:4 drop_writes\n",
		  "t.ini:6: [faults]: unknown key 'when'");
	parse_bad(MIN "[faults]\nat = ack:4\n",
		  "t.ini:6: [faults] at: bad value 'ack:4' (expected 'TRIGGER FAULT...'");
	parse_bad(MIN "[faults]\nat = 40 drop_writes\n",
		  "t.ini:6: [faults] at: bad value '40 drop_writes' (the trigger must be");
	parse_bad(MIN "[faults]\nat = ack:x drop_writes\n", "ack: needs a decimal op id");
	parse_bad(MIN "[faults]\nat = ack:99999999999999999999 drop_writes\n",
		  "needs a decimal op id");
	parse_bad(MIN "[faults]\nat = mark:ack:3 drop_writes\n", "are not user marks");
	parse_bad(MIN "[faults]\nat = mark:fault:1:up up\n", "are not user marks");
	parse_bad(MIN "[faults]\nat = mark:mkfs drop_writes\n", "the harness's own mark");
	parse_bad(MIN "[faults]\nat = mark: drop_writes\n", "mark: needs a name");
	parse_bad(MIN "[faults]\nat = ack:4 drop_write\n", "unknown fault 'drop_write'");
	parse_bad(MIN "[faults]\nat = ack:4 drop_writes error_writes\n",
		  "t.ini:6: [faults] at: bad value 'ack:4 drop_writes error_writes' (drop_writes "
		  "and error_writes exclude each other)");
	parse_bad(MIN "[faults]\nat = ack:4 drop_writes drop_writes\n", "given twice");
	parse_bad(MIN "[faults]\nat = ack:4 up drop_writes\n", "'up' stands alone");
	parse_bad(MIN "[faults]\nat = ack:4 error_writes random_write_corrupt 5\n",
		  "error_writes excludes corrupting writes");
	parse_bad(MIN "[faults]\nat = ack:4 error_reads corrupt_bio_byte 1 r 0 0\n",
		  "error_reads excludes corrupting reads");
	parse_bad(MIN "[faults]\nat = ack:4 corrupt_bio_byte 1 w 0\n", "takes 4 arguments");
	parse_bad(MIN "[faults]\nat = ack:4 corrupt_bio_byte 0 w 0 0\n", "counts from 1");
	parse_bad(MIN "[faults]\nat = ack:4 corrupt_bio_byte 1 x 0 0\n", "r or w");
	parse_bad(MIN "[faults]\nat = ack:4 corrupt_bio_byte 1 w 256 0\n", "0 to 255");
	parse_bad(MIN "[faults]\nat = ack:4 random_write_corrupt\n", "units of 1e-9");
	parse_bad(MIN "[faults]\nat = ack:4 random_write_corrupt 1000000001\n", "units of 1e-9");
	parse_bad(MIN "[faults]\nat = ack:4 random_write_corrupt 0\n", "units of 1e-9");
	parse_bad(MIN "[faults]\nat = ack:4 drop_writes\nat = ack:04 up\n",
		  "t.ini:7: [faults] at: bad value 'ack:04 up' (trigger already used on line 6");
}

/* Text that is not NUL-terminated (what the fuzzer found): read only within its bounds. */
static void unterminated_text(void)
{
	static const char *const inputs[] = {" ", "[",	      "  \t",
					     "x", "[device]", MIN "[run]\nseed = 5"};

	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		size_t n = strlen(inputs[i]);
		char *exact = malloc(n); /* no room for a terminator: ASan catches an over-read */
		struct bo_scenario *sc = NULL;
		int r;

		CU_ASSERT_FATAL(exact != NULL);
		memcpy(exact, inputs[i], n);
		r = bo_scenario_parse(exact, n, "u.ini", NULL, &sc, NULL);
		CU_ASSERT((r == 0) == (i == 5));
		if (r == 0)
			CU_ASSERT(sc->seed == 5);
		bo_scenario_free(sc);
		free(exact);
	}
}

static void json(void)
{
	struct bo_scenario *sc = parse_ok(MIN "[check]\ncuts = entry:5-\n[run]\nseed = "
					      "18446744073709551615\n");
	struct json_object *j = NULL, *v;
	const char *s;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT_FATAL(bo_scenario_to_json(sc, &j) == 0);
	s = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT(strstr(s, "\"fs\":\"ext4\"") != NULL);
	CU_ASSERT(strstr(s, "\"size\":268435456") != NULL);
	CU_ASSERT(strstr(s, "\"command\":\"blackout-fsops --seed 18446744073709551615 --ops "
			    "200\"") != NULL);
	CU_ASSERT(strstr(s, "\"cuts\":{\"policy\":\"entry:5-\"}") != NULL);
	CU_ASSERT(strstr(s, "\"checker\":\"blackout-fsops check --seed 18446744073709551615") !=
		  NULL);
	CU_ASSERT(strstr(s, "\"bug\":\"none\"") != NULL);
	CU_ASSERT(json_object_object_get_ex(j, "run", &v));
	CU_ASSERT(json_object_object_get_ex(v, "seed", &v));
	CU_ASSERT(json_object_get_uint64(v) == UINT64_MAX);
	json_object_put(j);
	bo_scenario_free(sc);
}

static void load(void)
{
	static const char *const shipped[] = {"ext4-fsops",
					      "xfs-fsops",
					      "btrfs-fsops",
					      "ext4-fsops-bug",
					      "xfs-fsops-syncfs-overwrite",
					      "ext4-bounded",
					      "ext4-bounded-data-journal",
					      "ext4-bounded-nojournal",
					      "xfs-bounded",
					      "btrfs-bounded"};
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	char path[512];

	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		snprintf(path, sizeof(path), "%s/scenarios/%s.ini", BO_SOURCE_DIR, shipped[i]);
		if (bo_scenario_load(path, &sc, &err) < 0) {
			fprintf(stderr, "%s\n", bo_err_str(&err));
			CU_FAIL("shipped scenario");
			continue;
		}
		CU_ASSERT_STRING_EQUAL(sc->name, shipped[i]);
		CU_ASSERT(sc->workload == BO_WORKLOAD_BUILTIN);
		CU_ASSERT((sc->bug != NULL) == (i == 3)); /* the positive control plants a bug */
		bo_scenario_free(sc);
	}
	/* Every scenario shipped loads, new ones too (the nightly matrices are not scenarios). */
	{
		DIR *d;
		struct dirent *e;
		size_t n = 0;

		snprintf(path, sizeof(path), "%s/scenarios", BO_SOURCE_DIR);
		d = opendir(path);
		CU_ASSERT_FATAL(d != NULL);
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len < 5 || strcmp(e->d_name + len - 4, ".ini") ||
			    !strncmp(e->d_name, "nightly", 7))
				continue;
			snprintf(path, sizeof(path), "%s/scenarios/%s", BO_SOURCE_DIR, e->d_name);
			if (bo_scenario_load(path, &sc, &err) < 0) {
				fprintf(stderr, "\n%s\n", bo_err_str(&err));
				CU_FAIL("a shipped scenario does not load");
				continue;
			}
			bo_scenario_free(sc);
			n++;
		}
		closedir(d);
		CU_ASSERT(n >= 90);
	}
	CU_ASSERT(bo_scenario_load(bo_test_path("missing.ini"), &sc, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "missing.ini': No such file") != NULL);
	CU_ASSERT(bo_scenario_load(bo_test_dir(), &sc, &err) == -EISDIR);
	CU_ASSERT(strstr(bo_err_str(&err), "not a regular file") != NULL);
	/* A FIFO is refused with what it is, not read (which would wait for a writer). */
	CU_ASSERT_FATAL(mkfifo(bo_test_path("fifo.ini"), 0600) == 0);
	CU_ASSERT(bo_scenario_load(bo_test_path("fifo.ini"), &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "is a FIFO") != NULL);
	CU_ASSERT(unlink(bo_test_path("fifo.ini")) == 0);
}

/* [check] ordered: default no, yes/no, nothing else; a family's variant args. */
static void ordered_and_variants(void)
{
	_cleanup_free_ char *cmd = NULL, *chk = NULL;
	struct bo_scenario *sc = parse_ok(MIN);

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->ordered == false);
	bo_scenario_free(sc);
	sc = parse_ok(MIN "[check]\nordered = yes\n");
	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->ordered == true);
	bo_scenario_free(sc);
	sc = parse_ok(MIN "[check]\nordered = no\n");
	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->ordered == false);
	bo_scenario_free(sc);
	parse_bad(MIN "[check]\nordered = 1\n", "t.ini:6: [check] ordered: bad value '1'");
	parse_bad(MIN "[check]\nordered = yes\nordered = no\n", "ordered: given twice");

	sc = parse_ok("[device]\nfs = ext4\n[workload]\nbuiltin = sqlite-wal\nops = 5\n"
		      "bug = synchronous-off\n");
	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0);
	CU_ASSERT_STRING_EQUAL(cmd, "blackout-sqlite --journal=wal --seed 1 --ops 5 "
				    "--bug=synchronous-off");
	CU_ASSERT(bo_scenario_checker_command(sc, &chk) == 0);
	CU_ASSERT_STRING_EQUAL(chk, "blackout-sqlite check --journal=wal --seed 1 --ops 5 "
				    "--bug=synchronous-off");
	bo_scenario_free(sc);
	parse_bad("[device]\nfs = ext4\n[workload]\nbuiltin = replace\nbug = eat-data\n",
		  "plants: none, no-fsync-before-rename, no-dir-fsync");
}

static void seed_override(void)
{
	struct bo_scenario *sc = parse_ok(MIN "[run]\nseed = 5\n");

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->seed == 5 && sc->workload_seed == 5);
	bo_scenario_set_seed(sc, 77);
	CU_ASSERT(sc->seed == 77 && sc->workload_seed == 77);
	bo_scenario_free(sc);
	sc = parse_ok(
		"[device]\nfs = ext4\n[workload]\nbuiltin = fsops\nseed = 9\n[run]\nseed = 5\n");
	CU_ASSERT_FATAL(sc != NULL);
	bo_scenario_set_seed(sc, 77);
	CU_ASSERT(sc->seed == 77 && sc->workload_seed == 9);
	bo_scenario_free(sc);
}

/* Write @text to @name in the scratch directory; its path. */
static const char *put_file(const char *name, const char *text, mode_t mode)
{
	const char *path = bo_test_path(name);
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
	CU_ASSERT_FATAL(chmod(path, mode) == 0);
	return path;
}

/* Load scenario @text from the scratch directory; 0 or the error, in @err. */
static int load_text(const char *text, struct bo_scenario **ret, struct bo_err *err)
{
	return bo_scenario_load(put_file("s.ini", text, 0644), ret, err);
}

/* In @buf, the command line of script @name in @dir with @args: its path as /bin/sh reads it. */
static void script_command(char *buf, size_t len, const char *dir, const char *name,
			   const char *args)
{
	char path[4200];
	_cleanup_free_ char *q = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	q = bo_shell_quote(path);
	CU_ASSERT_FATAL(q != NULL);
	snprintf(buf, len, "%s%s", q, args);
}

/* [vm] files, [workload] script and user, [check] script: paths relative to the scenario,
 * checked on the host, absolute in the copy a run keeps. */
static void vm_scripts_user(void)
{
	struct bo_scenario *sc = NULL, *copy = NULL;
	struct bo_err err = {0};
	char dir[4096], want[8400], *cmd = NULL, **files = NULL;
	const char *saved = bo_test_path("saved.ini");

	snprintf(dir, sizeof(dir), "%s", bo_test_dir());
	put_file("load.sh", "#!/bin/sh\n", 0755);
	put_file("check.sh", "#!/bin/sh\necho done\n", 0755);
	put_file("plain.sh", "#!/bin/sh\n", 0644);
	CU_ASSERT_FATAL(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh\nuser = root\n"
				  "[check]\nscript = ./check.sh\n[vm]\nfiles = /bin/sh load.sh\n"
				  "files = /etc/passwd\nroot = host\n",
				  &sc, &err) == 0);
	script_command(want, sizeof(want), dir, "load.sh", "");
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0 && !strcmp(cmd, want));
	free(cmd);
	script_command(want, sizeof(want), dir, "./check.sh", "");
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0 && cmd && !strcmp(cmd, want));
	free(cmd);
	CU_ASSERT(sc->root_host && sc->user && !strcmp(sc->user, "root"));
	CU_ASSERT_FATAL(bo_scenario_files(sc, &files) == 0);
	CU_ASSERT(files[0] && !strcmp(files[0], "/bin/sh"));
	snprintf(want, sizeof(want), "%s/load.sh", dir);
	CU_ASSERT(files[1] && !strcmp(files[1], want));
	CU_ASSERT(files[2] && !strcmp(files[2], "/etc/passwd"));
	CU_ASSERT(files[3] && files[4] && !files[5]); /* the two scripts */
	for (size_t i = 0; files[i]; i++)
		free(files[i]);
	free(files);
	/* The copy a run keeps means the same from anywhere: its paths are absolute. */
	unlink(saved);
	CU_ASSERT_FATAL(bo_scenario_save(sc, saved, &err) == 0);
	CU_ASSERT_FATAL(bo_scenario_load(saved, &copy, &err) == 0);
	CU_ASSERT(!strcmp(copy->workload_script, sc->workload_script));
	CU_ASSERT(!strcmp(copy->checker_script, sc->checker_script));
	CU_ASSERT(copy->files && !strcmp(copy->files[1], sc->files[1]));
	bo_scenario_free(copy);
	bo_scenario_free(sc);

	/* A script takes arguments: shell words after the file, on the command line as written;
	 * only the file is a path. */
	CU_ASSERT_FATAL(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh my.cnf --n 3\n"
				  "[check]\nscript = check.sh  my.cnf\n",
				  &sc, &err) == 0);
	script_command(want, sizeof(want), dir, "load.sh", " my.cnf --n 3");
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0 && !strcmp(cmd, want));
	free(cmd);
	script_command(want, sizeof(want), dir, "check.sh", " my.cnf");
	CU_ASSERT(bo_scenario_checker_command(sc, &cmd) == 0 && cmd && !strcmp(cmd, want));
	free(cmd);
	snprintf(want, sizeof(want), "%s/load.sh", dir);
	CU_ASSERT(!strcmp(sc->workload_script, want));
	unlink(saved);
	CU_ASSERT_FATAL(bo_scenario_save(sc, saved, &err) == 0);
	CU_ASSERT_FATAL(bo_scenario_load(saved, &copy, &err) == 0);
	CU_ASSERT(!strcmp(copy->command, sc->command));
	CU_ASSERT(!strcmp(copy->checker_command, sc->checker_command));
	bo_scenario_free(copy);
	bo_scenario_free(sc);
	/* A path the shell would split or unquote runs as one word, quoted. */
	put_file("it's.sh", "#!/bin/sh\n", 0755);
	CU_ASSERT_FATAL(load_text("[device]\nfs = ext4\n[workload]\nscript = it's.sh -v\n[check]\n"
				  "checker = none\n",
				  &sc, &err) == 0);
	snprintf(want, sizeof(want), "'%s/it'\\''s.sh' -v", dir);
	CU_ASSERT(bo_scenario_workload_command(sc, &cmd) == 0 && !strcmp(cmd, want));
	free(cmd);
	bo_scenario_free(sc);

	/* Bad input: the file and line of the key. */
	CU_ASSERT(
		load_text("[device]\nfs = ext4\n[workload]\nscript = plain.sh\n[check]\nchecker = "
			  "none\n",
			  &sc, &err) == -EACCES);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:4: [workload] script:") &&
		  strstr(bo_err_str(&err), "is not executable"));
	CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nscript = nope.sh\n[check]\nchecker = "
			    "none\n",
			    &sc, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:4: [workload] script:") != NULL);
	CU_ASSERT(load_text(MIN "[vm]\nfiles = /no/such/file\n", &sc, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:6: [vm] files: '/no/such/file'") != NULL);
	CU_ASSERT(load_text(MIN "user = no-such-user-here\n", &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:5: [workload] user: bad value "
					   "'no-such-user-here' (no such user") != NULL);
	CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nbuiltin = fsops\nscript = load.sh\n",
			    &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "exactly one of 'builtin', 'command' and 'script'") !=
		  NULL);
	CU_ASSERT(load_text(MIN "[check]\nchecker = none\nscript = check.sh\n", &sc, &err) ==
		  -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "[check] script: not with 'checker'") != NULL);
	/* The user must be able to run the scripts: the scratch directory is root's, 0700. */
	if (geteuid() == 0) {
		CU_ASSERT(chmod(dir, 0700) == 0);
		CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh\nuser = "
				    "nobody\n[check]\nchecker = none\n",
				    &sc, &err) == -EACCES);
		snprintf(want, sizeof(want),
			 "s.ini:4: [workload] script: user 'nobody' cannot reach '%s/load.sh': "
			 "'%s' is mode 0700",
			 dir, dir);
		CU_ASSERT(strstr(bo_err_str(&err), want) != NULL);
		CU_ASSERT(chmod(dir, 0755) == 0);
		CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh\nuser = "
				    "nobody\n[check]\nscript = plain.sh\n",
				    &sc, &err) == -EACCES);
		CU_ASSERT(strstr(bo_err_str(&err), "[check] script:") != NULL);
		put_file("check.sh", "#!/bin/sh\necho done\n", 0700);
		CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh\nuser = "
				    "nobody\n[check]\nscript = check.sh\n",
				    &sc, &err) == -EACCES);
		CU_ASSERT(strstr(bo_err_str(&err),
				 "s.ini:7: [check] script: user 'nobody' may not run") != NULL);
		put_file("check.sh", "#!/bin/sh\necho done\n", 0755);
		CU_ASSERT(load_text("[device]\nfs = ext4\n[workload]\nscript = load.sh\nuser = "
				    "nobody\n[check]\nscript = check.sh\n",
				    &sc, &err) == 0);
		bo_scenario_free(sc);
		CU_ASSERT(chmod(dir, 0700) == 0);
	}
	CU_ASSERT(load_text(MIN "[vm]\nroot = guest\n", &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:6: [vm] root: bad value 'guest'") != NULL);
	/* [vm] kernel: a release or its prefix, nothing that could be a path. */
	CU_ASSERT(load_text(MIN "[vm]\nkernel = 6.12.117+deb12-amd64\n", &sc, &err) == 0);
	CU_ASSERT(sc && sc->kernel && !strcmp(sc->kernel, "6.12.117+deb12-amd64"));
	bo_scenario_free(sc);
	CU_ASSERT(load_text(MIN "[vm]\nkernel = ../../vmlinux\n", &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:6: [vm] kernel: ") != NULL &&
		  strstr(bo_err_str(&err), "blackout kernel list") != NULL);
	/* [vm] kernel_tree: an absolute path; not with [vm] kernel. */
	CU_ASSERT(load_text(MIN "[vm]\nkernel_tree = /src/linux\n", &sc, &err) == 0);
	CU_ASSERT(sc && sc->kernel_tree && !strcmp(sc->kernel_tree, "/src/linux"));
	bo_scenario_free(sc);
	CU_ASSERT(load_text(MIN "[vm]\nkernel_tree = linux\n", &sc, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.ini:6: [vm] kernel_tree: bad value 'linux'") != NULL);
	CU_ASSERT(load_text(MIN "[vm]\nkernel = 6.12\nkernel_tree = /src/linux\n", &sc, &err) ==
		  -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "one or the other") != NULL);
	/* In the guest nothing is looked up on the machine: the host checked it. */
	{
		struct bo_scenario_opts guest = {.host = false};

		CU_ASSERT(bo_scenario_load_opts(put_file("g.ini",
							 MIN "user = nobody-there\n[vm]\n"
							     "files = /no/such/file\n",
							 0644),
						&guest, &sc, &err) == 0);
		bo_scenario_free(sc);
	}
}

/* [device NAME] sections: several devices in one log, an external journal, and what is
 * refused, with its line. */
#define WL "[workload]\nbuiltin = fsops\n"
static void devices(void)
{
	struct bo_scenario *sc = parse_ok("[device wal]\nfs = raw\nsize = 16M\n"
					  "[device data]\nfs = xfs\nsize = 300M\n"
					  "mount_options = noatime\njournal = log\n"
					  "[device log]\nfs = raw\nsize = 64M\n" WL);
	struct bo_layout l;
	struct json_object *j = NULL;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->ndevices == 3 && sc->primary == 1);
	CU_ASSERT(sc->devices[0].raw && !strcmp(sc->devices[0].name, "wal"));
	CU_ASSERT(sc->devices[1].fs == BO_FS_XFS && sc->devices[1].journal == 2);
	CU_ASSERT(!strcmp(sc->devices[1].mount_options, "noatime"));
	/* The primary device's fs and options are the scenario's. */
	CU_ASSERT(sc->fs == BO_FS_XFS && !strcmp(sc->mount_options, "noatime"));
	/* 1 MiB that is no device's, then each device on a MiB. */
	CU_ASSERT(sc->devices[0].start == 2048);
	CU_ASSERT(sc->devices[1].start == 2048 + 16 * 2048);
	CU_ASSERT(sc->devices[2].start == 2048 + 316 * 2048);
	CU_ASSERT(sc->size == (1 + 16 + 300 + 64) * (1ull << 20));
	CU_ASSERT(sc->log_size == 2 * sc->size);
	bo_scenario_layout(sc, &l);
	CU_ASSERT(l.n == 3 && l.v[1].journal == 2 && !strcmp(l.v[2].kind, "raw") &&
		  !strcmp(l.v[1].kind, "xfs") && l.v[1].sectors == 300 * 2048);
	CU_ASSERT_FATAL(bo_scenario_to_json(sc, &j) == 0);
	CU_ASSERT(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			 "\"journal\":\"log\"") != NULL);
	json_object_put(j);
	bo_scenario_free(sc);

	parse_bad("[device a]\nfs = ext4\n[device a]\nfs = ext4\n" WL,
		  "t.ini:3: [device a]: device 'a' is named twice (first on line 1)");
	parse_bad("[device]\nfs = ext4\n[device a]\nfs = ext4\n" WL,
		  "t.ini:3: [device a]: not with a [device] section");
	parse_bad("[device a]\nfs = ext4\n[device]\nfs = ext4\n" WL,
		  "t.ini:3: [device]: not with [device NAME] sections");
	parse_bad("[device Data]\nfs = ext4\n" WL, "t.ini:1: [device Data]: a device's name is");
	parse_bad("[device]\nfs = raw\n" WL,
		  "t.ini:2: [device] fs: bad value 'raw' (a raw device needs a name");
	parse_bad("[device a]\nsize = 64M\n" WL,
		  "t.ini:1: [device a] fs: required (" BO_FS_LIST " or raw)");
	parse_bad("[device a]\nfs = raw\nsize = 64M\nsize = 8M\n" WL,
		  "t.ini:4: [device a] size: given twice");
	parse_bad("[device a]\nfs = ext4\nsize = 8M\n" WL,
		  "t.ini:3: [device a] size: 8388608 bytes is outside 16M..64G for ext4");
	parse_bad("[device a]\nfs = raw\nmount_options = noatime\n" WL,
		  "t.ini:3: [device a] mount_options: a raw device has no filesystem");
	parse_bad("[device a]\nfs = raw\n[device b]\nfs = raw\nsector_size = 512\n" WL,
		  "t.ini:5: [device b] sector_size: 512, but device 'a' has 4096");
	parse_bad("[device a]\nfs = ext4\njournal = b\n[device b]\nfs = ext4\n" WL,
		  "t.ini:3: [device a] journal: device 'b' must be 'fs = raw'");
	parse_bad("[device a]\nfs = ext4\njournal = c\n[device b]\nfs = raw\n" WL,
		  "t.ini:3: [device a] journal: bad value 'c' (another device");
	parse_bad("[device a]\nfs = btrfs\njournal = b\n[device b]\nfs = raw\n" WL,
		  "t.ini:3: [device a] journal: btrfs has no external journal");
	parse_bad("[device a]\nfs = xfs\nsize = 300M\njournal = b\n[device b]\nfs = raw\nsize = "
		  "32M\n" WL,
		  "t.ini:4: [device a] journal: device 'b' has 33554432 bytes; mkfs.xfs wants an "
		  "external log of at least 64M");
	parse_bad("[device]\nfs = ext4\njournal = b\n" WL,
		  "t.ini:3: [device] journal: an external journal is a device of its own");
	parse_bad("[device a]\nfs = ext4\n[device b]\nfs = raw\n" WL
		  "[faults]\nat = ack:1 drop_writes\n",
		  "t.ini:8: [faults]: a fault plan acts on one device");
}

/* A btrfs over several devices: spans = NAME..., in its config.json and layout, and what is
 * refused with its line. */
#define SPANS(a, b) \
	"[device a]\nfs = btrfs\nsize = " a "\nspans = b\n[device b]\nfs = raw\nsize = " b "\n"
static void spans(void)
{
	struct bo_scenario *sc = parse_ok("[device a]\nfs = btrfs\nsize = 128M\nmkfs_options = "
					  "-d raid1 -m raid1\nspans = b  c\n[device b]\nfs = "
					  "raw\nsize = 128M\n[device c]\nfs = raw\nsize = 128M\n"
					  "[device d]\nfs = raw\nsize = 1M\n" WL);
	struct json_object *j = NULL;
	struct bo_layout l;

	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->devices[0].spans == 6 && sc->devices[0].journal == -1 &&
		  sc->devices[1].spans == 0 && sc->primary == 0);
	bo_scenario_layout(sc, &l);
	CU_ASSERT(l.v[0].spans == 6 && bo_layout_owner(&l, 2) == 0 && bo_layout_owner(&l, 3) == -1);
	CU_ASSERT_FATAL(bo_scenario_to_json(sc, &j) == 0);
	CU_ASSERT(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			 "\"spans\":[\"b\",\"c\"]") != NULL);
	json_object_put(j);
	bo_scenario_free(sc);
	parse_bad(SPANS("128M", "128M") "spans = c\n" WL,
		  "t.ini:8: [device b] spans: a raw device is made on one device");
	parse_bad("[device a]\nfs = xfs\nsize = 300M\nspans = b\n[device b]\nfs = raw\n" WL,
		  "t.ini:4: [device a] spans: xfs is made on one device (btrfs spans several)");
	parse_bad(SPANS("128M", "100M") WL,
		  "t.ini:4: [device a] spans: device 'b' has 104857600 bytes; each device of a "
		  "btrfs over several wants 131072000 at least");
	parse_bad(SPANS("120M", "128M") WL,
		  "t.ini:4: [device a] spans: device 'a' has 125829120 bytes");
	parse_bad("[device a]\nfs = btrfs\nspans = a\n" WL,
		  "t.ini:3: [device a] spans: bad value 'a' (another device of the scenario)");
	parse_bad("[device a]\nfs = btrfs\nspans = b\n[device b]\nfs = ext4\n" WL,
		  "t.ini:3: [device a] spans: device 'b' must be 'fs = raw'");
	parse_bad("[device a]\nfs = btrfs\nspans = b b\n[device b]\nfs = raw\n" WL,
		  "t.ini:3: [device a] spans: device 'b' named twice");
	parse_bad("[device a]\nfs = btrfs\nspans = b\n[device c]\nfs = btrfs\nspans = b\n"
		  "[device b]\nfs = raw\n" WL,
		  "t.ini:6: [device c] spans: device 'b' is 'a''s already");
	parse_bad("[device a]\nfs = ext4\njournal = b\n[device c]\nfs = btrfs\nspans = b\n"
		  "[device b]\nfs = raw\n" WL,
		  "t.ini:6: [device c] spans: device 'b' is 'a''s already");
	parse_bad("[device a]\nfs = btrfs\nspans = B\n" WL,
		  "t.ini:3: [device a] spans: bad value 'B' (a device's name)");
	parse_bad("[device a]\nfs = btrfs\nspans = b\nspans = b\n" WL,
		  "t.ini:4: [device a] spans: given twice (first on line 3)");
	parse_bad(
		"[device]\nfs = btrfs\nspans = b\n" WL,
		"t.ini:3: [device] spans: the devices a filesystem spans are devices of their own");
}

/* [node NAME] sections: a cluster, its survivor sets, and what is refused on the host before
 * any boot, with its line. */
#define DEV3	"[device n1]\nfs = ext4\n[device n2]\nfs = ext4\n[device n3]\nfs = ext4\n"
#define NODE(n) "[node " n "]\nstart = /bin/true\n"
#define CWL	"[workload]\ncommand = true\n[check]\nchecker = /bin/true\n"
static void nodes(void)
{
	/* Each correct cluster, then its twin that acknowledges before the fsync: how each
	 * node's start line ends. */
	static const struct {
		const char *name, *node, *start;
	} shipped[] = {
		{"ext4-etcd-cluster", "etcd-cluster/node", "etcd-cluster/node"},
		{"ext4-etcd-cluster-unsafe-no-fsync", "etcd-cluster/node",
		 "node --unsafe-no-fsync"},
		{"ext4-zookeeper-cluster", "zookeeper-cluster/node", "node yes"},
		{"ext4-zookeeper-cluster-forcesync-no", "zookeeper-cluster/node", "node no"},
	};
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	struct json_object *j = NULL;
	uint32_t sets[BO_CLUSTER_SETS_MAX], set;
	char path[512], name[BO_CLUSTER_SET_NAME_MAX];
	char **files = NULL;
	size_t n;

	for (size_t i = 0; i < BO_ARRAY_SIZE(shipped); i++) {
		snprintf(path, sizeof(path), "%s/scenarios/%s.ini", BO_SOURCE_DIR, shipped[i].name);
		if (bo_scenario_load(path, &sc, &err) < 0) {
			fprintf(stderr, "%s\n", bo_err_str(&err));
			CU_FAIL("shipped cluster scenario");
			continue;
		}
		CU_ASSERT_FATAL(sc->cluster != NULL);
		CU_ASSERT(sc->cluster->n == 3 && sc->ndevices == 3);
		CU_ASSERT(!strcmp(sc->cluster->v[2].dev[0], "n3") && sc->cluster->v[2].ndev == 1);
		CU_ASSERT(!strcmp(sc->cluster->v[1].addr, "10.88.0.2"));
		CU_ASSERT(sc->cluster->survivors == (BO_SURVIVORS_ALL | BO_SURVIVORS_QUORUM));
		for (unsigned k = 0; k < 3; k++) {
			const char *start = sc->cluster->v[k].start;
			size_t len = strlen(start), m = strlen(shipped[i].start);

			CU_ASSERT(len >= m && !strcmp(start + len - m, shipped[i].start));
		}
		/* The nodes' script is shipped with the scenario's, once. */
		CU_ASSERT_FATAL(bo_scenario_files(sc, &files) == 0);
		n = 0;
		for (size_t f = 0; files[f]; f++)
			n += strstr(files[f], shipped[i].node) != NULL;
		CU_ASSERT(n == 1);
		bo_strv_free(files);
		CU_ASSERT_FATAL(bo_scenario_to_json(sc, &j) == 0);
		CU_ASSERT(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
				 "\"survivors\":\"all quorum\"") != NULL);
		json_object_put(j);
		/* all, then the three majorities; each node alone when asked. */
		CU_ASSERT(bo_cluster_sets(sc->cluster, sets) == 4);
		CU_ASSERT(sets[0] == 7 && sets[1] == 3 && sets[2] == 5 && sets[3] == 6);
		CU_ASSERT_STRING_EQUAL(bo_cluster_set_name(sc->cluster, 5, name, sizeof(name)),
				       "n1+n3");
		CU_ASSERT(bo_cluster_set_parse(sc->cluster, "n3+n1", &set) == 0 && set == 5);
		CU_ASSERT(bo_cluster_set_parse(sc->cluster, "n1+n4", &set) == -EINVAL);
		CU_ASSERT(bo_cluster_set_parse(sc->cluster, "n1+", &set) == -EINVAL);
		CU_ASSERT(bo_cluster_set_parse(sc->cluster, "n1+n1", &set) == -EINVAL);
		sc->cluster->survivors = BO_SURVIVORS_EACH | BO_SURVIVORS_ALL;
		CU_ASSERT(bo_cluster_sets(sc->cluster, sets) == 4 && sets[3] == 4);
		bo_scenario_free(sc);
	}

	/* Devices by name, an address given, a node with two disks. */
	sc = parse_ok(DEV3
		      "[device w1]\nfs = raw\n[node a]\ndevices = n1 w1\naddress = "
		      "192.168.7.5\nstart = /bin/true\nstop = /bin/true --stop\n"
		      "[node b]\ndevices = n2\naddress = 192.168.7.6\nstart = /bin/true\n"
		      "[node c]\ndevices = n3\naddress = 192.168.7.7\nstart = /bin/true\n" CWL);
	CU_ASSERT_FATAL(sc != NULL);
	CU_ASSERT(sc->cluster->v[0].ndev == 2 && !strcmp(sc->cluster->v[0].dev[1], "w1"));
	CU_ASSERT(strstr(sc->cluster->v[0].stop, "--stop") != NULL);
	bo_cluster_client_addr(sc->cluster, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "192.168.7.254");
	bo_scenario_free(sc);

	parse_bad("[device a]\nfs = ext4\n" NODE("n1") CWL,
		  "t.ini:3: [node n1] devices: no [device n1] section (a node's devices are");
	parse_bad(DEV3 NODE("n1") "devices = n1 n2\n" NODE("n2") NODE("n3") CWL,
		  "t.ini:10: [node n2] devices: device 'n2' is node 'n1''s already");
	parse_bad(DEV3 NODE("n1") NODE("n2") CWL, "t.ini:5: [device n3]: no node has it");
	parse_bad(DEV3 NODE("n1") NODE("n2") NODE("n1") CWL,
		  "t.ini:11: [node n1]: node 'n1' is named twice (first on line 7)");
	parse_bad(DEV3 NODE("n1") "address = 10.88.0.2\n" NODE("n2") NODE("n3") CWL,
		  "t.ini:10: [node n2] address: 10.88.0.2 is node 'n1''s already");
	parse_bad(DEV3 NODE("n1") NODE("n2") "address = 10.9.0.2\n" NODE("n3") CWL,
		  "t.ini:11: [node n2] address: 10.9.0.2 is not in node 'n1''s /24");
	parse_bad(DEV3 NODE("n1") "address = 10.88.0.254\n",
		  "t.ini:9: [node n1] address: bad value '10.88.0.254'");
	parse_bad(DEV3 NODE("n1") "address = n2\n", "t.ini:9: [node n1] address: bad value 'n2'");
	parse_bad(DEV3 "[node n1]\ndevices = n1\n" NODE("n2") NODE("n3") CWL,
		  "t.ini:7: [node n1] start: required");
	parse_bad(DEV3 NODE("n1") "colour = red\n", "t.ini:9: [node n1]: unknown key 'colour'");
	/* One node at a time: the marks of a node's power cut, written as [faults] triggers. */
	sc = parse_ok(DEV3 NODE("n1") "power-cut = ack:007 mark:leader issue:* mark:phase*\n" NODE(
		"n2") NODE("n3") CWL "cuts = end\n");
	CU_ASSERT_FATAL(sc != NULL && sc->cluster->v[0].power_cut != NULL);
	CU_ASSERT(!sc->cluster->v[1].power_cut);
	CU_ASSERT(bo_cluster_cuts_at(&sc->cluster->v[0], "ack:7"));
	CU_ASSERT(!bo_cluster_cuts_at(&sc->cluster->v[0], "ack:70"));
	CU_ASSERT(bo_cluster_cuts_at(&sc->cluster->v[0], "leader"));
	CU_ASSERT(bo_cluster_cuts_at(&sc->cluster->v[0], "issue:12"));
	CU_ASSERT(!bo_cluster_cuts_at(&sc->cluster->v[0], "ack:12"));
	CU_ASSERT(!bo_cluster_cuts_at(&sc->cluster->v[1], "ack:7"));
	/* Only ack:* and issue:* stand for more than one mark: a user mark is one name. */
	CU_ASSERT(bo_cluster_cuts_at(&sc->cluster->v[0], "phase*"));
	CU_ASSERT(!bo_cluster_cuts_at(&sc->cluster->v[0], "phase1"));
	CU_ASSERT(bo_cluster_is_cut_of("node-cut:n1:ack:3", "n1"));
	CU_ASSERT(!bo_cluster_is_cut_of("node-cut:n10:ack:3", "n1"));
	CU_ASSERT(!bo_cluster_is_cut_of("fault:1:up", "n1") && !bo_cluster_is_cut_of(NULL, "n1"));
	CU_ASSERT_FATAL(bo_scenario_to_json(sc, &j) == 0);
	CU_ASSERT(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			 "\"power_cut\":[\"ack:7\",\"leader\",\"issue:*\",\"phase*\"]") != NULL);
	json_object_put(j);
	bo_scenario_free(sc);
	parse_bad(DEV3 NODE("n1") "power-cut = ack:x\n",
		  "t.ini:9: [node n1] power-cut: 'ack:x': ack: needs a decimal op id");
	parse_bad(DEV3 NODE("n1") "power-cut = mark:node-cut:n2:ack:1\n",
		  "t.ini:9: [node n1] power-cut: 'mark:node-cut:n2:ack:1': mark:node-cut:n2:ack:1: "
		  "names starting with");
	parse_bad(DEV3 NODE("n1") "power-cut = mark:mkfs\n",
		  "t.ini:9: [node n1] power-cut: 'mark:mkfs': mark:mkfs: the harness's own mark");
	parse_bad(DEV3 NODE("n1") "power-cut = ack:1\npower-cut = ack:2\n",
		  "t.ini:10: [node n1] power-cut: given twice");
	parse_bad(DEV3 NODE("n1") "power-cut =\n", "t.ini:9: [node n1] power-cut");
	parse_bad(DEV3 "[node]\n", "t.ini:7: [node]: a node has a name");
	parse_bad(DEV3 "[node N1]\n", "t.ini:7: [node N1]: a node's name is");
	parse_bad("[device n1]\nfs = raw\n" NODE("n1") CWL,
		  "t.ini:3: [node n1]: none of its devices has a filesystem");
	parse_bad("[device]\nfs = ext4\n" NODE("n1") CWL,
		  "t.ini:3: [node n1]: a node's disks are [device NAME] sections");
	/* Survivors the node count cannot have, or without nodes. */
	parse_bad("[device n1]\nfs = ext4\n[device n2]\nfs = ext4\n" NODE("n1") NODE("n2") CWL
		  "survivors = quorum\n",
		  "t.ini:13: [check] survivors: quorum of 2 nodes is all of them");
	parse_bad("[device n1]\nfs = ext4\n" NODE("n1") CWL "survivors = each\n",
		  "t.ini:9: [check] survivors: each of 1 node is all of them");
	parse_bad(DEV3 NODE("n1") NODE("n2") NODE("n3") CWL "survivors = most\n",
		  "t.ini:17: [check] survivors: bad value 'most'");
	parse_bad(MIN "[check]\nsurvivors = all\n",
		  "t.ini:6: [check] survivors: only for a cluster");
	/* A cluster's checker asks its nodes; its workload is their client. */
	parse_bad(DEV3 NODE("n1") NODE("n2") NODE("n3") "[workload]\ncommand = true\n",
		  "[check] checker: a cluster's checker asks its nodes");
	parse_bad(DEV3 NODE("n1") NODE("n2") NODE("n3") "[workload]\nbuiltin = fsops\n[check]\n"
							"checker = /bin/true\n",
		  "[workload] builtin: a cluster's workload is a client of its nodes");
}

static char * override(const char *text, const char *const (*sets)[3])
{
	FILE *in = fmemopen((void *) text, strlen(text), "r");
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);

	CU_ASSERT(bo_ini_override(in, o, sets) == 0);
	fclose(in);
	fclose(o);
	return out;
}

static void test_ini_override(void)
{
	const char *const sets[][3] = {
		{"device", "fs", "xfs"},
		{"device", "mount_options", NULL},
		{"workload", "keep_ops", "3-4"},
		{"run", "seed", "7"},
		{NULL, NULL, NULL},
	};
	char *out = override("; comment\n[device]\nfs = ext4\nmount_options = noatime\n\n"
			     "[workload]\nops = 200\n\n[check]\ncuts = flush\n",
			     sets);

	CU_ASSERT_STRING_EQUAL(out,
			       "; comment\n[device]\nfs = xfs\n\n"
			       "[workload]\nops = 200\nkeep_ops = 3-4\n\n[check]\ncuts = flush\n"
			       "\n[run]\nseed = 7\n");
	free(out);
	/* A line is read as the parser reads it: blanks inside the brackets, an inline comment. */
	out = override("[ workload ]\nkeep_ops = 1 ; the first\n", sets);
	CU_ASSERT_STRING_EQUAL(out, "[ workload ]\nkeep_ops = 3-4\n\n[device]\nfs = xfs\n\n[run]\n"
				    "seed = 7\n");
	free(out);
	/* A line longer than the scenario reader takes is an error, not read whole. */
	{
		size_t n = BO_INI_LINE_MAX + 2;
		char *text = malloc(n + 1);
		FILE *in, *o;
		size_t len = 0;

		CU_ASSERT_FATAL(text != NULL);
		memset(text, 'x', n);
		memcpy(text, "a=", 2);
		text[n] = '\0';
		in = fmemopen(text, n, "r");
		o = open_memstream(&out, &len);
		CU_ASSERT(bo_ini_override(in, o, sets) == -E2BIG);
		fclose(in);
		fclose(o);
		free(out);
		free(text);
	}
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"defaults", defaults},
		{"every_key", every_key},
		{"command_workload", command_workload},
		{"fsync and promises", fsync_and_promises},
		{"op families", families},
		{"builtin bounded", bounded},
		{"cuts", cuts},
		{"errors", errors},
		{"faults", faults},
		{"unterminated_text", unterminated_text},
		{"json", json},
		{"load", load},
		{"seed override", seed_override},
		{"ordered and variants", ordered_and_variants},
		{"vm, scripts and user", vm_scripts_user},
		{"devices", devices},
		{"a btrfs over several devices", spans},
		{"nodes", nodes},
		{"INI keys replaced, added, removed", test_ini_override},
		{},
	};

	return bo_test_run("scenario", tests);
}

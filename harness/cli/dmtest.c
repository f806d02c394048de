// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout __dmtest — hidden self-test of the device-mapper layer against a real kernel (run
 * inside the VM by tests/vm/dm_smoke.sh). Not a user command: it is not in the usage text.
 *
 *   smoke [--dir DIR]   loops on tmpfs, log-writes under flakey, writes, marks, a power cut,
 *                       the log read back, a CoW snapshot filled until it breaks, and a check
 *                       that nothing named blackout- and no loop over DIR is left
 *   list PREFIX         print the dm devices whose name starts with PREFIX
 *   versions            print the kernel's dm target versions
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmtargets/dm.h"
#include "dmtargets/flakey.h"
#include "dmtargets/logwrites.h"
#include "dmtargets/snapshot.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"
#include "harness/log/log.h"
#include "harness/dev/teardown.h"
#include "vm/vm.h"

#define MIB	     (1u << 20)
#define BLOCK	     4096u
#define OFF_A	     (1 * MIB) /* written before the power cut: must be in the log */
#define OFF_B	     (2 * MIB) /* written after it: dropped, must be nowhere */
#define OFF_C	     (8 * MIB) /* written to the snapshot only */
#define COW_BYTES    (4 * MIB)
#define DEVICE_BYTES (64 * MIB)

/* One smoke run: names, devices and the teardown stack. */
struct smoke {
	char runid[64], dir[4096];
	char lw[BO_DM_NAME_MAX], flakey[BO_DM_NAME_MAX], snap[BO_DM_NAME_MAX];
	char lw_dev[256], flakey_dev[256], snap_dev[256], log_file[4200];
	struct bo_loop_dev data, log, cow;
	struct bo_teardown *td;
	int failures;
};

static void report(void *rctx, const char *kind, const char *arg, const struct bo_err *err)
{
	struct smoke *s = rctx;

	s->failures++;
	bo_cli_error("dmtest: teardown of %s '%s' failed: %s", kind, arg, bo_err_str(err));
}

/* Print a failed check and return -1; every step goes through here or step(). */
static int fail(const char *what, const struct bo_err *err)
{
	bo_cli_error("dmtest: %s%s%s", what, err ? ": " : "", err ? bo_err_str(err) : "");
	return -1;
}

static int step(int r, const char *what, const struct bo_err *err)
{
	if (r < 0)
		return fail(what, err);
	if (bo_teardown_stop_requested())
		return fail("interrupted", NULL);
	printf("dmtest: ok: %s\n", what);
	return 0;
}

static int check(bool ok, const char *what)
{
	if (!ok)
		return fail(what, NULL);
	printf("dmtest: ok: %s\n", what);
	return 0;
}

static unsigned sector_size_of(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), ss = 0;

	if (fd >= 0) {
		if (ioctl(fd, BLKSSZGET, &ss) < 0)
			ss = 0;
		close(fd);
	}
	return ss > 0 ? (unsigned) ss : 512;
}

static uint64_t sectors_of(const char *dev)
{
	uint64_t bytes = 0;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
			bytes = 0;
		close(fd);
	}
	return bytes / 512;
}

/* Write @len bytes of @fill at @off of @dev with O_DIRECT, then flush. */
static int put(const char *dev, uint64_t off, size_t len, int fill)
{
	_cleanup_free_ void *buf = NULL;
	_cleanup_close_ int fd = open(dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	int r;

	if (fd < 0 || posix_memalign(&buf, BLOCK, len) != 0)
		return -EIO;
	memset(buf, fill, len);
	r = bo_pwrite_full(fd, buf, len, off);
	if (r < 0)
		return r;
	return fdatasync(fd) < 0 ? -errno : 0;
}

/* Whether the block at @off of @dev, read with O_DIRECT, is all @fill. */
static bool holds(const char *dev, uint64_t off, int fill)
{
	_cleanup_free_ unsigned char *buf = NULL;
	_cleanup_close_ int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd < 0 || posix_memalign((void **) &buf, BLOCK, BLOCK) != 0 ||
	    bo_pread_full(fd, buf, BLOCK, off) != BLOCK)
		return false;
	for (size_t i = 0; i < BLOCK; i++)
		if (buf[i] != (unsigned char) fill)
			return false;
	return true;
}

static int make_file(const struct smoke *s, const char *name, uint64_t size, char *path, size_t len)
{
	_cleanup_close_ int fd = -1;

	snprintf(path, len, "%s/%s", s->dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t) size) < 0)
		return -errno;
	return 0;
}

static int attach(struct smoke *s, const char *name, uint64_t size, struct bo_loop_dev *dev,
		  char *path, size_t len)
{
	struct bo_err err = {0};
	char what[128];
	int r;

	snprintf(what, sizeof(what), "loop over %s", name);
	r = make_file(s, name, size, path, len);
	if (r < 0) {
		bo_err_set(&err, -r, "creating '%s': %s", path, strerror(-r));
		return fail(what, &err);
	}
	if (bo_loop_attach(path, s->dir, 0, 0, dev, &err) < 0 ||
	    bo_teardown_push_loop(s->td, dev->path, &err) < 0)
		return fail(what, &err);
	return step(0, what, NULL);
}

static int create(struct smoke *s, const char *role, const char *table, char *name, char *dev)
{
	char uuid[BO_DM_UUID_MAX], what[300], node[300];
	struct bo_dm_info info;
	struct bo_err err = {0};

	snprintf(what, sizeof(what), "create %s: %s", role, table);
	if (bo_dm_name(s->runid, role, name, uuid, &err) < 0 ||
	    bo_dm_create(name, uuid, table, &err) < 0 ||
	    bo_teardown_push_dm(s->td, name, &err) < 0 || bo_dm_device_path(name, dev, 256) < 0 ||
	    bo_dm_info(name, &info, &err) < 0)
		return fail(what, &err);
	snprintf(node, sizeof(node), "%s", dev);
	if (check(info.exists && info.live_table && !strcmp(info.uuid, uuid),
		  "device exists, live, with the run's uuid") < 0)
		return -1;
	/* Without udev in the guest, libdm makes the node itself when the cookie is waited on. */
	if (check(access(node, F_OK) == 0, "the /dev/mapper node was made") < 0)
		return -1;
	return step(0, what, NULL);
}

static int log_writes_stage(struct smoke *s)
{
	struct bo_flakey_caps caps;
	struct bo_lw_status st;
	struct bo_flakey up = {.up_interval = 1}, cut = {.down_interval = 1, .drop_writes = true},
			 live;
	_cleanup_free_ char *lw_table = NULL, *up_table = NULL, *cut_table = NULL;
	struct bo_err err = {0};
	char livedev[32];
	uint64_t sectors = sectors_of(s->data.path);
	/* Mark names are limited by the data device's logical block size. */
	unsigned ss = sector_size_of(s->data.path);

	if (step(bo_lw_table(sectors, s->data.path, s->log.path, &lw_table, &err), "lw table",
		 &err) < 0 ||
	    create(s, "lw", lw_table, s->lw, s->lw_dev) < 0)
		return -1;
	if (step(bo_lw_status(s->lw, &st, &err), "log-writes status", &err) < 0 ||
	    check(!st.logging_disabled, "logging enabled") < 0 ||
	    step(bo_lw_mark(s->lw, "dmtest-start", ss, &err), "mark dmtest-start", &err) < 0)
		return -1;

	if (step(bo_flakey_probe(s->runid, s->lw_dev, &caps, &err), "flakey probe", &err) < 0)
		return -1;
	printf("dmtest: flakey %" PRIu32 ".%" PRIu32 ".%" PRIu32
	       ": error_reads %s, random_read_corrupt %s, random_write_corrupt %s\n",
	       caps.version.major, caps.version.minor, caps.version.patch,
	       caps.has[BO_FLAKEY_ERROR_READS] ? "yes" : "no",
	       caps.has[BO_FLAKEY_RANDOM_READ_CORRUPT] ? "yes" : "no",
	       caps.has[BO_FLAKEY_RANDOM_WRITE_CORRUPT] ? "yes" : "no");
	up.dev = cut.dev = s->lw_dev;
	if (step(bo_flakey_table(&up, sectors, &caps, &up_table, &err), "flakey table", &err) < 0 ||
	    create(s, "flakey", up_table, s->flakey, s->flakey_dev) < 0)
		return -1;

	/* The device under flakey is held: removing it must fail, and say why. */
	if (check(bo_dm_remove(s->lw, &err) == -EBUSY && strstr(err.msg, "open count 1"),
		  "removing the held log-writes device is refused with its open count") < 0)
		return -1;

	if (step(put(s->flakey_dev, OFF_A, BLOCK, 'A'), "write A through flakey", NULL) < 0 ||
	    step(bo_lw_mark(s->lw, "dmtest-a", ss, &err), "mark dmtest-a", &err) < 0)
		return -1;

	/* The power cut: load a table that drops every write into the inactive slot, suspend
	 * without flushing or freezing (fstests' --nolockfs), resume to swap it in. Loading
	 * first keeps the device suspended for the shortest time, and avoids a table load
	 * while suspended, which libdm flags as an internal error. */
	if (step(bo_flakey_table(&cut, sectors, &caps, &cut_table, &err), "drop table", &err) < 0 ||
	    step(bo_dm_load(s->flakey, cut_table, &err), "load drop_writes", &err) < 0 ||
	    step(bo_dm_suspend(s->flakey, BO_DM_SUSPEND_POWERCUT, &err), "suspend (power cut)",
		 &err) < 0 ||
	    step(bo_dm_resume(s->flakey, &err), "resume", &err) < 0 ||
	    step(bo_flakey_live(s->flakey, &live, livedev, sizeof(livedev), &err),
		 "read back the live flakey table", &err) < 0 ||
	    check(live.drop_writes && live.up_interval == 0 && live.down_interval == 1,
		  "drop_writes is live") < 0)
		return -1;
	if (step(put(s->flakey_dev, OFF_B, BLOCK, 'B'), "write B (acknowledged, dropped)", NULL) <
		    0 ||
	    check(holds(s->data.path, OFF_A, 'A'), "A reached the data device") < 0 ||
	    check(!holds(s->data.path, OFF_B, 'B'), "B did not reach the data device") < 0)
		return -1;
	/* The entry count is not checked here: the target logs from a kernel thread, so only the
	 * log read back after removal (which waits for it) says what was logged. */
	if (step(bo_lw_status(s->lw, &st, &err), "log-writes status", &err) < 0 ||
	    step(bo_lw_status_check(s->lw, &st, &err), "log complete (no logging_disabled)", &err) <
		    0)
		return -1;
	/* flakey then log-writes: log-writes appends its end mark when it goes. */
	if (step(bo_teardown_undo_top(s->td, &err), "remove flakey", &err) < 0 ||
	    step(bo_teardown_undo_top(s->td, &err), "remove log-writes", &err) < 0 ||
	    check(access(s->flakey_dev, F_OK) != 0 && access(s->lw_dev, F_OK) != 0,
		  "their /dev/mapper nodes are gone") < 0)
		return -1;
	return 0;
}

/* Whether entry @n of @log writes the 512-byte sector @sector with data all @fill. */
static bool entry_writes(const struct bo_log *log, uint64_t n, uint64_t sector, int fill)
{
	const struct bo_log_entry *e = bo_log_entry(log, n);
	uint64_t ss = bo_log_sectorsize(log), byte = sector * 512;
	unsigned char buf[512];

	if (!e || bo_log_data_bytes(log, e) == 0 || byte < e->sector * ss ||
	    byte >= e->sector * ss + e->nr_sectors * ss)
		return false;
	if (bo_log_read_data(log, n, byte - e->sector * ss, buf, sizeof(buf), NULL) < 0)
		return false;
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i] != (unsigned char) fill)
			return false;
	return true;
}

static int log_stage(struct smoke *s)
{
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	uint64_t start, a, end, n, a_entry = UINT64_MAX;
	bool b_seen = false;
	int r = -1;

	if (step(bo_log_open(s->log_file, 0, &log, &err), "open the log", &err) < 0)
		return -1;
	if (step(bo_log_find_mark(log, "dmtest-start", &start, &err), "mark dmtest-start logged",
		 &err) < 0 ||
	    step(bo_log_find_mark(log, "dmtest-a", &a, &err), "mark dmtest-a logged", &err) < 0 ||
	    step(bo_log_find_mark(log, "dm-log-writes-end", &end, &err), "end mark logged", &err) <
		    0)
		goto out;
	for (n = 0; n < bo_log_count(log); n++) {
		if (a_entry == UINT64_MAX && entry_writes(log, n, OFF_A / 512, 'A'))
			a_entry = n;
		b_seen |= entry_writes(log, n, OFF_B / 512, 'B');
	}
	printf("dmtest: log: %" PRIu64 " entries, start %" PRIu64 ", A %" PRIu64 ", mark a %" PRIu64
	       ", end %" PRIu64 "\n",
	       bo_log_count(log), start, a_entry, a, end);
	if (check(start < a && a < end, "marks in order") < 0 ||
	    check(a_entry != UINT64_MAX && start < a_entry && a_entry < a,
		  "A (flushed) is logged between its marks") < 0 ||
	    check(!b_seen, "the dropped write B is not in the log") < 0)
		goto out;
	r = 0;
out:
	bo_log_free(log);
	return r;
}

static int snapshot_stage(struct smoke *s)
{
	_cleanup_free_ char *table = NULL;
	struct bo_snap_status st;
	struct bo_err err = {0};
	char path[4200];
	int r;

	if (attach(s, "cow.img", COW_BYTES, &s->cow, path, sizeof(path)) < 0 ||
	    step(bo_snap_table(sectors_of(s->data.path), s->data.path, s->cow.path,
			       BO_SNAP_DEFAULT_CHUNK, &table, &err),
		 "snapshot table", &err) < 0 ||
	    create(s, "snap", table, s->snap, s->snap_dev) < 0)
		return -1;
	if (step(bo_snap_status(s->snap, &st, &err), "snapshot status", &err) < 0 ||
	    check(st.state == BO_SNAP_VALID && st.total_sectors == COW_BYTES / 512,
		  "snapshot valid, CoW size right") < 0)
		return -1;
	if (step(put(s->snap_dev, OFF_C, MIB, 'C'), "write 1 MiB of C to the snapshot", NULL) < 0 ||
	    step(bo_snap_status(s->snap, &st, &err), "snapshot status", &err) < 0 ||
	    check(st.state == BO_SNAP_VALID && st.used_sectors >= MIB / 512,
		  "the CoW device holds the write") < 0 ||
	    check(holds(s->snap_dev, OFF_C, 'C') && holds(s->snap_dev, OFF_A, 'A'),
		  "the snapshot shows its own write and the origin's data") < 0 ||
	    check(!holds(s->data.path, OFF_C, 'C'), "the origin is untouched") < 0)
		return -1;
	/* Fill the CoW device past its end: the kernel drops the snapshot, and that must be
	 * told apart from a damaged filesystem. */
	r = put(s->snap_dev, 16 * MIB, 2 * COW_BYTES, 'D');
	printf("dmtest: overfilling the CoW device: %s\n", r < 0 ? strerror(-r) : "no error");
	if (step(bo_snap_status(s->snap, &st, &err), "snapshot status", &err) < 0 ||
	    check(st.state == BO_SNAP_INVALID || st.state == BO_SNAP_OVERFLOW,
		  "a full CoW device shows as Invalid/Overflow") < 0 ||
	    check(bo_snap_status_check(s->snap, &st, &err) == -ENOSPC, "and is an error") < 0)
		return -1;
	printf("dmtest: %s\n", err.msg);
	return step(bo_teardown_undo_top(s->td, &err), "remove the snapshot", &err);
}

/* Devices of this run and loops over its directory (the script checks all blackout- ones). */
static int leftovers(const struct smoke *s)
{
	char **dm = NULL, **loops = NULL, prefix[128];
	struct bo_err err = {0};
	int bad = 0;

	snprintf(prefix, sizeof(prefix), BO_DM_NAME_PREFIX "%s-", s->runid);
	if (bo_dm_list(prefix, &dm, &err) < 0 || bo_loop_list_inside(s->dir, &loops, &err) < 0)
		return fail("listing leftovers", &err);
	for (char **p = dm; *p; p++, bad++)
		bo_cli_error("dmtest: LEFTOVER dm device '%s'", *p);
	for (char **p = loops; *p; p++, bad++)
		bo_cli_error("dmtest: LEFTOVER loop %s over '%s'", *p, s->dir);
	bo_dm_list_free(dm);
	bo_loop_list_free(loops);
	return check(bad == 0, "no device of this run and no loop over its directory left");
}

static int smoke(const char *dir)
{
	struct sigaction sa = {.sa_handler = bo_teardown_request_stop};
	struct smoke s = {0};
	struct bo_err err = {0};
	char path[4200];
	bool own_dir = !dir;
	int r = -1;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	snprintf(s.runid, sizeof(s.runid), "dmtest-%d", (int) getpid());
	if (bo_teardown_new(16, report, &s, &s.td) < 0)
		return fail("teardown stack: out of memory", NULL);
	if (own_dir) {
		/* A run's work directory, so that `blackout cleanup --run dmtest-PID` finds all. */
		snprintf(s.dir, sizeof(s.dir), "%s%s", BO_WORKDIR_PREFIX, s.runid);
		if (mkdir(s.dir, 0700) < 0) {
			bo_err_set(&err, errno, "'%s': %s", s.dir, strerror(errno));
			fail("run directory", &err);
			goto out;
		}
		if (step(bo_mount("tmpfs", s.dir, "tmpfs", "size=256m,mode=0700", &err),
			 "tmpfs for the backing files", &err) < 0 ||
		    step(bo_teardown_push_mount(s.td, s.dir, &err), "record tmpfs", &err) < 0)
			goto out;
	} else {
		snprintf(s.dir, sizeof(s.dir), "%s", dir);
	}
	snprintf(s.log_file, sizeof(s.log_file), "%s/log.img", s.dir);
	if (attach(&s, "data.img", DEVICE_BYTES, &s.data, path, sizeof(path)) < 0 ||
	    attach(&s, "log.img", DEVICE_BYTES, &s.log, path, sizeof(path)) < 0 ||
	    log_writes_stage(&s) < 0 || log_stage(&s) < 0 || snapshot_stage(&s) < 0)
		goto out;
	r = 0;
out:
	/* Loops, then the tmpfs under them. */
	if (bo_teardown_unwind(s.td) < 0)
		r = -1;
	bo_teardown_free(s.td);
	if (leftovers(&s) < 0)
		r = -1;
	if (own_dir)
		(void) rmdir(s.dir);
	printf("dmtest smoke: %s\n", r == 0 && s.failures == 0 ? "PASS" : "FAIL");
	return r == 0 && s.failures == 0 ? BO_EXIT_OK : BO_EXIT_FAILURE;
}

static int list(const char *prefix)
{
	struct bo_err err = {0};
	char **names = NULL;

	if (bo_dm_list(prefix, &names, &err) < 0) {
		bo_cli_error("dmtest list: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	for (char **p = names; *p; p++)
		puts(*p);
	bo_dm_list_free(names);
	return BO_EXIT_OK;
}

static int versions(void)
{
	struct bo_dm_target_version *v = NULL;
	struct bo_err err = {0};
	size_t n = 0;

	if (bo_dm_target_versions(&v, &n, &err) < 0) {
		bo_cli_error("dmtest versions: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	for (size_t i = 0; i < n; i++)
		printf("%-20s %" PRIu32 ".%" PRIu32 ".%" PRIu32 "\n", v[i].name, v[i].version.major,
		       v[i].version.minor, v[i].version.patch);
	free(v);
	return BO_EXIT_OK;
}

struct dmtest_args {
	const char *dir;
	bool allow_host;
};

static const struct bo_opt dmtest_opts[] = {
	{"dir", "DIR", offsetof(struct dmtest_args, dir), BO_OPT_HOST, NULL, NULL,
	 "smoke: the backing files in DIR (default: a tmpfs of its own)"},
	{"allow-host", NULL, offsetof(struct dmtest_args, allow_host), BO_OPT_HOST, NULL, NULL,
	 "smoke: outside a VM too (docs/safety.md)"},
};

static void help(void)
{
	puts("usage: blackout __dmtest smoke [--dir DIR] [--allow-host]\n"
	     "       blackout __dmtest list PREFIX\n"
	     "       blackout __dmtest versions\n\n"
	     "Self-test of the device-mapper layer against a real kernel, run in the VM by\n"
	     "tests/vm/dm_smoke.sh. smoke: log-writes under flakey on loops, writes, marks, a\n"
	     "power cut, the log read back, a snapshot filled until it breaks, and nothing\n"
	     "left behind. list: the dm devices whose name starts with PREFIX. versions: the\n"
	     "kernel's dm target versions.\n");
	bo_opts_help(stdout, dmtest_opts, BO_ARRAY_SIZE(dmtest_opts));
}

static int cmd_dmtest(int argc, char **argv)
{
	struct dmtest_args a = {0};
	const struct bo_opt_set sets[] = {{dmtest_opts, BO_ARRAY_SIZE(dmtest_opts), &a}};
	struct bo_err err = {0};
	int k;

	k = bo_opts_parse("__dmtest", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k < argc && !strcmp(argv[k], "smoke") && k + 1 == argc) {
		if (bo_own_dm_allowed("__dmtest smoke", bo_vm_inside(), a.allow_host, &err) < 0) {
			bo_cli_error("%s", bo_err_str(&err));
			return BO_EXIT_HARNESS;
		}
		return smoke(a.dir);
	}
	if (k < argc && !strcmp(argv[k], "list") && k + 2 == argc)
		return list(argv[k + 1]);
	if (k < argc && !strcmp(argv[k], "versions") && k + 1 == argc)
		return versions();
	return bo_cli_usage_error("__dmtest", "expected 'smoke', 'list PREFIX' or 'versions'");
}

const struct bo_cmd bo_cmd_dmtest = {"__dmtest", cmd_dmtest, NULL};

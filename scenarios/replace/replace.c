// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-replace — atomic file replacement, the textbook way: write the new content to a
 * temporary file, fsync it, rename it over the target, fsync the directory, and only then
 * acknowledge. After a crash the target holds one complete version, never a mix or nothing.
 *
 * Op i writes version i of "state" (its op id, a seeded payload, a checksum). The checker
 * reads "state": version k present means ops 1..k are (each later version supersedes the
 * earlier ones); a target that exists but is not one complete version means no op is present.
 *
 * Planted bugs: no-fsync-before-rename (the rename can reach the disk before the data: an
 * empty or partial target) and no-dir-fsync (the acknowledged rename may not be durable).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/blackout-ctl.h"
#include "scenarios/common/family.h"

#define TARGET	    "state"
#define TEMP	    "state.tmp"
#define VERSION_LEN 8192u /* two pages: a torn version is possible */

enum { BUG_NO_FSYNC_BEFORE_RENAME, BUG_NO_DIR_FSYNC };

static const char *const bugs[] = {"no-fsync-before-rename", "no-dir-fsync", NULL};

static const char usage[] =
	"usage: blackout-replace [run|check] [--seed N] [--ops N]\n"
	"                        [--bug=no-fsync-before-rename|no-dir-fsync]\n\n"
	"run    replace the file '" TARGET "' in the current directory --ops times (write\n"
	"       '" TEMP "', fsync, rename, fsync the directory), acknowledging each version\n"
	"check  print 'present <id>' for ops 1..k when '" TARGET "' is complete version k,\n"
	"       then 'done'";

/* Version @id: [op id, 8 bytes][payload][crc32 of what precedes, 4 bytes]. */
static void make_version(uint64_t seed, uint64_t id, unsigned char *buf)
{
	uint32_t crc;

	memcpy(buf, &id, 8);
	family_fill(seed, id, buf + 8, VERSION_LEN - 12);
	crc = family_crc32(0, buf, VERSION_LEN - 4);
	memcpy(buf + VERSION_LEN - 4, &crc, 4);
}

static int run(const struct family_args *a)
{
	static unsigned char buf[VERSION_LEN];

	for (uint64_t id = 1; id <= a->ops; id++) {
		int fd, r;

		make_version(a->seed, id, buf);
		if (bo_ctl_issue(id) < 0)
			return family_die(1, a->prog, "%s", bo_ctl_error());
		fd = open(TEMP, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return family_die(1, a->prog, "creating '%s': %s", TEMP, strerror(errno));
		r = family_write_all(fd, buf, VERSION_LEN);
		if (r == 0 && a->bug != BUG_NO_FSYNC_BEFORE_RENAME && fsync(fd) < 0)
			r = -errno;
		if (close(fd) < 0 && r == 0)
			r = -errno;
		if (r == 0 && rename(TEMP, TARGET) < 0)
			r = -errno;
		if (r == 0 && a->bug != BUG_NO_DIR_FSYNC)
			r = family_fsync_dir(".");
		if (r < 0)
			return family_die(1, a->prog, "version %llu: %s", (unsigned long long) id,
					  strerror(-r));
		if (bo_ctl_ack(id) < 0)
			return family_die(1, a->prog, "%s", bo_ctl_error());
	}
	return 0;
}

static int check(const struct family_args *a)
{
	static unsigned char buf[VERSION_LEN + 1];
	FILE *f = fopen(TARGET, "re");
	uint64_t id = 0;
	uint32_t crc;
	size_t n;

	if (!f && errno != ENOENT)
		return family_die(3, a->prog, "opening '%s': %s", TARGET, strerror(errno));
	if (f) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		memcpy(&crc, buf + VERSION_LEN - 4, 4);
		if (n == VERSION_LEN && crc == family_crc32(0, buf, VERSION_LEN - 4))
			memcpy(&id, buf, 8);
		else
			printf("# '%s' is not a complete version (%zu bytes)\n", TARGET, n);
	}
	for (uint64_t i = 1; i <= id && i <= FAMILY_MAX_OPS; i++)
		printf("present %llu\n", (unsigned long long) i);
	puts("done");
	return fflush(stdout) == 0 ? 0 : 3;
}

int main(int argc, char **argv)
{
	struct family_args a;
	int r = family_parse(argc, argv, usage, bugs, NULL, NULL, &a);

	if (r)
		return r;
	return a.check ? check(&a) : run(&a);
}

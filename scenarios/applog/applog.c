// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-applog — an append-only record log, the way applications write one: every record
 * carries its op id and a checksum, each is fsync'd before it is acknowledged, and recovery
 * reads records from the start and stops at the first bad one (a torn or missing record ends
 * the log; nothing after it is trusted). The scenario sets `ordered = yes`: present records
 * must be a prefix of the issued ones.
 *
 * Planted bug ack-before-fsync: the record is acknowledged after write() and before fsync(),
 * so a crash right after the acknowledgement can lose it (lost-ack).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/blackout-ctl.h"
#include "scenarios/common/family.h"

#define LOG_NAME     "records.log"
#define RECORD_MAGIC 0x52474f4cu /* "LOGR" */
#define MAX_PAYLOAD  3000u

enum { BUG_ACK_BEFORE_FSYNC };

static const char *const bugs[] = {"ack-before-fsync", NULL};

/* On disk, little-endian (the VM is x86-64): header, payload, then crc32 of both. */
struct record_head {
	uint32_t magic;
	uint32_t len; /* payload bytes */
	uint64_t opid;
};

static const char usage[] =
	"usage: blackout-applog [run|check] [--seed N] [--ops N] [--bug=ack-before-fsync]\n\n"
	"run    append --ops records to " LOG_NAME " in the current directory, fsync each,\n"
	"       then acknowledge it through $BLACKOUT_CTL\n"
	"check  recover the log of a crash state: read records until the first bad one,\n"
	"       print 'present <id>' for each, then 'done'";

/* The payload length of record @opid: 1..MAX_PAYLOAD bytes, from the seed. */
static size_t payload_len(uint64_t seed, uint64_t opid)
{
	uint64_t s = seed ^ (opid << 20);

	return 1 + (size_t) (family_rand(&s) % MAX_PAYLOAD);
}

static int run(const struct family_args *a)
{
	static unsigned char buf[sizeof(struct record_head) + MAX_PAYLOAD + 4];
	int fd = open(LOG_NAME, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		return family_die(1, a->prog, "creating '%s': %s", LOG_NAME, strerror(errno));
	/* The empty log itself must be durable before any record is. */
	if (fsync(fd) < 0 || family_fsync_dir(".") < 0)
		return family_die(1, a->prog, "syncing the new log: %s", strerror(errno));
	for (uint64_t id = 1; id <= a->ops; id++) {
		struct record_head h = {RECORD_MAGIC, (uint32_t) payload_len(a->seed, id), id};
		size_t n = sizeof(h) + h.len;
		uint32_t crc;
		int r;

		memcpy(buf, &h, sizeof(h));
		family_fill(a->seed, id, buf + sizeof(h), h.len);
		crc = family_crc32(0, buf, n);
		memcpy(buf + n, &crc, 4);
		if (bo_ctl_issue(id) < 0)
			return family_die(1, a->prog, "%s", bo_ctl_error());
		r = family_write_all(fd, buf, n + 4);
		if (r < 0)
			return family_die(1, a->prog, "appending record %llu: %s",
					  (unsigned long long) id, strerror(-r));
		if (a->bug == BUG_ACK_BEFORE_FSYNC && bo_ctl_ack(id) < 0)
			return family_die(1, a->prog, "%s", bo_ctl_error());
		if (fsync(fd) < 0)
			return family_die(1, a->prog, "fsync: %s", strerror(errno));
		if (a->bug != BUG_ACK_BEFORE_FSYNC && bo_ctl_ack(id) < 0)
			return family_die(1, a->prog, "%s", bo_ctl_error());
	}
	if (close(fd) < 0)
		return family_die(1, a->prog, "closing the log: %s", strerror(errno));
	return 0;
}

/* Recovery: records in order until the first one that is short, malformed or out of order. */
static int check(const struct family_args *a)
{
	static unsigned char buf[sizeof(struct record_head) + MAX_PAYLOAD + 4];
	FILE *f = fopen(LOG_NAME, "re");
	uint64_t last = 0;

	if (!f && errno != ENOENT)
		return family_die(3, a->prog, "opening '%s': %s", LOG_NAME, strerror(errno));
	while (f) {
		struct record_head h;
		uint32_t crc;

		if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != RECORD_MAGIC || h.len == 0 ||
		    h.len > MAX_PAYLOAD || h.opid != last + 1)
			break;
		memcpy(buf, &h, sizeof(h));
		if (fread(buf + sizeof(h), h.len + 4, 1, f) != 1)
			break;
		memcpy(&crc, buf + sizeof(h) + h.len, 4);
		if (crc != family_crc32(0, buf, sizeof(h) + h.len))
			break;
		last = h.opid;
		printf("present %llu\n", (unsigned long long) last);
	}
	if (f)
		fclose(f);
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family.h — what the scenario library's programs share: the command line
 * "blackout-<family> [run|check] --seed N --ops N [--bug=BUG] [family options]", a seeded
 * generator, a checksum, and fsync helpers. Nothing here talks to the harness: each program
 * reaches it only through scenarios/blackout-ctl.h.
 */
#ifndef BO_FAMILY_H
#define BO_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <getopt.h>

/* Highest --ops a family accepts. */
#define FAMILY_MAX_OPS 100000

struct family_args {
	const char *prog;   /* "blackout-applog", for messages */
	bool check;	    /* mode "check" (else "run") */
	uint64_t seed, ops; /* --seed (default 1), --ops (default 20) */
	int bug;	    /* index into the family's bug list, or -1 for none */
};

/*
 * Parse @argv. @bugs is the family's NULL-terminated list of planted bugs; @extra (may be
 * NULL) handles the family's own long options from @extra_opts (NULL-terminated, may be NULL)
 * and returns 0 or -1 for a bad value. Returns 0, or the exit status to leave with: 2 for a
 * usage error, after a message. --help prints @usage and exits 0.
 */
int family_parse(int argc, char **argv, const char *usage, const char *const *bugs,
		 const struct option *extra_opts, int (*extra)(int opt, const char *arg),
		 struct family_args *ret);

/* Print "PROG: MESSAGE" to stderr and return @status. */
int family_die(int status, const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* splitmix64: the next value of the generator whose state is *@s. */
uint64_t family_rand(uint64_t *s);

/* Fill @buf with @len bytes derived from @seed and @opid only. */
void family_fill(uint64_t seed, uint64_t opid, void *buf, size_t len);

/* CRC-32 (IEEE) of @len bytes, continuing from @crc (0 to start). */
uint32_t family_crc32(uint32_t crc, const void *buf, size_t len);

/* Write all of @buf to @fd. Returns 0 or -errno. */
int family_write_all(int fd, const void *buf, size_t len);

/* fsync the directory @path. Returns 0 or -errno. */
int family_fsync_dir(const char *path);

#endif

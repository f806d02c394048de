// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario library's shared command line, generator, checksum and fsync helpers. */
#include "scenarios/common/family.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int family_die(int status, const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static int parse_u64(const char *s, uint64_t *ret)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int family_parse(int argc, char **argv, const char *usage, const char *const *bugs,
		 const struct option *extra_opts, int (*extra)(int opt, const char *arg),
		 struct family_args *ret)
{
	struct option opts[16] = {
		{"seed", required_argument, NULL, 's'},
		{"ops", required_argument, NULL, 'n'},
		{"bug", required_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},
	};
	size_t nopts = 4;
	int c;

	ret->prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	ret->check = false;
	ret->seed = 1;
	ret->ops = 20;
	ret->bug = -1;
	for (; extra_opts && extra_opts[nopts - 4].name && nopts < 15; nopts++)
		opts[nopts] = extra_opts[nopts - 4];
	if (argc > 1 && argv[1][0] != '-') {
		if (!strcmp(argv[1], "check"))
			ret->check = true;
		else if (strcmp(argv[1], "run"))
			return family_die(2, ret->prog, "unknown mode '%s'", argv[1]);
		argv++;
		argc--;
	}
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			puts(usage);
			exit(0);
		case 's':
			if (parse_u64(optarg, &ret->seed) < 0)
				return family_die(2, ret->prog, "bad --seed '%s'", optarg);
			break;
		case 'n':
			if (parse_u64(optarg, &ret->ops) < 0 || !ret->ops ||
			    ret->ops > FAMILY_MAX_OPS)
				return family_die(2, ret->prog, "bad --ops '%s' (1..%d)", optarg,
						  FAMILY_MAX_OPS);
			break;
		case 'b':
			ret->bug = -1;
			for (int i = 0; bugs[i]; i++)
				if (!strcmp(bugs[i], optarg))
					ret->bug = i;
			if (ret->bug < 0 && strcmp(optarg, "none"))
				return family_die(2, ret->prog, "unknown --bug '%s'", optarg);
			break;
		case '?':
			return 2;
		default:
			if (!extra || extra(c, optarg) < 0)
				return family_die(2, ret->prog, "bad option value '%s'",
						  optarg ? optarg : "");
		}
	}
	if (optind != argc)
		return family_die(2, ret->prog, "unexpected argument '%s'", argv[optind]);
	return 0;
}

uint64_t family_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void family_fill(uint64_t seed, uint64_t opid, void *buf, size_t len)
{
	uint64_t s = seed * 0x100000001b3ULL ^ opid;
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = family_rand(&s);

		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

uint32_t family_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

int family_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t) w;
	}
	return 0;
}

int family_fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

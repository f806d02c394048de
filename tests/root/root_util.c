// SPDX-License-Identifier: GPL-2.0-or-later
#include "root_util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/mounts.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"

int root_require(const char *suite)
{
	if (geteuid() != 0) {
		fprintf(stderr,
			"\n*** SKIP %s: needs root (it binds loop devices and mounts) ***\n\n",
			suite);
		return ROOT_SKIP;
	}
	if (access("/dev/loop-control", F_OK) != 0) {
		fprintf(stderr, "\n*** SKIP %s: no /dev/loop-control on this machine ***\n\n",
			suite);
		return ROOT_SKIP;
	}
	return 0;
}

bool root_have(const char *name)
{
	return root_sh("command -v %s >/dev/null 2>&1", name) == 0;
}

void root_make_file(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || ftruncate(fd, size) < 0) {
		perror(path);
		exit(1);
	}
	close(fd);
}

const char *root_dir(const char *name)
{
	const char *p = bo_test_path(name);

	if (mkdir(p, 0755) < 0) {
		perror(p);
		exit(1);
	}
	return p;
}

struct mounted {
	const char *under;
	char *v[64];
	int n;
};

static int under_scratch(const struct bo_mount_entry *m, void *ctx)
{
	struct mounted *ms = ctx;

	if (bo_path_within(ms->under, m->target) && ms->n < 64)
		ms->v[ms->n++] = strdup(m->target);
	return 0;
}

int root_leftovers(void)
{
	char real[PATH_MAX], **loops = NULL;
	struct mounted ms = {0};
	struct bo_err err = {0};
	int n = 0;

	if (!realpath(bo_test_dir(), real))
		return 1;
	/* Mounts first (newest first): a leftover mount keeps its loop device busy. */
	ms.under = real;
	if (bo_mounts_each(under_scratch, &ms, &err) < 0) {
		fprintf(stderr, "LEFTOVER check failed: %s\n", bo_err_str(&err));
		return 1;
	}
	for (int i = ms.n; i-- > 0;) {
		fprintf(stderr, "LEFTOVER mount on %s\n", ms.v[i]);
		n++;
		(void) !bo_umount(ms.v[i], BO_UMOUNT_DETACH_ON_FAILURE, NULL);
		free(ms.v[i]);
	}
	if (bo_loop_list_inside(real, &loops, &err) < 0) {
		fprintf(stderr, "LEFTOVER check failed: %s\n", bo_err_str(&err));
		return n + 1;
	}
	for (char **p = loops; *p; p++) {
		fprintf(stderr, "LEFTOVER loop %s\n", *p);
		n++;
		(void) !bo_loop_detach(*p, NULL);
	}
	bo_loop_list_free(loops);
	return n;
}

int root_sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

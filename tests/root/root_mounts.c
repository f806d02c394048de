// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mount table as blackout reads it (harness/base/mounts.h): a mount point with a space in
 * its path (mountinfo writes it \040) is reported as the path it is, with its filesystem type
 * and device number, parents before children. The leftover check and cleanup's sweep match
 * work directories against these paths: a work directory with a space used never to match.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/mounts.h"
#include "root_util.h"

struct seen {
	const char *want;
	char type[32];
	dev_t dev;
	int order; /* of the child, when the parent came first */
	int n;
};

static int look(const struct bo_mount_entry *m, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	if (!strcmp(m->target, s->want)) {
		snprintf(s->type, sizeof(s->type), "%s", m->fstype ? m->fstype : "");
		s->dev = m->dev;
		s->order = s->n;
	}
	return 0;
}

static void test_space(void)
{
	char top[PATH_MAX], child[PATH_MAX + 16];
	struct seen parent = {0}, kid = {0};
	struct bo_err err = {0};
	struct stat st;

	snprintf(top, sizeof(top), "%s/work dir", root_dir("mounts"));
	snprintf(child, sizeof(child), "%s/state", top);
	CU_ASSERT_FATAL(mkdir(top, 0755) == 0);
	CU_ASSERT_FATAL(mount("bo-test", top, "tmpfs", 0, "size=1m") == 0);
	CU_ASSERT_FATAL(mkdir(child, 0755) == 0);
	CU_ASSERT_FATAL(mount("bo-test", child, "tmpfs", 0, "size=1m") == 0);
	parent.want = top;
	kid.want = child;
	CU_ASSERT(bo_mounts_each(look, &parent, &err) == 0);
	CU_ASSERT(bo_mounts_each(look, &kid, &err) == 0);
	CU_ASSERT(parent.order > 0 && !strcmp(parent.type, "tmpfs"));
	CU_ASSERT(kid.order > parent.order);
	CU_ASSERT(stat(child, &st) == 0 && st.st_dev == kid.dev);
	CU_ASSERT(umount(child) == 0);
	CU_ASSERT(umount(top) == 0);
	CU_ASSERT(root_leftovers() == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a mount point with a space", test_space},
		{},
	};
	int r = root_require("root_mounts");

	return r ? r : bo_test_run("root_mounts", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mount table as blackout reads it (harness/base/mounts.h): a mount point with a space in
 * its path (mountinfo writes it \040) is reported as the path it is, with its filesystem type
 * and device number, parents before children. The leftover check and cleanup's sweep match
 * work directories against these paths: a work directory with a space used never to match.
 * The search for a run's leftovers (harness/dev/leftovers.h) finds the loops over its work
 * directory's files and the mounts at and under it, and nothing of another directory.
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
#include "harness/dev/leftovers.h"
#include "harness/dev/loop.h"
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

static void test_leftovers(void)
{
	char run[PATH_MAX], sub[PATH_MAX + 8], img[PATH_MAX + 8];
	struct bo_leftovers lo = {0};
	struct bo_loop_dev dev;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(realpath(root_dir("blackout-r44"), run) != NULL);
	snprintf(sub, sizeof(sub), "%s/sub", run);
	snprintf(img, sizeof(img), "%s/img", run);
	CU_ASSERT_FATAL(mount("bo-test", run, "tmpfs", 0, "size=20m") == 0);
	CU_ASSERT_FATAL(mkdir(sub, 0755) == 0);
	CU_ASSERT_FATAL(mount("bo-test", sub, "tmpfs", 0, "size=1m") == 0);
	root_make_file(img, 1 << 20);
	CU_ASSERT_FATAL(bo_loop_attach(img, run, 0, 0, &dev, &err) == 0);

	CU_ASSERT_FATAL(bo_leftovers_find("r44", run, false, &lo, &err) == 0);
	CU_ASSERT(lo.dm && !lo.dm[0]);
	CU_ASSERT(lo.loops[0] && !strcmp(lo.loops[0], dev.path) && !lo.loops[1]);
	CU_ASSERT(lo.mounts[0] && !strcmp(lo.mounts[0], run));
	CU_ASSERT(lo.mounts[1] && !strcmp(lo.mounts[1], sub) && !lo.mounts[2]);
	CU_ASSERT(lo.area == 2);
	bo_leftovers_clear(&lo);
	/* Another run's directory beside it holds none of them. */
	CU_ASSERT_FATAL(bo_leftovers_find("r4", root_dir("blackout-r4"), false, &lo, &err) == 0);
	CU_ASSERT(!lo.loops[0] && !lo.mounts[0]);
	bo_leftovers_clear(&lo);

	CU_ASSERT(bo_loop_detach(dev.path, &err) == 0);
	CU_ASSERT(umount(sub) == 0);
	CU_ASSERT(umount(run) == 0);
	CU_ASSERT(root_leftovers() == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a mount point with a space", test_space},
		{"a run's leftovers", test_leftovers},
		{},
	};
	int r = root_require("root_mounts");

	return r ? r : bo_test_run("root_mounts", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading modules with their dependencies, through an insert function that records instead
 * of loading: a module whose load failed is tried again, and on a real module directory
 * (the cached guest kernel's, when there is one) the modules blackout loads for a name are
 * those kmod's `modprobe --show-depends` lists, but for soft dependencies: libkmod reads one
 * softdep line of a module, blackout all of them.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/base/file.h"
#include "vm/modload.h"

struct rec {
	char *paths[256];
	size_t n;
	const char *fail; /* a path whose first insert fails with EIO */
	int fails;
};

static int record(const char *path, void *ctx)
{
	struct rec *r = ctx;

	if (r->n < 256)
		r->paths[r->n++] = strdup(path);
	if (r->fail && strstr(path, r->fail) && r->fails++ == 0)
		return -EIO;
	return 0;
}

static void rec_clear(struct rec *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->paths[i]);
	r->n = 0;
}

/* a needs b; b failing once leaves both to be loaded again by the next call. */
static void test_retry(void)
{
	char dir[4096];
	struct bo_modload *l = NULL;
	struct rec r = {.fail = "/b.ko"};
	struct bo_err err = {0};

	snprintf(dir, sizeof(dir), "%s/mods", bo_test_dir());
	CU_ASSERT_FATAL(bo_mkdir_p(dir) == 0);
	bo_test_put(dir, "modules.dep", "kernel/a.ko: kernel/b.ko\nkernel/b.ko:\n");
	bo_test_put(dir, "modules.softdep", "");
	bo_test_put(dir, "modules.alias", "");
	bo_test_put(dir, "modules.builtin", "");
	CU_ASSERT_FATAL(bo_modload_open_dir(dir, record, &r, &l, &err) == 0);
	CU_ASSERT(bo_modload_load(l, "a", &err) == -EIO);
	CU_ASSERT(strstr(bo_err_str(&err), "b.ko") != NULL);
	CU_ASSERT(r.n == 1);
	/* Not marked loaded: the next request loads b, then a. */
	CU_ASSERT(bo_modload_load(l, "a", &err) == 0);
	CU_ASSERT(r.n == 3 && strstr(r.paths[1], "/b.ko") && strstr(r.paths[2], "/a.ko"));
	/* Now both are loaded: nothing more goes in. */
	CU_ASSERT(bo_modload_load(l, "b", &err) == 0 && r.n == 3);
	bo_modload_free(l);
	rec_clear(&r);
}

/* The module paths kmod's modprobe would insert for @name, from the root @root, release
 * @rel, sorted into @v; their count. */
static size_t modprobe(const char *root, const char *rel, const char *name, char **v, size_t max)
{
	char cmd[8192], line[8192];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "modprobe -d '%s' -S '%s' --show-depends '%s' 2>/dev/null", root,
		 rel, name);
	p = popen(cmd, "r");
	CU_ASSERT_FATAL(p != NULL);
	while (fgets(line, sizeof(line), p) && n < max)
		if (!strncmp(line, "insmod ", 7)) {
			line[7 + strcspn(line + 7, " \n")] = '\0';
			v[n++] = strdup(line + 7);
		}
	pclose(p);
	return n;
}

static bool in(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static void test_against_modprobe(void)
{
	static const char *const names[] = {"dm-log-writes", "dm-flakey", "dm-snapshot", "loop",
					    "ext4",	     "xfs",	  "btrfs",	 "9p",
					    "9pnet-virtio",  "overlay",	  "virtio-pmem", "nd-pmem"};
	glob_t g = {0};
	char root[4096], rel[256], *kmod[256];

	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char pat[4096];

	if (xdg && *xdg == '/')
		snprintf(pat, sizeof(pat), "%s/blackout/kernels/*/lib/modules/*/modules.dep", xdg);
	else
		snprintf(pat, sizeof(pat), "%s/.cache/blackout/kernels/*/lib/modules/*/modules.dep",
			 home ? home : "");
	if (system("modprobe --version >/dev/null 2>&1") != 0 || glob(pat, 0, NULL, &g) != 0) {
		printf("\n  *** no cached guest kernel or no modprobe (scripts/setup): NOT "
		       "compared ***\n");
		return;
	}
	/* .../kernels/R/lib/modules/R/modules.dep */
	snprintf(root, sizeof(root), "%s", g.gl_pathv[0]);
	*strrchr(root, '/') = '\0';
	snprintf(rel, sizeof(rel), "%s", strrchr(root, '/') + 1);
	for (size_t i = 0; i < BO_ARRAY_SIZE(names); i++) {
		struct bo_modload *l = NULL;
		struct rec r = {0};
		struct bo_err err = {0};
		size_t k;

		CU_ASSERT_FATAL(bo_modload_open_dir(root, record, &r, &l, &err) == 0);
		CU_ASSERT(bo_modload_load(l, names[i], &err) == 0);
		*strstr(root, "/lib/modules/") = '\0';
		k = modprobe(root, rel, names[i], kmod, 256);
		strcat(root, "/lib/modules/");
		strcat(root, rel);
		CU_ASSERT(k > 0);
		/* Everything modprobe loads, blackout does... */
		for (size_t j = 0; j < k; j++) {
			CU_ASSERT(in(r.paths, r.n, kmod[j]) ||
				  (fprintf(stderr, "\n%s: modprobe loads %s, blackout not\n",
					   names[i], kmod[j]),
				   0));
			free(kmod[j]);
		}
		/* ... and what blackout loads on top is a soft dependency kmod left out. */
		CU_ASSERT(r.n >= k);
		bo_modload_free(l);
		rec_clear(&r);
	}
	globfree(&g);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a failed load is tried again", test_retry},
		{"the modules modprobe loads", test_against_modprobe},
		{},
	};

	return bo_test_run("vm_modload", tests);
}

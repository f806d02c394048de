// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine's diagnostics before and after a run (diag.h), and what a run that ended left
 * in the kernel, found by dev/leftovers.c, in words.
 */
#include "harness/diagnose/diag.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "dmtargets/dm.h"
#include "harness/base/macro.h"
#include "harness/base/proc.h"
#include "harness/dev/fstab.h"
#include "harness/dev/leftovers.h"

static char *slurp(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	return buf;
}

static void tool_version(FILE *out, const char *name, char *const argv[])
{
	struct bo_proc_opts o = {.argv = argv, .timeout_ms = 10000, .merge_stderr = true};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	if (bo_proc_run(&o, &r, &err) < 0) {
		fprintf(out, "%s: %s\n", name, bo_err_str(&err));
		return;
	}
	fprintf(out, "%s: %.*s\n", name, (int) strcspn(r.out, "\n"), r.out);
	bo_proc_result_clear(&r);
}

/* The version of each filesystem's mkfs, once per package (fstab.h). */
static void tool_versions(FILE *out)
{
	for (int i = 0; i < BO_FS_COUNT; i++) {
		const struct bo_fs_desc *d = bo_fs_desc((enum bo_fs) i);
		bool seen = false;

		for (int k = 0; k < i; k++)
			seen |= !strcmp(bo_fs_desc((enum bo_fs) k)->package, d->package);
		if (!seen)
			/* exec does not write to its arguments */
			tool_version(out, d->mkfs, (char *const *) d->mkfs_version);
	}
}

int bo_diag_capture(struct bo_results *res, const char *phase, struct bo_err *err)
{
	_cleanup_free_ char *text = NULL, *mounts = NULL, *mem = NULL;
	struct bo_dm_target_version *v = NULL;
	struct bo_err derr = {0};
	struct utsname u;
	char rel[PATH_MAX];
	size_t len = 0, nv = 0;
	FILE *f = open_memstream(&text, &len);
	int r;

	if (!f)
		return bo_err_set(err, ENOMEM, "diagnostics");
	if (uname(&u) == 0)
		fprintf(f, "kernel: %s %s %s\n", u.sysname, u.release, u.version);
	if (bo_dm_target_versions(&v, &nv, &derr) < 0) {
		fprintf(f, "dm targets: %s\n", bo_err_str(&derr));
	} else {
		for (size_t i = 0; i < nv; i++)
			fprintf(f, "dm target %s: %u.%u.%u\n", v[i].name, v[i].version.major,
				v[i].version.minor, v[i].version.patch);
		free(v);
	}
	tool_versions(f);
	fclose(f);
	snprintf(rel, sizeof(rel), "diagnostics/%s/versions.txt", phase);
	r = bo_results_write_file(res, rel, text, len, err);
	mounts = slurp("/proc/self/mounts");
	mem = slurp("/proc/meminfo");
	snprintf(rel, sizeof(rel), "diagnostics/%s/mounts.txt", phase);
	if (r >= 0 && mounts)
		r = bo_results_write_file(res, rel, mounts, strlen(mounts), err);
	snprintf(rel, sizeof(rel), "diagnostics/%s/meminfo.txt", phase);
	if (r >= 0 && mem)
		r = bo_results_write_file(res, rel, mem, strlen(mem), err);
	return r;
}

/* @what @name as a line of @buf (@len bytes, @used of them written, or would have been). */
static void line(char *buf, size_t len, size_t *used, const char *what, const char *name)
{
	*used += (size_t) snprintf(buf + *used, *used < len ? len - *used : 0, "%s %s\n", what,
				   name);
}

int bo_diag_leftovers(const char *runid, const char *workdir, char *buf, size_t len,
		      struct bo_err *err)
{
	struct bo_leftovers lo;
	size_t used = 0;
	int count = 0, r;

	buf[0] = '\0';
	r = bo_leftovers_find(runid, workdir, true, &lo, err);
	if (r < 0)
		return r;
	for (size_t i = 0; lo.dm[i]; i++, count++)
		line(buf, len, &used, "dm", lo.dm[i]);
	for (size_t i = 0; lo.loops[i]; i++, count++)
		line(buf, len, &used, "loop", lo.loops[i]);
	/* The work directory's tmpfs and the area's aside: their own teardown removes them. */
	for (size_t i = 0; lo.mounts[i]; i++) {
		if (i == lo.area || (i < lo.area && !strcmp(lo.mounts[i], workdir)))
			continue;
		line(buf, len, &used, "mount", lo.mounts[i]);
		count++;
	}
	bo_leftovers_clear(&lo);
	return count;
}

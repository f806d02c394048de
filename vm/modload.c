// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modload.c — finit_module(2) with dependencies, the order modprobe uses: pre soft
 * dependencies, then modules.dep's list from its end (each module's own dependencies come
 * later in its list), then the module, then post soft dependencies.
 */
#include "vm/modload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "vm/moddir.h"

/* Soft dependencies can form cycles through aliases; modprobe does not recurse forever. */
#define MAX_DEPTH 16

/* A module's state: loaded only once its file went into the kernel; while its dependencies
 * load, a cycle through soft dependencies finds it LOADING and goes on, as modprobe does. */
enum { NOT_LOADED, LOADING, LOADED };

struct bo_modload {
	struct bo_moddir *m;
	unsigned char *state;
	bo_modload_insert_fn insert;
	void *ctx;
};

static int finit(const char *path, void *ctx)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return syscall(SYS_finit_module, fd, "", 0) < 0 ? -errno : 0;
}

int bo_modload_open(struct bo_modload **ret, struct bo_err *err)
{
	char dir[PATH_MAX];
	struct utsname u;

	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	return bo_modload_open_dir(dir, NULL, NULL, ret, err);
}

int bo_modload_open_dir(const char *dir, bo_modload_insert_fn insert, void *ctx,
			struct bo_modload **ret, struct bo_err *err)
{
	struct bo_modload *l = calloc(1, sizeof(*l));
	int r;

	if (!l)
		return bo_err_set(err, ENOMEM, "out of memory");
	l->insert = insert ? insert : finit;
	l->ctx = ctx;
	r = bo_moddir_open(dir, &l->m, err);
	if (r >= 0 && !(l->state = calloc(bo_moddir_count(l->m) + 1, 1)))
		r = bo_err_set(err, ENOMEM, "out of memory");
	if (r < 0) {
		bo_modload_free(l);
		return r;
	}
	*ret = l;
	return 0;
}

void bo_modload_free(struct bo_modload *l)
{
	if (!l)
		return;
	bo_moddir_free(l->m);
	free(l->state);
	free(l);
}

static int load_name(struct bo_modload *l, const char *name, unsigned depth, struct bo_err *err);

static int load_softdeps(struct bo_modload *l, size_t i, bool pre, unsigned depth)
{
	const char *const *soft;
	size_t n = bo_moddir_softdeps(l->m, i, pre, &soft);

	/* modprobe goes on when a soft dependency is missing: it is a preference. */
	for (size_t k = 0; k < n; k++)
		if (load_name(l, soft[k], depth + 1, NULL) < 0)
			bo_debug(BO_DBG_VM, "module %s: soft dependency %s not loaded",
				 bo_moddir_name(l->m, i), soft[k]);
	return 0;
}

static int load_index(struct bo_modload *l, size_t i, unsigned depth, struct bo_err *err)
{
	const char *name = bo_moddir_name(l->m, i);
	const size_t *deps;
	char path[PATH_MAX];
	size_t n;
	int r;

	if (l->state[i] != NOT_LOADED)
		return 0;
	if (depth > MAX_DEPTH)
		return bo_err_set(err, ELOOP, "module %s: dependencies nest too deep", name);
	l->state[i] = LOADING;
	load_softdeps(l, i, true, depth);
	n = bo_moddir_deps(l->m, i, &deps);
	for (size_t k = n; k-- > 0;) {
		r = load_index(l, deps[k], depth + 1, err);
		if (r < 0) {
			l->state[i] = NOT_LOADED;
			return bo_err_prefix(err, "module %s", name);
		}
	}
	snprintf(path, sizeof(path), "%s/%s", bo_moddir_path(l->m), bo_moddir_file(l->m, i));
	r = l->insert(path, l->ctx);
	if (r < 0 && r != -EEXIST) {
		l->state[i] = NOT_LOADED; /* the next call that needs it tries again */
		return bo_err_set(err, -r, "module %s: load '%s': %s", name, path, strerror(-r));
	}
	l->state[i] = LOADED;
	if (bo_debug_on(BO_DBG_VM)) {
		struct timespec ts;

		clock_gettime(CLOCK_BOOTTIME, &ts);
		bo_debug(BO_DBG_VM, "module %s loaded (uptime %ld.%03ld s)", name, (long) ts.tv_sec,
			 ts.tv_nsec / 1000000);
	}
	load_softdeps(l, i, false, depth);
	return 0;
}

static int load_name(struct bo_modload *l, const char *name, unsigned depth, struct bo_err *err)
{
	_cleanup_free_ size_t *v = NULL;
	size_t n;
	int r;

	r = bo_moddir_resolve(l->m, name, &v, &n);
	if (r == -ENOENT)
		return bo_err_set(err, ENOENT, "module %s: not found in '%s'", name,
				  bo_moddir_path(l->m));
	if (r < 0)
		return bo_err_set(err, -r, "module %s: %s", name, strerror(-r));
	/* An alias may match several modules, some for hardware that is not there (crc32c-intel
	 * on a CPU without SSE 4.2 fails with ENODEV): one that loads is enough. */
	for (size_t k = 0; k < n; k++) {
		struct bo_err e = {0};

		if (load_index(l, v[k], depth, &e) >= 0) {
			r = 1;
			continue;
		}
		bo_debug(BO_DBG_VM, "%s", bo_err_str(&e));
		if (r != 1 && err)
			*err = e;
		if (r != 1)
			r = -e.errnum;
	}
	return r < 0 ? r : 0;
}

int bo_modload_load(struct bo_modload *l, const char *name, struct bo_err *err)
{
	return load_name(l, name, 0, err);
}

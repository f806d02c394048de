// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout cache — what blackout keeps in ${XDG_CACHE_HOME:-~/.cache}/blackout, and pruning it.
 *
 *   blackout cache list [--json]
 *   blackout cache prune [--older-than DAYS] [--all]
 *
 * The cache holds the guest kernels (kernels/RELEASE/, scripts/fetch-kernel), the base
 * initramfs archives (initramfs/), the archives of host files runs shipped (files/), the
 * SHA-256 of saved logs (loghash/) and the accelerator probe (accel/). Every entry's
 * modification time is its last use: blackout touches what it takes from the cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "vm/kernel.h"

/* What the cache holds, one directory each. */
static const char *const kinds[] = {"kernels", "initramfs", "files", "loghash", "accel"};

struct cache_args {
	const char *older_than;
	bool json, all;
};

static const char *days_problem(const char *val)
{
	uint64_t days;

	return bo_parse_u64(val, &days) < 0 ? "days" : NULL;
}

static const struct bo_opt cache_opts[] = {
	{"json", NULL, offsetof(struct cache_args, json), BO_OPT_HOST, NULL, NULL,
	 "list as JSON (\"format\": 1)"},
	{"older-than", "DAYS", offsetof(struct cache_args, older_than), BO_OPT_HOST, NULL,
	 days_problem, "prune what was not used in DAYS days"},
	{"all", NULL, offsetof(struct cache_args, all), BO_OPT_HOST, NULL, NULL,
	 "prune everything but the default kernel"},
};

static void help(void)
{
	puts("usage: blackout cache list [--json]\n"
	     "       blackout cache prune [--older-than DAYS] [--all]\n\n"
	     "list: every entry of blackout's cache (${XDG_CACHE_HOME:-~/.cache}/blackout; a\n"
	     "relative XDG_CACHE_HOME is ignored): guest kernels, initramfs archives, the\n"
	     "archives of host files runs shipped, log hashes, with their size and the days\n"
	     "since their last use.\n"
	     "prune: remove what was not used in DAYS days (default 30); a kernel only when it\n"
	     "is not the default one. --all: everything but the default kernel.\n"
	     "What is removed is built again when a run needs it.\n");
	bo_opts_help(stdout, cache_opts, BO_ARRAY_SIZE(cache_opts));
}

/* Bytes taken by @name of the directory @dfd (@st: its lstat), and all beneath it when it is a
 * directory: walked by descriptor, never through a symlink, never out of the cache. */
static uint64_t bytes_at(int dfd, const char *name, const struct stat *st)
{
	uint64_t n = (uint64_t) st->st_blocks * 512;
	_cleanup_(bo_closedirp) DIR *d = NULL;
	struct dirent *de;

	if (!S_ISDIR(st->st_mode))
		return n;
	d = bo_opendirat(dfd, name);
	while (d && (de = readdir(d))) {
		struct stat sub;

		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    fstatat(dirfd(d), de->d_name, &sub, AT_SYMLINK_NOFOLLOW) == 0)
			n += bytes_at(dirfd(d), de->d_name, &sub);
	}
	return n;
}

/* The default kernel's release, as a VM picks it without --kernel-release, into @best. */
static void default_kernel(char *best, size_t len)
{
	if (bo_kernel_cached(NULL, best, len, NULL) < 0)
		best[0] = '\0';
}

struct entry {
	const char *kind;
	int dirfd; /* its kind's directory: the entry is @name in it */
	char name[NAME_MAX + 1];
	char path[PATH_MAX]; /* for messages and the listing */
	bool dir;
	uint64_t bytes;
	double days; /* since the last use */
	bool default_kernel_entry;
};

/*
 * The directory of each kind into @fds (-1: there is none), opened beneath the cache directory
 * @dir (reached as XDG_CACHE_HOME or HOME name it, through symlinks if they say so) without
 * following a symlink: a symlink in the cache would lead list and prune out of it. One that
 * is a symlink or not a directory is refused before anything is touched. 0, or -errno.
 */
static int open_kinds(const char *dir, int fds[], struct bo_err *err)
{
	_cleanup_close_ int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (size_t k = 0; k < BO_ARRAY_SIZE(kinds); k++)
		fds[k] = -1;
	if (root < 0)
		return errno == ENOENT ? 0
				       : bo_err_set(err, errno, "cache directory '%s': %s", dir,
						    strerror(errno));
	for (size_t k = 0; k < BO_ARRAY_SIZE(kinds); k++) {
		fds[k] = openat(root, kinds[k], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fds[k] >= 0 || errno == ENOENT)
			continue;
		return errno == ELOOP || errno == ENOTDIR
			       ? bo_err_set(
					 err, ENOTDIR,
					 "'%s/%s' is not a directory (a symlink is not followed): "
					 "refusing to walk the cache; remove it",
					 dir, kinds[k])
			       : bo_err_set(err, errno, "'%s/%s': %s", dir, kinds[k],
					    strerror(errno));
	}
	return 0;
}

/* The entries of the kind @k in the directory @fd, to @fn; 0, or -errno. */
static int each_of(const char *dir, size_t k, int fd, int (*fn)(const struct entry *e, void *ctx),
		   void *ctx)
{
	_cleanup_(bo_closedirp) DIR *d = NULL;
	char def[NAME_MAX + 1] = "";
	time_t now = time(NULL);
	int r = 0;
	struct dirent *de;

	d = bo_opendirat(fd, NULL);
	if (!d)
		return -errno;
	if (!strcmp(kinds[k], "kernels"))
		default_kernel(def, sizeof(def));
	while (r == 0 && (de = readdir(d))) {
		struct entry e = {.kind = kinds[k], .dirfd = fd};
		_cleanup_close_ int efd = -1;
		struct stat st, vs;
		char v[NAME_MAX + 32];

		if (de->d_name[0] == '.' ||
		    bo_pathf(e.path, sizeof(e.path), "%s/%s/%s", dir, kinds[k], de->d_name) < 0 ||
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* kernels/default names the default kernel: not an entry of its own. */
		if (!strcmp(kinds[k], "kernels") && !S_ISDIR(st.st_mode))
			continue;
		snprintf(e.name, sizeof(e.name), "%s", de->d_name);
		e.dir = S_ISDIR(st.st_mode);
		/* A kernel is used when its vmlinux is, or its bzImage for one without a PVH
		 * entry. */
		snprintf(v, sizeof(v), "boot/vmlinuz-%s", de->d_name);
		if (e.dir &&
		    (efd = openat(fd, de->d_name,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0 &&
		    (fstatat(efd, "vmlinux", &vs, AT_SYMLINK_NOFOLLOW) == 0 ||
		     fstatat(efd, v, &vs, AT_SYMLINK_NOFOLLOW) == 0))
			st.st_mtim = vs.st_mtim;
		e.days = difftime(now, st.st_mtim.tv_sec) / 86400.0;
		e.bytes = bytes_at(fd, de->d_name, &st);
		e.default_kernel_entry = *def && !strcmp(def, e.name);
		r = fn(&e, ctx);
	}
	return r < 0 ? r : 0;
}

/* Every entry of the cache directory @dir, to @fn; 0, or -errno. */
static int each(const char *dir, int (*fn)(const struct entry *e, void *ctx), void *ctx,
		struct bo_err *err)
{
	int fds[BO_ARRAY_SIZE(kinds)], r = open_kinds(dir, fds, err);

	for (size_t k = 0; r >= 0 && k < BO_ARRAY_SIZE(kinds); k++)
		if (fds[k] >= 0 && (r = each_of(dir, k, fds[k], fn, ctx)) < 0)
			bo_err_set(err, -r, "'%s/%s': %s", dir, kinds[k], strerror(-r));
	for (size_t k = 0; k < BO_ARRAY_SIZE(kinds); k++)
		if (fds[k] >= 0)
			close(fds[k]);
	return r < 0 ? r : 0;
}

static void human(uint64_t b, char *buf, size_t len)
{
	if (b >= 1ull << 30)
		snprintf(buf, len, "%.1f GiB", (double) b / (1ull << 30));
	else if (b >= 1ull << 20)
		snprintf(buf, len, "%.1f MiB", (double) b / (1ull << 20));
	else
		snprintf(buf, len, "%.1f KiB", (double) b / 1024);
}

struct listing {
	struct json_object *json; /* the array, with --json */
	uint64_t total;
	size_t n;
};

/* A name read from the cache directory: any bytes but '/' and NUL. Shown with its control
 * characters escaped, and in JSON as valid UTF-8. */
static int list_one(const struct entry *e, void *ctx)
{
	struct listing *l = ctx;
	_cleanup_free_ char *name = NULL, *path = NULL;
	struct json_object *o;
	char size[32];

	l->total += e->bytes;
	l->n++;
	if (!l->json) {
		human(e->bytes, size, sizeof(size));
		name = bo_sanitize(e->name, true);
		if (!name)
			return -ENOMEM;
		printf("%-10s %10s %8.1f days  %s%s\n", e->kind, size, e->days, name,
		       e->default_kernel_entry ? " (default kernel)" : "");
		return 0;
	}
	name = bo_utf8_valid(e->name, strlen(e->name));
	path = bo_utf8_valid(e->path, strlen(e->path));
	if (!name || !path || !(o = json_object_new_object()))
		return -ENOMEM;
	json_object_object_add(o, "kind", json_object_new_string(e->kind));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "bytes", json_object_new_uint64(e->bytes));
	json_object_object_add(o, "days_since_use", json_object_new_double(e->days));
	if (!strcmp(e->kind, "kernels"))
		json_object_object_add(o, "default",
				       json_object_new_boolean(e->default_kernel_entry));
	json_object_array_add(l->json, o);
	return 0;
}

struct pruning {
	double older_than; /* days */
	bool all;
	uint64_t freed;
	size_t n;
};

static int prune_one(const struct entry *e, void *ctx)
{
	struct pruning *p = ctx;
	int r;

	if (e->default_kernel_entry || !(p->all || e->days > p->older_than))
		return 0;
	/* By name in its kind's directory, walked by descriptor: nothing out of the cache. */
	r = e->dir				 ? bo_remove_tree_at(e->dirfd, e->name)
	    : unlinkat(e->dirfd, e->name, 0) < 0 ? -errno
						 : 0;
	if (r < 0) {
		bo_cli_warning("cache prune: '%s': %s", e->path, strerror(-r));
		return 0;
	}
	p->freed += e->bytes;
	p->n++;
	bo_cli_note("cache: removed %s %s", e->kind, e->name);
	return 0;
}

static int cmd_cache(int argc, char **argv)
{
	struct cache_args a = {0};
	const struct bo_opt_set sets[] = {{cache_opts, BO_ARRAY_SIZE(cache_opts), &a}};
	struct bo_err err = {0};
	uint64_t days = 30;
	char dir[PATH_MAX], size[32];
	int k;

	k = bo_opts_parse("cache", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc || (strcmp(argv[k], "list") && strcmp(argv[k], "prune")))
		return bo_cli_usage_error("cache", "expected list or prune");
	/* Checked by days_problem(). */
	if (a.older_than && bo_parse_u64(a.older_than, &days) < 0)
		return BO_EXIT_USAGE;
	if (bo_cache_dir("", false, dir, sizeof(dir), &err) < 0) {
		bo_cli_error("cache: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	dir[strlen(dir) - 1] = '\0'; /* ".../blackout/" */
	if (!strcmp(argv[k], "list")) {
		struct listing l = {.json = a.json ? json_object_new_array() : NULL};

		if (a.json && !l.json)
			return BO_EXIT_HARNESS;
		if (each(dir, list_one, &l, &err) < 0) {
			json_object_put(l.json);
			bo_cli_error("cache: %s", bo_err_str(&err));
			return BO_EXIT_HARNESS;
		}
		if (a.json) {
			struct json_object *o = bo_json_new_doc();
			_cleanup_free_ char *where = bo_utf8_valid(dir, strlen(dir));

			json_object_object_add(o, "cache",
					       json_object_new_string(where ? where : ""));
			json_object_object_add(o, "bytes", json_object_new_uint64(l.total));
			json_object_object_add(o, "entries", l.json);
			puts(json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		} else {
			human(l.total, size, sizeof(size));
			printf("%zu entries, %s in %s\n", l.n, size, dir);
		}
		return BO_EXIT_OK;
	}
	if (a.json)
		return bo_cli_usage_error("cache", "--json is for list");
	{
		struct pruning p = {.older_than = (double) days, .all = a.all};

		if (each(dir, prune_one, &p, &err) < 0) {
			bo_cli_error("cache: %s", bo_err_str(&err));
			return BO_EXIT_HARNESS;
		}
		human(p.freed, size, sizeof(size));
		printf("removed %zu %s, %s\n", p.n, BO_PLURAL(p.n, "entry", "entries"), size);
	}
	return BO_EXIT_OK;
}

const struct bo_cmd bo_cmd_cache = {"cache", cmd_cache,
				    "list blackout's cache (kernels, archives, hashes); prune it"};

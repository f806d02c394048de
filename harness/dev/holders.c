// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/holders.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/dev/loop.h"

struct walk {
	bool (*match)(const char *path, void *ctx);
	int (*fn)(const struct bo_holder *h, void *ctx);
	void *ctx;
	struct bo_holder h;
	char comm[64];
};

/* The link /proc/PID/@rel, when @match takes what it leads to: reported through @fn. 1 when
 * it was (the process is done with), else what @fn returned (0: go on). */
static int link_held(struct walk *w, int piddir, const char *rel, const char *how)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(piddir, rel, target, sizeof(target) - 1);
	int r;

	if (n <= 0)
		return 0;
	target[n] = '\0';
	if (target[0] != '/' || !w->match(target, w->ctx))
		return 0;
	w->h.how = how;
	w->h.path = target;
	r = w->fn(&w->h, w->ctx);
	return r ? r : 1;
}

static int fds_held(struct walk *w, int piddir)
{
	_cleanup_(bo_closedirp) DIR *d = bo_opendirat(piddir, "fd");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char rel[300], how[300];
		int r;

		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "fd/%s", de->d_name);
		snprintf(how, sizeof(how), "fd %s", de->d_name);
		r = link_held(w, piddir, rel, how);
		if (r)
			return r;
	}
	return 0;
}

/* A mapping of a file @match takes (an executable or a library run from the mount). */
static int maps_held(struct walk *w, int piddir)
{
	int fd = openat(piddir, "maps", O_RDONLY | O_CLOEXEC);
	_cleanup_fclose_ FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char line[PATH_MAX + 128];

	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');
		int r;

		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (!w->match(path, w->ctx))
			continue;
		w->h.how = "mmap";
		w->h.path = path;
		r = w->fn(&w->h, w->ctx);
		return r ? r : 1;
	}
	return 0;
}

static void read_comm(int piddir, char *buf, size_t len)
{
	_cleanup_close_ int fd = openat(piddir, "comm", O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *safe = NULL;
	char raw[64];
	ssize_t n = fd < 0 ? -1 : read(fd, raw, sizeof(raw) - 1);

	raw[n > 0 ? n : 0] = '\0';
	raw[strcspn(raw, "\n")] = '\0';
	safe = bo_sanitize(raw, true);
	snprintf(buf, len, "%s", safe && *safe ? safe : "?");
}

int bo_holders_each(bool (*match)(const char *path, void *ctx),
		    int (*fn)(const struct bo_holder *h, void *ctx), void *ctx)
{
	_cleanup_(bo_closedirp) DIR *proc = opendir("/proc");
	struct walk w = {.match = match, .fn = fn, .ctx = ctx};
	struct dirent *de;

	if (!proc)
		return 0;
	while ((de = readdir(proc))) {
		_cleanup_close_ int piddir = -1;
		int r;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    strspn(de->d_name, "0123456789") != strlen(de->d_name))
			continue;
		piddir = openat(dirfd(proc), de->d_name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
		if (piddir < 0)
			continue;
		w.h.pid = (pid_t) atoi(de->d_name);
		read_comm(piddir, w.comm, sizeof(w.comm));
		w.h.comm = w.comm;
		r = link_held(&w, piddir, "cwd", "cwd");
		if (!r)
			r = link_held(&w, piddir, "root", "root");
		if (!r)
			r = fds_held(&w, piddir);
		if (!r)
			r = maps_held(&w, piddir);
		if (r < 0 || r > 1)
			return r;
	}
	return 0;
}

struct of {
	const char *dir;
	char line[1024];
	unsigned n;
};

static bool beneath(const char *path, void *ctx)
{
	const struct of *o = ctx;

	return !strcmp(path, o->dir) || bo_path_within(o->dir, path);
}

static int add(const struct bo_holder *h, void *ctx)
{
	enum { SHOWN = 6 };
	struct of *o = ctx;
	size_t used = strlen(o->line);
	_cleanup_free_ char *path = NULL;

	if (o->n++ >= SHOWN)
		return 0;
	path = bo_sanitize(h->path, true);
	snprintf(o->line + used, sizeof(o->line) - used, "%s%s (pid %d: %s '%s')", used ? ", " : "",
		 h->comm, (int) h->pid, h->how, path ? path : "?");
	return 0;
}

char *bo_holders_of(const char *dir)
{
	struct of o = {.dir = dir};
	char more[48];

	(void) !bo_holders_each(beneath, add, &o);
	if (o.n > 6) {
		snprintf(more, sizeof(more), ", and %u more", o.n - 6);
		if (strlen(o.line) + strlen(more) < sizeof(o.line))
			strcat(o.line, more);
	}
	return strdup(o.line);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/path.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bo_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

const char *bo_self_exe(void)
{
	static char self[PATH_MAX];
	ssize_t n;

	if (self[0])
		return self;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		snprintf(self, sizeof(self), "blackout");
	else
		self[n] = '\0';
	return self;
}

const char *bo_libexec_dir(void)
{
	static char dir[PATH_MAX];
	char self[PATH_MAX], probe[PATH_MAX];
	const char *bin;
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "/usr/libexec/blackout";
	self[n] = '\0';
	bin = dirname(self);
	/* A build tree: the workloads are built beside blackout. */
	if (bo_pathf(probe, sizeof(probe), "%s/blackout-fsops", bin) == 0 &&
	    access(probe, X_OK) == 0) {
		snprintf(dir, sizeof(dir), "%s", bin);
		return dir;
	}
	/* Installed: canonical, as the VM is given the same paths. */
	if (bo_pathf(probe, sizeof(probe), "%s/%s", bin, BO_HELPER_REL) < 0 ||
	    !realpath(probe, dir))
		snprintf(dir, sizeof(dir), "%s", probe);
	return dir;
}

bool bo_path_find(const char *name, const char *path, char *buf, size_t len)
{
	struct stat st;

	if (strchr(name, '/'))
		return false;
	if (!path)
		path = getenv("PATH");
	for (const char *d = path; d && *d;) {
		size_t n = strcspn(d, ":");

		if (*d != '/')
			return false;
		if (bo_pathf(buf, len, "%.*s/%s", (int) n, d, name) == 0 && stat(buf, &st) == 0 &&
		    S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return true;
		d += n + (d[n] == ':');
	}
	return false;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc_user.c — the account a child of proc.h runs as: looked up on this machine, its right to
 * a file judged by the permission bits, and written as one word for the guest's command line
 * and read back (proc.h, struct bo_proc_user).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/proc.h"

int bo_proc_user_lookup(const char *name, struct bo_proc_user *ret, struct bo_err *err)
{
	struct bo_proc_user u = {0};
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(name);
	if (!pw)
		return bo_err_set(err, errno ? errno : ENOENT, "no user '%s' on this machine%s%s",
				  name, errno ? ": " : "", errno ? strerror(errno) : "");
	if (snprintf(u.name, sizeof(u.name), "%s", pw->pw_name) >= (int) sizeof(u.name) ||
	    snprintf(u.home, sizeof(u.home), "%s", pw->pw_dir) >= (int) sizeof(u.home) ||
	    strpbrk(u.home, ":,") || strchr(u.name, ':'))
		return bo_err_set(err, EINVAL,
				  "user '%s': its name or home is too long or has a "
				  "':' or ','",
				  name);
	u.uid = pw->pw_uid;
	u.gid = pw->pw_gid;
	u.ngroups = (int) BO_ARRAY_SIZE(u.groups);
	if (getgrouplist(u.name, u.gid, u.groups, &u.ngroups) < 0)
		return bo_err_set(err, E2BIG, "user '%s' is in more than %zu groups", name,
				  BO_ARRAY_SIZE(u.groups));
	*ret = u;
	return 0;
}

/* Whether the permission bits of @st let @u do @what (R_OK, W_OK, X_OK). */
static bool user_may(const struct bo_proc_user *u, const struct stat *st, int what)
{
	unsigned bits, need = (what & R_OK ? 4 : 0) | (what & W_OK ? 2 : 0) | (what & X_OK ? 1 : 0);
	bool group = st->st_gid == u->gid;

	if (u->uid == 0) /* root passes everywhere, but runs only what someone may run */
		return !(what & X_OK) || S_ISDIR(st->st_mode) || (st->st_mode & 0111);
	for (int i = 0; i < u->ngroups; i++)
		group |= st->st_gid == u->groups[i];
	bits = st->st_uid == u->uid ? (st->st_mode >> 6) & 7
	       : group		    ? (st->st_mode >> 3) & 7
				    : st->st_mode & 7;
	return (bits & need) == need;
}

int bo_proc_user_access(const struct bo_proc_user *u, const char *path, int what,
			struct bo_err *err)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t n;

	if (path[0] != '/' || strlen(path) >= sizeof(dir))
		return bo_err_set(err, EINVAL, "'%s': not an absolute path", path);
	for (const char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		n = (size_t) (p - path);
		memcpy(dir, path, n);
		dir[n] = '\0';
		if (stat(dir, &st) < 0)
			return bo_err_set(err, errno, "'%s': %s", dir, strerror(errno));
		if (!*p)
			break;
		if (!user_may(u, &st, X_OK))
			return bo_err_set(
				err, EACCES,
				"user '%s' cannot reach '%s': '%s' is mode %04o, owner %u, "
				"group %u",
				u->name, path, dir, (unsigned) (st.st_mode & 07777),
				(unsigned) st.st_uid, (unsigned) st.st_gid);
	}
	if (!user_may(u, &st, what))
		return bo_err_set(err, EACCES,
				  "user '%s' may not %s '%s': it is mode %04o, owner %u, group %u",
				  u->name,
				  what & X_OK	? "run"
				  : what & W_OK ? "write"
						: "read",
				  path, (unsigned) (st.st_mode & 07777), (unsigned) st.st_uid,
				  (unsigned) st.st_gid);
	return 0;
}

int bo_proc_user_format(const struct bo_proc_user *u, char *buf, size_t len)
{
	size_t o;
	int n = snprintf(buf, len, "%s:%u:%u:%s:", u->name, (unsigned) u->uid, (unsigned) u->gid,
			 u->home);

	if (n < 0 || (size_t) n >= len)
		return -ENAMETOOLONG;
	o = (size_t) n;
	for (int i = 0; i < u->ngroups; i++) {
		n = snprintf(buf + o, len - o, "%s%u", i ? "," : "", (unsigned) u->groups[i]);
		if (n < 0 || (size_t) n >= len - o)
			return -ENAMETOOLONG;
		o += (size_t) n;
	}
	return 0;
}

int bo_proc_user_parse(const char *s, struct bo_proc_user *ret)
{
	struct bo_proc_user u = {0};
	unsigned long uid, gid;
	const char *p = s, *colon;
	char *end;

	colon = strchr(p, ':');
	if (!colon || colon == p || (size_t) (colon - p) >= sizeof(u.name))
		return -EINVAL;
	memcpy(u.name, p, (size_t) (colon - p));
	p = colon + 1;
	errno = 0;
	uid = strtoul(p, &end, 10);
	if (errno || end == p || *end != ':')
		return -EINVAL;
	p = end + 1;
	gid = strtoul(p, &end, 10);
	if (errno || end == p || *end != ':')
		return -EINVAL;
	p = end + 1;
	colon = strchr(p, ':');
	if (!colon || (size_t) (colon - p) >= sizeof(u.home))
		return -EINVAL;
	memcpy(u.home, p, (size_t) (colon - p));
	p = colon + 1;
	while (*p) {
		unsigned long g = strtoul(p, &end, 10);

		if (errno || end == p || (*end && *end != ',') ||
		    u.ngroups == (int) BO_ARRAY_SIZE(u.groups))
			return -EINVAL;
		u.groups[u.ngroups++] = (gid_t) g;
		p = *end ? end + 1 : end;
	}
	u.uid = (uid_t) uid;
	u.gid = (gid_t) gid;
	*ret = u;
	return 0;
}

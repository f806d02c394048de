// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/util.h"

#include "harness/base/cleanup.h"

#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bo_err_set(struct bo_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (errnum <= 0)
		errnum = EIO;
	if (err) {
		err->errnum = errnum;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -errnum;
}

int bo_err_prefix(struct bo_err *err, const char *fmt, ...)
{
	char head[256], tail[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -EIO;
	if (err->errnum <= 0)
		err->errnum = EIO;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	snprintf(tail, sizeof(tail), "%s", bo_err_str(err));
	/* Truncating an over-long message is fine; losing its start is not. */
	if (snprintf(err->msg, sizeof(err->msg), "%s: ", head) >= 0) {
		size_t used = strlen(err->msg);

		memcpy(err->msg + used, tail, strnlen(tail, sizeof(err->msg) - used - 1));
		err->msg[used + strnlen(tail, sizeof(err->msg) - used - 1)] = '\0';
	}
	return -err->errnum;
}

const char *bo_err_str(const struct bo_err *err)
{
	if (!err)
		return "unknown error";
	if (err->msg[0])
		return err->msg;
	return strerror(err->errnum > 0 ? err->errnum : EIO);
}

int bo_parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || !isdigit((unsigned char) *s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int bo_parse_range(const char *s, uint64_t *ret_a, uint64_t *ret_b)
{
	const char *dash = strchr(s, '-');
	uint64_t a, b = UINT64_MAX;
	char head[32];
	int r;

	if (!dash)
		return (r = bo_parse_u64(s, &a)) < 0 ? r : (*ret_a = *ret_b = a, 0);
	if ((size_t) (dash - s) >= sizeof(head))
		return -EINVAL;
	memcpy(head, s, dash - s);
	head[dash - s] = '\0';
	r = bo_parse_u64(head, &a);
	if (r < 0)
		return r;
	if (dash[1]) {
		r = bo_parse_u64(dash + 1, &b);
		if (r < 0)
			return r;
		if (b < a)
			return -EINVAL;
	}
	*ret_a = a;
	*ret_b = b;
	return 0;
}

ssize_t bo_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *) buf + done, len - done, (off_t) (off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t) n;
	}
	return (ssize_t) done;
}

int bo_pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *) buf + done, len - done, (off_t) (off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t) n;
	}
	return 0;
}

int bo_write_file_at(int dirfd, const char *name, const void *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, k;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", name, (int) getpid()) >= (int) sizeof(tmp))
		return -ENAMETOOLONG;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	k = bo_pwrite_full(fd, buf, len, 0);
	if (k == 0 && close(fd) < 0)
		k = -errno;
	else if (k < 0)
		close(fd);
	if (k == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		k = -errno;
	if (k < 0)
		unlinkat(dirfd, tmp, 0);
	return k;
}

static unsigned debug_mask(void)
{
	static const struct {
		const char *name;
		unsigned bit;
	} cats[] = {
		{"log", BO_DBG_LOG},   {"replay", BO_DBG_REPLAY}, {"dm", BO_DBG_DM},
		{"loop", BO_DBG_LOOP}, {"mount", BO_DBG_MOUNT},	  {"vm", BO_DBG_VM},
		{"run", BO_DBG_RUN},
	};
	static int mask = -1;
	const char *env;

	if (mask >= 0)
		return (unsigned) mask;
	mask = 0;
	env = getenv("BLACKOUT_DEBUG");
	if (!env)
		return 0;
	for (const char *p = env; *p;) {
		size_t n = strcspn(p, ",");

		if (n == 3 && !strncmp(p, "all", 3))
			mask = ~0;
		for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
			if (strlen(cats[i].name) == n && !strncmp(p, cats[i].name, n))
				mask |= (int) cats[i].bit;
		p += n;
		if (*p == ',')
			p++;
	}
	return (unsigned) mask;
}

bool bo_debug_on(enum bo_debug_cat cat)
{
	return debug_mask() & cat;
}

void bo_debug(enum bo_debug_cat cat, const char *fmt, ...)
{
	va_list ap;

	if (!bo_debug_on(cat))
		return;
	va_start(ap, fmt);
	fputs("blackout: debug: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *bo_libexec_dir(void)
{
	static char dir[PATH_MAX];
	char self[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "/usr/libexec/blackout";
	self[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(self));
	return dir;
}

char **bo_strv_split(const char *s)
{
	size_t n = 0, cap = 8;
	char **v = calloc(cap, sizeof(*v));

	while (v && s && *s) {
		size_t skip = strspn(s, " \t\n"), len;

		s += skip;
		len = strcspn(s, " \t\n");
		if (!len)
			break;
		if (n + 2 > cap) {
			char **nv = realloc(v, (cap *= 2) * sizeof(*v));

			if (!nv)
				goto fail;
			v = nv;
		}
		v[n] = strndup(s, len);
		if (!v[n])
			goto fail;
		v[++n] = NULL;
		s += len;
	}
	return v;
fail:
	bo_strv_free(v);
	return NULL;
}

void bo_strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

int bo_copy_file(const char *src, const char *dst, struct bo_err *err)
{
	_cleanup_close_ int in = open(src, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	char buf[1 << 16];
	uint64_t off = 0;

	if (in < 0)
		return bo_err_set(err, errno, "opening '%s': %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0)
		return bo_err_set(err, errno, "creating '%s': %s", dst, strerror(errno));
	for (;;) {
		ssize_t n = bo_pread_full(in, buf, sizeof(buf), off);
		int r;

		if (n < 0)
			return bo_err_set(err, (int) -n, "reading '%s': %s", src,
					  strerror((int) -n));
		if (n == 0)
			return 0;
		r = bo_pwrite_full(out, buf, (size_t) n, off);
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", dst, strerror(-r));
		off += (uint64_t) n;
	}
}

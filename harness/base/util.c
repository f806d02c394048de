// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/util.h"
#include "harness/base/sanitize.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

int bo_parse_u64_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	int r = bo_parse_u64(s, &v);

	if (r < 0)
		return r;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int bo_parse_share(const char *s, uint64_t max_n, unsigned *ret_i, unsigned *ret_n)
{
	const char *slash = strchr(s, '/');
	uint64_t i, n, top = max_n < UINT32_MAX ? max_n : UINT32_MAX;
	char head[24];
	int r;

	if (!slash || (size_t) (slash - s) >= sizeof(head))
		return -EINVAL;
	memcpy(head, s, (size_t) (slash - s));
	head[slash - s] = '\0';
	r = bo_parse_u64_in(slash + 1, 1, top, &n);
	if (r >= 0)
		r = bo_parse_u64_in(head, 0, n - 1, &i);
	if (r < 0)
		return r;
	*ret_i = (unsigned) i;
	*ret_n = (unsigned) n;
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
	/* A head too long for any u64 is out of range when it is a number at all. */
	if ((size_t) (dash - s) >= sizeof(head))
		return strspn(s, "0123456789") == (size_t) (dash - s) ? -ERANGE : -EINVAL;
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
		for (size_t i = 0; i < BO_ARRAY_SIZE(cats); i++)
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

void bo_vsay(const char *kind, const char *fmt, va_list ap)
{
	char *msg = NULL, *safe, *line = NULL;
	int n;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fprintf(stderr, "blackout: %s%s\n", kind, fmt);
		return;
	}
	/* A message quotes what it was given, which may come from a stranger's file: no
	 * escape sequence reaches the terminal (harness/base/sanitize.h). */
	safe = bo_sanitize(msg, false);
	n = asprintf(&line, "blackout: %s%s\n", kind, safe ? safe : msg);
	/* One write: the messages of two processes sharing stderr (the shards of a check)
	 * never interleave within a line. */
	if (n > 0 && write(STDERR_FILENO, line, (size_t) n) < 0)
		n = -1;
	if (n < 0)
		fprintf(stderr, "blackout: %s%s\n", kind, msg);
	free(line);
	free(safe);
	free(msg);
}

void bo_debug(enum bo_debug_cat cat, const char *fmt, ...)
{
	va_list ap;

	if (!bo_debug_on(cat))
		return;
	va_start(ap, fmt);
	bo_vsay("debug: ", fmt, ap);
	va_end(ap);
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

double bo_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

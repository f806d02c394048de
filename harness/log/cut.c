// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/log/cut.h"

#include <errno.h>
#include <string.h>

/* Entry number of the @k-th (1-based) entry having @flag, or -ENOENT. */
static int nth_with_flag(const struct bo_log *log, uint32_t flag, uint64_t k, uint64_t *ret)
{
	uint64_t seen = 0;

	for (uint64_t n = 0; n < bo_log_count(log); n++) {
		if (!(bo_log_entry(log, n)->flags & flag))
			continue;
		if (++seen == k) {
			*ret = n;
			return 0;
		}
	}
	return -ENOENT;
}

static uint64_t count_with_flag(const struct bo_log *log, uint32_t flag)
{
	uint64_t seen = 0;

	for (uint64_t n = 0; n < bo_log_count(log); n++)
		seen += !!(bo_log_entry(log, n)->flags & flag);
	return seen;
}

int bo_cut_resolve(const struct bo_log *log, const char *spec, uint64_t *ret_applied,
		   struct bo_err *err)
{
	const char *arg = strchr(spec, ':');
	uint64_t n, count = bo_log_count(log);
	int r;

	if (!strcmp(spec, "start")) {
		*ret_applied = 0;
		return 0;
	}
	if (!strcmp(spec, "end")) {
		*ret_applied = count;
		return 0;
	}
	if (!arg || !arg[1])
		return bo_err_set(err, EINVAL,
				  "cut '%s': expected start, end, entry:N, mark:NAME, flush:K or "
				  "fua:K",
				  spec);
	arg++;
	if (!strncmp(spec, "mark:", 5)) {
		r = bo_log_find_mark(log, arg, &n, err);
		if (r < 0)
			return bo_err_prefix(err, "cut '%s'", spec);
		*ret_applied = n + 1;
		return 0;
	}
	if (!strncmp(spec, "entry:", 6)) {
		r = bo_parse_u64(arg, &n);
		if (r == -ERANGE)
			return bo_err_set(err, EOVERFLOW,
					  "cut '%s': '%s' is out of range (past 2^64-1)", spec,
					  arg);
		if (r < 0)
			return bo_err_set(err, EINVAL, "cut '%s': '%s' is not an entry number",
					  spec, arg);
		if (n >= count)
			return bo_err_set(err, ERANGE,
					  "cut '%s': entry %llu is past the end of the log (%llu "
					  "entries, last is %llu)",
					  spec, (unsigned long long) n, (unsigned long long) count,
					  (unsigned long long) (count ? count - 1 : 0));
		*ret_applied = n + 1;
		return 0;
	}
	if (!strncmp(spec, "flush:", 6) || !strncmp(spec, "fua:", 4)) {
		uint32_t flag = spec[0] == 'f' && spec[1] == 'l' ? BO_LOG_FLUSH : BO_LOG_FUA;
		uint64_t k;

		r = bo_parse_u64(arg, &k);
		if (r == -ERANGE)
			return bo_err_set(err, EOVERFLOW,
					  "cut '%s': '%s' is out of range (past 2^64-1)", spec,
					  arg);
		if (r < 0 || k == 0)
			return bo_err_set(err, EINVAL, "cut '%s': '%s' is not a count from 1", spec,
					  arg);
		if (nth_with_flag(log, flag, k, &n) < 0)
			return bo_err_set(err, ERANGE, "cut '%s': the log has only %llu %s entries",
					  spec, (unsigned long long) count_with_flag(log, flag),
					  flag == BO_LOG_FLUSH ? "FLUSH" : "FUA");
		*ret_applied = n + 1;
		return 0;
	}
	return bo_err_set(err, EINVAL,
			  "cut '%s': unknown kind; expected start, end, entry:N, mark:NAME, "
			  "flush:K or fua:K",
			  spec);
}

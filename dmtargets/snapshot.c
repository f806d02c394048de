// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/snapshot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dmtargets/dm.h"
#include "dmtargets/target.h"

#define TARGET "snapshot"

int bo_snap_table(uint64_t sectors, const char *origin, const char *cow, uint32_t chunk, char **ret,
		  struct bo_err *err)
{
	int r;

	if (sectors == 0)
		return bo_err_set(err, EINVAL, TARGET " table: length must be > 0 sectors");
	/* dm_exception_store_set_chunk_size() wants a power of two. */
	if (chunk == 0 || (chunk & (chunk - 1)))
		return bo_err_set(err, EINVAL,
				  TARGET " table: chunk size %" PRIu32
					 " sectors is not a power of two",
				  chunk);
	r = bo_target_check_dev(TARGET, "origin device", origin, err);
	if (r < 0)
		return r;
	r = bo_target_check_dev(TARGET, "CoW device", cow, err);
	if (r < 0)
		return r;
	/* N: the transient (non-persistent) exception store; nothing survives removal. */
	return bo_target_format(ret, err, TARGET, "0 %" PRIu64 " " TARGET " %s %s N %" PRIu32,
				sectors, origin, cow, chunk);
}

int bo_snap_status_parse(const char *params, struct bo_snap_status *ret, struct bo_err *err)
{
	static const struct {
		const char *word;
		enum bo_snap_state state;
	} words[] = {
		{"Invalid", BO_SNAP_INVALID},
		{"Overflow", BO_SNAP_OVERFLOW},
		{"Merge failed", BO_SNAP_MERGE_FAILED},
		{"Unknown", BO_SNAP_UNKNOWN},
	};
	struct bo_snap_status st = {0};
	const char *p = params, *slash;
	char used[32];

	while (*p == ' ')
		p++;
	for (size_t i = 0; i < BO_ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);

		if (!strncmp(p, words[i].word, n) && bo_target_at_end(p + n)) {
			st.state = words[i].state;
			*ret = st;
			return 0;
		}
	}
	/* "<used>/<total> <metadata>", from snapshot_status() via the store's usage(). */
	slash = strchr(p, '/');
	if (!slash || (size_t) (slash - p) >= sizeof(used))
		goto bad;
	memcpy(used, p, (size_t) (slash - p));
	used[slash - p] = '\0';
	p = slash + 1;
	if (bo_parse_u64(used, &st.used_sectors) < 0 || *p == ' ' ||
	    !bo_target_next_u64(&p, &st.total_sectors) ||
	    !bo_target_next_u64(&p, &st.metadata_sectors) || !bo_target_at_end(p))
		goto bad;
	if (st.used_sectors > st.total_sectors)
		return bo_err_set(err, EPROTO,
				  TARGET " status '%s': more sectors used than the CoW device has",
				  params);
	st.state = BO_SNAP_VALID;
	*ret = st;
	return 0;
bad:
	return bo_err_set(err, EPROTO,
			  TARGET " status '%s': expected '<used>/<total> <metadata>', 'Invalid', "
				 "'Overflow', 'Merge failed' or 'Unknown'",
			  params);
}

int bo_snap_status(const char *name, struct bo_snap_status *ret, struct bo_err *err)
{
	char params[128];
	int r;

	r = bo_dm_status_one(name, TARGET, params, sizeof(params), err);
	if (r < 0)
		return r;
	r = bo_snap_status_parse(params, ret, err);
	if (r < 0)
		return bo_err_prefix(err, "device '%s'", name);
	return 0;
}

int bo_snap_status_check(const char *name, const struct bo_snap_status *st, struct bo_err *err)
{
	switch (st->state) {
	case BO_SNAP_INVALID:
		return bo_err_set(
			err, ENOSPC,
			"snapshot '%s' is Invalid: its CoW device filled up (or failed), so "
			"the kernel dropped it; failures seen on it say nothing about the "
			"filesystem",
			name);
	case BO_SNAP_OVERFLOW:
		return bo_err_set(
			err, ENOSPC,
			"snapshot '%s' overflowed: its CoW device is full and writes to it "
			"fail",
			name);
	case BO_SNAP_MERGE_FAILED:
		return bo_err_set(err, EIO, "snapshot '%s': merge failed", name);
	case BO_SNAP_VALID:
	case BO_SNAP_UNKNOWN:
		break;
	}
	return 0;
}

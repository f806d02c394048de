// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/logwrites.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtargets/dm.h"
#include "harness/base/macro.h"
#include "dmtargets/target.h"

#define TARGET "log-writes"

/* sizeof(struct log_write_entry) in drivers/md/dm-log-writes.c: four __le64. */
#define LW_ENTRY_SIZE 32u

int bo_lw_table(uint64_t sectors, const char *dev, const char *logdev, char **ret,
		struct bo_err *err)
{
	int r;

	if (sectors == 0)
		return bo_err_set(err, EINVAL, TARGET " table: length must be > 0 sectors");
	r = bo_target_check_dev(TARGET, "data device", dev, err);
	if (r < 0)
		return r;
	r = bo_target_check_dev(TARGET, "log device", logdev, err);
	if (r < 0)
		return r;
	return bo_target_format(ret, err, TARGET, "0 %" PRIu64 " " TARGET " %s %s", sectors, dev,
				logdev);
}

/* Mark names are quoted in messages up to this many bytes, so the reason still fits. */
#define QUOTE_MAX 48
#define QUOTE(s)  QUOTE_MAX, (s), strlen(s) > QUOTE_MAX ? "..." : ""

int bo_lw_mark_check(const char *mark, unsigned sectorsize, struct bo_err *err)
{
	size_t len, max;

	if (sectorsize < 512 || (sectorsize & (sectorsize - 1)))
		return bo_err_set(err, EINVAL,
				  "mark '%.*s%s': sector size %u is not a power of two >= 512",
				  QUOTE(mark), sectorsize);
	/* log_mark() keeps kstrndup(data, sectorsize - sizeof(entry) - 1) bytes of the name. */
	max = sectorsize - LW_ENTRY_SIZE - 1;
	len = strlen(mark);
	if (len == 0)
		return bo_err_set(err, EINVAL, "mark name is empty");
	if (len > max)
		return bo_err_set(
			err, EINVAL,
			"mark '%.*s%s': %zu bytes, but a log with %u-byte sectors keeps at most "
			"%zu (the kernel would cut it silently)",
			QUOTE(mark), len, sectorsize, max);
	for (const char *p = mark; *p; p++) {
		unsigned char c = (unsigned char) *p;

		if (c == ' ')
			return bo_err_set(
				err, EINVAL,
				"mark '%.*s%s': byte %zu is a space; the kernel would split "
				"the message there",
				QUOTE(mark), (size_t) (p - mark));
		/* Quote only what comes before a control character. */
		if (c < ' ' || c == 0x7f)
			return bo_err_set(
				err, EINVAL,
				"mark '%.*s...': byte %zu (0x%02x) is a control character; "
				"the message would be split or garbled",
				(int) ((size_t) (p - mark) < QUOTE_MAX ? p - mark : QUOTE_MAX),
				mark, (size_t) (p - mark), c);
		if (c == '\\')
			return bo_err_set(
				err, EINVAL,
				"mark '%.*s%s': byte %zu is a backslash, which the kernel's "
				"message parser takes as an escape",
				QUOTE(mark), (size_t) (p - mark));
	}
	return 0;
}

int bo_lw_mark(const char *name, const char *mark, unsigned sectorsize, struct bo_err *err)
{
	_cleanup_free_ char *msg = NULL;
	int r;

	r = bo_lw_mark_check(mark, sectorsize, err);
	if (r < 0)
		return bo_err_prefix(err, "mark on '%s'", name);
	if (asprintf(&msg, "mark %s", mark) < 0) {
		msg = NULL;
		return bo_err_set(err, ENOMEM, "mark '%s' on '%s': out of memory", mark, name);
	}
	return bo_dm_message(name, msg, err);
}

int bo_lw_status_parse(const char *params, struct bo_lw_status *ret, struct bo_err *err)
{
	struct bo_lw_status st = {0};
	const char *p = params;
	char word[32];

	if (!bo_target_next_u64(&p, &st.logged_entries) ||
	    !bo_target_next_u64(&p, &st.highest_sector))
		return bo_err_set(err, EPROTO,
				  TARGET
				  " status '%s': expected '<logged entries> <highest sector>'",
				  params);
	if (!bo_target_at_end(p)) {
		if (!bo_target_next_word(&p, word, sizeof(word)) ||
		    strcmp(word, "logging_disabled") != 0)
			return bo_err_set(err, EPROTO,
					  TARGET " status '%s': unknown words after "
						 "the numbers",
					  params);
		st.logging_disabled = true;
		if (!bo_target_at_end(p))
			return bo_err_set(err, EPROTO,
					  TARGET " status '%s': unexpected words after "
						 "logging_disabled",
					  params);
	}
	*ret = st;
	return 0;
}

int bo_lw_status(const char *name, struct bo_lw_status *ret, struct bo_err *err)
{
	char params[256];
	int r;

	r = bo_dm_status_one(name, TARGET, params, sizeof(params), err);
	if (r < 0)
		return r;
	r = bo_lw_status_parse(params, ret, err);
	if (r < 0)
		return bo_err_prefix(err, "device '%s'", name);
	return 0;
}

int bo_lw_status_check(const char *name, const struct bo_lw_status *st, struct bo_err *err)
{
	if (st->logging_disabled)
		return bo_err_set(
			err, EIO,
			"log-writes device '%s' reports logging_disabled after %" PRIu64
			" entries: the log device filled up or a log write failed, so the "
			"log is incomplete and crash states built from it would be fiction",
			name, st->logged_entries);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops ops: the names of their types and of the op families, the classes of types (sync,
 * data, change, zeroing, copy, rename), and the paths an op acts on, made by hand. What the
 * workload, the checker and the listing say of an op; the model (model.c) draws and applies
 * them.
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"

static const char *const type_names[FSOPS_NTYPES] = {
	[FSOPS_CREATE] = "create",
	[FSOPS_WRITE] = "write",
	[FSOPS_APPEND] = "append",
	[FSOPS_OVERWRITE] = "overwrite",
	[FSOPS_TRUNCATE] = "truncate",
	[FSOPS_RENAME] = "rename",
	[FSOPS_LINK] = "link",
	[FSOPS_UNLINK] = "unlink",
	[FSOPS_MKDIR] = "mkdir",
	[FSOPS_RMDIR] = "rmdir",
	[FSOPS_FSYNC] = "fsync",
	[FSOPS_FDATASYNC] = "fdatasync",
	[FSOPS_SYNC] = "sync",
	[FSOPS_FSYNC_FILE] = "fsync-file",
	[FSOPS_FSYNC_DIR] = "fsync-dir",
	[FSOPS_FALLOC] = "falloc",
	[FSOPS_FALLOC_KEEP] = "falloc-keep",
	[FSOPS_PUNCH] = "punch",
	[FSOPS_ZERO] = "zero",
	[FSOPS_ZERO_KEEP] = "zero-keep",
	[FSOPS_DIO_WRITE] = "dio-write",
	[FSOPS_DSYNC_WRITE] = "dsync-write",
	[FSOPS_SYNC_WRITE] = "sync-write",
	[FSOPS_MMAP_WRITE] = "mmap-write",
	[FSOPS_SETXATTR] = "setxattr",
	[FSOPS_REMOVEXATTR] = "removexattr",
	[FSOPS_RENAME_NOREPLACE] = "rename-noreplace",
	[FSOPS_EXCHANGE] = "exchange",
	[FSOPS_COPY] = "copy",
	[FSOPS_CLONE] = "clone",
	[FSOPS_CLONE_RANGE] = "clone-range",
	[FSOPS_SYMLINK] = "symlink",
	[FSOPS_COLLAPSE] = "collapse",
	[FSOPS_INSERT] = "insert",
};

static const char *const family_names[] = {"falloc",  "direct", "dsync", "mmap",    "xattr",
					   "rename2", "copy",	"clone", "symlink", "collapse"};

bool fsops_is_sync(enum fsops_type type)
{
	return type == FSOPS_FSYNC || type == FSOPS_FDATASYNC || type == FSOPS_SYNC ||
	       type == FSOPS_FSYNC_FILE || type == FSOPS_FSYNC_DIR || type == FSOPS_DSYNC_WRITE ||
	       type == FSOPS_SYNC_WRITE || type == FSOPS_MMAP_WRITE;
}

bool fsops_is_data(enum fsops_type type)
{
	return type == FSOPS_WRITE || type == FSOPS_APPEND || type == FSOPS_OVERWRITE ||
	       type == FSOPS_DIO_WRITE || type == FSOPS_DSYNC_WRITE || type == FSOPS_SYNC_WRITE ||
	       type == FSOPS_MMAP_WRITE;
}

bool fsops_is_zeroing(enum fsops_type type)
{
	return type == FSOPS_PUNCH || type == FSOPS_ZERO || type == FSOPS_ZERO_KEEP;
}

bool fsops_is_copy(enum fsops_type type)
{
	return type == FSOPS_COPY || type == FSOPS_CLONE || type == FSOPS_CLONE_RANGE;
}

bool fsops_is_shift(enum fsops_type type)
{
	return type == FSOPS_COLLAPSE || type == FSOPS_INSERT;
}

bool fsops_is_change(enum fsops_type type)
{
	return fsops_is_data(type) || fsops_is_zeroing(type) || fsops_is_copy(type) ||
	       fsops_is_shift(type) || type == FSOPS_TRUNCATE || type == FSOPS_FALLOC ||
	       type == FSOPS_FALLOC_KEEP;
}

bool fsops_is_rename(enum fsops_type type)
{
	return type == FSOPS_RENAME || type == FSOPS_RENAME_NOREPLACE || type == FSOPS_EXCHANGE;
}

int fsops_families_parse(const char *list, unsigned *ret)
{
	const char *p = list;

	*ret = 0;
	if (!strcmp(list, "none"))
		return 0;
	if (!strcmp(list, "all")) {
		*ret = FSOPS_FAMILY_ALL;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(family_names) / sizeof(*family_names); i++)
			if (strlen(family_names[i]) == n && !strncmp(p, family_names[i], n))
				break;
		if (i == sizeof(family_names) / sizeof(*family_names))
			return -1;
		*ret |= 1u << i;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	return *ret ? 0 : -1;
}

const char *fsops_type_name(enum fsops_type type)
{
	return (unsigned) type < FSOPS_NTYPES ? type_names[type] : "?";
}

/* @str into @buf of @len bytes, cut short to fit. Paths are made by hand, not by snprintf():
 * the checker makes several a workload of a bounded run. */
static const char *put(char *buf, size_t len, const char *str)
{
	size_t n = strlen(str);

	if (len == 0)
		return buf;
	n = n < len - 1 ? n : len - 1;
	memcpy(buf, str, n);
	buf[n] = '\0';
	return buf;
}

const char *fsops_slot_path(int s, char *buf, size_t len)
{
	int d = fsops_slot_dir(s);
	char name[6] = {'d', (char) ('0' + d), '/', 'f', (char) ('0' + s % FSOPS_FILES_PER_DIR)};

	return put(buf, len, d < 0 ? name + 3 : name);
}

const char *fsops_dir_path(int d, char *buf, size_t len)
{
	return put(buf, len, (char[3]){'d', (char) ('0' + d)});
}

void fsops_op_paths(const struct fsops_op *op, char *a, char *b, size_t len)
{
	snprintf(a, len, "-");
	snprintf(b, len, "-");
	if (op->type == FSOPS_MKDIR || op->type == FSOPS_RMDIR ||
	    (op->type == FSOPS_FSYNC_DIR && op->a >= 0))
		fsops_dir_path(op->a, a, len);
	else if (op->type == FSOPS_FSYNC_DIR)
		snprintf(a, len, ".");
	else if (op->a >= 0)
		fsops_slot_path(op->a, a, len);
	if (op->b >= 0)
		fsops_slot_path(op->b, b, len);
}

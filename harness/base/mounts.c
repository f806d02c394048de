// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/mounts.h"

#include <errno.h>
#include <libmount/libmount.h>
#include <string.h>

int bo_mounts_each(int (*fn)(const struct bo_mount_entry *m, void *ctx), void *ctx,
		   struct bo_err *err)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs = NULL;
	int r = 0;

	if (!tb || !it)
		r = bo_err_set(err, ENOMEM, "reading the mount table: out of memory");
	else if ((r = mnt_table_parse_file(tb, "/proc/self/mountinfo")) < 0)
		r = bo_err_set(err, -r, "reading /proc/self/mountinfo: %s", strerror(-r));
	while (r == 0 && mnt_table_next_fs(tb, it, &fs) == 0) {
		struct bo_mount_entry m = {
			.target = mnt_fs_get_target(fs),
			.fstype = mnt_fs_get_fstype(fs),
			.source = mnt_fs_get_source(fs),
			.dev = mnt_fs_get_devno(fs),
		};

		if (m.target)
			r = fn(&m, ctx);
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

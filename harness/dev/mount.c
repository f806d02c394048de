// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/mount.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/dev/fstab.h"
#include "harness/dev/holders.h"

static inline void bo_mnt_free_contextp(struct libmnt_context **cxt)
{
	mnt_free_context(*cxt);
}

static inline void bo_mnt_unref_tablep(struct libmnt_table **tb)
{
	mnt_unref_table(*tb);
}

static struct libmnt_context *context_new(void)
{
	struct libmnt_context *cxt = mnt_new_context();

	if (!cxt)
		return NULL;
	if (mnt_context_disable_helpers(cxt, 1) < 0 || mnt_context_disable_mtab(cxt, 1) < 0) {
		mnt_free_context(cxt);
		return NULL;
	}
	return cxt;
}

/*
 * Turn libmount's outcome @rc of an operation into -errno and fill @msg with its explanation.
 * mnt_context_get_excode() is what mount(8) itself uses to explain a failure; the errno is the
 * syscall's when it was called, else libmount's own negative errno, else EINVAL (a MNT_ERR_*
 * code: no filesystem type, bad options, not mounted).
 */
static int outcome(struct libmnt_context *cxt, int rc, char *msg, size_t len)
{
	int ex, e;

	msg[0] = '\0';
	ex = mnt_context_get_excode(cxt, rc, msg, len);
	if (ex == MNT_EX_SUCCESS)
		return 0;
	if (mnt_context_syscall_called(cxt) && mnt_context_get_syscall_errno(cxt) > 0)
		e = mnt_context_get_syscall_errno(cxt);
	else
		e = rc < 0 ? -rc : EINVAL;
	if (!msg[0])
		strncpy(msg, strerror(e), len - 1);
	return -e;
}

int bo_mount(const char *source, const char *target, const char *fstype, const char *options,
	     struct bo_err *err)
{
	_cleanup_(bo_mnt_free_contextp) struct libmnt_context *cxt = context_new();
	char msg[256];
	int r;

	if (!cxt || mnt_context_set_source(cxt, source) < 0 ||
	    mnt_context_set_target(cxt, target) < 0 ||
	    (fstype && mnt_context_set_fstype(cxt, fstype) < 0) ||
	    (options && mnt_context_set_options(cxt, options) < 0))
		return bo_err_set(err, ENOMEM, "mount '%s' on '%s': out of memory", source, target);
	r = outcome(cxt, mnt_context_mount(cxt), msg, sizeof(msg));
	if (r < 0)
		return bo_err_set(err, -r, "mount '%s' on '%s' (type %s, options '%s'): %s", source,
				  target, fstype ? fstype : "auto", options ? options : "", msg);
	bo_debug(BO_DBG_MOUNT, "mounted '%s' on '%s' (type %s, options '%s')", source, target,
		 fstype ? fstype : "auto", options ? options : "");
	return 0;
}

static int umount_once(const char *target, bool lazy, char *msg, size_t len)
{
	_cleanup_(bo_mnt_free_contextp) struct libmnt_context *cxt = context_new();

	if (!cxt || mnt_context_set_target(cxt, target) < 0 ||
	    (lazy && mnt_context_enable_lazy(cxt, 1) < 0)) {
		strncpy(msg, "out of memory", len - 1);
		return -ENOMEM;
	}
	return outcome(cxt, mnt_context_umount(cxt), msg, len);
}

int bo_umount(const char *target, unsigned flags, struct bo_err *err)
{
	_cleanup_free_ char *holders = NULL;
	char msg[1280], lazy_msg[256];
	int r;

	r = umount_once(target, false, msg, sizeof(msg));
	if (r == 0) {
		bo_debug(BO_DBG_MOUNT, "unmounted '%s'", target);
		return 0;
	}
	if (r != -EBUSY)
		return bo_err_set(err, -r, "umount '%s': %s", target, msg);
	/* Who holds it, named before a lazy detach hides the paths they hold. */
	holders = bo_holders_of(target);
	if (holders && *holders) {
		size_t n = strlen(msg);

		snprintf(msg + n, sizeof(msg) - n, " (held by %s)", holders);
	}
	if (!(flags & BO_UMOUNT_DETACH_ON_FAILURE))
		return bo_err_set(err, -r, "umount '%s': %s", target, msg);
	if (umount_once(target, true, lazy_msg, sizeof(lazy_msg)) < 0)
		return bo_err_set(err, EBUSY, "umount '%s': %s; lazy detach failed too: %s", target,
				  msg, lazy_msg);
	bo_err_set(err, EBUSY,
		   "umount '%s': %s; detached lazily, so its device stays in use until the "
		   "last user lets go",
		   target, msg);
	bo_debug(BO_DBG_MOUNT, "%s", bo_err_str(err));
	return 1;
}

int bo_mount_is_mounted(const char *target, struct bo_err *err)
{
	_cleanup_(bo_mnt_unref_tablep) struct libmnt_table *tb = mnt_new_table();
	char real[PATH_MAX];
	int r;

	if (!tb)
		return bo_err_set(err, ENOMEM, "mount table: out of memory");
	r = mnt_table_parse_mtab(tb, NULL);
	if (r < 0)
		return bo_err_set(err, -r, "reading the mount table: %s", strerror(-r));
	/* Mount points are listed canonicalised. */
	if (!realpath(target, real))
		return errno == ENOENT
			       ? 0
			       : bo_err_set(err, errno, "'%s': %s", target, strerror(errno));
	return mnt_table_find_target(tb, real, MNT_ITER_BACKWARD) ? 1 : 0;
}

/* Append ",@key=@val" to the options *@m (no comma first when empty); -1 out of memory. */
static int add_option(char **m, const char *key, const char *val)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s=%s", *m, **m ? "," : "", key, val) < 0)
		return -1;
	free(*m);
	*m = n;
	return 0;
}

char *bo_mount_options_devs(enum bo_fs fs, const char *own, const struct bo_fs_devs *devs)
{
	const struct bo_fs_desc *d = bo_fs_desc(fs);
	char *m = strdup(own ? own : "");

	if (!devs || !m)
		return m;
	if (devs->journal &&
	    (!d || !d->journal_mount || add_option(&m, d->journal_mount, devs->journal) < 0))
		goto fail;
	for (size_t i = 0; devs->spans[i]; i++)
		if (!d || !d->spans_mount || add_option(&m, d->spans_mount, devs->spans[i]) < 0)
			goto fail;
	return m;
fail:
	free(m);
	return NULL;
}

int bo_mount_forget_devices(enum bo_fs fs, struct bo_err *err)
{
	struct btrfs_ioctl_vol_args all = {.fd = 0};
	int fd, r = 0;

	if (fs != BO_FS_BTRFS)
		return 0;
	/* An empty name: every device of a filesystem no mount holds (Linux 5.4). */
	fd = open("/dev/btrfs-control", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BTRFS_IOC_FORGET_DEV, &all) < 0)
		r = bo_err_set(err, errno,
			       "forgetting the btrfs devices no mount holds (/dev/btrfs-control, "
			       "BTRFS_IOC_FORGET_DEV): %s",
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fsdetect.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/dev/fstab.h"

static inline void bo_blkid_free_probep(blkid_probe *pr)
{
	if (*pr)
		blkid_free_probe(*pr);
}

int bo_fs_detect(const char *dev, char *type, size_t len, struct bo_err *err)
{
	_cleanup_(bo_blkid_free_probep) blkid_probe pr = NULL;
	const char *v = NULL;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(dev);
	if (!pr) {
		int e = errno ? errno : EIO;

		return bo_err_set(err, e, "detect filesystem on '%s': %s", dev, strerror(e));
	}
	if (blkid_probe_enable_superblocks(pr, 1) < 0 ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE) < 0 ||
	    blkid_probe_enable_partitions(pr, 0) < 0)
		return bo_err_set(err, EIO, "detect filesystem on '%s': setting up the probe", dev);
	errno = 0;
	rc = blkid_do_safeprobe(pr);
	switch (rc) {
	case 0:
		break;
	case 1:
		return bo_err_set(err, ENODATA, "detect filesystem on '%s': no signature found",
				  dev);
	case -2:
		return bo_err_set(err, ENOTUNIQ,
				  "detect filesystem on '%s': signatures of several filesystems "
				  "contradict each other",
				  dev);
	default: {
		int e = errno ? errno : EIO;

		return bo_err_set(err, e, "detect filesystem on '%s': probing failed: %s", dev,
				  strerror(e));
	}
	}
	if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) < 0 || !v)
		return bo_err_set(err, ENODATA, "detect filesystem on '%s': no TYPE in the result",
				  dev);
	if (strlen(v) >= len)
		return bo_err_set(err, ENAMETOOLONG,
				  "detect filesystem on '%s': type '%s' too long", dev, v);
	memcpy(type, v, strlen(v) + 1);
	bo_debug(BO_DBG_MOUNT, "'%s' holds %s", dev, type);
	return 0;
}

/* The ext2/3/4 super block: at byte 1024, its magic at 0x38, s_feature_compat at 0x5c
 * (fs/ext4/ext4.h). */
#define EXT_SB_OFFSET	       1024
#define EXT_SB_MAGIC	       0x38
#define EXT_SB_FEATURE_COMPAT  0x5c
#define EXT_MAGIC	       0xef53
#define EXT_COMPAT_HAS_JOURNAL 0x0004

int bo_fs_has_journal(enum bo_fs fs, const char *dev, struct bo_err *err)
{
	_cleanup_close_ int fd = -1;
	uint8_t sb[128];
	ssize_t n;

	if (!bo_fs_desc(fs))
		return bo_err_set(err, EINVAL, "journal of '%s': unknown filesystem", dev);
	if (bo_fs_desc(fs)->journal != BO_FS_JOURNAL_SUPERBLOCK)
		return bo_fs_desc(fs)->journal == BO_FS_JOURNAL_ALWAYS;
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return bo_err_set(err, errno, "reading the super block of '%s': %s", dev,
				  strerror(errno));
	n = pread(fd, sb, sizeof(sb), EXT_SB_OFFSET);
	if (n < 0)
		return bo_err_set(err, errno, "reading the super block of '%s': %s", dev,
				  strerror(errno));
	if (n < (ssize_t) sizeof(sb) || (sb[EXT_SB_MAGIC] | sb[EXT_SB_MAGIC + 1] << 8) != EXT_MAGIC)
		return bo_err_set(err, ENODATA, "'%s' has no %s super block", dev, bo_fs_name(fs));
	return !!(sb[EXT_SB_FEATURE_COMPAT] & EXT_COMPAT_HAS_JOURNAL);
}

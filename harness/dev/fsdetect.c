// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fsdetect.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <string.h>

#include "harness/base/macro.h"

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

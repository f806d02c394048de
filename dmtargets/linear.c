// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/linear.h"

#include <errno.h>
#include <inttypes.h>

#include "dmtargets/target.h"

#define TARGET "linear"

int bo_linear_table(uint64_t sectors, const char *dev, uint64_t offset, char **ret,
		    struct bo_err *err)
{
	int r;

	if (sectors == 0)
		return bo_err_set(err, EINVAL, TARGET " table: length must be > 0 sectors");
	if (offset > UINT64_MAX - sectors)
		return bo_err_set(err, EINVAL,
				  TARGET " table: offset %" PRIu64 " + %" PRIu64
					 " sectors overflows",
				  offset, sectors);
	r = bo_target_check_dev(TARGET, "device", dev, err);
	if (r < 0)
		return r;
	return bo_target_format(ret, err, TARGET, "0 %" PRIu64 " " TARGET " %s %" PRIu64, sectors,
				dev, offset);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explore_base.c — the base every crash state is a snapshot of, when it is the host base
 * (harness/basesrv.h): whether the VM's pmem device can serve, and the replay requests over
 * its port. A base replayed here is harness/replay.c's.
 */
#include "harness/explore/stages.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness/replay/basesrv.h"

/*
 * Use the host base o->host_base ("DEVICE PORT") when it fits: a block device at least as
 * big as the image (the host rounds it up to 2 MiB; a bigger one is cut to size by a linear
 * device, explore_state.c's trim_base()), with sectors no larger than the log's. (The snapshot device still
 * gets the log's sector size, from its CoW loops: device-mapper stacks the largest of its
 * devices'.) Returns 1 when it is used, 0 when the base is to be a file here.
 */
int explore_use_host_base(struct explore *x, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	char dev[PATH_MAX], port[PATH_MAX];
	uint64_t size = 0;
	int fd, ssz = 0;

	if (!o->host_base || sscanf(o->host_base, "%4095s %4095s", dev, port) != 2)
		return 0;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bo_err_set(err, errno, "host base '%s': %s", dev, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size) < 0 || ioctl(fd, BLKSSZGET, &ssz) < 0)
		size = 0;
	close(fd);
	if (size < o->image_size || ssz <= 0 || (uint64_t) ssz > bo_log_sectorsize(x->log)) {
		bo_debug(BO_DBG_RUN,
			 "host base %s not used: %" PRIu64 " bytes of %d-byte sectors, the image "
			 "is %" PRIu64 " bytes of %u",
			 dev, size, ssz, o->image_size, (unsigned) bo_log_sectorsize(x->log));
		return 0;
	}
	x->base_port = open(port, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (x->base_port < 0)
		return bo_err_set(err, errno, "host base port '%s': %s", port, strerror(errno));
	snprintf(x->base, sizeof(x->base), "%s", dev);
	snprintf(x->origin, sizeof(x->origin), "%s", dev);
	x->host_base = true;
	x->base_trim = size > o->image_size;
	return 1;
}

int explore_replay_start(struct explore *x, uint64_t applied, struct bo_err *err)
{
	int r;

	if (x->replay)
		return bo_replay_to(x->replay, applied, err);
	/* One request at a time: a state that ended before its wait leaves one answer due. */
	r = explore_replay_wait(x, err);
	if (r < 0)
		return r;
	r = bo_base_send(x->base_port, applied, err);
	if (r < 0)
		return r;
	x->base_pending = true;
	x->base_target = applied;
	return 0;
}

int explore_replay_wait(struct explore *x, struct bo_err *err)
{
	int fd, r;

	if (!x->base_pending)
		return 0;
	x->base_pending = false;
	r = bo_base_wait(x->base_port, x->base_target, err);
	if (r < 0 || !x->o->hash_image)
		return r;
	/* The snapshots read the device below any page cache; the image hash reads through
	 * it, and must not see what the host has since overwritten. */
	fd = open(x->base, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKFLSBUF, 0) < 0)
		r = bo_err_set(err, errno, "dropping the page cache of '%s': %s", x->base,
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return r;
}

void explore_replay_prefetch(struct explore *x, uint64_t applied)
{
	if (x->replay)
		bo_replay_prefetch(x->replay, applied);
}

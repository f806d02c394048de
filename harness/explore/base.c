// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * base.c — stage 2 of the check loop (stages.h): the base every crash state is a snapshot of,
 * and bringing it to a state's cut (or epoch start). Either a file here, which one replay
 * (harness/replay/replay.h) rolls forward through the log, under a loop device; or the host
 * base (harness/replay/basesrv.h), a device the host replays the log into when asked over a
 * port, while the guest swaps in the state's snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "dmtargets/linear.h"
#include "harness/base/macro.h"
#include "harness/explore/stages.h"
#include "harness/replay/basesrv.h"

/*
 * Use the host base o->host_base ("DEVICE PORT") when it fits: a block device at least as
 * big as the image (the host rounds it up to 2 MiB; a bigger one is cut to size by a linear
 * device, trim_base()), with sectors no larger than the log's. (The snapshot device still
 * gets the log's sector size, from its CoW loops: device-mapper stacks the largest of its
 * devices'.) Returns 1 when it is used, 0 when the base is to be a file here.
 */
static int use_host_base(struct explore *x, struct bo_err *err)
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

/* Cut a host base bigger than the image to its size: a linear device over its start becomes
 * the base, so that the states and their hashes are those of a device of the image's size. */
static int trim_base(struct explore *x, struct bo_err *err)
{
	char name[BO_DM_NAME_MAX], uuid[BO_DM_UUID_MAX], path[PATH_MAX];
	_cleanup_free_ char *table = NULL;
	int r;

	r = bo_dm_name(x->o->runid, "base", name, uuid, err);
	if (r >= 0)
		r = bo_linear_table(x->sectors, x->base, 0, &table, err);
	if (r >= 0)
		r = bo_dm_create(name, uuid, table, err);
	if (r >= 0)
		r = explore_keep(x, "dm", name, err);
	if (r < 0)
		return r;
	if (bo_dm_device_path(name, path, sizeof(path)) < 0)
		return bo_err_set(err, ENAMETOOLONG, "device path of '%s'", name);
	snprintf(x->base, sizeof(x->base), "%s", path);
	snprintf(x->origin, sizeof(x->origin), "%s", path);
	return 0;
}

uint64_t base_scratch(const struct bo_explore_opts *o)
{
	return o->host_base ? 0 : o->image_size;
}

int base_setup(struct explore *x, struct bo_err *err)
{
	const struct bo_explore_opts *o = x->o;
	int r, fd, host;

	x->base_port = -1;
	snprintf(x->base, sizeof(x->base), "%s/base.img", o->workdir);
	host = use_host_base(x, err);
	if (host < 0)
		return host;
	if (host) {
		r = x->base_trim ? trim_base(x, err) : 0;
		bo_debug(BO_DBG_RUN, "base: %s (host base)", x->origin);
		return r;
	}
	/* Fresh, sparse, zeroed: the device before the log's first write. */
	fd = open(x->base, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t) o->image_size) < 0) {
		r = bo_err_set(err, errno, "creating '%s': %s", x->base, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	close(fd);
	r = bo_replay_new(x->log, x->base, 0, 0, &x->replay, err);
	if (r < 0)
		return r;
	/* The replay writes the file through its page cache and the loop device reads the same
	 * cache (no direct I/O), so a snapshot sees every write replayed before it. */
	r = bo_loop_attach(x->base, o->workdir, 0, bo_log_sectorsize(x->log), &x->base_loop, err);
	if (r < 0)
		return r;
	snprintf(x->origin, sizeof(x->origin), "%s", x->base_loop.path);
	bo_debug(BO_DBG_RUN, "base: %s (replayed here)", x->origin);
	return explore_keep(x, "loop", x->base_loop.path, err);
}

void base_teardown(struct explore *x)
{
	bo_replay_free(x->replay);
	x->replay = NULL;
	if (x->base_port >= 0)
		close(x->base_port);
	x->base_port = -1;
	if (!x->host_base && x->base[0])
		unlink(x->base);
}

int base_to(struct explore *x, uint64_t applied, struct bo_err *err)
{
	int r;

	if (x->replay)
		return bo_replay_to(x->replay, applied, err);
	/* One request at a time: a state that ended before its wait leaves one answer due. */
	r = base_wait(x, err);
	if (r < 0)
		return r;
	r = bo_base_send(x->base_port, applied, err);
	if (r < 0)
		return r;
	x->base_pending = true;
	x->base_target = applied;
	return 0;
}

int base_wait(struct explore *x, struct bo_err *err)
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

void base_prefetch(struct explore *x, uint64_t applied)
{
	if (x->replay)
		bo_replay_prefetch(x->replay, applied);
}

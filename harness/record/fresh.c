// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fresh.c — a fresh filesystem per workload (recorder.h): the marks `base` and `fresh:<label>`
 * a workload asks for through the control channel.
 *
 * `base` unmounts the filesystem, marks the log, keeps a copy of the device as it is then (the
 * base) and mounts it again. `fresh:<label>` unmounts it, marks `reset:<label>`, writes back
 * the base's content of every block written since the base or the last fresh filesystem,
 * through dm-log-writes (below the fault layer), flushes, marks `fresh:<label>` and mounts the
 * filesystem again: the same filesystem, as the base left it, remounted. The writes back are
 * in the log, so the log stays a plain dm-log-writes log that any replay reproduces, and a
 * state is the base and its own workload's writes. The states between `reset:` and `fresh:`
 * (the device half way back to the base) are no crash state of any workload: explore skips
 * them (docs/crash-states.md, "A fresh filesystem per workload").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/ctl/proto.h"
#include "harness/dev/teardown.h"
#include "harness/log/tail.h"
#include "harness/record/recorder.h"
#include "harness/scenario/scenario.h"

#define COPY_CHUNK (1u << 20)

bool recorder_fresh_mark(const char *name)
{
	return !strcmp(name, "base") || !strncmp(name, "fresh:", 6);
}

/* Copy the device's image, its holes kept, to r->pristine: the base. */
static int capture(struct recorder *r, struct bo_err *err)
{
	_cleanup_close_ int in = open(r->image, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = open(r->pristine, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	_cleanup_free_ char *buf = malloc(COPY_CHUNK);
	off_t data = 0, hole;

	if (in < 0 || out < 0 || !buf || ftruncate(out, (off_t) r->o->sc->size) < 0)
		return bo_err_set(err, buf ? errno : ENOMEM, "keeping the base '%s': %s",
				  r->pristine, strerror(buf ? errno : ENOMEM));
	while ((data = lseek(in, data, SEEK_DATA)) >= 0) {
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			break;
		for (; data < hole;) {
			size_t n = (size_t) (hole - data) < COPY_CHUNK ? (size_t) (hole - data)
								       : COPY_CHUNK;
			ssize_t got = bo_pread_full(in, buf, n, (uint64_t) data);

			if (got <= 0 || bo_pwrite_full(out, buf, (size_t) got, (uint64_t) data) < 0)
				return bo_err_set(err,
						  got < 0 ? (int) -got
						  : errno ? errno
							  : EIO,
						  "keeping the base '%s': copying from '%s'",
						  r->pristine, r->image);
			data += got;
		}
	}
	if (errno != ENXIO)
		return bo_err_set(err, errno, "keeping the base: '%s': %s", r->image,
				  strerror(errno));
	r->have_base = true;
	return 0;
}

static int by_sector(const void *a, const void *b)
{
	const struct bo_logtail_range *x = a, *y = b;

	return x->sector < y->sector ? -1 : x->sector > y->sector;
}

/* The blocks the tail noted, sorted and joined, into *@ret (*@ret_n of them). */
static int changed(struct recorder *r, struct bo_logtail_range **ret, size_t *ret_n)
{
	size_t n, k = 0;
	const struct bo_logtail_range *w = bo_logtail_written(r->tail, &n);
	struct bo_logtail_range *v = n ? malloc(n * sizeof(*v)) : NULL;

	if (n && !v)
		return -ENOMEM;
	if (n)
		memcpy(v, w, n * sizeof(*v));
	if (n)
		qsort(v, n, sizeof(*v), by_sector);
	for (size_t i = 0; i < n; i++) {
		if (k && v[i].sector <= v[k - 1].sector + v[k - 1].count) {
			uint64_t end = v[i].sector + v[i].count;

			if (end > v[k - 1].sector + v[k - 1].count)
				v[k - 1].count = end - v[k - 1].sector;
			continue;
		}
		v[k++] = v[i];
	}
	*ret = v;
	*ret_n = k;
	return 0;
}

/* Write the base's content of every block changed back through log-writes, then flush. */
static int restore(struct recorder *r, struct bo_err *err)
{
	_cleanup_close_ int base = open(r->pristine, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int dev = open(r->lw_dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	_cleanup_free_ struct bo_logtail_range *v = NULL;
	void *buf = NULL;
	size_t n = 0;
	int k = 0;

	if (base < 0 || dev < 0)
		return bo_err_set(err, errno, "going back to the base: opening '%s': %s",
				  base < 0 ? r->pristine : r->lw_dev, strerror(errno));
	if (changed(r, &v, &n) < 0 || posix_memalign(&buf, 4096, COPY_CHUNK))
		return bo_err_set(err, ENOMEM, "going back to the base: out of memory");
	for (size_t i = 0; k >= 0 && i < n; i++) {
		uint64_t off = v[i].sector * r->ss, end = (v[i].sector + v[i].count) * r->ss;

		if (end > r->o->sc->size)
			end = r->o->sc->size;
		while (k >= 0 && off < end) {
			size_t len = end - off < COPY_CHUNK ? (size_t) (end - off) : COPY_CHUNK;
			/* The base's copy is as long as the device: short is an error. */
			ssize_t got = bo_pread_full(base, buf, len, off);

			if (got != (ssize_t) len)
				k = bo_err_set(
					err, got < 0 ? (int) -got : EIO,
					"going back to the base: reading %zu bytes at %" PRIu64
					" of '%s'",
					len, off, r->pristine);
			if (k >= 0 && bo_pwrite_full(dev, buf, len, off) < 0)
				k = bo_err_set(
					err, errno,
					"going back to the base: writing %zu bytes at %" PRIu64
					" of '%s': %s",
					len, off, r->lw_dev, strerror(errno));
			off += len;
		}
	}
	free(buf);
	if (k >= 0 && fdatasync(dev) < 0)
		k = bo_err_set(err, errno, "going back to the base: flushing '%s': %s", r->lw_dev,
			       strerror(errno));
	return k;
}

/* Drop what the page cache of @dev, a device a filesystem is mounted from, still holds. */
static int forget_one(const char *dev, struct bo_err *err)
{
	_cleanup_close_ int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, BLKFLSBUF, 0) < 0)
		return bo_err_set(err, errno, "dropping the cache of '%s': %s", dev,
				  strerror(errno));
	return 0;
}

/* ... of every device the workload's filesystems are made of. */
static int forget_cache(struct recorder *r, struct bo_err *err)
{
	int k = 0;

	if (!r->layout.n)
		return forget_one(r->fl_dev, err);
	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++)
		k = forget_one(r->dev[i], err);
	return k;
}

int recorder_fresh(struct recorder *r, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	bool base = !strcmp(name, "base");
	char reset[BO_CTL_NAME_MAX + 8];
	uint64_t e;
	int k;

	if (r->o->sc->cluster)
		return bo_err_set(err, EINVAL,
				  "mark '%s': a fresh filesystem under a cluster's nodes is not "
				  "taken yet (they run on it)",
				  name);
	if (!base && !r->have_base)
		return bo_err_set(err, EPROTO,
				  "mark '%s' before 'base': the filesystem every fresh one starts "
				  "from is marked first",
				  name);
	if (base && r->have_base)
		return bo_err_set(err, EPROTO, "mark 'base' twice");
	if (!base && !name[6])
		return bo_err_set(err, EINVAL, "mark 'fresh:' without a label");
	if (snprintf(reset, sizeof(reset), "reset:%s", name + 6) >= (int) sizeof(reset))
		return bo_err_set(err, E2BIG, "mark '%s': too long", name);
	/* The workload left the filesystems: they are unmounted (a file it keeps open: EBUSY). */
	for (k = 0; r->mounted > 0 && k >= 0; r->mounted -= k >= 0)
		k = bo_teardown_undo_top(r->td, err);
	if (k < 0)
		return bo_err_prefix(err,
				     "mark '%s': unmounting (does the workload keep a file "
				     "open in it, or its working directory?)",
				     name);
	if (base) {
		k = recorder_put_mark(r, name, ret_entry, err);
		if (k >= 0)
			k = capture(r, err);
	} else {
		k = recorder_put_mark(r, reset, &e, err);
		if (k >= 0)
			k = restore(r, err);
		if (k >= 0)
			k = recorder_put_mark(r, name, ret_entry, err);
		if (k >= 0)
			k = forget_cache(r, err);
	}
	/* What is written from here on is what the next reset writes back. */
	bo_logtail_track(r->tail, true);
	if (k >= 0 && r->layout.n) {
		char cwd[PATH_MAX];

		k = recorder_mount_devices(r, cwd, sizeof(cwd), err);
	} else if (k >= 0) {
		k = recorder_mount_one(r, err);
	}
	return k;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.h — several devices in one write log (docs/crash-states.md, "Several devices").
 *
 * A scenario with several devices is recorded through ONE dm-log-writes device, whose space
 * dm-linear devices carve into the scenario's devices: the log then orders every write of
 * every device, and a cut is one instant for all of them. The log says how it was carved in a
 * mark the recorder puts first, before anything is written:
 *
 *   layout:NAME=KIND@START+SECTORS[/JOURNAL][&SPANNED...],...
 *
 * e.g. "layout:data=ext4@2048+262144/log,log=raw@264192+16384": device "data", an ext4
 * filesystem from 512-byte sector 2048 on, for 262144 sectors, whose external journal is the
 * device "log"; "log", a raw device after it. The first device never starts at sector 0: an
 * entry at sector 0 belongs to no device, so a flush the kernel left unmapped closes every
 * device's epoch (never fewer than it should). "&NAME" after a filesystem's range names a raw
 * device it also spans (btrfs made over several: "layout:a=btrfs@2048+262144&b,b=raw@..."). A
 * log without the mark is one device.
 */
#ifndef BO_LOG_LAYOUT_H
#define BO_LOG_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

#define BO_LAYOUT_MARK_PREFIX "layout:"
/* Most devices a log holds. */
#define BO_LAYOUT_MAX 8
/* A device name: 1 to 16 of [a-z0-9_], starting with a letter. */
#define BO_LAYOUT_NAME_MAX 16
/* What a device holds: a filesystem's name, or "raw". */
#define BO_LAYOUT_KIND_MAX 8

struct bo_layout_dev {
	char name[BO_LAYOUT_NAME_MAX + 1];
	char kind[BO_LAYOUT_KIND_MAX + 1];
	uint64_t start;	  /* first 512-byte sector of the log's device */
	uint64_t sectors; /* 512-byte sectors */
	int journal;	  /* the device holding its external journal or log, or -1 */
	uint32_t spans;	  /* bit k: the filesystem also spans device k (btrfs over several) */
};

struct bo_layout {
	unsigned n; /* 0: the log is one device, as it always was */
	struct bo_layout_dev v[BO_LAYOUT_MAX];
};

/* Whether @name is a device name. */
bool bo_layout_name_ok(const char *name);

/* The mark of @l, "layout:...", into @buf; -ENAMETOOLONG when it does not fit. */
_must_check_ int bo_layout_format(const struct bo_layout *l, char *buf, size_t len);

/* Parse mark @mark (with its prefix) into *@ret: names, kinds, ranges ascending, apart and not
 * at sector 0, journals naming another device, spanned devices raw and spanned once. -EINVAL
 * with @err saying what is wrong. */
_must_check_ int bo_layout_parse(const char *mark, struct bo_layout *ret, struct bo_err *err);

/* The device of a log entry at block @sector of a log with @ss-byte blocks: its index, or -1
 * when no device holds it (or @l is one device). */
int bo_layout_device(const struct bo_layout *l, uint32_t ss, uint64_t sector);

/* @name as its environment variables spell it (BLACKOUT_MNT_<NAME>): upper case, into @out. */
void bo_layout_env_name(const char *name, char out[BO_LAYOUT_NAME_MAX + 1]);

/* The filesystem device @k belongs to: the one whose journal it holds or which spans it; -1
 * when none does (a filesystem's own device, a raw device of the workload's). */
int bo_layout_owner(const struct bo_layout *l, unsigned k);

/* The index of the device named @name, or -1. */
int bo_layout_find(const struct bo_layout *l, const char *name);

/* 512-byte sectors the log's device needs: past the end of the last device. */
uint64_t bo_layout_sectors(const struct bo_layout *l);

#endif

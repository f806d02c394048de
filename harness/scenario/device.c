// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device sections of a scenario file: one [device] section, or [device NAME] sections,
 * each a device of its own whose keys are read into the scenario's device fields as those of
 * [device] are and kept in sc->devices when the section ends, with its journal, a raw device
 * of the scenario. Once the file is read, the devices are laid out in the one log device
 * (harness/log/layout.h) and checked together; what the filesystems allow of recovery and
 * how small a device may be are asked here too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/dev/fs.h"
#include "harness/dev/fstab.h"
#include "harness/dev/fstool.h"
#include "harness/log/layout.h"
#include "harness/scenario/scenario_int.h"

uint64_t scenario_fs_min_size(enum bo_fs fs)
{
	return bo_fs_desc(fs)->min_size;
}

const char *bo_scenario_recovery_problem(const struct bo_scenario *sc, enum bo_recovery r,
					 char *buf, size_t len)
{
	for (size_t i = 0; i < (sc->ndevices ? sc->ndevices : 1); i++) {
		enum bo_fs fs = sc->ndevices ? sc->devices[i].fs : sc->fs;

		if ((!sc->ndevices || !sc->devices[i].raw) &&
		    bo_fs_recovery_problem(fs, r, buf, len))
			return buf;
	}
	return NULL;
}

/* The line key @name of the device section being read was given on, or 0. */
static int device_line(const struct scenario_parser *p, const char *name)
{
	return scenario_key_line(p, "device", name);
}

/* A [device] or [device NAME] section begins at the current line. */
void scenario_device_begin(struct scenario_parser *p, const char *name)
{
	struct bo_scenario *sc = p->sc;

	if (!name) {
		if (sc->ndevices)
			scenario_fail(p, EINVAL,
				      "[device]: not with [device NAME] sections: name every "
				      "device, or use one [device]");
		p->unnamed_device = true;
		return;
	}
	if (p->unnamed_device) {
		scenario_fail(p, EINVAL,
			      "[device %.40s]: not with a [device] section: name every device",
			      name);
		return;
	}
	if (!bo_layout_name_ok(name)) {
		scenario_fail(
			p, EINVAL,
			"[device %.40s]: a device's name is 1 to %d of a-z, 0-9 and _, starting "
			"with a letter",
			name, BO_LAYOUT_NAME_MAX);
		return;
	}
	for (size_t i = 0; i < sc->ndevices; i++)
		if (!strcmp(sc->devices[i].name, name)) {
			scenario_fail(p, EINVAL,
				      "[device %s]: device '%s' is named twice (first on line %d)",
				      name, name, sc->devices[i].line);
			return;
		}
	if (sc->ndevices == BO_LAYOUT_MAX) {
		scenario_fail(p, EINVAL, "[device %s]: more than %d devices", name, BO_LAYOUT_MAX);
		return;
	}
	snprintf(p->dev_name, sizeof(p->dev_name), "%s", name);
	snprintf(p->dev_label, sizeof(p->dev_label), "device %s", name);
	p->dev_line = p->lineno;
}

void scenario_device_journal(struct scenario_parser *p, const char *value)
{
	if (!p->dev_name[0])
		scenario_fail(p, EINVAL,
			      "[device] journal: an external journal is a device of its own: name "
			      "them, [device NAME]");
	else if (p->dev_journal)
		scenario_fail(p, EINVAL, "[%s] journal: given twice (first on line %d)",
			      p->dev_label, p->journal_line);
	else if (!bo_layout_name_ok(value))
		scenario_fail(p, EINVAL, "[%s] journal: bad value '%s' (a device's name)",
			      p->dev_label, value);
	else if (!(p->dev_journal = strdup(value)))
		scenario_fail(p, ENOMEM, "out of memory");
	p->journal_line = p->lineno;
}

void scenario_device_spans(struct scenario_parser *p, const char *value)
{
	char name[BO_LAYOUT_NAME_MAX + 1];
	size_t n = 0;

	if (!p->dev_name[0]) {
		scenario_fail(p, EINVAL,
			      "[device] spans: the devices a filesystem spans are devices of their "
			      "own: name them, [device NAME]");
		return;
	}
	if (p->dev_spans) {
		scenario_fail(p, EINVAL, "[%s] spans: given twice (first on line %d)", p->dev_label,
			      p->spans_line);
		return;
	}
	for (const char *v = value; *(v += strspn(v, " \t")); v += strcspn(v, " \t"), n++) {
		size_t len = strcspn(v, " \t");

		snprintf(name, sizeof(name), "%.*s", (int) len, v);
		if (len > BO_LAYOUT_NAME_MAX || !bo_layout_name_ok(name)) {
			scenario_fail(p, EINVAL, "[%s] spans: bad value '%.*s' (a device's name)",
				      p->dev_label, (int) len, v);
			return;
		}
	}
	if (n == 0)
		scenario_fail(p, EINVAL, "[%s] spans: empty (the names of raw devices)",
			      p->dev_label);
	else if (!(p->dev_spans = strdup(value)))
		scenario_fail(p, ENOMEM, "out of memory");
	p->spans_line = p->lineno;
}

/* The [device NAME] section being read ends: check it and keep it in sc->devices; the
 * device fields go back to their defaults for the next. */
int scenario_device_end(struct scenario_parser *p)
{
	struct bo_scenario *sc = p->sc;
	struct bo_device *v, d = {
				     .raw = p->dev_raw,
				     .fs = sc->fs,
				     .size = sc->size,
				     .sector_size = sc->sector_size,
				     .journal = -1,
				     .line = p->dev_line,
			     };
	int r = 0;

	if (!device_line(p, "fs"))
		r = scenario_fail_at(p, p->dev_line, "[%s] fs: required (" BO_FS_LIST " or raw)",
				     p->dev_label);
	else if (d.size % d.sector_size)
		r = scenario_invalid(p, "device", "size",
				     "%" PRIu64 " is not a multiple of sector_size %u", d.size,
				     d.sector_size);
	else if (d.size < (d.raw ? 1u << 20 : scenario_fs_min_size(d.fs)) ||
		 d.size > SCENARIO_DEV_SIZE_MAX)
		r = scenario_invalid(p, "device", "size",
				     "%" PRIu64 " bytes is outside %" PRIu64 "M..64G for %s",
				     d.size, (d.raw ? 1u << 20 : scenario_fs_min_size(d.fs)) >> 20,
				     d.raw ? "a raw device" : bo_fs_name(d.fs));
	else if (d.raw && (device_line(p, "mkfs_options") || device_line(p, "mount_options")))
		r = scenario_invalid(p, "device",
				     device_line(p, "mkfs_options") ? "mkfs_options"
								    : "mount_options",
				     "a raw device has no filesystem to make or mount");
	else if (sc->ndevices && d.sector_size != sc->devices[0].sector_size)
		r = scenario_invalid(
			p, "device", "sector_size",
			"%u, but device '%s' has %u: the devices share one log, of one block "
			"size",
			d.sector_size, sc->devices[0].name, sc->devices[0].sector_size);
	if (r < 0 || p->failed)
		return -EINVAL;
	v = reallocarray(sc->devices, sc->ndevices + 1, sizeof(*v));
	if (!v)
		return scenario_fail(p, ENOMEM, "out of memory"), -ENOMEM;
	sc->devices = v;
	d.name = strdup(p->dev_name);
	d.mkfs_options = sc->mkfs_options;
	d.mount_options = sc->mount_options;
	d.journal_name = p->dev_journal;
	d.journal_line = p->journal_line;
	d.spans_names = p->dev_spans;
	d.spans_line = p->spans_line;
	p->dev_spans = NULL;
	sc->mkfs_options = strdup("");
	sc->mount_options = strdup("");
	p->dev_journal = NULL;
	sc->devices[sc->ndevices++] = d;
	if (!d.name || !sc->mkfs_options || !sc->mount_options)
		return scenario_fail(p, ENOMEM, "out of memory"), -ENOMEM;
	/* The next device starts from the defaults. */
	sc->fs = 0;
	sc->size = 256ULL << 20;
	sc->sector_size = 4096;
	p->dev_raw = false;
	scenario_keys_forget(p, "device");
	p->dev_name[0] = '\0';
	return 0;
}

/* The index of the device named @name (@len bytes of it), or -1. */
static int device_index(const struct bo_scenario *sc, const char *name, size_t len)
{
	for (size_t k = 0; k < sc->ndevices; k++)
		if (strlen(sc->devices[k].name) == len && !strncmp(sc->devices[k].name, name, len))
			return (int) k;
	return -1;
}

/* The devices device @i's filesystem spans (its spans line) into its bitmask, each another
 * raw device of the scenario no other filesystem holds (as its journal or spanned), of at
 * least the filesystem's smallest size. Called in order: devices before @i are resolved. */
static int device_spans(struct scenario_parser *p, size_t i)
{
	struct bo_scenario *sc = p->sc;
	struct bo_device *d = &sc->devices[i];

	if (d->spans_names && (d->raw || !bo_fs_desc(d->fs)->spans_mount))
		return scenario_fail_at(p, d->spans_line,
					"[device %s] spans: %s is made on one device (btrfs spans "
					"several)",
					d->name, d->raw ? "a raw device" : bo_fs_name(d->fs));
	for (const char *v = d->spans_names ? d->spans_names : ""; *(v += strspn(v, " \t"));) {
		size_t len = strcspn(v, " \t");
		int j = device_index(sc, v, len);
		const struct bo_device *o = j >= 0 ? &sc->devices[j] : NULL;

		if (!o || j == (int) i)
			return scenario_fail_at(p, d->spans_line,
						"[device %s] spans: bad value '%.*s' (another "
						"device of the scenario)",
						d->name, (int) len, v);
		if (!o->raw)
			return scenario_fail_at(
				p, d->spans_line,
				"[device %s] spans: device '%s' must be 'fs = raw': "
				"mkfs makes %s's filesystem there",
				d->name, o->name, d->name);
		if (d->spans & (1u << j))
			return scenario_fail_at(p, d->spans_line,
						"[device %s] spans: device '%s' named twice",
						d->name, o->name);
		for (size_t k = 0; k < sc->ndevices; k++)
			if (sc->devices[k].journal == j ||
			    (k < i && (sc->devices[k].spans & (1u << j))))
				return scenario_fail_at(p, d->spans_line,
							"[device %s] spans: device '%s' is '%s''s "
							"already",
							d->name, o->name, sc->devices[k].name);
		if (o->size < bo_fs_desc(d->fs)->spans_min_size ||
		    d->size < bo_fs_desc(d->fs)->spans_min_size)
			return scenario_fail_at(p, d->spans_line,
						"[device %s] spans: device '%s' has %" PRIu64
						" bytes; each device of a %s over several wants "
						"%" PRIu64 " at least",
						d->name, o->size < d->size ? o->name : d->name,
						o->size < d->size ? o->size : d->size,
						bo_fs_name(d->fs),
						bo_fs_desc(d->fs)->spans_min_size);
		d->spans |= 1u << j;
		v += len;
	}
	return 0;
}

/* Every 1 MiB: where devices start in the log's device, the first MiB no device's. */
#define DEVICE_ALIGN 2048u

/*
 * After the last [device NAME] section: the journals, where each device lies in the one log
 * device (layout.h), and the scenario's own device fields: the log device's size, the first
 * filesystem's fs and options.
 */
int scenario_devices_finish(struct scenario_parser *p)
{
	struct bo_scenario *sc = p->sc;
	uint64_t at = DEVICE_ALIGN;

	sc->primary = -1;
	for (size_t i = 0; i < sc->ndevices; i++) {
		struct bo_device *d = &sc->devices[i];
		int j = -1;

		for (size_t k = 0; d->journal_name && k < sc->ndevices; k++)
			if (!strcmp(sc->devices[k].name, d->journal_name))
				j = (int) k;
		if (d->journal_name && (d->raw || !bo_fs_desc(d->fs)->journal_mount))
			return scenario_fail_at(
				p, d->journal_line,
				"[device %s] journal: %s has no external journal (ext4 and "
				"xfs have)",
				d->name, d->raw ? "a raw device" : bo_fs_name(d->fs));
		if (d->journal_name && (j < 0 || j == (int) i))
			return scenario_fail_at(
				p, d->journal_line,
				"[device %s] journal: bad value '%s' (another device of the "
				"scenario)",
				d->name, d->journal_name);
		if (j >= 0 && !sc->devices[j].raw)
			return scenario_fail_at(
				p, d->journal_line,
				"[device %s] journal: device '%s' must be 'fs = raw': the "
				"journal is made there by mkfs",
				d->name, d->journal_name);
		/* xfsprogs 6.1: "Log size must be at least 64MB". */
		if (j >= 0 && d->fs == BO_FS_XFS && sc->devices[j].size < (64ull << 20))
			return scenario_fail_at(
				p, d->journal_line,
				"[device %s] journal: device '%s' has %" PRIu64
				" bytes; mkfs.xfs wants an external log of at least 64M",
				d->name, d->journal_name, sc->devices[j].size);
		for (size_t k = 0; j >= 0 && k < i; k++)
			if (sc->devices[k].journal == j)
				return scenario_fail_at(
					p, d->journal_line,
					"[device %s] journal: device '%s' is the journal of "
					"'%s' already",
					d->name, d->journal_name, sc->devices[k].name);
		d->journal = j;
	}
	for (size_t i = 0; i < sc->ndevices; i++) {
		struct bo_device *d = &sc->devices[i];

		if (device_spans(p, i) < 0)
			return -EINVAL;
		d->start = at;
		at += (d->size / 512 + DEVICE_ALIGN - 1) / DEVICE_ALIGN * DEVICE_ALIGN;
		if (sc->primary < 0 && !d->raw)
			sc->primary = (int) i;
	}
	if (sc->nfaults)
		return scenario_fail_at(
			p, sc->faults[0].line,
			"[faults]: a fault plan acts on one device: not with [device NAME] "
			"sections");
	if (at * 512 > SCENARIO_DEV_SIZE_MAX)
		return scenario_fail_at(p, sc->devices[sc->ndevices - 1].line,
					"[device %s]: the devices take %" PRIu64
					" bytes in all, more than 64G",
					sc->devices[sc->ndevices - 1].name, at * 512);
	sc->size = at * 512;
	sc->sector_size = sc->devices[0].sector_size;
	if (sc->primary >= 0) {
		const struct bo_device *d = &sc->devices[sc->primary];

		sc->fs = d->fs;
		free(sc->mkfs_options);
		free(sc->mount_options);
		sc->mkfs_options = strdup(d->mkfs_options);
		sc->mount_options = strdup(d->mount_options);
		if (!sc->mkfs_options || !sc->mount_options)
			return bo_err_set(p->err, ENOMEM, "out of memory");
	}
	return 0;
}

void bo_scenario_layout(const struct bo_scenario *sc, struct bo_layout *ret)
{
	*ret = (struct bo_layout){.n = (unsigned) sc->ndevices};
	for (size_t i = 0; i < sc->ndevices; i++) {
		const struct bo_device *d = &sc->devices[i];
		struct bo_layout_dev *l = &ret->v[i];

		snprintf(l->name, sizeof(l->name), "%s", d->name);
		snprintf(l->kind, sizeof(l->kind), "%s", d->raw ? "raw" : bo_fs_name(d->fs));
		l->start = d->start;
		l->sectors = d->size / 512;
		l->journal = d->journal;
		l->spans = d->spans;
	}
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario files, read with the strict INI reader of ini.h, one line at a time (item()):
 * every key is checked as it comes, by the parser of its kind in the key table (keys.c), and
 * its line kept for later messages; the device sections are device.c's, the paths and
 * scripts paths.c's. What depends on several keys is checked once the file is read, where the
 * defaults that depend on other keys are filled in (finish()). The messages of all of them
 * name the file and the line (parser.c, which every part calls down to).
 */
#include "harness/scenario/scenario.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/scenario/builtin.h"
#include "harness/scenario/faultplan.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario_int.h"

#define MAX_FILE (1u << 20)

static const char *const sections[] = {"scenario", "device", "workload", "check",
				       "run",	   "faults", "vm",	 "node"};

/* [faults] at = TRIGGER FAULT...: the one key that may repeat, one line per switch. */
static int add_fault(struct scenario_parser *p, const char *name, const char *value)
{
	struct bo_scenario *sc = p->sc;
	struct bo_fault f = {0}, *v;
	char why[300];
	int r;

	if (strcmp(name, "at"))
		return scenario_fail(p, EINVAL,
				     "[faults]: unknown key '%s' (each line is 'at = TRIGGER "
				     "FAULT...')",
				     name);
	if (sc->nfaults == BO_FAULT_MAX)
		return scenario_fail(p, EINVAL, "[faults] at: more than %d faults", BO_FAULT_MAX);
	r = bo_fault_parse(value, &f, why, sizeof(why));
	if (r < 0)
		return scenario_fail(p, -r, "[faults] at: bad value '%s' (%s)", value, why);
	for (size_t i = 0; i < sc->nfaults; i++)
		if (!strcmp(sc->faults[i].trigger, f.trigger)) {
			bo_fault_clear(&f);
			return scenario_fail(
				p, EINVAL,
				"[faults] at: bad value '%s' (trigger already used on line %d: "
				"one switch per mark)",
				value, sc->faults[i].line);
		}
	v = realloc(sc->faults, (sc->nfaults + 1) * sizeof(*v));
	if (!v) {
		bo_fault_clear(&f);
		return scenario_fail(p, ENOMEM, "out of memory");
	}
	f.line = p->lineno;
	sc->faults = v;
	sc->faults[sc->nfaults++] = f;
	return 1;
}

/* One line of the file (ini.h): a section line, or a key of the current section. */
static int item(void *ctx, const struct bo_ini_item *it, struct bo_err *err)
{
	struct scenario_parser *p = ctx;
	bool known = false;

	p->lineno = (int) it->line;
	if (!it->key) {
		for (size_t i = 0; i < BO_ARRAY_SIZE(sections); i++)
			known |= !strcmp(sections[i], it->section);
		/* A section that ends a [device NAME] section ends its device. */
		if (p->dev_name[0] && scenario_device_end(p) < 0)
			return -EINVAL;
		p->node = -1;
		if (!known)
			scenario_fail(
				p, EINVAL,
				"unknown section '[%.80s]' (expected scenario, device, workload, "
				"check, run, faults, vm or node)",
				it->section);
		else if (!strcmp(it->section, "device"))
			scenario_device_begin(p, it->name);
		else if (!strcmp(it->section, "node"))
			scenario_node_begin(p, it->name);
		else if (it->name)
			scenario_fail(p, EINVAL, "[%s %.80s]: section [%s] takes no name",
				      it->section, it->name, it->section);
		return p->failed ? -EINVAL : 0;
	}
	if (!strcmp(it->section, "device") && !strcmp(it->key, "journal")) {
		scenario_device_journal(p, it->value);
		return p->failed ? -EINVAL : 0;
	}
	if (!strcmp(it->section, "device") && !strcmp(it->key, "spans")) {
		scenario_device_spans(p, it->value);
		return p->failed ? -EINVAL : 0;
	}
	if (!*it->section) {
		scenario_fail(p, EINVAL, "key '%s' outside of a section", it->key);
		return -EINVAL;
	}
	if (!strcmp(it->section, "faults")) {
		add_fault(p, it->key, it->value);
		return p->failed ? -EINVAL : 0;
	}
	if (!strcmp(it->section, "node")) {
		scenario_node_key(p, it->key, it->value);
		return p->failed ? -EINVAL : 0;
	}
	if (!strcmp(it->section, "check") && !strcmp(it->key, "survivors")) {
		scenario_node_survivors(p, it->value);
		return p->failed ? -EINVAL : 0;
	}
	scenario_key_read(p, it->section, it->key, it->value);
	return p->failed ? -EINVAL : 0;
}

/* The [workload] keys only builtin fsops takes, and only builtin bounded. */
static const char *const fsops_keys[] = {"keep_ops", "fsync", "families"};
static const char *const bounded_keys[] = {"length", "workloads", "sample", "fresh"};

static char *default_name(const char *origin)
{
	const char *base = strrchr(origin, '/');
	size_t n;
	char *name;

	base = base ? base + 1 : origin;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	if (n > SCENARIO_NAME_MAX)
		n = SCENARIO_NAME_MAX;
	name = n ? strndup(base, n) : strdup("scenario");
	/* Keep the name usable in run ids and paths whatever the file is called. */
	for (char *c = name; c && *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    *c))
			*c = '_';
	return name;
}

/* A builtin workload @b: its planted bug, its own checker unless another is given, the op
 * ids it keeps. */
static int finish_builtin(struct scenario_parser *p, const struct bo_builtin *b)
{
	struct bo_scenario *sc = p->sc;

	if (sc->bug && !strcmp(sc->bug, "none")) {
		free(sc->bug);
		sc->bug = NULL;
	}
	if (sc->bug && !bo_builtin_has_bug(b, sc->bug)) {
		char known[200] = "none";

		for (const char *const *q = b->bugs; *q; q++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), ", %s", *q);
		return scenario_invalid(p, "workload", "bug",
					"bad value '%s' (builtin %s plants: %s)", sc->bug, b->name,
					known);
	}
	if (!scenario_key_line(p, "check", "checker") && !sc->checker_script) {
		sc->checker = BO_CHECKER_BUILTIN;
		sc->checker_command = strdup(b->name);
		if (!sc->checker_command)
			return bo_err_set(p->err, ENOMEM, "out of memory");
	}
	if (sc->keep_ops && bo_scenario_op_ids_check(sc->keep_ops, sc->ops) < 0)
		return scenario_invalid(p, "workload", "keep_ops",
					"'%s': every op id must be from 1 to ops (%" PRIu64 ")",
					sc->keep_ops, sc->ops);
	return 0;
}

/* A command or script workload: no builtin's keys, and a checker given. */
static int finish_command(struct scenario_parser *p)
{
	const struct bo_scenario *sc = p->sc;

	if (scenario_key_line(p, "workload", "ops"))
		return scenario_invalid(p, "workload", "ops", "only builtin workloads take 'ops'");
	if (scenario_key_line(p, "workload", "bug"))
		return scenario_invalid(p, "workload", "bug", "only builtin workloads take 'bug'");
	if (!scenario_key_line(p, "check", "checker") && !sc->checker_script)
		return scenario_invalid(p, "check", "checker",
					"required with a command or script workload (a command "
					"line, a script, a builtin, or 'none' for mount and fsck "
					"checks only)");
	return 0;
}

/* The keys of one builtin workload or checker (the workload's @b, NULL for a command): with
 * that builtin only. */
static int finish_builtin_keys(struct scenario_parser *p, const struct bo_builtin *b)
{
	const struct bo_scenario *sc = p->sc;

	for (size_t i = 0; !bo_fsops_is(sc) && i < BO_ARRAY_SIZE(fsops_keys); i++)
		if (scenario_key_line(p, "workload", fsops_keys[i]))
			return scenario_invalid(p, "workload", fsops_keys[i],
						"only builtin fsops takes '%s'", fsops_keys[i]);
	for (size_t i = 0; !bo_bounded_is(sc) && i < BO_ARRAY_SIZE(bounded_keys); i++)
		if (scenario_key_line(p, "workload", bounded_keys[i]))
			return scenario_invalid(p, "workload", bounded_keys[i],
						"only builtin bounded takes '%s'", bounded_keys[i]);
	if (bo_bounded_is(sc) && !sc->length)
		return scenario_invalid(
			p, "workload", "length",
			"builtin bounded needs the length of its workloads (1, 2 or 3)");
	if (bo_bounded_is(sc) && scenario_key_line(p, "workload", "ops"))
		return scenario_invalid(
			p, "workload", "ops",
			"builtin bounded enumerates its workloads: it takes 'length', not 'ops'");
	if (bo_fsops_is(sc) || bo_bounded_is(sc)) {
		char families[128];
		struct bo_err err;

		if (bo_scenario_families(sc, families, sizeof(families), &err) < 0)
			return scenario_invalid(p, "workload", "families", "%s", err.msg);
	}
	if (scenario_key_line(p, "check", "promises") &&
	    (sc->checker != BO_CHECKER_BUILTIN ||
	     (strcmp(sc->checker_command, "fsops") && strcmp(sc->checker_command, "bounded"))))
		return scenario_invalid(p, "check", "promises",
					"only the fsops and bounded checkers take 'promises'");
	if (sc->checker == BO_CHECKER_BUILTIN && (!b || strcmp(b->name, sc->checker_command)))
		return scenario_invalid(p, "check", "checker",
					"builtin checker '%s' needs the builtin workload of that "
					"name (it re-derives the workload's operations)",
					sc->checker_command);
	return 0;
}

/* Cross-key checks and defaults that depend on other keys. */
static int finish(struct scenario_parser *p)
{
	struct bo_scenario *sc = p->sc;
	const struct bo_builtin *b = NULL;
	char why[256];
	int r;

	if (p->dev_name[0] && scenario_device_end(p) < 0)
		return -EINVAL;
	if (sc->ndevices && scenario_devices_finish(p) < 0)
		return -EINVAL;
	if (!sc->ndevices && !scenario_key_line(p, "device", "fs"))
		return scenario_invalid(p, "device", "fs", "required (" BO_FS_NAMES ")");
	if (!!sc->builtin + !!scenario_key_line(p, "workload", "command") + !!sc->workload_script !=
	    1)
		return scenario_invalid(
			p, "workload",
			sc->workload_script ? "script"
			: sc->builtin	    ? "command"
					    : "builtin",
			"exactly one of 'builtin', 'command' and 'script' is required");
	if (sc->checker_script && scenario_key_line(p, "check", "checker"))
		return scenario_invalid(p, "check", "script", "not with 'checker': one of the two");
	if (sc->checker_script)
		sc->checker = BO_CHECKER_COMMAND;
	if ((sc->cluster || p->survivors_line) && scenario_nodes_finish(p) < 0)
		return -EINVAL;
	if (p->o->host && sc->user) {
		r = scenario_user_reaches_scripts(p);
		if (r < 0)
			return r;
	}
	if (!sc->ndevices && sc->size % sc->sector_size)
		return scenario_invalid(p, "device", "size",
					"%" PRIu64 " is not a multiple of sector_size %u", sc->size,
					sc->sector_size);
	if (!sc->ndevices &&
	    (sc->size < scenario_fs_min_size(sc->fs) || sc->size > SCENARIO_DEV_SIZE_MAX))
		return scenario_invalid(p, "device", "size",
					"%" PRIu64 " bytes is outside %" PRIu64 "M..64G for %s",
					sc->size, scenario_fs_min_size(sc->fs) >> 20,
					bo_fs_name(sc->fs));
	if (bo_scenario_recovery_problem(sc, sc->recovery, why, sizeof(why)))
		return scenario_invalid(p, "check", "recovery", "%s", why);
	if (!scenario_key_line(p, "run", "log_size"))
		sc->log_size = 2 * sc->size;
	if (sc->log_size % sc->sector_size || sc->log_size < (1u << 20))
		return scenario_invalid(p, "run", "log_size",
					"%" PRIu64
					" must be at least 1M and a multiple of sector_size %u",
					sc->log_size, sc->sector_size);
	sc->workload_seed_set = scenario_key_line(p, "workload", "seed");
	if (!sc->workload_seed_set)
		sc->workload_seed = sc->seed;

	if (sc->builtin) {
		sc->workload = BO_WORKLOAD_BUILTIN;
		b = bo_builtin_find(sc->builtin);
		r = finish_builtin(p, b);
	} else {
		sc->workload = BO_WORKLOAD_COMMAND;
		r = finish_command(p);
	}
	if (r < 0 || (r = finish_builtin_keys(p, b)) < 0)
		return r;
	if (!sc->name) {
		sc->name = default_name(sc->origin);
		if (!sc->name)
			return bo_err_set(p->err, ENOMEM, "out of memory");
	}
	return 0;
}

static int set_defaults(struct bo_scenario *sc, const char *origin)
{
	sc->primary = -1;
	sc->size = 256ULL << 20;
	sc->sector_size = 4096;
	sc->ops = 200;
	sc->seed = 1;
	sc->workload_timeout = 600;
	sc->mount_timeout = 60;
	sc->fsck_timeout = 300;
	sc->checker_timeout = 120;
	sc->origin = strdup(origin);
	sc->description = strdup("");
	sc->mkfs_options = strdup("");
	sc->mount_options = strdup("");
	sc->cuts_spec = strdup("mark");
	if (!sc->origin || !sc->description || !sc->mkfs_options || !sc->mount_options ||
	    !sc->cuts_spec)
		return -ENOMEM;
	return 0;
}

int bo_scenario_parse(const char *text, size_t len, const char *origin,
		      const struct bo_scenario_opts *o, struct bo_scenario **ret,
		      struct bo_err *err)
{
	static const struct bo_scenario_opts defaults = {.host = true};
	struct bo_scenario *sc = calloc(1, sizeof(*sc));
	struct scenario_parser p = {.origin = origin,
				    .o = o ? o : &defaults,
				    .err = err,
				    .sc = sc,
				    .keys = scenario_keys,
				    .nkeys = scenario_keys_n,
				    .node = -1};
	int r;

	if (!sc || set_defaults(sc, origin) < 0 ||
	    !(sc->dir = p.o->dir ? strdup(p.o->dir) : scenario_origin_dir(origin)) ||
	    !(sc->text = malloc(len + 1))) {
		bo_scenario_free(sc);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	memcpy(sc->text, text, len);
	sc->text[len] = '\0';
	sc->text_len = len;
	r = bo_ini_parse(text, len, origin, item, &p, err);
	if (r >= 0 && !p.failed)
		r = finish(&p);
	for (size_t i = 0; i < BO_ARRAY_SIZE(p.node_devices); i++)
		free(p.node_devices[i]);
	/* a device section's journal or spans, when the parse stopped inside it */
	free(p.dev_journal);
	free(p.dev_spans);
	if (r < 0 || p.failed) {
		bo_scenario_free(sc);
		return -(err && err->errnum ? err->errnum : EINVAL);
	}
	*ret = sc;
	return 0;
}

int bo_scenario_load_opts(const char *path, const struct bo_scenario_opts *o,
			  struct bo_scenario **ret, struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t n;
	/* The user's own file, through a symlink too; a FIFO, a socket or a device is refused
	 * with what it is, never read (docs/safety.md). */
	int r = bo_input_read_path(path, BO_INPUT_FOLLOW, MAX_FILE, &buf, &n, err);

	if (r < 0) {
		(void) bo_err_prefix(err, "scenario");
		return r;
	}
	return bo_scenario_parse(buf, n, path, o, ret, err);
}

int bo_scenario_load_in(const char *dir, const struct bo_scenario_opts *o, struct bo_scenario **ret,
			struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	char path[PATH_MAX];
	size_t n;
	int r;

	if (bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dir);
	r = bo_input_read(dir, "scenario.ini", MAX_FILE, &buf, &n, err);
	if (r < 0) {
		(void) bo_err_prefix(err, "scenario");
		return r;
	}
	return bo_scenario_parse(buf, n, path, o, ret, err);
}

int bo_scenario_load(const char *path, struct bo_scenario **ret, struct bo_err *err)
{
	return bo_scenario_load_opts(path, NULL, ret, err);
}

void bo_scenario_set_seed(struct bo_scenario *sc, uint64_t seed)
{
	sc->seed = seed;
	if (!sc->workload_seed_set)
		sc->workload_seed = seed;
}

void bo_scenario_free(struct bo_scenario *sc)
{
	if (!sc)
		return;
	scenario_nodes_free(sc);
	for (size_t i = 0; i < sc->ndevices; i++) {
		free(sc->devices[i].name);
		free(sc->devices[i].mkfs_options);
		free(sc->devices[i].mount_options);
		free(sc->devices[i].journal_name);
		free(sc->devices[i].spans_names);
	}
	free(sc->devices);
	free(sc->origin);
	free(sc->text);
	free(sc->name);
	free(sc->description);
	free(sc->mkfs_options);
	free(sc->mount_options);
	free(sc->builtin);
	free(sc->command);
	free(sc->bug);
	free(sc->keep_ops);
	free(sc->families);
	free(sc->workloads);
	free(sc->sample);
	free(sc->cuts_spec);
	free(sc->checker_command);
	for (size_t i = 0; i < sc->nfaults; i++)
		bo_fault_clear(&sc->faults[i]);
	free(sc->faults);
	free(sc->workload_script);
	free(sc->checker_script);
	free(sc->user);
	free(sc->kernel);
	free(sc->kernel_tree);
	bo_strv_free(sc->files);
	for (size_t i = 0; i < sc->npaths; i++) {
		free(sc->paths[i].key);
		free(sc->paths[i].value);
	}
	free(sc->paths);
	free(sc->dir);
	free(sc);
}

int bo_scenario_set_keep_ops(struct bo_scenario *sc, const char *ids)
{
	char *v = NULL;

	if (ids && (bo_scenario_op_ids_check(ids, sc->ops) < 0 || !sc->builtin ||
		    strcmp(sc->builtin, "fsops")))
		return -EINVAL;
	if (ids && !(v = strdup(ids)))
		return -ENOMEM;
	free(sc->keep_ops);
	sc->keep_ops = v;
	return 0;
}

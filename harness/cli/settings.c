// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * settings.c — what a crash state is checked with (settings.h): one table whose rows say, for
 * each setting, its config.json key, the check option that gives it and the scenario field
 * that gives it otherwise; bo_settings_make() walks it once for every command.
 */
#include "harness/cli/settings.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/base/macro.h"

enum kind {
	S_STR,	    /* a string: char * in the scenario */
	S_FS,	    /* a filesystem's name: enum bo_fs in the scenario */
	S_U64,	    /* a number */
	S_SECONDS,  /* unsigned seconds, from the scenario only */
	S_BOOL,	    /* an option without a value, or the scenario's bool */
	S_PRESENT,  /* true when the option is given at all (whatever its value) */
	S_PERSONA,  /* enum bo_persona */
	S_RECOVERY, /* enum bo_recovery */
};

#define NONE   SIZE_MAX
#define A(f)   offsetof(struct bo_check_args, f)
#define SC(f)  offsetof(struct bo_scenario, f)
#define SET(f) offsetof(struct bo_settings, f)

static const struct row {
	const char *key; /* config.json "settings" and the error messages */
	enum kind kind;
	size_t opt; /* the option's field in struct bo_check_args, or NONE */
	size_t sc;  /* the scenario's field, or NONE */
	size_t set; /* its field in struct bo_settings */
} rows[] = {
	{"fs", S_FS, A(fs), SC(fs), SET(fs)},
	{"mount_options", S_STR, A(mopt), SC(mount_options), SET(mount_options)},
	{"cuts", S_STR, A(cuts), SC(cuts_spec), SET(cuts)},
	{"checker", S_STR, A(checker), NONE, SET(checker)}, /* else the scenario's command */
	{"size", S_U64, A(size), SC(size), SET(size)},
	{"seed", S_U64, A(seed), SC(seed), SET(seed)},
	{"workload_seed", S_U64, NONE, SC(workload_seed), SET(workload_seed)},
	{"ordered", S_BOOL, NONE, SC(ordered), SET(ordered)},
	{"persona", S_PERSONA, A(persona), SC(persona), SET(persona)},
	{"recovery", S_RECOVERY, A(recovery), SC(recovery), SET(recovery)},
	{"recovery_crashes", S_U64, A(recovery_crashes), SC(recovery_crashes),
	 SET(recovery_crashes)},
	{"witness", S_U64, A(witness), SC(witness), SET(witness)},
	{"witness_full", S_PRESENT, A(witness_mode), NONE, SET(witness_full)},
	{"reorder", S_U64, A(reorder), NONE, SET(reorder)},
	{"torn", S_BOOL, A(torn), NONE, SET(torn)},
	{"budget", S_U64, A(budget), NONE, SET(budget)},
	{"fsck_timeout", S_SECONDS, NONE, SC(fsck_timeout), SET(fsck_timeout)},
	{"checker_timeout", S_SECONDS, NONE, SC(checker_timeout), SET(checker_timeout)},
};

#define AT(base, off, type)   ((type *) ((char *) (base) + (off)))
#define AT_C(base, off, type) ((const type *) ((const char *) (base) + (off)))

/* Row @r's value from the scenario @sc, into @s. */
static void from_scenario(const struct row *r, const struct bo_scenario *sc, struct bo_settings *s)
{
	switch (r->kind) {
	case S_STR:
		*AT(s, r->set, const char *) = *AT_C(sc, r->sc, char *);
		break;
	case S_FS:
		*AT(s, r->set, const char *) = bo_fs_name(*AT_C(sc, r->sc, enum bo_fs));
		break;
	case S_U64:
		*AT(s, r->set, uint64_t) = *AT_C(sc, r->sc, uint64_t);
		break;
	case S_SECONDS:
		*AT(s, r->set, unsigned) = *AT_C(sc, r->sc, unsigned);
		break;
	case S_BOOL:
		*AT(s, r->set, bool) = *AT_C(sc, r->sc, bool);
		break;
	case S_PERSONA:
		*AT(s, r->set, enum bo_persona) = *AT_C(sc, r->sc, enum bo_persona);
		break;
	case S_RECOVERY:
		*AT(s, r->set, enum bo_recovery) = *AT_C(sc, r->sc, enum bo_recovery);
		break;
	case S_PRESENT:
		break;
	}
}

/* Row @r's value from the options @a when given, into @s. 0, or -EINVAL with @err. */
static int from_option(const struct row *r, const struct bo_check_args *a, struct bo_settings *s,
		       struct bo_err *err)
{
	const char *v;

	if (r->kind == S_BOOL) {
		*AT(s, r->set, bool) |= *AT_C(a, r->opt, bool);
		return 0;
	}
	v = *AT_C(a, r->opt, const char *);
	if (!v)
		return 0;
	switch (r->kind) {
	case S_STR:
	case S_FS:
		*AT(s, r->set, const char *) = v;
		return 0;
	case S_U64:
		return bo_parse_u64(v, AT(s, r->set, uint64_t)) < 0
			       ? bo_err_set(err, EINVAL, "%s '%s' is not a number", r->key, v)
			       : 0;
	case S_PRESENT:
		*AT(s, r->set, bool) = true;
		return 0;
	case S_PERSONA:
		return bo_persona_parse(v, AT(s, r->set, enum bo_persona)) < 0
			       ? bo_err_set(err, EINVAL, "--persona '%s': one of " BO_PERSONA_NAMES,
					    v)
			       : 0;
	case S_RECOVERY:
		return bo_recovery_from_name(v, AT(s, r->set, enum bo_recovery)) < 0
			       ? bo_err_set(err, EINVAL, "--recovery '%s': auto, mount or fsck", v)
			       : 0;
	case S_SECONDS:
	case S_BOOL:
		break;
	}
	return 0;
}

int bo_settings_make(const struct bo_check_args *a, const struct bo_scenario *sc,
		     const char *sc_checker, struct bo_settings *s, struct bo_err *err)
{
	*s = (struct bo_settings){.fsck_timeout = 300, .checker_timeout = 300};
	if (sc) {
		for (size_t i = 0; i < BO_ARRAY_SIZE(rows); i++)
			if (rows[i].sc != NONE)
				from_scenario(&rows[i], sc, s);
		s->checker = sc_checker;
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(rows); i++)
		if (rows[i].opt != NONE && from_option(&rows[i], a, s, err) < 0)
			return -EINVAL;
	/* A cluster's states are checked through their survivor sets; a witness and the crashes
	 * inside a recovery are not taken with nodes yet (docs/clusters.md). */
	if (sc && sc->cluster && (s->witness || s->recovery_crashes))
		return bo_err_set(err, EINVAL,
				  "%s: not taken with a cluster's nodes yet (docs/clusters.md)",
				  s->witness ? "witness" : "recovery_crashes");
	if (s->recovery == BO_RECOVERY_FSCK && s->fs) {
		enum bo_fs fs;

		char why[256];

		if (bo_fs_from_name(s->fs, &fs) == 0 &&
		    bo_fs_recovery_problem(fs, s->recovery, why, sizeof(why)))
			return bo_err_set(err, EINVAL, "--recovery fsck: %s", why);
	}
	/* A persona's own states when none were asked for, and its budget (persona.h). */
	{
		unsigned k = (unsigned) s->reorder;

		bo_persona_defaults(s->persona, a->reorder || a->torn, &k, &s->torn, &s->budget);
		s->reorder = k;
	}
	return 0;
}

void bo_settings_explore(const struct bo_settings *s, struct bo_explore_opts *eo)
{
	eo->fs = s->fs;
	eo->mount_options = s->mount_options ? s->mount_options : "";
	eo->cuts = s->cuts ? s->cuts : "flush";
	eo->checker = s->checker;
	eo->image_size = s->size;
	eo->seed = s->seed;
	eo->ordered = s->ordered;
	eo->persona = s->persona;
	eo->recovery = s->recovery;
	eo->recovery_crashes = (unsigned) s->recovery_crashes;
	eo->witness = (unsigned) s->witness;
	eo->witness_full = s->witness_full;
	eo->reorder_k = (unsigned) s->reorder;
	eo->torn = s->torn;
	eo->budget = s->budget;
	eo->fsck_timeout = s->fsck_timeout;
	eo->checker_timeout = s->checker_timeout;
}

/* Row @r of @s as a JSON value (NULL for a string not set: JSON null). */
static struct json_object *value(const struct row *r, const struct bo_settings *s)
{
	const char *str;

	switch (r->kind) {
	case S_STR:
	case S_FS:
		str = *AT_C(s, r->set, const char *);
		return str ? json_object_new_string(str) : NULL;
	case S_U64:
		return json_object_new_uint64(*AT_C(s, r->set, uint64_t));
	case S_SECONDS:
		return json_object_new_uint64(*AT_C(s, r->set, unsigned));
	case S_BOOL:
	case S_PRESENT:
		return json_object_new_boolean(*AT_C(s, r->set, bool));
	case S_PERSONA:
		return json_object_new_string(bo_persona_name(*AT_C(s, r->set, enum bo_persona)));
	case S_RECOVERY:
		return json_object_new_string(bo_recovery_name(*AT_C(s, r->set, enum bo_recovery)));
	}
	return NULL;
}

struct json_object *bo_settings_json(const struct bo_settings *s)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < BO_ARRAY_SIZE(rows); i++) {
		struct json_object *v = value(&rows[i], s);
		/* A string not set is null; any other value missing is memory that was not. */
		bool oom = !v && rows[i].kind != S_STR && rows[i].kind != S_FS;

		if (oom || json_object_object_add(o, rows[i].key, v) < 0) {
			json_object_put(v);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

int bo_settings_config(struct json_object *cfg, const struct bo_opt *t, size_t n, const void *args,
		       const struct bo_settings *s)
{
	struct json_object *opt = json_object_new_object(), *set = bo_settings_json(s);

	if (!opt || !set) {
		json_object_put(opt);
		json_object_put(set);
		return -ENOMEM;
	}
	bo_opts_to_config(t, n, args, opt);
	json_object_object_add(cfg, "options", opt);
	json_object_object_add(cfg, "settings", set);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/record/faultrun.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtargets/dm.h"
#include "harness/base/macro.h"

/* Acked op ids listed per fault in the outcome record; the count is always complete. */
#define LIST_MAX 32

struct step {
	const struct bo_fault *f;
	char *table; /* flakey table to load */
	char *mark;  /* fault:<n>:<what> */
	bool fired;
	uint64_t trigger_entry, entry; /* of the trigger mark and of the fault mark */
	uint64_t issued, acked;	       /* ops issued / acked after it, until the next switch */
	uint64_t acked_ids[LIST_MAX];
};

struct bo_faultrun {
	struct bo_faultrun_config cfg;
	struct step *steps;
	size_t n;
	struct step *current; /* the fault in effect, or NULL */
};

/* "FILE:LINE: [faults] at: " in front of @err. */
static int at_line(const struct bo_faultrun *fr, const struct bo_fault *f, struct bo_err *err)
{
	return bo_err_prefix(err, "%s:%d: [faults] at", fr->cfg.sc->origin, f->line);
}

int bo_faultrun_new(const struct bo_faultrun_config *cfg, struct bo_faultrun **ret,
		    struct bo_err *err)
{
	struct bo_faultrun *fr = calloc(1, sizeof(*fr));
	int r = 0;

	if (!fr || !(fr->steps = calloc(cfg->sc->nfaults + 1, sizeof(*fr->steps)))) {
		free(fr);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	fr->cfg = *cfg;
	for (size_t i = 0; i < cfg->sc->nfaults && r >= 0; i++) {
		const struct bo_fault *f = &cfg->sc->faults[i];
		/* "Always down" (up 0 s, down 1 s): the fault holds from the switch until the
		 * next one, whatever the time; `up` is "always up". */
		struct bo_flakey fl = {
			.dev = cfg->below,
			.up_interval = f->up ? 1 : 0,
			.down_interval = f->up ? 0 : 1,
			.drop_writes = f->drop_writes,
			.error_writes = f->error_writes,
			.error_reads = f->error_reads,
			.corrupt_bio_byte = f->corrupt_bio_byte,
			.corrupt_nth_byte = f->corrupt_nth_byte,
			.corrupt_direction = f->corrupt_direction,
			.corrupt_value = f->corrupt_value,
			.corrupt_flags = f->corrupt_flags,
			.random_read_corrupt = f->random_read_corrupt,
			.random_write_corrupt = f->random_write_corrupt,
		};
		struct step *s = &fr->steps[fr->n++];

		s->f = f;
		r = bo_flakey_table(&fl, cfg->sectors, cfg->caps, &s->table, err);
		if (r < 0) {
			at_line(fr, f, err);
			break;
		}
		if (bo_fault_mark_name(f, (unsigned) i + 1, &s->mark) < 0)
			r = bo_err_set(err, ENOMEM, "out of memory");
	}
	if (r < 0) {
		bo_faultrun_free(fr);
		return r;
	}
	*ret = fr;
	return 0;
}

void bo_faultrun_free(struct bo_faultrun *fr)
{
	if (!fr)
		return;
	for (size_t i = 0; i < fr->n; i++) {
		free(fr->steps[i].table);
		free(fr->steps[i].mark);
	}
	free(fr->steps);
	free(fr);
}

/* Count an issue:/ack: mark into the reaction to the fault in effect. */
static void count(struct bo_faultrun *fr, const char *name)
{
	struct step *s = fr->current;
	uint64_t id;

	if (!s)
		return;
	if (!strncmp(name, "issue:", 6)) {
		s->issued++;
	} else if (!strncmp(name, "ack:", 4)) {
		if (s->acked < LIST_MAX && bo_parse_u64(name + 4, &id) == 0)
			s->acked_ids[s->acked] = id;
		s->acked++;
	}
}

/* Load, suspend (noflush, no lockfs), resume; then read the live table back. */
static int switch_table(struct bo_faultrun *fr, struct step *s, struct bo_err *err)
{
	const char *name = fr->cfg.flakey;
	struct bo_flakey live;
	char dev[64];
	int r;

	r = bo_dm_load(name, s->table, err);
	if (r < 0)
		return r;
	r = bo_dm_suspend(name, BO_DM_SUSPEND_POWERCUT, err);
	if (r < 0)
		return r;
	r = bo_dm_resume(name, err);
	if (r < 0)
		return r;
	/* A table that silently did not go live would make the whole plan fiction. */
	r = bo_flakey_live(name, &live, dev, sizeof(dev), err);
	if (r < 0)
		return r;
	if (live.drop_writes != s->f->drop_writes || live.error_writes != s->f->error_writes ||
	    live.error_reads != s->f->error_reads ||
	    live.corrupt_bio_byte != s->f->corrupt_bio_byte ||
	    live.random_read_corrupt != s->f->random_read_corrupt ||
	    live.random_write_corrupt != s->f->random_write_corrupt ||
	    (live.up_interval == 0) == s->f->up)
		return bo_err_set(err, EPROTO, "flakey '%s': the live table is not '%s'", name,
				  s->table);
	return 0;
}

int bo_faultrun_on_mark(struct bo_faultrun *fr, const char *name, uint64_t entry,
			struct json_object **ret_record, struct bo_err *err)
{
	struct json_object *o;
	struct step *s = NULL;
	int r;

	*ret_record = NULL;
	count(fr, name);
	for (size_t i = 0; i < fr->n && !s; i++)
		if (!strcmp(fr->steps[i].f->trigger, name))
			s = &fr->steps[i];
	if (!s)
		return 0;
	r = switch_table(fr, s, err);
	if (r >= 0)
		r = fr->cfg.mark(fr->cfg.ctx, s->mark, &s->entry, err);
	if (r < 0)
		return at_line(fr, s->f, err);
	s->fired = true;
	s->trigger_entry = entry;
	fr->current = s;
	bo_debug(BO_DBG_RUN, "fault: '%s' at '%s' (entry %" PRIu64 "), mark '%s' at %" PRIu64,
		 s->f->what, name, entry, s->mark, s->entry);
	o = json_object_new_object();
	if (o) {
		json_object_object_add(o, "fault", json_object_new_string(s->f->what));
		json_object_object_add(o, "trigger", json_object_new_string(name));
		json_object_object_add(o, "trigger_entry", json_object_new_uint64(entry));
		json_object_object_add(o, "mark", json_object_new_string(s->mark));
		json_object_object_add(o, "entry", json_object_new_uint64(s->entry));
		json_object_object_add(o, "table", json_object_new_string(s->table));
		json_object_object_add(o, "line", json_object_new_int(s->f->line));
	}
	*ret_record = o;
	return 0;
}

bool bo_faultrun_fired(const struct bo_faultrun *fr)
{
	return fr && fr->current;
}

struct json_object *bo_faultrun_outcome(const struct bo_faultrun *fr, const char *how, int status)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	json_object_object_add(o, "workload", json_object_new_string(how));
	json_object_object_add(o, "exit_status", json_object_new_int(status));
	for (size_t i = 0; i < fr->n; i++) {
		const struct step *s = &fr->steps[i];
		struct json_object *f = json_object_new_object(), *ids = json_object_new_array();

		if (!f || !ids) {
			json_object_put(f);
			json_object_put(ids);
			continue;
		}
		json_object_object_add(f, "trigger", json_object_new_string(s->f->trigger));
		json_object_object_add(f, "fault", json_object_new_string(s->f->what));
		json_object_object_add(f, "fired", json_object_new_boolean(s->fired));
		if (s->fired)
			json_object_object_add(f, "entry", json_object_new_uint64(s->entry));
		json_object_object_add(f, "issued_after", json_object_new_uint64(s->issued));
		json_object_object_add(f, "acked_after", json_object_new_uint64(s->acked));
		for (uint64_t k = 0; k < s->acked && k < LIST_MAX; k++)
			json_object_array_add(ids, json_object_new_uint64(s->acked_ids[k]));
		json_object_object_add(f, "acked_after_ids", ids);
		json_object_array_add(arr, f);
	}
	json_object_object_add(o, "faults", arr);
	return o;
}

int bo_faultrun_check_fired(const struct bo_faultrun *fr, struct bo_err *err)
{
	for (size_t i = 0; fr && i < fr->n; i++)
		if (!fr->steps[i].fired)
			return bo_err_set(
				err, ENOENT,
				"%s:%d: [faults] at: the trigger '%s' never reached the log, "
				"so the fault '%s' never went live: the plan did not run",
				fr->cfg.sc->origin, fr->steps[i].f->line, fr->steps[i].f->trigger,
				fr->steps[i].f->what);
	return 0;
}

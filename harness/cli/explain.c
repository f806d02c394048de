// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout explain — the audit diary of a failed run, read from its results directory alone:
 * the symptom (the state's record), the evidence gathered for it (mount error, fsck lines,
 * the missing ops and the log entries that announced them, the kernel messages of that state,
 * the nearest flush/FUA before the cut) and the next command to run.
 *
 * blackout reproduce — re-run one state of a results directory in a fresh VM, with the
 * configuration the results record, and say whether its class reproduced.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/cleanup.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/vmrun.h"
#include "harness/results/stream.h"
#include "harness/log/log.h"
#include "harness/scenario/scenario.h"
#include "harness/results/summary.h"

/* Lines of a by-product shown in the text form; --json carries them whole. */
#define SHOW_LINES 12

struct diary {
	const char *dir;
	struct json_object *summary; /* summary.json */
	struct json_object *states;  /* array: the "state" records of stream.jsonl, in order */
	struct json_object *aliases; /* array: its "alias" records */
	struct json_object *state;   /* the one explained (borrowed from states) */
	struct json_object *out;     /* what --json prints */
	struct bo_log *log;	     /* write.log, or NULL without one */
	struct bo_scenario *sc;	     /* scenario.ini, or NULL */
	uint64_t seed;		     /* the run's seed (config.json) */
};

/* The state and alias records of stream.jsonl, in order. */
static int read_stream(struct diary *d, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int r;

	d->states = json_object_new_array();
	d->aliases = json_object_new_array();
	if (!d->states || !d->aliases)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_stream_open(d->dir, &st, err);
	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0)
		if (bo_stream_is_state(&rec))
			json_object_array_add(rec.alias_of ? d->aliases : d->states,
					      json_object_get(rec.o));
	bo_stream_free(st);
	return r;
}

static int load(struct diary *d, struct bo_err *err)
{
	char path[PATH_MAX];
	struct json_object *cfg, *run, *seed;
	struct bo_summary sm;
	struct stat st;
	int r;

	if (stat(d->dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return bo_err_set(err, ENOTDIR, "'%s' is not a results directory", d->dir);
	r = bo_summary_read(d->dir, &sm, &d->summary, err);
	if (r < 0)
		return r == -EBADMSG ? bo_err_prefix(err, "'%s'", d->dir) : r;
	r = read_stream(d, err);
	if (r < 0)
		return r;
	if (bo_pathf(path, sizeof(path), "%s/write.log", d->dir) == 0 && access(path, F_OK) == 0) {
		r = bo_log_open(path, 0, &d->log, err);
		if (r < 0)
			return r;
	}
	if (bo_pathf(path, sizeof(path), "%s/scenario.ini", d->dir) == 0 &&
	    access(path, F_OK) == 0) {
		r = bo_scenario_load(path, &d->sc, err);
		if (r < 0)
			return r;
		d->seed = d->sc->seed;
	}
	cfg = bo_pathf(path, sizeof(path), "%s/config.json", d->dir) == 0
		      ? json_object_from_file(path)
		      : NULL;
	if (cfg && json_object_object_get_ex(cfg, "run", &run) &&
	    json_object_object_get_ex(run, "seed", &seed)) {
		d->seed = json_object_get_uint64(seed);
		if (d->sc)
			bo_scenario_set_seed(d->sc, d->seed);
	}
	json_object_put(cfg);
	return 0;
}

/* The state record named @id, or the first one that is not consistent. An alias (a state
 * not checked again: same image and op sets as an earlier one) stands for that one. */
static struct json_object *find_state(const struct diary *d, const char *id)
{
	for (size_t i = 0; i < json_object_array_length(d->states); i++) {
		struct json_object *o = json_object_array_get_idx(d->states, i);

		if (id ? !strcmp(bo_json_str(o, "state"), id)
		       : !!strcmp(bo_json_str(o, "class"), "consistent"))
			return o;
	}
	for (size_t i = 0; id && i < json_object_array_length(d->aliases); i++) {
		struct json_object *o = json_object_array_get_idx(d->aliases, i);

		if (!strcmp(bo_json_str(o, "state"), id) &&
		    strcmp(bo_json_str(o, "alias_of"), id)) {
			fprintf(stderr, "blackout: state %s is an alias of %s: explaining %s\n", id,
				bo_json_str(o, "alias_of"), bo_json_str(o, "alias_of"));
			return find_state(d, bo_json_str(o, "alias_of"));
		}
	}
	return NULL;
}

/* A by-product of the state: its text (NULL when absent). */
static char *byproduct(const struct diary *d, const char *id, const char *name)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/states/%s/%s", d->dir, id, name);
	_cleanup_fclose_ FILE *f = NULL;
	char *buf = NULL;
	size_t cap = 0;

	if (n < 0 || (size_t) n >= sizeof(path) || !(f = fopen(path, "re")))
		return NULL;
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}

/* The log entry of mark @name, as "entry N" into @o under @key. */
static bool mark_entry(const struct diary *d, const char *name, uint64_t *ret)
{
	return d->log && bo_log_find_mark(d->log, name, ret, NULL) >= 0;
}

/* What blackout-fsops says op @id is ("17 write f3 - ino=..."), or NULL. */
static char *fsops_describe(const struct diary *d, uint64_t id)
{
	_cleanup_free_ char *cmd = NULL;
	char line[512];
	char *ret = NULL;
	FILE *f;

	if (!d->sc || !d->sc->builtin || strcmp(d->sc->builtin, "fsops"))
		return NULL;
	if (asprintf(&cmd, "'%s/blackout-fsops' list --seed %" PRIu64 " --ops %" PRIu64 "%s%s",
		     bo_libexec_dir(), d->sc->workload_seed, d->sc->ops,
		     d->sc->keep_ops ? " --keep " : "", d->sc->keep_ops ? d->sc->keep_ops : "") < 0)
		return NULL;
	f = popen(cmd, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (!ret && strtoull(line, NULL, 10) == id) {
			line[strcspn(line, "\n")] = '\0';
			ret = strdup(line);
		}
	pclose(f);
	return ret;
}

/* Each missing op: the entries of its issue and ack marks and, for fsops, what it was. */
static struct json_object *ops_evidence(const struct diary *d, struct json_object *ids)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < json_object_array_length(ids); i++) {
		uint64_t id = json_object_get_uint64(json_object_array_get_idx(ids, i)), e;
		struct json_object *o = json_object_new_object();
		char name[64];
		_cleanup_free_ char *what = fsops_describe(d, id);

		json_object_object_add(o, "op", json_object_new_uint64(id));
		snprintf(name, sizeof(name), "issue:%" PRIu64, id);
		if (mark_entry(d, name, &e))
			json_object_object_add(o, "issue_entry", json_object_new_uint64(e));
		snprintf(name, sizeof(name), "ack:%" PRIu64, id);
		if (mark_entry(d, name, &e))
			json_object_object_add(o, "ack_entry", json_object_new_uint64(e));
		if (what)
			json_object_object_add(o, "op_is", json_object_new_string(what));
		json_object_array_add(a, o);
	}
	return a;
}

/* The last entry with @flag among the first @cut entries, and the last mark. */
static void log_context(const struct diary *d, uint64_t cut, struct json_object *ev)
{
	int64_t flush = -1, fua = -1, mark = -1;

	if (!d->log || cut > bo_log_count(d->log))
		return;
	for (uint64_t n = cut; n-- > 0 && (flush < 0 || fua < 0 || mark < 0);) {
		const struct bo_log_entry *e = bo_log_entry(d->log, n);

		if (flush < 0 && (e->flags & BO_LOG_FLUSH))
			flush = (int64_t) n;
		if (fua < 0 && (e->flags & BO_LOG_FUA))
			fua = (int64_t) n;
		if (mark < 0 && (e->flags & BO_LOG_MARK))
			mark = (int64_t) n;
	}
	json_object_object_add(ev, "log_entries", json_object_new_uint64(bo_log_count(d->log)));
	if (flush >= 0)
		json_object_object_add(ev, "last_flush_entry", json_object_new_int64(flush));
	if (fua >= 0)
		json_object_object_add(ev, "last_fua_entry", json_object_new_int64(fua));
	if (mark >= 0) {
		json_object_object_add(ev, "last_mark_entry", json_object_new_int64(mark));
		json_object_object_add(
			ev, "last_mark",
			json_object_new_string(bo_log_mark_name(d->log, (uint64_t) mark)));
	}
}

static void add_text(struct json_object *o, const char *key, char *text)
{
	if (text)
		json_object_object_add(o, key, json_object_new_string(text));
	free(text);
}

/* Gather the diary of state record @st into d->out. */
static void gather(struct diary *d, struct json_object *st)
{
	static const char *const opkeys[] = {"lost", "wrong_content", "phantom", "unordered"};
	struct json_object *ev = json_object_new_object(), *next = json_object_new_array(), *v;
	const char *id = bo_json_str(st, "state");
	char cmd[PATH_MAX + 256];

	json_object_object_add(d->out, "state", json_object_get(st));
	add_text(ev, "mount_error", byproduct(d, id, "mount.err"));
	add_text(ev, "fsck", byproduct(d, id, "fsck.out"));
	add_text(ev, "checker", byproduct(d, id, "checker.out"));
	add_text(ev, "dmesg", byproduct(d, id, "dmesg.txt"));
	for (size_t i = 0; i < BO_ARRAY_SIZE(opkeys); i++)
		if (json_object_object_get_ex(st, opkeys[i], &v))
			json_object_object_add(ev, opkeys[i], ops_evidence(d, v));
	if (json_object_object_get_ex(st, "cut", &v))
		log_context(d, json_object_get_uint64(v), ev);
	json_object_object_add(d->out, "evidence", ev);
	snprintf(cmd, sizeof(cmd), "blackout reproduce '%s' %s", d->dir, id);
	json_object_array_add(next, json_object_new_string(cmd));
	if (d->sc) {
		snprintf(cmd, sizeof(cmd), "blackout shrink '%s'", d->dir);
		json_object_array_add(next, json_object_new_string(cmd));
	}
	snprintf(cmd, sizeof(cmd), "blackout inspect '%s/write.log'", d->dir);
	json_object_array_add(next, json_object_new_string(cmd));
	json_object_object_add(d->out, "next", next);
}

/* Up to SHOW_LINES lines of @text, indented. */
static void show(const char *title, const char *text)
{
	unsigned n = 0;

	if (!text || !*text)
		return;
	printf("  %s:\n", title);
	while (*text && n < SHOW_LINES) {
		size_t len = strcspn(text, "\n");

		printf("    %.*s\n", (int) len, text);
		text += len + (text[len] == '\n');
		n++;
	}
	if (*text)
		printf("    ... (%s)\n", "more in the state's directory");
}

static void print_text(const struct diary *d)
{
	struct json_object *st, *ev, *v, *x, *counts;
	uint64_t n;
	static const char *const opkeys[] = {"lost", "wrong_content", "phantom", "unordered"};

	printf("run: %s\nverdict: %s", d->dir, bo_json_str(d->summary, "verdict"));
	if (json_object_object_get_ex(d->summary, "counts", &counts)) {
		const char *sep = " (";

		json_object_object_foreach(counts, k, c) if (json_object_get_uint64(c))
		{
			printf("%s%s %" PRIu64, sep, k, json_object_get_uint64(c));
			sep = ", ";
		}
		if (strcmp(sep, " ("))
			putchar(')');
	}
	putchar('\n');
	if (json_object_object_get_ex(d->summary, "first_state", &x)) {
		json_object_object_foreach(x, k, c) if (strcmp(k, "consistent"))
			printf("first %s state: %s\n", k, json_object_get_string(c));
	}
	if (bo_json_str(d->summary, "error"))
		printf("run error: %s\n", bo_json_str(d->summary, "error"));
	if (!json_object_object_get_ex(d->out, "state", &st)) {
		puts("no failing state: nothing to explain");
		return;
	}
	printf("\nsymptom: state %s (cut after %" PRIu64 " entries) is %s\n",
	       bo_json_str(st, "state"),
	       json_object_object_get_ex(st, "cut", &v) ? json_object_get_uint64(v) : 0,
	       bo_json_str(st, "class"));
	printf("  mounted: %s, fsck: %s, checker: %s\n",
	       json_object_object_get_ex(st, "mounted", &v) && json_object_get_boolean(v) ? "yes"
											  : "no",
	       bo_json_str(st, "fsck") ? bo_json_str(st, "fsck") : "-",
	       bo_json_str(st, "checker") ? bo_json_str(st, "checker") : "none");
	if (bo_json_str(st, "error"))
		printf("  error: %s\n", bo_json_str(st, "error"));
	if (bo_json_str(st, "checker_problem"))
		printf("  checker problem: %s\n", bo_json_str(st, "checker_problem"));
	json_object_object_get_ex(d->out, "evidence", &ev);
	puts("\nevidence:");
	show("mount error", bo_json_str(ev, "mount_error"));
	show("fsck", bo_json_str(ev, "fsck"));
	for (size_t i = 0; i < BO_ARRAY_SIZE(opkeys); i++) {
		if (!json_object_object_get_ex(ev, opkeys[i], &v))
			continue;
		printf("  %s ops:\n", opkeys[i]);
		for (size_t j = 0; j < json_object_array_length(v); j++) {
			struct json_object *o = json_object_array_get_idx(v, j);
			const char *is = bo_json_str(o, "op_is");
			uint64_t op;

			if (bo_json_u64(o, "op", &op))
				printf("    op %" PRIu64, op);
			else
				printf("    op ?");
			if (is)
				printf(" (%s)", is + strspn(is, "0123456789 "));
			if (json_object_object_get_ex(o, "issue_entry", &x))
				printf(": issued at entry %s", json_object_get_string(x));
			if (json_object_object_get_ex(o, "ack_entry", &x))
				printf(", acked at entry %s", json_object_get_string(x));
			putchar('\n');
		}
	}
	show("checker output", bo_json_str(ev, "checker"));
	show("kernel messages of this state", bo_json_str(ev, "dmesg"));
	if (json_object_object_get_ex(ev, "log_entries", &v)) {
		printf("  write log: %s entries;", json_object_get_string(v));
		if (json_object_object_get_ex(ev, "last_flush_entry", &x))
			printf(" last flush before the cut: entry %s;", json_object_get_string(x));
		else
			printf(" no flush before the cut;");
		if (json_object_object_get_ex(ev, "last_fua_entry", &x))
			printf(" last FUA: entry %s;", json_object_get_string(x));
		if (bo_json_str(ev, "last_mark") && bo_json_u64(ev, "last_mark_entry", &n))
			printf(" last mark: '%s' (entry %" PRIu64 ")", bo_json_str(ev, "last_mark"),
			       n);
		putchar('\n');
	}
	puts("\nnext:");
	if (json_object_object_get_ex(d->out, "next", &v))
		for (size_t j = 0; j < json_object_array_length(v); j++)
			printf("  %s\n", json_object_get_string(json_object_array_get_idx(v, j)));
}

static void explain_help(void)
{
	puts("usage: blackout explain RESULTS [STATE] [--json]\n\n"
	     "Tell the story of a failing state from the results directory alone: its record\n"
	     "(the symptom), the evidence (mount error, fsck output, the missing ops with the log\n"
	     "entries that issued and acknowledged them, the kernel messages of that state, the\n"
	     "last flush and FUA before the cut) and the next command to run. Without STATE:\n"
	     "an overview and the first failing state.\n\n"
	     "  --json   print one JSON object instead\n\n"
	     "Exit status: 0 explained (or nothing failed), 2 usage, 3 unreadable results.");
}

int bo_cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	struct diary d = {0};
	struct bo_err err = {0};
	const char *id = NULL;
	bool json = false;
	int c, ret = BO_EXIT_HARNESS;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			explain_help();
			return BO_EXIT_OK;
		}
		if (c != 'j')
			return bo_cli_usage_error("explain", "bad option");
		json = true;
	}
	if (optind >= argc || argc - optind > 2)
		return bo_cli_usage_error("explain", "expected RESULTS [STATE]");
	d.dir = argv[optind];
	id = argc - optind == 2 ? argv[optind + 1] : NULL;
	if (load(&d, &err) < 0) {
		bo_cli_error("explain: %s", bo_err_str(&err));
		goto out;
	}
	d.out = json_object_new_object();
	if (!d.out)
		goto out;
	json_object_object_add(d.out, "results", json_object_new_string(d.dir));
	json_object_object_add(d.out, "summary", json_object_get(d.summary));
	d.state = find_state(&d, id);
	if (id && !d.state) {
		bo_cli_error("explain: '%s/stream.jsonl' has no record of state '%s'", d.dir, id);
		goto out;
	}
	if (d.state)
		gather(&d, d.state);
	if (json)
		puts(json_object_to_json_string_ext(d.out, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		print_text(&d);
	ret = fflush(stdout) == 0 ? BO_EXIT_OK : BO_EXIT_HARNESS;
out:
	json_object_put(d.out);
	json_object_put(d.summary);
	json_object_put(d.states);
	json_object_put(d.aliases);
	bo_log_free(d.log);
	bo_scenario_free(d.sc);
	return ret;
}

static void reproduce_help(void)
{
	puts("usage: blackout reproduce RESULTS STATE [VM OPTIONS]\n\n"
	     "Re-check one state of a results directory from its saved write.log in a fresh VM,\n"
	     "with the configuration the results record (scenario.ini and the run's seed, or\n"
	     "the options of the check), and compare its class with the recorded one. The new\n"
	     "results go to RESULTS/reproduce/<run-id>/. states/<id>/repro.sh runs this.\n\n"
	     "Exit status: 0 the class reproduced, 1 it did not, 3 harness error.");
}

int bo_cmd_reproduce(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		VM_OPTIONS,
		{},
	};
	struct diary d = {0};
	struct bo_err err = {0};
	struct vm_args v = {0};
	char log[PATH_MAX], scen[PATH_MAX], parent[PATH_MAX], path[PATH_MAX];
	char seed_s[32];
	char *cargv[48];
	const char *cls;
	struct json_object *cfg = NULL, *opt;
	int c, n = 0, ret = BO_EXIT_HARNESS;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			reproduce_help();
			return BO_EXIT_OK;
		}
		if (bo_cli_vm_option(c, &v) <= 0)
			return bo_cli_usage_error("reproduce", "bad option");
	}
	if (argc - optind != 2)
		return bo_cli_usage_error("reproduce", "expected RESULTS STATE");
	d.dir = argv[optind];
	if (load(&d, &err) < 0) {
		bo_cli_error("reproduce: %s", bo_err_str(&err));
		goto out;
	}
	d.state = find_state(&d, argv[optind + 1]);
	if (!d.state) {
		bo_cli_error("reproduce: '%s/stream.jsonl' has no record of state '%s'", d.dir,
			     argv[optind + 1]);
		goto out;
	}
	cls = bo_json_str(d.state, "class");
	if (!d.log || bo_pathf(log, sizeof(log), "%s/write.log", d.dir) < 0 ||
	    bo_pathf(scen, sizeof(scen), "%s/scenario.ini", d.dir) < 0 ||
	    bo_pathf(parent, sizeof(parent), "%s/reproduce", d.dir) < 0) {
		bo_cli_error("reproduce: '%s' has no write.log to re-check", d.dir);
		goto out;
	}
	cargv[n++] = "check";
	cargv[n++] = log;
	cargv[n++] = "--state";
	cargv[n++] = (char *) bo_json_str(d.state, "state");
	cargv[n++] = "--expect";
	cargv[n++] = (char *) cls;
	cargv[n++] = "--results";
	cargv[n++] = parent;
	cfg = bo_pathf(path, sizeof(path), "%s/config.json", d.dir) == 0
		      ? json_object_from_file(path)
		      : NULL;
	if (cfg && bo_json_str(cfg, "kind") && !strcmp(bo_json_str(cfg, "kind"), "check")) {
		/* A check: the options it was given, as it recorded them. */
		static const char *const keys[][2] = {
			{"fs", "--fs"},
			{"size", "--size"},
			{"mount_options", "--mount-options"},
			{"from", "--from"},
			{"checker", "--checker"},
			{"seed", "--seed"},
			{"reorder", "--reorder"},
			{"budget", "--budget"},
		};

		if (!json_object_object_get_ex(cfg, "options", &opt)) {
			bo_cli_error("reproduce: '%s' has no \"options\"", path);
			goto out;
		}
		for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++) {
			const char *val = bo_json_str(opt, keys[i][0]);

			if (!val)
				continue;
			cargv[n++] = (char *) keys[i][1];
			cargv[n++] = (char *) val;
		}
		if (bo_json_str(opt, "scenario_sha256")) {
			cargv[n++] = "--scenario";
			cargv[n++] = scen;
		}
	} else if (d.sc) {
		/* A run: its scenario and seed. */
		snprintf(seed_s, sizeof(seed_s), "%" PRIu64, d.seed);
		cargv[n++] = "--scenario";
		cargv[n++] = scen;
		cargv[n++] = "--seed";
		cargv[n++] = seed_s;
	} else {
		bo_cli_error("reproduce: '%s' has neither a check's config.json nor scenario.ini",
			     d.dir);
		goto out;
	}
	if (v.kernel) {
		cargv[n++] = "--kernel";
		cargv[n++] = (char *) v.kernel;
	}
	if (v.modules) {
		cargv[n++] = "--modules";
		cargv[n++] = (char *) v.modules;
	}
	cargv[n] = NULL;
	fprintf(stderr, "blackout: reproduce: state %s (recorded %s) of %s\n",
		bo_json_str(d.state, "state"), cls, d.dir);
	optind = 1;
	ret = bo_cmd_check(n, cargv);
out:
	json_object_put(cfg);
	json_object_put(d.summary);
	json_object_put(d.states);
	json_object_put(d.aliases);
	bo_log_free(d.log);
	bo_scenario_free(d.sc);
	return ret;
}

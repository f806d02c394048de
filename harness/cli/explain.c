// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout explain — the audit diary of a failed run, read from its results directory alone:
 * the symptom (the state's record), the evidence gathered for it (mount error, fsck lines,
 * the missing ops and the log entries that announced them, the kernel messages of that state,
 * the nearest flush/FUA before the cut) and the next command to run.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/explain_nodes.h"
#include "harness/cli/opts.h"
#include "harness/diagnose/diary.h"
#include "harness/log/log.h"
#include "harness/results/differential.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"
#include "harness/scenario/fsops.h"

/* Lines of a by-product shown in the text form; --json carries them whole. */
#define SHOW_LINES 12

struct explain {
	struct bo_diary d;
	struct json_object *out; /* what --json prints */
	char *ops;		 /* what blackout-fsops lists of the run's ops, read once */
	bool ops_read;
};

/* The log entry of mark @name, as "entry N" into @o under @key. */
static bool mark_entry(struct explain *x, const char *name, uint64_t *ret)
{
	return x->d.log && bo_log_find_mark(x->d.log, name, ret, NULL) >= 0;
}

/* What blackout-fsops says op @id is ("17 write f3 - ino=..."), or NULL. */
static char *fsops_describe(struct explain *x, uint64_t id)
{
	if (!x->ops_read) {
		x->ops_read = true;
		if (x->d.sc && (bo_fsops_is(x->d.sc) || bo_bounded_is(x->d.sc)) &&
		    bo_fsops_list(x->d.sc, bo_libexec_dir(), NULL, &x->ops, NULL) < 0)
			x->ops = NULL;
	}
	for (const char *line = x->ops; line && *line;) {
		size_t len = strcspn(line, "\n");

		if (strtoull(line, NULL, 10) == id)
			return strndup(line, len);
		line += len + (line[len] == '\n');
	}
	return NULL;
}

/* Each missing op: the entries of its issue and ack marks, for fsops what it was, and the
 * checker's word on why it is absent (@why: the record's "why", or NULL). */
static struct json_object *ops_evidence(struct explain *x, struct json_object *ids,
					struct json_object *why, uint64_t cut)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < json_object_array_length(ids); i++) {
		uint64_t id = json_object_get_uint64(json_object_array_get_idx(ids, i)), e;
		struct json_object *o = json_object_new_object();
		char name[64];
		_cleanup_free_ char *what = fsops_describe(x, id);

		json_object_object_add(o, "op", json_object_new_uint64(id));
		snprintf(name, sizeof(name), "issue:%" PRIu64, id);
		if (mark_entry(x, name, &e))
			json_object_object_add(o, "issue_entry", json_object_new_uint64(e));
		snprintf(name, sizeof(name), "ack:%" PRIu64, id);
		if (mark_entry(x, name, &e)) {
			uint64_t is;
			struct json_object *nodes;

			json_object_object_add(o, "ack_entry", json_object_new_uint64(e));
			/* A cluster's: which of its nodes flushed for it. */
			if (x->d.sc && x->d.sc->cluster && bo_json_u64(o, "issue_entry", &is) &&
			    (nodes = bo_explain_op_nodes(x->d.log, x->d.sc->cluster, is, e, cut)))
				json_object_object_add(o, "nodes", nodes);
		}
		if (what)
			json_object_object_add(o, "op_is", json_object_new_string(what));
		snprintf(name, sizeof(name), "%" PRIu64, id);
		if (bo_json_str(why, name))
			json_object_object_add(o, "why",
					       json_object_new_string(bo_json_str(why, name)));
		json_object_array_add(a, o);
	}
	return a;
}

/* The last entry with @flag among the first @cut entries, and the last mark. */
static void log_context(struct explain *x, uint64_t cut, struct json_object *ev)
{
	int64_t flush = -1, fua = -1, mark = -1;

	if (!x->d.log || cut > bo_log_count(x->d.log))
		return;
	for (uint64_t n = cut; n-- > 0 && (flush < 0 || fua < 0 || mark < 0);) {
		const struct bo_log_entry *e = bo_log_entry(x->d.log, n);

		if (flush < 0 && (e->flags & BO_LOG_FLUSH))
			flush = (int64_t) n;
		if (fua < 0 && (e->flags & BO_LOG_FUA))
			fua = (int64_t) n;
		if (mark < 0 && (e->flags & BO_LOG_MARK))
			mark = (int64_t) n;
	}
	json_object_object_add(ev, "log_entries", json_object_new_uint64(bo_log_count(x->d.log)));
	if (flush >= 0)
		json_object_object_add(ev, "last_flush_entry", json_object_new_int64(flush));
	if (fua >= 0)
		json_object_object_add(ev, "last_fua_entry", json_object_new_int64(fua));
	if (mark >= 0) {
		json_object_object_add(ev, "last_mark_entry", json_object_new_int64(mark));
		json_object_object_add(
			ev, "last_mark",
			json_object_new_string(bo_log_mark_name(x->d.log, (uint64_t) mark)));
	}
}

/*
 * By-product @name of state @id as member @key of @ev; one that is there but refused (a
 * symlink, a FIFO, too big, under an id that is not a plain name) is said in @ev's "refused",
 * once: it never just goes missing.
 */
static void add_byproduct(struct explain *x, struct json_object *ev, const char *id,
			  const char *key, const char *name)
{
	struct json_object *refused;
	struct bo_err err = {0};
	char *text = NULL;
	int r = bo_diary_byproduct(&x->d, id, name, &text, &err);

	if (r >= 0) {
		json_object_object_add(ev, key, json_object_new_string(text));
		free(text);
		return;
	}
	if (r == -ENOENT)
		return;
	if (!json_object_object_get_ex(ev, "refused", &refused)) {
		refused = json_object_new_array();
		json_object_object_add(ev, "refused", refused);
	}
	for (size_t i = 0; i < json_object_array_length(refused); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(refused, i)),
			    bo_err_str(&err)))
			return;
	json_object_array_add(refused, json_object_new_string(bo_err_str(&err)));
}

/* Gather the diary of state record @st into x->out. */
static void gather(struct explain *x, struct json_object *st)
{
	static const char *const opkeys[] = {"lost", "wrong_content", "phantom", "unordered"};
	struct json_object *ev = json_object_new_object(), *next = json_object_new_array(), *v;
	struct json_object *why = NULL;
	const char *id = bo_json_str(st, "state");
	char cmd[PATH_MAX + 256];
	uint64_t cut;

	json_object_object_add(x->out, "state", json_object_get(st));
	add_byproduct(x, ev, id, "mount_error", "mount.err");
	add_byproduct(x, ev, id, "repair", "repair.out");
	add_byproduct(x, ev, id, "fsck", "fsck.out");
	add_byproduct(x, ev, id, "checker", "checker.out");
	add_byproduct(x, ev, id, "dmesg", "dmesg.txt");
	json_object_object_get_ex(st, "why", &why);
	if (!bo_json_u64(st, "cut", &cut))
		cut = 0;
	for (size_t i = 0; i < BO_ARRAY_SIZE(opkeys); i++)
		if (json_object_object_get_ex(st, opkeys[i], &v))
			json_object_object_add(ev, opkeys[i], ops_evidence(x, v, why, cut));
	if (json_object_object_get_ex(st, "cut", &v))
		log_context(x, json_object_get_uint64(v), ev);
	json_object_object_add(x->out, "evidence", ev);
	/* Both come from the directory's own files: quoted for the shell that runs them. */
	_cleanup_free_ char *qdir = bo_shell_quote(x->d.dir);
	_cleanup_free_ char *qid = bo_shell_quote(id ? id : "");

	if (!qdir || !qid)
		return;
	snprintf(cmd, sizeof(cmd), "blackout reproduce %s %s", qdir, qid);
	json_object_array_add(next, json_object_new_string(cmd));
	if (x->d.sc) {
		snprintf(cmd, sizeof(cmd), "blackout shrink %s", qdir);
		json_object_array_add(next, json_object_new_string(cmd));
	}
	/* Without a witness: the check of this state alone that finds it. */
	if (!json_object_object_get_ex(st, "witness", &v) && !bo_json_str(st, "recovery_of")) {
		char sc[PATH_MAX + 32] = "", path[PATH_MAX];
		_cleanup_free_ char *qlog = NULL, *qsc = NULL;

		if (x->d.sc && bo_pathf(path, sizeof(path), "%s/scenario.ini", x->d.dir) == 0 &&
		    (qsc = bo_shell_quote(path)))
			snprintf(sc, sizeof(sc), " --scenario %s", qsc);
		if (bo_pathf(path, sizeof(path), "%s/write.log", x->d.dir) == 0 &&
		    (qlog = bo_shell_quote(path))) {
			snprintf(cmd, sizeof(cmd),
				 "blackout check %s%s --state %s --witness 64   (the writes "
				 "that decide it)",
				 qlog, sc, qid);
			json_object_array_add(next, json_object_new_string(cmd));
		}
	}
	if (bo_pathf(cmd, sizeof(cmd), "%s/write.log", x->d.dir) == 0) {
		_cleanup_free_ char *qlog = bo_shell_quote(cmd);

		snprintf(cmd, sizeof(cmd), "blackout inspect %s", qlog ? qlog : "write.log");
		json_object_array_add(next, json_object_new_string(cmd));
	}
	json_object_object_add(x->out, "next", next);
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

/* Member @key of @o when it is a string, as one word of a line (bo_cli_word()); or NULL. */
static const char *word_of(struct json_object *o, const char *key)
{
	return bo_cli_word(bo_json_str(o, key));
}

/* The run: its verdict, counts and first states as the summary's reader validated them. */
static void print_run(const struct explain *ex)
{
	const struct bo_summary *sum = &ex->d.sum;
	const char *sep = " (";
	char also[512];

	printf("run: %s\nverdict: %s", bo_cli_word(ex->d.dir),
	       word_of(ex->d.summary, "verdict") ?: "?");
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		if (sum->counts[c]) {
			printf("%s%s %" PRIu64, sep, bo_class_name((enum bo_class) c),
			       sum->counts[c]);
			sep = ", ";
		}
	printf("%s\n", strcmp(sep, " (") ? ")" : "");
	/* What the classes do not say: a fsck-dirty state that also lost an ack. */
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		if (*bo_summary_also_str(sum, (enum bo_class) c, also, sizeof(also)))
			printf("%s states: %s\n", bo_class_name((enum bo_class) c), also);
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		if (c != BO_CLASS_CONSISTENT && sum->first[c][0])
			printf("first %s state: %s\n", bo_class_name((enum bo_class) c),
			       bo_cli_word(sum->first[c]));
	if (bo_json_str(ex->d.summary, "error"))
		printf("run error: %s\n", word_of(ex->d.summary, "error"));
}

/* A witness's story (check --witness): its first line, then each of its lines indented, so
 * that none reads as a heading of explain's own. */
static void print_witness(const char *t)
{
	_cleanup_free_ char *first = strndup(t, strcspn(t, "\n"));

	printf("\nwitness: %s\n", bo_cli_word(first ? first : "?"));
	for (t += strcspn(t, "\n"); *t;) {
		_cleanup_free_ char *line = NULL;

		t += strspn(t, "\n ");
		line = strndup(t, strcspn(t, "\n"));
		if (*t)
			printf("  %s\n", bo_cli_word(line ? line : "?"));
		t += strcspn(t, "\n");
	}
}

/* A cluster's state (docs/clusters.md): its survivors, and a line per node of how it stopped. */
static void print_nodes(struct json_object *st)
{
	const char *t = bo_json_str(st, "nodes");
	const char *set = word_of(st, "survivors");

	/* The set of all keeps the state's id; any other is in it after '@'. */
	printf("  survivors: %s%s\n", set,
	       strchr(bo_json_str(st, "state") ? bo_json_str(st, "state") : "", '@')
		       ? " (the other nodes' disks lost)"
		       : " (every node)");
	while (t && *t) {
		_cleanup_free_ char *line = strndup(t, strcspn(t, "\n"));

		if (*t != '\n')
			printf("    node %s\n", bo_cli_word(line ? line : "?"));
		t += strcspn(t, "\n");
		t += strspn(t, "\n");
	}
}

/* The symptom: state record @st, and the story of a state cut inside a recovery. */
static void print_symptom(struct json_object *st)
{
	struct json_object *v, *x;
	uint64_t n = json_object_object_get_ex(st, "cut", &v) ? json_object_get_uint64(v) : 0;

	printf("\nsymptom: state %s (cut after %" PRIu64 " %s) is %s\n", word_of(st, "state"), n,
	       BO_PLURAL(n, "entry", "entries"), word_of(st, "class"));
	/* Recovered by fsck: the repair came first, and its verdict is part of the story. */
	if (bo_json_str(st, "repair"))
		printf("  recovery: fsck, then mount (the repair: %s)\n", word_of(st, "repair"));
	printf("  mounted: %s, fsck: %s, checker: %s\n",
	       json_object_object_get_ex(st, "mounted", &v) && json_object_get_boolean(v) ? "yes"
											  : "no",
	       word_of(st, "fsck") ?: "-", word_of(st, "checker") ?: "none");
	{
		struct bo_verdict fv;
		enum bo_class c = BO_CLASS_COUNT;
		const char *bad;
		char what[512];

		if (bo_class_from_name(bo_json_str(st, "class"), &c) >= 0 &&
		    bo_stream_rec_findings(st, &fv, &bad) >= 0) {
			if (*bo_findings_str(&fv, c, what, sizeof(what)))
				printf("  also: %s (its class does not say it)\n", what);
			bo_verdict_clear(&fv);
		}
	}
	if (bo_json_str(st, "signature"))
		printf("  filesystem signature: %s\n", !strcmp(bo_json_str(st, "signature"), "none")
							       ? "none: the superblock is gone"
							       : word_of(st, "signature"));
	if (bo_json_str(st, "error"))
		printf("  error: %s\n", word_of(st, "error"));
	if (bo_json_str(st, "checker_problem"))
		printf("  checker problem: %s\n", word_of(st, "checker_problem"));
	/* A daemon the checker started and did not stop: ended with it before the unmount. */
	if (bo_json_str(st, "checker_left"))
		printf("  the checker left %s\n", word_of(st, "checker_left"));
	/* A cluster's state: the nodes it was recovered through, and how each of them stopped. */
	if (bo_json_str(st, "survivors"))
		print_nodes(st);
	/* A state cut inside another's recovery: the two crashes, in order. */
	if (bo_json_str(st, "recovery_of")) {
		uint64_t k = 0, all = 0;

		(void) bo_json_u64(st, "recovery_cut", &k);
		(void) bo_json_u64(st, "recovery_entries", &all);
		printf("\nstory: the power failed at the cut; state %s, recovered, was "
		       "consistent.\n"
		       "  Then the power failed again during that recovery (mount, the checker's\n"
		       "  recovery, umount), after %" PRIu64 " of the %" PRIu64
		       " entries it wrote. Recovered once more\n"
		       "  from there, the state is %s: the recovery is not crash-safe.\n"
		       "  Both logs: write.log, and %s (the first recovery's writes).\n",
		       word_of(st, "recovery_of"), k, all, word_of(st, "recovery_class") ?: "?",
		       word_of(st, "recovery_log") ?: "its recovery.log");
	}
	/* Its minimal witness (check --witness): the writes that decide the failure. */
	if (json_object_object_get_ex(st, "witness", &x) && bo_json_str(x, "story"))
		print_witness(bo_json_str(x, "story"));
}

/* The evidence gathered (gather()): by-products, the ops with their marks, the log. */
static void print_evidence(struct json_object *ev)
{
	static const char *const opkeys[] = {"lost", "wrong_content", "phantom", "unordered"};
	struct json_object *v, *x;
	uint64_t n;

	puts("\nevidence:");
	if (json_object_object_get_ex(ev, "refused", &v))
		for (size_t j = 0; j < json_object_array_length(v); j++)
			printf("  not read: %s\n", bo_cli_word(json_object_get_string(
							   json_object_array_get_idx(v, j))));
	show("mount error", bo_json_str(ev, "mount_error"));
	show("repair before the mount", bo_json_str(ev, "repair"));
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
				printf(" (%s)", bo_cli_word(is + strspn(is, "0123456789 ")));
			if (json_object_object_get_ex(o, "issue_entry", &x))
				printf(": issued at entry %s", json_object_get_string(x));
			if (json_object_object_get_ex(o, "ack_entry", &x))
				printf(", acked at entry %s", json_object_get_string(x));
			if (json_object_object_get_ex(o, "nodes", &x))
				bo_explain_print_op_nodes(x);
			if (bo_json_str(o, "why"))
				printf("\n      the checker: %s", word_of(o, "why"));
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
			printf(" last mark: '%s' (entry %" PRIu64 ")", word_of(ev, "last_mark"), n);
		putchar('\n');
	}
}

/* The text form; every string from the directory is one word of its line (bo_cli_word()). */
static void print_text(struct explain *ex)
{
	struct json_object *st, *ev = NULL, *v;

	print_run(ex);
	if (!json_object_object_get_ex(ex->out, "state", &st)) {
		puts("no failing state: nothing to explain");
		return;
	}
	print_symptom(st);
	json_object_object_get_ex(ex->out, "evidence", &ev);
	print_evidence(ev);
	puts("\nnext:");
	if (json_object_object_get_ex(ex->out, "next", &v))
		for (size_t j = 0; j < json_object_array_length(v); j++)
			printf("  %s\n", bo_cli_word(json_object_get_string(
						 json_object_array_get_idx(v, j))));
}

static void put_text(void *ex)
{
	print_text(ex);
}

struct explain_args {
	bool json;
};

static const struct bo_opt explain_opts[] = {
	{"json", NULL, offsetof(struct explain_args, json), BO_OPT_HOST, NULL, NULL,
	 "print one JSON object instead"},
};

static void explain_help(void)
{
	puts("usage: blackout explain RESULTS [STATE] [--json]\n\n"
	     "Tell the story of a failing state from the results directory alone: its record\n"
	     "(the symptom), the evidence (mount error, fsck output, the missing ops with the log\n"
	     "entries that issued and acknowledged them, the kernel messages of that state, the\n"
	     "last flush and FUA before the cut) and the next command to run. Without STATE:\n"
	     "an overview and the first failing state. RESULTS may be the tree of a check\n"
	     "--kernels: then the state's class and findings under each kernel, whether they "
	     "differ, and each\n"
	     "kernel's own story of it (without STATE: the first state that differs).\n");
	bo_opts_help(stdout, explain_opts, BO_ARRAY_SIZE(explain_opts));
	puts("\nExit status: 0 explained (or nothing failed), 2 usage, 3 unreadable results.");
}

/* Explain state @id (NULL: the first failing one) of results directory @dir: printed, or
 * with @keep its JSON handed over there (nothing printed). The exit status. */
static int explain_dir(const char *dir, const char *id, bool json, struct json_object **keep)
{
	struct explain x = {0};
	struct json_object *st;
	struct bo_err err = {0};
	const char *alias_of;
	int ret = BO_EXIT_HARNESS;

	if (bo_diary_load(&x.d, dir, &err) < 0) {
		bo_cli_error("explain: %s", bo_err_str(&err));
		goto out;
	}
	x.out = bo_json_new_doc();
	if (!x.out)
		goto out;
	json_object_object_add(x.out, "results", json_object_new_string(x.d.dir));
	json_object_object_add(x.out, "summary", json_object_get(x.d.summary));
	if (bo_diary_state(&x.d, id, &st, &alias_of, &err) < 0) {
		bo_cli_error("explain: %s", bo_err_str(&err));
		goto out;
	}
	if (alias_of)
		bo_cli_note("state %s is an alias of %s: explaining %s", bo_cli_word(id),
			    bo_cli_word(alias_of), bo_cli_word(alias_of));
	if (st)
		gather(&x, st);
	if (keep) {
		*keep = x.out;
		x.out = NULL;
	} else if (json) {
		bo_cli_put_json(x.out);
	} else {
		bo_cli_put_safe(put_text, &x);
	}
	ret = fflush(stdout) == 0 ? BO_EXIT_OK : BO_EXIT_HARNESS;
out:
	json_object_put(x.out);
	free(x.ops);
	bo_diary_clear(&x.d);
	return ret;
}

/*
 * The row of differential @d (of @path, its reader checked it) that explain tells: in its
 * array of @what ("mark" or "state": the array "marks" or "states"), the one named @want, or
 * without @want the first that differs. *@row is NULL when there is none: then what was said
 * (an error, or that the kernels agree) and the exit status are returned.
 */
static int pick_row(const char *path, struct json_object *d, const char *what, const char *want,
		    bool json, struct json_object **row)
{
	char key[16];
	struct json_object *rows, *dv;

	*row = NULL;
	snprintf(key, sizeof(key), "%ss", what);
	rows = json_object_object_get(d, key);
	for (size_t i = 0; i < json_object_array_length(rows) && !*row; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		const char *name = bo_json_str(r, what);

		if (want ? name && !strcmp(name, want)
			 : json_object_object_get_ex(r, "differs", &dv) &&
				    json_object_get_boolean(dv))
			*row = r;
	}
	if (*row)
		return BO_EXIT_OK;
	if (want) {
		bo_cli_error("explain: '%s' has no %s '%s'", path, what, want);
		return BO_EXIT_HARNESS;
	}
	if (json)
		printf("{\"format\":%d,\"%s\":null,\"differing\":0}\n", BO_JSON_FORMAT, what);
	else
		printf("no difference: the kernels agree on every %s (%s)\n", what, path);
	return BO_EXIT_OK;
}

/*
 * The results directory of kernel @k (kernels[@i] of @path) beneath tree @dir, into @res:
 * differential.json's reader checked that it names relative plain names; here it is reached
 * without a symlink, or refused (said, and false).
 */
static bool kernel_dir(const char *dir, const char *path, size_t i, struct json_object *k,
		       char *res, size_t len)
{
	const char *rel = bo_json_str(k, "results");
	char what[PATH_MAX + 64];
	struct bo_err err = {0};
	int fd;

	snprintf(what, sizeof(what), "'%s': kernels[%zu].results", path, i);
	fd = bo_input_opendir(dir, rel, what, &err);
	if (fd < 0 || bo_pathf(res, len, "%s/%s", dir, rel) < 0) {
		bo_cli_error("explain: %s", fd < 0 ? bo_err_str(&err) : "path too long");
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

/*
 * A mark of a run --kernels tree (@d its differential.json at @path): each kernel's verdict
 * and lint there, whether they differ, then each kernel's story of the segment's state it
 * names. Without @mark, the first mark that differs.
 */
static int explain_marks(const char *dir, const char *path, struct json_object *d, const char *mark,
			 bool json)
{
	_cleanup_json_ struct json_object *out = NULL;
	struct json_object *kernels, *row = NULL, *stories, *per, *dv;
	char res[PATH_MAX];
	int ret = BO_EXIT_OK;

	ret = pick_row(path, d, "mark", mark, json, &row);
	if (!row)
		return ret;
	kernels = json_object_object_get(d, "kernels");
	per = json_object_object_get(row, "kernels");
	out = bo_json_new_doc();
	stories = json_object_new_array();
	if (!out || !stories) {
		json_object_put(stories);
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "mark", json_object_get(row));
	json_object_object_add(out, "kernels", stories);
	if (!json) {
		bool differs = json_object_object_get_ex(row, "differs", &dv) &&
			       json_object_get_boolean(dv);
		bool lint = json_object_object_get_ex(row, "lint_differs", &dv) &&
			    json_object_get_boolean(dv);

		printf("mark %s: ", word_of(row, "mark"));
		json_object_object_foreach(per, k, v)
		{
			const char *l = word_of(v, "lint");

			printf("%s %s%s%s; ", bo_cli_word(k),
			       word_of(v, "verdict") ?: "not in the log", l ? ", " : "",
			       l ? l : "");
		}
		printf("%s\n", lint ? "the kernels differ in what they wrote: a barrier for the "
				      "ack on one, none on another"
			       : differs ? "the kernels differ (class or findings of its states)"
					 : "the kernels agree");
	}
	for (size_t i = 0; i < json_object_array_length(kernels); i++) {
		struct json_object *k = json_object_array_get_idx(kernels, i), *story = NULL, *side;
		const char *rel = bo_json_str(k, "release"), *state;
		int r;

		if (!json_object_object_get_ex(per, rel, &side) ||
		    !(state = bo_json_str(side, "state")))
			continue;
		if (!json)
			printf("\n== %s: state %s ==\n", bo_cli_word(rel), bo_cli_word(state));
		fflush(stdout);
		r = kernel_dir(dir, path, i, k, res, sizeof(res))
			    ? explain_dir(res, state, json, json ? &story : NULL)
			    : BO_EXIT_HARNESS;
		if (r != BO_EXIT_OK)
			ret = r;
		if (story) {
			json_object_object_add(story, "kernel", json_object_new_string(rel));
			json_object_array_add(stories, story);
		}
	}
	if (json)
		bo_cli_put_json(out);
	return ret;
}

/*
 * A state of a check --kernels tree (@d its differential.json at @path): its class under each
 * kernel, whether they differ (a change in the kernels' recovery), then each kernel's own
 * story of it. Without @id, the first state that differs.
 */
static int explain_states(const char *dir, const char *path, struct json_object *d, const char *id,
			  bool json)
{
	_cleanup_json_ struct json_object *out = NULL;
	struct json_object *kernels, *row = NULL, *stories;
	char res[PATH_MAX];
	int ret = BO_EXIT_OK;

	ret = pick_row(path, d, "state", id, json, &row);
	if (!row)
		return ret;
	kernels = json_object_object_get(d, "kernels");
	id = bo_json_str(row, "state");
	out = bo_json_new_doc();
	stories = json_object_new_array();
	if (!out || !stories) {
		json_object_put(stories);
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "state", json_object_get(row));
	json_object_object_add(out, "kernels", stories);
	if (!json) {
		struct json_object *cls = json_object_object_get(row, "classes"), *dv;
		struct json_object *fnd = json_object_object_get(row, "findings");
		bool differs = json_object_object_get_ex(row, "differs", &dv) &&
			       json_object_get_boolean(dv);

		printf("state %s: ", bo_cli_word(id));
		json_object_object_foreach(cls, k, v)
		{
			/* "findings" is absent in a tree written before findings were compared. */
			const char *w = word_of(fnd, k);

			printf("%s %s%s%s%s; ", bo_cli_word(k),
			       v ? bo_cli_word(json_object_get_string(v)) : "not checked",
			       w && *w ? " (" : "", w && *w ? w : "", w && *w ? ")" : "");
		}
		printf("%s\n", differs ? "the kernels differ (class or findings): a change in "
					 "the kernel's recovery (a regression or a fix)"
				       : "the kernels agree");
	}
	for (size_t i = 0; i < json_object_array_length(kernels); i++) {
		struct json_object *k = json_object_array_get_idx(kernels, i), *story = NULL;
		const char *rel = bo_json_str(k, "release");
		int r;

		if (!json)
			printf("\n== %s ==\n", bo_cli_word(rel));
		fflush(stdout);
		r = kernel_dir(dir, path, i, k, res, sizeof(res))
			    ? explain_dir(res, id, json, json ? &story : NULL)
			    : BO_EXIT_HARNESS;
		if (r != BO_EXIT_OK)
			ret = r;
		if (story) {
			json_object_object_add(story, "kernel", json_object_new_string(rel));
			json_object_array_add(stories, story);
		}
	}
	if (json)
		bo_cli_put_json(out);
	return ret;
}

/* Explain @dir: a tree of several kernels when it has a differential.json (read once, by its
 * reader), else a results directory. The exit status. */
static int explain_any(const char *dir, const char *id, bool json)
{
	_cleanup_json_ struct json_object *d = NULL;
	struct bo_err err = {0};
	char path[PATH_MAX];
	int r = bo_differential_read(dir, &d, &err);

	if (r == -ENOENT)
		return explain_dir(dir, id, json, NULL);
	if (r < 0 || bo_pathf(path, sizeof(path), "%s/differential.json", dir) < 0) {
		bo_cli_error("explain: %s", r < 0 ? bo_err_str(&err) : "path too long");
		return BO_EXIT_HARNESS;
	}
	return bo_differential_by_mark(d) ? explain_marks(dir, path, d, id, json)
					  : explain_states(dir, path, d, id, json);
}

static int cmd_explain(int argc, char **argv)
{
	struct explain_args a = {0};
	const struct bo_opt_set sets[] = {{explain_opts, BO_ARRAY_SIZE(explain_opts), &a}};
	const char *id = NULL;
	int k;

	k = bo_opts_parse("explain", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, explain_help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k >= argc || argc - k > 2)
		return bo_cli_usage_error("explain", "expected RESULTS [STATE]");
	id = argc - k == 2 ? argv[k + 1] : NULL;
	return explain_any(argv[k], id, a.json);
}

const struct bo_cmd bo_cmd_explain = {
	"explain", cmd_explain, "tell the story of a failed run: symptom, evidence, next step"};

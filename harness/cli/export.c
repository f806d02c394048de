// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout export — a state that lost an acknowledged op, written as a reproducer that runs
 * without blackout (docs/export.md): repro.c (the workload's ops up to that ack as plain
 * system calls, and the check of what the ack promised), run.sh (the filesystem made on a
 * scratch device, repro run, the power cut by dm-flakey right after the ack, the recovery,
 * the check), cache.sh and replay.c (the same through dm-log-writes, for a loss that needs the
 * volatile cache), fstests/999 (the same as a test in fstests' form) and REPORT.md (what is
 * lost, where, and the log's entries between the op's issue and its ack).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/sanitize.h"
#include "harness/cli/cli.h"
#include "harness/cli/export.h"
#include "harness/cli/opts.h"
#include "harness/diagnose/diary.h"
#include "harness/dev/fstab.h"
#include "harness/dev/fstool.h"
#include "harness/scenario/fsops.h"

#define LABEL BO_EXPORT_LABEL

struct export_args {
	const char *out;
};

static const struct bo_opt export_opts[] = {
	{"out", "DIR", offsetof(struct export_args, out), BO_OPT_HOST, NULL, NULL,
	 "write the reproducer into DIR (created; an existing one must be empty)"},
};

static void export_help(void)
{
	puts("usage: blackout export RESULTS [STATE] --out DIR\n\n"
	     "Write a state that lost an acknowledged op (the first such state without STATE) as\n"
	     "a reproducer that runs without blackout: repro.c, the workload's ops up to the\n"
	     "acknowledgement as plain system calls, and repro built from it; run.sh [DEVICE],\n"
	     "which makes the filesystem on DEVICE (or on a loop device of its own), runs repro,\n"
	     "cuts the power with dm-flakey right after the acknowledgement, mounts again and\n"
	     "checks what it promised (exit 1 lost, 0 kept); cache.sh [DEVICE] with replay.c,\n"
	     "the same for a loss that needs the device's volatile cache (dm-log-writes, the log\n"
	     "replayed to the acknowledgement); fstests/999, the same as a test in fstests' form;\n"
	     "REPORT.md. A workload of its own (SQLite's builtin, a daemon's script) goes as\n"
	     "its program or its scenario's files, with ctl.c standing in for blackout's\n"
	     "control channel and its checker judging (no repro.c, no fstests form). One\n"
	     "device.\n"
	     "docs/export.md tells more.\n");
	bo_opts_help(stdout, export_opts, BO_ARRAY_SIZE(export_opts));
	puts("\nExit status: 0 written, 2 usage error, 3 refused or failed (nothing is left in "
	     "DIR).");
}

/* The first op of state record @st's "lost" list into *@ret; -ENOENT without one. */
static int first_lost(struct json_object *st, uint64_t *ret)
{
	struct json_object *lost, *id;

	if (!json_object_object_get_ex(st, "lost", &lost) ||
	    !json_object_is_type(lost, json_type_array) || json_object_array_length(lost) == 0)
		return -ENOENT;
	id = json_object_array_get_idx(lost, 0);
	if (!json_object_is_type(id, json_type_int) || json_object_get_int64(id) <= 0)
		return -ENOENT;
	*ret = (uint64_t) json_object_get_int64(id);
	return 0;
}

/* Run @cmd (blackout-fsops ..., argv[0] looked up in the libexec directory), its stdout into
 * *@ret. */
static int fsops_output(const char *cmd, char **ret, struct bo_err *err)
{
	char **argv = bo_strv_split(cmd), prog[PATH_MAX];
	struct bo_proc_result r = {0};
	struct bo_proc_opts o = {
		.timeout_ms = 120000, .max_output = 64u << 20, .kill_at_max = true};
	int k;

	if (!argv || !argv[0])
		return bo_strv_free(argv), bo_err_set(err, ENOMEM, "out of memory");
	if (bo_pathf(prog, sizeof(prog), "%s/%s", bo_libexec_dir(), argv[0]) < 0) {
		bo_strv_free(argv);
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", argv[0]);
	}
	free(argv[0]);
	argv[0] = strdup(prog);
	o.argv = argv;
	k = argv[0] ? bo_proc_run(&o, &r, err) : bo_err_set(err, ENOMEM, "out of memory");
	if (k >= 0 && (r.end != BO_PROC_EXITED || r.status != 0 || r.truncated)) {
		char how[128];

		bo_proc_describe(&r, &o, how, sizeof(how));
		k = bo_err_set(err, EIO, "'%s' %s: %.300s", cmd, how, r.err ? r.err : "");
	}
	if (k >= 0) {
		*ret = r.out;
		r.out = NULL;
	}
	bo_proc_result_clear(&r);
	bo_strv_free(argv);
	return k < 0 ? k : 0;
}

/* The mkfs command line of @sc's filesystem on "$1" with blackout's label, as run.sh runs it:
 * the options blackout made it with (bo_mkfs_options()), each word quoted for the shell. */
static int mkfs_line(const struct bo_scenario *sc, char *buf, size_t len, struct bo_err *err)
{
	const struct bo_fs_desc *d = bo_fs_desc(sc->fs);
	const char *argv[BO_TOOL_ARGV_MAX];
	char label[64], **v = NULL;
	size_t n = 0;
	int k;

	/* "-L" takes the label as the next word, "--label=" joined */
	snprintf(label, sizeof(label), "%s%s" LABEL, d->mkfs_label,
		 d->mkfs_label[strlen(d->mkfs_label) - 1] == '=' ? "" : " ");
	k = bo_mkfs_options(sc->fs, sc->mkfs_options, label, &v, err);
	if (k >= 0)
		k = bo_mkfs_argv(sc->fs, "\"$1\"", NULL, (const char *const *) v, argv, err);
	for (size_t i = 0; k >= 0 && argv[i]; i++) {
		_cleanup_free_ char *q = strcmp(argv[i], "\"$1\"") ? bo_shell_quote(argv[i]) : NULL;

		if (strcmp(argv[i], "\"$1\"") && !q)
			k = bo_err_set(err, ENOMEM, "out of memory");
		else
			n += (size_t) snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? " " : "",
					       q ? q : argv[i]);
	}
	bo_strv_free(v);
	if (k >= 0 && n >= len)
		k = bo_err_set(err, E2BIG, "mkfs command line too long");
	return k;
}

/* The repair run.sh runs before the mount where blackout's recovery of the state was fsck's,
 * on "$1"; "" where it was the mount's. */
static void repair_line(const struct bo_scenario *sc, bool by_fsck, char *buf, size_t len)
{
	const char *argv[BO_TOOL_ARGV_MAX];
	struct bo_err err = {0};
	size_t n = 0;

	buf[0] = '\0';
	if (!by_fsck || bo_repair_argv(sc->fs, "\"$1\"", NULL, argv, &err) < 0)
		return;
	for (size_t i = 0; argv[i]; i++)
		n += (size_t) snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? " " : "",
				       argv[i]);
}

/* The log's entries from op @id's issue mark to its ack mark, as Markdown, into @f. */
static void write_entries(FILE *f, const struct bo_log *log, uint64_t id)
{
	char issue[48], ack[48], flags[64];
	uint64_t from, to;

	snprintf(issue, sizeof(issue), "issue:%" PRIu64, id);
	snprintf(ack, sizeof(ack), "ack:%" PRIu64, id);
	if (!log || bo_log_find_mark(log, issue, &from, NULL) < 0 ||
	    bo_log_find_mark(log, ack, &to, NULL) < 0 || to < from) {
		fprintf(f, "The log holds no issue and ack marks of op %" PRIu64 ".\n", id);
		return;
	}
	fprintf(f, "| entry | what | sector | blocks |\n| --- | --- | --- | --- |\n");
	for (uint64_t e = from; e <= to && e - from < 200; e++) {
		const struct bo_log_entry *le = bo_log_entry(log, e);

		if (le->flags & BO_LOG_MARK)
			fprintf(f, "| %" PRIu64 " | mark `%s` | | |\n", e,
				bo_log_mark_name(log, e));
		else
			fprintf(f, "| %" PRIu64 " | %s | %" PRIu64 " | %" PRIu64 " |\n", e,
				bo_log_flags_str(le->flags, flags, sizeof(flags)), le->sector,
				le->nr_sectors);
	}
	if (to - from >= 200)
		fprintf(f, "| ... | %" PRIu64 " entries in all | | |\n", to - from + 1);
}

/* The state's minimal witness (check --witness: docs/crash-states.md), its story as explain
 * tells it, into @f; nothing when the check looked for none. */
static void write_witness(FILE *f, struct json_object *st)
{
	struct json_object *w, *story;
	const char *none;

	if (!json_object_object_get_ex(st, "witness", &w))
		return;
	fprintf(f, "\n## The minimal witness\n\n");
	none = bo_json_str(w, "none");
	if (none) {
		_cleanup_free_ char *clean = bo_sanitize(none, true);

		fprintf(f, "None: %s\n", clean ? clean : "?");
		return;
	}
	if (!json_object_object_get_ex(w, "story", &story) ||
	    !json_object_is_type(story, json_type_array)) {
		fprintf(f, "The state's record holds no story of it.\n");
		return;
	}
	fprintf(f,
		"The fewest writes that decide the loss, as blackout's check found them:\n\n```\n");
	for (size_t i = 0; i < json_object_array_length(story) && i < 200; i++) {
		const char *line = json_object_get_string(json_object_array_get_idx(story, i));
		_cleanup_free_ char *clean = line ? bo_sanitize(line, true) : NULL;

		/* a stranger's line cannot close the block */
		for (char *c = clean; c && *c; c++)
			if (*c == '`')
				*c = '\'';
		fprintf(f, "%s\n", clean ? clean : "");
	}
	fprintf(f, "```\n");
}

/* What repro.c's ack promised: its PROMISE line, into a static buffer ("?" without one). */
static const char *promise_text(const char *code)
{
	static char buf[256];
	const char *p = strstr(code, "\n#define PROMISE \"");
	size_t n;

	if (!p)
		return "?";
	p += strlen("\n#define PROMISE \"");
	n = strcspn(p, "\"\n");
	snprintf(buf, sizeof(buf), "%.*s", (int) n, p);
	return buf;
}

/* Whether the directory open at @fd holds nothing. */
static bool dir_empty(int fd)
{
	DIR *d = fdopendir(dup(fd));
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* One export: the state it takes, and what it writes, made before DIR is touched. */
struct export_job {
	struct bo_diary d;
	struct json_object *st;
	uint64_t upto;
	/* A workload of its own (not fsops'): what run.sh runs in repro's place. */
	struct bo_export_workload wl;
	bool own;
	char *cmd, *code, *ft, *golden, *run, *cache, *report;
	size_t run_len, cache_len, report_len;
	struct bo_err ft_err;
	char what[512];
};

static void export_clear(struct export_job *x)
{
	bo_export_workload_clear(&x->wl);
	free(x->cmd);
	free(x->code);
	free(x->ft);
	free(x->golden);
	free(x->run);
	free(x->cache);
	free(x->report);
	bo_diary_clear(&x->d);
}

/* The files export writes into the directory open at @dfd, and fstests/ when it has one; and a
 * workload's program. */
static const char *const written[] = {"repro.c",   "repro",	  "ctl.c",	    "ctl",
				      "run.sh",	   "cache.sh",	  "replay.c",	    "replay",
				      "REPORT.md", "fstests/999", "fstests/999.out"};

static int write_file(int dfd, const char *name, const char *text, size_t len, mode_t mode)
{
	return bo_write_file_at(dfd, name, text, len) < 0 || fchmodat(dfd, name, mode, 0) < 0 ? -1
											      : 0;
}

static int write_files(int dfd, const struct export_job *x)
{
	int fdd, r;

	/* repro.c, or for a workload of its own ctl.c, its stand-in for the control channel */
	if (write_file(dfd, x->own ? "ctl.c" : "repro.c", x->own ? bo_export_ctl_c : x->code,
		       strlen(x->own ? bo_export_ctl_c : x->code), 0644) < 0 ||
	    write_file(dfd, "run.sh", x->run, x->run_len, 0755) < 0 ||
	    write_file(dfd, "cache.sh", x->cache, x->cache_len, 0755) < 0 ||
	    write_file(dfd, "replay.c", bo_export_replay_c, strlen(bo_export_replay_c), 0644) < 0 ||
	    write_file(dfd, "REPORT.md", x->report, x->report_len, 0644) < 0)
		return -1;
	if (!x->ft || !x->golden)
		return 0;
	if (mkdirat(dfd, "fstests", 0755) < 0 ||
	    (fdd = openat(dfd, "fstests", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	r = write_file(fdd, "999", x->ft, strlen(x->ft), 0755) < 0 ||
			    write_file(fdd, "999.out", x->golden, strlen(x->golden), 0644) < 0
		    ? -1
		    : 0;
	close(fdd);
	return r;
}

static void remove_files(int dfd, const struct export_job *x)
{
	int e = errno;

	for (size_t i = 0; i < BO_ARRAY_SIZE(written); i++)
		(void) unlinkat(dfd, written[i], 0);
	if (x->wl.exe)
		(void) unlinkat(dfd, x->wl.exe, 0);
	(void) !bo_remove_tree_at(dfd, "files");
	(void) unlinkat(dfd, "fstests", AT_REMOVEDIR);
	errno = e;
}

/* The state of @results to export (@state, or the first that is not consistent) and its first
 * lost op, into @x: 0, or -1 once said why not. */
static int pick(struct export_job *x, const char *results, const char *state)
{
	struct bo_err err = {0};
	const char *alias_of;

	if (bo_diary_load(&x->d, results, &err) < 0 ||
	    bo_diary_state(&x->d, state, &x->st, &alias_of, &err) < 0)
		return bo_cli_error("export: %s", bo_err_str(&err)), -1;
	/* Without STATE: the first that lost an acknowledged op, whatever else it is (a daemon's
	 * twin fails its recovery first, and loses acks later). */
	for (size_t i = 0; !state && x->st && first_lost(x->st, &x->upto) < 0 &&
			   i < json_object_array_length(x->d.states);
	     i++)
		if (first_lost(json_object_array_get_idx(x->d.states, i), &x->upto) == 0)
			x->st = json_object_array_get_idx(x->d.states, i);
	if (!x->st)
		return bo_cli_error("export: '%s' has no state that is not consistent: nothing to "
				    "export",
				    x->d.dir),
		       -1;
	if (first_lost(x->st, &x->upto) < 0)
		return bo_cli_error("export: state %s is %s, with no lost acknowledged op: export "
				    "writes the reproducer of a lost ack (lost-ack)",
				    bo_json_str(x->st, "state"), bo_json_str(x->st, "class")),
		       -1;
	if (!x->d.sc || x->d.sc->ndevices || x->d.sc->cluster)
		return bo_cli_error("export: '%s': export takes a run of one device with its "
				    "scenario.ini",
				    x->d.dir),
		       -1;
	return 0;
}

/* repro.c, and the fstests form with its golden output: none for a planted bug (the
 * workload's, not the kernel's), or when blackout-fsops cannot write it (said later). */
static int make_programs(struct export_job *x)
{
	_cleanup_free_ char *ft_cmd = NULL;
	struct bo_err err = {0};
	int k = bo_scenario_export_command(x->d.sc, "repro", x->upto, &x->cmd);

	if (k == -ENOTSUP)
		return (x->own = true), bo_export_workload_make(x->d.sc, x->d.dir, &x->wl);
	if (k < 0 || fsops_output(x->cmd, &x->code, &err) < 0)
		return bo_cli_error("export: %s", k < 0 ? "out of memory" : bo_err_str(&err)), -1;
	if (bo_scenario_export_command(x->d.sc, "fstests", x->upto, &ft_cmd) < 0)
		return bo_cli_error("export: out of memory"), -1;
	if (!x->d.sc->bug && fsops_output(ft_cmd, &x->ft, &x->ft_err) == 0 &&
	    asprintf(&x->golden,
		     "QA output created by 999\nkept: op %" PRIu64 "'s acknowledgement (%s)\n",
		     x->upto, promise_text(x->code)) < 0)
		x->golden = NULL;
	return 0;
}

/* REPORT.md into @f. */
static void write_report(FILE *f, const struct export_job *x, const char *mkfs, const char *release)
{
	const struct bo_scenario *sc = x->d.sc;

	fprintf(f, "# op %" PRIu64 "'s acknowledgement is lost after a power cut (%s)\n\n", x->upto,
		bo_fs_name(sc->fs));
	fprintf(f,
		"- **Kernel:** %s\n- **Filesystem:** %s, made with `%s`, mounted with `%s`\n"
		"- **Found by:** blackout, %s\n",
		release, bo_fs_name(sc->fs), mkfs,
		*sc->mount_options ? sc->mount_options : "(none)", x->what);
	if (x->own) {
		fprintf(f,
			"- **The promise:** the workload's: an op it acknowledged is seen by its "
			"checker after any power cut that follows (blackout's "
			"docs/checkers.md)\n\n");
		bo_export_workload_report(f, &x->wl, x->upto);
	} else {
		fprintf(f,
			"- **The promise:** what the acknowledgement promises (repro.c says it), "
			"as %s\n\n",
			bo_fs_desc(sc->fs)->promise_source);
		fprintf(f, "## Reproduce\n\n```sh\ncc -O2 -o repro repro.c   # or the repro built "
			   "beside it\nsudo ./run.sh              # or: sudo ./run.sh "
			   "/dev/SCRATCH\n```\n\n"
			   "run.sh exits 1 with a line `LOST: ...` where the acknowledgement is "
			   "lost, 0 where it is kept. `fstests/999` is the same as a test in "
			   "fstests' form (where the workload has no planted bug).\n\n");
	}
	fprintf(f, "## The log between the op's issue and its acknowledgement\n\n");
	write_entries(f, x->d.log, x->upto);
	write_witness(f, x->st);
	if (x->own)
		fprintf(f, "\nThe workload: `%s`; its checker: `%s`.\n", x->wl.line,
			x->wl.check_line);
	else
		fprintf(f,
			"\nThe workload: `%s` (blackout-fsops; the ops up to op %" PRIu64
			" are in repro.c).\n",
			x->cmd, x->upto);
}

/* run.sh and REPORT.md, in memory. */
static int make_texts(struct export_job *x)
{
	const char *recovery = bo_json_str(x->st, "recovery"), *release = "?";
	char mkfs[2048], repair[512];
	struct bo_export_script script;
	struct json_object *kernel;
	bool ok = true;
	struct bo_err err = {0};
	FILE *f;

	if (mkfs_line(x->d.sc, mkfs, sizeof(mkfs), &err) < 0)
		return bo_cli_error("export: %s", bo_err_str(&err)), -1;
	repair_line(x->d.sc, recovery && !strcmp(recovery, "fsck"), repair, sizeof(repair));
	if (x->d.config && json_object_object_get_ex(x->d.config, "kernel", &kernel) &&
	    bo_json_str(kernel, "release"))
		release = bo_json_str(kernel, "release");
	snprintf(x->what, sizeof(x->what),
		 "state %s of %s: op %" PRIu64 "'s acknowledgement lost on %s, Linux %s",
		 bo_json_str(x->st, "state"), x->d.dir, x->upto, bo_fs_name(x->d.sc->fs), release);
	/* A stranger's state id or kernel release goes into the scripts' first line: nothing in
	 * it may end that comment. */
	for (char *p = x->what; *p; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			*p = '?';
	script = (struct bo_export_script){.sc = x->d.sc,
					   .mkfs = mkfs,
					   .repair = repair,
					   .upto = x->upto,
					   .what = x->what,
					   .workload = x->own ? &x->wl : NULL,
					   .seed = x->d.sc->workload_seed,
					   .timeout = x->d.sc->workload_timeout,
					   .checker_timeout = x->d.sc->checker_timeout};
	if ((f = open_memstream(&x->run, &x->run_len))) {
		ok = bo_export_run_sh(f, &script) == 0;
		ok = fclose(f) == 0 && ok;
	}
	if (ok && (f = open_memstream(&x->cache, &x->cache_len))) {
		ok = bo_export_cache_sh(f, &script) == 0;
		ok = fclose(f) == 0 && ok;
	}
	if ((f = open_memstream(&x->report, &x->report_len))) {
		write_report(f, x, mkfs, release);
		fclose(f);
	}
	if (!ok || !x->run || !x->cache || !x->report)
		return bo_cli_error("export: out of memory"), -1;
	return 0;
}

/* Build @out/@name from @name.c where a compiler is: static, so that a VM without libraries
 * runs it; else the scripts build it. */
static void build(int dfd, const char *out, const char *name)
{
	char path[PATH_MAX], src[PATH_MAX];
	char *cc[] = {"cc", "-O2", "-static", "-o", path, src, NULL};
	struct bo_proc_opts o = {.argv = cc, .timeout_ms = 120000, .merge_stderr = true};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	if (bo_pathf(path, sizeof(path), "%s/%s", out, name) < 0 ||
	    bo_pathf(src, sizeof(src), "%s/%s.c", out, name) < 0)
		return;
	if (bo_proc_run(&o, &r, &err) < 0 || r.end != BO_PROC_EXITED || r.status != 0) {
		bo_cli_note("export: %s not built here (%.200s): the scripts build it with cc",
			    name, r.out && *r.out ? r.out : bo_err_str(&err));
		(void) unlinkat(dfd, name, 0);
	}
	bo_proc_result_clear(&r);
}

/* Write @x into @out (made, or an empty directory): 0, or -1 once said why, with nothing of
 * it left behind. */
static int emit(const struct export_job *x, const char *out)
{
	bool made_dir = mkdir(out, 0755) == 0;
	int dfd;

	if (!made_dir && errno != EEXIST)
		return bo_cli_error("export: creating '%s': %s", out, strerror(errno)), -1;
	dfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dfd < 0 || !dir_empty(dfd)) {
		bo_cli_error("export: '%s': %s", out,
			     dfd < 0 ? strerror(errno)
				     : "not empty: export writes into an empty directory only");
		if (dfd >= 0)
			close(dfd);
		if (made_dir)
			(void) rmdir(out);
		return -1;
	}
	if (write_files(dfd, x) < 0 || (x->own && bo_export_workload_write(out, &x->wl) < 0)) {
		bo_cli_error("export: writing into '%s': %s", out, strerror(errno));
		remove_files(dfd, x);
		close(dfd);
		if (made_dir)
			(void) rmdir(out);
		return -1;
	}
	if (x->own)
		bo_cli_note("export: no fstests form: the workload is its own, its checker not "
			    "fstests'");
	else if (!x->ft || !x->golden)
		bo_cli_note("export: no fstests form: %s",
			    x->d.sc->bug ? "a planted bug is the workload's, not the kernel's"
					 : bo_err_str(&x->ft_err));
	build(dfd, out, x->own ? "ctl" : "repro");
	build(dfd, out, "replay");
	close(dfd);
	return 0;
}

static int cmd_export(int argc, char **argv)
{
	struct export_args ea = {0};
	const struct bo_opt_set sets[] = {{export_opts, BO_ARRAY_SIZE(export_opts), &ea}};
	int k, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("export", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, export_help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (argc - k < 1 || argc - k > 2)
		return bo_cli_usage_error("export", "expected RESULTS [STATE]");
	if (!ea.out)
		return bo_cli_usage_error("export", "--out DIR is required");
	if (bo_export_state(argv[k], argc - k == 2 ? argv[k + 1] : NULL, ea.out) == 0)
		ret = BO_EXIT_OK;
	return ret;
}

int bo_export_state(const char *results, const char *state, const char *out)
{
	struct export_job x = {0};
	int r = -1;

	if (pick(&x, results, state) == 0 && make_programs(&x) == 0 && make_texts(&x) == 0 &&
	    emit(&x, out) == 0) {
		printf("%s: %s%s, run.sh, cache.sh, replay.c, REPORT.md%s: %s\n", out,
		       x.own ? "ctl.c, " : "repro.c",
		       !x.own	  ? ""
		       : x.wl.exe ? x.wl.exe
				  : "files/",
		       x.ft && x.golden ? ", fstests/999" : "", x.what);
		r = 0;
	}
	export_clear(&x);
	return r;
}

const struct bo_cmd bo_cmd_export = {
	"export", cmd_export, "write a lost acknowledgement as a reproducer without blackout"};

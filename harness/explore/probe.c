// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe.c — stage 4 of the check loop (stages.h): what a crash state does on the real kernel.
 * The filesystem's recovery runs: the mount's (a journal replayed), or, for a filesystem
 * without a journal, fsck's repair before the mount, as a boot does (recovery = fsck). The
 * checker runs in it (the application's recovery and its report of which ops it finds), it is
 * unmounted and fsck'd read-only: what every state costs at least. The kernel's messages are
 * those of this state alone, from a nonce on.
 */
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
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/dev/fsdetect.h"
#include "harness/dev/fstool.h"
#include "harness/dev/kmsg.h"
#include "harness/dev/mntarea.h"
#include "harness/dev/mount.h"
#include "harness/explore/stages.h"

/* A cluster's network, and each node's working directory: the mount point of its first
 * filesystem of the layout. */
static int cluster_setup(struct explore *x, struct bo_err *err)
{
	const struct bo_cluster *c = x->o->cluster;

	for (unsigned n = 0; n < c->n; n++)
		for (unsigned d = 0; !x->node_cwd[n] && d < c->v[n].ndev; d++)
			for (unsigned i = 0; i < x->n_parts; i++)
				if (!strcmp(x->o->layout->v[i].name, c->v[n].dev[d]) &&
				    !x->part_raw[i])
					x->node_cwd[n] = x->part_mnt[i];
	for (unsigned n = 0; n < c->n; n++)
		if (!x->node_cwd[n])
			return bo_err_set(err, EINVAL,
					  "node '%s': none of its devices is a filesystem of the "
					  "log's layout",
					  c->v[n].name);
	/* What every command of the cluster is told of it: the same for every state. */
	if (bo_cluster_env_vars(c, &x->cluster_env) < 0)
		return bo_err_set(err, ENOMEM, "the cluster's environment");
	return bo_cluster_up(c, x->o->root, &x->cluster, err);
}

int probe_setup(struct explore *x, struct bo_err *err)
{
	const char *wd = x->o->workdir;

	/* Where the workload ran (dev/mntarea.h), so that its absolute paths lead where they
	 * did. */
	snprintf(x->mnt, sizeof(x->mnt), "%s", BO_MNT_ROOT);
	snprintf(x->issued, sizeof(x->issued), "%s/issued", wd);
	snprintf(x->acked, sizeof(x->acked), "%s/acked", wd);
	for (unsigned i = 0; i < BO_LAYOUT_MAX; i++)
		x->part_journal[i] = -1;
	if (mkdir(x->mnt, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", x->mnt, strerror(errno));
	/* Several devices: state/NAME for each filesystem. */
	for (unsigned i = 0; i < x->n_parts; i++) {
		if (x->part_raw[i])
			continue;
		if (bo_pathf(x->part_mnt[i], sizeof(x->part_mnt[i]), "%s/%s", x->mnt,
			     x->o->layout->v[i].name) < 0)
			return bo_err_set(err, ENAMETOOLONG, "mount point of device '%s'",
					  x->o->layout->v[i].name);
		if (mkdir(x->part_mnt[i], 0755) < 0 && errno != EEXIST)
			return bo_err_set(err, errno, "creating '%s': %s", x->part_mnt[i],
					  strerror(errno));
	}
	return x->o->cluster ? cluster_setup(x, err) : 0;
}

void probe_teardown(struct explore *x)
{
	bo_cluster_down(x->cluster);
	x->cluster = NULL;
	bo_strv_free(x->cluster_env);
	x->cluster_env = NULL;
	if (!x->mnt[0])
		return;
	unlink(x->issued);
	unlink(x->acked);
	for (unsigned i = 0; i < x->n_parts; i++)
		if (x->part_mnt[i][0])
			rmdir(x->part_mnt[i]);
}

/* The op sets before the cut, the checker's input (BLACKOUT_ISSUED, BLACKOUT_ACKED). */
static int write_op_files(struct explore *x, uint64_t applied, struct bo_err *err)
{
	const char *paths[2] = {x->issued, x->acked};

	for (int i = 0; i < 2; i++) {
		_cleanup_close_ int fd = open(paths[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		int r;

		if (fd < 0)
			return bo_err_set(err, errno, "writing '%s': %s", paths[i],
					  strerror(errno));
		r = bo_ops_write_before(&x->ops, applied, i == 1, fd);
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", paths[i], strerror(-r));
	}
	return 0;
}

int probe_begin(struct explore *x, struct state_run *s)
{
	struct bo_err err = {0};

	if (bo_kmsg_begin(s->id, &s->km, &err) < 0)
		state_run_fail(s, &err);
	/* The op files are the checker's input: without a checker nothing reads them. */
	if (x->o->checker && write_op_files(x, s->applied, &err) < 0) {
		state_run_fail(s, &err);
		return -1;
	}
	return 0;
}

/*
 * @cmd as its words in @argv (room for @max), when running it needs no shell: a command name
 * and arguments of plain characters, blank-separated — what a builtin's checker command is.
 * The shell is then a fork and an exec per state for nothing (~a third of a small checker's
 * time under TCG). Returns false when @cmd needs /bin/sh: any quoting, expansion, operator,
 * redirection, assignment or a shell builtin.
 */
static bool plain_words(char *cmd, char **argv, size_t max)
{
	static const char *const builtins[] = {
		".",	    ":",	"alias",  "bg",	    "break", "cd",	"chdir",  "command",
		"continue", "echo",	"eval",	  "exec",   "exit",  "export",	"false",  "fc",
		"fg",	    "getopts",	"hash",	  "jobs",   "kill",  "local",	"printf", "pwd",
		"read",	    "readonly", "return", "set",    "shift", "source",	"test",	  "times",
		"trap",	    "true",	"type",	  "ulimit", "umask", "unalias", "unset",  "wait"};
	size_t n = 0;

	if (strspn(cmd,
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 _./,:+@%=-") !=
		    strlen(cmd) ||
	    !*cmd || *cmd == ' ')
		return false;
	for (char *p = cmd; *p && n + 1 < max;) {
		argv[n++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = '\0';
		p += strspn(p, " ");
	}
	argv[n] = NULL;
	if (n + 1 >= max || strchr(argv[0], '='))
		return false;
	for (size_t i = 0; i < BO_ARRAY_SIZE(builtins); i++)
		if (!strcmp(argv[0], builtins[i]))
			return false;
	return true;
}

/* The PATH of the checker's environment @env: the last PATH= in it, else NULL (this
 * process's). */
static const char *env_path(char *const *env)
{
	const char *path = NULL;

	for (size_t i = 0; env && env[i]; i++)
		if (!strncmp(env[i], "PATH=", 5))
			path = env[i] + 5;
	return path;
}

/* The nodes of survivor set s->set started on the mounted state, with @env, each logging into
 * the work directory. */
static int nodes_start(struct explore *x, struct state_run *s, char *const *env, struct bo_err *err)
{
	struct bo_cluster_env e = {
		.env = env, .user = x->o->user, .root = x->o->root, .logdir = x->o->workdir};

	memcpy(e.cwd, x->node_cwd, sizeof(e.cwd));
	return bo_cluster_start(x->cluster, s->set, &e, err);
}

/* The nodes stopped (before the unmount): what each did, and its output, kept in @s. */
static void nodes_stop(struct explore *x, struct state_run *s)
{
	const struct bo_cluster *c = x->o->cluster;
	struct bo_err err = {0};

	if (bo_cluster_stop(x->cluster, &s->nodes_report, &err) < 0)
		state_run_fail(s, &err);
	for (unsigned i = 0; i < c->n; i++) {
		char log[PATH_MAX];
		size_t len;

		if (!(s->set & (1u << i)) ||
		    bo_pathf(log, sizeof(log), "%s/%s.log", x->o->workdir, c->v[i].name) < 0)
			continue;
		if (bo_read_file(log, 1u << 20, &s->node_log[i], &len) < 0)
			s->node_log[i] = NULL;
		unlink(log);
	}
}

/* Run the checker in the mounted state: its output is judged by judge.c. */
static void run_checker(struct explore *x, struct state_run *s)
{
	const struct bo_explore_opts *o = x->o;
	char *shell[] = {"/bin/sh", "-c", (char *) o->checker, NULL}, *words[64], prog[PATH_MAX];
	_cleanup_free_ char *copy = strdup(o->checker);
	char **argv = shell;
	char e_mnt[PATH_MAX + 16], e_state[BO_CRASH_ID_MAX + 16], e_iss[PATH_MAX + 20],
		e_ack[PATH_MAX + 20];
	char e_cut[48], e_dev[2 * BO_LAYOUT_MAX][PATH_MAX + 40];
	char e_surv[BO_CLUSTER_SET_NAME_MAX + 32], e_fresh[BO_LOG_MARK_MAX(4096) + 32];
	char *env[32 + 2 * BO_LAYOUT_MAX + BO_CLUSTER_MAX + 4];
	const struct bo_fresh *fr = bo_ops_fresh_at(&x->ops, s->applied);
	const char *cwd = o->primary >= 0 && x->n_parts ? x->part_mnt[o->primary] : x->mnt;
	size_t n = 0;
	int k;
	struct bo_proc_opts po = {
		.argv = argv,
		.env_add = env,
		.cwd = cwd,
		.timeout_ms = o->checker_timeout * 1000u,
		.user = o->user,
		.root = o->root,
	};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	snprintf(e_mnt, sizeof(e_mnt), "BLACKOUT_MNT=%s", cwd);
	snprintf(e_state, sizeof(e_state), "BLACKOUT_STATE=%s", s->id);
	snprintf(e_iss, sizeof(e_iss), "BLACKOUT_ISSUED=%s", x->issued);
	snprintf(e_ack, sizeof(e_ack), "BLACKOUT_ACKED=%s", x->acked);
	snprintf(e_cut, sizeof(e_cut), "BLACKOUT_CUT=%" PRIu64, s->applied);
	env[n++] = e_mnt;
	env[n++] = e_state;
	env[n++] = e_iss;
	env[n++] = e_ack;
	env[n++] = e_cut;
	/* On a fresh filesystem (docs/ctl.md): its label, what its workload named it. */
	if (fr) {
		snprintf(e_fresh, sizeof(e_fresh), "BLACKOUT_FRESH=%s",
			 bo_log_mark_name(x->log, fr->fresh) + 6);
		env[n++] = e_fresh;
	}
	/* Each device by name, as the workload had them (harness/record/record.c). */
	for (unsigned i = 0; i < x->n_parts; i++) {
		char up[BO_LAYOUT_NAME_MAX + 1];

		bo_layout_env_name(o->layout->v[i].name, up);
		snprintf(e_dev[2 * i], sizeof(e_dev[0]), "BLACKOUT_DEV_%s=%s", up, x->part_dev[i]);
		env[n++] = e_dev[2 * i];
		if (!x->part_raw[i]) {
			snprintf(e_dev[2 * i + 1], sizeof(e_dev[0]), "BLACKOUT_MNT_%s=%s", up,
				 x->part_mnt[i]);
			env[n++] = e_dev[2 * i + 1];
		}
	}
	for (size_t i = 0; o->checker_env && o->checker_env[i] && n + 1 < BO_ARRAY_SIZE(env); i++)
		env[n++] = o->checker_env[i];
	/* A cluster's nodes and the survivors restarted, for the checker and the nodes. */
	if (s->set) {
		char set[BO_CLUSTER_SET_NAME_MAX];

		for (size_t i = 0; x->cluster_env[i] && n + 2 < BO_ARRAY_SIZE(env); i++)
			env[n++] = x->cluster_env[i];
		bo_cluster_set_name(o->cluster, s->set, set, sizeof(set));
		for (char *c = set; *c; c++)
			*c = *c == '+' ? ' ' : *c;
		snprintf(e_surv, sizeof(e_surv), "BLACKOUT_SURVIVORS=%s", set);
		env[n++] = e_surv;
	}
	env[n] = NULL;
	/* Not in another root nor as another user: the program is found, and its right to run
	 * judged, there and as them, not here and as this process. */
	if (copy && !o->root && !o->user && plain_words(copy, words, BO_ARRAY_SIZE(words)) &&
	    bo_path_find(words[0], env_path(env), prog, sizeof(prog))) {
		words[0] = prog;
		argv = words;
	}
	po.argv = argv;

	if (s->set && nodes_start(x, s, env, &err) < 0) {
		s->obs.checker = BO_CHECKER_NOT_RUN;
		snprintf(s->checker_how, sizeof(s->checker_how), "%s", bo_err_str(&err));
		return;
	}
	k = bo_proc_run(&po, &r, &err);
	if (s->set)
		nodes_stop(x, s);
	if (k < 0) {
		s->obs.checker = BO_CHECKER_NOT_RUN;
		snprintf(s->checker_how, sizeof(s->checker_how), "%s", bo_err_str(&err));
		return;
	}
	bo_proc_describe(&r, &po, s->checker_how, sizeof(s->checker_how));
	s->obs.checker = r.end == BO_PROC_EXITED     ? BO_CHECKER_EXITED
			 : r.end == BO_PROC_SIGNALED ? BO_CHECKER_SIGNALED
						     : BO_CHECKER_TIMEOUT;
	s->obs.checker_status = r.status;
	s->checker_out = BO_TAKE_PTR(r.out);
	s->checker_out_len = r.out_len;
	s->checker_err = BO_TAKE_PTR(r.err);
	/* A daemon it started and did not stop (pg_ctl's server is in a session of its own):
	 * ended with it, and said in the record; the state is judged by what the checker said. */
	s->checker_left = bo_proc_left_str(&r);
	bo_proc_result_clear(&r);
}

/* What is on @dev that did not mount (s->signature): libblkid's probe, in a word. */
static void signature(struct state_run *s, const char *dev)
{
	char type[32];
	int r = bo_fs_detect(dev, type, sizeof(type), NULL);

	snprintf(s->signature, sizeof(s->signature), "%s",
		 r >= 0		  ? type
		 : r == -ENODATA  ? "none"
		 : r == -ENOTUNIQ ? "ambivalent"
				  : "unreadable");
}

/*
 * Whether filesystem @fs on @dev (part @i; 0 for one device) is recovered by fsck's repair
 * before the mount: as asked, or (AUTO) where @fs has a repair and this state's super block
 * says it has no journal. A super block that says nothing (damaged) is taken to be as the last
 * one seen, else as @fs is made by default (ext4 with a journal, ext2 and vfat without).
 */
static bool by_fsck(struct explore *x, unsigned i, enum bo_fs fs, const char *dev)
{
	int j;

	if (x->o->recovery != BO_RECOVERY_AUTO)
		return x->o->recovery == BO_RECOVERY_FSCK;
	if (!bo_fs_can_repair(fs))
		return false;
	j = bo_fs_has_journal(fs, dev, NULL);
	if (j >= 0)
		x->part_journal[i] = j;
	else
		j = x->part_journal[i] >= 0 ? x->part_journal[i] : fs == BO_FS_EXT4;
	return !j;
}

/* The repair of @fs on @dev (its other devices @devs, NULL: none), before the mount: its
 * verdict into the observation (the worst of several devices), its output appended to
 * s->repair_out. */
static void repair(struct explore *x, struct state_run *s, const char *name, enum bo_fs fs,
		   const char *dev, const struct bo_fs_devs *devs)
{
	struct bo_proc_result rr = {0};
	struct bo_err err = {0};
	enum bo_repair_verdict v;
	double t = bo_now();
	char *out = NULL;

	if (bo_repair(fs, dev, devs, x->o->fsck_timeout * 1000u, &v, &rr, &err) < 0)
		state_run_fail(s, &err);
	if (!s->obs.repaired || v > s->obs.repair)
		s->obs.repair = v;
	s->obs.repaired = true;
	if (asprintf(&out, "%s%s%s%s%.*s", s->repair_out ? s->repair_out : "",
		     name ? "== device " : "", name ? name : "", name ? "\n" : "", (int) rr.out_len,
		     rr.out ? rr.out : "") >= 0) {
		free(s->repair_out);
		s->repair_out = out;
	}
	bo_proc_result_clear(&rr);
	s->t_repair += bo_now() - t;
}

/* Whether a repair before the mount left a filesystem that cannot come back: a boot stops
 * there, so neither mount nor checker runs (the read-only fsck still tells what is left). */
static bool repair_stopped(const struct state_run *s)
{
	return s->obs.repaired && s->obs.repair >= BO_REPAIR_FAILED;
}

/* Append "device NAME: @msg" to @buf (a list of what each device said). */
static void note(char *buf, size_t len, const char *name, const char *msg)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%sdevice %s: %s", n ? "; " : "", name, msg);
}

/*
 * The probe of a state of several devices: every filesystem mounted (the state is mounted
 * only when all are), the checker, every filesystem unmounted and fsck'd with its journal;
 * the worst fsck verdict stands, their outputs one after the other. A filesystem over several
 * devices is mounted naming them all, once the kernel forgot what it saw of the devices of
 * another state or of the recording (bo_mount_forget_devices()), and fsck'd seeing them
 * alone.
 */
static int probe_parts(struct explore *x, struct state_run *s)
{
	const struct bo_explore_opts *o = x->o;
	struct bo_err err = {0};
	bool mounted[BO_LAYOUT_MAX] = {false}, all = true;
	char *fsck_all = NULL;
	size_t fsck_len = 0;
	FILE *fo;
	double t = bo_now();
	int r = 0;

	for (unsigned i = 0; i < x->n_parts; i++)
		if (!x->part_raw[i] && by_fsck(x, i, x->part_fs[i], x->part_dev[i]))
			repair(x, s, o->layout->v[i].name, x->part_fs[i], x->part_dev[i],
			       &x->part_devs[i]);
	t = bo_now();
	for (unsigned i = 0; i < x->n_parts && !repair_stopped(s); i++) {
		const struct bo_fs_devs *devs = &x->part_devs[i];
		_cleanup_free_ char *mo = NULL;
		int k = 0;

		if (x->part_raw[i])
			continue;
		mo = bo_mount_options_devs(x->part_fs[i], o->dev_mount_options[i], devs);
		if (!mo)
			k = bo_err_set(&err, ENOMEM, "out of memory");
		/* blackout's failure, not the state's: no verdict */
		if (k >= 0 && devs->spans[0] && bo_mount_forget_devices(x->part_fs[i], &err) < 0) {
			state_run_fail(s, &err);
			all = false;
			continue;
		}
		if (k >= 0)
			k = bo_mount(x->part_dev[i], x->part_mnt[i], bo_fs_name(x->part_fs[i]), mo,
				     &err);
		if (k < 0) {
			note(s->mount_msg, sizeof(s->mount_msg), o->layout->v[i].name,
			     bo_err_str(&err));
			if (all)
				signature(s, x->part_dev[i]);
			all = false;
		} else {
			mounted[i] = true;
		}
	}
	s->obs.mounted = all && !repair_stopped(s);
	s->t_mount = bo_now() - t;
	t = bo_now();
	if (s->obs.mounted && bo_test_stall("check", &err) < 0)
		state_run_fail(s, &err);
	else if (s->obs.mounted && o->checker)
		run_checker(x, s);
	s->t_checker = bo_now() - t;
	t = bo_now();
	for (unsigned i = 0; i < x->n_parts; i++) {
		int u;

		if (!mounted[i])
			continue;
		/* What the checker started is gone (base/proc.h): a mount still busy names
		 * what holds it, and the state is not evaluated. */
		u = bo_umount(x->part_mnt[i], BO_UMOUNT_DETACH_ON_FAILURE, &err);
		if (u != 0) {
			state_run_fail(s, &err);
			r = -1;
		}
	}
	s->t_umount = bo_now() - t;
	if (r < 0)
		return r;
	t = bo_now();
	s->obs.fsck = BO_FSCK_CLEAN;
	fo = open_memstream(&fsck_all, &fsck_len);
	for (unsigned i = 0; i < x->n_parts; i++) {
		struct bo_proc_result fr = {0};
		enum bo_fsck_verdict v;

		if (x->part_raw[i])
			continue;
		if (bo_fsck(x->part_fs[i], x->part_dev[i], &x->part_devs[i],
			    o->fsck_timeout * 1000u, NULL, &v, &fr, &err) < 0 &&
		    s->obs.mounted)
			state_run_fail(s, &err);
		if (fo)
			fprintf(fo, "== device %s (%s)\n%.*s", o->layout->v[i].name,
				bo_fs_name(x->part_fs[i]), (int) fr.out_len, fr.out ? fr.out : "");
		bo_proc_result_clear(&fr);
		if (v > s->obs.fsck)
			s->obs.fsck = v;
	}
	if (fo && fclose(fo) == 0)
		s->fsck_out = fsck_all;
	else
		free(fsck_all);
	s->t_fsck = bo_now() - t;
	return 0;
}

int probe(struct explore *x, struct state_run *s, const char *dev)
{
	const struct bo_explore_opts *o = x->o;
	struct bo_proc_result fr = {0};
	struct bo_err err = {0};
	double t = bo_now();
	int r;

	if (x->n_parts)
		return probe_parts(x, s);
	if (by_fsck(x, 0, x->fs, dev)) {
		repair(x, s, NULL, x->fs, dev, NULL);
		t = bo_now();
	}
	if (repair_stopped(s)) {
		snprintf(s->mount_msg, sizeof(s->mount_msg), "not mounted: the repair before it %s",
			 s->obs.repair == BO_REPAIR_FAILED ? "failed" : "had no verdict");
	} else if (bo_mount(dev, x->mnt, o->fs, o->mount_options, &err) < 0) {
		snprintf(s->mount_msg, sizeof(s->mount_msg), "%s", bo_err_str(&err));
		signature(s, dev);
	} else {
		s->obs.mounted = true;
		s->t_mount = bo_now() - t;
		t = bo_now();
		if (bo_test_stall("check", &err) < 0)
			state_run_fail(s, &err);
		else if (o->checker)
			run_checker(x, s);
		s->t_checker = bo_now() - t;
		t = bo_now();
		/* What the checker started is gone (base/proc.h), but something else may still
		 * hold the mount: it is named, the mount detached lazily so that the next state
		 * gets a free mount point, and this state counted as not evaluated. */
		r = bo_umount(x->mnt, BO_UMOUNT_DETACH_ON_FAILURE, &err);
		if (r != 0) {
			state_run_fail(s, &err);
			return -1;
		}
		s->t_umount = bo_now() - t;
	}
	t = bo_now();
	if (bo_test_stall("fsck", &err) < 0)
		state_run_fail(s, &err);
	/* On a state that did not mount, fsck's output is evidence, its verdict is not: xfs_repair
	 * refuses a log that was never replayed. */
	if (bo_fsck(x->fs, dev, NULL, o->fsck_timeout * 1000u, NULL, &s->obs.fsck, &fr, &err) < 0 &&
	    s->obs.mounted)
		state_run_fail(s, &err);
	s->fsck_out = BO_TAKE_PTR(fr.out);
	bo_proc_result_clear(&fr);
	s->t_fsck = bo_now() - t;
	return 0;
}

void probe_end(struct explore *x, struct state_run *s)
{
	struct bo_err err = {0};

	if (s->km && bo_kmsg_collect(s->km, &s->dmesg, &err) < 0)
		state_run_fail(s, &err);
	bo_kmsg_free(s->km);
	s->km = NULL;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmrun.c — the guest side of a command in a fresh VM (vmrun.h).
 */
#include "harness/cli/vmrun.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/base/sha256.h"
#include "harness/cli/cli.h"
#include "harness/cli/shipped.h"
#include "harness/dev/fstab.h"
#include "harness/replay/basesrv.h"
#include "harness/results/progress.h"
#include "vm/initramfs.h"
#include "vm/kernel.h"
#include "vm/share.h"
#include "vm/vm.h"

static const char *positive_u32(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 || n == 0 || n > UINT32_MAX ? "not a positive number"
								     : NULL;
}

/* --memory: MiB a VM can have (bo_vm_memory_check()). */
static const char *memory_problem(const char *val)
{
	static struct bo_err e;
	uint64_t n;

	if (bo_parse_u64_in(val, 0, UINT32_MAX, &n) < 0)
		return "not a number of MiB below 2^32";
	return bo_vm_memory_check(n, &e) < 0 ? e.msg : NULL;
}

const struct bo_opt bo_vm_opts[] = {
	{"kernel", "IMAGE", offsetof(struct vm_args, kernel), BO_OPT_HOST, NULL, NULL,
	 "a kernel of your own: with --modules, or alone when everything\n"
	 "blackout needs is built in (default: Debian's)"},
	{"modules", "DIR", offsetof(struct vm_args, modules), BO_OPT_HOST, NULL, NULL,
	 "the module directory of --kernel (lib/modules/RELEASE)"},
	{"kernel-tree", "DIR", offsetof(struct vm_args, kernel_tree), BO_OPT_HOST, NULL, NULL,
	 "a kernel build tree as it is: its image, .config and modules,\n"
	 "no install step (docs/vm.md)"},
	{"kernel-release", "R", offsetof(struct vm_args, kernel_release), BO_OPT_HOST, NULL, NULL,
	 "a cached Debian kernel by release or its prefix (6.12, 6.1.0-57;\n"
	 "blackout kernel list; default: what linux-image-amd64 depends on)"},
	{"memory", "MB", offsetof(struct vm_args, memory), BO_OPT_HOST, NULL, memory_problem,
	 "guest memory (256 to this host's memory)"},
	{"timeout", "S", offsetof(struct vm_args, timeout), BO_OPT_HOST, NULL, positive_u32,
	 "kill the VM after S seconds (default: from the command)"},
	{"file", "PATH", offsetof(struct vm_args, files), BO_OPT_HOST | BO_OPT_LIST, NULL, NULL,
	 "a host file the guest needs too, at the same path (repeatable;\n"
	 "directories recursively, ELF files with the libraries they load)"},
	{"in-place", NULL, offsetof(struct vm_args, in_place), BO_OPT_HOST, NULL, NULL,
	 "no VM: run here, on this machine's kernel, as root (a machine\n"
	 "set aside for it: only devices blackout makes are touched)"},
	{"quiet", NULL, offsetof(struct vm_args, quiet), BO_OPT_HOST, NULL, NULL,
	 "no notes and no progress lines (blackout -q CMD too)"},
	{"no-progress", NULL, offsetof(struct vm_args, no_progress), BO_OPT_HOST, NULL, NULL,
	 "no progress lines"},
};
const size_t bo_vm_opts_n = BO_ARRAY_SIZE(bo_vm_opts);

void bo_vm_args_read(struct vm_args *v)
{
	uint64_t n;

	if (v->memory && bo_parse_u64(v->memory, &n) == 0)
		v->memory_mb = (unsigned) n;
	if (v->timeout && bo_parse_u64(v->timeout, &n) == 0)
		v->timeout_s = (unsigned) n;
	if (v->quiet)
		bo_cli_quiet = true;
	if (v->quiet || v->no_progress)
		bo_progress_off();
}

void bo_vm_args_clear(struct vm_args *v)
{
	bo_opt_list_clear(&v->files);
}

int bo_vm_args_copy(struct vm_args *dst, const struct vm_args *src)
{
	*dst = *src;
	dst->files = (struct bo_opt_list){0};
	for (size_t i = 0; i < src->files.n; i++)
		if (bo_opt_list_add(&dst->files, src->files.v[i]) < 0) {
			bo_vm_args_clear(dst);
			return -ENOMEM;
		}
	return 0;
}

struct json_object *bo_vm_args_shipped(const struct vm_args *v)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < v->files.n; i++)
		json_object_array_add(a, json_object_new_string(v->files.v[i]));
	for (size_t i = 0; a && v->ship && v->ship[i]; i++)
		json_object_array_add(a, json_object_new_string(v->ship[i]));
	return a;
}

struct bo_kernel_spec bo_vm_args_spec(const struct vm_args *v)
{
	return (struct bo_kernel_spec){v->kernel, v->modules, v->kernel_release, v->kernel_tree};
}

bool bo_vm_args_kernel_named(const struct vm_args *v)
{
	return v->kernel || v->modules || v->kernel_release || v->kernel_tree || v->in_place;
}

int bo_vm_args_kernel(const struct vm_args *v, struct json_object **ret, struct bo_err *err)
{
	struct bo_kernel_spec spec = bo_vm_args_spec(v);
	char image_sha[BO_SHA256_HEX], config_sha[BO_SHA256_HEX];
	struct json_object *o;
	struct bo_kernel k;
	struct utsname u;
	int r;

	if (v->in_place) {
		/* The kernel this machine runs, and no VM. */
		o = json_object_new_object();
		if (!o || uname(&u) < 0) {
			json_object_put(o);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		json_object_object_add(o, "release", json_object_new_string(u.release));
		json_object_object_add(o, "in_place", json_object_new_boolean(true));
		*ret = o;
		return 0;
	}
	r = bo_kernel_find(&spec, &k, err);
	if (r < 0)
		return r;
	o = json_object_new_object();
	if (!o)
		return bo_err_set(err, ENOMEM, "out of memory");
	json_object_object_add(o, "release", json_object_new_string(k.release));
	if (*k.package) {
		json_object_object_add(o, "package", json_object_new_string(k.package));
	} else {
		/* One of the user's own: where it was, and what it was, so that a reproduction
		 * boots the same kernel or says it cannot. */
		r = bo_kernel_hashes(&k, image_sha, config_sha, err);
		if (r < 0) {
			json_object_put(o);
			return r;
		}
		if (*k.tree) {
			json_object_object_add(o, "tree", json_object_new_string(k.tree));
			if (*k.describe)
				json_object_object_add(o, "describe",
						       json_object_new_string(k.describe));
		}
		json_object_object_add(o, "image", json_object_new_string(k.image));
		json_object_object_add(o, "modules", json_object_new_string(k.modules));
		json_object_object_add(o, "image_sha256", json_object_new_string(image_sha));
		if (*config_sha) {
			json_object_object_add(o, "config", json_object_new_string(k.config));
			json_object_object_add(o, "config_sha256",
					       json_object_new_string(config_sha));
		}
	}
	*ret = o;
	return 0;
}

void bo_vm_args_kernel_from(struct vm_args *v, struct json_object *cfg)
{
	struct json_object *k;

	if (bo_vm_args_kernel_named(v) || !json_object_object_get_ex(cfg, "kernel", &k))
		return;
	if (bo_json_str(k, "package")) {
		v->kernel_release = bo_json_str(k, "release");
		return;
	}
	if (bo_json_str(k, "tree")) {
		v->kernel_tree = bo_json_str(k, "tree");
	} else if (bo_json_str(k, "image")) {
		/* A monolithic image had a module directory staged for it: it is made again. */
		v->kernel = bo_json_str(k, "image");
		if (bo_json_str(k, "modules") &&
		    !strstr(bo_json_str(k, "modules"), "/kernel-trees/"))
			v->modules = bo_json_str(k, "modules");
	} else {
		return;
	}
	v->recorded_kernel = k;
}

/* @key of config.json's kernel @o, printable (a stranger's results directory), or "". */
static char *field(struct json_object *o, const char *key)
{
	const char *v = bo_json_str(o, key);

	return bo_sanitize(v ? v : "", true);
}

/* Whether the kernel @now (bo_vm_args_kernel()) is the one @was recorded: -ESTALE naming
 * what changed. A record from before the hashes were kept is taken as it is. */
static int same_kernel(struct json_object *was, struct json_object *now, struct bo_err *err)
{
	static const char *const keys[][2] = {{"image_sha256", "image"},
					      {"config_sha256", "config"}};
	_cleanup_free_ char *where = field(was, bo_json_str(was, "tree") ? "tree" : "image");
	_cleanup_free_ char *rel = field(was, "release"), *desc = field(was, "describe");
	const char *now_rel = bo_json_str(now, "release");

	if (!where || !rel || !desc)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (strcmp(bo_json_str(was, "release") ? bo_json_str(was, "release") : "",
		   now_rel ? now_rel : ""))
		return bo_err_set(err, ESTALE,
				  "the run booted kernel %s from '%s', which is now %s: rebuild "
				  "what the run booted, or name the kernel to boot (--kernel-tree, "
				  "--kernel)",
				  rel, where, now_rel ? now_rel : "none");
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++) {
		const char *a = bo_json_str(was, keys[i][0]), *b = bo_json_str(now, keys[i][0]);
		_cleanup_free_ char *aa = a ? bo_sanitize(a, true) : NULL;

		if (a && (!b || strcmp(a, b)))
			return bo_err_set(
				err, ESTALE,
				"kernel '%s' has changed since the run: its %s's sha256 "
				"was %.12s, is %.12s%s%s: rebuild what the run booted, or "
				"name the kernel to boot as it is now (--kernel-tree, "
				"--kernel)",
				where, keys[i][1], aa ? aa : "?", b ? b : "none",
				*desc ? "; the run's source was " : "", desc);
	}
	return 0;
}

void bo_vm_opts_help(void)
{
	puts("VM options:");
	bo_opts_help(stdout, bo_vm_opts, bo_vm_opts_n);
}

/*
 * Every executable "blackout-*" in @dir, as a NULL-terminated malloc'd array of malloc'd
 * paths: the built-in workload programs, which the VM must carry.
 */
static int libexec_programs(const char *dir, char ***ret, struct bo_err *err)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t n = 0;
	struct dirent *de;

	if (!d)
		return bo_err_set(
			err, errno,
			"blackout's helper programs: '%s': %s (a build tree has them beside "
			"blackout, an installed one in libexec/blackout of its prefix)",
			dir, strerror(errno));
	v = calloc(1, sizeof(*v));
	if (!v) {
		closedir(d);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	while ((de = readdir(d))) {
		struct stat st;
		char **nv;
		char *path;

		if (strncmp(de->d_name, "blackout-", 9))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			closedir(d);
			bo_strv_free(v);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
			free(path);
			continue;
		}
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv) {
			closedir(d);
			free(path);
			bo_strv_free(v);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		v = nv;
		v[n++] = path;
		v[n] = NULL;
	}
	closedir(d);
	*ret = v;
	return 0;
}

/* Why @path cannot be a file for the VM: 0, or -errno with @err saying so. */
static int file_problem(const char *path, struct bo_err *err)
{
	if (path[0] != '/')
		return bo_err_set(err, EINVAL,
				  "'%s': a file for the VM needs an absolute path (it has the same "
				  "one in the guest)",
				  path);
	return bo_input_shippable(path, err);
}

int bo_vm_args_judge_files(const struct vm_args *v, struct bo_err *err)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < v->files.n; i++)
		if ((r = file_problem(v->files.v[i], err)) < 0)
			bo_err_prefix(err, "--file");
	return r;
}

static struct bo_guest_fs guest_fstab[BO_FS_COUNT + 1];

static void make_guest_fstab(void)
{
	struct bo_guest_fs *v = guest_fstab;
	const struct bo_fs_desc *d = bo_fs_desc(BO_FS_EXT4);

	_Static_assert(2 + BO_ARRAY_SIZE(d->tools) < BO_GUESTFS_TOOLS &&
			       BO_ARRAY_SIZE(d->modules) <= BO_GUESTFS_MODULES &&
			       BO_ARRAY_SIZE(d->kconfig) <= BO_GUESTFS_KCONFIG,
		       "a row's programs, modules and options fit the guest's");
	for (int i = 0; i < BO_FS_COUNT; i++) {
		struct bo_guest_fs *g = &v[i];
		size_t n = 0;

		d = bo_fs_desc((enum bo_fs) i);
		g->name = d->name;
		g->package = d->package;
		g->tools[n++] = d->mkfs;
		if (d->fsck)
			g->tools[n++] = d->fsck;
		for (size_t k = 0; k < BO_ARRAY_SIZE(d->tools) && d->tools[k]; k++)
			g->tools[n++] = d->tools[k];
		memcpy(g->modules, d->modules, sizeof(d->modules));
		memcpy(g->kconfig, d->kconfig, sizeof(d->kconfig));
	}
}

const struct bo_guest_fs *bo_cli_guest_fstab(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	(void) pthread_once(&once, make_guest_fstab);
	return guest_fstab;
}

int bo_vm_args_judge(const struct vm_args *v, struct bo_err *err)
{
	_cleanup_json_ struct json_object *kernel = NULL;
	struct bo_kernel_spec spec = bo_vm_args_spec(v);
	struct bo_kernel k;
	int r = bo_vm_args_in_place_ok(v, err);

	if (r >= 0 && !v->in_place)
		r = bo_initramfs_check_tools(bo_cli_guest_fstab(), v->fs, err);
	if (r >= 0)
		r = bo_vm_args_judge_files(v, err);
	if (r >= 0)
		r = bo_vm_args_kernel(v, &kernel, err);
	if (r >= 0 && v->recorded_kernel)
		r = same_kernel(v->recorded_kernel, kernel, err);
	/* What the kernel was built without, by CONFIG name, before anything is made. */
	if (r >= 0 && !v->in_place && (r = bo_kernel_find(&spec, &k, err)) >= 0)
		r = bo_kernel_check_config(&k, v->fs, bo_cli_guest_fstab(), v->base_log != NULL,
					   err);
	return r < 0 ? r : 0;
}

/* Add @path to @files (a NULL-terminated array built by libexec_programs()). */
static int add_file(char ***files, const char *path, struct bo_err *err)
{
	size_t n = 0;
	char **nv;
	int r = file_problem(path, err);

	if (r < 0)
		return r;
	for (; (*files)[n]; n++)
		if (!strcmp((*files)[n], path))
			return 0; /* named twice (a run's --file and its scenario's, say) */
	nv = realloc(*files, (n + 2) * sizeof(**files));
	if (!nv)
		return bo_err_set(err, ENOMEM, "out of memory");
	*files = nv;
	if (!(nv[n] = strdup(path)))
		return bo_err_set(err, ENOMEM, "out of memory");
	nv[n + 1] = NULL;
	return 0;
}

int bo_vm_cmds_judge(const char *const *cmds, struct bo_err *err)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && cmds && cmds[i]; i++) {
		char **named = NULL;

		if (bo_cmd_host_files(cmds[i], &named) < 0)
			return bo_err_set(err, ENOMEM, "out of memory");
		for (size_t k = 0; r >= 0 && named[k]; k++)
			if ((r = bo_input_shippable(named[k], err)) < 0)
				bo_err_prefix(err, "the command '%s' names a host file for the VM",
					      cmds[i]);
		bo_strv_free(named);
	}
	return r;
}

/*
 * Add to @files (a NULL-terminated array built by libexec_programs()) every host file the
 * command line @cmd names (bo_cmd_host_files()): a checker or workload given as a host path
 * runs in the guest at that same path. Each is judged as --file is, here too, before QEMU
 * starts (bo_vm_cmds_judge(): the commands judge them before anything is made).
 */
static int add_named_files(char ***files, const char *cmd, struct bo_err *err)
{
	const char *one[] = {cmd, NULL};
	char **named = NULL;
	size_t n = 0;
	int r = bo_vm_cmds_judge(one, err);

	if (r >= 0 && bo_cmd_host_files(cmd, &named) < 0)
		r = bo_err_set(err, ENOMEM, "out of memory");
	while ((*files)[n])
		n++;
	for (size_t i = 0; r >= 0 && named[i]; i++) {
		char **nv = realloc(*files, (n + 2) * sizeof(**files));

		if (!nv || !(nv[n] = strdup(named[i]))) {
			if (nv)
				*files = nv;
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		*files = nv;
		(*files)[++n] = NULL;
	}
	bo_strv_free(named);
	return r;
}

int bo_vm_args_in_place_ok(const struct vm_args *v, struct bo_err *err)
{
	if (!v->in_place)
		return 0;
	if (v->kernel || v->modules || v->kernel_release || v->kernel_tree)
		return bo_err_set(err, EINVAL,
				  "--in-place runs on this machine's kernel: not with --kernel, "
				  "--modules, --kernel-release or --kernel-tree");
	if (geteuid() != 0)
		return bo_err_set(err, EPERM,
				  "--in-place makes loop and dm devices on this machine: it needs "
				  "root (and a machine set aside for it)");
	return 0;
}

/*
 * --in-place: the guest command @gargv run here as a child, its share path (/results) made
 * @dir and --allow-host added (the guest side refuses to make devices outside blackout's VM
 * otherwise); the host's root is this one, so --host-root goes. Its status.
 */
static int run_in_place(const char *dir, char *const gargv[], int stderr_fd, unsigned timeout_s,
			struct bo_err *err)
{
	size_t n = 0, c, share = strlen(BO_VM_SHARE_GUEST);
	_cleanup_free_ char **argv = NULL;
	char **owned = NULL;
	extern char **environ;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, r;

	while (gargv[n])
		n++;
	argv = calloc(n + 2, sizeof(*argv));
	owned = calloc(n + 2, sizeof(*owned));
	if (!argv || !owned || n < 2) {
		free(owned);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	/* blackout [-q] COMMAND --allow-host ARGS...: the command's own options after it. */
	for (c = 1; c < n && gargv[c][0] == '-'; c++)
		;
	if (c >= n) {
		free(owned);
		return bo_err_set(err, EINVAL, "no guest command");
	}
	for (size_t i = 0; i <= c; i++)
		argv[i] = gargv[i];
	argv[c + 1] = (char *) "--allow-host";
	for (size_t i = c + 1, o = c + 2; i < n; i++) {
		const char *g = gargv[i];

		if (!strcmp(g, "--host-root"))
			continue;
		if (!strncmp(g, BO_VM_SHARE_GUEST, share) && (!g[share] || g[share] == '/')) {
			if (asprintf(&owned[i], "%s%s", dir, g + share) < 0) {
				owned[i] = NULL;
				r = bo_err_set(err, ENOMEM, "out of memory");
				goto out;
			}
			g = owned[i];
		}
		argv[o++] = (char *) g;
	}
	fflush(NULL);
	/* Its stderr through the relay that draws the progress lines, as a VM's. */
	posix_spawn_file_actions_init(&fa);
	if (stderr_fd > 0)
		posix_spawn_file_actions_adddup2(&fa, stderr_fd, 2);
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r) {
		r = bo_err_set(err, r, "running '%s': %s", argv[0], strerror(r));
		goto out;
	}
	/* As a VM: killed at the timeout, and a stop (SIGINT, SIGTERM, SIGHUP) passed on, the
	 * guest side then tearing down what it made and keeping the results. */
	{
		double end = bo_now() + timeout_s;
		bool killed = false, stopped = false;

		bo_stop_install();
		while ((r = waitpid(pid, &st, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
			struct timespec ts = {.tv_nsec = 100 * 1000 * 1000};

			if (bo_stop_requested() && !stopped) {
				kill(pid, SIGTERM);
				stopped = true;
			}
			if (!killed && bo_now() > end) {
				kill(pid, SIGTERM);
				killed = true;
				end = bo_now() + 30; /* then SIGKILL, if it does not go */
			} else if (killed && bo_now() > end) {
				kill(pid, SIGKILL);
			}
			nanosleep(&ts, NULL);
		}
		if (r < 0)
			r = bo_err_set(err, errno, "waiting for '%s': %s", argv[0],
				       strerror(errno));
		else if (killed)
			r = bo_err_set(err, ETIMEDOUT, "in place: killed after %u s (--timeout)",
				       timeout_s);
		else
			r = WIFEXITED(st) ? WEXITSTATUS(st) : BO_EXIT_HARNESS;
	}
out:
	for (size_t i = 0; i < n + 2; i++)
		free(owned[i]);
	free(owned);
	return r;
}

int bo_guest_boot(const struct vm_args *v, const char *dir, char *const gargv[],
		  const char *const *cmds, unsigned timeout_s, struct bo_err *err)
{
	char console[PATH_MAX];
	char **files = NULL;
	struct bo_vm_opts o = {
		.kernel = v->kernel,
		.modules = v->modules,
		.kernel_release = v->kernel_release,
		.kernel_tree = v->kernel_tree,
		.fs = v->fs,
		.fstab = bo_cli_guest_fstab(),
		.memory_mb = v->memory_mb,
		.timeout_s = v->timeout_s ? v->timeout_s : timeout_s,
		.share_dir = dir,
		.exchange_dir = v->exchange_dir,
		.host_root = v->host_root,
		.console_path = console,
	};
	struct bo_share_report rep;
	struct bo_progress_relay *relay = NULL;
	struct bo_base_server *base = NULL;
	int status = BO_EXIT_HARNESS, r;

	if (v->in_place) {
		int fd = v->stderr_fd;

		r = bo_vm_args_in_place_ok(v, err);
		if (r >= 0 && !fd &&
		    bo_progress_relay_start(1, 2, bo_progress_draw_for(2), &fd, &relay, NULL) < 0)
			fd = 0;
		if (r >= 0)
			r = run_in_place(dir, gargv, fd, v->timeout_s ? v->timeout_s : timeout_s,
					 err);
		bo_progress_relay_stop(relay);
		return r;
	}
	bo_stop_install(); /* SIGINT, SIGTERM, SIGHUP kill the VM; the results are kept */

	if (v->console)
		snprintf(console, sizeof(console), "%s", v->console);
	else if (bo_pathf(console, sizeof(console), "%s/vm/console.log", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "results directory '%s': path too long", dir);
	/* The built-in workloads live next to the blackout binary, and so they do in the guest. */
	r = libexec_programs(bo_libexec_dir(), &files, err);
	for (size_t i = 0; r >= 0 && cmds && cmds[i]; i++)
		r = add_named_files(&files, cmds[i], err);
	for (size_t i = 0; r >= 0 && i < v->files.n; i++)
		r = add_file(&files, v->files.v[i], err);
	for (size_t i = 0; r >= 0 && v->ship && v->ship[i]; i++)
		r = add_file(&files, v->ship[i], err);
	if (r < 0) {
		bo_strv_free(files);
		return r;
	}
	o.extra_files = (const char *const *) files;
	/* The guest's stderr through the relay that draws its progress lines; without a relay
	 * it goes to stderr as it is. */
	o.stderr_fd = v->stderr_fd;
	if (!o.stderr_fd) {
		struct bo_err e = {0};

		if (bo_progress_relay_start(1, 2, bo_progress_draw_for(2), &o.stderr_fd, &relay,
					    &e) < 0)
			o.stderr_fd = 0;
	}
	/* Without a host base the guest replays into an image of its own: slower, not wrong. */
	if (v->base_log) {
		struct bo_err e = {0};

		if (bo_base_server_start(v->base_log, v->base_size, &base, &o.base_fd,
					 &o.base_port_fd, &e) < 0)
			fprintf(stderr, "blackout: warning: %s; the guest replays on its own\n",
				bo_err_str(&e));
		else
			o.base_size = bo_base_server_size(base);
	}
	r = bo_vm_run(&o, gargv, &status, err);
	if (base) {
		uint64_t served = bo_base_server_stop(base);

		bo_debug(BO_DBG_RUN, "host base: %" PRIu64 " replays served", served);
	}
	bo_progress_relay_stop(relay);
	bo_strv_free(files);
	if (r < 0)
		return r;
	/* The guest wrote this directory: nothing in it may lead the host elsewhere. Symlinks
	 * and special files are removed before anything is read back. */
	r = bo_share_check(dir, true, &rep, err);
	if (r < 0)
		return r;
	if (rep.rejected)
		fprintf(stderr,
			"blackout: warning: removed %zu symlinks or special files the guest left "
			"in '%s' (first: %s)\n",
			rep.rejected, dir, rep.first_rejected);
	return status;
}

/* The memory a check VM needs at least: the kernel, tools and the images on its tmpfs. */
#define JOB_MIN_MEMORY_MB 1024u

/* MemAvailable of the host in MiB, or 0 when unknown. */
static uint64_t host_available_mb(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
			return kb / 1024;
	return 0;
}

void bo_vm_plan_jobs(bool jobs_given, struct vm_args *v, unsigned *jobs)
{
	uint64_t avail = host_available_mb() * 3 / 4, per;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (!jobs_given)
		*jobs = cores < 1 ? 1 : cores > 64 ? 64 : (unsigned) cores;
	if (*jobs <= 1 || v->memory_mb || !avail)
		return;
	per = avail / *jobs;
	if (per < JOB_MIN_MEMORY_MB && !jobs_given) {
		*jobs = (unsigned) (avail / JOB_MIN_MEMORY_MB);
		if (*jobs <= 1) {
			*jobs = 1;
			return;
		}
		per = avail / *jobs;
	}
	if (per < BO_VM_DEFAULT_MEMORY_MB)
		v->memory_mb = (unsigned) (per < JOB_MIN_MEMORY_MB ? JOB_MIN_MEMORY_MB : per);
}

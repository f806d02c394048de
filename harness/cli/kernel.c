// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout kernel — the guest kernels: which are cached (list), which Debian has (list
 * --available), and fetching one into the cache by release or version prefix (fetch, through
 * the fetch-kernel helper beside blackout's other helpers). Any VM boots one of them with
 * --kernel-release or a scenario's [vm] kernel; without, the default kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/cli/vmrun.h"
#include "harness/dev/fs.h"
#include "vm/kconfig.h"
#include "vm/kernel.h"

struct kernel_args {
	struct bo_opt_list fs;
	const char *check;
	bool json, available, modules;
};

#define A(field) offsetof(struct kernel_args, field)

static const struct bo_opt kernel_opts[] = {
	{"json", NULL, A(json), BO_OPT_HOST, NULL, NULL,
	 "list as one JSON object (\"format\", \"kernels\": release, boots,\n"
	 "package, default)"},
	{"available", NULL, A(available), BO_OPT_HOST, NULL, NULL,
	 "list the kernel packages apt knows"},
	{"fs", "FS", A(fs), BO_OPT_HOST | BO_OPT_LIST, NULL, NULL,
	 "config: a filesystem to test (" BO_FS_LIST ")"},
	{"modules", NULL, A(modules), BO_OPT_HOST, NULL, NULL,
	 "config: the fragment for a modular kernel"},
	{"check", "CONFIG", A(check), BO_OPT_HOST, NULL, NULL, "config: what CONFIG lacks"},
};

static void help(void)
{
	puts("usage: blackout kernel list [--json] [--available]\n"
	     "       blackout kernel fetch SPEC\n"
	     "       blackout kernel config [--fs FS]... [--modules] [--check CONFIG]\n"
	     "\n"
	     "The guest kernels. list: those in the cache, with the Debian package each came\n"
	     "from and which is the default (what linux-image-amd64 depends on, booted without\n"
	     "--kernel-release); --available: the kernel packages apt knows instead.\n"
	     "fetch: download a Debian kernel package into the cache and prepare it: SPEC is a\n"
	     "package, a release (6.1.0-57-amd64) or a version prefix (6.12: the newest 6.12).\n"
	     "Then --kernel-release SPEC on run, check, reproduce, shrink, nightly and vm, or\n"
	     "[vm] kernel = SPEC in a scenario, boots it.\n"
	     "config: the kernel config fragment blackout needs (the dm targets, loop, virtio\n"
	     "and 9p, the filesystems FS, default all) to merge into a kernel's .config\n"
	     "(scripts/kconfig/merge_config.sh .config FRAGMENT; make olddefconfig); with\n"
	     "--modules the drivers that may be modules are =m. --check CONFIG says instead\n"
	     "what the config CONFIG lacks of it, by CONFIG name (exit 1 when something).\n");
	bo_opts_help(stdout, kernel_opts, BO_ARRAY_SIZE(kernel_opts));
	puts("  -h, --help       this text\n"
	     "\n"
	     "Exit status: 0 done, 1 --check found options missing, 2 usage, 3 the cache or\n"
	     "apt could not be read, the fetch failed, or CONFIG could not be read.");
}

/* Run the fetch-kernel helper with @arg: 0 when it succeeded, else 3 (it said why). */
static int helper(const char *arg)
{
	char path[PATH_MAX];
	char *argv[] = {(char *) "bash", path, (char *) arg, NULL};
	extern char **environ;
	pid_t pid;
	int st;

	if (bo_pathf(path, sizeof(path), "%s/fetch-kernel", bo_libexec_dir()) < 0 ||
	    access(path, X_OK) < 0) {
		bo_cli_error("kernel: no fetch-kernel helper in '%s' (it is installed with "
			     "blackout's helpers)",
			     bo_libexec_dir());
		return BO_EXIT_HARNESS;
	}
	fflush(stdout);
	errno = posix_spawn(&pid, "/bin/bash", NULL, NULL, argv, environ);
	if (errno) {
		bo_cli_error("kernel: running '%s': %m", path);
		return BO_EXIT_HARNESS;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return BO_EXIT_HARNESS;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? BO_EXIT_OK : BO_EXIT_HARNESS;
}

static int list(bool json)
{
	_cleanup_json_ struct json_object *out = bo_json_new_doc();
	struct json_object *arr = json_object_new_array();
	char dir[PATH_MAX], def[NAME_MAX + 1] = "";
	_cleanup_(bo_closedirp) DIR *d = NULL;
	struct bo_err err = {0};
	struct dirent *de;

	if (!out || !arr) {
		json_object_put(arr);
		bo_cli_error("kernel: out of memory");
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "kernels", arr);
	if (bo_cache_dir("kernels", false, dir, sizeof(dir), &err) < 0) {
		bo_cli_error("kernel: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (bo_kernel_cached(NULL, def, sizeof(def), NULL) < 0)
		def[0] = '\0';
	d = opendir(dir);
	if (!d && errno != ENOENT) {
		bo_cli_error("kernel: reading '%s': %m", dir);
		return BO_EXIT_HARNESS;
	}
	while (d && (de = readdir(d))) {
		char path[PATH_MAX];
		_cleanup_free_ char *pkg = NULL;
		struct json_object *k;
		struct stat st;

		bool pvh;

		if (de->d_name[0] == '.' ||
		    bo_pathf(path, sizeof(path), "%s/%s/vmlinux", dir, de->d_name) < 0)
			continue;
		pvh = stat(path, &st) == 0;
		if (!pvh && (bo_pathf(path, sizeof(path), "%s/%s/boot/vmlinuz-%s", dir, de->d_name,
				      de->d_name) < 0 ||
			     stat(path, &st) < 0))
			continue;
		k = json_object_new_object();
		json_object_object_add(k, "release", json_object_new_string(de->d_name));
		json_object_object_add(k, "boots",
				       json_object_new_string(pvh ? "vmlinux (PVH)" : "bzImage"));
		if (bo_pathf(path, sizeof(path), "%s/%s/package", dir, de->d_name) == 0 &&
		    bo_read_file(path, 4096, &pkg, NULL) >= 0) {
			pkg[strcspn(pkg, "\n")] = '\0';
			json_object_object_add(k, "package", json_object_new_string(pkg));
		}
		json_object_object_add(k, "default",
				       json_object_new_boolean(!strcmp(def, de->d_name)));
		json_object_array_add(arr, k);
	}
	if (json) {
		puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		return BO_EXIT_OK;
	}
	if (!json_object_array_length(arr))
		printf("no kernel in %s: blackout kernel fetch (or scripts/setup)\n", dir);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *k = json_object_array_get_idx(arr, i);
		struct json_object *dflt = json_object_object_get(k, "default");

		printf("%-28s %-44s %-14s%s\n", bo_json_str(k, "release"),
		       bo_json_str(k, "package") ? bo_json_str(k, "package") : "(no package)",
		       bo_json_str(k, "boots"), json_object_get_boolean(dflt) ? "  (default)" : "");
	}
	return BO_EXIT_OK;
}

/* kernel config: the fragment for @fs, or what @check lacks of it. */
static int config(const char *const *fs, bool modules, const char *check)
{
	struct bo_kconfig *kc = NULL;
	_cleanup_free_ char *text = NULL;
	struct bo_err err = {0};
	enum bo_fs known;
	FILE *lines;
	size_t len;
	int r;

	for (size_t i = 0; fs[i]; i++)
		if (bo_fs_from_name(fs[i], &known) < 0)
			return bo_cli_usage_error("kernel", "--fs '%s': not one of " BO_FS_LIST,
						  fs[i]);
	if (!check) {
		bo_kconfig_fragment(stdout, fs, bo_cli_guest_fstab(), modules);
		return fflush(stdout) == 0 ? BO_EXIT_OK : BO_EXIT_HARNESS;
	}
	if (bo_kconfig_read(check, &kc, &err) < 0) {
		bo_cli_error("kernel config: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	/* Each option missing on a line, with what it is for. */
	if (!(lines = open_memstream(&text, &len))) {
		bo_kconfig_free(kc);
		return BO_EXIT_HARNESS;
	}
	r = bo_kconfig_check(kc, check, fs[0] ? fs : NULL, bo_cli_guest_fstab(), false, lines,
			     &err);
	bo_kconfig_free(kc);
	if (fclose(lines) != 0)
		return BO_EXIT_HARNESS;
	if (r < 0) {
		printf("kernel config '%s' lacks what blackout needs:\n%s", check, text);
		return BO_EXIT_FAILURE;
	}
	printf("kernel config '%s' has what blackout needs\n", check);
	return BO_EXIT_OK;
}

static int cmd_kernel(int argc, char **argv)
{
	struct kernel_args a = {0};
	const struct bo_opt_set sets[] = {{kernel_opts, BO_ARRAY_SIZE(kernel_opts), &a}};
	const char *what, *fs[8 + 1] = {0};
	size_t nfs;
	bool cfg;
	int k;

	if (argc < 2) {
		help();
		return BO_EXIT_USAGE;
	}
	what = argv[1];
	if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
		help();
		return BO_EXIT_OK;
	}
	/* The options follow the subcommand, which stands where a command's name would. */
	k = bo_opts_parse("kernel", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc - 1,
			  argv + 1);
	nfs = a.fs.n;
	for (size_t i = 0; i < nfs && i + 1 < BO_ARRAY_SIZE(fs); i++)
		fs[i] = a.fs.v[i];
	bo_opt_list_clear(&a.fs);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (nfs + 1 > BO_ARRAY_SIZE(fs))
		return bo_cli_usage_error("kernel", "--fs: at most 8");
	k++; /* of argv */
	cfg = nfs || a.modules || a.check;
	if (!strcmp(what, "config")) {
		if (a.json || a.available || k != argc)
			return bo_cli_usage_error("kernel",
						  "'kernel config' takes --fs, --modules, --check");
		if (a.check && a.modules)
			return bo_cli_usage_error("kernel", "--check judges a config as it is: "
							    "no --modules");
		return config(fs, a.modules, a.check);
	}
	if (cfg)
		return bo_cli_usage_error("kernel", "--fs, --modules, --check are for 'kernel "
						    "config'");
	if (!strcmp(what, "list")) {
		if (k != argc)
			return bo_cli_usage_error("kernel", "'kernel list' takes no arguments");
		if (a.available && a.json)
			return bo_cli_usage_error("kernel", "--available lists packages as text");
		return a.available ? helper("--available") : list(a.json);
	}
	if (!strcmp(what, "fetch")) {
		if (a.json || a.available || k + 1 != argc)
			return bo_cli_usage_error("kernel", "'kernel fetch' takes one SPEC");
		return helper(argv[k]);
	}
	return bo_cli_usage_error("kernel", "'%s' is not list, fetch or config", what);
}

const struct bo_cmd bo_cmd_kernel = {
	"kernel", cmd_kernel, "list the guest kernels; fetch a Debian kernel; the config fragment"};

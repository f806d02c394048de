// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout vm — run commands in a disposable QEMU VM (run, shell), and tell what it is
 * (info: the kernel, the accelerator, the boot time; the guest side, guest_vm_info.c, lists
 * the device-mapper targets).
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/json.h"
#include "harness/base/input.h"
#include "harness/cli/cli.h"
#include "harness/cli/vmrun.h"
#include "harness/cli/opts.h"
#include "harness/base/safety.h"
#include "vm/share.h"
#include "vm/guest.h"
#include "vm/vm.h"

#define MAX_FILES 256

/* The options of run, shell and info as given, before they become a struct bo_vm_opts. */
struct vm_cmd_args {
	const char *kernel, *modules, *kernel_release, *kernel_tree;
	const char *memory, *cpus, *timeout; /* checked by positive_problem() */
	const char *accel, *share_dir, *console_path;
	struct bo_opt_list files;
	bool host_root, json;
};

/* --memory, --cpus and --timeout: a count above 0 and at most 2^20. */
static const char *positive_problem(const char *val)
{
	uint64_t v;

	return bo_parse_u64(val, &v) < 0 || v == 0 || v > 1u << 20 ? "expected a positive number"
								   : NULL;
}

static const char *accel_problem(const char *val)
{
	return strcmp(val, "kvm") && strcmp(val, "tcg") && strcmp(val, "auto")
		       ? "expected kvm, tcg or auto"
		       : NULL;
}

#define A(field) offsetof(struct vm_cmd_args, field)

static const struct bo_opt vm_opts[] = {
	{"kernel", "IMAGE", A(kernel), BO_OPT_HOST, NULL, NULL,
	 "boot IMAGE (vmlinux or bzImage) instead of the newest kernel\n"
	 "scripts/fetch-kernel cached; alone when everything blackout\n"
	 "needs is built in, else with --modules"},
	{"modules", "DIR", A(modules), BO_OPT_HOST, NULL, NULL,
	 "IMAGE's module directory (.../lib/modules/RELEASE, after depmod)"},
	{"kernel-tree", "DIR", A(kernel_tree), BO_OPT_HOST, NULL, NULL,
	 "a kernel build tree as it is: its vmlinux (CONFIG_PVH) or\n"
	 "bzImage, its .config and its modules, no install step"},
	{"kernel-release", "R", A(kernel_release), BO_OPT_HOST, NULL, NULL,
	 "a cached Debian kernel by release or its prefix (6.12;\n"
	 "blackout kernel list); default: what linux-image-amd64\n"
	 "depends on"},
	{"memory", "MB", A(memory), BO_OPT_HOST, NULL, positive_problem,
	 "guest memory (default 2048; tmpfs-backed images live in it),\n"
	 "256 to this host's memory"},
	{"cpus", "N", A(cpus), BO_OPT_HOST, NULL, positive_problem,
	 "vCPUs (default 1), at most this host's online CPUs"},
	{"timeout", "S", A(timeout), BO_OPT_HOST, NULL, positive_problem,
	 "kill the VM after S seconds in all (default: a boot allowance\n"
	 "plus 600 s); the error names the console log"},
	{"accel", "A", A(accel), BO_OPT_HOST, NULL, accel_problem,
	 "kvm, tcg or auto (default: KVM if a probe boot works)"},
	{"share", "DIR", A(share_dir), BO_OPT_HOST, NULL, NULL,
	 "mount host directory DIR read-write at /results in the guest\n"
	 "(an existing directory)"},
	{"file", "PATH", A(files), BO_OPT_HOST | BO_OPT_LIST, NULL, NULL,
	 "copy PATH into the guest at the same absolute path (repeatable;\n"
	 "directories recursively, ELF files with the libraries they load)"},
	{"console", "PATH", A(console_path), BO_OPT_HOST, NULL, NULL,
	 "write the serial console to PATH, a new file: refused when\n"
	 "PATH exists (of any kind)"},
	{"host-root", NULL, A(host_root), BO_OPT_HOST, NULL, NULL,
	 "the host's / read-only, with a RAM overlay, at " BO_HOSTROOT_GUEST "\n"
	 "(chroot there: what a scenario's root = host sees)"},
	{"json", NULL, A(json), BO_OPT_HOST, NULL, NULL,
	 "info: one JSON object (\"format\", kernel, accel, boot_s,\n"
	 "total_s, dm_targets)"},
};

static void help(void)
{
	puts("usage: blackout vm run [OPTIONS] -- COMMAND [ARGS...]\n"
	     "       blackout vm shell [OPTIONS]\n"
	     "       blackout vm info [--json] [OPTIONS]\n\n"
	     "Boot a fresh, disposable QEMU VM and run COMMAND in it as root (run), an\n"
	     "interactive shell on this terminal (shell; Ctrl-A x ends QEMU), or report the\n"
	     "kernel, the accelerator, the boot time and the device-mapper targets (info).\n"
	     "'vm run' exits with COMMAND's exit status, and as timeout(1) and container\n"
	     "runtimes do: 125 when blackout or the VM failed (no QEMU, kernel or guest tool\n"
	     "here; a boot failure, a panic, the timeout, a stop), 126 when COMMAND could not\n"
	     "be run in the guest, 127 when it was not found there.\n");
	bo_opts_help(stdout, vm_opts, BO_ARRAY_SIZE(vm_opts));
	puts("  -h, --help       this text\n\n"
	     "Details: docs/vm.md.");
}

/* The --file paths of @a into @files, each the absolute spelling of the host path, which is
 * the guest path: 0 or a usage error. */
static int absolute_files(const struct vm_cmd_args *a, const char **files)
{
	static char cwd[PATH_MAX];

	if (a->files.n > MAX_FILES)
		return bo_cli_usage_error("vm", "more than %d --file options", MAX_FILES);
	for (size_t i = 0; i < a->files.n; i++) {
		const char *f = a->files.v[i];
		char *abs;

		files[i] = f;
		if (f[0] == '/')
			continue;
		if (!*cwd && !getcwd(cwd, sizeof(cwd)))
			return bo_cli_usage_error("vm", "--file '%s': no cwd", f);
		if (asprintf(&abs, "%s/%s", cwd, f) < 0)
			return BO_EXIT_HARNESS;
		files[i] = abs;
	}
	files[a->files.n] = NULL;
	return 0;
}

/* The options of run, shell and info; --json only where @json is given (info). */
static int parse(int argc, char **argv, struct bo_vm_opts *o, const char **files, int *ret_end,
		 bool *json)
{
	struct vm_cmd_args a = {0};
	const struct bo_opt_set sets[] = {{vm_opts, BO_ARRAY_SIZE(vm_opts), &a}};
	uint64_t v;
	int k, r;

	/* Options end at the command, whose own options are its business. */
	k = bo_opts_parse("vm", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST | BO_OPT_STOP, help, argc,
			  argv);
	if (k <= 0) {
		bo_opt_list_clear(&a.files);
		return k ? BO_EXIT_USAGE : -1;
	}
	r = absolute_files(&a, files);
	bo_opt_list_clear(&a.files);
	if (r)
		return r;
	if (a.json && !json)
		return bo_cli_usage_error("vm", "--json goes with 'vm info'");
	if (json)
		*json = a.json;
	*o = (struct bo_vm_opts){
		.kernel = a.kernel,
		.modules = a.modules,
		.kernel_release = a.kernel_release,
		.kernel_tree = a.kernel_tree,
		.accel = a.accel,
		.share_dir = a.share_dir,
		.console_path = a.console_path,
		.host_root = a.host_root,
		.extra_files = files,
		.fstab = bo_cli_guest_fstab(),
	};
	/* Checked by positive_problem(): each fits. */
	if (a.memory && bo_parse_u64(a.memory, &v) == 0)
		o->memory_mb = (unsigned) v;
	if (a.cpus && bo_parse_u64(a.cpus, &v) == 0)
		o->cpus = (unsigned) v;
	if (a.timeout && bo_parse_u64(a.timeout, &v) == 0)
		o->timeout_s = (unsigned) v;
	*ret_end = k;
	return 0;
}

/* Exit status of "vm run" (and shell) when blackout or the VM failed, whatever the reason:
 * 125, as timeout(1) and container runtimes have it, so that the command's own 3 or 77 is not
 * taken for blackout's. 126 and 127 come from the guest: COMMAND not runnable, not found. */
#define EXIT_VM_FAILED 125

static int report(const char *what, const struct bo_err *err)
{
	bo_cli_error("vm %s: %s", what, bo_err_str(err));
	return strcmp(what, "info") ? EXIT_VM_FAILED : BO_EXIT_HARNESS;
}

/*
 * What the host can judge of @o before anything boots (bo_vm_opts_judge(), and every --file:
 * bo_input_shippable()): 0; a usage error for a number out of range; exit 3 for a path that
 * cannot be what it should be.
 */
static int judge(const char *what, const struct bo_vm_opts *o)
{
	struct bo_err err = {0};
	int r = bo_vm_opts_judge(o, &err);

	for (size_t i = 0; r >= 0 && o->extra_files[i]; i++)
		if ((r = bo_input_shippable(o->extra_files[i], &err)) < 0)
			bo_err_prefix(&err, "--file");
	if (r == -ERANGE)
		return bo_cli_usage_error("vm", "%s", bo_err_str(&err));
	if (r < 0) {
		bo_cli_error("vm %s: %s", what, bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	return 0;
}

static int vm_run(int argc, char **argv, bool shell)
{
	const char *files[MAX_FILES + 1];
	char *sh[] = {(char *) "sh", NULL};
	struct bo_vm_opts o = {0};
	struct bo_err err = {0};
	int end, status, r;

	r = parse(argc, argv, &o, files, &end, NULL);
	if (r)
		return r < 0 ? BO_EXIT_OK : r;
	if (shell && end < argc)
		return bo_cli_usage_error("vm", "'vm shell' takes no command");
	if (!shell && end >= argc)
		return bo_cli_usage_error("vm", "'vm run' needs a command after '--'");
	o.interactive = shell;
	r = judge(shell ? "shell" : "run", &o);
	if (r)
		return r;
	if (!shell)
		bo_stop_install(); /* a stop kills the VM and still reports */
	r = bo_vm_run(&o, shell ? sh : argv + end, &status, &err);
	if (r < 0)
		return report(shell ? "shell" : "run", &err);
	/* What the guest left in the share is untrusted: say so when it holds anything a host
	 * tool could follow out of it. Only reported: the entries may have been there before. */
	if (o.share_dir) {
		struct bo_share_report rep;

		if (bo_share_check(o.share_dir, false, &rep, &err) < 0 && err.errnum != ELOOP)
			return report(shell ? "shell" : "run", &err);
		if (rep.rejected)
			fprintf(stderr,
				"blackout: warning: '%s' holds %zu symlinks or special files "
				"(first: "
				"'%s'); blackout never follows them\n",
				o.share_dir, rep.rejected, rep.first_rejected);
	}
	return status;
}

/* What the guest side printed (one JSON object, a few KiB) into @fd, read back; NULL if it is
 * not one, or longer than a MiB. */
static struct json_object *guest_info(int fd)
{
	_cleanup_free_ char *buf = NULL;
	struct json_object *o = NULL;
	size_t len = 0;

	if (lseek(fd, 0, SEEK_SET) < 0 ||
	    bo_input_read_fd(fd, 0, "vm info", 1u << 20, &buf, &len, NULL) < 0 ||
	    bo_json_parse(buf, len, "vm info", 1, &o, NULL) < 0)
		return NULL;
	return o;
}

static int vm_info(int argc, char **argv)
{
	const char *files[MAX_FILES + 1];
	_cleanup_free_ char *self = realpath("/proc/self/exe", NULL);
	_cleanup_close_ int mem = memfd_create("vm-info", MFD_CLOEXEC);
	_cleanup_json_ struct json_object *out = bo_json_new_doc(), *guest = NULL;
	struct json_object *kernel = json_object_new_object(), *targets;
	struct bo_vm_result res;
	struct bo_vm_opts o = {0};
	struct bo_err err = {0};
	bool json = false;
	int end, r;

	r = parse(argc, argv, &o, files, &end, &json);
	if (r) {
		json_object_put(kernel);
		return r < 0 ? BO_EXIT_OK : r;
	}
	if (end < argc) {
		json_object_put(kernel);
		return bo_cli_usage_error("vm", "'vm info' takes no command");
	}
	r = judge("info", &o);
	if (r) {
		json_object_put(kernel);
		return r;
	}
	if (!self || mem < 0 || !out || !kernel) {
		json_object_put(kernel);
		bo_cli_error("vm info: %m");
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "kernel", kernel);
	o.stdout_fd = mem;
	{
		char *argv_guest[] = {self, (char *) "__vm-info", NULL};

		r = bo_vm_run_result(&o, argv_guest, &res, &err);
	}
	if (r < 0)
		return report("info", &err);
	guest = guest_info(mem);
	json_object_object_add(kernel, "release", json_object_new_string(res.release));
	if (*res.package)
		json_object_object_add(kernel, "package", json_object_new_string(res.package));
	json_object_object_add(kernel, "version",
			       json_object_new_string(bo_json_str(guest, "version")
							      ? bo_json_str(guest, "version")
							      : ""));
	json_object_object_add(out, "accel", json_object_new_string(res.accel));
	json_object_object_add(out, "boot_s", json_object_new_double(res.boot_s));
	json_object_object_add(out, "total_s", json_object_new_double(res.total_s));
	if (!json_object_object_get_ex(guest, "dm_targets", &targets) ||
	    !json_object_is_type(targets, json_type_array)) {
		bo_cli_error("vm info: the guest side failed (exit %d) and reported no targets",
			     res.status);
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "dm_targets", json_object_get(targets));
	if (json) {
		puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		printf("kernel:  %s%s%s%s\n", res.release, *res.package ? " (" : "", res.package,
		       *res.package ? ")" : "");
		printf("accel:   %s\n", res.accel);
		printf("boot:    %.2f s from starting QEMU to the command, %.2f s in all\n",
		       res.boot_s, res.total_s);
		printf("guest:   Linux %s %s\n", res.release, bo_json_str(kernel, "version"));
		puts("dm targets:");
		for (size_t i = 0; i < json_object_array_length(targets); i++) {
			struct json_object *t = json_object_array_get_idx(targets, i);

			printf("  %-16s v%s\n",
			       bo_json_str(t, "name") ? bo_json_str(t, "name") : "?",
			       bo_json_str(t, "version") ? bo_json_str(t, "version") : "?");
		}
	}
	if (res.status != 0) {
		bo_cli_error("vm info: the guest side failed (exit %d)", res.status);
		return BO_EXIT_HARNESS;
	}
	return BO_EXIT_OK;
}

static int cmd_vm(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help();
		return argc < 2 ? BO_EXIT_USAGE : BO_EXIT_OK;
	}
	if (!strcmp(argv[1], "run"))
		return vm_run(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "shell"))
		return vm_run(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "info"))
		return vm_info(argc - 1, argv + 1);
	return bo_cli_usage_error("vm", "unknown subcommand '%s'", argv[1]);
}

const struct bo_cmd bo_cmd_vm = {
	"vm", cmd_vm, "run a command as root in a disposable QEMU VM (run, shell, info)"};

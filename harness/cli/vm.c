// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout vm — run commands in a disposable QEMU VM (run, shell), and tell what it is
 * (info: the kernel, the accelerator, the boot time; the guest side, guest_vm_info.c, lists
 * the device-mapper targets).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
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
#include "harness/base/safety.h"
#include "vm/share.h"
#include "vm/guest.h"
#include "vm/vm.h"

#define MAX_FILES 256

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
	     "be run in the guest, 127 when it was not found there.\n\n"
	     "  --kernel IMAGE    boot IMAGE (vmlinux or bzImage) instead of the newest kernel\n"
	     "                    scripts/fetch-kernel cached; alone when everything blackout\n"
	     "                    needs is built in, else with --modules\n"
	     "  --modules DIR     IMAGE's module directory (.../lib/modules/RELEASE, after "
	     "depmod)\n"
	     "  --kernel-tree DIR a kernel build tree as it is: its vmlinux (CONFIG_PVH) or\n"
	     "                    bzImage, its .config and its modules, no install step\n"
	     "  --kernel-release R  a cached Debian kernel by release or its prefix (6.12;\n"
	     "                    blackout kernel list); default: what linux-image-amd64\n"
	     "                    depends on\n"
	     "  --memory MB       guest memory (default 2048; tmpfs-backed images live in it),\n"
	     "                    256 to this host's memory\n"
	     "  --cpus N          vCPUs (default 1), at most this host's online CPUs\n"
	     "  --timeout S       kill the VM after S seconds in all (default: a boot allowance\n"
	     "                    plus 600 s); the error names the console log\n"
	     "  --accel A         kvm, tcg or auto (default: KVM if a probe boot works)\n"
	     "  --share DIR       mount host directory DIR read-write at /results in the guest\n"
	     "                    (an existing directory)\n"
	     "  --file PATH       copy PATH into the guest at the same absolute path (repeatable;\n"
	     "                    directories recursively, ELF files with the libraries they "
	     "load)\n"
	     "  --console PATH    write the serial console to PATH, a new file: refused when\n"
	     "                    PATH exists (of any kind)\n"
	     "  --host-root       the host's / read-only, with a RAM overlay, at " BO_HOSTROOT_GUEST
	     "\n"
	     "                    (chroot there: what a scenario's root = host sees)\n"
	     "  --json            info: one JSON object (\"format\", kernel, accel, boot_s,\n"
	     "                    total_s, dm_targets)\n"
	     "  -h, --help        this text\n\n"
	     "Details: docs/vm.md.");
}

/* The options of run, shell and info; --json only where @json is given (info). */
static int parse(int argc, char **argv, struct bo_vm_opts *o, const char **files, int *ret_end,
		 bool *json)
{
	static const struct option opts[] = {
		{"kernel", required_argument, NULL, 'k'},
		{"modules", required_argument, NULL, 'M'},
		{"kernel-release", required_argument, NULL, 'R'},
		{"kernel-tree", required_argument, NULL, 'T'},
		{"memory", required_argument, NULL, 'm'},
		{"cpus", required_argument, NULL, 'c'},
		{"timeout", required_argument, NULL, 't'},
		{"accel", required_argument, NULL, 'a'},
		{"share", required_argument, NULL, 's'},
		{"file", required_argument, NULL, 'f'},
		{"console", required_argument, NULL, 'C'},
		{"host-root", no_argument, NULL, 'H'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	static char cwd[PATH_MAX];
	size_t nfiles = 0;
	uint64_t v;
	int c;

	optind = 1;
	/* '+': options end at the command, whose own options are its business. */
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			o->kernel = optarg;
			break;
		case 'M':
			o->modules = optarg;
			break;
		case 'R':
			o->kernel_release = optarg;
			break;
		case 'T':
			o->kernel_tree = optarg;
			break;
		case 'm':
		case 'c':
		case 't':
			if (bo_parse_u64(optarg, &v) < 0 || v == 0 || v > 1u << 20)
				return bo_cli_usage_error("vm",
							  "--%s '%s': expected a positive number",
							  c == 'm'   ? "memory"
							  : c == 'c' ? "cpus"
								     : "timeout",
							  optarg);
			if (c == 'm')
				o->memory_mb = (unsigned) v;
			else if (c == 'c')
				o->cpus = (unsigned) v;
			else
				o->timeout_s = (unsigned) v;
			break;
		case 'a':
			if (strcmp(optarg, "kvm") && strcmp(optarg, "tcg") &&
			    strcmp(optarg, "auto"))
				return bo_cli_usage_error(
					"vm", "--accel '%s': expected kvm, tcg or auto", optarg);
			o->accel = optarg;
			break;
		case 's':
			o->share_dir = optarg;
			break;
		case 'f':
			if (nfiles == MAX_FILES)
				return bo_cli_usage_error("vm", "more than %d --file options",
							  MAX_FILES);
			/* The guest path is the absolute spelling of the host path. */
			if (optarg[0] != '/') {
				char *abs;

				if (!*cwd && !getcwd(cwd, sizeof(cwd)))
					return bo_cli_usage_error("vm", "--file '%s': no cwd",
								  optarg);
				if (asprintf(&abs, "%s/%s", cwd, optarg) < 0)
					return BO_EXIT_HARNESS;
				files[nfiles++] = abs;
			} else {
				files[nfiles++] = optarg;
			}
			break;
		case 'C':
			o->console_path = optarg;
			break;
		case 'H':
			o->host_root = true;
			break;
		case 'j':
			if (!json)
				return bo_cli_usage_error("vm", "--json goes with 'vm info'");
			*json = true;
			break;
		case 'h':
			help();
			return -1;
		default:
			return BO_EXIT_USAGE;
		}
	}
	files[nfiles] = NULL;
	o->extra_files = files;
	*ret_end = optind;
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

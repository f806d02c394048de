// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout — block-level crash-consistency and fault-injection harness for Linux storage.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/guest.h"

struct bo_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* NULL: a hidden command, left out of the usage text */
};

static const struct bo_cmd commands[] = {
	{"ctl", bo_cmd_ctl, "tell the harness about a workload operation (for shell workloads)"},
	{"run", bo_cmd_run, "record a scenario's workload in a VM and check every crash state"},
	{"check", bo_cmd_check, "check the crash states of a saved log in a VM"},
	{"merge", bo_cmd_merge, "combine the results of check --shard I/N into one"},
	{"report", bo_cmd_report, "write report.html and junit.xml of a results directory again"},
	{"inspect", bo_cmd_inspect, "describe a dm-log-writes log: entries, marks, epochs"},
	{"replay", bo_cmd_replay, "replay a log onto a file or device up to a cut point"},
	{"synth", bo_cmd_synth, "write a synthetic log (for tests, benchmarks, examples)"},
	{"__dmtest", bo_cmd_dmtest, NULL}, /* self-test of the dm layer, run in the VM */
	/* The guest sides of run and check, started by the host in the VM. */
	{"__guest-run", bo_cmd_guest_run, NULL},
	{"__guest-check", bo_cmd_guest_check, NULL},
	{"cleanup", bo_cmd_cleanup, "remove what a killed run left behind; --list shows leftovers"},
	{"explain", bo_cmd_explain, "tell the story of a failed run: symptom, evidence, next step"},
	{"reproduce", bo_cmd_reproduce, "re-run one state of a results directory in a fresh VM"},
	{"shrink", bo_cmd_shrink, "find the earliest failing cut and a minimal op list"},
	{"nightly", bo_cmd_nightly, "run a matrix of scenarios and compare with a baseline"},
	{"__guest-shrink", bo_cmd_guest_shrink, NULL},
	{"vm", bo_cmd_vm, "run a command as root in a disposable QEMU VM (run, shell, info)"},
	/* Hidden (no summary): used inside blackout's own VMs. */
	{"__init", bo_cmd_guest_init, NULL},
	{"__modprobe", bo_cmd_guest_modprobe, NULL},
	{"__vm-info", bo_cmd_guest_vm_info, NULL},
};

void bo_cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("blackout: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int bo_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "blackout %s: usage error: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'blackout %s --help'.\n", cmd);
	va_end(ap);
	return BO_EXIT_USAGE;
}

static void usage(FILE *f)
{
	fputs("usage: blackout COMMAND [ARGS...]\n"
	      "       blackout COMMAND --help\n\n"
	      "Crash-consistency and fault-injection testing on real Linux block devices.\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].summary)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nExit status: 0 all consistent, 1 a failure was found, 2 usage error,\n"
	      "3 harness error (blackout could not evaluate: bad input, I/O error).\n"
	      "Debug output: BLACKOUT_DEBUG=log,replay,dm,loop,mount,vm,run or all.\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;

	/* In a blackout VM this binary is also /init (PID 1) and /sbin/modprobe. */
	if (argv[0] && !strcmp(argv[0], "/init"))
		return bo_cmd_guest_init(argc, argv);
	if (base && !strcmp(base, "/modprobe"))
		return bo_cmd_guest_modprobe(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return BO_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return BO_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("blackout %s\n", BO_VERSION);
		return BO_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "blackout: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return BO_EXIT_USAGE;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout — block-level crash-consistency and fault-injection harness for Linux storage.
 * This file only finds the command; each one is a struct bo_cmd in a file of its own.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"

static const struct bo_cmd *const commands[] = {
	&bo_cmd_ctl,	     &bo_cmd_run,	   &bo_cmd_check,
	&bo_cmd_merge,	     &bo_cmd_report,	   &bo_cmd_inspect,
	&bo_cmd_replay,	     &bo_cmd_synth,	   &bo_cmd_cleanup,
	&bo_cmd_explain,     &bo_cmd_reproduce,	   &bo_cmd_shrink,
	&bo_cmd_nightly,     &bo_cmd_vm,	   &bo_cmd_guest_run,
	&bo_cmd_guest_check, &bo_cmd_guest_shrink, &bo_cmd_guest_vm_info,
	&bo_cmd_init,	     &bo_cmd_modprobe,	   &bo_cmd_dmtest,
};

static void usage(FILE *f)
{
	fputs("usage: blackout COMMAND [ARGS...]\n"
	      "       blackout COMMAND --help\n\n"
	      "Crash-consistency and fault-injection testing on real Linux block devices.\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < BO_ARRAY_SIZE(commands); i++)
		if (commands[i]->summary)
			fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
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
		return bo_cmd_init.run(argc, argv);
	if (base && !strcmp(base, "/modprobe"))
		return bo_cmd_modprobe.run(argc, argv);
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
	for (size_t i = 0; i < BO_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	fprintf(stderr, "blackout: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return BO_EXIT_USAGE;
}

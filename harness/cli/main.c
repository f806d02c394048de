// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout — block-level crash-consistency and fault-injection harness for Linux storage.
 * This file only finds the command; each one is a struct bo_cmd in a file of its own.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/results/progress.h"

static const struct bo_cmd *const commands[] = {
	&bo_cmd_ctl,	     &bo_cmd_run,	   &bo_cmd_check,	  &bo_cmd_merge,
	&bo_cmd_report,	     &bo_cmd_inspect,	   &bo_cmd_lint,	  &bo_cmd_replay,
	&bo_cmd_synth,	     &bo_cmd_cleanup,	   &bo_cmd_explain,	  &bo_cmd_findings,
	&bo_cmd_reproduce,   &bo_cmd_export,	   &bo_cmd_shrink,	  &bo_cmd_nightly,
	&bo_cmd_vm,	     &bo_cmd_cache,	   &bo_cmd_kernel,	  &bo_cmd_guest_run,
	&bo_cmd_guest_check, &bo_cmd_guest_shrink, &bo_cmd_guest_vm_info, &bo_cmd_init,
	&bo_cmd_modprobe,    &bo_cmd_dmtest,
};

static void usage(FILE *f)
{
	fputs("usage: blackout [-q | --quiet] [--no-progress] COMMAND [ARGS...]\n"
	      "       blackout help [COMMAND]        (COMMAND --help)\n"
	      "       blackout -V | --version\n\n"
	      "Crash-consistency and fault-injection testing on real Linux block devices.\n\n"
	      "Commands:\n",
	      f);
	for (size_t i = 0; i < BO_ARRAY_SIZE(commands); i++)
		if (commands[i]->summary)
			fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nExit status: 0 all consistent, 1 a failure was found, 2 usage error,\n"
	      "3 harness error (blackout could not evaluate: bad input, I/O error).\n"
	      "-q: no notes and no progress lines; --no-progress: no progress lines. Progress\n"
	      "is one line redrawn on a terminal, a plain line now and then elsewhere or with\n"
	      "TERM=dumb.\n"
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
	/* A write past a file-size limit (ulimit -f) fails with EFBIG, and the error names the
	 * file; SIGXFSZ would kill blackout mid-write with a partial file and not a word. */
	signal(SIGXFSZ, SIG_IGN);
	/* Options of blackout itself, before the command. */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-q") || !strcmp(argv[1], "--quiet")) {
			bo_cli_quiet = true;
			bo_progress_off();
		} else if (!strcmp(argv[1], "--no-progress")) {
			bo_progress_off();
		} else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
			printf("blackout %s\n", BO_VERSION);
			return BO_EXIT_OK;
		} else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			usage(stdout);
			return BO_EXIT_OK;
		} else {
			fprintf(stderr, "blackout: unknown option '%s'\n\n", argv[1]);
			usage(stderr);
			return BO_EXIT_USAGE;
		}
		argc--, argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return BO_EXIT_USAGE;
	}
	/* blackout help [COMMAND]: COMMAND --help. */
	if (!strcmp(argv[1], "help")) {
		char *help_argv[] = {argc > 2 ? argv[2] : NULL, (char *) "--help", NULL};

		if (argc < 3) {
			usage(stdout);
			return BO_EXIT_OK;
		}
		for (size_t i = 0; i < BO_ARRAY_SIZE(commands); i++)
			if (commands[i]->summary && !strcmp(argv[2], commands[i]->name))
				return commands[i]->run(2, help_argv);
		fprintf(stderr, "blackout: help: unknown command '%s'\n\n", argv[2]);
		usage(stderr);
		return BO_EXIT_USAGE;
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	fprintf(stderr, "blackout: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return BO_EXIT_USAGE;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h — the blackout command line: exit codes, the subcommands and the one place errors are
 * printed.
 */
#ifndef BO_CLI_H
#define BO_CLI_H

#include "harness/base/exit.h"
#include "harness/base/util.h"

/* Print "blackout: error: ..." to stderr. */
void bo_cli_error(const char *fmt, ...) _printf_(1, 2);

/* Print "blackout CMD: usage error: ...", a hint to --help, and return BO_EXIT_USAGE. */
int bo_cli_usage_error(const char *cmd, const char *fmt, ...) _printf_(2, 3);

/* blackout ctl: the control-channel client for shell workloads (cli_ctl.c). */
int bo_cmd_ctl(int argc, char **argv);
int bo_cmd_run(int argc, char **argv);
int bo_cmd_check(int argc, char **argv);
int bo_cmd_merge(int argc, char **argv);
int bo_cmd_report(int argc, char **argv);
int bo_cmd_inspect(int argc, char **argv);
int bo_cmd_replay(int argc, char **argv);
int bo_cmd_synth(int argc, char **argv);
int bo_cmd_dmtest(int argc, char **argv);
int bo_cmd_vm(int argc, char **argv);
/* blackout cleanup: remove what a killed run left behind (cli_cleanup.c). */
int bo_cmd_cleanup(int argc, char **argv);
/* Diagnosis (cli_explain.c, cli_shrink.c, cli_nightly.c). */
int bo_cmd_explain(int argc, char **argv);
int bo_cmd_reproduce(int argc, char **argv);
int bo_cmd_shrink(int argc, char **argv);
int bo_cmd_nightly(int argc, char **argv);

/* Hidden: blackout inside its own VM (/init, modprobe, the guest side of "vm info"). */
int bo_cmd_guest_init(int argc, char **argv);
int bo_cmd_guest_modprobe(int argc, char **argv);
int bo_cmd_guest_vm_info(int argc, char **argv);

#endif

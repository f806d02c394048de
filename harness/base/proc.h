/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc.h — run a program (mkfs, fsck, a workload, a checker) as a child with a timeout,
 * capturing what it prints. The child runs in its own process group: at its timeout, and
 * once it has exited, the whole group is killed, so nothing it started outlives it and holds
 * a mount busy.
 */
#ifndef BO_PROC_H
#define BO_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"

struct bo_proc_opts {
	char *const *argv;    /* argv[0] is looked up in PATH */
	char *const *env_add; /* "KEY=VALUE" strings added to (or replacing in) the
				 * environment; NULL-terminated; may be NULL */
	const char *cwd;      /* NULL: inherit */
	unsigned timeout_ms;  /* 0: no timeout */
	size_t max_output;    /* bytes kept of each stream (0: 1 MiB); the rest is counted */
	bool merge_stderr;    /* stderr into the stdout buffer, interleaved as written */
	bool inherit_output;  /* let the child write to our stdout/stderr, capture nothing */
};

enum bo_proc_end {
	BO_PROC_EXITED,
	BO_PROC_SIGNALED,
	BO_PROC_TIMEOUT,
};

struct bo_proc_result {
	enum bo_proc_end end;
	int status; /* exit status, or the signal */
	char *out;  /* NUL-terminated */
	size_t out_len;
	char *err; /* NUL-terminated; empty when merged */
	size_t err_len;
	bool truncated; /* output past max_output was dropped */
	double seconds;
};

/*
 * Run the program and wait for it. Returns 0 once it ran (whatever its status), -errno if it
 * could not be started (then @err says why: "'mkfs.xfs' not found", ...).
 */
int bo_proc_run(const struct bo_proc_opts *o, struct bo_proc_result *ret, struct bo_err *err);

void bo_proc_result_clear(struct bo_proc_result *r);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 5 s". */
const char *bo_proc_describe(const struct bo_proc_result *r, const struct bo_proc_opts *o,
			     char *buf, size_t len);

#endif

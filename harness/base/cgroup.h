/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup.h — a command and everything it starts, kept together. Each command blackout runs
 * (bo_proc_run()) enters a cgroup v2 group of its own before it execs, so that what it leaves
 * running when it ends — a daemon that called setsid() (pg_ctl does), a double fork — is
 * found, killed (cgroup.kill) and waited for (cgroup.events says "populated 0") before the
 * caller goes on to unmount what it worked in. A process group does not do: setsid() leaves
 * it, and a process that outlives its command holds the mount busy and can write into the
 * next state.
 *
 * Where no cgroup v2 hierarchy can be written (a host with cgroup v1 alone, a container that
 * mounts it read-only), bo_cgroup_new() says so once and the caller keeps to the process
 * group. blackout's VM always has one (vm/guest.c mounts it).
 */
#ifndef BO_BASE_CGROUP_H
#define BO_BASE_CGROUP_H

#include <stdbool.h>

#include "harness/base/util.h"

struct bo_cgroup;

/*
 * An empty group for a command, beside this process, named "blackout-<pid>-<n>": in this
 * process's own cgroup when that can be found in the hierarchy, else at the hierarchy's root;
 * one an earlier command left as new (bo_cgroup_free() keeps those), or a new one. -EOPNOTSUPP
 * (@err saying why) when there is no writable cgroup v2 hierarchy; that answer is kept, so
 * later calls cost nothing.
 */
_must_check_ int bo_cgroup_new(struct bo_cgroup **ret, struct bo_err *err);

/* Its cgroup.procs, open for writing: a child writes "0" there to enter the group, before
 * it execs (a write(2) and nothing else: fit for a child of vfork()). */
int bo_cgroup_procs_fd(const struct bo_cgroup *cg);

/*
 * End everything in the group: what is in it is described (before it is killed) in *@ret_left
 * ("postgres (pid 412), sleep (pid 415)": at most a few, then "and N more"; malloc'd, NULL
 * when the group was empty) and counted in *@ret_n; it is killed and waited for, at most
 * @timeout_ms. 0 once the group is empty; -ETIMEDOUT when something in it still runs after
 * the wait (a process stuck in the kernel); -errno.
 */
_must_check_ int bo_cgroup_kill(struct bo_cgroup *cg, unsigned timeout_ms, unsigned *ret_n,
				char **ret_left);

/* Freeze every process of the group (cgroup.freeze), as a machine's power cut stops them, and
 * wait until the kernel says it is frozen (2 s at most: -ETIMEDOUT). bo_cgroup_kill() ends a
 * frozen group as any other. */
_must_check_ int bo_cgroup_freeze(struct bo_cgroup *cg, struct bo_err *err);

/* Done with the group (empty by now: bo_cgroup_kill() first): what the command made beneath
 * it is removed; the group is kept for the next command when it is as new (no process, no
 * controller, not frozen: made and removed, a group costs ~10 ms under TCG), else removed
 * (the groups kept are removed when this process exits). NULL is fine. */
void bo_cgroup_free(struct bo_cgroup *cg);

#endif

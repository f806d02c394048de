/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qemu.h — start QEMU for one launch and watch it: forward the command's output, read the
 * control port, enforce the timeouts.
 */
#ifndef BO_QEMU_H
#define BO_QEMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "harness/base/util.h"

struct bo_qemu_launch {
	const char *image, *cmdline;
	int initrd_fd;	   /* the initrd, readable from its start */
	const char *accel; /* "kvm" or "tcg" */
	unsigned memory_mib, cpus;
	const char *share;	   /* host directory for the results share, or NULL */
	const char *exchange;	   /* host directory for the exchange share, or NULL */
	bool host_root;		   /* the host's / as a read-only share */
	int base_fd, base_port_fd; /* the host base (bo_vm_opts), or 0 */
	uint64_t base_size;	   /* its bytes */
	int console_fd;		   /* serial console log, open for writing; QEMU writes
				    * through this descriptor, never opens the log's path */
	bool interactive;	   /* console on this process's terminal */
	int out_fd, err_fd;	   /* where the command's stdout and stderr go */
	const char *nonce;	   /* control lines carry it */
	double timeout_s;	   /* whole run; 0: none */
	double boot_s;		   /* until the command starts; 0: none */
};

struct bo_qemu_outcome {
	bool started;	/* the guest reported the command's start */
	bool reported;	/* ... and its exit status */
	bool timed_out; /* killed at a timeout */
	bool stopped;	/* killed because blackout was asked to stop (SIGINT, SIGTERM, SIGHUP) */
	int status;	/* the command's exit status, when reported */
	double boot_s;	/* QEMU start to command start */
	double total_s; /* QEMU start to QEMU exit */
	int wait_status;
	char qemu_err[1024]; /* the end of QEMU's own stderr */
};

/* The QEMU binary this host has, looked up in PATH, into @buf; -ENOPKG when there is none. */
_must_check_ int bo_qemu_path(char *buf, size_t len);

/* Run QEMU for @l to the end and describe what happened in *@ret. Fails only when QEMU could
 * not be started; everything after that is in *@ret. */
_must_check_ int bo_qemu_run(const struct bo_qemu_launch *l, struct bo_qemu_outcome *ret,
			     struct bo_err *err);

#endif

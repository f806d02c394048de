/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest.h — blackout as the guest's PID 1 and as its modprobe.
 *
 * The launch description (BO_GUEST_LAUNCH) is a sequence of NUL-terminated "key=value"
 * records, so arguments survive any bytes but NUL: "mode=run" or "mode=shell",
 * "share=1" when the results share is attached, "env=NAME=VALUE" for the command's
 * environment, and "arg=..." once per argument, in order.
 *
 * The virtio-serial ports the host attaches, by name: BO_PORT_OUT and BO_PORT_ERR carry the
 * command's stdout and stderr, BO_PORT_CTL the lines "blackout <nonce> start <uptime>" and
 * "blackout <nonce> exit <status>". With "base=1" in the launch description the host also
 * attaches a base image as a virtio-pmem device and BO_PORT_BASE, over which the command asks
 * the host to replay the log into that image (harness/basesrv.h); the command finds both in
 * BO_HOST_BASE_ENV, "DEVICE PORT", set only when both appeared.
 */
#ifndef BO_VM_GUEST_H
#define BO_VM_GUEST_H

#define BO_PORT_OUT	 "blackout.out"
#define BO_PORT_ERR	 "blackout.err"
#define BO_PORT_CTL	 "blackout.ctl"
#define BO_PORT_BASE	 "blackout.base"
#define BO_HOST_BASE_ENV "BLACKOUT_HOST_BASE"

/* The 9p mount tag of the results share and where the guest mounts it. */
#define BO_SHARE_TAG   "results"
#define BO_SHARE_GUEST "/results"
/* The same for the directory several VMs of one job share (bo_vm_opts.exchange_dir). */
#define BO_EXCHANGE_TAG	  "exchange"
#define BO_EXCHANGE_GUEST "/exchange"
/* The host's root, read-only, and where the guest makes it a root of its own for commands
 * (bo_vm_opts.host_root): the share at BO_HOSTROOT_LOWER under a tmpfs overlay at
 * BO_HOSTROOT_GUEST, with /dev, /proc, /sys, /run and BO_FIXED_DIR (and what is mounted
 * there later) inside. A command chroots into it. */
#define BO_HOSTROOT_TAG	  "hostroot"
#define BO_HOSTROOT_LOWER "/.host"
#define BO_HOSTROOT_GUEST "/.hostroot"
/* The largest 9p message the virtio transport takes in Linux 6.1 (VIRTQUEUE_NUM - 3 pages;
 * net/9p/trans_virtio.c): big messages are what make 9p fast. */
#define BO_SHARE_MSIZE 512000

/* The kernel command-line parameter that marks a blackout VM; its value is the launch's nonce. */
#define BO_VM_PARAM "blackout.vm="

/* Run as the guest's PID 1: set the system up, run the launch's command, report its status
 * to the host and power off. Returns (with an exit code) only when not PID 1 in a VM. */
int bo_guest_init(void);

/* Run as modprobe ("modprobe [-q] [--] NAME..."), as the kernel's request_module() does. */
int bo_guest_modprobe(int argc, char **argv);

#endif

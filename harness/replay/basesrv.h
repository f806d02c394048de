/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * basesrv.h — the host base: the host replays the log into a check VM's base image.
 *
 * In a check, the base image rolls forward through the log from cut to cut and each state is
 * a snapshot of it. Replayed in the guest, every write is copied by the guest's CPU, which
 * under TCG costs about 2 ms per MiB, on the critical path of every state. With a host base
 * the image is a memory file on the host that QEMU maps into the guest as a virtio-pmem
 * device (vm.h, bo_vm_opts.base_fd): the guest asks, over a virtio-serial port, for the base
 * to be brought to entry N; a thread on the host replays at native speed into the same pages
 * the guest reads, and answers once they are written.
 *
 * The protocol, one line each way: the guest sends "replay N\n"; the host answers "ok N\n"
 * when the image holds the log's first N entries, or "error MESSAGE\n". The host's replay only
 * rolls forward (bo_replay_to()); the guest never writes the base (states are snapshots).
 */
#ifndef BO_BASESRV_H
#define BO_BASESRV_H

#include <stdint.h>

#include "harness/log/log.h"
#include "harness/base/util.h"

struct bo_base_server;

/*
 * Make a base image of @size bytes (rounded up to 2 MiB, as virtio-pmem wants) for a VM
 * checking @log, and start the thread that replays into it. *@ret_base_fd is the image (a
 * memfd) and *@ret_port_fd the guest's end of the port's socket, both for the VM's launch;
 * they stay open until bo_base_server_stop(). @log must outlive the server.
 */
_must_check_ int bo_base_server_start(const struct bo_log *log, uint64_t size,
				      struct bo_base_server **ret, int *ret_base_fd,
				      int *ret_port_fd, struct bo_err *err);

/* The image's size, as rounded. */
uint64_t bo_base_server_size(const struct bo_base_server *s);

/* The replays served so far: those whose answers were read are counted. */
uint64_t bo_base_server_requests(const struct bo_base_server *s);

/* Stop the thread, close everything, free @s; returns how many replays it served. NULL is a
 * no-op. */
uint64_t bo_base_server_stop(struct bo_base_server *s);

/* The guest's side: ask the host over the port @fd to bring the base to @applied entries
 * (bo_base_send()), then wait for its answer (bo_base_wait()) before reading the base. */
_must_check_ int bo_base_send(int fd, uint64_t applied, struct bo_err *err);
_must_check_ int bo_base_wait(int fd, uint64_t applied, struct bo_err *err);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

struct bo_kmsg {
	int fd;
	char nonce[80];
};

int bo_kmsg_begin(const char *tag, struct bo_kmsg **ret, struct bo_err *err)
{
	struct bo_kmsg *k = calloc(1, sizeof(*k));
	unsigned long long n = 0;
	char line[160];
	int wfd, len;

	if (!k)
		return bo_err_set(err, ENOMEM, "kmsg");
	if (getrandom(&n, sizeof(n), GRND_NONBLOCK) != sizeof(n))
		n = (unsigned long long) getpid() << 32 ^ (unsigned long long) (uintptr_t) k;
	snprintf(k->nonce, sizeof(k->nonce), "blackout: %.40s nonce %016llx", tag, n);
	/* Open the reader first and move it to the end: the nonce will be the first new
	 * record or, if others log in between, among the first few. */
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0 || lseek(k->fd, 0, SEEK_END) < 0) {
		int e = errno;

		bo_kmsg_free(k);
		return bo_err_set(err, e, "opening /dev/kmsg: %s", strerror(e));
	}
	wfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	len = snprintf(line, sizeof(line), "%s\n", k->nonce);
	if (wfd < 0 || write(wfd, line, (size_t) len) != len) {
		int e = errno;

		if (wfd >= 0)
			close(wfd);
		bo_kmsg_free(k);
		return bo_err_set(err, e, "writing to /dev/kmsg: %s", strerror(e));
	}
	close(wfd);
	*ret = k;
	return 0;
}

int bo_kmsg_collect(struct bo_kmsg *k, char **ret, struct bo_err *err)
{
	char rec[8192], *text = NULL;
	size_t len = 0;
	bool seen = false, gap = false;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return bo_err_set(err, ENOMEM, "collecting kernel messages");
	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
		char *msg;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			/* Records were overwritten before we read them. */
			gap = true;
			continue;
		}
		if (n < 0)
			break; /* EAGAIN: no more records */
		rec[n] = '\0';
		/* "<prio>,<seq>,<usec>,<flags>;<message>\n[continuation lines]" */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (!seen) {
			seen = !strcmp(msg, k->nonce);
			continue;
		}
		fprintf(f, "%s\n", msg);
	}
	if (fclose(f) != 0) {
		free(text);
		return bo_err_set(err, ENOMEM, "collecting kernel messages");
	}
	if (!seen || gap) {
		char *t = NULL;

		if (asprintf(&t, "(blackout: %s)\n%s",
			     seen ? "kernel log wrapped: messages lost"
				  : "nonce line not found: kernel log wrapped or was cleared",
			     text ? text : "") < 0) {
			free(text);
			return bo_err_set(err, ENOMEM, "collecting kernel messages");
		}
		free(text);
		text = t;
	}
	*ret = text;
	return 0;
}

void bo_kmsg_free(struct bo_kmsg *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}

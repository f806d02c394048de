// SPDX-License-Identifier: GPL-2.0-or-later
/* The progress line: its format, and the relay that sums the VMs' progress lines and passes
 * everything else through. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/results/progress.h"

static void test_format(void)
{
	char b[256];

	bo_progress_format(b, sizeof(b), 30, 120, 10.0, 1);
	CU_ASSERT_STRING_EQUAL(b, "checked 30/120 states (25%), 3.0 states/s, ETA 30s");
	bo_progress_format(b, sizeof(b), 1, 4000, 2.0, 2);
	CU_ASSERT_STRING_EQUAL(b, "checked 1/4000 states (0%) over 2 VMs, 0.5 states/s, "
				  "ETA 2h13m");
	bo_progress_format(b, sizeof(b), 7, 7, 1.0, 1);
	CU_ASSERT(strstr(b, "(100%)") && strstr(b, "ETA done"));
	bo_progress_format(b, sizeof(b), 0, 0, 0, 1);
	CU_ASSERT(strstr(b, "0/0") && strstr(b, "ETA done"));
}

static char *relay_output(enum bo_progress_draw how)
{
	const char *path = bo_test_path(how == BO_PROGRESS_TERMINAL ? "tty.out" : "plain.out");
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct bo_progress_relay *r = NULL;
	struct bo_err err = {0};
	int fds[2];
	static char buf[8192];
	ssize_t n;

	CU_ASSERT_FATAL(out >= 0);
	CU_ASSERT_FATAL(bo_progress_relay_start(2, out, how, fds, &r, &err) == 0);
	/* VM 0 halfway through 10, VM 1 through all of its 6; a line split over two writes, a
	 * malformed progress line and a last line without a newline pass through. */
	CU_ASSERT(write(fds[0], BO_PROGRESS_TAG "5 10\n", strlen(BO_PROGRESS_TAG) + 5) > 0);
	CU_ASSERT(write(fds[1], "hello from ", 11) == 11);
	CU_ASSERT(write(fds[1], "vm 1\n" BO_PROGRESS_TAG "6 6\n", 5 + strlen(BO_PROGRESS_TAG) + 4) >
		  0);
	CU_ASSERT(write(fds[0], BO_PROGRESS_TAG "x y\n", strlen(BO_PROGRESS_TAG) + 4) > 0);
	CU_ASSERT(write(fds[0], "tail", 4) == 4);
	bo_progress_relay_stop(r);
	close(out);
	out = open(path, O_RDONLY | O_CLOEXEC);
	n = read(out, buf, sizeof(buf) - 1);
	close(out);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_relay_plain(void)
{
	char *s = relay_output(BO_PROGRESS_LINES);

	CU_ASSERT(strstr(s, "hello from vm 1\n") != NULL);
	CU_ASSERT(strstr(s, BO_PROGRESS_TAG "x y\n") != NULL);
	CU_ASSERT(strstr(s, "tail") != NULL);
	CU_ASSERT(strstr(s, "blackout: checked 11/16 states (68%) over 2 VMs") != NULL);
	CU_ASSERT(strstr(s, BO_PROGRESS_TAG "5") == NULL);
	CU_ASSERT(strchr(s, '\r') == NULL);
}

static void test_relay_tty(void)
{
	char *s = relay_output(BO_PROGRESS_TERMINAL);

	CU_ASSERT(strstr(s, "\r\033[Kblackout: checked 11/16 states") != NULL);
	CU_ASSERT(strstr(s, "hello from vm 1\n") != NULL);
	CU_ASSERT(s[strlen(s) - 1] == '\n');
}

/* --no-progress, -q: the other lines pass, the progress lines go. And a terminal whose TERM is
 * "dumb" gets plain lines. */
static void test_relay_none(void)
{
	char *s = relay_output(BO_PROGRESS_NONE);
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	CU_ASSERT(strstr(s, "hello from vm 1\n") != NULL && strstr(s, "tail") != NULL);
	CU_ASSERT(strstr(s, "checked") == NULL && strchr(s, '\r') == NULL);
	CU_ASSERT(bo_progress_draw_for(fd) == BO_PROGRESS_LINES); /* not a terminal */
	close(fd);
	fd = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0) {
		setenv("TERM", "dumb", 1);
		CU_ASSERT(bo_progress_draw_for(fd) == BO_PROGRESS_LINES);
		close(fd);
	}
	bo_progress_off();
	CU_ASSERT(bo_progress_draw_for(2) == BO_PROGRESS_NONE);
}

/*
 * The guest's counter: a share claimed as it went (check --jobs) ends with its total set to
 * what it did, however far that is from the even share it began with.
 */
static void test_guest_share(void)
{
	char buf[512] = "";
	int p[2], saved = dup(2);
	ssize_t n;

	CU_ASSERT_FATAL(saved >= 0 && pipe(p) == 0);
	CU_ASSERT_FATAL(dup2(p[1], 2) == 2);
	bo_progress_begin(10); /* an even share of 20 states over 2 VMs */
	for (int i = 0; i < 7; i++)
		bo_progress_step(); /* the other VM took more */
	bo_progress_share_done();
	bo_progress_end();
	dup2(saved, 2);
	close(saved);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	CU_ASSERT_FATAL(n > 0);
	buf[n] = '\0';
	CU_ASSERT(strstr(buf, BO_PROGRESS_TAG "0 10\n") != NULL);
	CU_ASSERT(strstr(buf, BO_PROGRESS_TAG "7 7\n") != NULL);
	CU_ASSERT(strstr(buf, BO_PROGRESS_TAG "7 10\n") == NULL ||
		  strstr(buf, BO_PROGRESS_TAG "7 7\n") > strstr(buf, BO_PROGRESS_TAG "7 10\n"));
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"format", test_format},
		{"relay, plain lines", test_relay_plain},
		{"relay, terminal", test_relay_tty},
		{"a claimed share ends at what it did", test_guest_share},
		{"no progress lines (last: it turns them off)", test_relay_none},
		{},
	};

	return bo_test_run("progress", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole files written atomically (harness/base/file.h): temporaries by fresh names. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/file.h"

/* The text of @path (static; "" when unreadable). */
static const char *slurp(const char *path)
{
	static char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

/* How many names of @dir hold ".tmp" (the temporaries left behind). */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strstr(de->d_name, ".tmp") != NULL;
	if (d)
		closedir(d);
	return n;
}

/*
 * What is at the name of the temporary a writer used to make ("NAME.tmp<pid>"), and at the
 * name itself, is never written through: a hard link to another file stays that file's, a
 * FIFO hangs nothing, a symlink leads nowhere. The name is replaced, the rest kept.
 */
static void test_write_planted(void)
{
	const char *dir = bo_test_path("planted");
	char victim[4096], hard[4096], fifo[4096], sym[4096], name[4096];
	int dfd;

	CU_ASSERT_FATAL(mkdir(dir, 0755) == 0);
	bo_test_put(dir, "victim", "the log\n");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(hard, sizeof(hard), "%s/report.html.tmp%d", dir, (int) getpid());
	snprintf(fifo, sizeof(fifo), "%s/junit.xml.tmp%d", dir, (int) getpid());
	snprintf(sym, sizeof(sym), "%s/summary.json.tmp%d", dir, (int) getpid());
	CU_ASSERT_FATAL(link(victim, hard) == 0);
	CU_ASSERT_FATAL(mkfifo(fifo, 0644) == 0);
	CU_ASSERT_FATAL(symlink(victim, sym) == 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(dfd >= 0);
	CU_ASSERT(bo_write_file_at(dfd, "report.html", "<html>\n", 7) == 0);
	CU_ASSERT(bo_write_file_at(dfd, "junit.xml", "<xml/>\n", 7) == 0);
	CU_ASSERT(bo_write_file_at(dfd, "summary.json", "{}\n", 3) == 0);
	CU_ASSERT(!strcmp(slurp(victim), "the log\n"));
	CU_ASSERT(!strcmp(slurp(bo_test_path("planted/report.html")), "<html>\n"));
	CU_ASSERT(!strcmp(slurp(bo_test_path("planted/junit.xml")), "<xml/>\n"));
	/* The name itself a hard link of the victim, then a symlink to it: replaced, the victim
	 * untouched. */
	snprintf(name, sizeof(name), "%s/config.json", dir);
	CU_ASSERT_FATAL(link(victim, name) == 0);
	CU_ASSERT(bo_write_file_at(dfd, "config.json", "{\"a\":1}\n", 8) == 0);
	CU_ASSERT(!strcmp(slurp(name), "{\"a\":1}\n"));
	CU_ASSERT(unlink(name) == 0 && symlink(victim, name) == 0);
	CU_ASSERT(bo_write_file_at(dfd, "config.json", "{}\n", 3) == 0);
	CU_ASSERT(!strcmp(slurp(victim), "the log\n"));
	/* Only the planted names are left: no temporary of the writes. */
	CU_ASSERT(temporaries(dir) == 3);
	/* A name that cannot be replaced (a directory): an error, no temporary left. */
	CU_ASSERT_FATAL(mkdir(bo_test_path("planted/dir.json"), 0755) == 0);
	CU_ASSERT(bo_write_file_at(dfd, "dir.json", "{}\n", 3) == -EISDIR);
	CU_ASSERT(temporaries(dir) == 3);
	close(dfd);
}

/* A temporary written and abandoned leaves nothing; one committed replaces its name. */
static void test_tmpfile(void)
{
	const char *dir = bo_test_path("tmpfile");
	struct bo_tmpfile t, u;
	struct stat st;

	CU_ASSERT_FATAL(mkdir(dir, 0755) == 0);
	CU_ASSERT_FATAL(bo_tmpfile_open(&t, AT_FDCWD, bo_test_path("tmpfile/out")) == 0);
	CU_ASSERT_FATAL(bo_tmpfile_open(&u, AT_FDCWD, bo_test_path("tmpfile/out")) == 0);
	/* Two writers of one name never share a temporary. */
	CU_ASSERT(strcmp(t.tmp, u.tmp) != 0);
	CU_ASSERT(fstat(t.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
	CU_ASSERT(write(t.fd, "one\n", 4) == 4);
	bo_tmpfile_abort(&t);
	bo_tmpfile_abort(&t); /* a second abort is nothing */
	CU_ASSERT(temporaries(dir) == 1);
	CU_ASSERT(write(u.fd, "two\n", 4) == 4);
	CU_ASSERT(bo_tmpfile_commit(&u) == 0);
	CU_ASSERT(temporaries(dir) == 0);
	CU_ASSERT(!strcmp(slurp(bo_test_path("tmpfile/out")), "two\n"));
	/* No directory to make it in. */
	CU_ASSERT(bo_tmpfile_open(&t, AT_FDCWD, bo_test_path("nosuch/out")) == -ENOENT);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"what is planted at a temporary's name is not written", test_write_planted},
		{"temporaries: fresh, committed or removed", test_tmpfile},
		{NULL, NULL},
	};

	return bo_test_run("file", tests);
}

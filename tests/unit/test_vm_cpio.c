// SPDX-License-Identifier: GPL-2.0-or-later
/* cpio newc writer: the format the kernel unpacks, reproducible, symlinks followed in place. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "vm/cpio.h"
#include "harness/base/file.h"

struct entry {
	char name[256];
	unsigned mode, uid, gid, mtime, nlink;
	char data[256];
	size_t size;
};

static unsigned field(const char *h, int i)
{
	char f[9];

	memcpy(f, h + 6 + 8 * i, 8);
	f[8] = '\0';
	return (unsigned) strtoul(f, NULL, 16);
}

/* Parse a newc archive as the kernel does (init/initramfs.c), checking alignment on the way. */
static size_t parse(const char *buf, size_t len, struct entry *e, size_t max)
{
	size_t off = 0, n = 0;

	while (off + 110 <= len && n < max) {
		const char *h = buf + off;
		unsigned namesize, filesize;

		CU_ASSERT_FATAL(memcmp(h, "070701", 6) == 0);
		e[n].mode = field(h, 1);
		e[n].uid = field(h, 2);
		e[n].gid = field(h, 3);
		e[n].nlink = field(h, 4);
		e[n].mtime = field(h, 5);
		filesize = field(h, 6);
		namesize = field(h, 11);
		CU_ASSERT_FATAL(namesize < sizeof(e[n].name) && off + 110 + namesize <= len);
		memcpy(e[n].name, h + 110, namesize);
		CU_ASSERT(e[n].name[namesize - 1] == '\0');
		off = (off + 110 + namesize + 3) & ~(size_t) 3;
		CU_ASSERT_FATAL(off + filesize <= len);
		e[n].size = filesize;
		memcpy(e[n].data, buf + off, filesize < sizeof(e[n].data) ? filesize : 0);
		off = (off + filesize + 3) & ~(size_t) 3;
		if (!strcmp(e[n].name, "TRAILER!!!"))
			return n;
		n++;
	}
	CU_FAIL("no trailer");
	return n;
}

static char *write_out(const struct bo_cpio *c, const char *name, size_t *len)
{
	struct bo_err err = {0};
	char *buf = NULL;
	int fd = open(bo_test_path(name), O_RDWR | O_CREAT | O_TRUNC, 0644);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(bo_cpio_write(c, fd, &err) == 0);
	close(fd);
	CU_ASSERT_FATAL(bo_read_file(bo_test_path(name), 1 << 20, &buf, len) == 0);
	return buf;
}

static const struct entry *find(const struct entry *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

static void test_format(void)
{
	struct bo_cpio *c;
	struct bo_err err = {0};
	struct entry e[32];
	const struct entry *x;
	size_t len, n;
	char *buf;

	CU_ASSERT_FATAL(bo_cpio_new(&c) == 0);
	CU_ASSERT(bo_cpio_add_symlink(c, "/lib", "usr/lib", &err) == 0);
	CU_ASSERT(bo_cpio_add_data(c, "/lib/modules/x.ko", "abcde", 5, 0644, &err) == 0);
	CU_ASSERT(bo_cpio_add_dir(c, "/proc", 0555, &err) == 0);
	CU_ASSERT(bo_cpio_add_symlink(c, "/init", "/usr/bin/blackout", &err) == 0);
	/* The same entry again is fine, a different one at the same path is not. */
	CU_ASSERT(bo_cpio_add_data(c, "/usr/lib/modules/x.ko", "abcde", 5, 0644, &err) == 0);
	CU_ASSERT(bo_cpio_add_data(c, "/lib/modules/x.ko", "other", 5, 0644, &err) == -EEXIST);
	CU_ASSERT(bo_cpio_add_dir(c, "/lib/modules/x.ko/sub", 0755, &err) == -ENOTDIR);
	CU_ASSERT(bo_cpio_add_dir(c, "relative", 0755, &err) == -EINVAL);
	CU_ASSERT(bo_cpio_has(c, "/lib/modules/x.ko"));
	CU_ASSERT(!bo_cpio_has(c, "/lib/modules/y.ko"));

	buf = write_out(c, "a.cpio", &len);
	CU_ASSERT(len % 512 == 0);
	n = parse(buf, len, e, 32);
	/* Sorted, parents first, symlinks followed into usr/lib. */
	CU_ASSERT_EQUAL_FATAL(n, 7);
	CU_ASSERT_STRING_EQUAL(e[0].name, "init");
	CU_ASSERT_STRING_EQUAL(e[1].name, "lib");
	CU_ASSERT_STRING_EQUAL(e[2].name, "proc");
	CU_ASSERT_STRING_EQUAL(e[3].name, "usr");
	CU_ASSERT_STRING_EQUAL(e[6].name, "usr/lib/modules/x.ko");
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(e[i].mtime == 0 && e[i].uid == 0 && e[i].gid == 0);
	x = find(e, n, "usr/lib/modules/x.ko");
	CU_ASSERT_FATAL(x != NULL);
	CU_ASSERT(x->mode == (S_IFREG | 0644) && x->size == 5 && !memcmp(x->data, "abcde", 5));
	x = find(e, n, "lib");
	CU_ASSERT(x && x->mode == (S_IFLNK | 0777) && x->size == 7 &&
		  !memcmp(x->data, "usr/lib", 7));
	x = find(e, n, "proc");
	CU_ASSERT(x && x->mode == (S_IFDIR | 0555));
	free(buf);
	bo_cpio_free(c);
}

static void test_reproducible(void)
{
	struct bo_cpio *a, *b;
	struct bo_err err = {0};
	size_t la, lb;
	char *ba, *bb;

	CU_ASSERT_FATAL(bo_cpio_new(&a) == 0);
	CU_ASSERT_FATAL(bo_cpio_new(&b) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_data(a, "/x/1", "1", 1, 0644, &err) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_data(a, "/x/2", "22", 2, 0600, &err) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_dir(a, "/y", 0755, &err) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_dir(b, "/y", 0755, &err) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_data(b, "/x/2", "22", 2, 0600, &err) == 0);
	CU_ASSERT_FATAL(bo_cpio_add_data(b, "/x/1", "1", 1, 0644, &err) == 0);
	ba = write_out(a, "ra.cpio", &la);
	bb = write_out(b, "rb.cpio", &lb);
	CU_ASSERT(la == lb && !memcmp(ba, bb, la));
	free(ba);
	free(bb);
	bo_cpio_free(a);
	bo_cpio_free(b);
}

static void test_host(void)
{
	char dir[1024], path[4096], link[4096];
	struct bo_cpio *c;
	struct bo_err err = {0};
	struct entry e[64];
	const struct entry *x;
	size_t len, n;
	char *buf;
	int fd;

	/* dir/real/file.txt, dir/alias -> real, dir/abs -> dir/alias (absolute) */
	snprintf(dir, sizeof(dir), "%s/host", bo_test_dir());
	snprintf(path, sizeof(path), "%s/real", dir);
	CU_ASSERT_FATAL(bo_mkdir_p(path) == 0);
	snprintf(path, sizeof(path), "%s/real/file.txt", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	CU_ASSERT_FATAL(fd >= 0 && write(fd, "hello", 5) == 5);
	/* The host's owner goes along (as root here; elsewhere the file is ours anyway). */
	if (geteuid() == 0)
		CU_ASSERT(fchown(fd, 4242, 4343) == 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/alias", dir);
	CU_ASSERT_FATAL(symlink("real", path) == 0);
	snprintf(path, sizeof(path), "%s/abs", dir);
	snprintf(link, sizeof(link), "%s/alias", dir);
	CU_ASSERT_FATAL(symlink(link, path) == 0);

	CU_ASSERT_FATAL(bo_cpio_new(&c) == 0);
	snprintf(path, sizeof(path), "%s/abs/file.txt", dir);
	CU_ASSERT(bo_cpio_add_host(c, path, &err) == 0);
	snprintf(path, sizeof(path), "%s/missing", dir);
	CU_ASSERT(bo_cpio_add_host(c, path, &err) == -ENOENT);
	CU_ASSERT(bo_cpio_add_host(c, "/dev/null", &err) == -EINVAL);
	buf = write_out(c, "h.cpio", &len);
	n = parse(buf, len, e, 64);
	snprintf(path, sizeof(path), "%s/real/file.txt", dir + 1);
	x = find(e, n, path);
	CU_ASSERT(x && x->mode == (S_IFREG | 0640) && x->size == 5 && !memcmp(x->data, "hello", 5));
	CU_ASSERT(x && x->uid == (geteuid() == 0 ? 4242 : geteuid()) &&
		  x->gid == (geteuid() == 0 ? 4343 : getegid()));
	snprintf(path, sizeof(path), "%s/alias", dir + 1);
	x = find(e, n, path);
	CU_ASSERT(x && x->mode == (S_IFLNK | 0777) && x->size == 4);
	snprintf(path, sizeof(path), "%s/abs", dir + 1);
	x = find(e, n, path);
	CU_ASSERT(x && x->mode == (S_IFLNK | 0777) && x->size == strlen(link));
	free(buf);
	bo_cpio_free(c);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"newc format, order and placement", test_format},
		{"same tree, same bytes", test_reproducible},
		{"host paths with their symlinks", test_host},
		{NULL, NULL},
	};

	return bo_test_run("vm_cpio", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-kvdd — kvd, a small key-value daemon: the example of "your own daemon" in
 * docs/daemons.md. It knows nothing of blackout.
 *
 * Storage: one append-only log "kv.log" in --dir, records [magic][key len][value len][key]
 * [value][crc32]; the index (key -> latest value) lives in memory. On start, recovery scans the
 * log, stops at the first bad record, truncates the torn tail and syncs, then rebuilds the
 * index. A "put" is committed — appended and fsync'd — before its "ok" is sent.
 *
 * Protocol on the unix socket --socket, one connection at a time, one line per request:
 *   put KEY VALUE  -> ok            get KEY -> val VALUE | none            quit -> bye
 * KEY and VALUE are 1..255 bytes without blanks. With --ready-fd N, "ready\n" is written to
 * fd N once the socket listens (or the fd is closed unwritten when startup fails).
 *
 * --no-fsync (or building with -DKVD_NO_FSYNC) skips the fsync on commit: the planted bug.
 *
 * --compact=rename: after recovery, rewrite the log with the live records only (the latest
 * value of each key) into kv.log.tmp, fsync it, rename it over kv.log and fsync the directory:
 * a crash at any point leaves the old log or the new one. --compact=in-place does the same in
 * kv.log itself (truncate, fsync, rewrite, fsync): the planted bug of a recovery that is not
 * crash-safe, as a crash between the two fsyncs leaves an empty log.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define LOG_NAME "kv.log"
#define MAGIC	 0x31564b44u /* "DKV1" */
#define MAX_LEN	 255u

struct head {
	uint32_t magic;
	uint16_t klen;
	uint16_t vlen;
};

struct entry {
	char key[MAX_LEN + 1], value[MAX_LEN + 1];
};

static struct entry *index_v;
static size_t index_n, index_cap;
static int log_fd = -1;
static enum { COMPACT_NONE, COMPACT_RENAME, COMPACT_IN_PLACE } compact;
#ifdef KVD_NO_FSYNC
static int no_fsync = 1;
#else
static int no_fsync;
#endif

static int die(const char *what)
{
	fprintf(stderr, "kvd: %s: %s\n", what, strerror(errno));
	return 1;
}

static uint32_t crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = ~0u;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static struct entry *lookup(const char *key)
{
	for (size_t i = 0; i < index_n; i++)
		if (!strcmp(index_v[i].key, key))
			return &index_v[i];
	return NULL;
}

static int index_set(const char *key, const char *value)
{
	struct entry *e = lookup(key);

	if (!e) {
		if (index_n == index_cap) {
			size_t cap = index_cap ? 2 * index_cap : 64;
			struct entry *v = realloc(index_v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			index_v = v;
			index_cap = cap;
		}
		e = &index_v[index_n++];
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	snprintf(e->value, sizeof(e->value), "%s", value);
	return 0;
}

/* Recovery: replay the log up to its first bad record, cut the rest off, make that durable. */
static int recover(void)
{
	unsigned char rec[sizeof(struct head) + 2 * MAX_LEN + 4];
	off_t good = 0;

	for (;;) {
		struct head h;
		char key[MAX_LEN + 1], value[MAX_LEN + 1];
		size_t n;
		uint32_t crc;

		if (pread(log_fd, &h, sizeof(h), good) != (ssize_t) sizeof(h) || h.magic != MAGIC ||
		    !h.klen || h.klen > MAX_LEN || !h.vlen || h.vlen > MAX_LEN)
			break;
		n = sizeof(h) + h.klen + h.vlen;
		if (pread(log_fd, rec, n + 4, good) != (ssize_t) (n + 4))
			break;
		memcpy(&crc, rec + n, 4);
		if (crc != crc32(rec, n))
			break;
		memcpy(key, rec + sizeof(h), h.klen);
		key[h.klen] = '\0';
		memcpy(value, rec + sizeof(h) + h.klen, h.vlen);
		value[h.vlen] = '\0';
		if (index_set(key, value) < 0)
			return -ENOMEM;
		good += (off_t) (n + 4);
	}
	if (ftruncate(log_fd, good) < 0 || fsync(log_fd) < 0)
		return -errno;
	if (lseek(log_fd, good, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/* Encode the record of @key = @value into @rec; its length. */
static size_t encode(unsigned char *rec, const char *key, const char *value)
{
	struct head h = {MAGIC, (uint16_t) strlen(key), (uint16_t) strlen(value)};
	size_t n = sizeof(h) + h.klen + h.vlen;
	uint32_t crc;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), key, h.klen);
	memcpy(rec + sizeof(h) + h.klen, value, h.vlen);
	crc = crc32(rec, n);
	memcpy(rec + n, &crc, 4);
	return n + 4;
}

/* Write every live record to @fd from offset 0 and fsync it. */
static int write_live(int fd)
{
	unsigned char rec[sizeof(struct head) + 2 * MAX_LEN + 4];
	off_t off = 0;

	for (size_t i = 0; i < index_n; i++) {
		size_t n = encode(rec, index_v[i].key, index_v[i].value);

		if (pwrite(fd, rec, n, off) != (ssize_t) n)
			return -EIO;
		off += (off_t) n;
	}
	if (fsync(fd) < 0 || lseek(fd, off, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/* After recovery: the log rewritten with the live records only (--compact). */
static int compact_log(void)
{
	int fd, dfd, r;

	if (compact == COMPACT_IN_PLACE) {
		/* The bug: between this fsync and the next, the log is empty on disk. */
		if (ftruncate(log_fd, 0) < 0 || fsync(log_fd) < 0)
			return -errno;
		return write_live(log_fd);
	}
	fd = open(LOG_NAME ".tmp", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	r = write_live(fd);
	if (r == 0 && rename(LOG_NAME ".tmp", LOG_NAME) < 0)
		r = -errno;
	dfd = r == 0 ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (r == 0 && (dfd < 0 || fsync(dfd) < 0))
		r = -errno;
	if (dfd >= 0)
		close(dfd);
	if (r < 0) {
		close(fd);
		return r;
	}
	close(log_fd);
	log_fd = fd;
	return 0;
}

/* Commit: append the record, fsync it (unless the bug is planted), then update the index. */
static int put(const char *key, const char *value)
{
	unsigned char rec[sizeof(struct head) + 2 * MAX_LEN + 4];
	size_t n = encode(rec, key, value);

	if (write(log_fd, rec, n) != (ssize_t) n)
		return -EIO;
	if (!no_fsync && fsync(log_fd) < 0)
		return -errno;
	return index_set(key, value);
}

/* One request line in @line; the reply goes to @out. Returns 1 on quit. */
static int serve_line(char *line, FILE *out)
{
	char *cmd = strtok(line, " \n"), *key = strtok(NULL, " \n"), *value = strtok(NULL, " \n");
	struct entry *e;

	if (cmd && !strcmp(cmd, "quit")) {
		fputs("bye\n", out);
		return 1;
	}
	if (!cmd || !key || strlen(key) > MAX_LEN) {
		fputs("err bad request\n", out);
	} else if (!strcmp(cmd, "put") && value && strlen(value) <= MAX_LEN) {
		int r = put(key, value);

		fprintf(out, r < 0 ? "err %s\n" : "ok\n", strerror(-r));
	} else if (!strcmp(cmd, "get")) {
		e = lookup(key);
		if (e)
			fprintf(out, "val %s\n", e->value);
		else
			fputs("none\n", out);
	} else {
		fputs("err bad request\n", out);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"dir", required_argument, NULL, 'd'},
		{"socket", required_argument, NULL, 's'},
		{"ready-fd", required_argument, NULL, 'r'},
		{"no-fsync", no_argument, NULL, 'n'},
		{"compact", required_argument, NULL, 'c'},
		{},
	};
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	const char *dir = ".", *sock = NULL;
	int c, lfd, ready = -1, quit = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'd')
			dir = optarg;
		else if (c == 's')
			sock = optarg;
		else if (c == 'r')
			ready = atoi(optarg);
		else if (c == 'n')
			no_fsync = 1;
		else if (c == 'c' && !strcmp(optarg, "rename"))
			compact = COMPACT_RENAME;
		else if (c == 'c' && !strcmp(optarg, "in-place"))
			compact = COMPACT_IN_PLACE;
		else
			return 2;
	}
	if (!sock || strlen(sock) >= sizeof(sa.sun_path)) {
		fputs("usage: blackout-kvdd --socket PATH [--dir DIR] [--ready-fd N] "
		      "[--no-fsync] [--compact=rename|in-place]\n",
		      stderr);
		return 2;
	}
	if (chdir(dir) < 0)
		return die("chdir");
	log_fd = open(LOG_NAME, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return die("opening " LOG_NAME);
	/* A new log's directory entry must be durable before any commit in it is. */
	c = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c < 0 || fsync(c) < 0)
		return die("fsync of the directory");
	close(c);
	c = recover();
	if (c == 0 && compact != COMPACT_NONE)
		c = compact_log();
	if (c < 0) {
		errno = -c;
		return die("recovery");
	}
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	unlink(sock);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || listen(lfd, 4) < 0)
		return die("listening");
	if (ready >= 0) {
		if (write(ready, "ready\n", 6) != 6)
			return die("ready fd");
		close(ready);
	}
	while (!quit) {
		char line[2 * MAX_LEN + 16];
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC), wfd;
		FILE *in, *out;

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return die("accept");
		}
		/* Separate streams: a stdio stream on a socket cannot switch direction. */
		wfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		in = fdopen(fd, "r");
		out = wfd >= 0 ? fdopen(wfd, "w") : NULL;
		if (!in || !out)
			return die("fdopen");
		while (!quit && fgets(line, sizeof(line), in)) {
			quit = serve_line(line, out);
			fflush(out);
		}
		fclose(in);
		fclose(out);
	}
	unlink(sock);
	free(index_v);
	return close(log_fd) < 0 ? die("closing the log") : 0;
}

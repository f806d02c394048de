// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_log.c — the log a check puts in its results (harness/check_log.h).
 */
#include "harness/cli/check_log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/cli/vmrun.h"
#include "harness/log/log.h"

/*
 * The sha256 of the read-only log at @path, remembered in the cache directory under its device
 * and inode with its size and modification time: checking the same saved log again (other
 * cuts, --reorder, shards on one machine) does not read it all again, 1.2 s for the 1.26 GB
 * log of scripts/bench-scale. Writing to the file changes its modification time, so a stale
 * entry is not used; not the change time, which the hard link into the results changes on
 * every check. Without a cache directory the log is hashed every time.
 */
static int log_sha256(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err)
{
	char dir[PATH_MAX], file[PATH_MAX], name[64], key[96], line[96 + BO_SHA256_HEX];
	_cleanup_free_ char *got = NULL;
	_cleanup_close_ int dfd = -1;
	struct bo_err e = {0};
	struct stat st;
	size_t k;
	int r;

	if (stat(path, &st) < 0 || bo_cache_dir("loghash", true, dir, sizeof(dir), &e) < 0)
		return bo_sha256_file(path, hex, err);
	snprintf(name, sizeof(name), "%llx-%llx", (unsigned long long) st.st_dev,
		 (unsigned long long) st.st_ino);
	k = (size_t) snprintf(key, sizeof(key), "%lld %lld.%09ld ", (long long) st.st_size,
			      (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0 && bo_pathf(file, sizeof(file), "%s/%s", dir, name) == 0 &&
	    bo_read_file(file, sizeof(line), &got, NULL) >= 0 && !strncmp(got, key, k) &&
	    strspn(got + k, "0123456789abcdef") == BO_SHA256_HEX - 1) {
		snprintf(hex, BO_SHA256_HEX, "%s", got + k);
		bo_cache_touch(file);
		bo_debug(BO_DBG_LOG, "sha256 of '%s' from the cache ('%s')", path, file);
		return 0;
	}
	r = bo_sha256_file(path, hex, err);
	if (r < 0 || dfd < 0)
		return r;
	/* The entry is only a shortcut: a cache that cannot be written is not an error. */
	snprintf(line, sizeof(line), "%s%s\n", key, hex);
	r = bo_write_file_at(dfd, name, line, strlen(line));
	if (r < 0)
		bo_debug(BO_DBG_LOG, "sha256 of '%s' not cached in '%s': %s", path, dir,
			 strerror(-r));
	return 0;
}

/*
 * Put the log to check at @dst in the results, with its sha256 in @hex. A read-only log (no
 * write permission for anyone, as `blackout run` leaves its write.log) on the same filesystem
 * is hard linked, as nothing is meant to change it: copying a 1.2 GB log took 1.7 s, and its
 * write-back later took the CPU from the VMs. Any other log is copied, hashed on the way.
 */
int bo_check_place_log(const char *src, const char *dst, char hex[BO_SHA256_HEX],
		       struct bo_err *err)
{
	struct stat st;

	if (stat(src, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222) &&
	    link(src, dst) == 0) {
		bo_debug(BO_DBG_LOG, "linked the read-only log '%s' as '%s'", src, dst);
		return log_sha256(dst, hex, err);
	}
	return bo_sha256_copy_file(src, dst, hex, err);
}

/*
 * Index the results' write.log into BO_LOG_INDEX_NAME, natively here rather than by every
 * guest over 9p. False when the log does not index: the guest then meets the same error and
 * records it.
 */
bool bo_check_save_log_index(const char *dir)
{
	char log[PATH_MAX], idx[PATH_MAX];
	struct bo_log *l = NULL;
	struct bo_err e = {0};
	bool ok;

	ok = bo_pathf(log, sizeof(log), "%s/write.log", dir) == 0 &&
	     bo_pathf(idx, sizeof(idx), "%s/%s", dir, BO_LOG_INDEX_NAME) == 0 &&
	     bo_log_open(log, 0, &l, &e) >= 0 && bo_log_save_index(l, idx, &e) >= 0;
	if (!ok)
		bo_debug(BO_DBG_LOG, "no index of '%s' for the guests: %s", log, bo_err_str(&e));
	bo_log_free(l);
	return ok;
}

/* Remove BO_LOG_INDEX_NAME from results directory @dir, once nothing reads it. */
void bo_check_remove_log_index(const char *dir)
{
	char idx[PATH_MAX];

	if (bo_pathf(idx, sizeof(idx), "%s/%s", dir, BO_LOG_INDEX_NAME) == 0 && unlink(idx) < 0 &&
	    errno != ENOENT)
		fprintf(stderr, "blackout: warning: removing '%s': %s\n", idx, strerror(errno));
}

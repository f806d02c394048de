// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * accel.c — choose KVM or TCG, once per host.
 */
#include "vm/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "vm/qemu.h"
#include "harness/base/sha256.h"
#include "harness/base/file.h"

/*
 * The cache key: the host kernel (its release and build) and the QEMU binary. The binary is
 * identified by its metadata rather than by running "qemu --version" on every launch; an
 * upgrade replaces the file and so changes the key.
 */
static int cache_key(char hex[BO_SHA256_HEX])
{
	char line[PATH_MAX + 512], qemu[PATH_MAX];
	_cleanup_sha256_ struct bo_sha256 s = {0};
	struct utsname u;
	struct stat st;
	int r;

	if (bo_qemu_path(qemu, sizeof(qemu)) < 0 || stat(qemu, &st) < 0)
		return -ENOPKG;
	uname(&u);
	r = bo_sha256_init(&s, NULL);
	if (r < 0)
		return r;
	snprintf(line, sizeof(line), "%s\n%s\n%s\n%s\n%s %lu %lld %lld.%09ld\n", u.sysname,
		 u.release, u.version, u.machine, qemu, (unsigned long) st.st_ino,
		 (long long) st.st_size, (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	bo_sha256_update(&s, line, strlen(line));
	return bo_sha256_final_hex(&s, hex);
}

static bool kvm_openable(void)
{
	_cleanup_close_ int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	return fd >= 0;
}

int bo_accel_pick(const char *requested, int (*probe)(void *ctx), void *ctx, char *buf, size_t len,
		  struct bo_err *err)
{
	char dir[PATH_MAX - 128], path[PATH_MAX], hex[BO_SHA256_HEX];
	_cleanup_free_ char *cached = NULL;
	_cleanup_close_ int lockfd = -1;
	const char *answer;
	char line[8];
	int r;

	if (requested && (!strcmp(requested, "kvm") || !strcmp(requested, "tcg"))) {
		snprintf(buf, len, "%s", requested);
		return 0;
	}
	if (requested && strcmp(requested, "auto"))
		return bo_err_set(err, EINVAL, "accelerator '%s': expected kvm, tcg or auto",
				  requested);
	if (cache_key(hex) < 0)
		return bo_err_set(err, ENOENT,
				  "qemu-system-x86_64 is not installed (package "
				  "qemu-system-x86; scripts/setup installs it)");
	r = bo_cache_dir("accel", true, dir, sizeof(dir), err);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/.lock", dir);
	lockfd = bo_lock_file(path, err);
	if (lockfd < 0)
		return lockfd;
	snprintf(path, sizeof(path), "%s/%s", dir, hex);
	if (bo_read_file(path, 64, &cached, NULL) >= 0) {
		cached[strcspn(cached, "\n")] = '\0';
		if (!strcmp(cached, "kvm") || !strcmp(cached, "tcg")) {
			snprintf(buf, len, "%s", cached);
			return 0;
		}
	}
	if (!kvm_openable()) {
		answer = "tcg";
	} else {
		r = probe(ctx);
		if (r < 0)
			return bo_err_set(err, -r, "probe KVM: %s", strerror(-r));
		answer = r ? "kvm" : "tcg";
	}
	bo_debug(BO_DBG_VM, "accelerator for this host: %s (cached in '%s')", answer, path);
	/* Only a shortcut: an answer that cannot be kept is asked again next time. */
	snprintf(line, sizeof(line), "%s\n", answer);
	(void) !bo_write_file_at(AT_FDCWD, path, line, strlen(line));
	snprintf(buf, len, "%s", answer);
	return 0;
}

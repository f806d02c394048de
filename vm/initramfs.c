// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * initramfs.c — build the guest's root: a cached base archive and a per-launch archive.
 *
 * The kernel unpacks concatenated cpio archives in order into its rootfs (the kernel's
 * Documentation/driver-api/early-userspace/buffer-format.rst), so the big, slowly changing
 * part is built once per set of inputs and the per-launch part stays a few megabytes.
 * Archives are uncompressed: under TCG the guest decompresses far slower than the host
 * copies.
 */
#include "vm/initramfs.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/sha256.h"
#include "vm/cpio.h"

/* Bump when the layout of the base archive changes, so that cached archives are rebuilt. */
#define BASE_FORMAT  "blackout-initramfs-base-11"
#define FILES_FORMAT "blackout-initramfs-files-2"
/* What the cached files archives may take together, the one just made aside. */
#define FILES_CACHE_MAX (4ull << 30)

#define MAX_HELPER_OUTPUT (256u << 20)

/* The tools every guest gets, and the Debian package that has each (busybox first). Each
 * filesystem's come from its row (guestfs.h), when the host has them: a command that tests a
 * filesystem whose tools are missing is refused before its boot. */
static const struct {
	const char *name, *package;
} tools[] = {
	{"busybox", "busybox-static"},
	{"ip", "iproute2"},
};

/* Tools a guest gets when the host has them: e2fsprogs' e2fsck built static, the same e2fsck
 * without the dynamic loader's relocations at each of the thousands of starts a check makes
 * (a quarter of its time under TCG; harness/dev/fstool.c prefers it, docs/performance.md). */
static const char *const optional_tools[] = {"e2fsck.static", NULL};

/* Configuration the guest reads: mke2fs takes its defaults (features, inode size) from
 * mke2fs.conf; the dynamic loader finds libraries outside its built-in directories (those of
 * --file executables, say) only through ld.so.cache. */
static const char *const config_files[] = {"/etc/mke2fs.conf", "/etc/ld.so.cache", NULL};

/* Modules included besides bo_kernel_required and each filesystem's (guestfs.h) when the
 * kernel has them: crc32c before ext4/btrfs/dm-thin-pool (their crc32c soft dependency), the
 * RNG, the host base's pmem device (vm.h, bo_vm_opts.base_fd), overlay for the host's root
 * (bo_vm_opts.host_root), a cluster's network (harness/cluster/cluster.h): veth, and the
 * bridge with what it needs; and dm-delay, a slower disk for an exported reproducer
 * (docs/export.md, DELAY_MS). */
static const char *const optional_modules[] = {
	"crc32c-generic", "virtio-rng", "virtio-pmem", "nd-pmem", "overlay",
	"veth",		  "bridge",	"dm-delay",    NULL,
};

/* busybox applets left out: blackout is the guest's modprobe, and these would shadow it. */
static const char *const skipped_applets[] = {"modprobe", "depmod", "insmod", "rmmod", NULL};

/* The host's top-level links (merged /usr), so guest paths resolve as host paths do. */
static const char *const root_links[] = {"/bin", "/sbin", "/lib", "/lib64", NULL};

/*
 * The guest's e2fsck.conf: every bitmap of e2fsck a plain bit array, not its default red-black
 * tree of extents. The same checks and verdicts; under TCG a test of a bit is the cost of its
 * passes 4 and 5, which test one for each inode and block of the groups they walk (a tenth of
 * a 256 MiB ext4's fsck, docs/performance.md). An array takes a bit a block or inode whatever
 * is used: 32 MiB a block bitmap for 1 TiB of 4 KiB blocks, of which e2fsck keeps a few, so a
 * device of several TiB wants a guest with more memory (--memory).
 */
static const char e2fsck_conf[] = "[bitmaps]\n\tall = 1\n";

static const char *const guest_dirs[] = {
	"/proc", "/sys", "/dev", "/tmp", "/run", "/results", "/root", "/mnt", "/etc", NULL,
};

static int find_tool(const char *name, char *buf, size_t len)
{
	static const char *const dirs[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
					   "/usr/bin",	      "/sbin",		"/bin"};

	for (size_t i = 0; i < BO_ARRAY_SIZE(dirs); i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

enum elf_kind { ELF_OTHER, ELF_PROGRAM, ELF_LIBRARY };

/* What @path is: a dynamically linked program (it has an interpreter), a shared library (a
 * dynamic segment without one: loaded by a program, or by dlopen(), as a JVM's libjvm.so), or
 * anything else. */
static enum elf_kind elf_kind(const char *path)
{
	enum elf_kind k = ELF_OTHER;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf64_Ehdr eh;

	if (fd < 0 || bo_pread_full(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return ELF_OTHER;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (bo_pread_full(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t) i * sizeof(ph)) !=
		    sizeof(ph))
			return ELF_OTHER;
		if (ph.p_type == PT_INTERP)
			return ELF_PROGRAM;
		if (ph.p_type == PT_DYNAMIC)
			k = ELF_LIBRARY;
	}
	return k;
}

/*
 * The libraries of the base archive, one path per line between newlines: the launch archive
 * leaves them out (the kernel unpacks both archives into one tree), which keeps it small.
 */
struct libs {
	char *known; /* of the base, when building a launch archive; "\n/a\n/b\n" */
	FILE *seen;  /* collects the base's, when building it */
};

static bool known_lib(const struct libs *l, const char *lib)
{
	char key[PATH_MAX + 2];

	snprintf(key, sizeof(key), "\n%s\n", lib);
	return l && l->known && strstr(l->known, key);
}

/* Add the shared libraries @path loads, as ldd (the dynamic loader itself) lists them. */
static int add_libs(struct bo_cpio *c, const char *path, struct libs *l, struct bo_err *err)
{
	/* By its real path: $ORIGIN in its run path means where the file is, not the link. */
	_cleanup_free_ char *real = realpath(path, NULL);
	char *argv[] = {(char *) "ldd", real, NULL};
	_cleanup_free_ char *out = NULL;
	char *save = NULL;
	enum elf_kind kind;
	int r;

	if (!real)
		return bo_err_set(err, errno, "'%s': %m", path);
	kind = elf_kind(real);
	if (kind == ELF_OTHER)
		return 0;
	r = bo_proc_capture(argv, 1u << 20, &out, NULL);
	if (r < 0)
		return bo_err_set(err, -r, "run ldd '%s': %s", path, strerror(-r));
	if (r != 0)
		return bo_err_set(err, EINVAL, "ldd '%s' failed (exit %d)", path, r);
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> ");
		char *lib = arrow ? arrow + 3 : line + strspn(line, " \t");

		/* What a library needs may come from the program that loads it (libjvm.so for
		 * the JVM's own libraries); what a program needs must be there. */
		if (arrow && !strncmp(lib, "not found", 9) && kind == ELF_LIBRARY)
			continue;
		if (arrow && !strncmp(lib, "not found", 9)) {
			const char *name = line + strspn(line, " \t");

			return bo_err_set(err, ENOENT, "'%s' needs '%.*s', which is not installed",
					  path, (int) strcspn(name, " \t="), name);
		}
		if (*lib != '/')
			continue; /* the vDSO */
		lib[strcspn(lib, " \t(")] = '\0';
		if (known_lib(l, lib))
			continue;
		r = bo_cpio_add_host(c, lib, err);
		if (r < 0)
			return r;
		if (l && l->seen)
			fprintf(l->seen, "%s\n", lib);
	}
	return 0;
}

static int add_with_libs(struct bo_cpio *c, const char *path, struct libs *l, struct bo_err *err)
{
	int r = bo_cpio_add_host(c, path, err);

	return r < 0 ? r : add_libs(c, path, l, err);
}

static int add_skeleton(struct bo_cpio *c, struct bo_err *err)
{
	int r;

	for (const char *const *p = root_links; *p; p++)
		if (access(*p, F_OK) == 0 && (r = bo_cpio_add_host(c, *p, err)) < 0)
			return r;
	for (const char *const *p = guest_dirs; *p; p++)
		if ((r = bo_cpio_add_dir(c, *p, strcmp(*p, "/tmp") ? 0755 : 01777, err)) < 0)
			return r;
	r = bo_cpio_add_data(c, "/etc/e2fsck.conf", e2fsck_conf, sizeof(e2fsck_conf) - 1, 0644,
			     err);
	if (r < 0)
		return r;
	/* The mount table where older tools look (mkfs.nilfs2 will not run without it). */
	return bo_cpio_add_symlink(c, "/etc/mtab", "../proc/self/mounts", err);
}

static void hash_stat(struct bo_sha256 *s, const char *path)
{
	char line[PATH_MAX + 128];
	struct stat st;
	int n;

	if (stat(path, &st) < 0)
		n = snprintf(line, sizeof(line), "%s missing\n", path);
	else
		/* The change time moves with a chmod or chown too: what the guest sees of a file
		 * is its content, mode and owner. */
		n = snprintf(line, sizeof(line), "%s %lu %lu %lld %lld.%09ld %lld.%09ld\n", path,
			     (unsigned long) st.st_dev, (unsigned long) st.st_ino,
			     (long long) st.st_size, (long long) st.st_mtim.tv_sec,
			     st.st_mtim.tv_nsec, (long long) st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	bo_sha256_update(s, line, (size_t) n);
}

/* The path of a module in the guest: compressed modules are stored decompressed. */
static const char *plain_name(const char *path, char *buf, size_t len)
{
	static const char *const ext[] = {".ko.xz", ".ko.zst", ".ko.gz"};
	size_t n = strlen(path);

	snprintf(buf, len, "%s", path);
	for (size_t i = 0; i < BO_ARRAY_SIZE(ext); i++) {
		size_t e = strlen(ext[i]);

		if (n > e && n < len && !strcmp(path + n - e, ext[i]))
			strcpy(buf + n - e, ".ko");
	}
	return buf;
}

/* Module @name into @in when @m has it as a module. */
static void pick(const struct bo_moddir *m, const char *name, bool *in)
{
	size_t i;

	if (bo_moddir_find(m, name, &i) == BO_MOD_MODULE)
		in[i] = true;
}

/* The modules that go into the archive: required and optional ones and those of the
 * filesystems of @fstab, with their closure. */
static int pick_modules(const struct bo_moddir *m, const struct bo_guest_fs *fstab, bool **ret,
			struct bo_err *err)
{
	_cleanup_free_ bool *in = calloc(bo_moddir_count(m) + 1, sizeof(bool));

	if (!in)
		return bo_err_set(err, ENOMEM, "out of memory");
	for (const char *const *p = bo_kernel_required; *p; p++)
		pick(m, *p, in);
	for (const char *const *p = optional_modules; *p; p++)
		pick(m, *p, in);
	for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
		for (size_t i = 0; i < BO_GUESTFS_MODULES && f->modules[i]; i++)
			pick(m, f->modules[i], in);
	bo_moddir_closure(m, in);
	*ret = BO_TAKE_PTR(in);
	return 0;
}

static int add_module(struct bo_cpio *c, const struct bo_moddir *m, const char *release, size_t i,
		      struct bo_err *err)
{
	const char *file = bo_moddir_file(m, i);
	char src[PATH_MAX], dst[PATH_MAX], plain[PATH_MAX];
	const char *tool = NULL;
	_cleanup_free_ char *data = NULL;
	size_t len;
	int r;

	if (snprintf(src, sizeof(src), "%s/%s", bo_moddir_path(m), file) >= (int) sizeof(src) ||
	    snprintf(dst, sizeof(dst), "/lib/modules/%s/%s", release,
		     plain_name(file, plain, sizeof(plain))) >= (int) sizeof(dst))
		return bo_err_set(err, ENAMETOOLONG, "module '%s': path too long", file);
	if (strstr(file, ".ko.xz"))
		tool = "xz";
	else if (strstr(file, ".ko.zst"))
		tool = "zstd";
	else if (strstr(file, ".ko.gz"))
		tool = "gzip";
	if (!tool)
		return bo_cpio_add_file(c, dst, src, 0644, err);
	{
		char *argv[] = {(char *) tool, (char *) "-dc", src, NULL};

		r = bo_proc_capture(argv, MAX_HELPER_OUTPUT, &data, &len);
	}
	if (r != 0)
		return bo_err_set(err, r < 0 ? -r : EIO, "decompress module '%s' with %s: %s", src,
				  tool, r < 0 ? strerror(-r) : "failed");
	return bo_cpio_add_data(c, dst, data, len, 0644, err);
}

/* The modules.devname lines of the modules in the archive: the guest makes these nodes so
 * that their first open loads the module. */
static int add_devnames(struct bo_cpio *c, const struct bo_kernel *k, const struct bo_moddir *m,
			const bool *in, struct bo_err *err)
{
	_cleanup_free_ char *text = NULL, *out = NULL;
	char path[PATH_MAX], *save = NULL;
	size_t len = 0;
	int r;

	snprintf(path, sizeof(path), "%s/modules.devname", bo_moddir_path(m));
	r = bo_read_file(path, 1u << 20, &text, NULL);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return bo_err_set(err, -r, "read '%s': %s", path, strerror(-r));
	if (!(out = calloc(1, strlen(text) + 1)))
		return bo_err_set(err, ENOMEM, "out of memory");
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char mod[64];
		size_t i;

		if (sscanf(l, "%63s", mod) == 1 && bo_moddir_find(m, mod, &i) == BO_MOD_MODULE &&
		    in[i])
			len += (size_t) sprintf(out + len, "%s\n", l);
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.devname", k->release);
	return bo_cpio_add_data(c, path, out, len, 0644, err);
}

static int add_modules(struct bo_cpio *c, const struct bo_kernel *k, const struct bo_moddir *m,
		       const bool *in, struct bo_err *err)
{
	static const char *const copied[] = {"modules.builtin", "modules.builtin.modinfo"};
	_cleanup_free_ char *dep = NULL, *soft = NULL, *alias = NULL;
	char dst[PATH_MAX], src[PATH_MAX];
	int r;

	for (size_t i = 0; i < bo_moddir_count(m); i++)
		if (in[i] && (r = add_module(c, m, k->release, i, err)) < 0)
			return r;
	if (bo_moddir_write_subset(m, in, plain_name, &dep, &soft, &alias) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	snprintf(dst, sizeof(dst), "/lib/modules/%s/modules.dep", k->release);
	r = bo_cpio_add_data(c, dst, dep, strlen(dep), 0644, err);
	snprintf(dst, sizeof(dst), "/lib/modules/%s/modules.softdep", k->release);
	if (r >= 0)
		r = bo_cpio_add_data(c, dst, soft, strlen(soft), 0644, err);
	snprintf(dst, sizeof(dst), "/lib/modules/%s/modules.alias", k->release);
	if (r >= 0)
		r = bo_cpio_add_data(c, dst, alias, strlen(alias), 0644, err);
	if (r >= 0)
		r = add_devnames(c, k, m, in, err);
	for (size_t i = 0; r >= 0 && i < BO_ARRAY_SIZE(copied); i++) {
		snprintf(src, sizeof(src), "%s/%s", bo_moddir_path(m), copied[i]);
		snprintf(dst, sizeof(dst), "/lib/modules/%s/%s", k->release, copied[i]);
		if (access(src, R_OK) == 0)
			r = bo_cpio_add_file(c, dst, src, 0644, err);
	}
	return r;
}

static int add_applets(struct bo_cpio *c, const char *busybox, struct bo_err *err)
{
	char *argv[] = {(char *) busybox, (char *) "--list-full", NULL};
	_cleanup_free_ char *out = NULL;
	char *save = NULL;
	int r;

	r = bo_proc_capture(argv, 1u << 20, &out, NULL);
	if (r != 0)
		return bo_err_set(err, r < 0 ? -r : EIO, "'%s --list-full' failed", busybox);
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *base = strrchr(l, '/') ? strrchr(l, '/') + 1 : l;
		char path[PATH_MAX];
		bool skip = false;

		for (const char *const *s = skipped_applets; *s; s++)
			skip |= !strcmp(base, *s);
		snprintf(path, sizeof(path), "/%s", l);
		/* Real tools win over applets of the same name (mkfs.ext4, fsck, ...). */
		if (skip || bo_cpio_has(c, path))
			continue;
		r = bo_cpio_add_symlink(c, path, busybox, err);
		if (r < 0)
			return r;
	}
	return 0;
}

int bo_initramfs_check_tools(const struct bo_guest_fs *fstab, const char *const *fs,
			     struct bo_err *err)
{
	char path[PATH_MAX];

	for (size_t i = 0; fs && fs[i]; i++)
		for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
			for (size_t k = 0;
			     !strcmp(f->name, fs[i]) && k < BO_GUESTFS_TOOLS && f->tools[k]; k++)
				if (find_tool(f->tools[k], path, sizeof(path)) < 0)
					return bo_err_set(err, ENOPKG,
							  "%s needs '%s' (package %s; "
							  "scripts/setup installs it)",
							  f->name, f->tools[k], f->package);
	return 0;
}

/* Whether @paths[@n] is one of the @n before it (ext4's and ext2's e2fsck, say). */
static bool seen_path(char paths[][PATH_MAX], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(paths[i], paths[n]))
			return true;
	return false;
}

/* Write @len bytes of @data to @path atomically (a temporary file renamed over it). */
static int write_atomic(const char *path, const char *data, size_t len, struct bo_err *err)
{
	int r = bo_write_file_at(AT_FDCWD, path, data, len);

	return r < 0 ? bo_err_set(err, -r, "write '%s': %s", path, strerror(-r)) : 0;
}

static int build_base(const struct bo_kernel *k, const struct bo_moddir *m, const bool *in,
		      char paths[][PATH_MAX], size_t npaths, const char *dest, struct bo_err *err)
{
	_cleanup_free_ char *manifest = NULL;
	struct bo_cpio *c = NULL;
	struct libs libs = {0};
	char libs_path[PATH_MAX];
	size_t mlen = 0;
	struct bo_tmpfile t;
	int r;

	if (bo_cpio_new(&c) < 0 || !(libs.seen = open_memstream(&manifest, &mlen))) {
		bo_cpio_free(c);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	fputc('\n', libs.seen);
	r = add_skeleton(c, err);
	for (size_t i = 0; r >= 0 && i < npaths; i++)
		r = add_with_libs(c, paths[i], &libs, err);
	for (const char *const *p = config_files; r >= 0 && *p; p++)
		if (access(*p, R_OK) == 0)
			r = bo_cpio_add_host(c, *p, err);
	if (r >= 0)
		r = add_modules(c, k, m, in, err);
	if (r >= 0) /* tools[0] is busybox */
		r = add_applets(c, paths[0], err);
	fclose(libs.seen);
	/* The manifest goes first: whoever sees the archive may rely on it. */
	if (r >= 0 && bo_pathf(libs_path, sizeof(libs_path), "%s.libs", dest) < 0)
		r = bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dest);
	if (r >= 0)
		r = write_atomic(libs_path, manifest, mlen, err);
	if (r < 0) {
		bo_cpio_free(c);
		return bo_err_prefix(err, "build initramfs");
	}
	r = bo_tmpfile_open(&t, AT_FDCWD, dest);
	if (r < 0) {
		bo_cpio_free(c);
		return bo_err_set(err, -r, "create a temporary beside '%s': %s", dest,
				  strerror(-r));
	}
	r = bo_cpio_write(c, t.fd, err);
	bo_cpio_free(c);
	if (r >= 0 && fsync(t.fd) < 0)
		r = bo_err_set(err, errno, "write '%s': %m", t.tmp);
	if (r < 0) {
		bo_tmpfile_abort(&t);
		return r;
	}
	r = bo_tmpfile_commit(&t);
	return r < 0 ? bo_err_set(err, -r, "write '%s': %s", dest, strerror(-r)) : 0;
}

/*
 * The archive @hex of cache @kind ("initramfs", "files") into @buf: 1 when it is there; 0 when
 * the caller is to build it, holding the cache's lock in *@lockfd (another process building
 * the same archive waits for it, then finds it there); -errno.
 */
static int cache_entry(const char *kind, const char *hex, char *buf, size_t len, int *lockfd,
		       struct bo_err *err)
{
	char dir[PATH_MAX - 128], lock[PATH_MAX];
	int r = bo_cache_dir(kind, true, dir, sizeof(dir), err);

	if (r < 0)
		return r;
	if (bo_pathf(buf, len, "%s/%s.cpio", dir, hex) < 0)
		return bo_err_set(err, ENAMETOOLONG, "%s archive path is too long", kind);
	if (access(buf, R_OK) == 0) {
		char libs[PATH_MAX + 8];

		/* Pruning goes by last use; the list of a base's libraries goes with it. */
		bo_cache_touch(buf);
		snprintf(libs, sizeof(libs), "%s.libs", buf);
		bo_cache_touch(libs);
		return 1;
	}
	snprintf(lock, sizeof(lock), "%s/.lock", dir);
	*lockfd = bo_lock_file(lock, err);
	if (*lockfd < 0)
		return *lockfd;
	return access(buf, R_OK) == 0; /* another VM built it while we waited */
}

int bo_initramfs_base(const struct bo_kernel *k, const struct bo_moddir *m,
		      const struct bo_guest_fs *fstab, char *buf, size_t len, struct bo_err *err)
{
	char hex[BO_SHA256_HEX];
	_cleanup_free_ char(*paths)[PATH_MAX] = NULL;
	_cleanup_free_ bool *in = NULL;
	_cleanup_close_ int lockfd = -1;
	_cleanup_sha256_ struct bo_sha256 s = {0};
	size_t max = BO_ARRAY_SIZE(tools) + BO_ARRAY_SIZE(optional_tools), n = 0;
	int r;

	for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
		max += BO_GUESTFS_TOOLS;
	paths = calloc(max, sizeof(*paths));
	if (!paths)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = pick_modules(m, fstab, &in, err);
	if (r < 0)
		return r;
	r = bo_sha256_init(&s, err);
	if (r < 0)
		return err ? bo_err_prefix(err, "initramfs") : r;
	bo_sha256_update(&s, BASE_FORMAT "\n", sizeof(BASE_FORMAT));
	bo_sha256_update(&s, k->release, strlen(k->release) + 1);
	/* Inputs are identified by their metadata: a changed module, tool or library
	 * (ldconfig rewrites ld.so.cache whenever a library package changes) means a new
	 * archive. */
	for (size_t i = 0; i < BO_ARRAY_SIZE(tools); i++) {
		if (find_tool(tools[i].name, paths[n], sizeof(paths[n])) < 0)
			return bo_err_set(err, ENOPKG,
					  "initramfs: '%s' is not installed (package %s; "
					  "scripts/setup installs it)",
					  tools[i].name, tools[i].package);
		hash_stat(&s, paths[n++]);
	}
	/* A filesystem's tools that are not installed are left out, and their names hashed so
	 * that installing them makes a new archive; so are the optional ones. */
	for (const char *const *t = optional_tools; *t; t++) {
		if (find_tool(*t, paths[n], sizeof(paths[n])) < 0)
			bo_sha256_update(&s, *t, strlen(*t) + 1);
		else
			hash_stat(&s, paths[n++]);
	}
	for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
		for (size_t i = 0; i < BO_GUESTFS_TOOLS && f->tools[i]; i++) {
			if (find_tool(f->tools[i], paths[n], sizeof(paths[n])) < 0)
				bo_sha256_update(&s, f->tools[i], strlen(f->tools[i]) + 1);
			else if (!seen_path(paths, n))
				hash_stat(&s, paths[n++]);
		}
	hash_stat(&s, "/etc/ld.so.cache");
	for (const char *const *p = config_files; *p; p++)
		hash_stat(&s, *p);
	for (const char *idx = "modules.dep\0modules.softdep\0modules.alias\0modules.builtin\0"
			       "modules.builtin.modinfo\0modules.devname\0";
	     *idx; idx += strlen(idx) + 1) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", bo_moddir_path(m), idx);
		hash_stat(&s, path);
	}
	for (size_t i = 0; i < bo_moddir_count(m); i++) {
		char path[PATH_MAX];

		if (!in[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", bo_moddir_path(m), bo_moddir_file(m, i));
		hash_stat(&s, path);
	}
	if (bo_sha256_final_hex(&s, hex) < 0)
		return bo_err_set(err, EIO, "initramfs: hashing its inputs failed");

	r = cache_entry("initramfs", hex, buf, len, &lockfd, err);
	if (r != 0)
		return r < 0 ? r : 0;
	bo_debug(BO_DBG_VM, "building initramfs '%s'", buf);
	return build_base(k, m, in, paths, n, buf, err);
}

/* nftw has no user pointer: the tree being filled while one extra directory is walked. */
static struct bo_cpio *walk_cpio;
static struct libs *walk_libs;
static struct bo_err *walk_err;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct stat target;
	int r;

	/* A symlink whose target is missing (a JDK's src.zip, say) is shipped as it is. */
	if (type == FTW_SL && stat(path, &target) < 0) {
		char dir[PATH_MAX], link[PATH_MAX];
		ssize_t n = readlink(path, link, sizeof(link) - 1);

		snprintf(dir, sizeof(dir), "%.*s", ftw->base > 1 ? ftw->base - 1 : 1, path);
		if (n < 0)
			return bo_err_set(walk_err, errno, "readlink '%s': %m", path), 1;
		link[n] = '\0';
		r = bo_cpio_add_host(walk_cpio, dir, walk_err);
		if (r >= 0)
			r = bo_cpio_add_symlink(walk_cpio, path, link, walk_err);
		return r < 0 ? 1 : 0;
	}
	r = bo_cpio_add_host(walk_cpio, path, walk_err);

	/* Programs and libraries alike: a library may be dlopen()ed by what runs. */
	if (r >= 0 && type == FTW_F)
		r = add_libs(walk_cpio, path, walk_libs, walk_err);
	return r < 0 ? 1 : 0;
}

static int add_extra(struct bo_cpio *c, const char *path, struct libs *l, struct bo_err *err)
{
	_cleanup_free_ char *abs = realpath(path, NULL);
	struct stat st;

	if (!abs || stat(abs, &st) < 0)
		return bo_err_set(err, errno, "extra file '%s': %m", path);
	if (path[0] != '/')
		return bo_err_set(err, EINVAL, "extra file '%s' is not an absolute path", path);
	if (!S_ISDIR(st.st_mode))
		return add_with_libs(c, path, l, err);
	walk_cpio = c;
	walk_libs = l;
	walk_err = err;
	if (nftw(path, walk_one, 16, FTW_PHYS) != 0)
		return err && err->errnum ? -err->errnum
					  : bo_err_set(err, errno, "walk '%s': %m", path);
	return 0;
}

/* nftw has no user pointer: the digest being fed while one extra directory is walked. */
static struct bo_sha256 *walk_sha;

static int walk_hash(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	hash_stat(walk_sha, path);
	return 0;
}

/*
 * The cache key of the files archive of @files over base @base: every file and directory
 * under @files by its metadata (as the base archive's inputs), the libraries' cache (a
 * library package that changed rewrites it) and the base (which libraries it holds already).
 */
static int files_key(const char *base, const char *const *files, char hex[BO_SHA256_HEX],
		     struct bo_err *err)
{
	_cleanup_sha256_ struct bo_sha256 s = {0};
	int r;

	r = bo_sha256_init(&s, err);
	if (r < 0)
		return err ? bo_err_prefix(err, "initramfs") : r;
	bo_sha256_update(&s, FILES_FORMAT "\n", sizeof(FILES_FORMAT));
	bo_sha256_update(&s, base, strlen(base) + 1);
	hash_stat(&s, "/etc/ld.so.cache");
	for (const char *const *p = files; *p; p++) {
		struct stat st;

		if ((*p)[0] != '/')
			return bo_err_set(err, EINVAL, "extra file '%s' is not an absolute path",
					  *p);
		if (stat(*p, &st) < 0)
			return bo_err_set(err, errno, "extra file '%s': %m", *p);
		bo_sha256_update(&s, *p, strlen(*p) + 1);
		walk_sha = &s;
		if (S_ISDIR(st.st_mode) ? nftw(*p, walk_hash, 16, FTW_PHYS) != 0
					: (hash_stat(&s, *p), 0))
			return bo_err_set(err, errno, "walk '%s': %m", *p);
	}
	if (bo_sha256_final_hex(&s, hex) < 0)
		return bo_err_set(err, EIO, "initramfs: hashing the files' metadata failed");
	return 0;
}

static int build_files(const char *base, const char *const *files, const char *dest,
		       struct bo_err *err)
{
	_cleanup_free_ char *known = NULL;
	struct bo_cpio *c = NULL;
	struct libs libs = {0};
	struct bo_tmpfile t = {.fd = -1};
	char path[PATH_MAX];
	int r = 0;

	/* Without the base's manifest the archive just carries every library itself. */
	if (bo_pathf(path, sizeof(path), "%s.libs", base) >= 0 &&
	    bo_read_file(path, 1u << 20, &known, NULL) >= 0)
		libs.known = known;
	if (bo_cpio_new(&c) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	for (const char *const *p = files; r >= 0 && *p; p++)
		r = add_extra(c, *p, &libs, err);
	if (r >= 0 && (r = bo_tmpfile_open(&t, AT_FDCWD, dest)) < 0)
		r = bo_err_set(err, -r, "create a temporary beside '%s': %s", dest, strerror(-r));
	else if (r >= 0)
		r = bo_cpio_write(c, t.fd, err);
	bo_cpio_free(c);
	if (r < 0) {
		bo_tmpfile_abort(&t);
		return r;
	}
	r = bo_tmpfile_commit(&t);
	return r < 0 ? bo_err_set(err, -r, "write '%s': %s", dest, strerror(-r)) : 0;
}

int bo_initramfs_files(const char *base, const char *const *files, char *buf, size_t len,
		       struct bo_err *err)
{
	char hex[BO_SHA256_HEX];
	_cleanup_close_ int lockfd = -1;
	int r;

	r = files_key(base, files, hex, err);
	if (r >= 0)
		r = cache_entry("files", hex, buf, len, &lockfd, err);
	if (r != 0)
		return r < 0 ? r : 0;
	bo_debug(BO_DBG_VM, "building the files archive '%s'", buf);
	r = build_files(base, files, buf, err);
	/* Every other set of files is another archive: those not used for the longest go once
	 * they take more than FILES_CACHE_MAX together (blackout cache prune does it by hand). */
	if (r >= 0) {
		char dir[PATH_MAX];
		uint64_t freed = 0;

		snprintf(dir, sizeof(dir), "%.*s", (int) (strrchr(buf, '/') - buf), buf);
		if (bo_cache_trim(dir, FILES_CACHE_MAX, 0, buf, &freed, NULL) > 0)
			bo_debug(BO_DBG_VM, "files cache: %" PRIu64 " MiB of old archives removed",
				 freed >> 20);
	}
	return r;
}

int bo_initramfs_launch(int fd, const char *base, const void *launch, size_t launch_len,
			struct bo_err *err)
{
	struct bo_cpio *c = NULL;
	_cleanup_free_ char *self = realpath("/proc/self/exe", NULL);
	_cleanup_free_ char *known = NULL;
	char path[PATH_MAX];
	struct libs libs = {0};
	int r;

	/* Without the manifest the launch archive just carries every library itself. */
	if (bo_pathf(path, sizeof(path), "%s.libs", base) >= 0 &&
	    bo_read_file(path, 1u << 20, &known, NULL) >= 0)
		libs.known = known;
	if (!self)
		return bo_err_set(err, errno, "find this program (/proc/self/exe): %m");
	if (bo_cpio_new(&c) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = add_skeleton(c, err);
	if (r >= 0)
		r = add_with_libs(c, self, &libs, err);
	if (r >= 0)
		r = bo_cpio_add_symlink(c, "/init", self, err);
	if (r >= 0)
		r = bo_cpio_add_symlink(c, "/sbin/modprobe", self, err);
	if (r >= 0)
		r = bo_cpio_add_data(c, BO_GUEST_LAUNCH, launch, launch_len, 0644, err);
	if (r >= 0)
		r = bo_cpio_write(c, fd, err);
	bo_cpio_free(c);
	return r;
}

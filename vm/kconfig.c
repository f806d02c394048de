// SPDX-License-Identifier: GPL-2.0-or-later
#include "vm/kconfig.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"

#define KCONFIG_MAX (16u << 20)

struct entry {
	char *name, *value;
	size_t at; /* its place in the file */
};

struct bo_kconfig {
	struct entry *v;
	size_t n;
	char *text; /* the entries point into it */
};

enum when {
	ALWAYS,
	BASE_IMAGE, /* check's host-written base image */
	FS,	    /* the filesystem @fs of the need */
	OPTIONAL,   /* in the fragment only: --host-root, booting a vmlinux */
};

/* One option blackout needs; @alt, when set, does as well. */
static const struct need {
	const char *opt, *alt;
	bool module_ok;
	enum when when;
	const char *fs, *why;
} needs[] = {
	{"CONFIG_BLK_DEV_INITRD", NULL, false, ALWAYS, NULL, "the initramfs blackout boots"},
	{"CONFIG_DEVTMPFS", NULL, false, ALWAYS, NULL, "the guest's /dev"},
	{"CONFIG_TMPFS", NULL, false, ALWAYS, NULL, "the guest's scratch space and images"},
	{"CONFIG_PROC_FS", NULL, false, ALWAYS, NULL, "the guest's /proc"},
	{"CONFIG_SYSFS", NULL, false, ALWAYS, NULL, "the guest's /sys"},
	{"CONFIG_BINFMT_ELF", NULL, false, ALWAYS, NULL, "the guest's programs"},
	{"CONFIG_BINFMT_SCRIPT", NULL, false, ALWAYS, NULL, "workload scripts"},
	{"CONFIG_UNIX", NULL, false, ALWAYS, NULL, "the workload's control socket"},
	{"CONFIG_CGROUPS", NULL, false, ALWAYS, NULL,
	 "a command's processes ended with it (cgroup v2)"},
	{"CONFIG_SERIAL_8250_CONSOLE", NULL, false, ALWAYS, NULL, "the console on ttyS0"},
	{"CONFIG_PCI", NULL, false, ALWAYS, NULL, "QEMU's virtio devices"},
	{"CONFIG_VIRTIO_PCI", NULL, true, ALWAYS, NULL, "QEMU's virtio devices"},
	{"CONFIG_VIRTIO_CONSOLE", NULL, true, ALWAYS, NULL, "the guest's output (virtio-serial)"},
	{"CONFIG_NET", NULL, false, ALWAYS, NULL, "9p's transport"},
	{"CONFIG_NET_9P", NULL, true, ALWAYS, NULL, "the results directory (9p)"},
	{"CONFIG_NET_9P_VIRTIO", NULL, true, ALWAYS, NULL, "the results directory (9p)"},
	{"CONFIG_9P_FS", NULL, true, ALWAYS, NULL, "the results directory (9p)"},
	{"CONFIG_BLK_DEV_LOOP", NULL, true, ALWAYS, NULL, "the devices under the stack (loop)"},
	{"CONFIG_MD", NULL, false, ALWAYS, NULL, "device-mapper"},
	{"CONFIG_BLK_DEV_DM", NULL, true, ALWAYS, NULL, "device-mapper (dm-mod)"},
	{"CONFIG_DM_LOG_WRITES", NULL, true, ALWAYS, NULL, "recording the writes (dm-log-writes)"},
	{"CONFIG_DM_FLAKEY", NULL, true, ALWAYS, NULL, "faults (dm-flakey)"},
	{"CONFIG_DM_SNAPSHOT", NULL, true, ALWAYS, NULL, "a crash state's copy (dm-snapshot)"},
	{"CONFIG_DM_THIN_PROVISIONING", NULL, true, ALWAYS, NULL,
	 "crash states over a thin pool (dm-thin-pool)"},
	{"CONFIG_LIBNVDIMM", NULL, true, BASE_IMAGE, NULL, "the host-written base image"},
	{"CONFIG_BLK_DEV_PMEM", NULL, true, BASE_IMAGE, NULL, "the host-written base image"},
	{"CONFIG_VIRTIO_PMEM", NULL, true, BASE_IMAGE, NULL, "the host-written base image"},
	{"CONFIG_EXT4_FS", NULL, true, FS, "ext4", "the filesystem ext4"},
	{"CONFIG_EXT2_FS", "CONFIG_EXT4_USE_FOR_EXT2", true, FS, "ext2", "the filesystem ext2"},
	{"CONFIG_XFS_FS", NULL, true, FS, "xfs", "the filesystem xfs"},
	{"CONFIG_BTRFS_FS", NULL, true, FS, "btrfs", "the filesystem btrfs"},
	{"CONFIG_VFAT_FS", NULL, true, FS, "vfat", "the filesystem vfat"},
	{"CONFIG_NLS_CODEPAGE_437", NULL, true, FS, "vfat", "vfat's default codepage"},
	{"CONFIG_PVH", NULL, false, OPTIONAL, NULL, "booting a vmlinux (PVH)"},
	{"CONFIG_OVERLAY_FS", NULL, true, OPTIONAL, NULL, "--host-root's RAM overlay"},
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *) a)->name, ((const struct entry *) b)->name);
}

static int by_name_then_place(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

static bool name_ok(const char *s, size_t n)
{
	if (n <= 7 || strncmp(s, "CONFIG_", 7) != 0)
		return false;
	for (size_t i = 7; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

int bo_kconfig_read(const char *path, struct bo_kconfig **ret, struct bo_err *err)
{
	struct bo_kconfig *kc = calloc(1, sizeof(*kc));
	unsigned lineno = 0;
	size_t len, cap = 0, kept = 0;
	char *p;
	int r;

	*ret = NULL;
	if (!kc)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_input_read_path(path, BO_INPUT_FOLLOW, KCONFIG_MAX, &kc->text, &len, err);
	if (r < 0) {
		bo_kconfig_free(kc);
		return bo_err_prefix(err, "kernel config");
	}
	if (strlen(kc->text) != len) {
		bo_kconfig_free(kc);
		return bo_err_set(err, EINVAL, "kernel config '%s' holds a NUL byte", path);
	}
	for (p = kc->text; *p;) {
		char *line = p, *eq;
		size_t n = strcspn(p, "\n");

		lineno++;
		p += n + (p[n] == '\n');
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		if (!(eq = strchr(line, '=')) || !name_ok(line, (size_t) (eq - line)) || !eq[1]) {
			_cleanup_free_ char *show = bo_sanitize_n(line, n < 60 ? n : 60, true);

			bo_kconfig_free(kc);
			return bo_err_set(
				err, EINVAL,
				"kernel config '%s' line %u: '%s' is not CONFIG_NAME=value", path,
				lineno, show ? show : "?");
		}
		if (kc->n == cap) {
			struct entry *more =
				reallocarray(kc->v, cap ? 2 * cap : 1024, sizeof(*more));

			if (!more) {
				bo_kconfig_free(kc);
				return bo_err_set(err, ENOMEM, "out of memory");
			}
			kc->v = more;
			cap = cap ? 2 * cap : 1024;
		}
		*eq = '\0';
		kc->v[kc->n] = (struct entry){line, eq + 1, kc->n};
		kc->n++;
	}
	/* Of the lines of one name, the last wins (as merge_config.sh's fragments do). */
	if (kc->n)
		qsort(kc->v, kc->n, sizeof(*kc->v), by_name_then_place);
	for (size_t i = 0; i < kc->n; i++) {
		if (kept && !strcmp(kc->v[kept - 1].name, kc->v[i].name))
			kept--;
		kc->v[kept++] = kc->v[i];
	}
	kc->n = kept;
	*ret = kc;
	return 0;
}

void bo_kconfig_free(struct bo_kconfig *kc)
{
	if (!kc)
		return;
	free(kc->v);
	free(kc->text);
	free(kc);
}

const char *bo_kconfig_get(const struct bo_kconfig *kc, const char *name)
{
	struct entry key = {(char *) name, NULL, 0}, *e;

	if (!kc->n)
		return NULL;
	e = bsearch(&key, kc->v, kc->n, sizeof(*kc->v), by_name);
	return e ? e->value : NULL;
}

bool bo_kconfig_knows_fs(const char *fs)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++)
		if (needs[i].when == FS && !strcmp(needs[i].fs, fs))
			return true;
	return false;
}

/* Whether @opt is there as @kc's kernel can use it: built in, or a module in a kernel that
 * loads modules. */
static bool has(const struct bo_kconfig *kc, const char *opt, bool module_ok, bool modules)
{
	const char *v = opt ? bo_kconfig_get(kc, opt) : NULL;

	return v && (!strcmp(v, "y") || (!strcmp(v, "m") && module_ok && modules));
}

/* Whether @fs is one of @list (NULL-terminated, or NULL). */
static bool among(const char *fs, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], fs))
			return true;
	return false;
}

int bo_kconfig_check(const struct bo_kconfig *kc, const char *what, const char *const *fs,
		     bool base_image, FILE *detail, struct bo_err *err)
{
	bool modules = has(kc, "CONFIG_MODULES", false, false);
	char missing[256] = "";
	size_t n = 0, len = 0, shown = 0;

	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++) {
		const struct need *x = &needs[i];
		const char *v = bo_kconfig_get(kc, x->opt);
		const char *mod = v && !strcmp(v, "m") ? " (=m, without CONFIG_MODULES)" : "";
		int w;

		if (x->when == OPTIONAL || (x->when == BASE_IMAGE && !base_image) ||
		    (x->when == FS && !among(x->fs, fs)) ||
		    has(kc, x->opt, x->module_ok, modules) ||
		    has(kc, x->alt, x->module_ok, modules))
			continue;
		n++;
		if (detail)
			fprintf(detail, "  %s for %s%s\n", x->opt, x->why, mod);
		/* The message names as many as fit, whole. */
		w = snprintf(missing + len, sizeof(missing) - len, "%s%s%s", n > 1 ? ", " : "",
			     x->opt, *mod ? " (=m)" : "");
		if (w > 0 && len + (size_t) w < sizeof(missing) && shown + 1 == n) {
			len += (size_t) w;
			shown++;
		} else {
			missing[len] = '\0';
		}
	}
	if (!n)
		return 0;
	return bo_err_set(
		err, ENOPKG,
		"kernel config '%s' lacks %zu %s blackout needs: %s%s%s; `blackout kernel "
		"config --check` says what each is for (docs/vm.md)",
		what, n, n == 1 ? "option" : "options", missing, shown < n ? ", ..." : "",
		modules || strstr(missing, "(=m)") == NULL ? "" : " (=m: no CONFIG_MODULES)");
}

void bo_kconfig_fragment(FILE *out, const char *const *fs, bool modules)
{
	fputs("# blackout's kernel config fragment (blackout kernel config): merge it with\n"
	      "# scripts/kconfig/merge_config.sh .config FRAGMENT, then make olddefconfig.\n",
	      out);
	if (modules)
		fputs("CONFIG_MODULES=y\n", out);
	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++) {
		const struct need *x = &needs[i];
		if (x->when == FS && fs && *fs && !among(x->fs, fs))
			continue;
		fprintf(out, "# %s%s\n%s=%s\n", x->why, x->when == OPTIONAL ? " (optional)" : "",
			x->opt, modules && x->module_ok ? "m" : "y");
	}
}

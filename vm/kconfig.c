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
	OPTIONAL,   /* in the fragment only: --host-root, booting a vmlinux */
};

/* One option blackout needs; @alt, when set, does as well. A filesystem's options are its
 * row's (guestfs.h). */
static const struct need {
	const char *opt, *alt;
	bool module_ok;
	enum when when;
	const char *why;
} needs[] = {
	{"CONFIG_BLK_DEV_INITRD", NULL, false, ALWAYS, "the initramfs blackout boots"},
	{"CONFIG_DEVTMPFS", NULL, false, ALWAYS, "the guest's /dev"},
	{"CONFIG_TMPFS", NULL, false, ALWAYS, "the guest's scratch space and images"},
	{"CONFIG_PROC_FS", NULL, false, ALWAYS, "the guest's /proc"},
	{"CONFIG_SYSFS", NULL, false, ALWAYS, "the guest's /sys"},
	{"CONFIG_BINFMT_ELF", NULL, false, ALWAYS, "the guest's programs"},
	{"CONFIG_BINFMT_SCRIPT", NULL, false, ALWAYS, "workload scripts"},
	{"CONFIG_UNIX", NULL, false, ALWAYS, "the workload's control socket"},
	{"CONFIG_CGROUPS", NULL, false, ALWAYS, "a command's processes ended with it (cgroup v2)"},
	{"CONFIG_SERIAL_8250_CONSOLE", NULL, false, ALWAYS, "the console on ttyS0"},
	{"CONFIG_PCI", NULL, false, ALWAYS, "QEMU's virtio devices"},
	{"CONFIG_VIRTIO_PCI", NULL, true, ALWAYS, "QEMU's virtio devices"},
	{"CONFIG_VIRTIO_CONSOLE", NULL, true, ALWAYS, "the guest's output (virtio-serial)"},
	{"CONFIG_NET", NULL, false, ALWAYS, "9p's transport"},
	{"CONFIG_NET_9P", NULL, true, ALWAYS, "the results directory (9p)"},
	{"CONFIG_NET_9P_VIRTIO", NULL, true, ALWAYS, "the results directory (9p)"},
	{"CONFIG_9P_FS", NULL, true, ALWAYS, "the results directory (9p)"},
	{"CONFIG_BLK_DEV_LOOP", NULL, true, ALWAYS, "the devices under the stack (loop)"},
	{"CONFIG_MD", NULL, false, ALWAYS, "device-mapper"},
	{"CONFIG_BLK_DEV_DM", NULL, true, ALWAYS, "device-mapper (dm-mod)"},
	{"CONFIG_DM_LOG_WRITES", NULL, true, ALWAYS, "recording the writes (dm-log-writes)"},
	{"CONFIG_DM_FLAKEY", NULL, true, ALWAYS, "faults (dm-flakey)"},
	{"CONFIG_DM_SNAPSHOT", NULL, true, ALWAYS, "a crash state's copy (dm-snapshot)"},
	{"CONFIG_DM_THIN_PROVISIONING", NULL, true, ALWAYS,
	 "crash states over a thin pool (dm-thin-pool)"},
	{"CONFIG_LIBNVDIMM", NULL, true, BASE_IMAGE, "the host-written base image"},
	{"CONFIG_BLK_DEV_PMEM", NULL, true, BASE_IMAGE, "the host-written base image"},
	{"CONFIG_VIRTIO_PMEM", NULL, true, BASE_IMAGE, "the host-written base image"},
	{"CONFIG_PVH", NULL, false, OPTIONAL, "booting a vmlinux (PVH)"},
	{"CONFIG_OVERLAY_FS", NULL, true, OPTIONAL, "--host-root's RAM overlay"},
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

/* Option @spec of filesystem row @f as a need into @x: "CONFIG_A" or "CONFIG_A|CONFIG_B"
 * (either does), split into @opt and @alt (each BO_KCONFIG_NAME_MAX bytes). */
#define BO_KCONFIG_NAME_MAX 96
static void fs_need(const struct bo_guest_fs *f, const char *spec, struct need *x, char *opt,
		    char *alt, char *why)
{
	size_t n = strcspn(spec, "|");

	snprintf(opt, BO_KCONFIG_NAME_MAX, "%.*s", (int) n, spec);
	snprintf(alt, BO_KCONFIG_NAME_MAX, "%s", spec[n] ? spec + n + 1 : "");
	snprintf(why, BO_KCONFIG_NAME_MAX, "the filesystem %s", f->name);
	*x = (struct need){opt, *alt ? alt : NULL, true, ALWAYS, why};
}

/* What bo_kconfig_check() has found missing so far. */
struct missing {
	const struct bo_kconfig *kc;
	bool modules;
	FILE *detail;
	char text[256];
	size_t n, len, shown;
};

/* Need @x judged into @m. */
static void judge(struct missing *m, const struct need *x)
{
	const char *v = bo_kconfig_get(m->kc, x->opt);
	const char *mod = v && !strcmp(v, "m") ? " (=m, without CONFIG_MODULES)" : "";
	int w;

	if (has(m->kc, x->opt, x->module_ok, m->modules) ||
	    has(m->kc, x->alt, x->module_ok, m->modules))
		return;
	m->n++;
	if (m->detail)
		fprintf(m->detail, "  %s for %s%s\n", x->opt, x->why, mod);
	/* The message names as many as fit, whole. */
	w = snprintf(m->text + m->len, sizeof(m->text) - m->len, "%s%s%s", m->n > 1 ? ", " : "",
		     x->opt, *mod ? " (=m)" : "");
	if (w > 0 && m->len + (size_t) w < sizeof(m->text) && m->shown + 1 == m->n) {
		m->len += (size_t) w;
		m->shown++;
	} else {
		m->text[m->len] = '\0';
	}
}

int bo_kconfig_check(const struct bo_kconfig *kc, const char *what, const char *const *fs,
		     const struct bo_guest_fs *fstab, bool base_image, FILE *detail,
		     struct bo_err *err)
{
	struct missing m = {
		.kc = kc, .modules = has(kc, "CONFIG_MODULES", false, false), .detail = detail};

	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++)
		if (needs[i].when == ALWAYS || (needs[i].when == BASE_IMAGE && base_image))
			judge(&m, &needs[i]);
	for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
		for (size_t i = 0; among(f->name, fs) && i < BO_GUESTFS_KCONFIG && f->kconfig[i];
		     i++) {
			char opt[BO_KCONFIG_NAME_MAX], alt[BO_KCONFIG_NAME_MAX],
				why[BO_KCONFIG_NAME_MAX];
			struct need x;

			fs_need(f, f->kconfig[i], &x, opt, alt, why);
			judge(&m, &x);
		}
	if (!m.n)
		return 0;
	return bo_err_set(
		err, ENOPKG,
		"kernel config '%s' lacks %zu %s blackout needs: %s%s%s; `blackout kernel "
		"config --check` says what each is for (docs/vm.md)",
		what, m.n, m.n == 1 ? "option" : "options", m.text, m.shown < m.n ? ", ..." : "",
		m.modules || strstr(m.text, "(=m)") == NULL ? "" : " (=m: no CONFIG_MODULES)");
}

static void fragment_line(FILE *out, const struct need *x, bool modules)
{
	fprintf(out, "# %s%s\n%s=%s\n", x->why, x->when == OPTIONAL ? " (optional)" : "", x->opt,
		modules && x->module_ok ? "m" : "y");
}

void bo_kconfig_fragment(FILE *out, const char *const *fs, const struct bo_guest_fs *fstab,
			 bool modules)
{
	fputs("# blackout's kernel config fragment (blackout kernel config): merge it with\n"
	      "# scripts/kconfig/merge_config.sh .config FRAGMENT, then make olddefconfig.\n",
	      out);
	if (modules)
		fputs("CONFIG_MODULES=y\n", out);
	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++)
		if (needs[i].when != OPTIONAL)
			fragment_line(out, &needs[i], modules);
	for (const struct bo_guest_fs *f = fstab; f && f->name; f++)
		for (size_t i = 0;
		     (!fs || !*fs || among(f->name, fs)) && i < BO_GUESTFS_KCONFIG && f->kconfig[i];
		     i++) {
			char opt[BO_KCONFIG_NAME_MAX], alt[BO_KCONFIG_NAME_MAX],
				why[BO_KCONFIG_NAME_MAX];
			struct need x;

			fs_need(f, f->kconfig[i], &x, opt, alt, why);
			fragment_line(out, &x, modules);
		}
	for (size_t i = 0; i < BO_ARRAY_SIZE(needs); i++)
		if (needs[i].when == OPTIONAL)
			fragment_line(out, &needs[i], modules);
}

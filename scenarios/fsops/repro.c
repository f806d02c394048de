// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-fsops repro: the ops of a sequence (or of the bounded space) up to an acknowledged
 * op N as a C program of plain system calls that needs neither blackout nor this program —
 * what `blackout export` hands a kernel developer (docs/export.md). The program runs the ops,
 * says what each acknowledgement promised, and runs a power-cut command right after op N's;
 * its check mode compares what op N promised in a recovered tree with the same ops run to the
 * end without a cut. The data of each write is its own (a function of op id and offset), not
 * the workload's: what is compared is the same on both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"
#include "scenarios/fsops/upto.h"

/* The C that follows: helpers for each kind of call, then the ops, then the check. */
static const char prologue[] =
	"#define _GNU_SOURCE\n"
	"#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
	"#include <dirent.h>\n"
	"#include <errno.h>\n"
	"#include <fcntl.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <sys/ioctl.h>\n"
	"#include <sys/mman.h>\n"
	"#include <sys/stat.h>\n"
	"#include <sys/uio.h>\n"
	"#include <sys/xattr.h>\n"
	"#include <unistd.h>\n"
	"#include <linux/falloc.h>\n"
	"#include <linux/fs.h>\n"
	"\n"
	"#ifndef RWF_DSYNC\n"
	"#define RWF_DSYNC 0x00000002\n"
	"#endif\n"
	"#ifndef RENAME_NOREPLACE\n"
	"#define RENAME_NOREPLACE (1 << 0)\n"
	"#define RENAME_EXCHANGE (1 << 1)\n"
	"#endif\n"
	"\n"
	"static unsigned char buf[16384] __attribute__((aligned(4096)));\n"
	"static const char *cut_cmd;\n"
	"static unsigned long pause_us; /* $REPRO_PAUSE_US: before each op */\n"
	"\n"
	"/* Before each op: the pause a workload run through blackout gets from its control\n"
	" * channel's round trip, where a race needs it. */\n"
	"static void step(void)\n"
	"{\n"
	"\tif (pause_us)\n"
	"\t\tusleep(pause_us);\n"
	"}\n"
	"\n"
	"static void die(const char *call, const char *path)\n"
	"{\n"
	"\tfprintf(stderr, \"repro: %s %s: %s\\n\", call, path, strerror(errno));\n"
	"\texit(2);\n"
	"}\n"
	"\n"
	"/* The bytes op @id writes at file offset @off: the workload's own (blackout-fsops, "
	"data.c,\n"
	" * under its seed SEED), so that a tree the workload left compares with one repro made. "
	"*/\n"
	"static unsigned long long mix(unsigned long long x)\n"
	"{\n"
	"\tx ^= x >> 30;\n"
	"\tx *= 0xbf58476d1ce4e5b9ULL;\n"
	"\tx ^= x >> 27;\n"
	"\tx *= 0x94d049bb133111ebULL;\n"
	"\treturn x ^ (x >> 31);\n"
	"}\n"
	"\n"
	"static void fill(unsigned long long id, unsigned long long off, size_t len)\n"
	"{\n"
	"\tconst unsigned long long low = (1ULL << 20) - 1, key = mix(SEED ^ "
	"0x9e3779b97f4a7c15ULL);\n"
	"\n"
	"\tfor (size_t i = 0; i < len; i++) {\n"
	"\t\tunsigned long long w = (off + i) >> 3, m = mix(key ^ (w * 0xd6e8feb86659fd93ULL));\n"
	"\t\tunsigned long long check = ((m ^ (id * 0x632be59bd9b4e019ULL)) * "
	"0xbf58476d1ce4e5b9ULL) & ~low;\n"
	"\t\tunsigned long long v = ((id ^ m) & low) | check;\n"
	"\n"
	"\t\tbuf[i] = (unsigned char) (v >> (8 * ((off + i) & 7)));\n"
	"\t}\n"
	"}\n"
	"\n"
	"static void cr(const char *p)\n"
	"{\n"
	"\tint fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);\n"
	"\n"
	"\tif (fd < 0 || close(fd) < 0)\n"
	"\t\tdie(\"create\", p);\n"
	"}\n"
	"\n"
	"/* pwritev2 at @off, the file opened with @flags more, each call with @rwf. */\n"
	"static void wr(const char *p, unsigned long id, unsigned long off, size_t len, int flags, "
	"int rwf)\n"
	"{\n"
	"\tint fd = open(p, O_WRONLY | flags);\n"
	"\tsize_t done = 0;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\tdie(\"open\", p);\n"
	"\tfill(id, off, len);\n"
	"\twhile (done < len) {\n"
	"\t\tstruct iovec v = {buf + done, len - done};\n"
	"\t\tssize_t n = pwritev2(fd, &v, 1, (off_t) (off + done), rwf);\n"
	"\n"
	"\t\tif (n <= 0)\n"
	"\t\t\tdie(\"pwritev2\", p);\n"
	"\t\tdone += (size_t) n;\n"
	"\t}\n"
	"\tif (close(fd) < 0)\n"
	"\t\tdie(\"close\", p);\n"
	"}\n"
	"\n"
	"/* A store through a shared mapping, msync'd (MS_SYNC) when @sync. */\n"
	"static void mm(const char *p, unsigned long id, unsigned long off, size_t len, int sync)\n"
	"{\n"
	"\tunsigned long pg = (unsigned long) sysconf(_SC_PAGESIZE), start = off / pg * pg;\n"
	"\tsize_t n = off + len - start;\n"
	"\tint fd = open(p, O_RDWR);\n"
	"\tunsigned char *m;\n"
	"\n"
	"\tif (fd < 0)\n"
	"\t\tdie(\"open\", p);\n"
	"\tm = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t) start);\n"
	"\tif (m == MAP_FAILED)\n"
	"\t\tdie(\"mmap\", p);\n"
	"\tfill(id, off, len);\n"
	"\tmemcpy(m + (off - start), buf, len);\n"
	"\tif (sync && msync(m, n, MS_SYNC) < 0)\n"
	"\t\tdie(\"msync\", p);\n"
	"\tmunmap(m, n);\n"
	"\tclose(fd);\n"
	"}\n"
	"\n"
	"static void fa(const char *p, int mode, unsigned long off, unsigned long len)\n"
	"{\n"
	"\tint fd = open(p, O_WRONLY);\n"
	"\n"
	"\tif (fd < 0 || fallocate(fd, mode, (off_t) off, (off_t) len) < 0)\n"
	"\t\tdie(\"fallocate\", p);\n"
	"\tclose(fd);\n"
	"}\n"
	"\n"
	"/* @src's [off, off+len) into @dst at the same offsets: copy_file_range\n"
	" * (@how 0), FICLONE of the whole file (1) or FICLONERANGE (2). */\n"
	"static void cp(const char *src, const char *dst, int how, unsigned long off, "
	"unsigned long len)\n"
	"{\n"
	"\tint s = open(src, O_RDONLY), d = open(dst, O_WRONLY);\n"
	"\tloff_t in = (loff_t) off, out = (loff_t) off;\n"
	"\tstruct file_clone_range r = {0, off, len, off};\n"
	"\n"
	"\tif (s < 0 || d < 0)\n"
	"\t\tdie(\"open\", s < 0 ? src : dst);\n"
	"\tr.src_fd = s;\n"
	"\tif (how == 1 && ioctl(d, FICLONE, s) < 0)\n"
	"\t\tdie(\"ioctl FICLONE\", dst);\n"
	"\tif (how == 2 && ioctl(d, FICLONERANGE, &r) < 0)\n"
	"\t\tdie(\"ioctl FICLONERANGE\", dst);\n"
	"\twhile (how == 0 && in < (loff_t) (off + len)) {\n"
	"\t\tssize_t n = copy_file_range(s, &in, d, &out, off + len - (unsigned long) in, 0);\n"
	"\n"
	"\t\tif (n <= 0)\n"
	"\t\t\tdie(\"copy_file_range\", dst);\n"
	"\t}\n"
	"\tclose(s);\n"
	"\tif (close(d) < 0)\n"
	"\t\tdie(\"close\", dst);\n"
	"}\n"
	"\n"
	"/* fsync (fdatasync when @data) of a file or a directory. */\n"
	"static void fs(const char *p, int data)\n"
	"{\n"
	"\tint fd = open(p, O_RDONLY);\n"
	"\n"
	"\tif (fd < 0 || (data ? fdatasync(fd) : fsync(fd)) < 0)\n"
	"\t\tdie(data ? \"fdatasync\" : \"fsync\", p);\n"
	"\tclose(fd);\n"
	"}\n"
	"\n"
	"static void sfs(void)\n"
	"{\n"
	"\tint fd = open(\".\", O_RDONLY | O_DIRECTORY);\n"
	"\n"
	"\tif (fd < 0 || syncfs(fd) < 0)\n"
	"\t\tdie(\"syncfs\", \".\");\n"
	"\tclose(fd);\n"
	"}\n"
	"\n"
	"static void xs(const char *p, int x, const char *value)\n"
	"{\n"
	"\tchar name[32];\n"
	"\n"
	"\tsnprintf(name, sizeof(name), \"user.fsops%d\", x);\n"
	"\tif (setxattr(p, name, value, strlen(value), 0) < 0)\n"
	"\t\tdie(\"setxattr\", p);\n"
	"}\n"
	"\n"
	"static void xr(const char *p, int x)\n"
	"{\n"
	"\tchar name[32];\n"
	"\n"
	"\tsnprintf(name, sizeof(name), \"user.fsops%d\", x);\n"
	"\tif (removexattr(p, name) < 0)\n"
	"\t\tdie(\"removexattr\", p);\n"
	"}\n"
	"\n"
	"static void rn(const char *a, const char *b, unsigned flags)\n"
	"{\n"
	"\tif (renameat2(AT_FDCWD, a, AT_FDCWD, b, flags) < 0)\n"
	"\t\tdie(\"rename\", a);\n"
	"}\n"
	"\n"
	"static void cd(const char *d)\n"
	"{\n"
	"\tif (chdir(d) < 0)\n"
	"\t\tdie(\"chdir\", d);\n"
	"}\n"
	"\n"
	"/* Op @id acknowledged: say what it promised; after op N, the power cut, and the end. */\n"
	"static void ack(unsigned long id, const char *promise)\n"
	"{\n"
	"\tprintf(\"op %lu acknowledged: %s\\n\", id, promise);\n"
	"\tfflush(stdout);\n"
	"\tif (id != N)\n"
	"\t\treturn;\n"
	"\tif (cut_cmd && system(cut_cmd) != 0) {\n"
	"\t\tfprintf(stderr, \"repro: the power cut '%s' failed\\n\", cut_cmd);\n"
	"\t\texit(2);\n"
	"\t}\n"
	"\texit(0);\n"
	"}\n"
	"\n";

/* The check's helpers: compare one file (its name, size and bytes, or a range of them), the
 * names of one directory, or a whole tree, between the recovered DIR and EXP. */
static const char check_helpers[] =
	"static const char *top, *exp_top;\n"
	"\n"
	"/* The contents of @dir/@p (at most 1 MiB) into *@ret, its size into *@len: 0, or -1 "
	"when it is not there. */\n"
	"static int slurp(const char *dir, const char *p, unsigned char **ret, size_t *len)\n"
	"{\n"
	"\tchar path[4096];\n"
	"\tFILE *f;\n"
	"\n"
	"\tsnprintf(path, sizeof(path), \"%s/%s\", dir, p);\n"
	"\tif (!(f = fopen(path, \"rb\")))\n"
	"\t\treturn -1;\n"
	"\t*ret = malloc(1 << 20);\n"
	"\t*len = *ret ? fread(*ret, 1, 1 << 20, f) : 0;\n"
	"\tfclose(f);\n"
	"\treturn *ret ? 0 : -1;\n"
	"}\n"
	"\n"
	"static int lost(const char *what)\n"
	"{\n"
	"\tprintf(\"LOST: op %lu's acknowledgement (%s): %s\\n\", (unsigned long) N, PROMISE, "
	"what);\n"
	"\treturn 1;\n"
	"}\n"
	"\n"
	"/* File @p as EXP has it: its name (unless !@name and it is gone), size and bytes, or "
	"only "
	"[@off, @off+@len) when @len. */\n"
	"static int same_file(const char *p, int name, unsigned long off, unsigned long len)\n"
	"{\n"
	"\tunsigned char *a = NULL, *b = NULL;\n"
	"\tsize_t na = 0, nb = 0;\n"
	"\tchar what[4200];\n"
	"\tint r = 0;\n"
	"\n"
	"\tif (slurp(exp_top, p, &b, &nb) < 0) {\n"
	"\t\tfprintf(stderr, \"repro: %s is not in the expected tree %s\\n\", p, exp_top);\n"
	"\t\texit(2);\n"
	"\t}\n"
	"\tif (slurp(top, p, &a, &na) < 0) {\n"
	"\t\tsnprintf(what, sizeof(what), \"%s is gone\", p);\n"
	"\t\tr = name ? lost(what) : 0;\n"
	"\t} else if (!len && na != nb) {\n"
	"\t\tsnprintf(what, sizeof(what), \"%s has %zu bytes, %zu promised\", p, na, nb);\n"
	"\t\tr = lost(what);\n"
	"\t} else if (len ? na < off + len || memcmp(a + off, b + off, len) : memcmp(a, b, na)) "
	"{\n"
	"\t\tsnprintf(what, sizeof(what), \"%s does not hold the bytes promised%s\", p,\n"
	"\t\t\t len ? \" in the range written\" : \"\");\n"
	"\t\tr = lost(what);\n"
	"\t}\n"
	"\tfree(a);\n"
	"\tfree(b);\n"
	"\treturn r;\n"
	"}\n"
	"\n"
	"/* Symlink @p as EXP has it: the name, a link, its target. */\n"
	"static int same_link(const char *p)\n"
	"{\n"
	"\tchar path[4096], a[256] = \"\", b[256] = \"\", what[4200];\n"
	"\n"
	"\tsnprintf(path, sizeof(path), \"%s/%s\", exp_top, p);\n"
	"\tif (readlink(path, b, sizeof(b) - 1) < 0) {\n"
	"\t\tfprintf(stderr, \"repro: %s is no link in the expected tree %s\\n\", p, exp_top);\n"
	"\t\texit(2);\n"
	"\t}\n"
	"\tsnprintf(path, sizeof(path), \"%s/%s\", top, p);\n"
	"\tif (readlink(path, a, sizeof(a) - 1) < 0 || strcmp(a, b)) {\n"
	"\t\tsnprintf(what, sizeof(what), \"%s is not the symlink promised\", p);\n"
	"\t\treturn lost(what);\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"/* The names in directory @d, sorted, one per line, into @out. */\n"
	"static void names(const char *dir, const char *d, char *out, size_t n)\n"
	"{\n"
	"\tchar path[4096], *v[512];\n"
	"\tsize_t k = 0, at = 0;\n"
	"\tstruct dirent *e;\n"
	"\tDIR *h;\n"
	"\n"
	"\tsnprintf(path, sizeof(path), \"%s/%s\", dir, d);\n"
	"\tout[0] = '\\0';\n"
	"\tif (!(h = opendir(path)))\n"
	"\t\treturn;\n"
	"\twhile ((e = readdir(h)) && k < 512)\n"
	"\t\tif (strcmp(e->d_name, \".\") && strcmp(e->d_name, \"..\") &&\n"
	"\t\t    strcmp(e->d_name, \"lost+found\"))\n"
	"\t\t\tv[k++] = strdup(e->d_name);\n"
	"\tclosedir(h);\n"
	"\tfor (size_t i = 0; i < k; i++)\n"
	"\t\tfor (size_t j = i + 1; j < k; j++)\n"
	"\t\t\tif (strcmp(v[j], v[i]) < 0) {\n"
	"\t\t\t\tchar *t = v[i];\n"
	"\n"
	"\t\t\t\tv[i] = v[j];\n"
	"\t\t\t\tv[j] = t;\n"
	"\t\t\t}\n"
	"\tfor (size_t i = 0; i < k; i++) {\n"
	"\t\tat += (size_t) snprintf(out + at, at < n ? n - at : 0, \"%s \", v[i]);\n"
	"\t\tfree(v[i]);\n"
	"\t}\n"
	"}\n"
	"\n"
	"static int same_names(const char *d)\n"
	"{\n"
	"\tstatic char a[16384], b[16384];\n"
	"\tchar what[33000];\n"
	"\n"
	"\tnames(top, d, a, sizeof(a));\n"
	"\tnames(exp_top, d, b, sizeof(b));\n"
	"\tif (!strcmp(a, b))\n"
	"\t\treturn 0;\n"
	"\tsnprintf(what, sizeof(what), \"directory %s holds [%s], [%s] promised\", d, a, b);\n"
	"\treturn lost(what);\n"
	"}\n"
	"\n"
	"/* Everything under @d as EXP has it: names, then each file's bytes. */\n"
	"static int same_tree(const char *d)\n"
	"{\n"
	"\tchar path[4096], sub[1024];\n"
	"\tstruct dirent *e;\n"
	"\tstruct stat st;\n"
	"\tint r = same_names(d);\n"
	"\tDIR *h;\n"
	"\n"
	"\tsnprintf(path, sizeof(path), \"%s/%s\", exp_top, d);\n"
	"\tif (r || !(h = opendir(path)))\n"
	"\t\treturn r;\n"
	"\twhile (!r && (e = readdir(h))) {\n"
	"\t\tif (!strcmp(e->d_name, \".\") || !strcmp(e->d_name, \"..\"))\n"
	"\t\t\tcontinue;\n"
	"\t\tsnprintf(sub, sizeof(sub), \"%s/%s\", d, e->d_name);\n"
	"\t\tsnprintf(path, sizeof(path), \"%s/%s\", exp_top, sub);\n"
	"\t\tif (lstat(path, &st) == 0)\n"
	"\t\t\tr = S_ISDIR(st.st_mode)   ? same_tree(sub)\n"
	"\t\t\t    : S_ISLNK(st.st_mode) ? same_link(sub)\n"
	"\t\t\t\t\t\t  : same_file(sub, 1, 0, 0);\n"
	"\t}\n"
	"\tclosedir(h);\n"
	"\treturn r;\n"
	"}\n"
	"\n";

static const char main_text[] =
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tif (argc >= 3 && !strcmp(argv[1], \"run\")) {\n"
	"\t\tcut_cmd = argc > 3 ? argv[3] : NULL;\n"
	"\t\tpause_us = getenv(\"REPRO_PAUSE_US\") ? strtoul(getenv(\"REPRO_PAUSE_US\"), NULL, 10) "
	": "
	"0;\n"
	"\t\tcd(argv[2]);\n"
	"\t\tops();\n"
	"\t\tfprintf(stderr, \"repro: op %lu was never acknowledged\\n\", (unsigned long) N);\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tif (argc == 4 && !strcmp(argv[1], \"check\")) {\n"
	"\t\tint r;\n"
	"\n"
	"\t\ttop = argv[2];\n"
	"\t\texp_top = argv[3];\n"
	"\t\tr = check();\n"
	"\t\tif (!r)\n"
	"\t\t\tprintf(\"kept: op %lu's acknowledgement (%s)\\n\", (unsigned long) N, "
	"PROMISE);\n"
	"\t\treturn r;\n"
	"\t}\n"
	"\tfprintf(stderr, \"usage: repro run DIR [CUT-COMMAND] | repro check DIR EXPECTED\\n\");\n"
	"\treturn 2;\n"
	"}\n";

/* One op as C: its calls, and for a persistence op its ack. */
static void emit_op(const struct fsops_op *op, uint64_t data_id, const struct fsops_params *p,
		    bool linux_names)
{
	bool bug = p->bug == FSOPS_BUG_ACK_WITHOUT_FSYNC;
	unsigned long id = (unsigned long) data_id;
	char a[16], b[16], promise[128];

	fsops_op_paths(op, a, b, sizeof(a));
	printf("\t/* op %llu: %s %s%s%s */\n\tstep();\n\t", (unsigned long long) op->id,
	       fsops_type_name(op->type), a, op->b >= 0 ? " " : "", op->b >= 0 ? b : "");
	switch (op->type) {
	case FSOPS_CREATE:
		printf("cr(\"%s\");\n", a);
		break;
	case FSOPS_WRITE:
	case FSOPS_APPEND:
	case FSOPS_OVERWRITE:
		printf("wr(\"%s\", %lu, %llu, %llu, 0, 0);\n", a, id, (unsigned long long) op->off,
		       (unsigned long long) op->len);
		break;
	case FSOPS_DIO_WRITE:
		printf("wr(\"%s\", %lu, %llu, %llu, O_DIRECT, 0);\n", a, id,
		       (unsigned long long) op->off, (unsigned long long) op->len);
		break;
	case FSOPS_DSYNC_WRITE:
		printf("wr(\"%s\", %lu, %llu, %llu, 0, %s);\n", a, id, (unsigned long long) op->off,
		       (unsigned long long) op->len,
		       bug ? "0 /* the bug: no RWF_DSYNC */" : "RWF_DSYNC");
		break;
	case FSOPS_SYNC_WRITE:
		printf("wr(\"%s\", %lu, %llu, %llu, %s, 0);\n", a, id, (unsigned long long) op->off,
		       (unsigned long long) op->len, bug ? "0 /* the bug: no O_SYNC */" : "O_SYNC");
		break;
	case FSOPS_MMAP_WRITE:
		printf("mm(\"%s\", %lu, %llu, %llu, %d);\n", a, id, (unsigned long long) op->off,
		       (unsigned long long) op->len, !bug);
		break;
	case FSOPS_FALLOC:
	case FSOPS_FALLOC_KEEP:
	case FSOPS_PUNCH:
	case FSOPS_ZERO:
	case FSOPS_ZERO_KEEP:
	case FSOPS_COLLAPSE:
	case FSOPS_INSERT:
		printf("fa(\"%s\", %s, %llu, %llu);\n", a,
		       op->type == FSOPS_FALLOC	       ? "0"
		       : op->type == FSOPS_FALLOC_KEEP ? "FALLOC_FL_KEEP_SIZE"
		       : op->type == FSOPS_PUNCH     ? "FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE"
		       : op->type == FSOPS_ZERO	     ? "FALLOC_FL_ZERO_RANGE"
		       : op->type == FSOPS_ZERO_KEEP ? "FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE"
		       : op->type == FSOPS_COLLAPSE  ? "FALLOC_FL_COLLAPSE_RANGE"
						     : "FALLOC_FL_INSERT_RANGE",
		       (unsigned long long) op->off, (unsigned long long) op->len);
		break;
	case FSOPS_SETXATTR: {
		char value[64];

		fsops_xattr_value(p->seed, data_id, (int) op->off, value, sizeof(value));
		printf("xs(\"%s\", %d, \"%s\");\n", a, (int) op->off, value);
	} break;
	case FSOPS_REMOVEXATTR:
		printf("xr(\"%s\", %d);\n", a, (int) op->off);
		break;
	case FSOPS_RENAME:
		printf("rn(\"%s\", \"%s\", 0);\n", a, b);
		break;
	case FSOPS_RENAME_NOREPLACE:
		printf("rn(\"%s\", \"%s\", RENAME_NOREPLACE);\n", a, b);
		break;
	case FSOPS_EXCHANGE:
		printf("rn(\"%s\", \"%s\", RENAME_EXCHANGE);\n", a, b);
		break;
	case FSOPS_COPY:
	case FSOPS_CLONE:
	case FSOPS_CLONE_RANGE:
		printf("cp(\"%s\", \"%s\", %d, %llu, %llu);\n", b, a,
		       op->type == FSOPS_COPY	 ? 0
		       : op->type == FSOPS_CLONE ? 1
						 : 2,
		       (unsigned long long) op->off, (unsigned long long) op->len);
		break;
	case FSOPS_SYMLINK: {
		char target[64];

		fsops_symlink_target(p->seed, data_id, target, sizeof(target));
		printf("if (symlink(\"%s\", \"%s\") < 0) die(\"symlink\", \"%s\");\n", target, a,
		       a);
	} break;
	case FSOPS_TRUNCATE:
		printf("if (truncate(\"%s\", %llu) < 0) die(\"truncate\", \"%s\");\n", a,
		       (unsigned long long) op->off, a);
		break;
	case FSOPS_LINK:
		printf("if (link(\"%s\", \"%s\") < 0) die(\"link\", \"%s\");\n", a, b, a);
		break;
	case FSOPS_UNLINK:
		printf("if (unlink(\"%s\") < 0) die(\"unlink\", \"%s\");\n", a, a);
		break;
	case FSOPS_MKDIR:
		printf("if (mkdir(\"%s\", 0755) < 0) die(\"mkdir\", \"%s\");\n", a, a);
		break;
	case FSOPS_RMDIR:
		printf("if (rmdir(\"%s\") < 0) die(\"rmdir\", \"%s\");\n", a, a);
		break;
	case FSOPS_FSYNC:
		if (bug)
			printf("/* the bug: no fsync */;\n");
		else if (fsops_slot_dir(op->a) >= 0)
			printf("fs(\"%s\", 0);\n\tfs(\"%s\", 0);\n\tfs(\".\", 0);\n", a,
			       fsops_dir_path(fsops_slot_dir(op->a), b, sizeof(b)));
		else
			printf("fs(\"%s\", 0);\n\tfs(\".\", 0);\n", a);
		break;
	case FSOPS_FDATASYNC:
		printf(bug ? "/* the bug: no fdatasync */;\n" : "fs(\"%s\", 1);\n", a);
		break;
	case FSOPS_FSYNC_FILE:
	case FSOPS_FSYNC_DIR:
		printf(bug ? "/* the bug: no fsync */;\n" : "fs(\"%s\", 0);\n", a);
		break;
	case FSOPS_SYNC:
		printf(bug ? "/* the bug: no syncfs */;\n" : "sfs();\n");
		break;
	case FSOPS_NTYPES:
		break;
	}
	if (fsops_is_sync(op->type))
		printf("\tack(%llu, \"%s\");\n", (unsigned long long) op->id,
		       fsops_upto_promise(op, a, linux_names, promise, sizeof(promise)));
}

/* The check of op @op's promise (paths under @dir). */
static void emit_check(const struct fsops_op *op, const char *dir, bool linux_names)
{
	char a[16], b[16], path[48];

	fsops_op_paths(op, a, b, sizeof(a));
	printf("static int check(void)\n{\n\treturn ");
	switch (op->type) {
	case FSOPS_FSYNC:
		printf("same_file(\"%s\", 1, 0, 0);\n",
		       fsops_upto_path(dir, a, path, sizeof(path)));
		break;
	case FSOPS_FDATASYNC:
		printf("same_file(\"%s\", 1, 0, 0);\n",
		       fsops_upto_path(dir, a, path, sizeof(path)));
		break;
	case FSOPS_FSYNC_FILE:
		printf("same_file(\"%s\", %d, 0, 0);\n",
		       fsops_upto_path(dir, a, path, sizeof(path)), linux_names);
		break;
	case FSOPS_FSYNC_DIR:
		printf("same_names(\"%s\");\n", fsops_upto_path(dir, a, path, sizeof(path)));
		break;
	case FSOPS_DSYNC_WRITE:
	case FSOPS_SYNC_WRITE:
	case FSOPS_MMAP_WRITE:
		printf("same_file(\"%s\", 1, %llu, %llu);\n",
		       fsops_upto_path(dir, a, path, sizeof(path)), (unsigned long long) op->off,
		       (unsigned long long) op->len);
		break;
	default:
		printf("same_tree(\".\");\n");
		break;
	}
	printf("}\n\n");
}

int fsops_repro(const struct fsops_params *p, uint64_t upto)
{
	bool linux_names = p->promises == FSOPS_PROMISES_LINUX;
	struct fsops_upto c = {0};
	const struct fsops_op *last;
	const char *dir = "";
	char promise[128], a[16], b[16];
	int rc = fsops_upto_collect(p, upto, &c);

	if (rc)
		goto out;
	last = &c.v[c.n - 1];
	fsops_op_paths(last, a, b, sizeof(a));
	printf("/*\n * repro.c: ops 1-%llu of blackout-fsops %s, as plain system calls; op %llu "
	       "is the\n * acknowledgement the power cut comes right after.\n *\n"
	       " *   cc -O2 -o repro repro.c\n"
	       " *   ./repro run DIR [CUT]    the ops in DIR (an empty directory), each "
	       "acknowledgement\n"
	       " *                            said; right after op %llu's, sh -c CUT, and no more\n"
	       " *   ./repro check DIR EXP    whether DIR (after the cut and the recovery) holds "
	       "what\n"
	       " *                            op %llu promised, as EXP (the same run with no cut) "
	       "does:\n"
	       " *                            0 kept, 1 lost (one line says what), 2 no verdict\n"
	       " */\n",
	       (unsigned long long) upto, fsops_upto_source(p), (unsigned long long) upto,
	       (unsigned long long) upto, (unsigned long long) upto);
	printf("#define N %lluUL\n#define SEED %lluULL\n#define PROMISE \"%s\"\n\n",
	       (unsigned long long) upto, (unsigned long long) p->seed,
	       fsops_upto_promise(last, a, linux_names, promise, sizeof(promise)));
	fputs(prologue, stdout);
	printf("static void ops(void)\n{\n");
	for (uint64_t i = 0; i < c.n; i++) {
		if (strcmp(dir, c.dir[i])) {
			if (*dir)
				printf("\tcd(\"..\");\n");
			if (*c.dir[i])
				printf("\tif (mkdir(\"%s\", 0755) < 0) die(\"mkdir\", \"%s\");\n"
				       "\tcd(\"%s\");\n",
				       c.dir[i], c.dir[i], c.dir[i]);
			dir = c.dir[i];
		}
		emit_op(&c.v[i], c.data_id[i], p, linux_names);
	}
	printf("}\n\n");
	fputs(check_helpers, stdout);
	emit_check(last, c.dir[c.n - 1], linux_names);
	fputs(main_text, stdout);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	fsops_upto_free(&c);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Nightly matrices: every key, the cells and their order, every error with its file:line
 * message, and the judge of each scenario. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/scenario/matrix.h"
#include "harness/scenario/scenario.h"

#define SCEN "[device]\nfs = ext4\n[workload]\nbuiltin = fsops\n"

/* The scenarios the matrices name: two that load, of two names, and a copy of the first. */
static void put_scenarios(void)
{
	bo_test_put(bo_test_dir(), "a.ini", SCEN);
	bo_test_put(bo_test_dir(), "b.ini", SCEN);
	bo_test_put(bo_test_dir(), "a-copy.ini", "[scenario]\nname = a\n" SCEN);
	bo_test_put(bo_test_dir(), "bounded.ini",
		    "[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\n"
		    "[check]\ncuts = ack\nchecker = bounded\n");
}

/* The matrix @text, as m.ini in the scratch directory, must load. */
static struct bo_matrix *load_ok(const char *text)
{
	struct bo_matrix *m = NULL;
	struct bo_err err = {0};

	put_scenarios();
	bo_test_put(bo_test_dir(), "m.ini", text);
	if (bo_matrix_load(bo_test_path("m.ini"), NULL, &m, &err) < 0) {
		fprintf(stderr, "\nunexpected error: %s\n", bo_err_str(&err));
		CU_FAIL("load");
	}
	return m;
}

/* The matrix @text must be refused with a message containing @needle. */
static void load_bad(const char *text, const char *needle)
{
	struct bo_matrix *m = NULL;
	struct bo_err err = {0};
	int r;

	put_scenarios();
	bo_test_put(bo_test_dir(), "m.ini", text);
	r = bo_matrix_load(bo_test_path("m.ini"), NULL, &m, &err);
	CU_ASSERT(r < 0);
	CU_ASSERT(m == NULL);
	if (r < 0 && !strstr(bo_err_str(&err), needle)) {
		fprintf(stderr, "\nmessage '%s'\n   lacks '%s'\n", bo_err_str(&err), needle);
		CU_FAIL("error message");
	}
	if (r == 0) {
		fprintf(stderr, "\naccepted: %s\n", text);
		bo_matrix_free(m);
	}
}

static void every_key(void)
{
	struct bo_matrix *m = load_ok("; a nightly\n"
				      "[matrix]\n"
				      "scenario = a.ini\n"
				      "scenario = b.ini\n"
				      "fs = ext4\n"
				      "fs = xfs\n"
				      "mount_options = default\n"
				      "mount_options = noatime,commit=1\n"
				      "kernel = 6.1\n"
				      "persona = honest\n"
				      "persona = ignores-flush\n"
				      "seed = 7\n");

	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_STRING_EQUAL(m->dir, bo_test_dir());
	CU_ASSERT(m->nsc == 2 && m->nfs == 2 && m->nmo == 2 && m->nk == 1 && m->np == 2);
	CU_ASSERT_STRING_EQUAL(m->scenarios[1], "b.ini");
	CU_ASSERT_STRING_EQUAL(m->scen_names[0], "a");
	CU_ASSERT_STRING_EQUAL(m->scen_names[1], "b");
	CU_ASSERT(m->sc_line[1] == 4 && m->p_line[1] == 11);
	CU_ASSERT_STRING_EQUAL(m->seed, "7");
	CU_ASSERT(!m->compare_kernels);
	bo_matrix_free(m);
}

static void cells(void)
{
	struct bo_matrix *m = load_ok("[matrix]\nscenario = a.ini\nscenario = b.ini\nfs = ext4\n"
				      "fs = xfs\nmount_options = default\nmount_options = noatime\n"
				      "persona = honest\npersona = ignores-flush\n");
	struct bo_matrix_cell c;

	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT(bo_matrix_ncells(m) == 16);
	/* The last axis varies fastest; "default" options and an absent axis are NULL. */
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT_STRING_EQUAL(c.scenario, "a.ini");
	CU_ASSERT_STRING_EQUAL(c.fs, "ext4");
	CU_ASSERT(c.options == NULL && c.kernel == NULL);
	CU_ASSERT_STRING_EQUAL(c.persona, "honest");
	bo_matrix_cell(m, 1, &c);
	CU_ASSERT_STRING_EQUAL(c.persona, "ignores-flush");
	bo_matrix_cell(m, 2, &c);
	CU_ASSERT_STRING_EQUAL(c.options, "noatime");
	CU_ASSERT_STRING_EQUAL(c.persona, "honest");
	bo_matrix_cell(m, 4, &c);
	CU_ASSERT_STRING_EQUAL(c.fs, "xfs");
	CU_ASSERT(c.options == NULL);
	bo_matrix_cell(m, 15, &c);
	CU_ASSERT_STRING_EQUAL(c.scenario, "b.ini");
	CU_ASSERT_STRING_EQUAL(c.fs, "xfs");
	CU_ASSERT_STRING_EQUAL(c.options, "noatime");
	CU_ASSERT_STRING_EQUAL(c.persona, "ignores-flush");
	bo_matrix_free(m);

	/* Without axes: one cell per scenario, everything its own. */
	m = load_ok("[matrix]\nscenario = a.ini\n");
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT(bo_matrix_ncells(m) == 1);
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT_STRING_EQUAL(c.scenario, "a.ini");
	CU_ASSERT(!c.fs && !c.options && !c.kernel && !c.persona);
	bo_matrix_free(m);
}

static void kernels(void)
{
	struct bo_matrix *m = load_ok("[matrix]\nscenario = a.ini\nkernel = 6.1\nkernel = 6.12\n");
	struct bo_matrix_cell c;

	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT(bo_matrix_ncells(m) == 2);
	bo_matrix_cell(m, 1, &c);
	CU_ASSERT_STRING_EQUAL(c.kernel, "6.12");
	bo_matrix_free(m);

	/* compare = kernels: one cell runs on every kernel of the axis. */
	m = load_ok("[matrix]\nscenario = a.ini\nkernel = 6.1\nkernel = 6.12\ncompare = kernels\n");
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT(m->compare_kernels && m->nk == 2);
	CU_ASSERT(bo_matrix_ncells(m) == 1);
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(c.kernel == NULL);
	bo_matrix_free(m);
}

/* kernel_tree = NAME PATH: a build tree on the kernel axis beside releases, its cells named
 * by NAME, its path relative to the matrix file and made absolute. */
static void kernel_trees(void)
{
	struct bo_matrix *m;
	struct bo_matrix_cell c;
	char *real;

	CU_ASSERT_FATAL(mkdir(bo_test_path("tree"), 0755) == 0 || errno == EEXIST);
	real = realpath(bo_test_path("tree"), NULL);
	CU_ASSERT_FATAL(real != NULL);
	m = load_ok("[matrix]\nscenario = a.ini\nkernel = 6.1\nkernel_tree = fix-1.2 tree\n");
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT(bo_matrix_ncells(m) == 2);
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(!strcmp(c.kernel, "6.1") && c.kernel_tree == NULL);
	bo_matrix_cell(m, 1, &c);
	CU_ASSERT_STRING_EQUAL(c.kernel, "fix-1.2");
	CU_ASSERT(c.kernel_tree && !strcmp(c.kernel_tree, real));
	bo_matrix_free(m);
	free(real);

	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = fix\n",
		 "m.ini:3: [matrix] kernel_tree: 'fix': expected NAME PATH");
	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = ../x tree\n",
		 "m.ini:3: [matrix] kernel_tree: name '../x': letters, digits");
	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = a/b tree\n",
		 "m.ini:3: [matrix] kernel_tree: name 'a/b'");
	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = fix nothing-here\n",
		 "m.ini:3: [matrix] kernel_tree: '");
	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = fix nothing-here\n",
		 "nothing-here': No such file or directory");
	/* A name is a value of the kernel axis: one a release or another tree has is refused. */
	load_bad("[matrix]\nscenario = a.ini\nkernel = 6.1\nkernel_tree = 6.1 tree\n",
		 "m.ini:4: [matrix] kernel: '6.1' given twice (first on line 3)");
	load_bad("[matrix]\nscenario = a.ini\nkernel_tree = x tree\nkernel_tree = x tree\n",
		 "m.ini:4: [matrix] kernel: 'x' given twice");
	/* run --kernels compares cached kernels only. */
	load_bad("[matrix]\nscenario = a.ini\nkernel = 6.1\nkernel_tree = fix tree\n"
		 "compare = kernels\n",
		 "m.ini:4: [matrix] kernel_tree: compare = kernels compares cached kernels");
}

/* A matrix named without a folder: its scenarios are in ".". */
static void relative(void)
{
	struct bo_matrix *m = NULL;
	struct bo_err err = {0};
	char *cwd = getcwd(NULL, 0);

	CU_ASSERT_FATAL(cwd != NULL);
	put_scenarios();
	bo_test_put(bo_test_dir(), "m.ini", "[matrix]\nscenario = a.ini\n");
	CU_ASSERT_FATAL(chdir(bo_test_dir()) == 0);
	CU_ASSERT(bo_matrix_load("m.ini", NULL, &m, &err) == 0);
	CU_ASSERT(chdir(cwd) == 0);
	free(cwd);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_STRING_EQUAL(m->dir, ".");
	CU_ASSERT_STRING_EQUAL(m->path, "m.ini");
	bo_matrix_free(m);
}

/* length = L: every cell's bounded workloads of that length; a scenario not bounded refused. */
static void length(void)
{
	struct bo_matrix *m = load_ok("[matrix]\nscenario = bounded.ini\nlength = 2\n");
	struct bo_matrix_cell c;

	CU_ASSERT_STRING_EQUAL(m->length, "2");
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(c.length && !strcmp(c.length, "2"));
	bo_matrix_free(m);
	m = load_ok("[matrix]\nscenario = bounded.ini\n");
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(m->length == NULL && c.length == NULL);
	bo_matrix_free(m);
	load_bad("[matrix]\nscenario = bounded.ini\nscenario = a.ini\nlength = 2\n",
		 "m.ini:3: [matrix] scenario: not builtin bounded, and length = 2");
	load_bad("[matrix]\nscenario = bounded.ini\nlength = 4\n", "m.ini:3: [matrix] length: '4'");
	load_bad("[matrix]\nscenario = bounded.ini\nlength = 1\nlength = 2\n",
		 "m.ini:4: [matrix] length: given twice");
}

/* fresh = yes|no: every cell's bounded workloads on a fresh filesystem each, or on one. */
static void fresh(void)
{
	struct bo_matrix *m = load_ok("[matrix]\nscenario = bounded.ini\nfresh = yes\n");
	struct bo_matrix_cell c;

	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(c.fresh && !strcmp(c.fresh, "yes"));
	bo_matrix_free(m);
	m = load_ok("[matrix]\nscenario = bounded.ini\n");
	bo_matrix_cell(m, 0, &c);
	CU_ASSERT(m->fresh == NULL && c.fresh == NULL);
	bo_matrix_free(m);
	load_bad("[matrix]\nscenario = bounded.ini\nscenario = a.ini\nfresh = no\n",
		 "m.ini:3: [matrix] scenario: not builtin bounded, and fresh = no");
	load_bad("[matrix]\nscenario = bounded.ini\nfresh = 1\n", "m.ini:3: [matrix] fresh: '1'");
	load_bad("[matrix]\nscenario = bounded.ini\nfresh = yes\nfresh = no\n",
		 "m.ini:4: [matrix] fresh: given twice");
}

/* The matrices shipped load: seq-2's, every bounded configuration on both kernels. */
static void shipped(void)
{
	static const char *const files[] = {"nightly-bounded.ini", "nightly-seq2.ini"};
	struct bo_err err = {0};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4096];
		struct bo_matrix *m = NULL;

		snprintf(path, sizeof(path), "%s/scenarios/%s", BO_SOURCE_DIR, files[i]);
		CU_ASSERT_FATAL(bo_matrix_load(path, NULL, &m, &err) == 0);
		CU_ASSERT(m->nsc == 11 && m->nk == 2);
		if (i == 1) {
			CU_ASSERT(m->length && !strcmp(m->length, "2") && m->fresh &&
				  !strcmp(m->fresh, "yes") && !m->compare_kernels &&
				  bo_matrix_ncells(m) == 22);
		} else {
			CU_ASSERT(!m->length && !m->fresh);
		}
		bo_matrix_free(m);
	}
}

static void errors(void)
{
	load_bad("[matrix]\nfs = ext4\n", "m.ini: [matrix] needs at least one 'scenario'");
	load_bad("[nightly]\nscenario = a.ini\n", "m.ini:1: unknown section [nightly]");
	load_bad("[matrix x]\nscenario = a.ini\n", "m.ini:1: unknown section [matrix x]");
	load_bad("[matrix]\nscenario = a.ini\nfilesystem = ext4\n",
		 "m.ini:3: [matrix]: unknown key 'filesystem'");
	load_bad("[matrix]\nscenario = a.ini\nfs = zfs\n", "m.ini:3: [matrix] fs: 'zfs' is not");
	load_bad("[matrix]\nscenario = a.ini\nmount_options = no atime\n",
		 "m.ini:3: [matrix] mount_options: 'no atime'");
	load_bad("[matrix]\nscenario = a.ini\nkernel = ../vmlinuz\n",
		 "m.ini:3: [matrix] kernel: '../vmlinuz' is not a kernel release");
	load_bad("[matrix]\nscenario = a.ini\npersona = liar\n",
		 "m.ini:3: [matrix] persona: 'liar' is not a device persona");
	load_bad("[matrix]\nscenario = a.ini\nseed = x\n",
		 "m.ini:3: [matrix] seed: 'x' is not a decimal number");
	load_bad("[matrix]\nscenario = a.ini\nseed = 1\nseed = 2\n",
		 "m.ini:4: [matrix] seed: given twice");
	load_bad("[matrix]\nscenario = a.ini\ncompare = personas\n",
		 "m.ini:3: [matrix] compare: 'personas'");
	load_bad("[matrix]\nscenario = a.ini\nkernel = 6.1\ncompare = kernels\n",
		 "m.ini: [matrix] compare = kernels needs two 'kernel'");
	load_bad("[matrix]\nscenario = a.ini\nmount_options =\n",
		 "m.ini:3: [matrix] mount_options: empty value");
	load_bad("[matrix]\nscenario =\n", "m.ini:2: [matrix] scenario: empty value");
	load_bad("[matrix]\nscenario = a.ini\nfs = ext4\nfs = ext4\n",
		 "m.ini:4: [matrix] fs: 'ext4' given twice (first on line 3)");
	load_bad("[matrix]\nscenario = a.ini\nscenario = a.ini\n",
		 "m.ini:3: [matrix] scenario: 'a.ini' is scenario 'a' again (first on line 2)");
	load_bad("[matrix]\nscenario = a.ini\nscenario = a-copy.ini\n",
		 "m.ini:3: [matrix] scenario: 'a-copy.ini' is scenario 'a' again");
	load_bad("[matrix]\nscenario = missing.ini\n", "m.ini:2: [matrix] scenario: ");
	load_bad("[matrix]\nscenario = missing.ini\n", "missing.ini");
}

static int judged;

/* A judge that refuses scenario 'b'. */
static int refuse_b(const struct bo_scenario *sc, struct bo_err *err)
{
	judged++;
	if (!strcmp(sc->name, "b"))
		return bo_err_set(err, EPERM, "scenario 'b': refused");
	return 0;
}

static void judge(void)
{
	struct bo_matrix *m = NULL;
	struct bo_err err = {0};

	put_scenarios();
	bo_test_put(bo_test_dir(), "m.ini", "[matrix]\nscenario = a.ini\n");
	judged = 0;
	CU_ASSERT(bo_matrix_load(bo_test_path("m.ini"), refuse_b, &m, &err) == 0);
	CU_ASSERT(judged == 1);
	bo_matrix_free(m);
	m = NULL;
	bo_test_put(bo_test_dir(), "m.ini", "[matrix]\nscenario = a.ini\nscenario = b.ini\n");
	CU_ASSERT(bo_matrix_load(bo_test_path("m.ini"), refuse_b, &m, &err) == -EPERM);
	CU_ASSERT(m == NULL);
	CU_ASSERT(strstr(bo_err_str(&err), "m.ini:3: [matrix] scenario: scenario 'b': refused") !=
		  NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"every key", every_key},
		{"cells", cells},
		{"kernels", kernels},
		{"kernel trees", kernel_trees},
		{"relative", relative},
		{"errors", errors},
		{"judge", judge},
		{"length", length},
		{"fresh", fresh},
		{"shipped", shipped},
		{},
	};

	return bo_test_run("matrix", tests);
}

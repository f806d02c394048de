// SPDX-License-Identifier: GPL-2.0-or-later
/* In place (--in-place, docs/vm.md) the work directory is this machine's memory: recording and
 * checking judge the room their images and copy-on-write stores are made with before any is
 * made, and say what they need. Nothing here touches a device: the judge refuses first. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/explore/explore.h"
#include "harness/log/writer.h"
#include "harness/record/record.h"
#include "harness/results/results.h"

/* More than any machine has: 1 PiB. */
#define HUGE (1ull << 50)

static void test_record(void)
{
	static const char text[] = "[device]\nfs = ext4\n[workload]\nbuiltin = fsops\n";
	struct bo_scenario *sc = NULL;
	struct bo_results *res = NULL;
	struct bo_err err = {0};
	char wd[1024];
	struct bo_record_opts o = {.runid = "inplace-1", .in_place = true};

	snprintf(wd, sizeof(wd), "%s", bo_test_path("rec"));
	CU_ASSERT_FATAL(mkdir(wd, 0700) == 0);
	CU_ASSERT_FATAL(bo_scenario_parse(text, strlen(text), "s.ini", NULL, &sc, &err) == 0);
	CU_ASSERT_FATAL(bo_results_create(bo_test_path("rec-res"), &res, &err) == 0);
	sc->size = HUGE;
	o.sc = sc;
	o.workdir = wd;
	CU_ASSERT(bo_record(&o, res, &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "recording in place (the device image and its log) would "
				  "write") != NULL);
	CU_ASSERT(strstr(err.msg, wd) != NULL);
	/* Refused before anything is made. */
	CU_ASSERT(rmdir(wd) == 0);
	bo_results_free(res);
	bo_scenario_free(sc);
}

static void test_explore(void)
{
	const char *path = bo_test_path("inplace.log");
	struct bo_log_writer *w = NULL;
	struct bo_results *res = NULL;
	struct bo_summary sum = {0};
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	char blk[512] = {1}, wd[1024];
	struct bo_explore_opts o = {
		.runid = "inplace-2",
		.fs = "ext4",
		.mount_options = "",
		.cuts = "flush",
		.first_cut = 1,
		.image_size = HUGE,
		.log_name = "write.log",
		.recovery_crashes = 1,
		.in_place = true,
	};

	snprintf(wd, sizeof(wd), "%s", bo_test_path("exp"));
	CU_ASSERT_FATAL(mkdir(wd, 0700) == 0);
	o.workdir = wd;
	CU_ASSERT_FATAL(bo_log_writer_new(path, 512, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "mkfs", &err) >= 0);
	CU_ASSERT(bo_log_writer_add(w, 1, 1, 0, blk, &err) >= 0);
	CU_ASSERT(bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err) >= 0);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(path, 0, &log, &err) == 0);
	CU_ASSERT_FATAL(bo_results_create(bo_test_path("exp-res"), &res, &err) == 0);
	CU_ASSERT(bo_explore(log, &o, res, &sum, &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "checking in place (the base image, the copy-on-write stores, "
				  "the recovery log) would write") != NULL);
	/* The base, three stores (two of 32 MiB, one the device's size) and the recovery log
	 * (the device's size and 64 MiB): 3 PiB and 128 MiB. */
	CU_ASSERT(strstr(err.msg, "would write 3145728.1 GiB") != NULL);
	CU_ASSERT(rmdir(wd) == 0);
	bo_results_free(res);
	bo_log_free(log);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"recording in place judges its image and log first", test_record},
		{"checking in place judges its base and stores first", test_explore},
		{NULL, NULL},
	};

	return bo_test_run("in place", tests);
}

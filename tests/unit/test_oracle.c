// SPDX-License-Identifier: GPL-2.0-or-later
/* The oracle on sets, the checker output contract, the class order, cut selection and the
 * durability lint. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "bo_test.h"
#include "harness/states/classify.h"
#include "harness/states/cutsel.h"
#include "harness/states/lint.h"
#include "harness/log/writer.h"
#include "harness/states/oracle.h"

/* A log of marks only: each string is a mark name, "F" a flush, "W" a one-block write. */
static struct bo_log *log_of(const char *const *items)
{
	const char *p = bo_test_path("oracle.log");
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	char blk[512] = {0};

	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	for (; *items; items++) {
		int64_t r;

		if (!strcmp(*items, "F"))
			r = bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
		else if (!strcmp(*items, "W"))
			r = bo_log_writer_add(w, 1, 1, 0, blk, &err);
		else if (!strcmp(*items, "U"))
			r = bo_log_writer_add(w, 2, 1, BO_LOG_FUA, blk, &err);
		else
			r = bo_log_writer_mark(w, *items, &err);
		CU_ASSERT(r >= 0);
	}
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	return log;
}

static void report_of(const char *out, struct bo_checker_report *rep)
{
	CU_ASSERT_FATAL(bo_checker_parse(out, strlen(out), rep) == 0);
}

static void test_checker_contract(void)
{
	struct bo_checker_report rep;

	report_of("", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "no output"));
	bo_checker_report_clear(&rep);
	report_of("present 1\npresent 2\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "without a final line 'done'"));
	bo_checker_report_clear(&rep);
	/* `done` alone is a valid answer: nothing present. */
	report_of("done\n", &rep);
	CU_ASSERT(rep.done && rep.present.n == 0);
	bo_checker_report_clear(&rep);
	report_of("# scanning\n\npresent 3 abc\npresent 1\ndone", &rep);
	CU_ASSERT(rep.done && rep.present.n == 2 && rep.present.v[0] == 1 && rep.present.v[1] == 3);
	CU_ASSERT(rep.digests[0] == NULL && rep.digests[1] && !strcmp(rep.digests[1], "abc"));
	bo_checker_report_clear(&rep);
	report_of("done\npresent 1\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "after 'done'"));
	bo_checker_report_clear(&rep);
	report_of("present x\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "malformed"));
	bo_checker_report_clear(&rep);
	report_of("present 1\npresent 1\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "twice"));
	bo_checker_report_clear(&rep);
	report_of("all good\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "unexpected line"));
	bo_checker_report_clear(&rep);
	CU_ASSERT(bo_checker_parse("present 1\0\ndone\n", 16, &rep) == 0);
	CU_ASSERT(!rep.done && strstr(rep.problem, "NUL"));
	bo_checker_report_clear(&rep);
	/* absent ID WHY: the reason is the rest of the line, kept per op; it adds nothing to
	 * present. */
	report_of("absent 7 fsync(d0/f1) did not persist its link d1/f3\r\npresent 2\n"
		  "absent 4\ndone\n",
		  &rep);
	CU_ASSERT(rep.done && rep.present.n == 1 && rep.absent.n == 2);
	CU_ASSERT(bo_checker_why(&rep, 7) &&
		  !strcmp(bo_checker_why(&rep, 7), "fsync(d0/f1) did not persist its link d1/f3"));
	CU_ASSERT(bo_checker_why(&rep, 4) == NULL && bo_checker_why(&rep, 2) == NULL);
	bo_checker_report_clear(&rep);
	report_of("present 3\nabsent 3 gone\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "both present and absent"));
	bo_checker_report_clear(&rep);
	report_of("absent 3 a\nabsent 3 b\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "twice"));
	bo_checker_report_clear(&rep);
	report_of("absent x why\ndone\n", &rep);
	CU_ASSERT(!rep.done && strstr(rep.problem, "malformed"));
	bo_checker_report_clear(&rep);
}

static void test_ops_from_log(void)
{
	static const char *const good[] = {"mkfs",    "issue:1", "issue:2", "F", "ack:1:d1",
					   "issue:5", "ack:2",	 "ack:5",   NULL};
	static const char *const back[] = {"issue:1", "issue:2", "ack:2", "ack:1", NULL};
	static const char *const rep[] = {"issue:3", "issue:3", NULL};
	static const char *const bad[] = {"issue:1x", NULL};
	struct bo_ops ops;
	struct bo_log *log;
	struct bo_err err = {0};

	log = log_of(good);
	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT(ops.n == 3 && ops.n_acks == 3);
	CU_ASSERT(bo_ops_find(&ops, 1)->issue_entry == 1 && bo_ops_find(&ops, 1)->ack_entry == 4);
	CU_ASSERT(!strcmp(bo_ops_find(&ops, 1)->digest, "d1"));
	CU_ASSERT(bo_ops_find(&ops, 5)->ack_entry == 7);
	CU_ASSERT(bo_ops_find(&ops, 4) == NULL);
	bo_ops_clear(&ops);
	bo_log_free(log);

	/* The protocol's "ack 5 after ack 7" in a saved log. */
	log = log_of(back);
	CU_ASSERT(bo_ops_from_log(log, &ops, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "entry 3") && strstr(err.msg, "must increase"));
	bo_log_free(log);
	log = log_of(rep);
	CU_ASSERT(bo_ops_from_log(log, &ops, &err) == -EBADMSG);
	bo_log_free(log);
	log = log_of(bad);
	CU_ASSERT(bo_ops_from_log(log, &ops, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "malformed op mark 'issue:1x'") != NULL);
	bo_log_free(log);
}

/*
 * Fresh filesystems (docs/ctl.md): a state counts the ops issued before `base` and those of its
 * own filesystem, since the fresh: mark before its cut; the way back to the base between
 * reset: and fresh: holds no state. Entries: 0 mkfs, 1 issue:1, 2 ack:1, 3 base, 4 issue:2,
 * 5 W, 6 ack:2, 7 reset:a, 8 W, 9 F, 10 fresh:a, 11 issue:3, 12 W, 13 ack:3, 14 reset:b, 15 W.
 */
static void test_fresh(void)
{
	static const char *const items[] = {
		"mkfs", "issue:1", "ack:1",   "base", "issue:2", "W",	    "ack:2", "reset:a", "W",
		"F",	"fresh:a", "issue:3", "W",    "ack:3",	 "reset:b", "W",     NULL};
	static const char *const order[] = {"base", "reset:a", "reset:b", NULL};
	static const char *const before[] = {"reset:a", NULL};
	/* A log made elsewhere, whose own marks are called base and fresh:: no reset:, no
	 * fresh filesystem. */
	static const char *const theirs[] = {"base", "issue:1", "fresh:x", "ack:1", "base", NULL};
	struct bo_checker_report rep;
	struct bo_log *log = log_of(items);
	struct bo_verdict v;
	struct bo_ops ops;
	struct bo_err err = {0};
	char buf[64];
	FILE *f;
	int fd;

	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT(ops.base_entry == 3 && ops.n_fresh == 2);
	CU_ASSERT(ops.fresh[0].reset == 7 && ops.fresh[0].fresh == 10);
	CU_ASSERT(ops.fresh[1].reset == 14 && ops.fresh[1].fresh == BO_NO_ENTRY);
	/* Before the first fresh: mark, and at the reset: mark's first entry, the first
	 * workload's; past it, the way back; after the fresh: mark, the second's. */
	CU_ASSERT(bo_ops_fresh_at(&ops, 8) == NULL && !bo_ops_resetting(&ops, 8));
	CU_ASSERT(bo_ops_resetting(&ops, 9) && bo_ops_resetting(&ops, 10));
	CU_ASSERT(bo_ops_fresh_at(&ops, 11) == &ops.fresh[0] && !bo_ops_resetting(&ops, 11));
	CU_ASSERT(bo_ops_resetting(&ops, 16));
	/* The second workload's state: ops 1 (before base) and 3 issued and acked; not 2. */
	fd = open(bo_test_path("ids"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(bo_ops_write_before(&ops, 14, false, fd) == 0);
	f = fdopen(fd, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fread(buf, 1, sizeof(buf) - 1, f) == 4);
	buf[4] = '\0';
	CU_ASSERT(!strcmp(buf, "1\n3\n"));
	fclose(f);
	/* Op 2 absent from it is no loss; op 3 absent is; op 2 present is a phantom. */
	report_of("present 1\npresent 3\ndone\n", &rep);
	CU_ASSERT_FATAL(bo_oracle_judge(&ops, 14, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 0 && v.phantom.n == 0);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	report_of("present 1\npresent 2\ndone\n", &rep);
	CU_ASSERT_FATAL(bo_oracle_judge(&ops, 14, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 1 && v.lost.v[0] == 3 && v.phantom.n == 1 && v.phantom.v[0] == 2);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	/* The first workload's state at its last entry: op 2 lost if absent. */
	report_of("present 1\ndone\n", &rep);
	CU_ASSERT_FATAL(bo_oracle_judge(&ops, 8, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 1 && v.lost.v[0] == 2);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	bo_ops_clear(&ops);
	bo_log_free(log);

	/* reset: is reserved: out of order (a second before its fresh:, one before base), an
	 * error naming the entry. */
	log = log_of(order);
	CU_ASSERT(bo_ops_from_log(log, &ops, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "entry 2") && strstr(err.msg, "out of order"));
	bo_log_free(log);
	log = log_of(before);
	CU_ASSERT(bo_ops_from_log(log, &ops, &err) == -EBADMSG);
	bo_log_free(log);
	log = log_of(theirs);
	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT(ops.n_fresh == 0 && bo_ops_fresh_at(&ops, 5) == NULL);
	report_of("done\n", &rep);
	CU_ASSERT_FATAL(bo_oracle_judge(&ops, 5, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 1 && v.lost.v[0] == 1);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	bo_ops_clear(&ops);
	bo_log_free(log);
}

/*
 * A drop_writes switch is a power cut while the host runs on: acks after it are kept apart
 * and never judged; the next switch (here `up`) ends the window. Entries: 0 issue:1, 1 W,
 * 2 F, 3 ack:1, 4 fault:1:drop_writes, 5 issue:2, 6 ack:2, 7 fault:2:up, 8 issue:3, 9 ack:3,
 * 10 fault:3:error_reads,drop_writes, 11 issue:4, 12 ack:4.
 */
static void test_powercut_acks(void)
{
	static const char *const items[] = {"issue:1",
					    "W",
					    "F",
					    "ack:1",
					    "fault:1:drop_writes",
					    "issue:2",
					    "ack:2",
					    "fault:2:up",
					    "issue:3",
					    "ack:3",
					    "fault:3:error_reads,drop_writes",
					    "issue:4",
					    "ack:4",
					    NULL};
	static const uint64_t acked[] = {1, 2, 3, 4};
	struct bo_log *log = log_of(items);
	struct bo_checker_report rep;
	struct bo_verdict v;
	struct bo_ops ops;
	struct bo_err err = {0};

	CU_ASSERT(bo_fault_mark_drops_writes("fault:1:drop_writes"));
	CU_ASSERT(bo_fault_mark_drops_writes("fault:7:error_reads,drop_writes"));
	CU_ASSERT(!bo_fault_mark_drops_writes("fault:1:up"));
	CU_ASSERT(!bo_fault_mark_drops_writes("fault:1:drop_writesx"));
	CU_ASSERT(!bo_fault_mark_drops_writes("drop_writes"));
	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT(ops.n_acks == 4 && ops.n_powercut_acks == 2);
	CU_ASSERT(bo_ops_find(&ops, 1)->ack_entry == 3);
	CU_ASSERT(bo_ops_find(&ops, 2)->ack_entry == BO_NO_ENTRY);
	CU_ASSERT(bo_ops_find(&ops, 2)->powercut_ack_entry == 6);
	CU_ASSERT(bo_ops_find(&ops, 3)->ack_entry == 9);
	CU_ASSERT(bo_ops_find(&ops, 4)->powercut_ack_entry == 12);
	/* The ack guard still finds every ack the workload got. */
	CU_ASSERT(bo_ops_check_acked(&ops, acked, 4, &err) == 0);
	/* At the end, ops 1 and 3 must be there; 2 and 4 are not demanded. */
	report_of("present 1\npresent 3\ndone\n", &rep);
	CU_ASSERT(bo_oracle_judge(&ops, 13, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 0 && v.phantom.n == 0);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	report_of("present 1\ndone\n", &rep);
	CU_ASSERT(bo_oracle_judge(&ops, 13, &rep, false, &v) == 0);
	CU_ASSERT(v.lost.n == 1 && v.lost.v[0] == 3);
	bo_verdict_clear(&v);
	bo_checker_report_clear(&rep);
	bo_ops_clear(&ops);
	bo_log_free(log);
}

/* Judge "checker output" at "cut" and return the class. */
static enum bo_class judge(const struct bo_ops *ops, uint64_t cut, const char *out, bool ordered,
			   struct bo_verdict *v)
{
	struct bo_checker_report rep;
	struct bo_observation o = {
		.mounted = true,
		.fsck = BO_FSCK_CLEAN,
		.checker = BO_CHECKER_EXITED,
	};
	enum bo_class c;

	report_of(out, &rep);
	CU_ASSERT_FATAL(rep.done);
	CU_ASSERT_FATAL(bo_oracle_judge(ops, cut, &rep, ordered, v) == 0);
	o.report = &rep;
	o.verdict = v;
	c = bo_classify(&o);
	bo_checker_report_clear(&rep);
	return c;
}

static void test_judge(void)
{
	/* entries: 0 issue:1, 1 W, 2 F, 3 ack:1, 4 issue:2, 5 W, 6 issue:3, 7 F, 8 ack:3,
	 * 9 issue:4 */
	static const char *const items[] = {"issue:1", "W", "F",	"ack:1:aa", "issue:2", "W",
					    "issue:3", "F", "ack:3:x9", "issue:4",  NULL};
	struct bo_log *log = log_of(items);
	struct bo_verdict v;
	struct bo_ops ops;
	struct bo_err err = {0};
	char buf[64];

	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	/* Before ack:1 nothing is promised; op 1 may or may not be there. */
	CU_ASSERT(judge(&ops, 3, "done\n", false, &v) == BO_CLASS_CONSISTENT);
	bo_verdict_clear(&v);
	CU_ASSERT(judge(&ops, 3, "present 1\ndone\n", false, &v) == BO_CLASS_CONSISTENT);
	bo_verdict_clear(&v);
	/* After ack:1, op 1 must be present. */
	CU_ASSERT(judge(&ops, 4, "done\n", false, &v) == BO_CLASS_LOST_ACK);
	CU_ASSERT(!strcmp(bo_opset_str(&v.lost, buf, sizeof(buf)), "1"));
	bo_verdict_clear(&v);
	/* Wrong content is lost-ack too. */
	CU_ASSERT(judge(&ops, 4, "present 1 bb\ndone\n", false, &v) == BO_CLASS_LOST_ACK);
	CU_ASSERT(v.wrong.n == 1 && v.lost.n == 0);
	bo_verdict_clear(&v);
	CU_ASSERT(judge(&ops, 4, "present 1 aa\ndone\n", false, &v) == BO_CLASS_CONSISTENT);
	bo_verdict_clear(&v);
	/* Op 2 was not issued before cut 4: present is a phantom; so is an unknown op. */
	CU_ASSERT(judge(&ops, 4, "present 1\npresent 2\ndone\n", false, &v) == BO_CLASS_PHANTOM);
	CU_ASSERT(!strcmp(bo_opset_str(&v.phantom, buf, sizeof(buf)), "2"));
	bo_verdict_clear(&v);
	CU_ASSERT(judge(&ops, 10, "present 1\npresent 3\npresent 77\ndone\n", false, &v) ==
		  BO_CLASS_PHANTOM);
	bo_verdict_clear(&v);
	/* lost-ack outranks phantom. */
	CU_ASSERT(judge(&ops, 10, "present 9\ndone\n", false, &v) == BO_CLASS_LOST_ACK);
	CU_ASSERT(!strcmp(bo_opset_str(&v.lost, buf, sizeof(buf)), "1,3"));
	bo_verdict_clear(&v);
	/* Ordered: op 3 present while op 2 (issued before it) is missing. */
	CU_ASSERT(judge(&ops, 10, "present 1\npresent 3\ndone\n", false, &v) ==
		  BO_CLASS_CONSISTENT);
	bo_verdict_clear(&v);
	CU_ASSERT(judge(&ops, 10, "present 1\npresent 3\ndone\n", true, &v) == BO_CLASS_PHANTOM);
	CU_ASSERT(!strcmp(bo_opset_str(&v.unordered, buf, sizeof(buf)), "2"));
	bo_verdict_clear(&v);
	CU_ASSERT(judge(&ops, 10, "present 1\npresent 2\npresent 3\ndone\n", true, &v) ==
		  BO_CLASS_CONSISTENT);
	bo_verdict_clear(&v);
	bo_ops_clear(&ops);
	bo_log_free(log);
}

static void test_acked_guard(void)
{
	static const char *const items[] = {"issue:1", "ack:1", "issue:2",
					    "issue:3", "ack:3", NULL};
	static const uint64_t all[] = {1, 3}, more[] = {1, 2, 3}, ghost[] = {1, 9};
	struct bo_log *log = log_of(items);
	struct bo_ops ops;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT(bo_ops_check_acked(&ops, all, 2, &err) == 0);
	CU_ASSERT(bo_ops_check_acked(&ops, NULL, 0, &err) == 0);
	/* The workload was told op 2 was acknowledged; the log never got the mark. */
	CU_ASSERT(bo_ops_check_acked(&ops, more, 3, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "op 2 but the log has no 'ack:2' mark (3 acks reported, 2 in "
				  "the log)") != NULL);
	CU_ASSERT(bo_ops_check_acked(&ops, ghost, 2, &err) == -EBADMSG);
	bo_ops_clear(&ops);
	bo_log_free(log);
}

static void test_class_order(void)
{
	struct bo_checker_report done = {.done = true}, cut_short = {.done = false};
	struct bo_verdict lost = {0}, none = {0};
	struct bo_observation o;

	CU_ASSERT(bo_opset_add(&lost.lost, 4) == 1);
	o = (struct bo_observation){.harness_failed = true};
	CU_ASSERT(bo_classify(&o) == BO_CLASS_HARNESS_ERROR);
	o = (struct bo_observation){.mounted = false, .fsck = BO_FSCK_DIRTY};
	CU_ASSERT(bo_classify(&o) == BO_CLASS_UNMOUNTABLE);
	o = (struct bo_observation){.mounted = true,
				    .fsck = BO_FSCK_DIRTY,
				    .checker = BO_CHECKER_EXITED,
				    .report = &done,
				    .verdict = &lost};
	CU_ASSERT(bo_classify(&o) == BO_CLASS_FSCK_DIRTY);
	o.fsck = BO_FSCK_TOOL_ERROR;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_HARNESS_ERROR);
	o.fsck = BO_FSCK_CLEAN;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_LOST_ACK);
	/* A daemon that refused to start lost its acknowledged ops too: the refusal names it. */
	o.checker_status = 1;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_APP_RECOVERY_FAILED);
	o.checker_status = 0;
	/* A checker that stopped before `done`, crashed, hung or never ran proves nothing. */
	o.report = &cut_short;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CHECKER_ERROR);
	o.report = &done;
	o.checker = BO_CHECKER_SIGNALED;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CHECKER_ERROR);
	o.checker = BO_CHECKER_TIMEOUT;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CHECKER_ERROR);
	o.checker = BO_CHECKER_NOT_RUN;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CHECKER_ERROR);
	o.checker = BO_CHECKER_EXITED;
	o.verdict = &none;
	o.checker_status = 3;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_APP_RECOVERY_FAILED);
	o.checker_status = 0;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CONSISTENT);
	o.checker = BO_CHECKER_NOT_CONFIGURED;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CONSISTENT);
	/* Recovered by fsck: what the repair fixed is the recovery; that it failed, or left
	 * the filesystem dirty, comes before everything but harness errors. */
	o = (struct bo_observation){.mounted = true,
				    .repaired = true,
				    .repair = BO_REPAIR_FIXED,
				    .fsck = BO_FSCK_CLEAN,
				    .checker = BO_CHECKER_EXITED,
				    .report = &done,
				    .verdict = &lost};
	CU_ASSERT(bo_classify(&o) == BO_CLASS_LOST_ACK);
	o.verdict = &none;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_CONSISTENT);
	o.fsck = BO_FSCK_DIRTY;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_REPAIR_FAILED);
	o.fsck = BO_FSCK_TOOL_ERROR;
	o.mounted = false;
	o.repair = BO_REPAIR_FAILED;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_REPAIR_FAILED);
	o.repair = BO_REPAIR_TOOL_ERROR;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_HARNESS_ERROR);
	o.repaired = false;
	CU_ASSERT(bo_classify(&o) == BO_CLASS_UNMOUNTABLE);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		enum bo_class back;

		CU_ASSERT(bo_class_from_name(bo_class_name((enum bo_class) c), &back) == 0 &&
			  back == (enum bo_class) c);
	}
	bo_verdict_clear(&lost);
}

static void test_cutsel(void)
{
	/* 0 mkfs, 1 W, 2 F, 3 U, 4 ack:1, 5 W, 6 F, 7 W */
	static const char *const items[] = {"mkfs", "W", "F", "U", "issue:1", "W", "F", "W", NULL};
	struct bo_log *log = log_of(items);
	struct bo_err err = {0};
	struct bo_cuts c;

	CU_ASSERT_FATAL(bo_cutsel_select(log, "flush", 1, &c, &err) == 0);
	CU_ASSERT(c.n == 3 && c.v[0] == 3 && c.v[1] == 7 && c.v[2] == 8);
	bo_cuts_clear(&c);
	CU_ASSERT_FATAL(bo_cutsel_select(log, "mark,fua", 1, &c, &err) == 0);
	CU_ASSERT(c.n == 4 && c.v[0] == 1 && c.v[1] == 4 && c.v[2] == 5 && c.v[3] == 8);
	bo_cuts_clear(&c);
	/* Cuts before `first` are left out. */
	CU_ASSERT_FATAL(bo_cutsel_select(log, "all", 4, &c, &err) == 0);
	CU_ASSERT(c.n == 5 && c.v[0] == 4 && c.v[4] == 8);
	bo_cuts_clear(&c);
	/* end: the end of the log alone. */
	CU_ASSERT_FATAL(bo_cutsel_select(log, "end", 1, &c, &err) == 0);
	CU_ASSERT(c.n == 1 && c.v[0] == 8);
	bo_cuts_clear(&c);
	CU_ASSERT_FATAL(bo_cutsel_select(log, "every:3", 0, &c, &err) == 0);
	CU_ASSERT(c.n == 3 && c.v[0] == 3 && c.v[1] == 6 && c.v[2] == 8);
	bo_cuts_clear(&c);
	CU_ASSERT_FATAL(bo_cutsel_select(log, "entry:2-3", 0, &c, &err) == 0);
	CU_ASSERT(c.n == 3 && c.v[0] == 3 && c.v[1] == 4 && c.v[2] == 8);
	bo_cuts_clear(&c);
	bo_log_free(log);
	/* ack: the marks of acknowledgements only (and the end). */
	{
		static const char *const acks[] = {"mkfs",  "issue:1", "W", "F",
						   "ack:1", "issue:2", "W", NULL};

		log = log_of(acks);
		CU_ASSERT_FATAL(bo_cutsel_select(log, "ack", 1, &c, &err) == 0);
		CU_ASSERT(c.n == 2 && c.v[0] == 5 && c.v[1] == 7);
		bo_cuts_clear(&c);
		bo_log_free(log);
	}
	log = log_of(items);
	CU_ASSERT(bo_cutsel_select(log, "flush,bogus", 0, &c, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "'bogus'") != NULL);
	CU_ASSERT(bo_cutsel_validate("every:0", &err) == -EINVAL);
	CU_ASSERT(bo_cutsel_validate("entry:5-2", &err) == -EINVAL);
	CU_ASSERT(bo_cutsel_validate("", &err) == -EINVAL);
	CU_ASSERT(bo_cutsel_validate("flush,", &err) == -EINVAL);
	CU_ASSERT(bo_cutsel_validate("flush,fua,mark,ack,every:10,all,entry:1-5", &err) == 0);
	/* Judged against the log: entries it has (0 to 7), never one past its end. */
	CU_ASSERT(bo_cutsel_judge(log, "flush,entry:2-7,entry:5-", &err) == 0);
	CU_ASSERT(bo_cutsel_judge(log, "flush,entry:8-", &err) == -ERANGE);
	CU_ASSERT(strstr(err.msg, "entry:8-") && strstr(err.msg, "has 8 (0 to 7)"));
	CU_ASSERT(bo_cutsel_judge(log, "entry:2-8", &err) == -ERANGE);
	CU_ASSERT(strstr(err.msg, "entry:2-8") != NULL);
	CU_ASSERT(bo_cutsel_judge(log, "entry:99999", &err) == -ERANGE);
	CU_ASSERT(bo_cutsel_judge(log, "flush,bogus", &err) == -EINVAL);
	bo_log_free(log);
}

/* The lint flags exactly the acks with no FLUSH or FUA between issue and ack. */
static void test_lint(void)
{
	/* Entries 0-4: op 1 behind a flush; 5-8: op 2 with no barrier (a finding); 9-12: op 3
	 * behind a FUA write, an ack of 4 with no issue; 13-17: op 5 with no barrier, a flush
	 * after it; 18-19: op 6 acked after a power cut (not judged); 20-22: op 9, nothing after. */
	static const char *const items[] = {
		"mkfs",
		"issue:1",
		"W",
		"F",
		"ack:1",
		"issue:2",
		"W",
		"W",
		"ack:2",
		"issue:3",
		"U",
		"ack:3",
		"ack:4",
		"F",
		"issue:5",
		"ack:5",
		"issue:6",
		"F",
		"fault:1:drop_writes",
		"ack:6",
		"fault:2:up",
		"issue:9",
		"ack:9",
		NULL,
	};
	struct bo_log *log = log_of(items);
	struct bo_lint l = {0};
	struct bo_err err = {0};
	char buf[256];

	CU_ASSERT_FATAL(bo_lint_log(log, &l, &err) == 0);
	CU_ASSERT(l.acks == 5); /* 1, 2, 3, 5, 9 */
	CU_ASSERT(l.unpaired == 1);
	CU_ASSERT(l.barriers == 4);
	CU_ASSERT_FATAL(l.n == 3);
	CU_ASSERT(l.v[0].op == 2 && l.v[0].issue_entry == 5 && l.v[0].ack_entry == 8);
	CU_ASSERT(l.v[0].writes == 2 && l.v[0].next_barrier == 10);
	CU_ASSERT(l.v[1].op == 5 && l.v[1].writes == 0 && l.v[1].next_barrier == 17);
	CU_ASSERT(l.v[2].op == 9 && l.v[2].next_barrier == BO_NO_ENTRY);
	bo_lint_finding_str(&l.v[0], buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "op 2: acked at entry 8, issued at entry 5, with no FLUSH or "
				    "FUA between (2 writes between; the next barrier is entry 10)");
	bo_lint_clear(&l);
	bo_log_free(log);
}

/* Op marks out of order (an ack before its issue's neighbours) still give ops sorted by id. */
static void test_ops_sorted(void)
{
	static const char *const items[] = {"ack:5",   "issue:3", "issue:7", "ack:6",
					    "issue:8", "ack:8",	  NULL};
	struct bo_log *log = log_of(items);
	struct bo_ops ops = {0};
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_ops_from_log(log, &ops, &err) == 0);
	CU_ASSERT_FATAL(ops.n == 5);
	for (size_t i = 0; i + 1 < ops.n; i++)
		CU_ASSERT(ops.v[i].id < ops.v[i + 1].id);
	CU_ASSERT(bo_ops_find(&ops, 8)->issue_entry == 4 && bo_ops_find(&ops, 8)->ack_entry == 5);
	CU_ASSERT(bo_ops_find(&ops, 5)->issue_entry == BO_NO_ENTRY);
	bo_ops_clear(&ops);
	bo_log_free(log);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"checker output contract", test_checker_contract},
		{"ops from issue:/ack: marks", test_ops_from_log},
		{"fresh filesystems: each state its own workload's ops", test_fresh},
		{"acks after a drop_writes switch are not judged", test_powercut_acks},
		{"oracle on sets: lost, wrong content, phantom, ordered", test_judge},
		{"ack guard: every acknowledged op has its mark", test_acked_guard},
		{"class order", test_class_order},
		{"cut selection policies", test_cutsel},
		{"durability lint", test_lint},
		{"ops sorted by id whatever the mark order", test_ops_sorted},
		{NULL, NULL},
	};

	return bo_test_run("oracle", tests);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * judge.c — stage 5 of the check loop (stages.h): what the checker reported, held against the
 * ops the log says were issued and acknowledged before the cut (the durability oracle,
 * harness/states/oracle.h), and the class of the state (harness/states/classify.h).
 */
#include <errno.h>

#include "harness/explore/stages.h"

enum bo_class judge(struct explore *x, struct state_run *s)
{
	struct bo_err err = {0};

	if (s->obs.checker != BO_CHECKER_NOT_CONFIGURED && s->obs.checker != BO_CHECKER_NOT_RUN) {
		if (bo_checker_parse(s->checker_out ? s->checker_out : "", s->checker_out_len,
				     &s->report) < 0) {
			bo_err_set(&err, ENOMEM, "parsing checker output");
			state_run_fail(s, &err);
		} else {
			s->have_report = true;
			s->obs.report = &s->report;
		}
	}
	if (s->have_report && s->report.done) {
		if (bo_oracle_judge(&x->ops, s->applied, &s->report, x->o->ordered, &s->verdict) <
		    0) {
			bo_err_set(&err, ENOMEM, "judging");
			state_run_fail(s, &err);
		} else {
			s->have_verdict = true;
			s->obs.verdict = &s->verdict;
		}
	}
	return bo_classify(&s->obs);
}

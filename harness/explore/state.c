// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * state.c — what the stages of stages.h take from below them: a state that could not be
 * evaluated marked so (its first reason kept), a checked state's findings freed, and a device
 * just made kept on the exploration's teardown stack. It calls no stage: explore.c and the
 * stages call it, so the calls between the files of explore/ run one way.
 */
#include "harness/explore/stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"

void state_run_fail(struct state_run *s, const struct bo_err *err)
{
	s->obs.harness_failed = true;
	if (!s->harness_msg[0])
		snprintf(s->harness_msg, sizeof(s->harness_msg), "%s", bo_err_str(err));
}

void state_run_clear(struct state_run *s)
{
	bo_checker_report_clear(&s->report);
	bo_verdict_clear(&s->verdict);
	free(s->fsck_out);
	free(s->repair_out);
	free(s->checker_out);
	free(s->checker_err);
	free(s->checker_left);
	free(s->dmesg);
	free(s->nodes_report);
	s->nodes_report = NULL;
	for (size_t i = 0; i < BO_ARRAY_SIZE(s->node_log); i++) {
		free(s->node_log[i]);
		s->node_log[i] = NULL;
	}
	bo_kmsg_free(s->km);
	s->fsck_out = s->repair_out = s->checker_out = s->checker_err = s->dmesg = NULL;
	s->checker_left = NULL;
	s->km = NULL;
	if (s->witness) {
		bo_opset_clear(&s->witness->ops);
		free(s->witness->story);
	}
	free(s->witness);
	s->witness = NULL;
}

int explore_keep(struct explore *x, const char *kind, const char *name, struct bo_err *err)
{
	bool loop = !strcmp(kind, "loop");
	int k = loop ? bo_teardown_push_loop(x->td, name, err)
		     : bo_teardown_push_dm(x->td, name, err);
	struct bo_err e2;

	if (k < 0)
		(void) (loop ? bo_loop_detach(name, &e2) : bo_dm_remove(name, &e2));
	return k;
}

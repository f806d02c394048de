// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the control-channel line parser and protocol state machine: the
 * input is a stream of request lines, fed as the server would, through one state.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "harness/ctl/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char reply[BO_CTL_REPLY_MAX + 2];
	struct bo_ctl_state *st;
	size_t pos = 0;

	if (bo_ctl_state_new(&st) < 0)
		return 0;
	(void) bo_ctl_state_reserve(st, "mkfs");
	while (pos < size) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t) (nl - data) - pos : size - pos;
		struct bo_err err = {0};
		struct bo_ctl_req req;

		if (bo_ctl_parse((const char *) data + pos, len, &req, &err) == 0) {
			if (strlen(req.name) > BO_CTL_NAME_MAX)
				__builtin_trap();
			if (bo_ctl_state_apply(st, &req, &err) < 0)
				bo_ctl_format_err(reply, sizeof(reply), bo_err_str(&err));
			else
				bo_ctl_format_ok(reply, sizeof(reply), len);
		} else {
			bo_ctl_format_err(reply, sizeof(reply), bo_err_str(&err));
		}
		/* A reply is always exactly one line. */
		if (strchr(reply, '\n') != reply + strlen(reply) - 1)
			__builtin_trap();
		pos += len + 1;
	}
	{
		size_t ni, na;
		const uint64_t *is = bo_ctl_state_issued(st, &ni);
		const uint64_t *ac = bo_ctl_state_acked(st, &na);

		/* Sets stay strictly increasing, and every ack was issued. */
		for (size_t i = 1; i < ni; i++)
			if (is[i] <= is[i - 1])
				__builtin_trap();
		for (size_t i = 0; i < na; i++)
			if ((i && ac[i] <= ac[i - 1]) || !bo_ctl_state_was_issued(st, ac[i]))
				__builtin_trap();
	}
	bo_ctl_state_free(st);
	return 0;
}

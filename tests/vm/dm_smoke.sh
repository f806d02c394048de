#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/dm_smoke.sh BLACKOUT — the device-mapper layer against a real kernel, in the VM.
#
# In one guest session: print the kernel's dm target versions, run 'blackout __dmtest smoke'
# (loops on tmpfs, log-writes under flakey, writes and marks, a power cut, the log read back,
# a CoW snapshot filled until the kernel drops it, everything removed), then list the dm
# devices named blackout-: there must be none.
#
# Needs 'blackout vm run -- CMD ARGS...' to run CMD as root in a fresh guest that sees this
# blackout binary at the same path, and to exit with CMD's status (125 if no VM could be booted).
# Exits 77 (skipped), loudly, while this build has no 'vm' command.
set -u

blackout=${1:?usage: dm_smoke.sh BLACKOUT}

if ! "$blackout" vm --help >/dev/null 2>&1; then
	echo "*** SKIP dm_smoke: this blackout has no working 'vm' command, so the dm layer" \
		"was NOT tested against a kernel ***" >&2
	exit 77
fi

# shellcheck disable=SC2016 # expanded by the guest's shell
"$blackout" vm run -- /bin/sh -c '
	b=$1
	"$b" __dmtest versions || exit 3
	"$b" __dmtest smoke
	rc=$?
	left=$("$b" __dmtest list blackout-) || exit 3
	if [ -n "$left" ]; then
		echo "dm_smoke: LEFTOVER dm devices:" $left >&2
		exit 1
	fi
	exit $rc
' dm_smoke "$blackout" 2>"${TMPDIR:-/tmp}/dm_smoke.$$.err"
rc=$?
cat "${TMPDIR:-/tmp}/dm_smoke.$$.err" >&2
if [ "$rc" -eq 125 ] && grep -q "is not installed" "${TMPDIR:-/tmp}/dm_smoke.$$.err"; then
	rm -f "${TMPDIR:-/tmp}/dm_smoke.$$.err"
	echo "*** SKIP dm_smoke: 'blackout vm run' could not boot a VM ***" >&2
	exit 77
fi
rm -f "${TMPDIR:-/tmp}/dm_smoke.$$.err"
exit "$rc"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/status.sh BLACKOUT — the guest command's exit status comes back as is (0, 1, 42,
# and 128+N for a signal); its arguments survive spaces, quotes and empty strings; stdout
# and stderr stay apart.
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

for want in 0 1 42; do
	vm_run -- sh -c 'exit "$1"' sh "$want"
	[ "$rc" -eq "$want" ] || { cat "$scratch/err"; fail "exit $want came back as $rc"; }
done

vm_run -- sh -c 'kill -TERM $$'
[ "$rc" -eq 143 ] || { cat "$scratch/err"; fail "a command killed by SIGTERM came back as $rc"; }

# A command the guest cannot find, or cannot run: 127 and 126, as a shell says it.
vm_run -- /no/such/program
[ "$rc" -eq 127 ] || { cat "$scratch/err"; fail "a missing command came back as $rc, not 127"; }
vm_run -- /proc/version
[ "$rc" -eq 126 ] || { cat "$scratch/err"; fail "a command that is no program came back as $rc, not 126"; }

# shellcheck disable=SC2016 # $x and $(id) must reach the guest unexpanded
vm_run -- sh -c 'for a in "$@"; do printf "[%s]" "$a"; done; echo >&2 to-stderr' sh \
	'two words' '' "it's" '$x $(id)' '  lead'
[ "$rc" -eq 0 ] || fail "argument test exited $rc"
# shellcheck disable=SC2016
printf '[two words][][it'"'"'s][$x $(id)][  lead]' >"$scratch/want"
cmp -s "$scratch/out" "$scratch/want" ||
	fail "arguments arrived as '$(cat "$scratch/out")', not '$(cat "$scratch/want")'"
[ "$(cat "$scratch/err")" = to-stderr ] || fail "stderr was '$(cat "$scratch/err")'"
echo "PASS $name"

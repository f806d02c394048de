#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/parallel.sh BLACKOUT — two VMs started at once both boot, run, write their own
# share and report their own status (the initramfs and accelerator caches are shared and
# locked).
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir "$scratch/a" "$scratch/b"
for v in a b; do
	"$blackout" vm run --share "$scratch/$v" -- sh -c 'echo "$1" >/results/who; exit "$2"' sh \
		"$v" "$([ "$v" = a ] && echo 11 || echo 12)" >"$scratch/$v.out" 2>"$scratch/$v.err" &
	eval "pid_$v=\$!"
done
# shellcheck disable=SC2154 # set by the eval above
wait "$pid_a"
rc_a=$?
# shellcheck disable=SC2154
wait "$pid_b"
rc_b=$?
cat "$scratch/a.err" "$scratch/b.err"
[ "$rc_a" -eq 11 ] || fail "VM a exited $rc_a, not 11"
[ "$rc_b" -eq 12 ] || fail "VM b exited $rc_b, not 12"
[ "$(cat "$scratch/a/who")" = a ] || fail "share a holds '$(cat "$scratch/a/who")'"
[ "$(cat "$scratch/b/who")" = b ] || fail "share b holds '$(cat "$scratch/b/who")'"
echo "PASS $name"

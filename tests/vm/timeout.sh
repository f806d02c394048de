#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/timeout.sh BLACKOUT — a guest that hangs is killed at its timeout, the failure is
# an error (exit 125) that names the console log, and the log is there to read. The same for a
# kernel panic, a QEMU the host kills, and blackout itself stopped by SIGTERM.
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

start=$(date +%s)
vm_run --timeout 20 -- sleep 1000
took=$(($(date +%s) - start))
cat "$scratch/err"
[ "$rc" -eq 125 ] || fail "a hung guest gave exit $rc, not 125"
# 20 s, plus the host's own start and QEMU's exit; far from the 1000 s of the command.
if [ "$took" -lt 19 ] || [ "$took" -gt 30 ]; then
	fail "killed after ${took}s, not ~20s"
fi
console=$(sed -n "s/.*console '\([^']*\)'.*/\1/p" "$scratch/err")
[ -n "$console" ] || fail "the error does not name the console log"
[ -f "$console" ] || fail "the console log '$console' does not exist"
grep -q 'killed at its timeout' "$scratch/err" || fail "the error does not say it timed out"
rm -rf "$(dirname "$console")"

# A kernel panic ends the VM at once (panic=-1, -no-reboot) and is named as one.
vm_run --timeout 120 -- sh -c 'echo c >/proc/sysrq-trigger'
cat "$scratch/err"
[ "$rc" -eq 125 ] || fail "a panicking guest gave exit $rc, not 125"
grep -q 'the kernel panicked' "$scratch/err" || fail "the error does not name the panic"
console=$(sed -n "s/.*console '\([^']*\)'.*/\1/p" "$scratch/err")
[ -f "$console" ] || fail "the console log '$console' does not exist"
rm -rf "$(dirname "$console")"
# The host kills QEMU in the middle of a command: an error (exit 125) that says the VM stopped
# before the command reported, with the console's last lines (docs/safety.md).
"$blackout" vm run --timeout 300 -- \
	sh -c 'echo console-before-kill >/dev/console; echo guest-ready; sleep 1000' \
	>"$scratch/out" 2>"$scratch/err" &
bpid=$!
i=0
until grep -q guest-ready "$scratch/out"; do
	i=$((i + 1))
	[ "$i" -le 300 ] || { kill "$bpid"; fail "the guest command never started"; }
	sleep 1
done
qpid=$(pgrep -P "$bpid" qemu) || fail "no QEMU child of blackout (pid $bpid)"
kill -9 $qpid
wait "$bpid"
rc=$?
cat "$scratch/err"
[ "$rc" -eq 125 ] || fail "a killed QEMU gave exit $rc, not 125"
grep -q 'VM stopped before the command reported its status (QEMU was killed by signal 9' \
	"$scratch/err" || fail "the error does not say QEMU was killed"
grep -A3 'last lines:' "$scratch/err" | grep -q console-before-kill ||
	fail "the error has no console tail"
console=$(sed -n "s/.*console '\([^']*\)'.*/\1/p" "$scratch/err")
[ -f "$console" ] || fail "the console log '$console' does not exist"
rm -rf "$(dirname "$console")"
# SIGTERM to blackout on the host: the VM is killed, exit 125, the reason is the signal.
"$blackout" vm run --timeout 300 -- sh -c 'echo guest-ready; sleep 1000' \
	>"$scratch/out" 2>"$scratch/err" &
bpid=$!
i=0
until grep -q guest-ready "$scratch/out"; do
	i=$((i + 1))
	[ "$i" -le 300 ] || { kill -9 "$bpid"; fail "the guest command never started"; }
	sleep 1
done
qpid=$(pgrep -P "$bpid" qemu) || fail "no QEMU child of blackout (pid $bpid)"
kill -TERM "$bpid"
wait "$bpid"
rc=$?
cat "$scratch/err"
[ "$rc" -eq 125 ] || fail "blackout stopped by SIGTERM gave exit $rc, not 125"
grep -q 'blackout was stopped by Terminated' "$scratch/err" || fail "the error does not name the stop"
! kill -0 $qpid 2>/dev/null || fail "QEMU (pid $qpid) outlived blackout"
console=$(sed -n "s/.*console '\([^']*\)'.*/\1/p" "$scratch/err")
[ -n "$console" ] && rm -rf "$(dirname "$console")"
echo "PASS $name"

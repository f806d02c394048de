#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/guest/kill_matrix.sh BLACKOUT SCENARIO — the guest half of tests/vm/kill_matrix.sh
# (busybox sh, in the VM). Leftovers are counted from sysfs and mountinfo, not with blackout.
set -u
B=$1
SC=$2
fail=0
bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# Objects of run $1 in the kernel: dm devices by name, loops by backing file, mounts (its
# work directory's, and the mount area's: one run at a time has it).
left() {
	n=0
	for f in /sys/block/dm-*/dm/name; do
		[ -e "$f" ] || continue
		case $(cat "$f") in "blackout-$1-"*) n=$((n + 1)) ;; esac
	done
	for f in /sys/block/loop*/loop/backing_file; do
		[ -e "$f" ] || continue
		case $(cat "$f") in "/run/blackout-$1/"*) n=$((n + 1)) ;; esac
	done
	while read -r _ _ _ _ mp _; do
		case $mp in "/run/blackout-$1" | "/run/blackout-$1/"* | /blackout/mnt | /blackout/mnt/*)
			n=$((n + 1)) ;;
		esac
	done </proc/self/mountinfo
	echo "$n"
}

# wait_for FILE TEXT SECONDS
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt $(($3 * 5)) ] && return 1
		sleep 0.2
	done
}

# start POINT run|check ID: a run stalled at POINT, in the background ($pid).
start() {
	r=/tmp/r-$3
	mkdir -p "$r"
	if [ "$2" = run ]; then
		BLACKOUT_TEST_STALL=$1 "$B" __guest-run --results "$r" --scenario "$SC" \
			--run-id "$3" >"$r.out" 2>"$r.err" &
	else
		cp /tmp/r-k0/write.log "$r/"
		BLACKOUT_TEST_STALL=$1 "$B" __guest-check --results "$r" --scenario "$SC" \
			--run-id "$3" >"$r.out" 2>"$r.err" &
	fi
	pid=$!
	if ! wait_for "$r.err" "stalled at $1" 150; then
		bad "$3: never stalled at $1: $(tail -3 "$r.err")"
		kill -9 "$pid"
		wait "$pid"
		return 1
	fi
}

# A complete run first: the log for the check points, and a clean run leaves nothing.
t0=$(cut -d. -f1 /proc/uptime)
mkdir -p /tmp/r-k0
"$B" __guest-run --results /tmp/r-k0 --scenario "$SC" --run-id k0 >/tmp/r-k0.out 2>/tmp/r-k0.err
rc=$?
[ "$rc" = 0 ] || { bad "the complete run exited $rc: $(tail -5 /tmp/r-k0.err)"; exit 1; }
[ "$(left k0)" = 0 ] || bad "the complete run left $(left k0) objects"
echo "complete run: $(($(cut -d. -f1 /proc/uptime) - t0)) s"

# kill -9 at each point, then blackout cleanup --run ID.
for pc in workdir:run loops:run stack:run mkfs:run mounted:run workload:run unmount:run \
	replay:check snapshot:check check:check fsck:check results:check; do
	point=${pc%:*}
	id=k-$point
	start "$point" "${pc#*:}" "$id" || continue
	before=$(left "$id")
	# Positive control: the oracle sees the run's objects while it is stalled.
	[ "$before" -gt 0 ] || bad "$point: no object of the run seen while stalled"
	# A process the killed run left working in its mount (as a workload's child could be):
	# cleanup must kill it, or the mount stays busy.
	holder=
	if [ "$point" = mounted ]; then
		(cd /blackout/mnt && exec sleep 1000) &
		holder=$!
	fi
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	"$B" cleanup --run "$id" >"/tmp/$id.clean" 2>&1 || bad "$point: cleanup: $(cat "/tmp/$id.clean")"
	if [ -n "$holder" ]; then
		wait "$holder" 2>/dev/null
		grep -q "^killed process $holder " "/tmp/$id.clean" ||
			bad "$point: cleanup did not kill process $holder: $(cat "/tmp/$id.clean")"
	fi
	after=$(left "$id")
	[ "$after" = 0 ] || bad "$point: $after objects left after cleanup"
	[ ! -e "/run/blackout-$id" ] || bad "$point: /run/blackout-$id left after cleanup"
	echo "kill -9 at $point: $before objects; cleanup: $(grep -c -e '^removed' -e '^unmounted' \
		-e '^detached' -e '^killed' "/tmp/$id.clean") removed; $after left"
done
for p in check mounted; do
	echo "cleanup's report after kill -9 at $p:"
	sed 's/^/  /' "/tmp/k-$p.clean"
done

# SIGTERM, SIGINT, SIGHUP: the run unwinds by itself, exit 3, nothing left, no cleanup.
for ps in workload:TERM:run mkfs:HUP:run check:INT:check snapshot:TERM:check; do
	point=${ps%%:*}
	rest=${ps#*:}
	sig=${rest%:*}
	id=s-$point-$sig
	start "$point" "${rest#*:}" "$id" || continue
	before=$(left "$id")
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	after=$(left "$id")
	[ "$rc" = 3 ] || bad "SIG$sig at $point: exit $rc, not 3"
	[ "$after" = 0 ] || bad "SIG$sig at $point: $after objects left"
	[ ! -e "/run/blackout-$id" ] || bad "SIG$sig at $point: /run/blackout-$id left"
	grep -q "stopped by" "/tmp/r-$id/summary.json" ||
		bad "SIG$sig at $point: summary does not say it was stopped"
	echo "SIG$sig at $point: $before objects; exit $rc; $after left"
done

# A full results filesystem: a clear error, whole records in stream.jsonl, nothing left.
mkdir /tmp/full
mount -t tmpfs -o size=1m tmpfs /tmp/full
"$B" __guest-run --results /tmp/full --scenario "$SC" --run-id kfull >/tmp/full.out 2>/tmp/full.err
rc=$?
[ "$rc" = 3 ] || bad "full results: exit $rc, not 3"
grep -q "No space left on device" /tmp/full.err || bad "full results: $(cat /tmp/full.err)"
[ "$(left kfull)" = 0 ] || bad "full results: objects left"
cp /tmp/full/stream.jsonl /results/full-stream.jsonl
echo "full results: exit $rc: $(head -c 300 /tmp/full.err)"
umount /tmp/full

# Nothing of any run is left.
n=$(cat /sys/block/dm-*/dm/name 2>/dev/null | grep -c '^blackout-')
[ "$n" = 0 ] || bad "$n blackout dm devices left"
echo "kill_matrix: $fail failed ($(($(cut -d. -f1 /proc/uptime) - t0)) s)"
[ "$fail" = 0 ]

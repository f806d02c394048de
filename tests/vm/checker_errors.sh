#!/usr/bin/env bash
# tests/vm/checker_errors.sh BLACKOUT — a checker that did not look is never a pass, and the
# control channel's rules fail the run:
#  - a checker that prints nothing, one that stops before 'done', one that hangs past
#    checker_timeout and one that crashes (SIGSEGV) each make checker-error states and a
#    non-zero exit, while one that exits 1 after 'done' makes app-recovery-failed states;
#  - a workload and a checker that leave a daemon in a session of their own (setsid) have it
#    ended with them and named, and the states are judged as the checker said;
#  - a workload that acknowledges op 5 after op 7 (through `blackout ctl`) fails the run with
#    a protocol error: exit 3 and a message naming the request.
. "$(dirname "$0")/run_lib.sh"
need_vm

# cmd_scenario OUT.ini WORKLOAD CHECKER: a tiny ext4 scenario with a command workload.
cmd_scenario() {
	cat >"$1" <<INI
[device]
fs = ext4
size = 16M

[workload]
command = $2
timeout = 60

[check]
cuts = mark
checker = $3
checker_timeout = 3
INI
}

wl='echo data > f && blackout ctl issue 1 && sync && blackout ctl ack 1'
i=0
for checker in '/bin/true' 'echo present 1' 'sleep 600' 'echo present 1; kill -SEGV $$'; do
	i=$((i + 1))
	cmd_scenario "$T/c$i.ini" "$wl" "$checker"
	"$BO" run "$T/c$i.ini" --results "$T/results" >"$T/out" 2>&1
	rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" | tail -1)
	[ "$rc" -ne 0 ] && ok || bad "checker '$checker': exit 0"
	if [ -f "$RESULTS/summary.json" ]; then
		n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
		e=$(json "$RESULTS/summary.json" 'j["counts"].get("checker-error", 0)')
		[ "$n" -ge 1 ] && [ "$e" = "$n" ] && ok ||
			bad "checker '$checker': $e of $n states checker-error"
	else
		bad "checker '$checker': no summary.json"
		sed 's/^/  | /' "$T/out" >&2
	fi
done

# The application's own recovery failing is reported as such, not as a checker error.
cmd_scenario "$T/app.ini" "$wl" 'echo present 1; echo done; exit 1'
if run_bo 1 run "$T/app.ini" --results "$T/results"; then
	n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
	a=$(json "$RESULTS/summary.json" 'j["counts"].get("app-recovery-failed", 0)')
	[ "$a" -ge 1 ] && ok || bad "exit 1 after done: $a of $n states app-recovery-failed"
fi

# A daemon that refuses to start (`done`, exit 1, nothing present) names every state
# app-recovery-failed, even where acknowledged ops are lost; the lost ops stay in the record.
cmd_scenario "$T/refuse.ini" \
	'for i in 1 2 3; do blackout ctl issue $i && echo $i > f$i && sync && blackout ctl ack $i; done' \
	'echo done; exit 1'
if run_bo 1 run "$T/refuse.ini" --results "$T/results"; then
	n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
	a=$(json "$RESULTS/summary.json" 'j["counts"]["app-recovery-failed"]')
	l=$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')
	[ "$a" = "$n" ] && [ "$l" = 0 ] && ok ||
		bad "a refusing daemon: $a of $n states app-recovery-failed, $l lost-ack"
	grep -qs '^lost: [1-9]' "$RESULTS"/states/*/verdict.txt && ok ||
		bad "the lost ops of a refusing daemon are not in verdict.txt"
fi

# A workload and a checker that leave a daemon in a session of its own, working in the mount
# (pg_ctl starts its server so): each is ended with the command that started it, before the
# unmount, and named in the records; every state is judged by what its checker said
# (consistent), none is a harness error for a mount left busy.
cat >"$T/daemonize" <<'SH'
#!/bin/sh
# daemonize N: "sleep N" in a session of its own, working here; back once it runs.
setsid sh -c "echo \$\$ > /tmp/daemon.$1; exec sleep $1" </dev/null >/dev/null 2>&1 &
until [ "$(cat "/proc/$(cat /tmp/daemon.$1 2>/dev/null)/comm" 2>/dev/null)" = sleep ]; do
	sleep 0.01
done
SH
chmod +x "$T/daemonize"
cmd_scenario "$T/setsid.ini" "$wl && $T/daemonize 601" \
	"$T/daemonize 602; [ -f f ] && echo present 1; echo done"
printf '\n[vm]\nfiles = %s\n' "$T/daemonize" >>"$T/setsid.ini"
if run_bo 0 run "$T/setsid.ini" --results "$T/results"; then
	n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
	c=$(json "$RESULTS/summary.json" 'j["counts"]["consistent"]')
	[ "$n" -ge 2 ] && [ "$c" = "$n" ] && ok || bad "setsid leftovers: $c of $n states consistent"
	l=$(python3 - "$RESULTS/stream.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
states = [r for r in recs if r.get("event") == "state"]
left = [r for r in states if "sleep 602 (pid" in r.get("checker_left", "")]
wl = [r for r in recs if r.get("event") == "workload-end" and "sleep 601 (pid" in r.get("left", "")]
print(len(left), len(states), len(wl))
PY
)
	set -- $l
	[ "$1" = "$2" ] && [ "$2" -ge 2 ] && ok ||
		bad "setsid leftovers: $1 of $2 state records name the checker's daemon"
	[ "$3" = 1 ] && ok || bad "setsid leftovers: the workload's daemon is not in workload-end"
	grep -q 'the workload left 1 process, killed: sleep 601' "$RESULTS/workload.out" && ok ||
		bad "setsid leftovers: workload.out does not say what the workload left"
fi

cmd_scenario "$T/proto.ini" \
	'blackout ctl issue 5 && blackout ctl issue 7 && blackout ctl ack 7 && blackout ctl ack 5' \
	'none'
if run_bo 3 run "$T/proto.ini" --results "$T/results"; then
	grep -q "ack 5" "$T/out" "$T/err" "$RESULTS/summary.json" && ok ||
		bad "protocol error: no message naming 'ack 5': $(cat "$T/out" "$T/err")"
fi
finish

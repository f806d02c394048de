#!/usr/bin/env bash
# tests/vm/bounded.sh BLACKOUT FS [RANKS [BUG-RANKS [LENGTH]]] — builtin bounded on a real
# kernel: the workloads of the bounded space ranked RANKS (default 0-31, a fixed slice of
# seq-1) in one boot, checked at every acknowledgement, are consistent on FS; the planted-bug
# twin of the workloads BUG-RANKS (default 0-7: acks without the sync, the positive control)
# is flagged lost-ack. With RANKS "all", every workload of the length; the count of states
# says each workload was judged (at least one per acknowledgement).
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: bounded.sh BLACKOUT FS [RANKS [BUG-RANKS [LENGTH]]]}
ranks=${3:-0-31} bugranks=${4:-0-7} length=${5:-1}
need_vm

sel=() wl=()
[ "$ranks" = all ] || sel=("workload.workloads=$ranks") wl=(--workloads "$ranks")
scenario "$SRC/scenarios/$fs-bounded.ini" "$T/good.ini" "length=$length" "${sel[@]}"

acks=$(blackout-fsops list --bounded "$length" "${wl[@]}" | grep -c ' ack$')
if run_bo 0 run "$T/good.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -gt "$acks" ] && ok || bad "$fs: $n states checked for $acks acknowledgements"
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok ||
		bad "$fs: not every state consistent: $(json "$s" 'j["counts"]')"
	grep -q -- "--bounded $length" "$RESULTS/config.json" && ok ||
		bad "$fs: config.json does not record --bounded $length"
	echo "$fs: $(blackout-fsops list --bounded "$length" "${wl[@]}" |
		grep -o 'workload=[^ ]*' | sort -u | wc -l) workloads, $acks acks, $n states checked"
fi

scenario "$SRC/scenarios/$fs-bounded.ini" "$T/bug.ini" "length=$length" \
	"workload.workloads=$bugranks" workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "$fs: the planted bug was not flagged lost-ack"
fi
finish

#!/usr/bin/env bash
# tests/vm/bounded.sh BLACKOUT FS [RANKS [BUG-RANKS [LENGTH]]] — builtin bounded on a real
# kernel: the workloads of the bounded space ranked RANKS (default 0-31, a fixed slice of
# seq-1) in one boot, checked at every acknowledgement, are consistent on FS; the planted-bug
# twin of the workloads BUG-RANKS (default 0-7: acks without the sync, the positive control)
# is flagged lost-ack. With RANKS "all", every workload of the length; the count of states
# says each workload was judged (at least one per acknowledgement). Each workload runs on a
# fresh filesystem (`fresh = yes`, as seq-2 runs): the log holds one `base` (after the setup)
# and one `fresh:<label>` per workload, and every lost op of the twin is one of its state's own
# workload, or of the setup before the first fresh filesystem (the oracle judged each state on
# its workload alone); the same twin on one shared filesystem (seq-1's form) is flagged too.
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: bounded.sh BLACKOUT FS [RANKS [BUG-RANKS [LENGTH]]]}
ranks=${3:-0-31} bugranks=${4:-0-7} length=${5:-1}
need_vm

sel=() wl=()
[ "$ranks" = all ] || sel=("workload.workloads=$ranks") wl=(--workloads "$ranks")
scenario "$SRC/scenarios/$fs-bounded.ini" "$T/good.ini" "length=$length" fresh=yes "${sel[@]}"

acks=$(blackout-fsops list --bounded "$length" "${wl[@]}" --fresh | grep -c ' ack$')
# By default one VM per core (run --jobs): the workloads dealt into parts, a run each, under
# one tree; on one core, one run.
if run_bo 0 run "$T/good.ini" --results "$T/results"; then
	runs=$(find "$RESULTS" -name summary.json -printf '%h\n' | sort)
	parts=$(echo "$runs" | wc -l)
	[ "$parts" = "$(nproc)" ] || [ "$parts" = 1 ] && ok ||
		bad "$fs: $parts runs on $(nproc) cores"
	n=0 consistent=0
	for r in $runs; do
		n=$((n + $(json "$r/summary.json" 'j["states_checked"]')))
		consistent=$((consistent + $(json "$r/summary.json" 'j["counts"]["consistent"]')))
		grep -q -- "--bounded $length" "$r/config.json" && ok ||
			bad "$fs: config.json does not record --bounded $length"
	done
	[ "$n" -gt "$acks" ] && ok || bad "$fs: $n states checked for $acks acknowledgements"
	[ "$consistent" = "$n" ] && ok || bad "$fs: $consistent of $n states consistent"
	# The parts' workloads: each once, all of them.
	[ "$(for r in $runs; do "$BO" inspect --json "$r/write.log" |
			python3 -c 'import json,sys; print("\n".join(m["name"].split("/")[0][6:]
				for m in json.load(sys.stdin)["marks"] if m["name"].startswith("fresh:")))'
		done | sort)" = "$(blackout-fsops list --bounded "$length" "${wl[@]}" |
		grep -o 'workload=[^ ]*' | cut -c10- | sort -u)" ] && ok ||
		bad "$fs: the parts did not run each workload once"
	echo "$fs: $(blackout-fsops list --bounded "$length" "${wl[@]}" |
		grep -o 'workload=[^ ]*' | sort -u | wc -l) workloads, $acks acks, $n states checked" \
		"in $parts runs"
fi

# The fresh filesystems of run $RESULTS (its listing in $1): a base, a fresh: mark per
# workload, each lost op of a state its own workload's; what is wrong, printed.
fresh_ok() {
	"$BO" inspect --json "$RESULTS/write.log" >"$T/inspect.json" &&
		python3 - "$T/inspect.json" "$1" "$RESULTS/stream.jsonl" <<'PY'
import json, sys
marks = json.load(open(sys.argv[1]))["marks"]
workload, setup = {}, set()
for l in open(sys.argv[2]):
    f = l.split()
    workload[int(f[0])] = next(t for t in f if t.startswith("workload="))[9:]
    if "setup" in f:
        setup.add(int(f[0]))
names = sorted(set(workload.values()))
fresh = [(m["entry"], m["name"][6:].split("/")[0]) for m in marks if m["name"].startswith("fresh:")]
bad = []
if [m["name"] for m in marks].count("base") != 1:
    bad.append("not one base mark")
if [w for _, w in fresh] != names:
    bad.append(f"fresh: marks for {[w for _, w in fresh][:5]}..., workloads {names[:5]}...")
lost = 0
for l in open(sys.argv[3]):
    r = json.loads(l)
    if r.get("event") != "state" or not r.get("lost"):
        continue
    mine = [w for e, w in fresh if e < r["cut"]][-1:]
    for i in r["lost"]:
        lost += 1
        # The setup is in the base: lost only before the first fresh filesystem.
        if (i in setup and mine) or (i not in setup and [workload[i]] != mine):
            bad.append(f"state {r['state']} of {mine}: lost op {i} of {workload[i]}")
print("; ".join(bad[:5]) if bad else f"{len(fresh)} fresh filesystems, {lost} lost ops each its state's workload's")
sys.exit(1 if bad else 0)
PY
}

scenario "$SRC/scenarios/$fs-bounded.ini" "$T/bug.ini" "length=$length" fresh=yes \
	"workload.workloads=$bugranks" workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results" --jobs 1; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "$fs: the planted bug was not flagged lost-ack"
	blackout-fsops list --bounded "$length" --workloads "$bugranks" --fresh >"$T/bug.list"
	out=$(fresh_ok "$T/bug.list") && ok || bad "$fs: fresh filesystems: $out"
	echo "$fs twin: $out"
fi
# ... and on one filesystem they share.
scenario "$T/bug.ini" "$T/shared.ini" fresh=no
if run_bo 1 run "$T/shared.ini" --results "$T/results" --jobs 1; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "$fs: the planted bug on a shared filesystem was not flagged lost-ack"
	"$BO" inspect "$RESULTS/write.log" | grep -q ' fresh:' &&
		bad "$fs: fresh = no still made fresh filesystems" || ok
fi
finish

#!/usr/bin/env bash
# tests/vm/devices.sh BLACKOUT — several devices in one write log ([device NAME] sections):
# - coordinated cuts: the walfile workload writes record i to a raw "wal" device, then file
#   d<i> to an ext4 "data" device; at every entry of the log (cuts = all) no state holds a
#   write of one device without every write before it on the other (its checker says so,
#   and exits 1 when one does);
# - per-device epochs: --reorder drops an entry only while its own device has not flushed
#   since, whatever the other device flushed (checked against the log from outside), and
#   does drop across the other's flushes; the twin that flushes the wal after the data is
#   flagged only that way;
# - external journals: ext4 with its journal on a raw device, xfs with its log on one.
. "$(dirname "$0")/run_lib.sh"
need_vm

# across RESULTS: "STATES BAD ACROSS" for the states that drop entries: how many drop an
# entry its own device flushed before the cut (must be none), how many drop one that another
# device's flush came after (per-device epochs at work).
across() {
	"$BO" inspect "$1/write.log" --json --entries 0- | python3 -c '
import json, re, sys
e = json.load(sys.stdin)["entry_list"]
ss = int(sys.argv[2])
devs = [(m.group(1), int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"(\w+)=\w+@(\d+)\+(\d+)", e[0]["mark"])]
def dev(x):
    s = x.get("sector", 0) * ss // 512
    return next((n for n, a, l in devs if a <= s < a + l), None)
states = bad = acr = 0
for line in open(sys.argv[1] + "/stream.jsonl"):
    r = json.loads(line)
    if r["event"] != "state" or "-d" not in r["state"]:
        continue
    states += 1
    for d in map(int, r["state"].split("-d")[1].split(",")):
        fl = [dev(e[f]) for f in range(d + 1, r["cut"]) if "flush" in e[f]["flags"]]
        bad += any(f in (dev(e[d]), None) for f in fl)
        acr += any(f not in (dev(e[d]), None) for f in fl)
print(states, bad, acr)' "$1" 4096
}

# count SUMMARY CLASS
count() { json "$1" "j['counts']['$2']"; }

for form in walfile walfile-wal-last; do
	if run_bo 0 run "$SRC/scenarios/ext4-$form.ini" --results "$T/results"; then
		run=$RESULTS
		n=$(json "$run/summary.json" 'j["states_checked"]')
		[ "$n" -ge 60 ] && [ "$(count "$run/summary.json" consistent)" = "$n" ] && ok ||
			bad "$form: $n states, not all consistent at every entry"
		json "$run/config.json" '[d["name"] for d in j["devices"]]' |
			grep -q "'data', 'wal'" && ok || bad "$form: devices not in config.json"
		want=0
		[ $form = walfile-wal-last ] && want=1
		if run_bo $want check "$run/write.log" --scenario "$run/scenario.ini" --reorder 1 \
			--results "$T/results"; then
			read -r states bad_n acr <<<"$(across "$RESULTS")"
			[ "$states" -gt 0 ] && [ "$bad_n" = 0 ] && ok ||
				bad "$form --reorder: $bad_n of $states states drop what its device had flushed"
			if [ $form = walfile-wal-last ]; then
				# Record i, unflushed on wal when data's flush comes, stays droppable.
				[ "$acr" -gt 0 ] && ok ||
					bad "$form --reorder: no state drops across the other device's flush"
				[ "$(count "$RESULTS/summary.json" app-recovery-failed)" -ge 1 ] && ok ||
					bad "the wal-last twin is not flagged under --reorder"
			fi
		fi
	fi
done

for s in ext4-journal-device xfs-log-device; do
	if run_bo 0 run "$SRC/scenarios/$s.ini" --results "$T/results"; then
		n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
		[ "$n" -ge 10 ] && [ "$(count "$RESULTS/summary.json" consistent)" = "$n" ] && ok ||
			bad "$s: $n states, not all consistent"
		grep -q '^  entry 0 *layout:data=' <("$BO" inspect "$RESULTS/write.log") && ok ||
			bad "$s: the log does not begin with its layout"
	fi
done
finish

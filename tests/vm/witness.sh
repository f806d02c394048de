#!/usr/bin/env bash
# tests/vm/witness.sh BLACKOUT — the minimal witness of failing states (check --witness). On
# the fsops planted bug (acks without fsync) under --reorder, every failing state's witness
# has at most 3 writes, is minimal, and names an op the state lost and a path; a mutant that
# skips the minimisation (--witness-mode full) is caught by the same validation; explain
# prints the witness and the report shows it; a small budget bounds the trials and says the
# witness is not minimal; the classes are those of a check without witnesses. On xfs and
# btrfs the same, their writes named by their own tools.
. "$(dirname "$0")/run_lib.sh"
need_vm

# validate RESULTS MAX: every failing state (not an alias) has a witness of 1..MAX writes,
# minimal, naming an op the state failed and at least one path.
validate() {
	python3 - "$1" "$2" <<'PY'
import json, sys
res, most = sys.argv[1], int(sys.argv[2])
bad, n = [], 0
for l in open(res + "/stream.jsonl"):
    r = json.loads(l)
    if r["event"] != "state" or r["class"] == "consistent":
        continue
    n += 1
    w, sid = r.get("witness"), r["state"]
    if not w:
        bad.append("%s: no witness" % sid); continue
    if w.get("none"):
        bad.append("%s: none: %s" % (sid, w["none"])); continue
    failed = set(r.get("lost", []) + r.get("wrong_content", []) + r.get("phantom", []))
    paths = [x["path"] for x in w["writes"] if x.get("path")]
    if not 1 <= w["size"] <= most or len(w["writes"]) != w["size"]:
        bad.append("%s: %d writes" % (sid, w["size"]))
    elif not w["minimal"]:
        bad.append("%s: not minimal" % sid)
    elif not w["ops"] or not set(w["ops"]) <= failed:
        bad.append("%s: ops %s, the state failed %s" % (sid, w["ops"], sorted(failed)))
    elif not paths:
        bad.append("%s: no path: %s" % (sid, w["story"]))
    elif "op %d" % w["ops"][0] not in w["story"] and "ops %d" % w["ops"][0] not in w["story"]:
        bad.append("%s: the story names no op: %s" % (sid, w["story"]))
print("%d failing states, %d bad" % (n, len(bad)))
for b in bad[:5]:
    print("  " + b)
sys.exit(0 if n and not bad else 1)
PY
}

scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/bug.ini" ops=20
run_bo 1 run "$T/bug.ini" --results "$T/results" || { finish; exit 1; }
bug=$RESULTS
reo=(--reorder 1 --torn --budget 2)

# The witnesses, and the same states and classes as without them.
run_bo 1 check "$bug/write.log" --scenario "$bug/scenario.ini" "${reo[@]}" --witness 40 \
	--results "$T/results" || { finish; exit 1; }
wit=$RESULTS
validate "$wit" 3 >"$T/v" && ok || bad "witnesses on the planted bug: $(cat "$T/v")"
run_bo 1 check "$bug/write.log" --scenario "$bug/scenario.ini" "${reo[@]}" \
	--results "$T/results" || { finish; exit 1; }
states "$RESULTS" >"$T/plain"
states "$wit" >"$T/with"
cmp -s "$T/plain" "$T/with" && ok ||
	bad "--witness changed the states or classes: $(diff "$T/plain" "$T/with" | head -5)"

# The mutant that skips the minimisation fails the same validation.
run_bo 1 check "$bug/write.log" --scenario "$bug/scenario.ini" "${reo[@]}" --witness 40 \
	--witness-mode full --results "$T/results" || { finish; exit 1; }
if validate "$RESULTS" 3 >"$T/v"; then
	bad "the unminimised mutant passed the validation: $(cat "$T/v")"
else
	grep -q "writes" "$T/v" && ok || bad "the mutant failed for another reason: $(cat "$T/v")"
fi

# explain prints it, the report shows it, the state's directory keeps it.
first=$(json "$wit/summary.json" 'j["first_state"]["lost-ack"]')
run_bo 0 explain "$wit" "$first" || { finish; exit 1; }
grep -q "^witness: op.* lost: [123] writes\? decides\? it" "$T/out" &&
	grep -q "^  entry [0-9]*, \(held back\|dropped\|torn\): .*block [0-9]*: .*(/" "$T/out" && ok ||
	bad "explain: $(grep -A3 '^witness' "$T/out" || head -20 "$T/out")"
grep -q "minimal witness" "$wit/report.html" && grep -q "decides it" "$wit/report.html" && ok ||
	bad "report.html shows no witness"
[ -s "$wit/states/$first/witness.txt" ] && ok || bad "states/$first/witness.txt missing"

# A budget bounds the trials (one more describes the witness found) and a witness cut
# short says so: not minimal, or none.
run_bo 1 check "$bug/write.log" --scenario "$bug/scenario.ini" --witness 2 \
	--results "$T/results" || { finish; exit 1; }
python3 - "$RESULTS" >"$T/v" <<'PY' && ok || bad "budget of 2: $(cat "$T/v")"
import json, sys
ws = [json.loads(l).get("witness") for l in open(sys.argv[1] + "/stream.jsonl")]
ws = [w for w in ws if w]
over = [w for w in ws if w["trials"] > 3]
short = [w for w in ws if w.get("none", "").startswith("the budget of 2 trials ran out")
         or (not w.get("none") and not w["minimal"])]
print(len(ws), "witnesses;", len(over), "over budget;", len(short), "cut short")
sys.exit(0 if ws and not over and short else 1)
PY

# xfs and btrfs: the same bug; xfs's writes named by xfs_db, a write of its log by the inodes
# of its log record (xfs_logprint); btrfs's by inspect-internal, a write of its super block by
# the inodes of the generation it commits.
for fs in xfs btrfs; do
	scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/$fs.ini" ops=12 fs=$fs size=512M
	run_bo 1 run "$T/$fs.ini" --results "$T/results" --witness 40 || continue
	validate "$RESULTS" 3 >"$T/v" && ok || bad "witnesses on $fs: $(cat "$T/v")"
done
finish

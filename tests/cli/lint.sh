#!/usr/bin/env bash
# tests/cli/lint.sh BLACKOUT — `blackout lint` on synthetic logs (no VM): each ack of the
# synthetic workload follows its issue with no barrier, so each is a finding, in text and JSON,
# with exit status 1; a log without acks has none (0); a damaged log is an error naming it (3).
. "$(dirname "$0")/lib.sh"

"$BO" synth --out "$T/a.log" --entries 3000 --seed 4 >/dev/null || bad "synth failed"
expect 1 -- "$BO" lint "$T/a.log"
acks=$(grep -c '^  op [0-9]*: acked at entry' "$T/out")
marks=$("$BO" inspect --json "$T/a.log" | python3 -c 'import json,sys
print(sum(m["name"].startswith("ack:") for m in json.load(sys.stdin)["marks"]))')
[ "$acks" -ge 1 ] && [ "$acks" = "$marks" ] && ok ||
	bad "lint listed $acks findings for $marks acks without a barrier"
head -1 "$T/out" | grep -q "$marks acks linted: $marks findings" && ok ||
	bad "lint's first line: $(head -1 "$T/out")"
# JSON: the same findings, each inside its own issue..ack window, in a versioned document.
"$BO" lint --json "$T/a.log" >"$T/a.json"
python3 - "$T/a.json" "$marks" <<'PY' && ok || bad "lint --json: $(head -c 300 "$T/a.json")"
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
assert j["format"] == 1 and j["acks"] == int(sys.argv[2]) and len(f) == int(sys.argv[2])
assert all(x["issue_entry"] < x["ack_entry"] for x in f)
assert all(x["next_barrier"] is None or x["next_barrier"] > x["ack_entry"] for x in f)
assert [x["op"] for x in f] == sorted(x["op"] for x in f)
PY

# No op marks: nothing to lint.
"$BO" synth --out "$T/b.log" --entries 500 --mark-every 0 >/dev/null || bad "synth failed"
expect 0 -- "$BO" lint "$T/b.log"
grep -q "0 acks linted: 0 findings" "$T/out" && ok || bad "lint of a log without acks: $(cat "$T/out")"

# A damaged log: an error naming it, exit 3; a missing operand is a usage error.
cp "$T/a.log" "$T/c.log"
truncate -s 100000 "$T/c.log"
expect 3 "c.log" -- "$BO" lint "$T/c.log"
expect 2 "usage" -- "$BO" lint
finish

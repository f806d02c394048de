#!/usr/bin/env bash
# tests/vm/regressions.sh BLACKOUT — the kernel regression scenarios: correct workloads that a
# kernel blackout boots is known to fail (docs/crash-states.md). Each must still be flagged
# as recorded there, on each Debian 12 kernel; one that passes means the kernel changed, and
# the test says so rather than calling it a failure of blackout.
. "$(dirname "$0")/run_lib.sh"
need_vm

for k in 6.1 6.12; do
	if run_bo 1 run "$SRC/scenarios/xfs-fsops-syncfs-overwrite.ini" --kernel-release "$k" \
		--results "$T/results"; then
		s=$RESULTS/summary.json
		[ "$(json "$s" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
			bad "xfs syncfs gap, $k: no lost-ack"
		python3 -c 'import json, sys
lost = set()
for line in open(sys.argv[1]):
    lost |= set(json.loads(line).get("lost", []))
sys.exit(lost != {44})' "$RESULTS/stream.jsonl" && ok ||
			bad "xfs syncfs gap, $k: not just op 44 (the syncfs) lost"
	else
		echo "NOTE: xfs-fsops-syncfs-overwrite.ini is consistent on $k: the kernel flushes" \
			"in syncfs now; update docs/crash-states.md" >&2
	fi
done
# seq1-00184 and seq1-00187 (ack ids 10 and 40 in the run of ranks 184-187: each workload is
# 10 ops), the fsync-file after the exchange, lost; their controls, 185 and 186, consistent.
for k in 6.1 6.12; do
	if run_bo 1 run "$SRC/scenarios/xfs-bounded-exchange-fsync.ini" --kernel-release "$k" \
		--results "$T/results"; then
		python3 -c 'import json, sys
lost = set()
for line in open(sys.argv[1]):
    lost |= set(json.loads(line).get("lost", []))
sys.exit(lost != {10, 40})' "$RESULTS/stream.jsonl" && ok ||
			bad "xfs exchange gap, $k: not just the two fsync-files (ops 10 and 40) lost"
	else
		echo "NOTE: xfs-bounded-exchange-fsync.ini is consistent on $k: xfs logs the files" \
			"of an exchange now; update docs/crash-states.md" >&2
	fi
done
# ext4 without a journal, ranks 140-160 (ids from 1, ten ops a workload: op 8 the setup's
# syncfs, op 10 the workload's fsync-file, fsync-dir or syncfs). Every op lost is one of the
# syncs (never a write, a name op or an fsync of a file), and lost at its own acknowledgement:
# a state cut right after the ack already lacks it, nothing later is needed. On 6.1 every
# fsync-dir after a link or a rename (workloads 143-158, every third) is lost; on 6.12 those
# are kept, and syncfs is lost instead: the setups' of 9 to 15 of the 21 workloads in each run
# so far (a race with the writeback's metadata, so never the same ones).
"$(dirname "$BO")/blackout-fsops" list --bounded 1 --workloads 140-160 | cut -d' ' -f1,2 \
	>"$T/ops"
for k in 6.1 6.12; do
	if run_bo 1 run "$SRC/scenarios/ext4-nojournal-bounded-unflushed.ini" --kernel-release "$k" \
		--results "$T/results"; then
		"$BO" inspect --json "$RESULTS/write.log" >"$T/inspect.json" 2>"$T/err" || bad "inspect"
		python3 - "$RESULTS/stream.jsonl" "$T/ops" "$T/inspect.json" "$k" <<'PY' && ok ||
import json, sys
kind = dict(l.split() for l in open(sys.argv[2]))
ack = {m["name"]: m["entry"] for m in json.load(open(sys.argv[3]))["marks"]}
first = {}
for line in open(sys.argv[1]):
    s = json.loads(line)
    for op in s.get("lost", []):
        assert kind[str(op)] in ("fsync-dir", "sync"), f"op {op} ({kind[str(op)]}) lost"
        first[op] = min(first.get(op, s["cut"]), s["cut"])
for op, cut in first.items():
    assert cut == ack[f"ack:{op}"] + 1, f"op {op} first lost at cut {cut}, not at its ack"
lost = set(first)
if sys.argv[4] == "6.1":
    gap = {40, 70, 100, 130, 160, 190}
    assert gap <= lost, f"the fsync-dirs {sorted(gap - lost)} kept on 6.1"
else:
    assert lost and all(kind[str(op)] == "sync" for op in lost), f"6.12 lost {sorted(lost)}"
PY
			bad "ext4 nojournal gaps, $k: not the syncs recorded in docs/crash-states.md"
	else
		echo "NOTE: ext4-nojournal-bounded-unflushed.ini is consistent on $k: ext4 without a" \
			"journal flushes after its syncs now; update docs/crash-states.md" >&2
	fi
done
# nilfs2, ranks 139-169: the fsync-file after a create, a link or a rename lost, in the
# eleven workloads that have one; every other workload of the range (the same ops with an
# fsync of the directory, an fdatasync or a sync) consistent.
for k in 6.1 6.12; do
	if run_bo 1 run "$SRC/scenarios/nilfs2-bounded-name-fsync.ini" --kernel-release "$k" \
		--results "$T/results"; then
		ops_of "$RESULTS" "$T/nilfs2.ops"
		python3 - "$T/nilfs2.ops" "$RESULTS/stream.jsonl" <<'PY' && ok ||
import json, sys
ops = {}
for l in open(sys.argv[1]):
    f = l.split()
    ops[int(f[0])] = (f[1], next(w for w in f if w.startswith("workload=")))
lost = set()
for line in open(sys.argv[2]):
    lost |= set(json.loads(line).get("lost", []))
want = {"workload=seq1-%05d" % r for r in [139] + list(range(142, 170, 3))}
got = {ops[i][1] for i in lost}
assert {ops[i][0] for i in lost} == {"fsync-file"} and got == want, (sorted(got), sorted(want))
PY
			bad "nilfs2 name gap, $k: not just the fsync-files of the eleven workloads lost"
	else
		echo "NOTE: nilfs2-bounded-name-fsync.ini is consistent on $k: nilfs2's fsync persists" \
			"a new name now; update docs/crash-states.md" >&2
	fi
done
finish

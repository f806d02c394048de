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
finish

#!/usr/bin/env bash
# tests/vm/families.sh BLACKOUT FS — fsops' one-inode persistence ops (fsync = inode:
# fsync-file F, fsync-dir D) and all its op families (fallocate, O_DIRECT, RWF_DSYNC and
# O_SYNC writes, mmap stores, xattrs, renameat2) on a real kernel. The correct workload on FS is
# consistent at every crash state under the filesystem's own promise table; its planted-bug
# twin (acks without the sync: the positive control) is flagged lost-ack, and among the acks
# it lost are one of each kind of persistence op — each one's own control. That the checker
# sees what each family op does is tests/cli/fsops_families.py's part.
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: families.sh BLACKOUT FS}
need_vm

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/good.ini" ops=120 seed=1 workload.fsync=inode \
	workload.families=all
if run_bo 0 run "$T/good.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -ge 100 ] && ok || bad "$fs: only $n states checked"
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok || bad "$fs: not all consistent"
	grep -q -- "--fsync=inode --families=all" "$RESULTS/config.json" && ok ||
		bad "$fs: config.json does not record --fsync=inode --families=all"
fi

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/bug.ini" ops=80 seed=30 workload.fsync=inode \
	workload.families=all workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "$fs: the planted bug was not flagged lost-ack"
	blackout-fsops list --seed 30 --ops 80 --fsync=inode --families=all >"$T/ops"
	python3 - "$T/ops" "$RESULTS/stream.jsonl" <<'PY' && ok || bad "$fs: an op family's skipped ack was not flagged"
import json, sys
kind = {int(l.split()[0]): l.split()[1] for l in open(sys.argv[1])}
lost = set()
for line in open(sys.argv[2]):
    lost |= set(json.loads(line).get("lost", []))
families = {kind[i] for i in lost}
assert {"fsync-file", "fsync-dir", "dsync-write", "sync-write", "mmap-write"} <= families, \
    sorted(families)
PY
fi
finish

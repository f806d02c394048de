#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/kill_matrix.sh BLACKOUT — a run killed anywhere leaves nothing behind once
# `blackout cleanup --run ID` ran (docs/safety.md). All in one guest (tests/vm/guest/):
#  - a complete run leaves nothing, and gives the log for the check points;
#  - kill -9 at twelve points (BLACKOUT_TEST_STALL): work directory made, loops attached, dm
#    stack up, before mkfs, mounted, in the workload, before unmount, replay set up, snapshot
#    made, state mounted for the checker, before fsck, writing a state's results. Before the
#    kill the run's objects are seen (the oracle's positive control); after cleanup there are
#    0 dm devices, 0 loops, 0 mounts, and no work directory;
#  - SIGTERM, SIGHUP, SIGINT at four points: the run unwinds by itself, exit 3;
#  - a results filesystem that fills up: exit 3, "No space left on device", and stream.jsonl
#    is whole JSON records (checked here, on the host).
. "$(dirname "$0")/run_lib.sh"
need_vm

here=$(cd "$(dirname "$0")" && pwd)
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/k.ini" ops=5 size=64M
mkdir "$T/share"
"$BO" vm run --timeout 540 --share "$T/share" --file "$here/guest/kill_matrix.sh" \
	--file "$T/k.ini" --file "$(dirname "$BO")/blackout-fsops" -- \
	/bin/sh "$here/guest/kill_matrix.sh" "$BO" "$T/k.ini" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] && ok || bad "the guest side exited $rc"
grep -q "kill_matrix: 0 failed" "$T/out" && ok || bad "no verdict from the guest"
[ "$(grep -c '^kill -9 at ' "$T/out")" = 12 ] && ok || bad "not all twelve kill points ran"
python3 - "$T/share/full-stream.jsonl" <<'PY' && ok || bad "partial stream.jsonl is not whole records"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and len(lines) > 1, "no records, or a last line without newline"
for l in lines[:-1]:
    assert isinstance(json.loads(l), dict)
print("full results: %d whole records in stream.jsonl" % (len(lines) - 1))
PY
finish

#!/usr/bin/env bash
# tests/vm/host_checker.sh BLACKOUT — a checker given as a path on the host runs in the guest:
# blackout carries what a scenario's command lines name into the VM. The checker here wraps
# the fsops checker, so the run is consistent only if the guest really ran it.
. "$(dirname "$0")/run_lib.sh"
need_vm

mkdir -p "$T/bin"
cat >"$T/bin/my-checker" <<'SH'
#!/bin/sh
# A user's checker: must see the crash state as its working directory.
[ "$PWD" = "$BLACKOUT_MNT" ] || { echo "not in the mount point" >&2; exit 2; }
exec blackout-fsops check --seed 6 --ops 12
SH
chmod +x "$T/bin/my-checker"
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/host.ini" ops=12 seed=6 \
	"checker=$T/bin/my-checker"
if run_bo 0 run "$T/host.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["checker-error"]')" = 0 ] && ok ||
		bad "the host-path checker did not run in the guest"
	[ "$(json "$RESULTS/summary.json" 'j["states_checked"]')" -ge 10 ] && ok || bad "too few states"
fi
# -q: the table and the results path on stdout, nothing on stderr (no notes, no progress).
if run_bo 0 -q run "$T/host.ini" --results "$T/results"; then
	[ ! -s "$T/err" ] && ok || bad "-q still wrote to stderr: $(cat "$T/err")"
	grep -q '^results: ' "$T/out" && ok || bad "-q lost the results path"
fi
# --no-progress after the command: notes, but no progress line.
if run_bo 0 run "$T/host.ini" --results "$T/results" --no-progress; then
	grep -q 'booting a VM' "$T/err" && ! grep -q 'states/s' "$T/err" && ok ||
		bad "--no-progress: $(cat "$T/err")"
fi
finish

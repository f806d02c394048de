#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/kernel_tree.sh BLACKOUT — a kernel developer's loop, start to finish: a small
# kernel built from Debian's linux-source-6.1 (defconfig plus blackout's fragment;
# tests/vm/build_kernel.sh), once monolithic and once with the targets as modules, booted
# through --kernel-tree with no install step. On each: vm info reports the tree's release
# and the dm targets; the fsops scenario is consistent and its planted-bug twin is flagged
# lost-ack; config.json records the tree with the sha256 of its image and config; reproduce
# boots the same tree, and refuses, naming what changed, once the tree's config differs.
# Long label: the first build takes a while (the note on issue 30 says how long); the trees
# stay in the cache (test-kernels/) and a second run only re-runs make.
. "$(dirname "$0")/run_lib.sh"
need_vm

kt=${XDG_CACHE_HOME:-$HOME/.cache}/blackout/test-kernels
for shape in monolithic modular; do
	tree=$kt/$shape
	start=$(date +%s)
	"$SRC/tests/vm/build_kernel.sh" "$BO" "$tree" "$shape" >"$T/build.log" 2>&1
	rc=$?
	[ "$rc" = 77 ] && {
		cat "$T/build.log" >&2
		exit 77
	}
	[ "$rc" = 0 ] && ok || {
		tail -n 30 "$T/build.log" >&2
		bad "$shape: the kernel build failed"
		continue
	}
	echo "$shape: built in $(($(date +%s) - start)) s"
	release=$(cat "$tree/include/config/kernel.release")
	if [ "$shape" = monolithic ]; then
		grep -qx '# CONFIG_MODULES is not set' "$tree/.config" && ok ||
			bad "monolithic: the tree has modules"
	else
		grep -qx 'CONFIG_DM_LOG_WRITES=m' "$tree/.config" && [ -f "$tree/modules.order" ] &&
			ok || bad "modular: dm-log-writes is not a module"
	fi

	if run_bo 0 vm info --json --kernel-tree "$tree"; then
		python3 - "$T/out" "$release" <<'PY' && ok || bad "$shape: vm info: $(cat "$T/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["kernel"]["release"] == sys.argv[2], j["kernel"]
t = [d["name"] for d in j["dm_targets"]]
assert "log-writes" in t and "flakey" in t and "snapshot" in t, t
PY
	fi

	scenario "$SRC/scenarios/ext4-fsops.ini" "$T/ok.ini" ops=60
	scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/bug.ini" ops=60
	if run_bo 0 run "$T/ok.ini" --kernel-tree "$tree" --results "$T/r-$shape"; then
		python3 - "$RESULTS" "$tree" "$release" <<'PY' && ok || bad "$shape: config.json"
import json, sys
c = json.load(open(sys.argv[1] + "/config.json"))["kernel"]
assert c["tree"] == sys.argv[2] and c["release"] == sys.argv[3], c
assert len(c["image_sha256"]) == 64 and len(c["config_sha256"]) == 64, c
assert "/kernel-trees/" in c["modules"], c
PY
	fi
	if run_bo 1 run "$T/bug.ini" --kernel-tree "$tree" --results "$T/b-$shape"; then
		s=$RESULTS/summary.json
		[ "$(json "$s" 'j["counts"].get("lost-ack", 0)')" -ge 1 ] && ok ||
			bad "$shape: the planted bug was not flagged lost-ack"
		first=$(json "$s" 'j["first_state"]["lost-ack"]')
		bug=$RESULTS
		# The same tree: reproduce boots it (its config.json says so) and the class
		# reproduces (exit 0).
		if run_bo 0 reproduce "$bug" "$first"; then
			python3 - "$RESULTS" "$tree" <<'PY' && ok || bad "$shape: reproduce's kernel"
import json, sys
c = json.load(open(sys.argv[1] + "/config.json"))["kernel"]
assert c["tree"] == sys.argv[2], c
PY
		fi
		# A tree changed since (its config): refused before any boot, naming the change.
		cp -p "$tree/.config" "$T/config.saved"
		echo "# changed after the run" >>"$tree/.config"
		"$BO" reproduce "$bug" "$first" >"$T/out" 2>"$T/err"
		rc=$?
		cp -p "$T/config.saved" "$tree/.config"
		[ "$rc" -ne 0 ] && grep -q "has changed since the run: its config's sha256" "$T/err" &&
			ok || bad "$shape: reproduce of a changed tree (exit $rc): $(cat "$T/err")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

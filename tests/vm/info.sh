#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/info.sh BLACKOUT — a VM boots and 'blackout vm info' lists the kernel, the
# accelerator, the boot time and the dm targets blackout needs, with their versions (listed
# in the guest through libdevmapper); --json the same as one object with its "format".
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

"$blackout" vm info >"$scratch/info" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$scratch/info"; fail "vm info exited $rc"; }
cat "$scratch/info"
for want in '^kernel: +[0-9]' '^accel: +(kvm|tcg)$' '^boot: +[0-9.]+ s' \
	'^ +log-writes +v[0-9]+\.[0-9]+\.[0-9]+$' '^ +flakey +v[0-9]+\.[0-9]+\.[0-9]+$' \
	'^ +snapshot +v[0-9]+\.' '^ +thin-pool +v[0-9]+\.'; do
	grep -Eq "$want" "$scratch/info" || fail "no line matching '$want'"
done

"$blackout" vm info --json >"$scratch/info.json" 2>"$scratch/info.err" ||
	{ cat "$scratch/info.err"; fail "vm info --json exited $?"; }
python3 - "$scratch/info.json" <<'PY' || fail "vm info --json is not what it should be"
import json, re, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == 1, j
assert re.match(r"[0-9]", j["kernel"]["release"]), j
assert j["accel"] in ("kvm", "tcg"), j
assert j["boot_s"] > 0 and j["total_s"] >= j["boot_s"], j
names = {t["name"]: t["version"] for t in j["dm_targets"]}
for want in ("log-writes", "flakey", "snapshot", "thin-pool"):
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", names[want]), (want, names)
PY
"$blackout" vm run --json -- true 2>/dev/null
[ $? -eq 2 ] || fail "vm run --json was not refused as a usage error"
echo "PASS $name"

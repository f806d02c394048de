#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/info.sh BLACKOUT — a VM boots and 'blackout vm info' lists the kernel, the
# accelerator, the boot time and the dm targets blackout needs, with their versions (listed
# in the guest through libdevmapper).
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
echo "PASS $name"

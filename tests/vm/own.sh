#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/own.sh BLACKOUT — blackout writes only to devices it made (docs/safety.md).
#
# In one guest: `blackout replay --onto` a loop device over a file outside every run's
# directory (also through a symlink and a second device node), a RAM disk and a virtio disk
# when the guest has them, and a character device: each is refused with a message naming it,
# exit 3, and its sha256 is the same before and after. Positive control: the same replay onto
# a loop over a file in a run's work directory is accepted and changes the device. Then
# `cleanup --list` shows that run untouched, `cleanup --run '*'` is refused, and
# `cleanup --run ID` detaches exactly its loop, not the foreign one.
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
vm_run --timeout 300 --file "$here/guest/own.sh" -- /bin/sh "$here/guest/own.sh" "$blackout"
cat "$scratch/out" "$scratch/err"
[ "$rc" -eq 0 ] || fail "the guest side exited $rc"
grep -q "own: 0 failed" "$scratch/out" || fail "no verdict from the guest"
echo "PASS $name"

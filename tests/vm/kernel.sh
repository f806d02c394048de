#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/kernel.sh BLACKOUT — a kernel of the user's (--kernel IMAGE --modules DIR) boots;
# the same module tree without dm-log-writes (removed, depmod rerun) is refused with a
# message naming the missing target, before any VM starts.
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

k=$(find "$cache/kernels" -mindepth 2 -maxdepth 2 -name vmlinux -printf '%h\n' | sort -V |
	tail -n 1)
release=$(basename "$k")
mods=$k/lib/modules/$release
[ -d "$mods" ] || mods=$k/usr/lib/modules/$release
command -v depmod >/dev/null 2>&1 || skip "depmod is not installed (package kmod)"

# A private copy of the module tree: modules hard-linked (cheap), index files copied, so that
# depmod on the copy leaves the cache alone.
copy=$scratch/root/lib/modules/$release
mkdir -p "$copy"
cp -al "$mods/kernel" "$copy/"
cp "$mods"/modules.* "$copy/"
# Its own cache: the initramfs for these inputs is this test's to build and to remove.
export XDG_CACHE_HOME="$scratch/cache"
mkdir -p "$XDG_CACHE_HOME/blackout"
[ -d "$cache/accel" ] && cp -r "$cache/accel" "$XDG_CACHE_HOME/blackout/"

vm_run --kernel "$k/vmlinux" --modules "$copy" -- sh -c 'uname -r'
[ "$rc" -eq 0 ] || { cat "$scratch/err"; fail "the user kernel did not boot (exit $rc)"; }
[ "$(cat "$scratch/out")" = "$release" ] || fail "the guest runs '$(cat "$scratch/out")'"

rm -f "$copy"/kernel/drivers/md/dm-log-writes.ko*
depmod -b "$scratch/root" "$release" || fail "depmod on the copy failed"
start=$(date +%s)
vm_run --kernel "$k/vmlinux" --modules "$copy" -- true
cat "$scratch/err"
[ "$rc" -eq 125 ] || fail "a kernel without dm-log-writes gave exit $rc, not 125"
grep -q "kernel $release: dm-log-writes is neither built in nor a module in '$copy'" \
	"$scratch/err" || fail "the refusal does not name dm-log-writes and the module directory"
[ $(($(date +%s) - start)) -le 5 ] || fail "the refusal took a boot's time: was a VM started?"
echo "PASS $name"

# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/lib.sh — shared by the VM tests: skip loudly without QEMU or a kernel, fail loudly,
# clean up what a test made.
set -u

blackout=${1:?usage: $0 BLACKOUT}
name=$(basename "$0" .sh)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/blackout

skip() {
	echo "*** SKIP $name: $* — the VM was NOT tested ***" >&2
	exit 77
}

fail() {
	echo "FAIL $name: $*" >&2
	exit 1
}

command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	skip "qemu-system-x86_64 is not installed (scripts/setup installs it)"
ls "$cache"/kernels/*/vmlinux >/dev/null 2>&1 ||
	skip "no kernel in $cache/kernels (scripts/fetch-kernel fetches one)"

# A scratch directory, removed on every exit path.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bo-vmtest-$name.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Run "blackout vm run ARGS..." with stdout and stderr captured in $scratch/out and
# $scratch/err; sets $rc.
# shellcheck disable=SC2034 # rc is for the test that sources this
vm_run() {
	"$blackout" vm run "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
}

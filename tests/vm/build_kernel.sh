#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/build_kernel.sh BLACKOUT OUT SHAPE — build a small kernel tree from Debian's
# linux-source-6.1 (scripts/setup installs it) the way a kernel developer would for blackout:
# `make defconfig`, blackout's fragment (`blackout kernel config --fs ext4`, with --modules
# for SHAPE=modular) merged by the tree's merge_config.sh, `make olddefconfig`, `make`.
# SHAPE=monolithic also turns CONFIG_MODULES off: everything blackout needs is built in.
#
# The tree is built in OUT (make O=OUT) from a source tree unpacked once beside it; a
# second call with the same fragment finds the build done and only re-runs make, which
# has nothing to do. Exit 77 when the source package is not installed.
set -euo pipefail

blackout=${1:?usage: $0 BLACKOUT OUT monolithic|modular}
out=${2:?usage: $0 BLACKOUT OUT monolithic|modular}
shape=${3:?usage: $0 BLACKOUT OUT monolithic|modular}
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n1 || true)
[ -n "$tarball" ] || {
	echo "*** SKIP: linux-source-6.1 is not installed (scripts/setup installs it) ***" >&2
	exit 77
}
src=$(dirname "$out")/linux-source-6.1
if [ ! -f "$src/Makefile" ]; then
	mkdir -p "$(dirname "$out")"
	tar -C "$(dirname "$out")" -xf "$tarball"
fi
mkdir -p "$out"
case $shape in
modular) "$blackout" kernel config --modules --fs ext4 >"$out/blackout.config" ;;
monolithic)
	"$blackout" kernel config --fs ext4 >"$out/blackout.config"
	echo '# CONFIG_MODULES is not set' >>"$out/blackout.config"
	;;
*)
	echo "build_kernel: SHAPE is monolithic or modular, not '$shape'" >&2
	exit 2
	;;
esac
if ! cmp -s "$out/blackout.config" "$out/blackout.config.built" 2>/dev/null; then
	make -s -C "$src" O="$out" defconfig
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m .config blackout.config >/dev/null)
	make -s -C "$src" O="$out" olddefconfig
fi
start=$(date +%s)
make -s -C "$src" O="$out" -j"$(nproc)"
cp "$out/blackout.config" "$out/blackout.config.built"
echo "build_kernel: $shape tree $out built in $(($(date +%s) - start)) s"

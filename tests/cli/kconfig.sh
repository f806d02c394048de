#!/usr/bin/env bash
# The kernel config check, without a VM: the config reader on real .config files (the cached
# Debian kernels' boot/config-<release>, which scripts/setup fetches), the fragment, and a
# kernel of one's own whose tree's .config lacks an option refused before any boot, naming
# the CONFIG option — for vm info, and for run before a results directory is made.
. "$(dirname "$0")/lib.sh"

# Real configs: every cached Debian kernel has what blackout needs, for every filesystem.
n=0
for c in "${XDG_CACHE_HOME:-$HOME/.cache}"/blackout/kernels/*/boot/config-*; do
	[ -f "$c" ] || continue
	n=$((n + 1))
	"$BO" kernel config --check "$c" --fs ext4 --fs xfs --fs btrfs --fs vfat >"$T/out" 2>&1 &&
		grep -q "has what blackout needs" "$T/out" && ok || bad "Debian's $c: $(cat "$T/out")"
done
[ "$n" -ge 1 ] && ok || bad "no cached kernel's config to read (scripts/setup fetches one)"
real=$(ls "${XDG_CACHE_HOME:-$HOME/.cache}"/blackout/kernels/*/boot/config-* | head -n 1)

# The fragment: every option the check asks for, =y; with --modules the drivers =m.
"$BO" kernel config >"$T/frag" && ok || bad "kernel config failed"
for o in CONFIG_DM_LOG_WRITES=y CONFIG_DM_FLAKEY=y CONFIG_DM_SNAPSHOT=y CONFIG_BLK_DEV_LOOP=y \
	CONFIG_9P_FS=y CONFIG_NET_9P_VIRTIO=y CONFIG_VIRTIO_PCI=y CONFIG_XFS_FS=y CONFIG_BTRFS_FS=y \
	CONFIG_EXT4_FS=y CONFIG_DEVTMPFS=y CONFIG_BLK_DEV_INITRD=y; do
	grep -qx "$o" "$T/frag" && ok || bad "the fragment lacks $o"
done
"$BO" kernel config --modules --fs xfs >"$T/frag"
grep -qx CONFIG_DM_LOG_WRITES=m "$T/frag" && grep -qx CONFIG_MODULES=y "$T/frag" &&
	grep -qx CONFIG_DEVTMPFS=y "$T/frag" && grep -qx CONFIG_XFS_FS=m "$T/frag" &&
	! grep -q CONFIG_BTRFS_FS "$T/frag" && ok || bad "--modules --fs xfs: $(cat "$T/frag")"
# A config made of the fragment alone has what it asks for: the two agree.
"$BO" kernel config --check "$T/frag" --fs xfs >"$T/out" 2>&1 && ok ||
	bad "the fragment fails its own check: $(cat "$T/out")"

# What is missing, by name: a real config without dm-log-writes and without xfs.
sed -e '/^CONFIG_DM_LOG_WRITES=/d' -e 's/^CONFIG_XFS_FS=.*/# CONFIG_XFS_FS is not set/' \
	"$real" >"$T/nolw.config"
"$BO" kernel config --check "$T/nolw.config" --fs xfs >"$T/out" 2>&1
[ $? = 1 ] && grep -q "CONFIG_DM_LOG_WRITES for recording the writes" "$T/out" &&
	grep -q "CONFIG_XFS_FS for the filesystem xfs" "$T/out" && ok ||
	bad "a config without dm-log-writes and xfs: $(cat "$T/out")"
"$BO" kernel config --check "$T/nolw.config" --fs ext4 >"$T/out" 2>&1
[ $? = 1 ] && ! grep -q CONFIG_XFS_FS "$T/out" && ok || bad "xfs asked of an ext4 check"
# A monolithic kernel: a driver that is only a module cannot be loaded.
sed -e 's/^CONFIG_MODULES=y/# CONFIG_MODULES is not set/' "$real" >"$T/mono.config"
"$BO" kernel config --check "$T/mono.config" >"$T/out" 2>&1
[ $? = 1 ] && grep -q "CONFIG_DM_FLAKEY for faults (dm-flakey) (=m, without CONFIG_MODULES)" "$T/out" &&
	ok || bad "=m without CONFIG_MODULES: $(cat "$T/out")"
# The last line of a name wins (a merged fragment appended).
{
	cat "$T/nolw.config"
	echo CONFIG_DM_LOG_WRITES=m
	echo CONFIG_XFS_FS=y
} >"$T/merged.config"
"$BO" kernel config --check "$T/merged.config" --fs xfs >/dev/null 2>&1 && ok ||
	bad "a fragment appended did not count"
# Not a config: named with its line; a NUL; not a file.
printf 'CONFIG_A=y\nCONFIG_B y\n' >"$T/bad.config"
expect 3 "'$T/bad.config' line 2: 'CONFIG_B y' is not CONFIG_NAME=value" -- \
	"$BO" kernel config --check "$T/bad.config"
printf 'CONFIG_A=y\n\033[2J=x\n' >"$T/bad.config"
expect 3 'line 2: '"'"'\x1b[2J=x'"'" -- "$BO" kernel config --check "$T/bad.config"
printf 'CONFIG_A=y\0\n' >"$T/bad.config"
expect 3 "holds a NUL byte" -- "$BO" kernel config --check "$T/bad.config"
expect 3 "$T/none" -- "$BO" kernel config --check "$T/none"
expect 2 "--fs 'zfs'" -- "$BO" kernel config --fs zfs
expect 2 "for 'kernel config'" -- "$BO" kernel list --fs xfs

# A kernel of one's own: the tree's .config beside its vmlinux (or three levels above its
# bzImage) is judged before the boot; the module directory is not even read (it is empty:
# without the config check, the error would be its missing modules.dep).
mkdir -p "$T/tree/arch/x86/boot" "$T/mods/6.99.0"
head -c 4096 /dev/zero >"$T/tree/vmlinux"
cp "$T/tree/vmlinux" "$T/tree/arch/x86/boot/bzImage"
cp "$T/nolw.config" "$T/tree/.config"
for img in "$T/tree/vmlinux" "$T/tree/arch/x86/boot/bzImage"; do
	expect 3 "kernel 6.99.0: kernel config '$T/tree/.config' lacks" "CONFIG_DM_LOG_WRITES" -- \
		"$BO" vm info --kernel "$img" --modules "$T/mods/6.99.0"
	! grep -q "modules.dep" "$T/err" && ok || bad "the module directory was read first"
done
# run refuses before it makes a results directory; the scenario's xfs is asked for.
cp "$(dirname "$0")/../../scenarios/xfs-bounded-exchange-fsync.ini" "$T/x.ini"
expect 3 "lacks 2 options blackout needs: CONFIG_DM_LOG_WRITES, CONFIG_XFS_FS;" -- \
	"$BO" run "$T/x.ini" --kernel "$T/tree/vmlinux" --modules "$T/mods/6.99.0" --results "$T/res"
[ ! -e "$T/res" ] || [ -z "$(ls -A "$T/res")" ] && ok || bad "run left $(ls "$T/res")"

# The same tree booted as it is (--kernel-tree): its .config judged before any boot.
mkdir -p "$T/tree/include/config"
echo 6.99.0 >"$T/tree/include/config/kernel.release"
expect 3 "kernel 6.99.0: kernel config '$T/tree/.config' lacks" "CONFIG_DM_LOG_WRITES" -- \
	"$BO" vm info --kernel-tree "$T/tree"
expect 3 "lacks 2 options blackout needs: CONFIG_DM_LOG_WRITES, CONFIG_XFS_FS;" -- \
	"$BO" run "$T/x.ini" --kernel-tree "$T/tree" --results "$T/res"
[ ! -e "$T/res" ] || [ -z "$(ls -A "$T/res")" ] && ok || bad "run left $(ls "$T/res")"
# ... a tree not built, and one kernel only.
mkdir -p "$T/bare"
expect 3 "kernel tree '$T/bare' has no .config" -- "$BO" vm info --kernel-tree "$T/bare"
expect 3 "one kernel:" -- "$BO" vm info --kernel-tree "$T/tree" --kernel-release 6.1
# An image alone is a kernel with everything built in: one whose config has modules is
# refused, naming what to give instead.
expect 3 "was built with CONFIG_MODULES" "--kernel-tree" -- \
	"$BO" vm info --kernel "$T/tree/vmlinux"
finish

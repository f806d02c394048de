#!/usr/bin/env bash
# tests/vm/families_slice.sh BLACKOUT — the regular suite's short slice of tests/vm/families.sh
# on the filesystems beyond the first five (harness/dev/fstab.c) and on btrfs raid1 over two
# devices (scenarios/btrfs-raid1-fsops.ini): on each, fsops with every op
# family it has, 30 ops, its planted-bug twin flagged lost-ack and its correct form consistent
# (or losing only what Debian's kernel is known to lose there, each loss one the lint flags).
# The whole of each, 120 and 80 ops, is vm_long_FS_families (vm_long_btrfs_raid1_families).
BO=${1:?usage: families_slice.sh BLACKOUT}
status=0
for fs in f2fs nilfs2 exfat jfs udf btrfs-raid1; do
	echo "== $fs"
	SLICE=30 "$(dirname "$0")/families.sh" "$BO" "$fs"
	rc=$?
	# 77: no VM here (families.sh said so); any other failure is this test's
	[ "$rc" = 77 ] && exit 77
	[ "$rc" = 0 ] || status=1
done
exit $status

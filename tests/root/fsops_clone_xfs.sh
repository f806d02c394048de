#!/bin/sh
# fsops_clone_xfs.sh FSOPS: fsops_families.py's clone cases (clone, clone-range) in a
# loop-mounted xfs made with reflink, so that the planted loss of a clone is flagged on a host
# whose own filesystems have no reflink (ext4 skips them). Needs root, mkfs.xfs, xfs and
# /dev/loop-control: exit 77 without them. Removes the image, its mount and its loop device.
set -u
fsops=$1
skip() {
	echo "SKIP: fsops_clone_xfs: $*" >&2
	exit 77
}
[ "$(id -u)" = 0 ] || skip "not root"
command -v mkfs.xfs >/dev/null || skip "no mkfs.xfs"
[ -e /dev/loop-control ] || skip "no /dev/loop-control"
grep -qw xfs /proc/filesystems || modprobe xfs 2>/dev/null
grep -qw xfs /proc/filesystems || skip "no xfs in this kernel"
tmp=$(mktemp -d) || exit 1
cleanup() {
	mountpoint -q "$tmp/mnt" && umount "$tmp/mnt"
	rm -rf "$tmp"
}
trap cleanup EXIT
# 300 MiB is the smallest xfs mkfs.xfs makes.
truncate -s 320M "$tmp/img" && mkfs.xfs -q -m reflink=1 "$tmp/img" || {
	echo "fsops_clone_xfs: mkfs.xfs -m reflink=1 failed" >&2
	exit 1
}
mkdir "$tmp/mnt" && mount -o loop "$tmp/img" "$tmp/mnt" && mkdir "$tmp/mnt/families" || {
	echo "fsops_clone_xfs: cannot mount the xfs image" >&2
	exit 1
}
python3 "$(dirname "$0")/../cli/fsops_families.py" "$fsops" "$tmp/mnt/families" \
	clone clone-range >"$tmp/out" 2>&1
r=$?
cat "$tmp/out"
# A SKIP here means the xfs made with reflink lacks it: the control did not run.
if grep -q SKIP "$tmp/out"; then
	echo "fsops_clone_xfs: clone skipped on xfs with reflink=1" >&2
	exit 1
fi
exit $r

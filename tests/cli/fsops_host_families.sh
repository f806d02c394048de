#!/usr/bin/env bash
# tests/cli/fsops_host_families.sh DIR — the fsops op families the filesystem holding DIR has,
# as --families= takes them, for a test that runs the workload there without a VM: all, or
# all but clone where it has no reflink (ext4, or xfs made without it) and but collapse where
# it has no FALLOC_FL_COLLAPSE_RANGE (btrfs). Every other family runs on ext4, xfs and btrfs.
set -u
a=$(mktemp "${1:?usage: fsops_host_families.sh DIR}/.probe-XXXXXX") || exit 2
trap 'rm -f "$a" "$a.clone"' EXIT
families=falloc,direct,dsync,mmap,xattr,rename2,copy,symlink
head -c 8192 /dev/zero >"$a"
cp --reflink=always "$a" "$a.clone" 2>/dev/null && families=$families,clone
fallocate --collapse-range --offset 0 --length 4096 "$a" 2>/dev/null &&
	families=$families,collapse
[ "$families" = falloc,direct,dsync,mmap,xattr,rename2,copy,symlink,clone,collapse ] &&
	families=all
echo "$families"

#!/usr/bin/env bash
# tests/cli/fsops_host_families.sh DIR — the fsops op families the filesystem holding DIR has,
# as --families= takes them, for a test that runs the workload there without a VM: all, or
# all but clone where it has no reflink (ext4, or xfs made without it). Every other family
# runs on ext4, xfs and btrfs.
set -u
a=$(mktemp "${1:?usage: fsops_host_families.sh DIR}/.reflink-XXXXXX") || exit 2
trap 'rm -f "$a" "$a.clone"' EXIT
echo x >"$a"
if cp --reflink=always "$a" "$a.clone" 2>/dev/null; then
	echo all
else
	echo falloc,direct,dsync,mmap,xattr,rename2,copy,symlink
fi

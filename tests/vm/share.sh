#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/share.sh BLACKOUT — 1 GiB written in the guest into the results share arrives
# intact: the guest hashes what it wrote (busybox sha256sum), the host hashes what arrived.
# Every 1 MiB block of the file differs from every other (random 64 MiB, 16 copies each with
# its own header), so a block landing at the wrong offset changes the hash.
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir "$scratch/share"
# shellcheck disable=SC2016 # the guest's shell expands these
vm_run --share "$scratch/share" --memory 3072 --timeout 900 -- sh -c '
	set -e
	head -c 67108864 /dev/urandom >/tmp/chunk
	i=0
	while [ $i -lt 16 ]; do
		printf "%016d" $i | dd of=/tmp/chunk bs=16 count=1 conv=notrunc 2>/dev/null
		dd if=/tmp/chunk of=/tmp/big bs=1M seek=$((i * 64)) conv=notrunc 2>/dev/null
		i=$((i + 1))
	done
	sha256sum /tmp/big | cut -d" " -f1 >/results/big.sha256
	dd if=/tmp/big of=/results/big bs=512k 2>/dev/null
	ls -l /tmp/big
'
cat "$scratch/out" "$scratch/err"
[ "$rc" -eq 0 ] || fail "the guest command exited $rc"
size=$(stat -c %s "$scratch/share/big")
[ "$size" -eq 1073741824 ] || fail "big has $size bytes, not 1 GiB"
guest=$(cat "$scratch/share/big.sha256")
host=$(sha256sum "$scratch/share/big" | cut -d' ' -f1)
echo "guest sha256 $guest"
echo "host  sha256 $host"
[ ${#guest} -eq 64 ] || fail "the guest wrote no hash"
[ "$guest" = "$host" ] || fail "the file changed on its way out"
echo "PASS $name"

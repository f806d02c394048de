#!/bin/sh
# scenarios/bench/scale-workload.sh SEED MIB — the workload of scripts/bench-scale: an
# fsops-style seeded mix of file operations in 8 directories of 64 file names each, every data
# operation fsync'ed, until MIB MiB of file data were written:
#   50% create or rewrite a whole file of 4..128 KiB
#   30% overwrite 4..32 KiB at a block-aligned offset inside a file (created if missing)
#   10% rename a file over another name, 10% unlink one
# Sizes and names come from a linear congruential generator seeded by SEED, and the data is a
# pattern naming the seed and the operation, so one seed performs the same operations. At most
# 512 files of 128 KiB live at once: the filesystem never fills, whatever MIB is.
set -eu
seed=${1:?usage: scale-workload.sh SEED MIB}
mib=${2:?usage: scale-workload.sh SEED MIB}
x=$seed
r=0
rnd() { # r = a number in [0, $1)
	x=$(((x * 1103515245 + 12345) % 2147483648))
	r=$((x / 65536 % $1))
}
write() { # FILE KIB [SEEK-BLOCKS]: write KIB KiB of the op's pattern, then fsync
	if [ $# -eq 3 ]; then
		yes "blackout $seed op $i" | head -c $(($2 * 1024)) |
			dd of="$1" bs=4096 seek="$3" conv=notrunc,fsync 2>/dev/null
	else
		yes "blackout $seed op $i" | head -c $(($2 * 1024)) |
			dd of="$1" bs=4096 conv=fsync 2>/dev/null
	fi
}

for d in 0 1 2 3 4 5 6 7; do mkdir -p "d$d"; done
sync
limit=$((mib * 1024))
done_kib=0
i=0
while [ "$done_kib" -lt "$limit" ]; do
	i=$((i + 1))
	rnd 8
	d=d$r
	rnd 64
	f=$d/f$r
	rnd 10
	if [ "$r" -lt 5 ]; then
		rnd 32
		kib=$(((r + 1) * 4))
		write "$f" "$kib"
	elif [ "$r" -lt 8 ]; then
		rnd 8
		kib=$(((r + 1) * 4))
		rnd 24
		write "$f" "$kib" "$r"
	elif [ "$r" -lt 9 ]; then
		rnd 64
		[ -e "$f" ] && mv -f "$f" "$d/f$r" && sync -f "$d" 2>/dev/null || true
		kib=0
	else
		[ -e "$f" ] && rm -f "$f" && sync -f "$d" 2>/dev/null || true
		kib=0
	fi
	done_kib=$((done_kib + kib))
done
sync
echo "scale-workload: $i operations, $done_kib KiB of file data"

#!/usr/bin/env bash
# What blackout refuses on the machine it runs on (docs/safety.md): device work outside its
# VM without --allow-host, run ids that are patterns or paths, write targets that are not a
# file or one of its own block devices. Nothing here touches a device.
. "$(dirname "$0")/lib.sh"

log=$T/w.log
"$BO" synth --out "$log" --entries 50 --device-size 8388608 --max-write 4 >/dev/null ||
	{ echo "synth failed"; exit 1; }

# dm work only in blackout's VM (this is not one), or with --allow-host.
expect 3 "--allow-host" -- "$BO" __dmtest smoke
expect 3 "--allow-host" -- "$BO" __guest-run --results "$T/r" --scenario x.ini --run-id r1
expect 3 "--allow-host" -- "$BO" __guest-check --results "$T/r" --run-id r1
expect 3 "not a valid run id" -- "$BO" __guest-check --results "$T/r" --run-id '../r1'

# Run ids are names, never patterns or paths.
for id in '*' '../etc' '-x' '.x' 'a/b' 'a b' ''; do
	expect 2 "is not a run id" -- "$BO" cleanup --run "$id"
done
expect 2 "exactly one of" -- "$BO" cleanup
expect 2 "exactly one of" -- "$BO" cleanup --list --run r1
expect 0 -- "$BO" cleanup --list
expect 0 -- "$BO" cleanup --run no-such-run-1 --dry-run

# Write targets: a file is fine; a character device, a directory are refused unwritten; so
# is any block device that is not blackout's (the first one found, if any: never opened).
expect 0 -- "$BO" replay "$log" --onto "$T/ok.img" --to end --size 8388608
expect 3 "'/dev/null' is not a regular file or a block device" -- \
	"$BO" replay "$log" --onto /dev/null --to end
expect 3 "not a regular file" -- "$BO" replay "$log" --onto "$T" --to end
for dev in /dev/loop0 /dev/sda /dev/vda /dev/nvme0n1; do
	[ -b "$dev" ] || continue
	expect 3 "refusing to write to '$dev'" -- "$BO" replay "$log" --onto "$dev" --to end
	break
done
finish

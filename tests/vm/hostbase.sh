#!/usr/bin/env bash
# tests/vm/hostbase.sh BLACKOUT — the host base (harness/replay/basesrv.h): a check whose base image
# the host replays into, mapped into the VM as a virtio-pmem device, gives exactly the states,
# classes and image hashes of the same check replayed inside the guest (--guest-replay), on
# prefix states and on reordered and torn ones; and the host base was really used.
. "$(dirname "$0")/run_lib.sh"
need_vm

# The planted bug, so that classes differ between states; 4096-byte sectors (the snapshot
# device takes them from its CoW loops over the host base's 512-byte ones); 17 MiB, which
# the host base rounds up to 18 and the guest cuts back to size with a linear device.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/bug.ini" ops=14 seed=4 size=17M \
	workload.bug=ack-without-fsync
grep -q "sector_size = 4096" "$T/bug.ini" && ok || bad "the scenario lost its 4096-byte sectors"
run_bo 1 run "$T/bug.ini" --results "$T/results" || { finish; exit 1; }
log=$RESULTS/write.log
sc=$RESULTS/scenario.ini

check() { # NAME ARGS...: one check on one VM, with the host's debug output; sets $RESULTS
	local name=$1
	shift
	BLACKOUT_DEBUG=run "$BO" check "$log" --scenario "$sc" --seed 4 --jobs 1 "$@" \
		--results "$T/$name" >"$T/$name.out" 2>"$T/$name.err"
	local rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/$name.out" "$T/$name.err" | tail -1)
	[ "$rc" -le 1 ] && ok || bad "check $name exited $rc: $(cat "$T/$name.out" "$T/$name.err")"
}
served() { # NAME: how many replays the host base served in check NAME ("" when it had none)
	sed -n 's/.*host base: \([0-9]*\) replays served.*/\1/p' "$T/$1.err"
}

# Prefix states, each image hashed before recovery touches it.
check host --hash --cuts flush
host=$RESULTS
check guest --hash --cuts flush --guest-replay
guest=$RESULTS
states "$host" >"$T/host.txt"
states "$guest" >"$T/guest.txt"
[ "$(grep -c . "$T/host.txt")" -ge 5 ] && ok || bad "too few states: $(cat "$T/host.txt")"
grep -q lost-ack "$T/host.txt" && ok || bad "the positive control was not flagged"
[ "$(awk '$4 != "-"' "$T/host.txt" | sort -u -k4,4 | wc -l)" -ge 3 ] && ok ||
	bad "the image hashes do not tell the states apart: $(cat "$T/host.txt")"
diff -u "$T/guest.txt" "$T/host.txt" >&2 && ok || bad "the host base changed states or images"
# Positive control of the mode: the host served the replays, and --guest-replay had none.
checked=$(grep -c "^state " "$T/host.txt")
[ "$(served host)" = "$checked" ] && ok ||
	bad "the host base served $(served host) replays for $checked states: $(cat "$T/host.err")"
[ -z "$(served guest)" ] && ok || bad "--guest-replay still used a host base"

# Reordered and torn states: the base rolls to each epoch's start, the rest is written on
# the snapshot. The cuts: from the first two plain writes that open an epoch, 8 entries on.
win=$(epoch_window "$log" 8)
[ -n "$win" ] && ok || bad "no epoch opening with two plain writes in $log"
check rhost --reorder 2 --torn --cuts "$win"
states "$RESULTS" >"$T/rhost.txt"
check rguest --reorder 2 --torn --cuts "$win" --guest-replay
states "$RESULTS" >"$T/rguest.txt"
grep -q -- "-d" "$T/rhost.txt" && ok || bad "no reordered state: $(cat "$T/rhost.txt")"
diff -u "$T/rguest.txt" "$T/rhost.txt" >&2 && ok || bad "the host base changed generated states"
[ "$(served rhost)" -ge 1 ] 2>/dev/null && ok || bad "the host base served no replay: $(cat "$T/rhost.err")"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/guest/own.sh BLACKOUT — the guest half of tests/vm/own.sh (busybox sh, in the VM).
set -u
B=$1
fail=0
bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}
sum() { sha256sum "$1" | cut -d' ' -f1; }
# The loop devices bound to a file inside /run/blackout-$1/, from sysfs.
loops_of() {
	for f in /sys/block/loop*/loop/backing_file; do
		[ -e "$f" ] || continue
		case $(cat "$f") in "/run/blackout-$1/"*) echo "$f" ;; esac
	done
}

"$B" synth --out /tmp/s.log --entries 100 --device-size 8388608 --max-write 4 >/dev/null ||
	{ echo "synth failed"; exit 3; }

# Devices blackout did not make: a loop over a file outside every run's directory, the same
# device through a symlink and through a second node, a RAM disk and a virtio disk if any.
dd if=/dev/urandom of=/tmp/foreign.img bs=1M count=8 2>/dev/null
foreign=$(losetup -f)
losetup "$foreign" /tmp/foreign.img || { echo "losetup failed"; exit 3; }
ln -s "$foreign" /tmp/alias
majmin=$(cat "/sys/block/${foreign#/dev/}/dev")
mknod /tmp/node b "${majmin%:*}" "${majmin#*:}"
targets="$foreign /tmp/alias /tmp/node"
[ -b /dev/ram0 ] || modprobe brd rd_nr=1 rd_size=8192 2>/dev/null
[ -b /dev/ram0 ] && targets="$targets /dev/ram0"
[ -b /dev/vda ] && targets="$targets /dev/vda"
for t in $targets; do
	before=$(sum "$t")
	"$B" replay /tmp/s.log --onto "$t" --to end >/tmp/o 2>&1
	rc=$?
	after=$(sum "$t")
	[ "$rc" = 3 ] || bad "replay onto $t exited $rc, not 3"
	# A symlink is never written through, whatever it leads to.
	if [ -L "$t" ]; then
		grep -q "'$t' is a symlink: refusing to write through it" /tmp/o ||
			bad "replay onto $t: $(cat /tmp/o)"
	else
		grep -q "refusing to write to '$t'" /tmp/o || bad "replay onto $t: $(cat /tmp/o)"
	fi
	[ "$before" = "$after" ] || bad "$t changed: $before -> $after"
	echo "$t: refused ($(cut -c1-160 /tmp/o)); sha256 ${before%"${before#????????????}"}... unchanged"
done
# A character device is no target either.
"$B" replay /tmp/s.log --onto /dev/zero --to end >/tmp/o 2>&1
[ $? = 3 ] && grep -q "not a regular file or a block device" /tmp/o || bad "/dev/zero: $(cat /tmp/o)"

# Positive control: a loop over a file inside a run's work directory is blackout's, and the
# same replay does write it (so the sha256 comparison above can see a write).
run=owntest-1
mkdir "/run/blackout-$run"
dd if=/dev/zero of="/run/blackout-$run/own.img" bs=1M count=8 2>/dev/null
own=$(losetup -f)
losetup "$own" "/run/blackout-$run/own.img" || { echo "losetup failed"; exit 3; }
before=$(sum "$own")
"$B" replay /tmp/s.log --onto "$own" --to end >/tmp/o 2>&1 || bad "replay onto own $own: $(cat /tmp/o)"
[ "$before" != "$(sum "$own")" ] || bad "replay onto own $own wrote nothing"

# cleanup --list shows the run and touches nothing; cleanup --run removes exactly it.
"$B" cleanup --list >/tmp/o 2>&1 || bad "cleanup --list: $(cat /tmp/o)"
grep -q "run $run:" /tmp/o && grep -q "loop $own" /tmp/o || bad "cleanup --list: $(cat /tmp/o)"
[ -n "$(loops_of $run)" ] || bad "cleanup --list detached $own"
"$B" cleanup --list --json >/tmp/o 2>&1 || bad "cleanup --list --json: $(cat /tmp/o)"
grep -q '"format":1' /tmp/o && grep -q "\"run\":\"$run\"" /tmp/o && grep -q "\"$own\"" /tmp/o ||
	bad "cleanup --list --json: $(cat /tmp/o)"
"$B" cleanup --run '*' >/tmp/o 2>&1
[ $? = 2 ] || bad "cleanup --run '*' was not refused: $(cat /tmp/o)"
"$B" cleanup --run "$run" >/tmp/o 2>&1 || bad "cleanup --run $run: $(cat /tmp/o)"
cat /tmp/o
grep -q "detached loop $own" /tmp/o || bad "cleanup did not report $own"
[ -z "$(loops_of $run)" ] || bad "a loop of $run is left"
[ ! -e "/run/blackout-$run" ] || bad "/run/blackout-$run is left"
# ... and nobody else's.
[ "$(cat "/sys/block/${foreign#/dev/}/loop/backing_file")" = /tmp/foreign.img ] ||
	bad "cleanup touched $foreign"
losetup -d "$foreign"
echo "own: $fail failed"
[ "$fail" = 0 ]

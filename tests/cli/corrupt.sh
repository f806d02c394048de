#!/usr/bin/env bash
# `blackout inspect` and `blackout replay` reject every corruption class with a message naming
# the entry and the byte offset, exit 3, and never write the replay target. And every command
# reads its options the same way: --help exits 0, an unknown option is a usage error.
. "$(dirname "$0")/lib.sh"

good=$T/good.log
"$BO" synth --out "$good" --entries 200 --sectorsize 512 --device-size 1048576 \
	--max-write 8 >/dev/null || { echo "synth failed"; exit 1; }
expect 0 -- "$BO" inspect "$good"

# Layout of the synthetic log: super at 0, entry 0 (mark "mkfs") at 512, entry 1 at 1024.
e1=1024

# case NAME PATCH... -- NEEDLES...: copy the good log, patch it, expect both commands to fail.
check() {
	local name=$1 log=$T/$1.log needles=()
	shift
	cp "$good" "$log"
	while [ "$1" != "--" ]; do
		"$1" "$log" "$2" "$3"
		shift 3
	done
	shift
	needles=("$@")
	expect 3 "${needles[@]}" -- "$BO" inspect "$log"
	expect 3 "${needles[@]}" -- "$BO" inspect --json "$log"
	expect 3 "${needles[@]}" -- "$BO" replay "$log" --onto "$T/$name.img" --to end
	[ -e "$T/$name.img" ] && bad "$name: replay created its target from a corrupt log" || ok
}

check magic put_u64 0 42 -- "bad magic" "offset 0"
check version put_u64 8 7 -- "unknown version 7" "offset 8"
check sectorsize put_u32 24 1000 -- "sectorsize 1000" "offset 24"
check sectorsize-small put_u32 24 256 -- "sectorsize 256" "offset 24"
check count put_u64 16 100000 -- "past end of log" "claims 100000 entries"
check mark-long put_u64 $((512 + 24)) 480 -- "entry 0 at offset 512" "data_len 480"
check overflow put_u64 $((e1 + 8)) 36028797018963968 -- "entry 1 at offset 1024" "overflows"
check data-past-end put_u64 $((e1 + 8)) 1099511627776 -- "entry 1 at offset 1024" \
	"data runs past end of log"
check flags put_u64 $((e1 + 16)) 256 -- "entry 1 at offset 1024" "unknown flags 0x100"
# The same damage under --salvage: the super block vouches for entry 1, so it is still the
# error, not a log of one entry and "0 findings".
for cmd in inspect lint; do
	expect 3 "entry 1 at offset 1024" "unknown flags 0x100" -- "$BO" $cmd --salvage "$T/flags.log"
done
expect 3 "entry 1 at offset 1024" "unknown flags 0x100" -- \
	"$BO" replay --salvage "$T/flags.log" --onto "$T/flags-salvage.img" --to end
[ -e "$T/flags-salvage.img" ] && bad "replay --salvage wrote from a damaged log" || ok

# Truncation inside the data of the last entry.
cp "$good" "$T/trunc.log"
truncate -s -100 "$T/trunc.log"
expect 3 "data runs past end of log" "offset" -- "$BO" inspect "$T/trunc.log"
# ... which --salvage reads up to the last whole entry, saying what is missing.
expect 0 "the log ends inside entry 199 at offset" "claims: 199 read" -- \
	"$BO" inspect --salvage "$T/trunc.log"

expect 3 "not a regular file or block device" -- "$BO" inspect "$T"
expect 3 "No such file" -- "$BO" inspect "$T/missing.log"
expect 2 "expected exactly one LOG" -- "$BO" inspect
expect 2 "--entries" -- "$BO" inspect --entries x-y "$good"
expect 2 "--entries '9-3': the range is backwards" -- "$BO" inspect --entries 9-3 "$good"
# Entries past the end: said, not an empty listing with status 0.
expect 2 "--entries '500-600'" "has 200 entries" -- "$BO" inspect --entries 500-600 "$good"
expect 2 "--entries 0: at least 1" -- "$BO" synth --out "$T/zero.log" --entries 0
[ ! -e "$T/zero.log" ] && ok || bad "synth --entries 0 wrote a log"
"$BO" synth --out "$T/one.log" --entries 1 | grep -qx "wrote '$T/one.log': 1 entry" && ok ||
	bad "synth --entries 1 does not say '1 entry'"
[ "$("$BO" inspect "$T/one.log" | sed -n 's/^entries: *//p')" = 1 ] && ok ||
	bad "synth --entries 1 did not write 1 entry"
expect 2 "--onto and --to are required" -- "$BO" replay "$good"
expect 2 "unknown command" -- "$BO" frobnicate

# The options of every command go through its table (harness/cli/opts.h): --help prints the
# usage and exits 0, an option it does not have is a usage error naming the command, exit 2.
for c in cache cleanup ctl explain findings inspect "kernel list" lint merge nightly replay \
	report synth "vm run" "vm info" __dmtest check run reproduce shrink; do
	expect 0 -- "$BO" $c --help
	grep -q "^usage: blackout ${c%% *}" "$T/out" && ok || bad "'$c --help' prints no usage"
	expect 2 "blackout ${c%% *}: usage error" -- "$BO" $c --no-such-option
done
# ctl and vm end their options at the first operand: what follows is the operand's own (a
# mark's name, vm run's command), not an option of theirs.
expect 3 "BLACKOUT_CTL" -- env -u BLACKOUT_CTL "$BO" ctl mark --no-such-option
expect 2 "usage error" -- env -u BLACKOUT_CTL "$BO" ctl --no-such-option mark x
expect 2 "'vm shell' takes no command" -- "$BO" vm shell sh --no-such-option
expect 2 "'vm info' takes no command" -- "$BO" vm info x --no-such-option
finish

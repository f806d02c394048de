#!/usr/bin/env bash
# `blackout replay`: cut kinds, resume equals one-shot, a missing mark is an error that writes
# nothing, and going backwards is refused.
. "$(dirname "$0")/lib.sh"

log=$T/w.log
"$BO" synth --out "$log" --entries 3000 --sectorsize 4096 --device-size 16777216 \
	--max-write 16 --seed 7 >/dev/null || { echo "synth failed"; exit 1; }
sum() { sha256sum "$1" | cut -d' ' -f1; }

expect 0 -- "$BO" replay "$log" --onto "$T/one.img" --to entry:2500 --size 16777216
expect 0 -- "$BO" replay "$log" --onto "$T/two.img" --to entry:1000 --size 16777216
expect 0 -- "$BO" replay "$log" --onto "$T/two.img" --from entry:1000 --to entry:2500
[ "$(sum "$T/one.img")" = "$(sum "$T/two.img")" ] && ok || bad "resumed replay differs"

# Three-step resume through a mark and a flush cut.
m=$("$BO" inspect --json "$log" | python3 -c 'import json,sys; print(json.load(sys.stdin)["marks"][5]["name"])')
expect 0 -- "$BO" replay "$log" --onto "$T/three.img" --to "mark:$m" --size 16777216
expect 0 -- "$BO" replay "$log" --onto "$T/three.img" --from "mark:$m" --to flush:40
expect 0 -- "$BO" replay "$log" --onto "$T/three.img" --from flush:40 --to end
expect 0 -- "$BO" replay "$log" --onto "$T/end.img" --to end --size 16777216
[ "$(sum "$T/three.img")" = "$(sum "$T/end.img")" ] && ok || bad "three-step replay differs"
[ "$(sum "$T/one.img")" != "$(sum "$T/end.img")" ] && ok || bad "different cuts gave equal images"

expect 3 "mark 'no-such' is not in log" -- "$BO" replay "$log" --onto "$T/x.img" --to mark:no-such
[ -e "$T/x.img" ] && bad "missing mark created the target" || ok
expect 3 "is before --from" -- "$BO" replay "$log" --onto "$T/y.img" --from entry:10 --to entry:5
expect 3 "past the end" -- "$BO" replay "$log" --onto "$T/y.img" --to entry:999999
expect 3 "only" "FLUSH" -- "$BO" replay "$log" --onto "$T/y.img" --to flush:99999
finish

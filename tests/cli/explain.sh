#!/usr/bin/env bash
# blackout explain, reproduce, shrink and nightly on crafted input, without a VM: the diary of
# a failing state from a results directory (symptom, lost ops with their marks, flush before
# the cut, kernel messages, next command), and clear errors naming the file and line for
# partial or corrupt results and bad matrices.
. "$(dirname "$0")/lib.sh"

R=$T/run
mkdir -p "$R/states/c45"
"$BO" synth --out "$R/write.log" --entries 120 --max-write 2 >/dev/null || bad "synth"
cat >"$R/summary.json" <<'JSON'
{ "verdict": "failed", "exit_status": 1, "states_checked": 2, "states_aliased": 0,
  "counts": { "consistent": 1, "unmountable": 0, "fsck-dirty": 0, "lost-ack": 1, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "first_state": { "lost-ack": "c45" },
  "seconds_total": 1.0, "seconds_checking": 1.0 }
JSON
cat >"$R/stream.jsonl" <<'JSON'
{"seq":0,"time":"2026-01-01T00:00:00.000Z","event":"stack","device":"/dev/mapper/x"}
{"seq":1,"time":"2026-01-01T00:00:01.000Z","event":"state","state":"c30","cut":31,"class":"consistent","mounted":true,"fsck":"clean"}
{"seq":2,"time":"2026-01-01T00:00:02.000Z","event":"state","state":"c45","cut":46,"class":"lost-ack","mounted":true,"fsck":"clean","checker":"exited with status 0","checker_left":"1 process, killed: postgres -D /blackout/mnt/pgdata (pid 412)","lost":[2,3]}
{"seq":3,"time":"2026-01-01T00:00:03.000Z","event":"alias","state":"c46","cut":47,"alias_of":"c45","class":"lost-ack"}
{"seq":4,"time":"2026-01-01T00:00:04.000Z","event":"end"}
JSON
printf 'EXT4-fs (dm-3): recovery complete\n' >"$R/states/c45/dmesg.txt"
printf 'e2fsck 1.47.0\nclean\n' >"$R/states/c45/fsck.out"
: >"$R/states/c45/mount.err"

# The marks of ops 2 and 3, and the last flush before cut 46, as inspect sees them.
read -r i2 a2 flush < <("$BO" inspect "$R/write.log" --json --entries 0-45 | python3 -c '
import json, sys
j = json.load(sys.stdin)
m = {x["name"]: x["entry"] for x in j["marks"]}
print(m["issue:2"], m["ack:2"], "")')

"$BO" explain "$R" >"$T/out" 2>"$T/err" && ok || bad "explain exited $?: $(cat "$T/err")"
grep -q "symptom: state c45 (cut after 46 entries) is lost-ack" "$T/out" && ok ||
	bad "no symptom: $(cat "$T/out")"
# What the checker left running, ended with it, is said with the state.
grep -q "the checker left 1 process, killed: postgres -D /blackout/mnt/pgdata (pid 412)" \
	"$T/out" && ok || bad "explain does not say what the checker left: $(cat "$T/out")"
grep -q "op 2: issued at entry $i2, acked at entry $a2" "$T/out" && ok ||
	bad "op 2 without its marks ($i2, $a2): $(cat "$T/out")"
grep -q "last flush before the cut: entry [0-9]" "$T/out" && ok || bad "no flush before the cut"
grep -q "EXT4-fs (dm-3): recovery complete" "$T/out" && ok || bad "no kernel messages"
grep -q "blackout reproduce $R c45" "$T/out" && ok || bad "no next command"
# The flush it names is one: the last FLUSH entry at or before entry 45.
want=$(python3 - "$R/write.log" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb"); ss = 4096
magic, ver, n, ss = struct.unpack("<QQQI", f.read(28))
off, last = ss, None
for i in range(n):
    f.seek(off); sector, nr, flags, dlen = struct.unpack("<QQQQ", f.read(32))
    if i <= 45 and flags & 1: last = i
    off += ss + (0 if flags & 8 else nr * ss) if not flags & 4 else ss
print(last)
PY
)
grep -q "last flush before the cut: entry $want;" "$T/out" && ok ||
	bad "flush: expected entry $want: $(grep flush "$T/out")"

"$BO" explain "$R" c45 --json >"$T/out" 2>"$T/err" && ok || bad "explain --json: $(cat "$T/err")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]));
assert j["state"]["class"] == "lost-ack"
assert [o["op"] for o in j["evidence"]["lost"]] == [2, 3]
assert "ack_entry" in j["evidence"]["lost"][0]' "$T/out" && ok || bad "explain --json content"
# A consistent state explains too (its record, no evidence of failure).
"$BO" explain "$R" c30 >"$T/out" 2>&1 && grep -q "is consistent" "$T/out" && ok ||
	bad "explain of a consistent state"

# An alias stands for the state it repeats.
"$BO" explain "$R" c46 >"$T/out" 2>"$T/err" && grep -q "symptom: state c45" "$T/out" &&
	grep -q "alias of c45" "$T/err" && ok || bad "explain of an alias: $(cat "$T/out" "$T/err")"

# Partial and corrupt results: clear errors naming the file (and line).
expect 3 "no record of state 'c99'" -- "$BO" explain "$R" c99
cp -a "$R" "$T/torn"
printf '{"seq":4,"event":"sta' >>"$T/torn/stream.jsonl"
"$BO" explain "$T/torn" >/dev/null 2>&1 && ok || bad "a torn last record is not tolerated"
sed -i '2s/.*/garbage/' "$T/torn/stream.jsonl"
expect 3 "stream.jsonl:2: not JSON" -- "$BO" explain "$T/torn"
printf '{"verdict": ' >"$T/torn/summary.json"
expect 3 "summary.json:1: not JSON" -- "$BO" explain "$T/torn"
# One line: json-c's own message ends with a newline, which is not passed on.
[ "$(wc -l <"$T/err")" = 1 ] && ok || bad "explain's error is not one line: $(cat -A "$T/err")"
rm "$T/torn/summary.json"
expect 3 "summary.json" "No such file" -- "$BO" explain "$T/torn"
expect 3 "is not a results directory" -- "$BO" explain "$T/none"
expect 2 "expected RESULTS" -- "$BO" explain
head -c 5000 "$R/write.log" >"$T/short.log"
cp -a "$R" "$T/badlog" && cp "$T/short.log" "$T/badlog/write.log"
expect 3 "write.log" -- "$BO" explain "$T/badlog"

# reproduce, shrink and nightly refuse bad input before booting anything.
expect 3 "no record of state 'c99'" -- "$BO" reproduce "$R" c99
expect 3 "neither a check's config.json nor scenario.ini" -- "$BO" reproduce "$R" c45
expect 3 "has no scenario.ini" -- "$BO" shrink "$R"
expect 2 "expected RESULTS STATE" -- "$BO" reproduce "$R"
# The matrix's scenarios are read with it: a.ini is one that loads.
cp "$(dirname "$0")/../../scenarios/ext4-fsops.ini" "$T/a.ini"
printf '[matrix]\nscenario = a.ini\nmount_options = no atime\n' >"$T/m.ini"
expect 3 "m.ini:3: [matrix] mount_options" -- "$BO" nightly "$T/m.ini" --out "$T/n"
printf '[matrix]\nfs = ext4\n' >"$T/m.ini"
expect 3 "needs at least one 'scenario'" -- "$BO" nightly "$T/m.ini" --out "$T/n"
# What a lenient INI reader takes as a continuation of the line above (a second filesystem
# here) is an error naming the line; nothing is made.
printf '[matrix]\nscenario = a.ini\nfs = ext4\n    btrfs\n' >"$T/m.ini"
expect 3 "m.ini:4: syntax error" -- "$BO" nightly "$T/m.ini" --out "$T/n"
[ ! -e "$T/n" ] && ok || bad "a bad matrix left a tree behind"
printf '[matrix]\nscenario = missing.ini\n' >"$T/m.ini"
expect 3 "missing.ini" -- "$BO" nightly "$T/m.ini" --out "$T/n"
printf '{"runs":[{"scenario":"a"}]}' >"$T/base.json"
printf '[matrix]\nscenario = a.ini\n' >"$T/m.ini"
expect 3 "base.json: runs[0]" -- "$BO" nightly "$T/m.ini" --out "$T/n2" --baseline "$T/base.json"
[ ! -e "$T/n2" ] && ok || bad "a bad baseline left a tree behind"
finish

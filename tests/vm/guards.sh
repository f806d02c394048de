#!/usr/bin/env bash
# tests/vm/guards.sh BLACKOUT — vacuous-pass guards and the saved log as the artifact:
#  - a log device too small trips the logging_disabled guard (exit 3, never a pass);
#  - a state re-checked from write.log has exactly the image `blackout replay` makes;
#  - a mark removed from a saved log makes a mark: cut an error, and `check` refuses to guess
#    where the filesystem begins;
#  - a state whose checker writes more than the CoW store of a state holds (32 MiB at first on
#    a bigger device) is checked again on one as big as the device, and is consistent; the
#    stores then grow, so that the next states that write as much are checked once.
. "$(dirname "$0")/run_lib.sh"
need_vm

scenario "$SRC/scenarios/ext4-fsops.ini" "$T/tiny.ini" ops=20 run.log_size=1M
if run_bo 3 run "$T/tiny.ini" --results "$T/results"; then
	grep -q logging_disabled "$RESULTS/summary.json" && ok ||
		bad "tiny log: summary does not name logging_disabled: $(cat "$RESULTS/summary.json")"
	[ "$(json "$RESULTS/summary.json" 'j["verdict"]')" = error ] && ok || bad "tiny log: verdict"
fi

scenario "$SRC/scenarios/ext4-fsops.ini" "$T/small.ini" ops=12 seed=5
run_bo 0 run "$T/small.ini" --results "$T/results" || { finish; exit 1; }
run=$RESULTS
log=$run/write.log
size=$(json "$run/config.json" 'j["device"]["size"]')
state=$(python3 -c 'import json,sys
st=[json.loads(l) for l in open(sys.argv[1]) if "\"event\":\"state\"" in l]
print(st[len(st)//2]["state"])' "$run/stream.jsonl")

# The checked image equals a plain replay of write.log to the same cut.
if run_bo 0 check "$log" --scenario "$run/scenario.ini" --seed 5 --state "$state" --hash \
	--results "$T/results"; then
	want=$(python3 -c 'import json,sys
print([json.loads(l) for l in open(sys.argv[1]) if "image_sha256" in l][0]["image_sha256"])' \
		"$RESULTS/stream.jsonl")
	"$BO" replay "$log" --onto "$T/img" --to "entry:${state#c}" --size "$size" >/dev/null &&
		ok || bad "replay to $state failed"
	got=$(sha256sum "$T/img" | cut -d' ' -f1)
	[ "$want" = "$got" ] && ok || bad "state $state: checked image $want, replayed image $got"
fi

# Remove the mkfs mark (rename it) from a copy of the log.
off=$("$BO" inspect --json --entries 0- "$log" | python3 -c 'import json,sys
j=json.load(sys.stdin); m=[m for m in j["marks"] if m["name"]=="mkfs"][0]
print(j["entry_list"][m["entry"]]["offset"])')
cp "$log" "$T/nomark.log"
printf 'mkfz' | dd of="$T/nomark.log" bs=1 seek=$((off + 32)) conv=notrunc status=none
"$BO" replay "$T/nomark.log" --onto "$T/x.img" --to mark:mkfs >"$T/out" 2>&1
[ $? -eq 3 ] && grep -q "mark 'mkfs' is not in log" "$T/out" && ok ||
	bad "replay to a removed mark: $(cat "$T/out")"
[ -e "$T/x.img" ] && bad "replay to a removed mark wrote its target" || ok
# check judges it on the host, as an option missing (--from): exit 2, nothing made.
if run_bo 2 check "$T/nomark.log" --fs ext4 --results "$T/nomark-results"; then
	grep -q "has no 'mkfs' mark: say from which cut .* --from" "$T/err" && ok ||
		bad "check of a log without mkfs mark: $(cat "$T/err")"
	[ ! -e "$T/nomark-results" ] && ok || bad "the refused check made '$T/nomark-results'"
fi

# The CoW store: a checker filling 300 MiB of a 512 MiB ext4 overflows the first one, and the
# state is checked again; the control fills 8 MiB and is checked once. The state is the fresh
# filesystem (the mkfs mark: no op issued yet), so "done" alone is the right answer.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/big.ini" ops=4 seed=5 size=512M
if run_bo 0 run "$T/big.ini" --results "$T/results"; then
	big=$RESULTS
	mk=$("$BO" inspect --json "$big/write.log" | python3 -c 'import json,sys
print([m for m in json.load(sys.stdin)["marks"] if m["name"]=="mkfs"][0]["entry"])')
	for mib in 300 8; do
		if run_bo 0 check "$big/write.log" --scenario "$big/scenario.ini" --state "c$mk" \
			--checker "dd if=/dev/zero of=fill bs=1M count=$mib 2>/dev/null; sync; rm -f fill; echo done" \
			--results "$T/results"; then
			retry=$(python3 -c 'import json,sys
s=[json.loads(l) for l in open(sys.argv[1]) if "\"event\":\"state\"" in l]
print(len(s), s[0]["class"], s[0].get("cow_retry", False))' "$RESULTS/stream.jsonl")
			want="1 consistent $([ "$mib" = 300 ] && echo True || echo False)"
			[ "$retry" = "$want" ] && ok || bad "checker filling $mib MiB: got '$retry', want '$want'"
		fi
	done
	# Every state of the run with a checker filling 40 MiB, in one VM: the first overflows
	# the 32 MiB store and is checked again; the stores grow to 128 MiB, and no later state
	# is. "done" alone misses the ops acked before the later cuts: exit 1 is fine here, a
	# harness error is not.
	"$BO" check "$big/write.log" --scenario "$big/scenario.ini" --cuts flush/4 --jobs 1 \
		--checker "dd if=/dev/zero of=fill bs=1M count=40 2>/dev/null; sync; rm -f fill; echo done" \
		--results "$T/results" >"$T/out" 2>"$T/err"
	st=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	if [ "$st" -le 1 ] && [ -n "$RESULTS" ]; then
		retries=$(python3 -c 'import json,sys
s=[json.loads(l) for l in open(sys.argv[1]) if "\"event\":\"state\"" in l]
s.sort(key=lambda r: r["cut"])
print(" ".join(str(r.get("cow_retry", False)) for r in s))' "$RESULTS/stream.jsonl")
		case "$retries" in
		"True False"*) ok ;;
		*) bad "states filling 40 MiB each: cow_retry in cut order '$retries'," \
			"want True for the first only, and more than one state" ;;
		esac
		case "$retries" in *"True"*"True"*) bad "a state after the first was checked again: '$retries'" ;; *) ok ;; esac
	else
		bad "check with a 40 MiB checker exited $st: $(cat "$T/err")"
	fi
fi

# A log with no entries could not have failed: an error, never a pass, judged on the host
# before a results directory exists.
python3 -c 'import struct,sys
open(sys.argv[1],"wb").write(struct.pack("<QQQI", 0x6a736677736872, 1, 0, 4096).ljust(4096, b"\0"))' \
	"$T/empty.log"
if run_bo 3 check "$T/empty.log" --fs ext4 --from start --size 268435456 \
	--results "$T/empty-results"; then
	grep -q "has no entries" "$T/err" && ok || bad "empty log: $(cat "$T/err")"
	[ ! -e "$T/empty-results" ] && ok || bad "the refused empty log made '$T/empty-results'"
fi
finish

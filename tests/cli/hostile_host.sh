#!/usr/bin/env bash
# tests/cli/hostile_host.sh BLACKOUT — what the host can judge before a boot (docs/safety.md,
# "Inputs from strangers"): the options and files of vm run, check, run, reproduce, shrink and
# nightly, replay's target, synth's numbers. Each block names the defect of issue 43 it
# reproduces. No VM is booted: a command that would boot one is given a kernel that does not
# exist, so that one that did not refuse fails at the boot ("booting"), not in a VM; a
# refusal leaves no results directory (or --out, or console log) behind.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

to() { timeout 20 "$@"; }
NOK=(--kernel /nonexistent/vmlinuz --modules /nonexistent)
booted() { grep -q "booting" "$T/err"; }
# nothing_in DIR WHAT: DIR is empty (or absent), and nothing said "booting".
nothing_in() {
	booted && bad "$2 said booting" || ok
	[ -z "$(ls -A "$1" 2>/dev/null)" ] && ok || bad "$2 left $(ls "$1")"
}

"$BO" synth --out "$T/g.log" --entries 120 --max-write 2 >/dev/null || bad "synth"

### 22: synth's numbers are range-checked, usage errors (exit 2), never truncated to a
### narrower type; so are check --shard's and replay --size's.
for a in "--max-write 4294967296" "--max-write 0" "--device-size 100" \
	"--sectorsize 4294971392" "--sectorsize 1000" "--sectorsize 256" \
	"--flush-every 4294967297" "--mark-every 4294967306" "--entries 18446744073709551616"; do
	rm -f "$T/s22.log"
	# shellcheck disable=SC2086
	expect 2 "${a%% *}" -- to "$BO" synth --out "$T/s22.log" $a
	[ -e "$T/s22.log" ] && bad "22: synth $a wrote a log" || ok
done
expect 2 "--shard '4294967296/4294967297'" -- to "$BO" check "$T/g.log" --fs ext4 \
	--shard 4294967296/4294967297 --results "$T/r22" "${NOK[@]}"
nothing_in "$T/r22" "22: check --shard 2^32/2^32+1"
expect 2 "--size" -- to "$BO" replay "$T/g.log" --onto "$T/r22.img" --to end \
	--size 9223372036854775808
[ -e "$T/r22.img" ] && bad "22: a refused replay left its target" || ok
# The positive control: the largest values in range are taken as given.
expect 0 -- to "$BO" synth --out "$T/s22.log" --entries 3 --sectorsize 512 --max-write 131072 \
	--device-size 67108864 --flush-every 4294967295 --mark-every 4294967295
"$BO" inspect "$T/s22.log" | grep -q "512-byte blocks" && ok ||
	bad "22: synth --sectorsize 512 wrote $("$BO" inspect "$T/s22.log" | head -3)"

### 14: replay --onto a symlink writes nothing through it (a dangling one creates no file
### elsewhere), as synth --out; the target is judged on the descriptor it is written through.
echo "the user's file" >"$T/mine14"
sum14=$(sha256sum <"$T/mine14")
ln -s "$T/mine14" "$T/link14"
ln -s "$T/elsewhere14" "$T/dangling14"
for t in link14 dangling14; do
	expect 3 "'$T/$t' is a symlink" -- to "$BO" replay "$T/g.log" --onto "$T/$t" --to end
	[ -L "$T/$t" ] && ok || bad "14: replay replaced the symlink $t"
	expect 3 "symlink" -- to "$BO" synth --out "$T/$t" --entries 3
done
[ "$(sha256sum <"$T/mine14")" = "$sum14" ] && ok || bad "14: replay wrote through a symlink"
[ -e "$T/elsewhere14" ] && bad "14: a dangling symlink made '$T/elsewhere14'" || ok
# The log through a symlink to it, or a hard link: the log itself, refused and unchanged.
sum14=$(sha256sum <"$T/g.log")
ln -s "$T/g.log" "$T/loglink14"
ln "$T/g.log" "$T/hard14"
expect 3 "symlink" -- to "$BO" replay "$T/g.log" --onto "$T/loglink14" --to end
expect 3 "the log itself" -- to "$BO" replay "$T/g.log" --onto "$T/hard14" --to end
[ "$(sha256sum <"$T/g.log")" = "$sum14" ] && ok || bad "14: replay changed its own log"
# A FIFO is refused unopened (no hang), a directory too.
mkfifo "$T/fifo14"
expect 3 "'$T/fifo14' is not a regular file" -- to "$BO" replay "$T/g.log" --onto "$T/fifo14" \
	--to end
expect 3 "not a regular file" -- to "$BO" replay "$T/g.log" --onto "$T" --to end
# The positive control: a new file, then the same file continued.
expect 0 -- to "$BO" replay "$T/g.log" --onto "$T/new14.img" --to entry:50
expect 0 -- to "$BO" replay "$T/g.log" --onto "$T/new14.img" --from entry:50 --to end
"$BO" replay "$T/g.log" --onto "$T/all14.img" --to end >/dev/null
cmp -s "$T/new14.img" "$T/all14.img" && ok || bad "14: a replay continued differs"

finish

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

# A stand-in QEMU and kernel for vm run, where no VM may boot: the kernel is a file with a
# release in it, the QEMU a script that records its arguments, writes a line through the
# console log it is given, and fails as a QEMU that cannot boot would. What blackout does
# before and after QEMU is real (its initramfs is built into $T's cache).
mkdir -p "$T/bin"
{ printf '\x7fELF\x02\x01\x01'; head -c 1000 /dev/zero; printf 'Linux version 6.99.0 (t@t) #1\0'; } \
	>"$T/vmlinux"
cat >"$T/bin/qemu-system-x86_64" <<'Q'
#!/bin/sh
printf '%s\n' "$@" >"$QEMU_ARGS"
for a in "$@"; do
	case $a in file,id=con,path=*) echo "written by QEMU" >"${a#file,id=con,path=}" ;; esac
done
echo "stand-in QEMU: no VM here" >&2
exit 1
Q
chmod +x "$T/bin/qemu-system-x86_64"
STAND=(env PATH="$T/bin:$PATH" XDG_CACHE_HOME="$T/cache" QEMU_ARGS="$T/qemu.args")
vmrun() { timeout 120 "${STAND[@]}" "$BO" vm run --accel tcg --kernel "$T/vmlinux" "$@"; }

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

### 8: vm run --console FILE never removes FILE, whatever it is (a regular file, a symlink, a
### device node): a path that exists is refused before the boot and left as it was; the
### console log is a file blackout makes, and QEMU writes it through blackout's descriptor.
echo "the user's notes" >"$T/notes8"
echo "the link's target" >"$T/target8"
ln -s "$T/target8" "$T/link8"
ln -s "$T/nowhere8" "$T/dangling8"
cons8=("$T/notes8" "$T/link8" "$T/dangling8")
if mknod "$T/null8" c 1 3 2>/dev/null; then
	cons8+=("$T/null8")
else
	echo "note: no device node made here (not root): /dev/null stands for one"
	cons8+=(/dev/null)
fi
for c in "${cons8[@]}"; do
	expect 3 "--console '$c' exists" -- vmrun --console "$c" -- true
	booted && bad "8: vm run --console $c said booting" || ok
done
grep -qx "the user's notes" "$T/notes8" && ok || bad "8: vm run removed or changed a user's file"
[ "$(readlink "$T/link8")" = "$T/target8" ] && grep -qx "the link's target" "$T/target8" && ok ||
	bad "8: vm run removed a symlink or changed what it leads to"
[ -L "$T/dangling8" ] && [ ! -e "$T/nowhere8" ] && ok || bad "8: a dangling --console was touched"
[ -c "${cons8[3]}" ] && ok || bad "8: vm run removed the device node ${cons8[3]}"
# The positive control: a new path is made (its directory too), QEMU is handed the descriptor
# (its command line never names the path) and what it writes lands there; the failed VM's
# console is kept and named.
expect 125 "console '$T/new8/console.log'" "written by QEMU" -- \
	vmrun --console "$T/new8/console.log" -- true
if [ -e "$T/qemu.args" ]; then
	grep -qx "file,id=con,path=/proc/self/fd/9" "$T/qemu.args" && ok ||
		bad "8: QEMU's console is not blackout's descriptor: $(grep con "$T/qemu.args")"
	grep -q "new8" "$T/qemu.args" && bad "8: QEMU's command line names the console's path" || ok
	grep -qx "written by QEMU" "$T/new8/console.log" && ok || bad "8: the console log is not QEMU's"
else
	echo "note: the stand-in QEMU did not run (this host lacks a guest tool): $(cat "$T/err")"
fi

### 19: vm run's --share (missing, a device, a file), --console (a FIFO, a device), --cpus and
### --memory out of what the host and QEMU take: judged before the boot.
mkfifo "$T/fifo19"
echo x >"$T/file19"
for sh in "$T/nosuch19" /dev/null "$T/file19"; do
	expect 3 "--share '$sh'" -- to "$BO" vm run --share "$sh" "${NOK[@]}" -- true
done
for c in "$T/fifo19" /dev/null; do
	expect 3 "--console '$c' exists" -- to "$BO" vm run --console "$c" "${NOK[@]}" -- true
done
[ -p "$T/fifo19" ] && ok || bad "19: vm run replaced the FIFO"
expect 2 "--cpus 100000" -- to "$BO" vm run --cpus 100000 "${NOK[@]}" -- true
expect 2 "--memory 1:" -- to "$BO" vm run --memory 1 "${NOK[@]}" -- true
expect 2 "--memory 1048576:" "host" -- to "$BO" vm run --memory 1048576 "${NOK[@]}" -- true
expect 2 "--memory 1:" -- to "$BO" vm shell --memory 1 "${NOK[@]}"
# The same --memory for the commands that boot a guest side: before a results directory.
expect 2 "--memory '1'" -- to "$BO" check "$T/g.log" --fs ext4 --memory 1 --results "$T/r19" \
	"${NOK[@]}"
nothing_in "$T/r19" "19: check --memory 1"
expect 2 "--memory '1'" -- to "$BO" run "$top/scenarios/ext4-fsops-bug.ini" --memory 1 \
	--results "$T/r19" "${NOK[@]}"
nothing_in "$T/r19" "19: run --memory 1"
# The positive control: what the host can take passes the judge and stops at the kernel.
mkdir -p "$T/share19"
expect 125 "/nonexistent" -- to "$BO" vm run --share "$T/share19" --cpus 1 --memory 256 \
	--console "$T/new19.log" "${NOK[@]}" -- true
[ -e "$T/new19.log" ] && bad "19: a refused boot left its console log" || ok

### 17: a directory for the VM ([vm] files, --file) that holds a FIFO, a device (or a symlink
### to one), deep inside: judged on the host, naming the file inside, before "booting a VM",
### before a results directory or nightly's --out exists; the retry is refused the same way.
novm() { XDG_CACHE_HOME=$T/nocache timeout 20 "$@"; }
scen=$T/s17.ini
cp "$top/scenarios/ext4-fsops.ini" "$scen"
mkdir -p "$T/d17/a/b/c" "$T/r17"
echo data >"$T/d17/a/file"
ln -s "$T/nowhere17" "$T/d17/a/dangling" # copied as a symlink: fine
ln -s /tmp "$T/d17/a/dirlink"             # a symlink to a directory: fine, not walked
i17=0
for kind in fifo zero sock; do
	i17=$((i17 + 1))
	rm -f "$T/d17/a/b/c/bad"
	case $kind in
	fifo) mkfifo "$T/d17/a/b/c/bad" ;;
	zero) ln -s /dev/zero "$T/d17/a/b/c/bad" ;;
	sock) python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
		"$T/d17/a/b/c/bad" ;;
	esac
	bad17="'$T/d17/a/b/c/bad'"
	{ cat "$scen"; printf '\n[vm]\nfiles = %s\n' "$T/d17"; } >"$T/s17-$i17.ini"
	line=$(grep -n '^files = ' "$T/s17-$i17.ini" | cut -d: -f1)
	for try in 1 2; do
		expect 3 "s17-$i17.ini:$line: [vm] files" "$bad17" -- \
			novm "$BO" run "$T/s17-$i17.ini" --results "$T/r17" "${NOK[@]}"
		nothing_in "$T/r17" "17: run with [vm] files holding a $kind (try $try)"
	done
	expect 3 "s17-$i17.ini:$line: [vm] files" "$bad17" -- novm "$BO" check "$T/g.log" \
		--scenario "$T/s17-$i17.ini" --results "$T/r17" "${NOK[@]}"
	nothing_in "$T/r17" "17: check --scenario with [vm] files holding a $kind"
	expect 3 "--file" "$bad17" -- novm "$BO" run "$scen" --file "$T/d17" --results "$T/r17" \
		"${NOK[@]}"
	nothing_in "$T/r17" "17: run --file of a directory holding a $kind"
	expect 3 "--file" "$bad17" -- novm "$BO" run "$scen" --file "$T/d17" --kernels 6.1,6.12 \
		--results "$T/r17"
	nothing_in "$T/r17" "17: run --kernels --file of a directory holding a $kind"
	expect 3 "--file" "$bad17" -- novm "$BO" check "$T/g.log" --fs ext4 --file "$T/d17" \
		--results "$T/r17" "${NOK[@]}"
	nothing_in "$T/r17" "17: check --file of a directory holding a $kind"
	expect 3 "--file" "$bad17" -- novm "$BO" vm run --file "$T/d17" "${NOK[@]}" -- true
	expect 3 "--file" "$bad17" -- novm "$BO" vm shell --file "$T/d17" "${NOK[@]}"
	# nightly: --file with a kernel named, and without (each cell's run would judge it).
	printf '[matrix]\nscenario = %s\n' "$scen" >"$T/m17.ini"
	expect 3 "--file" "$bad17" -- novm "$BO" nightly "$T/m17.ini" --out "$T/n17" \
		--file "$T/d17" --kernel-release 0.0.0-nosuch
	[ ! -e "$T/n17" ] && ok || bad "17: nightly --file left its tree"
	expect 3 "--file" "$bad17" -- novm "$BO" nightly "$T/m17.ini" --out "$T/n17" --file "$T/d17"
	[ ! -e "$T/n17" ] && ok || bad "17: nightly --file (no kernel named) left its tree"
	printf '[matrix]\nscenario = %s\n' "$T/s17-$i17.ini" >"$T/m17.ini"
	expect 3 "[vm] files" "$bad17" -- novm "$BO" nightly "$T/m17.ini" --out "$T/n17"
	[ ! -e "$T/n17" ] && ok || bad "17: nightly of a scenario with such [vm] files left its tree"
	# reproduce (the files its run shipped, from config.json) and shrink (its scenario.ini).
	d=$T/f17-$kind
	results "$d"
	cp "$T/s17-$i17.ini" "$d/scenario.ini"
	sed -i "s|\"shard\": \"0/1\"|\"shard\": \"0/1\", \"files\": [\"$T/d17\"]|" "$d/config.json"
	# (given again with --file: a results directory's files go into a VM only so)
	expect 3 "$bad17" -- novm "$BO" reproduce "$d" c45 --file "$T/d17" "${NOK[@]}"
	[ ! -e "$d/reproduce" ] && ok || bad "17: a refused reproduce left reproduce/"
	booted && bad "17: reproduce said booting" || ok
	expect 3 "[vm] files" "$bad17" -- novm "$BO" shrink "$d" "${NOK[@]}"
	[ ! -e "$d/shrink" ] && ok || bad "17: a refused shrink left shrink/"
	booted && bad "17: shrink said booting" || ok
done
# A host directory a command line names (the guest gets it at the same path): judged the same,
# before a results directory exists.
mkdir -p "$T/d17cmd/a"
mkfifo "$T/d17cmd/a/p"
printf '[device]\nfs = ext4\nsize = 16M\n[workload]\ncommand = true\n[check]\nchecker = ls %s\n' \
	"$T/d17cmd" >"$T/s17cmd.ini"
expect 3 "the command 'ls $T/d17cmd'" "'$T/d17cmd/a/p' is a FIFO" -- \
	novm "$BO" run "$T/s17cmd.ini" --results "$T/r17" "${NOK[@]}"
nothing_in "$T/r17" "17: run of a checker naming a directory holding a FIFO"
expect 3 "'$T/d17cmd/a/p' is a FIFO" -- novm "$BO" check "$T/g.log" --fs ext4 \
	--checker "ls $T/d17cmd" --results "$T/r17" "${NOK[@]}"
nothing_in "$T/r17" "17: check --checker naming a directory holding a FIFO"
# Deeper than the walk goes: refused, not copied.
deep=$T/d17deep
mkdir -p "$deep/$(printf 'd/%.0s' $(seq 70))"
expect 3 "levels deep" -- novm "$BO" check "$T/g.log" --fs ext4 --file "$deep" --results "$T/r17" \
	"${NOK[@]}"
nothing_in "$T/r17" "17: check --file of a directory 70 levels deep"
# The positive control: the same directory without the special file passes the judge (and
# stops at the kernel that does not exist).
rm -f "$T/d17/a/b/c/bad"
expect 3 "/nonexistent" -- novm "$BO" check "$T/g.log" --fs ext4 --file "$T/d17" \
	--results "$T/r17" "${NOK[@]}"
expect 3 "/nonexistent" -- novm "$BO" run "$T/s17-1.ini" --results "$T/r17" "${NOK[@]}"

### 18: check boots on nothing the host can judge: a state past the log's end or not of its
### epoch, cuts past its end, a device smaller than its writes or larger than a VM maps,
### --memory 1, fsck recovery of xfs, --recovery-log without a state in a recovery, a
### scenario's checker that is not there, an empty log, a log writing block 2^40. Each
### refused before a results directory exists; and run, reproduce, shrink judge the same.
mkdir -p "$T/r18"
extent=$("$BO" inspect "$T/g.log" --json | python3 -c 'import json,sys
d=json.load(sys.stdin); print(d["sectors"]["end"] * d["sectorsize"])')
judged18() { # STATUS NEEDLE CHECK-ARGS...
	local st=$1 needle=$2
	shift 2
	expect "$st" "$needle" -- novm "$BO" check "$@" --results "$T/r18" "${NOK[@]}"
	nothing_in "$T/r18" "18: check $*"
}
judged18 2 "--state: state id 'c99999999': past the end" "$T/g.log" --fs ext4 --state c99999999
judged18 2 "--state: state id 'c5-d9'" "$T/g.log" --fs ext4 --state c5-d9
judged18 2 "--cuts 'entry:99999-'" "$T/g.log" --fs ext4 --cuts entry:99999-
judged18 2 "--cuts 'flush,entry:5-120'" "$T/g.log" --fs ext4 --cuts flush,entry:5-120
judged18 2 "--size 1: the log writes up to byte" "$T/g.log" --fs ext4 --size 1
judged18 2 "--size 18446744073709551615: more than" "$T/g.log" --fs ext4 \
	--size 18446744073709551615
judged18 2 "--memory '1'" "$T/g.log" --fs ext4 --memory 1
# check --kernels (no kernel option of its own: the cache is empty, a missed refusal says so).
expect 2 "--size 1: the log writes up to byte" -- novm "$BO" check "$T/g.log" --fs ext4 \
	--size 1 --kernels 6.1,6.12 --results "$T/r18"
nothing_in "$T/r18" "18: check --kernels --size 1"
judged18 2 "--recovery fsck: xfs" "$T/g.log" --fs xfs --recovery fsck
judged18 2 "--recovery-log goes with --state" "$T/g.log" --fs ext4 --recovery-log "$T/g.log"
judged18 2 "--recovery-log goes with --state" "$T/g.log" --fs ext4 --state c45 \
	--recovery-log "$T/g.log"
judged18 2 "needs its recovery log" "$T/g.log" --fs ext4 --state c45~r3
judged18 2 "has 120 entries, not 999" "$T/g.log" --fs ext4 --state c45~r999 \
	--recovery-log "$T/g.log"
# A scenario's checker that is not there: refused as --checker is, by check, run, nightly.
sed 's|^checker = fsops|checker = /nonexistent18 --all|' "$top/scenarios/ext4-fsops.ini" \
	>"$T/s18.ini"
judged18 3 "[check] checker: '/nonexistent18'" "$T/g.log" --scenario "$T/s18.ini"
expect 3 "[check] checker: '/nonexistent18'" -- novm "$BO" run "$T/s18.ini" --results "$T/r18" \
	"${NOK[@]}"
nothing_in "$T/r18" "18: run of a scenario whose checker is not there"
expect 3 "[check] checker: '/nonexistent18'" -- novm "$BO" run "$T/s18.ini" --kernels 6.1,6.12 \
	--results "$T/r18"
nothing_in "$T/r18" "18: run --kernels of a scenario whose checker is not there"
printf '[matrix]\nscenario = %s\n' "$T/s18.ini" >"$T/m18.ini"
expect 3 "[check] checker: '/nonexistent18'" -- novm "$BO" nightly "$T/m18.ini" --out "$T/n18"
[ ! -e "$T/n18" ] && ok || bad "18: nightly of a scenario whose checker is not there left its tree"
# An empty log (its super block says 0 entries), a log writing block 2^40.
cp "$T/g.log" "$T/empty18.log"
put_u64 "$T/empty18.log" 16 0
judged18 3 "has no entries" "$T/empty18.log" --fs ext4
"$BO" synth --out "$T/far18.log" --entries 3 --max-write 1 --flush-every 0 --mark-every 0 \
	>/dev/null
off=$("$BO" inspect "$T/far18.log" --json --entries 0-2 | python3 -c 'import json,sys
print([e["offset"] for e in json.load(sys.stdin)["entry_list"] if "sector" in e][-1])')
put_u64 "$T/far18.log" "$off" 1099511627776
judged18 3 "writes up to byte" "$T/far18.log" --fs ext4
# ... also where the filesystem is to be found in it, under a file-size limit (10 MB): no
# SIGXFSZ, no temporary image left.
limited() { timeout 20 bash -c 'ulimit -f 10000; exec "$@"' - "$@"; }
ls /var/tmp/blackout-detect-* >"$T/detect.before" 2>/dev/null
expect 3 "writes up to byte" -- limited env XDG_CACHE_HOME="$T/nocache" "$BO" check \
	"$T/far18.log" --results "$T/r18" "${NOK[@]}"
nothing_in "$T/r18" "18: check of a log writing block 2^40"
# A write past the file-size limit is an error naming the file (EFBIG), not a death by SIGXFSZ.
expect 3 "/var/tmp/blackout-detect-" "File too large" -- limited \
	env XDG_CACHE_HOME="$T/nocache" "$BO" check "$T/g.log" --results "$T/r18" "${NOK[@]}"
nothing_in "$T/r18" "18: check under a file-size limit"
ls /var/tmp/blackout-detect-* >"$T/detect.after" 2>/dev/null
cmp -s "$T/detect.before" "$T/detect.after" && ok || bad "18: a temporary image was left in /var/tmp"
expect 3 "'$T/x18.img'" "File too large" -- limited \
	"$BO" replay "$T/g.log" --onto "$T/x18.img" --to end
[ -e "$T/x18.img" ] && bad "18: a replay stopped by the file-size limit left its target" || ok
expect 3 "'$T/x18.log'" "File too large" -- limited \
	"$BO" synth --out "$T/x18.log" --entries 3000 --max-write 16
# reproduce: a check's recorded options judged the same (its "size"), refused as bad input of
# the record's (exit 3); shrink: its --state.
d=$T/f18
results "$d"
cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
sed -i 's/"seed": "1"/"seed": "1", "size": "1"/' "$d/config.json"
expect 3 "--size 1: the log writes up to byte" -- novm "$BO" reproduce "$d" c45 "${NOK[@]}"
[ ! -e "$d/reproduce" ] && ok || bad "18: a refused reproduce left reproduce/"
booted && bad "18: reproduce said booting" || ok
echo '{"seq":4,"time":"2026-01-01T00:00:04.000Z","event":"state","state":"c99999","cut":100000,"class":"lost-ack","mounted":true,"fsck":"clean","lost":[1]}' >>"$d/stream.jsonl"
expect 2 "state id 'c99999': past the end" -- novm "$BO" shrink "$d" --state c99999 "${NOK[@]}"
[ ! -e "$d/shrink" ] && ok || bad "18: a refused shrink left shrink/"
booted && bad "18: shrink said booting" || ok
# The positive controls: what the log has passes the judge and stops at the kernel.
for ok18 in "--state c45" "--state c45~r3 --recovery-log $T/g.log" "--cuts entry:5-119" \
	"--size $extent" "--recovery fsck" "--scenario $top/scenarios/ext4-fsops.ini"; do
	# shellcheck disable=SC2086
	judged18 3 "/nonexistent" "$T/g.log" --fs ext4 $ok18
done

finish

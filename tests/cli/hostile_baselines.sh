#!/usr/bin/env bash
# tests/cli/hostile_baselines.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs
# from strangers"), the commands that compare with a baseline, re-make a run, keep the cache
# or talk to the harness: findings and nightly against a baseline, reproduce, shrink and check
# of a results directory, the op-listing helper, cache, ctl. Each block names the defect of
# issue 43 it reproduces. No VM is booted: a command that would boot one is given a kernel that
# does not exist (and no cache to find one in), so that one that did not refuse fails at the
# boot and says "booting".
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

# Every command runs under a timeout: a hang fails the test, not the suite. nightly keeps
# computing on SIGTERM (it stops its cell, then itself): KILL follows.
to() { timeout -k 5 20 "$@"; }
NOK=(--kernel /nonexistent/vmlinuz --modules /nonexistent)
novm() { XDG_CACHE_HOME=$T/nocache timeout -k 5 60 "$@"; }
booted() { grep -q "booting" "$T/err"; }
esc=$(printf '\033')

# cpu_within SECONDS STATUS CMD...: CMD exits with STATUS having used at most SECONDS of CPU
# (user and system: a busy machine's wall clock says little), its output in $T/out and
# $T/err; killed after 300 s of wall clock.
cpu_within() {
	python3 - "$T" "$@" <<'PY' && ok || bad "$(cat "$T/why")"
import resource, subprocess, sys
t, limit, status, cmd = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
why = None
try:
    p = subprocess.run(cmd, stdout=open(t + "/out", "w"), stderr=open(t + "/err", "w"),
                       timeout=300)
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = u.ru_utime + u.ru_stime
    if p.returncode != status or used > limit:
        why = "'%s' exited %d after %.1f s of CPU (expected %d within %.1f)" % (
            " ".join(cmd), p.returncode, used, status, limit)
except subprocess.TimeoutExpired:
    why = "'%s' still ran after 300 s" % " ".join(cmd)
open(t + "/why", "w").write(why or "")
sys.exit(1 if why else 0)
PY
}

### 10: findings --baseline and nightly --baseline compare through a hash, not each entry with
### every other: 80,000 findings or failures in about a second of CPU, a few under ASan (the
### bounds leave room for both; quadratic, findings took 19 s on an idle machine, nightly
### more).
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
json.dump({"findings": [{"fs": "ext4", "options": "- / -", "kernel": "6.1", "class": "lost-ack",
                         "promise": "write", "skeleton": "s%d" % i, "states": 1}
                        for i in range(80000)]}, open(t + "/f10.json", "w"))
json.dump({"format": 1, "kind": "nightly", "runs": [
    {"scenario": "s", "fs": "ext4", "mount_options": "",
     "failing": [{"state": "c%d" % i, "class": "lost-ack"} for i in range(80000)]}]},
    open(t + "/n10.json", "w"))
PY
results "$T/r10"
cpu_within 15 1 "$BO" findings --baseline "$T/f10.json" "$T/r10"
grep -q ": 1 new, 0 unchanged, 0 fixed, 80000 not run$" "$T/out" && ok ||
	bad "10: findings --baseline: $(tail -n 1 "$T/out")"
cp "$top/scenarios/ext4-fsops.ini" "$T/s.ini"
printf '[matrix]\nscenario = s.ini\n' >"$T/m.ini"
XDG_CACHE_HOME=$T/nocache cpu_within 25 3 "$BO" nightly "$T/m.ini" --out "$T/n10" \
	--baseline "$T/n10.json"
grep -q "^not run (the cell did not run to its end): 80000$" "$T/out" && ok ||
	bad "10: nightly --baseline of 80000 failures: $(tail -n 2 "$T/out" "$T/err")"

### 11: the op-listing helper of builtin bounded ends as its output passes its cap, and a
### length whose listing cannot be made is judged before the helper runs: findings and
### explain of such runs take seconds, not a minute each (the helper's timeout).
bounded3() { # DIR RANKS: a results directory of builtin bounded, length 3
	results "$1"
	printf '[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 3\n%s\n[check]\ncuts = ack\n' \
		"$2" >"$1/scenario.ini"
}
# Unranked: millions of workloads to walk, judged from the scenario; two runs, two explains.
bounded3 "$T/b11-1" ""
bounded3 "$T/b11-2" ""
expect 1 "its ops are not known" "[workload] workloads = A-B" -- \
	to "$BO" findings "$T/b11-1" "$T/b11-2"
grep -q "lost-ack of op" "$T/out" && ok || bad "11: findings: $(cat "$T/out")"
expect 0 -- to "$BO" explain "$T/b11-1"
expect 0 -- to "$BO" explain "$T/b11-2"
# Ranked up to a million: listed, and cut at 64 MiB (a second or so; under a sanitizer, some
# more), well before the helper's 60 s.
bounded3 "$T/b11-3" "workloads = 0-999999"
expect 1 "printed more than 64 MiB: stopped there" -- timeout -k 5 45 "$BO" findings "$T/b11-3"
# The positive control: a listing that fits names the op lost.
d=$T/b11-fits
results "$d"
printf '[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 3\nworkloads = 0-9\n[check]\ncuts = ack\n' \
	>"$d/scenario.ini"
expect 1 -- to "$BO" findings "$d"
grep -q "smallest seq3-00000" "$T/out" && ok || bad "11: a listing that fits: $(cat "$T/out")"

### 24: a failure of the baseline in a cell that did not run to its end (its run errored, or
### was never read) is "not run", never "fixed": nightly and findings, one comparison.
cat >"$T/b24.json" <<'J'
{"format": 1, "kind": "nightly", "runs": [{"scenario": "s", "fs": "ext4", "mount_options": "",
 "failing": [{"state": "c45", "class": "lost-ack"}]}]}
J
expect 3 -- novm "$BO" nightly "$T/m.ini" --out "$T/n24" --baseline "$T/b24.json"
grep -q "^fixed: 0$" "$T/out" && grep -q "^  s ext4 - c45 (lost-ack)$" "$T/out" &&
	grep -q "^not run (the cell did not run to its end): 1$" "$T/out" && ok ||
	bad "24: nightly called a cell that errored fixed: $(cat "$T/out")"
python3 - "$T/n24/summary.json" <<'PY' && ok || bad "24: nightly's summary.json: $(cat "$T/n24/summary.json")"
import json, sys
b = json.load(open(sys.argv[1]))["baseline"]
assert b["fixed"] == [] and [f["state"] for f in b["not_run"]] == ["c45"], b
PY
# findings: a run whose verdict is "error" did not run its cell to its end.
results "$T/r24"
sed -i 's/"verdict": "failed"/"verdict": "error"/' "$T/r24/summary.json"
printf '{"findings":[{"fs":"-","options":"- / -","kernel":"-","class":"phantom","promise":"op","skeleton":"-","states":1}]}' \
	>"$T/f24.json"
expect 1 -- to "$BO" findings --baseline "$T/f24.json" "$T/r24"
grep -q "^not run: phantom of op" "$T/out" && grep -q ": 1 new, 0 unchanged, 0 fixed, 1 not run$" "$T/out" &&
	ok || bad "24: findings called a run that errored fixed: $(cat "$T/out")"
# The positive control: the same run ended (failed): its cell ran, the phantom is fixed.
sed -i 's/"verdict": "error"/"verdict": "failed"/' "$T/r24/summary.json"
expect 1 -- to "$BO" findings --baseline "$T/f24.json" "$T/r24"
grep -q "^fixed: phantom of op" "$T/out" && ok || bad "24: the control is not fixed: $(cat "$T/out")"

### 15: a baseline's strings (runs[].scenario, a state, a class, findings) reach neither the
### terminal nor JSON raw: escapes shown as \x1b, invalid UTF-8 as \xff.
printf '{"format":1,"kind":"nightly","runs":[{"scenario":"ev\\u001b[31mil\xff","fs":"ext4","mount_options":"\\u009b2J","failing":[{"state":"c7\\u001b]0;x\\u0007","class":"lost\xfe","findings":"lost-ack: op \\u001b[1m"}]}]}' \
	>"$T/b15.json"
expect 3 -- novm "$BO" nightly "$T/m.ini" --out "$T/n15" --baseline "$T/b15.json"
! grep -q "$esc" "$T/out" && ! grep -qP '\x9b|\xff|\xfe' "$T/out" &&
	grep -qF 'ev\x1b[31mil\xff ext4 \xc2\x9b2J c7\x1b]0;x\x07 (lost\xfe; lost-ack: op \x1b[1m)' "$T/out" &&
	ok || bad "15: nightly printed a baseline's bytes raw: $(cat -v "$T/out")"
python3 - "$T/n15/summary.json" <<'PY' && ok || bad "15: nightly's summary.json holds what it read raw"
import json, sys
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8")  # valid UTF-8, or this fails
assert "\\u001b" not in text and "\x1b" not in text, text
f = json.loads(text)["baseline"]["not_run"][0]
assert f["scenario"] == "ev\\x1b[31mil\\xff" and f["state"] == "c7\\x1b]0;x\\x07", f
PY
# findings: a baseline in findings' JSON, with invalid UTF-8 and escapes; text and --json.
printf '{"findings":[{"fs":"e\\u001b[2J\xff","options":"- / -","kernel":"k\xfe","class":"c","promise":"p","skeleton":"-","states":1}]}' \
	>"$T/f15.json"
expect 1 -- to "$BO" findings --baseline "$T/f15.json" "$T/r10"
! grep -q "$esc" "$T/out" && grep -qF 'e\x1b[2J\xff' "$T/out" && ok ||
	bad "15: findings printed a baseline's bytes raw: $(cat -v "$T/out")"
to "$BO" findings --json --baseline "$T/f15.json" "$T/r10" >"$T/out" 2>"$T/err"
python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' \
	"$T/out" && ok || bad "15: findings --json is not valid UTF-8 JSON"

### 13: cache prune never leaves the cache: a directory of it that is a symlink is refused
### (list and prune, before anything is removed), a symlink in it is removed, not followed, and
### an entry is walked and removed by descriptor.
c=$T/cache13/blackout
mkdir -p "$c/kernels" "$c/initramfs" "$c/loghash" "$T/precious/sub" "$T/precious-dir"
echo keep >"$T/precious/a"
echo keep >"$T/precious/sub/b"
echo keep >"$T/precious-dir/c"
ln -s "$T/precious" "$c/files"
head -c 4096 /dev/zero >"$c/initramfs/old.cpio"
for cmd in "cache list" "cache list --json" "cache prune --all"; do
	XDG_CACHE_HOME=$T/cache13 expect 3 "$c/files' is not a directory" -- to "$BO" $cmd
done
[ -e "$T/precious/a" ] && [ -e "$T/precious/sub/b" ] && [ -e "$c/initramfs/old.cpio" ] && ok ||
	bad "13: prune --all through a symlinked cache directory removed: $(find "$T/precious" "$c")"
# Symlinks as entries, and in an entry: the links go, what they lead to stays.
rm "$c/files"
mkdir -p "$c/files/tree"
ln -s "$T/precious-dir" "$c/files/link"
ln -s "$T/precious-dir" "$c/files/tree/inner"
ln -s "$T/precious/a" "$c/files/tree/file"
XDG_CACHE_HOME=$T/cache13 expect 0 -- to "$BO" cache prune --all
[ -e "$T/precious-dir/c" ] && [ -e "$T/precious/a" ] && ok ||
	bad "13: prune --all followed a symlink: $(find "$T/precious" "$T/precious-dir")"
[ -z "$(find "$c/files" "$c/initramfs" -mindepth 1)" ] && ok || bad "13: prune --all left $(find "$c")"

### cache list: every string of --json is valid UTF-8 (an entry's name is any bytes), and the
### text shows a name's control characters escaped.
c=$T/cacheL/blackout
mkdir -p "$c/files"
: >"$c/files/$(printf 'bad\377\376name')"
: >"$c/files/$(printf 'esc\033[2Jname')"
XDG_CACHE_HOME=$T/cacheL to "$BO" cache list --json >"$T/out" 2>"$T/err"
python3 - "$T/out" <<'PY' && ok || bad "cache list --json is not valid UTF-8 JSON: $(cat -v "$T/out")"
import json, sys
j = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
names = sorted(e["name"] for e in j["entries"])
assert names == ["bad\ufffd\ufffdname", "esc\x1b[2Jname"], names
PY
XDG_CACHE_HOME=$T/cacheL expect 0 -- to "$BO" cache list
! grep -q "$esc" "$T/out" && grep -qF 'esc\x1b[2Jname' "$T/out" && grep -qF 'bad\xff\xfename' "$T/out" &&
	ok || bad "cache list printed a name raw: $(cat -v "$T/out")"

### ctl: blackout ctl waits a bounded time for a harness that never answers, and says so
### (exit 3): one that takes the connection and never replies, one that takes none.
cat >"$T/mute.py" <<'PY'
# mute.py SOCK MODE: a harness that never answers. "silent": takes every connection, reads,
# never replies; "full": takes none, its backlog filled by connections of its own; "ok":
# answers "ok 5" (the control).
import socket, sys, time
path, mode = sys.argv[1], sys.argv[2]
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(0)
held = []
while mode == "full":
    c = socket.socket(socket.AF_UNIX)
    c.setblocking(False)
    try:
        c.connect(path)
    except OSError:
        break
    held.append(c)
print("ready", flush=True)
srv.settimeout(60)
while mode != "full":
    c, _ = srv.accept()
    held.append(c)
    if mode == "ok":
        c.recv(100)
        c.sendall(b"ok 5\n")
time.sleep(60)
PY
for mode in silent full ok; do
	rm -f "$T/ctl.sock" "$T/ready"
	python3 "$T/mute.py" "$T/ctl.sock" "$mode" >"$T/ready" &
	mute=$!
	for _ in $(seq 100); do [ -s "$T/ready" ] && break; sleep 0.1; done
	if [ "$mode" = ok ]; then
		BLACKOUT_CTL=$T/ctl.sock BLACKOUT_CTL_TIMEOUT=2 expect 0 -- to "$BO" ctl --print-entry ack 1
		[ "$(cat "$T/out")" = 5 ] && ok || bad "ctl: the control's reply: $(cat "$T/out")"
	else
		BLACKOUT_CTL=$T/ctl.sock BLACKOUT_CTL_TIMEOUT=2 expect 3 "in 2 s" \
			"gone or stuck; BLACKOUT_CTL_TIMEOUT" -- to "$BO" ctl ack 1
	fi
	kill "$mute"
	wait "$mute" 2>/dev/null
done
BLACKOUT_CTL=$T/ctl.sock BLACKOUT_CTL_TIMEOUT=soon expect 3 "BLACKOUT_CTL_TIMEOUT: not a number" -- \
	to "$BO" ctl ack 1

### 4: a results directory names host files for the VM — a state's recovery_log, config.json's
### files, a check's checker and recovery log, a scenario's [vm] files, scripts and root: none
### goes into a VM unless the command line names it (reproduce, shrink, check of its log); a
### path of the directory is resolved beneath it or refused. Refused before anything boots.
SECRET=$T/secret4
echo "TOPSECRET-$$" >"$SECRET"
mkdir -p "$T/hostdir/sub"
echo x >"$T/hostdir/sub/tool"
refused() { # WHAT NEEDLE... -- CMD...: CMD refuses (exit 3) naming NEEDLE, and never boots
	local what=$1
	shift
	expect 3 "$@"
	booted && bad "4: $what: booted" || ok
}
# A state's recovery_log: beneath the directory, a regular file, never through a symlink.
for rel in "../../secret4" "$SECRET" "states/c45/../../../secret4" "states/c45/link"; do
	d=$T/r4-${#rel}
	results "$d"
	ln -s "$SECRET" "$d/states/c45/link"
	sed -i "s|\"lost\":\[2,3\]|\"lost\":[2,3],\"recovery_log\":\"$rel\"|" "$d/stream.jsonl"
	refused "recovery_log $rel" "stream.jsonl': state c45: \"recovery_log\"" -- \
		novm "$BO" reproduce "$d" c45 "${NOK[@]}"
done
# The positive control: one beneath it, a regular file, is taken: it reaches the check, which
# judges it against the state (c45 is no state cut inside a recovery: refused, as bad input
# of the record's, before anything boots).
echo log >"$d/states/c45/recovery.log"
sed -i 's|"recovery_log":"states/c45/link"|"recovery_log":"states/c45/recovery.log"|' "$d/stream.jsonl"
expect 3 "--recovery-log goes with --state" -- novm "$BO" reproduce "$d" c45 "${NOK[@]}"
grep -q "recovery_log\|would put into the VM" "$T/err" && bad "4: a recovery_log beneath refused" || ok
# config.json's files: reproduce and check of its write.log refuse, naming the --file to give.
d=$T/r4-files
results "$d"
sed -i "s|\"shard\": \"0/1\"|\"shard\": \"0/1\", \"files\": [\"$SECRET\", \"$T/hostdir/sub/tool\"]|" \
	"$d/config.json"
for cmd in "reproduce $d c45" "check $d/write.log --fs ext4 --results $T/r4out"; do
	refused "$cmd" "would put into the VM" "'$SECRET'" "--file $SECRET --file $T/hostdir/sub/tool" -- \
		novm "$BO" $cmd "${NOK[@]}"
	# Given again, each file (or a directory above it) goes: the boot then fails.
	expect 3 "/nonexistent" -- novm "$BO" $cmd --file "$SECRET" --file "$T/hostdir" "${NOK[@]}"
	grep -q "would put into the VM" "$T/err" && bad "4: $cmd: files given again refused" || ok
	refused "$cmd, one given" "would put into the VM" "--file $SECRET" -- \
		novm "$BO" $cmd --file "$T/hostdir/sub" "${NOK[@]}"
	grep -q -- "--file $T/hostdir" "$T/err" && bad "4: $cmd: asks for a file given" || ok
done
[ -z "$(ls -A "$T/r4out" 2>/dev/null)" ] && ok || bad "4: a refused check left $(ls "$T/r4out")"
# A check that gives a scenario names that scenario's files itself (its [vm] files, as a run of
# it recorded them): those are not asked for again, the others still are.
sed '/^\[vm\]/,$d' "$top/scenarios/ext4-fsops-bug.ini" >"$T/r4-own.ini"
printf '[vm]\nfiles = %s\n' "$SECRET" >>"$T/r4-own.ini"
refused "check --scenario naming one" "would put into the VM" "--file $T/hostdir/sub/tool" -- \
	novm "$BO" check "$d/write.log" --scenario "$T/r4-own.ini" --results "$T/r4out" "${NOK[@]}"
grep -q -- "--file $SECRET" "$T/err" && bad "4: check asks for its own scenario's file" || ok
expect 3 "/nonexistent" -- novm "$BO" check "$d/write.log" --scenario "$T/r4-own.ini" \
	--file "$T/hostdir" --results "$T/r4out" "${NOK[@]}"
grep -q "would put into the VM" "$T/err" && bad "4: check --scenario: named files refused" || ok
# A check's recorded checker and recovery log are host paths too.
d=$T/r4-opts
results "$d"
sed -i "s|\"seed\": \"1\"|\"seed\": \"1\", \"checker\": \"/bin/cat $SECRET\", \"recovery_log\": \"$SECRET.log\"|" \
	"$d/config.json"
cp "$SECRET" "$SECRET.log"
refused "a check's checker" "'$SECRET'" "'$SECRET.log'" "--file $SECRET " -- \
	novm "$BO" reproduce "$d" c45 "${NOK[@]}"
# A run's scenario: its [vm] files and scripts (reproduce, shrink), its root = host.
d=$T/r4-run
results "$d"
printf '{"format":1,"kind":"run","run":{"seed":1}}\n' >"$d/config.json"
{
	sed '/^\[vm\]/,$d' "$top/scenarios/ext4-fsops-bug.ini"
	printf '[vm]\nfiles = %s\n' "$SECRET"
} >"$d/scenario.ini"
for cmd in "reproduce $d c45" "shrink $d"; do
	refused "$cmd: [vm] files" "would put into the VM" "--file $SECRET" -- novm "$BO" $cmd "${NOK[@]}"
	[ -e "$d/shrink" ] && bad "4: a refused shrink left '$d/shrink'" || ok
done
sed -i "s|^files = .*|root = host|" "$d/scenario.ini"
for cmd in "reproduce $d c45" "shrink $d"; do
	refused "$cmd: root = host" "the host's root ([vm] root = host)" "--host-root" -- \
		novm "$BO" $cmd "${NOK[@]}"
	expect 3 "/nonexistent" -- novm "$BO" $cmd --host-root "${NOK[@]}"
	grep -q "would put into the VM" "$T/err" && bad "4: $cmd --host-root refused" || ok
done
leaks() { grep -rqs "TOPSECRET-$$" "$@"; }
leaks "$T"/r4-* "$T/r4out" && bad "4: the secret reached a results directory" || ok

finish

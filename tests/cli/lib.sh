# Shared helpers of the CLI tests: a scratch directory removed at exit, assertions that
# count, and a closing line in the form "N passed, N failed".
set -u
BO=${1:?usage: $0 PATH-TO-blackout}
T=$(mktemp -d "${TMPDIR:-/tmp}/bo-cli-XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: $*" >&2
}

# expect STATUS NEEDLE... -- CMD...: CMD exits with STATUS and its stderr holds every NEEDLE.
expect() {
	local want=$1 needles=() got
	shift
	while [ "$1" != "--" ]; do
		needles+=("$1")
		shift
	done
	shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" != "$want" ]; then
		bad "'$*' exited $got, expected $want; stderr: $(cat "$T/err")"
		return
	fi
	for n in "${needles[@]}"; do
		if ! grep -qF -- "$n" "$T/err"; then
			bad "'$*': stderr lacks '$n': $(cat "$T/err")"
			return
		fi
	done
	ok
}

# put_u64 FILE OFFSET VALUE: write VALUE as 8 little-endian bytes at OFFSET.
put_u64() {
	python3 -c 'import struct,sys
f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<Q", int(sys.argv[3])))' "$@"
}
put_u32() {
	python3 -c 'import struct,sys
f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<I", int(sys.argv[3])))' "$@"
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}

# results DIR: the results directory of shard 0/1 of a check, with one lost-ack state c45 and
# its by-products (tests/cli/hostile.sh and hostile_runs.sh make it hostile).
results() {
	mkdir -p "$1/states/c45"
	"$BO" synth --out "$1/write.log" --entries 120 --max-write 2 >/dev/null || bad "synth"
	cat >"$1/summary.json" <<'J'
{ "verdict": "failed", "exit_status": 1, "states_checked": 2, "states_aliased": 0,
  "counts": { "consistent": 1, "unmountable": 0, "fsck-dirty": 0, "lost-ack": 1, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "first_state": { "consistent": "c30", "lost-ack": "c45" },
  "seconds_total": 1.0, "seconds_checking": 1.0 }
J
	cat >"$1/config.json" <<'J'
{ "kind": "check", "run_id": "20260101-000000-0-000001", "log_sha256": "0",
  "options": { "fs": "ext4", "seed": "1" }, "shard": "0/1" }
J
	# The identity of its log, as check records it (merge compares them).
	sed -i "s/\"log_sha256\": \"0\"/\"log_sha256\": \"$(sha256sum <"$1/write.log" | cut -d' ' -f1)\"/" \
		"$1/config.json"
	cat >"$1/stream.jsonl" <<'J'
{"seq":0,"time":"2026-01-01T00:00:00.000Z","event":"stack","device":"/dev/mapper/x"}
{"seq":1,"time":"2026-01-01T00:00:01.000Z","event":"state","state":"c30","cut":31,"class":"consistent","mounted":true,"fsck":"clean"}
{"seq":2,"time":"2026-01-01T00:00:02.000Z","event":"state","state":"c45","cut":46,"class":"lost-ack","mounted":true,"fsck":"clean","checker":"exited with status 0","lost":[2,3]}
{"seq":3,"time":"2026-01-01T00:00:03.000Z","event":"end"}
J
	printf 'state c45: lost-ack\n' >"$1/states/c45/verdict.txt"
	printf 'EXT4-fs (dm-3): recovery complete\n' >"$1/states/c45/dmesg.txt"
	: >"$1/states/c45/mount.err"
}

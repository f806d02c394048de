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

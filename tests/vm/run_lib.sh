# Shared helpers of the VM integration tests (sourced). Each test gets a scratch directory
# removed at exit, counts its assertions and ends with "N passed, N failed". A test exits 77,
# loudly, when no VM can be booted here.
set -u
BO=${1:?usage: $0 PATH-TO-blackout}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/var/tmp}/bo-vmtest-XXXXXX")
trap 'rm -rf "$T"' EXIT
export PATH="$(dirname "$BO"):$PATH"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: $*" >&2
}

need_vm() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		! ls "${XDG_CACHE_HOME:-$HOME/.cache}"/blackout/kernels/*/vmlinux >/dev/null 2>&1; then
		echo "*** SKIP $(basename "$0"): no QEMU or no cached kernel (run scripts/setup):" \
			"nothing was tested against a real kernel ***" >&2
		exit 77
	fi
}

# publish PATH...: copies of the scenarios' PATHs (relative to scenarios/) in $T/pub, where a
# daemon's account may reach them: a checkout under a 0700 home would refuse the scenarios
# (rightly), so they run from a directory anyone may pass; $T itself becomes 0711.
publish() {
	mkdir -p -m 755 "$T/pub"
	for p in "$@"; do
		cp -r "$SRC/scenarios/$p" "$T/pub/"
	done
	chmod -R go+rX "$T/pub"
	chmod 711 "$T"
}

# scenario SRC.ini OUT.ini KEY=VALUE...: a copy of SRC with keys replaced (or added to their
# section when absent, as "section.key=value").
scenario() {
	python3 - "$@" <<'PY'
import sys, re
src, out, *sets = sys.argv[1:]
text = open(src).read()
for kv in sets:
    key, val = kv.split("=", 1)
    sect, _, name = key.rpartition(".")
    pat = re.compile(r"^%s\s*=.*$" % re.escape(name), re.M)
    if pat.search(text) and not sect:
        text = pat.sub("%s = %s" % (name, val), text, count=1)
    else:
        text = re.sub(r"^\[%s\]\s*$" % re.escape(sect), "[%s]\n%s = %s" % (sect, name, val),
                      text, count=1, flags=re.M)
open(out, "w").write(text)
PY
}

# run_bo STATUS ARGS...: run blackout, which must exit with STATUS (or one of "0|1"), saying how
# long it took; sets $RESULTS to the results directory it printed.
run_bo() {
	local want=$1 got start=$SECONDS
	shift
	"$BO" "$@" >"$T/out" 2>"$T/err"
	got=$?
	# Where a test's time goes (ctest keeps this in Testing/Temporary/LastTest.log).
	echo "[$((SECONDS - start)) s] blackout $*"
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	case "|$want|" in
	*"|$got|"*) ;;
	*)
		bad "'blackout $*' exited $got, expected $want"
		sed 's/^/  | /' "$T/out" "$T/err" >&2
		return 1
		;;
	esac
	ok
}

# json FILE EXPR: evaluate a Python expression over the JSON object j in FILE.
json() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

# ops_of RESULTS FILE: the op list of an fsops or bounded run's workload into FILE, listed
# with the command line its config.json says it ran (its filesystem's families and links).
ops_of() {
	local args
	args=$(json "$1/config.json" 'j["workload"]["command"].split(None, 1)[1]')
	# shellcheck disable=SC2086
	blackout-fsops list $args >"$2"
}

# states DIR: "event state class sha256" per state or alias record of DIR's stream.jsonl, in
# order ("-" for a state whose image was not hashed).
states() {
	python3 -c 'import json,sys
for l in open(sys.argv[1] + "/stream.jsonl"):
    r = json.loads(l)
    if r["event"] in ("state", "alias"):
        print(r["event"], r["state"], r["class"], r.get("image_sha256", "-"))' "$1"
}

# epoch_window LOG SPAN: "entry:I-J", the cut range from the first two plain writes W1 W2
# that open an epoch (the first droppable entries after a flush) to SPAN entries on, or
# nothing when LOG has no such epoch. With SPAN 1, dropping W2 at the second cut is the first
# cut's state, and dropping both the first cut without W1: states that coincide.
epoch_window() {
	"$BO" inspect "$1" --json --entries 0- | python3 -c 'import json,sys
e = json.load(sys.stdin)["entry_list"]
span = int(sys.argv[1])
drop = lambda x: set(x["flags"]) <= {"metadata"} and x.get("nr_sectors", 0) > 0
fresh = False  # no droppable entry since the last flush
mkfs = min(x["entry"] for x in e if x.get("mark") == "mkfs")
for i in range(mkfs + 1, len(e) - 1):
    if fresh and drop(e[i]) and drop(e[i + 1]):
        print("entry:%d-%d" % (i, i + span))
        break
    if "flush" in e[i]["flags"]:
        fresh = True
    elif drop(e[i]):
        fresh = False' "$2"
}

# debian_tree DIR: the default cached kernel dressed as a kernel build tree in DIR (.config,
# vmlinux, include/config/kernel.release, modules.order and its modules as links): what
# --kernel-tree and a matrix's kernel_tree boot, without an hour of make.
debian_tree() {
	"$BO" kernel list --json | python3 -c 'import json, os, sys
rel = [k["release"] for k in json.load(sys.stdin)["kernels"] if k["default"]][0]
kc = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                  "blackout", "kernels", rel)
mods, t = os.path.join(kc, "lib", "modules", rel), sys.argv[1]
os.makedirs(t + "/include/config")
open(t + "/include/config/kernel.release", "w").write(rel + "\n")
open(t + "/.config", "w").write(open("%s/boot/config-%s" % (kc, rel)).read())
os.symlink(kc + "/vmlinux", t + "/vmlinux")
for f in ("modules.builtin", "modules.builtin.modinfo"):
    open(t + "/" + f, "wb").write(open(mods + "/" + f, "rb").read())
order = [l.strip()[len("kernel/"):] for l in open(mods + "/modules.order") if l.strip()]
for m in order:
    os.makedirs(os.path.dirname(t + "/" + m), exist_ok=True)
    os.symlink(mods + "/kernel/" + m, t + "/" + m)
open(t + "/modules.order", "w").write("".join(m + "\n" for m in order))' "$1"
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}

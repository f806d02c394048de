#!/usr/bin/env bash
# tests/vm/families.sh BLACKOUT FS — fsops' one-inode persistence ops (fsync = inode:
# fsync-file F, fsync-dir D) and every op family FS has (families = all: fallocate, O_DIRECT,
# RWF_DSYNC and O_SYNC writes, mmap stores, xattrs, renameat2, copy_file_range, FICLONE and
# FICLONERANGE, symlinks, COLLAPSE_RANGE and INSERT_RANGE, less what its row in
# harness/dev/fstab.c lacks) on a real kernel. The correct workload on FS is consistent at
# every crash state under the filesystem's own promise table; its planted-bug twin (acks
# without the sync: the positive control) is flagged lost-ack, and among the acks it lost are
# one of each kind of persistence op its sequence acknowledges twice or more (at least three
# kinds) — each one's own control. The correct sequence holds an op of each of the copy, clone,
# symlink and collapse families FS has. Each of those families beside the base ops alone
# (its own planted-bug twin) loses an ack that promised what an op of it did. That the checker
# sees what each family op does is tests/cli/fsops_families.py's part.
#
# Where Debian's kernel is known to lose acks on FS (a kernel finding of docs/crash-states.md),
# the correct workload may lose those kinds of ops, and only where the durability lint agrees
# that no FLUSH or FUA came between the op's issue and its ack (f2fs: only in the states cut
# before the first FLUSH after its ack); any other loss fails, and so
# does a run that no longer loses them where the kernel always did (the finding is gone: say
# so in the docs).
#
# SLICE=N (the regular suite's short slice): N ops in both forms; the twin must be flagged, not
# each kind of op.
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: families.sh BLACKOUT FS (or btrfs-raid1: scenarios/FS-fsops.ini)}
need_vm
# The acks Debian's kernels lose on FS, always (KNOWN) or now and then (MAYBE): kernel
# findings of docs/crash-states.md.
# f2fs's (window): any ack, but lost only in states cut before the first flush after it.
known= maybe= window=
case $fs in
jfs) known=all ;;           # no cache flush at all
udf | vfat) known=sync ;;   # sync and syncfs flush nothing
nilfs2) known=fsync-file ;; # fsync of a file whose only change is a name writes nothing
exfat) maybe=sync ;;        # sync after an overwrite that changed no timestamp: no flush
f2fs) maybe=all window=1 ;; # fsync flushes before its node write has completed
esac
allowed=${known:-$maybe}
if [ -z "$allowed" ]; then
	want=0
elif [ -n "$known" ] && [ -z "${SLICE:-}" ]; then
	want=1
else
	want="0|1"
fi
good_ops=${SLICE:-120} bug_ops=${SLICE:-80}

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/good.ini" ops="$good_ops" seed=1 workload.fsync=inode \
	workload.families=all
if run_bo "$want" run "$T/good.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -ge $((good_ops * 5 / 6)) ] && ok || bad "$fs: only $n states checked"
	[ "$(json "$RESULTS/config.json" 'j["workload"]["families"]')" = all ] &&
		grep -q -- "--fsync=inode --families=" "$RESULTS/config.json" && ok ||
		bad "$fs: config.json does not record --fsync=inode and the families of 'all'"
	# an op of each of the copy, clone, symlink and collapse families FS has is among those
	# judged consistent; not under a slice, which draws part of the sequence (counts nothing)
	ops_of "$RESULTS" "$T/good.ops"
	if [ -z "${SLICE:-}" ]; then
		python3 - "$T/good.ops" "$RESULTS/config.json" <<'PY' && ok ||
import json, re, sys
drawn = {l.split()[1] for l in open(sys.argv[1])}
fams = re.search(r"--families=(\S+)", json.load(open(sys.argv[2]))["workload"]["command"])[1]
for f, types in (("copy", {"copy"}), ("clone", {"clone", "clone-range"}),
                 ("symlink", {"symlink"}), ("collapse", {"collapse", "insert"})):
    assert not (fams == "all" or f in fams.split(",")) or types & drawn, f"no {f} op drawn"
PY
			bad "$fs: the correct sequence lacks an op of a new family"
	fi
	if [ -z "$allowed" ]; then
		[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok || bad "$fs: not all consistent"
	else
		# Lost only what the kernel is known to lose, each loss one the lint flags; where it
		# always loses it, something.
		"$BO" lint "$RESULTS/write.log" --json >"$T/lint.json"
		"$BO" inspect "$RESULTS/write.log" --json --entries 0- >"$T/entries.json"
		python3 - "$allowed" "$T/good.ops" "$RESULTS/stream.jsonl" "$T/lint.json" \
			"$([ "$want" = 1 ] && echo required)" "$window" "$T/entries.json" <<'PY' && ok ||
import json, sys
allowed, ops, stream, lint, required, window, entries = sys.argv[1:]
kind = {int(l.split()[0]): l.split()[1] for l in open(ops)}
flagged = {f["op"] for f in json.load(open(lint))["findings"]}
log = json.load(open(entries))
ack_at = {int(m["name"][4:]): m["entry"] for m in log["marks"] if m["name"].startswith("ack:")}
flushes = sorted(e["entry"] for e in log["entry_list"] if "flush" in e["flags"])
classes, lost = set(), set()
for line in open(stream):
    j = json.loads(line)
    classes.add(j.get("class"))
    lost |= set(j.get("lost", []))
    for i in j.get("lost", []) if window else []:
        # lost only until the first flush after its ack: a state cut later lacks it too
        # only if another bug lost it
        after = [f for f in flushes if f > ack_at[i]]
        assert not after or j["cut"] <= after[0], (j["state"], i, ack_at[i], after[:1])
assert classes <= {"consistent", "lost-ack", None}, classes
assert lost or not required, "nothing lost: the kernel finding is gone (docs/crash-states.md)"
assert window or lost <= flagged, \
    f"lost with a barrier between issue and ack: {sorted(lost - flagged)}"
assert allowed == "all" or {kind[i] for i in lost} <= set(allowed.split(",")), \
    sorted((i, kind[i]) for i in lost)
print(f"lost {len(lost)} acks of kinds {sorted({kind[i] for i in lost})}, as the finding does")
PY
			bad "$fs: the correct workload lost more than the kernel's known finding ($allowed)"
	fi
fi

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/bug.ini" ops="$bug_ops" seed=30 workload.fsync=inode \
	workload.families=all workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "$fs: the planted bug was not flagged lost-ack"
	ops_of "$RESULTS" "$T/ops"
	[ -n "${SLICE:-}" ] ||
		python3 - "$T/ops" "$RESULTS/stream.jsonl" <<'PY' && ok || bad "$fs: an op family's skipped ack was not flagged"
import collections, json, sys
ops = [l.split() for l in open(sys.argv[1])]
kind = {int(o[0]): o[1] for o in ops}
# the kinds of persistence op the sequence acknowledges at least twice (which kinds it draws
# depends on the families the filesystem has): each must be among the acks lost
acked = collections.Counter(o[1] for o in ops if o[-1] == "ack")
want = {k for k in ("fsync-file", "fsync-dir", "dsync-write", "sync-write", "mmap-write")
        if acked[k] >= 2}
lost = set()
for line in open(sys.argv[2]):
    lost |= set(json.loads(line).get("lost", []))
families = {kind[i] for i in lost}
assert len(want) >= 3 and want <= families, (sorted(want), sorted(families))
PY
fi

# Each new op family (copy, clone, symlink, collapse: those FS has) beside the base ops alone,
# its planted-bug twin: flagged, and among the acks it lost one that promised what an op of
# each family did — a sync after it, an fsync or fdatasync of the inode it wrote, an fsync of
# the directory a symlink was made in. (The correct forms are the first run's.)
new=$(python3 -c 'import json, re, sys
f = re.search(r"--families=(\S+)", json.load(open(sys.argv[1]))["workload"]["command"])
have = f[1].split(",") if f else []
print(",".join(x for x in ("copy", "clone", "symlink", "collapse") if x in have or "all" in have))' \
	"$RESULTS/config.json")
if [ -z "${SLICE:-}" ] && [ -n "$new" ]; then
	scenario "$SRC/scenarios/$fs-fsops.ini" "$T/fam.ini" ops=60 seed=42 workload.fsync=inode \
		workload.families="$new" workload.bug=ack-without-fsync
	if run_bo 1 run "$T/fam.ini" --results "$T/results"; then
		ops_of "$RESULTS" "$T/fam.ops"
		python3 - "$T/fam.ops" "$RESULTS/stream.jsonl" "$new" <<'PY' && ok ||
import json, sys
ops = [l.split() for l in open(sys.argv[1])]
kind = {int(o[0]): o[1] for o in ops}
lost = set()
for line in open(sys.argv[2]):
    lost |= set(json.loads(line).get("lost", []))
fields = {int(o[0]): o for o in ops}
ino = {i: o[4] for i, o in fields.items()}
def covers(k, f):
    if f >= k:
        return False
    if kind[k] in ("sync", "syncfs"):
        return True
    if kind[k] in ("fsync-file", "fdatasync"):
        return ino[k] == ino[f]
    if kind[k] == "fsync-dir" and kind[f] == "symlink":
        d = fields[f][2].rpartition("/")[0] or "."
        return fields[k][2] == d
    return False
types = {"copy": {"copy"}, "clone": {"clone", "clone-range"}, "symlink": {"symlink"},
         "collapse": {"collapse", "insert"}}
for fam in sys.argv[3].split(","):
    drawn = [i for i in kind if kind[i] in types[fam]]
    assert drawn, f"{fam}: the twin drew no op of it"
    assert any(covers(k, f) for k in lost for f in drawn), \
        f"{fam}: no lost ack promised what its ops {drawn[:5]} did"
    print(f"{fam}: {len(drawn)} ops; a lost ack promised what one did")
PY
			bad "$fs: a new op family's twin lost no ack that promised its ops' work"
	fi
fi
finish

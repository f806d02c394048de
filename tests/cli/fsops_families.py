#!/usr/bin/env python3
# fsops_families.py FSOPS DIR [TYPE...]: the checker sees what each op of the op families does
# (of the types named only, when some are).
#
# For every family op type T, in a sequence of --families=all --fsync=inode (all DIR's
# filesystem has: fsops_host_families.sh; the types of one it lacks say SKIP): take an op X of
# type T and the persistence op P that promises its effect: X itself when T is acked, else the
# first fsync-file of the name X leaves its inode under (without the ops between, the name
# still holds it). Run the ops before X, X and P (an op subset, --keep) in DIR through a
# stand-in for the harness's control socket: the checker must find every ack of that tree
# present. Run them again without X, as if X's effect had been lost, with X still issued: for
# some X of each type, P must be absent (a lost ack); and for a write, so it must when X's
# range reads as zeros. For a symlink, P is the first fsync-dir of its directory, and the same
# for a rename of a symlink (type "rename-symlink": the directory of its new name), the
# directory fsync that makes it durable (fstests generic/348, generic/690). A copy or clone
# puts its source's words in its destination (the name it was performed on, as for a write).
# T fails when a first tree is judged inconsistent, or when none of its first candidates is
# flagged without X.
# Prints one line per type; exit 1 if one failed.
import os, shutil, subprocess, sys

import ctl_stand_in, fsops_tree

fsops, top = sys.argv[1], os.path.abspath(sys.argv[2])
families = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "fsops_host_families.sh"), top],
                          capture_output=True, text=True, check=True).stdout.strip()
seq = ["--fsync=inode", "--families=" + families]
ops, seed, tries = 2000, 5, 40
# Every family op but falloc-keep, which changes nothing a name shows (its zeros past the end
# are judged when a later op extends the file over them).
types = ["falloc", "punch", "zero", "zero-keep", "dio-write", "dsync-write", "sync-write",
         "mmap-write", "setxattr", "removexattr", "rename-noreplace", "exchange", "copy",
         "clone", "clone-range", "symlink", "rename-symlink", "collapse", "insert"]
types = sys.argv[3:] or types
sock = ctl_stand_in.start(top)


def listing(keep=None):
    k = ["--keep", ",".join(map(str, keep))] if keep else []
    return fsops_tree.listing(fsops, ["--seed", str(seed), "--ops", str(ops)] + seq + k)


def state(run, issued, acked, zeros=None):
    """Run the ops @run; check the tree with @issued and @acked; the ids found present. With
    @zeros (an op), its range of its file reads as zeros first: its data lost, the size kept."""
    tree = os.path.join(top, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.mkdir(tree)
    subprocess.run([fsops, "run", "--seed", str(seed), "--ops", str(ops), "--keep",
                    ",".join(map(str, run))] + seq, cwd=tree, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, BLACKOUT_CTL=sock), check=True)
    if zeros:
        with open(os.path.join(tree, zeros["a"]), "r+b") as fh:
            fh.seek(zeros["off"])
            fh.write(bytes(zeros["len"]))
    return fsops_tree.present(fsops, ["--seed", str(seed), "--ops", str(ops), "--keep",
                                      ",".join(map(str, issued))] + seq, tree, top, issued,
                              acked)


full = listing()
kind = {o["id"]: o["type"] for o in full}
for o in full:
    if o["type"] == "rename" and kind.get(o["ino"]) == "symlink":
        o["type"] = "rename-symlink"


def persisted_by(x, t):
    """The persistence op after X that promises its effect, or None."""
    if x["ack"]:
        return x
    if t in ("symlink", "rename-symlink"):
        name = x["b"] if t == "rename-symlink" else x["a"]
        d = name.rpartition("/")[0] or "."
        return next((o for o in full if o["id"] > x["id"] and o["type"] == "fsync-dir" and
                     o["a"] == d), None)
    name = x["b"] if t in ("rename-noreplace", "exchange") else x["a"]
    return next((o for o in full if o["id"] > x["id"] and o["type"] == "fsync-file" and
                 o["a"] == name), None)


failed = 0
for t in types:
    flagged, tried = None, 0
    family = {"clone": "clone", "clone-range": "clone", "collapse": "collapse",
              "insert": "collapse"}.get(t)
    if family and families != "all" and family not in families.split(","):
        print(f"{t}: SKIP: no {family} where {top} is")
        continue
    for x in (o for o in full if o["type"] == t):
        if tried == tries:
            break
        p = persisted_by(x, t)
        if p is None:
            continue
        keep = [o["id"] for o in full if o["id"] < x["id"]] + [x["id"]] + \
            ([p["id"]] if p is not x else [])
        done = listing(keep)
        ids = [o["id"] for o in done]
        if x["id"] not in ids or p["id"] not in ids:
            continue  # not performable on the kept ops
        tried += 1
        acks = [o["id"] for o in done if o["ack"]]
        lost = set(acks) - state(ids, ids, acks)
        if lost:
            print(f"{t}: op {x['id']}: the tree of the ops up to it and op {p['id']} is judged "
                  f"inconsistent: acks {sorted(lost)} not present")
            failed += 1
            break
        # A write's data lost as zeros (a hole, an unwritten extent) is as lost as it.
        if t.endswith("-write") and p["id"] in state(ids, ids, acks, zeros=x):
            print(f"{t}: op {x['id']}: its data zeroed, op {p['id']} is still judged present")
            failed += 1
            lost = True
            break
        if p["id"] not in state([i for i in ids if i != x["id"]], ids, acks):
            flagged = x["id"]
            break
    if flagged:
        print(f"{t}: op {flagged} lost: op {p['id']} ({p['type']}) flagged, as it must")
    elif not lost:
        print(f"{t}: none of {tried} ops lost was flagged")
        failed += 1
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# fsops_copy_rules.py FSOPS: what the checker takes a copy destination, or a file under a
# later copy, collapse or insert, to hold.
#
# Each case runs an op subset (--keep) of a --fsync=inode sequence in a directory of its own
# (removed at the end) through a stand-in for the harness's control socket, changes the tree as
# a lost write would leave it, and wants the checker to find the sync op that promised the
# file absent; the unchanged tree is the control, where it must be present.
#   later-write: a copy's destination holds another inode's later write where no copy put it.
#   replaced: a directory fsync after a rename over a name, which still holds the old file,
#     though a copy into the renamed file is issued later (not from the old file).
#   later-copy, later-collapse: random bytes where a copy, or a collapse, issued after the
#     fsync and not performed would move bytes (a collapse needs the family where the
#     directory is: fsops_host_families.sh; SKIP otherwise).
# Prints one line per case; exit 1 if one failed.
import atexit, os, random, shutil, subprocess, sys, tempfile

import ctl_stand_in, fsops_tree

fsops, top = sys.argv[1], tempfile.mkdtemp(prefix="fsops_copy_rules.")
atexit.register(shutil.rmtree, top, ignore_errors=True)
sock = ctl_stand_in.start(top)
families = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "fsops_host_families.sh"), top],
                          capture_output=True, text=True, check=True).stdout.strip()
failed = 0


def listing(seed, ops, seq):
    return {o["id"]: o for o in fsops_tree.listing(fsops, ["--seed", str(seed), "--ops",
                                                          str(ops)] + seq)}


def run(seed, ops, seq, upto, name):
    """Run ops 1..@upto in a directory @name; the tree's path."""
    tree = os.path.join(top, name)
    shutil.rmtree(tree, ignore_errors=True)
    os.mkdir(tree)
    subprocess.run([fsops, "run", "--seed", str(seed), "--ops", str(ops), "--keep",
                    ",".join(map(str, range(1, upto + 1)))] + seq, cwd=tree,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, BLACKOUT_CTL=sock), check=True)
    return tree


def present(seed, ops, seq, tree, issued, acked):
    """Check @tree with ops 1..@issued issued, the acks up to @acked: the ids found present."""
    full = listing(seed, ops, seq)
    return fsops_tree.present(fsops, ["--seed", str(seed), "--ops", str(ops)] + seq, tree, top,
                              range(1, issued + 1),
                              [i for i in range(1, acked + 1) if full[i]["ack"]])


def expect(case, seed, ops, seq, k, issued, plant):
    """Sync op @k promised a file: present in the tree of ops 1..@k, absent once @plant(tree)
    changed it, with ops 1..@issued issued."""
    global failed
    tree = run(seed, ops, seq, k, "tree")
    if k not in present(seed, ops, seq, tree, issued, k):
        print(f"{case}: op {k} absent from the tree of the ops up to it")
        failed += 1
        return
    plant(tree)
    if k in present(seed, ops, seq, tree, issued, k):
        print(f"{case}: op {k} still present")
        failed += 1
    else:
        print(f"{case}: op {k} absent, as it must")


def later_write():
    # Op 96 copies d1/f5 into f4 (inode 92), op 97 fsyncs it; op 104 writes f4 and op 105
    # d1/f5: 105's words in f4 beyond 104's range, where no copy puts them, are no content
    # f4 can hold.
    seed, ops, seq = 36, 300, ["--fsync=inode", "--families=copy"]
    full = listing(seed, ops, seq)
    c, k, n, w = full[96], full[97], full[104], full[105]
    assert (c["type"], c["a"], k["type"], k["ino"], n["ino"], w["a"]) == \
        ("copy", "f4", "fsync-file", 92, 92, "d1/f5"), "seed 36's ops changed"
    src = open(os.path.join(run(seed, ops, seq, w["id"], "t2"), w["a"]), "rb").read()

    def plant(tree):
        dst = os.path.join(tree, c["a"])
        data = bytearray(open(dst, "rb").read())
        lo, hi = (w["off"] + 7) // 8 * 8, min(len(data), w["off"] + w["len"]) // 8 * 8
        data[lo:hi] = src[lo:hi]
        open(dst, "wb").write(data)

    expect("later-write", seed, ops, seq, k["id"], w["id"], plant)


def replaced():
    # Op 136 renames d2/f7 over d0/f6, op 137 fsyncs d0; op 167 copies into the renamed file.
    seed, ops, seq = 9, 300, ["--fsync=inode", "--families=copy"]
    full = listing(seed, ops, seq)
    rn, k, cp = full[136], full[137], full[167]
    assert (rn["type"], rn["b"], k["type"], k["a"], cp["type"], cp["ino"]) == \
        ("rename", "d0/f6", "fsync-dir", "d0", "copy", rn["ino"]), "seed 9's ops changed"
    old = os.path.join(run(seed, ops, seq, rn["id"] - 1, "t2"), rn["b"])

    expect("replaced", seed, ops, seq, k["id"], cp["id"],
           lambda tree: shutil.copyfile(old, os.path.join(tree, rn["b"])))


def later_shift(case, seed, k, x, xtype):
    # Sync op @k (an fsync-file) promised its file; op @x (@xtype, the next op on it) was
    # issued after it and not performed: the bytes from where @x would move or copy them on
    # read random.
    ops, seq = 300, ["--fsync=inode", "--families=collapse,copy"]
    if families != "all" and "collapse" not in families.split(","):
        print(f"{case}: SKIP: no collapse where {top} is")
        return
    full = listing(seed, ops, seq)
    assert (full[k]["type"], full[x]["type"], full[x]["ino"]) == \
        ("fsync-file", xtype, full[k]["ino"]), f"seed {seed}'s ops changed"

    def plant(tree):
        dst = os.path.join(tree, full[k]["a"])
        data = bytearray(open(dst, "rb").read())
        lo = (full[x]["off"] + 7) // 8 * 8
        hi = len(data) if xtype == "collapse" else min(len(data), full[x]["off"] + full[x]["len"])
        hi = hi // 8 * 8
        data[lo:hi] = random.Random(seed).randbytes(hi - lo)
        open(dst, "wb").write(data)

    expect(case, seed, ops, seq, k, x, plant)


later_write()
replaced()
later_shift("later-copy", 3, 32, 35, "copy")
later_shift("later-collapse", 8, 21, 30, "collapse")
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# fsops_bounded.py FSOPS DIR: builtin bounded's workload and checker on a real tree. Run every
# workload of seq-1 in DIR through a stand-in for the harness's control socket (each in its
# own directory w<rank>): the checker finds every ack present. Then damage one workload's
# tree at a time (its file cut short, its name gone, an attribute lost) and check again with
# the same ids: exactly that workload's acks that promised what was damaged are lost, no
# other workload's. Prints what failed; exit 1 if something did.
import os, shutil, subprocess, sys

import ctl_stand_in

fsops, top = sys.argv[1], os.path.abspath(sys.argv[2])
ids = {"issue": [], "ack": []}
sock = ctl_stand_in.start(top, ids)
tree = os.path.join(top, "tree")
os.mkdir(tree)
subprocess.run([fsops, "--bounded", "1"], cwd=tree, env=dict(os.environ, BLACKOUT_CTL=sock),
               check=True)
listing = subprocess.run([fsops, "list", "--bounded", "1"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
ops = {int(l.split()[0]): l.split() for l in listing}
acks = sorted(i for i, f in ops.items() if f[-1] == "ack")
failed = 0
if ids["issue"] != sorted(ops) or ids["ack"] != acks:
    print(f"the run announced {len(ids['issue'])} ops and {len(ids['ack'])} acks, "
          f"the listing has {len(ops)} and {len(acks)}")
    failed += 1
for name, l in (("issued", ids["issue"]), ("acked", ids["ack"])):
    with open(os.path.join(top, name), "w") as fh:
        fh.writelines(f"{i}\n" for i in l)


def lost():
    res = subprocess.run([fsops, "check", "--bounded", "1"], cwd=tree, capture_output=True,
                         text=True,
                         env=dict(os.environ, BLACKOUT_ISSUED=os.path.join(top, "issued"),
                                  BLACKOUT_ACKED=os.path.join(top, "acked")))
    if res.returncode != 0 or not res.stdout.endswith("done\n"):
        sys.exit(f"checker failed (exit {res.returncode}): {res.stderr[:300]}")
    present = {int(l.split()[1]) for l in res.stdout.splitlines() if l.startswith("present ")}
    return sorted(set(acks) - present)


def workload_of(i):
    return next(t for t in ops[i] if t.startswith("workload="))[len("workload="):]


if lost():
    print(f"the tree of a clean run: acks {lost()[:10]}... lost")
    failed += 1
# Damage workload 3's setup file d0/f0 three ways, then workload 40's d1/f0: the setup's
# syncfs promised all of it, so that workload's acks are lost, and only its.
for rank, path, how in ((3, "d0/f0", "cut"), (3, "d0/f0", "gone"), (3, "d0/f0", "xattr"),
                        (40, "d1/f0", "cut")):
    p = os.path.join(tree, f"w{rank}", path)
    keep = p + ".keep"
    shutil.copy2(p, keep)
    if how == "cut":
        os.truncate(p, 100)
    elif how == "gone":
        os.unlink(p)
    else:
        os.removexattr(p, "user.fsops1")
    got = lost()
    os.replace(keep, p)
    want = f"seq1-{rank:05d}"
    if not got or any(workload_of(i) != want for i in got):
        print(f"w{rank}/{path} {how}: lost acks {got[:10]} "
              f"(of {sorted({workload_of(i) for i in got})[:10]}), wanted some of {want} only")
        failed += 1
if lost():
    print(f"the tree restored: acks {lost()[:10]}... lost")
    failed += 1
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# fsops_fresh.py FSOPS DIR: builtin bounded on a fresh filesystem per workload (--fresh), its
# workload and checker on a real tree. A stand-in for the control socket plays the harness's
# part of the marks: at `base` it keeps the tree the setup made (the setup's state, and the
# base every workload starts from); at each `fresh:<label>` it keeps the tree the workload
# before left (that workload's last state) and puts the base back. Each kept tree, checked
# with its label and the setup's ids and its own alone: every ack present. One workload's
# setup file damaged: acks of the setup or of that workload lost, no other's. A label that
# names no workload of the space: the checker says so (exit 3). Prints what failed; exit 1 if
# something did.
import os, shutil, subprocess, sys

import ctl_stand_in

fsops, top = sys.argv[1], os.path.abspath(sys.argv[2])
space = ["--bounded", "1", "--workloads", "0-60", "--fresh"]
ids = {"issue": [], "ack": []}
tree, kept = (os.path.join(top, d) for d in ("tree", "kept"))
os.makedirs(kept)
os.mkdir(tree)
states = []  # (label, its tree, issued, acked)
cur = {"label": None, "from": 0}
base = os.path.join(top, "base")
setup = None  # the setup's ops: ids 1..setup, in the base


def keep():
    d = os.path.join(kept, str(len(states)))
    shutil.copytree(tree, d, symlinks=True)
    own = lambda l: [i for i in l if i <= (setup or 0) or i >= cur["from"]]
    states.append((cur["label"], d, own(ids["issue"]), own(ids["ack"])))


def on_mark(name):
    global setup
    if name == "base":
        setup = len(ids["issue"])
        keep()
        shutil.copytree(tree, base, symlinks=True)
        return
    if cur["label"] is not None:
        keep()
    for e in os.listdir(tree):
        shutil.rmtree(os.path.join(tree, e))
    shutil.copytree(base, tree, symlinks=True, dirs_exist_ok=True)
    cur["label"] = name[len("fresh:"):]
    cur["from"] = int(cur["label"].split("/")[1])


sock = ctl_stand_in.start(top, ids, on_mark)
subprocess.run([fsops] + space, cwd=tree, env=dict(os.environ, BLACKOUT_CTL=sock), check=True,
               timeout=300)
keep()
listing = subprocess.run([fsops, "list"] + space, capture_output=True, text=True,
                         check=True).stdout.splitlines()
ops = {int(l.split()[0]): l.split() for l in listing}
workload = {i: next(t for t in f if t.startswith("workload="))[9:] for i, f in ops.items()}
failed = 0
if ids["issue"] != sorted(ops) or ids["ack"] != sorted(i for i, f in ops.items()
                                                        if f[-1] == "ack"):
    print(f"the run announced {len(ids['issue'])} ops and {len(ids['ack'])} acks, "
          f"the listing has {len(ops)}")
    failed += 1
nsetup = sum(1 for f in ops.values() if "setup" in f)
if setup != nsetup or len(states) != 62 or states[0][0] is not None or \
        any(s[0].split("/")[0] != f"seq1-{r:05d}" for r, s in enumerate(states[1:])):
    print(f"{len(states)} states, the setup's of {setup} ops (listed: {nsetup}), then labelled "
          f"{[s[0] for s in states[:3]]}...: wanted the setup's, then seq1-00000 to seq1-00060")
    failed += 1


def check(label, d, issued, acked):
    for name, l in (("issued", issued), ("acked", acked)):
        with open(os.path.join(top, name), "w") as fh:
            fh.writelines(f"{i}\n" for i in l)
    env = dict(os.environ, BLACKOUT_ISSUED=os.path.join(top, "issued"),
               BLACKOUT_ACKED=os.path.join(top, "acked"), BLACKOUT_MNT=d)
    env.pop("BLACKOUT_FRESH", None)
    if label is not None:
        env["BLACKOUT_FRESH"] = label
    return subprocess.run([fsops, "check"] + space, capture_output=True, text=True, env=env)


def lost(s):
    res = check(*s)
    if res.returncode != 0 or not res.stdout.endswith("done\n"):
        sys.exit(f"checker failed on {s[0]} (exit {res.returncode}): {res.stderr[:300]}")
    present = {int(l.split()[1]) for l in res.stdout.splitlines() if l.startswith("present ")}
    return sorted(set(s[3]) - present), present


for s in states:
    gone, present = lost(s)
    if gone or not present <= set(s[2]):
        print(f"{s[0]}: acks {gone} lost, or ops {sorted(present - set(s[2]))} invented")
        failed += 1
# The empty filesystem before the setup (no label): nothing to judge.
os.mkdir(os.path.join(top, "b"))
gone, present = lost((None, os.path.join(top, "b"), [], []))
if gone or present:
    print(f"the empty filesystem: acks {gone} lost, present {sorted(present)}")
    failed += 1
# Workload 3's setup file cut short: acks of the setup or of seq1-00003 lost, no other's.
s = states[4]
os.truncate(os.path.join(s[1], "w", "d0", "f0"), 100)
gone, _ = lost(s)
if not gone or any(i > setup and workload[i] != "seq1-00003" for i in gone):
    print(f"seq1-00003's d0/f0 cut: acks {gone} lost ({[workload[i] for i in gone]})")
    failed += 1
# A fresh filesystem of the earlier form (each workload's setup its own, in w<rank>): refused.
old = os.path.join(top, "old")
shutil.copytree(os.path.join(s[1], "w"), os.path.join(old, "w3"), symlinks=True)
res = check(s[0], old, s[2], s[3])
if res.returncode != 3 or "'w3'" not in res.stderr:
    print(f"a tree of the earlier form: exit {res.returncode}, {res.stderr[:200]!r}: wanted 3")
    failed += 1
first = s[0].split("/")[1]
for bad in (f"seq1-00003/{first}/999.1", f"seq1-00003/{first}/1.0", "seq1-00003/0/1.1",
            "seq1-00003", f"x/{first}/1.1", f"seq1-00003/{first}/1.1x",
            f"seq1-00003/{first}/-1.1", f"seq2-00003/{first}/1.1", f"seq1--3/{first}/1.1",
            f"seq1-00003/{first}/1.1-1.1", f"seq1-00003/-{first}/1.1", f"seq1-00003/{first}/",
            f"seq1-00003/{setup}/1.1"):
    res = check(bad, s[1], s[2], s[3])
    if res.returncode != 3 or "BLACKOUT_FRESH" not in res.stderr:
        print(f"label {bad!r}: exit {res.returncode}, {res.stderr[:200]!r}: wanted 3 naming it")
        failed += 1
sys.exit(1 if failed else 0)

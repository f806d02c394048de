#!/usr/bin/env python3
# fsops_repro_same.py FSOPS DIR ARGS...: repro.c makes the tree the workload makes. The workload
# (blackout-fsops run ARGS, through a stand-in for the control socket) runs up to its last
# acknowledged op N, and repro (blackout-fsops repro ARGS --upto N, built) runs in another
# directory; the two trees must hold the same names, sizes, bytes and extended attributes, and
# the same symlinks with the same targets — repro's data is the workload's own, so a tree the
# workload left on a disk compares with one repro made. Exit 1 with what differs.
import os, subprocess, sys

import ctl_stand_in

fsops, top, args = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
listing = subprocess.run([fsops, "list"] + args, capture_output=True, text=True, check=True).stdout
n = [l.split()[0] for l in listing.splitlines() if l.endswith(" ack")][-1]
last = listing.splitlines()[-1].split()[0]
work, mine = os.path.join(top, "workload"), os.path.join(top, "repro")
os.makedirs(work)
os.makedirs(mine)
run = [fsops, "run"] + args + ([] if "--bounded" in args else ["--keep", f"1-{n}"])
if "--bounded" in args and last != n:
    sys.exit(f"the listing ends with op {last}, not with an ack")
env = dict(os.environ, BLACKOUT_CTL=ctl_stand_in.start(top))
subprocess.run(run, cwd=work, env=env, stdout=subprocess.DEVNULL, check=True)
code = subprocess.run([fsops, "repro"] + args + ["--upto", n], capture_output=True, text=True,
                      check=True).stdout
open(os.path.join(top, "repro.c"), "w").write(code)
subprocess.run(["cc", "-O2", "-o", os.path.join(top, "repro.bin"), os.path.join(top, "repro.c")],
               check=True)
subprocess.run([os.path.join(top, "repro.bin"), "run", mine], stdout=subprocess.DEVNULL, check=True)


def tree(root):
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):  # a symlink: its target
                out[rel] = ("-> " + os.readlink(p), {})
                continue
            attrs = {a: os.getxattr(p, a) for a in os.listxattr(p)}
            out[rel] = (None if name in dirs else open(p, "rb").read(), attrs)
    return out


a, b = tree(work), tree(mine)
diff = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
if diff or not a:
    sys.exit(f"{' '.join(args)} up to op {n}: the trees differ in {diff[:5]} (of {len(a)})")
print(f"{' '.join(args)} up to op {n}: the same {len(a)} names, bytes and attributes")

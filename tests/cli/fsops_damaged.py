#!/usr/bin/env python3
# fsops_damaged.py FSOPS [--fsync=inode] [--families=F] DIR SEED...: for each seed, run a
# prefix of the fsops workload in DIR (through a stand-in for the harness's control socket)
# and check the tree as it is, with the ops after the prefix issued too: every acknowledged op
# must be present (a tree no crash touched keeps every promise). Then damage the tree the way
# a crash or a bad disk could (files cut short, often to a few words; random bytes; zeroed
# ranges; files gone; attributes rewritten or removed; symlinks gone or pointing elsewhere)
# and check it again: the checker must finish with "done". Prints a line for each state that
# fails; exit 1 if there was one. With --fsync=inode, the one-inode persistence ops, checked
# by a promise table drawn per seed; with --families, the op families' ops.
import os, random, shutil, subprocess, sys

import ctl_stand_in

args = sys.argv[2:]
mode = []
while args and args[0].startswith("--"):
    mode.append(args.pop(0))
fsops, top, seeds = sys.argv[1], os.path.abspath(args[0]), [int(s) for s in args[1:]]
ops = 300
sock = ctl_stand_in.start(top)
bad = 0
for seed in seeds:
    r = random.Random(seed)
    k = r.randrange(5, ops - 5)
    tree = os.path.join(top, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.mkdir(tree)
    env = dict(os.environ, BLACKOUT_CTL=sock)
    subprocess.run([fsops, "run", "--seed", str(seed), "--ops", str(k)] + mode, cwd=tree, env=env,
                   stdout=subprocess.DEVNULL, check=True)
    listing = subprocess.run([fsops, "list", "--seed", str(seed), "--ops", str(ops)] + mode,
                             capture_output=True, text=True, check=True).stdout
    issued = os.path.join(top, "issued")
    acked = os.path.join(top, "acked")
    with open(issued, "w") as fh:
        fh.writelines(f"{i}\n" for i in range(1, min(ops, k + r.randrange(10)) + 1))
    acks = [l.split()[0] for l in listing.splitlines() if l.endswith(" ack") and int(l.split()[0]) <= k]
    with open(acked, "w") as fh:
        fh.writelines(a + "\n" for a in acks)
    promises = ["--promises=" + r.choice(["linux", "posix"])] if "--fsync=inode" in mode else []

    def check():
        return subprocess.run([fsops, "check", "--seed", str(seed), "--ops", str(ops)] + mode + promises,
                              cwd=tree,
                              env=dict(os.environ, BLACKOUT_ISSUED=issued, BLACKOUT_ACKED=acked),
                              capture_output=True, text=True)

    res = check()
    present = set(l.split()[1] for l in res.stdout.splitlines() if l.startswith("present "))
    lost = [a for a in acks if a not in present]
    if res.returncode != 0 or not res.stdout.endswith("done\n") or lost:
        bad += 1
        print(f"seed {seed} ({k} ops run), undamaged: exit {res.returncode}, acked ops not present: "
              f"{lost[:10]}: {res.stderr[:300]}")
    for d, _, fs in sorted(os.walk(tree)):
        for f in sorted(fs):
            p, x = os.path.join(d, f), r.random()
            if os.path.islink(p):
                # another target, one naming another op, or none
                if x < 0.45:
                    os.unlink(p)
                    if x < 0.3:
                        os.symlink(r.choice(["x" * r.randrange(1, 300), "fsops 1 00",
                                             "fsops %d" % r.randrange(ops)]), p)
                continue
            size = os.path.getsize(p)
            if r.random() < 0.3 and size:
                # cut short, mostly to a few words
                size = r.randrange(min(size, 64)) if r.random() < 0.5 else r.randrange(size)
                os.truncate(p, size)
            if x < 0.3 and size:
                with open(p, "r+b") as fh:
                    fh.seek(r.randrange(size))
                    fh.write(bytes(r.randrange(256) for _ in range(r.randrange(1, 64))))
            elif x < 0.4 and size:
                with open(p, "r+b") as fh:
                    o = r.randrange(size)
                    fh.seek(o)
                    fh.write(bytes(min(4096, size - o)))
            elif x < 0.45:
                os.unlink(p)
                continue
            if r.random() < 0.1:
                name = "user.fsops%d" % r.randrange(2)
                try:
                    if r.random() < 0.5:
                        os.setxattr(p, name, bytes(r.randrange(256) for _ in range(r.randrange(1, 40))))
                    else:
                        os.removexattr(p, name)
                except OSError:
                    pass
    res = check()
    if res.returncode != 0 or not res.stdout.endswith("done\n"):
        bad += 1
        print(f"seed {seed} ({k} ops run): exit {res.returncode}: {res.stderr[:300]}")
sys.exit(1 if bad else 0)

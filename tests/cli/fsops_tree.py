# fsops_tree.py — what the host tests of blackout-fsops' checker share (imported): an op list
# as `blackout-fsops list` prints it, and a tree judged by `blackout-fsops check` as the harness
# judges a crash state, with the issued and acknowledged ops it gives the checker.
import os, subprocess, sys


def listing(fsops, args):
    """The ops `FSOPS list ARGS` prints, each a dict (id, type, a, b, ino, off, len, ack)."""
    out = subprocess.run([fsops, "list"] + args, capture_output=True, text=True,
                         check=True).stdout
    return [dict(id=int(f[0]), type=f[1], a=f[2], b=f[3], ino=int(f[4][4:]),
                 off=int(f[5][4:]), len=int(f[6][4:]), ack=l.endswith(" ack"))
            for l in out.splitlines() for f in [l.split()]]


def present(fsops, args, tree, top, issued, acked):
    """`FSOPS check ARGS` in @tree with the ids @issued and @acked (written under @top): the ids
    it finds present. Exits when the checker fails."""
    for name, ids in (("issued", issued), ("acked", acked)):
        with open(os.path.join(top, name), "w") as fh:
            fh.writelines(f"{i}\n" for i in ids)
    res = subprocess.run([fsops, "check"] + args, cwd=tree, capture_output=True, text=True,
                         env=dict(os.environ, BLACKOUT_ISSUED=os.path.join(top, "issued"),
                                  BLACKOUT_ACKED=os.path.join(top, "acked")))
    if res.returncode != 0 or not res.stdout.endswith("done\n"):
        sys.exit(f"checker failed (exit {res.returncode}): {res.stderr[:300]}")
    return {int(l.split()[1]) for l in res.stdout.splitlines() if l.startswith("present ")}

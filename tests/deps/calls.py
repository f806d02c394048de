#!/usr/bin/env python3
"""tests/deps/calls.py BUILD_DIR — no circle of calls between the files of a library
(docs/hacking.md, "Files"): within each library of BUILD_DIR (harness/*/libbo_*.a, vm/,
dmtargets/, and the objects of the blackout program), an arrow from one file to another for
each function or variable it uses that the other defines (nm), and every circle of arrows
printed; exit 1 when there is one. A stage calls down to what the stages share, never back
into its driver."""
import collections
import glob
import os
import subprocess
import sys


def nm(args):
    return subprocess.run(["nm", "-A"] + args, capture_output=True, text=True,
                          check=True).stdout.splitlines()


def unit(field, whole):
    """The object a line of nm -A is about: its member in an archive, else the file's name."""
    parts = field.split(":")
    return parts[-2] if whole else os.path.basename(parts[0])


def circles(name, objs):
    whole = len(objs) == 1  # an archive: its members
    defs, uses = {}, collections.defaultdict(set)
    for line in nm(["--defined-only"] + objs):
        p = line.split()
        if len(p) >= 3 and p[-2] in "TDBR":
            defs[p[-1]] = unit(p[0], whole)
    for line in nm(["-u"] + objs):
        p = line.split()
        if len(p) >= 3 and p[-2] == "U":
            uses[unit(p[0], whole)].add(p[-1])
    graph = collections.defaultdict(set)
    for o, syms in uses.items():
        graph[o] |= {defs[s] for s in syms if s in defs and defs[s] != o}
    found, color = [], {}

    def walk(u, stack):
        color[u] = 1
        stack.append(u)
        for v in sorted(graph[u]):
            if color.get(v) == 1:
                found.append(stack[stack.index(v):] + [v])
            elif not color.get(v):
                walk(v, stack)
        stack.pop()
        color[u] = 2

    for u in sorted(graph):
        if not color.get(u):
            walk(u, [])
    for c in found:
        print(f"{name}: a circle of calls: {' -> '.join(x.removesuffix('.o') for x in c)}")
    return len(found)


def main():
    os.chdir(sys.argv[1])
    groups = [(a, [a]) for a in sorted(glob.glob("harness/*/libbo_*.a") +
                                      glob.glob("vm/libbo_*.a") + glob.glob("dmtargets/libbo_*.a"))]
    cli = sorted(glob.glob("harness/cli/CMakeFiles/blackout.dir/*.o"))
    if cli:
        groups.append(("harness/cli", cli))
    if not groups:
        sys.exit(f"calls.py: no library built in '{sys.argv[1]}'")
    sys.exit(1 if sum(circles(n, o) for n, o in groups) else 0)


main()

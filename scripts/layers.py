#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The firmware's structure, measured: include and link circles.

  scripts/layers.py [--build build/fw] [--check] [--edges]

Include graph: every `#include "..."` of the firmware's sources (firmware/,
platform/, drivers/, lib/), resolved as the compiler does (the including
file's folder, then the repository root, then the old flat include folders
still given by -I, if any).  Link graph: from the built objects' symbol
tables (nm): object A -> object B when A uses a symbol B defines.

A circle is a strongly connected component of more than one file, or of
more than one folder in the graph of folders (A -> B when a file of A uses
one of B).  A circle of files "crosses a folder" when its files are in
more than one folder; every circle of folders does.  Prints the
circles, files per folder and the largest files; with --check, exits 1 when
a circle crosses a folder.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

SOURCE_ROOTS = ("firmware", "platform", "drivers", "lib")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    out = []
    for top in SOURCE_ROOTS:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".c", ".h", ".S")):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
    return sorted(out)


def include_dirs(root):
    """The firmware's -I folders, as mk/80-firmware.mk gives them."""
    text = open(os.path.join(root, "mk/80-firmware.mk")).read()
    m = re.search(r"^FW_INCLUDE\s*:=((?:.*\\\n)*.*)$", text, re.M)
    dirs = re.findall(r"-I(\S+)", m.group(1).replace("\\\n", " ")) if m else []
    return [d for d in dirs if not d.startswith("$")]


def include_graph(root, files):
    dirs = include_dirs(root)
    known = set(files)
    graph = collections.defaultdict(set)
    for f in files:
        with open(os.path.join(root, f), errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE_RE.findall(text):
            for base in [os.path.dirname(f)] + dirs:
                cand = os.path.normpath(os.path.join(base, name))
                if cand in known:
                    if cand != f:
                        graph[f].add(cand)
                    break
    return graph


def link_graph(root, build):
    objs = []
    for dirpath, _, names in os.walk(os.path.join(root, build)):
        for n in names:
            if n.endswith(".o") and "fwsyms" not in n:
                objs.append(os.path.join(dirpath, n))
    if not objs:
        return None
    nm = os.environ.get("NM", "riscv64-unknown-elf-nm")
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        src = os.path.relpath(o, os.path.join(root, build))
        src = re.sub(r"\.S\.o$", ".S", re.sub(r"(?<!\.S)\.o$", ".c", src))
        if not os.path.exists(os.path.join(root, src)):
            continue   # an object whose source is gone (not linked)
        res = subprocess.run([nm, o], capture_output=True, text=True, check=True)
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses[src].add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRSGCVW" and parts[1].isupper():
                defs[parts[2]] = src
    graph = collections.defaultdict(set)
    for src, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != src:
                graph[src].add(d)
                LINK_SYMBOLS[(src, d)].add(s)
    return graph


LINK_SYMBOLS = collections.defaultdict(set)
SHOW_EDGES = False


def sccs(graph):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    nodes = set(graph) | {v for vs in graph.values() for v in vs}
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def folder_graph(graph):
    out = collections.defaultdict(set)
    for a, bs in graph.items():
        for b in bs:
            da, db = os.path.dirname(a), os.path.dirname(b)
            if da != db:
                out[da].add(db)
    return out


def report(kind, graph):
    crossing = 0
    fcomps = sccs(folder_graph(graph))
    print(f"{kind} circles between folders: {len(fcomps)}")
    for comp in fcomps:
        print(f"  {' '.join(comp)}")
    crossing += len(fcomps)
    if SHOW_EDGES:
        for comp in fcomps:
            members = set(comp)
            for a in sorted(graph):
                for b in sorted(graph[a]):
                    da, db = os.path.dirname(a), os.path.dirname(b)
                    if da != db and da in members and db in members:
                        syms = " ".join(sorted(LINK_SYMBOLS.get((a, b), ())))
                        print(f"    {a} -> {b}{': ' + syms if syms else ''}")
    comps = sccs(graph)
    print(f"{kind} circles: {len(comps)}")
    for comp in comps:
        folders = sorted({os.path.dirname(f) for f in comp})
        cross = len(folders) > 1
        crossing += cross
        print(f"  {len(comp)} files, {len(folders)} folder(s)"
              f"{' (crosses a folder)' if cross else ''}: {' '.join(comp)}")
    return crossing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--build", default="build/fw")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--edges", action="store_true",
                    help="list the edges between the folders of each circle")
    args = ap.parse_args()
    global SHOW_EDGES
    SHOW_EDGES = args.edges
    files = sources(args.root)

    per_folder = collections.Counter(os.path.dirname(f) for f in files)
    print("files per folder:")
    for d, n in sorted(per_folder.items()):
        print(f"  {d}: {n}")
    sizes = sorted(((sum(1 for _ in open(os.path.join(args.root, f), errors="replace")), f)
                    for f in files if f.startswith("firmware/")), reverse=True)
    print("largest firmware files:", ", ".join(f"{f} {n}" for n, f in sizes[:5]))

    crossing = report("include", include_graph(args.root, files))
    lg = link_graph(args.root, args.build)
    if lg is None:
        print(f"link circles: not measured (no objects under {args.build}: make all first)")
    else:
        crossing += report("link", lg)
    print(f"circles crossing a folder: {crossing}")
    if args.check and (crossing or lg is None):
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The ntrace tool's firmware-mirror features on the corpus traces.

    ingress.py NTRACE_TOOL OUTDIR TRACE.pcs...    (TRACE.elf next to each)

For every corpus trace (M-mode programs run under QEMU) a ground-truth
style window is made: each trap handler excursion (the lines after an
exc/int mark up to the mret) becomes M lines, the lines of one function
(the second most frequent in the trace) U, the rest S.  Then:

  * `encode` of the window (privilege tokens: the qualified ingress, the
    firmware's block calls) decodes back to its non-M lines, and
    `--feed records` / `--feed chunks` give the same bytes;
  * `--trace-priv U|S|US` and `--trace-range A-B` (the most frequent
    function) decode back to exactly the lines they select (M never);
  * a stream with periodic syncs, with its first bytes cut off as a
    wrapped circular buffer loses them, decodes with `decode --wrapped`
    into a suffix of the trace, without error.

Function names come from `decode --symbols`; mret addresses from objdump.
Prints one PASS:/FAIL: line per check; exits 1 when any failed.
"""

import collections
import os
import re
import subprocess
import sys

TOOL, OUTDIR = sys.argv[1], sys.argv[2]
OBJDUMP = os.environ.get('OBJDUMP_RV', 'riscv64-unknown-elf-objdump')
failed = False


def report(ok, what):
    global failed
    print(('PASS: ' if ok else 'FAIL: ') + what)
    failed |= not ok


def run(*args):
    """(status, stdout, stderr) of the tool."""
    p = subprocess.run([TOOL] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def mret_addresses(elf):
    out = subprocess.run([OBJDUMP, '-d', elf], capture_output=True, text=True,
                         check=True).stdout
    return {int(m.group(1), 16)
            for m in re.finditer(r'^\s*([0-9a-f]+):\s+30200073\s', out, re.M)}


def read_lines(path):
    """[(pc, mark)] of a canonical .pcs."""
    lines = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            lines.append((int(parts[0], 16), parts[1] if len(parts) > 1 else ''))
    return lines


def pcs_text(lines):
    return ''.join(f'{pc:x}{" " + mark if mark else ""}\n' for pc, mark in lines)


def function_of_lines(elf, pcs, base):
    """[(name, pc - symbol)] per line, from the tool's --symbols listing."""
    nex = base + '.plain.nex'
    rc, _, err = run('encode', '--elf', elf, '--pcs', pcs, '--out', nex)
    if rc:
        raise RuntimeError('encode: ' + err.strip())
    rc, out, err = run('decode', '--elf', elf, nex, '--symbols')
    if rc:
        raise RuntimeError('decode --symbols: ' + err.strip())
    funcs = []
    for line in out.splitlines():
        sym = line.split('  ', 1)[1]
        name, _, off = sym.rpartition('+0x')
        funcs.append((name or '?', int(off, 16) if name else 0))
    return funcs


def make_window(lines, funcs, mrets):
    """[(pc, mark, priv)], the U function and the range function (the two
    most frequent functions outside the handlers)."""
    handler, in_m = [], False
    for (pc, mark) in lines:
        handler.append(in_m)
        if in_m and pc in mrets:
            in_m = False
        if mark and not in_m:
            in_m = True             # the next line enters the handler
    counts = collections.Counter(name for (name, _), m in zip(funcs, handler)
                                 if not m and name != '?')
    ranked = [name for name, _ in counts.most_common()]
    range_func = ranked[0]
    u_func = ranked[1] if len(ranked) > 1 else ranked[0]
    window = [(pc, mark, 'M' if m else 'U' if name == u_func else 'S')
              for (pc, mark), (name, _), m in zip(lines, funcs, handler)]
    return window, u_func, range_func


def function_range(lines, funcs, name):
    starts = [pc - off for (pc, _), (n, off) in zip(lines, funcs) if n == name]
    ends = [pc + 1 for (pc, _), (n, _) in zip(lines, funcs) if n == name]
    return min(starts), max(ends)


def check_selection(id_, elf, win_path, window, codec, qual, keep, base):
    """Encode the window with codec + qualification options, decode with the
    codec options: exactly the non-M lines keep(pc, priv) selects."""
    want = pcs_text([(pc, mark) for pc, mark, priv in window
                     if priv != 'M' and keep(pc, priv)])
    nex = base + '.sel.nex'
    rc, _, err = run('encode', '--elf', elf, '--pcs', win_path, '--out', nex, *codec, *qual)
    if rc:
        report(False, f'{id_}: encode exited with {rc}: {err.strip()[:200]}')
        return None
    rc, out, err = run('decode', '--elf', elf, nex, *codec)
    if rc or out != want:
        got, exp = out.splitlines(), want.splitlines()
        at = next((i for i, (a, b) in enumerate(zip(got, exp)) if a != b), min(len(got), len(exp)))
        report(False, f'{id_}: decode status {rc}, {len(got)} lines for {len(exp)} selected, '
               f'first difference at line {at + 1} {err.strip()[:120]}')
        return None
    report(True, f'{id_}: {len(want.splitlines())} of {len(window)} lines')
    with open(nex, 'rb') as f:
        return f.read()


def check_trace(pcs):
    elf = pcs[:-4] + '.elf'
    prog = os.path.basename(pcs[:-4])
    xlen = os.path.basename(os.path.dirname(pcs))
    name = f'ntrace ingress {prog} {xlen}'
    base = os.path.join(OUTDIR, f'{prog}-{xlen}')
    lines = read_lines(pcs)
    try:
        funcs = function_of_lines(elf, pcs, base)
        mrets = mret_addresses(elf)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        report(False, f'{name}: {e}')
        return
    if len(funcs) != len(lines):
        report(False, f'{name}: --symbols listing has {len(funcs)} lines for {len(lines)}')
        return
    report(all(n != '?' for n, _ in funcs), f'{name}: --symbols names every pc '
           f'({len(set(n for n, _ in funcs))} functions)')
    window, u_func, range_func = make_window(lines, funcs, mrets)
    win_path = base + '.win.pcs'
    with open(win_path, 'w') as f:
        f.write(''.join(f'{pc:x}{" " + mark if mark else ""} {priv}\n'
                        for pc, mark, priv in window))
    nm = sum(1 for w in window if w[2] == 'M')

    for opts in ([], ['--mode', 'btm'], ['--tci', '0x1010069,0x5cc'],
                 ['--tci', '0x1030239,0x7c8']):
        id_ = f'{name} window ({nm} M lines) {" ".join(opts) or "htm"}'
        ref = check_selection(id_, elf, win_path, window, opts, [], lambda pc, p: True, base)
        if ref is None:
            continue
        same = True
        for feed in ('records', 'chunks', 'blocks'):
            rc, _, _ = run('encode', '--elf', elf, '--pcs', win_path, '--out', base + '.f.nex',
                           '--feed', feed, *opts)
            with open(base + '.f.nex', 'rb') as f:
                same &= rc == 0 and f.read() == ref
        report(same, f'{id_}: --feed records, chunks and blocks give the same bytes')

    for choice in ('U', 'S', 'US'):
        check_selection(f'{name} --trace-priv {choice} (U: {u_func})', elf, win_path, window,
                        [], ['--trace-priv', choice], lambda pc, p, c=choice: p in c, base)
    lo, hi = function_range(lines, funcs, range_func)
    rng = f'{lo:x}-{hi:x}'
    check_selection(f'{name} --trace-range {rng} ({range_func}) btm', elf, win_path, window,
                    ['--mode', 'btm'], ['--trace-range', rng],
                    lambda pc, p: lo <= pc < hi, base)
    # Both functions and whatever lies between them, S only.
    ulo, uhi = function_range(lines, funcs, u_func)
    lo, hi = min(lo, ulo), max(hi, uhi)
    rng = f'{lo:x}-{hi:x}'
    check_selection(f'{name} --trace-range {rng} --trace-priv S', elf, win_path, window,
                    ['--all-opt'], ['--trace-range', rng, '--trace-priv', 'S'],
                    lambda pc, p: lo <= pc < hi and p == 'S', base)

    # Wrapped buffer: the newest bytes of a stream with periodic syncs.
    nex = base + '.sync.nex'
    rc, _, err = run('encode', '--elf', elf, '--pcs', pcs, '--out', nex, '--sync-period', '64')
    with open(nex, 'rb') as f:
        data = f.read()
    plain = pcs_text(lines)
    ok, tried = rc == 0, 0
    for k in range(1, 9):
        cut = len(data) * k // 9 + k            # anywhere, usually inside a message
        tail = base + '.tail.nex'
        with open(tail, 'wb') as f:
            f.write(data[cut:])
        rc, out, err = run('decode', '--elf', elf, tail, '--sync-period', '64', '--wrapped')
        tried += 1
        if rc or not out or not plain.endswith(out) or 'wrapped buffer: decoding starts' not in err:
            ok = False
            report(False, f'{name}: --wrapped after cutting {cut} of {len(data)} bytes: status '
                   f'{rc}, {len(out.splitlines())} lines, {err.strip()[:160]}')
            break
    if ok:
        report(True, f'{name}: decode --wrapped of {tried} buffers cut inside the stream gives '
               'suffixes of the trace')
    for suffix in ('.plain.nex', '.sel.nex', '.f.nex', '.sync.nex', '.tail.nex', '.win.pcs'):
        if os.path.exists(base + suffix):
            os.remove(base + suffix)


def main():
    os.makedirs(OUTDIR, exist_ok=True)
    for pcs in sys.argv[3:]:
        check_trace(pcs)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

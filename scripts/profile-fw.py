#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Where the firmware's M-mode instructions go while it traces a program.

    scripts/profile-fw.py [--fw build/tracesbi.elf]
        [--payload build/payloads/trace-prog.elf] [--prog sort] [--append "mode=btm"]
        [--done TRACE-DONE] [--top 40] [--lines FUNC] [--callers FUNC]

Runs the traced-program payload (tests/target/trace) for one program under
QEMU with `-icount shift=0 -singlestep -d exec,nochain`, streams the
execution log through a FIFO (a run logs millions of lines: nothing is kept
on disk) and counts every instruction QEMU entered inside the firmware
image, per function (the ELF's text symbols, from `nm`).  Prints per
function the instructions executed, their share, how many times the
function was entered (the count at its first instruction; loops back to
the entry count too) and the average per entry, then the totals per visit
of the stepper (entries of `stepper_breakpoint`).

The boot's own instructions (FDT fix-ups, console) are in the counts too:
compare two runs, or look at the stepping functions only.  A diagnosis aid
for `make bench-trace`, not a test.
"""

import argparse
import bisect
import collections
import os
import subprocess
import sys
import tempfile
import threading
import time

from tsbi.qemu import command as qemu_command

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
FW_LO, FW_HI = 0x80000000, 0x80200000


def text_symbols(elf):
    out = subprocess.run(['riscv64-unknown-elf-nm', '-n', elf], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'tTwW':
            syms.append((int(p[0], 16), p[2]))
    return syms


def count_log(fifo, counts, watch, calls):
    """Instructions per pc from the log lines `Trace N: 0x... [ctx/PC/...]`;
    for each pc in watch (function entries), the pcs it was entered from."""
    prev = 0
    with open(fifo, errors='replace') as f:
        for line in f:
            if not line.startswith('Trace '):
                continue
            try:
                pc = int(line.split('[', 1)[1].split('/', 2)[1], 16)
            except (IndexError, ValueError):
                continue
            if FW_LO <= pc < FW_HI:
                counts[pc] += 1
                if pc in watch:
                    calls[(pc, prev)] += 1
            prev = pc


def run(args, counts, watch=frozenset(), calls=None):
    with tempfile.TemporaryDirectory() as tmp:
        fifo, serial = os.path.join(tmp, 'exec.log'), os.path.join(tmp, 'serial.txt')
        os.mkfifo(fifo)
        reader = threading.Thread(target=count_log,
                                  args=(fifo, counts, watch, calls if calls is not None
                                        else collections.Counter()))
        reader.start()
        qemu = subprocess.Popen(
            qemu_command(args.fw, args.payload, smp=1, console='none', icount='bench',
                         append=f'tick=3000 only={args.prog} {args.append}'.strip(),
                         extra=['-monitor', 'none', '-serial', 'file:' + serial,
                                '-singlestep', '-d', 'exec,nochain', '-D', fifo]),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        text, deadline = '', time.time() + args.timeout
        try:
            while args.done not in text:
                if qemu.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f'no {args.done} from the payload')
                time.sleep(0.5)
                if os.path.exists(serial):
                    text = open(serial, errors='replace').read()
        finally:
            qemu.kill()
            qemu.wait()
            reader.join()
        return [l for l in text.splitlines() if l.startswith(('TRACEPROG', 'TRACE-DONE'))]


def print_lines(elf, syms, addrs, counts, func):
    """Instructions per source line (addr2line -i: the innermost inlined line) of func."""
    pcs = sorted(pc for pc in counts
                 if syms[bisect.bisect_right(addrs, pc) - 1][1] == func)
    if not pcs:
        return
    out = subprocess.run(['riscv64-unknown-elf-addr2line', '-e', elf] + [hex(p) for p in pcs],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    per = collections.Counter()
    for pc, where in zip(pcs, out):
        per[os.path.basename(where.split(' ')[0])] += counts[pc]
    print(f'-- {func}, per source line')
    for where, c in per.most_common(40):
        print(f'{c:12d}  {where}')


def print_callers(elf, syms, calls, func):
    """Where func was entered from: the calling pc's source line, with the
    lines it is inlined into (addr2line -i), most frequent first."""
    entry = next((a for a, n in syms if n == func), None)
    sites = [(prev, c) for (pc, prev), c in calls.items() if pc == entry]
    if not sites:
        return
    print(f'-- {func}, entered from')
    for prev, c in sorted(sites, key=lambda x: -x[1])[:20]:
        out = subprocess.run(['riscv64-unknown-elf-addr2line', '-i', '-f', '-e', elf, hex(prev)],
                             capture_output=True, text=True, check=True).stdout.split('\n')
        chain = ' < '.join(f'{out[i]}@{os.path.basename(out[i + 1].split(" ")[0])}'
                           for i in range(0, len(out) - 1, 2))
        print(f'{c:12d}  {chain}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--fw', default=os.path.join(ROOT, 'build/tracesbi.elf'))
    ap.add_argument('--payload', default=os.path.join(ROOT, 'build/payloads/trace-prog.elf'))
    ap.add_argument('--prog', default='sort', help='program of tests/target/trace (only=)')
    ap.add_argument('--append', default='', help='more bootargs, e.g. "mode=btm" or "notrace"')
    ap.add_argument('--done', default='TRACE-DONE',
                    help='the console line that ends the run (e.g. "DONE: bench" for bench-ctr.elf)')
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--lines', metavar='FUNC', action='append', default=[],
                    help='also print the instructions per source line of FUNC')
    ap.add_argument('--callers', metavar='FUNC', action='append', default=[],
                    help='also print where FUNC was entered from (a jump back to '
                         'its first instruction counts as an entry from FUNC itself)')
    args = ap.parse_args()

    syms = text_symbols(args.fw)
    addrs = [a for a, _ in syms]
    counts, calls = collections.Counter(), collections.Counter()
    watch = frozenset(a for a, n in syms if n in args.callers)
    try:
        lines = run(args, counts, watch, calls)
    except RuntimeError as e:
        print(f'profile-fw: {e}', file=sys.stderr)
        return 1
    per, entries = collections.Counter(), collections.Counter()
    for pc, c in counts.items():
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 else '?'
        per[name] += c
        if i >= 0 and syms[i][0] == pc:
            entries[name] += c
    total = sum(per.values())
    print('\n'.join(lines))
    print(f'M-mode instructions in the firmware: {total}')
    print(f'{"instructions":>12} {"share":>6} {"entries":>8} {"per entry":>9}  function')
    for name, c in per.most_common(args.top):
        e = entries.get(name, 0)
        print(f'{c:12d} {100 * c / total:5.1f}% {e:8d} {c / e if e else 0:9.1f}  {name}')
    for func in args.lines:
        print_lines(args.fw, syms, addrs, counts, func)
    for func in args.callers:
        print_callers(args.fw, syms, calls, func)
    visits = entries.get('stepper_breakpoint', 0)
    if visits:
        print(f'stepper visits (entries of stepper_breakpoint): {visits}, '
              f'{total / visits:.0f} M-mode instructions a visit (boot included)')
    return 0


if __name__ == '__main__':
    sys.exit(main())

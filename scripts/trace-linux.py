#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make trace-linux: boot a Linux kernel traced from its first instruction
and list what it executed, with the kernel's symbols.

    scripts/trace-linux.py [--fw build/tracesbi.elf] [--kernel build/linux/Image]
        [--vmlinux build/linux/vmlinux] [--ntrace build/tools/ntrace]
        [--smp 1] [--trace stop,buf=0x8f000000:0x8000] [--append ARGS]
        [--user-elf ELF]... [--outdir build/trace-linux] [--lines 40] [--save-after S]
        [--ground-truth N]

The kernel boots under QEMU virt with `tracesbi.trace=TRACE,hold`
(tests/trace/linux-run.py, no execution log: a boot takes seconds): each
hart is traced from its first S-mode instruction (the kernel's first, at its
physical load address, with the MMU off) into its share of the buffer of
--trace, which stops on wrap by default.  When init powers off, the
firmware holds the machine; each hart's buffer is saved
(OUTDIR/linux.hart<H>.nex) with its sidecar (.nex.tci).  Each buffer is
decoded with `ntrace decode --listing --elf VMLINUX`: the sidecar's
next-addr (where the firmware started the kernel, from its trace
directory) puts vmlinux's load image there besides its virtual addresses,
as `--elf VMLINUX@LOAD` would, so the listing names the kernel's functions
before and after the MMU is on; --user-elf adds user-space programs' ELFs
(`make trace-linux` gives the test kernel's init).  The listing (timestamps when
`ts` is in --trace, address, symbol+offset, disassembly; traps, syncs and
the trace's end on their own lines) goes to OUTDIR/listing.txt, a `# hart
H` line before each hart's part; the first --lines instructions of hart 0
(or of each hart, --all-harts) are printed, then a summary per hart and
the ntrace commands that read the buffers further, ready to run.

A kernel whose boot does not end in a system reset (its own init) takes
--save-after S: the buffers are saved S seconds into the boot.
--ground-truth N also writes QEMU's execution log of the run's first N
instructions (OUTDIR/linux.gt.hart0.pcs, linux-run.py), against which
tests/trace/linux-test.py checks the listing.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
VIRTUAL_BASE = 1 << 63          # Linux riscv64's kernel addresses are above it


def rel(path):
    return os.path.relpath(path, os.getcwd())


def listing(args, nex):
    """`ntrace decode --listing` of one buffer: (text, errors or '')."""
    d = subprocess.run([args.ntrace, 'decode', '--listing'] + elf_args(args) + [nex], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return d.stdout, d.stderr if d.returncode or d.stderr else ''


def instruction_lines(text):
    return [l for l in text.splitlines() if l and not l.startswith('--')]


def first_virtual(lines):
    """(index from 1, line) of the first instruction at a virtual address."""
    for i, l in enumerate(lines, 1):
        f = l.split()
        addr = f[1] if f[0].startswith('t=') else f[0]
        if int(addr, 16) >= VIRTUAL_BASE:
            return i, l
    return None, None


def print_head(text, n):
    """The listing up to its n-th instruction line (event lines too)."""
    shown = 0
    for line in text.splitlines():
        if shown >= n:
            print('...')
            return
        print(line)
        if not line.startswith('--'):
            shown += 1


def elf_args(args):
    """--elf VMLINUX, then --elf for each user-space ELF (--user-elf)."""
    return [a for e in [args.vmlinux] + args.user_elf for a in ('--elf', e)]


def commands(args, bufs):
    q = shlex.quote
    tool = rel(args.ntrace)
    elf = ' --elf '.join(q(rel(e)) for e in [args.vmlinux] + args.user_elf)
    nexes = [rel(b['path']) for b in bufs]
    out = rel(args.outdir)
    return [f'{tool} decode --listing --elf {elf} {q(nexes[0])} | less',
            f'{tool} decode --symbols --elf {elf} {q(nexes[0])} --out {q(os.path.join(out, "hart0.txt"))}',
            f'{tool} profile --elf {elf} {q(nexes[0])}',
            f'{tool} profile --svg --out {q(os.path.join(out, "flame.svg"))} --elf {elf} '
            f'{q(nexes[0])}',
            f'{tool} timeline --svg --out {q(os.path.join(out, "timeline.svg"))} --elf {elf} '
            + ' '.join(q(n) for n in nexes),
            f'{tool} stats --elf {elf} {q(nexes[0])}']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--kernel', default='build/linux/Image')
    ap.add_argument('--vmlinux', default='build/linux/vmlinux')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--user-elf', action='append', default=[], metavar='ELF',
                    help='a user-space program\'s ELF (init), for the trace of it; repeatable')
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--trace', default='stop,buf=0x8f000000:0x8000',
                    help='tracesbi.trace= options (hold is added)')
    ap.add_argument('--append', default='', help='more of the kernel command line')
    ap.add_argument('--outdir', default='build/trace-linux')
    ap.add_argument('--lines', type=int, default=40)
    ap.add_argument('--all-harts', action='store_true', help='print every hart\'s first lines')
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--save-after', metavar='S',
                    help='save the buffers S seconds into the boot (default: at its reset)')
    ap.add_argument('--ground-truth', metavar='N', help='log the first N instructions too')
    args = ap.parse_args()
    for attr in ('fw', 'kernel', 'vmlinux', 'ntrace', 'outdir'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    args.user_elf = [os.path.abspath(e) for e in args.user_elf]
    os.makedirs(args.outdir, exist_ok=True)
    name = 'linux'
    base = os.path.join(args.outdir, name)
    print(f'trace-linux: {rel(args.kernel)} on {args.smp} hart(s), '
          f'tracesbi.trace={args.trace}', flush=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'tests/trace/linux-run.py'),
                        '--fw', args.fw, '--kernel', args.kernel, '--vmlinux', args.vmlinux,
                        '--name', name, '--outdir', args.outdir, '--smp', str(args.smp),
                        '--trace', args.trace, '--append', args.append,
                        '--timeout', str(args.timeout)] +
                       (['--save-after', args.save_after] if args.save_after else []) +
                       (['--ground-truth', args.ground_truth] if args.ground_truth else []))
    if r.returncode != 0:
        print(f'trace-linux: the run failed (console: {rel(base)}.out)', file=sys.stderr)
        return 1
    run = json.load(open(base + '.json'))
    load, bufs = run['load'], run['buffers']
    status = 0
    summary = []
    path = os.path.join(args.outdir, 'listing.txt')
    with open(path, 'w') as out:
        for b in bufs:
            h = b['hart']
            text, errors = listing(args, b["path"])
            lines = instruction_lines(text)
            if len(bufs) > 1:
                out.write(f'# hart {h}\n')
            out.write(text)
            if h == bufs[0]['hart'] or args.all_harts:
                if len(bufs) > 1:
                    print(f'# hart {h}')
                print_head(text, args.lines)
            n = len(lines)
            s = (f'hart {h}: {b["len"]} bytes ({b["what"]}), {n} instructions, '
                 f'{8 * b["len"] / n if n else 0:.2f} bits/instruction')
            at, line = first_virtual(lines)
            if at:
                s += f'; MMU on at instruction {at}: {" ".join(line.split()[:2])}'
            summary.append(s)
            if errors:
                status = 1
                summary.append(f'hart {h}: ntrace reported:\n' +
                               '\n'.join('    ' + l for l in errors.splitlines()[:14]))
    print(f'trace-linux: kernel loaded at {load:#x} (the sidecars\' next-addr, which puts '
          f'vmlinux\'s load image there: as --elf {rel(args.vmlinux)}@{load:#x}); '
          f'{"user space reached" if run["userspace"] else "user space NOT reached"}')
    for s in summary:
        print('trace-linux: ' + s)
    print(f'trace-linux: listing in {rel(path)}, buffers in {rel(base)}.hart<H>.nex, each '
          f'with its sidecar .nex.tci, which ntrace reads by itself; to read them further:')
    for c in commands(args, bufs):
        print('  ' + c)
    return status


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make trace: run a payload traced by tracesbi and list what it executed.

    scripts/trace-listing.py [--fw build/tracesbi.elf]
        [--payload build/payloads/trace-prog.elf] [--ntrace build/tools/ntrace]
        [--tvtrace build/tools/tvtrace] [--append "ARGS"] [--smp 1]
        [--outdir build/trace] [--lines 40]

The payload runs under QEMU (tests/trace/trace-run.py --no-ground-truth: no
execution log, so it is fast); it must follow the protocol of the
traced-program payload (tests/target/trace): configure the trace itself,
print a TRACEBUF line per traced hart and then TRACE-DONE, and hold the
machine.  Its boot arguments are bootargs.DEFAULT merged with --append: a word
of --append replaces the default of the same name (`tick=500` the default
tick), the others are added (`only=recurse` keeps tick=3000).

Each hart's trace buffer is saved through QEMU's monitor
(OUTDIR/trace.hart<H>.nex, oldest byte first) with its sidecar
(trace.hart<H>.nex.tci: the encoder's registers, whether the sink wrapped),
so `ntrace decode --symbols --elf PAYLOAD trace.hart<H>.nex` decodes it with
no option.  A tandem-verification buffer (the TRACEBUF line's ingress has
bit 2: the `tv` boot argument) holds Bluespec TV records instead: it goes to
`tvtrace dump` for the listing and `tvtrace check --elf PAYLOAD
--idle-padded` for the summary.  The listing (N-Trace: one retired
instruction per line, `pc[ exc|int]  symbol+offset`; TV: one record per
line) goes to OUTDIR/listing.txt (a `# hart H` header before each hart's
part); its first --lines lines, a summary and the commands that read the
buffers further are printed.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

from tsbi import bootargs

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

TSBI_INGRESS_TV = 1 << 2        # tsbiTeIngress bit 2 (docs/TRACE.md)


def rel(path):
    return os.path.relpath(path, os.getcwd())


def list_ntrace(args, nex):
    """Decodes one N-Trace buffer (its sidecar gives the settings): (listing,
    instructions, errors or '')."""
    d = subprocess.run([args.ntrace, 'decode', '--symbols', '--elf', args.payload, nex],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    n = sum(1 for l in d.stdout.splitlines() if l and not l.startswith('#'))
    return d.stdout, n, d.stderr if d.returncode else ''


def list_tv(args, nex):
    """One TV buffer: `tvtrace dump` as the listing, `tvtrace check`'s summary."""
    d = subprocess.run([args.tvtrace, 'dump', '--idle-padded', nex], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    c = subprocess.run([args.tvtrace, 'check', '--elf', args.payload, '--idle-padded', nex],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = c.stdout.splitlines()[0] if c.stdout.strip() else ''
    bad = d.returncode or c.returncode
    return d.stdout, first.split(': ', 1)[-1], (d.stderr + c.stdout + c.stderr) if bad else ''


def commands(args, base, bufs, tv):
    """The commands that read the saved buffers further, ready to run."""
    elf, q = rel(args.payload), shlex.quote
    nexes = [rel(f'{base}.hart{b["hart"]}.nex') for b in bufs]
    if tv:
        tool = rel(args.tvtrace)
        return [f'{tool} dump --idle-padded {q(nexes[0])}',
                f'{tool} check --elf {q(elf)} --idle-padded {q(nexes[0])}']
    tool = rel(args.ntrace)
    out = rel(args.outdir)
    return [f'{tool} decode --listing --elf {q(elf)} {q(nexes[0])} | less',
            f'{tool} profile --elf {q(elf)} {q(nexes[0])}',
            f'{tool} profile --svg --out {q(os.path.join(out, "flame.svg"))} --elf {q(elf)} '
            f'{q(nexes[0])}',
            f'{tool} timeline --svg --out {q(os.path.join(out, "timeline.svg"))} --elf {q(elf)} '
            + ' '.join(q(n) for n in nexes)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--payload', default='build/payloads/trace-prog.elf')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--tvtrace', default='build/tools/tvtrace')
    ap.add_argument('--append', default='',
                    help=f'boot arguments, merged with the defaults ({bootargs.DEFAULT})')
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--outdir', default='build/trace')
    ap.add_argument('--lines', type=int, default=40)
    ap.add_argument('--timeout', type=int, default=600)
    args = ap.parse_args()
    for attr in ('fw', 'payload', 'ntrace', 'tvtrace', 'outdir'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.outdir, exist_ok=True)
    name = 'trace'
    base = os.path.join(args.outdir, name)
    boot = bootargs.merge(bootargs.DEFAULT, args.append)
    print(f'trace: {rel(args.payload)} on {args.smp} hart(s), boot args "{boot}"', flush=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'tests/trace/trace-run.py'),
                        '--no-ground-truth', '--fw', args.fw, '--payload', args.payload,
                        '--name', name, '--outdir', args.outdir, '--smp', str(args.smp),
                        '--append', boot, '--timeout', str(args.timeout)])
    if r.returncode != 0:
        print(f'trace: the run failed (console: {rel(base)}.out)', file=sys.stderr)
        return 1
    bufs = json.load(open(base + '.json'))
    tv = any(b.get('ingress', 0) & TSBI_INGRESS_TV for b in bufs)
    listing = os.path.join(args.outdir, 'listing.txt')
    status = 0
    summary = []
    with open(listing, 'w') as out:
        for b in bufs:
            h = b['hart']
            nex = f'{base}.hart{h}.nex'
            if len(bufs) > 1:
                out.write(f'# hart {h}\n')
            size = f'{b["len"]} bytes{" (wrapped)" if b["wrap"] else ""}'
            if b.get('ingress', 0) & TSBI_INGRESS_TV:
                text, what, errors = list_tv(args, nex)
                summary.append(f'hart {h}: {size} of tandem-verification records: {what}')
                tool = 'tvtrace'
            else:
                text, n, errors = list_ntrace(args, nex)
                summary.append(f'hart {h}: {size}, {n} instructions decoded, '
                               f'{8 * b["len"] / n if n else 0:.2f} bits/instruction')
                tool = 'ntrace decode'
            out.write(text)
            if errors:
                status = 1
                summary.append(f'hart {h}: {tool} reported errors:\n' +
                               '\n'.join('    ' + l for l in errors.splitlines()[:14]))
    with open(listing) as f:
        for i, line in enumerate(f):
            if i >= args.lines:
                print('...')
                break
            sys.stdout.write(line)
    for s in summary:
        print('trace: ' + s)
    if tv:
        print(f'trace: listing in {rel(listing)}, buffers (tandem-verification records) in '
              f'{rel(base)}.hart<H>.nex; to read them:')
    else:
        print(f'trace: listing in {rel(listing)}, buffers in {rel(base)}.hart<H>.nex, each with '
              f'its sidecar .nex.tci, which ntrace reads by itself; to read them further:')
    for c in commands(args, base, bufs, tv):
        print('  ' + c)
    return status


if __name__ == '__main__':
    sys.exit(main())

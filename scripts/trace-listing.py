#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make trace: run a payload traced by tracesbi and list what it executed.

    scripts/trace-listing.py [--fw build/tracesbi.elf]
        [--payload build/payloads/trace-prog.elf] [--ntrace build/tools/ntrace]
        [--append "tick=3000"] [--smp 1] [--outdir build/trace] [--lines 40]

The payload runs under QEMU (tests/trace/trace-run.py --no-ground-truth: no
execution log, so it is fast); it must follow the protocol of the
traced-program payload (tests/target/trace): configure the trace itself,
print a TRACEBUF line per traced hart and then TRACE-DONE, and hold the
machine.  Each hart's trace buffer is saved through QEMU's monitor
(OUTDIR/trace.hart<H>.nex, oldest byte first) and decoded by
`ntrace decode --symbols` with the encoder's registers from its TRACEBUF
line (`--wrapped` when the buffer wrapped).  The listing, one retired
instruction per line (`pc[ exc|int]  symbol+offset`), goes to
OUTDIR/listing.txt (a `# hart H` header before each hart's part); its first
--lines lines and a summary are printed.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--payload', default='build/payloads/trace-prog.elf')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--append', default='tick=3000')
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--outdir', default='build/trace')
    ap.add_argument('--lines', type=int, default=40)
    ap.add_argument('--timeout', type=int, default=600)
    args = ap.parse_args()
    for attr in ('fw', 'payload', 'ntrace', 'outdir'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.outdir, exist_ok=True)
    name = 'trace'
    base = os.path.join(args.outdir, name)
    print(f'trace: {os.path.relpath(args.payload, ROOT)} on {args.smp} hart(s), '
          f'boot args "{args.append}"', flush=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'tests/trace/trace-run.py'),
                        '--no-ground-truth', '--fw', args.fw, '--payload', args.payload,
                        '--name', name, '--outdir', args.outdir, '--smp', str(args.smp),
                        '--append', args.append, '--timeout', str(args.timeout)])
    if r.returncode != 0:
        print(f'trace: the run failed (console: {base}.out)', file=sys.stderr)
        return 1
    bufs = json.load(open(base + '.json'))
    listing = os.path.join(args.outdir, 'listing.txt')
    status = 0
    summary = []
    with open(listing, 'w') as out:
        for b in bufs:
            h = b['hart']
            nex = f'{base}.hart{h}.nex'
            tci = f'{b["control"]:#x},{b["features"]:#x},{b["tscontrol"]:#x}'
            cmd = [args.ntrace, 'decode', '--symbols', '--elf', args.payload, '--tci', tci]
            if b['wrap']:
                cmd.append('--wrapped')
            d = subprocess.run(cmd + [nex], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if len(bufs) > 1:
                out.write(f'# hart {h}\n')
            out.write(d.stdout)
            n = sum(1 for l in d.stdout.splitlines() if l and not l.startswith('#'))
            summary.append(f'hart {h}: {b["len"]} bytes{" (wrapped)" if b["wrap"] else ""}, '
                           f'{n} instructions decoded, '
                           f'{8 * b["len"] / n if n else 0:.2f} bits/instruction')
            if d.returncode != 0:
                status = 1
                summary.append(f'hart {h}: ntrace decode reported errors:\n' +
                               '\n'.join('    ' + l for l in d.stderr.splitlines()[:10]))
    with open(listing) as f:
        for i, line in enumerate(f):
            if i >= args.lines:
                print('...')
                break
            sys.stdout.write(line)
    for s in summary:
        print('trace: ' + s)
    print(f'trace: listing in {os.path.relpath(listing, ROOT)}, buffers in '
          f'{os.path.relpath(base, ROOT)}.hart<H>.nex')
    return status


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make bench-trace-linux: what tracing a Linux boot costs.

    scripts/bench-trace-linux.py [--fw build/tracesbi.elf]
        [--kernel build/linux/Image] [--vmlinux build/linux/vmlinux]
        [--ntrace build/tools/ntrace] [--init build/linux/initramfs/init]
        [--workdir build/bench-trace-linux]
        [--out build/results/bench-trace-linux.md] [--first-buf BYTES,...]
        [--whole-timeout S] [--no-whole]

The test kernel boots on one hart under QEMU virt with `-icount shift=0`
(instret counts every instruction exactly) through tests/trace/linux-run.py,
whose init (`tracesbi.checks=none`) powers off as soon as user space runs.
At that system reset the firmware prints each hart's trace statistics
(tsbiTeInsns: instructions the encoder reported; tsbiTeBlocks: blocks the
stepper stepped) and the resetting hart's minstret: every instruction it
retired since reset, M-mode included.  Runs:

  untraced   no tracesbi.trace=: the baseline, minstret U
  first      `stop,buf=0x8f000000:FIRST` for each FIRST of --first-buf
             (default 0x4000 and 0x3c000): traced from the kernel's first
             instruction until the buffer fills (about the first 170 000
             and the first million instructions), then untraced
  whole      `buf=0x8c000000:0x1000000`: a wrapping 16 MiB buffer, traced
             to the end (user space and the power-off; a failure is
             reported in its row)

The untraced and `first` runs use `-icount sleep=off` and no `hold`, so
their counts do not depend on the host: the same numbers every run.  The
buffers of `first` come from a second run with `hold` (same first
instructions: nothing before the buffer fills waits for time), and the
`whole` run holds too (sleep=on: the monitor must answer at the hold; its
instruction count then moves with the host by about what the idle loop
takes, well under 0.1 % of it).  Per traced run:

  traced         tsbiTeInsns at the reset
  instr/block    traced / tsbiTeBlocks (instructions per stepped block)
  M/instr        (minstret - U) / traced: the instructions tracing added,
                 per traced instruction (the stepper's M-mode work, and
                 whatever else the slower boot ran: more timer ticks)
  part slowdown  1 + M/instr: the traced part, in instructions
  boot slowdown  minstret / U, and wall time to the reset / untraced's
                 (QEMU's start-up included; the untraced and first runs
                 are made three times, their counts checked equal, the
                 shortest wall time kept: a busy host only slows a run)
  bits/instr     8 * buffer bytes / instructions the saved buffer decodes
                 to (`ntrace decode --elf vmlinux --elf init`: the sidecar
                 places vmlinux's load image, init's ELF covers user
                 space; a wrapped buffer from its first sync message,
                 the bytes before it not counted)

A benchmark: it reports, it never fails on speed.  The table goes to stdout
and to --out.  Exit status 1 when a run that must work fails (untraced,
first) or a buffer does not decode.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
RUN = os.path.join(ROOT, 'tests', 'trace', 'linux-run.py')
WHOLE = 'buf=0x8c000000:0x1000000'


class BenchError(Exception):
    pass


def fastest(args, name, trace, timeout, runs=3):
    """The no-hold run `runs` times: the counts are the same every time
    (sleep=off), the wall time the shortest (the host may be busy)."""
    results = [boot(args, name, trace, False, timeout) for _ in range(runs)]
    for r in results:
        needed(r, name)
    counts = {(r['reset_minstret'], json.dumps(r['sinks'])) for r in results}
    if len(counts) != 1:
        raise BenchError(f'{name}: the counts differ between runs under sleep=off: {counts}')
    return min(results, key=lambda r: r['boot_s'])


def boot(args, name, trace, hold, timeout):
    """One linux-run.py run: its json (with 'error' when it failed)."""
    cmd = [sys.executable, RUN, '--fw', args.fw, '--kernel', args.kernel,
           '--vmlinux', args.vmlinux, '--name', name, '--outdir', args.workdir,
           '--trace', trace, '--icount', '--timeout', str(timeout)]
    if not hold:
        cmd.append('--no-hold')
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = os.path.join(args.workdir, name + '.json')
    res = json.load(open(path)) if os.path.exists(path) else {}
    if r.returncode != 0:
        res['error'] = res.get('error') or r.stderr.strip()[-300:] or f'exit {r.returncode}'
    return res


def needed(res, what):
    if 'error' in res:
        raise BenchError(f'{res.get("name", what)}: {res["error"]}')
    if 'reset_minstret' not in res or not res.get('userspace'):
        raise BenchError(f'{res["name"]}: no user space or no minstret at the reset')
    return res


def decoded_bits(args, res):
    """(bytes, decoded instructions) of hart 0's saved buffer."""
    buf = next((b for b in res.get('buffers', []) if b['hart'] == 0), None)
    if not buf:
        raise BenchError(f'{res["name"]}: no buffer saved for hart 0')
    d = subprocess.run([args.ntrace, 'decode', '--elf', args.vmlinux, '--elf', args.init,
                        buf['path'], '--out', buf['path'] + '.pcs'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A wrapped buffer's one note: the bytes before its first sync message.
    skipped = re.search(r'wrapped buffer: .* the (\d+) bytes before it were skipped', d.stderr)
    errors = [line for line in d.stderr.splitlines() if 'wrapped buffer:' not in line]
    if d.returncode != 0 or errors:
        raise BenchError(f'{res["name"]}: {buf["path"]} does not decode: '
                         f'{(errors or ["exit status " + str(d.returncode)])[0][:300]}')
    with open(buf['path'] + '.pcs') as f:
        n = sum(1 for _ in f)
    os.unlink(buf['path'] + '.pcs')
    return buf['len'] - (int(skipped.group(1)) if skipped else 0), n, buf['what']


def row(label, base, res, bits):
    sink = next(s for s in res['sinks'] if s['hart'] == 0)
    traced, blocks = sink['insns'], sink['blocks']
    extra = res['reset_minstret'] - base['reset_minstret']
    per = extra / traced
    nbytes, held, what = bits
    return (f'| {label} | {traced:,} | {traced / blocks:.2f} | {per:.1f} | {1 + per:.1f} | '
            f'{res["reset_minstret"] / base["reset_minstret"]:.2f} | '
            f'{res["boot_s"] / base["boot_s"]:.2f} | {8 * nbytes / held:.3f} '
            f'({nbytes:,} bytes {what}, {held:,} instructions) |')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--kernel', default='build/linux/Image')
    ap.add_argument('--vmlinux', default='build/linux/vmlinux')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--init', help='init\'s ELF, for the user-space part of a buffer '
                    '(default: initramfs/init next to --kernel)')
    ap.add_argument('--workdir', default='build/bench-trace-linux')
    ap.add_argument('--out', default='build/results/bench-trace-linux.md')
    ap.add_argument('--first-buf', default='0x4000,0x3c000',
                    help='bytes of the first runs\' buffers (comma-separated, one run each)')
    ap.add_argument('--whole-timeout', type=int, default=1800)
    ap.add_argument('--no-whole', action='store_true', help='leave the whole boot out')
    args = ap.parse_args()
    args.init = args.init or os.path.join(os.path.dirname(args.kernel), 'initramfs', 'init')
    for attr in ('fw', 'kernel', 'vmlinux', 'init', 'ntrace', 'workdir', 'out'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.workdir, exist_ok=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    t0 = time.time()
    firsts = [f'stop,buf=0x8f000000:{b}' for b in args.first_buf.split(',')]
    lines = ['## Tracing a Linux boot (1 hart, QEMU -icount shift=0, the test kernel)', '',
             'traced: instructions the encoder reported (tsbiTeInsns); instr/block: per block '
             'the stepper stepped (tsbiTeBlocks); M/instr: (minstret traced - minstret '
             'untraced) / traced, at the system reset after init; part slowdown: 1 + M/instr; '
             'boot slowdown: minstret and wall time to the reset against the untraced boot; '
             'bits/instr: of the saved buffer (scripts/bench-trace-linux.py).', '']
    problems = []
    try:
        base = fastest(args, 'untraced', 'off', 300)
        lines += [f'Untraced boot to user space and the reset: {base["reset_minstret"]:,} '
                  f'instructions, {base["boot_s"]:.2f} s.', '',
                  '| traced part | traced | instr/block | M/instr | part slowdown | '
                  'boot slowdown (instr) | boot slowdown (wall) | bits/instr |',
                  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |']
        for i, first in enumerate(firsts):
            res = fastest(args, f'first{i}', first, 600)
            saved = boot(args, f'first{i}-saved', first, True, 600)
            if 'error' in saved:
                raise BenchError(f'first{i}-saved: {saved["error"]}')
            lines.append(row(f'first (`{first}`)', base, res, decoded_bits(args, saved)))
    except BenchError as e:
        print(f'bench-trace-linux: {e}', file=sys.stderr)
        return 1
    if args.no_whole:
        lines.append(f'| whole boot (`{WHOLE}`) | not run (--no-whole) | | | | | | |')
    else:
        whole = boot(args, 'whole', WHOLE, True, args.whole_timeout)
        try:
            needed(whole, 'whole')
            lines.append(row(f'whole boot (`{WHOLE}`)', base, whole, decoded_bits(args, whole)))
        except BenchError as e:
            problems.append(str(e))
            lines.append(f'| whole boot (`{WHOLE}`) | failed: {e} | | | | | | |')
    lines += ['', f'({time.time() - t0:.0f} s; work files in '
              f'{os.path.relpath(args.workdir, ROOT)})']
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(args.out, 'w') as f:
        f.write(text)
    for p in problems:
        print(f'bench-trace-linux: {p}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())

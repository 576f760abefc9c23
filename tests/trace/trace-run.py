#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""One traced run of the traced-program payload under QEMU.

QEMU runs tracesbi and tests/target/trace's kernel with
`-singlestep -d exec,nochain,int -icount shift=0,align=off,sleep=on`.  The
execution log goes through a FIFO straight into scripts/trace-ground-truth.py
(it is too big to keep: every M-mode instruction of the firmware is in it),
which writes the ground truth per hart.  When the kernel prints TRACE-DONE it
holds the machine; the trace buffers named by its TRACEBUF lines are saved
through QEMU's monitor (oldest byte first: a wrapped buffer is saved as its
two parts in order), then QEMU is killed.

Output in --outdir, for run NAME:
  NAME.out               the console
  NAME.gt.hart<H>.pcs    ground truth (scripts/trace-ground-truth.py)
  NAME.hart<H>.nex       the trace buffer, oldest byte first
  NAME.hart<H>.nex.tci   its sidecar: what `ntrace decode` needs to read the
                         buffer by itself (the encoder's registers, whether
                         the sink wrapped, the hart, the timebase;
                         tools/ntrace/README.md, "The sidecar")
  NAME.json              the TRACEBUF lines, parsed
Exit status 0 when all of that was produced and the kernel said
"TRACE-DONE ok"; otherwise 1 with the reason on stderr.

--no-ground-truth runs QEMU without -singlestep and without the execution
log (much faster; `make trace`): no NAME.gt.* files.

--cpu-log RANGE (with --no-ground-truth) logs QEMU's register dump before
every instruction whose pc is in RANGE (QEMU -dfilter syntax, e.g.
0x80203306+0x2d6) to NAME.cpu.log: `-singlestep -d cpu,nochain -dfilter`.
Register values of a TV-mode trace are checked against it (tv-check.py).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi.qemu_monitor import monitor  # noqa: E402
from tsbi import elf as rvelf  # noqa: E402
from tsbi.qemu import command as qemu_command  # noqa: E402

TRACEBUF_RE = re.compile(r'^TRACEBUF (.*)$')


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except FileNotFoundError:   # QEMU has not opened it yet
        return ''


def unlogged_filter(payload, names):
    """QEMU -dfilter ranges for every address but [START, END) (inclusive
    `lo..hi` ranges)."""
    start, end = (rvelf.Images([rvelf.Elf(payload)]).symbol(n) for n in names.split(','))
    return f'0x0..{start - 1:#x},{end:#x}..0xffffffffffffffff'


def parse_tracebuf(line):
    fields = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
    out = {}
    for key, val in fields.items():
        try:
            out[key] = int(val, 0)
        except ValueError:
            out[key] = val
    return out


def sidecar_text(nex, b):
    """The sidecar of buffer `nex` from its TRACEBUF line `b`
    (tools/ntrace/README.md, "The sidecar")."""
    lines = [f'# {os.path.basename(nex)}: what ntrace needs to decode it (tests/trace/trace-run.py,',
             '# from the TRACEBUF line of the trace payload)',
             f'control={b["control"]:#x}', f'features={b["features"]:#x}',
             f'tscontrol={b.get("tscontrol", 0):#x}']
    if 'ingress' in b:
        lines.append(f'ingress={b["ingress"]:#x}')
    # Wrapped around: the oldest byte is inside a message.  A sink that
    # stopped on wrap holds the start of the stream instead.
    lines.append(f'wrapped={int(bool(b["wrap"]) and not b.get("stoponwrap", 0))}')
    lines.append(f'hart={b["hart"]}')
    if b.get('timebase'):
        lines.append(f'timebase-hz={b["timebase"]}')
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--fw', required=True)
    ap.add_argument('--payload', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--append', default='')
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--cpu', default='rv64,sscofpmf=true')
    ap.add_argument('--ecall-no-retire', action='store_true')
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--no-ground-truth', action='store_true',
                    help='no execution log, no ground truth (just the trace buffers)')
    ap.add_argument('--also-directory-save', action='store_true',
                    help='also save the buffers with scripts/trace-save.py (the firmware\'s '
                         'trace directory) as NAME.dir.hart<H>.nex, before QEMU ends')
    ap.add_argument('--cpu-log', metavar='RANGE',
                    help='with --no-ground-truth: register dumps at pcs in RANGE')
    ap.add_argument('--unlogged', metavar='START,END',
                    help='two payload symbols: QEMU leaves the code in [START, END) out '
                         'of the execution log (-dfilter), e.g. an untraced hart\'s loop')
    args = ap.parse_args()
    if args.cpu_log and not args.no_ground_truth:
        ap.error('--cpu-log needs --no-ground-truth')

    base = os.path.join(args.outdir, args.name)
    fifo, sock, out = base + '.fifo', base + '.sock', base + '.out'
    for f in (fifo, sock, out):
        if os.path.exists(f):
            os.unlink(f)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    if args.no_ground_truth:
        gt = None
        logging = []
        if args.cpu_log:
            logging = ['-singlestep', '-d', 'cpu,fpu,nochain', '-dfilter', args.cpu_log,
                       '-D', base + '.cpu.log']
    else:
        os.mkfifo(fifo)
        gt_cmd = [sys.executable, os.path.join(root, 'scripts/trace-ground-truth.py'),
                  '--firmware', args.fw, '--elf', args.payload, '--out-prefix', base + '.gt']
        if args.ecall_no_retire:
            gt_cmd.append('--ecall-no-retire')
        gt = subprocess.Popen(gt_cmd + [fifo], stderr=open(base + '.gt.log', 'w'))
        logging = ['-singlestep', '-d', 'exec,nochain,int', '-D', fifo]
        if args.unlogged:
            logging += ['-dfilter', unlogged_filter(args.payload, args.unlogged)]
    # icount 'held' (sleep=on): with sleep=off QEMU 7.2 stops serving its
    # monitor once every hart is idle with no timer armed (the held
    # machine).  Idle time then advances the clock in real time, so
    # interrupt positions after a wfi vary between runs; the ground truth
    # is from this run.
    qemu = subprocess.Popen(qemu_command(
        args.fw, args.payload, smp=args.smp, cpu=args.cpu, console='none', append=args.append,
        icount='held', extra=['-serial', 'file:' + out, '-monitor', f'unix:{sock},server,nowait']
        + logging), stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=open(base + '.qemu.log', 'w'))

    def fail(msg):
        qemu.kill()
        if gt:
            gt.kill()
        print(f'trace-run: {args.name}: {msg}', file=sys.stderr)
        sys.exit(1)

    deadline = time.time() + args.timeout
    text = ''
    while 'TRACE-DONE' not in text:
        if qemu.poll() is not None:
            fail(f'QEMU exited ({qemu.returncode}) before TRACE-DONE')
        if time.time() > deadline:
            fail(f'no TRACE-DONE within {args.timeout} s')
        time.sleep(0.2)
        text = read_text(out)
    time.sleep(0.2)
    text = read_text(out)
    bufs = [parse_tracebuf(m.group(1)) for m in
            (TRACEBUF_RE.match(l) for l in text.splitlines()) if m]
    cmds = []
    for b in bufs:
        h, first, n = b['hart'], b['first'], b['len']
        end = b['limit'] + 4
        part1 = min(n, end - first)
        cmds.append(f'pmemsave {first} {part1} "{base}.hart{h}.a"')
        cmds.append(f'pmemsave {b["start"]} {n - part1} "{base}.hart{h}.b"' if n > part1
                    else f'pmemsave {b["start"]} 0 "{base}.hart{h}.b"')
    try:
        monitor(sock, cmds)
    except (OSError, RuntimeError) as e:
        fail(f'saving the buffers: {e}')
    if args.also_directory_save:
        save = subprocess.run([sys.executable, os.path.join(os.path.dirname(
            os.path.abspath(__file__)), '..', '..', 'scripts', 'trace-save.py'),
            '--monitor', sock, '--fw', args.fw, '--out', base + '.dir', '--stay-stopped'],
            stdout=open(base + '.dir.log', 'w'), stderr=subprocess.STDOUT)
        if save.returncode != 0:
            fail(f'scripts/trace-save.py failed: {open(base + ".dir.log").read()[-300:]}')
    # Not `quit`: QEMU 7.2 under -icount spins forever in it while every
    # hart is halted.  What a kill loses of the log is the tail after the
    # sessions ended (the TRACEBUF printing), which no ground truth needs.
    qemu.kill()
    qemu.wait(timeout=60)
    if gt and gt.wait(timeout=args.timeout) != 0:
        print(open(base + '.gt.log').read(), file=sys.stderr, end='')
        fail('the ground-truth extractor failed')
    for b in bufs:
        h = b['hart']
        nex = f'{base}.hart{h}.nex'
        with open(nex, 'wb') as f:
            for part in ('a', 'b'):
                p = f'{base}.hart{h}.{part}'
                with open(p, 'rb') as src:
                    f.write(src.read())
                os.unlink(p)
        with open(nex + '.tci', 'w') as f:
            f.write(sidecar_text(nex, b))
    if gt:
        os.unlink(fifo)
    json.dump(bufs, open(base + '.json', 'w'), indent=1)
    if 'TRACE-DONE ok' not in text:
        fail('the kernel reported a failure: ' +
             ' | '.join(l for l in text.splitlines() if l.startswith(('TRACE', 'tk:'))))
    return 0


if __name__ == '__main__':
    sys.exit(main())

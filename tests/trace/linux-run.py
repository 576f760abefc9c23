#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""One boot of a Linux kernel traced by tracesbi from its first instruction.

    tests/trace/linux-run.py --fw build/tracesbi.elf --kernel build/linux/Image
        --vmlinux build/linux/vmlinux --name NAME --outdir DIR [--smp N]
        [--trace OPTIONS] [--append ARGS] [--ground-truth N [--gt-harts K]]
        [--icount] [--timeout S] [--save-after S] [--no-hold]

QEMU virt boots the kernel under the firmware with `tracesbi.trace=OPTIONS,
hold` on its command line (docs/TRACE.md, "Boot option"; OPTIONS default
`stop`: each hart's 4 KiB SRAM, stop on wrap) and `tracesbi.checks=none`
(the test init only prints the instructions its hart retired and powers
off: tests/linux/README.md).  Every selected hart is traced from its first
S-mode instruction.  At the system reset that ends the boot the firmware
stops the traces and holds the machine; scripts/trace-save.py then saves
each hart's buffer from the firmware's trace directory (oldest byte first,
with its sidecar: the registers as the encoder holds them, whether it
wrapped, the hart, the timebase), and QEMU is killed.  --save-after S
saves them S seconds into the run instead, the machine stopped wherever it
is (for a kernel whose boot does not end in a system reset).  --no-hold
leaves `hold` out: the reset ends QEMU and nothing is saved; NAME.json
still has what the firmware printed at the reset (each sink's length, the
encoder's tsbiTeInsns and tsbiTeBlocks, the resetting hart's minstret:
scripts/bench-trace-linux.py).

Output in --outdir, for run NAME:
  NAME.out               the console
  NAME.hart<H>.nex       hart H's trace buffer, with NAME.hart<H>.nex.tci
  NAME.json              the run: the kernel's load address (the firmware's
                         "Next" line: where `--elf vmlinux@ADDR` puts the
                         load image), each buffer, how far the boot got, the
                         instructions init's hart had retired (`instret`)
  NAME.gt.hart<H>.pcs    with --ground-truth: QEMU's execution log of the
                         same run, through scripts/trace-ground-truth.py
Exit status 0 when the boot reached the firmware's hold and the buffers
were saved; 1 otherwise, the reason on stderr (a boot that does not
complete within --timeout says how far it got).

--ground-truth N logs the run with `-singlestep -d exec,nochain,int
-dfilter RANGES`: RANGES leave the firmware's code out but for its trap
vectors (its `trap_entry*` symbols), so the log holds the S/U code and one
line per trap into M, which is what the ground truth's rules need
(scripts/trace-ground-truth.py, "LOGS FILTERED BY ADDRESS").  The log goes
through a FIFO into the extractor (`--stop-after N --stop-harts K`): once K
harts (--gt-harts, default 1) have N instructions of ground truth, it
says so, and the monitor turns QEMU's log and single-stepping off; the
boot goes on at full speed.  A stop-on-wrap buffer that holds fewer than N
instructions is then checked whole.

--icount runs QEMU with `-icount shift=0,align=off,sleep=on` (always with
--ground-truth: the extractor needs the harts run round-robin).  sleep=on,
as tests/trace/trace-run.py: with sleep=off QEMU 7.2 stops serving its
monitor once every hart is idle (the held machine); the instruction
stream, which is all the comparison needs, is the run's own either way.
With --no-hold there is no monitor to serve: sleep=off, so that the run's
instruction counts do not depend on the host's speed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import elf as rvelf  # noqa: E402
from tsbi.qemu_monitor import monitor, MonitorError  # noqa: E402
from tsbi import trace_save  # noqa: E402
from tsbi import qemu as runner  # noqa: E402

HOLD_LINE = 'tracesbi: trace captured, holding'
NEXT_RE = re.compile(r'^Next +: (0x[0-9a-f]+) in S-mode', re.M)
USERSPACE_LINE = 'tracesbi-init: started'
INSTRET_RE = re.compile(r'tracesbi-init: instret (\d+)')
SINK_RE = re.compile(r'tracesbi: trace hart (\d+): \S+ \S+ first \S+ len (\d+) '
                     r'insns (\d+) blocks (\d+)')
MINSTRET_RE = re.compile(r'tracesbi: system reset on hart (\d+) at minstret (\d+)')


def dfilter_ranges(fw):
    """QEMU -dfilter ranges: everything but the firmware, whose trap vectors
    (trap_entry* symbols, the first instruction of every trap into M) stay
    in."""
    lo, hi = rvelf.Elf(fw).load_range
    vectors = rvelf.trap_vectors(fw)
    ranges = ([f'0x0..{lo - 1:#x}'] if lo else []) + [f'{v:#x}+1' for v in vectors]
    return ','.join(ranges + [f'{hi:#x}..0xffffffffffffffff'])


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read().replace('\r', '')
    except FileNotFoundError:
        return ''


def console_facts(text):
    """What the console says of the boot."""
    facts = {'userspace': USERSPACE_LINE in text, 'held': HOLD_LINE in text}
    m = NEXT_RE.search(text)
    if m:
        facts['load'] = int(m.group(1), 16)
    m = INSTRET_RE.search(text)
    if m:
        facts['instret'] = int(m.group(1))
    facts['sinks'] = [dict(zip(('hart', 'len', 'insns', 'blocks'), map(int, m.groups())))
                      for m in SINK_RE.finditer(text)]
    m = MINSTRET_RE.search(text)
    if m:
        facts['reset_hart'], facts['reset_minstret'] = int(m.group(1)), int(m.group(2))
    return facts


def qemu_command(args, cmdline, out, sock, fifo):
    extra = ['-serial', 'file:' + out, '-monitor', f'unix:{sock},server,nowait']
    if fifo:
        extra += ['-singlestep', '-d', 'exec,nochain,int', '-dfilter',
                  dfilter_ranges(args.fw), '-D', fifo]
    icount = None
    if args.icount or fifo:
        icount = 'exact' if args.no_hold else 'held'
    return runner.command(args.fw, args.kernel, smp=args.smp, console='none', append=cmdline,
                          icount=icount, extra=extra)


def save_buffers(args, sock, base):
    """trace-save.py at the hold: [{hart, path, len, what, wrapped}]."""
    ns = argparse.Namespace(monitor=sock, fw=args.fw, directory=None, out=base, hart=None,
                            stay_stopped=True)
    bufs = []
    for hartid, path, n, what in trace_save.save(ns):
        bufs.append({'hart': hartid, 'path': path, 'len': n, 'what': what,
                     'wrapped': what == 'wrapped'})
    return sorted(bufs, key=lambda b: b['hart'])


def remove_old(base, smp):
    for f in [base + s for s in ('.fifo', '.sock', '.out', '.json')] + \
            [f'{base}{s}{h}{e}' for h in range(smp) for s in ('.hart', '.gt.hart', '.dec.hart')
             for e in ('.nex', '.nex.tci', '.pcs')]:
        if os.path.exists(f):
            os.unlink(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--trace', default='stop',
                    help='tracesbi.trace= options (hold is added); "" or "off": no tracing')
    ap.add_argument('--append', default='', help='more of the kernel command line')
    ap.add_argument('--ground-truth', type=int, metavar='N')
    ap.add_argument('--gt-harts', type=int, default=1, metavar='K')
    ap.add_argument('--icount', action='store_true')
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--save-after', type=float, metavar='S',
                    help='save the buffers S seconds into the run (default: at the hold)')
    ap.add_argument('--no-hold', action='store_true',
                    help='no hold: the reset ends QEMU, nothing is saved (-icount sleep=off)')
    ap.add_argument('--load', type=lambda v: int(v, 0), default=0x80200000,
                    help='where QEMU virt loads the kernel (checked against the firmware\'s '
                    '"Next" line; the ground truth needs it before the boot)')
    args = ap.parse_args()

    traced = args.trace not in ('', 'off')
    opts = [w for w in args.trace.split(',') if w] if traced else []
    if traced and 'hold' not in opts and not args.no_hold:
        opts.append('hold')
    os.makedirs(args.outdir, exist_ok=True)
    base = os.path.join(args.outdir, args.name)
    fifo, sock, out = base + '.fifo', base + '.sock', base + '.out'
    remove_old(base, args.smp)
    cmdline = (f'console=ttyS0 earlycon=sbi panic=-1 tracesbi.cpus={args.smp} '
               f'tracesbi.checks=none '
               f'{"tracesbi.trace=" + ",".join(opts) if traced else ""} {args.append}')
    cmdline = ' '.join(cmdline.split())
    gt = None
    if args.ground_truth:
        os.mkfifo(fifo)
        gt = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, 'scripts/trace-ground-truth.py'),
             '--firmware', args.fw, '--elf', f'{args.vmlinux}@{args.load:#x}',
             '--stop-after', str(args.ground_truth), '--stop-harts', str(args.gt_harts),
             '--out-prefix', base + '.gt', fifo],
            stdout=subprocess.PIPE, stderr=open(base + '.gt.log', 'w'), text=True)
    started = time.time()
    qemu = subprocess.Popen(qemu_command(args, cmdline, out, sock, fifo if gt else None),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(base + '.qemu.log', 'w'))
    result = {'name': args.name, 'cmdline': cmdline, 'smp': args.smp, 'traced': traced}
    mon_lock = threading.Lock()

    def fail(msg):
        qemu.kill()
        if gt:
            gt.kill()
        result['error'] = msg
        json.dump(result, open(base + '.json', 'w'), indent=1)
        print(f'linux-run: {args.name}: {msg}', file=sys.stderr)
        sys.exit(1)

    if gt:
        # The extractor says when it has enough: log and single-step off.
        def stop_logging():
            if gt.stdout.readline().strip() == 'stopped':
                result['log_off_after_s'] = round(time.time() - started, 1)
                try:
                    with mon_lock:
                        monitor(sock, ['log none', 'singlestep off'])
                except (OSError, MonitorError) as e:
                    result['log_off_error'] = str(e)
        threading.Thread(target=stop_logging, daemon=True).start()
    deadline = started + args.timeout
    held = traced and not args.no_hold
    end_line = HOLD_LINE if held else 'tracesbi-init: done'
    text = ''
    while end_line not in text:
        if args.save_after is not None and held and time.time() - started >= args.save_after:
            break
        if qemu.poll() is not None:
            if not held and 'tracesbi-init: done' in read_text(out):
                break
            fail(f'QEMU exited ({qemu.returncode}) before the boot ended '
                 f'({"the firmware held the machine" if held else "init done"})')
        if time.time() > deadline:
            text = read_text(out)
            facts = console_facts(text)
            result.update(facts)
            last = [line for line in text.splitlines() if line.strip()][-1:] or ['(no output)']
            fail(f'the traced boot did not complete within {args.timeout} s '
                 f'({"user space reached" if facts["userspace"] else "user space not reached"}; '
                 f'last console line: {last[0][:120]!r})')
        time.sleep(0.2)
        text = read_text(out)
    result['boot_s'] = round(time.time() - started, 2)
    if not held:
        try:
            qemu.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            fail('QEMU did not exit at the reset')
    time.sleep(0.2)
    facts = console_facts(read_text(out))
    result.update(facts)
    bufs = []
    if held:
        try:
            with mon_lock:
                bufs = save_buffers(args, sock, base)
        except (trace_save.SaveError, MonitorError, OSError) as e:
            fail(f'saving the buffers: {e}')
    # Not `quit`: QEMU 7.2 under -icount spins in it while every hart is
    # halted.
    qemu.kill()
    qemu.wait(timeout=60)
    if gt:
        try:
            rc = gt.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            rc = None
        if rc != 0:
            fail('the ground-truth extractor failed: ' + open(base + '.gt.log').read()[-2000:])
        os.unlink(fifo)
        result['ground_truth'] = {'stop_after': args.ground_truth, 'harts': args.gt_harts,
                                  'summary': open(base + '.gt.log').read().splitlines()}
    result['buffers'] = bufs
    json.dump(result, open(base + '.json', 'w'), indent=1)
    if 'load' not in facts:
        fail('the firmware printed no "Next : ADDR in S-mode" line: where was the kernel?')
    if gt and facts['load'] != args.load:
        fail(f'the kernel ran at {facts["load"]:#x}, the ground truth placed it at '
             f'{args.load:#x} (--load)')
    if held and not bufs:
        fail('no sink holds trace at the reset')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A program traced from Linux through the trace PMU (linux-trace/), decoded
exactly against QEMU's execution log of the same run.

    tests/linux/trace-perf-test.py --fw build/tracesbi.elf
        --kernel build/linux/Image --vmlinux build/linux/vmlinux
        --initrd build/linux/trace-perf.cpio
        --traced build/linux/trace-perf/tsbi-traced --ntrace build/tools/ntrace
        --workdir DIR [--list busy,u,us,two,full]

QEMU virt (-smp 2) boots the test kernel with the perf trace initramfs
(build-linux.sh: the module, tsbi-record, tsbi-traced) and init in
`tracesbi.checks=trace-perf` mode (tests/linux/trace_perf.c): it loads the
module, records tsbi-traced with tsbi-record as tracesbi.traceperf= says,
and prints each recording in base64.  Two boots, run at once: `user`
(busy, u, two, full) and `kernel` (us).  QEMU runs with `-singlestep -d
nochain -dfilter RANGES`; the ranges keep tsbi-traced's code (linked at
0x2000000000, where nothing else lives), in the `kernel` boot also the
kernel's text (vmlinux's _start.._etext: modules are left out), and the
firmware's trap vectors, which is what scripts/trace-ground-truth.py needs
("LOGS FILTERED BY ADDRESS").  The console is a pipe pair and QEMU's
monitor a socket: when init prints `TSBI-HOST-SYNC log-on` (before the
recordings) this script turns the log on (`log exec,nochain,int`), at
`log-off` off again (`log nochain`), and answers each with a line on the
console, which init waits for.  So the log holds the recordings' time
only, not the boot nor the dumps.

Each recording is decoded with `ntrace perf --elf tsbi-traced --elf
vmlinux --pcs` (vmlinux at its link address: 6.1 has no KASLR on RISC-V).
Checks:
  exact/hartN   per hart, the U-mode instructions of tsbi-traced in the
                recordings pinned to it, in the order they ran, equal that
                hart's ground truth of them, traps marked
                (scripts/trace-compare.py --whole --priv U --range);
                exact/us the same for `us` in the kernel boot
  kernel/us     the `us` recording (user and kernel, address filters on
                the kernel's text and tsbi-traced): every segment is one
                contiguous run of hart 0's ground truth (S and U, in those
                ranges, traps marked), the segments in order, with kernel
                instructions in them
  truncated/full  the `full` recording (4 KiB sink, made with the log off)
                has a segment flagged truncated (at most 4 KiB), and its
                segments are runs of the `u` recording's instructions (same
                program, same input), in order, with gaps only after a
                truncated one

The ground-truth files (hundreds of MB) are deleted when every check
passed, unless --keep; --reuse checks an earlier run's files again
without booting.

One PASS/FAIL line per check (init's own checks included) and a last line
`N passed, M failed`; exit status 1 on any failure.
"""

import argparse
import base64
import os
import re
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import elf as rvelf  # noqa: E402
from tsbi.qemu import command as qemu_command  # noqa: E402

TRACED_RANGE = (0x2000000000, 0x2001000000)
# Per item of --list: the recordings it makes and the CPU each is pinned to
# (tests/linux/trace_perf.c).
RECORDINGS = {'busy': [], 'u': [('u', 0)], 'us': [('us', 0)], 'two': [('two0', 0), ('two1', 1)],
              'full': [('full', 0)]}
# Made with QEMU's log off: checked against `u`, not the ground truth.
UNLOGGED = {'full'}
SYNC_RE = re.compile(r'TSBI-HOST-SYNC (log-on|log-off)\r?\n')
MONITOR_LOG = {'log-on': 'log exec,nochain,int', 'log-off': 'log nochain'}
# The `us` recording must hold at least this many kernel instructions.
MIN_KERNEL_INSNS = 1000
BEGIN_RE = re.compile(r'^TSBIREC-BEGIN name=(\S+) cpu=(\d+) bytes=(\d+)$')
KERNEL_LINE_RE = re.compile(r'^\[ *\d+\.\d+\] ')
RESULT_RE = re.compile(r'^(PASS|FAIL): (linux/\S+?)(?::|$)')

results = []


def report(ok, what, detail=''):
    results.append(ok)
    print(f'{"PASS" if ok else "FAIL"}: linux-trace/{what}' + (f': {detail}' if detail else ''))
    sys.stdout.flush()


def kernel_text(vmlinux):
    """[_start, _etext) of vmlinux: the kernel's text (head and .text)."""
    images = rvelf.Images([rvelf.Elf(vmlinux)])
    return images.symbol('_start'), images.symbol('_etext')


def dfilter(fw, ranges):
    """The traced ranges and the firmware's trap vectors."""
    vectors = rvelf.trap_vectors(fw)
    return ','.join([f'{lo:#x}..{hi - 1:#x}' for lo, hi in ranges] +
                    [f'{v:#x}+1' for v in vectors])


class Monitor:
    """QEMU's human monitor on a Unix socket: one command at a time."""

    def __init__(self, path, timeout):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.sock.settimeout(timeout)
        self._until_prompt()

    def _until_prompt(self):
        got = b''
        while not got.endswith(b'(qemu) '):
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError('the monitor closed')
            got += chunk
        return got.decode(errors='replace')

    def command(self, line):
        self.sock.sendall(line.encode() + b'\n')
        return self._until_prompt()


class Console:
    """The console's pipe pair (QEMU `-chardev pipe`): a thread copies what
    the guest writes to the .out file and answers init's TSBI-HOST-SYNC
    requests (the monitor command, then a line to the guest)."""

    def __init__(self, base, monitor_path):
        self.base, self.monitor_path = base, monitor_path
        for end in ('.in', '.out'):
            if os.path.exists(base + end):
                os.unlink(base + end)
            os.mkfifo(base + end)
        self.syncs, self.error = [], None

    def start(self, out_path, timeout):
        self.thread = threading.Thread(target=self._run, args=(out_path, timeout), daemon=True)
        self.thread.start()

    def _run(self, out_path, timeout):
        try:
            monitor = Monitor(self.monitor_path, timeout)
            guest_in = open(self.base + '.in', 'wb', buffering=0)
            pending = ''
            with open(self.base + '.out', 'rb', buffering=0) as src, open(out_path, 'wb') as out:
                while True:
                    chunk = src.read(4096)
                    if not chunk:
                        break
                    out.write(chunk)
                    out.flush()
                    pending += chunk.decode(errors='replace')
                    while m := SYNC_RE.search(pending):
                        monitor.command(MONITOR_LOG[m.group(1)])
                        self.syncs.append(m.group(1))
                        guest_in.write(b'go\n')
                        pending = pending[m.end():]
                    pending = pending[-64:]
        except OSError as e:
            self.error = str(e)

    def close(self):
        self.thread.join(timeout=30)
        for end in ('.in', '.out'):
            if os.path.exists(self.base + end):
                os.unlink(self.base + end)


def recordings_of(console):
    """{name: (cpu, bytes)} from the console's TSBIREC blocks."""
    found, lines, i = {}, console.splitlines(), 0
    while i < len(lines):
        m = BEGIN_RE.match(lines[i].strip())
        i += 1
        if not m:
            continue
        name, cpu, size = m.group(1), int(m.group(2)), int(m.group(3))
        chunk = []
        while i < len(lines) and not lines[i].startswith('TSBIREC-END'):
            # init quiets the kernel's console for the dumps; a line the
            # kernel printed before that took effect is not data.
            if not KERNEL_LINE_RE.match(lines[i]):
                chunk.append(lines[i].strip())
            i += 1
        data = base64.b64decode(''.join(chunk))
        if len(data) != size:
            report(False, f'console/{name}', f'{len(data)} bytes decoded, {size} announced')
            continue
        found[name] = (cpu, data)
    return found


def boot(args, append, base, ranges):
    fifo = base + '.fifo'
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    monitor_path = base + '.mon'
    if os.path.exists(monitor_path):
        os.unlink(monitor_path)
    gt = subprocess.Popen([sys.executable, os.path.join(ROOT, 'scripts/trace-ground-truth.py'),
                           '--firmware', args.fw, '--elf', args.traced, '--elf', args.vmlinux] +
                          [a for lo, hi in ranges for a in ('--logged-range', f'{lo:#x}-{hi:#x}')] +
                          ['--out-prefix', base + '.gt', fifo],
                          stdout=subprocess.DEVNULL, stderr=open(base + '.gt.log', 'w'))
    console = Console(base + '.con', monitor_path)
    cmd = qemu_command(args.fw, args.kernel, smp=2, console='none', initrd=args.initrd,
                       append=append, icount='exact', extra=[
                           '-no-reboot', '-chardev', f'pipe,id=con,path={base}.con',
                           '-serial', 'chardev:con',
                           '-monitor', f'unix:{monitor_path},server=on,wait=off',
                           '-singlestep', '-d', 'nochain', '-dfilter', dfilter(args.fw, ranges),
                           '-D', fifo])
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(base + '.qemu.log', 'w'))
    console.start(base + '.out', 60)
    timer = threading.Timer(args.timeout, qemu.kill)
    timer.start()
    # An extractor that fails stops reading the FIFO, and QEMU would block
    # on its log until the timeout: end QEMU then.
    while qemu.poll() is None:
        if gt.poll() not in (None, 0):
            qemu.kill()
        time.sleep(0.5)
    timer.cancel()
    console.close()
    gt_ok = gt.wait(timeout=300) == 0
    os.unlink(fifo)
    what = f'{os.path.basename(base)}/console'
    if console.error:
        report(False, what, f'console or monitor: {console.error}')
    elif console.syncs != ['log-on', 'log-off']:
        report(False, what, f'log syncs {console.syncs}, expected log-on, log-off')
    return qemu.returncode, gt_ok


def decode(args, name, data, base):
    rec = f'{base}.{name}.rec'
    with open(rec, 'wb') as f:
        f.write(data)
    pcs = f'{base}.{name}.pcs'
    r = subprocess.run([args.ntrace, 'perf', rec, '--elf', args.traced, '--elf', args.vmlinux,
                        '--pcs', pcs],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or 'hint:' in r.stderr:
        report(False, f'decode/{name}', f'ntrace perf exit {r.returncode}: '
               f'{(r.stderr or r.stdout).strip()[-300:]}')
        return None
    return pcs


def in_ranges(pc, ranges):
    return any(lo <= pc < hi for lo, hi in ranges)


def read_decoded(path):
    """A decoded .pcs: (segment header lines, [[(pc, mark)] per segment])."""
    headers, segments = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith('# segment'):
                headers.append(line)
                segments.append([])
            elif line and not line.startswith('#'):
                parts = line.split()
                if not segments:
                    segments.append([])
                segments[-1].append((int(parts[0], 16), parts[1] if len(parts) > 1 else ''))
    return headers, segments


def read_truth(path, ranges):
    """A hart's ground truth (`pc [exc|int] PRIV`): [(pc, mark)] of its S and
    U instructions in ranges."""
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2 or parts[-1] not in ('S', 'U'):
                continue
            pc = int(parts[0], 16)
            if in_ranges(pc, ranges):
                out.append((pc, parts[1] if len(parts) == 3 else ''))
    return out


def compare_hart(what, hart, names, pcs_of, base):
    """The hart's ground truth of tsbi-traced = the U-mode part of its
    recordings' decodes, in order."""
    gt = f'{base}.gt.hart{hart}.pcs'
    if not os.path.exists(gt):
        report(False, what, f'no ground truth of hart {hart} ({gt})')
        return
    joined = f'{base}.dec.hart{hart}.pcs'
    with open(joined, 'w') as out:
        for n in names:
            for seg in read_decoded(pcs_of[n])[1]:
                for pc, mark in seg:
                    if in_ranges(pc, [TRACED_RANGE]):
                        out.write(f'{pc:x} {mark}\n' if mark else f'{pc:x}\n')
    lo, hi = TRACED_RANGE
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts/trace-compare.py'),
                        '--whole', '--priv', 'U', '--range', f'{lo:#x}-{hi:#x}', gt, joined],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    detail = f'recordings {"+".join(names)} = QEMU\'s log of tsbi-traced on hart {hart}: '
    report(r.returncode == 0, what, detail + r.stdout.strip().splitlines()[-1] if r.returncode == 0
           else detail + '\n    ' + '\n    '.join(r.stdout.strip().splitlines()[:20]))


def matched_length(truth, i, seg):
    n = 0
    while n < len(seg) and i + n < len(truth) and truth[i + n] == seg[n]:
        n += 1
    return n


def find_run(truth, seg, start):
    """(first i >= start where truth[i:] begins with seg, or -1; the longest
    partial match (position, length) seen, for the report)."""
    best = (start, 0)
    i = start
    while True:
        try:
            i = truth.index(seg[0], i)
        except ValueError:
            return -1, best
        n = matched_length(truth, i, seg)
        if n == len(seg):
            return i, best
        if n > best[1]:
            best = (i, n)
        i += 1


def mismatch_context(truth, seg, at, n):
    fmt = lambda e: f'{e[0]:x}{" " + e[1] if e[1] else ""}'  # noqa: E731
    return (f'the longest match: {n} of {len(seg)} instructions at ground-truth line {at}; then '
            f'the log has {", ".join(fmt(e) for e in truth[at + n:at + n + 3]) or "nothing"}, '
            f'the trace {", ".join(fmt(e) for e in seg[n:n + 3])}')


def check_kernel(pcs, base, ranges, ktext):
    """Every segment of the U+S recording is one contiguous run of hart 0's
    ground truth (its S and U instructions in the traced ranges), in order."""
    what = 'kernel/us'
    gt = f'{base}.gt.hart0.pcs'
    if not os.path.exists(gt):
        report(False, what, f'no ground truth of hart 0 ({gt})')
        return
    truth = read_truth(gt, ranges)
    segments = [seg for seg in read_decoded(pcs)[1] if seg]
    kernel = sum(1 for seg in segments for pc, _ in seg if in_ranges(pc, [ktext]))
    total = sum(len(seg) for seg in segments)
    if not segments or kernel < MIN_KERNEL_INSNS or kernel == total:
        report(False, what, f'{len(segments)} segments, {total} instructions of which {kernel} '
               f'in the kernel: expected both tsbi-traced and at least {MIN_KERNEL_INSNS} kernel '
               'instructions')
        return
    at = 0
    for k, seg in enumerate(segments):
        i, (best_at, best_n) = find_run(truth, seg, at)
        if i < 0:
            report(False, what, f'segment {k} ({len(seg)} instructions) is not a run of hart 0\'s '
                   f'log after line {at}: ' + mismatch_context(truth, seg, best_at, best_n))
            return
        at = i + len(seg)
    report(True, what, f'{len(segments)} segments, {total} instructions ({kernel} in the '
           f'kernel\'s text) = runs of QEMU\'s log of hart 0, in order')


SINK_BYTES_FULL = 4096   # trace_perf.c: the module reloaded with sink_kb=4


def check_full(pcs_of):
    """The 4 KiB-sink recording against `u` (same program, same input):
    some segment is flagged truncated and holds at most the sink's bytes;
    every segment is a run of `u`'s instructions, in order, each starting
    where the one before ended unless that one was truncated (its lost
    tail is skipped); and fewer instructions than `u` in all.  (perf asks
    for the event to be disabled after a truncated record, but a per-task
    event already scheduled out may go on recording: the next time slice
    starts a complete stream again.)"""
    what = 'truncated/full'
    if 'u' not in pcs_of:
        report(False, what, 'needs the `u` recording to compare with (--list u,full)')
        return
    headers, segments = read_decoded(pcs_of['full'])
    whole = [pc for seg in read_decoded(pcs_of['u'])[1] for pc, _ in seg]
    truncated = [h.endswith(', truncated') for h in headers]
    sizes = [int(m.group(1)) if (m := re.search(r', (\d+) bytes', h)) else -1 for h in headers]
    if len(headers) != len(segments) or not any(truncated):
        report(False, what, 'no segment is flagged truncated: ' + '; '.join(headers[:8]))
        return
    big = [k for k, t in enumerate(truncated) if t and not 0 < sizes[k] <= SINK_BYTES_FULL]
    if big:
        report(False, what, f'segment {big[0]}, truncated, holds {sizes[big[0]]} bytes: the '
               f'sink has {SINK_BYTES_FULL}')
        return
    at, kept = 0, 0
    for k, seg in enumerate(segments):
        pcs = [pc for pc, _ in seg]
        if not pcs:
            continue
        if k == 0 or not truncated[k - 1]:
            ok = whole[at:at + len(pcs)] == pcs
            where = at
        else:
            where = next((i for i in range(at, len(whole) - len(pcs) + 1)
                          if whole[i] == pcs[0] and whole[i:i + len(pcs)] == pcs), -1)
            ok = where >= 0
        if not ok:
            n = matched_length(whole, at, pcs)
            report(False, what, f'segment {k} ({len(pcs)} instructions) is not the run of `u`\'s '
                   f'instructions at {at}' + (' or after' if k and truncated[k - 1] else '') +
                   f' (the first {n} match)')
            return
        at, kept = where + len(pcs), kept + len(pcs)
    if not 1000 <= kept < len(whole):
        report(False, what, f'{kept} instructions kept of `u`\'s {len(whole)}: expected fewer, '
               'and at least 1000')
        return
    report(True, what, f'{sum(truncated)} of {len(segments)} segments truncated (at most '
           f'{SINK_BYTES_FULL} bytes); their {kept} instructions are runs of `u`\'s '
           f'{len(whole)} in order, gaps only after a truncated segment')


# Two boots, run at once: the kernel's text is in QEMU's log only for the
# one that records `us`.  In the other, a CPU the firmware steps (a traced
# one: its kernel is stepped too, exclude_kernel or not) holds locks and
# answers IPIs slowly, and the other CPU's kernel spins on them: tens of
# millions of logged instructions nothing checks.
BOOTS = (('user', ('busy', 'u', 'two', 'full'), False), ('kernel', ('us',), True))


class Boot:
    def __init__(self, args, name, items, with_kernel, ktext):
        self.name, self.items = name, items
        self.base = os.path.join(args.workdir, f'trace-perf-{name}')
        self.ranges = [TRACED_RANGE, ktext] if with_kernel else [TRACED_RANGE]
        self.append = ('console=ttyS0 earlycon=sbi panic=-1 tracesbi.cpus=2 '
                       'tracesbi.checks=trace-perf tracesbi.tracelog=host '
                       f'tracesbi.traceperf={",".join(items)}' +
                       (f' tracesbi.tracektext={ktext[0]:#x}/{ktext[1] - ktext[0]:#x}'
                        if with_kernel else ''))
        self.rc, self.gt_ok = None, False

    def run(self, args):
        if args.reuse:
            self.rc, self.gt_ok = 0, os.path.exists(self.base + '.gt.hart0.pcs')
        else:
            self.rc, self.gt_ok = boot(args, self.append, self.base, self.ranges)


def init_results(console, boot_name):
    """Init's own PASS/FAIL lines, named after their boot but for the
    first's (`linux/trace-perf/module` in both)."""
    for line in console.splitlines():
        m = RESULT_RE.match(line.strip())
        if m:
            results.append(m.group(1) == 'PASS')
            line = line.strip()
            if boot_name != BOOTS[0][0]:
                line = line.replace('linux/', f'linux/{boot_name}-boot/', 1)
            print(line)


def check_boot(args, b, ktext):
    console = open(b.base + '.out', errors='replace').read().replace('\r', '')
    if 'tracesbi-init: done' not in console:
        report(False, f'{b.name}-boot', f'init did not finish (QEMU exit {b.rc}; console '
               f'{b.base}.out)')
    if not b.gt_ok:
        report(False, f'{b.name}-boot/ground-truth',
               open(b.base + '.gt.log').read().strip()[-400:])
    init_results(console, b.name)
    recs = recordings_of(console)
    pcs_of, per_hart = {}, {}
    # In the order init makes them (RECORDINGS' order).
    for item in (i for i in RECORDINGS if i in b.items):
        for name, cpu in RECORDINGS[item]:
            if name not in recs:
                report(False, f'console/{name}', 'no recording on the console')
                continue
            pcs = decode(args, name, recs[name][1], b.base)
            if pcs:
                pcs_of[name] = pcs
                if name not in UNLOGGED:
                    per_hart.setdefault(cpu, []).append(name)
    # Hart = CPU: virt numbers both from 0, and init pins each recording.
    if b.gt_ok:
        for hart, names in sorted(per_hart.items()):
            what = 'exact/us' if names == ['us'] else f'exact/hart{hart}'
            compare_hart(what, hart, names, pcs_of, b.base)
        if 'us' in pcs_of:
            check_kernel(pcs_of['us'], b.base, b.ranges, ktext)
    if 'full' in pcs_of:
        check_full(pcs_of)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--fw', required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--traced', required=True)
    ap.add_argument('--ntrace', required=True)
    ap.add_argument('--workdir', required=True)
    ap.add_argument('--list', default='busy,u,us,two,full')
    ap.add_argument('--timeout', type=int, default=900)
    ap.add_argument('--keep', action='store_true',
                    help='keep the ground truth files when every check passed')
    ap.add_argument('--reuse', action='store_true',
                    help='check the files an earlier run left in --workdir again, without booting')
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    items = args.list.split(',')
    for item in items:
        if item not in RECORDINGS:
            ap.error(f'--list: unknown item {item} (one of {", ".join(RECORDINGS)})')
    if 'full' in items and 'u' not in items:
        ap.error('--list: full is checked against u: list both')

    ktext = kernel_text(args.vmlinux)
    boots = [Boot(args, name, [i for i in group if i in items], with_kernel, ktext)
             for name, group, with_kernel in BOOTS if any(i in items for i in group)]
    threads = [threading.Thread(target=b.run, args=(args,)) for b in boots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for b in boots:
        check_boot(args, b, ktext)
    passed = sum(results)
    if results and all(results) and not args.keep:
        # The ground truth is hundreds of MB: kept only for a failure.
        for name in os.listdir(args.workdir):
            if re.match(r'trace-perf-\w+\.(gt|dec)\.hart\d+\.pcs$', name):
                os.unlink(os.path.join(args.workdir, name))
    print(f'{passed} passed, {len(results) - passed} failed')
    return 0 if results and all(results) else 1


if __name__ == '__main__':
    sys.exit(main())

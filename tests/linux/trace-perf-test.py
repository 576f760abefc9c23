#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A program traced from Linux through the trace PMU (linux-trace/), decoded
exactly against QEMU's execution log of the same run.

    tests/linux/trace-perf-test.py --fw build/tracesbi.elf
        --kernel build/linux/Image --initrd build/linux/trace-perf.cpio
        --traced build/linux/trace-perf/tsbi-traced --ntrace build/tools/ntrace
        --workdir DIR [--list u,two,busy]

QEMU virt (-smp 2) boots the test kernel with the perf trace initramfs
(build-linux.sh: the module, tsbi-record, tsbi-traced) and init in
`tracesbi.checks=trace-perf` mode (tests/linux/trace_perf.c): it loads the
module, records tsbi-traced with tsbi-record as --list says, and prints
each recording in base64.  The run is logged with `-singlestep -d
exec,nochain,int -dfilter`: the ranges keep tsbi-traced's code (linked at
0x2000000000, where nothing else lives) and the firmware's trap vectors,
which is what scripts/trace-ground-truth.py needs ("LOGS FILTERED BY
ADDRESS").  Each recording is decoded with `ntrace perf --pcs`; per hart,
the recordings pinned to it, in the order they ran, must equal that hart's
ground truth of tsbi-traced's U-mode instructions, traps marked
(scripts/trace-compare.py --whole --priv U --range).

One PASS/FAIL line per check (init's own checks included) and a last line
`N passed, M failed`; exit status 1 on any failure.
"""

import argparse
import base64
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import rvelf  # noqa: E402

TRACED_RANGE = (0x2000000000, 0x2001000000)
# Per item of --list: the recordings it makes and the CPU each is pinned to
# (tests/linux/trace_perf.c).
RECORDINGS = {'u': [('u', 0)], 'us': [('us', 0)], 'two': [('two0', 0), ('two1', 1)],
              'busy': []}
BEGIN_RE = re.compile(r'^TSBIREC-BEGIN name=(\S+) cpu=(\d+) bytes=(\d+)$')
RESULT_RE = re.compile(r'^(PASS|FAIL): (linux/\S+?)(?::|$)')

results = []


def report(ok, what, detail=''):
    results.append(ok)
    print(f'{"PASS" if ok else "FAIL"}: linux-trace/{what}' + (f': {detail}' if detail else ''))
    sys.stdout.flush()


def dfilter(fw):
    """The traced program and the firmware's trap vectors."""
    vectors = rvelf.trap_vectors(fw)
    lo, hi = TRACED_RANGE
    return ','.join([f'{lo:#x}..{hi - 1:#x}'] + [f'{v:#x}+1' for v in vectors])


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
            chunk.append(lines[i].strip())
            i += 1
        data = base64.b64decode(''.join(chunk))
        if len(data) != size:
            report(False, f'console/{name}', f'{len(data)} bytes decoded, {size} announced')
            continue
        found[name] = (cpu, data)
    return found


def boot(args, append, base):
    fifo = base + '.fifo'
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    gt = subprocess.Popen([sys.executable, os.path.join(ROOT, 'scripts/trace-ground-truth.py'),
                           '--firmware', args.fw, '--elf', args.traced,
                           '--logged-range', f'{TRACED_RANGE[0]:#x}-{TRACED_RANGE[1]:#x}',
                           '--out-prefix', base + '.gt', fifo],
                          stdout=subprocess.DEVNULL, stderr=open(base + '.gt.log', 'w'))
    cmd = ['qemu-system-riscv64', '-M', 'virt', '-m', '256M', '-smp', '2',
           '-cpu', 'rv64,sscofpmf=true', '-display', 'none', '-no-reboot',
           '-serial', 'file:' + base + '.out', '-bios', args.fw, '-kernel', args.kernel,
           '-initrd', args.initrd, '-append', append,
           '-singlestep', '-d', 'exec,nochain,int', '-dfilter', dfilter(args.fw), '-D', fifo,
           '-icount', 'shift=0,align=off,sleep=off']
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(base + '.qemu.log', 'w'))
    timer = threading.Timer(args.timeout, qemu.kill)
    timer.start()
    # An extractor that fails stops reading the FIFO, and QEMU would block
    # on its log until the timeout: end QEMU then.
    while qemu.poll() is None:
        if gt.poll() not in (None, 0):
            qemu.kill()
        time.sleep(0.5)
    timer.cancel()
    gt_ok = gt.wait(timeout=120) == 0
    os.unlink(fifo)
    return qemu.returncode, gt_ok


def decode(args, name, data, base):
    rec = f'{base}.{name}.rec'
    with open(rec, 'wb') as f:
        f.write(data)
    pcs = f'{base}.{name}.pcs'
    r = subprocess.run([args.ntrace, 'perf', rec, '--elf', args.traced, '--pcs', pcs],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or 'hint:' in r.stderr:
        report(False, f'decode/{name}', f'ntrace perf exit {r.returncode}: '
               f'{(r.stderr or r.stdout).strip()[-300:]}')
        return None
    return pcs


def compare_hart(hart, names, pcs_of, base):
    """The hart's ground truth = its recordings' decodes, in order."""
    what = f'exact/hart{hart}'
    gt = f'{base}.gt.hart{hart}.pcs'
    if not os.path.exists(gt):
        report(False, what, f'no ground truth of hart {hart} ({gt})')
        return
    joined = f'{base}.dec.hart{hart}.pcs'
    with open(joined, 'w') as out:
        for n in names:
            with open(pcs_of[n]) as f:
                out.write(f.read())
    lo, hi = TRACED_RANGE
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts/trace-compare.py'),
                        '--whole', '--priv', 'U', '--range', f'{lo:#x}-{hi:#x}', gt, joined],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    detail = f'recordings {"+".join(names)} = QEMU\'s log of tsbi-traced on hart {hart}: '
    report(r.returncode == 0, what, detail + r.stdout.strip().splitlines()[-1] if r.returncode == 0
           else detail + '\n    ' + '\n    '.join(r.stdout.strip().splitlines()[:20]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--fw', required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--traced', required=True)
    ap.add_argument('--ntrace', required=True)
    ap.add_argument('--workdir', required=True)
    ap.add_argument('--list', default='u,two,busy')
    ap.add_argument('--timeout', type=int, default=600)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    base = os.path.join(args.workdir, 'trace-perf')
    items = args.list.split(',')
    for item in items:
        if item not in RECORDINGS:
            ap.error(f'--list: unknown item {item} (one of {", ".join(RECORDINGS)})')

    append = ('console=ttyS0 earlycon=sbi panic=-1 tracesbi.cpus=2 '
              f'tracesbi.checks=trace-perf tracesbi.traceperf={args.list}')
    rc, gt_ok = boot(args, append, base)
    console = open(base + '.out', errors='replace').read().replace('\r', '')
    if 'tracesbi-init: done' not in console:
        report(False, 'boot', f'init did not finish (QEMU exit {rc}; console {base}.out)')
    if not gt_ok:
        report(False, 'ground-truth', open(base + '.gt.log').read().strip()[-400:])
    for line in console.splitlines():
        m = RESULT_RE.match(line.strip())
        if m:
            results.append(m.group(1) == 'PASS')
            print(line.strip())
    recs = recordings_of(console)
    pcs_of = {}
    per_hart = {}
    for item in items:
        for name, cpu in RECORDINGS[item]:
            if name not in recs:
                report(False, f'console/{name}', 'no recording on the console')
                continue
            pcs = decode(args, name, recs[name][1], base)
            if pcs:
                pcs_of[name] = pcs
                per_hart.setdefault(cpu, []).append(name)
    # Hart = CPU: virt numbers both from 0, and init pins each recording.
    if gt_ok:
        for hart, names in sorted(per_hart.items()):
            compare_hart(hart, names, pcs_of, base)
    passed = sum(results)
    print(f'{passed} passed, {len(results) - passed} failed')
    return 0 if results and all(results) else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Host-side unit test of scripts/tsbi/qemu.py, the one place that starts
QEMU, and of scripts/qemu-run.sh, its command: the command lines of each
machine and icount mode, and a bounded run (status, timeout, log, a kill
handed on) with stand-ins for QEMU.

    tests/trace/qemu-runner-test.py

Prints one "PASS: qemu-runner: ..." / "FAIL: qemu-runner: ..." line per
case; exit status 1 on any failure.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import qemu  # noqa: E402
from tsbi import suite  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
RUN_SH = os.path.join(ROOT, 'scripts', 'qemu-run.sh')
results = suite.Results('qemu-runner')
report = results.report


def expect(name, got, want):
    report(got == want, name, f'got {got!r}, want {want!r}')


Q = qemu.QEMU
expect('virt: 256 MiB, Sscofpmf, the console on stdio',
       qemu.command('fw.elf', 'k.elf', smp=2),
       [Q, '-M', 'virt', '-m', '256M', '-smp', '2', '-cpu', 'rv64,sscofpmf=true',
        '-nographic', '-bios', 'fw.elf', '-kernel', 'k.elf'])
expect("virt, QEMU's own CPU and memory ('')",
       qemu.command('none', None, smp=3, cpu='', mem='', extra=['-machine', 'dumpdtb=x']),
       [Q, '-M', 'virt', '-smp', '3', '-nographic', '-bios', 'none', '-machine', 'dumpdtb=x'])
expect('sifive_u: no memory or CPU of ours',
       qemu.command('fw', 'k', machine='sifive_u', smp=3, append='mode=reboot'),
       [Q, '-M', 'sifive_u', '-smp', '3', '-nographic', '-bios', 'fw', '-kernel', 'k',
        '-append', 'mode=reboot'])
expect('icicle: five harts and the board DTB',
       qemu.command('fw', 'k', machine='icicle', dtb='b.dtb'),
       [Q, '-M', 'microchip-icicle-kit', '-smp', '5', '-nographic', '-bios', 'fw', '-kernel',
        'k', '-dtb', 'b.dtb'])
expect('console none, icount modes, extra last',
       [qemu.command('fw', 'k', smp=1, console='none', icount=m, initrd='i', extra=['-x'])[9:]
        for m in ('exact', 'held', 'bench')],
       [['-display', 'none', '-bios', 'fw', '-kernel', 'k', '-initrd', 'i', '-icount', v, '-x']
        for v in ('shift=0,align=off,sleep=off', 'shift=0,align=off,sleep=on', 'shift=0')])
try:
    qemu.command('fw', machine='k210')
    report(False, 'an unknown machine is refused', 'no error')
except ValueError as e:
    report('k210' in str(e) and 'virt' in str(e), 'an unknown machine is refused (names the known)',
           str(e))

# qemu-run.sh: the same command line.
out = subprocess.run([RUN_SH, '--print', '--machine', 'spike', '--smp', '2', '--bios', 'fw',
                      '--kernel', 'k', '--icount', '--', '-no-reboot'],
                     capture_output=True, text=True)
expect('qemu-run.sh --print', out.stdout.split(),
       qemu.command('fw', 'k', machine='spike', smp=2, icount='exact', extra=['-no-reboot']))

# Bounded runs, with stand-ins for QEMU.
expect("run: the program's status", qemu.run(['sh', '-c', 'exit 3'], 10), 3)
t0 = time.monotonic()
expect('run: 124 after the timeout', qemu.run(['sleep', '30'], 1), 124)
report(time.monotonic() - t0 < 10, 'run: the timeout is kept', f'{time.monotonic() - t0:.1f} s')
with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, 'sub', 'run.log')
    r = subprocess.run([sys.executable, '-c',
                        'import sys; sys.path.insert(0, sys.argv[1]); from tsbi import qemu; '
                        'sys.exit(qemu.run(["sh", "-c", "echo console; exit 2"], 10, sys.argv[2]))',
                        os.path.join(ROOT, 'scripts'), log], capture_output=True, text=True)
    expect('run --log: status, console on stdout and in the log',
           (r.returncode, r.stdout, open(log).read() if os.path.exists(log) else None),
           (2, 'console\n', 'console\n'))
    # A runner's kill of the runner (a machine in the background) stops
    # QEMU too: here a stand-in that writes its pid and waits.
    pidfile, fake = os.path.join(d, 'pid'), os.path.join(d, 'fake-qemu')
    with open(fake, 'w') as f:
        f.write(f'#!/bin/sh\necho $$ > {pidfile}\nexec sleep 60\n')
    os.chmod(fake, 0o755)
    p = subprocess.Popen([RUN_SH, '--bios', 'none', '--timeout', '60'],
                         env=dict(os.environ, QEMU=fake),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(pidfile) and open(pidfile).read().strip():
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=20)
    child = int(open(pidfile).read())
    time.sleep(0.5)
    try:
        os.kill(child, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    report(not alive, 'a kill of qemu-run.sh stops QEMU with it', f'pid {child} still runs')

sys.exit(results.status())

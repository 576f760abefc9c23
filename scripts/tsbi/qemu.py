# SPDX-License-Identifier: BSD-2-Clause
"""The one place that starts QEMU: the machines the suites boot, their
options, and how a run is bounded.

    from tsbi import qemu
    cmd = qemu.command(fw, kernel, smp=2, icount='exact', append='...',
                       extra=['-serial', 'file:out'])

builds the command line (a list) that Python runners start themselves
(they watch a console file or a monitor while it runs); `run()` runs one
bounded by a timeout with the console on stdout and, optionally, in a log.
scripts/qemu-run.sh is the same as a command (`qemu-run.sh --help`), for
the shell runners.

Machines (MACHINES): virt (the default; 256 MiB, Sscofpmf; virt-aclint
with ACLINT devices), sifive_u
(hart 0 without S-mode), spike (HTIF console), icicle (Microchip PolarFire
SoC Icicle Kit, 5 harts, hart 0 without S-mode; give it the board's DTB).
icount modes: 'exact' (shift=0,align=off,sleep=off: instret counts guest
instructions and interrupt positions repeat), 'held' (sleep=on: a machine
whose harts all wait with no timer keeps serving its monitor),
'bench' (shift=0 alone, what the benchmarks have always used).
"""

import argparse
import os
import signal
import subprocess
import sys

QEMU = os.environ.get('QEMU', 'qemu-system-riscv64')

# name: (QEMU -M, default options); a caller's cpu/mem/smp replace them
# ('' for QEMU's own default).
MACHINES = {
    'virt': ('virt', {'mem': '256M', 'cpu': 'rv64,sscofpmf=true'}),
    'virt-aclint': ('virt,aclint=on', {'mem': '256M', 'cpu': 'rv64,sscofpmf=true'}),
    'sifive_u': ('sifive_u', {}),
    'spike': ('spike', {}),
    'icicle': ('microchip-icicle-kit', {'smp': 5}),
}

ICOUNT = {
    'exact': 'shift=0,align=off,sleep=off',
    'held': 'shift=0,align=off,sleep=on',
    'bench': 'shift=0',
}


def command(bios, kernel=None, machine='virt', smp=None, cpu=None, mem=None, append=None,
            initrd=None, dtb=None, icount=None, console='nographic', extra=()):
    """QEMU's command line.  console: 'nographic' (console and monitor on
    stdio) or 'none' (no display: the caller gives -serial and -monitor in
    extra).  bios None: QEMU's own firmware (a DT dump, say)."""
    if machine not in MACHINES:
        raise ValueError(f'unknown machine {machine!r} (known: {", ".join(MACHINES)})')
    name, defaults = MACHINES[machine]
    smp = smp if smp is not None else defaults.get('smp')
    cpu = cpu if cpu is not None else defaults.get('cpu')
    mem = mem if mem is not None else defaults.get('mem')
    cmd = [QEMU, '-M', name]
    if mem:
        cmd += ['-m', str(mem)]
    if smp:
        cmd += ['-smp', str(smp)]
    if cpu:
        cmd += ['-cpu', cpu]
    cmd += ['-nographic'] if console == 'nographic' else ['-display', 'none']
    if bios:
        cmd += ['-bios', bios]
    if kernel:
        cmd += ['-kernel', kernel]
    if initrd:
        cmd += ['-initrd', initrd]
    if dtb:
        cmd += ['-dtb', dtb]
    if append is not None and append != '':
        cmd += ['-append', append]
    if icount:
        cmd += ['-icount', ICOUNT[icount]]
    return cmd + list(extra)


def run(cmd, timeout, log=None, keep_stdin=False):
    """Run cmd with stdin closed (or this process's: keep_stdin), its output
    on stdout (and in log), killed after timeout seconds (0: never).
    Returns QEMU's status, or 124 on a timeout."""
    bounded = (['timeout', '--foreground', '-k', '5', str(timeout)] if timeout else []) + cmd
    out = None
    if log:
        os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
        out = open(log, 'wb')
    p = subprocess.Popen(bounded, stdin=None if keep_stdin else subprocess.DEVNULL,
                         stdout=subprocess.PIPE if out else None,
                         stderr=subprocess.STDOUT if out else None)
    # A runner that kills this process (a machine it started in the
    # background) stops QEMU with it: `timeout` hands the signal on.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: p.send_signal(signum))
    if out:
        with out:
            for chunk in iter(lambda: p.stdout.read1(65536), b''):
                out.write(chunk)
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
    return p.wait()


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog='qemu-run.sh',
        description='Boot one firmware (and S-mode kernel) on a QEMU machine, bounded by a '
                    'timeout, console on stdout (and in --log).  Exits with QEMU\'s status, '
                    'or 124 when the timeout expired.  Arguments after -- go to QEMU.')
    ap.add_argument('--machine', default='virt', choices=sorted(MACHINES))
    ap.add_argument('--console', default='nographic', choices=['nographic', 'none'])
    ap.add_argument('--bios', help="the firmware ELF; 'none' for none")
    ap.add_argument('--kernel')
    ap.add_argument('--smp', type=int, help="harts (QEMU's default: 1)")
    ap.add_argument('--cpu', help="the CPU ('' for QEMU's default)")
    ap.add_argument('--mem')
    ap.add_argument('--append')
    ap.add_argument('--initrd')
    ap.add_argument('--dtb')
    ap.add_argument('--timeout', type=float, default=60, help='seconds (0: none)')
    ap.add_argument('--stdin', action='store_true',
                    help='QEMU reads this stdin (a console driven by a test, make run)')
    ap.add_argument('--log')
    ap.add_argument('--icount', nargs='?', const='exact', choices=sorted(ICOUNT))
    ap.add_argument('--print', action='store_true', help='print the command, do not run it')
    if argv is None:
        argv = sys.argv[1:]
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    a = ap.parse_args(argv)
    cmd = command(a.bios, a.kernel, machine=a.machine, smp=a.smp, cpu=a.cpu, mem=a.mem,
                  append=a.append, initrd=a.initrd, dtb=a.dtb, icount=a.icount,
                  console=a.console, extra=extra)
    if a.print:
        print(' '.join(cmd))
        return 0
    t = int(a.timeout) if a.timeout == int(a.timeout) else a.timeout
    return run(cmd, t, a.log, keep_stdin=a.stdin)


if __name__ == '__main__':
    sys.exit(main())

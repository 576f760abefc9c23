#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Saving trace buffers at any time: the firmware's trace directory and
scripts/trace-save.py (docs/TRACE.md, "Saving the buffers at any time").

    tests/trace/save-test.py --fw FW --payload P --ntrace NTRACE
        --kernel IMAGE --vmlinux VMLINUX --workdir DIR

- against the trace payload's own read-back (its TRACEBUF lines, which
  tests/trace/trace-run.py saves by), on 2 harts: a buffer that wrapped, one
  that did not, one that stopped on wrap.  trace-save.py's files must be the
  same bytes, their sidecars the same settings, and decode to the same
  instructions;
- a Linux boot traced by the boot option into a small wrapping buffer,
  saved while it runs, twice: each save decodes with the kernel's ELF from
  its first sync message, with no error (the boot option's default
  periodic sync makes a wrapped buffer decodable), and the second save is
  not the first (the machine went on).

One PASS:/FAIL: line per check; exit status 1 when one failed.
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi.qemu_monitor import monitor  # noqa: E402
from tsbi.qemu import command as qemu_command  # noqa: E402

failed = False
# The settings a decoder takes from a sidecar (control's state bits,
# trTeEnable and trTeEmpty, differ between a running and a stopped encoder).
SETTINGS = ('features', 'tscontrol', 'ingress', 'wrapped', 'hart')
CONTROL_STATE = (1 << 1) | (1 << 2) | (1 << 3)


def report(ok, name, detail=''):
    global failed
    print(f'{"PASS" if ok else "FAIL"}: trace-save {name}{f" ({detail})" if detail else ""}')
    sys.stdout.flush()
    failed |= not ok


def sidecar(path):
    out = {}
    for line in open(path):
        line = line.split('#', 1)[0].strip()
        if '=' in line:
            k, v = (x.strip() for x in line.split('=', 1))
            out[k] = int(v, 0)
    return out


def decode(ntrace, elf, nex):
    r = subprocess.run([ntrace, 'decode', '--elf', elf, nex], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def payload_case(args, name, append):
    out = os.path.join(args.workdir, 'save')
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'tests', 'trace', 'trace-run.py'),
                        '--fw', args.fw, '--payload', args.payload, '--name', name,
                        '--outdir', out, '--append', append, '--smp', '2',
                        '--no-ground-truth', '--also-directory-save'],
                       capture_output=True, text=True)
    if r.returncode != 0:
        report(False, f'{name}/run', r.stderr.strip()[-300:])
        return
    for h in (0, 1):
        ref, got = (os.path.join(out, f'{name}{x}.hart{h}.nex') for x in ('', '.dir'))
        if not os.path.exists(got):
            report(False, f'{name}/hart{h}', f'trace-save.py wrote no {os.path.basename(got)}')
            continue
        same_bytes = open(ref, 'rb').read() == open(got, 'rb').read()
        a, b = sidecar(ref + '.tci'), sidecar(got + '.tci')
        diff = [k for k in SETTINGS if a.get(k, 0) != b.get(k, 0)]
        if (a['control'] ^ b['control']) & ~CONTROL_STATE:
            diff.append('control')
        ra, oa, _ = decode(args.ntrace, args.payload, ref)
        rb, ob, eb = decode(args.ntrace, args.payload, got)
        ok = same_bytes and not diff and ra == 0 and rb == 0 and oa == ob
        report(ok, f'{name}/hart{h}',
               f'{os.path.getsize(got)} bytes, wrapped={b.get("wrapped")}' if ok else
               f'bytes {"same" if same_bytes else "differ"}, settings differ: {diff}, '
               f'decode {ra}/{rb} {"same" if oa == ob else "differs"}: {eb.strip()[-200:]}')


def linux_case(args):
    out = os.path.join(args.workdir, 'save-linux')
    os.makedirs(out, exist_ok=True)
    sock = os.path.join(out, 'monitor.sock')
    if os.path.exists(sock):
        os.unlink(sock)
    # A 64 KiB buffer wraps after a few hundred thousand instructions;
    # tracing goes on (wrap, not stop), so any moment after that is a
    # wrapped buffer in the middle of the boot.
    append = ('console=ttyS0 earlycon=sbi panic=-1 tracesbi.cpus=1 '
              'tracesbi.trace=htm,buf=0x8c000000:0x10000')
    qemu = subprocess.Popen(
        qemu_command(args.fw, args.kernel, smp=1, append=append,
                     extra=['-monitor', f'unix:{sock},server,nowait']),
        stdin=subprocess.DEVNULL, stdout=open(os.path.join(out, 'console.log'), 'w'),
        stderr=subprocess.STDOUT)
    saves = []
    try:
        deadline = time.time() + 120
        while len(saves) < 2 and time.time() < deadline and qemu.poll() is None:
            time.sleep(3)
            prefix = os.path.join(out, f'snap{len(saves)}')
            r = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'trace-save.py'),
                                '--monitor', sock, '--fw', args.fw, '--out', prefix],
                               capture_output=True, text=True)
            nex = prefix + '.hart0.nex'
            if r.returncode == 0 and os.path.exists(nex) and sidecar(nex + '.tci')['wrapped']:
                saves.append(nex)
    finally:
        try:
            monitor(sock, ['quit'], timeout=5)
        except Exception:
            pass
        qemu.kill()
        qemu.wait()
    if len(saves) < 2:
        report(False, 'linux/saved-while-running',
               f'{len(saves)} wrapped saves within 120 s (console: {out}/console.log)')
        return
    report(True, 'linux/saved-while-running', f'{len(saves)} saves, each 64 KiB, wrapped')
    outputs = []
    for i, nex in enumerate(saves):
        rc, o, e = decode(args.ntrace, args.vmlinux, nex)
        n = o.count('\n')
        report(rc == 0 and n > 1000 and 'error' not in e, f'linux/save{i}-decodes',
               f'{n} instructions' if rc == 0 else f'exit {rc}: {e.strip()[-300:]}')
        outputs.append(o)
    report(outputs[0] != outputs[1], 'linux/the-machine-went-on',
           'the two saves decode to different instructions' if outputs[0] != outputs[1]
           else 'both saves hold the same trace')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    for a in ('--fw', '--payload', '--ntrace', '--kernel', '--vmlinux', '--workdir'):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    payload_case(args, 'wrapped', 'tick=3000 buf=4096 harts=2 sync=1:2')
    payload_case(args, 'unwrapped', 'tick=3000 buf=1048576 harts=2')
    payload_case(args, 'stopped', 'tick=3000 buf=4096 harts=2 stop')
    linux_case(args)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

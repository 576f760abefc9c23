#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""`make trace` (scripts/trace-listing.py), on short runs of the trace payload.

    tests/trace/listing-test.py --fw FW --payload P --ntrace NTRACE
        --tvtrace TVTRACE --workdir DIR

- boot arguments: the defaults merge with --append (a word replaces the
  default of its name, the others are added);
- an N-Trace run (`only=recurse`): the boot arguments keep tick=3000; every
  buffer has its sidecar; the commands printed at the end run as printed,
  without --tci, and succeed with no hint;
- a tandem-verification run (`tv only=recurse`): the buffer goes to tvtrace
  (its records are consistent with the payload), the printed commands are
  tvtrace's and succeed, and `ntrace decode` of the buffer says it is not
  N-Trace.

One PASS:/FAIL: line per check; exit status 1 when one failed.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import bootargs  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
failed = False


def report(ok, name, detail=''):
    global failed
    print(f'{"PASS" if ok else "FAIL"}: make trace {name}{f" ({detail})" if detail else ""}')
    sys.stdout.flush()
    failed |= not ok


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def check_merge():
    merge = bootargs.merge
    cases = [('tick=3000', '', 'tick=3000'),
             ('tick=3000', 'only=recurse', 'tick=3000 only=recurse'),
             ('tick=3000', 'tv tick=500', 'tv tick=500'),
             ('tick=3000 ctx', 'mode=btm ctx', 'tick=3000 mode=btm ctx')]
    bad = [f'{d!r} + {g!r} -> {merge(d, g)!r}, not {w!r}' for d, g, w in cases
           if merge(d, g) != w]
    report(not bad, 'boot args merge with the defaults', '; '.join(bad))
    report(bootargs.DEFAULT == 'tick=3000', 'default boot args are tick=3000',
           repr(bootargs.DEFAULT))


def listing(args, outdir, append):
    return run([sys.executable, os.path.join(ROOT, 'scripts/trace-listing.py'), '--fw', args.fw,
                '--payload', args.payload, '--ntrace', args.ntrace, '--tvtrace', args.tvtrace,
                '--outdir', outdir, '--append', append, '--lines', '3', '--timeout', '120'],
               cwd=ROOT)


def printed_commands(out):
    """The commands printed after "to read them", two spaces in (a pager
    at the end left out)."""
    lines = out.splitlines()
    at = next((i for i, l in enumerate(lines) if 'to read them' in l), len(lines))
    cmds = [l[2:] for l in lines[at + 1:] if l.startswith('  ')]
    return [c[:-len(' | less')] if c.endswith(' | less') else c for c in cmds]


def check_commands(name, cmds, tool):
    if not cmds:
        return report(False, f'{name}: commands printed', 'none')
    bad = []
    for c in cmds:
        r = run(shlex.split(c), cwd=ROOT)
        if r.returncode or 'hint:' in r.stderr or '--tci' in c or not c.split()[0].endswith(tool):
            bad.append(f'{c}: exit {r.returncode} {r.stderr.strip()[:160]}')
    report(not bad, f'{name}: the {len(cmds)} commands printed run as printed, no --tci',
           '; '.join(bad))


def check_ntrace_run(args):
    outdir = os.path.join(args.workdir, 'listing-ntrace')
    r = listing(args, outdir, 'only=recurse')
    m = re.search(r'boot args "([^"]*)"', r.stdout)
    boot = m.group(1).split() if m else []
    report(r.returncode == 0, 'N-Trace run', (r.stderr or r.stdout)[-300:] if r.returncode else '')
    report('tick=3000' in boot and 'only=recurse' in boot,
           'N-Trace run: TRACE_APPEND adds to tick=3000', f'boot args {boot}')
    side = os.path.join(outdir, 'trace.hart0.nex.tci')
    report(os.path.exists(side), 'N-Trace run: the buffer has its sidecar', side)
    if r.returncode == 0:
        check_commands('N-Trace run', printed_commands(r.stdout), 'ntrace')


def check_tv_run(args):
    outdir = os.path.join(args.workdir, 'listing-tv')
    r = listing(args, outdir, 'tv only=recurse')
    ok = r.returncode == 0 and 'tandem-verification records: consistent' in r.stdout
    report(ok, 'TV run goes to tvtrace', (r.stderr + r.stdout)[-300:] if not ok else
           re.search(r'consistent: [^,]*', r.stdout).group(0))
    text = open(os.path.join(outdir, 'listing.txt')).read() if os.path.exists(
        os.path.join(outdir, 'listing.txt')) else ''
    report('begin-group' in text, 'TV run: the listing is tvtrace dump\'s')
    if r.returncode == 0:
        check_commands('TV run', printed_commands(r.stdout), 'tvtrace')
    nex = os.path.join(outdir, 'trace.hart0.nex')
    d = run([args.ntrace, 'decode', '--elf', args.payload, nex])
    report(d.returncode == 1 and 'tandem-verification records, not N-Trace' in d.stderr and
           d.stderr.count('\n') == 1, 'TV run: ntrace decode says the buffer is not N-Trace',
           d.stderr.strip()[:200])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    for opt in ('--fw', '--payload', '--ntrace', '--tvtrace', '--workdir'):
        ap.add_argument(opt, required=True)
    args = ap.parse_args()
    for attr in ('fw', 'payload', 'ntrace', 'tvtrace', 'workdir'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.workdir, exist_ok=True)
    check_merge()
    check_ntrace_run(args)
    check_tv_run(args)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

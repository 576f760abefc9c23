#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make test-trace: tracesbi's software trace encoder against QEMU.

    tests/trace/run-suite.py [--fw build/tracesbi.elf]
        [--payload build/payloads/trace-prog.elf] [--ntrace build/tools/ntrace]
        [--workdir build/trace-tests] [-j 2] [--keep] [--list] [CONFIG...]

Each configuration is one run of the traced-program payload
(tests/target/trace) under QEMU through tests/trace/trace-run.py, which
gives, per traced hart, the firmware's trace buffer (.nex) and the ground
truth from QEMU's execution log (.gt.hart<H>.pcs).  Then per hart:

  decode  `ntrace decode --elf PAYLOAD BUFFER` with no codec option: the
          buffer's sidecar (BUFFER.tci, written by trace-run.py from the
          TRACEBUF line: the registers as the payload read them back, and
          whether the sink wrapped) gives them, as it does to people; no
          `hint:` may come out.  The trace is compared with the ground
          truth's session window by scripts/trace-compare.py (with the
          configuration's privilege / address filter; a wrapped buffer must
          be a suffix of it, a stopped one a prefix);
  profile `ntrace profile --json` and `--folded` of the buffer = what
          tests/trace/stack-reference.py rebuilds from the session window
          (the decoded part of it) by the same stated rules
          (tools/ntrace/README.md, "profile: the call stack"): self, total
          and calls per function, the folded stacks, instructions, traps,
          max depth; no function's total above all instructions, no stack
          deeper than the reference's;
  bytes   scripts/trace-compare.py --emit-window, encoded again by
          `ntrace encode --tci CONTROL,FEATURES,0` with the same filter; the
          firmware's buffer must start with exactly those bytes and hold only
          idle bytes (0xFF) after them.  A buffer that wrapped must be the
          last bytes of the host's stream, one that stopped on wrap its first
          bytes (whole messages), each followed by idle bytes at most.  With
          timestamps (the host's TSTAMP is an instruction index, the
          firmware's the time) the messages of both `ntrace dump`s must be
          the same, field by field, TSTAMP aside, every firmware message
          must carry a TSTAMP, and the firmware's times must never go back
          (a sync message's below the time before it, a relative one that
          wrapped).  Reported as SKIP (neither pass nor failure)
          when no such comparison is possible: timestamps in a wrapped
          buffer, a trap right after the enabling store.

Tandem-verification configurations (`tv`, `tv-stop`, `tv-regs`: ingress bit 2, the
buffer holds Bluespec trace records, docs/TRACE.md) are checked by
tests/trace/tv-check.py instead: the instructions the records say ran
must equal the ground truth's session window (S/U lines, with their
exc/int marks), and, in a run with QEMU's register dumps over fib() and
its neighbours and the fp program instead of the execution log, the
registers the records give (GPRs, the FPRs written, S-mode CSRs) must
equal QEMU's before every instruction there.

Output: one `PASS: ...` / `FAIL: ...` line per configuration and hart and
check (the contract of scripts/run-tests.sh), `SKIP: ...` lines, the
first mismatch under a FAIL, and the suite's wall time.  A run that fails
(QEMU, TRACE-DONE fail, a missing program) is one FAIL for the
configuration.  Exit status 1 when anything failed.

Per N-Trace configuration, once for all its harts: `ntrace timeline --elf
PAYLOAD NAME.hart*.nex` with no codec option (each buffer with its own
sidecar: the harts' SRC IDs differ) must count, per hart, the instructions
its decode gave.

The work files of configuration C are build/trace-tests/C.* (the large
ground-truth files are deleted when every check of C passed, unless --keep).
"""

import argparse
import concurrent.futures
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

# Program sets of the payload (tests/target/trace/kernel.c, programs[]).
# sort, filtered and u-compute cost the most (each several million
# instructions of the whole machine, all in QEMU's execution log); the
# others together a fraction of one of them.  The expensive ones run in a
# few configurations only, to keep the suite near 4 minutes on 2 cores.
ALL = None
CHEAP = ('recurse,u-syscalls,interp,u-pagefault,strings,u-illegal,s-illegal,sse,sbi-irq,'
         'sbi-ret-irq,lrsc,u-lrsc')
# LR/SC loops on one word from two traced harts (kernel.c, prog_lrsc_smp);
# smp4 has four.
LRSC_SMP = 'lrsc-smp'
LRSC_CONTEND = 'lrsc-contend'
HAMMER = '__hammer_start,__hammer_end'
TICK = 3000

TRTS_ON = (1 << 0) | (1 << 15)          # trTsActive, trTsEnable
TRTS_MODE = lambda ts: (ts >> 4) & 7    # noqa: E731


class Config:
    def __init__(self, name, append, progs=CHEAP, smp=1, priv='US',
                 addr_range=False, wrap=False, match='exact',
                 ecall_no_retire=False, cost=1, tv=None, unlogged=None,
                 soak=False):
        self.name = name
        self.append = append
        self.progs = progs
        self.smp = smp
        self.priv = priv                # trace-compare --priv / encode --trace-priv
        self.addr_range = addr_range    # the payload's `range` filter
        self.wrap = wrap                # the buffer must have wrapped / stopped
        self.match = match
        self.ecall_no_retire = ecall_no_retire
        self.cost = cost                # relative run time, to start long runs first
        self.tv = tv                    # TV mode: 'pcs' (ground truth) or 'regs' (QEMU's dumps)
        self.unlogged = unlogged        # trace-run.py --unlogged: code QEMU does not log
        self.soak = soak                # only with --soak (make soak-trace-configs)

    def traced_harts(self):
        m = re.search(r'\bharts=(\d+)', self.append)
        return int(m.group(1)) if m else 1

    def boot_args(self):
        words = [self.append, f'tick={TICK}']
        if self.progs:
            words.append(f'only={self.progs}')
        return ' '.join(w for w in words if w)


CONFIGS = [
    Config('htm', '', ALL, cost=50),
    Config('btm', 'mode=btm', ALL, cost=50),
    Config('htm-opt', 'seqjump implicitret repeat extaddr'),
    Config('btm-opt', 'mode=btm seqjump implicitret extaddr'),
    Config('htm-seqjump', 'seqjump'),
    Config('ts-ctx', 'ts ctx'),
    # every program: timestamped sessions take the fast visit, their
    # records the time of the visit that sends or holds them
    Config('ts', 'ts', ALL, cost=50),
    Config('btm-ts', 'mode=btm ts'),
    # every program: Ownership sessions take the fast visit (step_fast.h)
    Config('ctx', 'ctx', ALL, cost=50),
    Config('sync-msgs', 'sync=1:0'),
    Config('btm-sync-hw', 'mode=btm sync=3:2'),
    Config('priv-u', 'priv=u', 'u-syscalls,u-pagefault,u-illegal,u-compute,recurse,u-lrsc',
           priv='U', cost=12),
    Config('btm-priv-s', 'mode=btm priv=s', priv='S'),
    Config('wrap', 'buf=2048', wrap=True, match='suffix'),
    Config('stop', 'buf=2048 stop mode=btm', wrap=True, match='prefix'),
    # every program: blocks the address filter takes or leaves whole take
    # the fast visit (step_fast.h, fast_qualified())
    Config('range', 'range', ALL, addr_range=True, cost=50),
    # the filter's answer differs between U and S: no block is whole
    Config('range-s', 'range priv=s', 'filtered,interp,u-syscalls,u-compute', priv='S',
           addr_range=True, cost=26),
    Config('ratified', 'ratified',
           'u-syscalls,u-illegal,s-illegal,interp,sbi-irq,sbi-ret-irq,lrsc,u-lrsc',
           ecall_no_retire=True),
    Config('singlestep', 'singlestep'),
    Config('htm-alljumps', 'alljumps'),
    Config('btm-alljumps', 'mode=btm alljumps'),
    Config('htm-alljumps-implicitret', 'alljumps implicitret'),
    Config('smp4', 'harts=4', 'recurse,u-syscalls,interp,u-illegal,lrsc,lrsc-smp', smp=4,
           cost=10),
    Config('lrsc-smp', 'harts=2', LRSC_SMP, smp=2, cost=6),
    # The other modes of it: the lrsc-contend configurations below have them.
    Config('lrsc-smp-btm', 'harts=2 mode=btm', LRSC_SMP, smp=2, cost=6, soak=True),
    Config('lrsc-smp-singlestep', 'harts=2 singlestep', LRSC_SMP, smp=2, cost=8, soak=True),
    # LR/SC loops whose SC an untraced hart's stores make fail (kernel.c,
    # prog_lrsc_contend: the boot hart hammers, its code unlogged).
    Config('lrsc-contend', 'hammer', LRSC_CONTEND, smp=2, cost=4, unlogged=HAMMER),
    Config('lrsc-contend-btm', 'hammer mode=btm', LRSC_CONTEND, smp=2, cost=4,
           unlogged=HAMMER),
    # make soak only (make test's budget): single-stepping is the simplest
    # visit, and TV has tv-lrsc on one hart.
    Config('lrsc-contend-singlestep', 'hammer singlestep', LRSC_CONTEND, smp=2, cost=5,
           unlogged=HAMMER, soak=True),
    # TV records are ~21 bytes an instruction: these programs fit the 512 KiB buffer.
    # make soak only (make test's budget): tv-lrsc and tv-stop keep TV mode
    # in make test, with traps (u-lrsc's page faults, sse, sbi-irq).
    Config('tv', 'tv', 'u-syscalls,u-pagefault,u-illegal,s-illegal', cost=6, tv='pcs',
           soak=True),
    Config('tv-lrsc', 'tv', 'lrsc,u-lrsc,sse,sbi-irq', cost=5, tv='pcs'),
    Config('tv-lrsc-contend', 'hammer tv', LRSC_CONTEND, smp=2, cost=6, tv='pcs',
           unlogged=HAMMER, soak=True),
    Config('tv-regs', 'tv', 'recurse,fp', cost=3, tv='regs'),
    # The session's kernel code before the first program takes ~16 KiB.
    Config('tv-stop', 'tv buf=32768 stop', 'recurse', wrap=True, match='prefix',
           cost=3, tv='pcs'),
]

# tv-regs: QEMU dumps the registers before every instruction in these
# ranges (fib() and its neighbours; the fp program's F/D instructions).
TV_REGS_RANGES = (('fib', 'p_recurse'), ('p_fp', 'p_fp_end'))

print_lock = threading.Lock()


def emit(lines):
    with print_lock:
        for line in lines:
            print(line)
        sys.stdout.flush()


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def indent(text, n=12):
    return ['    ' + l for l in text.rstrip('\n').splitlines()[:n]]


def first_byte_mismatch(fw, host):
    """Offset of the first difference between the firmware's buffer and the
    host's bytes followed by idle bytes, or None."""
    n = min(len(fw), len(host))
    for i in range(n):
        if fw[i] != host[i]:
            return i
    if len(fw) < len(host):
        return len(fw)
    for i in range(len(host), len(fw)):
        if fw[i] != 0xFF:
            return i
    return None


def wrapped_bytes_match(fw, host, match):
    """A buffer that wrapped (match 'suffix') holds the last bytes of the
    stream, one that stopped on wrap ('prefix') its first bytes, whole
    messages only; either may end in idle bytes (0xFF: the sink's flush, or
    the rest of a stopped buffer).  Returns (True, kept bytes) when fw, less
    some of its trailing idle bytes, is that part of the host's stream,
    else (False, offset in fw of the first byte that differs)."""
    idle = len(fw) - len(fw.rstrip(b'\xff'))
    for cut in range(idle + 1):      # the fewest idle bytes first
        part = fw[:len(fw) - cut]
        if part and (host.endswith(part) if match == 'suffix' else host.startswith(part)):
            return True, len(part)
    part = fw[:len(fw) - idle]
    if match == 'suffix':            # the ends aligned
        off = max(0, len(part) - len(host))
        return False, off + (first_byte_mismatch(part[off:], host[len(host) - len(part) + off:])
                             or 0)
    return False, first_byte_mismatch(part, host) or 0


FIELD_RE = re.compile(r'([A-Z][A-Z-]*)\[\d+\] = (0x[0-9A-Fa-f]+|\d+)')


def dump_blocks(dump_text):
    """[(offset, name, lines)] of every message in `ntrace dump`: its header
    line and the byte lines that follow it."""
    msgs = []
    for line in dump_text.splitlines():
        m = re.match(r'# message \d+ at offset (\d+) \(0x[0-9a-f]+\), \d+ bytes: (\S+)', line)
        if m:
            msgs.append((int(m.group(1)), m.group(2), [line]))
        elif msgs and not line.startswith('#'):
            msgs[-1][2].append(line)
    return msgs


def dump_messages(dump_text):
    """[(name, [(field, value)...])] of every message in `ntrace dump`."""
    return [(name, [fv for l in lines[1:] for fv in FIELD_RE.findall(l)])
            for _, name, lines in dump_blocks(dump_text)]


def messages_without_tstamp(fw_dump, host_dump):
    """With timestamps the bytes cannot match (the host's TSTAMP is an
    instruction index, the firmware's the time): the same messages with the
    same fields, TSTAMP aside, and a TSTAMP in every firmware message.
    Returns None when so, else what differs."""
    fw, host = dump_messages(fw_dump), dump_messages(host_dump)
    for i, (name, fields) in enumerate(fw):
        if not any(f == 'TSTAMP' for f, _ in fields):
            return f'firmware message {i} ({name}) has no TSTAMP'
    strip = lambda ms: [(n, [fv for fv in fl if fv[0] != 'TSTAMP']) for n, fl in ms]  # noqa: E731
    fw, host = strip(fw), strip(host)
    for i, (a, b) in enumerate(zip(fw, host)):
        if a != b:
            return f'message {i}: firmware {a}, host {b}'
    if len(fw) != len(host):
        return f'firmware {len(fw)} messages, host {len(host)}'
    return None


def timestamps_backwards(fw_dump):
    """The firmware's times must never go back (8.7: TSTAMP absolute on
    sync messages, relative to the last reported otherwise): an earlier
    time than the last one sent shows as a relative TSTAMP of 2^64 minus a
    little, or a sync message's absolute one below the time before it.
    Returns None when they do not, else the first message that does."""
    now = None
    for i, (name, fields) in enumerate(dump_messages(fw_dump)):
        t = [int(v, 0) for f, v in fields if f == 'TSTAMP']
        if not t:
            continue
        if name.endswith('Sync'):
            if now is not None and t[0] < now:
                return f'message {i} ({name}): time {t[0]:#x} after {now:#x}'
            now = t[0]
        elif t[0] >= 1 << 63:
            return f'message {i} ({name}): relative TSTAMP {t[0]:#x} (a time before the last)'
        elif now is not None:
            now += t[0]
    return None


def message_at(dump_text, offset):
    """The lines of `ntrace dump` for the message holding byte `offset`."""
    best = None
    for start, _, lines in dump_blocks(dump_text):
        if start <= offset:
            best = lines
    return best or ['(no message at that offset)']


def folded_stacks(text):
    """{"outer;...;leaf": count} of `ntrace profile --folded`."""
    stacks = {}
    for line in text.splitlines():
        path, _, count = line.rpartition(' ')
        stacks[path] = stacks.get(path, 0) + int(count)
    return stacks


def profile_differences(tool, folded, ref):
    """What `ntrace profile` (its --json and --folded) says differently from
    stack-reference.py, one line each (empty when they agree)."""
    out = []
    for key in ('instructions', 'traps', 'max_depth'):
        if tool[key] != ref[key]:
            out.append(f'{key}: profile {tool[key]}, reference {ref[key]}')
    if tool['max_depth'] > ref['max_depth']:
        out.append(f'the profile\'s deepest stack ({tool["max_depth"]} frames) is deeper '
                   f'than any that ran ({ref["max_depth"]})')
    for f in tool['functions']:
        if f['total'] > tool['instructions']:
            out.append(f'{f["name"]}: total {f["total"]} is more than all '
                       f'{tool["instructions"]} instructions')
    cols = ('self', 'total', 'calls')
    mine = {(f['name'], f['addr']): tuple(f[c] for c in cols) for f in tool['functions']}
    theirs = {(f['name'], f['addr']): tuple(f[c] for c in cols) for f in ref['functions']}
    for k in sorted(set(mine) | set(theirs)):
        if mine.get(k) != theirs.get(k):
            out.append(f'{k[0]} ({k[1]:#x}) self/total/calls: profile {mine.get(k)}, '
                       f'reference {theirs.get(k)}')
    for k in sorted(set(folded) | set(ref['folded'])):
        if folded.get(k) != ref['folded'].get(k):
            out.append(f'stack {k}: profile {folded.get(k)}, reference '
                       f'{ref["folded"].get(k)}')
    return out


class Suite:
    def __init__(self, args):
        self.args = args
        self.fw = args.fw
        self.payload = args.payload
        self.ntrace = args.ntrace
        self.workdir = args.workdir
        images = rvelf.Images([rvelf.Elf(self.payload)])
        self.range = (images.symbol('__filtered_start'), images.symbol('__filtered_end'))
        self.first = images.symbol('trace_first')
        self.tv_ranges = [tuple(images.symbol(n) for n in r) for r in TV_REGS_RANGES]
        self.tv_records = args.tv_records
        self.tvtrace = args.tvtrace

    def check_config(self, cfg):
        """Runs one configuration; returns (passes, failures)."""
        base = os.path.join(self.workdir, cfg.name)
        for f in os.listdir(self.workdir):
            if f.startswith(cfg.name + '.'):
                os.unlink(os.path.join(self.workdir, f))
        cmd = [sys.executable, os.path.join(ROOT, 'tests/trace/trace-run.py'),
               '--fw', self.fw, '--payload', self.payload, '--name', cfg.name,
               '--outdir', self.workdir, '--smp', str(cfg.smp),
               '--append', cfg.boot_args(), '--timeout', str(self.args.timeout)]
        if cfg.ecall_no_retire:
            cmd.append('--ecall-no-retire')
        if cfg.unlogged:
            cmd += ['--unlogged', cfg.unlogged]
        if cfg.tv == 'regs':
            cmd += ['--no-ground-truth', '--cpu-log',
                    ','.join(f'{lo:#x}+{hi - lo:#x}' for lo, hi in self.tv_ranges)]
        t0 = time.time()
        r = run(cmd, cwd=ROOT)
        elapsed = time.time() - t0
        tag = f'trace {cfg.name}'
        if r.returncode != 0:
            emit([f'FAIL: {tag}: run ({cfg.boot_args()}, smp {cfg.smp})'] +
                 indent(r.stderr or r.stdout) + [f'    work files: {base}.*'])
            return 0, 1
        out = open(base + '.out', errors='replace').read()
        bufs = json.load(open(base + '.json'))
        progs = {}
        for m in re.finditer(r'^TRACEPROG hart=(\d+) prog=(\S+) instret=(\d+) traced=(\d+)',
                             out, re.M):
            progs.setdefault(int(m.group(1)), {})[m.group(2)] = int(m.group(4))
        wanted = cfg.progs.split(',') if cfg.progs else None
        problems = []
        if len(bufs) != cfg.traced_harts():
            problems.append(f'{len(bufs)} TRACEBUF lines')
        for b in bufs:
            got = progs.get(b['hart'], {})
            if wanted and sorted(got) != sorted(wanted):
                problems.append(f'hart {b["hart"]} ran {sorted(got)}, not {sorted(wanted)}')
            if not sum(got.values()):
                problems.append(f'hart {b["hart"]}: no instruction traced')
            if bool(b['wrap']) != cfg.wrap:
                problems.append(f'hart {b["hart"]}: wrap={b["wrap"]}, the configuration '
                                f'needs {int(cfg.wrap)}')
        if problems:
            emit([f'FAIL: {tag}: run does not test the configuration: ' + '; '.join(problems)])
            return 0, 1
        passes = fails = 0
        all_ok = True
        m = re.search(r'^LRSC-CONTEND adds=(\d+) hammer=(\d+) retries=(\d+)', out, re.M)
        if m:   # the kernel fails the run without retries
            emit([f'PASS: {tag}: {m.group(3)} of {m.group(1)} SCs failed because the untraced '
                  f'hart stored ({m.group(2)} stores) and were retried'])
            passes += 1
        for b in bufs:
            check = self.check_tv_hart if cfg.tv else self.check_hart
            p, f = check(cfg, base, b, tag, elapsed)
            passes += p
            fails += f
            all_ok &= f == 0
        if not cfg.tv:
            ok = self.check_timeline(base, bufs, tag)
            passes += ok
            fails += not ok
            all_ok &= ok
        if all_ok and not self.args.keep:
            for f in os.listdir(self.workdir):
                if f.startswith(cfg.name + '.') and f.endswith(('.pcs', '.cpu.log')):
                    os.unlink(os.path.join(self.workdir, f))
        return passes, fails

    def check_timeline(self, base, bufs, tag):
        """All harts' buffers in one `ntrace timeline`, each read with its
        own sidecar: every hart's instruction count = its decode's."""
        nexes = [f'{base}.hart{b["hart"]}.nex' for b in bufs]
        t = run([self.ntrace, 'timeline', '--elf', self.payload] + nexes)
        got = {int(m.group(1)): int(m.group(2)) for m in
               re.finditer(r'^hart (\d+) +end: (\d+) instructions', t.stdout, re.M)}
        want = {}
        for b in bufs:
            dec = f'{base}.dec.hart{b["hart"]}.pcs'
            want[b['hart']] = sum(1 for _ in open(dec)) if os.path.exists(dec) else None
        what = f'timeline of {len(bufs)} hart(s), each with its sidecar'
        if t.returncode == 0 and 'hint:' not in t.stderr and got == want:
            emit([f'PASS: {tag}: {what} (instructions per hart = the decodes\')'])
            return True
        emit([f'FAIL: {tag}: {what}: exit {t.returncode}, instructions {got}, decoded {want}'] +
             indent(t.stderr, 6))
        return False

    def check_tv_hart(self, cfg, base, b, tag, elapsed):
        """TV mode: tv-check.py against the ground truth or QEMU's dumps."""
        h = b['hart']
        tag = f'{tag} hart{h}'
        nex = f'{base}.hart{h}.nex'
        cmd = [sys.executable, os.path.join(ROOT, 'tests/trace/tv-check.py'),
               '--records', self.tv_records, nex]
        if cfg.tv == 'pcs':
            win = f'{base}.win.hart{h}.pcs'
            e = run([sys.executable, os.path.join(ROOT, 'scripts/trace-compare.py'),
                     '--elf', self.payload, '--emit-window', win, f'{base}.gt.hart{h}.pcs'])
            if e.returncode != 0:
                emit([f'FAIL: {tag}: no session window'] + indent(e.stdout + e.stderr, 6))
                return 0, 1
            cmd += ['--window', win] + (['--prefix'] if cfg.match == 'prefix' else [])
            what = 'TV records = ground truth (pcs and trap marks)'
        else:
            cmd += ['--cpu-log', f'{base}.cpu.log']
            for lo, hi in self.tv_ranges:
                cmd += ['--range', f'{lo:x}-{hi:x}']
            what = 'TV register values = QEMU -d cpu'
        c = run(cmd)
        if c.returncode == 0:
            emit([f'PASS: {tag}: {what} ({c.stdout.strip().removeprefix("tv-check: ")}, '
                  f'{len(open(nex, "rb").read())} bytes, run {elapsed:.0f} s)'])
            ok = (1, 0)
        else:
            emit([f'FAIL: {tag}: {what}'] + indent(c.stdout + c.stderr, 16) +
                 [f'    work files: {base}.*'])
            ok = (0, 1)
        # The user's tool on the same buffer: the records explain themselves
        # (pc flow, instruction bits = the ELF, register and memory values).
        c = run([self.tvtrace, 'check', '--elf', self.payload, '--idle-padded', nex])
        if c.returncode == 0:
            emit([f'PASS: {tag}: tvtrace check --elf ({c.stdout.splitlines()[0].split(": ", 1)[-1]})'])
            return ok[0] + 1, ok[1]
        emit([f'FAIL: {tag}: tvtrace check --elf'] + indent(c.stdout + c.stderr, 16) +
             [f'    work files: {base}.*'])
        return ok[0], ok[1] + 1

    def filter_options(self, cfg):
        cmp_opts, enc_opts = [], []
        if cfg.priv != 'US':
            cmp_opts += ['--priv', cfg.priv]
            enc_opts += ['--trace-priv', cfg.priv]
        if cfg.addr_range:
            rng = f'{self.range[0]:x}-{self.range[1]:x}'
            cmp_opts += ['--range', rng]
            enc_opts += ['--trace-range', rng]
        return cmp_opts, enc_opts

    def check_profile(self, cfg, tag, nex, dec, win, emitted, tci):
        """`ntrace profile` of the buffer = tests/trace/stack-reference.py on
        the ground truth's window (the decoded instructions of it): self,
        total and calls of every function, the folded stacks (the flame
        graph), instructions, traps and the deepest stack; and no function
        on the stack for more than all instructions."""
        what = 'profile = call stacks rebuilt from the ground truth'
        if emitted.returncode != 0:
            emit([f'FAIL: {tag}: {what}: no session window'] +
                 indent(emitted.stdout + emitted.stderr, 6))
            return 0, 1
        decoded = sum(1 for _ in open(dec)) if os.path.exists(dec) else 0
        ref_cmd = [sys.executable, os.path.join(ROOT, 'tests/trace/stack-reference.py'),
                   '--elf', self.payload, win] + self.filter_options(cfg)[0]
        if cfg.match != 'exact':
            ref_cmd += [f'--{cfg.match}', str(decoded)]
        prof = [self.ntrace, 'profile', '--elf', self.payload, '--tci', tci, nex]
        if cfg.match == 'suffix':
            prof.append('--wrapped')
        j, f, r = run(prof + ['--json']), run(prof + ['--folded']), run(ref_cmd)
        problems = [f'{who} failed: {c.stderr.strip()[:300]}'
                    for who, c in (('ntrace profile --json', j),
                                   ('ntrace profile --folded', f),
                                   ('stack-reference.py', r)) if c.returncode != 0]
        if not problems:
            tool, ref = json.loads(j.stdout), json.loads(r.stdout)
            problems = profile_differences(tool, folded_stacks(f.stdout), ref)
        if problems:
            emit([f'FAIL: {tag}: {what}'] + ['    ' + p for p in problems[:12]] +
                 [f'    files: {nex} {win}'])
            return 0, 1
        emit([f'PASS: {tag}: {what} ({ref["instructions"]} instructions, '
              f'{len(ref["functions"])} functions, {len(ref["folded"])} stacks, '
              f'max depth {ref["max_depth"]}, {ref["traps"]} traps)'])
        return 1, 0

    def check_hart(self, cfg, base, b, tag, elapsed):
        h = b['hart']
        tag = f'{tag} hart{h}'
        nex = f'{base}.hart{h}.nex'
        gt = f'{base}.gt.hart{h}.pcs'
        dec = f'{base}.dec.hart{h}.pcs'
        tci = f'{b["control"]:#x},{b["features"]:#x},{b["tscontrol"]:#x}'
        cmp_opts, enc_opts = self.filter_options(cfg)
        passes = fails = 0

        # ---- decode (the sidecar gives the settings) and compare with the ground truth
        d = run([self.ntrace, 'decode', '--elf', self.payload, nex, '--out', dec])
        c = run([sys.executable, os.path.join(ROOT, 'scripts/trace-compare.py'),
                 '--elf', self.payload, '--match', cfg.match] + cmp_opts + [gt, dec])
        if d.returncode == 0 and c.returncode == 0 and 'hint:' not in d.stderr:
            summary = c.stdout.strip().splitlines()[-1] if c.stdout.strip() else ''
            m = re.search(r'(\d+) instructions compared', summary)
            emit([f'PASS: {tag}: decoded trace = ground truth '
                  f'({m.group(1) if m else "?"} instructions, {cfg.match} match, '
                  f'{len(open(nex, "rb").read())} bytes, run {elapsed:.0f} s)'])
            passes += 1
        else:
            lines = [f'FAIL: {tag}: decoded trace != ground truth (sidecar {nex}.tci, TRACEBUF '
                     f'--tci {tci}{", " + " ".join(cmp_opts) if cmp_opts else ""})']
            if d.returncode != 0 or 'hint:' in d.stderr:
                lines += ['    ntrace decode reported errors or a hint:'] + indent(d.stderr, 14)
            if c.returncode != 0:
                lines += indent(c.stdout + c.stderr, 14)
            lines.append(f'    files: {nex} {gt} {dec}')
            emit(lines)
            fails += 1

        win = f'{base}.win.hart{h}.pcs'
        e = run([sys.executable, os.path.join(ROOT, 'scripts/trace-compare.py'),
                 '--elf', self.payload, '--emit-window', win, gt])

        # ---- the profile's call stacks against those rebuilt from the window
        p, f = self.check_profile(cfg, tag, nex, dec, win, e, tci)
        passes += p
        fails += f

        # ---- byte identity with the host encoder
        ts_on = (b['tscontrol'] & TRTS_ON) == TRTS_ON and TRTS_MODE(b['tscontrol']) == 2
        if ts_on and b['wrap']:
            emit([f'SKIP: {tag}: bytes = host encoder (not comparable: timestamps in a '
                  'wrapped buffer)'])
            return passes, fails
        host = f'{base}.host.hart{h}.nex'
        if e.returncode == 0 and int(open(win).readline().split()[0], 16) != self.first:
            emit([f'SKIP: {tag}: bytes = host encoder (not comparable: a trap came right '
                  'after the enabling store, before trace_first; a .pcs window cannot '
                  'say where tracing started)'])
            return passes, fails
        if e.returncode == 0:
            tci0 = f'{b["control"]:#x},{b["features"]:#x},0'
            e = run([self.ntrace, 'encode', '--elf', self.payload, '--pcs', win,
                     '--out', host, '--tci', tci0] + enc_opts)
        if e.returncode != 0:
            emit([f'FAIL: {tag}: bytes = host encoder: the host could not encode the '
                  'ground truth'] + indent(e.stderr or e.stdout, 6))
            return passes, fails + 1
        fwb = open(nex, 'rb').read()
        hb = open(host, 'rb').read()
        if ts_on:
            dump_opts = ['--tci', f'{b["control"]:#x},{b["features"]:#x}']
            fd = run([self.ntrace, 'dump', nex] + dump_opts)
            hd = run([self.ntrace, 'dump', host] + dump_opts)
            why = (f'ntrace dump failed ({fd.returncode}, {hd.returncode})'
                   if fd.returncode or hd.returncode else
                   messages_without_tstamp(fd.stdout, hd.stdout) or
                   timestamps_backwards(fd.stdout))
            if why is None:
                emit([f'PASS: {tag}: messages = host encoder, TSTAMP aside '
                      f'({len(dump_messages(hd.stdout))} messages, each with a TSTAMP, '
                      'none going back in time)'])
                return passes + 1, fails
            emit([f'FAIL: {tag}: messages != host encoder (TSTAMP aside): {why}',
                  f'    files: {nex} {host} {win}'])
            return passes, fails + 1
        if b['wrap']:
            ok, at = wrapped_bytes_match(fwb, hb, cfg.match)
            what = 'last' if cfg.match == 'suffix' else 'first'
            if ok:
                emit([f'PASS: {tag}: bytes = host encoder (the buffer wrapped: its {at} '
                      f'bytes are the {what} {at} of the host\'s {len(hb)}, then '
                      f'{len(fwb) - at} idle)'])
                return passes + 1, fails
            emit([f'FAIL: {tag}: bytes != host encoder: the wrapped buffer ({len(fwb)} '
                  f'bytes) is not the {what} part of the host\'s {len(hb)} bytes (first '
                  f'difference at buffer byte {at})', f'    files: {nex} {host} {win}'])
            return passes, fails + 1
        off = first_byte_mismatch(fwb, hb)
        if off is None:
            emit([f'PASS: {tag}: bytes = host encoder ({len(hb)} bytes, then '
                  f'{len(fwb) - len(hb)} idle)'])
            return passes + 1, fails
        lines = [f'FAIL: {tag}: bytes != host encoder: first difference at byte {off} '
                 f'(firmware {len(fwb)} bytes, host {len(hb)} + idle)']
        if off < len(hb):
            dump_opts = ['--tci', f'{b["control"]:#x},{b["features"]:#x}']
            for who, path in (('firmware', nex), ('host', host)):
                dm = run([self.ntrace, 'dump', path] + dump_opts)
                lines.append(f'    {who} message holding byte {off}:')
                lines += ['      ' + l for l in message_at(dm.stdout, off)[:12]]
        else:
            lines.append(f'    firmware byte {off}: {fwb[off]:#04x} where the host has '
                         'ended (only 0xff allowed)' if off < len(fwb) else
                         '    the firmware buffer ends before the host bytes')
        lines.append(f'    files: {nex} {host} {win}')
        emit(lines)
        return passes, fails + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--payload', default='build/payloads/trace-prog.elf')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--tv-records', default='build/tools/tv-records')
    ap.add_argument('--tvtrace', default='build/tools/tvtrace')
    ap.add_argument('--workdir', default='build/trace-tests')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=int, default=600,
                    help='seconds per QEMU run (default 600)')
    ap.add_argument('--keep', action='store_true',
                    help='keep the ground truth of passing configurations')
    ap.add_argument('--list', action='store_true', help='list the configurations')
    ap.add_argument('--soak', action='store_true',
                    help='also the configurations kept out of make test (soak)')
    ap.add_argument('configs', nargs='*', metavar='CONFIG')
    args = ap.parse_args()
    if args.list:
        for c in CONFIGS:
            print(f'{c.name:26} smp {c.smp}  {c.boot_args()}{"  (soak)" if c.soak else ""}')
        return 0
    known = {c.name: c for c in CONFIGS}
    for name in args.configs:
        if name not in known:
            ap.error(f'unknown configuration {name} (--list)')
    chosen = ([known[n] for n in args.configs] if args.configs else
              [c for c in CONFIGS if args.soak or not c.soak])
    for attr in ('fw', 'payload', 'ntrace', 'tv_records', 'tvtrace', 'workdir'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.workdir, exist_ok=True)
    try:
        suite = Suite(args)
    except rvelf.ElfError as e:
        print(f'FAIL: trace suite: {e}')
        return 1
    t0 = time.time()
    passes = fails = 0
    # Longest runs first, so the two workers end together.
    order = sorted(chosen, key=lambda c: -c.cost)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(suite.check_config, c): c for c in order}
        for fut in concurrent.futures.as_completed(futures):
            try:
                p, f = fut.result()
            except Exception as e:  # a bug here must not look like a pass
                emit([f'FAIL: trace {futures[fut].name}: suite error: {e!r}'])
                p, f = 0, 1
            passes += p
            fails += f
    print(f'trace suite: {len(chosen)} configurations, {passes} passed, {fails} failed, '
          f'wall time {time.time() - t0:.0f} s ({args.jobs} parallel runs)')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())

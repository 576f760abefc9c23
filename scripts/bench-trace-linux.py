#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make bench-trace-linux: what tracing a Linux boot, and a program from
Linux, costs.

    scripts/bench-trace-linux.py [--fw build/tracesbi.elf]
        [--kernel build/linux/Image] [--vmlinux build/linux/vmlinux]
        [--ntrace build/tools/ntrace] [--init build/linux/initramfs/init]
        [--initrd build/linux/trace-perf.cpio]
        [--traced build/linux/trace-perf/tsbi-traced]
        [--workdir build/bench-trace-linux]
        [--out build/results/bench-trace-linux.md] [--only boot|program]
        [--first-buf BYTES,...] [--whole-timeout S] [--no-whole]
        [--rounds N] [--switches N] [--smp 1|2] [--program-timeout S]

Two parts, each its table (--only runs one): the traced boot, then the
traced program.

The traced boot.  The test kernel boots on one hart under QEMU virt with
`-icount shift=0` (instret counts every instruction exactly) through
tests/trace/linux-run.py, whose init (`tracesbi.checks=none`) powers off
as soon as user space runs.
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

The traced program (the perf trace PMU of linux-trace/, issue 35).  One
boot of the test kernel under QEMU virt (--smp harts, default 2, `-icount
shift=0,align=off,sleep=off`: instret counts every instruction, M-mode
included) with the perf trace initramfs (--initrd: the module,
tsbi-record, tsbi-traced, tsbi-pingpong) and init in its trace-bench mode
(tests/linux/trace_bench.c; its console is a file this script follows,
timestamping each line as it comes).  Init runs on CPU 0, the recorder on
CPU 1, the measured programs on CPU 0; five repetitions, the modes in turn:

  untraced   `tsbi-traced N` (--rounds, default 20)
  u          `tsbi-record -u -C 0 -- tsbi-traced N`: user space only
  us         `tsbi-record -C 0 -f 'filter KTEXT,filter TSBI-TRACED'`: user
             and kernel, with address filters on the kernel's text and on
             tsbi-traced (as the trace-perf test: module code, which no ELF
             here describes, is not encoded; filters take the stepper's
             C visit everywhere)

Init ptrace()s the program (PTRACE_SEIZE, through the recorder's fork) and
reads CPU 0's instret (U-mode rdinstret) at the syscall stop at the entry
of its execve and when waitpid says it has ended: the window holds its
exec, its run and its exit, and so every start and stop of the encoder
(enable_on_exec, each switch, the exit).  Over it init also counts the
firmware's emulated register accesses on CPU 0 (SBI PMU firmware events
ACCESS_LOAD + ACCESS_STORE, per-CPU counting events) and prints console
markers around it.  Per traced mode, from the repetition with the fewest
instructions (other tasks that preempt the slowed-down program on CPU 0
only add: each preemption is a stop and a start, and the restart costs):

  instructions      CPU 0's instret over the window
  slowdown (instr)  instructions / untraced's (the fewest of its five)
  decoded           instructions that run's recording decodes to
                    (`ntrace perf --elf tsbi-traced [--elf vmlinux]`)
  M/instr           (instructions - untraced) / decoded: M-mode
                    instructions per traced instruction, and whatever else
                    the slower run ran (timer ticks, other tasks' wakeups)
  segments          its AUX records: one start and stop of the encoder each
  TCI accesses per start+stop
                    accesses over the window / segments (exact: every start
                    and stop of the event falls in the window)
  wall, slowdown (wall)
                    host time between the markers, the best of the five,
                    against untraced's (rough: untraced takes milliseconds)
  bits/instr        8 * AUX bytes / decoded

Context switches: `tsbi-pingpong pp M` (--switches, default 200: M round
trips through two pipes with a partner process on CPU 0, so the program
is switched out and in once a round trip) and `tsbi-pingpong self M` (the
same system calls, never blocking), each untraced and recorded user only
(`-u -C 0`; the partner is not traced).  The program reads instret around
the round trips itself, its context switches (/proc/self/status) and the
firmware's register accesses on CPU 0 over them.  Per switch of the
traced task: (pp traced - pp untraced) / switches, the same less what
tracing the same calls costs when they do not block ((self traced - self
untraced) / switches), and accesses / switches.

The counts of the program part are not the same from run to run, unlike
the boot part's: QEMU 7.2 does not repeat these runs exactly under
-icount sleep=off (with 2 harts even the untraced counts move by a few
instructions; on 1 hart, and with the DT's host-random rng-seed removed,
they part after the first traced runs), and once they part, other tasks
(ksoftirqd, timers' and RCU's wakeups) preempt the slowed-down program a
different number of times, each a stop and a start of the encoder and a
restart of the stepper (about 1.5 M instructions).  The fewest of five
repetitions moves much less than their spread, which the table's note
lists.

A benchmark: it reports, it never fails on speed.  The tables go to stdout
and to --out.  Exit status 1 when a run that must work fails (untraced,
first; any run of the program part) or a buffer or recording does not
decode.
"""

import argparse
import base64
import json
import os
import re
import subprocess
import sys
import time

from tsbi import elf as rvelf
from tsbi.qemu import command as qemu_command

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


# ---- the traced program (tests/linux/trace_bench.c) ----

PROGRAM_ROUNDS = 20
PINGPONG_ROUND_TRIPS = 200
PROGRAM_REPS = 5
PROGRAM_MODES = {'untraced': 'untraced',
                 'u': 'user only (`tsbi-record -u -C 0`)',
                 'us': 'user+kernel (`tsbi-record -C 0 -f`: kernel text, tsbi-traced)'}
MARK_RE = re.compile(r'^TSBI-BENCH-MARK (begin|end) (\S+)$')
PROGRAM_RE = re.compile(r'^TSBI-BENCH program name=(\S+) mode=(\S+) rep=(\d+) instret=(\d+) '
                        r'accesses=(-?\d+) output=(.*)$')
SWITCH_RE = re.compile(r'^TSBI-BENCH switch name=(\S+) output=tsbi-pingpong: (\S+) (\d+) '
                       r'instret=(\d+) switches=(-?\d+) accesses=(-?\d+)$')
RECORDER_RE = re.compile(r'^TSBI-BENCH recorder name=(\S+): .*: (\d+) records, (\d+) AUX records '
                         r'with (\d+) bytes \((\d+) truncated\)')
REC_BEGIN_RE = re.compile(r'^TSBIREC-BEGIN name=(\S+) cpu=(\d+) bytes=(\d+)$')
RESULT_RE = re.compile(r'^(PASS|FAIL): linux/(\S+?)(?::|$)')
PRINTK_RE = re.compile(r'\[ *\d+\.\d+\] .*$')
SEGMENT_RE = re.compile(r'^# segment \d+: .*?, (\d+) bytes')


def kernel_text(vmlinux):
    """[_start, _etext) of vmlinux: what the user+kernel run's filter keeps."""
    images = rvelf.Images([rvelf.Elf(vmlinux)])
    return images.symbol('_start'), images.symbol('_etext')


def console_lines(args, append, path):
    """Boots QEMU (virt, -icount sleep=off) with the perf trace initramfs;
    its console's lines, each with the host time it arrived.  The console
    is a file, followed as it grows: on a pipe QEMU's serial port waits on
    the reader, and the guest's counts with it."""
    cmd = qemu_command(args.fw, args.kernel, smp=args.smp, console='none', initrd=args.initrd,
                       append=append, icount='exact',
                       extra=['-no-reboot', '-monitor', 'none', '-serial', f'file:{path}'])
    open(path, 'w').close()
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(path + '.qemu.log', 'w'))
    deadline = time.monotonic() + args.program_timeout
    got, pending = [], b''
    with open(path, 'rb') as con:
        while True:
            running = qemu.poll() is None
            chunk = con.read()
            now = time.monotonic()
            pending += chunk
            *complete, pending = pending.split(b'\n')
            for raw in complete:
                # A kernel message may land in the middle of init's line:
                # the rest of that line follows on the next one.
                line = raw.decode(errors='replace').rstrip('\r')
                got.append((now, PRINTK_RE.sub('', line)))
            if not running:
                break
            if now > deadline:
                qemu.kill()
            if not chunk:
                time.sleep(0.002)
    return got


def recordings(lines):
    """{name: bytes} of the base64 dumps."""
    recs, name, chunks = {}, None, []
    for _, line in lines:
        m = REC_BEGIN_RE.match(line)
        if m:
            name, chunks = m.group(1), []
        elif name and line == f'TSBIREC-END name={name}':
            recs[name] = base64.b64decode(''.join(chunks))
            name = None
        elif name:
            chunks.append(line.strip())
    return recs


def decode_segments(args, name, data, elves):
    """Per segment of a recording: (AUX bytes, decoded instructions)."""
    rec = os.path.join(args.workdir, name + '.rec')
    with open(rec, 'wb') as f:
        f.write(data)
    pcs = rec[:-4] + '.pcs'
    cmd = [args.ntrace, 'perf', rec, '--pcs', pcs]
    for e in elves:
        cmd += ['--elf', e]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or 'hint:' in r.stderr:
        raise BenchError(f'{rec} does not decode: {(r.stderr or r.stdout).strip()[-300:]}')
    segments = []
    with open(pcs) as f:
        for line in f:
            m = SEGMENT_RE.match(line)
            if m:
                segments.append([int(m.group(1)), 0])
            elif line.strip() and not line.startswith('#') and segments:
                segments[-1][1] += 1
    os.unlink(pcs)
    return segments


def program_results(lines):
    """The program runs' counts, the wall times between their markers, the
    ping-pong runs, the recorders' summaries and init's failures."""
    runs, walls, begins, switches, summaries, failed = {}, {}, {}, {}, {}, []
    for t, line in lines:
        if m := MARK_RE.match(line):
            if m.group(1) == 'begin':
                begins[m.group(2)] = t
            elif m.group(2) in begins:
                walls[m.group(2)] = t - begins[m.group(2)]
        elif m := PROGRAM_RE.match(line):
            runs.setdefault(m.group(2), {})[int(m.group(3))] = {
                'instret': int(m.group(4)), 'accesses': int(m.group(5)), 'output': m.group(6)}
        elif m := SWITCH_RE.match(line):
            switches[m.group(1)] = {'n': int(m.group(3)), 'instret': int(m.group(4)),
                                    'switches': int(m.group(5)), 'accesses': int(m.group(6))}
        elif m := RECORDER_RE.match(line):
            summaries[m.group(1)] = {'aux_records': int(m.group(3)), 'bytes': int(m.group(4)),
                                     'truncated': int(m.group(5))}
        elif (m := RESULT_RE.match(line)) and m.group(1) == 'FAIL':
            failed.append(line)
    return runs, walls, switches, summaries, failed


def least_disturbed(reps):
    """(rep, run) of the repetition with the fewest instructions: other
    tasks that ran on CPU 0 meanwhile only add (each switch costs the
    traced program a stop and a start)."""
    return min(reps.items(), key=lambda kv: (kv[1]['instret'], kv[0]))


def rep_counts(reps):
    return ' / '.join(f'{run["instret"]:,}' for _, run in sorted(reps.items()))


def program_rows(args, runs, walls, recs):
    """The table of tsbi-traced runs (untraced, user only, user+kernel) and
    a note of every repetition's count."""
    base_rep, base = least_disturbed(runs['untraced'])
    base_wall = min(walls[f'prog-untraced-{r}'] for r in runs['untraced'])
    rows = ['| run | instructions | slowdown (instr) | decoded | M/instr | segments | '
            f'TCI accesses per start+stop | wall (best of {len(runs["untraced"])}) | '
            'slowdown (wall) | AUX bytes | bits/instr |',
            '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
            f'| untraced | {base["instret"]:,} | 1.00 | | | | | {base_wall:.3f} s | 1.00 | | |']
    notes = [f'untraced {rep_counts(runs["untraced"])}']
    elves = {'u': [args.traced], 'us': [args.traced, args.vmlinux]}
    for mode in ('u', 'us'):
        if mode not in runs:
            rows.append(f'| {PROGRAM_MODES[mode]} | not run | | | | | | | | | |')
            continue
        rep, run = least_disturbed(runs[mode])
        if any(r['output'] != base['output'] for r in runs[mode].values()):
            raise BenchError(f'tsbi-traced printed something else traced ({mode}) than untraced '
                             f'("{base["output"]}")')
        name = f'prog-{mode}-{rep}'
        if name not in recs:
            raise BenchError(f'no recording of {name} on the console')
        segs = decode_segments(args, name, recs[name], elves[mode])
        # The window holds the event's whole life: every segment is a
        # start and a stop of the encoder in it.
        total_bytes, total = sum(b for b, _ in segs), sum(n for _, n in segs)
        per_pair = f'{run["accesses"] / len(segs):.1f}' if run['accesses'] >= 0 else ''
        wall = min(walls[f'prog-{mode}-{r}'] for r in runs[mode])
        count = run['instret']
        rows.append(f'| {PROGRAM_MODES[mode]} | {count:,} | {count / base["instret"]:.2f} | '
                    f'{total:,} | {(count - base["instret"]) / total:.1f} | {len(segs)} | '
                    f'{per_pair} | {wall:.3f} s | {wall / base_wall:.2f} | {total_bytes:,} | '
                    f'{8 * total_bytes / total:.3f} |')
        notes.append(f'{mode} {rep_counts(runs[mode])}')
    rows += ['', f'Instructions of each repetition (the table has the fewest, repetition '
             f'{base_rep} untraced): {"; ".join(notes)}.']
    return rows


def switch_rows(switches, summaries):
    """The ping-pong runs and the cost of one switch of the traced task."""
    names = ('switch-pp-untraced', 'switch-pp-u', 'switch-self-untraced', 'switch-self-u')
    missing = [n for n in names if n not in switches]
    if missing:
        raise BenchError(f'no result of {", ".join(missing)} on the console')
    pu, pt, su, st = (switches[n] for n in names)
    n = pt['switches']
    if n <= 0:
        raise BenchError(f'the traced ping-pong task was switched {n} times')
    rows = ['| run | instructions | switches of the task | TCI register accesses | '
            'AUX records |', '| --- | ---: | ---: | ---: | ---: |']
    for name in names:
        r = switches[name]
        aux = summaries.get(name, {}).get('aux_records', '')
        rows.append(f'| {name[len("switch-"):]} | {r["instret"]:,} | {r["switches"]:,} | '
                    f'{r["accesses"]:,} | {aux} |')
    raw = (pt['instret'] - pu['instret']) / n
    only = ((pt['instret'] - pu['instret']) - (st['instret'] - su['instret'])) / n
    rows += ['', f'Per switch of the traced task ({n:,} switches): {raw:,.0f} instructions '
             f'more than untraced; {only:,.0f} without what tracing the same system calls '
             f'costs when they do not block (pp - self); {pt["accesses"] / n:.1f} TCI register '
             'accesses (a stop and a start, each access an M-mode trap; the exact count per '
             'start+stop is in the program table).']
    return rows


def program_part(args):
    """tsbi-traced untraced and traced, and the ping-pong, in one boot."""
    lo, hi = kernel_text(args.vmlinux)
    append = (f'console=ttyS0 earlycon=sbi panic=-1 tracesbi.cpus={args.smp} '
              'tracesbi.checks=trace-bench '
              f'tracesbi.tracebench=program,switch tracesbi.benchrounds={args.rounds} '
              f'tracesbi.benchswitches={args.switches} tracesbi.benchreps={PROGRAM_REPS} '
              f'tracesbi.tracektext={lo:#x}/{hi - lo:#x}')
    path = os.path.join(args.workdir, 'program.console')
    lines = console_lines(args, append, path)
    console = os.path.relpath(path, ROOT)
    if not any(line.startswith('tracesbi-init: done') for _, line in lines):
        raise BenchError(f'the program boot did not finish (console {console})')
    runs, walls, switches, summaries, failed = program_results(lines)
    if failed:
        raise BenchError(f'{failed[0]} (console {console})')
    if 'untraced' not in runs or not all(f'prog-{m}-{r}' in walls for m in runs for r in runs[m]):
        raise BenchError(f'missing program results or markers (console {console})')
    recs = recordings(lines)
    truncated = [n for n, s in summaries.items() if s['truncated']]
    out = [f'## Tracing a program from Linux (QEMU virt, {args.smp} harts, -icount shift=0, '
           'sleep=off)', '',
           f'`tsbi-traced {args.rounds}` on CPU 0 (the recorder on CPU 1 when there are two); '
           'instructions: what CPU 0 retired (all modes) from the entry of the program\'s '
           'execve to its end (exit included), read by init (rdinstret) at a ptrace syscall '
           'stop and at waitpid, the fewest of the repetitions; decoded: instructions that '
           'run\'s recording decodes to; M/instr: (traced - untraced) / decoded; segments: its '
           'AUX records (one per start and stop of the encoder: the exec, each switch back to '
           'the program, the exit); TCI accesses: the firmware\'s emulated register accesses '
           'on CPU 0 in the window / segments; wall: host time between console markers around '
           'the window; bits/instr: 8 * AUX bytes / decoded (scripts/bench-trace-linux.py).',
           '']
    out += program_rows(args, runs, walls, recs)
    out += ['', f'Context switches: `tsbi-pingpong pp {args.switches}` (round trips through two '
            'pipes with a partner on CPU 0) and `self` (the same calls, never blocking), '
            'untraced and with tsbi-pingpong recorded user only (`-u -C 0`, the partner not '
            'traced); instructions: CPU 0\'s over the round trips, accesses: the firmware\'s '
            'ACCESS_LOAD + ACCESS_STORE events on CPU 0 over them.', '']
    out += switch_rows(switches, summaries)
    problems = [f'{n}: the recording was truncated' for n in truncated]
    return out, problems


def boot_part(args):
    """The traced boots' table (lines); BenchError when a run that must
    work failed, the whole boot's failure in its row."""
    firsts = [f'stop,buf=0x8f000000:{b}' for b in args.first_buf.split(',')]
    lines = ['## Tracing a Linux boot (1 hart, QEMU -icount shift=0, the test kernel)', '',
             'traced: instructions the encoder reported (tsbiTeInsns); instr/block: per block '
             'the stepper stepped (tsbiTeBlocks); M/instr: (minstret traced - minstret '
             'untraced) / traced, at the system reset after init; part slowdown: 1 + M/instr; '
             'boot slowdown: minstret and wall time to the reset against the untraced boot; '
             'bits/instr: of the saved buffer (scripts/bench-trace-linux.py).', '']
    problems = []
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
    return lines, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fw', default='build/tracesbi.elf')
    ap.add_argument('--kernel', default='build/linux/Image')
    ap.add_argument('--vmlinux', default='build/linux/vmlinux')
    ap.add_argument('--ntrace', default='build/tools/ntrace')
    ap.add_argument('--init', help='init\'s ELF, for the user-space part of a buffer '
                    '(default: initramfs/init next to --kernel)')
    ap.add_argument('--initrd', help='the perf trace initramfs, for the program part '
                    '(default: trace-perf.cpio next to --kernel)')
    ap.add_argument('--traced', help='tsbi-traced\'s ELF (default: trace-perf/tsbi-traced '
                    'next to --kernel)')
    ap.add_argument('--workdir', default='build/bench-trace-linux')
    ap.add_argument('--out', default='build/results/bench-trace-linux.md')
    ap.add_argument('--only', choices=('boot', 'program'),
                    help='only the traced boots, or only the traced program')
    ap.add_argument('--first-buf', default='0x4000,0x3c000',
                    help='bytes of the first runs\' buffers (comma-separated, one run each)')
    ap.add_argument('--whole-timeout', type=int, default=1800)
    ap.add_argument('--no-whole', action='store_true', help='leave the whole boot out')
    ap.add_argument('--rounds', type=int, default=PROGRAM_ROUNDS,
                    help='tsbi-traced\'s rounds (1..1000)')
    ap.add_argument('--switches', type=int, default=PINGPONG_ROUND_TRIPS,
                    help='tsbi-pingpong\'s round trips (1..60000)')
    ap.add_argument('--program-timeout', type=int, default=1200)
    ap.add_argument('--smp', type=int, default=2, choices=(1, 2),
                    help='harts of the program part (default 2: the recorder on the other one)')
    args = ap.parse_args()
    here = os.path.dirname(args.kernel)
    args.init = args.init or os.path.join(here, 'initramfs', 'init')
    args.initrd = args.initrd or os.path.join(here, 'trace-perf.cpio')
    args.traced = args.traced or os.path.join(here, 'trace-perf', 'tsbi-traced')
    for attr in ('fw', 'kernel', 'vmlinux', 'init', 'initrd', 'traced', 'ntrace', 'workdir',
                 'out'):
        setattr(args, attr, os.path.abspath(getattr(args, attr)))
    os.makedirs(args.workdir, exist_ok=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    t0 = time.time()
    lines, problems, status = [], [], 0
    parts = [('boot', boot_part), ('program', program_part)]
    for name, part in parts:
        if args.only not in (None, name):
            continue
        try:
            more, trouble = part(args)
        except BenchError as e:
            print(f'bench-trace-linux: {e}', file=sys.stderr)
            more, trouble, status = [f'## {name} part: failed: {e}'], [], 1
        lines += ([''] if lines else []) + more
        problems += trouble
    lines += ['', f'({time.time() - t0:.0f} s; work files in '
              f'{os.path.relpath(args.workdir, ROOT)})']
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(args.out, 'w') as f:
        f.write(text)
    for p in problems:
        print(f'bench-trace-linux: {p}', file=sys.stderr)
    return status


if __name__ == '__main__':
    sys.exit(main())

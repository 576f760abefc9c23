#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check a tandem-verification (TV) trace buffer against QEMU.

    tv-check.py --records build/tools/tv-records [--flen 8] BUFFER.nex
        [--window WINDOW.pcs [--prefix]] [--cpu-log NAME.cpu.log --range A-B ...]

BUFFER.nex is one hart's RAM sink in TV mode (docs/TRACE.md,
"Tandem-verification mode"); its records are listed by tv-records
(lib/tvtrace's parser) and replayed here on a shadow state: the initial
group (state initialization) sets pc, privilege and x1..x31; each group
with an instruction ran that instruction at the shadow pc, then moves the
pc (increment pc, or the new pc), and applies its register writes.

--window: the session window of the ground truth (trace-compare.py
  --emit-window).  The instructions the trace says ran, with the ground
  truth's marks (scripts/trace-ground-truth.py: `exc` on an ecall/ebreak
  that trapped and on the instruction before any other exception, `int`
  before an interrupt), must equal the window's S/U lines exactly.
  --prefix (a buffer that stopped on wrap): they must be a non-empty
  prefix of them; the last instruction's mark is not compared (the group
  of the trap after it may be what did not fit).
--cpu-log, --range: QEMU's register dumps (`-d cpu,fpu`) before every
  instruction in [A, B) (trace-run.py --cpu-log; --range may be given more
  than once).  Before each instruction the trace shows in a range, x1..x31
  of the shadow state, every FPR the trace wrote, and the S-mode CSRs QEMU
  dumps (sstatus as mstatus through its mask, stvec, sepc, scause, stval,
  satp) once the trace wrote them, must equal QEMU's dump at that pc (the next one in the
  log: dumps of instructions an interrupt undid are skipped).

Prints one summary line; on a mismatch the first difference with context,
exit status 1.
"""

import argparse
import re
import subprocess
import sys

OP_BEGIN, OP_END, OP_INCR_PC, OP_FULL_REG, OP_STATE = 1, 2, 3, 4, 7
OP_STATE_INIT, OP_INSN16, OP_INSN32 = 11, 16, 17
STATE_PRIV, STATE_PC = 1, 10
REG_GPR, REG_FPR = 0x1000, 0x1020
CSR_NAMES = {0x105: 'stvec', 0x141: 'sepc', 0x142: 'scause', 0x143: 'stval', 0x180: 'satp',
             0x100: 'sstatus'}
# sstatus is mstatus seen through this mask (privileged spec, "sstatus"):
# SD, UXL, MXR, SUM, XS, FS, VS, SPP, UBE, SPIE, SIE.
SSTATUS_MASK = 0x8000000300000000 | 0xC0000 | 0x18000 | 0x6000 | 0x600 | 0x100 | 0x40 | 0x20 | 0x2
TRAPPING = (0x00000073, 0x00100073, 0x9002)   # ecall, ebreak, c.ebreak
CONTEXT = 3


class CheckError(Exception):
    pass


def read_groups(tool, flen, nex):
    """[(offset, [(opcode, [int fields])])] of every group of the buffer."""
    r = subprocess.run([tool, '--flen', str(flen), nex], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise CheckError(f'tv-records: {r.stderr.strip()}')
    groups, cur = [], None
    for line in r.stdout.splitlines():
        f = line.split()
        off, op, fields = int(f[0], 16), int(f[1]), [int(x, 16) for x in f[2:]]
        if op == OP_BEGIN:
            if cur is not None:        # chapter 3: a begin group ends the open one
                groups.append(cur)
            cur = (off, [])
        elif op == OP_END:
            if cur is None:
                raise CheckError(f'offset {off:#x}: end group without begin group')
            groups.append(cur)
            cur = None
        elif cur is None:
            raise CheckError(f'offset {off:#x}: record {op} outside a group')
        else:
            cur[1].append((op, fields))
    if cur is not None:
        groups.append(cur)
    return groups


class Replay:
    """The shadow state, walked group by group."""

    def __init__(self, check_ranges=()):
        self.pc = None
        self.priv = None
        self.gpr = [0] * 32
        self.fpr = {}                 # the FPRs the trace wrote
        self.csr = {}
        self.lines = []               # [(pc, mark)] as the ground truth has them
        self.points = []              # [(pc, gpr, fpr, csr, off)] before instructions in range
        self.ranges = check_ranges
        self.groups = 0

    def mark_last(self, mark):
        if self.lines:
            self.lines[-1] = (self.lines[-1][0], mark)

    def apply_writes(self, recs):
        for op, f in recs:
            if op == OP_FULL_REG and REG_GPR < f[0] < REG_GPR + 32:
                self.gpr[f[0] - REG_GPR] = f[1]
            elif op == OP_FULL_REG and REG_FPR <= f[0] < REG_FPR + 32:
                self.fpr[f[0] - REG_FPR] = f[1]
            elif op == OP_FULL_REG and f[0] < 0x1000:
                self.csr[f[0]] = f[1]
            elif op == OP_STATE and f[0] == STATE_PRIV:
                self.priv = f[1]

    def group(self, off, recs):
        ops = [op for op, _ in recs]
        new_pc = next((f[1] for op, f in recs if op == OP_STATE and f[0] == STATE_PC), None)
        if OP_STATE_INIT in ops:
            if new_pc is None:
                raise CheckError(f'offset {off:#x}: state initialization without a pc')
            self.apply_writes(recs)
            self.pc = new_pc
            return
        if self.pc is None:
            raise CheckError(f'offset {off:#x}: a group before the initial state')
        insn = next(((op, f[0]) for op, f in recs if op in (OP_INSN16, OP_INSN32)), None)
        ipc = self.pc
        if insn and any(lo <= ipc < hi for lo, hi in self.ranges):
            self.points.append((ipc, list(self.gpr), dict(self.fpr), dict(self.csr), off))
        self.apply_writes(recs)
        self.groups += 1
        trap = next((f[1] for op, f in recs if op == OP_FULL_REG and f[0] == 0x142), None)
        if trap is not None and insn and not trap >> 63:
            if insn[1] in TRAPPING:
                self.lines.append((ipc, 'exc'))
            else:
                self.mark_last('exc')
        elif trap is not None:
            self.mark_last('int' if trap >> 63 else 'exc')
        elif insn:
            # An ecall that did not trap to S: an SBI call (rule R3).
            self.lines.append((ipc, 'exc' if insn[1] == 0x73 else ''))
        if new_pc is not None:
            self.pc = new_pc
        elif OP_INCR_PC in ops and insn:
            self.pc = ipc + (2 if insn[0] == OP_INSN16 else 4)
        else:
            raise CheckError(f'offset {off:#x}: a group that does not say where the pc goes')


def read_window(path):
    """The window's S/U lines as [(pc, mark)]."""
    out = []
    for line in open(path):
        f = line.split()
        if f and f[-1] == 'M' and len(f) == 3 and out:
            # A trap as the SBI call returned, before anything retired:
            # in TV mode the call is serviced below the trace, so the trap
            # follows the ecall itself.
            out[-1] = (out[-1][0], f[1])
        if not f or f[-1] == 'M':
            continue
        out.append((int(f[0], 16), f[1] if len(f) == 3 else ''))
    return out


def show(lines, i):
    return [f'      {"->" if k == i else "  "} {pc:x} {mark}'
            for k, (pc, mark) in enumerate(lines[max(0, i - CONTEXT):i + CONTEXT + 1],
                                           start=max(0, i - CONTEXT))]


def compare_window(replay, window, prefix):
    got = replay.lines
    if prefix:
        if not got or len(got) > len(window):
            return [f'TV trace {len(got)} instructions: not a non-empty prefix of the '
                    f'ground truth\'s {len(window)}']
        window = window[:len(got)]
        window[-1] = (window[-1][0], got[-1][1])
    for i, (a, b) in enumerate(zip(got, window)):
        if a != b:
            return [f'first difference at instruction {i}:', '    TV trace:'] + show(got, i) + \
                   ['    ground truth:'] + show(window, i)
    if len(got) != len(window):
        return [f'TV trace {len(got)} instructions, ground truth {len(window)}']
    return None


DUMP_PC = re.compile(r'^ pc\s+([0-9a-f]+)')
DUMP_REG = re.compile(r'x(\d+)/\w+\s+([0-9a-f]+)')
DUMP_FREG = re.compile(r'\bf(\d+)/\w+\s+([0-9a-f]+)')
DUMP_CSR = re.compile(r'^ (mstatus|stvec|sepc|scause|stval|satp)\s+([0-9a-f]+)')


def read_dumps(path):
    """[(pc, {name or 'xN': value})] of QEMU's -d cpu log."""
    dumps = []
    for line in open(path, errors='replace'):
        m = DUMP_PC.match(line)
        if m:
            dumps.append((int(m.group(1), 16), {}))
            continue
        if not dumps:
            continue
        m = DUMP_CSR.match(line)
        if m:
            dumps[-1][1][m.group(1)] = int(m.group(2), 16)
            if m.group(1) == 'mstatus':
                dumps[-1][1]['sstatus'] = int(m.group(2), 16) & SSTATUS_MASK
        for n, v in DUMP_REG.findall(line):
            dumps[-1][1][f'x{n}'] = int(v, 16)
        for n, v in DUMP_FREG.findall(line):
            dumps[-1][1][f'f{n}'] = int(v, 16)
    return dumps


def compare_registers(replay, dumps):
    j = 0
    for pc, gpr, fpr, csr, off in replay.points:
        while j < len(dumps) and dumps[j][0] != pc:
            j += 1
        if j == len(dumps):
            return [f'no QEMU register dump at {pc:#x} (group at offset {off:#x}) '
                    'after the previous one compared']
        want = dumps[j][1]
        diffs = [f'x{n}: trace {gpr[n]:#x}, QEMU {want.get(f"x{n}", 0):#x}'
                 for n in range(1, 32) if gpr[n] != want.get(f'x{n}')]
        diffs += [f'f{n}: trace {v:#x}, QEMU {want.get(f"f{n}", 0):#x}'
                  for n, v in sorted(fpr.items()) if v != want.get(f'f{n}')]
        diffs += [f'{name}: trace {csr[num]:#x}, QEMU {want.get(name, 0):#x}'
                  for num, name in CSR_NAMES.items() if num in csr and csr[num] != want.get(name)]
        if diffs:
            return [f'registers before {pc:#x} (group at offset {off:#x}, QEMU dump '
                    f'{j}):'] + ['    ' + d for d in diffs[:8]]
        j += 1
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--records', required=True, help='the tv-records tool')
    ap.add_argument('--flen', type=int, default=8)
    ap.add_argument('--window')
    ap.add_argument('--prefix', action='store_true', help='the trace stopped on wrap')
    ap.add_argument('--cpu-log')
    ap.add_argument('--range', action='append', default=[],
                    help='A-B (hex): pcs of --cpu-log (repeatable)')
    ap.add_argument('nex')
    args = ap.parse_args()
    rng = [tuple(int(x, 16) for x in r.split('-')) for r in args.range]
    if bool(args.cpu_log) != bool(rng):
        ap.error('--cpu-log and --range go together')
    try:
        replay = Replay(rng)
        for off, recs in read_groups(args.records, args.flen, args.nex):
            replay.group(off, recs)
        summary = [f'{replay.groups} groups']
        if args.window:
            bad = compare_window(replay, read_window(args.window), args.prefix)
            if bad:
                print('\n'.join(['tv-check: pc sequence != ground truth'] + bad))
                return 1
            summary.append(f'{len(replay.lines)} instructions = ground truth' +
                           (' (prefix)' if args.prefix else ''))
        if args.cpu_log:
            if not replay.points:
                raise CheckError('no instruction of the trace is in the --range')
            bad = compare_registers(replay, read_dumps(args.cpu_log))
            if bad:
                print('\n'.join(['tv-check: registers != QEMU'] + bad))
                return 1
            fprs = len(set().union(*(p[2] for p in replay.points)))
            summary.append(f'registers = QEMU before {len(replay.points)} instructions'
                           f' ({fprs} FPRs among them)')
    except (CheckError, OSError) as e:
        print(f'tv-check: {e}')
        return 1
    print('tv-check: ' + ', '.join(summary))
    return 0


if __name__ == '__main__':
    sys.exit(main())

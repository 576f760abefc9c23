#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Convert a QEMU execution log into a .pcs retired-instruction trace.

The log comes from a single-hart run of a bare-metal program:

    qemu-system-riscv64 -M virt -bios none -nographic -kernel P.elf \
        -singlestep -d exec,nochain,int -D P.log \
        -icount shift=0,align=off,sleep=off

Output (.pcs): one retired instruction per line, `<hex pc>[ exc|int]`, in
lower-case hex without a prefix.  `exc` / `int` mean that an exception /
interrupt trap was taken right after this instruction retired.

Rules (the ground truth of this project):

* With -singlestep every translation block is one instruction, and a
  "Trace N: HOST [CSBASE/PC/FLAGS/CFLAGS] SYM" line is logged when the block
  is *entered*, not when it retires.  Three cases undo such a line:
  - "Stopped execution of TB chain before HOST [PC]": the block was entered
    but not executed (an exit was requested); drop the preceding line.
  - "cpu_io_recompile: rewound execution of TB to PC": the instruction does
    I/O and was rewound to be re-executed from a recompiled block; drop the
    first line of the pair (the second one follows immediately).
  - "riscv_cpu_do_interrupt: ... async:0 ... epc:PC": a synchronous
    exception was raised by the instruction at PC, which therefore did not
    retire; drop its line.
* Exceptions ("async:0", epc = the instruction that raised it).
  - ECALL, EBREAK, C.EBREAK (causes 8, 9, 11 and 3): this project follows
    the ingress-port table of ntrace-spec-1.0.0-rc7 (the revision lib/ntrace
    implements; its Table 2 says "ecall is reported after retirement", itype
    1 = Exception on that instruction) and the ntrace tool's .pcs convention
    (tests/data/ntrace/tool/tiny.pcs): the ECALL/EBREAK is kept as a retired
    instruction and marked `exc` (the exception is taken right after it).
    Note: the ratified 1.0 text says instead that these "do not retire" and
    the trap follows the previous instruction; the two differ only by one
    instruction in I-CNT per trap.  The corpus uses no debug triggers, so a
    breakpoint cause always comes from an EBREAK.
  - Every other cause (illegal instruction, access faults, ...): the
    faulting instruction did not retire and does not count in I-CNT (spec
    "I-CNT Details": "instructions that raise exceptions ... do not
    increment the I-CNT counter"): its line is dropped and the previous
    retired instruction is marked `exc`.
  The instruction that follows an `exc` line is the first one of the trap
  handler.
* Interrupts ("async:1"): the interrupted instruction (epc) has not
  executed; the last retired instruction before the interrupt is marked
  `int` (e.g. a WFI, or an MRET when an interrupt is taken right after it).
* Everything before the first instruction at the ELF entry point (QEMU's
  reset vector in ROM at 0x1000) is skipped: it is not part of the program.
* An instruction cannot carry two marks, and a trap before the first
  retired instruction cannot be expressed: both are reported as errors, as is
  any log line this script does not understand.
"""

import argparse
import os
import re
import struct
import sys

TRACE_RE = re.compile(
    r'^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\]')
STOPPED_RE = re.compile(
    r'^Stopped execution of TB chain before 0x[0-9a-f]+ \[([0-9a-f]+)\]')
RECOMPILE_RE = re.compile(
    r'^cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)')
INTERRUPT_RE = re.compile(
    r'^riscv_cpu_do_interrupt: hart:\d+, async:([01]), cause:([0-9a-f]+), '
    r'epc:0x([0-9a-f]+),')

# mcause values of ECALL from U/S/M-mode and of EBREAK (privileged spec,
# Table "Machine cause register values after trap").
CAUSE_BREAKPOINT = 3
RETIRING_TRAP_CAUSES = (CAUSE_BREAKPOINT, 8, 9, 11)


class LogError(Exception):
    pass


def elf_entry(path):
    """Entry point of a little-endian ELF32/ELF64 file."""
    with open(path, 'rb') as f:
        ident = f.read(64)
    if len(ident) < 64 or ident[:4] != b'\x7fELF':
        raise LogError(f'{path}: not an ELF file')
    if ident[5] != 1:
        raise LogError(f'{path}: not little-endian')
    if ident[4] == 1:
        return struct.unpack_from('<I', ident, 24)[0]
    if ident[4] == 2:
        return struct.unpack_from('<Q', ident, 24)[0]
    raise LogError(f'{path}: bad ELF class {ident[4]}')


class Converter:
    def __init__(self, entry):
        self.entry = entry
        self.started = False
        self.pcs = []       # retired pcs
        self.marks = []     # '' / 'exc' / 'int', parallel to pcs
        self.pending_io = None  # pc rewound by cpu_io_recompile
        self.lineno = 0

    def fail(self, msg):
        raise LogError(f'log line {self.lineno}: {msg}')

    def on_trace(self, pc):
        if self.pending_io is not None:
            if pc != self.pending_io:
                self.fail(f'after cpu_io_recompile of {self.pending_io:x} '
                          f'expected it again, got {pc:x}')
            self.pending_io = None
        if not self.started:
            if pc != self.entry:
                return
            self.started = True
        self.pcs.append(pc)
        self.marks.append('')

    def drop_last(self, pc, why):
        if not self.pcs or self.pcs[-1] != pc:
            last = f'{self.pcs[-1]:x}' if self.pcs else 'nothing'
            self.fail(f'{why} at {pc:x} but the last logged pc is {last}')
        self.pcs.pop()
        self.marks.pop()

    def mark_last(self, mark):
        if not self.pcs:
            self.fail(f'trap ({mark}) before the first retired instruction')
        if self.marks[-1]:
            self.fail(f'instruction {self.pcs[-1]:x} already marked '
                      f'{self.marks[-1]}, cannot also mark {mark}')
        self.marks[-1] = mark

    def on_line(self, line):
        self.lineno += 1
        line = line.rstrip('\n')
        if not line.strip():
            return
        m = TRACE_RE.match(line)
        if m:
            self.on_trace(int(m.group(1), 16))
            return
        if self.pending_io is not None:
            self.fail('cpu_io_recompile not followed by the re-execution')
        m = STOPPED_RE.match(line)
        if m:
            if self.started:
                self.drop_last(int(m.group(1), 16), 'TB chain stopped')
            return
        m = RECOMPILE_RE.match(line)
        if m:
            pc = int(m.group(1), 16)
            if self.started:
                self.drop_last(pc, 'cpu_io_recompile')
            self.pending_io = pc
            return
        m = INTERRUPT_RE.match(line)
        if m:
            if not self.started:
                self.fail('trap before the program entry point')
            asynchronous = m.group(1) == '1'
            cause, epc = int(m.group(2), 16), int(m.group(3), 16)
            if asynchronous:
                self.mark_last('int')
            elif cause in RETIRING_TRAP_CAUSES:
                if not self.pcs or self.pcs[-1] != epc:
                    self.fail(f'ECALL/EBREAK at {epc:x} is not the last '
                              'logged instruction')
                self.mark_last('exc')
            else:
                # The faulting instruction did not retire.
                self.drop_last(epc, 'exception')
                self.mark_last('exc')
            return
        self.fail(f'unrecognised line: {line[:80]!r}')

    def finish(self):
        if self.pending_io is not None:
            self.fail('log ends inside a cpu_io_recompile pair')
        if not self.pcs:
            raise LogError('no instruction at the entry point '
                           f'{self.entry:x} in the log')

    def write(self, out):
        for pc, mark in zip(self.pcs, self.marks):
            out.write(f'{pc:x} {mark}\n' if mark else f'{pc:x}\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--elf', required=True, help='the traced program')
    ap.add_argument('-o', '--out', help='output .pcs (default: stdout)')
    ap.add_argument('log', help='QEMU log (-d exec,nochain,int)')
    args = ap.parse_args()
    try:
        conv = Converter(elf_entry(args.elf))
        with open(args.log, encoding='utf-8', errors='replace') as f:
            for line in f:
                conv.on_line(line)
        conv.finish()
    except (LogError, OSError) as e:
        print(f'qemu-log-to-pcs: {args.log}: {e}', file=sys.stderr)
        return 1
    if args.out:
        with open(args.out + '.tmp', 'w') as out:
            conv.write(out)
        os.replace(args.out + '.tmp', args.out)
    else:
        conv.write(sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main())

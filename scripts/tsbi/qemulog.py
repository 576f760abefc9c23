# SPDX-License-Identifier: BSD-2-Clause
"""The one parser of QEMU 7.2's `-singlestep -d exec,nochain,int` log.

With -singlestep every translation block is one instruction, and its line is
logged when the instruction is *entered*, not when it retires:

  L1 `Trace N: 0xHOST [CSBASE/PC/FLAGS/CFLAGS] ...`: cpu N entered the
     instruction at PC (FLAGS bits 1:0: the privilege it runs in).
  L2 `riscv_cpu_do_interrupt: hart:H, async:A, cause:C, epc:0xE, ...`: hart H
     took a trap (H = cpu index on virt).
  L3 `Stopped execution of TB chain before 0xHOST [PC] ...`: the instruction
     of the most recent Trace line (of any cpu: under -icount one thread runs
     the cpus round-robin) was entered but not executed: that line is undone.
  L4 `cpu_io_recompile: rewound execution of TB to PC`: the same (an I/O
     instruction rewound to run again from a recompiled block), and the next
     Trace line of that cpu must be PC again: the first of the pair is undone.
  Blank lines are ignored; any other line is an error.

Traps (L2): a synchronous exception (async:0) is raised by the instruction
at epc, whose line is the hart's last one.  It did not retire, except an
ECALL or EBREAK (ntrace-spec rc7, Table 2: "ecall is reported after
retirement"): the faulting instruction's line is dropped (see retires()).
An interrupt (async:1) marks the last retired instruction; the interrupted
one was undone by L3.

parse() classifies one line; Undo applies L3/L4; retires() says which
faulting lines stay.  BareMetal reads the log of one bare-metal hart
(scripts/qemu-log-to-pcs.py); scripts/trace-ground-truth.py reads S/U code
under the firmware, per hart, with these same pieces.
"""

import re

TRACE_RE = re.compile(r'Trace (\d+): 0x[0-9a-f]+ '
                      r'\[[0-9a-f]+/([0-9a-f]+)/([0-9a-f]+)/[0-9a-f]+\]')
TRAP_RE = re.compile(r'riscv_cpu_do_interrupt: hart:(\d+), async:([01]), '
                     r'cause:([0-9a-f]+), epc:0x([0-9a-f]+), ')
STOPPED_RE = re.compile(
    r'Stopped execution of TB chain before 0x[0-9a-f]+ \[([0-9a-f]+)\]')
RECOMPILE_RE = re.compile(
    r'cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)\s*$')

# Line kinds: the first element of what parse() returns.
TRACE, TRAP, STOPPED, RECOMPILE = 'Trace', 'trap', 'Stopped', 'recompile'
TRACE_PREFIX = 'Trace '
TRAP_PREFIX = 'riscv_cpu_do_interrupt: '
STOPPED_PREFIX = 'Stopped execution of TB chain'
RECOMPILE_PREFIX = 'cpu_io_recompile: '
# How an undo line names itself in error messages.
UNDO_NAMES = {STOPPED: 'Stopped execution', RECOMPILE: 'cpu_io_recompile'}

# mcause values (privileged spec, "Machine cause register values after trap").
BREAKPOINT = 3
ECALLS = (8, 9, 10, 11)         # from U, S, VS, M
FETCH_FAULTS = (1, 12, 20)      # access, page, guest-page fault: never logged


class LogError(Exception):
    pass


class BadLine(LogError):
    """A line parse() does not accept; the message says why."""


def retires(cause):
    """Whether the logged instruction that raised exception `cause` retired:
    only an ECALL/EBREAK does (rc7); any other faulting line is dropped."""
    return cause == BREAKPOINT or cause in ECALLS


def parse_trace(line):
    """L1 -> (cpu, pc field, flags field), the fields as logged (hex)."""
    m = TRACE_RE.match(line)
    if not m:
        raise BadLine(f'malformed Trace line: {line[:100]!r}')
    return m.groups()


def parse_trap(line):
    """L2 -> (hart, asynchronous, cause, epc)."""
    m = TRAP_RE.match(line)
    if not m:
        raise BadLine(f'malformed trap line: {line[:100]!r}')
    hart, asynchronous, cause, epc = m.groups()
    return hart, asynchronous == '1', int(cause, 16), int(epc, 16)


def parse_undo(regex, line):
    """L3/L4 -> the pc field of the undone line."""
    m = regex.match(line)
    if not m:
        raise BadLine(f'malformed line: {line[:100]!r}')
    return m.group(1)


def parse(line):
    """One log line -> (TRACE, cpu, pcs, flags), (TRAP, hart, asynchronous,
    cause, epc), (STOPPED, pcs), (RECOMPILE, pcs), or None for a blank line.
    Raises BadLine for anything else."""
    if line.startswith(TRACE_PREFIX):
        return (TRACE,) + parse_trace(line)
    if line.startswith(TRAP_PREFIX):
        return (TRAP,) + parse_trap(line)
    if line.startswith(STOPPED_PREFIX):
        return STOPPED, parse_undo(STOPPED_RE, line)
    if line.startswith(RECOMPILE_PREFIX):
        return RECOMPILE, parse_undo(RECOMPILE_RE, line)
    if line.strip():
        raise BadLine(f'unrecognised line: {line.rstrip()[:100]!r}')
    return None


class Undo:
    """Rules L3 and L4: which Trace line an undo line cancels, and the check
    that a cpu_io_recompile is followed by its re-execution.

    `cpu` and `pcs` are the most recent Trace line (pcs = None: none since
    that cpu's trap); a caller's fast path may set both directly."""
    __slots__ = ('cpu', 'pcs', 'rewound')

    def __init__(self):
        self.cpu = None
        self.pcs = None
        self.rewound = {}       # cpu -> pc its next Trace line must have

    def entered(self, cpu, pcs):
        """L1: cpu entered the instruction at pc field pcs."""
        self.cpu = cpu
        self.pcs = pcs
        want = self.rewound.pop(cpu, None)
        if want is not None and want != int(pcs, 16):
            raise LogError(f'cpu {cpu}: after cpu_io_recompile of {want:x} '
                           f'expected it again, got {int(pcs, 16):x}')

    def trapped(self, hart):
        """L2: a trap ends the instruction that hart entered last."""
        if self.cpu == hart:
            self.pcs = None

    def undo(self, kind, pcs):
        """L3/L4: cancel the most recent Trace line; returns its cpu."""
        why = UNDO_NAMES[kind]
        pc = int(pcs, 16)
        if self.cpu is None or self.pcs is None:
            raise LogError(f'{why} of {pc:x} does not follow a Trace line')
        if int(self.pcs, 16) != pc:
            raise LogError(f'{why} of {pc:x}, but the last Trace line (cpu '
                           f'{self.cpu}) is {self.pcs.lstrip("0") or "0"}')
        if kind == RECOMPILE:
            self.rewound[self.cpu] = pc
        self.pcs = None
        return self.cpu

    def check_closed(self, cpu):
        """End of log: cpu must not be between the two lines of L4."""
        pc = self.rewound.get(cpu)
        if pc is not None:
            raise LogError(f'log ends inside a cpu_io_recompile pair (cpu '
                           f'{cpu}, {pc:x})')


class BareMetal:
    """The instructions one bare-metal hart retired (scripts/qemu-log-to-pcs.py:
    a .pcs trace, `<hex pc>[ exc|int]`), with the trap marks.

    * Lines are entered instructions; L3, L4 (Undo) and a faulting line
      (below) undo them, as the module docstring says.
    * Exceptions ("async:0", epc = the instruction that raised it).
      - ECALL, EBREAK, C.EBREAK (causes 8-11 and 3): this project follows
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
      any log line parse() does not accept.
    """

    def __init__(self, entry):
        self.entry = entry
        self.started = False
        self.pcs = []       # retired pcs
        self.marks = []     # '' / 'exc' / 'int', parallel to pcs
        self.undo = Undo()
        self.lineno = 0

    def fail(self, msg):
        raise LogError(msg)     # on_line() says where

    def on_trace(self, cpu, pcs):
        self.undo.entered(cpu, pcs)
        pc = int(pcs, 16)
        if not self.started:
            if pc != self.entry:
                return
            self.started = True
        self.pcs.append(pc)
        self.marks.append('')

    def on_undo(self, kind, pcs):
        self.undo.undo(kind, pcs)
        if self.started:
            # Undo checked that the undone line is the last one kept.
            self.pcs.pop()
            self.marks.pop()

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

    def on_trap(self, hart, asynchronous, cause, epc):
        self.undo.trapped(hart)
        if not self.started:
            self.fail('trap before the program entry point')
        if asynchronous:
            self.mark_last('int')
        elif retires(cause):
            if not self.pcs or self.pcs[-1] != epc:
                self.fail(f'ECALL/EBREAK at {epc:x} is not the last '
                          'logged instruction')
            self.mark_last('exc')
        else:
            # The faulting instruction did not retire.
            self.drop_last(epc, 'exception')
            self.mark_last('exc')

    def on_line(self, line):
        self.lineno += 1
        try:
            self.on_event(parse(line))
        except LogError as e:
            raise LogError(f'log line {self.lineno}: {e}') from None

    def on_event(self, event):
        if event is None:
            return
        kind = event[0]
        if kind == TRACE:
            self.on_trace(event[1], event[2])
            return
        # One hart: the re-execution follows its rewound line at once.
        if self.undo.rewound:
            self.fail('cpu_io_recompile not followed by the re-execution')
        if kind == TRAP:
            self.on_trap(*event[1:])
        else:
            self.on_undo(kind, event[1])

    def finish(self):
        if self.undo.rewound:
            raise LogError(f'log line {self.lineno}: log ends inside a '
                           'cpu_io_recompile pair')
        if not self.pcs:
            raise LogError('no instruction at the entry point '
                           f'{self.entry:x} in the log')

    def write(self, out):
        for pc, mark in zip(self.pcs, self.marks):
            out.write(f'{pc:x} {mark}\n' if mark else f'{pc:x}\n')

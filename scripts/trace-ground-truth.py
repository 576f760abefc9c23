#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Ground truth of the software trace encoder: the S/U-mode instructions a
QEMU run retired, per hart, extracted from its execution log.

    qemu-system-riscv64 -M virt -smp N -bios build/tracesbi.elf \\
        -kernel payload.elf -singlestep -d exec,nochain,int \\
        -icount shift=0,align=off,sleep=off -D LOG
    trace-ground-truth.py --firmware build/tracesbi.elf --elf payload.elf \\
        [--elf more.elf] [--ecall-no-retire] [--stop-after N [--stop-harts K]]
        --out-prefix P LOG

writes P.hart<H>.pcs for every hart that ran S/U code: one retired
instruction per line, `<lowercase hex pc>[ exc|int] <U|S|M>`.  `exc`/`int`
mean that a synchronous exception / an interrupt was taken right after that
instruction retired; the last field is the privilege it ran in.  M lines only
stand for the first firmware instruction after an SBI call (rule 3).  A
summary goes to stderr; any inconsistency is reported as
`trace-ground-truth: LOG: log line N: ...` with exit status 1 (no output
file is left behind).

--elf FILE@ADDR: FILE's code also where its load image was placed
(scripts/tsbi/elf.py: a kernel that runs at its physical load address before
its MMU is on, then at its virtual addresses).

--stop-after N: the log is cut once K harts (--stop-harts, default 1) have
N output lines each: the output files are written as if the log ended
there (END OF LOG; records whose privilege is still unknown after an
emulated SRET are dropped, not an error, and so is a cpu_io_recompile pair
cut in two), `stopped` and a newline go to stdout (so a runner can turn
QEMU's log off: the FIFO then ends), and the rest of the log is read and
ignored.  Ground truth of a long run (a Linux boot) stays bounded: a trace
buffer that stops on wrap needs only its first instructions.

LOGS FILTERED BY ADDRESS (QEMU -dfilter).  The rules hold for a log that
leaves out the firmware's Trace lines, except those at its trap vectors
(the first instruction of every trap into M: `trap_entry*` in tracesbi):
each excursion still starts with an M Trace line, which is all the rules
need of M code (Stopped lines go with their Trace lines: QEMU filters both
by pc).  tests/trace/linux-run.py logs Linux boots that way.

--logged-range A-B (repeatable): the log also leaves out every S/U line
outside these ranges (tests/linux/trace-perf-test.py keeps only one Linux
program).  A trap whose epc is outside them (and outside the firmware) was
taken in unlogged code: it marks no instruction and its rules are not
checked; it only moves the hart through the TRAP/excursion states.  So is
a trap at a logged epc with no logged line since the hart's previous trap
after the trap went to S/U, or an excursion resumed outside the ranges
(the unlogged kernel returned there and was interrupted before it ran); and a trap that would mark an instruction
already marked (two traps with only unlogged code between) marks nothing.  Traps
at logged pcs follow the rules below; the output holds the logged
instructions only.

This docstring is the specification of the ground truth.

LOG LINES (QEMU 7.2, -singlestep: one instruction per translation block;
parsed, and L3/L4 applied, by scripts/tsbi/qemulog.py)
  L1 `Trace N: 0xHOST [CSBASE/PC/FLAGS/CFLAGS] ...`: cpu N *entered* the
     instruction at PC.  FLAGS bits 1:0 are the privilege it runs in
     (0 U, 1 S, 3 M).
  L2 `riscv_cpu_do_interrupt: hart:H, async:A, cause:C, epc:0xE, ...`: hart
     H (= cpu index on virt) took a trap; the line does not say to which mode.
  L3 `Stopped execution of TB chain before 0xHOST [PC] ...`: the instruction
     of the most recent Trace line (any cpu: under -icount one thread runs the
     cpus round-robin) was entered but not executed: that line is undone.
  L4 `cpu_io_recompile: rewound execution of TB to PC`: the same, and the
     next Trace line of that cpu must be PC again.
  Any other non-blank line is an error.  Lines of different harts interleave;
  every hart has its own state below.

PRIVILEGE OF A TRACE LINE
  P1 PC inside the firmware range (--firmware: the span of the firmware ELF's
     PT_LOAD segments; or --firmware-range A-B, [A, B)) is M-mode code,
     whatever FLAGS says.
  P2 Otherwise FLAGS bits 1:0 give the privilege: 0 U, 1 S.  3 (M) is
     accepted only before the hart's first S/U line (QEMU's reset ROM at
     0x1000); later, and for the value 2, it is an error.
  A hart starts in M-mode (boot); its first S/U Trace line starts its trace.

TRAPS FROM S/U.  A trap line that the hart takes while it runs S/U code (its
last line was S/U) is classified by what comes next for that hart:
  * the next event is a Trace line: its privilege (P1/P2) says where the
    trap went;
  * it is another trap line whose epc is an S/U address: the first trap went
    to S/U, at that address (the firmware keeps an execute trigger on the
    S-mode trap vector);
  * it is a trap line whose epc is in the firmware range: the first trap went
    to M (a trap-guard fault of the firmware, see T4).
  "Logged" below means that epc's Trace line is the hart's last Trace line:
  a faulting instruction (illegal, access fault, ecall, ebreak, ...) is
  logged, then trapped.  Checked: a synchronous exception other than an
  instruction fetch fault (causes 1, 12, 20) and breakpoint (3) must be
  logged.  Breakpoint (cause 3) is an EBREAK/C.EBREAK when logged and the
  instruction at epc is one (or is in no image), else a debug trigger hit,
  which QEMU takes *before* its instruction is entered.  A fetch fault and an
  interrupt are never logged (interrupted instructions are undone by L3).

  An M-mode excursion starts with a trap into M and ends at the hart's first
  S/U Trace line, or at a trap line whose epc is an S/U address (e.g. the
  trigger at the S trap vector firing right after the firmware delivered a
  trap, or an interrupt pending at the firmware's mret): the resume address R
  is that pc.  While in M, every Trace line of the hart is M code (an S/U
  line ends the excursion) and trap lines with a firmware epc are ignored
  (M-mode trap-guard faults).  The excursion is classified by the trap that
  started it:
  R1 Trigger hit (cause 3, not logged).  R = epc: transparent, nothing
     retired.  R != epc: the firmware emulated the instruction at epc, which
     retired (it has no Trace line: it is added here), and R follows it.  Only
     control transfers are emulated; R must be a legal successor:
       BEQ..BGEU, C.BEQZ, C.BNEZ: the branch target or the fall-through;
       JAL, C.J, C.JAL: the jump target;
       JALR, C.JR, C.JALR, SRET: any address.
     Any other instruction, an illegal successor, or an epc in no --elf image
     is an error.
  R2 Emulated access: misaligned or access fault (causes 4-7), logged, and
     R = epc + its length: the access retired (the line stays, no mark).
     Likewise an emulated instruction: illegal instruction (cause 2), logged,
     R = epc + its length (the CTR CSRs and SCTRCLR, docs/CTR.md; rdtime).
  R3 SBI call: an ecall from S (cause 9), logged, into M.  The ecall retires
     and carries `exc` (rc7 convention, see scripts/tsbi/qemulog.py; with
     --ecall-no-retire, the ratified 1.0 convention: the ecall's line is
     dropped and the previous retired instruction carries `exc`).  The
     first M-mode instruction of the excursion follows it as an M line (the
     trace shows the trap into M-mode, then trace resuming).  R is not
     checked: normally epc + 4, but HSM hart_stop may never resume and a
     non-retentive suspend resumes elsewhere.
  R4 Redirect: any other synchronous exception into M (illegal instruction,
     an access fault that is not emulated, EBREAK, a U-mode ecall, a fetch
     fault, ...), R != epc (the firmware delivered it to the S trap
     handler).  The trap happened at epc: epc's line is dropped when logged,
     except ECALL/EBREAK/C.EBREAK, which retire and carry `exc` (rc7;
     --ecall-no-retire drops them too); otherwise the last retired
     instruction carries `exc`.  The excursion itself is invisible.
     R = epc is an error (no rule explains a fault that neither retires nor
     traps to S).
  R5 Interrupt into M (async; QEMU virt: machine timer 7, software 3, any
     other cause likewise).  R = epc: transparent.  R != epc: an interrupt
     delivered to S: the last retired instruction carries `int`.
  R6 Trap taken directly into S/U by the hardware (delegated exception or
     interrupt): the last retired instruction carries `int` (async) or `exc`
     (sync: epc's line is dropped when logged, except ECALL/EBREAK, as in R4).
  T4 A trap line whose epc is in the firmware range while the hart is in M is
     ignored.  While the hart runs S/U code it is an error, except for an
     instruction fetch fault (causes 1, 12, 20): S/U code jumping into the
     PMP-protected firmware faults with a firmware epc.
  "The last retired instruction" is the hart's last output line, whatever
  its privilege (after R3 it can be the M line).  An instruction cannot
  carry two marks (error).  A trap before the hart's first output line has
  nothing to mark: it is counted in the stderr summary.

PRIVILEGE OF OUTPUT LINES
  Logged S/U lines: from FLAGS.  The M line of R3: M.  Instructions emulated
  by R1 have no Trace line; they get the privilege the hart had: that of the
  previous S/U line, S after a trap delivered to S (R4, R5, R6 through a
  trap line), unchanged after R1-R3 otherwise.  An emulated SRET is S, and
  after it the privilege is unknown until the next logged S/U line, whose
  privilege is given to the emulated instructions in between.  (A trap
  delivered to S in between makes that line an S handler line: instructions
  the SRET ran in U would be marked S; the log cannot tell.)  A log that
  ends while it is still unknown is an error.

END OF LOG
  A hart whose last trap has no known outcome (log ends in the excursion or
  right after the trap line) is reported in the summary; a logged faulting
  line of that trap that is not an ECALL/EBREAK (with --ecall-no-retire: any
  logged faulting line) is dropped (it did not retire as far as the log
  shows).  A log ending between the two lines of L4 is an error.

VERIFIED IN QEMU 7.2 (qemu-system-riscv64 7.2.22, Debian 1:7.2+dfsg-7+deb12u18)
  with tests/trace/data/smoke-fw.S (-bios, M-mode, a stand-in for the
  firmware) and smoke-payload.S (-kernel, S/U), -smp 2 and the logging
  options above; selftest-ground-truth.sh runs it and checks the result.
  * FLAGS bits 1:0: S-mode lines 00209001, U-mode lines 00201000, M-mode
    00209003.  S-mode with sstatus.SUM=1 (80200018): still 00209001.
    M-mode with mstatus.MPRV=1 (read back as set), MPP=S (80000084) and
    MPP=U (80000094): both 00209003.  So in 7.2 FLAGS carries the real
    privilege, not the MPRV-adjusted data privilege; P1 (M by address) is
    kept anyway (it costs nothing and holds for later QEMU versions).
  * `Trace N:` and `hart:H` carry the same number (cpu index = mhartid).  The
    two harts' lines come in blocks (round-robin), e.g. hart 1's boot and S
    code between two blocks of hart 0.
  * Debug trigger hits (mcontrol, execute, S+U, action 0) are taken before
    the instruction: no Trace line for epc, the previous line is the
    instruction before (BNE 80200028, JAL, C.BNEZ, JALR, SRET 802000d8, and
    at the S vector).  When the firmware's mret returns to an address with a
    trigger, the trap line directly follows the M-mode lines (no S line):
    e.g. umain 802000dc right after the emulated SRET.
  * Instruction fetch faults have no Trace line: JR to a PMP-denied RAM
    address (cause 1, epc = tval = 80300000, previous line the JR) and JR
    into the PMP-protected firmware (cause 1, epc = 80000100: a firmware
    epc while the hart runs S code, hence the fetch-fault exception of T4).
  * Faulting instructions are logged, then trapped: illegal (csrw cycle,
    cause 2), EBREAK (3), S ecall (9), U ecall (8), load access fault (5),
    store access fault (7).
  * A delegated U ecall into an S vector that has a trigger: the cause 8
    trap line is immediately followed by the trigger's (cause 3, epc = the
    vector).  Delegated S software interrupt: its trap line (epc = the
    instruction after the csrsi sip) is followed by the S vector's line.
  * WFI is logged and retires: the machine timer interrupt that wakes it has
    epc = WFI + 4 (80200118).  A timer interrupt that became pending while
    M-mode ran is taken at the firmware's mret: its trap line follows the M
    lines, epc = the S resume address (80200060).
  * A machine timer interrupt in a busy S loop: `Stopped execution of TB
    chain before 0x... [0000000080200134]`, then the trap line with epc
    80200134 (L3).  Stopped lines also appear in M code without a trap; the
    same pc is then entered again.
  * cpu_io_recompile pairs appear for the MMIO accesses (CLINT, test
    device), the second line of the pair has other CFLAGS (ff038201).
  Not reproducible on QEMU virt: misaligned load/store traps (a bare-metal
  LW/SW/LD at misaligned addresses ran without any trap line), so R2 with
  causes 4/6 is covered by synthetic logs only.
"""

import argparse
import os
import sys

from tsbi import elf as rvelf
from tsbi import qemulog
from tsbi.qemulog import BREAKPOINT, FETCH_FAULTS, LogError

BOOT, SU, TRAP, MEXC = range(4)     # hart states
SLOW, FAST_M, FAST_SU = range(3)    # Hart.fast: see Extractor.run()
# FLAGS' last hex digit -> privilege of an S/U line (bits 1:0 = 0 or 1)
SU_PRIV = {c: 'USUSUSUS'[i] for i, c in enumerate('014589cd')}
SBI_ECALL = 9
EMULATED_ACCESS = (4, 5, 6, 7)
ILLEGAL_INSN = 2
FLUSH_AT = 256                      # tail length that triggers a write
KEEP = 8                            # records kept after a write


class Trap:
    __slots__ = ('asynchronous', 'cause', 'epc', 'logged', 'retires',
                 'lineno', 'sbi', 'foreign')

    def __init__(self, asynchronous, cause, epc, logged, retires, lineno):
        self.asynchronous = asynchronous
        self.cause = cause
        self.epc = epc
        self.logged = logged        # epc's Trace line is the last record
        self.retires = retires      # logged ECALL/EBREAK (rc7: retires)
        self.lineno = lineno
        self.sbi = False
        self.foreign = False        # --logged-range: taken in unlogged S/U code


class Hart:
    __slots__ = ('cpu', 'state', 'fast', 'tail', 'entered', 'trap', 'keep_m',
                 'priv', 'unresolved', 'out', 'path', 'written',
                 'm_lines', 'no_prev', 'unknown_end', 'unlogged')

    def __init__(self, cpu):
        self.cpu = cpu
        self.state = BOOT
        self.fast = FAST_M      # how run() may take this hart's lines
        self.tail = []          # [pc, mark, priv] not written yet
        self.entered = None     # record of the last Trace line, until a trap
        self.trap = None        # trap being classified (TRAP, MEXC)
        self.keep_m = False     # R3: record the next M Trace line
        self.priv = None        # privilege of emulated instructions
        self.unresolved = []    # records whose privilege is not known yet
        self.out = None
        self.path = None
        self.written = 0
        self.m_lines = 0
        self.no_prev = 0        # traps with no retired instruction to mark
        self.unknown_end = None
        self.unlogged = False   # --logged-range: unlogged S/U code ran last


class LimitReached(Exception):
    """--stop-after: enough ground truth (Extractor.write)."""


class Extractor:
    def __init__(self, fw_range, images, prefix, ecall_no_retire,
                 stop_after=None, stop_harts=1, logged_ranges=None):
        self.fw_lo, self.fw_hi = fw_range
        self.images = images
        self.prefix = prefix
        self.ecall_no_retire = ecall_no_retire
        self.stop_after = stop_after
        self.stop_harts = stop_harts
        self.logged_ranges = logged_ranges   # None: all S/U code is logged
        self.at_limit = 0       # harts with stop_after lines written
        self.cut = False        # the log was cut (--stop-after)
        self.finishing = False  # finish(): writes no longer cut
        self.harts = {}
        self.lineno = 0
        self.undo = qemulog.Undo()  # L3/L4: the most recent Trace line

    # ---- helpers ------------------------------------------------------------
    def fail(self, msg):
        raise LogError(f'log line {self.lineno}: {msg}')

    def hart(self, cpu):
        h = self.harts.get(cpu)
        if h is None:
            h = self.harts[cpu] = Hart(cpu)
        return h

    def foreign(self, pc):
        """--logged-range: S/U code at pc is not in the log."""
        return (self.logged_ranges is not None and not self.in_fw(pc) and
                not any(lo <= pc < hi for lo, hi in self.logged_ranges))

    def in_fw(self, pc):
        return self.fw_lo <= pc < self.fw_hi

    def start_output(self, h):
        h.path = f'{self.prefix}.hart{h.cpu}.pcs'
        try:
            h.out = open(h.path + '.tmp', 'w')
        except OSError as e:
            raise LogError(f'{h.path}: {e.strerror}')

    def append(self, h, pc, priv):
        rec = [pc, '', priv]
        h.tail.append(rec)
        if priv is None:
            h.unresolved.append(rec)
        elif priv == 'M':
            h.m_lines += 1
        if len(h.tail) >= FLUSH_AT and not h.unresolved:
            self.write(h, len(h.tail) - KEEP)
        return rec

    def write(self, h, n):
        h.out.write(''.join(f'{pc:x} {mark} {priv}\n' if mark else
                            f'{pc:x} {priv}\n'
                            for pc, mark, priv in h.tail[:n]))
        before = h.written
        h.written += n
        del h.tail[:n]
        limit = self.stop_after
        if limit is not None and not self.finishing and before < limit <= h.written:
            self.at_limit += 1
            if self.at_limit >= self.stop_harts:
                self.cut = True
                raise LimitReached()

    def resolve(self, h, priv):
        for rec in h.unresolved:
            rec[2] = priv
        h.unresolved.clear()

    def drop_last(self, h, pc, why):
        if not h.tail or h.tail[-1][0] != pc:
            last = f'{h.tail[-1][0]:x}' if h.tail else 'nothing'
            self.fail(f'{why} at {pc:x}, but the last retired instruction of '
                      f'hart {h.cpu} is {last}')
        rec = h.tail.pop()
        if rec[2] == 'M':
            h.m_lines -= 1
        if h.unresolved and h.unresolved[-1] is rec:
            h.unresolved.pop()

    def mark_last(self, h, mark, trap):
        if not h.tail:
            if h.written == 0:
                h.no_prev += 1
                return
            self.fail('internal error: output tail empty')
        rec = h.tail[-1]
        if rec[1] and self.logged_ranges is not None:
            return      # a second trap with only unlogged code between
        if rec[1]:
            self.fail(f'instruction {rec[0]:x} of hart {h.cpu} already '
                      f'marked {rec[1]}, cannot also mark {mark} (trap at '
                      f'{trap.epc:x}, log line {trap.lineno})')
        rec[1] = mark

    # ---- trap outcomes --------------------------------------------------------
    def deliver_sync(self, h, t):
        """R4/R6: a synchronous exception at t.epc as seen from S/U."""
        if t.logged:
            if t.retires and not self.ecall_no_retire:
                self.mark_last(h, 'exc', t)
                return
            self.drop_last(h, t.epc, f'exception (cause {t.cause})')
        self.mark_last(h, 'exc', t)

    def trap_to_m(self, h):
        """The pending trap went to M: an excursion starts."""
        t = h.trap
        h.state = MEXC
        if t.foreign:
            h.fast = FAST_M
            return
        if not t.asynchronous and t.cause == SBI_ECALL and t.logged:
            t.sbi = True                                    # R3
            if self.ecall_no_retire:
                self.drop_last(h, t.epc, 'ecall')
            self.mark_last(h, 'exc', t)
            h.keep_m = True
        h.fast = SLOW if h.keep_m else FAST_M

    def direct_trap(self, h, priv):
        """R6: the pending trap went straight to S/U."""
        t = h.trap
        if t.foreign:
            pass
        elif t.asynchronous:
            self.mark_last(h, 'int', t)
        else:
            self.deliver_sync(h, t)
        h.priv = priv
        h.trap = None
        h.state = SU
        h.unlogged = True       # the handler ran (logged or not)

    def end_excursion(self, h, r):
        """The excursion started by h.trap resumes S/U code at r."""
        t = h.trap
        h.trap = None
        h.state = SU
        h.keep_m = False
        h.fast = SLOW
        epc = t.epc
        h.unlogged = self.foreign(r)
        if t.sbi or t.foreign:                               # R3
            return
        if t.asynchronous:                                   # R5
            if r != epc:
                self.mark_last(h, 'int', t)
                h.priv = 'S'
            return
        if t.cause == BREAKPOINT and not t.logged:           # R1
            if r != epc:
                self.emulate(h, t, r)
            return
        if (t.cause in EMULATED_ACCESS or t.cause == ILLEGAL_INSN) and t.logged:  # R2
            dec = self.images.decode(epc)
            if dec is None:
                self.fail(f'exception (cause {t.cause}) at {epc:x} (log line {t.lineno}): '
                          'the instruction is in no --elf image, its length '
                          'is unknown')
            if r == epc + dec[2]:
                return
        if r == epc:                                         # R4
            self.fail(f'exception (cause {t.cause}) at {epc:x} (log line '
                      f'{t.lineno}) resumed at its own address: no rule '
                      'explains it')
        self.deliver_sync(h, t)
        h.priv = 'S'

    def emulate(self, h, t, r):
        """R1: the firmware emulated the instruction at t.epc, then r."""
        epc = t.epc
        dec = self.images.decode(epc)
        where = f'trigger at {epc:x} (log line {t.lineno}) resumed at {r:x}'
        if dec is None:
            self.fail(f'{where}: {epc:x} is in no --elf image')
        kind, target, length = dec
        if kind == 'branch':
            ok = r in (target, epc + length)
        elif kind == 'jump':
            ok = r == target
        elif kind in ('indirect', 'sret'):
            ok = True
        else:
            self.fail(f'{where}: the instruction there ({kind}) is not an '
                      'emulated control transfer')
        if not ok:
            legal = (f'{target:x} or {epc + length:x}' if kind == 'branch'
                     else f'{target:x}')
            self.fail(f'{where}: the {kind} there can only go to {legal}')
        if kind == 'sret':
            self.append(h, epc, 'S')
            h.priv = None
        else:
            self.append(h, epc, h.priv)

    # ---- line handlers ------------------------------------------------------
    def on_line(self, line):
        """One log line, through the shared parser (scripts/tsbi)."""
        try:
            event = qemulog.parse(line)
        except LogError as e:
            self.fail(str(e))
        if event is None:
            return
        kind = event[0]
        if kind == qemulog.TRACE:
            self.on_trace(*event[1:])
        elif kind == qemulog.TRAP:
            self.on_trap(*event[1:])
        else:
            self.on_undo(kind, event[1])

    def on_trace(self, cpu, pcs, flags):
        h = self.hart(cpu)
        try:
            self.undo.entered(cpu, pcs)
        except LogError as e:
            self.fail(str(e))
        pc = int(pcs, 16)
        if self.in_fw(pc):
            priv = 'M'
        else:
            priv = 'USHM'[int(flags, 16) & 3]
            if priv == 'H' or (priv == 'M' and h.state != BOOT):
                self.fail(f'cpu {cpu}: pc {pc:x} outside the firmware range '
                          f'has privilege {int(flags, 16) & 3} in FLAGS '
                          f'{flags}')
        if priv == 'M':
            if h.state == SU:
                self.fail(f'cpu {cpu}: M-mode code at {pc:x} entered from '
                          'S/U code without a trap')
            if h.state == TRAP:
                self.trap_to_m(h)
            if h.keep_m:
                h.entered = self.append(h, pc, 'M')
                h.keep_m = False
                h.fast = SLOW       # the next line clears h.entered
            else:
                h.entered = None
                h.fast = FAST_M
            return
        # S/U code.
        if h.state == BOOT:
            h.state = SU
            self.start_output(h)
        elif h.state == MEXC:
            self.end_excursion(h, pc)
        elif h.state == TRAP:
            self.direct_trap(h, priv)
        h.entered = self.append(h, pc, priv)
        h.unlogged = False
        if h.unresolved:
            self.resolve(h, priv)
        h.priv = priv
        h.fast = FAST_SU

    def on_trap(self, cpu, asynchronous, cause, epc):
        h = self.hart(cpu)
        self.undo.trapped(cpu)
        entered, h.entered = h.entered, None
        in_fw = self.in_fw(epc)
        if h.state == BOOT:
            if in_fw:
                return                  # T4 (boot)
            h.state = SU                # the firmware entered S/U at epc
            self.start_output(h)
            entered = None
        elif h.state == MEXC:
            if in_fw:
                return                  # T4: firmware trap-guard fault
            self.end_excursion(h, epc)
            entered = None
        elif h.state == TRAP:
            if in_fw:
                self.trap_to_m(h)       # the pending trap went to M ...
                return                  # ... and the firmware faulted (T4)
            self.direct_trap(h, 'S')
            entered = None
        elif in_fw and (asynchronous or cause not in FETCH_FAULTS):
            self.fail(f'hart {cpu}: trap (cause {cause}) with a firmware epc '
                      f'{epc:x} while the hart runs S/U code')
        # A trap from S/U code at epc.
        logged = retires = False
        # Unlogged code ran since the last trap (entered: no logged line
        # since): the trap interrupted that code, even at a logged epc.
        if self.foreign(epc) or (self.logged_ranges is not None and entered is None and
                                 h.unlogged):
            h.trap = Trap(asynchronous, cause, epc, False, False, self.lineno)
            h.trap.foreign = True
            h.state = TRAP
            h.fast = SLOW
            return
        if not asynchronous and cause not in FETCH_FAULTS:
            last = entered[0] if entered is not None else None
            if cause == BREAKPOINT:
                dec = self.images.decode(epc)
                logged = last == epc and (dec is None or dec[0] == 'ebreak')
                retires = logged
            else:
                if last != epc:
                    last = 'none' if last is None else f'{last:x}'
                    self.fail(f'hart {cpu}: exception (cause {cause}) at '
                              f'{epc:x}, but the last logged pc of the hart '
                              f'is {last}')
                logged = True
                retires = qemulog.retires(cause)
        h.trap = Trap(asynchronous, cause, epc, logged, retires, self.lineno)
        h.state = TRAP
        h.fast = SLOW

    def on_undo(self, kind, pcs):
        """L3/L4: undo the most recent Trace line (qemulog.Undo finds it)."""
        try:
            h = self.harts[self.undo.undo(kind, pcs)]
        except LogError as e:
            self.fail(str(e))
        rec, h.entered = h.entered, None
        if rec is not None:
            self.drop_last(h, int(pcs, 16), qemulog.UNDO_NAMES[kind])
            if rec[2] == 'M':
                h.keep_m = True
        h.fast = SLOW

    # ---- main loop ----------------------------------------------------------
    def run(self, f):
        """Process the log.  Two fast paths, taken only while they need no
        state change (Hart.fast), skip on_trace(): a firmware line of a hart
        in an excursion (or booting) with no M line to keep, and an S/U line
        of a hart running S/U code.  Both compare the fixed-width hex pc as a
        string against the firmware range, with the field widths of the
        first Trace line that qemulog.parse() accepted; every other line
        goes through on_line()."""
        harts = self.harts
        undo = self.undo
        known = False           # field widths known (first Trace line)
        a = b = 0               # pc field: line[i + a:i + b], i = '['
        lo = hi = ''            # firmware range, as pc field strings
        lineno = 0
        su_priv = SU_PRIV
        for line in f:
            lineno += 1
            if line.startswith(qemulog.TRACE_PREFIX):
                if known:
                    j = line.find(':', 6)
                    h = harts.get(line[6:j])
                    if h is not None and h.fast:
                        i = line.find('[', j)
                        pcs = line[i + a:i + b]
                        if i > 0 and line[i + b:i + b + 1] == '/' \
                                and line[i + a - 1] == '/':
                            if lo <= pcs < hi:
                                if h.fast == FAST_M:
                                    undo.cpu = h.cpu
                                    undo.pcs = pcs
                                    continue
                            elif h.fast == FAST_SU:
                                priv = su_priv.get(line[line.find('/', i + b + 1) - 1])
                                if priv is not None:
                                    rec = [int(pcs, 16), '', priv]
                                    tail = h.tail
                                    tail.append(rec)
                                    h.entered = rec
                                    h.priv = priv
                                    if len(tail) >= FLUSH_AT:
                                        self.write(h, len(tail) - KEEP)
                                    undo.cpu = h.cpu
                                    undo.pcs = pcs
                                    continue
                self.lineno = lineno
                self.on_line(line)
                if not known:
                    a, b, lo, hi = self.field_widths(line)
                    known = True
                continue
            self.lineno = lineno
            self.on_line(line)
        self.lineno = lineno

    def field_widths(self, line):
        i = line.index('[')
        fields = line[i + 1:line.index(']', i)].split('/')
        a = len(fields[0]) + 2      # from '[' to the first digit of PC
        w = len(fields[1])
        top = (1 << (4 * w)) - 1
        return (a, a + w, f'{min(self.fw_lo, top):0{w}x}',
                f'{min(self.fw_hi, top):0{w}x}')

    def finish(self):
        self.finishing = True
        for h in self.harts.values():
            if self.cut and h.unresolved:
                # The cut fell after an emulated SRET: what follows it is
                # not known yet; those records are the tail's last.
                del h.tail[len(h.tail) - len(h.unresolved):]
                h.unresolved.clear()
            if not self.cut:
                try:
                    self.undo.check_closed(h.cpu)
                except LogError as e:
                    self.fail(str(e))
            t = h.trap
            if t is not None and not t.sbi:
                h.unknown_end = t
                if t.logged and (not t.retires or self.ecall_no_retire):
                    self.drop_last(h, t.epc, 'exception')
            if h.unresolved:
                self.fail(f'log ends with {len(h.unresolved)} emulated '
                          f'instruction(s) of hart {h.cpu} after an emulated '
                          'SRET, of unknown privilege')
        for h in self.harts.values():
            if h.out is not None:
                self.write(h, len(h.tail))
                h.out.close()
                os.replace(h.path + '.tmp', h.path)

    def abort(self):
        for h in self.harts.values():
            if h.out is not None:
                h.out.close()
                try:
                    os.unlink(h.path + '.tmp')
                except OSError:
                    pass

    def summary(self):
        lines = []
        for cpu in sorted(self.harts, key=int):
            h = self.harts[cpu]
            if h.path is None:
                continue
            s = (f'hart {cpu}: {h.written} instructions ({h.m_lines} M lines)'
                 f' -> {h.path}')
            if self.cut:
                s += f' (log cut after {self.stop_after} lines of {self.stop_harts} hart(s))'
            if h.no_prev:
                s += (f'; {h.no_prev} trap(s) before the first retired '
                      'instruction (nothing marked)')
            t = h.unknown_end
            if t is not None:
                s += (f'; log ends after the trap at {t.epc:x} (log line '
                      f'{t.lineno}), outcome unknown')
            lines.append(s)
        return lines


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='The rules are in the header of this script.')
    fw = ap.add_mutually_exclusive_group(required=True)
    fw.add_argument('--firmware', metavar='FW.elf',
                    help='firmware ELF: its load range is M-mode code')
    fw.add_argument('--firmware-range', metavar='A-B',
                    help='M-mode code range [A, B) (hex)')
    ap.add_argument('--elf', action='append', required=True,
                    metavar='PAYLOAD.elf', help='S/U program image (repeat)')
    ap.add_argument('--ecall-no-retire', action='store_true',
                    help='ratified convention: ECALL/EBREAK do not retire')
    ap.add_argument('--out-prefix', required=True, metavar='P',
                    help='write P.hart<H>.pcs')
    ap.add_argument('--stop-after', type=int, metavar='N',
                    help='cut the log once --stop-harts harts have N lines each')
    ap.add_argument('--stop-harts', type=int, default=1, metavar='K')
    ap.add_argument('--logged-range', action='append', metavar='A-B',
                    help='the log holds only the S/U code in [A, B) (repeat; '
                         'QEMU -dfilter): traps taken elsewhere mark nothing')
    ap.add_argument('log', help='QEMU log (-d exec,nochain,int)')
    args = ap.parse_args()
    prog = 'trace-ground-truth'
    try:
        if args.firmware:
            rng = rvelf.Elf(args.firmware).load_range
            if rng is None:
                raise rvelf.ElfError(f'{args.firmware}: no PT_LOAD segment')
        else:
            try:
                rng = rvelf.parse_range(args.firmware_range)
            except ValueError as e:
                ap.error(f'--firmware-range: {e}')
        images = rvelf.Images(rvelf.open_spec(p) for p in args.elf)
    except rvelf.ElfError as e:
        print(f'{prog}: {e}', file=sys.stderr)
        return 1
    try:
        logged = ([rvelf.parse_range(r) for r in args.logged_range]
                  if args.logged_range else None)
    except ValueError as e:
        ap.error(f'--logged-range: {e}')
    ex = Extractor(rng, images, args.out_prefix, args.ecall_no_retire,
                   args.stop_after, args.stop_harts, logged)
    try:
        with open(args.log, encoding='utf-8', errors='replace') as f:
            try:
                ex.run(f)
            except LimitReached:
                pass
            ex.finish()
            if ex.cut:
                print('stopped', flush=True)
                while f.buffer.read(1 << 20):   # the writer may go on a while
                    pass
    except (LogError, OSError) as e:
        ex.abort()
        print(f'{prog}: {args.log}: {e}', file=sys.stderr)
        return 1
    for s in ex.summary():
        print(f'{prog}: {s}', file=sys.stderr)
    if not any(h.path for h in ex.harts.values()):
        print(f'{prog}: {args.log}: no hart ran S/U code', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

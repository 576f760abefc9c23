#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Host-side unit test of scripts/tsbi/qemulog.py, the one parser of QEMU's
-singlestep -d exec,nochain,int log, on small synthetic log snippets: every
rule that drops an entered instruction (a faulting one, "Stopped execution
of TB chain", the first of a cpu_io_recompile pair), interrupts, and the
errors.

    tests/trace/qemulog-test.py

Prints one "PASS: qemulog: ..." / "FAIL: qemulog: ..." line per case (the
suite contract of scripts/run-tests.sh); exit status 1 on any failure.
"""

import io
import os
import sys

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import qemulog  # noqa: E402
from tsbi import suite  # noqa: E402

results = suite.Results('qemulog')
report = results.report


# ---- synthetic log lines ----------------------------------------------------
def trace(pc, cpu=0, flags='00209001'):
    return (f'Trace {cpu}: 0x7f0000001000 [0000000000000000/{pc:016x}/'
            f'{flags}/ff020201] sym\n')


def trap(epc, cause, asynchronous=0, hart=0):
    return (f'riscv_cpu_do_interrupt: hart:{hart}, async:{asynchronous}, '
            f'cause:{cause:016x}, epc:0x{epc:016x}, tval:0x0000000000000000, '
            'desc=x\n')


def stopped(pc):
    return (f'Stopped execution of TB chain before 0x7f0000001000 '
            f'[{pc:016x}] sym\n')


def recompile(pc):
    return f'cpu_io_recompile: rewound execution of TB to {pc:016x}\n'


# ---- what one hart retired (qemulog.BareMetal) -----------------------------
ENTRY = 0x80200000


def retired(lines):
    """The `pc[ mark]` lines qemulog.BareMetal keeps of a log that starts
    at ENTRY (the .pcs of scripts/qemu-log-to-pcs.py)."""
    hart = qemulog.BareMetal(ENTRY)
    for line in lines:
        hart.on_line(line)
    hart.finish()
    out = io.StringIO()
    hart.write(out)
    return out.getvalue().split('\n')[:-1]


def undone(lines):
    """A log of L1/L3/L4 lines through qemulog.Undo: the (cpu, pc) of the
    Trace lines left, and the cpu Undo named for each undo line."""
    undo = qemulog.Undo()
    kept, cpus = [], []
    for line in lines:
        kind, *fields = qemulog.parse(line)
        if kind == qemulog.TRACE:
            undo.entered(fields[0], fields[1])
            kept.append((fields[0], int(fields[1], 16)))
        else:
            cpus.append(undo.undo(kind, fields[0]))
            kept.pop()          # Undo checked it is the most recent line
    for cpu in list(undo.rewound):
        undo.check_closed(cpu)
    return kept, cpus


def expect(name, lines, want, reader=retired):
    try:
        got = reader(lines)
    except qemulog.LogError as e:
        return report(False, name, f'error {e}')
    report(got == want, name, f'got {got}, expected {want}')


def expect_error(name, lines, text, reader=retired):
    try:
        got = reader(lines)
    except qemulog.LogError as e:
        return report(text in str(e), name, f'error {str(e)!r}, expected {text!r}')
    report(False, name, f'no error (got {got}), expected {text!r}')


A, B, C, D = 0x80200000, 0x80200004, 0x80200008, 0x8020000c
H = 0x80200100                          # a trap handler
ROM = 0x1000                            # QEMU's reset vector


def check_parse():
    cases = [(trace(A, cpu=1, flags='00201000'),
              (qemulog.TRACE, '1', f'{A:016x}', '00201000')),
             (trap(B, 2), (qemulog.TRAP, '0', False, 2, B)),
             (trap(C, 7, asynchronous=1, hart=3), (qemulog.TRAP, '3', True, 7, C)),
             (stopped(C), (qemulog.STOPPED, f'{C:016x}')),
             (recompile(D), (qemulog.RECOMPILE, f'{D:016x}')),
             ('   \n', None)]
    bad = [f'{line!r} -> {qemulog.parse(line)!r}' for line, want in cases
           if qemulog.parse(line) != want]
    report(not bad, 'each line kind parses into its fields', '; '.join(bad))
    for line, text in (('something unexpected\n', 'unrecognised line'),
                       ('Trace 0: garbage\n', 'malformed Trace line'),
                       ('riscv_cpu_do_interrupt: hart:0\n', 'malformed trap line'),
                       (recompile(D).rstrip('\n') + ' more\n', 'malformed line')):
        try:
            qemulog.parse(line)
            report(False, f'rejects {line.strip()!r}', 'accepted')
        except qemulog.BadLine as e:
            report(text in str(e), f'rejects {line.strip()!r} ({text})', str(e))


def check_undo():
    expect('Stopped undoes the most recent Trace line, of any cpu',
           [trace(A, cpu=0), trace(C, cpu=1), stopped(C), trace(B, cpu=0)],
           ([('0', A), ('0', B)], ['1']), undone)
    expect('cpu_io_recompile undoes the first line of its pair',
           [trace(A, cpu=1), recompile(A), trace(A, cpu=1)],
           ([('1', A)], ['1']), undone)
    expect('cpu_io_recompile: other cpus may run before the re-execution',
           [trace(A, cpu=1), recompile(A), trace(C, cpu=0), trace(A, cpu=1)],
           ([('0', C), ('1', A)], ['1']), undone)


def check_rules():
    expect('straight-line code retires every entered line',
           [trace(A), trace(B), trace(C)], ['80200000', '80200004', '80200008'])
    expect('the lines before the entry point (reset ROM) are skipped',
           [trace(ROM), stopped(ROM), trace(ROM), trace(A)], ['80200000'])
    expect('a faulting instruction (illegal, cause 2) is dropped, the one '
           'before carries exc',
           [trace(A), trace(B), trap(B, 2), trace(H)], ['80200000 exc', '80200100'])
    expect('a load access fault (cause 5) is dropped too',
           [trace(A), trace(B), trap(B, 5), trace(H)], ['80200000 exc', '80200100'])
    expect('an ECALL (cause 9) retires and carries exc',
           [trace(A), trace(B), trap(B, 9), trace(H)],
           ['80200000', '80200004 exc', '80200100'])
    expect('an EBREAK (cause 3) retires and carries exc',
           [trace(A), trap(A, 3), trace(H)], ['80200000 exc', '80200100'])
    expect('"Stopped execution of TB chain" drops the line before it',
           [trace(A), trace(B), stopped(B), trace(B), trace(C)],
           ['80200000', '80200004', '80200008'])
    expect('cpu_io_recompile: the first of the pair is dropped',
           [trace(A), trace(B), recompile(B), trace(B), trace(C)],
           ['80200000', '80200004', '80200008'])
    expect('an interrupt: the interrupted line is stopped, the last retired '
           'one carries int',
           [trace(A), trace(B), stopped(B), trap(B, 7, asynchronous=1), trace(H)],
           ['80200000 int', '80200100'])
    expect('a WFI retires and carries the int of the interrupt that wakes it',
           [trace(A), trap(B, 7, asynchronous=1), trace(H)],
           ['80200000 int', '80200100'])
    expect('blank lines are ignored', [trace(A), '\n', trace(B)],
           ['80200000', '80200004'])


def check_errors():
    expect_error('Stopped naming another pc than the last Trace line',
                 [trace(A), trace(B), stopped(A)],
                 'Stopped execution of 80200000, but the last Trace line (cpu 0) is 80200004')
    expect_error('Stopped with no Trace line before it', [stopped(A)],
                 'Stopped execution of 80200000 does not follow a Trace line', undone)
    expect_error('Stopped right after a trap line (the trap ended that line)',
                 [trace(A), trap(A, 9), stopped(A)], 'does not follow a Trace line')
    expect_error('cpu_io_recompile not followed by the same pc',
                 [trace(A), recompile(A), trace(B)],
                 'cpu 0: after cpu_io_recompile of 80200000 expected it again, got 80200004')
    expect_error('log ending inside a cpu_io_recompile pair (per cpu)',
                 [trace(A, cpu=2), recompile(A)],
                 'log ends inside a cpu_io_recompile pair (cpu 2, 80200000)', undone)
    expect_error('one hart: a cpu_io_recompile followed by another line',
                 [trace(A), recompile(A), trap(A, 2)],
                 'log line 3: cpu_io_recompile not followed by the re-execution')
    expect_error('exception whose epc is not the last logged pc',
                 [trace(A), trace(B), trap(A, 2)],
                 'log line 3: exception at 80200000 but the last logged pc is 80200004')
    expect_error('two marks on one instruction',
                 [trace(A), trap(B, 7, asynchronous=1), trap(B, 7, asynchronous=1)],
                 'instruction 80200000 already marked int, cannot also mark int')
    expect_error('unrecognised line, with its line number',
                 [trace(A), 'something unexpected\n'], 'log line 2: unrecognised line')
    expect_error('no instruction at the entry point', [trace(ROM)],
                 'no instruction at the entry point 80200000 in the log')


def check_retires():
    bad = [c for c in range(24) if qemulog.retires(c) != (c in (3, 8, 9, 10, 11))]
    report(not bad, 'only ECALL (8-11) and EBREAK (3) retire', f'causes {bad}')


def main():
    check_parse()
    check_undo()
    check_rules()
    check_errors()
    check_retires()
    return results.status()


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Emulated CTR's records against QEMU's execution log of the same run.

    ctr-compare.py --payload ELF --out NAME.out --pcs NAME.gt.hart0.pcs

The traced-program payload run with `notrace ctr` (tests/target/trace/
kernel.c) records each program with CTR (S and U, every transfer type,
NTBREN, depth 64) between the csrw at `ctr_first` and the one at
`ctr_last`, then prints the valid entries oldest first as CTRENTRY lines.
The ground truth (scripts/trace-ground-truth.py, one retired S/U
instruction a line with its exc/int mark) of the same run says what the
hart did.  Every pair of consecutive lines between the two csrw is a
transfer when (Smctr/Ssctr 1.0, "Control Transfer Type Definitions"):
  * the first carries exc/int: the trap, from its epc (the ecall/ebreak
    itself, else the instruction after the first line) to the second line;
    when the first line is itself a branch, jump or sret, that transfer
    comes first, to the epc;
  * else the first is a branch (taken when the second is not the next
    instruction), a jump (jal: by rd; jalr: by rd and rs1) or sret.
An SBI call (the second line is the M line) and its return are not
recorded: M is never enabled and S cannot set MTE.  When the M line
carries exc/int (the hart trapped as the call returned, before anything
retired), that trap is recorded: from the instruction after the ecall to
the next line.  The n-th program's
entries must be the last entries of the n-th window: source, target and
type exactly (with fewer than 64 entries, the whole window).  Where the log
cannot give an epc (an interrupt right after a jalr or sret, or after a
branch: taken or not), the record's own value is checked against what is
possible.
One PASS or FAIL line per program.
"""

import argparse
import os
import re
import sys

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import elf as rvelf  # noqa: E402

ENTRY_RE = re.compile(r'^CTRENTRY prog=(\S+) src=0x([0-9a-f]+) tgt=0x([0-9a-f]+) type=(\d+)')
NAMES = {1: 'exception', 2: 'interrupt', 3: 'trap return', 4: 'not-taken branch',
         5: 'taken branch', 8: 'indirect call', 9: 'direct call', 10: 'indirect jump',
         11: 'direct jump', 12: 'co-routine swap', 13: 'return', 14: 'other indirect jump',
         15: 'other direct jump'}
LINKS = (1, 5)


def jump_regs(insn, length):
    """(rd, rs1) of a jal/jalr/c.j/c.jal/c.jr/c.jalr."""
    if length == 4:
        return (insn >> 7) & 31, (insn >> 15) & 31
    if insn & 3 == 1:                       # c.j (c.jal is RV32 only)
        return (1 if (insn >> 13) == 1 else 0), 0
    return (1 if (insn >> 12) & 1 else 0), (insn >> 7) & 31   # c.jalr / c.jr


def jump_type(kind, rd, rs1):
    if kind == 'jump':
        return 11 if rd == 0 else 9 if rd in LINKS else 15
    if rd in LINKS and rs1 in LINKS and rd != rs1:
        return 12
    if rd in LINKS:
        return 8
    if rs1 in LINKS:
        return 13
    return 10 if rd == 0 else 14


class Transfer:
    """An expected record; sources/targets: the possible values."""

    def __init__(self, sources, targets, type_, fall=None):
        self.sources, self.targets, self.type = sources, targets, type_
        self.fall = fall                    # type None: a branch, taken unless here

    def text(self):
        def opts(vals):
            return '|'.join(f'{v:#x}' for v in sorted(vals)) if vals else 'any'
        return f'{opts(self.sources)} -> {opts(self.targets)} {NAMES.get(self.type, self.type)}'


def read_pcs(path):
    lines = []
    with open(path) as f:
        for raw in f:
            words = raw.split()
            mark = words[1] if len(words) == 3 else None
            lines.append((int(words[0], 16), mark, words[-1]))
    return lines


def transfers(images, lines, lo, hi):
    """The expected records of lines[lo..hi] (pairs inside it)."""
    out = []
    for i, ((pc, mark, priv), (npc, _, npriv)) in enumerate(zip(lines[lo:hi],
                                                               lines[lo + 1:hi + 1])):
        if priv == 'M' and mark and npriv != 'M' and lo + i > 0:
            # A trap as the SBI call returned, before anything retired:
            # from the instruction after the ecall to the handler.
            ecall = lines[lo + i - 1][0]
            out.append(Transfer({ecall + 4}, {npc}, 1 if mark == 'exc' else 2))
            continue
        if priv == 'M' or npriv == 'M':
            continue                        # an SBI call and its return
        dec = images.decode(pc)
        if dec is None:
            raise ValueError(f'{pc:#x} is in no image')
        kind, target, length = dec
        insn = images.fetch(pc)[0]
        if mark:
            if mark == 'exc' and kind in ('ecall', 'ebreak'):
                epcs = {pc}
            elif kind == 'seq':
                epcs = {pc + length}
            elif kind == 'jump':
                epcs = {target}
            elif kind == 'branch':
                epcs = {target, pc + length}
            else:
                epcs = set()                # jalr, sret: any
            if kind in ('branch', 'jump', 'indirect', 'sret'):
                if kind == 'branch':
                    out.append(Transfer({pc}, epcs, None, pc + length))
                elif kind == 'sret':
                    out.append(Transfer({pc}, epcs, 3))
                else:
                    out.append(Transfer({pc}, epcs, jump_type(kind, *jump_regs(insn, length))))
            out.append(Transfer(epcs, {npc}, 1 if mark == 'exc' else 2))
        elif kind == 'branch':
            out.append(Transfer({pc}, {npc}, 4 if npc == pc + length else 5))
        elif kind in ('jump', 'indirect'):
            out.append(Transfer({pc}, {npc}, jump_type(kind, *jump_regs(insn, length))))
        elif kind in ('sret', 'mret'):
            out.append(Transfer({pc}, {npc}, 3))
        elif npc != pc + length:
            raise ValueError(f'{pc:#x} ({kind}) is followed by {npc:#x} with no trap')
    return out


def matches(want, src, tgt, type_):
    if want.sources and src not in want.sources:
        return False
    if want.targets and tgt not in want.targets:
        return False
    if want.type is None:                   # a branch before a trap: either way
        return type_ == (4 if tgt == want.fall else 5)
    return type_ == want.type


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--payload', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--pcs', required=True)
    args = ap.parse_args()
    images = rvelf.Images([rvelf.Elf(args.payload)])
    first, last = images.symbol('ctr_first'), images.symbol('ctr_last')
    progs, entries = [], {}
    with open(args.out, errors='replace') as f:
        for line in f:
            m = ENTRY_RE.match(line.strip())
            if m:
                if m.group(1) not in entries:
                    progs.append(m.group(1))
                    entries[m.group(1)] = []
                entries[m.group(1)].append((int(m.group(2), 16), int(m.group(3), 16),
                                            int(m.group(4))))
    lines = read_pcs(args.pcs)
    starts = [i for i, ln in enumerate(lines) if ln[0] == first]
    stops = [i for i, ln in enumerate(lines) if ln[0] == last]
    if not progs or len(starts) < len(progs) or len(stops) < len(progs):
        print(f'FAIL: ctr-compare: {len(progs)} programs recorded, ctr_first retired '
              f'{len(starts)} times, ctr_last {len(stops)} times')
        return 1
    bad = 0
    for n, prog in enumerate(progs):
        got = entries[prog]
        try:
            want = transfers(images, lines, starts[n], stops[n])
        except ValueError as e:
            print(f'FAIL: ctr-compare {prog}: ground truth: {e}')
            bad += 1
            continue
        if len(got) < 64 and len(want) != len(got):
            print(f'FAIL: ctr-compare {prog}: {len(got)} records, the log has {len(want)} '
                  'transfers')
            bad += 1
            continue
        tail = want[len(want) - len(got):]
        for i, (w, (src, tgt, type_)) in enumerate(zip(tail, got)):
            if not matches(w, src, tgt, type_):
                print(f'FAIL: ctr-compare {prog}: record {i} of {len(got)} (oldest first) is '
                      f'{src:#x} -> {tgt:#x} {NAMES.get(type_, type_)}, the log has '
                      f'{w.text()}')
                bad += 1
                break
        else:
            print(f'PASS: ctr-compare {prog}: the last {len(got)} of {len(want)} transfers '
                  'match the execution log (source, target, type)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check a .pcs trace against the program image it claims to trace.

Every consecutive pair of retired pcs (a, b) must be explained by the
instruction at a, read from the executable segments of the ELF:

* a marked `exc` or `int`: b is the trap vector (symbol `trap_entry` when the
  ELF has it, otherwise any code address);
* conditional branch: b is a + len or the branch target;
* JAL / C.J / C.JAL: b is the jump target;
* JALR / C.JR / C.JALR / MRET / SRET: b is any code address (indirect);
* anything else: b is a + len;
* and only a trap enters the trap vector (the corpus never jumps there).

ECALL, EBREAK and C.EBREAK always trap, so they must be marked `exc` (they
retire, then trap: see scripts/tsbi/qemulog.py); the all-zero illegal
encoding never retires and must not appear at all.  Exit status 0 when the whole
trace is explained, 1 with the first unexplained line otherwise.
"""

import argparse
import os
import sys

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import elf as rvelf  # noqa: E402

class CheckError(Exception):
    pass


class Image(rvelf.Elf):
    """The program's ELF (tsbi.elf), with what the checker asks of it."""

    def __init__(self, path):
        super().__init__(path)
        if not self.segments:
            raise CheckError(f'{path}: no executable segment')

    def is_code(self, addr):
        """addr is inside an executable segment (with a halfword there)."""
        return any(start <= addr < end - 1 for start, end, _ in self.segments)

    def trap_vector(self):
        """Symbol trap_entry, or None when the ELF has none."""
        values = self.symbols.get('trap_entry')
        return values[-1] if values else None


# tsbi.elf's instruction kinds, as the checker sees them: MRET/SRET may go
# anywhere, ECALL/EBREAK always trap, the all-zero encoding never retires.
CHECK_KINDS = {'mret': 'indirect', 'sret': 'indirect', 'ecall': 'trap',
               'ebreak': 'trap', 'zero': 'never'}


def classify(insn, length, pc, xlen):
    """('seq'|'branch'|'jump'|'indirect'|'trap'|'never', target)."""
    kind, target = rvelf.classify(insn, length, pc, xlen)
    return CHECK_KINDS.get(kind, kind), target


def read_pcs(path):
    recs = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            fields = line.split('#', 1)[0].split()
            if not fields:
                continue
            try:
                pc = int(fields[0], 16)
            except ValueError:
                raise CheckError(f'{path}:{lineno}: bad pc {fields[0]!r}')
            mark = fields[1] if len(fields) > 1 else ''
            if mark not in ('', 'exc', 'int') or len(fields) > 2:
                raise CheckError(f'{path}:{lineno}: bad line {line.strip()!r}')
            recs.append((lineno, pc, mark))
    if not recs:
        raise CheckError(f'{path}: empty trace')
    return recs


def check(image, recs, path):
    vector = image.trap_vector()
    stats = {'exc': 0, 'int': 0, 'branch': 0, 'jump': 0, 'indirect': 0}
    for (lineno, pc, mark), (_, nxt, _) in zip(recs, recs[1:] + [(0, None, '')]):
        where = f'{path}:{lineno}: {pc:x}'
        fetched = image.fetch(pc)
        if fetched is None:
            raise CheckError(f'{where}: not in an executable segment')
        insn, length = fetched
        kind, target = classify(insn, length, pc, image.xlen)
        if kind == 'never':
            raise CheckError(f'{where}: instruction {insn:#x} never retires')
        if kind == 'trap' and mark != 'exc':
            raise CheckError(f'{where}: ECALL/EBREAK {insn:#x} without its '
                             'exc mark')
        if nxt is None:
            break
        if mark:
            stats[mark] += 1
            if (vector is not None and nxt != vector) or \
                    not image.is_code(nxt):
                raise CheckError(f'{where}: {mark} followed by {nxt:x}, '
                                 'not the trap vector')
            continue
        if nxt == vector:
            raise CheckError(f'{where}: enters the trap vector without a '
                             'trap mark')
        if kind == 'seq':
            ok = nxt == pc + length
        elif kind == 'branch':
            ok = nxt in (pc + length, target)
        elif kind == 'jump':
            ok = nxt == target
        else:
            ok = image.is_code(nxt)
        if not ok:
            raise CheckError(f'{where}: {kind} instruction {insn:#x} cannot '
                             f'be followed by {nxt:x}')
        if kind != 'seq':
            stats[kind] += 1
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--elf', required=True)
    ap.add_argument('--min', type=int, default=1,
                    help='fail when the trace has fewer instructions')
    ap.add_argument('pcs')
    args = ap.parse_args()
    try:
        image = Image(args.elf)
        recs = read_pcs(args.pcs)
        if recs[0][1] != image.entry:
            raise CheckError(f'{args.pcs}: starts at {recs[0][1]:x}, not at '
                             f'the entry point {image.entry:x}')
        if len(recs) < args.min:
            raise CheckError(f'{args.pcs}: {len(recs)} instructions, fewer '
                             f'than {args.min}')
        stats = check(image, recs, args.pcs)
    except (CheckError, rvelf.ElfError, OSError) as e:
        print(f'check-pcs: {e}', file=sys.stderr)
        return 1
    print(f'{args.pcs}: {len(recs)} instructions, ' +
          ', '.join(f'{v} {k}' for k, v in stats.items()))
    return 0


if __name__ == '__main__':
    sys.exit(main())

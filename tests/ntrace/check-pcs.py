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
import struct
import sys

PT_LOAD = 1
PF_X = 1
SHT_SYMTAB = 2

MRET = 0x30200073
SRET = 0x10200073
ECALL = 0x00000073
EBREAK = 0x00100073


class CheckError(Exception):
    pass


class Image:
    """Executable segments and symbols of a little-endian ELF32/ELF64."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            data = f.read()
        if data[:4] != b'\x7fELF' or data[5] != 1:
            raise CheckError(f'{path}: not a little-endian ELF file')
        self.xlen = {1: 32, 2: 64}.get(data[4])
        if self.xlen is None:
            raise CheckError(f'{path}: bad ELF class')
        is64 = self.xlen == 64
        hdr = '<HHIQQQIHHHHHH' if is64 else '<HHIIIIIHHHHHH'
        (_, _, _, self.entry, phoff, shoff, _, _, phentsize, phnum,
         shentsize, shnum, _) = struct.unpack_from(hdr, data, 16)
        self.segments = []
        for i in range(phnum):
            off = phoff + i * phentsize
            if is64:
                p_type, p_flags, p_offset, p_vaddr, _, p_filesz = \
                    struct.unpack_from('<IIQQQQ', data, off)
            else:
                p_type, p_offset, p_vaddr, _, p_filesz, _, p_flags = \
                    struct.unpack_from('<IIIIIII', data, off)
            if p_type == PT_LOAD and p_flags & PF_X:
                self.segments.append(
                    (p_vaddr, data[p_offset:p_offset + p_filesz]))
        if not self.segments:
            raise CheckError(f'{path}: no executable segment')
        self.symbols = self._read_symbols(data, is64, shoff, shentsize, shnum)

    @staticmethod
    def _read_symbols(data, is64, shoff, shentsize, shnum):
        shdr = '<IIQQQQIIQQ' if is64 else '<IIIIIIIIII'
        sections = [struct.unpack_from(shdr, data, shoff + i * shentsize)
                    for i in range(shnum)]
        symbols = {}
        for sh in sections:
            if sh[1] != SHT_SYMTAB:
                continue
            strtab = sections[sh[6]]
            str_off = strtab[4]
            entsize = 24 if is64 else 16
            for off in range(sh[4], sh[4] + sh[5], entsize):
                if is64:
                    name, _, _, _, value, _ = \
                        struct.unpack_from('<IBBHQQ', data, off)
                else:
                    name, value, _, _, _, _ = \
                        struct.unpack_from('<IIIBBH', data, off)
                end = data.index(b'\0', str_off + name)
                symbols[data[str_off + name:end].decode()] = value
        return symbols

    def is_code(self, addr):
        return any(base <= addr < base + len(seg) - 1
                   for base, seg in self.segments)

    def halfword(self, addr):
        for base, seg in self.segments:
            if base <= addr and addr + 2 <= base + len(seg):
                return struct.unpack_from('<H', seg, addr - base)[0]
        return None

    def fetch(self, addr):
        """(encoding, length) of the instruction at addr, or None."""
        lo = self.halfword(addr)
        if lo is None:
            return None
        if lo & 3 != 3:
            return lo, 2
        hi = self.halfword(addr + 2)
        if hi is None or (lo & 0x1c) == 0x1c:
            return None     # truncated, or a >32-bit encoding
        return lo | (hi << 16), 4


def sext(value, bits):
    return value - (1 << bits) if value & (1 << (bits - 1)) else value


def bits(x, hi, lo):
    return (x >> lo) & ((1 << (hi - lo + 1)) - 1)


def classify32(insn, pc):
    """('seq'|'branch'|'jump'|'indirect'|'trap'|'never', target) of a 32-bit insn."""
    opcode = insn & 0x7f
    if opcode == 0x63:
        imm = (bits(insn, 31, 31) << 12 | bits(insn, 7, 7) << 11 |
               bits(insn, 30, 25) << 5 | bits(insn, 11, 8) << 1)
        return 'branch', pc + sext(imm, 13)
    if opcode == 0x6f:
        imm = (bits(insn, 31, 31) << 20 | bits(insn, 19, 12) << 12 |
               bits(insn, 20, 20) << 11 | bits(insn, 30, 21) << 1)
        return 'jump', pc + sext(imm, 21)
    if opcode == 0x67:
        return 'indirect', None
    if insn in (MRET, SRET):
        return 'indirect', None
    if insn in (ECALL, EBREAK):
        return 'trap', None
    return 'seq', None


def classify16(insn, pc, xlen):
    quadrant, funct3 = insn & 3, insn >> 13
    if insn == 0:
        return 'never', None
    if quadrant == 1 and (funct3 == 5 or (funct3 == 1 and xlen == 32)):
        imm = (bits(insn, 12, 12) << 11 | bits(insn, 8, 8) << 10 |
               bits(insn, 10, 9) << 8 | bits(insn, 6, 6) << 7 |
               bits(insn, 7, 7) << 6 | bits(insn, 2, 2) << 5 |
               bits(insn, 11, 11) << 4 | bits(insn, 5, 3) << 1)
        return 'jump', pc + sext(imm, 12)
    if quadrant == 1 and funct3 in (6, 7):
        imm = (bits(insn, 12, 12) << 8 | bits(insn, 6, 5) << 6 |
               bits(insn, 2, 2) << 5 | bits(insn, 11, 10) << 3 |
               bits(insn, 4, 3) << 1)
        return 'branch', pc + sext(imm, 9)
    if quadrant == 2 and funct3 == 4 and bits(insn, 6, 2) == 0:
        if bits(insn, 11, 7) != 0:
            return 'indirect', None         # C.JR / C.JALR
        if bits(insn, 12, 12):
            return 'trap', None             # C.EBREAK
    return 'seq', None


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
    vector = image.symbols.get('trap_entry')
    stats = {'exc': 0, 'int': 0, 'branch': 0, 'jump': 0, 'indirect': 0}
    for (lineno, pc, mark), (_, nxt, _) in zip(recs, recs[1:] + [(0, None, '')]):
        where = f'{path}:{lineno}: {pc:x}'
        fetched = image.fetch(pc)
        if fetched is None:
            raise CheckError(f'{where}: not in an executable segment')
        insn, length = fetched
        kind, target = (classify32(insn, pc) if length == 4
                        else classify16(insn, pc, image.xlen))
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
    except (CheckError, OSError) as e:
        print(f'check-pcs: {e}', file=sys.stderr)
        return 1
    print(f'{args.pcs}: {len(recs)} instructions, ' +
          ', '.join(f'{v} {k}' for k, v in stats.items()))
    return 0


if __name__ == '__main__':
    sys.exit(main())

# SPDX-License-Identifier: BSD-2-Clause
"""Little-endian RISC-V ELF32/ELF64 images and instruction classification.

Part of the tsbi package (scripts/tsbi): the ELF reading of the trace
scripts and tests.  Python 3 standard library only.

entry_point(path) is the entry point of an ELF file (header only).

Elf(path) reads:
  * the executable PT_LOAD segments (their file bytes): fetch(addr) returns
    (encoding, length) of the instruction at addr;
  * with load=ADDR (open_spec("FILE@ADDR")), the same bytes also where a
    loader put the file's load image: each executable segment at ADDR +
    (its p_paddr - the lowest p_paddr of the PT_LOAD segments), as
    `objcopy -O binary` lays them out; so a kernel's code runs at two
    addresses, its physical load address (MMU off) and its virtual one
    (tools/ntrace/README.md, "Two mappings");
  * the span of all PT_LOAD segments (load_range, memory size included);
  * the symbol table (symbols: name -> list of values).

classify(insn, length, pc, xlen) returns (kind, target):
  'branch'   BEQ..BGEU, C.BEQZ, C.BNEZ         target = taken address
  'jump'     JAL, C.J, C.JAL (RV32 only)        target = jump address
  'indirect' JALR, C.JR, C.JALR                 target = None
  'sret', 'mret', 'ecall', 'ebreak' (EBREAK and C.EBREAK), 'zero' (the
  all-zero illegal encoding), 'seq' (everything else).
"""

import struct

PT_LOAD = 1
PF_X = 1
SHT_SYMTAB = 2

MRET = 0x30200073
SRET = 0x10200073
ECALL = 0x00000073
EBREAK = 0x00100073
C_EBREAK = 0x9002


class ElfError(Exception):
    pass


def entry_point(path):
    """Entry point of a little-endian ELF32/ELF64 file, from its header."""
    with open(path, 'rb') as f:
        ident = f.read(64)
    if len(ident) < 64 or ident[:4] != b'\x7fELF':
        raise ElfError(f'{path}: not an ELF file')
    if ident[5] != 1:
        raise ElfError(f'{path}: not little-endian')
    if ident[4] == 1:
        return struct.unpack_from('<I', ident, 24)[0]
    if ident[4] == 2:
        return struct.unpack_from('<Q', ident, 24)[0]
    raise ElfError(f'{path}: bad ELF class {ident[4]}')


class Elf:
    def __init__(self, path, load=None):
        self.path = path
        try:
            with open(path, 'rb') as f:
                data = f.read()
        except OSError as e:
            raise ElfError(f'{path}: {e.strerror}')
        if len(data) < 52 or data[:4] != b'\x7fELF' or data[5] != 1:
            raise ElfError(f'{path}: not a little-endian ELF file')
        self.xlen = {1: 32, 2: 64}.get(data[4])
        if self.xlen is None:
            raise ElfError(f'{path}: bad ELF class')
        is64 = self.xlen == 64
        try:
            hdr = '<HHIQQQIHHHHHH' if is64 else '<HHIIIIIHHHHHH'
            (_, _, _, self.entry, phoff, shoff, _, _, phentsize, phnum,
             shentsize, shnum, _) = struct.unpack_from(hdr, data, 16)
            self.segments = []      # (start, end, bytes) executable
            lo = hi = None
            loads = []              # (p_paddr, bytes) executable
            paddr_lo = None
            for i in range(phnum):
                off = phoff + i * phentsize
                if is64:
                    p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, \
                        p_memsz = struct.unpack_from('<IIQQQQQ', data, off)
                else:
                    p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, \
                        p_flags = struct.unpack_from('<IIIIIII', data, off)
                if p_type != PT_LOAD:
                    continue
                end = p_vaddr + max(p_memsz, p_filesz)
                lo = p_vaddr if lo is None else min(lo, p_vaddr)
                hi = end if hi is None else max(hi, end)
                paddr_lo = p_paddr if paddr_lo is None else min(paddr_lo, p_paddr)
                if p_flags & PF_X:
                    seg = data[p_offset:p_offset + p_filesz]
                    self.segments.append((p_vaddr, p_vaddr + len(seg), seg))
                    loads.append((p_paddr, seg))
            self.load_range = (lo, hi) if lo is not None else None
            if load is not None:
                for p_paddr, seg in loads:
                    at = load + p_paddr - paddr_lo
                    if any(s < at + len(seg) and at < e for s, e, _ in self.segments):
                        raise ElfError(f'{path}@{load:#x}: the load image at '
                                       f'{at:#x} overlaps the virtual one')
                    self.segments.append((at, at + len(seg), seg))
            self.symbols = self._symbols(data, is64, shoff, shentsize, shnum)
        except (struct.error, ValueError, UnicodeDecodeError):
            raise ElfError(f'{path}: truncated or malformed ELF file')

    @staticmethod
    def _symbols(data, is64, shoff, shentsize, shnum):
        if not shoff:
            return {}
        shdr = '<IIQQQQIIQQ' if is64 else '<IIIIIIIIII'
        sections = [struct.unpack_from(shdr, data, shoff + i * shentsize)
                    for i in range(shnum)]
        symbols = {}
        entsize = 24 if is64 else 16
        for sh in sections:
            if sh[1] != SHT_SYMTAB:
                continue
            str_off = sections[sh[6]][4]
            for off in range(sh[4], sh[4] + sh[5], entsize):
                if is64:
                    name, _, _, _, value, _ = \
                        struct.unpack_from('<IBBHQQ', data, off)
                else:
                    name, value, _, _, _, _ = \
                        struct.unpack_from('<IIIBBH', data, off)
                if not name:
                    continue
                end = data.index(b'\0', str_off + name)
                key = data[str_off + name:end].decode()
                symbols.setdefault(key, []).append(value)
        return symbols

    def halfword(self, addr):
        for start, end, seg in self.segments:
            if start <= addr and addr + 2 <= end:
                return seg[addr - start] | seg[addr - start + 1] << 8
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


def open_spec(spec):
    """Elf of "FILE" or "FILE@ADDR" (ADDR hex with 0x, or decimal: where
    the file's load image was placed, see Elf)."""
    path, sep, addr = spec.rpartition('@')
    if sep and path:
        try:
            return Elf(path, load=int(addr, 0))
        except ValueError:
            pass
    return Elf(spec)


class Images:
    """Several ELF files seen as one address space (first match wins)."""

    def __init__(self, elfs):
        self.elfs = list(elfs)
        self.xlen = self.elfs[0].xlen if self.elfs else 64
        self._cache = {}

    def fetch(self, addr):
        for elf in self.elfs:
            got = elf.fetch(addr)
            if got is not None:
                return got
        return None

    def decode(self, pc):
        """(kind, target, length) of the instruction at pc, or None."""
        got = self._cache.get(pc)
        if got is None:
            fetched = self.fetch(pc)
            if fetched is None:
                return None
            insn, length = fetched
            kind, target = classify(insn, length, pc, self.xlen)
            got = self._cache[pc] = (kind, target, length)
        return got

    def symbol(self, name):
        """The one value of symbol name over all images; ElfError if it is
        missing or has several different values."""
        values = set()
        for elf in self.elfs:
            values.update(elf.symbols.get(name, ()))
        if not values:
            raise ElfError(f'symbol {name} not found in ' +
                           ', '.join(e.path for e in self.elfs))
        if len(values) > 1:
            raise ElfError(f'symbol {name} has several values: ' +
                           ', '.join(f'{v:x}' for v in sorted(values)))
        return values.pop()


def _sext(value, bits):
    return value - (1 << bits) if value & (1 << (bits - 1)) else value


def _bits(x, hi, lo):
    return (x >> lo) & ((1 << (hi - lo + 1)) - 1)


def classify(insn, length, pc, xlen):
    mask = (1 << xlen) - 1
    if length == 4:
        opcode = insn & 0x7f
        if opcode == 0x63 and _bits(insn, 14, 12) not in (2, 3):
            imm = (_bits(insn, 31, 31) << 12 | _bits(insn, 7, 7) << 11 |
                   _bits(insn, 30, 25) << 5 | _bits(insn, 11, 8) << 1)
            return 'branch', (pc + _sext(imm, 13)) & mask
        if opcode == 0x6f:
            imm = (_bits(insn, 31, 31) << 20 | _bits(insn, 19, 12) << 12 |
                   _bits(insn, 20, 20) << 11 | _bits(insn, 30, 21) << 1)
            return 'jump', (pc + _sext(imm, 21)) & mask
        if opcode == 0x67 and _bits(insn, 14, 12) == 0:
            return 'indirect', None
        if insn == SRET:
            return 'sret', None
        if insn == MRET:
            return 'mret', None
        if insn == ECALL:
            return 'ecall', None
        if insn == EBREAK:
            return 'ebreak', None
        return 'seq', None
    quadrant, funct3 = insn & 3, insn >> 13
    if insn == 0:
        return 'zero', None
    if quadrant == 1 and (funct3 == 5 or (funct3 == 1 and xlen == 32)):
        imm = (_bits(insn, 12, 12) << 11 | _bits(insn, 8, 8) << 10 |
               _bits(insn, 10, 9) << 8 | _bits(insn, 6, 6) << 7 |
               _bits(insn, 7, 7) << 6 | _bits(insn, 2, 2) << 5 |
               _bits(insn, 11, 11) << 4 | _bits(insn, 5, 3) << 1)
        return 'jump', (pc + _sext(imm, 12)) & mask
    if quadrant == 1 and funct3 in (6, 7):
        imm = (_bits(insn, 12, 12) << 8 | _bits(insn, 6, 5) << 6 |
               _bits(insn, 2, 2) << 5 | _bits(insn, 11, 10) << 3 |
               _bits(insn, 4, 3) << 1)
        return 'branch', (pc + _sext(imm, 9)) & mask
    if quadrant == 2 and funct3 == 4 and _bits(insn, 6, 2) == 0:
        if _bits(insn, 11, 7) != 0:
            return 'indirect', None         # C.JR / C.JALR
        if insn == C_EBREAK:
            return 'ebreak', None
    return 'seq', None


def parse_range(text):
    """'A-B' (hex, 0x optional) -> (A, B) with A < B; ValueError otherwise."""
    lo, sep, hi = text.partition('-')
    if not sep:
        raise ValueError(f'bad range {text!r} (expected A-B)')
    a, b = int(lo, 16), int(hi, 16)
    if a >= b:
        raise ValueError(f'empty range {text!r}')
    return a, b


def trap_vectors(fw_path):
    """tracesbi's trap vectors: the addresses of its `trap_entry*` symbols,
    the first instruction of every trap into M (what a -dfilter'ed QEMU log
    keeps of the firmware: scripts/trace-ground-truth.py)."""
    vectors = sorted({v for name, values in Elf(fw_path).symbols.items()
                      if name.startswith('trap_entry') for v in values})
    if not vectors:
        raise ElfError(f'{fw_path}: no trap_entry* symbol: where do traps into M go?')
    return vectors

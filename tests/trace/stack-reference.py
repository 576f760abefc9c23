#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Call stacks rebuilt from QEMU's execution log: what `ntrace profile` must
give for the same run (make test-trace).

    stack-reference.py --elf PAYLOAD.elf [--priv U|S|US] [--range A-B]...
        [--suffix N | --prefix N] [--out REF.json] WINDOW.pcs

WINDOW.pcs is one session window of the ground truth
(scripts/trace-compare.py --emit-window: `<hex pc>[ exc|int] <U|S|M>` per
retired instruction).  The instructions the trace encoder reports are the
window's lines that are not M, of the --priv privileges and, with --range,
in one of the ranges; a run of lines left out (an M-mode excursion, code the
filter does not trace) is a break in the trace: the decoder sees a trace
stop and a sync.  --suffix N keeps the last N of those instructions (a
wrapped buffer), --prefix N the first N (one that stopped on wrap).

The call stack is rebuilt here from the pcs, the trap marks and the
instruction words of the ELF, by the rules tools/ntrace/README.md states
("profile: the call stack"), written a second time and on its own (its own
instruction decoder, symbol reader and stack): a frame is (function, kind,
return address); an instruction's stack is that after the previous
instruction's transfer to it.

  call      jal/jalr/c.jal/c.jalr writing x1 or x5, not a coroutine swap
            (jalr rd=link, rs1=the other link): a call frame returning to
            pc + size.
  return    jalr/c.jr through x1 or x5 with rd not a link: the topmost call
            frame returning to the target and those above it are left; if
            none returns there, the top frame (never the last one).
  trap      the line after an `exc`/`int` line: the handler's trap frame
            on the stack, after what the trapped instruction itself did as
            far as its opcode tells (a direct call enters the callee, a
            return leaves the top frame, a trap return its trap frame, a
            linear instruction or a direct jump goes to its successor; an
            indirect call waits in the trap frame for its trap return).
  sret/mret the innermost trap frame and those above it are left; then an
            indirect call that trapped enters the target, anything else
            goes there as below.
  other     (branches, jumps, linear): into another function than the top
            frame's, to the return address of a call frame the frames up to
            it are left, elsewhere the top frame runs the new function.
  break     what the last instruction's opcode tells is done (as for a
            trap); the next instruction is a trap frame when its pc was
            entered by a trap before, else it goes there as `other`.

Output (JSON, to --out or stdout): instructions, traps, max_depth (frames
of the deepest stack an instruction ran on), functions [{name, addr, self,
total, calls}] (self: instructions at its pcs; total: instructions while it
was on the stack, recursion once; calls: calls entering it) and folded
({"outer;...;leaf": instructions with that stack}).
"""

import argparse
import json
import os
import struct
import sys

# The tsbi package (scripts/tsbi) of this checkout.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from tsbi import elf as rvelf  # noqa: E402

MAX_DEPTH = 1024        # frames of all segments
MAX_SEGMENTS = 16
LINKS = (1, 5)
TRAP_RETURNS = (0x10200073, 0x30200073, 0x00200073, 0x7b200073, 0x70200073)
TRAPS = (0x00000073, 0x00100073)
STT_NOTYPE, STT_FUNC, STB_LOCAL = 0, 2, 0
SHT_PROGBITS, SHT_SYMTAB, SHT_DYNSYM = 1, 2, 11
SHF_ALLOC_EXEC = 0x2 | 0x4
UNKNOWN = ('[unknown]', 0)


class RefError(Exception):
    pass


# ---- functions: the nearest function symbol at or below a pc ------------------

def function_symbols(path):
    """[(addr, name, section end, section start)] of the symbols that start
    functions (STT_FUNC, or a global STT_NOTYPE) in executable sections, the
    best one per address (function over label, global over local, then by
    name), sorted by address."""
    data = open(path, 'rb').read()
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
        shdr, sym, symsize = '<IIQQQQIIQQ', '<IBBHQQ', 24
    else:
        shoff, = struct.unpack_from('<I', data, 0x20)
        shentsize, shnum = struct.unpack_from('<HH', data, 0x2e)
        shdr, sym, symsize = '<IIIIIIIIII', '<IIIBBH', 16
    secs = [struct.unpack_from(shdr, data, shoff + i * shentsize) for i in range(shnum)]
    best = {}
    for s in secs:
        if s[1] not in (SHT_SYMTAB, SHT_DYNSYM):
            continue
        strtab = secs[s[6]][4]
        for off in range(s[4] + symsize, s[4] + s[5], symsize):
            if is64:
                name_off, info, _, shndx, value, _ = struct.unpack_from(sym, data, off)
            else:
                name_off, value, _, info, _, shndx = struct.unpack_from(sym, data, off)
            kind, bind = info & 15, info >> 4
            if kind not in (STT_NOTYPE, STT_FUNC) or shndx == 0 or shndx >= 0xff00:
                continue
            end = data.index(b'\0', strtab + name_off)
            name = data[strtab + name_off:end].decode()
            if not name or name[0] == '$' or name.startswith('.L'):
                continue
            sec = secs[shndx]
            if sec[1] != SHT_PROGBITS or sec[2] & SHF_ALLOC_EXEC != SHF_ALLOC_EXEC:
                continue
            lo, hi = sec[3], sec[3] + sec[5]
            if not lo <= value < hi:
                continue
            rank = (2 if kind == STT_FUNC else 0) + (bind != STB_LOCAL)
            if rank == 0:
                continue                # a local label: inside a function
            key = (-rank, name)
            if value not in best or key < best[value][0]:
                best[value] = (key, name, lo, hi)
    return sorted((a, n, lo, hi) for a, (_, n, lo, hi) in best.items())


class Functions:
    def __init__(self, paths):
        self.syms = sorted(s for p in paths for s in function_symbols(p))
        self.addrs = [s[0] for s in self.syms]
        self.cache = {}

    def of(self, pc):
        """(name, addr) of pc's function, or UNKNOWN."""
        got = self.cache.get(pc)
        if got is None:
            lo, hi = 0, len(self.addrs)
            while lo < hi:
                mid = (lo + hi) // 2
                if self.addrs[mid] <= pc:
                    lo = mid + 1
                else:
                    hi = mid
            got = UNKNOWN
            if lo:
                addr, name, sec_lo, sec_hi = self.syms[lo - 1]
                if sec_lo <= pc < sec_hi:
                    got = (name, addr)
            self.cache[pc] = got
        return got


# ---- instructions: what each one does to the stack ------------------------------

def bits(x, hi, lo):
    return (x >> lo) & ((1 << (hi - lo + 1)) - 1)


def sext(v, n):
    return v - (1 << n) if v >> (n - 1) & 1 else v


def jalr_kind(rd, rs1):
    """RISC-V calling convention (N-Trace Table 2, 4-bit itype)."""
    if rd in LINKS:
        return 'other' if rs1 in LINKS and rs1 != rd else 'call'   # 12: coroutine swap
    return 'return' if rs1 in LINKS else 'other'


def decode(images, pc):
    """(kind, size, successor or None) of the instruction at pc: kind is
    'call', 'return', 'trap-return' or 'other'; the successor is given when
    the opcode alone tells it (linear: pc + size; jal, c.j, c.jal: target)."""
    got = images.fetch(pc)
    if got is None:
        return 'other', 2, None
    insn, size = got
    mask = (1 << images.xlen) - 1
    if size == 4:
        op = insn & 0x7f
        if op == 0x6f:
            off = sext(bits(insn, 31, 31) << 20 | bits(insn, 19, 12) << 12 |
                       bits(insn, 20, 20) << 11 | bits(insn, 30, 21) << 1, 21)
            return ('call' if bits(insn, 11, 7) in LINKS else 'other'), 4, (pc + off) & mask
        if op == 0x67 and bits(insn, 14, 12) == 0:
            return jalr_kind(bits(insn, 11, 7), bits(insn, 19, 15)), 4, None
        if op == 0x63 and bits(insn, 14, 12) not in (2, 3):
            return 'other', 4, None
        if insn in TRAP_RETURNS:
            return 'trap-return', 4, None
        if insn in TRAPS:
            return 'other', 4, None
        return 'other', 4, (pc + 4) & mask
    q, f3 = insn & 3, bits(insn, 15, 13)
    if q == 1 and (f3 == 5 or (f3 == 1 and images.xlen == 32)):
        off = sext(bits(insn, 12, 12) << 11 | bits(insn, 8, 8) << 10 | bits(insn, 10, 9) << 8 |
                   bits(insn, 6, 6) << 7 | bits(insn, 7, 7) << 6 | bits(insn, 2, 2) << 5 |
                   bits(insn, 11, 11) << 4 | bits(insn, 5, 3) << 1, 12)
        return ('other' if f3 == 5 else 'call'), 2, (pc + off) & mask
    if q == 1 and f3 in (6, 7):
        return 'other', 2, None
    if q == 2 and f3 == 4 and bits(insn, 6, 2) == 0:
        rs1, link = bits(insn, 11, 7), bits(insn, 12, 12)
        if rs1 and link:
            return jalr_kind(1, rs1), 2, None          # c.jalr
        if rs1:
            return jalr_kind(0, rs1), 2, None          # c.jr
        if link:
            return 'other', 2, None                    # c.ebreak
    return 'other', 2, (pc + 2) & mask


# ---- the stack -------------------------------------------------------------------

class Frame:
    __slots__ = ('func', 'kind', 'ra', 'wait_ra')

    def __init__(self, func, kind, ra=None, wait_ra=None):
        self.func = func
        self.kind = kind            # 'base' (of a segment), 'call', 'trap'
        self.ra = ra                # call frames: where they return
        self.wait_ra = wait_ra      # trap frames: an indirect call that trapped


class Stacks:
    """The frames, bottom first; a 'base' frame starts a segment, whose
    frames are one stack of the profile (the older segments wait)."""

    def __init__(self, images, functions):
        self.images = images
        self.functions = functions
        self.frames = []
        self.vectors = set()
        self.calls = {}

    def top(self):
        return self.frames[-1].func if self.frames else None

    def after_insn(self, pc, size):
        """A call's return address."""
        return (pc + size) & ((1 << self.images.xlen) - 1)

    def current(self):
        """The frames of the top segment."""
        i = len(self.frames) - 1
        while self.frames[i].kind != 'base':
            i -= 1
        return self.frames[i:]

    def bases(self):
        return [i for i, f in enumerate(self.frames) if f.kind == 'base']

    def forget_oldest(self):
        b = self.bases()
        if len(b) > 1:
            del self.frames[:b[1]]

    def push(self, frame):
        if len(self.frames) == MAX_DEPTH:
            self.forget_oldest()
        if len(self.frames) == MAX_DEPTH:
            self.frames[-1] = frame
        else:
            self.frames.append(frame)

    def start_segment(self, func):
        if len(self.bases()) == MAX_SEGMENTS:
            self.forget_oldest()
        self.push(Frame(func, 'base'))

    def run(self, func):
        """func runs in the top frame (a tail call)."""
        if not self.frames:
            self.start_segment(func)
        else:
            self.frames[-1].func = func

    def unwind_to_caller_of(self, pc):
        """Leaves the topmost call frame that returns to pc and those above it;
        False when no frame returns there."""
        for i in range(len(self.frames) - 1, 0, -1):
            if self.frames[i].kind == 'call' and self.frames[i].ra == pc:
                del self.frames[i:]
                return True
        return False

    def pop(self):
        if self.frames[-1].kind != 'base':
            self.frames.pop()

    def call(self, func, ra):
        self.calls[func] = self.calls.get(func, 0) + 1
        self.push(Frame(func, 'call', ra))

    def go(self, pc):
        func = self.functions.of(pc)
        if func == self.top():
            return
        self.unwind_to_caller_of(pc)
        self.run(func)

    def land(self, pc):
        """pc reached by a way the trace does not show."""
        func = self.functions.of(pc)
        if not self.frames or func == self.top():
            self.go(pc)
            return
        if self.unwind_to_caller_of(pc):
            self.run(func)
            return
        for b in reversed(self.bases()[1:]):
            if self.frames[b - 1].func == func:
                del self.frames[b:]
                return
        self.start_segment(func)

    def leave_trap(self):
        """Leaves the innermost trap frame (and those above it): its frame,
        or None when there is none."""
        for i in range(len(self.frames) - 1, 0, -1):
            if self.frames[i].kind == 'trap':
                t = self.frames[i]
                del self.frames[i:]
                return t
        return None

    def after(self, pc_before, pc):
        """The previous instruction (at pc_before) went on to pc."""
        kind, size, _ = decode(self.images, pc_before)
        func = self.functions.of(pc)
        if kind == 'call':
            self.call(func, self.after_insn(pc_before, size))
        elif kind == 'return':
            if not self.unwind_to_caller_of(pc):
                self.pop()
            self.run(func)
        elif kind == 'trap-return':
            t = self.leave_trap()
            if t is None:
                self.go(pc)
            elif t.wait_ra is not None:
                self.call(func, t.wait_ra)
            else:
                self.land(pc)
        else:
            self.go(pc)

    def unseen(self, pc_before):
        """What the instruction at pc_before does before a trap or a break
        hides its successor; returns the return address of an indirect call
        (its callee is not known yet), else None."""
        kind, size, succ = decode(self.images, pc_before)
        if kind == 'call':
            if succ is None:
                return self.after_insn(pc_before, size)
            self.call(self.functions.of(succ), self.after_insn(pc_before, size))
        elif kind == 'return':
            self.pop()
        elif kind == 'trap-return':
            t = self.leave_trap()
            return t.wait_ra if t is not None else None
        elif succ is not None:
            self.go(succ)
        return None

    def trap(self, pc_before, pc):
        wait = self.unseen(pc_before)
        self.push(Frame(self.functions.of(pc), 'trap', wait_ra=wait))
        self.vectors.add(pc)

    def resume(self, pc):
        """The first instruction after a break in the trace."""
        if self.frames and pc in self.vectors:
            self.push(Frame(self.functions.of(pc), 'trap'))
        else:
            self.land(pc)


# ---- the walk ----------------------------------------------------------------------

def traced(window, privs, ranges):
    """[(pc, mark, after_break)] of the instructions the encoder reports."""
    out = []
    gap = True
    for pc, mark, priv in window:
        if priv == 'M' or priv not in privs or (ranges and not any(a <= pc < b
                                                                   for a, b in ranges)):
            gap = True
            continue
        out.append([pc, mark, gap])
        gap = False
    return out


def profile(insns, images, functions):
    st = Stacks(images, functions)
    ran_on = {}                     # stack (functions, bottom first) -> instructions
    traps = 0
    prev = None                     # (pc, mark) of the previous instruction
    for pc, mark, after_break in insns:
        if prev is not None and after_break:
            st.unseen(prev[0])
            prev = None
        if prev is None:
            st.resume(pc)
        elif prev[1]:
            st.trap(prev[0], pc)
            traps += 1
        else:
            st.after(prev[0], pc)
        stack = tuple(f.func for f in st.current())
        ran_on[stack] = ran_on.get(stack, 0) + 1
        prev = (pc, mark)
    self_n, total_n, folded = {}, {}, {}
    for stack, n in ran_on.items():
        self_n[stack[-1]] = self_n.get(stack[-1], 0) + n
        for f in set(stack):
            total_n[f] = total_n.get(f, 0) + n
        key = ';'.join(folded_name(f[0]) for f in stack)
        folded[key] = folded.get(key, 0) + n
    return {
        'instructions': len(insns),
        'traps': traps,
        'max_depth': max((len(s) for s in ran_on), default=0),
        'functions': [{'name': f[0], 'addr': f[1], 'self': self_n.get(f, 0),
                       'total': total_n[f], 'calls': st.calls.get(f, 0)}
                      for f in sorted(total_n)],
        'folded': folded,
    }


def folded_name(name):
    """As flame graph tools split lines: no ';', blanks or control characters."""
    return ''.join('_' if c == ';' or ord(c) <= 32 or ord(c) == 127 else c for c in name)


def read_window(path):
    window = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            w = line.split()
            if len(w) not in (2, 3) or w[-1] not in ('U', 'S', 'M') or \
                    (len(w) == 3 and w[1] not in ('exc', 'int')):
                raise RefError(f'{path}:{lineno}: bad line {line.strip()[:80]!r}')
            try:
                window.append((int(w[0], 16), w[1] if len(w) == 3 else '', w[-1]))
            except ValueError:
                raise RefError(f'{path}:{lineno}: bad pc {w[0]!r}')
    return window


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--elf', action='append', required=True)
    ap.add_argument('--priv', choices=('U', 'S', 'US'), default='US')
    ap.add_argument('--range', action='append', default=[], metavar='A-B')
    part = ap.add_mutually_exclusive_group()
    part.add_argument('--suffix', type=int, metavar='N')
    part.add_argument('--prefix', type=int, metavar='N')
    ap.add_argument('--out')
    ap.add_argument('window')
    args = ap.parse_args()
    try:
        ranges = [rvelf.parse_range(r) for r in args.range]
        images = rvelf.Images(rvelf.open_spec(p) for p in args.elf)
        functions = Functions(args.elf)
        insns = traced(read_window(args.window), args.priv, ranges)
        if args.suffix is not None:
            if not 0 < args.suffix <= len(insns):
                raise RefError(f'--suffix {args.suffix}: the window traces {len(insns)}')
            insns = insns[len(insns) - args.suffix:]
            insns[0][2] = True
        if args.prefix is not None:
            if not 0 < args.prefix <= len(insns):
                raise RefError(f'--prefix {args.prefix}: the window traces {len(insns)}')
            insns = insns[:args.prefix]
        result = profile(insns, images, functions)
    except (RefError, rvelf.ElfError, ValueError, struct.error) as e:
        print(f'stack-reference: {e}', file=sys.stderr)
        return 1
    except OSError as e:
        print(f'stack-reference: {e.filename}: {e.strerror}', file=sys.stderr)
        return 1
    text = json.dumps(result, indent=1, sort_keys=True) + '\n'
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())

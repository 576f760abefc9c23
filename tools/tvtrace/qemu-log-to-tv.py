#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Tandem-verification trace (Bluespec protocol, RV64GC) of the S/U-mode
execution in a QEMU 7.2 CPU-state log: a reference to hold the firmware's TV
mode against, and real code for `tvtrace check`.

    qemu-system-riscv64 -M virt -smp 1 -bios build/tracesbi.elf \\
        -kernel payload.elf -singlestep -d cpu,nochain -dfilter LO..HI -D LOG
    qemu-log-to-tv.py --elf payload.elf LOG OUT.tv

With -singlestep and -dfilter set to the payload's range, the log holds the
CPU state before each S/U instruction (one hart).  Consecutive states give
one group per instruction (pc, instruction bits read from the ELF, the GPRs
and S-mode CSRs that changed); the first state is written whole in a group
without an instruction.  A change of sepc/scause that the instruction does
not make is a trap to S-mode: sepc = the instruction's pc is an exception it
raised (a group with the instruction, the new pc and the CSRs), any other
sepc an interrupt taken after it (its group, then one without an
instruction).  M-mode work between two states (SBI calls, emulation,
interrupts the firmware handles) leaves only its effect on the registers.
The log has no memory accesses and no privilege: the trace carries no
memory records, and privilege only after a trap to S-mode (S) and an sret
(sstatus.SPP).
"""
import argparse
import re
import struct
import subprocess
import sys
import tempfile

CSRS = {"stvec": 0x105, "sscratch": 0x140, "sepc": 0x141, "scause": 0x142,
        "stval": 0x143, "satp": 0x180}
SRET = 0x10200073
REG = re.compile(r"x(\d+)/\w+\s+([0-9a-f]{16})")
CSR = re.compile(r"^ (\w+)\s+([0-9a-f]{16})$")


def states(path):
    """Each logged state: {'pc': int, 'x': [32 ints], csr name: int}."""
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(" V "):
                if cur and "pc" in cur:
                    yield cur
                cur = {"x": [0] * 32}
                continue
            if cur is None:
                continue
            m = CSR.match(line)
            if m:
                cur[m.group(1)] = int(m.group(2), 16)
                continue
            for n, v in REG.findall(line):
                cur["x"][int(n)] = int(v, 16)
    if cur and "pc" in cur:
        yield cur


class Image:
    def __init__(self, elf):
        with tempfile.NamedTemporaryFile() as tmp:
            subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", elf, tmp.name], check=True)
            self.data = open(tmp.name, "rb").read()
        # objcopy's binary starts at the lowest loaded section
        out = subprocess.run(["riscv64-unknown-elf-readelf", "-SW", elf], check=True,
                             capture_output=True, text=True).stdout
        self.base = min(int(addr, 16) for addr, flags in
                        re.findall(r"\]\s+\S+\s+PROGBITS\s+([0-9a-f]+)\s+\S+\s+\S+\s+\S+\s+(\w*)", out)
                        if "A" in flags)

    def insn(self, pc):
        off = pc - self.base
        lo = struct.unpack_from("<H", self.data, off)[0]
        if lo & 3 != 3:
            return lo, 2
        return struct.unpack_from("<I", self.data, off)[0], 4


class Writer:
    def __init__(self):
        self.out = bytearray()

    def op(self, code):
        self.out.append(code)

    def reg(self, addr, value):
        self.out += struct.pack("<BHQ", 4, addr, value)

    def pc(self, value):
        self.out += struct.pack("<BBQ", 7, 10, value)

    def priv(self, value):
        self.out += struct.pack("<BBB", 7, 1, value)

    def insn(self, bits, length):
        self.out += struct.pack("<BH", 16, bits) if length == 2 else struct.pack("<BI", 17, bits)


def changes(a, b, w):
    for n in range(1, 32):
        if a["x"][n] != b["x"][n]:
            w.reg(0x1000 + n, b["x"][n])


def csr_changes(a, b, w):
    for name, addr in CSRS.items():
        if a.get(name) != b.get(name) and name in b:
            w.reg(addr, b[name])


def targets_itself(bits):
    """A branch or jump by 0 (`1: j 1b`): the same pc again is its retirement."""
    if bits & 3 == 3:
        return (bits & 0x7f == 0x63 and bits & 0xfe000f80 == 0) or \
            (bits & 0x7f == 0x6f and bits & 0xfffff000 == 0)
    return bits == 0xa001 or (bits & 0xc003 == 0xc001 and bits & 0x1c7c == 0)


def vector(stvec, cause):
    """Privileged spec, stvec: MODE 1 sends interrupts to BASE + 4 * cause."""
    base = stvec & ~3
    if stvec & 3 == 1 and cause >> 63:
        base += 4 * (cause & ~(1 << 63))
    return base


def convert(log, image):
    w = Writer()
    prev = None
    groups = 0
    for s in states(log):
        if prev is None:
            w.op(1)
            w.pc(s["pc"])
            for n in range(1, 32):
                w.reg(0x1000 + n, s["x"][n])
            for name, addr in CSRS.items():
                if name in s:
                    w.reg(addr, s[name])
            w.op(2)
            prev = s
            continue
        bits, length = image.insn(prev["pc"])
        is_irq = s.get("scause", 0) >> 63
        trapped = (s.get("sepc") != prev.get("sepc") or s.get("scause") != prev.get("scause")) \
            and s["pc"] == vector(prev.get("stvec", 0), s.get("scause", 0))
        if s["pc"] == prev["pc"] and not trapped and not targets_itself(bits):
            prev = s       # an M-mode interrupt before the instruction ran
            continue
        if trapped and not is_irq and s["sepc"] == prev["pc"]:
            w.op(1)        # the instruction raised an exception
            w.pc(s["pc"])
            w.insn(bits, length)
            changes(prev, s, w)
            csr_changes(prev, s, w)
            w.priv(1)
            w.op(2)
        else:
            nxt = s["sepc"] if trapped else s["pc"]
            if not (trapped and is_irq and s["sepc"] == prev["pc"]):
                w.op(1)
                if nxt == prev["pc"] + length:
                    w.op(3)
                else:
                    w.pc(nxt)
                w.insn(bits, length)
                changes(prev, s, w)
                if not trapped:
                    csr_changes(prev, s, w)
                if bits == SRET:   # back to sstatus.SPP (mstatus bit 8)
                    w.priv((prev.get("mstatus", 0) >> 8) & 1)
                w.op(2)
            if trapped:
                w.op(1)    # the interrupt taken after it
                w.pc(s["pc"])
                csr_changes(prev, s, w)
                w.priv(1)
                w.op(2)
        groups += 1
        prev = s
    return w.out, groups


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True, help="the S-mode program (instruction bits)")
    ap.add_argument("log")
    ap.add_argument("out")
    a = ap.parse_args()
    data, groups = convert(a.log, Image(a.elf))
    with open(a.out, "wb") as f:
        f.write(data)
    print(f"{a.out}: {groups} instructions, {len(data)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Save every hart's trace buffer from a running tracesbi machine, at any
time, through QEMU's monitor.

    trace-save.py --monitor SOCK (--fw build/tracesbi.elf | --directory ADDR)
                  --out PREFIX [--hart H ...] [--running]

QEMU must run with `-monitor unix:SOCK,server,nowait`.  The firmware's
trace directory (firmware/trace/directory.h; its address is the banner's
"Trace directory" line and the ELF symbol `trace_directory`) says where
each hart's emulated encoder and RAM sink are; this script stops the
machine (`stop`), reads the directory and the register models
(`pmemsave`), writes each buffer that holds trace as PREFIX.hart<H>.nex,
oldest byte first, with its sidecar PREFIX.hart<H>.nex.tci (what `ntrace`
needs to decode it: tools/ntrace/README.md, "The sidecar"), and lets the
machine go on (`cont`) unless --running is not wanted (--stay-stopped).

What it saves is what the sinks hold: bytes the encoder still buffers
(at most its buffer, a few hundred bytes) reach the sink at its next
flush.  A buffer that wrapped starts inside a message; `ntrace` decodes it
from its first sync message (the firmware's boot option turns periodic
sync on for a wrapping buffer).

Prints one line per buffer saved: `hart H: PREFIX.hartH.nex N bytes
(wrapped|stopped on wrap|...)`.  Exit status 1 with a message when the
directory is not there or the monitor fails.
"""

import argparse
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_monitor import monitor, MonitorError  # noqa: E402
import rvelf  # noqa: E402

MAGIC = b'TSBITRC\0'
VERSIONS = (1, 2)
HEADER = struct.Struct('<8sIIQ10HIII')   # directory.h, struct trace_directory (56 bytes)
NEXT_ADDR = struct.Struct('<Q')          # version 2: next_addr at byte 56, hart[] at 64
ENTRY = struct.Struct('<QQQ')              # struct trace_directory_hart
MAX_HARTS = 32

# tci_spec.h
TRTE_ACTIVE = 1 << 0
TRRAM_ACTIVE = 1 << 0
TRRAM_STOP_ON_WRAP = 1 << 8


class SaveError(Exception):
    pass


def read_phys(sock, tmp, ranges):
    """[(addr, size)] -> [bytes], with one monitor session."""
    files = [os.path.join(tmp, f'r{i}') for i in range(len(ranges))]
    monitor(sock, [f'pmemsave {a:#x} {n} "{f}"' for (a, n), f in zip(ranges, files)])
    out = []
    for f, (a, n) in zip(files, ranges):
        with open(f, 'rb') as fh:
            data = fh.read()
        if len(data) != n:
            raise SaveError(f'pmemsave of {n} bytes at {a:#x} gave {len(data)}')
        out.append(data)
    return out


def parse_directory(blob):
    if len(blob) < HEADER.size:
        raise SaveError('trace directory: short read')
    (magic, version, harts, timebase, te_control, te_features, te_tscontrol, te_ingress,
     ram_control, ram_start, ram_limit, ram_wp, ram_wrap, ram_sram, mode_smem,
     tscontrol_or, _) = HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise SaveError(f'no trace directory there (magic {magic!r}): is this the firmware '
                        'the machine runs, or its banner\'s address?')
    if version not in VERSIONS:
        raise SaveError(f'trace directory version {version}, this script reads '
                        f'{" and ".join(map(str, VERSIONS))}')
    if harts > MAX_HARTS:
        raise SaveError(f'trace directory: {harts} harts, at most {MAX_HARTS}')
    d = dict(timebase=timebase, te_control=te_control, te_features=te_features,
             te_tscontrol=te_tscontrol, te_ingress=te_ingress, ram_control=ram_control,
             ram_start=ram_start, ram_limit=ram_limit, ram_wp=ram_wp, ram_wrap=ram_wrap,
             ram_sram=ram_sram, mode_smem=mode_smem, tscontrol_or=tscontrol_or, harts=[],
             next_addr=None)
    entries = HEADER.size
    if version >= 2:
        d['next_addr'], = NEXT_ADDR.unpack_from(blob, HEADER.size)
        entries += NEXT_ADDR.size
    for i in range(harts):
        hartid, enc, sink = ENTRY.unpack_from(blob, entries + i * ENTRY.size)
        d['harts'].append((hartid, enc, sink))
    return d


def u32(b, off):
    return struct.unpack_from('<I', b, off)[0]


def u64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


def sink_state(d, enc, ram):
    """What a hart's sink holds: (pieces [(addr, size)], wrapped flag for
    the sidecar, description), or None when it holds nothing."""
    control, start, limit = u32(ram, d['ram_control']), u64(ram, d['ram_start']), \
        u64(ram, d['ram_limit'])
    wp, wrap = u64(ram, d['ram_wp']), ram[d['ram_wrap']] != 0
    if not (control & TRRAM_ACTIVE) or not (u32(enc, d['te_control']) & TRTE_ACTIVE):
        return None
    base = 0 if control & d['mode_smem'] else u64(ram, d['ram_sram'])
    end = limit + 4
    if not start <= wp <= end or start >= end:
        raise SaveError(f'sink start {start:#x} limit {limit:#x} wp {wp:#x}: not a buffer')
    stop = bool(control & TRRAM_STOP_ON_WRAP)
    if wrap and stop:
        return [(base + start, end - start)], False, 'stopped on wrap (full)'
    if wrap:
        return [(base + wp, end - wp), (base + start, wp - start)], True, 'wrapped'
    if wp == start:
        return None
    return [(base + start, wp - start)], False, 'not wrapped'


def sidecar(path, d, enc, hartid, wrapped):
    return ''.join([
        f'# {os.path.basename(path)}: saved by scripts/trace-save.py from the firmware\'s\n',
        '# trace directory\n',
        f'control={u32(enc, d["te_control"]):#x}\n',
        f'features={u32(enc, d["te_features"]):#x}\n',
        f'tscontrol={u32(enc, d["te_tscontrol"]) | d["tscontrol_or"]:#x}\n',
        f'ingress={u32(enc, d["te_ingress"]):#x}\n',
        f'wrapped={int(wrapped)}\n',
        f'hart={hartid}\n',
        f'timebase-hz={d["timebase"]}\n' if d['timebase'] else '',
        f'next-addr={d["next_addr"]:#x}\n' if d['next_addr'] is not None else ''])


def directory_address(args):
    if args.directory is not None:
        return int(args.directory, 0)
    syms = rvelf.Elf(args.fw).symbols.get('trace_directory')
    if not syms:
        raise SaveError(f'{args.fw} has no symbol trace_directory (an older firmware?)')
    return syms[0]


def save(args):
    addr = directory_address(args)
    saved = []
    with tempfile.TemporaryDirectory() as tmp:
        monitor(args.monitor, ['stop'])
        try:
            blob, = read_phys(args.monitor, tmp,
                              [(addr, HEADER.size + NEXT_ADDR.size +
                                      MAX_HARTS * ENTRY.size)])
            d = parse_directory(blob)
            want = [h for h in d['harts'] if not args.hart or h[0] in args.hart]
            enc_size = max(d['te_control'], d['te_features'], d['te_tscontrol'],
                           d['te_ingress']) + 4
            ram_size = max(d['ram_control'] + 4, d['ram_start'] + 8, d['ram_limit'] + 8,
                           d['ram_wp'] + 8, d['ram_wrap'] + 1, d['ram_sram'] + 8)
            models = read_phys(args.monitor, tmp,
                               [r for (_, e, s) in want for r in ((e, enc_size), (s, ram_size))])
            for i, (hartid, _, _) in enumerate(want):
                enc, ram = models[2 * i], models[2 * i + 1]
                st = sink_state(d, enc, ram)
                if st is None:
                    continue
                pieces, wrapped, what = st
                data = b''.join(read_phys(args.monitor, tmp, [p for p in pieces if p[1]]))
                path = f'{args.out}.hart{hartid}.nex'
                with open(path, 'wb') as f:
                    f.write(data)
                with open(path + '.tci', 'w') as f:
                    f.write(sidecar(path, d, enc, hartid, wrapped))
                saved.append((hartid, path, len(data), what))
        finally:
            if not args.stay_stopped:
                monitor(args.monitor, ['cont'])
    return saved


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--monitor', required=True, metavar='SOCK',
                    help="QEMU's monitor socket (-monitor unix:SOCK,server,nowait)")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument('--fw', metavar='ELF', help='the firmware ELF the machine runs')
    where.add_argument('--directory', metavar='ADDR',
                       help="the trace directory's address (the banner's line)")
    ap.add_argument('--out', required=True, metavar='PREFIX')
    ap.add_argument('--hart', type=int, action='append', metavar='H',
                    help='only this hart (again for more)')
    ap.add_argument('--stay-stopped', action='store_true',
                    help='leave the machine stopped (QEMU monitor: cont goes on)')
    args = ap.parse_args()
    try:
        saved = save(args)
    except (SaveError, MonitorError, OSError, rvelf.ElfError) as e:
        print(f'trace-save: {e}', file=sys.stderr)
        return 1
    if not saved:
        print('trace-save: no sink holds trace', file=sys.stderr)
        return 1
    for hartid, path, n, what in saved:
        print(f'hart {hartid}: {path} {n} bytes ({what})')
    return 0


if __name__ == '__main__':
    sys.exit(main())

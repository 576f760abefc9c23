# SPDX-License-Identifier: BSD-2-Clause
"""Save every hart's trace buffer from a running tracesbi machine through
QEMU's monitor: the work of scripts/trace-save.py (its header says what is
saved and how), also called by tests/trace/linux-run.py.

save(args) takes trace-save.py's options (monitor, fw or directory, out,
hart, stay_stopped) and returns (hartid, path, bytes, what) per buffer.
"""

import os
import struct
import tempfile

from tsbi.qemu_monitor import monitor
from tsbi import elf as rvelf

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

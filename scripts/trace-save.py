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
import sys

from tsbi.qemu_monitor import MonitorError
from tsbi import elf as rvelf
from tsbi.trace_save import SaveError, save

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

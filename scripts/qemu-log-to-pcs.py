#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Convert a QEMU execution log into a .pcs retired-instruction trace.

The log comes from a single-hart run of a bare-metal program:

    qemu-system-riscv64 -M virt -bios none -nographic -kernel P.elf \
        -singlestep -d exec,nochain,int -D P.log \
        -icount shift=0,align=off,sleep=off

Output (.pcs): one retired instruction per line, `<hex pc>[ exc|int]`, in
lower-case hex without a prefix.  `exc` / `int` mean that an exception /
interrupt trap was taken right after this instruction retired.

Rules: scripts/tsbi/qemulog.py (class BareMetal), the project's one parser
of these logs.
"""

import argparse
import os
import sys

from tsbi import elf as rvelf
from tsbi.qemulog import BareMetal, LogError


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--elf', required=True, help='the traced program')
    ap.add_argument('-o', '--out', help='output .pcs (default: stdout)')
    ap.add_argument('log', help='QEMU log (-d exec,nochain,int)')
    args = ap.parse_args()
    try:
        conv = BareMetal(rvelf.entry_point(args.elf))
        with open(args.log, encoding='utf-8', errors='replace') as f:
            for line in f:
                conv.on_line(line)
        conv.finish()
    except (LogError, rvelf.ElfError, OSError) as e:
        print(f'qemu-log-to-pcs: {args.log}: {e}', file=sys.stderr)
        return 1
    if args.out:
        with open(args.out + '.tmp', 'w') as out:
            conv.write(out)
        os.replace(args.out + '.tmp', args.out)
    else:
        conv.write(sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main())

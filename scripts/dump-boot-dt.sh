#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The devicetree a firmware hands to S-mode on QEMU virt: boots FIRMWARE
# with KERNEL (any payload entered at 0x80200000) halted under gdb, stops
# at the payload's first instruction and writes the blob a1 points at
# (totalsize bytes) to OUT.dtb.  -seed 1 makes QEMU's rng-seed property
# the same on every run, so two firmware builds can be compared byte for
# byte (cmp), e.g. before and after a change to lib/fdt or the fix-ups.
#
# usage: dump-boot-dt.sh FIRMWARE.elf KERNEL.elf OUT.dtb [SMP] [CPU]
set -u
[ $# -ge 3 ] || { echo "usage: $0 FIRMWARE KERNEL OUT.dtb [SMP] [CPU]" >&2; exit 2; }
fw=$1 kernel=$2 out=$3 smp=${4:-4} cpu=${5:-rv64,sscofpmf=true}
port=$((20000 + RANDOM % 20000))

"$(dirname "$0")/qemu-run.sh" --smp "$smp" --cpu "$cpu" --bios "$fw" --kernel "$kernel" \
    --timeout 90 -- -seed 1 -S -gdb "tcp::$port" -monitor none -serial null &
qemu=$!
sleep 0.5
timeout 60 gdb-multiarch -q -batch -ex "set architecture riscv:rv64" \
    -ex "target remote :$port" -ex "break *0x80200000" -ex continue \
    -ex "dump binary memory $out.full \$a1 \$a1+65536" -ex kill >/dev/null 2>&1
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
if [ ! -s "$out.full" ]; then
    echo "dump-boot-dt: no blob dumped (did the payload start at 0x80200000?)" >&2
    exit 1
fi
head -c "$(od -An -tu4 --endian=big -j4 -N4 "$out.full")" "$out.full" >"$out"
rm -f "$out.full"

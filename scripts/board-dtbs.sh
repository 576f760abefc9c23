#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The DTBs of the real RISC-V boards in Debian's linux-source-6.1:
# every arch/riscv/boot/dts/<vendor>/<board>.dts through cpp and dtc, as
# the kernel's build does, into OUTDIR/<board>.dtb (the host test
# tests/host/test_board_dtbs.c and `make fit-image` read them), plus the
# hand-written tests/data/boards/*.dts of boards the tree lacks.
#
#   scripts/board-dtbs.sh OUTDIR
#
# The sources come from build/linux/src when scripts/build-linux.sh has
# unpacked the tree; otherwise just the dts, dt-bindings headers (and the
# uapi header one of them links to) and include-prefixes are extracted from the tarball into OUTDIR/src (the xz
# is decompressed once, about 9 s).
set -eu
out=${1:?usage: $0 OUTDIR}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
tree=${LINUX_TREE:-build/linux/src}

if [ ! -d "$tree/arch/riscv/boot/dts" ]; then
    tree=$out/src
    if [ ! -f "$tree/.extracted" ]; then
        [ -f "$TARBALL" ] || { echo "$0: $TARBALL missing (make deps)" >&2; exit 1; }
        rm -rf "$tree"
        mkdir -p "$tree"
        tar -xJf "$TARBALL" -C "$tree" --strip-components=1 --wildcards \
            'linux-source-6.1/arch/riscv/boot/dts/*' \
            'linux-source-6.1/include/dt-bindings/*' \
            'linux-source-6.1/include/uapi/linux/input-event-codes.h' \
            'linux-source-6.1/scripts/dtc/include-prefixes/*'
        touch "$tree/.extracted"
    fi
fi

mkdir -p "$out"
n=0
for dts in "$tree"/arch/riscv/boot/dts/*/*.dts; do
    vendor_dir=$(dirname "$dts")
    board=$(basename "$dts" .dts)
    cpp -nostdinc -I "$tree/include" -I "$vendor_dir" -I "$tree/scripts/dtc/include-prefixes" \
        -undef -D__DTS__ -x assembler-with-cpp "$dts" -o "$out/$board.dts.pre"
    dtc -q -I dts -O dtb -o "$out/$board.dtb" "$out/$board.dts.pre"
    rm -f "$out/$board.dts.pre"
    n=$((n + 1))
done
# Boards whose DT the 6.1 tree lacks, written for the test (no cpp needed).
for dts in tests/data/boards/*.dts; do
    [ -f "$dts" ] || continue
    dtc -q -I dts -O dtb -o "$out/$(basename "$dts" .dts).dtb" "$dts"
done
[ "$n" -gt 0 ] || { echo "$0: no .dts under $tree/arch/riscv/boot/dts" >&2; exit 1; }
ls "$out"/*.dtb | sed 's|.*/||' > "$out/boards.list"

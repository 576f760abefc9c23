#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What `make fit-image` must refuse, each with its reason, and no image:
# a board without S-mode (the K210), one whose RAM is not where the
# firmware is linked (the D1-like board, DRAM at 0x40000000; the
# Icicle kit's SEV variant, DDR at 0x1000000000), and a board name it does
# not know, answered with the list of names.  Part of suite-fit.
set -u
BUILD=${BUILD:-build}
BOARD_DTB_DIR=${BOARD_DTB_DIR:-$BUILD/host/boards}
export BOARD_CHECK=${BOARD_CHECK:-$BUILD/tools/board-check}
bad=0

refused() {   # name board expected-message
    local out=$BUILD/fit/refused-$2.itb msg
    rm -f "$out"
    if msg=$(scripts/fit-image.sh "$out" "$BUILD/tracesbi.bin" "$BOARD_DTB_DIR/$2.dtb" 2>&1); then
        echo "FAIL: fit/refuses-$1: an image was built for $2"; bad=1
    elif [ -e "$out" ]; then
        echo "FAIL: fit/refuses-$1: refused, but $out exists"; bad=1
    elif ! grep -q -- "$3" <<<"$msg"; then
        echo "FAIL: fit/refuses-$1: no \"$3\" in: $(tr '\n' '|' <<<"$msg")"; bad=1
    else
        echo "PASS: fit/refuses-$1"
    fi
}
refused no-smode k210_generic 'no hart has S-mode'
refused dram-base allwinner-d1-like 'linked at 0x80000000'
refused ddr-high mpfs-sev-kit 'linked at 0x80000000'

if ! msg=$(make --no-print-directory -s fit-image BUILD="$BUILD" BOARD=no-such-board 2>&1) &&
   grep -q "no board 'no-such-board'" <<<"$msg" &&
   grep -q 'hifive-unmatched-a00' <<<"$msg" && grep -q 'mpfs-icicle-kit' <<<"$msg"; then
    echo "PASS: fit/unknown-board-lists-boards"
else
    echo "FAIL: fit/unknown-board-lists-boards: $(tr '\n' '|' <<<"$msg")"; bad=1
fi
exit $bad

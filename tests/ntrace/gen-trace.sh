#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Produces the .pcs trace of one corpus program: runs it single-stepped under
# QEMU, converts the log (scripts/qemu-log-to-pcs.py) and checks the result
# against the ELF (tests/ntrace/check-pcs.py).
#
#   gen-trace.sh PROG.elf OUT.pcs
#
# QEMU runs are the slow part, so traces are cached in $NT_CACHE (default
# build/ntrace/cache) under the SHA-256 of the ELF and of the two scripts:
# an unchanged program is never run twice.
set -eu
cd "$(dirname "$0")/../.."

elf=$1
out=$2
cache=${NT_CACHE:-build/ntrace/cache}
conv=scripts/qemu-log-to-pcs.py
conv_lib=(scripts/tsbi/qemulog.py scripts/tsbi/elf.py)    # its parser
check=tests/ntrace/check-pcs.py

key=$(cat "$elf" "$conv" "${conv_lib[@]}" "$check" | sha256sum | cut -c1-32)
cached=$cache/$key.pcs
mkdir -p "$cache" "$(dirname "$out")"
if [ -f "$cached" ]; then
    cp "$cached" "$out"
    exit 0
fi

# ELF class (byte 4 of e_ident): 1 = 32-bit, 2 = 64-bit.
class=$(od -An -tu1 -j4 -N1 "$elf" | tr -d ' ')
case $class in
1) qemu=qemu-system-riscv32 ;;
2) qemu=qemu-system-riscv64 ;;
*) echo "gen-trace: $elf: not an ELF32/ELF64 file" >&2; exit 1 ;;
esac

log=$(mktemp "${TMPDIR:-/tmp}/ntrace-qemu.XXXXXX")
trap 'rm -f "$log" "$out.tmp"' EXIT
# The program exits through the sifive,test device: status 0 only when its
# own self-check passed.
if ! timeout 120 "$qemu" -M virt -bios none -nographic -kernel "$elf" \
        -singlestep -d exec,nochain,int -D "$log" \
        -icount shift=0,align=off,sleep=off </dev/null >/dev/null; then
    echo "gen-trace: $elf: QEMU run failed (program self-check or timeout)" >&2
    exit 1
fi
python3 "$conv" --elf "$elf" -o "$out.tmp" "$log"
python3 "$check" --elf "$elf" --min 20000 "$out.tmp" >&2
cp "$out.tmp" "$cached"
mv "$out.tmp" "$out"

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boots one firmware + S-mode kernel on QEMU virt, bounded by a timeout,
# console on stdout and (with --log) in a log file.
#
# usage: qemu-run.sh --bios FW [--kernel ELF] [--smp N] [--cpu CPU]
#                    [--mem SIZE] [--append ARGS] [--initrd FILE]
#                    [--timeout SECONDS] [--log FILE] [--icount] [-- QEMU ARGS...]
# Exits with QEMU's status, or 124 when the timeout expired.
set -u
QEMU=${QEMU:-qemu-system-riscv64}
bios= kernel= smp=4 cpu=rv64,sscofpmf=true mem=256M append= initrd=
timeout_s=60 log= icount=
usage() { sed -n '2,9p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
    --bios) bios=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --append) append=$2; shift 2 ;;
    --initrd) initrd=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --icount) icount=1; shift ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ -n "$bios" ] || usage
args=(-M virt -m "$mem" -smp "$smp" -cpu "$cpu" -nographic -bios "$bios")
[ -n "$kernel" ] && args+=(-kernel "$kernel")
[ -n "$initrd" ] && args+=(-initrd "$initrd")
[ -n "$append" ] && args+=(-append "$append")
# sleep=off: the virtual clock (and so instret) never jumps with host time.
[ -n "$icount" ] && args+=(-icount shift=0,align=off,sleep=off)
args+=("$@")
if [ -n "$log" ]; then
    mkdir -p "$(dirname "$log")"
    timeout --foreground -k 5 "$timeout_s" "$QEMU" "${args[@]}" </dev/null 2>&1 | tee "$log"
    exit "${PIPESTATUS[0]}"
fi
exec timeout --foreground -k 5 "$timeout_s" "$QEMU" "${args[@]}" </dev/null

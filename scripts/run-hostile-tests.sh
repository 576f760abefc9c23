#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The hostile S-mode runs of the test kernel (tests/target/hostile.c,
# tests/target/harts_soak.c) on tracesbi, each under a timeout:
#   hostile  -smp 4: every hart makes CALLS seeded random SBI calls with
#            hostile arguments, checked after every batch
#   harts    -smp 8: the harts hammer IPIs, remote fences, HSM and the PMU
#            for SECONDS, counting every IPI sent and received
# The kernel prints the PASS/FAIL lines; a run that hangs, or ends without
# its done marker, adds a FAIL line naming the seed.
#
# usage: run-hostile-tests.sh FIRMWARE.elf KERNEL.elf SEED CALLS SECONDS
set -u
cd "$(dirname "$0")/.."
[ $# -eq 5 ] || { echo "usage: $0 FIRMWARE KERNEL SEED CALLS SECONDS" >&2; exit 2; }
fw=$1 kernel=$2 seed=$3 calls=$4 seconds=$5
logdir=build/logs/hostile
mkdir -p "$logdir"
status=0
# Generous bounds: a hang is what they catch (about 1 s per 20k calls, and
# the soak's own duration plus boot).
hostile_timeout=$((60 + calls / 2000))
harts_timeout=$((60 + seconds * 3))

# run NAME SMP TIMEOUT APPEND DONE_LINE: one QEMU run; echoes its result lines.
run() {
    local name=$1 smp=$2 timeout_s=$3 append=$4 done_line=$5
    local log=$logdir/$name.log rc
    scripts/qemu-run.sh --bios "$fw" --kernel "$kernel" --smp "$smp" \
        --cpu rv64,sscofpmf=true --append "$append" --timeout "$timeout_s" >"$log.raw" 2>&1
    rc=$?
    tr -d '\r' <"$log.raw" | tr -c '\n[:print:]' '?' >"$log"
    rm -f "$log.raw"
    grep -aE '^(PASS|FAIL|INFO|REPORT): ' "$log"
    grep -aq '^FAIL: ' "$log" && status=1
    if ! grep -aqx "$done_line" "$log"; then
        status=1
        echo "FAIL: hostile/run-$name: QEMU ended ($rc; 124: timeout after ${timeout_s}s) without \"$done_line\" ($append; log: $log)"
        grep -a -v '^\.*$' "$log" | tail -n 8 | sed 's/^/    | /'
    fi
}

run hostile 4 "$hostile_timeout" "mode=hostile seed=$seed calls=$calls" "DONE: hostile"
run harts 8 "$harts_timeout" "mode=harts seconds=$seconds seed=$seed" "DONE: harts"
exit $status

#!/usr/bin/env bash
# SBI call cost: runs the bench payload under -icount shift=0 on one hart on
# tracesbi and on Debian's OpenSBI, and prints a markdown table of
# instructions per call and instructions before the first S-mode
# instruction.  Figures only: nothing here passes or fails on them.
#
# usage: bench-sbi.sh TRACESBI.elf OPENSBI_FW.elf BENCH.elf
set -u
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { echo "usage: $0 TRACESBI OPENSBI_FW BENCH_ELF" >&2; exit 2; }
tracesbi=$1 opensbi=$2 bench=$3
logdir=build/logs/bench
mkdir -p "$logdir"

run_bench() {   # run_bench NAME FIRMWARE
    scripts/qemu-run.sh --bios "$2" --kernel "$bench" --smp 1 --icount --timeout 120 \
        >"$logdir/bench-$1.raw" 2>&1
    tr -d '\r' <"$logdir/bench-$1.raw" >"$logdir/bench-$1.log"
    rm -f "$logdir/bench-$1.raw"
    if ! grep -aqx 'DONE: bench' "$logdir/bench-$1.log"; then
        echo "bench-sbi: the run on $1 did not finish (log: $logdir/bench-$1.log)" >&2
        return 1
    fi
}

# figure LOG KEY: the per-call figure of KEY, or the boot count for "boot".
figure() {
    if [ "$2" = boot ]; then
        sed -n 's/^BENCH: boot: \([0-9]*\) instructions.*/\1/p' "$1"
    else
        sed -n "s/^BENCH: $2: \([0-9.]*\) instructions per call.*/\1/p" "$1"
    fi
}

status=0
run_bench tracesbi "$tracesbi" || status=1
run_bench opensbi "$opensbi" || status=1

rows=(
    "base.get_spec_version|base.get_spec_version|≤ 80"
    "base.probe_extension(TIME)|base.probe_extension(TIME)|≤ 80"
    "time.set_timer(far future)|time.set_timer(far future)|≤ 80"
    "ipi.send_ipi(empty mask)|ipi.send_ipi(empty mask)|≤ 80"
    "rfence.remote_fence_i(self)|rfence.remote_fence_i(self)|≤ 160"
    "instructions before first S-mode instruction|boot|≤ 1,000,000"
)
echo
echo "SBI call cost (instructions retired per call, QEMU -icount shift=0, 1 hart)"
echo
echo "| call | tracesbi | OpenSBI 1.1 | target |"
echo "|---|---:|---:|---:|"
for row in "${rows[@]}"; do
    IFS='|' read -r label key target <<<"$row"
    t=$(figure "$logdir/bench-tracesbi.log" "$key" 2>/dev/null)
    o=$(figure "$logdir/bench-opensbi.log" "$key" 2>/dev/null)
    echo "| $label | ${t:-n/a} | ${o:-n/a} | $target |"
done
exit $status

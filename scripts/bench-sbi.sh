#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# SBI call cost: runs the bench payload under -icount shift=0 on one hart on
# tracesbi and on Debian's OpenSBI, and prints markdown tables of
# instructions per call, instructions before the first S-mode instruction
# and the cost of the PMU calls a perf driver makes.  The tables are also
# saved in build/results/bench-sbi.md.  Figures only: nothing here passes or
# fails on them.
#
# usage: bench-sbi.sh TRACESBI.elf OPENSBI_FW.elf BENCH.elf
set -u
cd "$(dirname "$0")/.." || exit 2
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

# cell LOG KEY: the figure, "failed" when the payload reported an error for
# the row, else n/a (not measured: extension or feature missing).
cell() {
    local f
    f=$(figure "$1" "$2" 2>/dev/null)
    if [ -n "$f" ]; then
        echo "$f"
    elif grep -aq "^BENCH: $2: failed" "$1" 2>/dev/null; then
        echo failed
    else
        echo n/a
    fi
}

# table TITLE ROW...: ROW is "label|key|target".
table() {
    local row label key target
    echo
    echo "$1"
    echo
    echo "| call | tracesbi | OpenSBI 1.1 | target |"
    echo "|---|---:|---:|---:|"
    shift
    for row in "$@"; do
        IFS='|' read -r label key target <<<"$row"
        echo "| $label | $(cell "$logdir/bench-tracesbi.log" "$key") |" \
             "$(cell "$logdir/bench-opensbi.log" "$key") | $target |"
    done
}

# notes: what each payload said about PMU rows it could not measure.
notes() {
    local fw
    for fw in tracesbi opensbi; do
        sed -n "s/^BENCH: \(pmu[^:]*: .*\(failed\|returned\|not present\|not measured\|only\|no HPM\).*\)/- $fw: \1/p" \
            "$logdir/bench-$fw.log" 2>/dev/null
    done
}

sbi_rows=(
    "base.get_spec_version|base.get_spec_version|≤ 80"
    "base.probe_extension(TIME)|base.probe_extension(TIME)|≤ 80"
    "time.set_timer(far future)|time.set_timer(far future)|≤ 80"
    "ipi.send_ipi(empty mask)|ipi.send_ipi(empty mask)|≤ 80"
    "rfence.remote_fence_i(self)|rfence.remote_fence_i(self)|≤ 160"
    "fwft.get(MISALIGNED_EXC_DELEG)|fwft.get(MISALIGNED_EXC_DELEG)|≤ 80"
    "dbtr.install_triggers (1 execute trigger)|dbtr.install_triggers(1 execute trigger)|—"
    "sse.inject + complete (local event on the calling hart, empty handler)|sse.inject+complete|—"
    "instructions before first S-mode instruction|boot|≤ 1,000,000"
)
pmu_rows=(
    "counter_config_matching (instructions, mask = every HPM counter, CLEAR_VALUE)|pmu.counter_config_matching|—"
    "counter_start (1 HPM counter, SET_INIT_VALUE)|pmu.counter_start|≤ 100"
    "counter_stop (1 running HPM counter)|pmu.counter_stop|≤ 100"
    "counter_start (1 HPM counter, no flags)|pmu.start1.none|≤ 100"
    "counter_start (1 HPM counter, INIT_SNAPSHOT)|pmu.start1.init_snapshot|≤ 100"
    "counter_stop (1 HPM counter, RESET)|pmu.stop1.reset|≤ 100"
    "counter_stop (1 HPM counter, TAKE_SNAPSHOT)|pmu.stop1.snapshot|≤ 100"
    "counter_stop (1 HPM counter, RESET + TAKE_SNAPSHOT)|pmu.stop1.reset_snapshot|≤ 100"
    "counter_start (1 firmware counter, SET_INIT_VALUE)|pmu.start1.fw_init_value|≤ 100"
    "counter_start (1 firmware counter, no flags)|pmu.start1.fw_none|≤ 100"
    "counter_stop (1 firmware counter, no flags)|pmu.stop1.fw_none|≤ 100"
    "counter_stop (1 firmware counter, RESET)|pmu.stop1.fw_reset|≤ 100"
    "counter_fw_read (running firmware counter, SET_TIMER)|pmu.counter_fw_read|≤ 80"
    "stop 8 running counters and get their values, snapshot: counter_stop(TAKE_SNAPSHOT) + read page|pmu.stop8.snapshot|≤ 250"
    "stop 8 running counters and get their values, no snapshot: counter_stop + 8 counter CSRs + scountovf|pmu.stop8.csr|—"
)
report() {
    table "SBI call cost (instructions retired per call, QEMU -icount shift=0, 1 hart)" \
        "${sbi_rows[@]}"
    table "SBI PMU cost (instructions retired per call, QEMU -icount shift=0, -cpu rv64,sscofpmf=true, 1 hart)" \
        "${pmu_rows[@]}"
    echo
    echo "PMU rows: the instret delta across the call (and, for the stop-8 rows, the"
    echo "S-mode reads that follow it) minus an empty window, averaged over 1000 calls."
    echo "Setup and restarts happen outside the windows (tests/target/bench.c)."
    local n
    n=$(notes)
    if [ -n "$n" ]; then
        echo
        echo "Not measured:"
        echo "$n"
    fi
}

mkdir -p build/results
report | tee build/results/bench-sbi.md
exit $status

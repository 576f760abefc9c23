#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs libFuzzer targets for a bounded time or number of executions each
# and prints one PASS:/FAIL: line per target (FAIL names the crash file
# libFuzzer wrote).
#
#   run-fuzz.sh SECONDS|runs=N WORKDIR TARGET[:SEEDDIR[:MAXLEN]]...
#
# MAXLEN bounds the inputs libFuzzer generates (longer seeds are used
# truncated): short inputs run many times faster.
#
# WORKDIR/corpus/NAME keeps the inputs found so far (reused by later runs),
# WORKDIR/artifacts/ receives crash/leak/timeout files.  FUZZ_JOBS targets
# (default 2) run at a time.
set -u
case $1 in
runs=*) bound=(-runs="${1#runs=}") what="${1#runs=} runs" ;;
*)      bound=(-max_total_time="$1") what="$1 s" ;;
esac
work=$2
shift 2
jobs=${FUZZ_JOBS:-2}
mkdir -p "$work/artifacts"

# One target: its PASS:/FAIL: lines go to WORKDIR/NAME.result (targets run
# FUZZ_JOBS at a time, default 2; the lines are printed in the given order).
run_one() {
    local bin=$1 seeds=$2 maxlen=$3 name log rc runs crash
    name=$(basename "$bin")
    mkdir -p "$work/corpus/$name"
    log=$work/$name.log
    # shellcheck disable=SC2086
    "$bin" "${bound[@]}" ${maxlen:+-max_len=$maxlen} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$name-" "$work/corpus/$name" $seeds >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "PASS: fuzz $name: ${runs:-?} runs (bound: $what), no crash"
    else
        crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        # else the newest file of this target's artifact prefix
        [ -z "$crash" ] && crash=$(ls -t "$work/artifacts/$name-"* 2>/dev/null | head -1)
        echo "FAIL: fuzz $name: exit status $rc, crash file ${crash:-none} (log $log)"
        grep -m3 -E "ERROR: |SUMMARY: |runtime error" "$log" | sed 's/^/    /'
    fi
    return $rc
}

names=()
running=0
for spec in "$@"; do
    IFS=: read -r bin seeds maxlen <<<"$spec"
    name=$(basename "$bin")
    names+=("$name")
    rm -f "$work/$name.result"
    run_one "$bin" "$seeds" "$maxlen" >"$work/$name.result" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
failed=0
for name in "${names[@]}"; do
    cat "$work/$name.result"
    grep -q '^PASS: ' "$work/$name.result" || failed=1
done
exit $failed

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs the S-mode test kernel on one firmware in twelve QEMU runs and prints
# the kernel's PASS/FAIL/INFO lines:
#   main    -smp 4, default cpu (with Sstc): every group
#   nosstc  -cpu ...,sstc=false,h=false: TIME, legacy, RFENCE, SUSP, suspend and PMU again
#           (timer wake-ups and set_timer counts without Sstc, HFENCE without H)
#   pmu-icount  -icount, no Sscofpmf: PMU again (exact instruction counts,
#           no overflow interrupt, a zero overflow bitmap)
#   trace-3harts  -smp 3: the trace group again (a register window with room
#           past the last hart's components)
#   tci, tci-icount  -smp 4, without and with -icount: the TCI group (every
#           hart's trace components in every HSM state, first with the other
#           harts never started)
#   tci-absent  -smp 2 with a DT of three harts: the components of the hart
#           that never runs
#   held    tracesbi.trace=...,hold: the components of a hart held in its
#           system reset (tracesbi only; ends by a short timeout)
#   reboot  mode=reboot: cold then warm reboot, then shutdown
#   legacy-shutdown  mode=legacy-shutdown: power off through the legacy
#           shutdown call (EID 0x08)
#   sysfail mode=sysfail: a "system failure" shutdown, which ends QEMU with
#           status 0 as on OpenSBI (tracesbi also says so on the console),
#           and on tracesbi again with tracesbi.sysfail=status: status 3
# Then scripts/kut-verdict.sh: kvm-unit-tests' harness verdicts (PASS, FAIL,
# SKIP) for test programs that end as kvm-unit-tests' do.
# A run that times out or ends without the kernel's done marker adds a FAIL
# line.  On OpenSBI (fw=opensbi) the kernel prints its known deviations as
# INFO lines, which count neither way, and test names start with
# target-opensbi/.
#
# usage: run-target-tests.sh tracesbi|opensbi FIRMWARE.elf KERNEL.elf
#        run-target-tests.sh diff TRACESBI.elf OPENSBI.elf KERNEL.elf
# The diff form runs both and lists every test whose outcome differs (known
# deviations included), one "DIFF:" line each; it is a report, not a suite.
set -u
cd "$(dirname "$0")/.."
if [ $# -eq 4 ] && [ "$1" = diff ]; then
    out=build/logs/target
    mkdir -p "$out"
    "$0" tracesbi "$2" "$4" >"$out/diff-tracesbi.txt"
    "$0" opensbi "$3" "$4" >"$out/diff-opensbi.txt"
    awk '
        /^(PASS|FAIL|INFO): / {
            split($0, f, ": "); name = f[2]; sub(/^target(-opensbi)?\//, "", name)
            outcome = f[1]; if (outcome == "INFO") outcome = "deviation (not run)"
            if (FILENAME ~ /tracesbi/) t[name] = outcome; else o[name] = outcome
            if (!(name in seen)) { seen[name] = 1; order[n++] = name }
        }
        END {
            for (i = 0; i < n; i++) {
                k = order[i]
                if (t[k] != o[k])
                    printf "DIFF: %s: tracesbi %s, OpenSBI %s\n", k,
                           (k in t) ? t[k] : "absent", (k in o) ? o[k] : "absent"
            }
        }' "$out/diff-tracesbi.txt" "$out/diff-opensbi.txt"
    exit 0
fi
[ $# -eq 3 ] || { echo "usage: $0 tracesbi|opensbi FIRMWARE KERNEL | diff TRACESBI OPENSBI KERNEL" >&2; exit 2; }
fw_name=$1 fw=$2 kernel=$3
TIMEOUT=${TARGET_TIMEOUT:-60}
CPU_SSTC="rv64,sscofpmf=true"
CPU_NOSSTC="rv64,sscofpmf=true,sstc=false,h=false"
CPU_NOSSCOFPMF="rv64,sscofpmf=false"
logdir=build/logs/target
mkdir -p "$logdir"
status=0
prefix=target
[ "$fw_name" = opensbi ] && prefix=target-opensbi

for f in "$fw" "$kernel"; do
    if [ ! -f "$f" ]; then
        echo "FAIL: $prefix/setup: $f does not exist"
        exit 1
    fi
done

# run NAME SMP CPU APPEND DONE_LINE [QEMU-RUN OPTIONS]: one QEMU run; echoes
# its result lines.
run() {
    local name=$1 smp=$2 cpu=$3 append=$4 done_line=$5
    shift 5
    local log=$logdir/target-$fw_name-$name.log rc
    scripts/qemu-run.sh --bios "$fw" --kernel "$kernel" --smp "$smp" --cpu "$cpu" \
        --append "$append" --timeout "$TIMEOUT" "$@" >"$log.raw" 2>&1
    rc=$?
    tr -d '\r' <"$log.raw" >"$log"
    rm -f "$log.raw"
    grep -aE '^(PASS|FAIL|INFO): ' "$log" | sed -E "s#^(PASS|FAIL|INFO): target/#\1: $prefix/#"
    grep -aq '^FAIL: ' "$log" && status=1
    if ! grep -aqx "$done_line" "$log"; then
        status=1
        local last
        last=$(grep -a '^RUN: ' "$log" | tail -n 1 | sed 's/^RUN: //')
        last=${last:+, last test started: $last}
        if [ "$rc" -eq 124 ]; then
            echo "FAIL: $prefix/run-$name: QEMU timed out after ${TIMEOUT}s without \"$done_line\"$last (log: $log)"
        else
            echo "FAIL: $prefix/run-$name: QEMU exited ($rc) without \"$done_line\"$last (log: $log)"
        fi
        tail -n 5 "$log" | sed 's/^/    | /'
    elif [ "$rc" -ne 0 ]; then
        # The kernel's last act is an SRST shutdown, which ends QEMU with 0.
        status=1
        echo "FAIL: $prefix/srst/shutdown-$name: after \"$done_line\" QEMU ended with status $rc (124: timeout, the shutdown did not power off)"
    else
        echo "PASS: $prefix/srst/shutdown-$name"
    fi
}

fwarg="fw=$fw_name"
run main 4 "$CPU_SSTC" "$fwarg expect-sstc=1 expect-sscofpmf=1" "DONE: target-tests"
run nosstc 4 "$CPU_NOSSTC" \
    "$fwarg expect-sstc=0 expect-sscofpmf=1 groups=time,legacy,rfence,susp,suspend,pmu variant=nosstc-noh" \
    "DONE: target-tests nosstc-noh"
run pmu-icount 4 "$CPU_NOSSCOFPMF" \
    "$fwarg expect-sscofpmf=0 icount=1 groups=pmu variant=icount-nosscofpmf" \
    "DONE: target-tests icount-nosscofpmf" --icount
run trace-3harts 3 "$CPU_SSTC" "$fwarg groups=trace variant=3harts" "DONE: target-tests 3harts"
# Every hart's trace components from the boot hart in every HSM state of
# their owners, first before any hart_start; under -icount the boot hart
# reaches S-mode before the other harts have booted.
run tci 4 "$CPU_SSTC" "$fwarg groups=tci variant=smp4" "DONE: target-tests smp4"
run tci-icount 4 "$CPU_SSTC" "$fwarg groups=tci icount=1 variant=icount" \
    "DONE: target-tests icount" --icount
# A hart the DT lists that never runs (a three-hart DT on two harts): the
# firmware boots without it after a second, its components answer all the
# same.
absent_dtb=$logdir/target-three-harts.dtb
scripts/qemu-run.sh --bios none --smp 3 --cpu "$CPU_SSTC" -- -machine dumpdtb="$absent_dtb" \
    >/dev/null 2>&1
run tci-absent 2 "$CPU_SSTC" "$fwarg groups=tci tests=absent_hart absent-hart=2 variant=absent" \
    "DONE: target-tests absent" -- -dtb "$absent_dtb"
if [ "$fw_name" = tracesbi ]; then
    if grep -aq '^WARNING *: 1 of 3 harts did not boot' "$logdir/target-$fw_name-tci-absent.log"; then
        echo "PASS: $prefix/tci-absent/boot_warning"
    else
        status=1
        echo "FAIL: $prefix/tci-absent/boot_warning: no \"1 of 3 harts did not boot\" warning in the banner"
    fi
fi
# CTR's draft v0.1.4 layout, chosen by the firmware's boot option.
run ctr-draft 1 "$CPU_SSTC" "$fwarg tracesbi.ctr=draft groups=ctr variant=draft" \
    "DONE: target-tests draft"
run reboot 2 "$CPU_SSTC" "$fwarg mode=reboot" "DONE: reboot-test"
run legacy-shutdown 2 "$CPU_SSTC" "$fwarg mode=legacy-shutdown" "DONE: legacy-shutdown"

# The trace boot option's hold (tracesbi.trace=...,hold, for `make trace`):
# a hart that asks for a system reset stays held there, and the other harts
# go on accessing its components.  The kernel's own shutdown at the end then
# holds the machine too, so this run ends by its (short) timeout.
if [ "$fw_name" = tracesbi ]; then
    held_log=$logdir/target-$fw_name-held.log
    scripts/qemu-run.sh --bios "$fw" --kernel "$kernel" --smp 2 --cpu "$CPU_SSTC" \
        --append "$fwarg tracesbi.trace=harts=2,hold groups=tci tests=held_hart held-hart=1 variant=held" \
        --timeout 8 >"$held_log.raw" 2>&1
    rc=$?
    tr -d '\r' <"$held_log.raw" >"$held_log"
    rm -f "$held_log.raw"
    grep -aE '^(PASS|FAIL|INFO): ' "$held_log"
    grep -aq '^FAIL: ' "$held_log" && status=1
    if ! grep -aqx 'DONE: target-tests held' "$held_log"; then
        status=1
        echo "FAIL: $prefix/run-held: no \"DONE: target-tests held\" (QEMU status $rc, log: $held_log)"
    elif [ "$rc" -ne 124 ] || ! grep -aq '^tracesbi: trace captured, holding' "$held_log"; then
        status=1
        echo "FAIL: $prefix/srst/shutdown-held: the machine was not held (QEMU status $rc, log: $held_log)"
    else
        echo "PASS: $prefix/srst/shutdown-held"
    fi
fi

# The failure shutdown: only the exit status says whether it worked.
# sysfail NAME EXTRA-BOOTARGS WANT-STATUS
sysfail() {
    local name=$1 extra=$2 want=$3 log=$logdir/target-$fw_name-$1.log rc
    scripts/qemu-run.sh --bios "$fw" --kernel "$kernel" --smp 1 --cpu "$CPU_SSTC" \
        --append "$fwarg mode=sysfail${extra:+ $extra}" --timeout "$TIMEOUT" >"$log" 2>&1
    rc=$?
    if ! grep -aq '^DONE: sysfail-test' "$log" || grep -aq '^FAIL: ' "$log"; then
        status=1
        echo "FAIL: $prefix/srst/${name}_exit_status: the kernel did not reach the failure shutdown (QEMU status $rc, log: $log)"
    elif [ "$rc" -ne "$want" ]; then
        status=1
        echo "FAIL: $prefix/srst/${name}_exit_status: QEMU ended with status $rc, expected $want (124: timeout; log: $log)"
    else
        echo "PASS: $prefix/srst/${name}_exit_status"
    fi
    if [ "$fw_name" = tracesbi ]; then
        if grep -aq '^tracesbi: system failure shutdown requested by S-mode' "$log"; then
            echo "PASS: $prefix/srst/${name}_console_line"
        else
            status=1
            echo "FAIL: $prefix/srst/${name}_console_line: no \"tracesbi: system failure shutdown\" line (log: $log)"
        fi
    fi
}
sysfail sysfail "" 0
[ "$fw_name" = tracesbi ] && sysfail sysfail-status tracesbi.sysfail=status 3

scripts/kut-verdict.sh "$fw_name" "$fw" "$kernel" || status=1
exit $status

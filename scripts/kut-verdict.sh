#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The verdict kvm-unit-tests' harness (run_tests.sh on QEMU) gives a test
# program's run, applied to runs of the S-mode test kernel in mode=exit-code,
# which ends as a kvm-unit-tests program does: "EXIT: STATUS=<code << 1 | 1>"
# on the console, then an SRST shutdown, "system failure" for a non-zero
# code.  Checks that the firmware gets the verdicts OpenSBI gets (passed:
# PASS, failed: FAIL, every test skipped: SKIP) and the QEMU exit statuses
# docs/SBI.md "SRST" gives; on tracesbi also with tracesbi.sysfail=status,
# where a shell sees the failure in QEMU's status (3) and the harness then
# reports an all-skipped run as FAIL, which is that option's price.
#
# The harness's rules, as this script applies them (kvm-unit-tests
# scripts/arch-run.bash, vmm.bash, runtime.bash; reimplemented here):
#   QEMU status 0: the program did not end through a debug-exit device, so
#       the first "EXIT: STATUS=n" line decides: n = 1 is PASS, n = 77 SKIP,
#       any other n FAIL; no such line is FAIL.
#   QEMU status 1: a debug-exit of code 0: PASS (with nothing but warnings
#       on stderr, which these runs do not check).
#   77: SKIP.  Anything else (3, 124 for a timeout, 128+ for a signal): FAIL.
#
# usage: kut-verdict.sh tracesbi|opensbi FIRMWARE.elf TARGET_TESTS.elf
set -u
cd "$(dirname "$0")/.."
fw_name=$1 fw=$2 kernel=$3
TIMEOUT=${TARGET_TIMEOUT:-60}
logdir=build/logs/target
mkdir -p "$logdir"
prefix=target
[ "$fw_name" = opensbi ] && prefix=target-opensbi
status=0

# verdict QEMU-STATUS LOG: PASS, SKIP or FAIL.
verdict() {
    local rc=$1 log=$2 n
    if [ "$rc" -eq 0 ]; then
        n=$(sed -n 's/^EXIT: STATUS=\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
        rc=${n:-1}
        [ "$rc" -eq 1 ] && rc=0
    elif [ "$rc" -eq 1 ]; then
        rc=0
    fi
    case $rc in
    0) echo PASS ;;
    77) echo SKIP ;;
    *) echo FAIL ;;
    esac
}

# check NAME CODE EXTRA-BOOTARGS WANT-VERDICT WANT-QEMU-STATUS
check() {
    local name=$1 code=$2 extra=$3 want=$4 want_rc=$5
    local log=$logdir/target-$fw_name-kut-$name.log rc got
    scripts/qemu-run.sh --bios "$fw" --kernel "$kernel" --smp 1 --cpu rv64,sscofpmf=true \
        --append "mode=exit-code code=$code${extra:+ $extra}" --timeout "$TIMEOUT" \
        >"$log.raw" 2>&1
    rc=$?
    tr -d '\r' <"$log.raw" >"$log"
    rm -f "$log.raw"
    if ! grep -aqx "DONE: exit-code-test $code" "$log" || grep -aq '^FAIL: ' "$log"; then
        status=1
        echo "FAIL: $prefix/kut-harness/$name: the kernel did not reach its shutdown (QEMU status $rc, log: $log)"
        return
    fi
    got=$(verdict "$rc" "$log")
    if [ "$got" = "$want" ] && [ "$rc" -eq "$want_rc" ]; then
        echo "PASS: $prefix/kut-harness/$name"
    else
        status=1
        echo "FAIL: $prefix/kut-harness/$name: harness verdict $got with QEMU status $rc, expected $want with status $want_rc (log: $log)"
    fi
}

for f in "$fw" "$kernel"; do
    [ -f "$f" ] || { echo "FAIL: $prefix/kut-harness/setup: $f does not exist"; exit 1; }
done
# The default: every shutdown ends QEMU with 0, the console line decides.
check passed 0 "" PASS 0
check failed 1 "" FAIL 0
check all-skipped 38 "" SKIP 0
if [ "$fw_name" = tracesbi ]; then
    check status-passed 0 tracesbi.sysfail=status PASS 0
    check status-failed 1 tracesbi.sysfail=status FAIL 3
    check status-all-skipped 38 tracesbi.sysfail=status FAIL 3
    check poweroff-all-skipped 38 tracesbi.sysfail=poweroff SKIP 0
    # An unknown value warns and keeps the default.
    check bad-option-all-skipped 38 tracesbi.sysfail=bogus SKIP 0
    log=$logdir/target-$fw_name-kut-bad-option-all-skipped.log
    if grep -aq '^WARNING *: tracesbi.sysfail: unknown value (poweroff or status)$' "$log"; then
        echo "PASS: $prefix/kut-harness/bad-option-warning"
    else
        status=1
        echo "FAIL: $prefix/kut-harness/bad-option-warning: no banner WARNING for tracesbi.sysfail=bogus (log: $log)"
    fi
fi
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs each test suite given on the command line (its rule `make
# suite-<suite>`), counts its result lines and prints the one summary line
# of `make test`.  With --one SUITE (what `make test-<suite>` runs) the
# suite's output goes to the terminal as well as to its log, and the
# summary line is that suite's own.
#
# Contract for a suite: `make suite-<suite>` prints one line per test case,
# starting with "PASS: " or "FAIL: ".  A suite that exits non-zero without
# printing any FAIL line counts as one failure (it crashed or did not build).
set -u
cd "$(dirname "$0")/.."
logdir=${TEST_LOG_DIR:-build/logs}
mkdir -p "$logdir"
stream=0
if [ "${1:-}" = --one ]; then
    stream=1
    shift
fi
total_pass=0
total_fail=0
for suite in "$@"; do
    log=$logdir/test-$suite.log
    echo "== suite $suite"
    start=$(date +%s)
    if [ "$stream" -eq 1 ]; then
        make --no-print-directory "suite-$suite" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
    else
        make --no-print-directory "suite-$suite" >"$log" 2>&1
        rc=$?
    fi
    pass=$(grep -c '^PASS: ' "$log")
    fail=$(grep -c '^FAIL: ' "$log")
    # Each FAIL line with the indented detail lines under it (at most 8):
    # what a CI log excerpt needs to tell why.
    awk '/^FAIL: /{n=8; print; next} n>0 && /^[ \t]/{n--; print; next} {n=0}' "$log" |
        sed 's/^/   /'
    if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        fail=1
        echo "   suite $suite exited with status $rc and reported no failure; last lines of $log:"
        tail -n 15 "$log" | sed 's/^/   | /'
    fi
    echo "   suite $suite: $pass ok, $fail failing ($(( $(date +%s) - start )) s, log in $log)"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `make test-ntrace`: generates (or takes from the cache) the trace of every
# corpus program, tests the corpus tooling, then runs the round trip, the
# firmware-mirror features (ingress.py: privilege windows, filters,
# --wrapped, --symbols), the malformed-input cases of the tool and what
# people read (views.py: listing, profile, pcseq export, the flame graph and
# the timeline in chromium).
#
#   run-suite.sh NTRACE_TOOL BUILD_DIR PROG.elf...
#
# A program whose trace cannot be produced is one FAIL line; the others are
# still tested.
set -u
cd "$(dirname "$0")/../.."
tool=$1
build=$2
shift 2
failed=0
traces=()
for elf in "$@"; do
    pcs=${elf%.elf}.pcs
    name="$(basename "$(dirname "$elf")") $(basename "$elf" .elf)"
    if tests/ntrace/gen-trace.sh "$elf" "$pcs" 2>"$pcs.err" &&
            python3 tests/ntrace/check-pcs.py --elf "$elf" --min 20000 "$pcs" \
                >"$pcs.check" 2>"$pcs.err"; then
        echo "PASS: ntrace trace $name: $(sed 's/^[^:]*: //' "$pcs.check")"
        traces+=("$pcs")
    else
        echo "FAIL: ntrace trace $name: $(tail -1 "$pcs.err")"
        failed=1
    fi
    rm -f "$pcs.err" "$pcs.check"
done
tests/ntrace/selftest.sh "$build" || failed=1
tests/ntrace/roundtrip.sh "$tool" "$build/roundtrip" "${traces[@]}" || failed=1
python3 tests/ntrace/ingress.py "$tool" "$build/ingress" "${traces[@]}" || failed=1
tests/ntrace/malformed.sh "$tool" "$build" "$build/roundtrip" || failed=1
python3 tests/ntrace/views.py "$tool" "$build/views" "${traces[@]}" || failed=1
exit $failed

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs one cmocka test binary with TAP output and turns each result into the
# PASS:/FAIL: lines that scripts/run-tests.sh counts.  A binary that dies
# (sanitizer report, signal) without reporting a failure is one FAIL.
set -u
bin=$1
name=$(basename "$bin")
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
rc=$?
printf '%s\n' "$out" | awk -v n="$name" '
    /^ok [0-9]+ - /     { sub(/^ok [0-9]+ - /, "");     print "PASS: " n "/" $0; next }
    /^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "FAIL: " n "/" $0; bad=1; next }
    { print "   " $0 }'
if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok '; then
    echo "FAIL: $name (exit status $rc without a failed test: crash or sanitizer report)"
fi
exit $rc

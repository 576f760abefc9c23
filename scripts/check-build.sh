#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The build system's promises to its users (README "The two commands",
# "Options", "License"), checked by the lint suite:
#   build/spdx-everywhere        every tracked source, script and build file
#                                carries an SPDX-License-Identifier line
#   build/goals-install-deps     a top-level goal (make run, make fit-image,
#                                make) checks the Debian packages first and
#                                installs them when one is missing
#   build/quiet-by-default       a build prints one short line per step;
#   build/verbose-with-v1        V=1 prints the whole commands
#   build/suite-summary-line     make test-<suite> ends with its own
#                                "N passed, M failed" line and fails when
#                                the suite does
set -u
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass() { echo "PASS: build/$1"; }
fail() { echo "FAIL: build/$1: $2"; failed=1; }
failed=0
# Each make below is a top-level one, as a user's: not a sub-make of the
# suite that runs this script.
unset MAKELEVEL MAKEFLAGS MFLAGS

# ---- SPDX ----
missing=$(git ls-files | grep -E '\.(c|h|S|ld|py|sh|mk|dts|dtsi)$|^Makefile$|^\.ci/run$' |
          while read -r f; do head -n 5 "$f" | grep -q 'SPDX-License-Identifier' || echo "$f"; done)
if [ -z "$missing" ]; then
    pass spdx-everywhere
else
    fail spdx-everywhere "no SPDX-License-Identifier in: $(echo "$missing" | head -n 5 | tr '\n' ' ')"
fi

# ---- the package check before any goal ----
# A stand-in for scripts/deps.sh that logs its calls; "check" fails when
# $work/missing exists, as when a package is not installed.
cat >"$work/deps.sh" <<EOF
#!/bin/sh
echo "\$1" >>"$work/deps.calls"
[ "\$1" = check ] && [ -e "$work/missing" ] && exit 1
exit 0
EOF
chmod +x "$work/deps.sh"
goals_ok=1
for goal in run fit-image all; do
    rm -f "$work/deps.calls"
    touch "$work/missing"
    make -n -s DEPS_SH="$work/deps.sh" BUILD="$work/build" "$goal" >/dev/null 2>&1
    calls=$(tr '\n' ' ' <"$work/deps.calls" 2>/dev/null)
    if [ "$calls" != "check install " ]; then
        fail goals-install-deps "make $goal with a package missing called deps.sh with: '${calls}' (want check, then install)"
        goals_ok=0
    fi
done
rm -f "$work/missing" "$work/deps.calls"
make -n -s DEPS_SH="$work/deps.sh" BUILD="$work/build" run >/dev/null 2>&1
calls=$(tr '\n' ' ' <"$work/deps.calls" 2>/dev/null)
if [ "$calls" != "check " ]; then
    fail goals-install-deps "make run with every package there called deps.sh with: '${calls}' (want check only)"
    goals_ok=0
fi
[ "$goals_ok" -eq 1 ] && pass goals-install-deps

# ---- quiet and verbose builds (the ntrace host tool: a few seconds) ----
make NO_DEPS_CHECK=1 BUILD="$work/quiet" "$work/quiet/tools/ntrace" >"$work/quiet.log" 2>&1
long=$(awk 'length($0) > 120' "$work/quiet.log" | head -n 1)
if ! grep -q '^  HOSTCC   .*tools/ntrace$' "$work/quiet.log"; then
    fail quiet-by-default "no '  HOSTCC   .../tools/ntrace' line: $(head -n 3 "$work/quiet.log" | tr '\n' '|')"
elif [ -n "$long" ]; then
    fail quiet-by-default "a line of ${#long} characters: ${long:0:100}..."
else
    pass quiet-by-default
fi
make NO_DEPS_CHECK=1 V=1 BUILD="$work/verbose" "$work/verbose/tools/ntrace" >"$work/verbose.log" 2>&1
if grep -q "^gcc .* -o $work/verbose/tools/ntrace" "$work/verbose.log" &&
   ! grep -q '^  HOSTCC' "$work/verbose.log"; then
    pass verbose-with-v1
else
    fail verbose-with-v1 "V=1 did not print the compiler command: $(head -n 2 "$work/verbose.log" | cut -c1-100 | tr '\n' '|')"
fi

# ---- a suite run alone ends with its own summary line ----
# The fit suite (about a second once the firmware is built).
TEST_LOG_DIR="$work/logs" make --no-print-directory NO_DEPS_CHECK=1 test-fit >"$work/fit.log" 2>&1
rc=$?
last=$(tail -n 1 "$work/fit.log")
want=$(grep -c '^PASS: ' "$work/fit.log")
ok=0
if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]] && [ "${BASH_REMATCH[1]}" -eq "$want" ]; then
    # The exit status agrees with the failure count.
    if [ "${BASH_REMATCH[2]}" -eq 0 ]; then [ "$rc" -eq 0 ] && ok=1; else [ "$rc" -ne 0 ] && ok=1; fi
fi
if [ "$ok" -eq 1 ]; then
    pass suite-summary-line
else
    fail suite-summary-line "make test-fit ended with '$last' (status $rc, $want PASS lines)"
fi
exit "$failed"

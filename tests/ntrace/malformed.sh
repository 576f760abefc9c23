#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Malformed input to the ntrace tool: a clear error with its position, never
# a crash (exit status >= 126 or a signal).
#
#   malformed.sh NTRACE_TOOL CORPUS_DIR ROUNDTRIP_DIR
#
# Uses the corpus program "sort" and the .nex files roundtrip.sh left in
# ROUNDTRIP_DIR.  Prints one PASS:/FAIL: line per case.
set -u
tool=$1
corpus=$2
rtdir=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntrace-malformed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

# run NAME EXPECTED_STATUS PATTERN CMD...: the command must exit with the
# status and print PATTERN (grep -E) on stderr.
run() {
    local name=$1 want=$2 pattern=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -ne "$want" ]; then
        fail "$name: exit status $rc, expected $want ($(head -c 150 "$tmp/err"))"
    elif ! grep -qE "$pattern" "$tmp/err"; then
        fail "$name: no message matching '$pattern' ($(head -c 150 "$tmp/err"))"
    else
        pass "$name ($(grep -m1 -E "$pattern" "$tmp/err" | cut -c1-90))"
    fi
}

for x in rv64 rv32; do
    elf=$corpus/$x/sort.elf
    pcs=$corpus/$x/sort.pcs
    nex=$rtdir/sort-$x-htm.nex
    if [ ! -s "$nex" ]; then
        fail "ntrace malformed $x: $nex missing (round trip did not run)"
        continue
    fi
    # An instruction removed: the encoder must name the line it cannot explain.
    awk 'NR == 500 { next } { print }' "$pcs" >"$tmp/drop.pcs"
    run "ntrace malformed $x: encode rejects an unexplained transition" 1 \
        "drop\\.pcs:499: " "$tool" encode --elf "$elf" --pcs "$tmp/drop.pcs" --out "$tmp/x.nex"
    printf '80000000\nnot-a-pc\n' >"$tmp/syntax.pcs"
    run "ntrace malformed $x: encode rejects a syntax error" 1 \
        "syntax\\.pcs:2:" "$tool" encode --elf "$elf" --pcs "$tmp/syntax.pcs" --out "$tmp/x.nex"
    # Cut inside a message: the last byte kept must not end a message (MSEO 11).
    cut=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
n = len(d) // 2
while d[n - 1] & 3 == 3:
    n += 1
print(n)' "$nex")
    head -c "$cut" "$nex" >"$tmp/trunc.nex"
    run "ntrace malformed $x: decode of a stream cut inside a message" 1 \
        "byte offset [0-9]+: input ends inside a message" \
        "$tool" decode --elf "$elf" "$tmp/trunc.nex" --out "$tmp/x.pcs"
    # No sync message at all: the stream without its first message (the
    # only sync message of the htm round trip): nothing can be decoded.
    python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
n = 0
while d[n] & 3 != 3:
    n += 1
open(sys.argv[2], "wb").write(d[n + 1:])' "$nex" "$tmp/nosync.nex"
    run "ntrace malformed $x: decode of a stream without any sync message" 1 \
        "byte offset [0-9]+: no sync message in the stream" \
        "$tool" decode --elf "$elf" "$tmp/nosync.nex" --out "$tmp/x.pcs"
    # Not N-Trace at all: the ELF file itself.
    run "ntrace malformed $x: decode of non-N-Trace bytes" 1 "byte offset [0-9]+: " \
        "$tool" decode --elf "$elf" "$elf" --out "$tmp/x.pcs"
    run "ntrace malformed $x: dump of non-N-Trace bytes" 1 "byte offset [0-9]+: " \
        "$tool" dump "$elf"
    # Decoded with the wrong mode: errors, not a crash.
    run "ntrace malformed $x: HTM stream decoded as BTM" 1 "byte offset [0-9]+: " \
        "$tool" decode --elf "$elf" "$nex" --out "$tmp/x.pcs" --mode btm
    # Privilege tokens: a wrong one, and a line without one among lines with one.
    printf '80000000 S\n80000004 X\n' >"$tmp/priv.pcs"
    run "ntrace malformed $x: encode rejects an unknown privilege token" 1 \
        "priv\\.pcs:2:10: expected marker 'exc' or 'int' or a privilege" \
        "$tool" encode --elf "$elf" --pcs "$tmp/priv.pcs" --out "$tmp/x.nex"
    awk 'NR == 1 { print $0 " S"; next } { print }' "$pcs" >"$tmp/mixed.pcs"
    run "ntrace malformed $x: encode rejects privilege tokens on some lines only" 1 \
        "mixed\\.pcs:2: no privilege token" \
        "$tool" encode --elf "$elf" --pcs "$tmp/mixed.pcs" --out "$tmp/x.nex"
    # A wrapped buffer that is no N-Trace at all: errors with offsets.
    run "ntrace malformed $x: decode --wrapped of non-N-Trace bytes" 1 "byte offset [0-9]+: " \
        "$tool" decode --elf "$elf" "$elf" --wrapped --out "$tmp/x.pcs"
    # Symbols from a truncated ELF file.
    head -c 3000 "$elf" >"$tmp/cut.elf"
    run "ntrace malformed $x: decode --symbols with a truncated ELF" 1 "cut\\.elf: " \
        "$tool" decode --elf "$tmp/cut.elf" "$nex" --symbols --out "$tmp/x.pcs"
    # A stream decoded against the wrong program.
    other=$corpus/$x/crc32.elf
    run "ntrace malformed $x: stream decoded against another program" 1 "byte offset [0-9]+: " \
        "$tool" decode --elf "$other" "$nex" --out "$tmp/x.pcs"
done
exit $failed

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Tests of scripts/trace-ground-truth.py (the ground truth of the software
# trace encoder) and scripts/trace-compare.py.
#
#   tests/trace/selftest-ground-truth.sh [-k] [CASE...]
#
#   - every tests/trace/data/gt/*.case (or the CASEs named): a hand-written
#     QEMU log, in the short notation below, through the extractor; the
#     output per hart or the error message must be the expected one;
#   - trace-compare.py on hand-written ground truth and decoded traces: every
#     option, and the error cases;
#   - smoke: smoke-fw.S + smoke-payload.S run on QEMU virt (2 harts) with
#     the logging options of the real test; the extractor must give
#     smoke.expect, and trace-compare its session window.
# One "PASS: name" / "FAIL: name" line per case; exit status 1 on any
# failure.  -k keeps the work directory.  Needs python3,
# riscv64-unknown-elf-gcc and qemu-system-riscv64 (make deps).
#
# .case files: '#' comment lines (the first one names the case), then
#   @args WORDS       extra extractor arguments (default: --firmware-range
#                     80000000-80080000 --elf synth.elf)
#   @image synth32    use the RV32 image synth32.elf instead of synth.elf
#   @log              the log, one short line per QEMU line:
#       T CPU PC P        Trace line, P = U S M (FLAGS 0/1/3) or a digit
#       TN N CPU PC P     N such Trace lines
#       M CPU N [PC]      N M-mode Trace lines from PC (default 80000100)
#       E HART ASYNC CAUSE EPC   riscv_cpu_do_interrupt line (hex)
#       STOP PC / IO PC   Stopped execution / cpu_io_recompile line
#       W DIGITS          width of the pc fields (default 16; 8 for RV32)
#       RAW TEXT          TEXT as is ("RAW" alone: an empty line)
#   @hart H           expected P.hart<H>.pcs ("repeat N" ... "end" repeats)
#   @error TEXT       expected failure: exit status 1, TEXT on stderr
#   @stderr TEXT      TEXT expected on stderr of a successful run
#   @stdout TEXT      the whole stdout of a successful run (default: none)
# Everything after '#' on a line is a comment.
set -u
cd "$(dirname "$0")/../.." || exit 1
data=tests/trace/data
gt=scripts/trace-ground-truth.py
cmpt=scripts/trace-compare.py
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace-selftest.XXXXXX")
if [ $keep = 1 ]; then echo "work directory: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
failed=0
pass() { echo "PASS: $*"; }
short() { sed -e "s|$tmp/[a-z0-9-]*/||g" -e 's/^trace-compare: //' "$@" | head -1 | cut -c1-110; }
fail() { echo "FAIL: $*"; failed=1; }

CC_RV=${CC_RV:-riscv64-unknown-elf-gcc}
LDFLAGS_RV=(-nostdlib "-Wl,-N" "-Wl,--no-warn-rwx-segments")
build() {   # out.elf link-address march mabi src [ld args]
    local out=$1 addr=$2 march=$3 mabi=$4 src=$5
    shift 5
    "$CC_RV" -march="$march" -mabi="$mabi" "${LDFLAGS_RV[@]}" -Wl,-Ttext="$addr" \
        "$@" -o "$out" "$src" 2>"$tmp/cc.err"
}
if ! build "$tmp/synth.elf" 0x80200000 rv64imac_zicsr lp64 "$data/synth.S" ||
        ! build "$tmp/synth32.elf" 0x80200000 rv32imac_zicsr ilp32 "$data/synth32.S"; then
    fail "trace selftest: building the test images: $(head -3 "$tmp/cc.err")"
    exit 1
fi

# Short log notation -> QEMU 7.2 log lines.
expand_log() {
    awk '
    function pad(x) { x = tolower(x); while (length(x) < W) x = "0" x; return x }
    function trace(cpu, pc, p,   f) {
        f = (p == "U") ? 0 : (p == "S") ? 1 : (p == "M") ? 3 : p
        printf "Trace %s: 0x7f00c0001000 [%s/%s/0020900%s/ff020201] \n", cpu, pad("0"), pad(pc), f
    }
    BEGIN { W = 16 }
    { sub(/[ \t]*#.*/, "") }
    $1 == "" { next }
    $1 == "W" { W = $2; next }
    $1 == "T" { trace($2, $3, $4); next }
    $1 == "TN" { for (i = 0; i < $2; i++) trace($3, $4, $5); next }
    $1 == "M" {     # the last 4 hex digits count up (no carry beyond)
        pc = ($4 == "") ? "80000100" : tolower($4)
        hi = substr(pc, 1, length(pc) - 4); lo = 0
        for (k = length(pc) - 3; k <= length(pc); k++)
            lo = lo * 16 + index("0123456789abcdef", substr(pc, k, 1)) - 1
        for (i = 0; i < $3; i++) trace($2, hi sprintf("%04x", lo + 4 * i), "M")
        next
    }
    $1 == "E" {
        printf "riscv_cpu_do_interrupt: hart:%s, async:%s, cause:%s, epc:0x%s, tval:0x%s, desc=x\n", $2, $3, pad($4), pad($5), pad("0")
        next
    }
    $1 == "STOP" { printf "Stopped execution of TB chain before 0x7f00c0001000 [%s] \n", pad($2); next }
    $1 == "IO" { printf "cpu_io_recompile: rewound execution of TB to %s\n", pad($2); next }
    $1 == "RAW" { sub(/^RAW ?/, ""); print; next }
    { print "expand_log: bad line: " $0 > "/dev/stderr"; exit 1 }
    '
}

# Expected-output notation: comments, blank lines, "repeat N" ... "end".
expand_expect() {
    awk '
    { sub(/[ \t]*#.*/, ""); sub(/[ \t]+$/, "") }
    $0 == "" { next }
    $1 == "repeat" { n = $2; body = ""; inrep = 1; next }
    $1 == "end" { for (i = 0; i < n; i++) printf "%s", body; inrep = 0; next }
    inrep { body = body $0 "\n"; next }
    { print }
    '
}

# Split a .case/.expect file into DIR/{args,image,log,error,stderr,hart<H>}.
split_case() {  # file dir
    mkdir -p "$2"
    awk -v d="$2" '
    /^@/ {
        sect = $1; rest = $0; sub(/^@[a-z]+ ?/, "", rest)
        if (sect == "@args") { print rest > (d "/args"); sect = ""; next }
        if (sect == "@image") { print rest > (d "/image"); sect = ""; next }
        if (sect == "@error") { print rest > (d "/error"); sect = ""; next }
        if (sect == "@stderr") { print rest > (d "/stderr"); sect = ""; next }
        if (sect == "@stdout") { print rest > (d "/stdout.want"); sect = ""; next }
        if (sect == "@log") { out = d "/log.short"; printf "" > out; next }
        if (sect == "@hart") { out = d "/hart" rest; printf "" > out; next }
        print "split_case: unknown section " sect > "/dev/stderr"; exit 1
    }
    sect == "" && /^#/ { next }
    sect != "" { print > out }
    ' "$1"
}

# ---- extractor: hand-written logs --------------------------------------------
run_case() {    # case-file
    local f=$1 name d args image out h want
    name="$(basename "$f" .case): $(sed -n '1s/^# *//p' "$f")"
    d=$tmp/case/$(basename "$f" .case)
    rm -rf "$d"
    if ! split_case "$f" "$d" || ! expand_log <"$d/log.short" >"$d/log"; then
        fail "ground truth $name: bad case file"
        return
    fi
    args=$(cat "$d/args" 2>/dev/null)
    image=$(cat "$d/image" 2>/dev/null || echo synth)
    out=$d/out
    # shellcheck disable=SC2086
    python3 "$gt" --firmware-range 80000000-80080000 --elf "$tmp/$image.elf" \
        $args --out-prefix "$out" "$d/log" >"$d/stdout" 2>"$d/stderr.got"
    local rc=$?
    if [ -f "$d/error" ]; then
        want=$(cat "$d/error")
        if [ $rc -ne 1 ]; then
            fail "ground truth $name: exit status $rc, expected 1 ($want)"
        elif ! grep -qF -- "$want" "$d/stderr.got"; then
            fail "ground truth $name: expected error '$want', got: $(cat "$d/stderr.got")"
        elif ls "$out".hart*.pcs* >/dev/null 2>&1; then
            fail "ground truth $name: output left behind after an error"
        else
            pass "ground truth $name ($(sed 's/^trace-ground-truth: [^:]*: //' "$d/stderr.got" | cut -c1-110))"
        fi
        return
    fi
    if [ $rc -ne 0 ]; then
        fail "ground truth $name: exit status $rc: $(cat "$d/stderr.got")"
        return
    fi
    local ok=1
    for h in "$d"/hart*; do
        h=${h##*/hart}
        expand_expect <"$d/hart$h" >"$d/expect$h"
        if ! cmp -s "$d/expect$h" "$out.hart$h.pcs"; then
            ok=0
            fail "ground truth $name: hart $h differs (expected < > got):"
            diff "$d/expect$h" "$out.hart$h.pcs" 2>&1 | head -20 | sed 's/^/    /'
        fi
    done
    for h in "$out".hart*.pcs; do
        h=${h#"$out".hart}; h=${h%.pcs}
        if [ ! -f "$d/hart$h" ]; then
            ok=0
            fail "ground truth $name: unexpected output for hart $h"
        fi
    done
    if [ -f "$d/stderr" ] && ! grep -qF -- "$(cat "$d/stderr")" "$d/stderr.got"; then
        ok=0
        fail "ground truth $name: '$(cat "$d/stderr")' not in: $(cat "$d/stderr.got")"
    fi
    [ -f "$d/stdout.want" ] || : >"$d/stdout.want"
    if ! cmp -s "$d/stdout.want" "$d/stdout"; then
        ok=0
        fail "ground truth $name: stdout '$(cat "$d/stdout")', expected '$(cat "$d/stdout.want")'"
    fi
    [ $ok = 1 ] && pass "ground truth $name"
}

if [ $# -gt 0 ]; then
    cases=("$@")
else
    cases=("$data"/gt/*.case)
fi
for f in "${cases[@]}"; do
    run_case "$f"
done
[ $# -gt 0 ] && exit $failed

# ---- trace-compare.py --------------------------------------------------------
# A ground truth with three sessions (trace_first = 80200100, trace_last =
# 80200110 in synth.elf).
c=$tmp/compare
mkdir -p "$c"
cat >"$c/gt.pcs" <<'EOF'
80200000 S
80200110 S
80200100 S
80200104 S
80200108 exc S
80000100 M
80200200 U
80200204 int U
80200040 S
8020010c S
80200110 S
80200114 S
80200100 S
80200110 S
80200100 S
80200104 S
EOF
printf '%s\n' 80200100 80200104 '80200108 exc' 80200200 '80200204 int' \
    80200040 8020010c 80200110 >"$c/s0.pcs"
compare_ok() {  # name expected-summary-text args...
    local name=$1 want=$2
    shift 2
    if python3 "$cmpt" --elf "$tmp/synth.elf" "$@" >"$c/out" 2>&1 &&
            grep -qF -- "$want" "$c/out"; then
        pass "trace-compare $name ($(short "$c/out"))"
    else
        fail "trace-compare $name: $(cat "$c/out")"
    fi
}
compare_fails() {   # name expected-text args...
    local name=$1 want=$2
    shift 2
    python3 "$cmpt" --elf "$tmp/synth.elf" "$@" >"$c/out" 2>&1
    local rc=$?
    if [ $rc -eq 1 ] && grep -qF -- "$want" "$c/out"; then
        pass "trace-compare $name ($(grep -F -- "$want" "$c/out" | short))"
    else
        fail "trace-compare $name: status $rc, expected '$want' in: $(cat "$c/out")"
    fi
}
compare_ok "exact match of session 0, M line dropped" \
    "8 instructions compared, exact match" "$c/gt.pcs" "$c/s0.pcs"
printf '80200100\n80200110\n' >"$c/s1.pcs"
compare_ok "--session 1 (two lines)" "2 instructions compared" --session 1 \
    "$c/gt.pcs" "$c/s1.pcs"
compare_fails "session that is not there" "no session 3: the ground truth has 3" \
    --session 3 "$c/gt.pcs" "$c/s1.pcs"
compare_fails "session without trace_last" "session 2 (first line 15) has no trace_last" \
    --session 2 "$c/gt.pcs" "$c/s1.pcs"
printf '80200100 S\n80200100 S\n80200110 S\n' >"$c/nested.pcs"
compare_fails "nested trace_first" "sessions cannot nest" "$c/nested.pcs" "$c/s1.pcs"
# An interrupt right after the enabling store (802000fc, the instruction
# that ends at trace_first): the session starts with the handler, and the
# trace_first it returns to belongs to it; a later trace_first is a new
# session.  Without the trap mark, the store's line is outside the window.
cat >"$c/trap.pcs" <<'EOF'
80200000 S
802000fc int S
80200040 S
80200044 S
80200100 S
80200110 S
802000fc S
80200100 S
80200110 S
EOF
printf '%s\n' 80200040 80200044 80200100 80200110 >"$c/trap0.pcs"
compare_ok "trap after the enabling store: session starts with the handler" \
    "session 0 ($c/trap.pcs lines 3-6): 4 instructions compared, exact match" \
    "$c/trap.pcs" "$c/trap0.pcs"
compare_ok "trap after the enabling store: the next session" \
    "session 1 ($c/trap.pcs lines 8-9): 2 instructions compared" --session 1 \
    "$c/trap.pcs" "$c/s1.pcs"
# An interrupt right after trace_last (the disabling store) is not traced:
# the window's last line has no mark, in the comparison and in
# --emit-window.
printf '80200100 S\n80200104 S\n80200110 int S\n80200040 S\n' >"$c/lastint.pcs"
printf '80200100\n80200104\n80200110\n' >"$c/lastint0.pcs"
compare_ok "trap after trace_last: not in the window" \
    "3 instructions compared, exact match" "$c/lastint.pcs" "$c/lastint0.pcs"
if python3 "$cmpt" --elf "$tmp/synth.elf" --emit-window "$c/lastint.win" "$c/lastint.pcs" \
        >"$c/out" 2>&1 && [ "$(tail -1 "$c/lastint.win")" = "80200110 S" ]; then
    pass "trap after trace_last: --emit-window ends without the mark"
else
    fail "trap after trace_last: --emit-window: $(cat "$c/out" "$c/lastint.win")"
fi
# --whole (a boot traced from the hart's first instruction): every line is
# the window, sessions or not; a stop-on-wrap buffer is a prefix of it.
printf '%s\n' 80200000 80200110 80200100 80200104 '80200108 exc' 80200200 >"$c/whole6.pcs"
compare_ok "--whole: the whole ground truth, M line dropped, as a prefix" \
    "whole ground truth ($c/gt.pcs lines 1-16): 6 instructions compared, prefix match" \
    --whole --match prefix "$c/gt.pcs" "$c/whole6.pcs"
head -3 "$c/gt.pcs" >"$c/gt3.pcs"
compare_fails "--whole: a decoded trace longer than the ground truth" \
    "the decoded trace goes on after the window's 3 instructions" \
    --whole --match prefix "$c/gt3.pcs" "$c/whole6.pcs"
printf '802000fc int S\n80200040 S\n80200100 S\n80200100 S\n80200110 S\n' >"$c/trapnest.pcs"
compare_fails "trap after the enabling store: a second trace_first still nests" \
    "trace_first (80200100) again inside session 0, opened at line 2" "$c/trapnest.pcs" "$c/s1.pcs"
if python3 "$cmpt" --elf "$tmp/synth32.elf" "$c/gt.pcs" "$c/s1.pcs" >"$c/out" 2>&1 ||
        ! grep -q "symbol trace_first not found in .*synth32.elf" "$c/out"; then
    fail "trace-compare image without trace_first: $(cat "$c/out")"
else
    pass "trace-compare image without trace_first ($(short "$c/out"))"
fi
sed 's/^80200104$/80200108/' "$c/s0.pcs" >"$c/badpc.pcs"
compare_fails "pc mismatch" "mismatch at compared instruction 2: pc 80200108 decoded, 80200104 expected" \
    "$c/gt.pcs" "$c/badpc.pcs"
if grep -q '^>>  *4  80200104  *2  80200108$' "$c/out" &&
        grep -q '^  *3  80200100  *1  80200100$' "$c/out"; then
    pass "trace-compare mismatch report shows both sides with line numbers"
else
    fail "trace-compare mismatch report: $(cat "$c/out")"
fi
sed 's/^80200204 int$/80200204 exc/' "$c/s0.pcs" >"$c/badmark.pcs"
compare_fails "mark mismatch" "at 80200204: mark exc decoded, int expected" "$c/gt.pcs" "$c/badmark.pcs"
head -5 "$c/s0.pcs" >"$c/short.pcs"
compare_fails "decoded trace too short (exact)" "the decoded trace ends after 5 of the window's 8" \
    "$c/gt.pcs" "$c/short.pcs"
{ cat "$c/s0.pcs"; echo 80200114; } >"$c/long.pcs"
compare_fails "decoded trace too long (exact)" "the decoded trace goes on after the window's 8" \
    "$c/gt.pcs" "$c/long.pcs"
printf '80200200\n80200204 int\n' >"$c/u.pcs"
compare_ok "--priv U" "2 instructions compared" --priv U "$c/gt.pcs" "$c/u.pcs"
grep -v '^802002' "$c/s0.pcs" >"$c/s.pcs"
compare_ok "--priv S" "6 instructions compared" --priv S "$c/gt.pcs" "$c/s.pcs"
compare_ok "--priv US" "8 instructions compared" --priv US "$c/gt.pcs" "$c/s0.pcs"
compare_fails "--priv S against a trace with U code" "mismatch at compared instruction 4" \
    --priv S "$c/gt.pcs" "$c/s0.pcs"
printf '80200104\n80200108 exc\n80200204 int\n80200040\n' >"$c/r.pcs"
compare_ok "two --range" "4 instructions compared" --range 80200104-8020010c \
    --range 0x80200204-0x80200208 --range 80200040-80200044 "$c/gt.pcs" "$c/r.pcs"
printf '80200204 int\n' >"$c/ru.pcs"
compare_ok "--range and --priv together" "1 instructions compared" --priv U \
    --range 80200104-8020010c --range 80200204-80200208 "$c/gt.pcs" "$c/ru.pcs"
tail -3 "$c/s0.pcs" >"$c/suffix.pcs"
compare_ok "--match suffix" "3 instructions compared, suffix match" --match suffix \
    "$c/gt.pcs" "$c/suffix.pcs"
compare_fails "--match suffix, not a suffix" "mismatch at compared instruction 1: pc 80200204 decoded, 80200040 expected" \
    --match suffix "$c/gt.pcs" <(tail -4 "$c/s0.pcs" | head -3)
compare_fails "--match suffix, longer than the window" "longer than the window (8)" \
    --match suffix "$c/gt.pcs" "$c/long.pcs"
head -3 "$c/s0.pcs" >"$c/prefix.pcs"
compare_ok "--match prefix" "3 instructions compared, prefix match" --match prefix \
    "$c/gt.pcs" "$c/prefix.pcs"
compare_fails "--match prefix, not a prefix" "mismatch at compared instruction 1: pc 80200104 decoded, 80200100 expected" \
    --match prefix "$c/gt.pcs" <(sed -n '2,3p' "$c/s0.pcs")
compare_fails "--match prefix, longer than the window" "the decoded trace goes on after the window's 8" \
    --match prefix "$c/gt.pcs" "$c/long.pcs"
: >"$c/empty.pcs"
compare_fails "--match suffix with an empty decoded trace" "empty decoded trace" \
    --match suffix "$c/gt.pcs" "$c/empty.pcs"
compare_ok "--emit-window (no decoded trace)" "9 lines written" \
    --emit-window "$c/window.pcs" "$c/gt.pcs"
if sed -n '3,11p' "$c/gt.pcs" | cmp -s - "$c/window.pcs"; then
    pass "trace-compare --emit-window writes the unfiltered window, M line kept"
else
    fail "trace-compare --emit-window wrote: $(cat "$c/window.pcs")"
fi
compare_ok "--emit-window with a comparison" "8 instructions compared" --session 0 \
    --emit-window "$c/window2.pcs" "$c/gt.pcs" "$c/s0.pcs"
printf '80200100 Q\n' >"$c/badgt.pcs"
compare_fails "malformed ground truth" "badgt.pcs:1: bad ground-truth line" "$c/badgt.pcs" "$c/s0.pcs"
printf '80200100\n80200104 trap\n' >"$c/baddec.pcs"
compare_fails "malformed decoded trace" "baddec.pcs:2: bad line" "$c/gt.pcs" "$c/baddec.pcs"
printf '# decoded\n\n0x80200100\n80200104\n80200108 exc\n80200200\n80200204 int\n80200040\n8020010C\n80200110\n' >"$c/comments.pcs"
compare_ok "decoded trace with comments, 0x and upper case" "8 instructions compared" \
    "$c/gt.pcs" "$c/comments.pcs"

# ---- smoke: a real QEMU run ---------------------------------------------------
s=$tmp/smoke
mkdir -p "$s"
QEMU=${QEMU_RV64:-qemu-system-riscv64}
if ! build "$s/payload.elf" 0x80200000 rv64imac_zicsr lp64 "$data/smoke-payload.S" ||
        ! build "$s/fw.elf" 0x80000000 rv64imac_zicsr lp64 "$data/smoke-fw.S" \
            -Wl,--just-symbols="$s/payload.elf"; then
    fail "ground truth smoke: build: $(head -3 "$tmp/cc.err")"
elif ! QEMU=$QEMU scripts/qemu-run.sh --smp 2 --cpu '' --mem '' --bios "$s/fw.elf" \
        --kernel "$s/payload.elf" --icount exact --timeout 60 -- \
        -singlestep -d exec,nochain,int -D "$s/log" >"$s/qemu.out" 2>&1; then
    fail "ground truth smoke: QEMU run failed: $(tail -3 "$s/qemu.out")"
elif ! python3 "$gt" --firmware "$s/fw.elf" --elf "$s/payload.elf" \
        --out-prefix "$s/out" "$s/log" 2>"$s/err"; then
    fail "ground truth smoke: $(cat "$s/err")"
else
    split_case "$data/smoke.expect" "$s/expect"
    for h in 0 1; do
        expand_expect <"$s/expect/hart$h" >"$s/expect$h"
        if cmp -s "$s/expect$h" "$s/out.hart$h.pcs"; then
            pass "ground truth smoke: QEMU run, hart $h ($(wc -l <"$s/expect$h") instructions)"
        else
            fail "ground truth smoke: QEMU run, hart $h differs (expected < > got):"
            diff "$s/expect$h" "$s/out.hart$h.pcs" | head -20 | sed 's/^/    /'
        fi
    done
    if grep -q '^Stopped execution of TB chain before .*\[0000000080200130\]' "$s/log" ||
            grep -q '^Stopped execution of TB chain before .*\[0000000080200134\]' "$s/log"; then
        pass "ground truth smoke: the timer tick in the busy loop left a Stopped line"
    else
        fail "ground truth smoke: no Stopped line in the busy loop (the run no longer covers L3)"
    fi
    # The session window (trace_first .. trace_last), as a decoder would
    # give it: no privilege, no M line.
    awk '$1 == "80200020" { on = 1 } on && $NF != "M" { $NF = ""; sub(/ $/, ""); print }
         $1 == "80200138" { on = 0 }' "$s/expect0" >"$s/decoded.pcs"
    if python3 "$cmpt" --elf "$s/payload.elf" "$s/out.hart0.pcs" "$s/decoded.pcs" >"$s/cmp" 2>&1; then
        pass "ground truth smoke: trace-compare of session 0 ($(short "$s/cmp"))"
    else
        fail "ground truth smoke: trace-compare of session 0: $(cat "$s/cmp")"
    fi
    printf '%s\n' 802000dc 802000e4 '802000e8 exc' >"$s/u.pcs"
    if python3 "$cmpt" --elf "$s/payload.elf" --priv U "$s/out.hart0.pcs" "$s/u.pcs" >"$s/cmp" 2>&1; then
        pass "ground truth smoke: trace-compare --priv U ($(short "$s/cmp"))"
    else
        fail "ground truth smoke: trace-compare --priv U: $(cat "$s/cmp")"
    fi
fi
exit $failed

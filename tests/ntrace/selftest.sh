#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Tests of the corpus tooling itself: scripts/qemu-log-to-pcs.py on a
# hand-written log whose expected trace follows from the conversion rules,
# and tests/ntrace/check-pcs.py, which must reject corrupted corpus traces
# (run-suite.sh checks that it accepts the real ones).
#
#   selftest.sh CORPUS_DIR      (CORPUS_DIR/rv64/*.pcs + *.elf)
set -u
cd "$(dirname "$0")/../.."
corpus=$1
conv=scripts/qemu-log-to-pcs.py
check=tests/ntrace/check-pcs.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntrace-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

# ---- Converter rules on a synthetic log ----------------------------------
# The ELF only provides the entry point 0x80000000.
elf=$corpus/rv64/traps.elf
t() { printf 'Trace 0: 0x7f0000001000 [0000000000000000/%016x/00209003/ff020201] sym\n' "$1"; }
{
    t 0x1000; t 0x1004                  # reset vector: skipped
    t 0x80000000; t 0x80000004
    t 0x80000008                        # entered, then not executed
    echo 'Stopped execution of TB chain before 0x7f0000001000 [0000000080000008] sym'
    t 0x80000008
    t 0x8000000c                        # I/O: rewound, executed again
    echo 'cpu_io_recompile: rewound execution of TB to 000000008000000c'
    t 0x8000000c
    t 0x80000010                        # ecall: retires, then traps
    echo 'riscv_cpu_do_interrupt: hart:0, async:0, cause:000000000000000b, epc:0x0000000080000010, tval:0x0000000000000000, desc=machine_ecall'
    t 0x80000040; t 0x80000044          # handler; mret at 0x80000044
    t 0x80000014                        # illegal: faults, does not retire
    echo 'riscv_cpu_do_interrupt: hart:0, async:0, cause:0000000000000002, epc:0x0000000080000014, tval:0x0000000000000000, desc=illegal_instruction'
    t 0x80000040; t 0x80000044
    t 0x80000018                        # interrupted before this retired
    echo 'Stopped execution of TB chain before 0x7f0000001000 [0000000080000018] sym'
    echo 'riscv_cpu_do_interrupt: hart:0, async:1, cause:0000000000000007, epc:0x0000000080000018, tval:0x0000000000000000, desc=m_timer'
    t 0x80000040
} >"$tmp/synthetic.log"
printf '%s\n' 80000000 80000004 80000008 8000000c '80000010 exc' 80000040 \
    '80000044 exc' 80000040 '80000044 int' 80000040 >"$tmp/synthetic.expect"
if python3 "$conv" --elf "$elf" -o "$tmp/synthetic.pcs" "$tmp/synthetic.log" 2>"$tmp/err" &&
        cmp -s "$tmp/synthetic.pcs" "$tmp/synthetic.expect"; then
    pass "qemu-log-to-pcs: stopped TB, io recompile, ecall, fault and interrupt rules"
else
    fail "qemu-log-to-pcs: synthetic log converted wrongly: $(cat "$tmp/err")"
    diff "$tmp/synthetic.expect" "$tmp/synthetic.pcs" | sed 's/^/    /'
fi

# An exception whose epc is not the last logged instruction is inconsistent.
{ t 0x80000000; t 0x80000004
  echo 'riscv_cpu_do_interrupt: hart:0, async:0, cause:0000000000000002, epc:0x0000000080000000, tval:0x0000000000000000, desc=illegal_instruction'
} >"$tmp/bad-epc.log"
if python3 "$conv" --elf "$elf" -o "$tmp/bad.pcs" "$tmp/bad-epc.log" 2>"$tmp/err" ||
        ! grep -q "exception at 80000000 but the last logged pc is 80000004" "$tmp/err"; then
    fail "qemu-log-to-pcs: exception epc that is not the last pc: $(cat "$tmp/err")"
else
    pass "qemu-log-to-pcs: rejects an exception epc that is not the last pc"
fi
{ t 0x80000000; echo 'something unexpected'; } >"$tmp/bad-line.log"
if python3 "$conv" --elf "$elf" -o "$tmp/bad.pcs" "$tmp/bad-line.log" 2>"$tmp/err" ||
        ! grep -q "log line 2: unrecognised line" "$tmp/err"; then
    fail "qemu-log-to-pcs: unrecognised log line: $(cat "$tmp/err")"
else
    pass "qemu-log-to-pcs: rejects an unrecognised log line"
fi

# ---- Checker: real traces pass, corrupted ones fail ------------------------
# The checker must fail, and for the reason expected (not e.g. a missing file).
expect_reject() {   # name elf pcs reason
    if python3 "$check" --elf "$2" "$3" >/dev/null 2>"$tmp/err"; then
        fail "check-pcs: accepted $1"
    elif grep -q "$4" "$tmp/err"; then
        pass "check-pcs: rejects $1 ($(sed 's/^check-pcs: [^ ]* //' "$tmp/err" | cut -c1-70))"
    else
        fail "check-pcs: rejects $1 but not because '$4': $(cat "$tmp/err")"
    fi
}
for x in rv64 rv32; do
    d=$corpus/$x
    # Drop one instruction in the middle of a straight-line run.
    awk 'NR == 1000 { next } { print }' "$d/sort.pcs" >"$tmp/drop.pcs"
    expect_reject "$x sort with one instruction removed" "$d/sort.elf" "$tmp/drop.pcs" "cannot be followed by"
    # The fault in do_illegal is marked on the call before it; remove it.
    call=$(${OBJDUMP_RV:-riscv64-unknown-elf-objdump} -d "$d/traps.elf" |
           awk '/jalr?[ \t].*<do_illegal>$/ { sub(":", "", $1); print $1; exit }')
    illegal=$(${OBJDUMP_RV:-riscv64-unknown-elf-objdump} -d --disassemble=do_illegal "$d/traps.elf" |
              awk '$2 == "0000" { sub(":", "", $1); print $1; exit }')
    if [ -z "$call" ] || [ -z "$illegal" ]; then
        fail "check-pcs: $x traps: do_illegal or its call not found in the disassembly"
        continue
    fi
    sed "0,/^$call exc\$/s//$call/" "$d/traps.pcs" >"$tmp/noexc.pcs"
    expect_reject "$x traps with the exc mark of an illegal instruction removed" \
        "$d/traps.elf" "$tmp/noexc.pcs" "without a trap mark"
    awk '!done && / int$/ { sub(/ int$/, ""); done = 1 } { print }' "$d/timer.pcs" >"$tmp/noint.pcs"
    expect_reject "$x timer with an int mark removed" "$d/timer.elf" "$tmp/noint.pcs" "without a trap mark"
    # A trap mark followed by something else than the trap vector.
    awk '/ exc$/ { n = NR + 1 } NR == n { print "80000000"; next } { print }' \
        "$d/traps.pcs" >"$tmp/badvector.pcs"
    expect_reject "$x traps with a trap not going to the vector" "$d/traps.elf" "$tmp/badvector.pcs" "not the trap vector"
    # An ECALL must carry its exc mark; an illegal instruction never retires.
    awk '!done && / exc$/ { sub(/ exc$/, ""); done = 1 } { print }' \
        "$d/traps.pcs" >"$tmp/ecall-nomark.pcs"
    expect_reject "$x traps with an ECALL not marked" "$d/traps.elf" "$tmp/ecall-nomark.pcs" \
        "without its exc mark"
    sed "0,/^$call exc\$/s//$call\n$illegal exc/" "$d/traps.pcs" >"$tmp/retired-illegal.pcs"
    expect_reject "$x traps with the illegal instruction ($illegal) listed as retired" \
        "$d/traps.elf" "$tmp/retired-illegal.pcs" "never retires"
done
exit $failed

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# N-Trace compression on the reference's own example: the "t1" trace of the
# N-Trace task group's reference C code (data only, see its README), encoded
# by lib/ntrace with the reference's published settings and with all
# optimisations, beside the reference encoder's published sizes.  Every
# stream, and the reference's own output, is decoded back without codec
# options and compared with the trace.
#
#   bench-ntrace-t1.sh NTRACE_TOOL T1_DIR
#
# T1_DIR holds test.elf, test-PCSEQ.txt and test-NEX.bin.  Prints a markdown
# table; exits non-zero when a decode does not reproduce the trace.
set -u
tool=$1
dir=$2
if [ ! -s "$dir/test-PCSEQ.txt" ]; then
    echo "t1 data not found in $dir (set NEXRV_T1): table not made" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-t1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0

# The trace's addresses in decode's canonical form.
cut -d, -f1 "$dir/test-PCSEQ.txt" | sed 's/^0[xX]0*//' | tr 'A-F' 'a-f' >"$tmp/want.pcs"
ninsn=$(wc -l <"$tmp/want.pcs")

# decoded FILE.nex: "yes" when decoding without codec options gives the trace
decoded() {
    if "$tool" decode --elf "$dir/test.elf" "$1" --out "$tmp/got.pcs" 2>"$tmp/err" &&
            cmp -s "$tmp/want.pcs" "$tmp/got.pcs"; then
        echo yes
    else
        echo "NO ($(head -c 120 "$tmp/err"))"
        status=1
    fi
}

echo "### N-Trace compression on the reference's t1 example ($ninsn instructions, RV32)"
echo
echo "| setting | reference encoder (published) | lib/ntrace | bits/instr | decodes without options |"
echo "|---|---:|---:|---:|---|"
while IFS='|' read -r name ref opts; do
    read -r -a o <<<"$opts"
    if ! "$tool" encode --pcseq "$dir/test-PCSEQ.txt" --xlen 32 --out "$tmp/t1.nex" "${o[@]}" \
            2>"$tmp/err"; then
        echo "| $name | $ref | encode failed: $(head -c 80 "$tmp/err") | | |"
        status=1
        continue
    fi
    n=$(stat -c %s "$tmp/t1.nex")
    echo "| $name (\`${opts}\`) | $ref | $n | $(awk -v b="$n" -v i="$ninsn" \
        'BEGIN { printf "%.4f", 8 * b / i }') | $(decoded "$tmp/t1.nex") |"
done <<'ROWS'
BTM|12978|--mode btm
HTM|3393|--mode htm
HTM + call stack 8 + repeated history|2604|--mode htm --callstack 8 --repeat-history
HTM, all optimisations|-|--mode htm --all-opt
BTM, all optimisations|-|--mode btm --all-opt
ROWS
echo
echo "The reference encoder's own output (call stack 8 + repeated history,"
echo "$(stat -c %s "$dir/test-NEX.bin") bytes) decodes without options: $(decoded "$dir/test-NEX.bin")."
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The encoder's block entry (ntrace_enc_block) beside its record entry
# (ntrace_enc_retire) on the corpus, for `make bench-ntrace`: a markdown
# table with, per program, how long the blocks are that a block-level
# encoder sees (tools/ntrace nt_block_cut), encoder throughput through each
# entry (M instr/s, HTM, one core) and host instructions per retired
# instruction through each entry (callgrind, HTM: a run encoding ITERS times
# minus a run encoding 0 times, so loading and cutting are excluded).
#
#   bench-blocks.sh NTRACE_BENCH TRACE.pcs...      (TRACE.elf next to each)
#
# It reports figures and fails only when a run fails or the block entry's
# bytes differ from the record entry's.  REPS (7), MIN_MS (20), ITERS (5) and
# NO_CALLGRIND=1 work as for scripts/bench-ntrace.sh.
set -u
bench=$1
shift
reps=${REPS:-7}
min_ms=${MIN_MS:-20}
iters=${ITERS:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-blocks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0

# key=value field of the "config=htm ..." line of a bench output.
htm_field() { sed -n "s/^config=htm .*\b$2=\([^ ]*\).*/\1/p" "$1"; }

# Instructions of an --encode-only run (elf pcs entry iters).
encode_ir() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
        "$bench" --elf "$1" --pcs "$2" --encode-only htm --entry "$3" --iters "$4" \
        >/dev/null 2>"$tmp/cg.err" || { echo "callgrind failed: $(tail -1 "$tmp/cg.err")" >&2; return 1; }
    sed -n 's/^summary: *//p' "$tmp/cg.out"
}

# Host instructions per retired instruction through one entry (elf pcs entry instrs).
per_instr() {
    local full empty
    full=$(encode_ir "$1" "$2" "$3" "$iters") || return 1
    empty=$(encode_ir "$1" "$2" "$3" 0) || return 1
    awk -v f="$full" -v e="$empty" -v n="$4" -v k="$iters" \
        'BEGIN { printf "%.1f", (f - e) / (n * k) }'
}

callgrind=0
if [ "${NO_CALLGRIND:-0}" != 1 ] && command -v valgrind >/dev/null; then
    callgrind=1
fi

echo "### Encoder block entry (ntrace_enc_block) vs record entry (ntrace_enc_retire), HTM"
echo
echo "Blocks: runs of sequential itype-0 instructions plus the record that ends"
echo "them, as a block-level encoder sees them.  Speed in M instr/s (median of"
echo "$reps runs of >= $min_ms ms); host instructions per retired instruction"
echo "(callgrind).  Records are built before timing, so the record entry's"
echo "figures leave out what building them costs a block-level encoder."
echo
echo "| program | xlen | instrs | blocks | instr/block | enc M/s record / block | host instr/instr record / block | bytes |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
for pcs in "$@"; do
    elf=${pcs%.pcs}.elf
    prog=$(basename "${pcs%.pcs}")
    xlen=$(basename "$(dirname "$pcs")")
    out=$tmp/run.txt
    if ! "$bench" --elf "$elf" --pcs "$pcs" --reps "$reps" --min-ms "$min_ms" >"$out" 2>"$tmp/err"; then
        status=1
    fi
    n=$(htm_field "$out" instrs)
    blocks=$(htm_field "$out" blocks)
    same=$(htm_field "$out" blocks_bytes)
    if [ -z "$n" ] || [ -z "$blocks" ]; then
        echo "warning: $xlen $prog: no result ($(head -c 200 "$tmp/err"))" >&2
        status=1
        continue
    fi
    if [ "$same" != same ]; then
        echo "warning: $xlen $prog: the block entry's bytes differ from the record entry's" >&2
        status=1
    fi
    ipi="- / -"
    if [ $callgrind = 1 ]; then
        rec=$(per_instr "$elf" "$pcs" retire "$n") && blk=$(per_instr "$elf" "$pcs" block "$n") ||
            { rec=-; blk=-; status=1; }
        ipi="$rec / $blk"
    fi
    echo "| $prog | $xlen | $n | $blocks | $(awk -v n="$n" -v b="$blocks" 'BEGIN { printf "%.1f", n / b }') |" \
         "$(htm_field "$out" enc_mips) / $(htm_field "$out" enc_blocks_mips) | $ipi | ${same:-?} |"
done
exit $status

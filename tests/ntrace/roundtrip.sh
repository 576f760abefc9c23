#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# N-Trace round trip over the corpus: for every trace × option set,
# `ntrace encode` then `ntrace decode` must give back the .pcs byte for byte,
# and `ntrace dump` / `ntrace stats` must succeed on the .nex produced.  The
# block entry of the encoder (ntrace_enc_block, `encode --feed blocks`) and
# one ntrace_enc_retire call per record (`--feed records`) must give the
# bytes of the normal output (many records per call).
#
#   roundtrip.sh NTRACE_TOOL OUTDIR TRACE.pcs...
#
# Each TRACE.pcs has its program next to it as TRACE.elf.  Prints one
# PASS:/FAIL: line per (program, xlen, options) and per dump/stats/block
# check; exits non-zero when any failed.  NT_OPTSETS (space-separated names)
# limits the option sets.
set -u

tool=$1
outdir=$2
shift 2

# name|options (given to both the encoder and the decoder)|what a decoder
# given no codec options still needs (lib/ntrace/README.md, "Decoding
# without options"): the SRC width, the address-MSB extension and, in HTM,
# all-jumps; everything else it infers.
OPTSETS=(
    "btm|--mode btm|"
    "btm-repeat-branch|--mode btm --repeat-branch|"
    "btm-sync16|--mode btm --sync-period 16|"
    "htm|--mode htm|"
    "htm-cs8-irm1|--mode htm --callstack 8 --implicit-return-mode 1|"
    "htm-cs8-irm2|--mode htm --callstack 8 --implicit-return-mode 2|"
    "htm-cs8-irm3|--mode htm --callstack 8 --implicit-return-mode 3|"
    "htm-cs8-irm1-repeat-history|--mode htm --callstack 8 --implicit-return-mode 1 --repeat-history|"
    "htm-repeat-history|--mode htm --repeat-history|"
    "htm-seq-jump|--mode htm --seq-jump|"
    "htm-repeat-branch|--mode htm --repeat-branch|"
    "htm-ext-addr|--mode htm --ext-addr|--ext-addr"
    "htm-src|--mode htm --src 5 --src-bits 4|--src-bits 4"
    "htm-timestamp|--mode htm --timestamp|"
    "htm-sync64|--mode htm --sync-period 64|"
    "all-opt|--all-opt|"
    "all-opt-src-ts-sync|--all-opt --src 2 --src-bits 3 --timestamp --sync-period 256|--src-bits 3"
    "htm-all-jumps|--mode htm --all-jumps|--all-jumps"
    "btm-all-jumps|--mode btm --all-jumps|"
    "htm-irm3-all-jumps|--mode htm --callstack 32 --all-jumps|--all-jumps"
    "tci-htm-opt|--tci 0x100006b,0x5cc|--ext-addr"
    "tci-btm-ctx-sync3|--tci 0x1030239,0x7c8|--ext-addr"
    "tci-htm-sync1-src|--tci 0x1010069,0x300502c8|--src-bits 3 --all-jumps"
)

mkdir -p "$outdir"
failed=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

# Prints the first lines of a command's error output after a FAIL line.
show_err() { sed -n '1,5s/^/    /p' "$1"; }

# Offset of the first byte where two files differ ("?" when one ends first).
first_diff() {
    local at
    at=$(cmp "$1" "$2" 2>&1 | sed -n 's/.* differ: byte \([0-9]*\),.*/\1/p')
    echo "${at:-?}"
}

# check_blocks ID ELF PCS XLEN BASE OPTIONS...: the block path and the
# per-record path against the normal output (BASE.nex, already round-tripped).
check_blocks() {
    local id=$1 elf=$2 pcs=$3 xlen=$4 base=$5 rc
    shift 5
    local rec=$base.records.nex blk=$base.blocks.nex err=$base.blocks.err
    "$tool" encode --elf "$elf" --pcs "$pcs" --out "$rec" --xlen "$xlen" "$@" \
        --feed records 2>"$err" &&
        "$tool" encode --elf "$elf" --pcs "$pcs" --out "$blk" --xlen "$xlen" "$@" \
            --feed blocks 2>>"$err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$id: encode --feed records/blocks exited with status $rc"; show_err "$err"
    elif ! cmp -s "$rec" "$blk"; then
        fail "$id: block path differs from the per-record path at byte $(first_diff "$rec" "$blk")"
    elif ! cmp -s "$base.nex" "$blk"; then
        fail "$id: per-record and block paths differ from many records per call at byte" \
            "$(first_diff "$base.nex" "$blk")"
    else
        pass "$id: block path = per-record path = many records per call ($(stat -c %s "$blk") bytes)"
    fi
    rm -f "$rec" "$blk" "$err"
}

selected() {
    [ -z "${NT_OPTSETS:-}" ] && return 0
    case " $NT_OPTSETS " in *" $1 "*) return 0 ;; esac
    return 1
}

for pcs in "$@"; do
    elf=${pcs%.pcs}.elf
    prog=$(basename "${pcs%.pcs}")
    class=$(od -An -tu1 -j4 -N1 "$elf" | tr -d ' ')
    xlen=$([ "$class" = 1 ] && echo 32 || echo 64)
    ninsn=$(grep -c . "$pcs")
    for entry in "${OPTSETS[@]}"; do
        name=${entry%%|*}
        selected "$name" || continue
        rest=${entry#*|}
        read -r -a opts <<<"${rest%%|*}"
        read -r -a needed <<<"${rest#*|}"
        id="ntrace $prog rv$xlen $name"
        base=$outdir/$prog-rv$xlen-$name
        err=$base.err
        "$tool" encode --elf "$elf" --pcs "$pcs" --out "$base.nex" \
            --xlen "$xlen" "${opts[@]}" 2>"$err"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "$id: encode exited with status $rc"; show_err "$err"
            continue
        fi
        "$tool" decode --elf "$elf" "$base.nex" --out "$base.pcs" \
            --xlen "$xlen" "${opts[@]}" 2>"$err"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "$id: decode exited with status $rc"; show_err "$err"
        elif ! cmp -s "$pcs" "$base.pcs"; then
            line=$(cmp "$pcs" "$base.pcs" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
            fail "$id: decoded trace differs from the input at line ${line:-?} ($base.pcs)"
        else
            bits=$(( $(stat -c %s "$base.nex") * 8 ))
            pass "$id: $ninsn instructions, $(awk -v b="$bits" -v n="$ninsn" \
                'BEGIN { printf "%.3f", b / n }') bits/instr"
            rm -f "$base.pcs"
        fi
        if "$tool" dump "$base.nex" >"$base.dump" 2>"$err" && [ -s "$base.dump" ]; then
            pass "$id: dump ($(wc -l <"$base.dump") lines)"
        else
            fail "$id: dump failed or printed nothing"; show_err "$err"
        fi
        # stats decodes too: it must count every instruction, without error.
        "$tool" stats "$base.nex" --elf "$elf" --xlen "$xlen" "${opts[@]}" \
            >"$base.stats" 2>"$err"
        rc=$?
        counted=$(sed -n 's/^instructions: *//p' "$base.stats")
        if [ $rc -eq 0 ] && [ "$counted" = "$ninsn" ] &&
                grep -q '^decoding errors: 0$' "$base.stats"; then
            pass "$id: stats ($counted instructions)"
        else
            fail "$id: stats exited with status $rc, counted '${counted}' of $ninsn instructions"
            show_err "$err"
        fi
        rm -f "$err" "$base.dump"
        # The same stream decoded with only what cannot be inferred.
        "$tool" decode --elf "$elf" "$base.nex" --out "$base.inferred.pcs" \
            ${needed[@]+"${needed[@]}"} 2>"$err"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "$id: decode without codec options (${needed[*]:-none}) exited with status $rc"
            show_err "$err"
        elif ! cmp -s "$pcs" "$base.inferred.pcs"; then
            line=$(cmp "$pcs" "$base.inferred.pcs" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
            fail "$id: decode without codec options differs from the input at line ${line:-?}"
        else
            pass "$id: decode without codec options (given: ${needed[*]:-none})"
            rm -f "$base.inferred.pcs"
        fi
        rm -f "$err"
        check_blocks "$id" "$elf" "$pcs" "$xlen" "$base" "${opts[@]}"
    done
done
exit $failed

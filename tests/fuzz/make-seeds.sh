#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Seed corpora for the N-Trace fuzz targets: real encodings of the corpus
# program "interp" (the image fuzz_ntrace_decoder embeds), one per option
# set, prefixed with the option bytes each target reads first.
#
#   make-seeds.sh NTRACE_TOOL CORPUS_DIR OUTDIR
#
# Writes OUTDIR/decoder/*, OUTDIR/parser/* and OUTDIR/perfrec/* (the rv64
# encodings in tsbi-record recordings, perfrec-seed.py).  Prints one
# PASS:/FAIL: line.
set -u
tool=$1
corpus=$2
out=$3
mkdir -p "$out/decoder" "$out/parser" "$out/perfrec"
rm -f "$out"/decoder/* "$out"/parser/* "$out"/perfrec/*
seeds_dir=$(dirname "$0")

# name|decoder option byte (see fuzz_ntrace_decoder.c, without the RV32
# bit)|call-stack depth byte (128: mode told by the messages, 32 entries)|parser format byte (fuzz_ntrace_parser.c, without
# the RV32 bit)|encoder options
SETS=(
    "btm|2|0|0|--mode btm"
    "htm|0|0|0|--mode htm"
    "htm-cs8-irm1|4|8|0|--mode htm --callstack 8 --implicit-return-mode 1"
    "htm-cs8-irm3|4|8|0|--mode htm --callstack 8 --implicit-return-mode 3"
    "htm-seq-jump|8|0|0|--mode htm --seq-jump"
    "htm-ext-addr|16|0|2|--mode htm --ext-addr"
    "htm-src4|128|0|16|--mode htm --src 5 --src-bits 4"
    "htm-timestamp|0|0|0|--mode htm --timestamp"
    "htm-repeat-history|0|0|0|--mode htm --repeat-history"
    "btm-repeat-branch|2|0|0|--mode btm --repeat-branch"
    "auto-htm-all-opt|4|128|0|--all-opt"
    "auto-btm-all-opt|4|128|0|--mode btm --all-opt"
)
# attr.config bits (linux-trace/recording.h) of an option set.
perf_config() {
    local c=0
    case $1 in *btm*) c=$((c | 1)) ;; esac
    case $1 in *seq-jump*|*all-opt*) c=$((c | 2)) ;; esac
    case $1 in *callstack*|*implicit-return*|*all-opt*) c=$((c | 4)) ;; esac
    case $1 in *repeat*|*all-opt*) c=$((c | 8)) ;; esac
    case $1 in *ext-addr*) c=$((c | 32)) ;; esac
    case $1 in *timestamp*) c=$((c | 256)) ;; esac
    echo $c
}

made=0
failed=""
for xlen in 64 32; do
    elf=$corpus/rv$xlen/interp.elf
    pcs=$corpus/rv$xlen/interp.pcs
    rv32bit=$([ $xlen = 32 ] && echo 1 || echo 0)
    for entry in "${SETS[@]}"; do
        IFS='|' read -r name dopt depth popt opts <<<"$entry"
        nex=$out/interp-rv$xlen-$name.nex
        # shellcheck disable=SC2086
        if ! "$tool" encode --elf "$elf" --pcs "$pcs" --out "$nex" --xlen $xlen $opts \
                2>"$out/err"; then
            failed="$failed rv$xlen-$name($(head -c 100 "$out/err"))"
            continue
        fi
        { printf "\\$(printf %03o $((dopt | rv32bit)))\\$(printf %03o "$depth")"; cat "$nex"; } \
            >"$out/decoder/interp-rv$xlen-$name"
        { printf "\\$(printf %03o $((popt | rv32bit)))"; cat "$nex"; } \
            >"$out/parser/interp-rv$xlen-$name"
        # the stream twice, as two segments, with the attr.config of its options
        config=$(perf_config "$opts")
        if [ $xlen = 64 ] && ! python3 "$seeds_dir/perfrec-seed.py" "$out/perfrec/interp-$name" \
                "$config" "$nex" "$nex" 2>"$out/err"; then
            failed="$failed perfrec-$name($(head -c 100 "$out/err"))"
        fi
        rm -f "$nex"
        made=$((made + 1))
    done
done
rm -f "$out/err"
if [ -n "$failed" ]; then
    echo "FAIL: fuzz seeds: encoding failed for:$failed"
    exit 1
fi
echo "PASS: fuzz seeds: $made real .nex encodings of interp"

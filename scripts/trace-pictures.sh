#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The pictures of README.md "Reading a trace": the flame graph of hart 0 and
# the timeline of the 4 harts of the firmware's 4-hart trace run (smp4 of
# make test-trace: the trace payload's programs, traced by tracesbi's
# software encoder, the buffers saved through QEMU's monitor).
#
#   scripts/trace-pictures.sh [TRACE_TESTS_DIR] [OUT_DIR]
#
# Defaults: build/trace-tests (run `make test-trace` first) and docs/img.
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build/trace-tests}
out=${2:-docs/img}
tool=build/tools/ntrace
elf=build/payloads/trace-prog.elf
# The TRACEBUF registers hart 0 read back: every hart has the same but SrcID.
tci=$(python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))[0]
print("0x%x,0x%x,0x%x" % (h["control"], h["features"], h["tscontrol"]))' "$dir/smp4.json")
mkdir -p "$out"
"$tool" profile --svg --elf "$elf" --tci "$tci" "$dir/smp4.hart0.nex" \
    --out "$out/flamegraph-smp4-hart0.svg"
"$tool" timeline --svg --elf "$elf" --tci "$tci" "$dir"/smp4.hart[0-3].nex \
    --out "$out/timeline-smp4.svg"
echo "$out/flamegraph-smp4-hart0.svg $out/timeline-smp4.svg"

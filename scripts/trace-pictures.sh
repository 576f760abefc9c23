#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The pictures of README.md "Reading a trace": the flame graph of hart 0 and
# the timeline of the 4 harts of the firmware's 4-hart trace run (smp4 of
# make test-trace: the trace payload's programs, traced by tracesbi's
# software encoder, the buffers saved through QEMU's monitor, each with its
# sidecar, so ntrace needs no codec option).
#
#   scripts/trace-pictures.sh [TRACE_TESTS_DIR] [OUT_DIR] [--timeline-only]
#
# Defaults: build/trace-tests (run `make test-trace` first) and docs/img.
# --timeline-only leaves the flame graph as it is.
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build/trace-tests}
out=${2:-docs/img}
only=${3:-}
tool=build/tools/ntrace
elf=build/payloads/trace-prog.elf
mkdir -p "$out"
if [ "$only" != --timeline-only ]; then
    "$tool" profile --svg --elf "$elf" "$dir/smp4.hart0.nex" --out "$out/flamegraph-smp4-hart0.svg"
    echo "$out/flamegraph-smp4-hart0.svg"
fi
"$tool" timeline --svg --elf "$elf" "$dir"/smp4.hart[0-3].nex --out "$out/timeline-smp4.svg"
echo "$out/timeline-smp4.svg"

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# tvtrace check on real execution: QEMU runs tests/data/tvtrace/tool/smode.S
# on tracesbi with its CPU state logged before every S/U instruction,
# tools/tvtrace/qemu-log-to-tv.py turns the log into a trace, and
# `tvtrace check` must find it consistent; the same trace with the
# ebreak's scause changed must fail at that record.  One PASS:/FAIL: line
# per case (suite tvtrace, mk/71-tvtrace-tool.mk).
#
#   tvtrace-qemu.sh FIRMWARE.elf SMODE.elf SMODE.bin TVTRACE OUTDIR
set -u
fw=$1 elf=$2 bin=$3 tool=$4 out=$5
mkdir -p "$out"
log=$out/smode.log tv=$out/smode.tv bad=$out/smode-bad.tv
failed=0

result() {   # name status detail
    if [ "$2" -eq 0 ]; then echo "PASS: tvtrace-qemu/$1"; else echo "FAIL: tvtrace-qemu/$1: $3"; failed=1; fi
}

rm -f "$log"
scripts/qemu-run.sh --smp 1 --bios "$fw" --kernel "$bin" --icount exact --timeout 60 -- \
    -singlestep -d cpu,nochain -dfilter 0x80200000..0x80201000 -D "$log" >"$out/smode.out" 2>&1
result qemu-run $? "QEMU did not power off (see $out/smode.out)"

python3 tools/tvtrace/qemu-log-to-tv.py --elf "$elf" "$log" "$tv" 2>"$out/convert.err"
result convert $? "$(cat "$out/convert.err")"

summary=$("$tool" check --elf "$elf" "$tv" 2>&1)
rc=$?
# traps: the interrupt, two U-mode ecalls, the ebreak; SBI calls: set_timer
# twice (the shutdown never returns); the self-loop until the interrupt
# retires hundreds of times
echo "$summary" | grep -q "consistent: .* 4 traps (3 exceptions, 1 interrupts), 4 trap returns, 2 ecalls serviced"
result consistent $((rc || $?)) "$summary"

python3 - "$tv" "$bad" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
scause3 = bytes.fromhex("04420103") + bytes(7)     # full-reg scause = 3
assert data.count(scause3) == 1
open(sys.argv[2], "wb").write(data.replace(scause3, bytes.fromhex("04420104") + bytes(7)))
PY
msg=$("$tool" check --elf "$elf" "$bad" 2>&1)
rc=$?
echo "$msg" | grep -q "ebreak traps with cause 4, not 3"
result ebreak-cause-caught $(( rc != 1 || $? )) "$msg"
rm -f "$log"   # megabytes of CPU states
exit $failed

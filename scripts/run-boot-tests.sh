#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boot-level checks of the firmware on QEMU virt: what the banner reports
# under several CPU configurations (run-time feature detection), more harts
# than the firmware serves, a malformed DTB, and the report of the
# firmware's own faults (the fault-injection build), and the firmware with
# the demo kernel in one image (make PAYLOAD=, mk/81-fw-payload.mk).  One
# PASS/FAIL line each.
#
# usage: run-boot-tests.sh FIRMWARE.elf DEMO_PAYLOAD.elf TARGET_TESTS.elf FAULTINJECT.elf
#                          FW_PAYLOAD.bin
set -u
cd "$(dirname "$0")/.."
fw=$1 demo=$2 target_tests=$3 fw_faultinject=$4 fw_payload=$5
logdir=build/logs/boot
mkdir -p "$logdir"
fails=0

pass() { echo "PASS: boot/$1"; }
fail() { echo "FAIL: boot/$1: $2"; fails=$((fails + 1)); }

# boot NAME TIMEOUT QEMU-ARGS...: runs QEMU, log in $logdir/NAME.log, sets rc.
boot() {
    local name=$1 t=$2
    shift 2
    scripts/qemu-run.sh --bios "$fw" --cpu '' --timeout "$t" -- "$@" >"$logdir/$name.log" 2>&1
    rc=$?
    tr -d '\r' <"$logdir/$name.log" >"$logdir/$name.txt"
}

banner_line() { sed -n "s/^$2 *: //p" "$logdir/$1.txt" | head -n 1; }

# expect_feature NAME FEATURE yes|no
expect_feature() {
    local feats
    feats=" $(banner_line "$1" Features) "
    case "$3:$feats" in
    yes:*" $2 "*|no:*) ;;
    *) fail "$1/$2" "expected $2 in the Features line, got '$feats'"; return ;;
    esac
    if [ "$3" = no ] && [[ "$feats" == *" $2 "* ]]; then
        fail "$1/no-$2" "did not expect $2 in the Features line '$feats'"
        return
    fi
    [ "$3" = yes ] && pass "$1/$2" || pass "$1/no-$2"
}

# Feature detection follows the CPU model, not assumptions.
boot default 20 -smp 2 -cpu rv64,sscofpmf=true -kernel "$demo"
[ $rc -eq 0 ] && pass default/powers-off || fail default/powers-off "QEMU exit status $rc"
expect_feature default sstc yes
expect_feature default sscofpmf yes
expect_feature default h yes
pmp=$(banner_line default PMP)
[[ "$pmp" == "16 entries, granularity 4 bytes" ]] && pass default/pmp-16 ||
    fail default/pmp-16 "PMP line '$pmp'"
trig=$(banner_line default "Debug triggers")
[[ "$trig" == "2, types 2"* ]] && pass default/triggers ||
    fail default/triggers "Debug triggers line '$trig'"
hpm=$(banner_line default "HPM counters")
[[ "$hpm" == "16 (mask 0x7fff8), 64 bits" ]] && pass default/hpm-16 ||
    fail default/hpm-16 "HPM counters line '$hpm'"
grep -q '^Next *: 0x80200000 in S-mode on hart 0 (from fw_dynamic info)' "$logdir/default.txt" &&
    pass default/next-from-fw-dynamic || fail default/next-from-fw-dynamic "Next line: $(banner_line default Next)"

boot reduced 20 -smp 2 -cpu rv64,sstc=false,h=false,pmu-num=4 -kernel "$demo"
[ $rc -eq 0 ] && pass reduced/powers-off || fail reduced/powers-off "QEMU exit status $rc"
expect_feature reduced sstc no
expect_feature reduced sscofpmf no
expect_feature reduced h no
hpm=$(banner_line reduced "HPM counters")
[[ "$hpm" == "4 (mask 0x78), 64 bits" ]] && pass reduced/hpm-4 ||
    fail reduced/hpm-4 "HPM counters line '$hpm'"
grep -q '^ASID / VMID bits *: 16 / 0' "$logdir/reduced.txt" && pass reduced/no-vmid ||
    fail reduced/no-vmid "$(banner_line reduced 'ASID / VMID bits')"

# More harts than MAX_HARTS (32): a clear message, and the rest still boots.
boot many-harts 60 -smp 40 -kernel "$demo"
grep -q '^WARNING *: the DTB has 40 harts; tracesbi serves at most 32' "$logdir/many-harts.txt" &&
    pass many-harts/message || fail many-harts/message "no WARNING line about 40 harts"
grep -q '^Harts *: 32:' "$logdir/many-harts.txt" && pass many-harts/serves-32 ||
    fail many-harts/serves-32 "Harts line: $(banner_line many-harts Harts)"
[ $rc -eq 0 ] && pass many-harts/payload-runs || fail many-harts/payload-runs "QEMU exit status $rc"

# The demo lists every hart id up to the DT's last (make run's output): on
# virt both harts; on sifive_u hart 0, the E51 without S-mode, is not
# served, and the U54s after it are still listed (either may have won the
# boot lottery: one STARTED, the other STOPPED).
grep -q '^  hart 1: STOPPED' "$logdir/default.txt" && grep -q '^  2 harts served' "$logdir/default.txt" &&
    pass demo/lists-harts || fail demo/lists-harts "hart list: $(grep '^  hart\|harts served' "$logdir/default.txt" | tr '\n' '|')"
scripts/qemu-run.sh --machine sifive_u --smp 3 --bios "$fw" --kernel "$demo" --timeout 20 \
    -- -no-reboot >"$logdir/sifive_u-demo.log" 2>&1
tr -d '\r' <"$logdir/sifive_u-demo.log" >"$logdir/sifive_u-demo.txt"
if grep -q '^  hart 0: not served' "$logdir/sifive_u-demo.txt" &&
   grep -Eq '^  hart 1: (STARTED|STOPPED)$' "$logdir/sifive_u-demo.txt" &&
   grep -Eq '^  hart 2: (STARTED|STOPPED)$' "$logdir/sifive_u-demo.txt" &&
   grep -q '^  2 harts served' "$logdir/sifive_u-demo.txt"; then
    pass demo/sifive_u-lists-harts-past-the-e51
else
    fail demo/sifive_u-lists-harts-past-the-e51 "hart list: $(grep '^  hart\|harts served' "$logdir/sifive_u-demo.txt" | tr '\n' '|')"
fi

# The DTB S-mode receives: stop at the payload's first instruction (gdb),
# save the blob a1 points at, and read it back with dtc.
dt_handed_over() {   # dt_handed_over NAME QEMU-ARGS... -> $logdir/NAME.dts
    local name=$1 port=$((20000 + RANDOM % 20000))
    shift
    scripts/qemu-run.sh --bios "$fw" --kernel "$demo" --cpu '' --timeout 120 -- "$@" \
        -gdb tcp::$port -S >"$logdir/$name-qemu.log" 2>&1 &
    local qpid=$!
    sleep 1
    timeout 60 gdb-multiarch -batch -ex "set architecture riscv:rv64" \
        -ex "target remote :$port" -ex "hbreak *0x80200000" -ex continue \
        -ex "dump binary memory $logdir/$name.blob \$a1 \$a1+0x40000" -ex kill \
        >"$logdir/$name-gdb.log" 2>&1
    kill $qpid 2>/dev/null
    wait $qpid 2>/dev/null
    python3 - "$logdir/$name.blob" "$logdir/$name.dtb" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(b[:struct.unpack('>I', b[4:8])[0]])
PY
    dtc -I dtb -O dts -o "$logdir/$name.dts" "$logdir/$name.dtb" 2>"$logdir/$name-dtc.log"
}

dt_handed_over dt-fixup -smp 40
if [ ! -s "$logdir/dt-fixup.dts" ]; then
    fail dt-fixup/readable "could not capture or decompile the DTB (see $logdir/dt-fixup-*.log)"
else
    pass dt-fixup/readable
    python3 - "$logdir/dt-fixup.dts" <<'PY' && pass dt-fixup/reserved-memory || fail dt-fixup/reserved-memory "no /reserved-memory/mmode_resv0@80000000 with reg 0x80000000+0x100000 and no-map"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r'reserved-memory \{(.*?)\n\t\};', t, re.S)
ok = m and re.search(r'mmode_resv0@80000000 \{\s*reg = <0x00 0x80000000 0x00 0x100000>;\s*no-map;', m.group(1))
sys.exit(0 if ok else 1)
PY
    disabled=$(grep -c 'status = "disabled"' "$logdir/dt-fixup.dts")
    [ "$disabled" -eq 8 ] && pass dt-fixup/unserved-harts-disabled ||
        fail dt-fixup/unserved-harts-disabled "expected the 8 cpu nodes beyond 32 disabled, found $disabled disabled nodes"
    python3 scripts/check-trace-dt.py --harts 32 "$logdir/dt-fixup.dts" >"$logdir/dt-trace.txt" 2>&1 &&
        pass dt-fixup/trace-components ||
        fail dt-fixup/trace-components "$(tail -n 1 "$logdir/dt-trace.txt")"
    grep -q 'virtio_mmio@10008000' "$logdir/dt-fixup.dts" && pass dt-fixup/keeps-qemu-nodes ||
        fail dt-fixup/keeps-qemu-nodes "QEMU's nodes are missing from the fixed-up tree"
fi

# Sparse hart IDs: a DTB that lists only harts 0 and 2 of four.  The
# firmware serves exactly those (the unlisted harts park), and the whole
# on-target test kernel passes on them.
scripts/qemu-run.sh --bios none --cpu '' --smp 4 -- -machine dumpdtb="$logdir/four.dtb" >/dev/null 2>&1
dtc -I dtb -O dts -o "$logdir/four.dts" "$logdir/four.dtb" 2>/dev/null
python3 - "$logdir/four.dts" "$logdir/sparse.dts" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
for pattern in (r'\n\t\tcpu@1 \{.*?\n\t\t\};\n', r'\n\t\tcpu@3 \{.*?\n\t\t\};\n',
                r'\n\t\tcpu-map \{.*?\n\t\t\};\n'):
    t = re.sub(pattern, '\n', t, count=1, flags=re.S)
open(sys.argv[2], 'w').write(t)
PY
dtc -q -I dts -O dtb -o "$logdir/sparse.dtb" "$logdir/sparse.dts"
boot sparse-harts 90 -smp 4 -kernel "$target_tests" -dtb "$logdir/sparse.dtb" \
    -append "fw=tracesbi expect-sstc=1 expect-sscofpmf=0"
grep -q '^Harts *: 2: 0 2 ' "$logdir/sparse-harts.txt" && pass sparse-harts/serves-0-and-2 ||
    fail sparse-harts/serves-0-and-2 "Harts line: $(banner_line sparse-harts Harts)"
tpass=$(grep -ac '^PASS: ' "$logdir/sparse-harts.txt")
tfail=$(grep -ac '^FAIL: ' "$logdir/sparse-harts.txt")
if grep -aqx 'DONE: target-tests' "$logdir/sparse-harts.txt" && [ "$tfail" -eq 0 ] && [ "$tpass" -gt 50 ]; then
    pass sparse-harts/target-tests
else
    fail sparse-harts/target-tests "$tpass passed, $tfail failed, done marker $(grep -acx 'DONE: target-tests' "$logdir/sparse-harts.txt") (log $logdir/sparse-harts.txt)"
fi

# A DTB whose structure block is corrupt: a clear error, no crash.  The
# firmware stops there, so the run ends by timeout.
scripts/qemu-run.sh --bios none --cpu '' --smp 2 -- -machine dumpdtb="$logdir/good.dtb" >/dev/null 2>&1
python3 - "$logdir/good.dtb" "$logdir/bad.dtb" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off = struct.unpack('>I', b[8:12])[0]
size = struct.unpack('>I', b[36:40])[0]
i, props = off, 0
while i < off + size:                    # retag the 30th property as token 7
    tag = struct.unpack('>I', b[i:i + 4])[0]
    if tag == 3:
        props += 1
        if props == 30:
            b[i:i + 4] = struct.pack('>I', 7)
            break
        i += 12 + ((struct.unpack('>I', b[i + 4:i + 8])[0] + 3) & ~3)
    elif tag == 1:
        j = b.index(0, i + 4)
        i = (j + 4) & ~3
    else:
        i += 4
open(sys.argv[2], 'wb').write(b)
PY
boot bad-dtb 5 -smp 2 -kernel "$demo" -dtb "$logdir/bad.dtb"
grep -q '^tracesbi: boot failed: device tree: malformed structure block' "$logdir/bad-dtb.txt" &&
    pass bad-dtb/clear-error || fail bad-dtb/clear-error "no boot-failed message: $(head -c 300 "$logdir/bad-dtb.txt")"
grep -q 'demo payload' "$logdir/bad-dtb.txt" && fail bad-dtb/no-handover "S-mode ran with a bad DTB" ||
    pass bad-dtb/no-handover

# M-mode faults (firmware/service/panic.c), injected through tracesbi's extension in
# the fault-injection build: the report names hart, cause, pc and the
# functions on the stack, the other harts stop, and QEMU ends with status 3
# (a system-failure shutdown), each within the timeout (124: a hang).
# mfault NAME KIND EXPECTED-LINE-REGEX...
mfault() {
    local name=mfault-$1 kind=$2 re
    shift 2
    fw=$fw_faultinject boot "$name" 20 -smp 2 -cpu rv64,sscofpmf=true -kernel "$target_tests" \
        -append "mode=mfault fault=$kind"
    grep -q "^DONE: mfault-test $kind" "$logdir/$name.txt" ||
        { fail "$name/reached" "the kernel did not make the call: $(tail -c 300 "$logdir/$name.txt")"; return; }
    grep -q '^FAIL: ' "$logdir/$name.txt" && fail "$name/stopped" "S-mode went on after the fault"
    for re in "$@"; do
        grep -Eq "$re" "$logdir/$name.txt" && pass "$name/report: $re" ||
            fail "$name/report" "no line matching '$re' in $logdir/$name.txt"
    done
    [ "$rc" -eq 3 ] && pass "$name/exit-status-3" || fail "$name/exit-status-3" "QEMU ended with $rc"
}
mfault load 0 '^tracesbi: M-mode fault on hart 0: mcause 0x5 mepc 0x8[0-9a-f]+ mtval 0x80000$' \
    '^tracesbi: at fault_inject_load[.a-z0-9]*\+0x' '^tracesbi:   #[0-9]+ 0x8[0-9a-f]+ fault_inject_deep[.a-z0-9]*\+0x' \
    '^tracesbi:   #[0-9]+ 0x8[0-9a-f]+ tracesbi_handle\+0x' '^tracesbi: machine stopped'
mfault illegal 1 '^tracesbi: M-mode fault on hart 0: mcause 0x2 mepc 0x8[0-9a-f]+' \
    '^tracesbi: at tracesbi_handle\+0x' '^tracesbi: machine stopped'
mfault canary 2 '^tracesbi: M-mode stack overflow on hart 0: the canary at 0x8[0-9a-f]+ is 0x0' \
    '^tracesbi: machine stopped'
mfault panic 3 '^tracesbi: panic: fault injection on hart 0' '^tracesbi:   #0 0x8[0-9a-f]+ tracesbi_handle\+0x' \
    '^tracesbi: machine stopped'

# One image, firmware and demo kernel (OpenSBI's fw_payload), given as the
# BIOS with no -kernel: QEMU's fw_dynamic block names no next stage, the
# firmware enters the default address, 2 MiB above itself, where the
# image holds the demo, which lists the harts and powers off.
scripts/qemu-run.sh --bios "$fw_payload" --cpu '' --smp 2 --timeout 20 >"$logdir/fw-payload.log" 2>&1
rc=$?
tr -d '\r' <"$logdir/fw-payload.log" >"$logdir/fw-payload.txt"
next=$(banner_line fw-payload Next)
if [ $rc -ne 0 ] || ! grep -q '^Powering off through SRST' "$logdir/fw-payload.txt"; then
    fail fw-payload/boots-payload "status $rc, last lines: $(tail -n 3 "$logdir/fw-payload.txt" | tr '\n' '|')"
elif ! grep -q '^  2 harts served' "$logdir/fw-payload.txt"; then
    fail fw-payload/boots-payload "the demo did not list the harts"
elif [[ "$next" != "0x80200000 in S-mode"* ]]; then
    fail fw-payload/boots-payload "banner's Next line: '$next'"
else
    pass fw-payload/boots-payload
fi

[ $fails -eq 0 ]

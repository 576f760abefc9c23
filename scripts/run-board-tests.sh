#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boots the S-mode test kernel under tracesbi on QEMU's other RISC-V boards
# and prints one PASS/FAIL/INFO line per result:
#   sifive_u  -smp 3: hart 0 is an E51 monitor core without S-mode, harts
#             1-2 are U54s; sifive,uart0 console; reset through
#             gpio-restart, no power-off device, so the run uses -no-reboot
#             and the kernel ends it with a reboot (shutdown is
#             NOT_SUPPORTED there).  Banner: the E51 named as skipped, the
#             boot hart a U54, the kernel sees the two U54s only.
#   sifive_u  groups=tci: every hart's trace components from the boot hart
#             with the other U54 never started, stopped, suspended, running
#             and tracing.
#   sifive_u  mode=reboot: cold then warm reboot through the GPIO line
#             (the kernel counts its boots), stopped once it is done.
#   spike     one hart; HTIF console and power-off (QEMU's exit status 0).
#   spike     mode=sysfail: a "system failure" shutdown ends QEMU with
#             status 0 (as OpenSBI), and with status 3 under
#             tracesbi.sysfail=status, as on virt.
#   spike     -smp 2: the multi-hart groups (HSM, IPI, RFENCE, PMU, TCI).
# The pmu group runs on both, told what the board offers (expect-pmu=):
# sifive_u's U54s have no mcountinhibit, so tracesbi offers its 32
# firmware counters only (fw-only: the layout and every firmware counter
# test; the tests that need a hardware counter report INFO); spike's DT has
# no riscv,pmu node, so the platform default map applies (default-map: the
# HPM tests count through raw events).  Neither has Sscofpmf.  Groups that
# need a feature the machine lacks (a second hart, H) report INFO lines,
# which count neither way.
#
#   icicle    -smp 5 with Linux 6.1's mpfs-icicle-kit DTB: the E51 is
#             disabled in the DT, the 4 U54s served; the console on MMUART1
#             (QEMU's second serial port); no reset device (SRST absent,
#             no-reset=1), so the run is stopped once the kernel is done;
#             DDR seen again at 0xC000_0000, where PMP keeps the firmware's
#             region from S-mode too (fw-alias=).
#
# usage: run-board-tests.sh TRACESBI.elf TARGET_TESTS.elf BOARD_DTB_DIR
set -u
cd "$(dirname "$0")/.."
fw=$1 kernel=$2 dtb_dir=${3:-build/host/boards}
TIMEOUT=${BOARD_TIMEOUT:-120}
logdir=build/logs/boards
mkdir -p "$logdir"
status=0
TEST_GROUPS=base,legacy,pmp,redirect,hsm,time,ipi,rfence,pmu,trace,dbcn,suspend,ctr,srst,sse

pass() { echo "PASS: boards/$1"; }
fail() { echo "FAIL: boards/$1: $2"; status=1; }

for f in "$fw" "$kernel"; do
    [ -f "$f" ] || { fail setup "$f does not exist"; exit 1; }
done

# boot NAME MACHINE SMP APPEND [QEMU ARGS...]: one run, log in
# $logdir/NAME.log (carriage returns removed); sets rc.
boot() {
    local name=$1 machine=$2 smp=$3 append=$4
    shift 4
    scripts/qemu-run.sh --machine "$machine" --smp "$smp" --bios "$fw" --kernel "$kernel" \
        --append "$append" --timeout "$TIMEOUT" -- "$@" >"$logdir/$name.raw" 2>&1
    rc=$?
    tr -d '\r' <"$logdir/$name.raw" >"$logdir/$name.log"
    rm -f "$logdir/$name.raw"
}

# boot_until NAME DONE-REGEX QEMU-RUN-ARGS...: a run that cannot end itself,
# stopped once its log matches DONE-REGEX (or QEMU ends, or the timeout);
# log in $logdir/NAME.log as boot() leaves it; rc 0.
boot_until() {
    local name=$1 done_re=$2 raw=$logdir/$1.raw qemu
    shift 2
    scripts/qemu-run.sh "$@" >"$raw" 2>&1 &
    qemu=$!
    for _ in $(seq 1 $((TIMEOUT * 5))); do
        grep -aq "$done_re" "$raw" && break
        kill -0 "$qemu" 2>/dev/null || break
        sleep 0.2
    done
    kill "$qemu" 2>/dev/null
    wait "$qemu" 2>/dev/null
    rc=0
    tr -d '\r' <"$raw" >"$logdir/$name.log"
    rm -f "$raw"
}

# results NAME DONE-LINE: the kernel's result lines, named after the run,
# and a FAIL line when the done marker is missing.
results() {
    local name=$1 done_line=$2 log=$logdir/$1.log
    grep -aE '^(PASS|FAIL|INFO): ' "$log" | sed -E "s#^(PASS|FAIL|INFO): target/#\1: boards/$name/#"
    grep -aq '^FAIL: ' "$log" && status=1
    if grep -aqx "$done_line" "$log"; then
        pass "$name/done"
    else
        fail "$name/done" "no \"$done_line\" (QEMU status $rc, 124: timeout; log: $log)"
        tail -n 5 "$log" | sed 's/^/    | /'
    fi
}

banner() { sed -n "s/^$2 *: //p" "$logdir/$1.log" | head -n 1; }

# ---- sifive_u ----------------------------------------------------------
boot sifive_u sifive_u 3 "expect-sstc=0 expect-sscofpmf=0 expect-pmu=fw-only groups=$TEST_GROUPS" -no-reboot
results sifive_u "DONE: target-tests"
[ "$(banner sifive_u Platform)" = "SiFive HiFive Unleashed A00 (generic)" ] &&
    pass sifive_u/console-sifive-uart ||
    fail sifive_u/console-sifive-uart "no banner Platform line on the sifive,uart0 console"
skipped=$(banner sifive_u "Harts skipped")
[ "$skipped" = "1 without S-mode, parked: 0" ] && pass sifive_u/e51-skipped ||
    fail sifive_u/e51-skipped "Harts skipped line '$skipped', expected hart 0 (the E51)"
harts=$(banner sifive_u Harts)
[[ "$harts" =~ ^2:\ 1\ 2\ \(boot\ hart\ [12]\)$ ]] && pass sifive_u/u54-harts-served ||
    fail sifive_u/u54-harts-served "Harts line '$harts', expected the U54s 1 and 2, one of them booting"
kline=$(grep -a '^target-tests: boot hart' "$logdir/sifive_u.log" | head -n 1)
[[ "$kline" =~ ^target-tests:\ boot\ hart\ [12],\ 2\ harts, ]] && pass sifive_u/e51-disabled-in-dt ||
    fail sifive_u/e51-disabled-in-dt "the kernel saw '$kline', expected a U54 boot hart and 2 harts"
grep -aq '^shutdown: not supported, rebooting' "$logdir/sifive_u.log" && [ "$rc" -eq 0 ] &&
    pass sifive_u/shutdown-unsupported-reboot-ends-run ||
    fail sifive_u/shutdown-unsupported-reboot-ends-run "expected SRST shutdown NOT_SUPPORTED, then a reboot ending QEMU (-no-reboot) with 0, got status $rc"

# The TCI group (every hart's trace components in every HSM state of their
# owner, first with the other U54 never started): the E51, which never
# boots, has no components.
boot sifive_u-tci sifive_u 3 "expect-sstc=0 groups=tci variant=u54" -no-reboot
results sifive_u-tci "DONE: target-tests u54"

# The reboot sequence: no -no-reboot, so the kernel's boot count survives;
# QEMU is stopped once the kernel says it is done (its last shutdown turns
# into a reboot again on this board).
reboot_log=$logdir/sifive_u-reboot.log
boot_until sifive_u-reboot '^DONE: reboot-test' --machine sifive_u --smp 3 --bios "$fw" \
    --kernel "$kernel" --append "mode=reboot" --timeout $((TIMEOUT + 30))
grep -aE '^(PASS|FAIL): ' "$reboot_log" | sed -E 's#^(PASS|FAIL): target/#\1: boards/sifive_u-reboot/#'
grep -aq '^FAIL: ' "$reboot_log" && status=1
grep -aq '^DONE: reboot-test' "$reboot_log" && pass sifive_u-reboot/done ||
    fail sifive_u-reboot/done "no \"DONE: reboot-test\" (log: $reboot_log)"

# ---- spike -------------------------------------------------------------
boot spike spike 1 "expect-sstc=0 expect-sscofpmf=0 expect-pmu=default-map groups=$TEST_GROUPS"
results spike "DONE: target-tests"
[ "$(banner spike Platform)" = "ucbbar,spike-bare,qemu (generic)" ] &&
    pass spike/console-htif || fail spike/console-htif "no banner Platform line on the HTIF console"
[ "$rc" -eq 0 ] && pass spike/htif-poweroff-status-0 ||
    fail spike/htif-poweroff-status-0 "QEMU ended with $rc after the kernel's shutdown (124: timeout)"

# spike_sysfail NAME EXTRA-BOOTARGS WANT-STATUS
spike_sysfail() {
    boot "spike-$1" spike 1 "mode=sysfail${2:+ $2}"
    if ! grep -aq '^DONE: sysfail-test' "$logdir/spike-$1.log"; then
        fail "spike/$1-exit-status-$3" "the kernel did not reach the failure shutdown (status $rc)"
    elif [ "$rc" -eq "$3" ]; then
        pass "spike/$1-exit-status-$3"
    else
        fail "spike/$1-exit-status-$3" "QEMU ended with $rc, expected $3 (124: timeout)"
    fi
}
spike_sysfail sysfail "" 0
spike_sysfail sysfail-status tracesbi.sysfail=status 3

boot spike-2harts spike 2 "expect-sstc=0 expect-sscofpmf=0 expect-pmu=default-map groups=hsm,ipi,rfence,pmu,tci variant=2harts"
results spike-2harts "DONE: target-tests 2harts"
[ "$rc" -eq 0 ] && pass spike-2harts/htif-poweroff-status-0 ||
    fail spike-2harts/htif-poweroff-status-0 "QEMU ended with $rc (124: timeout)"
# ---- icicle ------------------------------------------------------------
# The kernel cannot end the run (no reset device): QEMU is stopped once it
# prints its done marker.
icicle_log=$logdir/icicle.log
boot_until icicle '^DONE: target-tests' --machine icicle --bios "$fw" --kernel "$kernel" \
    --dtb "$dtb_dir/mpfs-icicle-kit.dtb" \
    --append "expect-sstc=0 expect-sscofpmf=0 expect-pmu=fw-only no-reset=1 fw-alias=0xc0000000 groups=$TEST_GROUPS" \
    --timeout "$TIMEOUT" -- -no-reboot -monitor none -serial null -serial stdio
results icicle "DONE: target-tests"
[ "$(banner icicle Platform)" = "Microchip PolarFire-SoC Icicle Kit (mpfs)" ] &&
    pass icicle/console-mmuart1 ||
    fail icicle/console-mmuart1 "no banner Platform line on MMUART1"
harts=$(banner icicle Harts)
[[ "$harts" =~ ^4:\ 1\ 2\ 3\ 4\ \(boot\ hart\ [1-4]\)$ ]] && pass icicle/u54-harts-served ||
    fail icicle/u54-harts-served "Harts line '$harts', expected the U54s 1-4"
[ "$(banner icicle 'Firmware alias')" = "0xc0000000-0xc00fffff (the board's RAM seen again; PMP keeps it from S-mode too)" ] &&
    pass icicle/ddr-alias-protected ||
    fail icicle/ddr-alias-protected "banner's Firmware alias line: '$(banner icicle 'Firmware alias')'"
grep -aq 'SBI extensions.* SRST' "$icicle_log" &&
    fail icicle/no-srst "the banner lists SRST on a board without a reset device" ||
    pass icicle/no-srst
exit $status

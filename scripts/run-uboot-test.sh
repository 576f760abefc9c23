#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boots Debian's S-mode U-Boot under a firmware on QEMU's virt machine, drives
# its shell through a FIFO on QEMU's stdin and turns what it prints into
# PASS/FAIL lines.  Every command is sent only after U-Boot printed a new
# prompt, so the run does not depend on timing; each wait has a deadline.
#
# Usage: run-uboot-test.sh [NAME]   (NAME labels the log, default "tracesbi")
# Environment: FW (firmware ELF, default build/tracesbi.elf), QEMU, SMP (4),
#   TIMEOUT (whole run, seconds, 60), STEP_TIMEOUT (per prompt, 20),
#   UBOOT (/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf), BUILD (build).
#
# Checks:
#   banner             U-Boot started and printed its banner
#   prompt             the shell prompt "=> " appeared (autoboot stopped)
#   prompt-after-<cmd> the prompt came back after `version` and `sbi`
#   version            `version` printed "U-Boot <year>..."
#   sbi-version        `sbi` printed "SBI X.Y" with X.Y >= 0.2
#   sbi-extensions     `sbi` listed extensions under "Extensions:"
#   sbi-ext-<ext>      ... among them base, TIME, IPI, RFENCE, HSM, SRST
#   poweroff           `poweroff` (sysreset through SBI SRST) made QEMU exit
#                      by itself with status 0
set -u
cd "$(dirname "$0")/.."

name=${1:-tracesbi}
BUILD=${BUILD:-build}
FW=${FW:-$BUILD/tracesbi.elf}
QEMU=${QEMU:-qemu-system-riscv64}
SMP=${SMP:-4}
TIMEOUT=${TIMEOUT:-60}
STEP_TIMEOUT=${STEP_TIMEOUT:-20}
UBOOT=${UBOOT:-/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf}

mkdir -p "$BUILD/logs"
raw_log=$BUILD/logs/uboot-$name.raw.log
log=$BUILD/logs/uboot-$name.log
fifo=$BUILD/logs/uboot-$name.stdin

failed=0
pass() { echo "PASS: uboot/$1"; }
fail() { echo "FAIL: uboot/$1: $2"; failed=1; }

for f in "$FW" "$UBOOT"; do
    if [ ! -r "$f" ]; then
        fail "boot" "cannot read $f"
        exit 1
    fi
done

echo "INFO: uboot: booting $UBOOT under $FW ($SMP harts, timeout ${TIMEOUT}s, log $log)"
rm -f "$fifo"
mkfifo "$fifo"
: >"$raw_log"
QEMU=$QEMU scripts/qemu-run.sh --smp "$SMP" --cpu '' --bios "$FW" --kernel "$UBOOT" \
    --timeout "$TIMEOUT" --stdin -- -no-reboot -net none <"$fifo" >"$raw_log" 2>&1 &
qemu_pid=$!
# Opened read-write so that this open does not wait for QEMU's.
exec 3<>"$fifo"
cleanup() {
    exec 3>&-
    rm -f "$fifo"
    [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null
}
trap cleanup EXIT

qemu_running() { kill -0 "$qemu_pid" 2>/dev/null; }
prompts() { tr -d '\r' <"$raw_log" | grep -o '=> ' | wc -l; }
log_has() { tr -d '\r' <"$raw_log" | grep -q -E -- "$1"; }
prompts_reached() { [ "$(prompts)" -ge "$1" ]; }

# Polls the command given as arguments until it succeeds; fails after
# STEP_TIMEOUT seconds or when QEMU is gone.
wait_until() {
    local deadline=$((SECONDS + STEP_TIMEOUT))
    until "$@"; do
        qemu_running && [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

# Waits until the log matches an extended regex.
wait_for_text() { wait_until log_has "$1"; }

# Waits for prompt number $1 (counting from 1).
wait_for_prompt() { wait_until prompts_reached "$1"; }

# Sends one command line and waits for the prompt that follows it.
prompt_count=0
run_command() {
    printf '%s\r' "$1" >&3
    prompt_count=$((prompt_count + 1))
    wait_for_prompt "$prompt_count"
}

# The text U-Boot printed between the echo of command $1 and the next prompt
# (from $log, written without CRs once QEMU has exited).
command_output() {
    awk -v cmd="=> $1" '
        index($0, "=> ") == 1 && started { exit }
        started { print }
        $0 == cmd { started = 1 }' "$log"
}

# 1. Banner, then stop the autoboot countdown with a key press.
if wait_for_text '^U-Boot 20[0-9][0-9]'; then
    pass banner
else
    fail banner "no U-Boot banner within ${STEP_TIMEOUT}s"
fi
if wait_for_text 'Hit any key to stop autoboot|=> ' && [ "$(prompts)" -eq 0 ]; then
    printf ' ' >&3
fi
if wait_for_prompt 1; then
    prompt_count=1
    pass prompt
else
    fail prompt "no \"=> \" prompt within ${STEP_TIMEOUT}s"
fi

# 2. Commands; their output is checked below, from the log.  Without a shell
#    there is nothing to type into: stop QEMU rather than wait for the timeout.
session=0
if [ "$prompt_count" -eq 1 ]; then
    session=1
    for cmd in version sbi; do
        if run_command "$cmd"; then
            pass "prompt-after-$cmd"
        else
            fail "prompt-after-$cmd" "no prompt within ${STEP_TIMEOUT}s after \`$cmd\`"
        fi
    done
    printf 'poweroff\r' >&3
else
    for cmd in version sbi; do
        fail "prompt-after-$cmd" "\`$cmd\` not typed: no shell prompt"
    done
    kill "$qemu_pid" 2>/dev/null
fi

# 3. QEMU must now exit by itself; `timeout` kills it otherwise (status 124).
wait "$qemu_pid"
qemu_rc=$?
qemu_pid=
tr -d '\r' <"$raw_log" >"$log"
echo "INFO: uboot: QEMU exited with status $qemu_rc"

version_out=$(command_output version)
if echo "$version_out" | grep -q -E '^U-Boot 20[0-9][0-9]'; then
    pass version
else
    fail version "\`version\` did not print \"U-Boot <year>...\""
fi

sbi_out=$(command_output sbi)
echo "$sbi_out" | sed 's/^/INFO: uboot: sbi: /'
# U-Boot 2023.01 prints no newline after the version when it does not know
# the implementation ID ("SBI 3.0Unknown implementation ID ..."), and then
# shows the spec version in place of the ID: only the version is parsed.
spec=$(echo "$sbi_out" | sed -n -E 's/^SBI ([0-9]+)\.([0-9]+).*/\1 \2/p' | head -n1)
if [ -z "$spec" ]; then
    fail sbi-version "\`sbi\` printed no \"SBI X.Y\" line"
else
    read -r major minor <<<"$spec"
    if [ "$major" -gt 0 ] || [ "$minor" -ge 2 ]; then
        pass sbi-version
    else
        fail sbi-version "SBI $major.$minor: U-Boot needs v0.2 or later"
    fi
fi

extensions=$(echo "$sbi_out" | sed -n '/^Extensions:/,$p' | sed -n 's/^  *//p')
if [ -n "$extensions" ]; then
    pass sbi-extensions
else
    fail sbi-extensions "\`sbi\` listed no extensions"
fi
# U-Boot's names for the extensions every SBI v0.2+ client here relies on.
while IFS=: read -r ext label; do
    if echo "$extensions" | grep -q -x -F -- "$label"; then
        pass "sbi-ext-$ext"
    else
        fail "sbi-ext-$ext" "\`sbi\` did not list \"$label\""
    fi
done <<'EOF'
base:SBI Base Functionality
time:Timer Extension
ipi:IPI Extension
rfence:RFENCE Extension
hsm:Hart State Management Extension
srst:System Reset Extension
EOF

if [ "$session" -eq 0 ]; then
    fail poweroff "no shell session to type \`poweroff\` into"
elif [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
    fail poweroff "QEMU still running after ${TIMEOUT}s (killed)"
elif ! grep -q '^=> poweroff' "$log"; then
    fail poweroff "QEMU exited (status $qemu_rc) before \`poweroff\` was typed"
elif [ "$qemu_rc" -ne 0 ]; then
    fail poweroff "QEMU exited with status $qemu_rc"
else
    pass poweroff
fi

exit "$failed"

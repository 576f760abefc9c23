#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# make lint: cppcheck and clang-tidy over firmware, lib, drivers, platform
# and tools, with the configuration checked in (.clang-tidy, the cppcheck
# options below), and the firmware's layers (scripts/layers.py).  Prints one PASS:/FAIL: line per tool and code group, and
# every finding; exits non-zero on any finding.
#
#   lint.sh            (from anywhere; runs at the top of the tree)
set -u
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
out=build/lint
mkdir -p "$out"
failed=0

# The firmware's files and flags (mk/80-firmware.mk): riscv64, freestanding.
# clang 14 does not know the zicsr/zifencei names: rv64imac.
FW_FILES=$(ls firmware/*/*.c platform/*.c drivers/*/*.c \
              lib/fdt/*.c lib/rvinsn/*.c lib/ntrace/ntrace_msg.c lib/ntrace/ntrace_enc.c \
              lib/ntrace/ntrace_ingress.c lib/tci/*.c lib/tvtrace/*.c)
FW_INC="-I."
FW_FLAGS="--target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -ffreestanding -std=gnu11
          $FW_INC -isystem /usr/lib/picolibc/riscv64-unknown-elf/include"
# Host tools (mk/60-ntrace-tool.mk, mk/71-tvtrace-tool.mk) and the decoder
# they alone use.
# tsbi-record (linux-trace/recorder) is a Linux program: the host's libc
# and <linux/perf_event.h> check it too.
HOST_FILES=$(ls tools/ntrace/*.c tools/ntrace-bench/*.c tools/tvtrace/*.c tools/board-check/*.c lib/ntrace/ntrace_dec.c \
                linux-trace/recorder/*.c)
HOST_FLAGS="-std=gnu11 -I. -Ilib/fdt -Itools/ntrace -Itools/tvtrace -Ilib -Ilib/rvinsn -Ilib/ntrace -Ilib/tci -Ilib/tvtrace
            -Ilinux-trace"

report() {   # tool group log count
    if [ "$4" -eq 0 ]; then
        echo "PASS: lint $1 $2: $(wc -w <<<"$5") files, no finding"
    else
        echo "FAIL: lint $1 $2: $4 findings (log $3)"
        sed 's/^/    /' "$3"
        failed=1
    fi
}

# cppcheck: every configuration but the assembler one of shared headers,
# LP64, the warning/performance/portability checks.
cppcheck_group() {   # group files include-flags
    local log=$out/cppcheck-$1.txt
    # shellcheck disable=SC2086
    cppcheck --quiet --platform=unix64 --std=c11 -U__ASSEMBLER__ -D__CPPCHECK__ \
        --enable=warning,performance,portability --inline-suppr -j "$jobs" \
        --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
        $3 $2 2>"$log" >/dev/null
    report cppcheck "$1" "$log" "$(grep -c ': \(error\|warning\|style\|performance\|portability\): ' "$log")" "$2"
}

tidy_group() {   # group files flags
    local log=$out/clang-tidy-$1.txt
    # shellcheck disable=SC2086
    printf '%s\n' $2 | xargs -P "$jobs" -I{} clang-tidy --quiet {} -- $3 >"$log" 2>/dev/null
    # Each finding once (a header's finding shows in every file including it).
    grep -E ': (warning|error): ' "$log" | sort -u >"$log.findings"
    report clang-tidy "$1" "$log.findings" "$(wc -l <"$log.findings")" "$2"
}

# scripts/check-fixed-regs.sh itself (the build runs it on the firmware):
# code objdump shows as .2byte/.4byte words (objects whose mapping symbols
# lack C, as picolibc's) must not hide t3..t6 or gp (tests/data/fixed-regs.S).
fixed_regs_selftest() {
    local elf=$out/fixed-regs.elf log=$out/fixed-regs.txt fn found=0
    if ! ${CROSS:-riscv64-unknown-elf-}gcc -march=rv64imac -mabi=lp64 -nostdlib -Wl,-e,clean \
            -o "$elf" tests/data/fixed-regs.S >"$log" 2>&1; then
        echo "FAIL: lint check-fixed-regs self-test: the fixture does not build (log $log)"
        failed=1
        return
    fi
    scripts/check-fixed-regs.sh "$elf" >"$log" 2>&1
    for fn in uses_t3 uses_gp stores_t5 uses_t4_hfence; do
        grep -q "^  $fn (1 instructions)\$" "$log" && found=$((found + 1))
    done
    if [ $found -eq 4 ] && ! grep -q '^  clean ' "$log"; then
        echo "PASS: lint check-fixed-regs self-test: 4 of 4 functions naming t3..t6/gp in .2byte/.4byte code found, the clean one not"
    else
        echo "FAIL: lint check-fixed-regs self-test: $found of 4 functions found, or the clean one named (log $log)"
        failed=1
    fi
}

for tool in cppcheck clang-tidy; do
    command -v $tool >/dev/null || { echo "FAIL: lint: $tool not installed (make deps)"; exit 1; }
done
cppcheck_group firmware "$FW_FILES" "$FW_INC"
cppcheck_group host "$HOST_FILES" "${HOST_FLAGS#-std=gnu11 }"
tidy_group firmware "$FW_FILES" "$FW_FLAGS"
tidy_group host "$HOST_FILES" "$HOST_FLAGS"
fixed_regs_selftest
# The layers (docs/ARCHITECTURE.md "Layout"): no include or link circle
# crosses a folder; the link graph is the built firmware's (make all).
if python3 scripts/layers.py --check >"$out/layers.txt" 2>&1; then
    echo "PASS: lint layers: $(grep -c '' "$out/layers.txt") lines of structure, no circle crosses a folder"
else
    echo "FAIL: lint layers: a circle crosses a folder, or the firmware is not built (log $out/layers.txt)"
    grep -A3 'between folders: [1-9]\|crosses a folder)\|not measured' "$out/layers.txt" | sed 's/^/    /'
    failed=1
fi
exit $failed

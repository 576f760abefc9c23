#!/usr/bin/env bash
# The ecall fast path (firmware/trap.S) does not save t3..t6: the firmware's
# C code is built with -ffixed-t3..t6 and never touches them.  Code that
# does not come from those objects (libgcc, picolibc, assembly) could, so
# this checks the linked image: no function may name t3..t6 except the
# trap vectors' full-frame paths and the boot code before any S-mode state
# exists.  gp is S-mode's too (the firmware links with call relaxation but
# defines no __global_pointer$, so ld never makes gp-relative accesses):
# the same rule holds for it.  Fails the build with the offending functions.
#
# usage: check-fixed-regs.sh FIRMWARE.elf
set -u
elf=$1
allowed='^(_start|wait_for_boot_hart|enter_hart_slot|trap_entry(_counted|_traced|_traced_counted)?(_slow)?)$'
bad=$(${CROSS:-riscv64-unknown-elf-}objdump -d --no-show-raw-insn "$elf" | awk -v allowed="$allowed" '
    /^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
    /\t/ {
        split($0, f, "\t")
        if (f[3] ~ /(^|[ ,(])(t[3-6]|gp)([,)]|$)/ && fn !~ allowed) n[fn]++
    }
    END { for (k in n) printf "%s (%d instructions)\n", k, n[k] }')
if [ -n "$bad" ]; then
    echo "check-fixed-regs: $elf: these functions use t3..t6 or gp, which the firmware leaves to S-mode:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
fi

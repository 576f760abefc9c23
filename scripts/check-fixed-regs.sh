#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The ecall fast path (firmware/trap/trap.S) does not save t3..t6: the firmware's
# C code is built with -ffixed-t3..t6 and never touches them.  Code that
# does not come from those objects (libgcc, picolibc, assembly) could, so
# this checks the linked image: no function may name t3..t6 except the
# trap vectors' full-frame paths and the boot code before any S-mode state
# exists, and the fast visit's table that reads S-mode's registers where
# they are (trace_fast_read, firmware/trace/step_fast.S: it never writes
# them).  gp is S-mode's too (the firmware links with call relaxation but
# defines no __global_pointer$, so ld never makes gp-relative accesses):
# the same rule holds for it.  Fails the build with the offending functions.
# objdump shows code of objects whose attributes lack C (picolibc's string
# routines) as .2byte: those are decoded here as RVC (the formats with a
# full register field), and unknown SYSTEM words (.4byte: hfence) by their
# register fields.  The traced trap path's light exit (trap.S) relies on
# this rule too.
#
# usage: check-fixed-regs.sh FIRMWARE.elf
set -u
elf=$1
allowed='^(_start|wait_for_boot_hart|enter_hart_slot|trap_entry(_counted|_traced|_traced_counted|_traced_fast)?(_slow|_full)?|trace_fast_read)$'
bad=$(${CROSS:-riscv64-unknown-elf-}objdump -d --no-show-raw-insn "$elf" | awk -v allowed="$allowed" '
    function hexval(s,   i, v) {
        v = 0
        s = tolower(s)
        sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++)
            v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    function bits(v, lo, n) { return int(v / 2 ^ lo) % 2 ^ n }
    function fixed(r) { return r == 3 || (r >= 28 && r <= 31) }
    # RVC formats with a 5-bit register field: C1 addi/addiw/li/lui (rd),
    # C2 slli/lwsp/ldsp (rd), jr/mv/jalr/add (rd, rs2), swsp/sdsp (rs2)
    function rvc_fixed(v,   q, f3, r1, r2) {
        q = bits(v, 0, 2); f3 = bits(v, 13, 3); r1 = bits(v, 7, 5); r2 = bits(v, 2, 5)
        if (q == 1)
            return f3 <= 3 && fixed(r1)
        if (q == 2 && (f3 == 0 || f3 == 2 || f3 == 3))
            return fixed(r1)
        if (q == 2 && f3 == 4)
            return fixed(r1) || fixed(r2)
        if (q == 2 && (f3 == 6 || f3 == 7))
            return fixed(r2)
        return 0
    }
    function system_fixed(v) {
        return bits(v, 0, 7) == 115 &&
               (fixed(bits(v, 7, 5)) || fixed(bits(v, 15, 5)) || fixed(bits(v, 20, 5)))
    }
    /^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
    /\t/ {
        split($0, f, "\t")
        if (f[2] == ".2byte")
            use = rvc_fixed(hexval(f[3]))
        else if (f[2] == ".4byte")
            use = system_fixed(hexval(f[3]))
        else
            use = f[3] ~ /(^|[ ,(])(t[3-6]|gp)([,)]|$)/
        if (use && fn !~ allowed) n[fn]++
    }
    END { for (k in n) printf "%s (%d instructions)\n", k, n[k] }')
if [ -n "$bad" ]; then
    echo "check-fixed-regs: $elf: these functions use t3..t6 or gp, which the firmware leaves to S-mode:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
fi

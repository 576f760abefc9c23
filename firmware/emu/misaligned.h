/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Emulation of misaligned loads and stores in M-mode.
 *
 * Harts that do not support misaligned accesses in hardware raise
 * "load address misaligned" (mcause 4) or "store/AMO address misaligned"
 * (mcause 6) and M-mode completes the access byte by byte on behalf of the
 * interrupted S/U-mode context.  RV64 only (XLEN = 64).
 */
#ifndef FIRMWARE_MISALIGNED_H
#define FIRMWARE_MISALIGNED_H

#include "firmware/core/trap_regs.h"

/*
 * Complete the misaligned load or store that trapped at regs->mepc.
 *
 * mcause is CAUSE_MISALIGNED_LOAD or CAUSE_MISALIGNED_STORE (riscv_csr.h) and
 * mtval the faulting address as the hart reported them.  The instruction is
 * fetched from regs->mepc (mtinst may be 0 on the boards we run on) and its
 * address recomputed from its operands.
 *
 * Returns 0 when the access was done: rd (integer or FP) written, mstatus.FS
 * set to Dirty after an FP load, regs->mepc advanced past the instruction.
 *
 * Returns -1 with *redirect set to the trap S-mode must take instead:
 *  - the access or page fault of a byte access (rd is not written; a store
 *    may already have written the bytes below the faulting one, which is
 *    what a hart that splits misaligned stores also does);
 *  - the fault of fetching the instruction;
 *  - illegal instruction (tval = the instruction) for an FP load/store while
 *    mstatus.FS is Off;
 *  - load/store access fault (tval = the address) for LR/SC/AMOs, which are
 *    never emulated since they could not be atomic (unprivileged spec, "A"
 *    extension: a misaligned atomic may raise an access fault instead);
 *  - the original trap (mcause, mtval) for anything else it cannot decode.
 */
int misaligned_emulate(struct trap_regs *regs, unsigned long mcause,
		       unsigned long mtval, struct trap_info *redirect);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The full trap frame: saved by trap.S on the slow path (every trap except
 * the ecall fast path), handed to the C handlers, restored on return.
 * regs[n] is xn (regs[0] is unused and always reads as zero for emulation).
 */
#ifndef FIRMWARE_TRAP_REGS_H
#define FIRMWARE_TRAP_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>

struct trap_regs {
	unsigned long x[32];     /* x[0] kept 0; x[2] is the interrupted sp */
	unsigned long mepc;
	unsigned long mstatus;
};

/* A trap to hand to S-mode (see trap_redirect) or that an access took. */
struct trap_info {
	unsigned long cause;
	unsigned long tval;
};
#endif

/* xn in the frame (x[] first); the other offsets and the frame's size are
 * generated for the assembly (firmware/trap/asm_offsets.c). */
#define TRAP_REGS_X(n)     ((n) * 8)
#ifndef __ASSEMBLER__
_Static_assert(__builtin_offsetof(struct trap_regs, x) == 0, "TRAP_REGS_X");
#define TRAP_REGS_SIZE     sizeof(struct trap_regs)
#endif

#endif

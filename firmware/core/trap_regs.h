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

#define TRAP_REGS_X(n)     ((n) * 8)
#define TRAP_REGS_MEPC     (32 * 8)
#define TRAP_REGS_MSTATUS  (33 * 8)
#define TRAP_REGS_SIZE     272   /* 34 * 8 */

#endif

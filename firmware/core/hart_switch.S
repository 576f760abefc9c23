/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A hart's M-mode stacks (one HART_STACK_SIZE region each, ending with its
 * struct hart: hart.h) and its ways out of M-mode: parked for good, into
 * S/U-mode (HSM start and resume, the boot's next stage), or back to the
 * top of its stack.
 */
#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"
#include "asm_offsets.h"     /* generated: firmware/trap/asm_offsets.c */

	.section .text, "ax"
/* A hart the firmware cannot serve, or a trap before traps are set up. */
	.balign 4
	.globl park_trap
park_trap:
	csrw	mie, zero
1:	wfi
	j	1b

/*
 * hart_enter_lower(addr, a0, a1, mode): leave M-mode for S (mode 1) or U
 * (mode 0) at addr with a0/a1 set, satp = 0 and S interrupts disabled (HSM
 * start/resume register state).  mscratch is re-pointed at this hart's
 * trap frame, since the ecall that got us here may have abandoned its frame.
 */
	.section .text, "ax"
	.globl hart_enter_lower
hart_enter_lower:
	csrw	mepc, a0
	li	t0, MSTATUS_MPP | MSTATUS_MPRV | MSTATUS_MPIE | MSTATUS_SIE | MSTATUS_SPIE | \
		    MSTATUS_MPV | MSTATUS_GVA
	csrc	mstatus, t0
	andi	a3, a3, 3
	slli	a3, a3, MSTATUS_MPP_SHIFT
	csrs	mstatus, a3
	csrw	satp, zero
	li	t0, HART_STACK_SIZE - 1
	or	t0, sp, t0
	addi	t0, t0, 1 - HART_STRUCT_SIZE - TRAP_REGS_SIZE
	csrw	mscratch, t0
	mv	a0, a1
	mv	a1, a2
	li	a2, 0
	li	a3, 0
	li	ra, 0
	li	sp, 0
	li	t0, 0
	mret

/* hart_reset_stack_and_call(fn, hart): drop the whole M-mode stack. */
	.globl hart_reset_stack_and_call
hart_reset_stack_and_call:
	mv	sp, a1
	mv	t0, a0
	mv	a0, a1
	jr	t0


	.section .stacks, "aw", @nobits
	.balign HART_STACK_SIZE
	.globl hart_stacks
hart_stacks:
	.space HART_STACK_SIZE * MAX_HARTS


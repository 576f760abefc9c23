/* SPDX-License-Identifier: BSD-2-Clause */
/* The trap guard handler: see firmware/include/guard.h. */
	.section .text.guard, "ax"
	.option norvc
	.balign 4
	.globl guard_trap_handler
guard_trap_handler:
	csrr	t6, mepc
	addi	t6, t6, 4
	csrw	mepc, t6
	csrr	t5, mtval
	csrr	t6, mcause
	addi	t6, t6, 1
	mret

/* SPDX-License-Identifier: BSD-2-Clause */
/* The trap guard handler: see firmware/include/guard.h. */
	.section .text.guard, "ax"
	.option norvc
	.balign 4
	.globl guard_trap_handler
guard_trap_handler:
	csrr	t1, mepc
	addi	t1, t1, 4
	csrw	mepc, t1
	csrr	t2, mtval
	csrr	t1, mcause
	addi	t1, t1, 1
	mret

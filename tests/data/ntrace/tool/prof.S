/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Profile test program for the ntrace tool (tests/host/test_ntrace_views.c):
 * functions with symbols (.type @function), calls in a loop, a nested call,
 * a trap into a handler and back, and a tail call.  No compressed
 * instructions, so every address below is _start + 4 * n; prof.pcs is its
 * retired-instruction sequence (43 instructions), written by hand and
 * checked by the encoder's transition rules.
 */
	.option norvc
	.section .text, "ax"

	.globl _start
	.type _start, @function
_start:
	la	t0, handler		/* 0x00 auipc, 0x04 addi */
	csrw	mtvec, t0		/* 0x08 */
	jal	ra, main		/* 0x0c */
1:	j	1b			/* 0x10 */

	.globl main
	.type main, @function
main:
	addi	sp, sp, -16		/* 0x14 */
	sd	ra, 8(sp)		/* 0x18 */
	li	s0, 3			/* 0x1c */
loop:
	jal	ra, leaf		/* 0x20: three calls */
	addi	s0, s0, -1		/* 0x24 */
	bnez	s0, loop		/* 0x28 */
	jal	ra, mid			/* 0x2c */
	ecall				/* 0x30: trap to handler */
	ld	ra, 8(sp)		/* 0x34 */
	addi	sp, sp, 16		/* 0x38 */
	j	tail			/* 0x3c: tail call */

	.globl leaf
	.type leaf, @function
leaf:
	addi	a0, a0, 1		/* 0x40 */
	ret				/* 0x44 */

	.globl mid
	.type mid, @function
mid:
	addi	sp, sp, -16		/* 0x48 */
	sd	ra, 8(sp)		/* 0x4c */
	jal	ra, leaf		/* 0x50 */
	ld	ra, 8(sp)		/* 0x54 */
	addi	sp, sp, 16		/* 0x58 */
	ret				/* 0x5c */

	.globl tail
	.type tail, @function
tail:
	addi	a1, a1, 1		/* 0x60 */
	ret				/* 0x64: back to _start */

	.globl handler
	.type handler, @function
	.balign 4
handler:
	csrr	t0, mepc		/* 0x68 */
	addi	t0, t0, 4		/* 0x6c */
	csrw	mepc, t0		/* 0x70 */
	mret				/* 0x74 */

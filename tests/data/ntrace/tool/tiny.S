/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tiny RISC-V program for the ntrace tool tests: every kind of control
 * transfer the encoder classifies (linear 16/32-bit, taken and not-taken
 * branches, direct and indirect calls, return, indirect jump, ecall into a
 * trap handler and mret back).  Built with -mno-relax so addresses are fixed;
 * tiny.pcs is its retired-instruction sequence.
 */
	.section .text, "ax"
	.globl _start
_start:
	la	t0, handler		/* auipc + addi */
	csrw	mtvec, t0
	li	a0, 3			/* c.li */
loop:
	addi	a0, a0, -1		/* c.addi */
	bnez	a0, loop		/* c.bnez: taken twice, then not taken */
	jal	ra, leaf		/* direct call (inferable) */
	call	leaf			/* auipc + jalr ra: indirect call */
	la	t1, after
	jr	t1			/* c.jr t1: indirect jump */
	nop
after:
	.option push
	.option norvc
	beq	a0, zero, skip		/* 32-bit branch, taken */
	nop
skip:
	.option pop
	ecall				/* trap to handler, mret returns past it */
	j	done			/* direct jump */
	nop
done:
	j	done

leaf:
	addi	a1, a1, 1
	ret				/* c.jr ra: return */

	.balign 4
handler:
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	mret

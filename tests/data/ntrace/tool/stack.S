/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Call-stack test program for `ntrace profile` (tests/host/
 * test_ntrace_tool_stack.c): small functions whose pcs the tests string
 * together into traces that call, return, trap, return from traps
 * elsewhere, jump to an outer frame's return address and break off.  It
 * never runs: only its instruction words and symbols matter.  No
 * compressed instructions: every address is _start + 4 * n.
 */
	.option norvc
	.section .text, "ax"

#define FUNC(name) .globl name; .type name, @function; name:

FUNC(_start)
	jal	ra, f			/* 0x00 */
	j	_start			/* 0x04 */
FUNC(f)
	jal	ra, g			/* 0x08 */
	ret				/* 0x0c */
FUNC(g)
	addi	a0, a0, 1		/* 0x10 */
	ret				/* 0x14 */
FUNC(handler)
	addi	t0, t0, 1		/* 0x18 */
	sret				/* 0x1c */
FUNC(icall)
	jalr	ra, 0(a5)		/* 0x20: an indirect call */
	ret				/* 0x24 */
FUNC(jumper)
	jr	t1			/* 0x28: not a return: rs1 is no link */
FUNC(sys)
	ecall				/* 0x2c */
	ret				/* 0x30 */
FUNC(run)
	jal	ra, launch		/* 0x34 */
	j	run			/* 0x38 */
FUNC(launch)
	sret				/* 0x3c: starts a program */
FUNC(prog)
	jal	ra, sys			/* 0x40 */
	j	prog			/* 0x44 */
FUNC(back)
	ret				/* 0x48 */
FUNC(outer)
	jal	ra, mid			/* 0x4c */
	ret				/* 0x50 */
FUNC(mid)
	jal	ra, jumper		/* 0x54 */
	ret				/* 0x58 */
FUNC(event)
	addi	a0, a0, 1		/* 0x5c */
	ecall				/* 0x60 */

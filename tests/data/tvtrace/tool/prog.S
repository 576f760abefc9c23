/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The program the tvtrace tool's tests trace by hand (tests/host/
 * test_tvtrace_tool.c writes the records its execution gives).  Linked at
 * 0x80000000; every instruction 4 bytes so the offsets below hold.
 */
	.option norvc
	.text
	.globl _start
_start:
	auipc	x2, 0x10		/* 0x00: x2 = 0x80010000 */
	addi	x5, x0, 5		/* 0x04 */
	addi	x6, x0, 7		/* 0x08 */
	bne	x5, x6, 1f		/* 0x0c: taken */
	addi	x7, x0, 1		/* 0x10: skipped */
1:	jal	x1, func		/* 0x14: x1 = 0x80000018 */
	sd	x6, 8(x2)		/* 0x18: 7 to 0x80010008 */
	ld	x8, 8(x2)		/* 0x1c: x8 = 7 */
	beq	x5, x6, 1b		/* 0x20: not taken */
	ecall				/* 0x24: to stvec = handler */
func:
	addi	x10, x0, 3		/* 0x28 */
	jalr	x0, 0(x1)		/* 0x2c */
handler:
	sret				/* 0x30 */

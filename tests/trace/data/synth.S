/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Instruction image for the hand-written logs of selftest-ground-truth.sh
 * (linked at 0x80200000, never run): every instruction the extractor has to
 * decode sits at a fixed address (.org), written in the logs as is.
 */
	.option norvc
	.text
	.globl	_start, trace_first, trace_last
_start:
	.org	0x00
	nop				/* 80200000 .. 8020000c: linear */
	nop
	nop
	nop
	.org	0x10
	beq	a0, a1, br_t		/* 80200010 -> 80200040 | 80200014 */
	nop
	nop
	nop
	.org	0x20
	jal	ra, jal_t		/* 80200020 -> 80200050 */
	jalr	ra, 0(t0)		/* 80200024 */
	.option rvc
	c.j	cj_t			/* 80200028 -> 80200048 */
	c.jr	t0			/* 8020002a */
	c.jalr	t0			/* 8020002c */
	c.beqz	a0, cb_t		/* 8020002e -> 80200070 | 80200030 */
	c.bnez	a0, cb_t		/* 80200030 -> 80200070 | 80200032 */
	c.ebreak			/* 80200032 */
	c.sw	a0, 0(a1)		/* 80200034 */
	c.nop				/* 80200036 */
	.option norvc
	sret				/* 80200038 */
	ecall				/* 8020003c */
	.org	0x40
br_t:	nop				/* 80200040 .. 8020004c */
	nop
cj_t:	nop
	nop
	.org	0x50
jal_t:	nop				/* 80200050 .. 8020005c */
	nop
	nop
	nop
	.org	0x60
	ebreak				/* 80200060 */
	lw	a0, 0(a1)		/* 80200064 */
	sw	a0, 0(a1)		/* 80200068 */
	nop				/* 8020006c */
	.org	0x70
cb_t:	nop				/* 80200070 .. 8020007c */
	nop
	nop
	nop
	.org	0x80
self:	j	self			/* 80200080 -> 80200080 */
	mret				/* 80200084 */
	.org	0xfc
	sw	a1, 0(a0)		/* 802000fc: the enabling store */
	.org	0x100
trace_first:
	nop				/* 80200100 .. 8020010c */
	nop
	nop
	nop
trace_last:
	sw	zero, 0(a0)		/* 80200110 */
	nop				/* 80200114 */
	.org	0x200
	.rept	16			/* 80200200 .. 8020023c: U-mode code */
	nop
	.endr

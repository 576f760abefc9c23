/* SPDX-License-Identifier: BSD-2-Clause */
/* RV32 image for selftest-ground-truth.sh (C.JAL exists only on RV32). */
	.option rvc
	.text
	.globl	_start
_start:
	c.jal	target			/* 80200000 -> 80200010 */
	c.nop				/* 80200002 */
	.org	0x10
target:	c.nop				/* 80200010 */
	c.nop

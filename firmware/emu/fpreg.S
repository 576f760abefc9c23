/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fpreg_read(reg, width) / fpreg_write(reg, width, val) for the misaligned
 * FP load/store emulation: a jump table of 32 fmv instructions each way.
 * Assembled with the D extension; the firmware's C code never uses FP.
 */
#include "firmware/core/riscv_csr.h"

	.option push
	.option arch, +d
	.option norvc
	.section .text, "ax"

/* Enable the FPU (mstatus.FS), then jump to entry a0 of the table at 1f:
 * 32 entries of 8 bytes for width 8, the next 32 for width 4 (a1). */
	.macro FP_DISPATCH
	li	t0, MSTATUS_FS
	csrs	mstatus, t0
	la	t1, 1f
	slli	t2, a0, 3
	add	t1, t1, t2
	li	t0, 4
	bne	a1, t0, 2f
	addi	t1, t1, 32 * 8
2:	jr	t1
	.endm

	.globl fpreg_read
fpreg_read:
	FP_DISPATCH
1:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fmv.x.d	a0, f\n
	ret
	.endr
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fmv.x.w	a0, f\n
	j	3f
	.endr
3:	slli	a0, a0, 32
	srli	a0, a0, 32
	ret

	.globl fpreg_write
fpreg_write:
	FP_DISPATCH
1:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fmv.d.x	f\n, a2
	ret
	.endr
	/* fmv.w.x NaN-boxes the single-precision value. */
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fmv.w.x	f\n, a2
	ret
	.endr
	.option pop

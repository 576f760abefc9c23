/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The `fp` program: F and D instructions for the TV mode's FPR, fflags and
 * store-data records (tests/trace, configuration tv-regs compares its
 * register values with QEMU's `-d cpu,fpu` dumps).  The payload is built
 * for rv64imac: this file alone turns on F and D.  sstatus.FS goes to
 * Dirty with one csrs, so no F/D instruction changes sstatus implicitly
 * (the TV trace does not report such changes, docs/TRACE.md).
 * Returns 0 when every result is right.
 */
#define SSTATUS_FS_DIRTY 0x6000
#define FFLAGS_DZ        0x8

	.option arch, +f, +d
	.text
	.globl p_fp
	.balign 4
p_fp:
	li	t0, SSTATUS_FS_DIRTY
	csrs	sstatus, t0
	la	a5, fp_data
	fld	fa0, 0(a5)		/* 1.5 */
	fld	fa1, 8(a5)		/* 2.25 */
	fadd.d	fa2, fa0, fa1		/* 3.75 */
	fmul.d	fa3, fa2, fa0		/* 5.625 */
	fdiv.d	fa4, fa3, fa1		/* 2.5 */
	fsqrt.d	fa5, fa1		/* 1.5 */
	fmadd.d	fa6, fa0, fa1, fa2	/* 7.125 */
	fsgnjn.d fa7, fa6, fa6		/* -7.125 */
	flw	ft0, 16(a5)		/* 0.5f, NaN-boxed in the register */
	fadd.s	ft1, ft0, ft0		/* 1.0f */
	fcvt.d.s ft2, ft1		/* 1.0 */
	li	t1, 7
	fcvt.d.l ft3, t1		/* 7.0 */
	fcvt.l.d t2, fa4, rtz		/* 2 */
	fmv.x.d	t3, fa5
	fmv.d.x	ft4, t3
	feq.d	t4, fa5, ft4		/* 1 */
	fsflags	zero
	fmv.d.x	ft6, zero
	fdiv.d	ft5, fa0, ft6		/* +inf, raises DZ */
	frflags	t5
	fsd	fa7, 24(a5)
	ld	t6, 24(a5)
	/* a0 = number of wrong results */
	li	a0, 0
	addi	t2, t2, -2
	snez	t2, t2
	add	a0, a0, t2
	addi	t4, t4, -1
	snez	t4, t4
	add	a0, a0, t4
	xori	t5, t5, FFLAGS_DZ
	snez	t5, t5
	add	a0, a0, t5
	ld	t1, 32(a5)		/* the bits of -7.125 */
	xor	t6, t6, t1
	snez	t6, t6
	add	a0, a0, t6
	li	t0, SSTATUS_FS_DIRTY
	csrc	sstatus, t0
	ret
	.globl p_fp_end
p_fp_end:

	.data
	.balign 8
fp_data:
	.double	1.5
	.double	2.25
	.float	0.5
	.word	0
	.dword	0			/* fsd writes here */
	.double	-7.125

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ecall of the hostile SBI caller (hostile.c): every GPR but sp holds a
 * value the caller chose (a0-a7 the call's arguments, the rest a pattern),
 * and every GPR is written back after the call, so the caller can check that
 * the firmware preserved all of them but a0/a1.  A non-retentive suspend
 * resumes at hostile_resume_entry (a0 = hartid, a1 = opaque = the register
 * block), which returns from hostile_ecall as if the call had come back.
 *
 * struct hostile_regs { unsigned long x[32]; unsigned long sp, resumed; }
 */
#define MAX_HARTS   8
#define REG_X(n)    ((n) * 8)
#define REG_SP      (32 * 8)
#define REG_RESUMED (33 * 8)

/* Frame: ra, gp, tp, s0-s11 (15 slots), the block pointer, a spill slot. */
#define FRAME       (18 * 8)
#define F_BLOCK     (15 * 8)
#define F_SPILL     (16 * 8)

	.text
	.globl hostile_ecall
	.balign 4
/* void hostile_ecall(struct hostile_regs *r) */
hostile_ecall:
	addi	sp, sp, -FRAME
	sd	ra, 0*8(sp)
	sd	gp, 1*8(sp)
	sd	tp, 2*8(sp)
	sd	s0, 3*8(sp)
	sd	s1, 4*8(sp)
	sd	s2, 5*8(sp)
	sd	s3, 6*8(sp)
	sd	s4, 7*8(sp)
	sd	s5, 8*8(sp)
	sd	s6, 9*8(sp)
	sd	s7, 10*8(sp)
	sd	s8, 11*8(sp)
	sd	s9, 12*8(sp)
	sd	s10, 13*8(sp)
	sd	s11, 14*8(sp)
	sd	a0, F_BLOCK(sp)
	sd	sp, REG_SP(a0)
	ld	x1, REG_X(1)(a0)
	ld	x3, REG_X(3)(a0)
	ld	x4, REG_X(4)(a0)
	ld	x5, REG_X(5)(a0)
	ld	x6, REG_X(6)(a0)
	ld	x7, REG_X(7)(a0)
	ld	x8, REG_X(8)(a0)
	ld	x9, REG_X(9)(a0)
	ld	x11, REG_X(11)(a0)
	ld	x12, REG_X(12)(a0)
	ld	x13, REG_X(13)(a0)
	ld	x14, REG_X(14)(a0)
	ld	x15, REG_X(15)(a0)
	ld	x16, REG_X(16)(a0)
	ld	x17, REG_X(17)(a0)
	ld	x18, REG_X(18)(a0)
	ld	x19, REG_X(19)(a0)
	ld	x20, REG_X(20)(a0)
	ld	x21, REG_X(21)(a0)
	ld	x22, REG_X(22)(a0)
	ld	x23, REG_X(23)(a0)
	ld	x24, REG_X(24)(a0)
	ld	x25, REG_X(25)(a0)
	ld	x26, REG_X(26)(a0)
	ld	x27, REG_X(27)(a0)
	ld	x28, REG_X(28)(a0)
	ld	x29, REG_X(29)(a0)
	ld	x30, REG_X(30)(a0)
	ld	x31, REG_X(31)(a0)
	ld	x10, REG_X(10)(a0)
	ecall
hostile_ecall_return:
	/* sp is the frame's (the firmware must preserve it; the resume entry
	 * restores it): spill t0, then store every register in the block. */
	sd	t0, F_SPILL(sp)
	ld	t0, F_BLOCK(sp)
	sd	x1, REG_X(1)(t0)
	sd	x2, REG_X(2)(t0)
	sd	x3, REG_X(3)(t0)
	sd	x4, REG_X(4)(t0)
	sd	x6, REG_X(6)(t0)
	sd	x7, REG_X(7)(t0)
	sd	x8, REG_X(8)(t0)
	sd	x9, REG_X(9)(t0)
	sd	x10, REG_X(10)(t0)
	sd	x11, REG_X(11)(t0)
	sd	x12, REG_X(12)(t0)
	sd	x13, REG_X(13)(t0)
	sd	x14, REG_X(14)(t0)
	sd	x15, REG_X(15)(t0)
	sd	x16, REG_X(16)(t0)
	sd	x17, REG_X(17)(t0)
	sd	x18, REG_X(18)(t0)
	sd	x19, REG_X(19)(t0)
	sd	x20, REG_X(20)(t0)
	sd	x21, REG_X(21)(t0)
	sd	x22, REG_X(22)(t0)
	sd	x23, REG_X(23)(t0)
	sd	x24, REG_X(24)(t0)
	sd	x25, REG_X(25)(t0)
	sd	x26, REG_X(26)(t0)
	sd	x27, REG_X(27)(t0)
	sd	x28, REG_X(28)(t0)
	sd	x29, REG_X(29)(t0)
	sd	x30, REG_X(30)(t0)
	sd	x31, REG_X(31)(t0)
	ld	t1, F_SPILL(sp)
	sd	t1, REG_X(5)(t0)
	ld	ra, 0*8(sp)
	ld	gp, 1*8(sp)
	ld	tp, 2*8(sp)
	ld	s0, 3*8(sp)
	ld	s1, 4*8(sp)
	ld	s2, 5*8(sp)
	ld	s3, 6*8(sp)
	ld	s4, 7*8(sp)
	ld	s5, 8*8(sp)
	ld	s6, 9*8(sp)
	ld	s7, 10*8(sp)
	ld	s8, 11*8(sp)
	ld	s9, 12*8(sp)
	ld	s10, 13*8(sp)
	ld	s11, 14*8(sp)
	addi	sp, sp, FRAME
	ret

/* Non-retentive resume: a0 = hartid, a1 = opaque, which must be the hart's
 * register block (hostile_block[hartid]).  The block comes from the table,
 * not from a1, so a wrong opaque is reported (resumed = 2), not followed. */
	.globl hostile_resume_entry
	.balign 4
hostile_resume_entry:
	li	t1, MAX_HARTS
	bgeu	a0, t1, 2f
	la	t1, hostile_block
	slli	t2, a0, 3
	add	t1, t1, t2
	ld	t1, 0(t1)
	beqz	t1, 2f
	ld	sp, REG_SP(t1)
	li	t0, 1
	beq	t1, a1, 1f
	li	t0, 2
1:	sd	t0, REG_RESUMED(t1)
	j	hostile_ecall_return
2:	wfi
	j	2b

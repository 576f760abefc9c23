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

/* ra, gp, tp, s0-s11 in the frame's first 15 slots (slot i at i*8). */
#define CALLEE_SAVED 1, 3, 4, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27
	.macro	callee_saved op
	.set	slot, 0
	.irp	r, CALLEE_SAVED
	\op	x\r, slot*8(sp)
	.set	slot, slot + 1
	.endr
	.endm

	.text
	.globl hostile_ecall
	.balign 4
/* void hostile_ecall(struct hostile_regs *r) */
hostile_ecall:
	addi	sp, sp, -FRAME
	callee_saved sd
	sd	a0, F_BLOCK(sp)
	sd	sp, REG_SP(a0)
	/* every register from the block but sp, and a0 last */
	.irp	n, 1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	ld	x\n, REG_X(\n)(a0)
	.endr
	ld	x10, REG_X(10)(a0)
	ecall
hostile_ecall_return:
	/* sp is the frame's (the firmware must preserve it; the resume entry
	 * restores it): spill t0, then store every register in the block. */
	sd	t0, F_SPILL(sp)
	ld	t0, F_BLOCK(sp)
	.irp	n, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	sd	x\n, REG_X(\n)(t0)
	.endr
	ld	t1, F_SPILL(sp)
	sd	t1, REG_X(5)(t0)
	callee_saved ld
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

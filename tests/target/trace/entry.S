/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traced-program payload's own trap vector (U-mode needs a stack
 * switch: sscratch holds the kernel stack while U-mode runs, 0 in S-mode),
 * the entry into a U-mode program, and the two instructions that bracket a
 * trace session (trace_first, trace_last: the ground truth is cut there).
 */
#define FRAME_SIZE (36 * 8)
#define SSTATUS_SPP  (1 << 8)
#define SSTATUS_SPIE (1 << 5)

	.text
	.globl tk_vector
	.balign 4
tk_vector:
	csrrw	sp, sscratch, sp
	bnez	sp, 1f
	/* From S-mode: sscratch was 0, keep the current stack. */
	csrrw	sp, sscratch, sp
1:	addi	sp, sp, -FRAME_SIZE
	sd	x1, 1*8(sp)
	sd	x3, 3*8(sp)
	sd	x4, 4*8(sp)
	sd	x5, 5*8(sp)
	sd	x6, 6*8(sp)
	sd	x7, 7*8(sp)
	sd	x8, 8*8(sp)
	sd	x9, 9*8(sp)
	sd	x10, 10*8(sp)
	sd	x11, 11*8(sp)
	sd	x12, 12*8(sp)
	sd	x13, 13*8(sp)
	sd	x14, 14*8(sp)
	sd	x15, 15*8(sp)
	sd	x16, 16*8(sp)
	sd	x17, 17*8(sp)
	sd	x18, 18*8(sp)
	sd	x19, 19*8(sp)
	sd	x20, 20*8(sp)
	sd	x21, 21*8(sp)
	sd	x22, 22*8(sp)
	sd	x23, 23*8(sp)
	sd	x24, 24*8(sp)
	sd	x25, 25*8(sp)
	sd	x26, 26*8(sp)
	sd	x27, 27*8(sp)
	sd	x28, 28*8(sp)
	sd	x29, 29*8(sp)
	sd	x30, 30*8(sp)
	sd	x31, 31*8(sp)
	/* The interrupted sp: U's (in sscratch) or S's (above the frame). */
	csrr	t0, sscratch
	bnez	t0, 2f
	addi	t0, sp, FRAME_SIZE
2:	sd	t0, 2*8(sp)
	csrw	sscratch, zero
	csrr	t0, sepc
	sd	t0, 32*8(sp)
	csrr	t0, scause
	sd	t0, 33*8(sp)
	csrr	t0, stval
	sd	t0, 34*8(sp)
	csrr	t0, sstatus
	sd	t0, 35*8(sp)
	mv	a0, sp
	call	tk_trap
	ld	t0, 32*8(sp)
	csrw	sepc, t0
	ld	t0, 35*8(sp)
	csrw	sstatus, t0
	/* Back to U-mode: traps from there use the stack above this frame. */
	andi	t0, t0, SSTATUS_SPP
	bnez	t0, 3f
	addi	t0, sp, FRAME_SIZE
	csrw	sscratch, t0
3:	ld	x1, 1*8(sp)
	ld	x3, 3*8(sp)
	ld	x4, 4*8(sp)
	ld	x5, 5*8(sp)
	ld	x6, 6*8(sp)
	ld	x7, 7*8(sp)
	ld	x8, 8*8(sp)
	ld	x9, 9*8(sp)
	ld	x10, 10*8(sp)
	ld	x11, 11*8(sp)
	ld	x12, 12*8(sp)
	ld	x13, 13*8(sp)
	ld	x14, 14*8(sp)
	ld	x15, 15*8(sp)
	ld	x16, 16*8(sp)
	ld	x17, 17*8(sp)
	ld	x18, 18*8(sp)
	ld	x19, 19*8(sp)
	ld	x20, 20*8(sp)
	ld	x21, 21*8(sp)
	ld	x22, 22*8(sp)
	ld	x23, 23*8(sp)
	ld	x24, 24*8(sp)
	ld	x25, 25*8(sp)
	ld	x26, 26*8(sp)
	ld	x27, 27*8(sp)
	ld	x28, 28*8(sp)
	ld	x29, 29*8(sp)
	ld	x30, 30*8(sp)
	ld	x31, 31*8(sp)
	ld	x2, 2*8(sp)
	sret

/*
 * long tk_run_user(entry, arg, user_sp, ctx): runs entry(arg) in U-mode
 * until it makes the exit call, whose handler resumes tk_user_return with
 * the kernel registers saved in ctx (ra, sp, s0-s11) and a0 = exit value.
 */
	.globl tk_run_user
tk_run_user:
	/* No interrupt between setting sepc and the sret (it would set sepc);
	 * the sret enables them again through SPIE. */
	csrci	sstatus, 2
	sd	ra, 0*8(a3)
	sd	sp, 1*8(a3)
	sd	s0, 2*8(a3)
	sd	s1, 3*8(a3)
	sd	s2, 4*8(a3)
	sd	s3, 5*8(a3)
	sd	s4, 6*8(a3)
	sd	s5, 7*8(a3)
	sd	s6, 8*8(a3)
	sd	s7, 9*8(a3)
	sd	s8, 10*8(a3)
	sd	s9, 11*8(a3)
	sd	s10, 12*8(a3)
	sd	s11, 13*8(a3)
	csrw	sepc, a0
	csrw	sscratch, sp
	li	t0, SSTATUS_SPP
	csrc	sstatus, t0
	li	t0, SSTATUS_SPIE
	csrs	sstatus, t0
	mv	a0, a1
	mv	sp, a2
	sret
	.globl tk_user_return
tk_user_return:
	ret

/* Trace session brackets: a0 = trTeControl's address, a1 = the value. */
	.globl trace_session_start, trace_first
trace_session_start:
	/* The enabling store with interrupts off: an interrupt pending then
	 * lands after trace_first, the first traced instruction, not before
	 * it, so the ground truth's window starts there on every hart. */
	csrc	sstatus, 2
	sw	a1, 0(a0)
trace_first:
	csrs	sstatus, 2
	ret
	.globl trace_session_stop, trace_last
trace_session_stop:
trace_last:
	sw	a1, 0(a0)
	ret

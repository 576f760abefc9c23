/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fast visit of block stepping (docs/TRACE.md, "The fast visit";
 * step_fast.c has the state it keeps).
 *
 * trap_entry_traced_fast (trap.S) comes here on a breakpoint, with t0 saved
 * in the frame and sp the frame.  While the stepper is in its steady state
 * (step.fast), T0 fired at the end of block `blk`, and that block ends
 * with a branch, jal or jalr, this does what t0_common_hit() does, without
 * saving the frame and without C:
 *   1. where the transfer goes, from the registers the branch or jalr
 *      names (read where they are: most in the register file, those this
 *      path uses from the frame);
 *   2. the block there, which must be cached, in a slot of its own, and
 *      not end at this transfer (a loop) or at T1;
 *   3. the encoder step: the held blocks' runs and ends (fast_h1,
 *      fast_h2) are counted in I-CNT and HIST as ntrace_enc_block_inline()
 *      counts them (ntrace_enc_inline_end() says how), or go to C
 *      (stepper_fast_retire()) when they do more;
 *   4. this block is held, T0 moves to the end of the next one, and the
 *      hart runs the transfer itself (mret).
 * Anything else, before step 3, goes back to trap.S's full path
 * (trap_entry_traced_fast_full, at hart.trap_fast_full) with every
 * register as it came, where
 * trace_trap_enter() leaves the steady state and does the visit in C.
 *
 * No S-mode register but t0..t2 and a0..a6 is touched, and those come
 * back from the frame.  A call into C saves ra and a7 too (C may change
 * every caller-saved register but t3..t6, which the firmware never uses),
 * and gives mscratch back to the frame while C runs (a trap in M-mode
 * finds its frame).
 */
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"
#include "firmware/core/hart.h"
#include "asm_offsets.h"     /* generated: firmware/trap/asm_offsets.c */

#define X(n) TRAP_REGS_X(n)
#define HART_TRACE_AT (TRAP_REGS_SIZE + HART_TRACE_OFFSET)
/* the encoder's fields, from the struct trace_hart */
#define ENC(field) (TH_ENC + ENC_##field)
/* a5: the held end's itype, and this flag for a loop (not stored) */
#define LOOP 0x100

/*
 * One held block's run and end to the encoder, when that only counts
 * (ntrace_enc_block_inline(), ntrace_enc_inline_end()): h the block, it
 * the itype its end retired with.  In the steady state outside the traced
 * part (fast_tag has STEP_TAG_OUT: every held block is one the filters
 * leave out whole, the encoder is stopped) only the session's counts
 * change, as the ingress leaves such records (engine_block()).  Anything
 * else goes to `fail` with nothing changed.  Uses t0, t1, a6.
 */
.macro COUNT_HELD h, it, fail
	lw	t0, ENC(SLOW)(a0)
	beqz	t0, 70f
	/* the encoder waits for this record's address (after a jalr): the
	 * IndirectBranch goes out first, when that is all it does */
	jal	t1, .Lresolve_jump
	bnez	t0, 70f
	/* or it is stopped: outside the traced part, the counts only */
	lwu	t0, TH_FAST_TAG(a0)
	andi	t0, t0, TAG_OUT
	beqz	t0, \fail
	lbu	t0, BLK_COUNT(\h)
	addi	t0, t0, 1
	j	75f
	/* with timestamps, an end that leaves a message waiting: the raw
	 * time noted (fast_ptime, which C makes its TSTAMP), then counted
	 * as without */
76:	andi	a6, t0, FAST_END_TS
	beqz	a6, \fail
	ld	a6, TH_TIME_MMIO(a0)
	beqz	a6, 77f
	ld	a6, 0(a6)
	j	78f
77:	csrr	a6, time
78:	sd	a6, TH_FAST_PTIME(a0)
	andi	t0, t0, FAST_END_TS - 1
	j	71f
70:	lbu	t1, BLK_FAST_H(\h)
	lw	t0, ENC(ICNT)(a0)
	add	t1, t1, t0
	lw	t0, ENC(ICNT_CHECK)(a0)
	bgeu	t1, t0, \fail              /* I-CNT's limit (8.4.4, sync) */
	add	t0, a0, \it
	lbu	t0, TH_FAST_END(t0)
	li	a6, INLINE_HIST
	bne	t0, a6, 71f
	/* a branch in HTM: HIST takes its outcome (8.3: 1 = taken) while
	 * there is room before the stop bit reaches hist_limit */
	lw	t0, ENC(HIST)(a0)
	lw	a6, ENC(HIST_LIMIT)(a0)
	and	a6, a6, t0
	bnez	a6, \fail
	slli	t0, t0, 1
	andi	a6, \it, 1
	or	t0, t0, a6
	sw	t0, ENC(HIST)(a0)
	j	74f
71:	li	a6, INLINE_COUNT
	beq	t0, a6, 74f
	li	a6, INLINE_PENDING
	bne	t0, a6, 72f
	/* an uninferable jump: its IndirectBranch waits for the next record */
	li	t0, PEND_INDIRECT
	sb	t0, ENC(PENDING)(a0)
	li	t0, BTYPE_INDIRECT
	sb	t0, ENC(PENDING_BTYPE)(a0)
	sd	zero, ENC(PENDING_TSTAMP)(a0)
	li	t0, 1
	sw	t0, ENC(SLOW)(a0)
	j	74f
72:	li	a6, INLINE_INFER
	beq	t0, a6, 73f
	/* a taken branch in BTM: its DirectBranch waits for the next record */
	li	a6, INLINE_DIRECT
	bne	t0, a6, 76b
	li	t0, PEND_DIRECT
	sb	t0, ENC(PENDING)(a0)
	sb	zero, ENC(PENDING_BTYPE)(a0)
	sd	zero, ENC(PENDING_TSTAMP)(a0)
	li	t0, 1
	sw	t0, ENC(SLOW)(a0)
73:	lbu	t0, TH_PRIV(a0)
	sb	t0, ENC(CUR_PRIV)(a0)
	sd	zero, ENC(CUR_CONTEXT)(a0)
74:	sw	t1, ENC(ICNT)(a0)
	/* the statistics engine_block_inline() keeps: the run's records and
	 * the end */
	lbu	t0, BLK_COUNT(\h)
	addi	t0, t0, 1
	ld	t1, ENC(RECORDS)(a0)
	add	t1, t1, t0
	sd	t1, ENC(RECORDS)(a0)
75:	ld	t1, TH_TE_INSNS(a0)
	add	t1, t1, t0
	sd	t1, TH_TE_INSNS(a0)
	ld	t1, TH_TE_BLOCKS(a0)
	addi	t1, t1, 1
	sd	t1, TH_TE_BLOCKS(a0)
.endm

/* Around a call into C: ra and a7 saved (C may change them; the visit
 * does not use them), S-mode's sp in the frame and mscratch the frame
 * again (uses t0). */
.macro C_ENTER
	sd	ra, X(1)(sp)
	sd	a7, X(17)(sp)
	csrr	t0, mscratch
	sd	t0, X(2)(sp)
	csrw	mscratch, sp
.endm

.macro C_LEAVE
	ld	t0, X(2)(sp)
	csrw	mscratch, t0
	ld	ra, X(1)(sp)
	ld	a7, X(17)(sp)
.endm

/* C_ENTER for C that may reach the sink, and so make a guarded access,
 * which traps and changes mstatus and mepc: those are kept too. */
.macro C_CALL_BEGIN
	C_ENTER
	csrr	t0, mstatus
	sd	t0, TRAP_REGS_MSTATUS(sp)
	csrr	t0, mepc
	sd	t0, TRAP_REGS_MEPC(sp)
.endm

.macro C_CALL_END
	ld	t0, TRAP_REGS_MSTATUS(sp)
	csrw	mstatus, t0
	ld	t0, TRAP_REGS_MEPC(sp)
	csrw	mepc, t0
	C_LEAVE
.endm

	/* (beside the trap vectors: trap_entry_traced_fast branches here; no
	 * linker relaxation: the register table below keeps its alignment) */
	.section .text.trap, "ax"
	.option norelax
	.balign 4
	.globl	trace_fast_visit
trace_fast_visit:
	/* a0: this hart's struct trace_hart; not in the steady state
	 * (single-stepping, TV mode, ...): to the full path at once */
	sd	a0, X(10)(sp)
	ld	a0, HART_TRACE_AT(sp)
	lbu	t0, TH_FAST(a0)
	beqz	t0, .Lbail_a0
	sd	t1, X(6)(sp)
	sd	t2, X(7)(sp)
	sd	a1, X(11)(sp)
	sd	a2, X(12)(sp)
	sd	a3, X(13)(sp)
	sd	a4, X(14)(sp)
	sd	a5, X(15)(sp)
	sd	a6, X(16)(sp)
	/* a1: pc, a2: the block T0 ends */
	csrr	a1, mepc
	ld	t1, TH_T0(a0)
	bne	a1, t1, .Lbail             /* T1, S/U's own ebreak */
	ld	a2, TH_BLK(a0)
	lbu	t2, BLK_FAST_OP(a2)
	lla	a6, trace_fast_read
	li	t1, FAST_BRANCH
	bne	t2, t1, .Ljump

	/* A branch: a3 = x[rs1], a4 = x[rs2] (trace_fast_read), then its
	 * condition (funct3: the table after them) goes to .Ltaken or
	 * .Lfall. */
	lbu	t1, BLK_RS1(a2)
	slli	t1, t1, 3
	add	t1, t1, a6
	jalr	t0, 0(t1)
	lbu	t1, BLK_RS2(a2)
	slli	t1, t1, 3
	add	t1, t1, a6
	jalr	t0, 256(t1)
	lbu	t1, BLK_COND(a2)
	slli	t1, t1, 3
	add	t1, t1, a6
	jalr	zero, 512(t1)
.Ltaken:
	ld	a3, BLK_TARGET(a2)
	li	a5, ITYPE_TAKEN
	j	.Lnext

	/* A jal (or a jalr that 9.1 made direct): its target; a jalr:
	 * (x[rs1] + imm) & ~1, which must be on IALIGN. */
.Ljump:
	ld	a3, BLK_TARGET(a2)
	lbu	a5, BLK_ITYPE_TAKEN(a2)
	li	t1, FAST_JAL
	beq	t2, t1, .Lnext
	li	t1, FAST_JALR
	bne	t2, t1, .Lbail             /* sret, ecall, a split, ... */
	mv	a4, a3
	lbu	t1, BLK_RS1(a2)
	slli	t1, t1, 3
	add	t1, t1, a6
	jalr	t0, 0(t1)
	add	a3, a3, a4
	andi	a3, a3, -2
	lbu	t1, TH_ALIGN4(a0)
	beqz	t1, .Lnext
	andi	t1, a3, 2
	bnez	t1, .Lbail                 /* the hart raises the misaligned fetch */
	j	.Lnext

.Lfall:
	lbu	t1, BLK_END_SIZE(a2)
	add	a3, a1, t1
	li	a5, ITYPE_NOT_TAKEN

	/* a3: where the transfer goes, a5: its itype.  a4: the block there
	 * (cache_slot(): ((pc >> 1) ^ (pc >> 13)) & mask), which must be
	 * cached (its tag fast_tag: this generation, V = 0, the filters
	 * deciding it whole as they do the held blocks; nothing is decoded
	 * here, so no slot changes: b itself may be it), and end neither at
	 * this transfer (a loop, below) nor at T1. */
.Lnext:
	srli	t1, a3, 1
	srli	t2, a3, 13
	xor	t1, t1, t2
	lwu	t2, TH_CACHE_MASK(a0)
	and	t1, t1, t2
	li	t2, BLK_SIZE
	mul	t1, t1, t2
	ld	t2, TH_CACHE(a0)
	add	a4, t1, t2
	ld	t1, BLK_START(a4)
	bne	t1, a3, .Lbail             /* a miss: decoded in C */
	lwu	t1, BLK_TAG(a4)
	lwu	t2, TH_FAST_TAG(a0)
	bne	t1, t2, .Lbail
	ld	t1, BLK_END(a4)
	beq	t1, a1, .Lloop
	ld	t2, TH_T1(a0)
	beq	t1, t2, .Lbail

	/* The visit is taken.  The encoder step (stepper.c, "The fast
	 * visit"): with a run in b, fast_h1 and then fast_h2 (TWO) go out;
	 * without, fast_h1 goes out in TWO only. */
.Ltaken_visit:
	lbu	t1, BLK_COUNT(a2)
	ld	a1, TH_FAST_H1(a0)
	lbu	t2, TH_FAST_IT1(a0)
	bnez	t1, .Lsend_run
	lbu	t0, TH_FAST(a0)
	li	t1, FAST_TWO
	bne	t0, t1, .Lhold_no_run
	COUNT_HELD a1, t2, .Lc_from_h1
	j	.Lhold_no_run
.Lsend_run:
	COUNT_HELD a1, t2, .Lc_from_h1
	lbu	t0, TH_FAST(a0)
	li	t1, FAST_TWO
	bne	t0, t1, .Lhold_run
	ld	a1, TH_FAST_H2(a0)
	lbu	t2, TH_FAST_IT2(a0)
	COUNT_HELD a1, t2, .Lc_from_h2
	j	.Lhold_run

	/* A branch back into a block that ends at it again (a loop): the
	 * firmware runs it, so T0 can stay (loop_visit(): both blocks
	 * have a run, the target is not the trap vector).  LOOP in a5
	 * says so to .Lhold_run. */
.Lloop:
	lbu	t1, BLK_FAST_OP(a2)
	li	t2, FAST_BRANCH
	bne	t1, t2, .Lbail
	lbu	t1, BLK_COUNT(a2)
	beqz	t1, .Lbail
	lbu	t1, BLK_COUNT(a4)
	beqz	t1, .Lbail
	ld	t2, TH_T1(a0)
	beq	a3, t2, .Lbail
	ori	a5, a5, LOOP
	j	.Ltaken_visit

	/* (... with timestamps, stepper_fast_resolve_ts(): fast_ptime first) */
	/* COUNT_HELD's call of ntrace_enc_resolve_jump(the encoder, the
	 * start of block a1, the privilege, context 0): returns through t1
	 * with t0 its answer, every register COUNT_HELD and the visit use
	 * kept (in s2..s10's slots of the frame, which this path never
	 * restores; it writes only the encoder's buffer: no guarded access). */
.Lresolve_jump:
	sd	t1, X(18)(sp)
	sd	a0, X(19)(sp)
	sd	a1, X(20)(sp)
	sd	a2, X(21)(sp)
	sd	a3, X(22)(sp)
	sd	a4, X(23)(sp)
	sd	a5, X(24)(sp)
	sd	t2, X(26)(sp)
	C_ENTER
	ld	a1, BLK_START(a1)
	lbu	a2, TH_PRIV(a0)
	li	a3, 0                      /* context */
	ld	t0, TH_FAST_RESOLVE(a0)    /* ntrace_enc_resolve_jump(), or ... */
	addi	a0, a0, TH_ENC
	jalr	t0
	sd	a0, X(25)(sp)
	C_LEAVE
	ld	t0, X(25)(sp)
	ld	t1, X(18)(sp)
	ld	a0, X(19)(sp)
	ld	a1, X(20)(sp)
	ld	a2, X(21)(sp)
	ld	a3, X(22)(sp)
	ld	a4, X(23)(sp)
	ld	a5, X(24)(sp)
	ld	t2, X(26)(sp)
	jr	t1

	/* What the encoder does not only count: in C, from that held block
	 * on (the ones before it were counted above). */
.Lc_from_h2:
	li	a6, 2
	j	.Lc_retire
.Lc_from_h1:
	li	a6, 1
.Lc_retire:
	C_CALL_BEGIN
	/* b, next, its block and itype in s2..s5's slots, which this path
	 * never restores (C keeps s2..s5 itself) */
	sd	a2, X(18)(sp)
	sd	a3, X(19)(sp)
	sd	a4, X(20)(sp)
	sd	a5, X(21)(sp)
	lbu	a1, BLK_COUNT(a2)
	mv	a2, a6
	call	stepper_fast_retire
	ld	a0, HART_TRACE_AT(sp)
	ld	a2, X(18)(sp)
	ld	a3, X(19)(sp)
	ld	a4, X(20)(sp)
	ld	a5, X(21)(sp)
	C_CALL_END
	lbu	t0, BLK_COUNT(a2)
	bnez	t0, .Lhold_run

	/* b has no run: it is held after fast_h1 (TWO), which takes what
	 * fast_h2 held if anything (TWO before: fast_h1 went out). */
.Lhold_no_run:
	lbu	t0, TH_FAST(a0)
	li	t1, FAST_TWO
	bne	t0, t1, 1f
	ld	t0, TH_FAST_H2(a0)
	sd	t0, TH_FAST_H1(a0)
	lbu	t0, TH_FAST_IT2(a0)
	sb	t0, TH_FAST_IT1(a0)
1:	sd	a2, TH_FAST_H2(a0)
	sb	a5, TH_FAST_IT2(a0)
	li	t0, FAST_TWO
	sb	t0, TH_FAST(a0)
	j	.Lmove
	/* b's run and end are held (PENDING; RAN when the firmware runs
	 * the end: a loop). */
.Lhold_run:
	sd	a2, TH_FAST_H1(a0)
	sb	a5, TH_FAST_IT1(a0)
	andi	t0, a5, LOOP
	bnez	t0, .Lhold_loop
	li	t0, FAST_PENDING
	sb	t0, TH_FAST(a0)

	/* run_predicted(): the hart runs the transfer, then the block at
	 * a3, with T0 (tselect 0 while the hart steps) at its end. */
.Lmove:
	sd	a4, TH_BLK(a0)
	ld	t0, BLK_END(a4)
	sd	t0, TH_T0(a0)
	csrw	CSR_TDATA2, t0
.Lcheck_pending:
	lw	t0, ENC(SLOW)(a0)
	bnez	t0, .Lresolve_next
.Lcheck_overflow:
	lbu	t0, TH_OVERFLOW_NOW(a0)
	bnez	t0, .Lpending
.Lexit:
	ld	t1, X(6)(sp)
	ld	t2, X(7)(sp)
	ld	a0, X(10)(sp)
	ld	a1, X(11)(sp)
	ld	a2, X(12)(sp)
	ld	a3, X(13)(sp)
	ld	a4, X(14)(sp)
	ld	a5, X(15)(sp)
	ld	a6, X(16)(sp)
	ld	t0, X(5)(sp)
	csrrw	sp, mscratch, sp
	mret

	/* emulate(): the hart goes on at the branch's target, where the
	 * block a4 ends at this branch again, T0 staying. */
.Lhold_loop:
	li	t0, FAST_RAN
	sb	t0, TH_FAST(a0)
	sd	a4, TH_BLK(a0)
	csrw	mepc, a3
	j	.Lcheck_pending

	/* The encoder waits for the next record's address (the visit sent a
	 * jalr, a 9.2 return to check or, in BTM, a taken branch): that
	 * record is fast_h1's first, whatever happens next (what is held goes
	 * out first), so the branch message goes out now
	 * (ntrace_enc_resolve_jump()), where the call into C costs least.
	 * Other waits (a sync) are C's. */
.Lresolve_next:
	lbu	t0, ENC(PENDING)(a0)
	addi	t0, t0, -PEND_DIRECT
	sltiu	t0, t0, 3                  /* DIRECT, INDIRECT or RETURN_CHECK */
	beqz	t0, .Lcheck_overflow
	C_ENTER
	ld	a1, TH_FAST_H1(a0)
	ld	a1, BLK_START(a1)
	lbu	a2, TH_PRIV(a0)
	li	a3, 0                      /* context */
	ld	t0, TH_FAST_RESOLVE(a0)    /* ntrace_enc_resolve_jump(), or ... */
	addi	a0, a0, TH_ENC
	jalr	t0
	ld	a0, HART_TRACE_AT(sp)
	C_LEAVE
	j	.Lcheck_overflow

	/* The sink refused bytes during the encoder step (stepper_breakpoint()
	 * applies that after the visit too). */
.Lpending:
	C_CALL_BEGIN
	call	stepper_fast_pending
	C_CALL_END
	j	.Lexit

	/* Not a visit this path takes: to the full path, every register as
	 * it came (t0 is in the frame). */
.Lbail:
	ld	t1, X(6)(sp)
	ld	t2, X(7)(sp)
	ld	a1, X(11)(sp)
	ld	a2, X(12)(sp)
	ld	a3, X(13)(sp)
	ld	a4, X(14)(sp)
	ld	a5, X(15)(sp)
	ld	a6, X(16)(sp)
.Lbail_a0:
	ld	a0, X(10)(sp)
	/* (t0 is in the frame; the entry's full path is the trap entry's,
	 * which trap_set_vector noted in the hart) */
	ld	t0, TRAP_REGS_SIZE + HART_TRAP_FAST_FULL(sp)
	jr	t0

/*
 * S-mode's registers, read where they are: x[n] into a3 at
 * trace_fast_read + 8 * n, into a4 at + 256 + 8 * n, returning through t0.
 * The registers this path saved come from the frame, sp from mscratch.
 * Then, at + 512 + 8 * funct3, a branch's condition on a3 and a4.  Fixed
 * 8-byte entries: no compressed instructions.  (These read gp and t3..t6,
 * which the firmware otherwise never names: check-fixed-regs.sh.)
 */
.macro READ_REG dst, n
.if \n == 0
	li	\dst, 0
.elseif \n == 2
	csrr	\dst, mscratch
.elseif (\n >= 5 && \n <= 7) || (\n >= 10 && \n <= 16)
	ld	\dst, (\n * 8)(sp)
.else
	mv	\dst, x\n
.endif
	jr	t0
.endm

.macro CONDITION insn
.ifb \insn
	j	.Lbail                     /* funct3 2, 3: no branch */
	nop
.else
	\insn	a3, a4, .Ltaken
	j	.Lfall
.endif
.endm

	.option push
	.option norvc
	.balign 8
	.globl	trace_fast_read
trace_fast_read:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	READ_REG a3, \n
	.endr
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	READ_REG a4, \n
	.endr
	CONDITION beq
	CONDITION bne
	CONDITION
	CONDITION
	CONDITION blt
	CONDITION bge
	CONDITION bltu
	CONDITION bgeu
	.option pop

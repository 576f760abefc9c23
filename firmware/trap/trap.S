/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Trap entry (mtvec, direct mode).  An ecall from S-mode takes the fast path:
 * only the registers a C call may clobber are saved (not t3..t6: the
 * firmware's C code is built never to touch them, mk/80-firmware.mk, and
 * scripts/check-fixed-regs.sh checks the linked image), a0..a7 go straight to
 * sbi_ecall_handle (sbi/ecall.c) as its arguments, and its struct sbiret
 * comes back in a0/a1.  Every other trap saves the full frame and goes to
 * trap_handler (trap.c), and the exit restores it whole, except after the
 * common visit of block stepping on a traced entry (the light exit below:
 * only what C code may change).
 *
 * mscratch always holds this hart's trap frame: the TRAP_REGS_SIZE bytes
 * below struct hart, at the top of its M-mode stack (hart.h).  The entry
 * swaps it with sp, saves the interrupted sp in the frame and puts the
 * frame back in mscratch; the exit reloads sp from the frame.  Traps from
 * M-mode are not expected here (M-mode runs with MIE clear, and code that
 * may fault runs under a trap guard, guard.h, with its own mtvec), but
 * when one comes (a firmware bug) it lands on the same frame, on this
 * hart's own stack, whatever sp was, and the slow path sends it to
 * m_fault_panic (panic.c), which reports it and stops the machine.
 */
#include "firmware/core/trap_regs.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/sbi/ecall.h"
#include "firmware/core/hart.h"
#include "firmware/pmu/pmu.h"
#include "asm_offsets.h"     /* generated: firmware/trap/asm_offsets.c */

#define X(n) TRAP_REGS_X(n)

/*
 * Trap entry, five times from one source.  trap_entry is the ordinary one.
 * mtvec points at the others only while they are needed (trap_set_vector):
 *  - _counted while some SBI PMU counter counts tracesbi's own events
 *    256..258 (pmu_trap_counting): M-mode traps, SBI calls, and the
 *    instructions M-mode retires for them (minstret from entry to exit,
 *    plus the fixed instructions outside that window, TRAP_UNCOUNTED_*);
 *  - _traced while the trace engine steps the hart: every trap that is not
 *    an SBI call goes to trace_trap_enter (trace.h), which sees the
 *    engine's trigger breakpoints, then to trap_handler_traced (trap.c)
 *    with what the engine left to do;
 *  - _traced_counted for both;
 *  - _traced_fast as _traced, in a session whose common visit of block
 *    stepping the fast visit takes (trace/step_fast.S): a breakpoint goes
 *    there first.
 * So neither feature costs the ordinary entry anything.
 */
#define HART_PMU_AT (TRAP_REGS_SIZE + HART_PMU_OFFSET)
#define HART_TRACE_AT (TRAP_REGS_SIZE + HART_TRACE_OFFSET)

/* 4 instructions before the entry read of minstret, 22 (ecall), 43
 * (slow path) or 27 (the traced path's light exit, with its jump) from
 * the exit read through mret. */
#define TRAP_UNCOUNTED_ECALL (4 + 22)
#define TRAP_UNCOUNTED_SLOW  (4 + 43)
#define TRAP_UNCOUNTED_LIGHT (4 + 27)

.macro COUNT_EVENT off
	ld	t0, HART_PMU_AT(sp)
	ld	t1, \off(t0)
	addi	t1, t1, 1
	sd	t1, \off(t0)
.endm

/* t0 is saved; t1 is borrowed and given back. */
.macro COUNT_TRAP_ENTRY
	sd	t1, X(6)(sp)
	ld	t0, HART_PMU_AT(sp)
	csrr	t1, minstret
	sd	t1, PMU_OFF_ENTRY_INSTRET(t0)
	ld	t1, PMU_OFF_M_TRAPS(t0)
	addi	t1, t1, 1
	sd	t1, PMU_OFF_M_TRAPS(t0)
	ld	t1, X(6)(sp)
.endm

/* t0..t2 are about to be restored from the frame; a0/a1 are kept. */
.macro COUNT_TRAP_EXIT uncounted
	ld	t0, HART_PMU_AT(sp)
	csrr	t1, minstret
	ld	t2, PMU_OFF_ENTRY_INSTRET(t0)
	sub	t1, t1, t2
	ld	t2, PMU_OFF_M_INSTRET(t0)
	add	t1, t1, t2
	addi	t1, t1, \uncounted
	sd	t1, PMU_OFF_M_INSTRET(t0)
.endm

.macro TRAP_VECTOR name, counted, traced, fast=0
	.balign 4
	.globl \name
\name:
	csrrw	sp, mscratch, sp
	sd	t0, X(5)(sp)
.if \counted
	COUNT_TRAP_ENTRY
.endif
	csrr	t0, mcause
.if \fast
	/* A breakpoint: block stepping's common visit takes the fast path
	 * (trace/step_fast.S), which comes back to _full when it does not,
	 * with every register as it came. */
	addi	t0, t0, -CAUSE_BREAKPOINT
	beqz	t0, trace_fast_visit
	addi	t0, t0, CAUSE_BREAKPOINT - CAUSE_SUPERVISOR_ECALL
.else
	addi	t0, t0, -CAUSE_SUPERVISOR_ECALL
.endif
	bnez	t0, \name\()_slow

	/* SBI call.  a0/a1 are results; a2..a7, ra, t0..t6 must survive
	 * (t3..t6 do by themselves). */
	sd	ra, X(1)(sp)
	sd	t1, X(6)(sp)
	csrr	t1, mscratch
	sd	t1, X(2)(sp)
	csrw	mscratch, sp
	sd	t2, X(7)(sp)
	sd	a2, X(12)(sp)
	sd	a3, X(13)(sp)
	sd	a4, X(14)(sp)
	sd	a5, X(15)(sp)
	sd	a6, X(16)(sp)
	sd	a7, X(17)(sp)
.if \counted
	COUNT_EVENT PMU_OFF_SBI_CALLS
.endif
	/* The EID's home slot in eid_table (sbi_ecall.h: EID_HASH), 16 bytes
	 * a slot.  On a hit the handler gets a0..a5 and the FID in a6 as its
	 * first seven C arguments, untouched, and this hart's struct (above
	 * the frame) in a7; a miss goes to sbi_ecall_handle with the EID. */
	srli	t0, a7, EID_HASH_SHIFT
	xor	t0, t0, a7
	andi	t0, t0, EID_SLOTS - 1
	slli	t0, t0, 4
	la	t1, eid_table
	add	t0, t0, t1
	ld	t1, 0(t0)
	bne	t1, a7, \name\()_ecall_slow
	ld	t1, 8(t0)
	beqz	t1, \name\()_ecall_slow
	addi	a7, sp, TRAP_REGS_SIZE
	jalr	t1
\name\()_ecall_return:
.if \counted
	COUNT_TRAP_EXIT TRAP_UNCOUNTED_ECALL
.endif
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	ld	ra, X(1)(sp)
	ld	t0, X(5)(sp)
	ld	t1, X(6)(sp)
	ld	t2, X(7)(sp)
	ld	a2, X(12)(sp)
	ld	a3, X(13)(sp)
	ld	a4, X(14)(sp)
	ld	a5, X(15)(sp)
	ld	a6, X(16)(sp)
	ld	a7, X(17)(sp)
	ld	sp, X(2)(sp)
	mret

\name\()_ecall_slow:
	call	sbi_ecall_handle
	j	\name\()_ecall_return

\name\()_slow:
	.globl	\name\()_full
\name\()_full:
	sd	x1, X(1)(sp)
	sd	x3, X(3)(sp)
	sd	x4, X(4)(sp)
	sd	x6, X(6)(sp)
	sd	x7, X(7)(sp)
	sd	x8, X(8)(sp)
	sd	x9, X(9)(sp)
	sd	x10, X(10)(sp)
	sd	x11, X(11)(sp)
	sd	x12, X(12)(sp)
	sd	x13, X(13)(sp)
	sd	x14, X(14)(sp)
	sd	x15, X(15)(sp)
	sd	x16, X(16)(sp)
	sd	x17, X(17)(sp)
	sd	x18, X(18)(sp)
	sd	x19, X(19)(sp)
	sd	x20, X(20)(sp)
	sd	x21, X(21)(sp)
	sd	x22, X(22)(sp)
	sd	x23, X(23)(sp)
	sd	x24, X(24)(sp)
	sd	x25, X(25)(sp)
	sd	x26, X(26)(sp)
	sd	x27, X(27)(sp)
	sd	x28, X(28)(sp)
	sd	x29, X(29)(sp)
	sd	x30, X(30)(sp)
	sd	x31, X(31)(sp)
	sd	zero, X(0)(sp)
	csrr	t0, mscratch
	sd	t0, X(2)(sp)
	csrw	mscratch, sp
	csrr	t0, mepc
	sd	t0, TRAP_REGS_MEPC(sp)
	csrr	t0, mstatus
	sd	t0, TRAP_REGS_MSTATUS(sp)
	/* MPP = M: a trap of the firmware itself. */
	srli	t1, t0, MSTATUS_MPP_SHIFT
	andi	t1, t1, PRV_M
	addi	t1, t1, -PRV_M
	beqz	t1, trap_from_m

.if \traced
	/* trace_trap_enter(this hart's trace state, frame, mcause): the
	 * engine's first; what it does not claim it hands to
	 * trap_handler_traced() (trap.c, registered with the vectors).  True:
	 * the common visit of block stepping changed no register in the
	 * frame, and the exit restores only what C code may change (the
	 * light exit, from 8:) */
	ld	a0, HART_TRACE_AT(sp)
	mv	a1, sp
	csrr	a2, mcause
	call	trace_trap_enter
.if \counted
	beqz	a0, 7f
	COUNT_TRAP_EXIT TRAP_UNCOUNTED_LIGHT
	j	8f
7:
.else
	bnez	a0, 8f
.endif
.else
	mv	a0, sp
	call	trap_handler
.endif
.if \counted
	COUNT_TRAP_EXIT TRAP_UNCOUNTED_SLOW
.endif

	/* What C code keeps (s0..s11) or never uses (gp, t3..t6), as the
	 * handler may have written the frame's... */
	ld	x3, X(3)(sp)
	ld	x8, X(8)(sp)
	ld	x9, X(9)(sp)
	ld	x18, X(18)(sp)
	ld	x19, X(19)(sp)
	ld	x20, X(20)(sp)
	ld	x21, X(21)(sp)
	ld	x22, X(22)(sp)
	ld	x23, X(23)(sp)
	ld	x24, X(24)(sp)
	ld	x25, X(25)(sp)
	ld	x26, X(26)(sp)
	ld	x27, X(27)(sp)
	ld	x28, X(28)(sp)
	ld	x29, X(29)(sp)
	ld	x30, X(30)(sp)
	ld	x31, X(31)(sp)
	/* ...then what C code may change, and mepc and mstatus: the light
	 * exit writes those back too, as a guarded access of the visit
	 * (umem.c) may have trapped and changed mepc. */
8:	ld	t0, TRAP_REGS_MEPC(sp)
	csrw	mepc, t0
	ld	t0, TRAP_REGS_MSTATUS(sp)
	csrw	mstatus, t0
	ld	x1, X(1)(sp)
	ld	x4, X(4)(sp)
	ld	x5, X(5)(sp)
	ld	x6, X(6)(sp)
	ld	x7, X(7)(sp)
	ld	x10, X(10)(sp)
	ld	x11, X(11)(sp)
	ld	x12, X(12)(sp)
	ld	x13, X(13)(sp)
	ld	x14, X(14)(sp)
	ld	x15, X(15)(sp)
	ld	x16, X(16)(sp)
	ld	x17, X(17)(sp)
	ld	sp, X(2)(sp)
	mret
.endm

	.section .text.trap, "ax"
	TRAP_VECTOR trap_entry, 0, 0
	TRAP_VECTOR trap_entry_counted, 1, 0
	TRAP_VECTOR trap_entry_traced, 0, 1
	TRAP_VECTOR trap_entry_traced_counted, 1, 1
	TRAP_VECTOR trap_entry_traced_fast, 0, 1, 1

/*
 * A trap from M-mode: the frame holds the registers at the fault (x2 the
 * faulting sp).  The C stack of the code that faulted lies below the frame
 * and is kept for the backtrace: m_fault_panic runs on this hart's panic
 * stack (the bottom of its stack region, hart.h), never returns.
 */
trap_from_m:
	mv	a0, sp
	li	t0, HART_STACK_SIZE - 1
	or	sp, sp, t0
	addi	sp, sp, 1
	li	t0, HART_STACK_SIZE - HART_PANIC_STACK + 16   /* below the canary */
	sub	sp, sp, t0
	call	m_fault_panic
1:	wfi
	j	1b

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The PMU extension's entry (the handler eid_table holds for EID 0x504D55),
 * and counter_stop of one running counter in assembly.
 *
 * A kernel stops one counter (base = the counter, mask = 1) on every
 * context switch and overflow, often with RESET and TAKE_SNAPSHOT.  This
 * path is the rule for such a call, and does exactly what
 * pmu_counter_stop (firmware/pmu/pmu.c), the general path, does with it:
 * for a hardware counter, a jump straight into a table of per-counter CSR
 * blocks instead of a compiler jump table; for a firmware counter of a
 * standard event, the freeze of its value.  Every other call, and every
 * stop it does not serve (another mask, a counter not running, reserved
 * flags, TAKE_SNAPSHOT without a page, of a firmware counter or on a hart
 * whose HPM counters have holes, a platform event or one of tracesbi's
 * own), goes to the C code with its arguments untouched, which then also
 * returns every error.
 *
 * In:  a0 counter_idx_base, a1 counter_idx_mask, a2 flags, a6 FID,
 *      a7 this hart's struct hart (trap.S).
 * Out: a0 error, a1 value (struct sbiret).  Clobbers only what a C call
 *      may clobber, and never t3..t6 (S-mode's, trap.S).
 */
#include "firmware/core/hart.h"
#include "firmware/pmu/pmu.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/sbi_spec.h"
#include "asm_offsets.h"     /* generated: firmware/trap/asm_offsets.c */

/* (hw[i] is found as i << 3) */
.if PMU_HW_COUNTER_SIZE != 8
.error "struct pmu_hw_counter is not 8 bytes"
.endif

/* mhpmeventN is CSR_MHPMEVENT0 + n for n = 3..31 (0x320 itself is
 * mcountinhibit); mcycle, minstret and mhpmcounterN are CSR_MHPMCOUNTER0 + n. */
#define CSR_MHPMEVENT0 0x320

/* Run block a4 (the counter number) of `table`, whose blocks are
 * 1 << shift bytes; they return through a6. */
.macro CALL_BLOCK table, shift
	lla	a6, \table
	slli	a4, a4, \shift
	add	a6, a6, a4
	jalr	a6, 0(a6)
.endm

/* RESET: the counter is free again, with no event (counter_reset). */
.macro STOP_AND_FREE
	sb	zero, PMU_OFF_STATE(t1)
	slli	t2, a0, 3
	add	t2, t2, a3
	sd	zero, PMU_OFF_HW(t2)
	CALL_BLOCK stop_free_blocks, 5
.endm

	.section .text.pmu_fast_handle, "ax", @progbits
	.balign 4
	.globl	pmu_fast_handle
	.type	pmu_fast_handle, @function
pmu_fast_handle:
	li	t0, SBI_PMU_COUNTER_STOP
	bne	a6, t0, not_stop
	/* a3 = struct pmu_hart: where counter_stop takes it (no argument of
	 * stop comes in a3), so the C fallbacks need no move. */
	ld	a3, HART_PMU_OFFSET(a7)

/*
 * counter_stop(base, 1, flags) of a running hardware counter.  a3 = p;
 * t1 = p + idx addresses state[idx] and hw_num[idx]; a4 = the hardware
 * number n; t0 = its bit in mcountinhibit; a7 = the overflow bitmap;
 * a5 = the value (from the block).
 */
counter_stop_fast:
	li	t0, 1
	bne	a1, t0, stop_in_c               /* not one counter, or not bit 0 */
	lbu	t0, PMU_OFF_HW_COUNT(a3)
	bgeu	a0, t0, stop_fw                 /* a firmware counter, or none */
	add	t1, a3, a0
	lbu	t0, PMU_OFF_STATE(t1)
	li	t2, PMU_ASM_RUNNING
	bne	t0, t2, stop_in_c               /* ALREADY_STOPPED, or not configured */
	li	t2, PMU_ASM_STOP_RESET | PMU_ASM_STOP_TAKE_SNAPSHOT
	bgtu	a2, t2, stop_in_c               /* reserved flags: INVALID_PARAM */
	lbu	a4, PMU_OFF_HW_NUM(t1)
	li	t0, 1
	sll	t0, t0, a4
	bnez	a2, stop_with_flags

	/* Linux's usual stop: no flags. */
	li	t2, PMU_ASM_CONFIGURED
	sb	t2, PMU_OFF_STATE(t1)
	CALL_BLOCK stop_blocks, 4
	li	a0, SBI_SUCCESS
	li	a1, 0
	ret

stop_with_flags:
	andi	t2, a2, PMU_ASM_STOP_TAKE_SNAPSHOT
	beqz	t2, stop_reset
	lbu	t2, PMU_OFF_SNAPSHOT_ON(a3)
	beqz	t2, stop_in_c                   /* NO_SHMEM */
	/* overflowed_counters' shortcut needs mhpmcounter3..N without holes
	 * (logical index = number - 1). */
	lbu	t2, PMU_OFF_HPM_CONTIGUOUS(a3)
	beqz	t2, stop_in_c
	/* "A bitmap of all logical overflown counters relative to
	 * counter_idx_base", from OF of the HPM counters, read before the
	 * stop; without Sscofpmf "it must be zero" (a7 is 0 then). */
	lbu	a7, PMU_OFF_SSCOFPMF(a3)
	beqz	a7, 1f
	csrr	a7, CSR_SCOUNTOVF
1:	lwu	t2, PMU_OFF_HPM_MASK(a3)
	and	a7, a7, t2
	srli	a7, a7, 1
	srl	a7, a7, a0
	andi	t2, a2, PMU_ASM_STOP_RESET
	bnez	t2, stop_reset_snapshot

	li	t2, PMU_ASM_CONFIGURED
	sb	t2, PMU_OFF_STATE(t1)
	CALL_BLOCK stop_blocks, 4
write_snapshot:
	/* The counter's slot, page[1 + idx - base] = page[1] (mask 1), then
	 * the bitmap, written whole: the order of pmu.c's set code. */
	ld	a6, PMU_OFF_SNAPSHOT_ADDR(a3)
	sd	a5, 8(a6)
	sd	a7, 0(a6)
	li	a0, SBI_SUCCESS
	li	a1, 0
	ret

stop_reset_snapshot:
	STOP_AND_FREE
	j	write_snapshot

stop_reset:
	STOP_AND_FREE
	li	a0, SBI_SUCCESS
	li	a1, 0
	ret

/*
 * counter_stop(base, 1, flags) of a running firmware counter of a
 * standard event, flags 0 or RESET: pmu.c's fw_counter_stop() (and
 * counter_reset() with RESET).  Its value is *source + offset; frozen,
 * source is pmu_zero_source and offset the value.  a3 = p, t0 = its
 * hw_count; t1 = p + idx addresses state[idx]; t2 = the counter.
 */
.if PMU_FW_COUNTER_SIZE != 32
.error "struct pmu_fw_counter is not 32 bytes"
.endif
stop_fw:
	sub	t2, a0, t0
	li	t1, PMU_ASM_FW_COUNTERS
	bgeu	t2, t1, stop_in_c               /* no such counter */
	add	t1, a3, a0
	lbu	t0, PMU_OFF_STATE(t1)
	li	a4, PMU_ASM_RUNNING
	bne	t0, a4, stop_in_c
	li	a4, PMU_ASM_STOP_RESET
	bgtu	a2, a4, stop_in_c               /* TAKE_SNAPSHOT, or reserved flags */
	slli	t2, t2, 5
	add	t2, t2, a3
	li	a4, PMU_OFF_FW
	add	t2, t2, a4
	ld	a5, PMU_FW_OFF_SOURCE(t2)
	beqz	a5, stop_in_c                   /* a platform event */
	/* EVENT_CODE(event_idx), its low 16 bits: a standard event */
	lhu	a4, PMU_FW_OFF_EVENT_IDX(t2)
	li	a6, PMU_ASM_FW_STD_COUNT
	bgeu	a4, a6, stop_in_c
	ld	a5, 0(a5)
	ld	a4, PMU_FW_OFF_OFFSET(t2)
	add	a5, a5, a4
	lla	a4, pmu_zero_source
	sd	a4, PMU_FW_OFF_SOURCE(t2)
	sd	a5, PMU_FW_OFF_OFFSET(t2)
	li	a4, PMU_ASM_CONFIGURED
	beqz	a2, 1f
	/* RESET: the counter is free again, with no event */
	sw	zero, PMU_FW_OFF_EVENT_IDX(t2)
	sd	zero, PMU_FW_OFF_EVENT_DATA(t2)
	li	a4, PMU_ASM_FREE
1:	sb	a4, PMU_OFF_STATE(t1)
	li	a0, SBI_SUCCESS
	li	a1, 0
	ret

/* The other calls of every context switch go straight to their C function
 * (the PMU state last, as pmu_handle passes it); the rest to pmu_handle
 * with a0..a7 as they came. */
not_stop:
	li	t0, SBI_PMU_COUNTER_START
	bne	a6, t0, 1f
	ld	a4, HART_PMU_OFFSET(a7)
	tail	pmu_counter_start
1:	li	t0, SBI_PMU_COUNTER_FW_READ
	bne	a6, t0, 2f
	ld	a1, HART_PMU_OFFSET(a7)
	tail	pmu_counter_fw_read
2:	tail	pmu_handle

/* Anything this path does not serve: pmu_counter_stop(a0, a1, a2, p). */
stop_in_c:
	tail	pmu_counter_stop


	.size	pmu_fast_handle, . - pmu_fast_handle

/*
 * One block per hardware counter number n, entered with jalr a6 (t0 = the
 * counter's bit): the stop sequence of pmu_hw.h with n in the
 * instructions (read the live value into a5, inhibit, write it back: QEMU
 * 7.2 reads a stopped counter as its last written value), then back
 * through a6.  The blocks have a fixed size, so block n is at table +
 * n * size.  Number 1 (time) is never a PMU counter.
 */
.macro STOP_SEQUENCE n
	csrr	a5, CSR_MHPMCOUNTER0 + \n
	csrs	CSR_MCOUNTINHIBIT, t0
	csrw	CSR_MHPMCOUNTER0 + \n, a5
.endm

.macro STOP_BLOCK n
	.balign 16
.if \n == 1
	unimp
.else
	STOP_SEQUENCE \n
	jr	a6
.endif
.endm

/* The same, then the counter freed as pmu_hw_counter_stop_free does: no
 * event for 3..31; mcycle and minstret run again, as at boot. */
.macro STOP_FREE_BLOCK n
	.balign 32
.if \n == 1
	unimp
.elseif \n >= 3
	STOP_SEQUENCE \n
	csrw	CSR_MHPMEVENT0 + \n, zero
	jr	a6
.else
	STOP_SEQUENCE \n
	csrc	CSR_MCOUNTINHIBIT, t0
	jr	a6
.endif
.endm

	.option push
	.option norvc
	.balign 32
	.type	stop_blocks, @function
stop_blocks:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	STOP_BLOCK \n
	.endr
	.size	stop_blocks, . - stop_blocks

	.balign 32
	.type	stop_free_blocks, @function
stop_free_blocks:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	STOP_FREE_BLOCK \n
	.endr
	.size	stop_free_blocks, . - stop_free_blocks
	.option pop

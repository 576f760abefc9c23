/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Boot entry.  Every hart starts at _start with a0 = hartid, a1 = DTB,
 * a2 = fw_dynamic info (QEMU).  One hart wins the boot lottery and runs the
 * cold boot (init.c: cold_boot) on a boot stack; the others sleep in wfi until
 * it sets boot_done and sends them an IPI.  Then every hart looks its hartid
 * up in the hart table built from the DTB, takes its own stack and runs
 * hart_warm_boot (init.c).  A hart that is not in the table, or has no
 * S-mode, parks for good.
 */
#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"
#include "asm_offsets.h"     /* generated: firmware/trap/asm_offsets.c */

#define MISA_S (1 << ('S' - 'A'))

	.section .text.entry, "ax"
	.globl _start
_start:
	csrw	mie, zero
	la	t0, park_trap
	csrw	mtvec, t0
	mv	s0, a0
	mv	s1, a1
	mv	s2, a2

	/* A hart without S-mode (misa.S clear) could run nothing the firmware
	 * boots: it parks before the lottery, so it never wins it.  misa = 0
	 * (not implemented) tells nothing: the DT decides (platform). */
	csrr	t0, misa
	beqz	t0, 1f
	li	t1, MISA_S
	and	t0, t0, t1
	beqz	t0, park
1:
	la	t0, boot_lottery
	li	t1, 1
	amoswap.w.aqrl t1, t1, (t0)
	bnez	t1, wait_for_boot_hart

	/* Cold boot: clear .bss (the boot stack lies beyond it). */
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	la	sp, boot_stack_top
	mv	a0, s0
	mv	a1, s1
	mv	a2, s2
	call	cold_boot
	/* cold_boot returns once the hart table exists. */
	mv	a0, s0
	j	enter_hart_slot

wait_for_boot_hart:
	li	t0, MIP_MSIP
	csrw	mie, t0
1:	la	t0, boot_done
	lw	t0, 0(t0)
	bnez	t0, 2f
	wfi
	j	1b
2:	fence	r, rw
	mv	a0, s0

/* a0 = hartid: find its slot, switch to its stack, run hart_warm_boot. */
enter_hart_slot:
	la	t0, hart_ids
	la	t1, hart_count
	lw	t1, 0(t1)
	li	t2, 0
1:	beq	t2, t1, park
	slli	t3, t2, 3
	add	t3, t0, t3
	ld	t3, 0(t3)
	beq	t3, a0, 2f
	addi	t2, t2, 1
	j	1b
2:	la	sp, hart_stacks
	addi	t3, t2, 1
	slli	t3, t3, HART_STACK_SHIFT
	add	sp, sp, t3
	addi	sp, sp, -HART_STRUCT_SIZE
	addi	t0, sp, -TRAP_REGS_SIZE
	csrw	mscratch, t0
	call	hart_warm_boot
park:	j	park_trap          /* (core/hart_switch.S) */

	.section .data
	.balign 8
	.globl boot_lottery, boot_done
boot_lottery:	.word 0
boot_done:	.word 0

	.section .bss.boot_stack, "aw", @nobits
	.balign 16
boot_stack:
	.space 8192
	.globl boot_stack_top
boot_stack_top:

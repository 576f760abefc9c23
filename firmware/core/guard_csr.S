/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Guarded access to numbered CSRs (guard.h: csr_read_num,
 * csr_write_num).  A CSR number is an immediate of the instruction, so
 * each supported number has its own two-instruction slot, 8 bytes:
 *     csrr a4, N / csrw N, a1
 *     jr   t0
 * The function finds the slot from the number, points mtvec at
 * guard_trap_handler (which skips a trapping instruction, t1 = mcause + 1)
 * and calls the slot with t0 as its link.  norvc: the skip is 4 bytes.
 *
 * Numbers: 0x320..0x33F mcountinhibit/mhpmevent, 0x3A0..0x3EF pmpcfg and
 * pmpaddr, 0x7A0..0x7A4 tselect/tdata1-3/tinfo, 0xB00..0xB1F mcycle,
 * minstret and mhpmcounter.  Others return 1 + 2 (illegal instruction).
 */
	.section .text.guard_csr, "ax"
	.option push
	.option norvc
	.balign 4

/* a0 = CSR number -> a2 = slot index, or branch to \bad. */
.macro slot_index bad
	li	a3, 0x320
	sub	a2, a0, a3
	li	a3, 32
	bltu	a2, a3, 1f              /* 0x320..0x33F: 0..31 */
	li	a3, 0x3A0
	sub	a2, a0, a3
	li	a3, 80
	bgeu	a2, a3, 2f
	addi	a2, a2, 32              /* 0x3A0..0x3EF: 32..111 */
	j	1f
2:	li	a3, 0x7A0
	sub	a2, a0, a3
	li	a3, 5
	bgeu	a2, a3, 3f
	addi	a2, a2, 112             /* 0x7A0..0x7A4: 112..116 */
	j	1f
3:	li	a3, 0xB00
	sub	a2, a0, a3
	li	a3, 32
	bgeu	a2, a3, \bad
	addi	a2, a2, 117             /* 0xB00..0xB1F: 117..148 */
1:
.endm

.macro slots insn, first, count
	.set n, \first
	.rept \count
	.if \insn
	csrw	n, a1
	.else
	csrr	a4, n
	.endif
	jr	t0
	.set n, n + 1
	.endr
.endm

.macro all_slots insn
	slots \insn, 0x320, 32
	slots \insn, 0x3A0, 80
	slots \insn, 0x7A0, 5
	slots \insn, 0xB00, 32
.endm

/* unsigned long csr_read_num(unsigned int csr, unsigned long *val) */
	.globl	csr_read_num
	.type	csr_read_num, @function
csr_read_num:
	li	a4, 0
	slot_index read_bad
	la	a3, read_slots
	slli	a2, a2, 3
	add	a2, a2, a3
	li	t1, 0
	la	a3, guard_trap_handler
	csrrw	a3, mtvec, a3
	jalr	t0, 0(a2)
	csrw	mtvec, a3
	sd	a4, 0(a1)
	mv	a0, t1
	ret
read_bad:
	sd	zero, 0(a1)
	li	a0, 1 + 2
	ret
	.size	csr_read_num, . - csr_read_num

/* unsigned long csr_write_num(unsigned int csr, unsigned long v) */
	.globl	csr_write_num
	.type	csr_write_num, @function
csr_write_num:
	slot_index write_bad
	la	a3, write_slots
	slli	a2, a2, 3
	add	a2, a2, a3
	li	t1, 0
	la	a3, guard_trap_handler
	csrrw	a3, mtvec, a3
	jalr	t0, 0(a2)
	csrw	mtvec, a3
	mv	a0, t1
	ret
write_bad:
	li	a0, 1 + 2
	ret
	.size	csr_write_num, . - csr_write_num

read_slots:
	all_slots 0
write_slots:
	all_slots 1

	.option pop

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small S-mode kernel for the tvtrace tool's QEMU test (tests/host/
 * tvtrace-qemu.sh): a timer interrupt through SBI, an sret to U-mode, a
 * U-mode ecall and ebreak handled in S-mode, compressed instructions, a
 * self-loop branch, csr reads and writes, SBI calls (serviced below the
 * trace), and SRST shutdown.  Loaded raw at 0x80200000 (-kernel smode.bin).
 */
	.option norvc
	.text
	.globl _start
_start:
	la	t0, strap
	csrw	stvec, t0
	li	s1, 0
	rdtime	a0
	addi	a0, a0, 20
	li	a7, 0x54494D45		/* TIME: set_timer(now + 20) */
	li	a6, 0
	ecall
	li	t0, 0x20
	csrs	sie, t0			/* STIE */
	csrsi	sstatus, 2		/* SIE */
1:	beqz	s1, 1b			/* until the interrupt */
	csrci	sstatus, 2
	csrw	sscratch, sp
	csrr	s2, sscratch
	la	t0, umode
	csrw	sepc, t0
	li	t0, 0x100
	csrc	sstatus, t0		/* SPP = U */
	sret
umode:
	li	a0, 5
	ecall				/* to strap, cause 8 */
	ebreak				/* cause 3 */
	.option rvc
	c.addi	a0, 1
	c.j	2f
2:	.option norvc
	li	a7, 99
	ecall				/* strap shuts down */

/* One handler (direct mode): exceptions return past their 4-byte
 * instruction, the timer interrupt counts in s1 and stops the timer. */
strap:
	csrr	t0, scause
	bltz	t0, irq
	csrr	t1, sepc
	addi	t1, t1, 4
	csrw	sepc, t1
	li	t2, 99
	beq	a7, t2, shutdown
	sret
irq:
	addi	s1, s1, 1
	li	a0, -1
	li	a7, 0x54494D45
	li	a6, 0
	ecall
	sret
shutdown:
	li	a7, 0x53525354		/* SRST: shutdown */
	li	a6, 0
	li	a0, 0
	li	a1, 0
	ecall
3:	j	3b

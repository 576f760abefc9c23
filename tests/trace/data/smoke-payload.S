/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * S/U-mode program of the ground-truth smoke test, run on QEMU virt under
 * smoke-fw.S (see there).  Hart 0 walks through one case of every rule of
 * scripts/trace-ground-truth.py (R1-R6); hart 1 counts down and stops
 * through HSM (an SBI call that never returns).  selftest-ground-truth.sh
 * holds the expected ground truth of both harts.
 */
	.option norvc
	.text
	.globl	_start, br1, br1_t, tr1, j1, j1_t, cb1, cb1_t, jr1, jr1_t
	.globl	svec, shandler, sr1, umain, u1, trace_first, trace_last
_start:
	bnez	a0, hart1
	la	t0, svec
	csrw	stvec, t0
	li	t0, (1 << 18)			/* FLAGS with sstatus.SUM = 1 */
	csrs	sstatus, t0
sum_on:	nop
	csrc	sstatus, t0
trace_first:
	li	a0, 1
	li	a1, 2
br1:	bne	a0, a1, br1_t			/* R1: emulated branch */
	nop
br1_t:	nop
tr1:	addi	a0, a0, 1			/* R1: transparent trigger */
	nop
j1:	j	j1_t				/* R1: emulated JAL */
	nop
j1_t:	nop
	.option rvc
cb1:	c.bnez	a0, cb1_t			/* R1: emulated C.BNEZ */
	c.nop
cb1_t:	c.nop
	c.nop
	.option norvc
	la	t0, jr1_t
jr1:	jr	t0				/* R1: emulated JALR */
	nop
jr1_t:	li	a7, 0x10
	li	a6, 0
ec1:	ecall					/* R3: SBI call */
	li	a4, 0x80300000
ld1:	lw	a5, 0(a4)			/* R2: emulated load */
st0:	nop
st1:	sw	a5, 0(a4)			/* R6: delegated store fault */
	nop
ill1:	csrw	cycle, zero			/* R4: illegal, redirected */
	nop
eb1:	ebreak					/* R4: EBREAK, redirected */
	la	ra, ff1_ret
	li	t0, 0x80300000
ff1:	jr	t0				/* R4: fetch fault */
ff1_ret:
	la	ra, ff2_ret
	li	t0, 0x80000100
ff2:	jr	t0				/* R4: fetch fault, firmware epc */
ff2_ret:
	la	t0, umain
	csrw	sepc, t0
	li	t0, (1 << 8)
	csrc	sstatus, t0
sr1:	sret					/* R1: emulated SRET to U */
umain:	j	u1				/* R1: emulated, privilege unknown */
	nop
u1:	nop
uec:	ecall					/* R6: delegated U ecall */
back_from_u:
	li	t0, 2
	csrs	sie, t0
	csrsi	sstatus, 2
ssi:	csrsi	sip, 2				/* R6: delegated interrupt */
after_ssi:
	csrci	sstatus, 2
	li	a7, 0x54494d45
	li	a0, 5
	li	a1, 1
ec2:	ecall					/* arm a delivered timer tick */
wf1:	wfi					/* R5: interrupt delivered to S */
after_wfi:
	li	a7, 0x54494d45
	li	a0, 1
	li	a1, 0
ec3:	ecall					/* arm a transparent tick */
	li	a0, 150
loop:	addi	a0, a0, -1			/* R5: transparent, Stopped line */
	bnez	a0, loop
trace_last:
	nop
	li	a7, 0x53525354
ec4:	ecall					/* end of the run */
1:	j	1b

hart1:	li	a0, 3
2:	addi	a0, a0, -1
	bnez	a0, 2b
	li	a7, 0x48534d
	li	a6, 1
ec5:	ecall					/* HSM stop: never returns */
3:	j	3b

	.balign 4
svec:	j	shandler
shandler:
	csrr	t0, scause
	bltz	t0, s_int
	li	t1, 8
	beq	t0, t1, s_uecall
	li	t1, 1
	beq	t0, t1, s_fetch
	csrr	t0, sepc			/* skip the faulting instruction */
	addi	t0, t0, 4
	csrw	sepc, t0
	sret
s_fetch:
	csrw	sepc, ra
	sret
s_uecall:
	li	t0, (1 << 8)
	csrs	sstatus, t0
	la	t0, back_from_u
	csrw	sepc, t0
	sret
s_int:	csrci	sip, 2
	sret

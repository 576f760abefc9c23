/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * M-mode stand-in for tracesbi in the ground-truth smoke test
 * (tests/trace/selftest-ground-truth.sh): loaded with -bios, it enters the
 * S-mode program smoke-payload.S (-kernel, 0x80200000) on both harts and
 * acts like the firmware's trace encoder would:
 *   - execute trigger 0 (S+U) walks trig_table: at each hit it resumes at
 *     the entry's address (= its own address: transparent; 1: emulate SRET;
 *     anything else: the emulated branch/jump's successor) and moves the
 *     trigger to the next entry;
 *   - ecall from S: SBI stand-in (resume at epc + 4): a7 = TIME arms the
 *     machine timer (a0 ticks; a1 = 0 transparent, 1 delivered to S),
 *     HSM parks the hart for good, SRST ends the run;
 *   - load access fault: emulates "lw a5, 0(a4)" (resume at epc + 4);
 *   - machine timer: transparent, or delivered to S as a supervisor timer
 *     interrupt; any other exception (and EBREAK) is delivered to S.
 * PMP keeps S/U out of this image's first 64 KiB and of 0x80300000 (4 KiB).
 * Built with -Wl,--just-symbols=smoke-payload.elf for the table.
 */
	.option norvc
	.text
	.globl _start
_start:
	csrr	a0, mhartid
	la	t0, mtrap
	csrw	mtvec, t0
	la	sp, stacks_end
	slli	t0, a0, 10
	sub	sp, sp, t0
	csrw	mscratch, sp
	li	t0, 0x20001fff			/* NAPOT 0x80000000, 64 KiB */
	csrw	pmpaddr0, t0
	li	t0, 0x200c01ff			/* NAPOT 0x80300000, 4 KiB */
	csrw	pmpaddr1, t0
	li	t0, -1				/* NAPOT everything */
	csrw	pmpaddr2, t0
	li	t0, (0x1f << 16) | (0x18 << 8) | 0x18
	csrw	pmpcfg0, t0
	li	t0, (1 << 8) | (1 << 7)		/* U ecall, store access fault */
	csrw	medeleg, t0
	li	t0, (1 << 1)			/* S software interrupt */
	csrw	mideleg, t0
	li	t0, -1
	csrw	mcounteren, t0
	/* Experiment: FLAGS of M-mode code running with MPRV=1 (MPP=S, U). */
	li	t0, (1 << 17) | (1 << 11)
	csrs	mstatus, t0
	csrr	t1, mstatus
	srli	t1, t1, 17
	andi	t1, t1, 1
	beqz	t1, m_fail			/* MPRV must be set */
mprv_s:	nop
	li	t0, (3 << 11)
	csrc	mstatus, t0
mprv_u:	nop
	li	t0, (1 << 17)
	csrc	mstatus, t0
	bnez	a0, enter_s
	la	t0, trig_table
	ld	t1, 0(t0)
	csrw	tselect, zero
	csrw	tdata2, t1
	li	t0, (2 << 60) | (1 << 2) | (1 << 3) | (1 << 4)	/* execute, U, S */
	csrw	tdata1, t0
	li	t0, 0x2004000			/* mtimecmp: a transparent tick soon */
	li	t1, 0x200bff8
	ld	t2, 0(t1)
	addi	t2, t2, 3
	sd	t2, 0(t0)
	li	t0, (1 << 7)
	csrs	mie, t0
enter_s:
	li	t0, (3 << 11)
	csrc	mstatus, t0
	li	t0, (1 << 11)
	csrs	mstatus, t0
	li	t0, 0x80200000
	csrw	mepc, t0
	mret

	.balign 8
mtrap:
	csrrw	sp, mscratch, sp
	sd	t0, 0(sp)
	sd	t1, 8(sp)
	sd	t2, 16(sp)
	sd	t3, 24(sp)
	csrr	t0, mcause
	bltz	t0, m_int
	li	t1, 9
	beq	t0, t1, m_ecall
	li	t1, 5
	beq	t0, t1, m_load
	li	t1, 3
	bne	t0, t1, m_deliver
	csrr	t1, mepc
	csrr	t2, tdata2
	bne	t1, t2, m_deliver		/* EBREAK, not the trigger */
	la	t1, trig_index			/* entry: {address, resume} */
	ld	t2, 0(t1)
	addi	t3, t2, 1
	sd	t3, 0(t1)
	la	t3, trig_table
	slli	t2, t2, 4
	add	t3, t3, t2
	ld	t0, 8(t3)
	ld	t1, 16(t3)
	csrw	tdata2, t1
	li	t1, 1
	beq	t0, t1, m_sret
	csrw	mepc, t0
	j	m_ret
m_sret:	/* emulate SRET: mepc = sepc, MPP = SPP, SPP = U */
	csrr	t0, sepc
	csrw	mepc, t0
	csrr	t0, mstatus
	andi	t0, t0, (1 << 8)
	li	t1, (3 << 11)
	csrc	mstatus, t1
	beqz	t0, 1f
	li	t1, (1 << 11)
	csrs	mstatus, t1
1:	li	t1, (1 << 8)
	csrc	mstatus, t1
	j	m_ret
m_ecall:
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	li	t1, 0x48534d			/* HSM: park */
	beq	a7, t1, m_park
	li	t1, 0x53525354			/* SRST: end of the run */
	beq	a7, t1, m_exit
	li	t1, 0x54494d45			/* TIME: arm the timer */
	bne	a7, t1, m_ret
	li	t0, 0x2004000
	li	t1, 0x200bff8
	ld	t2, 0(t1)
	add	t2, t2, a0
	sd	t2, 0(t0)
	la	t0, phase
	sd	a1, 0(t0)
	j	m_ret
m_park:	wfi
	j	m_park
m_fail:	li	t1, 0x13333
	j	1f
m_exit:	li	t1, 0x5555
1:	li	t0, 0x100000
	sw	t1, 0(t0)
2:	j	2b
m_load:	/* emulate "lw a5, 0(a4)" */
	li	a5, 0x1234
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	j	m_ret
m_int:	/* machine timer */
	li	t1, 0x2004000
	li	t2, -1
	sd	t2, 0(t1)
	la	t1, phase
	ld	t2, 0(t1)
	beqz	t2, m_ret			/* transparent */
	sd	zero, 0(t1)
	li	t0, 1
	slli	t0, t0, 63
	addi	t0, t0, 5			/* supervisor timer interrupt */
m_deliver:	/* deliver the trap in t0 (scause) to S-mode */
	csrw	scause, t0
	csrr	t1, mepc
	csrw	sepc, t1
	csrr	t1, mtval
	csrw	stval, t1
	csrr	t1, mstatus
	srli	t1, t1, 11
	andi	t1, t1, 3
	li	t2, (1 << 8)			/* SPP = (MPP != U) */
	csrc	mstatus, t2
	beqz	t1, 1f
	csrs	mstatus, t2
1:	csrr	t1, mstatus			/* SPIE = SIE, SIE = 0 */
	andi	t1, t1, 2
	li	t2, (1 << 5)
	csrc	mstatus, t2
	beqz	t1, 2f
	csrs	mstatus, t2
2:	csrci	mstatus, 2
	li	t2, (3 << 11)			/* MPP = S */
	csrc	mstatus, t2
	li	t2, (1 << 11)
	csrs	mstatus, t2
	csrr	t1, stvec
	csrw	mepc, t1
m_ret:	ld	t0, 0(sp)
	ld	t1, 8(sp)
	ld	t2, 16(sp)
	ld	t3, 24(sp)
	csrrw	sp, mscratch, sp
	mret

	.balign 8
trig_index:	.dword 0
phase:		.dword 0
trig_table:	/* in the order hart 0 hits them */
	.dword	br1, br1_t		/* BNE, taken */
	.dword	tr1, tr1		/* transparent */
	.dword	j1, j1_t		/* JAL */
	.dword	cb1, cb1_t		/* C.BNEZ, taken */
	.dword	jr1, jr1_t		/* JALR */
	.dword	svec, shandler		/* vector, after the delegated store fault */
	.dword	svec, shandler		/* vector, after the illegal instruction */
	.dword	sr1, 1			/* SRET (to U) */
	.dword	umain, u1		/* JAL in U-mode */
	.dword	svec, shandler		/* vector, after the delegated U ecall */
	.dword	0, 0
	.balign 16
	.space	2048
stacks_end:

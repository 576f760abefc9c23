/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry points of the S-mode test payloads, the trap vector and the few
 * instructions whose exact encoding the tests depend on (guarded accesses,
 * the SBI call itself).
 */
#define MAX_HARTS 8
#define STACK_SHIFT 14          /* 16 KiB per hart */
#define FRAME_SIZE (36 * 8)

	.section .text.entry, "ax"
	.globl _start
/* Boot hart, from the firmware: a0 = hartid, a1 = DTB. */
_start:
	/* First instruction: instret here counts what the firmware ran. */
	csrr	t0, instret
	li	t1, MAX_HARTS
	bgeu	a0, t1, park
	la	t2, __bss_start
	la	t3, __bss_end
1:	bgeu	t2, t3, 2f
	sd	zero, 0(t2)
	addi	t2, t2, 8
	j	1b
2:	la	t2, boot_instret
	sd	t0, 0(t2)
	call	set_stack
	call	boot_main
park:
	wfi
	j	park

/* sp := top of the stack of hart a0 (a0 < MAX_HARTS); clobbers t4. */
set_stack:
	la	sp, hart_stacks
	addi	t4, a0, 1
	slli	t4, t4, STACK_SHIFT
	add	sp, sp, t4
	ret

/* HSM hart_start / non-retentive resume: a0 = hartid, a1 = opaque. */
	.text
	.globl secondary_entry
	.balign 4
secondary_entry:
	csrr	a2, satp
	csrr	a3, sstatus
	li	t1, MAX_HARTS
	bgeu	a0, t1, park
	call	set_stack
	call	secondary_main
	j	park

/* Trap vector (direct mode): every GPR is saved, the C handler may edit the
 * frame (sepc) and the registers are restored from it. */
	.globl trap_vector
	.balign 4
trap_vector:
	addi	sp, sp, -FRAME_SIZE
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
	addi	t0, sp, FRAME_SIZE
	sd	t0, 2*8(sp)
	csrr	t0, sepc
	sd	t0, 32*8(sp)
	csrr	t0, scause
	sd	t0, 33*8(sp)
	csrr	t0, stval
	sd	t0, 34*8(sp)
	csrr	t0, sstatus
	sd	t0, 35*8(sp)
	mv	a0, sp
	call	trap_handler
	ld	t0, 32*8(sp)
	csrw	sepc, t0
	ld	x1, 1*8(sp)
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
	addi	sp, sp, FRAME_SIZE
	sret

/* struct sbiret sbi_ecall(eid, fid, a0..a5) */
	.globl sbi_ecall
sbi_ecall:
	mv	t0, a0
	mv	t1, a1
	mv	a0, a2
	mv	a1, a3
	mv	a2, a4
	mv	a3, a5
	mv	a4, a6
	mv	a5, a7
	mv	a7, t0
	mv	a6, t1
	ecall
	.globl	sbi_ecall_return
sbi_ecall_return:
	ret

/* long sbi_legacy(eid, a0): a6 is left with a junk value on purpose, the
 * legacy encoding ignores it. */
	.globl sbi_legacy
sbi_legacy:
	mv	a7, a0
	mv	a0, a1
	li	a6, 0x5a5a
	ecall
	ret

/* Guarded accesses: the faulting instruction is a plain 4-byte one that the
 * trap handler skips when a fault is expected.  Return the loaded value in
 * a0 (the caller checks the fault record). */
	.globl raw_load64
raw_load64:
	.option push
	.option norvc
	ld	a0, 0(a0)
	.option pop
	ret
	.globl raw_store64
raw_store64:
	.option push
	.option norvc
	sd	a1, 0(a0)
	.option pop
	ret
/* Jump to a0; a fetch fault there resumes at ra (handler option). */
	.globl raw_exec
raw_exec:
	jr	a0
	.globl raw_read_stimecmp
raw_read_stimecmp:
	li	a0, 0
	.option push
	.option norvc
	csrr	a0, 0x14D
	.option pop
	ret
	.globl raw_hfence_gvma
raw_hfence_gvma:
	.word	0x62000073      /* hfence.gvma zero, zero */
	ret

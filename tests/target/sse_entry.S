/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SSE test code that must control every register (t_sse.c).
 *
 * sse_entry: ENTRY_PC of every test event.  The firmware enters it with
 * a6 = hartid, a7 = ENTRY_ARG and every other register as the interrupted
 * context left it (ext-sse.adoc, "Software Event Injection"); it saves
 * them below the interrupted sp, runs sse_handler_c(ENTRY_ARG, hartid),
 * restores them and completes, which resumes the interrupted context with
 * a6/a7 from the INTERRUPTED_A6/A7 attributes.
 *
 * sse_complete_stub: a handler that completes at once (hostile.c).
 *
 * sse_run_vs(): with H, runs a wfi loop in VS-mode (hgatp and vsatp
 * Bare) until an SSE handler makes its completion return to sse_vs_exit
 * in HS-mode, which returns from sse_run_vs.
 *
 * sse_inject_capture(out, event_id, hart_id): every register but sp, gp
 * and tp set to a pattern (xn: SSE_PATTERN + n), then sbi_sse_inject;
 * every register as the call returned is stored in out[0..31]
 * (out[2] = sp).
 */
#include "firmware/core/sbi_spec.h"

#define SSE_PATTERN 0x5e5e000000000000

/* Every register but x0, sp and a6/a7 (the firmware's to restore). */
#define HANDLER_SAVED 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
	18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
/* Registers sse_inject_capture sets to a pattern (not a0/a1, a6/a7: the
 * call's arguments; not sp, gp, tp). */
#define PATTERNED 1, 5, 6, 7, 8, 9, 12, 13, 14, 15, \
	18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31

/* op (sd or ld) each register xn of the list at off + 8n(base). */
.macro REGS op, off, base, list:vararg
	.irp	n, \list
	\op	x\n, (\off + \n * 8)(\base)
	.endr
.endm

/* What sse_run_vs keeps for sse_vs_exit: ra, sp, gp, tp, s0..s11. */
#define VS_KEPT 1, 2, 3, 4, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27
/* What sse_inject_capture saves for its caller: ra, s0..s11. */
#define CALLEE_SAVED 1, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27

	.text
	.balign 4
	.globl sse_entry
sse_entry:
	addi	sp, sp, -256
	REGS	sd, 0, sp, HANDLER_SAVED
	mv	a0, a7
	mv	a1, a6
	call	sse_handler_c
	REGS	ld, 0, sp, HANDLER_SAVED
	addi	sp, sp, 256
	li	a7, SBI_EXT_SSE
	li	a6, SBI_SSE_COMPLETE
	ecall
	/* complete returned here: no event was running (a firmware bug). */
	unimp

/* The handler of the hostile caller's events (hostile.c): counts its
 * runs in sse_stub_runs and completes; a6/a7, the only registers it
 * uses, are the firmware's to restore. */
	.balign 4
	.globl sse_complete_stub
sse_complete_stub:
	la	a6, sse_stub_runs
	li	a7, 1
	amoadd.d zero, a7, (a6)
	li	a7, SBI_EXT_SSE
	li	a6, SBI_SSE_COMPLETE
	ecall
	unimp

	.balign 4
	.globl sse_run_vs
sse_run_vs:
	la	t0, vs_saved
	REGS	sd, 0, t0, VS_KEPT
	li	t1, (1 << 7) | (1 << 8)   /* hstatus.SPV, SPVP */
	csrs	0x600, t1
	li	t1, 1 << 8                /* sstatus.SPP: into VS-mode */
	csrs	sstatus, t1
	li	t1, 1 << 5                /* SPIE 0: SIE stays 0 */
	csrc	sstatus, t1
	la	t1, 1f
	csrw	sepc, t1
	sret
1:	wfi
	j	1b

	.globl sse_vs_exit
sse_vs_exit:
	la	t0, vs_saved
	REGS	ld, 0, t0, VS_KEPT
	ret

/* Frame: 0..255 the registers after the call, 256 + 8n saved xn (ra,
 * s0..s11), 504 out. */
	.balign 4
	.globl sse_inject_capture
sse_inject_capture:
	addi	sp, sp, -512
	REGS	sd, 256, sp, CALLEE_SAVED
	sd	a0, 504(sp)
	mv	a0, a1
	mv	a1, a2
	.irp	n, PATTERNED
	li	x\n, SSE_PATTERN + \n
	.endr
	li	a6, SBI_SSE_INJECT
	li	a7, SBI_EXT_SSE
	ecall
	.globl sse_capture_resume
sse_capture_resume:
	REGS	sd, 0, sp, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, \
		17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	sd	zero, 0(sp)
	ld	t0, 504(sp)
	li	t1, 0
	li	t4, 256
1:	add	t2, sp, t1
	ld	t3, 0(t2)
	add	t2, t0, t1
	sd	t3, 0(t2)
	addi	t1, t1, 8
	blt	t1, t4, 1b
	REGS	ld, 256, sp, CALLEE_SAVED
	addi	sp, sp, 512
	ret

	.bss
	.balign 8
vs_saved:
	.space	8 * 32
	.globl sse_stub_runs
sse_stub_runs:
	.dword	0

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
 * sse_inject_capture(out, event_id, hart_id): every register but sp, gp
 * and tp set to a pattern (reg n: SSE_PATTERN + n), then sbi_sse_inject;
 * every register as the call returned is stored in out[0..31]
 * (out[2] = sp).
 */
#include "sbi_spec.h"

#define SSE_PATTERN 0x5e5e000000000000
#define PAT(n) (SSE_PATTERN + (n))

	.text
	.balign 4
	.globl sse_entry
sse_entry:
	addi	sp, sp, -256
	sd	x1, 8(sp)
	sd	x3, 24(sp)
	sd	x4, 32(sp)
	sd	x5, 40(sp)
	sd	x6, 48(sp)
	sd	x7, 56(sp)
	sd	x8, 64(sp)
	sd	x9, 72(sp)
	sd	x10, 80(sp)
	sd	x11, 88(sp)
	sd	x12, 96(sp)
	sd	x13, 104(sp)
	sd	x14, 112(sp)
	sd	x15, 120(sp)
	sd	x18, 144(sp)
	sd	x19, 152(sp)
	sd	x20, 160(sp)
	sd	x21, 168(sp)
	sd	x22, 176(sp)
	sd	x23, 184(sp)
	sd	x24, 192(sp)
	sd	x25, 200(sp)
	sd	x26, 208(sp)
	sd	x27, 216(sp)
	sd	x28, 224(sp)
	sd	x29, 232(sp)
	sd	x30, 240(sp)
	sd	x31, 248(sp)
	mv	a0, a7
	mv	a1, a6
	call	sse_handler_c
	ld	x1, 8(sp)
	ld	x3, 24(sp)
	ld	x4, 32(sp)
	ld	x5, 40(sp)
	ld	x6, 48(sp)
	ld	x7, 56(sp)
	ld	x8, 64(sp)
	ld	x9, 72(sp)
	ld	x10, 80(sp)
	ld	x11, 88(sp)
	ld	x12, 96(sp)
	ld	x13, 104(sp)
	ld	x14, 112(sp)
	ld	x15, 120(sp)
	ld	x18, 144(sp)
	ld	x19, 152(sp)
	ld	x20, 160(sp)
	ld	x21, 168(sp)
	ld	x22, 176(sp)
	ld	x23, 184(sp)
	ld	x24, 192(sp)
	ld	x25, 200(sp)
	ld	x26, 208(sp)
	ld	x27, 216(sp)
	ld	x28, 224(sp)
	ld	x29, 232(sp)
	ld	x30, 240(sp)
	ld	x31, 248(sp)
	addi	sp, sp, 256
	li	a7, SBI_EXT_SSE
	li	a6, SBI_SSE_COMPLETE
	ecall
	/* complete returned here: no event was running (a firmware bug). */
	unimp

	.balign 4
	.globl sse_inject_capture
sse_inject_capture:
	addi	sp, sp, -384
	sd	ra, 256(sp)
	sd	s0, 264(sp)
	sd	s1, 272(sp)
	sd	s2, 280(sp)
	sd	s3, 288(sp)
	sd	s4, 296(sp)
	sd	s5, 304(sp)
	sd	s6, 312(sp)
	sd	s7, 320(sp)
	sd	s8, 328(sp)
	sd	s9, 336(sp)
	sd	s10, 344(sp)
	sd	s11, 352(sp)
	sd	a0, 360(sp)
	mv	t0, a1
	mv	t1, a2
	li	x1, PAT(1)
	li	x7, PAT(7)
	li	x8, PAT(8)
	li	x9, PAT(9)
	mv	a0, t0
	mv	a1, t1
	li	x5, PAT(5)
	li	x6, PAT(6)
	li	x12, PAT(12)
	li	x13, PAT(13)
	li	x14, PAT(14)
	li	x15, PAT(15)
	li	x18, PAT(18)
	li	x19, PAT(19)
	li	x20, PAT(20)
	li	x21, PAT(21)
	li	x22, PAT(22)
	li	x23, PAT(23)
	li	x24, PAT(24)
	li	x25, PAT(25)
	li	x26, PAT(26)
	li	x27, PAT(27)
	li	x28, PAT(28)
	li	x29, PAT(29)
	li	x30, PAT(30)
	li	x31, PAT(31)
	li	a6, SBI_SSE_INJECT
	li	a7, SBI_EXT_SSE
	ecall
	.globl sse_capture_resume
sse_capture_resume:
	sd	x1, 8(sp)
	sd	x2, 16(sp)
	sd	x3, 24(sp)
	sd	x4, 32(sp)
	sd	x5, 40(sp)
	sd	x6, 48(sp)
	sd	x7, 56(sp)
	sd	x8, 64(sp)
	sd	x9, 72(sp)
	sd	x10, 80(sp)
	sd	x11, 88(sp)
	sd	x12, 96(sp)
	sd	x13, 104(sp)
	sd	x14, 112(sp)
	sd	x15, 120(sp)
	sd	x16, 128(sp)
	sd	x17, 136(sp)
	sd	x18, 144(sp)
	sd	x19, 152(sp)
	sd	x20, 160(sp)
	sd	x21, 168(sp)
	sd	x22, 176(sp)
	sd	x23, 184(sp)
	sd	x24, 192(sp)
	sd	x25, 200(sp)
	sd	x26, 208(sp)
	sd	x27, 216(sp)
	sd	x28, 224(sp)
	sd	x29, 232(sp)
	sd	x30, 240(sp)
	sd	x31, 248(sp)
	sd	zero, 0(sp)
	ld	t0, 360(sp)
	li	t1, 0
	li	t4, 256
1:	add	t2, sp, t1
	ld	t3, 0(t2)
	add	t2, t0, t1
	sd	t3, 0(t2)
	addi	t1, t1, 8
	blt	t1, t4, 1b
	ld	ra, 256(sp)
	ld	s0, 264(sp)
	ld	s1, 272(sp)
	ld	s2, 280(sp)
	ld	s3, 288(sp)
	ld	s4, 296(sp)
	ld	s5, 304(sp)
	ld	s6, 312(sp)
	ld	s7, 320(sp)
	ld	s8, 328(sp)
	ld	s9, 336(sp)
	ld	s10, 344(sp)
	ld	s11, 352(sp)
	addi	sp, sp, 384
	ret

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Control Transfer Records from S-mode (Smctr/Ssctr 1.0, and the draft
 * v0.1.4 layout when bootargs say tracesbi.ctr=draft): every CSR and field
 * reachable without recording — WARL read-back, depth changes, WRPTR,
 * FROZEN, the entries through siselect/sireg*, SCTRCLR / CLR, the CSR
 * instruction forms, and the accesses that stay illegal.  On tracesbi the
 * hart has no CTR hardware, so this is the firmware's emulation
 * (docs/CTR.md); a firmware that has none (OpenSBI 1.1) gets every test
 * reported not applicable.
 */
#include "testlib.h"

/* CSR access by number (the assembler takes numbers for CSR operands). */
#define CSRR(csr) ({ unsigned long __v; \
	__asm__ __volatile__("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define CSRW(csr, val) \
	__asm__ __volatile__("csrw " #csr ", %0" :: "r"((unsigned long)(val)) : "memory")
#define CSRRW(csr, val) ({ unsigned long __v; __asm__ __volatile__("csrrw %0, " #csr ", %1" \
	: "=r"(__v) : "r"((unsigned long)(val)) : "memory"); __v; })
#define CSRRS(csr, val) ({ unsigned long __v; __asm__ __volatile__("csrrs %0, " #csr ", %1" \
	: "=r"(__v) : "r"((unsigned long)(val)) : "memory"); __v; })
#define CSRRC(csr, val) ({ unsigned long __v; __asm__ __volatile__("csrrc %0, " #csr ", %1" \
	: "=r"(__v) : "r"((unsigned long)(val)) : "memory"); __v; })
#define SCTRCLR() __asm__ __volatile__(".word 0x10400073" ::: "memory")

/* CSR numbers appear as literals in the accesses below (an operand of
 * the instruction): sctrctl 0x14E, sctrstatus 0x14F, sctrdepth 0x15F,
 * siselect 0x150, sireg..sireg3 0x151-0x153, sireg4..6 0x155-0x157,
 * mctrctl 0x34E; draft sctrcontrol 0x181, sctrstatus 0x183. */

#define CTL_U (1UL << 0)
#define CTL_S (1UL << 1)
#define CTL_RASEMU (1UL << 7)
#define CTL_STE (1UL << 8)
#define CTL_BPFRZ (1UL << 11)
#define CTL_LCOFIFRZ (1UL << 12)
#define CTL_TYPE_FILTERS 0x0000FF3E00000000UL
#define CTL_SUPERVISOR (CTL_U | CTL_S | CTL_RASEMU | CTL_STE | CTL_BPFRZ | CTL_LCOFIFRZ | \
			CTL_TYPE_FILTERS)
#define STATUS_FROZEN (1UL << 31)

#define DRAFT_S (1UL << 1)
#define DRAFT_U (1UL << 2)
#define DRAFT_CLR (1UL << 7)
#define DRAFT_STE (1UL << 9)
#define DRAFT_RASEMU (1UL << 10)
#define DRAFT_DEPTH_SHIFT 16
#define DRAFT_ETEN (1UL << 38)
#define DRAFT_WRAP (1UL << 14)
#define DRAFT_FROZEN (1UL << 15)

#define CAUSE_ILLEGAL 2

static bool draft_layout(void)
{
	char v[16];

	return bootarg("tracesbi.ctr", v, sizeof(v)) && !strcmp(v, "draft");
}

/* Whether CTR answers at all: on tracesbi it must; elsewhere (OpenSBI
 * 1.1, no CTR hardware on QEMU 7.2) the test is not applicable. */
static bool ctr_ready(void)
{
	unsigned long cause;

	fault_expect(false);
	if (draft_layout())
		(void)CSRR(0x181);
	else
		(void)CSRR(0x14E);
	if (!fault_end(&cause, NULL))
		return true;
	if (run.opensbi)
		test_not_applicable("no Control Transfer Records: the control CSR raises cause %lu "
				    "(QEMU 7.2 has no Smctr, OpenSBI 1.1 emulates none)", cause);
	else
		check_failed("the CTR control CSR raises cause %lu on tracesbi", cause);
	return false;
}

/* ---- entries ------------------------------------------------------------ */

static void select_entry(unsigned long i)
{
	CSRW(0x150, 0x200 + i);
}

static unsigned long entry_source(unsigned long i)
{
	select_entry(i);
	return CSRR(0x151);
}

static void write_entry(unsigned long i, unsigned long src, unsigned long tgt, unsigned long data)
{
	select_entry(i);
	CSRW(0x151, src);
	CSRW(0x152, tgt);
	CSRW(0x153, data);
}

static bool entries_zero(unsigned long n, const char *when)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		select_entry(i);
		if (!CHECK_EQ(CSRR(0x151) | CSRR(0x152) | CSRR(0x153), 0,
			      "entry %lu (source|target|data) %s", i, when))
			return false;
	}
	return true;
}

static void fill_entries(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		write_entry(i, 0x80001001 + 16 * i, 0x80002000 + 16 * i, 9 | i << 16);
}

/* ---- ratified layout ---------------------------------------------------- */

static void sctrctl_warl(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x14E, ~0UL);
	CHECK_EQ(CSRR(0x14E), CTL_SUPERVISOR, "sctrctl after writing all ones (M, MTE, custom "
		 "and WPRI bits read 0)");
	CSRW(0x14E, 0);
	CHECK_EQ(CSRR(0x14E), 0, "sctrctl after writing 0");
	CSRW(0x14E, CTL_S | CTL_RASEMU);
	CHECK_EQ(CSRR(0x14E), CTL_S | CTL_RASEMU, "sctrctl after writing S|RASEMU");
	CSRW(0x14E, 0);
}

static void sctrdepth_warl(void)
{
	unsigned long code;

	if (!ctr_ready())
		return;
	for (code = 0; code < 8; code++) {
		CSRW(0x15F, code | ~7UL);
		if (!CHECK_EQ(CSRR(0x15F), code < 2 ? code : 2, "sctrdepth after writing DEPTH %lu "
			      "(16, 32, 64 offered)", code))
			break;
	}
}

static void depth_change_clears(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 2);
	CSRW(0x14F, 7);
	fill_entries(64);
	CSRW(0x15F, 2);   /* the same depth: nothing changes */
	CHECK_EQ(entry_source(63), 0x80001001 + 16 * 63, "entry 63 after rewriting DEPTH 2");
	CSRW(0x15F, 0);
	CHECK_EQ(CSRR(0x14F), 0, "sctrstatus after a depth change (WRPTR 0)");
	entries_zero(16, "after the depth changed to 16");
	CSRW(0x15F, 2);
	entries_zero(64, "after the depth changed back to 64");
}

static void sctrstatus_wrptr_frozen(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 2);
	CSRW(0x14F, ~0UL);
	CHECK_EQ(CSRR(0x14F), 63 | STATUS_FROZEN, "sctrstatus after all ones at depth 64");
	CSRW(0x15F, 0);
	CSRW(0x14F, 0xFF);
	CHECK_EQ(CSRR(0x14F), 15, "sctrstatus after 0xFF at depth 16 (WRPTR 7:4 read 0)");
	CSRW(0x14F, 0);
	CHECK_EQ(CSRR(0x14F), 0, "sctrstatus after 0");
}

/* Logical entry X is physical (WRPTR - X - 1) % depth. */
static void wrptr_moves_logical_entries(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 0);
	CSRW(0x14F, 0);
	SCTRCLR();
	write_entry(0, 0xA001, 0xA100, 5);   /* physical 15 */
	CSRW(0x14F, 5);
	CHECK_EQ(entry_source(5), 0xA001, "logical 5 with WRPTR 5 (physical 15)");
	CHECK_EQ(entry_source(0), 0, "logical 0 with WRPTR 5 (physical 4)");
	CSRW(0x14F, 1);
	write_entry(0, 0xB001, 0xB100, 9);   /* physical 0 */
	CSRW(0x14F, 2);
	CHECK_EQ(entry_source(1), 0xB001, "logical 1 with WRPTR 2 (physical 0)");
	CHECK_EQ(entry_source(2), 0xA001, "logical 2 with WRPTR 2 (physical 15)");
}

static void entry_warl(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 0);
	write_entry(3, ~0UL, ~0UL, ~0UL);
	select_entry(3);
	CHECK_EQ(CSRR(0x151), ~0UL, "ctrsource after all ones (V + PC)");
	CHECK_EQ(CSRR(0x152), ~1UL, "ctrtarget after all ones (MISP not implemented)");
	CHECK_EQ(CSRR(0x153), 0xFFFF800FUL, "ctrdata after all ones (TYPE, CCV, CC)");
	CHECK_EQ(CSRR(0x155) | CSRR(0x156) | CSRR(0x157), 0, "sireg4..6 in CTR's range");
	CSRW(0x155, ~0UL);
	CHECK_EQ(CSRR(0x155), 0, "sireg4 after a write (read-only 0)");
}

static void entries_past_depth_read_zero(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 0);
	write_entry(16, 0x1235, 0x2000, 9);
	write_entry(255, 0x1235, 0x2000, 9);
	select_entry(16);
	CHECK_EQ(CSRR(0x151) | CSRR(0x152) | CSRR(0x153), 0, "entry 16 at depth 16");
	select_entry(255);
	CHECK_EQ(CSRR(0x151), 0, "entry 255 at depth 16");
	CHECK_EQ(CSRR(0x150), 0x2FF, "siselect reads back 0x2FF");
}

static void sctrclr_clears_entries(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x15F, 2);
	fill_entries(64);
	CSRW(0x14F, 9 | STATUS_FROZEN);
	SCTRCLR();
	entries_zero(64, "after SCTRCLR");
	CHECK_EQ(CSRR(0x14F), 9 | STATUS_FROZEN, "sctrstatus after SCTRCLR (unchanged)");
	CSRW(0x14F, 0);
}

static void csr_instruction_forms(void)
{
	unsigned long old;

	if (!ctr_ready())
		return;
	CSRW(0x14E, 0);
	old = CSRRS(0x14E, CTL_U | CTL_S);
	CHECK_EQ(old, 0, "csrrs sctrctl: old value");
	old = CSRRC(0x14E, CTL_U);
	CHECK_EQ(old, CTL_U | CTL_S, "csrrc sctrctl: old value");
	old = CSRRW(0x14E, CTL_RASEMU);
	CHECK_EQ(old, CTL_S, "csrrw sctrctl: old value");
	CHECK_EQ(CSRR(0x14E), CTL_RASEMU, "sctrctl after csrrw");
	__asm__ __volatile__("csrrwi %0, 0x15F, 1" : "=r"(old) :: "memory");
	CHECK_EQ(CSRR(0x15F), 1, "sctrdepth after csrrwi 1");
	__asm__ __volatile__("csrsi 0x14E, 3" ::: "memory");
	__asm__ __volatile__("csrci 0x14E, 1" ::: "memory");
	CHECK_EQ(CSRR(0x14E), CTL_S | CTL_RASEMU, "sctrctl after csrsi 3, csrci 1");
	/* csrrs with rs1 = x0 into a0..: a read, and rd gets the value. */
	__asm__ __volatile__("csrrs %0, 0x14E, x0" : "=r"(old) :: "memory");
	CHECK_EQ(old, CTL_S | CTL_RASEMU, "csrrs sctrctl, x0");
	CSRW(0x14E, 0);
	CSRW(0x15F, 2);
}

static unsigned long faulting_sireg_read(void)
{
	unsigned long cause;

	fault_expect(false);
	(void)CSRR(0x151);
	if (!fault_end(&cause, NULL))
		return 0;
	return cause;
}

static void siselect_outside_ctr_illegal(void)
{
	static const unsigned long sel[] = { 0, 0x1FF, 0x300, 0xFFF, 1UL << 63 | 0x200 };
	unsigned int i;

	if (!ctr_ready())
		return;
	for (i = 0; i < sizeof(sel) / sizeof(sel[0]); i++) {
		CSRW(0x150, sel[i]);
		CHECK_EQ(CSRR(0x150), sel[i], "siselect read-back");
		CHECK_EQ(faulting_sireg_read(), CAUSE_ILLEGAL, "sireg with siselect %#lx", sel[i]);
	}
	CSRW(0x150, 0x200);
	CHECK_EQ(faulting_sireg_read(), 0, "sireg with siselect 0x200");
}

/* Accesses a hart with Ssctr alone refuses to S-mode: mctrctl (M-level),
 * the draft's CSR numbers, and reserved numbers next to CTR's. */
static void illegal_accesses(void)
{
	unsigned long cause = 0;

	if (!ctr_ready())
		return;
	fault_expect(false);
	(void)CSRR(0x34E);
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL,
	      "mctrctl from S-mode: cause %lu, want illegal instruction", cause);
	fault_expect(false);
	(void)CSRR(0x181);
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL,
	      "draft sctrcontrol in the ratified layout: cause %lu", cause);
	fault_expect(false);
	(void)CSRR(0x154);
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL, "CSR 0x154: cause %lu", cause);
	/* SCTRCLR with rd != 0 is not SCTRCLR. */
	fault_expect(false);
	__asm__ __volatile__(".word 0x104000f3" ::: "memory");
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL,
	      "SCTRCLR encoding with rd = x1: cause %lu", cause);
}

/* ---- draft v0.1.4 layout ------------------------------------------------ */

static void draft_control_fields(void)
{
	unsigned long cause = 0, v;

	if (!ctr_ready())
		return;
	CSRW(0x181, ~0UL & ~DRAFT_CLR);
	v = CSRR(0x181);
	CHECK_EQ(v, DRAFT_S | DRAFT_U | DRAFT_STE | DRAFT_RASEMU | (1UL << 11) | (1UL << 12) |
		 (3UL << DRAFT_DEPTH_SHIFT) | DRAFT_ETEN | CTL_TYPE_FILTERS,
		 "sctrcontrol after all ones (M, MTE read 0; DEPTH 0011 = 64)");
	CSRW(0x181, 1UL << DRAFT_DEPTH_SHIFT);
	CHECK_EQ(CSRR(0x181), 1UL << DRAFT_DEPTH_SHIFT, "sctrcontrol DEPTH 0001 (32)");
	fault_expect(false);
	(void)CSRR(0x14E);
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL,
	      "ratified sctrctl in the draft layout: cause %lu", cause);
	fault_expect(false);
	SCTRCLR();
	CHECK(fault_end(&cause, NULL) && cause == CAUSE_ILLEGAL,
	      "SCTRCLR in the draft layout: cause %lu", cause);
}

static void draft_clr_and_status(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x181, 0);   /* depth 16 */
	fill_entries(16);
	CSRW(0x183, ~0UL);
	CHECK_EQ(CSRR(0x183), 15 | DRAFT_WRAP | DRAFT_FROZEN, "sctrstatus after all ones");
	/* U, not S: S-mode's own transfers would now be recorded. */
	CSRW(0x181, DRAFT_U | DRAFT_CLR);
	CHECK_EQ(CSRR(0x181), DRAFT_U, "sctrcontrol after CLR (CLR reads 0)");
	CHECK_EQ(CSRR(0x183), 0, "sctrstatus after CLR");
	entries_zero(16, "after CLR");
	CSRW(0x181, 0);
}

static void draft_depth_change_clears(void)
{
	if (!ctr_ready())
		return;
	CSRW(0x181, 3UL << DRAFT_DEPTH_SHIFT);
	fill_entries(64);
	CSRW(0x181, 0);
	entries_zero(16, "after DEPTH 0011 -> 0000");
	CSRW(0x181, 7UL << DRAFT_DEPTH_SHIFT);
	CHECK_EQ(CSRR(0x181) >> DRAFT_DEPTH_SHIFT & 0xF, 3, "DEPTH after 0111 (128: 64 offered)");
	entries_zero(64, "after DEPTH 0000 -> 0011");
}

/* ---- recording (the hart's own transfers, docs/CTR.md "Recording") ----- */

/*
 * A program with one transfer of every type the hart can make from S and
 * U without interrupts, at labels, so each record's source, target and
 * type is known exactly.  ctr_prog(sctrctl) installs its own trap vector,
 * enables recording with the one csrw, runs the transfers and disables
 * recording again.  32-bit instructions only (norvc): every "+ 4" below is
 * an instruction's size.  Its trap vector skips the ebreak, brings the
 * U-mode ecall back to S-mode at ctr_p_back and takes the local counter
 * overflow interrupt (Sscofpmf LCOFI) that the program raises by setting
 * sip.LCOFIP: the hart takes it right after that csrs, at ctr_p_intr.
 */
__asm__(
	"	.text\n"
	"	.balign 4\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.globl ctr_prog\n"
	"ctr_prog:\n"
	"	addi sp, sp, -32\n"
	"	sd ra, 0(sp)\n"
	"	sd s0, 8(sp)\n"
	"	sd s1, 16(sp)\n"
	"	csrr s0, stvec\n"
	"	csrr s1, sstatus\n"
	"	csrci sstatus, 2\n"
	"	la t4, ctr_p_vec\n"
	"	csrw stvec, t4\n"
	"	csrw 0x14E, a0\n"
	"ctr_p_j:	j 1f\n"
	"1:	li t0, 1\n"
	"ctr_p_bt:	bnez t0, 2f\n"
	"	nop\n"
	"2:\n"
	"ctr_p_bn:	beqz t0, 3f\n"
	"	la t1, 4f\n"
	"ctr_p_ij:	jr t1\n"
	"3:	nop\n"
	"4:	mv t2, ra\n"
	"ctr_p_call:	jal ra, 5f\n"
	"ctr_p_j2:	j 6f\n"
	"5:\n"
	"ctr_p_ret:	ret\n"
	"6:	la t1, 7f\n"
	"ctr_p_icall:	jalr ra, 0(t1)\n"
	"7:	la t1, 8f\n"
	"ctr_p_oij:	jalr t3, 0(t1)\n"
	"8:\n"
	"ctr_p_odj:	jal t3, 9f\n"
	"9:	la ra, 10f\n"
	"ctr_p_swap:	jalr t0, 0(ra)\n"
	"10:	mv ra, t2\n"
	"ctr_p_ebreak:	ebreak\n"
	"	li t4, 0x100\n"
	"	csrc sstatus, t4\n"
	"	la t4, ctr_p_user\n"
	"	csrw sepc, t4\n"
	"ctr_p_sret_u:	sret\n"
	"ctr_p_user:\n"
	"ctr_p_uj:	j 11f\n"
	"11:\n"
	"ctr_p_uecall:	ecall\n"
	"ctr_p_back:\n"
	"	li t4, 0x2000\n"
	"	csrs sie, t4\n"
	"	csrsi sstatus, 2\n"
	"	csrs sip, t4\n"
	"ctr_p_intr:	csrci sstatus, 2\n"
	"	csrc sie, t4\n"
	"	csrw 0x14E, zero\n"
	"	csrw stvec, s0\n"
	"	csrw sstatus, s1\n"
	"	ld ra, 0(sp)\n"
	"	ld s0, 8(sp)\n"
	"	ld s1, 16(sp)\n"
	"	addi sp, sp, 32\n"
	"	ret\n"
	"	.balign 4\n"
	"ctr_p_vec:\n"
	"	csrr t4, scause\n"
	"ctr_p_vbltz:	bltz t4, 30f\n"
	"	li t5, 8\n"
	"ctr_p_vbeq:	beq t4, t5, 20f\n"
	"	csrr t4, sepc\n"
	"	addi t4, t4, 4\n"
	"	csrw sepc, t4\n"
	"ctr_p_sret1:	sret\n"
	"20:	li t4, 0x100\n"
	"	csrs sstatus, t4\n"
	"	la t4, ctr_p_back\n"
	"	csrw sepc, t4\n"
	"ctr_p_sret2:	sret\n"
	"30:	li t4, 0x2000\n"
	"	csrc sip, t4\n"
	"ctr_p_sret3:	sret\n"
	"	.option pop\n");

void ctr_prog(unsigned long sctrctl);
extern char ctr_p_j[], ctr_p_bt[], ctr_p_bn[], ctr_p_ij[], ctr_p_call[], ctr_p_j2[], ctr_p_ret[],
	ctr_p_icall[], ctr_p_oij[], ctr_p_odj[], ctr_p_swap[], ctr_p_ebreak[], ctr_p_sret_u[],
	ctr_p_user[], ctr_p_uj[], ctr_p_uecall[], ctr_p_back[], ctr_p_vec[], ctr_p_vbeq[],
	ctr_p_sret1[], ctr_p_sret2[], ctr_p_intr[], ctr_p_vbltz[], ctr_p_sret3[];

/* ctrdata.TYPE (Smctr/Ssctr 1.0, "Control Transfer Type Definitions") */
enum { T_EXC = 1, T_INTR = 2, T_TRET = 3, T_NTBR = 4, T_TKBR = 5, T_INDCALL = 8,
       T_DIRCALL = 9, T_INDJMP = 10, T_DIRJMP = 11, T_CORSWAP = 12, T_RET = 13,
       T_INDLJMP = 14, T_DIRLJMP = 15 };
enum { M_U, M_S };

/* What a trap is to the freeze bits. */
enum { NO_FREEZE, BP, LCOFI };

struct xfer {
	unsigned long source, target;
	unsigned int type, from, to, freeze;
};

#define A(label) ((unsigned long)(label))
/* The label after a label's 4-byte instruction. */
#define NEXT(label) (A(label) + 4)

/* Whether S-mode can take a local counter overflow interrupt (Sscofpmf):
 * what the run says the cpu has, else whether scountovf reads.  Without
 * it ctr_prog's csrs sip sets nothing and no interrupt comes. */
static bool lcofi_exists(void)
{
	if (run.expect_sscofpmf >= 0)
		return run.expect_sscofpmf == 1;
	fault_expect(false);
	(void)csr_read(0xDA0);
	return !fault_end(NULL, NULL);
}

/* ctr_prog's transfers in execution order (the branch-target labels are
 * the instruction after the transfer's own label, see the program); the
 * last three only where the LCOFI is taken. */
static unsigned int prog_transfers_with(struct xfer *x, bool lcofi)
{
	const struct xfer all[] = {
		{ A(ctr_p_j), NEXT(ctr_p_j), T_DIRJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_bt), NEXT(ctr_p_bt) + 4, T_TKBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_bn), NEXT(ctr_p_bn), T_NTBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_ij), NEXT(ctr_p_ij) + 4, T_INDJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_call), A(ctr_p_ret), T_DIRCALL, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_ret), A(ctr_p_j2), T_RET, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_j2), NEXT(ctr_p_ret), T_DIRJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_icall), NEXT(ctr_p_icall), T_INDCALL, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_oij), NEXT(ctr_p_oij), T_INDLJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_odj), NEXT(ctr_p_odj), T_DIRLJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_swap), NEXT(ctr_p_swap), T_CORSWAP, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_ebreak), A(ctr_p_vec), T_EXC, M_S, M_S, BP },
		{ A(ctr_p_vbltz), NEXT(ctr_p_vbltz), T_NTBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_vbeq), NEXT(ctr_p_vbeq), T_NTBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_sret1), NEXT(ctr_p_ebreak), T_TRET, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_sret_u), A(ctr_p_user), T_TRET, M_S, M_U, NO_FREEZE },
		{ A(ctr_p_uj), A(ctr_p_uecall), T_DIRJMP, M_U, M_U, NO_FREEZE },
		{ A(ctr_p_uecall), A(ctr_p_vec), T_EXC, M_U, M_S, NO_FREEZE },
		{ A(ctr_p_vbltz), NEXT(ctr_p_vbltz), T_NTBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_vbeq), NEXT(ctr_p_sret1), T_TKBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_sret2), A(ctr_p_back), T_TRET, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_intr), A(ctr_p_vec), T_INTR, M_S, M_S, LCOFI },
		{ A(ctr_p_vbltz), NEXT(ctr_p_sret2), T_TKBR, M_S, M_S, NO_FREEZE },
		{ A(ctr_p_sret3), A(ctr_p_intr), T_TRET, M_S, M_S, NO_FREEZE },
	};
	/* The last three: the LCOFI, its handler's branch and sret. */
	unsigned int i, n = sizeof(all) / sizeof(all[0]) - (lcofi ? 0 : 3);

	for (i = 0; i < n; i++)
		x[i] = all[i];
	return n;
}

static unsigned int prog_transfers(struct xfer *x)
{
	return prog_transfers_with(x, lcofi_exists());
}

/*
 * What a hart with CTR records of x under sctrctl value ctl (the spec's
 * rules, "Transfer Type Filtering" and "Privilege Mode Transitions",
 * restated for the S/U transfers of ctr_prog): *out is the record, false
 * when none.
 */
static bool expect_record(const struct xfer *x, unsigned long ctl, struct xfer *out)
{
	bool from_on = ctl & (x->from == M_S ? CTL_S : CTL_U);
	bool to_on = ctl & (x->to == M_S ? CTL_S : CTL_U);
	bool allowed = x->type == T_NTBR ? ctl & (1UL << 36) : !(ctl & (1UL << (32 + x->type)));
	bool trap = x->type == T_EXC || x->type == T_INTR;

	*out = *x;
	if (x->type == T_TRET) {
		if (!from_on || !allowed)
			return false;
		if (!to_on)
			out->target = 0;
		return true;
	}
	if (trap && from_on && !to_on) {
		out->target = 0;
		return ctl & CTL_STE;   /* external trap: U -> S needs STE */
	}
	if (trap) {
		if (!to_on || !allowed)
			return false;
		if (!from_on)
			out->source = 0;
		return true;
	}
	return from_on && allowed;
}

static const char *const type_names[16] = {
	"none", "exception", "interrupt", "trap return", "not-taken branch", "taken branch",
	"6", "7", "indirect call", "direct call", "indirect jump", "direct jump",
	"co-routine swap", "return", "other indirect jump", "other direct jump",
};

/* Logical entry i (0 = the newest). */
static void read_entry(unsigned long i, unsigned long *src, unsigned long *tgt,
		       unsigned long *data)
{
	select_entry(i);
	*src = CSRR(0x151);
	*tgt = CSRR(0x152);
	*data = CSRR(0x153);
}

/* The buffer holds exactly want[0..n) (oldest first), newest at entry 0,
 * and nothing older. */
static bool entries_are(const struct xfer *want, unsigned int n, const char *what)
{
	unsigned long src, tgt, data, i;
	bool ok = true;

	for (i = 0; i < n && ok; i++) {
		const struct xfer *w = &want[n - 1 - i];

		read_entry(i, &src, &tgt, &data);
		ok = CHECK(src & 1, "%s: entry %lu (%s at %#lx) is not valid", what, i,
			   type_names[w->type], w->source) &&
		     CHECK(src == (w->source | 1) && tgt == w->target && (data & 0xF) == w->type,
			   "%s: entry %lu is %#lx -> %#lx %s, expected %#lx -> %#lx %s", what, i,
			   src & ~1UL, tgt, type_names[data & 0xF], w->source, w->target,
			   type_names[w->type]);
	}
	if (ok && n < 64) {
		read_entry(n, &src, &tgt, &data);
		ok = CHECK(!(src & 1), "%s: entry %u (%#lx -> %#lx %s) is valid, only %u transfers "
			   "were expected", what, n, src & ~1UL, tgt, type_names[data & 0xF], n);
	}
	return ok;
}

/* "Freeze": a breakpoint exception or an LCOFI into S-mode sets FROZEN
 * when BPFRZ / LCOFIFRZ say so, whether S-mode records or not; that trap
 * and everything after it is not recorded. */
static bool freezes(const struct xfer *x, unsigned long ctl)
{
	return (x->freeze == BP && (ctl & CTL_BPFRZ)) || (x->freeze == LCOFI && (ctl & CTL_LCOFIFRZ));
}

/* Run ctr_prog through run() under ctl on a cleared buffer of
 * 16 << depth_code entries (WRPTR from 0) and compare: the newest records,
 * WRPTR and FROZEN. */
static bool prog_run_records(void (*run)(unsigned long), bool lcofi, unsigned long ctl,
			     unsigned int depth_code, const char *what)
{
	struct xfer all[32], want[32];
	unsigned int n = prog_transfers_with(all, lcofi), m = 0, i, depth = 16u << depth_code;
	bool frozen = false;

	for (i = 0; i < n && !frozen; i++) {
		frozen = freezes(&all[i], ctl);
		if (!frozen)
			m += expect_record(&all[i], ctl, &want[m]);
	}
	CSRW(0x15F, depth_code);
	CSRW(0x14F, 0);
	SCTRCLR();
	run(ctl);
	return entries_are(m > depth ? want + (m - depth) : want, m > depth ? depth : m, what) &&
	       CHECK_EQ(CSRR(0x14F), (frozen ? STATUS_FROZEN : 0) | (m & (depth - 1)),
			"%s: sctrstatus (FROZEN, WRPTR) after %u records", what, m);
}

static bool prog_records_depth(unsigned long ctl, unsigned int depth_code, const char *what)
{
	return prog_run_records(ctr_prog, lcofi_exists(), ctl, depth_code, what);
}

static bool prog_records(unsigned long ctl, const char *what)
{
	return prog_records_depth(ctl, 2, what);
}

#define CTL_NTBREN (1UL << 36)

/* ctrdata.CC of logical entry i when CCV is set ("Cycle Counting"; the
 * emulation counts instructions), or -1. */
static long entry_cycles(unsigned long i)
{
	unsigned long src, tgt, data;

	read_entry(i, &src, &tgt, &data);
	return data & (1UL << 15) ? (long)(data >> 16 & 0xFFFF) : -1;
}

/* Every transfer of a program in S and U, recorded with its exact
 * source, target and type; the cycle count of a record is the number of
 * instructions that retired since the one before, the transfer included
 * (none valid on the first record after the sctrctl write). */
static void records_every_transfer(void)
{
	static const long cycles[] = {
		-1,   /* j: the first record after the control write */
		2,    /* li, bnez */
		1,    /* beqz */
		3,    /* la (auipc, addi), jr */
		2,    /* mv, jal */
		1,    /* ret */
		1,    /* j */
	};
	struct xfer all[32];
	unsigned int i, n = prog_transfers(all);   /* all recorded at depth 64 */

	if (!prog_records(CTL_S | CTL_U | CTL_NTBREN, "S+U, every type"))
		return;
	for (i = 0; i < sizeof(cycles) / sizeof(cycles[0]); i++)
		CHECK_EQ(entry_cycles(n - 1 - i), cycles[i], "cycle count of record %u", i);
}

/* With a depth of 16, the 24 records wrap: WRPTR is 24 mod 16, the
 * newest 16 are there. */
static void wrptr_wraps(void)
{
	prog_records_depth(CTL_S | CTL_U | CTL_NTBREN, 0, "depth 16");
	prog_records_depth(CTL_S | CTL_U | CTL_NTBREN, 1, "depth 32");
}

/* BPFRZ: S-mode's ebreak freezes; LCOFIFRZ: the counter overflow
 * interrupt freezes; neither trap is recorded, nor what follows. */
static void freeze_on_breakpoint_and_lcofi(void)
{
	prog_records(CTL_S | CTL_U | CTL_NTBREN | CTL_BPFRZ, "BPFRZ");
	prog_records(CTL_S | CTL_U | CTL_NTBREN | CTL_LCOFIFRZ, "LCOFIFRZ");
	prog_records(CTL_U | CTL_NTBREN | CTL_BPFRZ | CTL_LCOFIFRZ, "U only: traps into disabled S");
}

/* Each type filter on its own: that type, and only it, is missing
 * (not-taken branches: only with NTBREN). */
static void type_filters(void)
{
	static const unsigned int types[] = { T_EXC, T_INTR, T_TRET, T_TKBR, T_INDCALL, T_DIRCALL,
					      T_INDJMP, T_DIRJMP, T_CORSWAP, T_RET, T_INDLJMP,
					      T_DIRLJMP };
	char what[48];
	unsigned int i;

	prog_records(CTL_S | CTL_U, "NTBREN off");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		ksnprintf(what, sizeof(what), "%s inhibited", type_names[types[i]]);
		if (!prog_records(CTL_S | CTL_U | CTL_NTBREN | 1UL << (32 + types[i]), what))
			return;
	}
}

/* U only, S only, with and without STE: U-mode's jump, and the traps and
 * trap returns between the modes recorded partly or not at all. */
static void privilege_filters(void)
{
	prog_records(CTL_U | CTL_NTBREN, "U only");
	prog_records(CTL_U | CTL_STE | CTL_NTBREN, "U only, STE");
	prog_records(CTL_S | CTL_NTBREN, "S only");
	prog_records(0, "recording off");
}

/*
 * ctr_rec_top(sctrctl, levels, freeze): recording on, ctr_rec(levels)
 * calls itself `levels` times; at the bottom it sets sctrstatus.FROZEN
 * when `freeze` is not 0, so the buffer keeps the deepest state.
 */
__asm__(
	"	.text\n"
	"	.balign 4\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.globl ctr_rec_top\n"
	"ctr_rec_top:\n"
	"	addi sp, sp, -16\n"
	"	sd ra, 0(sp)\n"
	"	csrw 0x14E, a0\n"
	"	mv a0, a1\n"
	"	mv a1, a2\n"
	"ctr_rec_top_call:	jal ra, ctr_rec\n"
	"	csrw 0x14E, zero\n"
	"	ld ra, 0(sp)\n"
	"	addi sp, sp, 16\n"
	"	ret\n"
	"ctr_rec:\n"
	"	addi sp, sp, -16\n"
	"	sd ra, 0(sp)\n"
	"	beqz a0, 1f\n"
	"	addi a0, a0, -1\n"
	"ctr_rec_call:	jal ra, ctr_rec\n"
	"	j 2f\n"
	"1:	beqz a1, 2f\n"
	"	li t0, 0x80000000\n"
	"	csrs 0x14F, t0\n"
	"2:	ld ra, 0(sp)\n"
	"	addi sp, sp, 16\n"
	"	ret\n"
	"	.option pop\n");

void ctr_rec_top(unsigned long sctrctl, unsigned long levels, unsigned long freeze);
extern char ctr_rec[], ctr_rec_call[], ctr_rec_top_call[];

/*
 * "RAS Emulation Mode": calls push, returns pop (the popped entry's V
 * cleared), nothing else is recorded.  At the bottom of 20 levels (21
 * calls) a buffer of 16 holds the last 16 calls and WRPTR is 21 mod 16;
 * after the whole unwind WRPTR is back at 0 and no entry is valid.
 */
static void rasemu_deep_recursion(void)
{
	struct xfer want[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		want[i] = (struct xfer){ A(ctr_rec_call), A(ctr_rec), T_DIRCALL, M_S, M_S, NO_FREEZE };
	CSRW(0x15F, 0);
	CSRW(0x14F, 0);
	SCTRCLR();
	ctr_rec_top(CTL_S | CTL_RASEMU | CTL_NTBREN, 20, 1);
	if (entries_are(want, 16, "RASEMU at the bottom of 20 levels"))
		CHECK_EQ(CSRR(0x14F), STATUS_FROZEN | 5, "sctrstatus at the bottom (21 calls)");

	CSRW(0x14F, 0);
	SCTRCLR();
	ctr_rec_top(CTL_S | CTL_RASEMU | CTL_NTBREN, 20, 0);
	CHECK_EQ(CSRR(0x14F), 0, "sctrstatus after 21 calls and 21 returns");
	entries_are(want, 0, "RASEMU after the unwind");

	/* 3 levels, frozen at the bottom: the 4 calls, oldest the top's. */
	CSRW(0x14F, 0);
	SCTRCLR();
	want[0] = (struct xfer){ A(ctr_rec_top_call), A(ctr_rec), T_DIRCALL, M_S, M_S, NO_FREEZE };
	ctr_rec_top(CTL_S | CTL_RASEMU, 3, 1);
	if (entries_are(want, 4, "RASEMU at the bottom of 3 levels"))
		CHECK_EQ(CSRR(0x14F), STATUS_FROZEN | 4, "sctrstatus at the bottom (4 calls)");
	CSRW(0x14F, 0);
	CSRW(0x15F, 2);
}

/*
 * ctr_spin(max, count, before): loops until *count != before, at most max
 * times.  Its transfers are its two branches and the ret.
 */
__asm__(
	"	.text\n"
	"	.globl ctr_spin, ctr_spin_end\n"
	"ctr_spin:\n"
	"1:	ld t0, 0(a1)\n"
	"	bne t0, a2, 2f\n"
	"	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"2:	ret\n"
	"ctr_spin_end:\n");
void ctr_spin(unsigned long max, volatile unsigned long *count, unsigned long before);
extern char ctr_spin_end[];

/* An HPM counter S-mode can read (counter_get_info: not firmware, CSR
 * 0xC03..0xC1F), or -1. */
static long hpm_counter(void)
{
	struct sbiret n = sbi_ecall(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	long i;

	for (i = 0; n.error == 0 && i < n.value; i++) {
		struct sbiret r = sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, (unsigned long)i,
					    0, 0, 0, 0, 0);
		unsigned long csr = r.value & 0xfff;

		if (!r.error && !(r.value >> 63) && csr >= 0xC03 && csr <= 0xC1F)
			return i;
	}
	return -1;
}

/*
 * LCOFIFRZ with a real counter overflow (Sscofpmf, through the SBI PMU):
 * an HPM counter counting cycles starts 2^24 before it wraps while S-mode
 * records and spins; its LCOFI freezes the buffer, so the newest records
 * are the spin loop's, the interrupt and its handler are not there, and
 * FROZEN is set.  (Far enough from the wrap that the interrupt comes in
 * the spin, not at the return of the SBI call that started the counter:
 * a trap there is not recorded, docs/CTR.md "Limits".)
 */
static void freeze_on_pmu_overflow(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before, src, tgt, data, i, sie = csr_read(sie);
	long c;

	if (!lcofi_exists()) {
		test_not_applicable("needs a cpu with Sscofpmf (LCOFI)");
		return;
	}
	c = hpm_counter();
	if (!CHECK(c >= 0, "no HPM counter in the SBI PMU"))
		return;
	if (!CHECK_ERR(sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_CONFIG_MATCHING, (unsigned long)c, 1,
				 0, 1 /* cycles */, 0, 0).error, 0, "config_matching(cycles)"))
		return;
	csr_clear(sip, SIP_LCOFIP);
	csr_set(sie, SIE_LCOFIE);
	CSRW(0x15F, 2);
	CSRW(0x14F, 0);
	SCTRCLR();
	before = rec->lcofi_count;
	CSRW(0x14E, CTL_S | CTL_LCOFIFRZ);
	irq_enable();
	sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_START, (unsigned long)c, 1, 1 /* SET_INIT_VALUE */,
		  (unsigned long)-(1L << 24), 0, 0);
	ctr_spin(20000000, &rec->lcofi_count, before);
	irq_disable();
	CSRW(0x14E, 0);
	sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, (unsigned long)c, 1, 1 /* RESET */, 0, 0, 0);
	csr_write(sie, sie);
	csr_clear(sip, SIP_LCOFIP);
	if (!CHECK_EQ(rec->lcofi_count - before, 1, "LCOFI taken while spinning"))
		return;
	CHECK_EQ(CSRR(0x14F) & STATUS_FROZEN, STATUS_FROZEN, "sctrstatus.FROZEN after the LCOFI");
	for (i = 0; i < 8; i++) {
		read_entry(i, &src, &tgt, &data);
		if (!CHECK(src & 1 && (data & 0xF) != T_INTR && src >= (unsigned long)ctr_spin &&
			   src < (unsigned long)ctr_spin_end,
			   "entry %lu: %#lx -> %#lx type %lu, expected a transfer of the spin loop "
			   "(%#lx..%#lx)", i, src, tgt, data & 0xF, (unsigned long)ctr_spin,
			   (unsigned long)ctr_spin_end))
			break;
	}
	CSRW(0x14F, 0);
}

/* ctr_draft_jump(sctrcontrol): the draft control on, one direct jump,
 * off again. */
__asm__(
	"	.text\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.globl ctr_draft_jump, ctr_dj_j\n"
	"ctr_draft_jump:\n"
	"	csrw 0x181, a0\n"
	"ctr_dj_j:	j 1f\n"
	"1:	csrw 0x181, zero\n"
	"	ret\n"
	"	.option pop\n");
void ctr_draft_jump(unsigned long control);
extern char ctr_dj_j[];

/* Recording in the draft layout: its S bit (1) records S-mode's jump, its
 * U bit (2) alone does not. */
static void draft_records(void)
{
	const struct xfer jump = { A(ctr_dj_j), NEXT(ctr_dj_j), T_DIRJMP, M_S, M_S, NO_FREEZE };

	if (!ctr_ready())
		return;
	CSRW(0x181, DRAFT_CLR);   /* depth 16, cleared */
	ctr_draft_jump(DRAFT_S);
	entries_are(&jump, 1, "draft, S");
	CSRW(0x181, DRAFT_CLR);
	ctr_draft_jump(DRAFT_U);
	entries_are(&jump, 0, "draft, U only");
	CSRW(0x181, 0);
}

/*
 * ctr_run_vs(vsctrctl, fn): fn(vsctrctl) in VS-mode, where sctrctl is
 * vsctrctl, stvec vstvec and sstatus vsstatus (hgatp and vsatp Bare: the
 * same addresses, so ctr_prog makes the same records as in S), then back
 * in HS-mode through the VS-mode ecall after it (ctr_vs_ecall: cause 10,
 * which hedeleg cannot delegate), which enters ctr_vs_back on HS's trap
 * vector.  hedeleg must give VS-mode the breakpoint and the VU-mode ecall
 * of ctr_prog.  ctr_vs_hcall enables recording and makes a jump and a
 * return in VS, so recording is still on at that ecall.
 */
__asm__(
	"	.text\n"
	"	.balign 4\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.globl ctr_run_vs\n"
	"ctr_run_vs:\n"
	"	la t0, ctr_vs_saved\n"
	"	sd ra, 0(t0)\n"
	"	sd sp, 8(t0)\n"
	"	sd gp, 16(t0)\n"
	"	sd tp, 24(t0)\n"
	"	sd s0, 32(t0)\n"
	"	sd s1, 40(t0)\n"
	"	sd s2, 48(t0)\n"
	"	sd s3, 56(t0)\n"
	"	sd s4, 64(t0)\n"
	"	sd s5, 72(t0)\n"
	"	sd s6, 80(t0)\n"
	"	sd s7, 88(t0)\n"
	"	sd s8, 96(t0)\n"
	"	sd s9, 104(t0)\n"
	"	sd s10, 112(t0)\n"
	"	sd s11, 120(t0)\n"
	"	csrr t1, stvec\n"
	"	sd t1, 128(t0)\n"
	"	csrr t1, sstatus\n"
	"	sd t1, 136(t0)\n"
	"	la t1, ctr_vs_back\n"
	"	csrw stvec, t1\n"
	"	csrci sstatus, 2\n"        /* SIE 0 in HS while VS runs */
	"	li t1, 1 << 7\n"           /* hstatus.SPV: sret into V=1 */
	"	csrs 0x600, t1\n"
	"	li t1, 1 << 8\n"           /* sstatus.SPP: VS */
	"	csrs sstatus, t1\n"
	"	li t1, 1 << 5\n"           /* SPIE 0 */
	"	csrc sstatus, t1\n"
	"	la t1, 1f\n"
	"	csrw sepc, t1\n"
	"	sret\n"
	"1:	jalr a1\n"
	"ctr_vs_ecall:	ecall\n"
	"	.balign 4\n"
	"ctr_vs_back:\n"
	"	la t0, ctr_vs_saved\n"
	"	li t1, 1 << 7\n"
	"	csrc 0x600, t1\n"
	"	ld t1, 128(t0)\n"
	"	csrw stvec, t1\n"
	"	ld t1, 136(t0)\n"
	"	csrw sstatus, t1\n"
	"	ld ra, 0(t0)\n"
	"	ld sp, 8(t0)\n"
	"	ld gp, 16(t0)\n"
	"	ld tp, 24(t0)\n"
	"	ld s0, 32(t0)\n"
	"	ld s1, 40(t0)\n"
	"	ld s2, 48(t0)\n"
	"	ld s3, 56(t0)\n"
	"	ld s4, 64(t0)\n"
	"	ld s5, 72(t0)\n"
	"	ld s6, 80(t0)\n"
	"	ld s7, 88(t0)\n"
	"	ld s8, 96(t0)\n"
	"	ld s9, 104(t0)\n"
	"	ld s10, 112(t0)\n"
	"	ld s11, 120(t0)\n"
	"	ret\n"
	"	.globl ctr_vs_hcall\n"
	"ctr_vs_hcall:\n"
	"	csrw 0x14E, a0\n"
	"ctr_vh_j:	j 1f\n"
	"1:\n"
	"ctr_vh_ret:	ret\n"
	"	.option pop\n"
	"	.bss\n"
	"	.balign 8\n"
	"ctr_vs_saved:\n"
	"	.space 8 * 18\n"
	"	.text\n");

void ctr_run_vs(unsigned long vsctrctl, void (*fn)(unsigned long));
void ctr_vs_hcall(unsigned long vsctrctl);
extern char ctr_vs_ecall[], ctr_vh_j[], ctr_vh_ret[];

static void ctr_prog_in_vs(unsigned long vsctrctl)
{
	ctr_run_vs(vsctrctl, ctr_prog);
}

/* A trap from VS into HS while VS records (the VS-mode ecall): an
 * external trap, recorded only when HS opts in with sctrctl.STE (table
 * "External Trap Enable Requirements"), with target 0 (HS does not
 * record); then recording stops from HS. */
static void vs_trap_into_hs(unsigned long ctl, bool hs_ste, const char *what)
{
	const struct xfer want[] = {
		{ A(ctr_vh_j), NEXT(ctr_vh_j), T_DIRJMP, M_S, M_S, NO_FREEZE },
		{ A(ctr_vh_ret), A(ctr_vs_ecall), T_RET, M_S, M_S, NO_FREEZE },
		{ A(ctr_vs_ecall), 0, T_EXC, M_S, M_S, NO_FREEZE },
	};

	CSRW(0x15F, 2);
	CSRW(0x14F, 0);
	SCTRCLR();
	CSRW(0x14E, hs_ste ? CTL_STE : 0);
	ctr_run_vs(ctl, ctr_vs_hcall);
	CSRW(0x24E, 0);
	CSRW(0x14E, 0);
	entries_are(want, hs_ste ? 3 : 2, what);
}

/* Execute triggers that match in VS and VU (mcontrol6, SBI DBTR's count):
 * the firmware steps V=1 code with two of them (docs/CTR.md). */
static unsigned long vs_exec_triggers(void)
{
	unsigned long mc6 = 6UL << 60 | 1UL << 24 | 1UL << 23 | 1UL << 2;   /* VS, VU, execute */

	return (unsigned long)SBI3(SBI_EXT_DBTR, SBI_DBTR_NUM_TRIGGERS, mc6, 0, 0).value;
}

/*
 * VS/VU-mode recording (docs/CTR.md): ctr_prog in VS and VU records the
 * same transfers as in S and U (vsctrctl's VS/VU enables, STE and BPFRZ,
 * as sctrctl's for S/U), HS's sctrctl stays off, and the VS-mode ecall
 * into HS after recording stops is not recorded.  The LCOFI part does not
 * happen in VS: hideleg does not give VS-mode the counter overflow
 * interrupt, so vsie/vsip bit 13 are read-only 0.
 */
static void records_in_vs(void)
{
	unsigned long hedeleg;

	if (!probe_hfence_gvma()) {
		test_not_applicable("no H extension");
		return;
	}
	if (vs_exec_triggers() < 2) {
		/* mcontrol (type 2) never fires in V=1; QEMU 7.2 has no mcontrol6 */
		test_not_applicable("VS/VU-mode recording needs two mcontrol6 execute triggers "
				    "(VS/VU bits); this hart has %lu", vs_exec_triggers());
		return;
	}
	hedeleg = CSRR(0x602);
	CSRW(0x602, hedeleg | 1UL << 3 | 1UL << 8);   /* breakpoint, ecall from VU */
	CSRW(0x680, 0);                                 /* hgatp: Bare */
	CSRW(0x280, 0);                                 /* vsatp: Bare */
	CSRW(0x14E, 0);
	if (prog_run_records(ctr_prog_in_vs, false, CTL_S | CTL_U | CTL_NTBREN, 2, "VS+VU, every type")) {
		prog_run_records(ctr_prog_in_vs, false, CTL_U | CTL_NTBREN, 2, "VU only");
		prog_run_records(ctr_prog_in_vs, false, CTL_U | CTL_STE | CTL_NTBREN, 2, "VU only, STE");
		prog_run_records(ctr_prog_in_vs, false, CTL_S | CTL_U | CTL_NTBREN | CTL_BPFRZ, 2,
				 "VS+VU, BPFRZ");
		prog_run_records(ctr_prog_in_vs, false, CTL_S | CTL_U | CTL_NTBREN, 0, "VS+VU, depth 16");
		vs_trap_into_hs(CTL_S | CTL_U, false, "VS ecall into HS");
		vs_trap_into_hs(CTL_S | CTL_U | CTL_STE, false, "VS ecall into HS, vsctrctl.STE");
		vs_trap_into_hs(CTL_S | CTL_U, true, "VS ecall into HS, sctrctl.STE");
	}
	CHECK_EQ(CSRR(0x14E), 0, "HS sctrctl after the VS runs");
	CHECK_EQ(CSRR(0x24E), 0, "vsctrctl after the VS runs (ctr_prog turns it off)");
	CSRW(0x602, hedeleg);
}

/* Every test runs in both layouts' runs; the other layout's tests say why
 * they do not apply. */
static bool layout_is(bool draft)
{
	if (draft_layout() == draft)
		return true;
	test_not_applicable("this run uses the %s layout (bootargs tracesbi.ctr=)",
			    draft ? "ratified" : "draft");
	return false;
}

#define RATIFIED(fn) static void r_##fn(void) { if (layout_is(false)) fn(); }
/* The recording tests: only where CTR answers at all. */
#define RECORDING(fn) static void r_##fn(void) { if (layout_is(false) && ctr_ready()) fn(); }
#define DRAFT(fn) static void d_##fn(void) { if (layout_is(true)) fn(); }
RECORDING(records_in_vs)
RATIFIED(sctrctl_warl)
RATIFIED(sctrdepth_warl)
RATIFIED(depth_change_clears)
RATIFIED(sctrstatus_wrptr_frozen)
RATIFIED(wrptr_moves_logical_entries)
RATIFIED(entry_warl)
RATIFIED(entries_past_depth_read_zero)
RATIFIED(sctrclr_clears_entries)
RATIFIED(csr_instruction_forms)
RATIFIED(siselect_outside_ctr_illegal)
RATIFIED(illegal_accesses)
RECORDING(records_every_transfer)
RECORDING(type_filters)
RECORDING(privilege_filters)
RECORDING(wrptr_wraps)
RECORDING(freeze_on_breakpoint_and_lcofi)
RECORDING(rasemu_deep_recursion)
RECORDING(freeze_on_pmu_overflow)
DRAFT(draft_control_fields)
DRAFT(draft_clr_and_status)
DRAFT(draft_depth_change_clears)
DRAFT(draft_records)
DRAFT(siselect_outside_ctr_illegal)

static const struct target_test tests[] = {
	{ "sctrctl_warl", r_sctrctl_warl, DEV_NONE },
	{ "sctrdepth_warl", r_sctrdepth_warl, DEV_NONE },
	{ "depth_change_clears", r_depth_change_clears, DEV_NONE },
	{ "sctrstatus_wrptr_frozen", r_sctrstatus_wrptr_frozen, DEV_NONE },
	{ "wrptr_moves_logical_entries", r_wrptr_moves_logical_entries, DEV_NONE },
	{ "entry_warl", r_entry_warl, DEV_NONE },
	{ "entries_past_depth_read_zero", r_entries_past_depth_read_zero, DEV_NONE },
	{ "sctrclr_clears_entries", r_sctrclr_clears_entries, DEV_NONE },
	{ "csr_instruction_forms", r_csr_instruction_forms, DEV_NONE },
	{ "siselect_outside_ctr_illegal", r_siselect_outside_ctr_illegal, DEV_NONE },
	{ "illegal_accesses", r_illegal_accesses, DEV_NONE },
	{ "records_every_transfer", r_records_every_transfer, DEV_NONE },
	{ "type_filters", r_type_filters, DEV_NONE },
	{ "privilege_filters", r_privilege_filters, DEV_NONE },
	{ "wrptr_wraps", r_wrptr_wraps, DEV_NONE },
	{ "freeze_on_breakpoint_and_lcofi", r_freeze_on_breakpoint_and_lcofi, DEV_NONE },
	{ "rasemu_deep_recursion", r_rasemu_deep_recursion, DEV_NONE },
	{ "freeze_on_pmu_overflow", r_freeze_on_pmu_overflow, DEV_NONE },
	{ "records_in_vs", r_records_in_vs, DEV_NONE },
	{ "draft_control_fields", d_draft_control_fields, DEV_NONE },
	{ "draft_clr_and_status", d_draft_clr_and_status, DEV_NONE },
	{ "draft_depth_change_clears", d_draft_depth_change_clears, DEV_NONE },
	{ "draft_records", d_draft_records, DEV_NONE },
	{ "draft_siselect_outside_ctr_illegal", d_siselect_outside_ctr_illegal, DEV_NONE },
};

GROUP(ctr, tests);

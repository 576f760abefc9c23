// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests of the emulated Control Transfer Records (docs/CTR.md):
 * firmware/ctr/ctr_model.c (WARL fields, depth, WRPTR/FROZEN, clears,
 * entries), ctr_record.c (recording rule, RASEMU, freeze, cycle count),
 * ctr_classify.c (every row of Smctr/Ssctr 1.0 "Control Transfer Type
 * Definitions") and ctr_csr.c (the CSR instructions and SCTRCLR, both
 * layouts).  One test per rule of the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "firmware/ctr/ctr_model.h"
#include "firmware/ctr/ctr_csr.h"
#include "lib/rvinsn/rvinsn.h"
#include "lib/rvinsn/rvinsn_enc.h"

static struct ctr_state S;
static unsigned long X[32];

static int setup(void **state)
{
	(void)state;
	memset(&S, 0x5A, sizeof(S));
	ctr_reset(&S, CTR_LAYOUT_RATIFIED);
	memset(X, 0, sizeof(X));
	return 0;
}

static int setup_draft(void **state)
{
	setup(state);
	ctr_reset(&S, CTR_LAYOUT_DRAFT);
	return 0;
}

/* ---- instruction encodings ---------------------------------------------- */

static uint32_t csr_insn(unsigned int funct3, unsigned int rd, unsigned int rs1, unsigned int csr)
{
	return csr << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | 0x73;
}

#define CSRRW 1
#define CSRRS 2
#define CSRRC 3
#define CSRRWI 5
#define CSRRSI 6
#define CSRRCI 7

/* Execute one CSR instruction from S-mode: x10 is the source, x11 rd. */
static enum ctr_csr_result run(unsigned int funct3, unsigned int csr, unsigned long src)
{
	X[10] = src;
	return ctr_csr_emulate(&S, csr_insn(funct3, 11, 10, csr), CTR_MODE_S, true, X);
}

static unsigned long csrr(unsigned int csr)
{
	X[11] = 0xDEAD;
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(CSRRS, 11, 0, csr), CTR_MODE_S, true, X),
			 CTR_CSR_DONE);
	return X[11];
}

static void csrw(unsigned int csr, unsigned long v)
{
	X[10] = v;
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(CSRRW, 0, 10, csr), CTR_MODE_S, true, X),
			 CTR_CSR_DONE);
}

static void record(uint64_t src, uint64_t tgt, enum ctr_type type)
{
	struct ctr_transfer t = { src, tgt, type, CTR_MODE_S, CTR_MODE_S };

	ctr_record(&S, &t);
}

static uint64_t entry(unsigned int i, enum ctr_entry_reg r)
{
	return ctr_entry_read(&S, i, r);
}

/* ---- control register --------------------------------------------------- */

static void test_sctrctl_warl_every_field(void **state)
{
	(void)state;
	csrw(CSR_SCTRCTL, ~0UL);
	assert_int_equal(csrr(CSR_SCTRCTL),
			 CTRCTL_U | CTRCTL_S | CTRCTL_RASEMU | CTRCTL_STE | CTRCTL_BPFRZ |
			 CTRCTL_LCOFIFRZ | CTRCTL_EXCINH | CTRCTL_INTRINH | CTRCTL_TRETINH |
			 CTRCTL_NTBREN | CTRCTL_TKBRINH | CTRCTL_INDCALLINH | CTRCTL_DIRCALLINH |
			 CTRCTL_INDJMPINH | CTRCTL_DIRJMPINH | CTRCTL_CORSWAPINH | CTRCTL_RETINH |
			 CTRCTL_INDLJMPINH | CTRCTL_DIRLJMPINH);
	csrw(CSR_SCTRCTL, 0);
	assert_int_equal(csrr(CSR_SCTRCTL), 0);
}

static void test_sctrctl_hides_m_and_mte(void **state)
{
	(void)state;
	ctr_mctrctl_write(&S, CTRCTL_M | CTRCTL_MTE | CTRCTL_S);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_S);
	csrw(CSR_SCTRCTL, 0);
	/* S-mode's write leaves mctrctl.M and MTE alone. */
	assert_int_equal(ctr_mctrctl_read(&S), CTRCTL_M | CTRCTL_MTE);
}

static void test_vsctrctl_is_separate(void **state)
{
	(void)state;
	csrw(CSR_SCTRCTL, CTRCTL_U);
	csrw(CSR_VSCTRCTL, CTRCTL_S | CTRCTL_M);
	assert_int_equal(csrr(CSR_VSCTRCTL), CTRCTL_S);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_U);
	/* From VS-mode, sctrctl is vsctrctl. */
	X[11] = 0;
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(CSRRS, 11, 0, CSR_SCTRCTL), CTR_MODE_VS,
					 true, X), CTR_CSR_DONE);
	assert_int_equal(X[11], CTRCTL_S);
}

/* ---- depth, status ------------------------------------------------------ */

static void test_depth_offered_16_to_64(void **state)
{
	unsigned int code;

	(void)state;
	for (code = 0; code < 8; code++) {
		csrw(CSR_SCTRDEPTH, code | 0xFFFFFFF8UL);
		assert_int_equal(csrr(CSR_SCTRDEPTH), code <= 2 ? code : 2);
	}
	assert_int_equal(ctr_depth(&S), 64);
}

static void test_depth_change_clears(void **state)
{
	(void)state;
	csrw(CSR_SCTRCTL, CTRCTL_S);
	record(0x1000, 0x2000, CTR_TYPE_TAKEN_BRANCH);
	record(0x1004, 0x3000, CTR_TYPE_TAKEN_BRANCH);
	csrw(CSR_SCTRDEPTH, 2);   /* unchanged: nothing cleared */
	assert_int_equal(entry(0, CTR_SOURCE), 0x1004 | CTRSOURCE_V);
	csrw(CSR_SCTRDEPTH, 0);
	assert_int_equal(csrr(CSR_SCTRSTATUS), 0);
	for (unsigned int i = 0; i < 16; i++)
		assert_int_equal(entry(i, CTR_SOURCE) | entry(i, CTR_TARGET) | entry(i, CTR_DATA), 0);
	csrw(CSR_SCTRDEPTH, 2);
	for (unsigned int i = 0; i < 64; i++)
		assert_int_equal(entry(i, CTR_SOURCE), 0);
}

static void test_wrptr_warl_per_depth(void **state)
{
	(void)state;
	csrw(CSR_SCTRSTATUS, 0xFF);
	assert_int_equal(csrr(CSR_SCTRSTATUS), 63);
	csrw(CSR_SCTRDEPTH, 0);
	csrw(CSR_SCTRSTATUS, 0xFF | SCTRSTATUS_FROZEN | 0x7FFFFF00UL);
	assert_int_equal(csrr(CSR_SCTRSTATUS), 15 | SCTRSTATUS_FROZEN);
}

static void test_wrptr_selects_logical_entry_0(void **state)
{
	(void)state;
	csrw(CSR_SCTRDEPTH, 0);
	ctr_entry_write(&S, 0, CTR_SOURCE, 0xAAA1);   /* physical 15 (WRPTR 0) */
	csrw(CSR_SCTRSTATUS, 5);
	ctr_entry_write(&S, 0, CTR_SOURCE, 0xBBB1);   /* physical 4 */
	assert_int_equal(S.source[15], 0xAAA1);
	assert_int_equal(S.source[4], 0xBBB1);
	assert_int_equal(entry(5, CTR_SOURCE), 0xAAA1);   /* (5 - 5 - 1) % 16 = 15 */
	assert_int_equal(entry(0, CTR_SOURCE), 0xBBB1);
}

static void test_wrptr_wraps_on_record(void **state)
{
	unsigned int i;

	(void)state;
	csrw(CSR_SCTRDEPTH, 0);
	csrw(CSR_SCTRCTL, CTRCTL_S);
	for (i = 0; i < 17; i++)
		record(0x1000 + 4 * i, 0x2000, CTR_TYPE_TAKEN_BRANCH);
	assert_int_equal(csrr(CSR_SCTRSTATUS), 1);
	assert_int_equal(entry(0, CTR_SOURCE), (0x1000 + 4 * 16) | CTRSOURCE_V);
	assert_int_equal(entry(15, CTR_SOURCE), (0x1000 + 4 * 1) | CTRSOURCE_V);
}

static void test_entries_past_depth_read_zero(void **state)
{
	(void)state;
	csrw(CSR_SCTRDEPTH, 0);
	ctr_entry_write(&S, 16, CTR_SOURCE, 0x1235);
	assert_int_equal(entry(16, CTR_SOURCE), 0);
	assert_int_equal(entry(255, CTR_DATA), 0);
}

static void test_entry_warl(void **state)
{
	(void)state;
	ctr_entry_write(&S, 3, CTR_SOURCE, ~0ULL);
	ctr_entry_write(&S, 3, CTR_TARGET, ~0ULL);
	ctr_entry_write(&S, 3, CTR_DATA, ~0ULL);
	assert_int_equal(entry(3, CTR_SOURCE), ~0ULL);
	assert_int_equal(entry(3, CTR_TARGET), ~1ULL);   /* MISP not implemented */
	assert_int_equal(entry(3, CTR_DATA), 0xFFFF800FULL);
}

static void test_sctrclr_zeroes_all_depths_keeps_wrptr(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < CTR_MAX_ENTRIES; i++)
		S.source[i] = S.target[i] = S.data[i] = 7;
	csrw(CSR_SCTRSTATUS, 9 | SCTRSTATUS_FROZEN);
	csrw(CSR_SCTRDEPTH, 2);
	S.cycles = 99;
	S.cycles_valid = true;
	assert_int_equal(ctr_csr_emulate(&S, INSN_SCTRCLR, CTR_MODE_S, true, X), CTR_CSR_DONE);
	for (unsigned int i = 0; i < CTR_MAX_ENTRIES; i++)
		assert_int_equal(S.source[i] | S.target[i] | S.data[i], 0);
	assert_int_equal(csrr(CSR_SCTRSTATUS), 9 | SCTRSTATUS_FROZEN);
	assert_int_equal(S.cycles, 0);
	assert_false(S.cycles_valid);
}

/* ---- CSR instruction forms ---------------------------------------------- */

static void test_csrrs_csrrc_set_and_clear(void **state)
{
	(void)state;
	assert_int_equal(run(CSRRS, CSR_SCTRCTL, CTRCTL_U | CTRCTL_S), CTR_CSR_DONE);
	assert_int_equal(X[11], 0);
	assert_int_equal(run(CSRRC, CSR_SCTRCTL, CTRCTL_U), CTR_CSR_DONE);
	assert_int_equal(X[11], CTRCTL_U | CTRCTL_S);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_S);
	assert_int_equal(run(CSRRW, CSR_SCTRCTL, CTRCTL_RASEMU), CTR_CSR_DONE);
	assert_int_equal(X[11], CTRCTL_S);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_RASEMU);
}

static void test_immediate_forms(void **state)
{
	(void)state;
	/* csrrwi sctrdepth, 1; csrrsi sctrctl, 3 (U|S); csrrci sctrctl, 1 */
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(CSRRWI, 11, 1, CSR_SCTRDEPTH), CTR_MODE_S,
					 true, X), CTR_CSR_DONE);
	assert_int_equal(X[11], 2);
	assert_int_equal(csrr(CSR_SCTRDEPTH), 1);
	ctr_csr_emulate(&S, csr_insn(CSRRSI, 0, 3, CSR_SCTRCTL), CTR_MODE_S, true, X);
	ctr_csr_emulate(&S, csr_insn(CSRRCI, 0, 1, CSR_SCTRCTL), CTR_MODE_S, true, X);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_S);
}

static void test_rd_x0_and_rs1_x0_rules(void **state)
{
	(void)state;
	/* csrrs rd, sctrstatus, x0 reads without writing; x0 stays 0. */
	csrw(CSR_SCTRSTATUS, 7);
	X[0] = 0;
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(CSRRS, 0, 0, CSR_SCTRSTATUS), CTR_MODE_S,
					 true, X), CTR_CSR_DONE);
	assert_int_equal(X[0], 0);
	/* csrrc with rs1 = x0 must not write (a write would reset the cycle
	 * counter of sctrctl). */
	S.cycles_valid = true;
	ctr_csr_emulate(&S, csr_insn(CSRRC, 11, 0, CSR_SCTRCTL), CTR_MODE_S, true, X);
	assert_true(S.cycles_valid);
	/* csrrw with rd = x0 still writes. */
	csrw(CSR_SCTRCTL, CTRCTL_U);
	assert_false(S.cycles_valid);
	assert_int_equal(csrr(CSR_SCTRCTL), CTRCTL_U);
}

static void test_sireg_reaches_entries(void **state)
{
	(void)state;
	csrw(CSR_SISELECT, 0x203);
	csrw(CSR_SIREG, 0x80001235UL);
	csrw(CSR_SIREG2, 0x80002001UL);
	csrw(CSR_SIREG3, 0x1234800DUL);
	assert_int_equal(csrr(CSR_SIREG), 0x80001235UL);
	assert_int_equal(csrr(CSR_SIREG2), 0x80002000UL);
	assert_int_equal(csrr(CSR_SIREG3), 0x1234800DUL);
	assert_int_equal(entry(3, CTR_SOURCE), 0x80001235UL);
	assert_int_equal(csrr(CSR_SIREG4), 0);
	csrw(CSR_SIREG5, ~0UL);
	assert_int_equal(csrr(CSR_SIREG5), 0);
	assert_int_equal(csrr(CSR_SISELECT), 0x203);
}

static void test_siselect_outside_ctr_stays_illegal(void **state)
{
	static const unsigned long sel[] = { 0, 0x1FF, 0x300, 0xFFF, 1UL << 63 | 0x200 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(sel) / sizeof(sel[0]); i++) {
		csrw(CSR_SISELECT, sel[i]);
		assert_int_equal(csrr(CSR_SISELECT), sel[i]);
		assert_int_equal(run(CSRRS, CSR_SIREG, 0), CTR_CSR_NOT_CTR);
		assert_int_equal(run(CSRRW, CSR_SIREG3, 0), CTR_CSR_NOT_CTR);
		assert_int_equal(run(CSRRS, CSR_SIREG6, 0), CTR_CSR_NOT_CTR);
	}
}

static void test_other_csrs_and_insns_not_ctr(void **state)
{
	(void)state;
	assert_int_equal(run(CSRRS, 0x154, 0), CTR_CSR_NOT_CTR);     /* reserved */
	assert_int_equal(run(CSRRS, CSR_MCTRCTL, 0), CTR_CSR_NOT_CTR);
	assert_int_equal(run(CSRRS, CSR_SCTRCONTROL, 0), CTR_CSR_NOT_CTR);   /* draft only */
	assert_int_equal(ctr_csr_emulate(&S, 0x10500073, CTR_MODE_S, true, X), CTR_CSR_NOT_CTR);
	assert_int_equal(ctr_csr_emulate(&S, 0x10400173, CTR_MODE_S, true, X), CTR_CSR_NOT_CTR);
	/* funct3 4 is not a CSR instruction. */
	assert_int_equal(ctr_csr_emulate(&S, csr_insn(4, 1, 1, CSR_SCTRCTL), CTR_MODE_S, true, X),
			 CTR_CSR_NOT_CTR);
}

static void test_privilege_rules(void **state)
{
	uint32_t rd_ctl = csr_insn(CSRRS, 11, 0, CSR_SCTRCTL);
	uint32_t rd_depth = csr_insn(CSRRS, 11, 0, CSR_SCTRDEPTH);
	uint32_t rd_vsctl = csr_insn(CSRRS, 11, 0, CSR_VSCTRCTL);

	(void)state;
	assert_int_equal(ctr_csr_emulate(&S, rd_ctl, CTR_MODE_U, true, X), CTR_CSR_ILLEGAL);
	assert_int_equal(ctr_csr_emulate(&S, rd_ctl, CTR_MODE_VU, true, X), CTR_CSR_VIRTUAL);
	assert_int_equal(ctr_csr_emulate(&S, rd_depth, CTR_MODE_VS, true, X), CTR_CSR_VIRTUAL);
	assert_int_equal(ctr_csr_emulate(&S, rd_vsctl, CTR_MODE_VS, true, X), CTR_CSR_VIRTUAL);
	assert_int_equal(ctr_csr_emulate(&S, rd_vsctl, CTR_MODE_S, false, X), CTR_CSR_NOT_CTR);
	assert_int_equal(ctr_csr_emulate(&S, INSN_SCTRCLR, CTR_MODE_U, true, X), CTR_CSR_ILLEGAL);
	assert_int_equal(ctr_csr_emulate(&S, INSN_SCTRCLR, CTR_MODE_VU, true, X),
			 CTR_CSR_VIRTUAL);
	assert_int_equal(ctr_csr_emulate(&S, INSN_SCTRCLR, CTR_MODE_VS, true, X), CTR_CSR_DONE);
}

static void test_vs_uses_vsiselect(void **state)
{
	uint32_t wsel = csr_insn(CSRRW, 0, 10, CSR_SISELECT);

	(void)state;
	X[10] = 0x201;
	assert_int_equal(ctr_csr_emulate(&S, wsel, CTR_MODE_VS, true, X), CTR_CSR_DONE);
	assert_int_equal(S.vsiselect, 0x201);
	assert_int_equal(S.siselect, 0);
	X[10] = 0x4321;
	ctr_csr_emulate(&S, csr_insn(CSRRW, 0, 10, CSR_SIREG), CTR_MODE_VS, true, X);
	assert_int_equal(entry(1, CTR_SOURCE), 0x4321);   /* the same entries */
}

/* ---- draft v0.1.4 layout ------------------------------------------------ */

static void test_draft_control_fields(void **state)
{
	(void)state;
	csrw(CSR_SCTRCONTROL, ~0UL & ~DRAFT_CTL_CLR);
	assert_int_equal(csrr(CSR_SCTRCONTROL),
			 DRAFT_CTL_S | DRAFT_CTL_U | DRAFT_CTL_STE | DRAFT_CTL_RASEMU |
			 DRAFT_CTL_BPFRZ | DRAFT_CTL_LCOFIFRZ | (3ULL << DRAFT_CTL_DEPTH_SHIFT) |
			 DRAFT_CTL_ETEN | CTRCTL_TYPE_FILTERS);
	/* In the model's positions. */
	assert_int_equal(S.mctrctl & (CTRCTL_U | CTRCTL_S | CTRCTL_STE | CTRCTL_RASEMU),
			 CTRCTL_U | CTRCTL_S | CTRCTL_STE | CTRCTL_RASEMU);
	assert_int_equal(run(CSRRS, CSR_SCTRCTL, 0), CTR_CSR_NOT_CTR);
	assert_int_equal(run(CSRRS, CSR_SCTRDEPTH, 0), CTR_CSR_NOT_CTR);
	assert_int_equal(ctr_csr_emulate(&S, INSN_SCTRCLR, CTR_MODE_S, true, X), CTR_CSR_NOT_CTR);
}

static void test_draft_depth_encodings(void **state)
{
	static const struct { unsigned int field, depth, readback; } t[] = {
		{ 0x0, 16, 0x0 }, { 0x1, 32, 0x1 }, { 0x3, 64, 0x3 }, { 0x7, 64, 0x3 },
		{ 0xF, 64, 0x3 }, { 0x2, 16, 0x0 }, { 0x5, 32, 0x1 },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		csrw(CSR_SCTRCONTROL, (unsigned long)t[i].field << DRAFT_CTL_DEPTH_SHIFT);
		assert_int_equal(ctr_depth(&S), t[i].depth);
		assert_int_equal(csrr(CSR_SCTRCONTROL) >> DRAFT_CTL_DEPTH_SHIFT & 0xF, t[i].readback);
	}
}

static void test_draft_clr_and_wrap(void **state)
{
	unsigned int i;

	(void)state;
	csrw(CSR_SCTRCONTROL, DRAFT_CTL_S);   /* depth 16 */
	for (i = 0; i < 16; i++)
		record(0x100 + i, 0x200, CTR_TYPE_TAKEN_BRANCH);
	assert_int_equal(csrr(CSR_SCTRSTATUS_DRAFT), DRAFT_STATUS_WRAP);
	csrw(CSR_SCTRSTATUS_DRAFT, 3 | DRAFT_STATUS_FROZEN);
	assert_int_equal(csrr(CSR_SCTRSTATUS_DRAFT), 3 | DRAFT_STATUS_FROZEN);
	csrw(CSR_SCTRCONTROL, DRAFT_CTL_S | DRAFT_CTL_CLR);
	assert_int_equal(csrr(CSR_SCTRSTATUS_DRAFT), 0);
	assert_int_equal(csrr(CSR_SCTRCONTROL), DRAFT_CTL_S);   /* CLR reads 0 */
	for (i = 0; i < 16; i++)
		assert_int_equal(entry(i, CTR_SOURCE), 0);
}

static void test_draft_vsctrcontrol_depth_read_only(void **state)
{
	(void)state;
	csrw(CSR_SCTRCONTROL, 1ULL << DRAFT_CTL_DEPTH_SHIFT);
	csrw(CSR_VSCTRCONTROL, DRAFT_CTL_S | DRAFT_CTL_M | DRAFT_CTL_MTE | DRAFT_CTL_DEPTH_MASK);
	assert_int_equal(csrr(CSR_VSCTRCONTROL), DRAFT_CTL_S | (1ULL << DRAFT_CTL_DEPTH_SHIFT));
	assert_int_equal(ctr_depth(&S), 32);
}

/* ---- recording rule ----------------------------------------------------- */

static bool rec(uint64_t src, uint64_t tgt, enum ctr_type type, enum ctr_mode from,
		enum ctr_mode to)
{
	struct ctr_transfer t = { src, tgt, type, from, to };

	return ctr_record(&S, &t);
}

static void test_privilege_enables(void **state)
{
	(void)state;
	assert_false(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_S, CTR_MODE_S));
	ctr_sctrctl_write(&S, false, CTRCTL_U);
	assert_false(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_S, CTR_MODE_S));
	assert_true(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_U, CTR_MODE_U));
	assert_false(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_VU, CTR_MODE_VU));
	ctr_sctrctl_write(&S, true, CTRCTL_U);
	assert_true(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_VU, CTR_MODE_VU));
	assert_false(rec(0x10, 0x20, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_M, CTR_MODE_M));
}

static void test_frozen_inhibits(void **state)
{
	(void)state;
	ctr_sctrctl_write(&S, false, CTRCTL_S);
	ctr_sctrstatus_write(&S, SCTRSTATUS_FROZEN);
	assert_false(rec(0x10, 0x20, CTR_TYPE_DIRECT_CALL, CTR_MODE_S, CTR_MODE_S));
	assert_false(ctr_active(&S, CTR_MODE_S));
}

/* Every type against its own filter bit, and not against the others. */
static void test_type_filters_each_type(void **state)
{
	static const enum ctr_type types[] = { 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		enum ctr_type t = types[i];
		uint64_t bit = 1ULL << (32 + t);
		bool opt_in = t == CTR_TYPE_NOT_TAKEN_BRANCH;

		ctr_sctrctl_write(&S, false, CTRCTL_S);
		assert_int_equal(rec(0x10, 0x20, t, CTR_MODE_S, CTR_MODE_S), !opt_in);
		ctr_sctrctl_write(&S, false, CTRCTL_S | bit);
		assert_int_equal(rec(0x10, 0x20, t, CTR_MODE_S, CTR_MODE_S), opt_in);
		ctr_sctrctl_write(&S, false, CTRCTL_S | (CTRCTL_TYPE_FILTERS & ~bit));
		assert_int_equal(rec(0x10, 0x20, t, CTR_MODE_S, CTR_MODE_S), !opt_in);
		if (!opt_in)
			assert_int_equal(entry(0, CTR_DATA) & 0xF, t);
	}
}

static void test_trap_table(void **state)
{
	(void)state;
	ctr_sctrctl_write(&S, false, CTRCTL_U | CTRCTL_S);
	assert_true(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
	assert_int_equal(entry(0, CTR_SOURCE), 0x11);
	assert_int_equal(entry(0, CTR_TARGET), 0x20);
	assert_int_equal(entry(0, CTR_DATA) & 0xF, CTR_TYPE_EXCEPTION);
	ctr_sctrctl_write(&S, false, CTRCTL_S);
	/* Disabled -> enabled: source PC 0. */
	assert_true(rec(0x10, 0x30, CTR_TYPE_INTERRUPT, CTR_MODE_U, CTR_MODE_S));
	assert_int_equal(entry(0, CTR_SOURCE), CTRSOURCE_V);
	assert_int_equal(entry(0, CTR_TARGET), 0x30);
	/* Trap return enabled -> disabled: target PC 0. */
	assert_true(rec(0x40, 0x50, CTR_TYPE_TRAP_RETURN, CTR_MODE_S, CTR_MODE_U));
	assert_int_equal(entry(0, CTR_SOURCE), 0x41);
	assert_int_equal(entry(0, CTR_TARGET), 0);
	/* Trap return disabled -> enabled: not recorded. */
	ctr_sctrctl_write(&S, false, CTRCTL_U);
	assert_false(rec(0x40, 0x50, CTR_TYPE_TRAP_RETURN, CTR_MODE_S, CTR_MODE_U));
	/* Both disabled: nothing. */
	ctr_sctrctl_write(&S, false, 0);
	assert_false(rec(0x40, 0x50, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
}

static void test_external_traps(void **state)
{
	(void)state;
	ctr_sctrctl_write(&S, false, CTRCTL_U);
	assert_false(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
	ctr_sctrctl_write(&S, false, CTRCTL_U | CTRCTL_STE | CTRCTL_EXCINH | CTRCTL_INTRINH);
	assert_true(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
	assert_int_equal(entry(0, CTR_SOURCE), 0x11);
	assert_int_equal(entry(0, CTR_TARGET), 0);
	/* U -> M needs MTE too. */
	assert_false(rec(0x10, 0x20, CTR_TYPE_INTERRUPT, CTR_MODE_U, CTR_MODE_M));
	ctr_mctrctl_write(&S, CTRCTL_U | CTRCTL_STE | CTRCTL_MTE);
	assert_true(rec(0x10, 0x20, CTR_TYPE_INTERRUPT, CTR_MODE_U, CTR_MODE_M));
	/* VU -> HS needs vsctrctl.STE and sctrctl.STE. */
	ctr_sctrctl_write(&S, true, CTRCTL_U);
	assert_false(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_VU, CTR_MODE_S));
	ctr_sctrctl_write(&S, true, CTRCTL_U | CTRCTL_STE);
	assert_true(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_VU, CTR_MODE_S));
	ctr_mctrctl_write(&S, CTRCTL_U | CTRCTL_MTE);
	assert_false(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_VU, CTR_MODE_M));
	assert_true(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_VU, CTR_MODE_VS));
}

static void test_draft_external_traps_need_eten(void **state)
{
	setup_draft(state);
	ctr_draft_control_write(&S, CTR_MODE_S, DRAFT_CTL_U | DRAFT_CTL_STE);
	assert_false(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
	ctr_draft_control_write(&S, CTR_MODE_S, DRAFT_CTL_U | DRAFT_CTL_STE | DRAFT_CTL_ETEN);
	assert_true(rec(0x10, 0x20, CTR_TYPE_EXCEPTION, CTR_MODE_U, CTR_MODE_S));
}

static void test_rasemu_push_pop_swap(void **state)
{
	(void)state;
	ctr_sctrdepth_write(&S, 0);
	ctr_sctrctl_write(&S, false, CTRCTL_S | CTRCTL_RASEMU | CTRCTL_DIRCALLINH);
	assert_true(rec(0x100, 0x200, CTR_TYPE_DIRECT_CALL, CTR_MODE_S, CTR_MODE_S));
	assert_true(rec(0x210, 0x300, CTR_TYPE_INDIRECT_CALL, CTR_MODE_S, CTR_MODE_S));
	assert_false(rec(0x310, 0x320, CTR_TYPE_TAKEN_BRANCH, CTR_MODE_S, CTR_MODE_S));
	assert_false(rec(0x310, 0x320, CTR_TYPE_EXCEPTION, CTR_MODE_S, CTR_MODE_S));
	assert_int_equal(ctr_sctrstatus_read(&S), 2);
	assert_true(rec(0x330, 0x400, CTR_TYPE_CO_ROUTINE_SWAP, CTR_MODE_S, CTR_MODE_S));
	assert_int_equal(ctr_sctrstatus_read(&S), 2);
	assert_int_equal(entry(0, CTR_SOURCE), 0x331);
	assert_int_equal(entry(0, CTR_DATA) & 0xF, CTR_TYPE_CO_ROUTINE_SWAP);
	assert_true(rec(0x410, 0x214, CTR_TYPE_FUNCTION_RETURN, CTR_MODE_S, CTR_MODE_S));
	assert_int_equal(ctr_sctrstatus_read(&S), 1);
	assert_int_equal(entry(0, CTR_SOURCE), 0x101);
	/* The popped entry moved to logical depth-1, invalid. */
	assert_int_equal(entry(15, CTR_SOURCE), 0x330);
	/* Return with WRPTR 0 wraps down to depth-1. */
	assert_true(rec(0x210, 0x104, CTR_TYPE_FUNCTION_RETURN, CTR_MODE_S, CTR_MODE_S));
	assert_true(rec(0x100, 0x0, CTR_TYPE_FUNCTION_RETURN, CTR_MODE_S, CTR_MODE_S));
	assert_int_equal(ctr_sctrstatus_read(&S), 15);
}

static void test_rasemu_deep_recursion_keeps_last_depth_calls(void **state)
{
	unsigned int i;

	(void)state;
	ctr_sctrdepth_write(&S, 0);
	ctr_sctrctl_write(&S, false, CTRCTL_S | CTRCTL_RASEMU);
	for (i = 0; i < 40; i++)
		rec(0x1000 + 8 * i, 0x1000 + 8 * (i + 1), CTR_TYPE_DIRECT_CALL, CTR_MODE_S,
		    CTR_MODE_S);
	for (i = 0; i < 16; i++)
		assert_int_equal(entry(i, CTR_SOURCE), (0x1000 + 8 * (39 - i)) | CTRSOURCE_V);
	for (i = 0; i < 16; i++)
		rec(0x5000, 0x6000, CTR_TYPE_FUNCTION_RETURN, CTR_MODE_S, CTR_MODE_S);
	for (i = 0; i < 16; i++)
		assert_int_equal(entry(i, CTR_SOURCE) & CTRSOURCE_V, 0);
}

static void test_freeze_bits(void **state)
{
	(void)state;
	assert_false(ctr_freeze_on_trap(&S, false, 3, CTR_MODE_S));
	ctr_sctrctl_write(&S, false, CTRCTL_BPFRZ);
	assert_false(ctr_freeze_on_trap(&S, true, 13, CTR_MODE_S));
	assert_false(ctr_freeze_on_trap(&S, false, 2, CTR_MODE_S));
	assert_true(ctr_freeze_on_trap(&S, false, 3, CTR_MODE_M));
	assert_int_equal(ctr_sctrstatus_read(&S), SCTRSTATUS_FROZEN);
	ctr_sctrstatus_write(&S, 0);
	ctr_sctrctl_write(&S, false, CTRCTL_LCOFIFRZ);
	assert_false(ctr_freeze_on_trap(&S, true, 13, CTR_MODE_VS));   /* vsctrctl's bit */
	assert_true(ctr_freeze_on_trap(&S, true, 13, CTR_MODE_S));
	assert_true(S.frozen);
}

/* ---- cycle counting ----------------------------------------------------- */

static uint64_t cc_decode(uint16_t cc)
{
	unsigned int cce = cc >> 12, ccm = cc & 0xFFF;

	return cce == 0 ? ccm : (4096ULL + ccm) << (cce - 1);
}

static void test_cc_encoding(void **state)
{
	(void)state;
	assert_int_equal(ctr_cc_encode(0), 0);
	assert_int_equal(ctr_cc_encode(4095), 4095);
	assert_int_equal(ctr_cc_encode(4096), 0x1000);
	assert_int_equal(cc_decode(ctr_cc_encode(8191)), 8191);
	assert_int_equal(cc_decode(ctr_cc_encode(8192)), 8192);
	assert_int_equal(cc_decode(ctr_cc_encode(8195)), 8194);   /* granularity 2 */
	assert_int_equal(cc_decode(ctr_cc_encode(134201344)), 134201344);
	assert_int_equal(ctr_cc_encode(1ULL << 27), 0xFFFF);
	assert_int_equal(ctr_cc_encode(~0ULL), 0xFFFF);
	for (uint64_t c = 1; c < (1ULL << 27); c = c * 3 + 1) {
		uint64_t d = cc_decode(ctr_cc_encode(c));

		assert_true(d <= c && c - d < (c >> 11) + 1);
	}
}

static void test_ccv_after_ctl_write_and_clear(void **state)
{
	(void)state;
	ctr_sctrctl_write(&S, false, CTRCTL_S);
	ctr_count_cycles(&S, 100);
	record(0x10, 0x20, CTR_TYPE_DIRECT_JUMP);
	assert_int_equal(entry(0, CTR_DATA), CTR_TYPE_DIRECT_JUMP | 100u << 16);   /* CCV=0 */
	ctr_count_cycles(&S, 5000);
	record(0x30, 0x40, CTR_TYPE_DIRECT_JUMP);
	assert_int_equal(entry(0, CTR_DATA), CTR_TYPE_DIRECT_JUMP | CTRDATA_CCV |
			 (uint32_t)ctr_cc_encode(5000) << 16);
	ctr_sctrclr(&S);
	ctr_count_cycles(&S, 7);
	record(0x50, 0x60, CTR_TYPE_DIRECT_JUMP);
	assert_int_equal(entry(0, CTR_DATA), CTR_TYPE_DIRECT_JUMP | 7u << 16);
}

/* ---- classifier: every row of "Control Transfer Type Definitions" -------- */

static enum ctr_type classify(uint32_t raw, unsigned int xlen, bool taken)
{
	struct rv_insn in;

	assert_int_not_equal(rv_insn_decode(raw, xlen, RV_EXT_C | RV_EXT_ZCMP | RV_EXT_ZCMT, &in),
			     0);
	return ctr_classify(&in, taken);
}

static void test_classify_every_table_row(void **state)
{
	static const struct { uint32_t raw; unsigned int xlen; enum ctr_type type; } t[] = {
		/* Indirect call */
		{ 0x000080e7 /* jalr x1, 0(x1) */, 64, CTR_TYPE_INDIRECT_CALL },
		{ 0x000500e7 /* jalr x1, 0(a0) */, 64, CTR_TYPE_INDIRECT_CALL },
		{ 0x000502e7 /* jalr x5, 0(a0) */, 64, CTR_TYPE_INDIRECT_CALL },
		{ 0x000282e7 /* jalr x5, 0(x5) */, 64, CTR_TYPE_INDIRECT_CALL },
		{ 0x9502 /* c.jalr a0 */, 64, CTR_TYPE_INDIRECT_CALL },
		{ 0x9082 /* c.jalr x1 */, 64, CTR_TYPE_INDIRECT_CALL },
		/* Direct call */
		{ 0x008000ef /* jal x1, 8 */, 64, CTR_TYPE_DIRECT_CALL },
		{ 0x008002ef /* jal x5, 8 */, 64, CTR_TYPE_DIRECT_CALL },
		{ 0 /* c.jal 8 (RV32), below */, 32, CTR_TYPE_DIRECT_CALL },
		{ 0xa082 /* cm.jalt 32 */, 64, CTR_TYPE_DIRECT_CALL },
		/* Indirect jump (without linkage) */
		{ 0x00050067 /* jalr x0, 0(a0) */, 64, CTR_TYPE_INDIRECT_JUMP },
		{ 0x8502 /* c.jr a0 */, 64, CTR_TYPE_INDIRECT_JUMP },
		/* Direct jump (without linkage) */
		{ 0x0080006f /* jal x0, 8 */, 64, CTR_TYPE_DIRECT_JUMP },
		{ 1 /* c.j 8, below */, 64, CTR_TYPE_DIRECT_JUMP },
		{ 0xa00a /* cm.jt 2 */, 64, CTR_TYPE_DIRECT_JUMP },
		/* Co-routine swap */
		{ 0x000280e7 /* jalr x1, 0(x5) */, 64, CTR_TYPE_CO_ROUTINE_SWAP },
		{ 0x000082e7 /* jalr x5, 0(x1) */, 64, CTR_TYPE_CO_ROUTINE_SWAP },
		{ 0x9282 /* c.jalr x5 */, 64, CTR_TYPE_CO_ROUTINE_SWAP },
		/* Function return */
		{ 0x00008067 /* jalr x0, 0(x1) */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 0x00028067 /* jalr x0, 0(x5) */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 0x00008567 /* jalr a0, 0(x1) */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 0x8082 /* c.jr x1 (ret) */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 0x8282 /* c.jr x5 */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 2 /* cm.popret, below */, 64, CTR_TYPE_FUNCTION_RETURN },
		{ 3 /* cm.popretz, below */, 64, CTR_TYPE_FUNCTION_RETURN },
		/* Other indirect jump (with linkage) */
		{ 0x00050567 /* jalr a0, 0(a0) */, 64, CTR_TYPE_OTHER_INDIRECT_JUMP },
		/* Other direct jump (with linkage) */
		{ 0x0080056f /* jal a0, 8 */, 64, CTR_TYPE_OTHER_DIRECT_JUMP },
		/* Trap return */
		{ 0x10200073 /* sret */, 64, CTR_TYPE_TRAP_RETURN },
		{ 0x30200073 /* mret */, 64, CTR_TYPE_TRAP_RETURN },
		/* Not transfers */
		{ 0x00000013 /* nop */, 64, CTR_TYPE_NONE },
		{ 0x00000073 /* ecall: traps, type 1 where taken */, 64, CTR_TYPE_NONE },
	};

	/* Rows 0..3 stand for encodings built by lib/rvinsn's encoders. */
	const uint32_t built[] = { rv_enc_c_jal(8), rv_enc_c_j(8), rv_enc_cm_popret(6, 0),
				   rv_enc_cm_popretz(6, 0) };

	(void)state;
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t raw = t[i].raw < 4 ? built[t[i].raw] : t[i].raw;
		enum ctr_type got = classify(raw, t[i].xlen, true);

		if (got != t[i].type)
			fail_msg("%#x: type %d, want %d", raw, got, t[i].type);
	}
	/* Branches: taken / not taken (beq, c.beqz). */
	assert_int_equal(classify(0x00000463, 64, true), CTR_TYPE_TAKEN_BRANCH);
	assert_int_equal(classify(0x00000463, 64, false), CTR_TYPE_NOT_TAKEN_BRANCH);
	assert_int_equal(classify(rv_enc_c_beqz(8, 8), 64, true), CTR_TYPE_TAKEN_BRANCH);
	assert_int_equal(classify(rv_enc_c_bnez(8, 8), 64, false), CTR_TYPE_NOT_TAKEN_BRANCH);
}

/* The encoders of lib/rvinsn agree with the hand-written table above. */
static void test_classify_encoder_forms(void **state)
{
	(void)state;
	assert_int_equal(classify(rv_enc_jalr(1, 5, 0), 64, true), CTR_TYPE_CO_ROUTINE_SWAP);
	assert_int_equal(classify(rv_enc_jalr(0, 6, 0), 64, true), CTR_TYPE_INDIRECT_JUMP);
	assert_int_equal(classify(rv_enc_jal(7, 16), 64, true), CTR_TYPE_OTHER_DIRECT_JUMP);
	assert_int_equal(classify(rv_enc_c_jalr(5), 64, true), CTR_TYPE_CO_ROUTINE_SWAP);
	assert_int_equal(classify(rv_enc_c_jr(5), 64, true), CTR_TYPE_FUNCTION_RETURN);
	assert_int_equal(classify(rv_enc_cm_popret(5, 0), 64, true), CTR_TYPE_FUNCTION_RETURN);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
#define D(f) cmocka_unit_test_setup(f, setup_draft)
	const struct CMUnitTest tests[] = {
		T(test_sctrctl_warl_every_field),
		T(test_sctrctl_hides_m_and_mte),
		T(test_vsctrctl_is_separate),
		T(test_depth_offered_16_to_64),
		T(test_depth_change_clears),
		T(test_wrptr_warl_per_depth),
		T(test_wrptr_selects_logical_entry_0),
		T(test_wrptr_wraps_on_record),
		T(test_entries_past_depth_read_zero),
		T(test_entry_warl),
		T(test_sctrclr_zeroes_all_depths_keeps_wrptr),
		T(test_csrrs_csrrc_set_and_clear),
		T(test_immediate_forms),
		T(test_rd_x0_and_rs1_x0_rules),
		T(test_sireg_reaches_entries),
		T(test_siselect_outside_ctr_stays_illegal),
		T(test_other_csrs_and_insns_not_ctr),
		T(test_privilege_rules),
		T(test_vs_uses_vsiselect),
		D(test_draft_control_fields),
		D(test_draft_depth_encodings),
		D(test_draft_clr_and_wrap),
		D(test_draft_vsctrcontrol_depth_read_only),
		T(test_privilege_enables),
		T(test_frozen_inhibits),
		T(test_type_filters_each_type),
		T(test_trap_table),
		T(test_external_traps),
		T(test_draft_external_traps_need_eten),
		T(test_rasemu_push_pop_swap),
		T(test_rasemu_deep_recursion_keeps_last_depth_calls),
		T(test_freeze_bits),
		T(test_cc_encoding),
		T(test_ccv_after_ctl_write_and_clear),
		T(test_classify_every_table_row),
		T(test_classify_encoder_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

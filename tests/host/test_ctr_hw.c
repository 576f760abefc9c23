// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests of drivers/ctr/ctr_hw.c, the Smctr/Ssctr hardware path,
 * against a fake CSR file: which CSRs exist is per test, sctrdepth keeps
 * only the codes the fake hart supports (WARL), sireg* reach a 256-entry
 * buffer through siselect, every write is logged in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "drivers/ctr/ctr_hw.h"
#include "drivers/ctr/ctr_hw_csr.h"

#define ILLEGAL (1 + 2)

static struct {
	bool has_ctr, has_csrind, has_stateen, has_h;
	unsigned int depth_max;          /* largest DEPTH code that sticks */
	unsigned long mctrctl, vsctrctl, sctrstatus, sctrdepth, siselect;
	unsigned long mstateen0, hstateen0;
	unsigned long entry[256][3];
	struct { unsigned int csr; unsigned long v; } log[4096];
	unsigned int nlog;
} F;

static unsigned long *reg_of(unsigned int csr)
{
	switch (csr) {
	case CSR_MCTRCTL: case CSR_SCTRCTL:
		return F.has_ctr ? &F.mctrctl : NULL;
	case CSR_VSCTRCTL:
		return F.has_ctr && F.has_h ? &F.vsctrctl : NULL;
	case CSR_SCTRSTATUS:
		return F.has_ctr ? &F.sctrstatus : NULL;
	case CSR_SCTRDEPTH:
		return F.has_ctr ? &F.sctrdepth : NULL;
	case CSR_SISELECT:
		return F.has_csrind ? &F.siselect : NULL;
	case CSR_MSTATEEN0_NUM:
		return F.has_stateen ? &F.mstateen0 : NULL;
	case CSR_HSTATEEN0:
		return F.has_stateen && F.has_h ? &F.hstateen0 : NULL;
	default:
		return NULL;
	}
}

static unsigned long *ireg_of(unsigned int csr)
{
	if (!F.has_csrind || csr < CSR_SIREG || csr > CSR_SIREG3)
		return NULL;
	if (!F.has_ctr || F.siselect < 0x200 || F.siselect > 0x2FF)
		return NULL;
	return &F.entry[F.siselect - 0x200][csr - CSR_SIREG];
}

unsigned long ctr_hw_csr_read(unsigned int csr, unsigned long *v)
{
	unsigned long *r = reg_of(csr);

	if (!r)
		r = ireg_of(csr);
	*v = r ? *r : 0;
	return r ? 0 : ILLEGAL;
}

unsigned long ctr_hw_csr_write(unsigned int csr, unsigned long v)
{
	unsigned long *r = reg_of(csr);

	if (!r)
		r = ireg_of(csr);
	if (!r)
		return ILLEGAL;
	assert_true(F.nlog < sizeof(F.log) / sizeof(F.log[0]));
	F.log[F.nlog].csr = csr;
	F.log[F.nlog++].v = v;
	if (csr == CSR_SCTRDEPTH) {
		if ((v & 7) <= F.depth_max)
			F.sctrdepth = v & 7;   /* other codes: WARL, no change */
		return 0;
	}
	if (csr == CSR_HSTATEEN0 && !(F.mstateen0 & STATEEN0_CTR))
		v &= ~STATEEN0_CTR;   /* read-only 0 while mstateen0.CTR = 0 */
	*r = v;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	memset(&F, 0, sizeof(F));
	return 0;
}

static void full_hart(unsigned int depth_max)
{
	F.has_ctr = F.has_csrind = F.has_stateen = F.has_h = true;
	F.depth_max = depth_max;
}

static int log_index(unsigned int csr)
{
	for (unsigned int i = 0; i < F.nlog; i++)
		if (F.log[i].csr == csr)
			return (int)i;
	return -1;
}

static void test_no_ctr_hart(void **state)
{
	struct ctr_hw hw;

	(void)state;
	F.has_stateen = true;
	assert_false(ctr_hw_probe(&hw, false));
	assert_false(hw.smctr);
	assert_false(hw.sscsrind);
	assert_true(hw.smstateen);
	ctr_hw_enable(&hw);
	assert_int_equal(F.nlog, 0);   /* nothing written for a hart without CTR */
}

static void test_ctr_without_sscsrind_is_unusable(void **state)
{
	struct ctr_hw hw;

	(void)state;
	F.has_ctr = true;
	assert_false(ctr_hw_probe(&hw, false));
}

static void test_probe_depths(void **state)
{
	struct ctr_hw hw;

	(void)state;
	for (unsigned int max = 0; max <= 4; max++) {
		setup(NULL);
		full_hart(max);
		assert_true(ctr_hw_probe(&hw, true));
		assert_int_equal(hw.depth_max, max);
		assert_int_equal(ctr_hw_depth_max(&hw), 16u << max);
	}
}

static void test_enable_opens_state_enables_and_keeps_m_out(void **state)
{
	struct ctr_hw hw;

	(void)state;
	full_hart(4);
	F.mctrctl = CTRCTL_M | CTRCTL_MTE | CTRCTL_S;
	assert_true(ctr_hw_probe(&hw, true));
	F.nlog = 0;
	ctr_hw_enable(&hw);
	assert_int_equal(F.mstateen0 & (STATEEN0_CTR | STATEEN0_CSRIND),
			 STATEEN0_CTR | STATEEN0_CSRIND);
	assert_int_equal(F.hstateen0 & (STATEEN0_CTR | STATEEN0_CSRIND),
			 STATEEN0_CTR | STATEEN0_CSRIND);
	assert_true(log_index(CSR_MSTATEEN0_NUM) < log_index(CSR_HSTATEEN0));
	assert_int_equal(F.mctrctl & (CTRCTL_M | CTRCTL_MTE), 0);
	assert_int_equal(F.sctrdepth, 4);
}

static void test_enable_without_smstateen_or_h(void **state)
{
	struct ctr_hw hw;

	(void)state;
	full_hart(2);
	F.has_stateen = false;
	F.has_h = false;
	assert_true(ctr_hw_probe(&hw, false));
	ctr_hw_enable(&hw);
	assert_int_equal(log_index(CSR_MSTATEEN0_NUM), -1);
	assert_int_equal(log_index(CSR_HSTATEEN0), -1);
	assert_int_equal(log_index(CSR_VSCTRCTL), -1);
}

static void fill_entries(unsigned long seed)
{
	for (unsigned int i = 0; i < 256; i++)
		for (unsigned int r = 0; r < 3; r++)
			F.entry[i][r] = seed * 1000 + i * 3 + r;
}

static void test_save_restore_round_trip(void **state)
{
	static struct ctr_hw_saved saved;
	struct ctr_hw hw;

	(void)state;
	full_hart(2);
	assert_true(ctr_hw_probe(&hw, true));
	ctr_hw_enable(&hw);
	F.mctrctl = CTRCTL_U | CTRCTL_S | CTRCTL_RASEMU;
	F.vsctrctl = CTRCTL_U;
	F.sctrstatus = 17 | SCTRSTATUS_FROZEN;
	F.sctrdepth = 1;
	F.siselect = 0x123;
	fill_entries(7);
	ctr_hw_save(&hw, &saved);
	assert_int_equal(saved.count, 32);
	assert_int_equal(F.siselect, 0x123);   /* S-mode's select is left as it was */
	/* The hart loses its state. */
	F.mctrctl = F.vsctrctl = F.sctrstatus = F.siselect = 0;
	F.sctrdepth = 2;
	fill_entries(9);
	F.nlog = 0;
	ctr_hw_restore(&hw, &saved);
	assert_int_equal(F.mctrctl, CTRCTL_U | CTRCTL_S | CTRCTL_RASEMU);
	assert_int_equal(F.vsctrctl, CTRCTL_U);
	assert_int_equal(F.sctrstatus, 17 | SCTRSTATUS_FROZEN);
	assert_int_equal(F.sctrdepth, 1);
	assert_int_equal(F.siselect, 0x123);
	for (unsigned int i = 0; i < 32; i++)
		for (unsigned int r = 0; r < 3; r++)
			assert_int_equal(F.entry[i][r], 7000 + i * 3 + r);
	/* Order: depth, status, entries, control last. */
	assert_true(log_index(CSR_SCTRDEPTH) < log_index(CSR_SCTRSTATUS));
	assert_true(log_index(CSR_SCTRSTATUS) < log_index(CSR_SIREG));
	assert_true(log_index(CSR_SIREG) < log_index(CSR_MCTRCTL));
	assert_int_equal(log_index(CSR_MCTRCTL), (int)F.nlog - 1);
}

static void test_save_keeps_at_most_64_entries(void **state)
{
	static struct ctr_hw_saved saved;
	struct ctr_hw hw;

	(void)state;
	full_hart(4);
	assert_true(ctr_hw_probe(&hw, true));
	ctr_hw_enable(&hw);
	fill_entries(3);
	ctr_hw_save(&hw, &saved);
	assert_int_equal(saved.count, CTR_HW_SAVE_ENTRIES);
	assert_int_equal(saved.data[63], 3000 + 63 * 3 + 2);
}

static void test_save_restore_without_ctr_does_nothing(void **state)
{
	static struct ctr_hw_saved saved;
	struct ctr_hw hw;

	(void)state;
	F.has_csrind = true;
	assert_false(ctr_hw_probe(&hw, false));
	ctr_hw_save(&hw, &saved);
	ctr_hw_restore(&hw, &saved);
	assert_int_equal(saved.count, 0);
	assert_int_equal(F.nlog, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_no_ctr_hart),
		T(test_ctr_without_sscsrind_is_unusable),
		T(test_probe_depths),
		T(test_enable_opens_state_enables_and_keeps_m_out),
		T(test_enable_without_smstateen_or_h),
		T(test_save_restore_round_trip),
		T(test_save_keeps_at_most_64_entries),
		T(test_save_restore_without_ctr_does_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for lib/tci/tci_filter.c: WARL legalisation of
 * trTeInstFilters, trTeFilter<i> and trTeComp<j> writes, and tci_qualify()
 * (Trace Control Interface 1.0, "Trace Encoder Filter Registers";
 * docs/TRACE.md, "Filters and comparators").  Every register is written
 * through tci_filter_write(), as the encoder does.  One test per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/tci/tci_filter.h"

static struct tci_filter_regs R;
static struct tci_qualifier Q;

static int setup(void **state)
{
	(void)state;
	memset(&R, 0, sizeof(R));
	memset(&Q, 0x5A, sizeof(Q));
	return 0;
}

static void fw(uint32_t off, uint32_t val)
{
	tci_filter_write(&R, off, val);
}

static uint32_t fr(uint32_t off)
{
	return tci_filter_read(&R, off);
}

#define FOFF(i, r) (TRTE_FILTER_BASE + (i) * TRTE_FILTER_STRIDE + (r))
#define COFF(j, r) (TRTE_COMP_BASE + (j) * TRTE_COMP_STRIDE + (r))
#define PRIV(p)    (1u << (p))

/* Filter i: control and privilege choice. */
static void filter(unsigned i, uint32_t control, uint32_t choice)
{
	fw(FOFF(i, TRTE_FILTER_CONTROL), control);
	fw(FOFF(i, TRTE_FILTER_MATCH_INST), choice);
}

/* Filter control: enabled, with the privilege match and comparators
 * c1..c3 (-1: not used). */
static uint32_t fctl(bool priv, int c1, int c2, int c3)
{
	uint32_t v = TRTE_FILTER_ENABLE | (priv ? TRTE_FILTER_MATCH_PRIVILEGE : 0);

	if (c1 >= 0)
		v |= TRTE_FILTER_MATCH_COMP1 | (uint32_t)c1 << TRTE_FILTER_COMP1_SHIFT;
	if (c2 >= 0)
		v |= TRTE_FILTER_MATCH_COMP2 | (uint32_t)c2 << TRTE_FILTER_COMP2_SHIFT;
	if (c3 >= 0)
		v |= TRTE_FILTER_MATCH_COMP3 | (uint32_t)c3 << TRTE_FILTER_COMP3_SHIFT;
	return v;
}

static uint32_t cctl(unsigned pin, unsigned sin, unsigned pfn, unsigned sfn, unsigned mode)
{
	return pin << TRTE_COMP_P_INPUT_SHIFT | sin << TRTE_COMP_S_INPUT_SHIFT |
	       pfn << TRTE_COMP_P_FUNCTION_SHIFT | sfn << TRTE_COMP_S_FUNCTION_SHIFT |
	       mode << TRTE_COMP_MATCH_MODE_SHIFT;
}

static void comp(unsigned j, uint32_t control, uint64_t p, uint64_t s)
{
	fw(COFF(j, TRTE_COMP_CONTROL), control);
	fw(COFF(j, TRTE_COMP_PMATCH_LOW), (uint32_t)p);
	fw(COFF(j, TRTE_COMP_PMATCH_HIGH), (uint32_t)(p >> 32));
	fw(COFF(j, TRTE_COMP_SMATCH_LOW), (uint32_t)s);
	fw(COFF(j, TRTE_COMP_SMATCH_HIGH), (uint32_t)(s >> 32));
}

static void init(void)
{
	tci_qualifier_init(&Q, &R);
}

static bool q(uint64_t iaddr, unsigned priv, uint64_t context)
{
	return tci_qualify(&Q, iaddr, priv, context);
}

/* Filter 0 selected, matching comparator 0 only. */
static void only_comp0(uint32_t control, uint64_t p, uint64_t s)
{
	fw(TRTE_INST_FILTERS, 1);
	filter(0, fctl(false, 0, -1, -1), 0);
	comp(0, control, p, s);
	init();
}

/* ---- register WARL ----------------------------------------------------------- */

static void test_inst_filters_bits_3_0(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0xFFFFFFFFu);
	assert_int_equal(fr(TRTE_INST_FILTERS), 0xF);
	fw(TRTE_INST_FILTERS, 0xA0);
	assert_int_equal(fr(TRTE_INST_FILTERS), 0);
	fw(TRTE_INST_FILTERS, 0x9);
	assert_int_equal(fr(TRTE_INST_FILTERS), 0x9);
}

/* Enable, MatchPrivilege, MatchComp1-3 and the comparator fields are kept;
 * MatchEcause, MatchInterrupt, MatchImpdef, MatchDtype, MatchDsize and the
 * reserved bits read 0. */
static void test_filter_control_supported_bits(void **state)
{
	(void)state;
	for (unsigned i = 0; i < TCI_NFILTERS; i++) {
		fw(FOFF(i, TRTE_FILTER_CONTROL), 0xFFFFFFFFu);
		assert_int_equal(fr(FOFF(i, TRTE_FILTER_CONTROL)),
				 TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE | TRTE_FILTER_MATCH_COMP1 |
				 3u << TRTE_FILTER_COMP1_SHIFT | TRTE_FILTER_MATCH_COMP2 |
				 3u << TRTE_FILTER_COMP2_SHIFT | TRTE_FILTER_MATCH_COMP3 |
				 3u << TRTE_FILTER_COMP3_SHIFT);
		fw(FOFF(i, TRTE_FILTER_CONTROL), TRTE_FILTER_MATCH_ECAUSE | TRTE_FILTER_MATCH_INTERRUPT |
						       TRTE_FILTER_MATCH_IMPDEF | TRTE_FILTER_MATCH_DTYPE |
						       TRTE_FILTER_MATCH_DSIZE | TRTE_FILTER_ENABLE);
		assert_int_equal(fr(FOFF(i, TRTE_FILTER_CONTROL)), TRTE_FILTER_ENABLE);
	}
}

/* A comparator index 4-7 keeps its low two bits, in each of the fields. */
static void test_filter_comp_index_keeps_low_bits(void **state)
{
	static const unsigned shift[3] = { TRTE_FILTER_COMP1_SHIFT, TRTE_FILTER_COMP2_SHIFT,
					   TRTE_FILTER_COMP3_SHIFT };

	(void)state;
	for (unsigned f = 0; f < 3; f++) {
		for (uint32_t idx = 0; idx < 8; idx++) {
			fw(FOFF(1, TRTE_FILTER_CONTROL), idx << shift[f]);
			assert_int_equal(fr(FOFF(1, TRTE_FILTER_CONTROL)), (idx & 3) << shift[f]);
		}
	}
}

static void test_filter_match_inst_privilege_bits(void **state)
{
	(void)state;
	fw(FOFF(2, TRTE_FILTER_MATCH_INST), 0xFFFFFFFFu);
	assert_int_equal(fr(FOFF(2, TRTE_FILTER_MATCH_INST)), PRIV(TCI_PRIV_U) | PRIV(TCI_PRIV_S));
	fw(FOFF(2, TRTE_FILTER_MATCH_INST), PRIV(TCI_PRIV_M) | PRIV(TCI_PRIV_VS) | PRIV(TCI_PRIV_VU) |
						   TRTE_FILTER_MATCH_VALUE_INTERRUPT);
	assert_int_equal(fr(FOFF(2, TRTE_FILTER_MATCH_INST)), 0);
	fw(FOFF(2, TRTE_FILTER_MATCH_INST), PRIV(TCI_PRIV_S));
	assert_int_equal(fr(FOFF(2, TRTE_FILTER_MATCH_INST)), PRIV(TCI_PRIV_S));
}

/* Ecause, impdef and data match registers (and 0x1C) read 0. */
static void test_filter_other_registers_read_zero(void **state)
{
	static const uint32_t regs[] = { TRTE_FILTER_MATCH_ECAUSE_LOW, TRTE_FILTER_MATCH_ECAUSE_HIGH,
					 TRTE_FILTER_MATCH_VALUE_IMPDEF, TRTE_FILTER_MATCH_MASK_IMPDEF,
					 TRTE_FILTER_MATCH_DATA, 0x1C };
	struct tci_filter_regs before;

	(void)state;
	for (unsigned i = 0; i < TCI_NFILTERS; i++)
		filter(i, fctl(true, 1, 2, 3), PRIV(TCI_PRIV_S));
	before = R;
	for (unsigned i = 0; i < TCI_NFILTERS; i++)
		for (unsigned k = 0; k < 6; k++) {
			fw(FOFF(i, regs[k]), 0xFFFFFFFFu);
			assert_int_equal(fr(FOFF(i, regs[k])), 0);
		}
	assert_memory_equal(&before, &R, sizeof(R));
}

/* Filters 4-15 (0x480-0x5FF) do not exist: read 0, ignore writes. */
static void test_filters_out_of_range(void **state)
{
	struct tci_filter_regs before;

	(void)state;
	memset(&R, 0, sizeof(R));
	before = R;
	for (uint32_t off = FOFF(TCI_NFILTERS, 0); off < TRTE_FILTER_END; off += 4) {
		fw(off, 0xFFFFFFFFu);
		assert_int_equal(fr(off), 0);
	}
	assert_memory_equal(&before, &R, sizeof(R));
}

/* Inputs: iaddr and context; tval (2) and daddr (3) read back as iaddr.
 * Every function and match mode is kept; PNotify, SNotify and reserved
 * bits read 0. */
static void test_comp_control_warl(void **state)
{
	static const unsigned legal_input[4] = { 0, 1, 0, 0 };

	(void)state;
	fw(COFF(0, TRTE_COMP_CONTROL), 0xFFFFFFFFu);
	assert_int_equal(fr(COFF(0, TRTE_COMP_CONTROL)), cctl(0, 0, 7, 7, 3));
	for (unsigned in = 0; in < 4; in++) {
		fw(COFF(1, TRTE_COMP_CONTROL), cctl(in, 3 - in, 0, 0, 0));
		assert_int_equal(fr(COFF(1, TRTE_COMP_CONTROL)),
				 cctl(legal_input[in], legal_input[3 - in], 0, 0, 0));
	}
	for (unsigned fn = 0; fn < 8; fn++)
		for (unsigned mode = 0; mode < 4; mode++) {
			fw(COFF(3, TRTE_COMP_CONTROL), cctl(1, 0, fn, 7 - fn, mode) | TRTE_COMP_P_NOTIFY |
							       TRTE_COMP_S_NOTIFY | 1u << 7 | 1u << 11);
			assert_int_equal(fr(COFF(3, TRTE_COMP_CONTROL)), cctl(1, 0, fn, 7 - fn, mode));
		}
}

/* PMatch and SMatch are 64-bit, written and read as independent halves. */
static void test_comp_match_registers_64bit(void **state)
{
	(void)state;
	for (unsigned j = 0; j < TCI_NCOMPS; j++) {
		fw(COFF(j, TRTE_COMP_PMATCH_LOW), 0x11111111u * (j + 1));
		fw(COFF(j, TRTE_COMP_PMATCH_HIGH), 0x22222222u + j);
		fw(COFF(j, TRTE_COMP_SMATCH_LOW), 0x33333333u + j);
		fw(COFF(j, TRTE_COMP_SMATCH_HIGH), 0x44444444u + j);
	}
	for (unsigned j = 0; j < TCI_NCOMPS; j++) {
		assert_int_equal(fr(COFF(j, TRTE_COMP_PMATCH_LOW)), 0x11111111u * (j + 1));
		assert_int_equal(fr(COFF(j, TRTE_COMP_PMATCH_HIGH)), 0x22222222u + j);
		assert_int_equal(fr(COFF(j, TRTE_COMP_SMATCH_LOW)), 0x33333333u + j);
		assert_int_equal(fr(COFF(j, TRTE_COMP_SMATCH_HIGH)), 0x44444444u + j);
		assert_int_equal(R.pmatch[j], (uint64_t)(0x22222222u + j) << 32 | 0x11111111u * (j + 1));
	}
	fw(COFF(2, TRTE_COMP_PMATCH_LOW), 0);
	assert_int_equal(fr(COFF(2, TRTE_COMP_PMATCH_HIGH)), 0x22222224u);
	/* 0x604-0x60C are reserved. */
	for (uint32_t r = 4; r < 0x10; r += 4) {
		fw(COFF(0, r), 0xFFFFFFFFu);
		assert_int_equal(fr(COFF(0, r)), 0);
	}
}

/* Comparators 4-15 (0x680-0x7FF) do not exist. */
static void test_comparators_out_of_range(void **state)
{
	struct tci_filter_regs before;

	(void)state;
	before = R;
	for (uint32_t off = COFF(TCI_NCOMPS, 0); off < TRTE_COMP_END; off += 4) {
		fw(off, 0xFFFFFFFFu);
		assert_int_equal(fr(off), 0);
	}
	assert_memory_equal(&before, &R, sizeof(R));
}

static void test_offset_ranges(void **state)
{
	(void)state;
	assert_true(tci_filter_offset(TRTE_INST_FILTERS));
	assert_true(tci_filter_offset(TRTE_FILTER_BASE));
	assert_true(tci_filter_offset(0x7FC));
	assert_false(tci_filter_offset(TRTE_INST_FEATURES));
	assert_false(tci_filter_offset(TRTE_DATA_CONTROL));
	assert_false(tci_filter_offset(TRTE_DATA_FILTERS));
	assert_false(tci_filter_offset(0x3FC));
	assert_false(tci_filter_offset(0x800));
	fw(TRTE_DATA_FILTERS, 0xF);
	assert_int_equal(fr(TRTE_DATA_FILTERS), 0);
	assert_int_equal(R.inst_filters, 0);
}

/* ---- qualification: filters ------------------------------------------------------ */

/* "If all bits are 0, all instructions are traced", whatever the filters
 * and comparators say. */
static void test_no_filter_selected_qualifies_everything(void **state)
{
	(void)state;
	for (unsigned i = 0; i < TCI_NFILTERS; i++)
		filter(i, fctl(true, 0, -1, -1), PRIV(TCI_PRIV_S));
	comp(0, cctl(0, 0, TRTE_COMP_FN_EQ, 0, 0), 0x1000, 0);
	init();
	assert_true(Q.all);
	assert_true(q(0x2000, TCI_PRIV_U, 0));
	assert_true(q(0x1000, TCI_PRIV_S, 0));
	assert_true(q(0x3000, TCI_PRIV_VS, 0));
	assert_true(q(0x3000, TCI_PRIV_VU, 0));
	assert_true(tci_qualify_priv(&Q, TCI_PRIV_U));
}

static void test_selected_disabled_filter_never_matches(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x1);
	filter(0, fctl(true, -1, -1, -1) & ~TRTE_FILTER_ENABLE, PRIV(TCI_PRIV_S) | PRIV(TCI_PRIV_U));
	init();
	assert_false(q(0x1000, TCI_PRIV_S, 0));
	assert_false(q(0x1000, TCI_PRIV_U, 0));
	assert_false(tci_qualify_priv(&Q, TCI_PRIV_S));
	/* A disabled filter without any condition does not match either. */
	filter(0, 0, 0);
	init();
	assert_false(q(0x1000, TCI_PRIV_S, 0));
	/* Neither does one that uses a comparator that always holds. */
	filter(0, fctl(false, 0, -1, -1) & ~TRTE_FILTER_ENABLE, 0);
	comp(0, cctl(0, 0, TRTE_COMP_FN_TRUE, 0, 0), 0, 0);
	init();
	assert_false(q(0x1000, TCI_PRIV_S, 0));
}

/* An enabled filter that is not selected in trTeInstFilters is ignored. */
static void test_unselected_filter_ignored(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x2);
	filter(0, fctl(true, -1, -1, -1), PRIV(TCI_PRIV_U));
	filter(1, fctl(true, -1, -1, -1), PRIV(TCI_PRIV_S));
	init();
	assert_false(q(0x1000, TCI_PRIV_U, 0));
	assert_true(q(0x1000, TCI_PRIV_S, 0));
}

/* MatchPrivilege: bit N of the choice matches priv N (U = 0, S = 1); VS
 * and VU cannot be chosen; without MatchPrivilege any privilege matches. */
static void test_privilege_matching(void **state)
{
	static const struct { uint32_t choice; bool u, s; } cases[] = {
		{ 0, false, false },
		{ PRIV(TCI_PRIV_U), true, false },
		{ PRIV(TCI_PRIV_S), false, true },
		{ PRIV(TCI_PRIV_U) | PRIV(TCI_PRIV_S), true, true },
		{ 0xFF, true, true },
	};

	(void)state;
	fw(TRTE_INST_FILTERS, 0x4);
	for (unsigned k = 0; k < 5; k++) {
		filter(2, fctl(true, -1, -1, -1), cases[k].choice);
		init();
		assert_false(Q.per_instruction);
		assert_int_equal(q(0x1000, TCI_PRIV_U, 0), cases[k].u);
		assert_int_equal(q(0x1000, TCI_PRIV_S, 0), cases[k].s);
		assert_int_equal(tci_qualify_priv(&Q, TCI_PRIV_U), cases[k].u);
		assert_int_equal(tci_qualify_priv(&Q, TCI_PRIV_S), cases[k].s);
		assert_false(q(0x1000, TCI_PRIV_VS, 0));
		assert_false(q(0x1000, TCI_PRIV_VU, 0));
	}
	filter(2, fctl(false, -1, -1, -1), 0);
	init();
	assert_true(q(0x1000, TCI_PRIV_U, 0));
	assert_true(q(0x1000, TCI_PRIV_S, 0));
	assert_true(q(0x1000, TCI_PRIV_VS, 0));
}

static void test_filters_ored(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x9);
	filter(0, fctl(true, -1, -1, -1), PRIV(TCI_PRIV_U));
	filter(3, fctl(false, 1, -1, -1), 0);
	comp(1, cctl(0, 0, TRTE_COMP_FN_GE, 0, 0), 0x8000, 0);
	init();
	assert_true(q(0x1000, TCI_PRIV_U, 0));    /* filter 0 only */
	assert_true(q(0x9000, TCI_PRIV_S, 0));    /* filter 3 only */
	assert_true(q(0x9000, TCI_PRIV_U, 0));    /* both */
	assert_false(q(0x1000, TCI_PRIV_S, 0));   /* neither */
	fw(TRTE_INST_FILTERS, 0x1);
	init();
	assert_false(q(0x9000, TCI_PRIV_S, 0));
}

/* The conditions of one filter are ANDed: privilege and up to three
 * comparators. */
static void test_conditions_anded(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x1);
	filter(0, fctl(true, 0, 1, 2), PRIV(TCI_PRIV_S));
	comp(0, cctl(0, 0, TRTE_COMP_FN_GE, 0, 0), 0x1000, 0);
	comp(1, cctl(0, 0, TRTE_COMP_FN_LT, 0, 0), 0x2000, 0);
	comp(2, cctl(1, 0, TRTE_COMP_FN_EQ, 0, 0), 42, 0);
	init();
	assert_true(q(0x1800, TCI_PRIV_S, 42));
	assert_false(q(0x1800, TCI_PRIV_U, 42));   /* privilege */
	assert_false(q(0x0800, TCI_PRIV_S, 42));   /* comparator 0 */
	assert_false(q(0x2000, TCI_PRIV_S, 42));   /* comparator 1 */
	assert_false(q(0x1800, TCI_PRIV_S, 41));   /* comparator 2 */
	/* Only the conditions that are enabled count. */
	filter(0, fctl(true, 0, -1, -1), PRIV(TCI_PRIV_S));
	init();
	assert_true(q(0x2000, TCI_PRIV_S, 41));
}

/* An enabled filter with no condition matches every instruction. */
static void test_enabled_filter_without_conditions_matches_all(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x2);
	filter(1, TRTE_FILTER_ENABLE, 0);
	init();
	assert_true(q(0, TCI_PRIV_U, 0));
	assert_true(q(~0ull, TCI_PRIV_S, ~0ull));
}

/* A comparator named as 4-7 in a filter is comparator 0-3 (low bits). */
static void test_filter_comp_alias_selects_low_comparator(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x1);
	filter(0, TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP2 | 6u << TRTE_FILTER_COMP2_SHIFT, 0);
	comp(2, cctl(0, 0, TRTE_COMP_FN_EQ, 0, 0), 0x4444, 0);
	init();
	assert_true(q(0x4444, TCI_PRIV_S, 0));
	assert_false(q(0x4446, TCI_PRIV_S, 0));
}

/* ---- qualification: comparators ------------------------------------------------------ */

/* Every primary function on iaddr (mode 0: the primary result). */
static void test_primary_functions_on_iaddr(void **state)
{
	static const uint64_t in[3] = { 0x0FFF, 0x1000, 0x1001 };
	static const bool want[8][3] = {
		{ 0, 1, 0 }, /* EQ */ { 1, 0, 1 }, /* NE */ { 1, 0, 0 }, /* LT */ { 1, 1, 0 }, /* LE */
		{ 0, 0, 1 }, /* GT */ { 0, 1, 1 }, /* GE */ { 0, 0, 0 }, /* 6: false */ { 1, 1, 1 }, /* true */
	};

	(void)state;
	for (unsigned fn = 0; fn < 8; fn++) {
		only_comp0(cctl(TRTE_COMP_INPUT_IADDR, 0, fn, 0, TRTE_COMP_MODE_P), 0x1000, 0xFFFF);
		for (unsigned k = 0; k < 3; k++) {
			/* context equal to PMatch must not matter */
			assert_int_equal(q(in[k], TCI_PRIV_S, 0x1000), want[fn][k]);
		}
	}
}

/* The same on the context input; iaddr must not matter. */
static void test_primary_functions_on_context(void **state)
{
	static const uint64_t in[3] = { 41, 42, 43 };
	static const bool want[8][3] = {
		{ 0, 1, 0 }, { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 0 },
		{ 0, 0, 1 }, { 0, 1, 1 }, { 0, 0, 0 }, { 1, 1, 1 },
	};

	(void)state;
	for (unsigned fn = 0; fn < 8; fn++) {
		only_comp0(cctl(TRTE_COMP_INPUT_CONTEXT, 0, fn, 0, TRTE_COMP_MODE_P), 42, 0);
		for (unsigned k = 0; k < 3; k++)
			assert_int_equal(q(42, TCI_PRIV_S, in[k]), want[fn][k]);
	}
}

/* Every secondary function (mode 1, primary always true). */
static void test_secondary_functions(void **state)
{
	static const uint64_t in[3] = { 0x6FF, 0x700, 0x701 };
	static const bool want[8][3] = {
		{ 0, 1, 0 }, { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 0 },
		{ 0, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 }, /* 6: true */ { 1, 1, 1 },
	};

	(void)state;
	for (unsigned fn = 0; fn < 8; fn++) {
		only_comp0(cctl(0, TRTE_COMP_INPUT_IADDR, TRTE_COMP_FN_TRUE, fn, TRTE_COMP_MODE_P_AND_S),
			   0, 0x700);
		for (unsigned k = 0; k < 3; k++)
			assert_int_equal(q(in[k], TCI_PRIV_U, 0), want[fn][k]);
	}
	/* The secondary compares its own input: context here. */
	only_comp0(cctl(0, TRTE_COMP_INPUT_CONTEXT, TRTE_COMP_FN_TRUE, TRTE_COMP_FN_EQ,
			TRTE_COMP_MODE_P_AND_S), 0, 9);
	assert_true(q(0x700, TCI_PRIV_S, 9));
	assert_false(q(9, TCI_PRIV_S, 0x700));
}

/* "Comparisons are performed as unsigned numbers", on all 64 bits. */
static void test_comparisons_unsigned_64bit(void **state)
{
	(void)state;
	only_comp0(cctl(0, 0, TRTE_COMP_FN_LT, 0, 0), 0x8000000000000000ull, 0);
	assert_true(q(0x7FFFFFFFFFFFFFFFull, TCI_PRIV_S, 0));
	assert_false(q(0xFFFFFFFF80000000ull, TCI_PRIV_S, 0));
	only_comp0(cctl(0, 0, TRTE_COMP_FN_EQ, 0, 0), 0xFFFFFFC000001000ull, 0);
	assert_true(q(0xFFFFFFC000001000ull, TCI_PRIV_S, 0));
	assert_false(q(0x0000000000001000ull, TCI_PRIV_S, 0));   /* high half counts */
}

/* SFunction 6: the primary compares (input & SMatch) with (PMatch & SMatch),
 * and the secondary result is true. */
static void test_sfunction6_masks_primary(void **state)
{
	(void)state;
	only_comp0(cctl(0, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_6, TRTE_COMP_MODE_P),
		   0x80201234ull, 0xFFFFFFFFFFFFF000ull);
	assert_true(q(0x80201000, TCI_PRIV_S, 0));
	assert_true(q(0x80201FFE, TCI_PRIV_S, 0));
	assert_false(q(0x80202000, TCI_PRIV_S, 0));
	assert_false(q(0x80200FFE, TCI_PRIV_S, 0));
	/* Masked ordering compares too. */
	only_comp0(cctl(0, 0, TRTE_COMP_FN_GT, TRTE_COMP_FN_6, TRTE_COMP_MODE_P), 0x1F00, 0xF00);
	assert_false(q(0x2F00, TCI_PRIV_S, 0));   /* 0xF00 > 0xF00: no */
	assert_false(q(0xE00, TCI_PRIV_S, 0));
	only_comp0(cctl(0, 0, TRTE_COMP_FN_LT, TRTE_COMP_FN_6, TRTE_COMP_MODE_P), 0x1F00, 0xF00);
	assert_true(q(0x2E00, TCI_PRIV_S, 0));    /* 0xE00 < 0xF00 */
	/* Mode 1 (P && S): S is true with function 6. */
	only_comp0(cctl(0, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_6, TRTE_COMP_MODE_P_AND_S), 0x5000, 0xF000);
	assert_true(q(0x5ABC, TCI_PRIV_S, 0));
	assert_false(q(0x6ABC, TCI_PRIV_S, 0));
	/* Masking applies to the primary's own input: context. */
	only_comp0(cctl(TRTE_COMP_INPUT_CONTEXT, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_6, 0), 0x12, 0xF0);
	assert_true(q(0, TCI_PRIV_S, 0x1F));
	assert_false(q(0x12, TCI_PRIV_S, 0x2F));
}

/* Modes 0-2: P, P && S, !(P && S). */
static void test_match_modes_0_1_2(void **state)
{
	(void)state;
	for (unsigned mode = 0; mode < 3; mode++) {
		/* P: iaddr >= 0x100; S: context == 7 */
		only_comp0(cctl(TRTE_COMP_INPUT_IADDR, TRTE_COMP_INPUT_CONTEXT, TRTE_COMP_FN_GE,
				TRTE_COMP_FN_EQ, mode), 0x100, 7);
		for (unsigned ps = 0; ps < 4; ps++) {
			bool p = ps & 1, s = ps & 2;
			bool want = mode == 0 ? p : mode == 1 ? (p && s) : !(p && s);

			assert_int_equal(q(p ? 0x100 : 0xFF, TCI_PRIV_S, s ? 7 : 8), want);
		}
	}
}

/* Mode 3: set on the instruction where P holds, asserted through the
 * instruction where S holds, cleared after it. */
static void test_match_mode3_latch(void **state)
{
	(void)state;
	only_comp0(cctl(0, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0xA00, 0xB00);
	assert_false(q(0x900, TCI_PRIV_S, 0));
	assert_true(q(0xA00, TCI_PRIV_S, 0));    /* P: set */
	assert_true(q(0x904, TCI_PRIV_S, 0));
	assert_true(q(0xC00, TCI_PRIV_U, 0));
	assert_true(q(0xB00, TCI_PRIV_S, 0));    /* S: still asserted */
	assert_false(q(0xB04, TCI_PRIV_S, 0));   /* cleared after it */
	assert_false(q(0x904, TCI_PRIV_S, 0));
	assert_false(q(0xB00, TCI_PRIV_S, 0));   /* S without the latch: nothing */
	assert_true(q(0xA00, TCI_PRIV_S, 0));    /* set again */
	assert_true(q(0xA00, TCI_PRIV_S, 0));
	assert_true(q(0x904, TCI_PRIV_S, 0));
}

/* P and S on the same instruction: that instruction only. */
static void test_match_mode3_p_and_s_same_instruction(void **state)
{
	(void)state;
	only_comp0(cctl(0, TRTE_COMP_INPUT_CONTEXT, TRTE_COMP_FN_EQ, TRTE_COMP_FN_EQ,
			TRTE_COMP_MODE_LATCH), 0xA00, 5);
	assert_true(q(0xA00, TCI_PRIV_S, 5));
	assert_false(q(0xA04, TCI_PRIV_S, 5));
	assert_false(q(0xA08, TCI_PRIV_S, 0));
}

/* P holding on the instruction after the clear point sets the latch again;
 * it then stays set without P until S holds. */
static void test_match_mode3_p_after_s_sets_again(void **state)
{
	(void)state;
	only_comp0(cctl(0, 0, TRTE_COMP_FN_GE, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0xA00, 0xB00);
	assert_true(q(0xB00, TCI_PRIV_S, 0));    /* P (>= 0xA00) and S */
	assert_true(q(0xB04, TCI_PRIV_S, 0));    /* cleared, but P sets it again */
	assert_true(q(0x100, TCI_PRIV_S, 0));    /* no P, no S: still set */
	assert_true(q(0xB00, TCI_PRIV_S, 0));    /* S */
	assert_false(q(0x100, TCI_PRIV_S, 0));   /* cleared after it */
}

/* PFunction 6 primes the latch: asserted from the first instruction
 * through the one where S holds, then never again (P is always false). */
static void test_pfunction6_primes_latch(void **state)
{
	(void)state;
	only_comp0(cctl(0, 0, TRTE_COMP_FN_6, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0, 0xB00);
	assert_true(q(0x100, TCI_PRIV_S, 0));
	assert_true(q(0xA00, TCI_PRIV_U, 0));
	assert_true(q(0xB00, TCI_PRIV_S, 0));
	assert_false(q(0xB04, TCI_PRIV_S, 0));
	assert_false(q(0x100, TCI_PRIV_S, 0));
	/* Without mode 3, function 6 is just "false". */
	only_comp0(cctl(0, 0, TRTE_COMP_FN_6, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_P_AND_S), 0, 0xB00);
	assert_false(q(0xB00, TCI_PRIV_S, 0));
	/* A new qualifier starts from the registers again: primed. */
	only_comp0(cctl(0, 0, TRTE_COMP_FN_6, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0, 0xB00);
	assert_true(q(0x100, TCI_PRIV_S, 0));
}

/* A latch sees every instruction, also those its filter rejects for
 * another condition (here: privilege). */
static void test_latch_sees_filtered_instructions(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x1);
	filter(0, fctl(true, 0, -1, -1), PRIV(TCI_PRIV_S));
	comp(0, cctl(0, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0xA00, 0xB00);
	init();
	assert_true(q(0xA00, TCI_PRIV_S, 0));
	assert_false(q(0xB00, TCI_PRIV_U, 0));   /* S holds here (not traced: U) */
	assert_false(q(0xC00, TCI_PRIV_S, 0));   /* so the latch is off here */
}

/* One comparator used by two filters is evaluated once per instruction. */
static void test_shared_latch_evaluated_once(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 0x3);
	filter(0, fctl(true, 0, -1, -1), PRIV(TCI_PRIV_U));
	filter(1, fctl(true, -1, -1, 0), PRIV(TCI_PRIV_S));
	comp(0, cctl(0, 0, TRTE_COMP_FN_EQ, TRTE_COMP_FN_EQ, TRTE_COMP_MODE_LATCH), 0xA00, 0xB00);
	init();
	assert_true(q(0xA00, TCI_PRIV_S, 0));
	assert_true(q(0xB00, TCI_PRIV_S, 0));
	assert_false(q(0xB04, TCI_PRIV_U, 0));
	assert_false(q(0xB08, TCI_PRIV_S, 0));
}

/* Inputs 2 (tval) and 3 (daddr) read back as iaddr, and compare iaddr. */
static void test_tval_daddr_inputs_compare_iaddr(void **state)
{
	(void)state;
	for (unsigned in = 2; in < 4; in++) {
		only_comp0(cctl(in, 0, TRTE_COMP_FN_EQ, 0, 0), 0x3000, 0);
		assert_true(q(0x3000, TCI_PRIV_S, 0));
		assert_false(q(0x3004, TCI_PRIV_S, 0x3000));
	}
}

/* tci_qualify_priv answers as tci_qualify when no comparator is used. */
static void test_qualify_priv_agrees_without_comparators(void **state)
{
	(void)state;
	for (uint32_t sel = 0; sel < 16; sel++) {
		memset(&R, 0, sizeof(R));
		fw(TRTE_INST_FILTERS, sel);
		filter(0, fctl(true, -1, -1, -1), PRIV(TCI_PRIV_U));
		filter(1, fctl(true, -1, -1, -1), PRIV(TCI_PRIV_S));
		filter(2, fctl(true, -1, -1, -1) & ~TRTE_FILTER_ENABLE, PRIV(TCI_PRIV_S));
		filter(3, fctl(true, -1, -1, -1), 0);
		init();
		assert_false(Q.per_instruction);
		for (unsigned p = 0; p < 8; p++) {
			bool want = sel == 0 || (p == TCI_PRIV_U && (sel & 1)) || (p == TCI_PRIV_S && (sel & 2));

			assert_int_equal(tci_qualify_priv(&Q, p), want);
			assert_int_equal(q(0x1234, p, 0), want);
		}
	}
	fw(TRTE_INST_FILTERS, 1);
	filter(0, fctl(true, 3, -1, -1), PRIV(TCI_PRIV_U));
	init();
	assert_true(Q.per_instruction);
}

/* ---- spans (tci_qualify_span) ------------------------------------------------ */

static uint32_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint32_t)(*x >> 16);
}

/* A threshold near the spans the test asks about (so it falls inside some). */
static uint64_t near(uint64_t *x)
{
	return 0x80000000u + (rnd(x) % 0x400) - 0x40;
}

/*
 * Random filters and comparators (every function, input and mode, masks
 * and latches included) and random runs of 2- and 4-byte instructions:
 * when tci_qualify_span() says ALL or NONE, tci_qualify() on each
 * instruction of the run, in order, says the same.  MIXED is always
 * allowed (the span's answer is safe, not always the sharpest).
 */
static void test_span_agrees_with_each_instruction(void **state)
{
	static const unsigned privs[] = { TCI_PRIV_U, TCI_PRIV_S, TCI_PRIV_VU, TCI_PRIV_VS };
	unsigned counts[3] = { 0 }, single_mixed = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (unsigned cfg = 0; cfg < 3000; cfg++) {
		memset(&R, 0, sizeof(R));
		fw(TRTE_INST_FILTERS, 1 + rnd(&x) % 15);
		for (unsigned i = 0; i < TCI_NFILTERS; i++)
			filter(i, fctl(rnd(&x) & 1, (int)(rnd(&x) % 5) - 1, (int)(rnd(&x) % 6) - 2,
				       (int)(rnd(&x) % 8) - 4),
			       rnd(&x) & 0xff);
		for (unsigned j = 0; j < TCI_NCOMPS; j++)
			comp(j, cctl(rnd(&x) % 4 == 0, rnd(&x) % 4 == 0, rnd(&x) % 8, rnd(&x) % 8,
				     rnd(&x) % (rnd(&x) % 4 ? 3 : 4)),
			     near(&x), rnd(&x) % 5 == 0 ? 0xfffffff0u : near(&x));
		init();
		for (unsigned k = 0; k < 20; k++) {
			static struct tci_qualifier each;
			unsigned priv = privs[rnd(&x) % 4], n = 1 + rnd(&x) % 24, traced = 0;
			uint64_t ctx = rnd(&x) % 3, lo = near(&x) & ~1ull, a = lo, hi = lo;
			enum tci_span span;

			for (unsigned i = 1; i < n; i++)
				hi += rnd(&x) & 1 ? 2 : 4;
			span = tci_qualify_span(&Q, lo, hi, priv, ctx);
			memcpy(&each, &Q, sizeof(each));
			/* every half-word in [lo, hi]: the run's instructions
			 * and more (the span's answer is for every address) */
			for (n = 0; a <= hi; a += 2, n++)
				traced += tci_qualify(&each, a, priv, ctx);
			if (span == TCI_SPAN_ALL && traced != n)
				fail_msg("config %u: ALL over [%#llx, %#llx], %u of %u traced", cfg,
					 (unsigned long long)lo, (unsigned long long)hi, traced, n);
			if (span == TCI_SPAN_NONE && traced)
				fail_msg("config %u: NONE over [%#llx, %#llx], %u of %u traced", cfg,
					 (unsigned long long)lo, (unsigned long long)hi, traced, n);
			/* one instruction is mixed only where a latch decides */
			if (lo == hi && span == TCI_SPAN_MIXED)
				single_mixed++;
			counts[span]++;
			memcpy(&Q, &each, sizeof(Q));   /* latches go on as an encoder's would */
		}
	}
	print_message("spans: %u none, %u all, %u mixed (%u of one instruction)\n", counts[0],
		      counts[1], counts[2], single_mixed);
	assert_true(counts[TCI_SPAN_NONE] > 5000);
	assert_true(counts[TCI_SPAN_ALL] > 5000);
	assert_true(counts[TCI_SPAN_MIXED] > 1000);
}

/* The firmware's case: one address range [start, end) on comparator 0
 * (mode 1), a run inside, outside and across either bound. */
static void test_span_of_an_address_range(void **state)
{
	(void)state;
	fw(TRTE_INST_FILTERS, 1);
	filter(0, fctl(false, 0, -1, -1), 0);
	comp(0, cctl(TRTE_COMP_INPUT_IADDR, TRTE_COMP_INPUT_IADDR, TRTE_COMP_FN_GE, TRTE_COMP_FN_LT,
		     TRTE_COMP_MODE_P_AND_S), 0x1000, 0x2000);
	init();
	assert_int_equal(tci_qualify_span(&Q, 0x1000, 0x1ffe, TCI_PRIV_S, 0), TCI_SPAN_ALL);
	assert_int_equal(tci_qualify_span(&Q, 0x2000, 0x2100, TCI_PRIV_U, 0), TCI_SPAN_NONE);
	assert_int_equal(tci_qualify_span(&Q, 0x800, 0xffe, TCI_PRIV_S, 0), TCI_SPAN_NONE);
	assert_int_equal(tci_qualify_span(&Q, 0xffe, 0x1002, TCI_PRIV_S, 0), TCI_SPAN_MIXED);
	assert_int_equal(tci_qualify_span(&Q, 0x1ffc, 0x2000, TCI_PRIV_S, 0), TCI_SPAN_MIXED);
	assert_int_equal(tci_qualify_span(&Q, 0x1002, 0x1000, TCI_PRIV_S, 0), TCI_SPAN_MIXED);
	/* a latch is never taken as a whole */
	comp(0, cctl(TRTE_COMP_INPUT_IADDR, TRTE_COMP_INPUT_IADDR, TRTE_COMP_FN_GE, TRTE_COMP_FN_LT,
		     TRTE_COMP_MODE_LATCH), 0x1000, 0x2000);
	init();
	assert_int_equal(tci_qualify_span(&Q, 0x1000, 0x1ffe, TCI_PRIV_S, 0), TCI_SPAN_MIXED);
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_inst_filters_bits_3_0),
		T(test_filter_control_supported_bits),
		T(test_filter_comp_index_keeps_low_bits),
		T(test_filter_match_inst_privilege_bits),
		T(test_filter_other_registers_read_zero),
		T(test_filters_out_of_range),
		T(test_comp_control_warl),
		T(test_comp_match_registers_64bit),
		T(test_comparators_out_of_range),
		T(test_offset_ranges),
		T(test_no_filter_selected_qualifies_everything),
		T(test_selected_disabled_filter_never_matches),
		T(test_unselected_filter_ignored),
		T(test_privilege_matching),
		T(test_filters_ored),
		T(test_conditions_anded),
		T(test_enabled_filter_without_conditions_matches_all),
		T(test_filter_comp_alias_selects_low_comparator),
		T(test_primary_functions_on_iaddr),
		T(test_primary_functions_on_context),
		T(test_secondary_functions),
		T(test_comparisons_unsigned_64bit),
		T(test_sfunction6_masks_primary),
		T(test_match_modes_0_1_2),
		T(test_match_mode3_latch),
		T(test_match_mode3_p_and_s_same_instruction),
		T(test_match_mode3_p_after_s_sets_again),
		T(test_pfunction6_primes_latch),
		T(test_latch_sees_filtered_instructions),
		T(test_shared_latch_evaluated_once),
		T(test_tval_daddr_inputs_compare_iaddr),
		T(test_qualify_priv_agrees_without_comparators),
		T(test_span_agrees_with_each_instruction),
		T(test_span_of_an_address_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for firmware/trace/tci_encoder.c, the register model of the
 * emulated trace encoder, against docs/TRACE.md ("Trace encoder registers")
 * and the Trace Control Interface 1.0 (trTeControl, trTeImpl,
 * trTeInstFeatures, trTsControl, the filter registers, tracesbi's
 * 0xE00-0xE1C registers).  The model is pure: the time for the timestamp
 * unit is the `now` argument, and a write returns TE_FX_START / TE_FX_STOP.
 * One test per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "firmware/trace/tci_encoder.h"

/* ---- fixture ------------------------------------------------------------ */

static struct tci_encoder te;
static uint64_t now;

static uint32_t rd(uint32_t off)
{
	return tci_encoder_read(&te, off, now);
}

static uint32_t wr(uint32_t off, uint32_t val)
{
	return tci_encoder_write(&te, off, val, now);
}

static int setup(void **state)
{
	(void)state;
	memset(&te, 0xA5, sizeof(te));   /* init must not rely on a zeroed struct */
	tci_encoder_init(&te);
	now = 1000;
	return 0;
}

#define IMPL_VALUE       0x00010101u
#define MODE(m)          ((uint32_t)(m) << TRTE_INST_MODE_SHIFT)
#define FORMAT_NTRACE    (TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT)
/* trTeControl right after release from reset (trTeEmpty excluded). */
#define CONTROL_DEFAULT  (TRTE_ACTIVE | MODE(6) | FORMAT_NTRACE)
#define TS_WIDTH_FIELD   ((uint32_t)56 << TRTS_WIDTH_SHIFT)
/* trTeInstFeatures after release: everything off, ImplicitReturnMode 3
 * (what a write of 0 leaves). */
#define FEATURES_DEFAULT (3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT)
#define ON               (TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING)

static void release(void)
{
	assert_int_equal(wr(TRTE_CONTROL, TRTE_ACTIVE), 0);
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_ACTIVE, TRTE_ACTIVE);
}

/* Offsets of every implemented register (the rest of 0x000-0xFFC is
 * reserved or reads a fixed 0). */
static bool implemented(uint32_t off)
{
	uint32_t r;

	switch (off) {
	case TRTE_CONTROL: case TRTE_IMPL: case TRTE_INST_FEATURES: case TRTE_INST_FILTERS:
	case TRTS_CONTROL: case TRTS_COUNTER_LOW: case TRTS_COUNTER_HIGH:
	case TSBI_TE_INGRESS: case TSBI_TE_CALL_STACK: case TSBI_TE_STATUS:
	case TSBI_TE_BLOCKS_LOW: case TSBI_TE_BLOCKS_HIGH:
	case TSBI_TE_INSNS_LOW: case TSBI_TE_INSNS_HIGH: case TSBI_TE_TV_PARAMS:
		return true;
	default:
		break;
	}
	if (off >= TRTE_FILTER_BASE && off < TRTE_FILTER_BASE + TCI_NFILTERS * TRTE_FILTER_STRIDE) {
		r = (off - TRTE_FILTER_BASE) % TRTE_FILTER_STRIDE;
		return r == TRTE_FILTER_CONTROL || r == TRTE_FILTER_MATCH_INST;
	}
	if (off >= TRTE_COMP_BASE && off < TRTE_COMP_BASE + TCI_NCOMPS * TRTE_COMP_STRIDE) {
		r = (off - TRTE_COMP_BASE) % TRTE_COMP_STRIDE;
		return r == TRTE_COMP_CONTROL || r >= TRTE_COMP_PMATCH_LOW;
	}
	return false;
}

/* Every register's read value, to check that a write changed nothing. */
static void snapshot(uint32_t regs[0x400])
{
	for (uint32_t off = 0; off < 0x1000; off += 4)
		regs[off / 4] = rd(off);
}

/* A configuration touching every writable register. */
static void configure_everything(void)
{
	wr(TRTE_INST_FEATURES, TRTE_INST_EN_SEQUENTIAL_JUMP | 2u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT |
				       0x123u << TRTE_SRC_ID_SHIFT | 5u << TRTE_SRC_BITS_SHIFT);
	wr(TRTE_INST_FILTERS, 0x5);
	wr(TRTE_FILTER_BASE + TRTE_FILTER_CONTROL, TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE);
	wr(TRTE_FILTER_BASE + TRTE_FILTER_MATCH_INST, 0x2);
	wr(TRTE_COMP_BASE + TRTE_COMP_CONTROL, 3u << TRTE_COMP_P_FUNCTION_SHIFT);
	wr(TRTE_COMP_BASE + TRTE_COMP_PMATCH_LOW, 0x80200000u);
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | TRTS_ENABLE | 2u << TRTS_MODE_SHIFT);
	wr(TSBI_TE_INGRESS, TSBI_INGRESS_SINGLE_STEP);
	wr(TSBI_TE_CALL_STACK, 7);
}

/* ---- reset and release -------------------------------------------------- */

/* Power-on: trTeActive = 0; only trTeImpl (and trTeControl's trTeEmpty,
 * TCI reset value 1) read non-zero, even with owner state set. */
static void test_power_on_reads_zero_except_impl(void **state)
{
	(void)state;
	te.status = TSBI_STATUS_INGRESS_OK | 2u << TSBI_STATUS_TRIGGERS_SHIFT;
	te.blocks = 0x100000002ull;
	te.insns = 0x300000004ull;
	now = 0x123456789ull;
	assert_int_equal(rd(TRTE_CONTROL), TRTE_EMPTY);
	assert_int_equal(rd(TRTE_IMPL), IMPL_VALUE);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	assert_false(tci_encoder_tracing(&te));
	assert_false(tci_encoder_ts_enabled(&te));
}

static void test_reset_ignores_writes(void **state)
{
	(void)state;
	for (uint32_t off = 4; off < 0x1000; off += 4)
		assert_int_equal(wr(off, 0xFFFFFFFFu), 0);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	/* Nothing written in reset survives release: the defaults hold. */
	release();
	assert_int_equal(rd(TRTE_INST_FEATURES), FEATURES_DEFAULT);
	assert_int_equal(rd(TRTE_INST_FILTERS), 0);
	assert_int_equal(rd(TRTE_FILTER_BASE), 0);
	assert_int_equal(rd(TRTE_COMP_BASE + TRTE_COMP_PMATCH_LOW), 0);
	assert_int_equal(rd(TRTS_CONTROL), TS_WIDTH_FIELD);
	assert_int_equal(rd(TSBI_TE_INGRESS), 0);
	assert_int_equal(rd(TSBI_TE_CALL_STACK), 32);
}

static void test_impl_always_reads(void **state)
{
	(void)state;
	assert_int_equal(rd(TRTE_IMPL), IMPL_VALUE);
	assert_int_equal(TCI_IMPL_VER_MAJOR(IMPL_VALUE), 1);
	assert_int_equal(TCI_IMPL_VER_MINOR(IMPL_VALUE), 0);
	assert_int_equal(TCI_IMPL_COMP_TYPE(IMPL_VALUE), TRCOMP_ENCODER);
	wr(TRTE_IMPL, 0);
	assert_int_equal(rd(TRTE_IMPL), IMPL_VALUE);
	release();
	wr(TRTE_IMPL, 0);
	assert_int_equal(rd(TRTE_IMPL), IMPL_VALUE);
	wr(TRTE_CONTROL, 0);
	assert_int_equal(rd(TRTE_IMPL), IMPL_VALUE);
}

static void test_release_sets_defaults(void **state)
{
	(void)state;
	release();
	assert_int_equal(rd(TRTE_CONTROL), CONTROL_DEFAULT | TRTE_EMPTY);
	assert_int_equal(rd(TRTE_INST_FEATURES), FEATURES_DEFAULT);
	assert_int_equal(rd(TRTE_INST_FILTERS), 0);
	assert_int_equal(rd(TRTE_DATA_CONTROL), 0);
	assert_int_equal(rd(TRTE_DATA_FILTERS), 0);
	assert_int_equal(rd(TRTS_CONTROL), TS_WIDTH_FIELD);
	assert_int_equal(rd(TRTS_COUNTER_LOW), 0);
	assert_int_equal(rd(TRTS_COUNTER_HIGH), 0);
	assert_int_equal(rd(TRTE_TRIG_DBG_CONTROL), 0);
	assert_int_equal(rd(TRTE_TRIG_EXT_IN_CONTROL), 0);
	assert_int_equal(rd(TRTE_TRIG_EXT_OUT_CONTROL), 0);
	for (uint32_t off = TRTE_FILTER_BASE; off < TRTE_COMP_END; off += 4)
		assert_int_equal(rd(off), 0);
	assert_int_equal(rd(TSBI_TE_INGRESS), 0);
	assert_int_equal(rd(TSBI_TE_CALL_STACK), 32);
	assert_false(tci_encoder_tracing(&te));
	assert_false(tci_encoder_ts_enabled(&te));
}

/* "Writing trTeActive = 1 sets the defaults below and ignores the rest of
 * that write": no tracing starts, whatever else the write holds. */
static void test_release_ignores_rest_of_write(void **state)
{
	(void)state;
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(3) | TRTE_CONTEXT | 2u << TRTE_INST_SYNC_MODE_SHIFT), 0);
	assert_int_equal(rd(TRTE_CONTROL), CONTROL_DEFAULT | TRTE_EMPTY);
	assert_false(tci_encoder_tracing(&te));
	wr(TRTE_CONTROL, 0);
	assert_int_equal(wr(TRTE_CONTROL, 0xFFFFFFFFu), 0);
	assert_int_equal(rd(TRTE_CONTROL), CONTROL_DEFAULT | TRTE_EMPTY);
}

static void test_reset_clears_everything(void **state)
{
	uint32_t regs[0x400];

	(void)state;
	release();
	configure_everything();
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | TRTE_CONTEXT | MODE(3));
	tci_encoder_set_overflow(&te);
	assert_int_not_equal(rd(TRTE_INST_FEATURES), FEATURES_DEFAULT);
	assert_int_equal(wr(TRTE_CONTROL, 0), 0);
	assert_int_equal(rd(TRTE_CONTROL), TRTE_EMPTY);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	/* Released again: the defaults, not the old configuration. */
	release();
	snapshot(regs);
	assert_int_equal(regs[TRTE_CONTROL / 4], CONTROL_DEFAULT | TRTE_EMPTY);
	for (uint32_t off = 8; off < 0x1000; off += 4) {
		uint32_t want = off == TRTS_CONTROL ? TS_WIDTH_FIELD : off == TSBI_TE_CALL_STACK ? 32
			      : off == TRTE_INST_FEATURES ? FEATURES_DEFAULT : 0;

		if (off == TRTE_IMPL)
			continue;
		assert_int_equal(regs[off / 4], want);
	}
}

/* ---- trTeControl fields ------------------------------------------------- */

static void test_inst_mode_warl(void **state)
{
	static const uint32_t legal[8] = { 0, 3, 3, 3, 6, 6, 6, 6 };

	(void)state;
	release();
	for (uint32_t m = 0; m < 8; m++) {
		wr(TRTE_CONTROL, TRTE_ACTIVE | MODE(m));
		assert_int_equal((rd(TRTE_CONTROL) & TRTE_INST_MODE_MASK) >> TRTE_INST_MODE_SHIFT,
				 legal[m]);
	}
}

/* trTeInstTrigEnable, trTeInstStallEna read 0; trTeFormat is 1; trTeEmpty
 * is read-only; reserved bits (7, 8, 10, 14, 18, 19, 31:27) read 0. */
static void test_control_fixed_fields(void **state)
{
	uint32_t v;

	(void)state;
	release();
	te.empty = false;
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_EMPTY | TRTE_INST_TRIG_ENABLE | TRTE_INST_STALL_ENA |
				 TRTE_FORMAT_MASK | 1u << 7 | 1u << 8 | 1u << 10 | 1u << 14 | 3u << 18 |
				 0x1Fu << 27);
	v = rd(TRTE_CONTROL);
	assert_int_equal(v & TRTE_EMPTY, 0);
	assert_int_equal(v & (TRTE_INST_TRIG_ENABLE | TRTE_INST_STALL_ENA), 0);
	assert_int_equal(v & TRTE_FORMAT_MASK, FORMAT_NTRACE);
	assert_int_equal(v & (1u << 7 | 1u << 8 | 1u << 10 | 1u << 14 | 3u << 18 | 0x1Fu << 27), 0);
	wr(TRTE_CONTROL, TRTE_ACTIVE);   /* trTeFormat = 0 written: stays 1 */
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_FORMAT_MASK, FORMAT_NTRACE);
}

static void test_empty_follows_encoder_buffer(void **state)
{
	(void)state;
	release();
	te.empty = false;
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_EMPTY, 0);
	te.empty = true;
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_EMPTY, TRTE_EMPTY);
}

static void test_control_rw_fields(void **state)
{
	(void)state;
	release();
	for (uint32_t mode = 0; mode < 4; mode++) {
		for (uint32_t max = 0; max < 16; max++) {
			uint32_t v = TRTE_ACTIVE | MODE(6) | mode << TRTE_INST_SYNC_MODE_SHIFT |
				     max << TRTE_INST_SYNC_MAX_SHIFT | ((mode ^ max) & 1 ? TRTE_CONTEXT : 0) |
				     ((max & 2) ? TRTE_INHIBIT_SRC : 0) | ((mode & 1) ? TRTE_ENABLE : 0);

			wr(TRTE_CONTROL, v);
			assert_int_equal(rd(TRTE_CONTROL) & ~TRTE_EMPTY, v | FORMAT_NTRACE);
		}
	}
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_INST_TRACING);
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_TRACING, TRTE_INST_TRACING);
}

static void test_stall_overflow_rw1c(void **state)
{
	(void)state;
	release();
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(6));
	tci_encoder_set_overflow(&te);
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, TRTE_INST_STALL_OR_OVERFLOW);
	/* Writing 0 keeps it. */
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3));
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, TRTE_INST_STALL_OR_OVERFLOW);
	/* Writing 1 clears it. */
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3) | TRTE_INST_STALL_OR_OVERFLOW);
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, 0);
	/* Writing 1 does not set it. */
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3) | TRTE_INST_STALL_OR_OVERFLOW);
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, 0);
}

/* "Cleared ... by setting trTeEnable": the 0 -> 1 transition clears it; a
 * write that leaves trTeEnable at 1 keeps the report. */
static void test_stall_overflow_cleared_when_enable_set(void **state)
{
	(void)state;
	release();
	tci_encoder_set_overflow(&te);
	wr(TRTE_CONTROL, TRTE_ACTIVE | MODE(6));
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, TRTE_INST_STALL_OR_OVERFLOW);
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(6));
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, 0);
	tci_encoder_set_overflow(&te);
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3));
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, TRTE_INST_STALL_OR_OVERFLOW);
	/* TE reset clears it too. */
	wr(TRTE_CONTROL, 0);
	release();
	assert_int_equal(rd(TRTE_CONTROL) & TRTE_INST_STALL_OR_OVERFLOW, 0);
}

/* ---- START / STOP effects ----------------------------------------------- */

/* Tracing starts on the write that completes Active, Enable, InstTracing
 * and a non-zero mode, whichever of them comes last. */
static void test_start_when_last_condition_set(void **state)
{
	static const uint32_t before[] = {
		TRTE_ACTIVE | TRTE_INST_TRACING | MODE(6),   /* Enable last      */
		TRTE_ACTIVE | TRTE_ENABLE | MODE(6),         /* InstTracing last */
		TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING, /* mode last      */
	};

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		tci_encoder_init(&te);
		release();
		assert_int_equal(wr(TRTE_CONTROL, before[i]), 0);
		assert_false(tci_encoder_tracing(&te));
		assert_int_equal(wr(TRTE_CONTROL, ON | MODE(3)), TE_FX_START);
		assert_true(tci_encoder_tracing(&te));
	}
	/* A mode that legalises to non-zero (1 -> 3) starts it too. */
	tci_encoder_init(&te);
	release();
	wr(TRTE_CONTROL, ON | MODE(0));
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(1)), TE_FX_START);
}

static void test_stop_when_a_condition_cleared(void **state)
{
	static const uint32_t after[] = {
		TRTE_ACTIVE | TRTE_INST_TRACING | MODE(6),     /* Enable 1 -> 0      */
		TRTE_ACTIVE | TRTE_ENABLE | MODE(6),           /* InstTracing 1 -> 0 */
		TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING, /* mode -> 0          */
	};

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		tci_encoder_init(&te);
		release();
		assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), TE_FX_START);
		assert_int_equal(wr(TRTE_CONTROL, after[i]), TE_FX_STOP);
		assert_false(tci_encoder_tracing(&te));
		/* ... and starts again when it comes back. */
		assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), TE_FX_START);
	}
}

/* Reset (trTeActive = 0) while tracing flushes: STOP; not tracing: nothing. */
static void test_stop_on_reset_while_tracing(void **state)
{
	(void)state;
	release();
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), TE_FX_START);
	assert_int_equal(wr(TRTE_CONTROL, ON & ~TRTE_ACTIVE), TE_FX_STOP);
	assert_false(tci_encoder_tracing(&te));
	assert_int_equal(wr(TRTE_CONTROL, 0), 0);
	release();
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(6));
	assert_int_equal(wr(TRTE_CONTROL, 0), 0);
}

/* Writes that keep tracing on (or off) report nothing; the new values are
 * kept ("apply at the next start"). */
static void test_no_effect_without_transition(void **state)
{
	(void)state;
	release();
	assert_int_equal(wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(6)), 0);
	assert_int_equal(wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3)), 0);
	assert_int_equal(wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_INST_TRACING | MODE(6)), 0);
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), TE_FX_START);
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), 0);
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(3) | TRTE_CONTEXT | 1u << TRTE_INST_SYNC_MODE_SHIFT), 0);
	assert_int_equal(rd(TRTE_CONTROL) & (TRTE_INST_MODE_MASK | TRTE_CONTEXT | TRTE_INST_SYNC_MODE_MASK),
			 MODE(3) | TRTE_CONTEXT | 1u << TRTE_INST_SYNC_MODE_SHIFT);
	assert_true(tci_encoder_tracing(&te));
}

static void test_writes_while_tracing_are_kept(void **state)
{
	(void)state;
	release();
	assert_int_equal(wr(TRTE_CONTROL, ON | MODE(6)), TE_FX_START);
	assert_int_equal(wr(TRTE_INST_FEATURES, TRTE_INST_EN_ALL_JUMPS | 1u << 6), 0);
	assert_int_equal(wr(TRTE_INST_FILTERS, 1), 0);
	assert_int_equal(wr(TSBI_TE_CALL_STACK, 4), 0);
	assert_int_equal(wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_ENABLE | 2u << TRTS_MODE_SHIFT), 0);
	assert_int_equal(rd(TRTE_INST_FEATURES), TRTE_INST_EN_ALL_JUMPS | 1u << 6);
	assert_int_equal(rd(TRTE_INST_FILTERS), 1);
	assert_int_equal(rd(TSBI_TE_CALL_STACK), 4);
	assert_true(tci_encoder_ts_enabled(&te));
	assert_true(tci_encoder_tracing(&te));
}

/* ---- trTeInstFeatures --------------------------------------------------- */

static void test_features_rw_and_fixed_bits(void **state)
{
	(void)state;
	release();
	wr(TRTE_INST_FEATURES, 0xFFFFFFFFu);
	/* NoAddrDiff, NoTrapAddr, EnBranchPrediction, EnJumpTargetCache and
	 * bits 15:11 read 0; ImplicitReturnMode 3, SrcID 0xFFF, SrcBits 12. */
	assert_int_equal(rd(TRTE_INST_FEATURES),
			 TRTE_INST_EN_SEQUENTIAL_JUMP | TRTE_INST_EN_IMPLICIT_RETURN |
			 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT | TRTE_INST_EN_REPEATED_HISTORY |
			 TRTE_INST_EN_ALL_JUMPS | TRTE_INST_EXTEND_ADDR_MSB | TRTE_SRC_ID_MASK |
			 12u << TRTE_SRC_BITS_SHIFT);
	wr(TRTE_INST_FEATURES, TRTE_INST_NO_ADDR_DIFF | TRTE_INST_NO_TRAP_ADDR |
				       TRTE_INST_EN_BRANCH_PREDICTION | TRTE_INST_EN_JUMP_TARGET_CACHE |
				       1u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
	assert_int_equal(rd(TRTE_INST_FEATURES), 1u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
	/* Each RW bit on its own. */
	static const uint32_t rw[] = { TRTE_INST_EN_SEQUENTIAL_JUMP, TRTE_INST_EN_IMPLICIT_RETURN,
				       TRTE_INST_EN_REPEATED_HISTORY, TRTE_INST_EN_ALL_JUMPS,
				       TRTE_INST_EXTEND_ADDR_MSB };
	for (unsigned i = 0; i < 5; i++) {
		wr(TRTE_INST_FEATURES, rw[i] | 2u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
		assert_int_equal(rd(TRTE_INST_FEATURES), rw[i] | 2u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
	}
}

static void test_implicit_return_mode_warl(void **state)
{
	static const uint32_t legal[4] = { 3, 1, 2, 3 };

	(void)state;
	release();
	/* The default is what writing 0 leaves: mode 3. */
	assert_int_equal(rd(TRTE_INST_FEATURES), FEATURES_DEFAULT);
	wr(TRTE_INST_FEATURES, 0);
	assert_int_equal(rd(TRTE_INST_FEATURES), FEATURES_DEFAULT);
	for (uint32_t m = 0; m < 4; m++) {
		wr(TRTE_INST_FEATURES, TRTE_INST_EN_IMPLICIT_RETURN | m << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
		assert_int_equal((rd(TRTE_INST_FEATURES) & TRTE_INST_IMPLICIT_RETURN_MODE_MASK) >>
					 TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT,
				 legal[m]);
	}
}

static void test_src_bits_warl(void **state)
{
	(void)state;
	release();
	for (uint32_t b = 0; b < 16; b++) {
		wr(TRTE_INST_FEATURES, b << TRTE_SRC_BITS_SHIFT | 1u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
		assert_int_equal(rd(TRTE_INST_FEATURES) >> TRTE_SRC_BITS_SHIFT, b > 12 ? 12 : b);
	}
}

static void test_src_id_rw(void **state)
{
	static const uint32_t ids[] = { 0, 1, 0x5A5, 0xFFF };

	(void)state;
	release();
	for (unsigned i = 0; i < 4; i++) {
		wr(TRTE_INST_FEATURES, ids[i] << TRTE_SRC_ID_SHIFT | 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
		assert_int_equal((rd(TRTE_INST_FEATURES) & TRTE_SRC_ID_MASK) >> TRTE_SRC_ID_SHIFT, ids[i]);
	}
}

/* ---- filters through the encoder ---------------------------------------- */

static void test_inst_filters_bits_3_0(void **state)
{
	(void)state;
	release();
	wr(TRTE_INST_FILTERS, 0xFFFFFFFFu);
	assert_int_equal(rd(TRTE_INST_FILTERS), 0xF);
	wr(TRTE_INST_FILTERS, 0x12);
	assert_int_equal(rd(TRTE_INST_FILTERS), 0x2);
	assert_int_equal(te.filters.inst_filters, 0x2);
}

static void test_filter_registers_reach_filter_model(void **state)
{
	(void)state;
	release();
	for (unsigned i = 0; i < TCI_NFILTERS; i++) {
		uint32_t base = TRTE_FILTER_BASE + i * TRTE_FILTER_STRIDE;

		wr(base + TRTE_FILTER_CONTROL, TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP1 | i << 5);
		wr(base + TRTE_FILTER_MATCH_INST, 1u << TCI_PRIV_U);
		assert_int_equal(rd(base + TRTE_FILTER_CONTROL), TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP1 | i << 5);
		assert_int_equal(rd(base + TRTE_FILTER_MATCH_INST), 1u << TCI_PRIV_U);
		assert_int_equal(te.filters.control[i], TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP1 | i << 5);
	}
	for (unsigned j = 0; j < TCI_NCOMPS; j++) {
		uint32_t base = TRTE_COMP_BASE + j * TRTE_COMP_STRIDE;

		wr(base + TRTE_COMP_CONTROL, 5u << TRTE_COMP_P_FUNCTION_SHIFT | 1u << TRTE_COMP_MATCH_MODE_SHIFT);
		wr(base + TRTE_COMP_PMATCH_LOW, 0x1000u + j);
		wr(base + TRTE_COMP_PMATCH_HIGH, 0xFFFFFFF0u + j);
		wr(base + TRTE_COMP_SMATCH_LOW, 0x2000u + j);
		wr(base + TRTE_COMP_SMATCH_HIGH, 0x10u + j);
		assert_int_equal(rd(base + TRTE_COMP_CONTROL),
				 5u << TRTE_COMP_P_FUNCTION_SHIFT | 1u << TRTE_COMP_MATCH_MODE_SHIFT);
		assert_int_equal(rd(base + TRTE_COMP_PMATCH_LOW), 0x1000u + j);
		assert_int_equal(rd(base + TRTE_COMP_PMATCH_HIGH), 0xFFFFFFF0u + j);
		assert_int_equal(rd(base + TRTE_COMP_SMATCH_LOW), 0x2000u + j);
		assert_int_equal(rd(base + TRTE_COMP_SMATCH_HIGH), 0x10u + j);
		assert_int_equal(te.filters.pmatch[j], (uint64_t)(0xFFFFFFF0u + j) << 32 | (0x1000u + j));
	}
}

/* Filters 4..15 and comparators 4..15 do not exist: read 0, ignore writes. */
static void test_filters_and_comparators_out_of_range(void **state)
{
	uint32_t regs[0x400], after[0x400];

	(void)state;
	release();
	configure_everything();
	snapshot(regs);
	for (uint32_t off = TRTE_FILTER_BASE + TCI_NFILTERS * TRTE_FILTER_STRIDE; off < TRTE_FILTER_END; off += 4)
		assert_int_equal(wr(off, 0xFFFFFFFFu), 0);
	for (uint32_t off = TRTE_COMP_BASE + TCI_NCOMPS * TRTE_COMP_STRIDE; off < TRTE_COMP_END; off += 4)
		assert_int_equal(wr(off, 0xFFFFFFFFu), 0);
	snapshot(after);
	assert_memory_equal(regs, after, sizeof(regs));
	for (uint32_t off = TRTE_FILTER_BASE + TCI_NFILTERS * TRTE_FILTER_STRIDE; off < TRTE_FILTER_END; off += 4)
		assert_int_equal(after[off / 4], 0);
	for (uint32_t off = TRTE_COMP_BASE + TCI_NCOMPS * TRTE_COMP_STRIDE; off < TRTE_COMP_END; off += 4)
		assert_int_equal(after[off / 4], 0);
}

/* ---- registers without function, reserved offsets ------------------------ */

static void test_data_and_trigger_registers_read_zero(void **state)
{
	static const uint32_t offs[] = { TRTE_DATA_CONTROL, TRTE_DATA_FILTERS, TRTE_TRIG_DBG_CONTROL,
					 TRTE_TRIG_EXT_IN_CONTROL, TRTE_TRIG_EXT_OUT_CONTROL };

	(void)state;
	release();
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(wr(offs[i], 0xFFFFFFFFu), 0);
		assert_int_equal(rd(offs[i]), 0);
	}
}

static void test_reserved_offsets_read_zero_ignore_writes(void **state)
{
	uint32_t regs[0x400], after[0x400];
	unsigned reserved = 0;

	(void)state;
	release();
	configure_everything();
	wr(TRTE_CONTROL, TRTE_ACTIVE | TRTE_ENABLE | MODE(3) | TRTE_CONTEXT);
	snapshot(regs);
	for (uint32_t off = 0; off < 0x1000; off += 4) {
		if (implemented(off))
			continue;
		reserved++;
		assert_int_equal(wr(off, 0xFFFFFFFFu), 0);
		assert_int_equal(rd(off), 0);
	}
	snapshot(after);
	assert_memory_equal(regs, after, sizeof(regs));
	/* 0x010-0x03C, 0x044, 0x050-0x3FC, the absent filter/comp registers,
	 * 0x800-0xDFC, 0xE0C, 0xE20-0xFFC: most of the window. */
	assert_true(reserved > 900);
}

/* ---- timestamp unit ------------------------------------------------------ */

static void test_ts_control_fields(void **state)
{
	(void)state;
	release();
	wr(TRTS_CONTROL, 0xFFFFFFFFu);
	/* Active, Count, Mode 2, Prescale 3, Enable, Width 56; Reset (W1),
	 * RunInDebug, reserved and vendor bits read 0. */
	assert_int_equal(rd(TRTS_CONTROL), TRTS_ACTIVE | TRTS_COUNT | 2u << TRTS_MODE_SHIFT |
						   3u << TRTS_PRESCALE_SHIFT | TRTS_ENABLE | TS_WIDTH_FIELD);
	wr(TRTS_CONTROL, TRTS_ACTIVE);
	assert_int_equal(rd(TRTS_CONTROL), TRTS_ACTIVE | TS_WIDTH_FIELD);
	for (uint32_t p = 0; p < 4; p++) {
		wr(TRTS_CONTROL, TRTS_ACTIVE | p << TRTS_PRESCALE_SHIFT);
		assert_int_equal((rd(TRTS_CONTROL) & TRTS_PRESCALE_MASK) >> TRTS_PRESCALE_SHIFT, p);
	}
}

static void test_ts_mode_warl(void **state)
{
	(void)state;
	release();
	for (uint32_t m = 0; m < 8; m++) {
		wr(TRTS_CONTROL, TRTS_ACTIVE | m << TRTS_MODE_SHIFT);
		assert_int_equal((rd(TRTS_CONTROL) & TRTS_MODE_MASK) >> TRTS_MODE_SHIFT,
				 m ? TRTS_MODE_INTERNAL_SYSTEM : TRTS_MODE_NONE);
	}
}

static void test_ts_width_is_56(void **state)
{
	(void)state;
	release();
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | 2u << TRTS_MODE_SHIFT);
	assert_int_equal((rd(TRTS_CONTROL) & TRTS_WIDTH_MASK) >> TRTS_WIDTH_SHIFT, 56);
	wr(TRTS_CONTROL, TRTS_ACTIVE | (0x3Fu << TRTS_WIDTH_SHIFT));   /* RO */
	assert_int_equal((rd(TRTS_CONTROL) & TRTS_WIDTH_MASK) >> TRTS_WIDTH_SHIFT, 56);
}

static uint64_t counter(void)
{
	return (uint64_t)rd(TRTS_COUNTER_HIGH) << 32 | rd(TRTS_COUNTER_LOW);
}

/* With Count, the counter follows `time` from the moment it started. */
static void test_ts_counter_counts_time(void **state)
{
	(void)state;
	release();
	now = 5000;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | 2u << TRTS_MODE_SHIFT);
	assert_int_equal(counter(), 0);
	now = 5234;
	assert_int_equal(counter(), 234);
	assert_int_equal(tci_encoder_timestamp(&te, now), 234);
	now = 5000 + 0x1234567890ull;
	assert_int_equal(rd(TRTS_COUNTER_HIGH), 0x12);
	assert_int_equal(rd(TRTS_COUNTER_LOW), 0x34567890u);
	/* The counter registers are read-only. */
	wr(TRTS_COUNTER_LOW, 0);
	wr(TRTS_COUNTER_HIGH, 0);
	assert_int_equal(counter(), 0x1234567890ull);
}

static void test_ts_count_zero_holds_counter(void **state)
{
	(void)state;
	release();
	now = 100;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	now = 150;
	wr(TRTS_CONTROL, TRTS_ACTIVE);               /* Count 1 -> 0 */
	assert_int_equal(counter(), 50);
	now = 10000;
	assert_int_equal(counter(), 50);
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);  /* resumes from 50 */
	now = 10010;
	assert_int_equal(counter(), 60);
}

static void test_ts_reset_w1(void **state)
{
	(void)state;
	release();
	now = 0;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	now = 500;
	assert_int_equal(counter(), 500);
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | TRTS_RESET);
	assert_int_equal(counter(), 0);
	assert_int_equal(rd(TRTS_CONTROL) & TRTS_RESET, 0);
	now = 520;
	assert_int_equal(counter(), 20);
	/* Writing 0 to Reset does nothing. */
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	assert_int_equal(counter(), 20);
	/* Reset while stopped: 0, and stays 0. */
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_RESET);
	now = 900;
	assert_int_equal(counter(), 0);
}

/* Prescale p divides `time` by 4^p. */
static void test_ts_prescale_divides_by_4_pow_p(void **state)
{
	(void)state;
	for (uint32_t p = 0; p < 4; p++) {
		uint64_t div = 1ull << (2 * p);

		tci_encoder_init(&te);
		release();
		now = 1000;
		wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | p << TRTS_PRESCALE_SHIFT);
		now = 1000 + 10 * div - 1;
		assert_int_equal(counter(), 9);
		now = 1000 + 10 * div;
		assert_int_equal(counter(), 10);
		now = 1000 + 1000 * div + div / 2;
		assert_int_equal(counter(), 1000);
	}
}

static void test_ts_prescale_change_keeps_value(void **state)
{
	(void)state;
	release();
	now = 0;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	now = 10;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | 2u << TRTS_PRESCALE_SHIFT);
	assert_int_equal(counter(), 10);
	now = 10 + 16 * 5;
	assert_int_equal(counter(), 15);
}

static void test_ts_counter_wraps_at_56_bits(void **state)
{
	(void)state;
	release();
	now = 0;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	now = (1ull << 56) - 1;
	assert_int_equal(rd(TRTS_COUNTER_HIGH), 0x00FFFFFFu);
	assert_int_equal(rd(TRTS_COUNTER_LOW), 0xFFFFFFFFu);
	now = (1ull << 56) + 3;
	assert_int_equal(rd(TRTS_COUNTER_HIGH), 0);
	assert_int_equal(rd(TRTS_COUNTER_LOW), 3);
	assert_int_equal(tci_encoder_timestamp(&te, now), 3);
}

/* trTsActive = 0 holds the unit in reset: counter 0, fields 0. */
static void test_ts_inactive_resets_unit(void **state)
{
	(void)state;
	release();
	now = 0;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | TRTS_ENABLE | 2u << TRTS_MODE_SHIFT);
	now = 77;
	assert_int_equal(counter(), 77);
	wr(TRTS_CONTROL, TRTS_COUNT | TRTS_ENABLE | 2u << TRTS_MODE_SHIFT);   /* Active 0 */
	assert_int_equal(rd(TRTS_CONTROL), TS_WIDTH_FIELD);
	assert_int_equal(counter(), 0);
	assert_false(tci_encoder_ts_enabled(&te));
	assert_int_equal(tci_encoder_timestamp(&te, now), 0);
	now = 200;
	assert_int_equal(counter(), 0);
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT);
	now = 205;
	assert_int_equal(counter(), 5);
}

/* Messages carry a TSTAMP with Active, Enable and mode 2 only. */
static void test_ts_enabled_needs_active_enable_mode(void **state)
{
	(void)state;
	release();
	for (uint32_t v = 0; v < 8; v++) {
		uint32_t ctl = (v & 1 ? TRTS_ACTIVE : 0) | (v & 2 ? TRTS_ENABLE : 0) |
			       (v & 4 ? 2u << TRTS_MODE_SHIFT : 0) | TRTS_COUNT;

		wr(TRTS_CONTROL, ctl);
		assert_int_equal(tci_encoder_ts_enabled(&te), v == 7);
	}
}

static void test_te_reset_resets_timestamp_unit(void **state)
{
	(void)state;
	release();
	now = 0;
	wr(TRTS_CONTROL, TRTS_ACTIVE | TRTS_COUNT | TRTS_ENABLE | 2u << TRTS_MODE_SHIFT);
	now = 40;
	wr(TRTE_CONTROL, 0);
	assert_int_equal(tci_encoder_timestamp(&te, now), 0);
	assert_false(tci_encoder_ts_enabled(&te));
	release();
	now = 90;
	assert_int_equal(rd(TRTS_CONTROL), TS_WIDTH_FIELD);
	assert_int_equal(counter(), 0);
}

/* ---- tracesbi registers 0xE00-0xE20 -------------------------------------- */

/* tsbiTeTvParams reads what the owner put there (XLEN/FLEN/MLEN bytes) and
 * ignores writes. */
static void test_tv_params_read_only(void **state)
{
	(void)state;
	release();
	te.tv_params = 8u << TSBI_TV_XLEN_SHIFT | 8u << TSBI_TV_FLEN_SHIFT | 8u << TSBI_TV_MLEN_SHIFT;
	wr(TSBI_TE_TV_PARAMS, 0);
	assert_int_equal(rd(TSBI_TE_TV_PARAMS), 0x080808);
}

static void test_ingress_register_bits(void **state)
{
	(void)state;
	release();
	wr(TSBI_TE_INGRESS, 0xFFFFFFFFu);
	assert_int_equal(rd(TSBI_TE_INGRESS), TSBI_INGRESS_ECALL_NO_RETIRE | TSBI_INGRESS_SINGLE_STEP |
					      TSBI_INGRESS_TV);
	wr(TSBI_TE_INGRESS, TSBI_INGRESS_SINGLE_STEP);
	assert_int_equal(rd(TSBI_TE_INGRESS), TSBI_INGRESS_SINGLE_STEP);
	wr(TSBI_TE_INGRESS, 0);
	assert_int_equal(rd(TSBI_TE_INGRESS), 0);
}

static void test_call_stack_warl(void **state)
{
	(void)state;
	release();
	assert_int_equal(rd(TSBI_TE_CALL_STACK), 32);
	for (uint32_t v = 1; v <= 32; v++) {
		wr(TSBI_TE_CALL_STACK, v);
		assert_int_equal(rd(TSBI_TE_CALL_STACK), v);
	}
	wr(TSBI_TE_CALL_STACK, 5);
	wr(TSBI_TE_CALL_STACK, 0);
	assert_int_equal(rd(TSBI_TE_CALL_STACK), 32);
	for (uint32_t v = 33; v < 64; v++) {
		wr(TSBI_TE_CALL_STACK, 5);
		wr(TSBI_TE_CALL_STACK, v);
		assert_int_equal(rd(TSBI_TE_CALL_STACK), 32);
	}
}

static void test_status_and_statistics_read_only(void **state)
{
	(void)state;
	release();
	te.status = TSBI_STATUS_INGRESS_OK | TSBI_STATUS_PAUSED | 2u << TSBI_STATUS_TRIGGERS_SHIFT;
	te.blocks = 0x0000000A00000003ull;
	te.insns = 0xFFFFFFFF12345678ull;
	for (uint32_t off = TSBI_TE_STATUS; off <= TSBI_TE_INSNS_HIGH; off += 4)
		assert_int_equal(wr(off, 0xFFFFFFFFu), 0);
	assert_int_equal(rd(TSBI_TE_STATUS), TSBI_STATUS_INGRESS_OK | TSBI_STATUS_PAUSED | 0x200u);
	assert_int_equal(rd(TSBI_TE_BLOCKS_LOW), 3);
	assert_int_equal(rd(TSBI_TE_BLOCKS_HIGH), 0xA);
	assert_int_equal(rd(TSBI_TE_INSNS_LOW), 0x12345678u);
	assert_int_equal(rd(TSBI_TE_INSNS_HIGH), 0xFFFFFFFFu);
	assert_int_equal(te.blocks, 0x0000000A00000003ull);
	assert_int_equal(rd(0xE0C), 0);
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_power_on_reads_zero_except_impl),
		T(test_reset_ignores_writes),
		T(test_impl_always_reads),
		T(test_release_sets_defaults),
		T(test_release_ignores_rest_of_write),
		T(test_reset_clears_everything),
		T(test_inst_mode_warl),
		T(test_control_fixed_fields),
		T(test_empty_follows_encoder_buffer),
		T(test_control_rw_fields),
		T(test_stall_overflow_rw1c),
		T(test_stall_overflow_cleared_when_enable_set),
		T(test_start_when_last_condition_set),
		T(test_stop_when_a_condition_cleared),
		T(test_stop_on_reset_while_tracing),
		T(test_no_effect_without_transition),
		T(test_writes_while_tracing_are_kept),
		T(test_features_rw_and_fixed_bits),
		T(test_implicit_return_mode_warl),
		T(test_src_bits_warl),
		T(test_src_id_rw),
		T(test_inst_filters_bits_3_0),
		T(test_filter_registers_reach_filter_model),
		T(test_filters_and_comparators_out_of_range),
		T(test_data_and_trigger_registers_read_zero),
		T(test_reserved_offsets_read_zero_ignore_writes),
		T(test_ts_control_fields),
		T(test_ts_mode_warl),
		T(test_ts_width_is_56),
		T(test_ts_counter_counts_time),
		T(test_ts_count_zero_holds_counter),
		T(test_ts_reset_w1),
		T(test_ts_prescale_divides_by_4_pow_p),
		T(test_ts_prescale_change_keeps_value),
		T(test_ts_counter_wraps_at_56_bits),
		T(test_ts_inactive_resets_unit),
		T(test_ts_enabled_needs_active_enable_mode),
		T(test_te_reset_resets_timestamp_unit),
		T(test_ingress_register_bits),
		T(test_tv_params_read_only),
		T(test_call_stack_warl),
		T(test_status_and_statistics_read_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

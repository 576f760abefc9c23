/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every hart's trace components from one hart, whatever HSM state their
 * owner is in (docs/TRACE.md, "Access rules"; TCI 1.0, "Accessing Trace
 * Control Registers": they must be accessible "independent of whether the
 * traced harts are running or halted").  From the boot hart: the TCI reset
 * sequence ("Reset and Discovery": write 0, read back until trTeActive /
 * trRamActive is 0, write 1, read back until it is 1), then every register
 * of every other hart's encoder and RAM sink -- reset values, defaults,
 * WARL read-back, writes that take effect, trRamData reads -- while the
 * other harts are STOPPED and were never started, STOPPED after a start
 * and a stop, SUSPENDED (retentive, non-retentive), running S-mode,
 * tracing, listed in the DT but never running, and held by the trace boot
 * option; traces programmed while their hart is stopped or suspended,
 * checked once it runs; harts accessing each other's components at once.
 *
 * A firmware that loses an access hangs the run: its timeout is the FAIL
 * line (scripts/run-target-tests.sh: runs tci, tci-icount, tci-absent,
 * held; under -icount the boot hart reaches S-mode before the others have
 * booted).
 */
#include "tci_regs.h"

/* "debug tools should monitor (with reasonable timeout)": reads of
 * tr??Control until Active reads back as written. */
#define ACTIVE_POLLS 1000
#define TRACE_WORDS  2048           /* each hart's SMEM trace buffer */
#define LONG_US      3000000        /* waits for another hart */
#define TV_PARAMS    0x080808u      /* XLEN, FLEN, MLEN: 8 bytes (QEMU rv64gc) */

static uint32_t tbufs[MAX_HARTS][TRACE_WORDS] __attribute__((aligned(64)));

static volatile bool release_harts;   /* ends the calls the secondaries park in */

static bool have_components(unsigned long h, uint64_t *enc, uint64_t *sink)
{
	*enc = trace_component_of(h, true);
	*sink = trace_component_of(h, false);
	return CHECK(*enc && *sink, "hart %lu: no encoder/sink in the DT", h);
}

static long hsm_state(unsigned long h)
{
	struct sbiret r = sbi_hart_status(h);

	return r.error ? r.error : r.value;
}

static bool others_in(long state, const char *when)
{
	bool ok = true;
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h != plat.boot_hart)
			ok &= CHECK_EQ(hsm_state(h), state, "hart %lu HSM state %s", h, when);
	}
	return ok;
}

/* ---- The registers of one hart's components --------------------------- */

/* Write `val` to tr??Control and read back until Active matches it. */
static bool set_active(uint64_t base, uint32_t val, const char *what, unsigned long h)
{
	int n;

	wr(base, TE_CONTROL, val);
	for (n = 0; n < ACTIVE_POLLS; n++)
		if ((rd(base, TE_CONTROL) & TE_ACTIVE) == (val & TE_ACTIVE))
			return true;
	return check_failed("hart %lu %s: Active did not read back %u", h, what, val & TE_ACTIVE);
}

static bool reset_both(uint64_t enc, uint64_t sink, unsigned long h)
{
	/* Encoder first (it flushes into the sink), then the sink. */
	return set_active(enc, 0, "trTeControl", h) && set_active(sink, 0, "trRamControl", h);
}

/* Release from reset: sinks first ("safer to power-up ... starting from
 * sinks"). */
static bool release_both(uint64_t enc, uint64_t sink, unsigned long h)
{
	return set_active(sink, RAM_ACTIVE, "trRamControl", h) &&
	       set_active(enc, TE_ACTIVE, "trTeControl", h);
}

static bool warl(uint64_t base, uint32_t off, uint32_t val, uint32_t want, unsigned long h,
		 const char *name)
{
	wr(base, off, val);
	return CHECK_EQ(rd(base, off), want, "hart %lu %s (+%#x) after writing %#x", h, name, off,
			val);
}

static const uint32_t te_regs[] = {
	TE_INST_FEATURES, TE_INST_FILTERS, TE_DATA_CONTROL, TE_DATA_FILTERS, TS_CONTROL,
	TS_COUNTER_LOW, TS_COUNTER_HIGH, TE_TRIG_DBG, TE_TRIG_EXT_IN, TE_TRIG_EXT_OUT,
	TE_FILTER(0) + FILTER_CONTROL, TE_FILTER(0) + FILTER_MATCH_INST,
	TE_FILTER(3) + FILTER_CONTROL, TE_COMP(0) + COMP_CONTROL, TE_COMP(0) + COMP_PMATCH_LOW,
	TE_COMP(3) + COMP_SMATCH_HIGH, TSBI_INGRESS, TSBI_CALL_STACK, TSBI_STATUS,
	TSBI_BLOCKS_LOW, TSBI_BLOCKS_HIGH, TSBI_INSNS_LOW, TSBI_INSNS_HIGH, TSBI_TV_PARAMS,
};

static const uint32_t ram_regs[] = {
	RAM_START_LOW, RAM_START_HIGH, RAM_LIMIT_LOW, RAM_LIMIT_HIGH, RAM_WP_LOW, RAM_WP_HIGH,
	RAM_RP_LOW, RAM_RP_HIGH, RAM_DATA,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Active = 0: Control reads its Empty bit, Impl its value, the rest 0
 * whatever is written. */
static void in_reset(uint64_t enc, uint64_t sink, unsigned long h)
{
	size_t i;

	CHECK_EQ(rd(enc, TE_CONTROL), TE_EMPTY, "hart %lu trTeControl in reset", h);
	CHECK_EQ(rd(sink, RAM_CONTROL), RAM_EMPTY, "hart %lu trRamControl in reset", h);
	CHECK_EQ(rd(enc, TE_IMPL), TE_IMPL_VALUE, "hart %lu trTeImpl in reset", h);
	CHECK_EQ(rd(sink, RAM_IMPL), RAM_IMPL_VALUE, "hart %lu trRamImpl in reset", h);
	for (i = 0; i < COUNT(te_regs); i++) {
		wr(enc, te_regs[i], 0xFFFFFFFFu);
		CHECK_EQ(rd(enc, te_regs[i]), 0, "hart %lu encoder +%#x in reset", h, te_regs[i]);
	}
	for (i = 0; i < COUNT(ram_regs); i++) {
		wr(sink, ram_regs[i], 0xFFFFFFFFu);
		CHECK_EQ(rd(sink, ram_regs[i]), 0, "hart %lu sink +%#x in reset", h, ram_regs[i]);
	}
}

/* The defaults of a release from reset (what was written in reset is gone). */
static void released(uint64_t enc, uint64_t sink, unsigned long h)
{
	uint32_t st;

	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED, "hart %lu trTeControl after release", h);
	CHECK_EQ(rd(enc, TE_INST_FEATURES), F_IR_MODE(3), "hart %lu trTeInstFeatures default", h);
	CHECK_EQ(rd(enc, TE_INST_FILTERS), 0, "hart %lu trTeInstFilters default", h);
	CHECK_EQ(rd(enc, TE_FILTER(2) + FILTER_CONTROL), 0, "hart %lu trTeFilter2Control default", h);
	CHECK_EQ(rd(enc, TE_COMP(1) + COMP_CONTROL), 0, "hart %lu trTeComp1Control default", h);
	CHECK_EQ(rd(enc, TS_CONTROL), TS_WIDTH(TS_WIDTH_BITS), "hart %lu trTsControl default", h);
	CHECK_EQ(rd(enc, TS_COUNTER_LOW), 0, "hart %lu trTsCounterLow default", h);
	CHECK_EQ(rd(enc, TSBI_INGRESS), 0, "hart %lu tsbiTeIngress default", h);
	CHECK_EQ(rd(enc, TSBI_CALL_STACK), 32, "hart %lu tsbiTeCallStack default", h);
	/* What the hart itself found at boot: two execute triggers. */
	st = rd(enc, TSBI_STATUS);
	CHECK_EQ(st & ~(uint32_t)(ST_STEPPING | ST_PAUSED | ST_LOST_TRACK),
		 ST_INGRESS_OK | QEMU_TRIGGERS << 8, "hart %lu tsbiTeStatus", h);
	CHECK_EQ(st & (ST_STEPPING | ST_PAUSED), 0, "hart %lu tsbiTeStatus run-time bits", h);
	CHECK_EQ(rd(enc, TSBI_TV_PARAMS), TV_PARAMS, "hart %lu tsbiTeTvParams", h);
	CHECK_EQ(rd(sink, RAM_CONTROL), RAM_ACTIVE | RAM_EMPTY, "hart %lu trRamControl after release",
		 h);
	CHECK_EQ(rd(sink, RAM_START_LOW), 0, "hart %lu trRamStartLow default", h);
	CHECK_EQ(rd(sink, RAM_LIMIT_LOW), SRAM_LIMIT, "hart %lu trRamLimitLow default", h);
	CHECK_EQ(rd(sink, RAM_LIMIT_HIGH), 0, "hart %lu trRamLimitHigh default", h);
	CHECK_EQ(rd(sink, RAM_WP_LOW), 0, "hart %lu trRamWPLow default", h);
	CHECK_EQ(rd(sink, RAM_RP_LOW), 0, "hart %lu trRamRPLow default", h);
}

static void encoder_control_warl(uint64_t enc, unsigned long h)
{
	static const uint32_t mode[8] = { 0, 3, 3, 3, 6, 6, 6, 6 };
	uint32_t base = TE_ACTIVE | TE_EMPTY | TE_FORMAT(1), v;

	for (v = 0; v < 8; v++)
		warl(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(v), base | TE_MODE(mode[v]), h,
		     "trTeInstMode");
	for (v = 0; v < 4; v++)
		warl(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_BTM) | TE_SYNC_MODE(v) | TE_SYNC_MAX(v * 5),
		     base | TE_MODE(MODE_BTM) | TE_SYNC_MODE(v) | TE_SYNC_MAX(v * 5), h,
		     "trTeInstSyncMode/Max");
	warl(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_CONTEXT | TE_INHIBIT_SRC,
	     base | TE_MODE(MODE_HTM) | TE_CONTEXT | TE_INHIBIT_SRC, h, "trTeControl Context/InhibitSrc");
	warl(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM) | TE_TRIG_ENABLE | TE_STALL_ENA |
	     TE_OVERFLOW | TE_FORMAT(3), base | TE_MODE(MODE_HTM), h, "trTeControl fixed bits");
}

static void encoder_warl(uint64_t enc, unsigned long h)
{
	uint32_t rw = F_SEQ_JUMP | F_IMPLICIT_RET | F_REPEATED_HIST | F_ALL_JUMPS | F_EXTEND_MSB, i;

	encoder_control_warl(enc, h);
	warl(enc, TE_INST_FEATURES, rw | F_IR_MODE(1) | F_SRC_ID(0xA5C) | F_SRC_BITS(15),
	     rw | F_IR_MODE(1) | F_SRC_ID(0xA5C) | F_SRC_BITS(12), h, "trTeInstFeatures");
	warl(enc, TE_INST_FEATURES, F_NO_ADDR_DIFF | F_NO_TRAP_ADDR | F_BRANCH_PRED | F_JUMP_CACHE,
	     F_IR_MODE(3), h, "trTeInstFeatures fixed bits");
	warl(enc, TE_INST_FILTERS, 0xFFFFFFFFu, 0xF, h, "trTeInstFilters");
	for (i = 0; i < 4; i++) {
		warl(enc, TE_FILTER(i) + FILTER_CONTROL, 0xFFFFFFFFu, 0x7773, h, "trTeFilterControl");
		warl(enc, TE_FILTER(i) + FILTER_MATCH_INST, 0xFFFFFFFFu, 0x3, h,
		     "trTeFilterMatchInst");
		warl(enc, TE_COMP(i) + COMP_CONTROL, 0xFFFFFFFFu, 0x3770, h, "trTeCompControl");
		warl(enc, TE_COMP(i) + COMP_PMATCH_LOW, 0x89ABCDE0u + i, 0x89ABCDE0u + i, h,
		     "trTeCompPMatchLow");
		warl(enc, TE_COMP(i) + COMP_PMATCH_HIGH, 0x0123456u + i, 0x0123456u + i, h,
		     "trTeCompPMatchHigh");
		warl(enc, TE_COMP(i) + COMP_SMATCH_LOW, 0xFEDCBA90u + i, 0xFEDCBA90u + i, h,
		     "trTeCompSMatchLow");
		warl(enc, TE_COMP(i) + COMP_SMATCH_HIGH, 0x7654321u + i, 0x7654321u + i, h,
		     "trTeCompSMatchHigh");
	}
	warl(enc, TE_FILTER(4) + FILTER_CONTROL, 0xFFFFFFFFu, 0, h, "filter 4 (not implemented)");
	warl(enc, TE_COMP(4) + COMP_CONTROL, 0xFFFFFFFFu, 0, h, "comparator 4 (not implemented)");
	for (i = 0; i < 8; i++)
		warl(enc, TSBI_INGRESS, i, i, h, "tsbiTeIngress");
	warl(enc, TSBI_INGRESS, 0xFFFFFFF8u, 0, h, "tsbiTeIngress reserved bits");
	warl(enc, TSBI_CALL_STACK, 0, 32, h, "tsbiTeCallStack 0");
	warl(enc, TSBI_CALL_STACK, 0xFFFFFFC5u, 5, h, "tsbiTeCallStack");
	warl(enc, TSBI_STATUS, 0, rd(enc, TSBI_STATUS), h, "tsbiTeStatus (RO)");
	warl(enc, TSBI_TV_PARAMS, 0, TV_PARAMS, h, "tsbiTeTvParams (RO)");
	warl(enc, TE_DATA_CONTROL, 0xFFFFFFFFu, 0, h, "trTeDataControl");
	warl(enc, TE_TRIG_EXT_OUT, 0xFFFFFFFFu, 0, h, "trTeTrigExtOutControl");
	warl(enc, 0x05C, 0xFFFFFFFFu, 0, h, "encoder reserved offset");
	warl(enc, 0xFFC, 0xFFFFFFFFu, 0, h, "encoder reserved offset");
}

/* The timestamp unit counts `time` once Count is set, holds without it. */
static void timestamp_counts(uint64_t enc, unsigned long h)
{
	uint32_t held;

	warl(enc, TS_CONTROL, TS_ACTIVE | TS_MODE(5) | TS_PRESCALE(2) | TS_ENABLE,
	     TS_WIDTH(TS_WIDTH_BITS) | TS_ACTIVE | TS_MODE(2) | TS_PRESCALE(2) | TS_ENABLE, h,
	     "trTsControl");
	wr(enc, TS_CONTROL, TS_ACTIVE | TS_MODE(2) | TS_RESET);
	CHECK_EQ(rd(enc, TS_COUNTER_LOW), 0, "hart %lu trTsCounterLow after Reset", h);
	wr(enc, TS_CONTROL, TS_ACTIVE | TS_MODE(2) | TS_COUNT | TS_RESET);
	delay_us(200);
	wr(enc, TS_CONTROL, TS_ACTIVE | TS_MODE(2));
	held = rd(enc, TS_COUNTER_LOW);
	CHECK(held >= us_to_ticks(200), "hart %lu trTsCounterLow %u after counting 200 us", h, held);
	CHECK_EQ(rd(enc, TS_COUNTER_HIGH), 0, "hart %lu trTsCounterHigh", h);
	delay_us(50);
	CHECK_EQ(rd(enc, TS_COUNTER_LOW), held, "hart %lu trTsCounterLow with Count = 0", h);
	wr(enc, TS_CONTROL, 0);
}

/* SMEM mode: Start/Limit/WP take an S-mode buffer, RP and Data read 0;
 * back to SRAM: its defaults. */
static void sink_smem_registers(uint64_t sink, unsigned long h)
{
	uint32_t b = (uint32_t)(uintptr_t)tbufs[0];

	warl(sink, RAM_CONTROL, RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP,
	     RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP | RAM_EMPTY, h, "trRamControl SMEM");
	warl(sink, RAM_START_HIGH, 0, 0, h, "trRamStartHigh");
	warl(sink, RAM_START_LOW, b + 3, b, h, "trRamStartLow");
	warl(sink, RAM_LIMIT_HIGH, 0, 0, h, "trRamLimitHigh");
	warl(sink, RAM_LIMIT_LOW, b + 0x7C, b + 0x7C, h, "trRamLimitLow");
	warl(sink, RAM_WP_HIGH, 0, 0, h, "trRamWPHigh");
	warl(sink, RAM_WP_LOW, b + 0x10, b + 0x10, h, "trRamWPLow");
	CHECK_EQ(rd(sink, RAM_RP_LOW), 0, "hart %lu trRamRPLow in SMEM mode", h);
	CHECK_EQ(rd(sink, RAM_DATA), 0, "hart %lu trRamData in SMEM mode", h);
	warl(sink, RAM_CONTROL, RAM_ACTIVE, RAM_ACTIVE | RAM_EMPTY, h, "trRamControl SRAM");
	CHECK_EQ(rd(sink, RAM_START_LOW), 0, "hart %lu trRamStartLow back in SRAM mode", h);
	CHECK_EQ(rd(sink, RAM_LIMIT_LOW), SRAM_LIMIT, "hart %lu trRamLimitLow back in SRAM mode", h);
	CHECK_EQ(rd(sink, RAM_WP_LOW), 0, "hart %lu trRamWPLow back in SRAM mode", h);
}

/* SRAM mode: Limit trims, WP stays within it, RP moves by a word per
 * trRamData read and wraps to Start after Limit; writes to the buffer's
 * registers are ignored while the sink is enabled. */
static void sink_sram_registers(uint64_t sink, unsigned long h)
{
	uint32_t w0, w1;

	warl(sink, RAM_LIMIT_LOW, 0x802, 0x800, h, "trRamLimitLow");
	warl(sink, RAM_WP_LOW, 0xFF0, 0x800, h, "trRamWPLow above Limit");
	warl(sink, RAM_WP_LOW, 0x10, 0x10, h, "trRamWPLow");
	warl(sink, RAM_RP_HIGH, 0xFFFFFFFFu, 0, h, "trRamRPHigh");
	warl(sink, RAM_RP_LOW, 0x20, 0x20, h, "trRamRPLow");
	w0 = rd(sink, RAM_DATA);
	w1 = rd(sink, RAM_DATA);
	CHECK_EQ(rd(sink, RAM_RP_LOW), 0x28, "hart %lu trRamRPLow after two trRamData reads", h);
	wr(sink, RAM_RP_LOW, 0x20);
	CHECK_EQ(rd(sink, RAM_DATA), w0, "hart %lu trRamData at 0x20 read again", h);
	CHECK_EQ(rd(sink, RAM_DATA), w1, "hart %lu trRamData at 0x24 read again", h);
	wr(sink, RAM_RP_LOW, 0x800);
	(void)rd(sink, RAM_DATA);
	CHECK_EQ(rd(sink, RAM_RP_LOW), 0, "hart %lu trRamRPLow after reading Data at Limit", h);
	warl(sink, RAM_CONTROL, RAM_ACTIVE | RAM_ENABLE | RAM_STOP_ON_WRAP,
	     RAM_ACTIVE | RAM_ENABLE | RAM_STOP_ON_WRAP | RAM_EMPTY, h, "trRamControl enabled");
	warl(sink, RAM_LIMIT_LOW, 0x400, 0x800, h, "trRamLimitLow while enabled");
	warl(sink, RAM_CONTROL, RAM_ACTIVE, RAM_ACTIVE | RAM_EMPTY, h, "trRamControl disabled");
	warl(sink, 0x008, 0xFFFFFFFFu, 0, h, "sink reserved offset");
	warl(sink, 0xFFC, 0xFFFFFFFFu, 0, h, "sink reserved offset");
}

/* Every register of hart h's encoder and sink, from this hart; both are
 * left in reset. */
static void check_components(unsigned long h)
{
	uint64_t enc, sink;

	if (!have_components(h, &enc, &sink) || !reset_both(enc, sink, h))
		return;
	in_reset(enc, sink, h);
	if (!release_both(enc, sink, h))
		return;
	released(enc, sink, h);
	encoder_warl(enc, h);
	timestamp_counts(enc, h);
	sink_smem_registers(sink, h);
	sink_sram_registers(sink, h);
	/* A reset undoes all of it. */
	if (reset_both(enc, sink, h) && release_both(enc, sink, h))
		released(enc, sink, h);
	reset_both(enc, sink, h);
}

static void check_others(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			check_components(plat.hart_ids[i]);
}

/* ---- Traces of other harts ---------------------------------------------- */

/* Hart h's sink in SMEM mode over tbufs[h] with stop on wrap, enabled,
 * and its encoder tracing (HTM), programmed from this hart. */
static bool trace_start(unsigned long h)
{
	uint32_t b = (uint32_t)(uintptr_t)tbufs[h], mode = RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP;
	uint64_t enc, sink;

	if (!have_components(h, &enc, &sink) || !reset_both(enc, sink, h) ||
	    !release_both(enc, sink, h))
		return false;
	memset(tbufs[h], 0x5A, sizeof(tbufs[h]));
	wr(sink, RAM_CONTROL, mode);
	wr(sink, RAM_START_HIGH, 0);
	wr(sink, RAM_START_LOW, b);
	wr(sink, RAM_LIMIT_HIGH, 0);
	wr(sink, RAM_LIMIT_LOW, b + (uint32_t)sizeof(tbufs[h]) - 4);
	wr(sink, RAM_WP_HIGH, 0);
	wr(sink, RAM_WP_LOW, b);
	wr(sink, RAM_CONTROL, mode | RAM_ENABLE);
	if (!CHECK_EQ(rd(sink, RAM_CONTROL), mode | RAM_ENABLE | RAM_EMPTY,
		      "hart %lu trRamControl after enabling", h))
		return false;
	wr(enc, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_MODE(MODE_HTM));
	wr(enc, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM));
	return CHECK_EQ(rd(enc, TE_CONTROL) & ~TE_EMPTY,
			TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM) | TE_FORMAT(1),
			"hart %lu trTeControl after starting", h);
}

/* Stops hart h's trace ("Set tr??Enable = 0 and wait for tr??Enable = 0
 * and tr??Empty = 1", encoder first) and checks what its sink holds: whole
 * messages, the first a ProgTraceSync (SYNC 5, trace enabled) at `first`
 * (0: anywhere in this payload), the last the ProgTraceCorrelation of the
 * stop (EVCODE 4); the rest of the buffer untouched.  Returns the bytes
 * written (0 when none); both components stay active. */
static size_t trace_stop_check(unsigned long h, uintptr_t first, const char *what)
{
	uint32_t b = (uint32_t)(uintptr_t)tbufs[h], wp, mode = RAM_ACTIVE | RAM_MODE_SMEM | RAM_STOP_ON_WRAP;
	const volatile uint8_t *bytes = (const volatile uint8_t *)tbufs[h];
	uint64_t enc, sink;
	struct msg m, last;
	size_t pos = 0, i;
	int count;

	if (!have_components(h, &enc, &sink))
		return 0;
	wr(enc, TE_CONTROL, TE_ACTIVE | TE_MODE(MODE_HTM));
	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED, "hart %lu trTeControl after Enable = 0 (%s)", h,
		 what);
	wr(sink, RAM_CONTROL, mode);
	CHECK_EQ(rd(sink, RAM_CONTROL), mode | RAM_EMPTY, "hart %lu trRamControl after Enable = 0 (%s)",
		 h, what);
	wp = rd(sink, RAM_WP_LOW);
	if (!CHECK(wp > b && wp <= b + sizeof(tbufs[h]) - 4 && !(wp & RAM_WRAP),
		   "hart %lu (%s): trRamWPLow %#x, buffer at %#x", h, what, wp, b))
		return 0;
	if (CHECK(next_msg(bytes, wp - b, &pos, &m), "hart %lu (%s): no complete message", h, what)) {
		CHECK_EQ(m.at, 0, "hart %lu (%s): offset of the first message", h, what);
		CHECK_EQ(m.tcode, TCODE_SYNC, "hart %lu (%s): TCODE of the first message", h, what);
		CHECK_EQ((m.seg[0] >> 6) & 0xF, SYNC_TRACE_ENABLE,
			 "hart %lu (%s): SYNC of the first message", h, what);
		if (first)
			CHECK_EQ(m.seg[1] << 1, first, "hart %lu (%s): F-ADDR of the first message", h,
				 what);
		else
			CHECK((m.seg[1] << 1) >= (uintptr_t)__image_start &&
			      (m.seg[1] << 1) < (uintptr_t)__image_end,
			      "hart %lu (%s): F-ADDR %#lx of the first message is not in this payload",
			      h, what, (unsigned long)(m.seg[1] << 1));
	}
	if (all_messages(bytes, wp - b, &count, &last, what)) {
		CHECK_EQ(last.tcode, TCODE_CORRELATION, "hart %lu (%s): TCODE of the last message", h,
			 what);
		CHECK_EQ((last.seg[0] >> 6) & 0xF, EVCODE_DISABLED,
			 "hart %lu (%s): EVCODE of the last message", h, what);
	}
	for (i = wp - b; i < sizeof(tbufs[h]); i++)
		if (!CHECK_EQ(bytes[i], 0x5A, "hart %lu (%s): byte %zu past trRamWP", h, what, i))
			break;
	return wp - b;
}

static void trace_reset(unsigned long h)
{
	reset_both(trace_component_of(h, true), trace_component_of(h, false), h);
}

static void not_stepping_at(unsigned long h, const char *when)
{
	CHECK_EQ(rd(trace_component_of(h, true), TSBI_STATUS) & ST_STEPPING, 0,
		 "hart %lu tsbiTeStatus.Stepping %s", h, when);
}

/* A trace programmed on a hart that does not run: not stepping, nothing
 * written yet. */
static void not_stepping(unsigned long h, const char *when)
{
	not_stepping_at(h, when);
	CHECK_EQ(rd(trace_component_of(h, false), RAM_WP_LOW), (uint32_t)(uintptr_t)tbufs[h],
		 "hart %lu trRamWPLow %s", h, when);
}

/* ---- Putting the other harts in a state --------------------------------- */

static long stop_call(unsigned long unused)
{
	(void)unused;
	irq_disable();
	return sbi_hart_stop().error;   /* returns only when the stop failed */
}

static bool stop_others(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h != plat.boot_hart)
			hart_post(h, stop_call, 0);
	}
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long last;

		if (h != plat.boot_hart &&
		    !CHECK(hart_wait_state(h, SBI_HSM_STATE_STOPPED, LONG_US, &last),
			   "hart %lu HSM state %ld after hart_stop", h, last))
			return false;
	}
	return true;
}

/* Suspends (only sie.SSIE on, so only an IPI wakes it) until release_harts;
 * a non-retentive suspend resumes at secondary_entry. */
static long suspend_call(unsigned long retentive)
{
	struct sbiret r;

	csr_write(sie, SIE_SSIE);
	if (!retentive) {
		r = sbi_hart_suspend(SBI_HSM_SUSPEND_NON_RET_DEFAULT, (uintptr_t)secondary_entry, 0);
		return r.error ? r.error : -100;
	}
	while (!release_harts) {
		r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);
		if (r.error)
			return r.error;
		irq_enable();   /* the SSI that woke it */
		irq_disable();
	}
	return 0;
}

static bool suspend_others(bool retentive)
{
	int i;

	release_harts = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h != plat.boot_hart)
			hart_post(h, suspend_call, retentive);
	}
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long last;

		if (h != plat.boot_hart &&
		    !CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, LONG_US, &last),
			   "hart %lu HSM state %ld after hart_suspend", h, last))
			return false;
	}
	return true;
}

/* Wakes the other harts (an IPI each) from suspend_call or busy_call and
 * waits until they are back in their mailbox loop. */
static void wake_others(void)
{
	unsigned long old[MAX_HARTS];
	int i;

	for (i = 0; i < plat.nharts; i++)
		old[i] = mailbox[plat.hart_ids[i]].entry.count;
	release_harts = true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long result = -1;

		if (h == plat.boot_hart)
			continue;
		sbi_send_ipi(1, h);
		if (CHECK(hart_wait(h, LONG_US, &result), "hart %lu did not come back", h) &&
		    mailbox[h].entry.count == old[i])
			CHECK_ERR(result, SBI_SUCCESS, "hart %lu's call", h);
	}
}

/* Runs S-mode code until release_harts: a busy loop, or with `idle` one
 * that waits for each interrupt (the firmware's IPIs included): under
 * -icount a spinning hart starves the others, and a traced one fills its
 * buffer. */
static long busy_call(unsigned long idle)
{
	volatile unsigned long n = 0;

	while (!release_harts) {
		n++;
		if (idle)
			wfi();
	}
	return 0;
}

static void busy_others(bool idle)
{
	int i;

	release_harts = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			hart_post(plat.hart_ids[i], busy_call, idle);
}

/* ---- Tests ------------------------------------------------------------------ */

/* The other harts were never started (the first test of a run that starts
 * none before it); false with an INFO line when they were. */
static bool others_never_started(void)
{
	int i;

	if (!plat.ntrace || plat.nharts < 2) {
		test_not_applicable(plat.ntrace ? "needs a second hart" : "no trace components");
		return false;
	}
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h != plat.boot_hart && mailbox[h].entry.count) {
			test_not_applicable("an earlier group started hart %lu", h);
			return false;
		}
	}
	return others_in(SBI_HSM_STATE_STOPPED, "before any hart_start");
}

static void never_started(void)
{
	if (!others_never_started())
		return;
	check_others();
	others_in(SBI_HSM_STATE_STOPPED, "after the accesses");
}

/* A trace programmed on a hart that was never started begins at its first
 * S-mode instruction (secondary_entry) once it is started. */
static void never_started_trace(void)
{
	long h = other_hart(0);
	unsigned long old;

	if (!others_never_started() || !trace_start((unsigned long)h))
		return;
	not_stepping((unsigned long)h, "before its hart_start");
	old = mailbox[h].entry.count;
	if (CHECK_ERR(sbi_hart_start((unsigned long)h, (uintptr_t)secondary_entry, 0).error,
		      SBI_SUCCESS, "hart_start(%ld)", h) &&
	    CHECK(hart_wait_entry((unsigned long)h, old, LONG_US), "hart %ld did not start", h))
		trace_stop_check((unsigned long)h, (uintptr_t)secondary_entry, "started after the setup");
	trace_reset((unsigned long)h);
}

static void stopped_after_start(void)
{
	if (!plat.ntrace || !need_secondaries() || !stop_others())
		return;
	check_others();
	others_in(SBI_HSM_STATE_STOPPED, "after the accesses");
	need_secondaries();
}

static void suspended(bool retentive)
{
	if (!plat.ntrace || !need_secondaries() || !suspend_others(retentive))
		return;
	check_others();
	if (others_in(SBI_HSM_STATE_SUSPENDED, "after the accesses"))
		wake_others();
	others_in(SBI_HSM_STATE_STARTED, "after the wake-up");
}

static void suspended_retentive(void)
{
	suspended(true);
}

static void suspended_non_retentive(void)
{
	suspended(false);
}

/* Traces programmed while their harts are suspended begin where each
 * resumes: after the ecall of hart_suspend (retentive), at the resume
 * address (non-retentive). */
static void suspended_trace(bool retentive)
{
	int i;

	if (!plat.ntrace || !need_secondaries() || !suspend_others(retentive))
		return;
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart && trace_start(plat.hart_ids[i]))
			not_stepping(plat.hart_ids[i], "while it is suspended");
	wake_others();
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h == plat.boot_hart)
			continue;
		trace_stop_check(h, retentive ? (uintptr_t)sbi_ecall_return : (uintptr_t)secondary_entry,
				 retentive ? "resumed from a retentive suspend"
					   : "resumed from a non-retentive suspend");
		trace_reset(h);
	}
}

static void suspended_retentive_trace(void)
{
	suspended_trace(true);
}

static void suspended_non_retentive_trace(void)
{
	suspended_trace(false);
}

/* The accessing hart has an S-mode interrupt pending and enabled in sie
 * (sstatus.SIE = 0): waiting for the owners must not end at once. */
static void accessor_interrupt_pending(void)
{
	unsigned long sie = csr_read(sie);

	if (!plat.ntrace || !need_secondaries())
		return;
	irq_disable();
	csr_write(sie, SIE_SSIE);
	sbi_send_ipi(1, plat.boot_hart);
	CHECK(csr_read(sip) & SIE_SSIE, "no SSIP pending after an IPI to this hart");
	check_others();
	CHECK(csr_read(sip) & SIE_SSIE, "SSIP no longer pending after the accesses");
	irq_enable();   /* the SSI, counted by the trap handler */
	irq_disable();
	csr_write(sie, sie);
}

/* Whether the first `n` bytes of hart h's buffer hold a ProgTraceSync at
 * `addr` from offset `from` on. */
static bool sync_at(unsigned long h, size_t from, size_t n, uintptr_t addr)
{
	const volatile uint8_t *bytes = (const volatile uint8_t *)tbufs[h];
	size_t pos = 0;
	struct msg m;

	while (next_msg(bytes, n, &pos, &m))
		if (m.at >= from && m.tcode == TCODE_SYNC && (m.seg[1] << 1) == addr)
			return true;
	return false;
}

static bool stop_one(unsigned long h)
{
	long last;

	hart_post(h, stop_call, 0);
	return CHECK(hart_wait_state(h, SBI_HSM_STATE_STOPPED, LONG_US, &last),
		     "hart %lu HSM state %ld after hart_stop", h, last);
}

static bool start_one(unsigned long h)
{
	unsigned long old = mailbox[h].entry.count;

	return CHECK_ERR(sbi_hart_start(h, (uintptr_t)secondary_entry, 0).error, SBI_SUCCESS,
			 "hart_start(%lu)", h) &&
	       CHECK(hart_wait_entry(h, old, LONG_US), "hart %lu did not start", h);
}

/* A hart traced while it runs stops (HSM) and starts again: the trace
 * waits while it is stopped and goes on at its first instruction. */
static void trace_across_stop(void)
{
	unsigned long h = (unsigned long)other_hart(0);
	uint32_t b = (uint32_t)(uintptr_t)tbufs[h], wp;
	size_t n;

	if (!plat.ntrace || !need_secondaries() || !trace_start(h) || !stop_one(h))
		return;
	CHECK_EQ(rd(trace_component_of(h, true), TE_CONTROL) & (TE_ENABLE | TE_INST_TRACING),
		 TE_ENABLE | TE_INST_TRACING, "hart %lu trTeControl while stopped", h);
	not_stepping_at(h, "while stopped");
	wp = rd(trace_component_of(h, false), RAM_WP_LOW);
	if (start_one(h) && (n = trace_stop_check(h, 0, "stopped and started while traced")))
		CHECK(sync_at(h, wp - b, n, (uintptr_t)secondary_entry),
		      "hart %lu: no ProgTraceSync at secondary_entry after trRamWP %#x of the stop", h,
		      wp);
	trace_reset(h);
}

/* A trace stopped while its hart is stopped ends there (whole messages,
 * the stop last) and stays stopped once the hart runs again. */
static void trace_stopped_while_stopped(void)
{
	unsigned long h = (unsigned long)other_hart(0);
	size_t n, i;

	if (!plat.ntrace || !need_secondaries() || !trace_start(h) || !stop_one(h))
		return;
	n = trace_stop_check(h, 0, "stopped while its hart is stopped");
	if (n && start_one(h)) {
		CHECK_EQ(rd(trace_component_of(h, true), TE_CONTROL), TE_RELEASED,
			 "hart %lu trTeControl once started", h);
		not_stepping_at(h, "once started");
		CHECK_EQ(rd(trace_component_of(h, false), RAM_WP_LOW), (uint32_t)(uintptr_t)tbufs[h] + n,
			 "hart %lu trRamWPLow once started", h);
		for (i = n; i < sizeof(tbufs[h]); i++)
			if (!CHECK_EQ(((volatile uint8_t *)tbufs[h])[i], 0x5A,
				      "hart %lu: byte %zu written after its start", h, i))
				break;
	}
	trace_reset(h);
}

static void running(void)
{
	if (!plat.ntrace || !need_secondaries())
		return;
	busy_others(run.icount);
	check_others();
	others_in(SBI_HSM_STATE_STARTED, "after the accesses");
	wake_others();
}

/* While the other harts trace (running S-mode, waiting for interrupts
 * between loop turns so their buffers do not fill): their registers read
 * what the running session has (Stepping, instructions counted), the
 * filters and the other registers a session does not fix take writes, the
 * buffer's registers do not; then the trace stops and every register is
 * checked again. */
static void tracing_registers(unsigned long h)
{
	uint64_t enc = trace_component_of(h, true), sink = trace_component_of(h, false);
	uint32_t b = (uint32_t)(uintptr_t)tbufs[h];

	CHECK(rd(enc, TSBI_STATUS) & ST_STEPPING, "hart %lu tsbiTeStatus %#x while tracing: not "
	      "stepping", h, rd(enc, TSBI_STATUS));
	CHECK_EQ(rd(enc, TE_CONTROL) & (TE_ENABLE | TE_INST_TRACING), TE_ENABLE | TE_INST_TRACING,
		 "hart %lu trTeControl while tracing", h);
	warl(enc, TE_FILTER(1) + FILTER_CONTROL, 0x11, 0x11, h, "trTeFilter1Control while tracing");
	warl(enc, TE_COMP(2) + COMP_PMATCH_LOW, 0x1234, 0x1234, h, "trTeComp2PMatchLow while tracing");
	warl(enc, TSBI_CALL_STACK, 9, 9, h, "tsbiTeCallStack while tracing");
	if (!CHECK(rd(sink, RAM_CONTROL) & RAM_ENABLE, "hart %lu trRamControl %#x while tracing: "
		   "not enabled (buffer full?)", h, rd(sink, RAM_CONTROL)))
		return;
	warl(sink, RAM_START_LOW, b + 0x40, b, h, "trRamStartLow while enabled");
	warl(sink, RAM_LIMIT_LOW, b + 0x40, b + (uint32_t)sizeof(tbufs[h]) - 4, h,
	     "trRamLimitLow while enabled");
	CHECK_EQ(rd(sink, RAM_CONTROL) & (RAM_ENABLE | RAM_MODE_SMEM), RAM_ENABLE | RAM_MODE_SMEM,
		 "hart %lu trRamControl while tracing", h);
	CHECK_EQ(rd(sink, RAM_DATA), 0, "hart %lu trRamData (SMEM) while tracing", h);
}

static void tracing(void)
{
	int i;

	if (!plat.ntrace || !need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			trace_start(plat.hart_ids[i]);
	busy_others(true);
	delay_us(500);
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h == plat.boot_hart)
			continue;
		tracing_registers(h);
		CHECK(rd(trace_component_of(h, true), TSBI_INSNS_LOW) > 0,
		      "hart %lu tsbiTeInsnsLow while tracing: 0", h);
		trace_stop_check(h, 0, "traced while running");
	}
	check_others();
	others_in(SBI_HSM_STATE_STARTED, "after the accesses");
	wake_others();
}

/* Each hart writes and reads the next one's encoder, and the boot hart's,
 * while the others do the same to it: requests cross. */
static volatile unsigned long cross_errors;

/* Hart `target`'s tsbiTeCallStack has one writer (this hart); every hart
 * writes the boot hart's trTeFilter0MatchInst. */
static long cross_call(unsigned long target)
{
	uint64_t enc = trace_component_of(target, true), boot = trace_component_of(plat.boot_hart, true);
	uint32_t i;

	for (i = 0; i < 200; i++) {
		uint32_t v = 1 + (i & 31);

		wr(enc, TSBI_CALL_STACK, v);
		wr(boot, TE_FILTER(0) + FILTER_MATCH_INST, i & 3);
		if (rd(enc, TSBI_CALL_STACK) != v)
			__atomic_fetch_add(&cross_errors, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static void cross_access(void)
{
	int i, n = plat.nharts;

	if (!plat.ntrace || !need_secondaries())
		return;
	for (i = 0; i < n; i++) {
		uint64_t enc = trace_component_of(plat.hart_ids[i], true);

		if (!CHECK(enc, "hart %lu: no encoder", plat.hart_ids[i]) ||
		    !set_active(enc, 0, "trTeControl", plat.hart_ids[i]) ||
		    !set_active(enc, TE_ACTIVE, "trTeControl", plat.hart_ids[i]))
			return;
	}
	cross_errors = 0;
	for (i = 0; i < n; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			hart_post(plat.hart_ids[i], cross_call, plat.hart_ids[(i + 1) % n]);
	cross_call(plat.hart_ids[(hart_index(plat.boot_hart) + 1) % n]);
	for (i = 0; i < n; i++) {
		unsigned long h = plat.hart_ids[i];

		if (h != plat.boot_hart)
			CHECK(hart_wait(h, LONG_US, NULL), "hart %lu did not finish its accesses", h);
	}
	CHECK_EQ(cross_errors, 0, "tsbiTeCallStack reads that did not return the value written");
	for (i = 0; i < n; i++)
		wr(trace_component_of(plat.hart_ids[i], true), TE_CONTROL, 0);
}

/* bootargs absent-hart=H: the DT lists hart H, which never runs (QEMU has
 * fewer harts than the DT).  Its components answer all the same; its
 * encoder cannot know the hart's triggers, so it reads as one that cannot
 * trace and refuses a start. */
static void absent_hart(void)
{
	unsigned long h = bootarg_ulong("absent-hart", ~0ul);
	uint64_t enc, sink;

	if (h == ~0ul) {
		test_not_applicable("no absent-hart= in bootargs");
		return;
	}
	if (!plat.ntrace || !have_components(h, &enc, &sink) ||
	    !CHECK_EQ(hsm_state(h), SBI_HSM_STATE_STOPPED, "hart %lu HSM state", h) ||
	    !reset_both(enc, sink, h))
		return;
	in_reset(enc, sink, h);
	if (!release_both(enc, sink, h))
		return;
	CHECK_EQ(rd(enc, TE_CONTROL), TE_RELEASED, "hart %lu trTeControl after release", h);
	CHECK_EQ(rd(enc, TSBI_STATUS), 0, "hart %lu tsbiTeStatus (no triggers known)", h);
	warl(enc, TSBI_CALL_STACK, 7, 7, h, "tsbiTeCallStack");
	warl(enc, TE_COMP(3) + COMP_SMATCH_LOW, 0xC0FFEE00u, 0xC0FFEE00u, h, "trTeComp3SMatchLow");
	timestamp_counts(enc, h);
	sink_smem_registers(sink, h);
	sink_sram_registers(sink, h);
	warl(sink, RAM_CONTROL, RAM_ACTIVE | RAM_ENABLE, RAM_ACTIVE | RAM_ENABLE | RAM_EMPTY, h,
	     "trRamControl enabled");
	warl(enc, TE_CONTROL, TE_ACTIVE | TE_ENABLE | TE_INST_TRACING | TE_MODE(MODE_HTM),
	     TE_RELEASED | TE_ENABLE, h, "trTeControl: a start refused");
	reset_both(enc, sink, h);
	CHECK_EQ(hsm_state(h), SBI_HSM_STATE_STOPPED, "hart %lu HSM state after the accesses", h);
}

static long shutdown_call(unsigned long unused)
{
	(void)unused;
	return sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_NONE).error;
}

/* bootargs tracesbi.trace=...,hold held-hart=H: hart H asks for a system
 * reset, and the boot option holds it there for good, with its trace
 * stopped (docs/TRACE.md, "Boot option"; `make trace` saves the buffers).
 * Its components answer the other harts all the same. */
static void held_hart(void)
{
	unsigned long h = bootarg_ulong("held-hart", ~0ul);

	if (h == ~0ul) {
		test_not_applicable("no held-hart= in bootargs");
		return;
	}
	if (!plat.ntrace || !need_secondaries())
		return;
	hart_post(h, shutdown_call, 0);
	/* Time to stop the traces and hold (no sign of it reaches S-mode). */
	delay_us(20000);
	CHECK(!hart_wait(h, 0, NULL), "hart %lu's system reset returned", h);
	check_components(h);
	CHECK_EQ(hsm_state(h), SBI_HSM_STATE_STARTED, "held hart %lu HSM state", h);
}

static const struct target_test tests[] = {
	/* First: the other harts have never been started. */
	{ "never_started", never_started, DEV_OPENSBI_NO_TRACE },
	{ "never_started_trace", never_started_trace, DEV_OPENSBI_NO_TRACE },
	{ "stopped_after_start", stopped_after_start, DEV_OPENSBI_NO_TRACE },
	{ "suspended_retentive", suspended_retentive, DEV_OPENSBI_NO_TRACE },
	{ "suspended_non_retentive", suspended_non_retentive, DEV_OPENSBI_NO_TRACE },
	{ "suspended_retentive_trace", suspended_retentive_trace, DEV_OPENSBI_NO_TRACE },
	{ "suspended_non_retentive_trace", suspended_non_retentive_trace, DEV_OPENSBI_NO_TRACE },
	{ "trace_across_stop", trace_across_stop, DEV_OPENSBI_NO_TRACE },
	{ "trace_stopped_while_stopped", trace_stopped_while_stopped, DEV_OPENSBI_NO_TRACE },
	{ "accessor_interrupt_pending", accessor_interrupt_pending, DEV_OPENSBI_NO_TRACE },
	{ "running", running, DEV_OPENSBI_NO_TRACE },
	{ "tracing", tracing, DEV_OPENSBI_NO_TRACE },
	{ "cross_access", cross_access, DEV_OPENSBI_NO_TRACE },
	{ "absent_hart", absent_hart, DEV_OPENSBI_NO_TRACE },
	{ "held_hart", held_hart, DEV_OPENSBI_NO_TRACE },
};
GROUP(tci, tests);

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The emulated trace encoder's registers (see tci_encoder.h and
 * docs/TRACE.md).  WARL choices: instruction modes 0 (off), 3 (BTM) and 6
 * (HTM); every periodic sync mode; N-Trace format only; no data trace, no
 * trigger inputs, no stall; the filter and comparator registers of
 * lib/tci/tci_filter.c; one timestamp unit counting the `time` CSR
 * ("Internal System").
 */
#include "firmware/trace/tci_encoder.h"

#define DEFAULT_CALL_STACK 32

/* trTeImpl: component version 1.0, type encoder, N-Trace protocol 1.0. */
#define TE_IMPL (1u | 0u << 4 | TRCOMP_ENCODER << 8 | 1u << TRTE_IMPL_PROTOCOL_MAJOR_SHIFT | \
		 0u << TRTE_IMPL_PROTOCOL_MINOR_SHIFT)

/* trTeControl bits kept as written (the others are fixed or computed). */
#define CONTROL_RW (TRTE_ENABLE | TRTE_INST_TRACING | TRTE_CONTEXT | TRTE_INHIBIT_SRC | \
		    TRTE_INST_SYNC_MODE_MASK | TRTE_INST_SYNC_MAX_MASK)

#define FEATURES_RW (TRTE_INST_EN_SEQUENTIAL_JUMP | TRTE_INST_EN_IMPLICIT_RETURN |      \
		     TRTE_INST_EN_REPEATED_HISTORY | TRTE_INST_EN_ALL_JUMPS |             \
		     TRTE_INST_EXTEND_ADDR_MSB | TRTE_SRC_ID_MASK)

static void reset_registers(struct tci_encoder *te)
{
	te->control = 0;
	/* What a write of 0 leaves (the TCI reset table writes 0 here). */
	te->inst_features = 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT;
	te->filters = (struct tci_filter_regs){ 0 };
	te->ts_control = 0;
	te->ts_held = 0;
	te->ts_since = 0;
	te->ingress = 0;
	te->call_stack = DEFAULT_CALL_STACK;
}

void tci_encoder_init(struct tci_encoder *te)
{
	reset_registers(te);
	te->empty = true;
	te->status = 0;
	te->blocks = 0;
	te->insns = 0;
	te->tv_params = 0;   /* the owner fills it in (a fact of the hart) */
}

bool tci_encoder_tracing(const struct tci_encoder *te)
{
	uint32_t on = TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING;

	return (te->control & on) == on && (te->control & TRTE_INST_MODE_MASK);
}

/* trTeInstMode: "When non-supported mode (different than 0) is set, it
 * cannot revert to 0 but MUST revert to supported non-0 mode." */
static uint32_t legal_inst_mode(uint32_t val)
{
	uint32_t mode = (val & TRTE_INST_MODE_MASK) >> TRTE_INST_MODE_SHIFT;

	if (mode == TRTE_INST_MODE_OFF || mode == TRTE_INST_MODE_BASELINE ||
	    mode == TRTE_INST_MODE_OPTIMIZED)
		return mode << TRTE_INST_MODE_SHIFT;
	if (mode < TRTE_INST_MODE_BASELINE)
		return TRTE_INST_MODE_BASELINE << TRTE_INST_MODE_SHIFT;
	return TRTE_INST_MODE_OPTIMIZED << TRTE_INST_MODE_SHIFT;
}

static uint32_t write_control(struct tci_encoder *te, uint32_t val)
{
	bool was = tci_encoder_tracing(te);
	uint32_t overflow = te->control & TRTE_INST_STALL_OR_OVERFLOW;

	if (!(val & TRTE_ACTIVE)) {
		/* Reset: a running trace is flushed first. */
		reset_registers(te);
		return was ? TE_FX_STOP : 0;
	}
	if (!(te->control & TRTE_ACTIVE)) {
		/* Release from reset: "This write will reset most of other
		 * enable/mode bits in this register and all WARL and read-only
		 * fields will be set to defaults." */
		reset_registers(te);
		te->control = TRTE_ACTIVE | TRTE_INST_MODE_OPTIMIZED << TRTE_INST_MODE_SHIFT |
			      TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT;
		return 0;
	}
	/* trTeInstStallOrOverflow is RW1C and clears when trace is enabled. */
	if (val & TRTE_INST_STALL_OR_OVERFLOW)
		overflow = 0;
	if ((val & TRTE_ENABLE) && !(te->control & TRTE_ENABLE))
		overflow = 0;
	te->control = TRTE_ACTIVE | (val & CONTROL_RW) | legal_inst_mode(val) | overflow |
		      TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT;
	if (!was && tci_encoder_tracing(te))
		return TE_FX_START;
	if (was && !tci_encoder_tracing(te))
		return TE_FX_STOP;
	return 0;
}

static uint32_t legal_features(uint32_t val)
{
	uint32_t mode = (val & TRTE_INST_IMPLICIT_RETURN_MODE_MASK) >> TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT;
	uint32_t bits = (val & TRTE_SRC_BITS_MASK) >> TRTE_SRC_BITS_SHIFT;

	/* Mode 0 ("not reporting") reads back as 3: full address compare. */
	if (!mode)
		mode = 3;
	if (bits > 12)
		bits = 12;
	return (val & FEATURES_RW) | mode << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT |
	       bits << TRTE_SRC_BITS_SHIFT;
}

/* ---- Timestamp unit: trTsCounter follows `time` >> 2*trTsPrescale. */

static unsigned ts_prescale(const struct tci_encoder *te)
{
	return (te->ts_control & TRTS_PRESCALE_MASK) >> TRTS_PRESCALE_SHIFT;
}

static uint64_t ts_counter(const struct tci_encoder *te, uint64_t now)
{
	uint64_t v;

	if (!(te->ts_control & TRTS_ACTIVE))
		return 0;
	v = te->ts_held;
	if (te->ts_control & TRTS_COUNT)
		v += (now - te->ts_since) >> (2 * ts_prescale(te));
	return v & ((1ull << TSBI_TS_WIDTH) - 1);
}

static void write_ts_control(struct tci_encoder *te, uint32_t val, uint64_t now)
{
	uint64_t cur = ts_counter(te, now);
	uint32_t mode = (val & TRTS_MODE_MASK) >> TRTS_MODE_SHIFT;

	if (!(val & TRTS_ACTIVE)) {
		te->ts_control = 0;
		te->ts_held = 0;
		te->ts_since = now;
		return;
	}
	/* One source: Internal System; any other non-zero mode reads as it. */
	if (mode)
		mode = TRTS_MODE_INTERNAL_SYSTEM;
	if (val & TRTS_RESET)
		cur = 0;
	te->ts_held = cur;
	te->ts_since = now;
	te->ts_control = TRTS_ACTIVE | (val & (TRTS_COUNT | TRTS_PRESCALE_MASK | TRTS_ENABLE)) |
			 mode << TRTS_MODE_SHIFT;
}

uint64_t tci_encoder_timestamp(const struct tci_encoder *te, uint64_t now)
{
	return ts_counter(te, now);
}

static uint32_t legal_call_stack(uint32_t val)
{
	val &= 0x3F;
	return val && val <= DEFAULT_CALL_STACK ? val : DEFAULT_CALL_STACK;
}

uint32_t tci_encoder_read(const struct tci_encoder *te, uint32_t off, uint64_t now)
{
	if (off == TRTE_CONTROL)
		return te->control | (te->empty ? TRTE_EMPTY : 0);
	if (off == TRTE_IMPL)
		return TE_IMPL;
	if (!(te->control & TRTE_ACTIVE))
		return 0;   /* in reset: the other registers read 0 */
	if (tci_filter_offset(off))
		return tci_filter_read(&te->filters, off);
	switch (off) {
	case TRTE_INST_FEATURES:
		return te->inst_features;
	case TRTS_CONTROL:
		return te->ts_control | (uint32_t)TSBI_TS_WIDTH << TRTS_WIDTH_SHIFT;
	case TRTS_COUNTER_LOW:
		return (uint32_t)ts_counter(te, now);
	case TRTS_COUNTER_HIGH:
		return (uint32_t)(ts_counter(te, now) >> 32);
	case TSBI_TE_INGRESS:
		return te->ingress;
	case TSBI_TE_CALL_STACK:
		return te->call_stack;
	case TSBI_TE_STATUS:
		return te->status;
	case TSBI_TE_BLOCKS_LOW:
		return (uint32_t)te->blocks;
	case TSBI_TE_BLOCKS_HIGH:
		return (uint32_t)(te->blocks >> 32);
	case TSBI_TE_INSNS_LOW:
		return (uint32_t)te->insns;
	case TSBI_TE_INSNS_HIGH:
		return (uint32_t)(te->insns >> 32);
	case TSBI_TE_TV_PARAMS:
		return te->tv_params;
	default:
		/* trTeDataControl (no data trace), trTeTrig* (no trigger
		 * inputs), reserved offsets. */
		return 0;
	}
}

uint32_t tci_encoder_write(struct tci_encoder *te, uint32_t off, uint32_t val, uint64_t now)
{
	if (off == TRTE_CONTROL)
		return write_control(te, val);
	if (!(te->control & TRTE_ACTIVE))
		return 0;
	if (tci_filter_offset(off)) {
		tci_filter_write(&te->filters, off, val);
		return 0;
	}
	switch (off) {
	case TRTE_INST_FEATURES:
		te->inst_features = legal_features(val);
		break;
	case TRTS_CONTROL:
		write_ts_control(te, val, now);
		break;
	case TSBI_TE_INGRESS:
		te->ingress = val & TSBI_INGRESS_MASK;
		break;
	case TSBI_TE_CALL_STACK:
		te->call_stack = legal_call_stack(val);
		break;
	default:
		break;
	}
	return 0;
}

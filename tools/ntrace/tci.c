// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trace Control Interface register values -> tool options (--tci), and the
 * qualification options -> filter registers (--trace-priv, --trace-range).
 *
 * Both mirror tracesbi: the codec options as config_from_registers() in
 * firmware/trace/engine.c derives the N-Trace encoder configuration from
 * trTeControl, trTeInstFeatures and trTsControl; the filter registers as
 * setup_filters() in tests/target/trace/kernel.c programs them.  So the tool
 * encodes a window of a traced run into the bytes the firmware wrote.
 */
#include <inttypes.h>
#include <string.h>

#include "ntrace_tool.h"
#include "tci_filter.h"
#include "tci_spec.h"

/* Call stack depth of the firmware's encoder at reset (tsbiTeCallStack). */
#define TCI_CALL_STACK_DEPTH 32

/* trTeInstFeatures bits this tool follows; others (NoAddrDiff, NoTrapAddr,
 * branch prediction, jump target cache, reserved) have no N-Trace encoding
 * in lib/ntrace. */
#define FEATURES_KNOWN (TRTE_INST_EN_SEQUENTIAL_JUMP | TRTE_INST_EN_IMPLICIT_RETURN | \
			TRTE_INST_IMPLICIT_RETURN_MODE_MASK | TRTE_INST_EN_REPEATED_HISTORY | \
			TRTE_INST_EN_ALL_JUMPS | TRTE_INST_EXTEND_ADDR_MSB | TRTE_SRC_ID_MASK | \
			TRTE_SRC_BITS_MASK)

static uint32_t field(uint32_t reg, uint32_t mask, unsigned shift)
{
	return (reg & mask) >> shift;
}

int nt_tool_config_from_tci(struct nt_tool_config *cfg, uint32_t control, uint32_t features,
			    uint32_t ts_control, struct nt_err *err)
{
	uint32_t mode = field(control, TRTE_INST_MODE_MASK, TRTE_INST_MODE_SHIFT);
	uint32_t format = field(control, TRTE_FORMAT_MASK, TRTE_FORMAT_SHIFT);
	uint32_t src_bits = field(features, TRTE_SRC_BITS_MASK, TRTE_SRC_BITS_SHIFT);
	uint32_t src_id = field(features, TRTE_SRC_ID_MASK, TRTE_SRC_ID_SHIFT);
	uint32_t ir_mode = field(features, TRTE_INST_IMPLICIT_RETURN_MODE_MASK,
				 TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
	uint32_t ts_on = TRTS_ACTIVE | TRTS_ENABLE;

	if (format != TRTE_FORMAT_NTRACE) {
		nt_err_set(err, "trTeControl 0x%" PRIx32 ": trTeFormat (bits 26:24) is %" PRIu32
			   ", not %u (N-Trace)", control, format, TRTE_FORMAT_NTRACE);
		return -1;
	}
	if (mode != TRTE_INST_MODE_BASELINE && mode != TRTE_INST_MODE_OPTIMIZED) {
		nt_err_set(err, "trTeControl 0x%" PRIx32 ": trTeInstMode (bits 6:4) is %" PRIu32
			   ", not %u (BTM) or %u (HTM)", control, mode, TRTE_INST_MODE_BASELINE,
			   TRTE_INST_MODE_OPTIMIZED);
		return -1;
	}
	if (features & ~FEATURES_KNOWN) {
		nt_err_set(err, "trTeInstFeatures 0x%" PRIx32 ": bits 0x%" PRIx32 " set (NoAddrDiff, "
			   "NoTrapAddr, EnBranchPrediction, EnJumpTargetCache or reserved bits), "
			   "which N-Trace or this tool do not support", features,
			   features & ~FEATURES_KNOWN);
		return -1;
	}
	if ((features & TRTE_INST_EN_IMPLICIT_RETURN) && ir_mode == 0) {
		nt_err_set(err, "trTeInstFeatures 0x%" PRIx32 ": EnImplicitReturn with "
			   "ImplicitReturnMode (bits 7:6) 0, which is reserved", features);
		return -1;
	}
	if (src_bits > NTRACE_MAX_SRC) {
		nt_err_set(err, "trTeInstFeatures 0x%" PRIx32 ": trTeSrcBits (bits 31:28) is %" PRIu32
			   ", more than %u", features, src_bits, NTRACE_MAX_SRC);
		return -1;
	}
	cfg->mode = mode == TRTE_INST_MODE_BASELINE ? NT_TOOL_BTM : NT_TOOL_HTM;
	cfg->mode_set = true;
	cfg->return_set = true;
	cfg->context = control & TRTE_CONTEXT;
	cfg->sync_mode = (uint8_t)field(control, TRTE_INST_SYNC_MODE_MASK, TRTE_INST_SYNC_MODE_SHIFT);
	cfg->sync_max = (uint8_t)field(control, TRTE_INST_SYNC_MAX_MASK, TRTE_INST_SYNC_MAX_SHIFT);
	cfg->sync_period = 0;
	cfg->seq_jump = features & TRTE_INST_EN_SEQUENTIAL_JUMP;
	if (features & TRTE_INST_EN_IMPLICIT_RETURN) {
		cfg->implicit_return_mode = ir_mode;
		cfg->callstack = TCI_CALL_STACK_DEPTH;
	} else {
		cfg->implicit_return_mode = 0;
		cfg->callstack = 0;
	}
	/* One control bit: repeated HIST in HTM, RepeatBranch in BTM. */
	cfg->repeat_history = features & TRTE_INST_EN_REPEATED_HISTORY;
	cfg->repeat_branch = features & TRTE_INST_EN_REPEATED_HISTORY;
	cfg->all_jumps = features & TRTE_INST_EN_ALL_JUMPS;
	cfg->ext_addr = features & TRTE_INST_EXTEND_ADDR_MSB;
	/* trTeInhibitSrc: no SRC field whatever trTeSrcBits says.  The writer
	 * sends the ID's low trTeSrcBits bits. */
	cfg->src_bits = control & TRTE_INHIBIT_SRC ? 0 : src_bits;
	cfg->src_id = cfg->src_bits ? src_id & ((1u << cfg->src_bits) - 1) : 0;
	cfg->src_id_set = false;
	cfg->src_bits_detected = false;
	/* The firmware's timestamp unit: Active, Enable, Mode 2 (Internal
	 * System); tci_encoder_ts_enabled(). */
	cfg->timestamp = (ts_control & ts_on) == ts_on &&
			 field(ts_control, TRTS_MODE_MASK, TRTS_MODE_SHIFT) == TRTS_MODE_INTERNAL_SYSTEM;
	return 0;
}

double nt_tool_ts_ticks_per_second(uint32_t ts_control, uint64_t timebase_hz)
{
	/* The firmware's unit counts the time CSR over 4^trTsPrescale (docs/TRACE.md). */
	unsigned prescale = field(ts_control, TRTS_PRESCALE_MASK, TRTS_PRESCALE_SHIFT);

	return (double)timebase_hz / (double)(1u << (2 * prescale));
}

void nt_tool_filter_regs(const struct nt_tool_config *cfg, struct tci_filter_regs *regs)
{
	uint32_t ctl = TRTE_FILTER_ENABLE;
	uint32_t f0 = TRTE_FILTER_BASE, c0 = TRTE_COMP_BASE;

	memset(regs, 0, sizeof(*regs));
	if (!cfg->trace_priv && !cfg->trace_range)
		return;         /* trTeInstFilters = 0: every S/U instruction */
	if (cfg->trace_priv) {
		ctl |= TRTE_FILTER_MATCH_PRIVILEGE;
		tci_filter_write(regs, f0 + TRTE_FILTER_MATCH_INST, cfg->trace_priv);
	}
	if (cfg->trace_range) {
		/* Comparator 0: iaddr >= start && iaddr < end (match mode 1, P && S). */
		uint32_t comp = TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT |
				TRTE_COMP_FN_LT << TRTE_COMP_S_FUNCTION_SHIFT |
				TRTE_COMP_MODE_P_AND_S << TRTE_COMP_MATCH_MODE_SHIFT;

		tci_filter_write(regs, c0 + TRTE_COMP_PMATCH_LOW, (uint32_t)cfg->range_start);
		tci_filter_write(regs, c0 + TRTE_COMP_PMATCH_HIGH, (uint32_t)(cfg->range_start >> 32));
		tci_filter_write(regs, c0 + TRTE_COMP_SMATCH_LOW, (uint32_t)cfg->range_end);
		tci_filter_write(regs, c0 + TRTE_COMP_SMATCH_HIGH, (uint32_t)(cfg->range_end >> 32));
		tci_filter_write(regs, c0 + TRTE_COMP_CONTROL, comp);
		ctl |= TRTE_FILTER_MATCH_COMP1;   /* comparator 0 */
	}
	tci_filter_write(regs, f0 + TRTE_FILTER_CONTROL, ctl);
	tci_filter_write(regs, TRTE_INST_FILTERS, 1);
}

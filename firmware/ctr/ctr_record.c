// SPDX-License-Identifier: BSD-2-Clause
/*
 * CTR's recording rule (Smctr/Ssctr 1.0, "Behavior"): which transfers
 * qualify, what a partial record holds, RAS emulation, freeze and the
 * cycle count of each record.  The draft v0.1.4 differs only in external
 * traps, which also need its ETEN bit.
 */
#include "firmware/ctr/ctr_model.h"

static bool mode_is_virtual(enum ctr_mode m)
{
	return m == CTR_MODE_VU || m == CTR_MODE_VS;
}

/* M, S, U enables of mctrctl/sctrctl; VS and VU are vsctrctl's S and U
 * (inline: every recorded transfer tests it). */
static inline __attribute__((always_inline)) bool mode_enabled(const struct ctr_state *s, enum ctr_mode m)
{
	switch (m) {
	case CTR_MODE_U:
		return s->mctrctl & CTRCTL_U;
	case CTR_MODE_S:
		return s->mctrctl & CTRCTL_S;
	case CTR_MODE_M:
		return s->mctrctl & CTRCTL_M;
	case CTR_MODE_VU:
		return s->vsctrctl & CTRCTL_U;
	default:
		return s->vsctrctl & CTRCTL_S;
	}
}

bool ctr_active(const struct ctr_state *s, enum ctr_mode m)
{
	return !s->frozen && mode_enabled(s, m);
}

/* "Virtualization Mode Transitions": every field but the enables, xTE and
 * the freeze bits comes from vsctrctl when either side has V=1. */
static uint64_t config_of(const struct ctr_state *s, const struct ctr_transfer *t)
{
	return mode_is_virtual(t->from) || mode_is_virtual(t->to) ? s->vsctrctl : s->mctrctl;
}

/* "Transfer Type Filtering": NTBREN opts in, the other bits opt out. */
static bool type_allowed(uint64_t cfg, enum ctr_type type)
{
	if (type == CTR_TYPE_NOT_TAKEN_BRANCH)
		return cfg & CTRCTL_NTBREN;
	return !(cfg & (1ULL << (32 + type)));
}

/* Privilege order of the external trap chain: VU < VS < HS(S) < M, and
 * U < S < M; a virtual source climbs through VS when it starts in VU. */
static unsigned int chain_rank(enum ctr_mode m)
{
	static const uint8_t rank[] = {
		[CTR_MODE_U] = 0, [CTR_MODE_VU] = 0, [CTR_MODE_VS] = 1,
		[CTR_MODE_S] = 2, [CTR_MODE_M] = 3,
	};
	return rank[m];
}

/* "External Traps": the xTE bit of the target and of every intervening
 * mode (table "External Trap Enable Requirements"); the draft also needs
 * ETEN of the configuration in use. */
static bool external_trap_enabled(const struct ctr_state *s, const struct ctr_transfer *t)
{
	unsigned int from = chain_rank(t->from), to = chain_rank(t->to), r;

	if (t->from == CTR_MODE_U)
		from = 1;   /* U skips VS: U -> S needs only sctrctl.STE */
	if (s->layout == CTR_LAYOUT_DRAFT && !(config_of(s, t) & DRAFT_CTL_ETEN))
		return false;
	for (r = from + 1; r <= to; r++) {
		bool te = r == 1 ? s->vsctrctl & CTRCTL_STE :
			  r == 2 ? s->mctrctl & CTRCTL_STE : s->mctrctl & CTRCTL_MTE;

		if (!te)
			return false;
	}
	return true;
}

uint16_t ctr_cc_encode(uint64_t cycles)
{
	unsigned int msb, cce;

	if (cycles < 4096)
		return (uint16_t)cycles;
	msb = 63u - (unsigned int)__builtin_clzll(cycles);
	cce = msb - 11u;
	if (cce > 15)
		return 0xFFFF;   /* saturated: all CCM and CCE bits set */
	return (uint16_t)(cce << 12 | ((cycles >> (cce - 1)) & 0xFFF));
}

void ctr_count_cycles(struct ctr_state *s, uint64_t n)
{
	s->cycles = s->cycles + n < s->cycles ? UINT64_MAX : s->cycles + n;
}

/* ctrdata of a new record; the counter restarts.  RASEMU records CCV=0:
 * the spec allows it, and a popped call's count would need carrying. */
static uint32_t take_cycle_data(struct ctr_state *s, enum ctr_type type, bool rasemu)
{
	uint32_t data = (uint32_t)type | (uint32_t)ctr_cc_encode(s->cycles) << CTRDATA_CC_SHIFT;

	if (s->cycles_valid && !rasemu)
		data |= CTRDATA_CCV;
	s->cycles = 0;
	s->cycles_valid = true;
	return data;
}

static void write_entry(struct ctr_state *s, unsigned int p, uint64_t source, uint64_t target,
			uint32_t data)
{
	s->source[p] = source | CTRSOURCE_V;
	s->target[p] = target & ~CTRTARGET_MISP;
	s->data[p] = data;
}

static void push(struct ctr_state *s, uint64_t source, uint64_t target, uint32_t data)
{
	unsigned int depth = ctr_depth(s);

	write_entry(s, s->wrptr, source, target, data);
	if (s->wrptr == depth - 1u)
		s->wrap = true;   /* draft WRAP: set on the increment past depth-1 */
	s->wrptr = (uint8_t)((s->wrptr + 1u) & (depth - 1u));
}

/* "RAS Emulation Mode": a return pops (WRPTR down, then that entry's V
 * cleared), a co-routine swap overwrites logical entry 0. */
static void pop(struct ctr_state *s)
{
	unsigned int depth = ctr_depth(s);

	if (s->wrptr == 0)
		s->wrap = false;
	s->wrptr = (uint8_t)((s->wrptr - 1u) & (depth - 1u));
	s->source[s->wrptr] &= ~CTRSOURCE_V;
}

static bool record_rasemu(struct ctr_state *s, const struct ctr_transfer *t)
{
	unsigned int depth = ctr_depth(s);

	switch (t->type) {
	case CTR_TYPE_INDIRECT_CALL:
	case CTR_TYPE_DIRECT_CALL:
		push(s, t->source, t->target, take_cycle_data(s, t->type, true));
		return true;
	case CTR_TYPE_FUNCTION_RETURN:
		pop(s);
		return true;
	case CTR_TYPE_CO_ROUTINE_SWAP:
		write_entry(s, (s->wrptr - 1u) & (depth - 1u), t->source, t->target,
			    take_cycle_data(s, t->type, true));
		return true;
	default:
		return false;
	}
}

/* "Privilege Mode Transitions", table "Trap and Trap Return Recording". */
static bool record_mode_change(struct ctr_state *s, const struct ctr_transfer *t, uint64_t cfg)
{
	bool from_on = mode_enabled(s, t->from), to_on = mode_enabled(s, t->to);
	uint64_t source = t->source, target = t->target;

	if (t->type == CTR_TYPE_TRAP_RETURN) {
		if (!from_on || !type_allowed(cfg, t->type))
			return false;
		if (!to_on)
			target = 0;
	} else if (from_on && !to_on) {
		/* External trap: does not depend on EXCINH/INTRINH. */
		if (!external_trap_enabled(s, t))
			return false;
		target = 0;
	} else {
		if (!to_on || !type_allowed(cfg, t->type))
			return false;
		if (!from_on)
			source = 0;
	}
	push(s, source, target, take_cycle_data(s, t->type, false));
	return true;
}

bool ctr_record(struct ctr_state *s, const struct ctr_transfer *t)
{
	uint64_t cfg = config_of(s, t);
	bool trap_or_return = t->type == CTR_TYPE_EXCEPTION || t->type == CTR_TYPE_INTERRUPT ||
			      t->type == CTR_TYPE_TRAP_RETURN;

	if (s->frozen || t->type == CTR_TYPE_NONE)
		return false;
	if (cfg & CTRCTL_RASEMU) {
		/* Other types inhibited; filters and xTE ignored. */
		return !trap_or_return && mode_enabled(s, t->from) && record_rasemu(s, t);
	}
	if (trap_or_return)
		return record_mode_change(s, t, cfg);
	if (!mode_enabled(s, t->from) || !type_allowed(cfg, t->type))
		return false;
	push(s, t->source, t->target, take_cycle_data(s, t->type, false));
	return true;
}

/* "Freeze": a breakpoint exception or an LCOFI trapping into M or S (VS:
 * vsctrctl's bits) sets FROZEN when BPFRZ / LCOFIFRZ say so. */
bool ctr_freeze_on_trap(struct ctr_state *s, bool interrupt, unsigned long code,
			enum ctr_mode to)
{
	uint64_t cfg = to == CTR_MODE_VS ? s->vsctrctl : s->mctrctl;
	bool freeze = interrupt ? code == 13 && (cfg & CTRCTL_LCOFIFRZ)
				: code == 3 && (cfg & CTRCTL_BPFRZ);

	if (freeze)
		s->frozen = true;
	return freeze;
}

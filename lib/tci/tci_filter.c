// SPDX-License-Identifier: BSD-2-Clause
/*
 * Trace encoder filters and comparators (Trace Control Interface 1.0,
 * "Trace Encoder Filter Registers"): WARL register model and per-instruction
 * qualification.
 *
 * Implemented: TCI_NFILTERS filters matching privilege (U, S) and up to
 * three comparators each; TCI_NCOMPS comparators on iaddr or context with
 * every function and match mode.  Not implemented (WARL 0): ecause,
 * interrupt, impdef, dtype and dsize matching, the tval and daddr inputs,
 * and the notify (watchpoint) bits.
 */
#include "tci_filter.h"

/* Privileges a filter can choose: the encoder only ever sees U and S
 * (M-mode is never traced, VS/VU are not traced by tracesbi). */
#define CHOICE_PRIV_SUPPORTED ((1u << TCI_PRIV_U) | (1u << TCI_PRIV_S))

#define FILTER_CONTROL_SUPPORTED                                                   \
	(TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE | TRTE_FILTER_MATCH_COMP1 |    \
	 TRTE_FILTER_MATCH_COMP2 | TRTE_FILTER_MATCH_COMP3)

bool tci_filter_offset(uint32_t off)
{
	return off == TRTE_INST_FILTERS || (off >= TRTE_FILTER_BASE && off < TRTE_COMP_END);
}

/* A comparator index field (3 bits) names one of TCI_NCOMPS comparators:
 * larger values keep their low bits (WARL, deterministic). */
static uint32_t legal_comp_field(uint32_t val, unsigned shift)
{
	return ((val >> shift) & (TCI_NCOMPS - 1)) << shift;
}

static uint32_t legal_filter_control(uint32_t val)
{
	return (val & FILTER_CONTROL_SUPPORTED) | legal_comp_field(val, TRTE_FILTER_COMP1_SHIFT) |
	       legal_comp_field(val, TRTE_FILTER_COMP2_SHIFT) |
	       legal_comp_field(val, TRTE_FILTER_COMP3_SHIFT);
}

/* Inputs: iaddr and context; tval and daddr are not implemented and read
 * back as iaddr. */
static uint32_t legal_input(uint32_t val, unsigned shift)
{
	uint32_t in = (val >> shift) & TRTE_COMP_INPUT_MASK;

	return (in == TRTE_COMP_INPUT_CONTEXT ? in : TRTE_COMP_INPUT_IADDR) << shift;
}

static uint32_t legal_comp_control(uint32_t val)
{
	return legal_input(val, TRTE_COMP_P_INPUT_SHIFT) | legal_input(val, TRTE_COMP_S_INPUT_SHIFT) |
	       (val & (TRTE_COMP_FUNCTION_MASK << TRTE_COMP_P_FUNCTION_SHIFT)) |
	       (val & (TRTE_COMP_FUNCTION_MASK << TRTE_COMP_S_FUNCTION_SHIFT)) |
	       (val & (TRTE_COMP_MATCH_MODE_MASK << TRTE_COMP_MATCH_MODE_SHIFT));
}

static uint32_t half(uint64_t v, bool high)
{
	return (uint32_t)(high ? v >> 32 : v);
}

static void set_half(uint64_t *v, bool high, uint32_t val)
{
	if (high)
		*v = (*v & 0xFFFFFFFFull) | (uint64_t)val << 32;
	else
		*v = (*v & ~0xFFFFFFFFull) | val;
}

uint32_t tci_filter_read(const struct tci_filter_regs *r, uint32_t off)
{
	unsigned i, reg;

	if (off == TRTE_INST_FILTERS)
		return r->inst_filters;
	if (off >= TRTE_FILTER_BASE && off < TRTE_FILTER_END) {
		i = (off - TRTE_FILTER_BASE) / TRTE_FILTER_STRIDE;
		reg = (off - TRTE_FILTER_BASE) % TRTE_FILTER_STRIDE;
		if (i >= TCI_NFILTERS)
			return 0;
		if (reg == TRTE_FILTER_CONTROL)
			return r->control[i];
		if (reg == TRTE_FILTER_MATCH_INST)
			return r->match_inst[i];
		return 0;
	}
	if (off >= TRTE_COMP_BASE && off < TRTE_COMP_END) {
		i = (off - TRTE_COMP_BASE) / TRTE_COMP_STRIDE;
		reg = (off - TRTE_COMP_BASE) % TRTE_COMP_STRIDE;
		if (i >= TCI_NCOMPS)
			return 0;
		switch (reg) {
		case TRTE_COMP_CONTROL:
			return r->comp_control[i];
		case TRTE_COMP_PMATCH_LOW:
		case TRTE_COMP_PMATCH_HIGH:
			return half(r->pmatch[i], reg == TRTE_COMP_PMATCH_HIGH);
		case TRTE_COMP_SMATCH_LOW:
		case TRTE_COMP_SMATCH_HIGH:
			return half(r->smatch[i], reg == TRTE_COMP_SMATCH_HIGH);
		default:
			return 0;
		}
	}
	return 0;
}

void tci_filter_write(struct tci_filter_regs *r, uint32_t off, uint32_t val)
{
	unsigned i, reg;

	if (off == TRTE_INST_FILTERS) {
		r->inst_filters = val & ((1u << TCI_NFILTERS) - 1);
		return;
	}
	if (off >= TRTE_FILTER_BASE && off < TRTE_FILTER_END) {
		i = (off - TRTE_FILTER_BASE) / TRTE_FILTER_STRIDE;
		reg = (off - TRTE_FILTER_BASE) % TRTE_FILTER_STRIDE;
		if (i >= TCI_NFILTERS)
			return;
		if (reg == TRTE_FILTER_CONTROL)
			r->control[i] = legal_filter_control(val);
		else if (reg == TRTE_FILTER_MATCH_INST)
			r->match_inst[i] = val & CHOICE_PRIV_SUPPORTED;
		return;
	}
	if (off >= TRTE_COMP_BASE && off < TRTE_COMP_END) {
		i = (off - TRTE_COMP_BASE) / TRTE_COMP_STRIDE;
		reg = (off - TRTE_COMP_BASE) % TRTE_COMP_STRIDE;
		if (i >= TCI_NCOMPS)
			return;
		switch (reg) {
		case TRTE_COMP_CONTROL:
			r->comp_control[i] = legal_comp_control(val);
			break;
		case TRTE_COMP_PMATCH_LOW:
		case TRTE_COMP_PMATCH_HIGH:
			set_half(&r->pmatch[i], reg == TRTE_COMP_PMATCH_HIGH, val);
			break;
		case TRTE_COMP_SMATCH_LOW:
		case TRTE_COMP_SMATCH_HIGH:
			set_half(&r->smatch[i], reg == TRTE_COMP_SMATCH_HIGH, val);
			break;
		default:
			break;
		}
	}
}

static unsigned field(uint32_t v, unsigned shift, uint32_t mask)
{
	return (v >> shift) & mask;
}

static uint8_t comps_needed(uint32_t control)
{
	uint8_t need = 0;

	if (control & TRTE_FILTER_MATCH_COMP1)
		need |= 1u << field(control, TRTE_FILTER_COMP1_SHIFT, TRTE_FILTER_COMP_MASK);
	if (control & TRTE_FILTER_MATCH_COMP2)
		need |= 1u << field(control, TRTE_FILTER_COMP2_SHIFT, TRTE_FILTER_COMP_MASK);
	if (control & TRTE_FILTER_MATCH_COMP3)
		need |= 1u << field(control, TRTE_FILTER_COMP3_SHIFT, TRTE_FILTER_COMP_MASK);
	return need;
}

void tci_qualifier_init(struct tci_qualifier *q, const struct tci_filter_regs *r)
{
	unsigned i, j;

	*q = (struct tci_qualifier){ .regs = *r };
	/* "If all bits are 0, all instructions are traced." */
	q->all = (r->inst_filters & ((1u << TCI_NFILTERS) - 1)) == 0;
	for (i = 0; i < TCI_NFILTERS; i++) {
		uint32_t c = r->control[i];

		/* A selected filter that is not enabled never matches. */
		if (!(r->inst_filters & (1u << i)) || !(c & TRTE_FILTER_ENABLE))
			continue;
		q->priv_mask[q->nfilters] = c & TRTE_FILTER_MATCH_PRIVILEGE
			? (uint8_t)(r->match_inst[i] & TRTE_FILTER_MATCH_CHOICE_PRIVILEGE_MASK)
			: 0xFF;
		q->comp_need[q->nfilters] = comps_needed(c);
		q->comps_used |= q->comp_need[q->nfilters];
		q->priv_traced |= q->priv_mask[q->nfilters];
		q->nfilters++;
	}
	if (q->all)
		q->priv_traced = 0xFF;
	q->per_instruction = q->comps_used != 0;
	/* Mode 3 with primary function 6: "Prime latch to 1". */
	for (j = 0; j < TCI_NCOMPS; j++) {
		uint32_t c = r->comp_control[j];

		if (field(c, TRTE_COMP_MATCH_MODE_SHIFT, TRTE_COMP_MATCH_MODE_MASK) == TRTE_COMP_MODE_LATCH &&
		    field(c, TRTE_COMP_P_FUNCTION_SHIFT, TRTE_COMP_FUNCTION_MASK) == TRTE_COMP_FN_6)
			q->latch |= 1u << j;
	}
}

/* "Comparisons are performed as unsigned numbers." */
static bool compare(unsigned fn, uint64_t in, uint64_t match)
{
	switch (fn) {
	case TRTE_COMP_FN_EQ: return in == match;
	case TRTE_COMP_FN_NE: return in != match;
	case TRTE_COMP_FN_LT: return in < match;
	case TRTE_COMP_FN_LE: return in <= match;
	case TRTE_COMP_FN_GT: return in > match;
	case TRTE_COMP_FN_GE: return in >= match;
	default: return false;
	}
}

static uint64_t comp_input(unsigned input, uint64_t iaddr, uint64_t context)
{
	return input == TRTE_COMP_INPUT_CONTEXT ? context : iaddr;
}

/* One comparator's output for one instruction (updates mode-3 latches). */
static bool comparator(struct tci_qualifier *q, unsigned j, uint64_t iaddr, uint64_t context)
{
	uint32_t c = q->regs.comp_control[j];
	unsigned pfn = field(c, TRTE_COMP_P_FUNCTION_SHIFT, TRTE_COMP_FUNCTION_MASK);
	unsigned sfn = field(c, TRTE_COMP_S_FUNCTION_SHIFT, TRTE_COMP_FUNCTION_MASK);
	uint64_t pin = comp_input(field(c, TRTE_COMP_P_INPUT_SHIFT, TRTE_COMP_INPUT_MASK), iaddr, context);
	uint64_t sin = comp_input(field(c, TRTE_COMP_S_INPUT_SHIFT, TRTE_COMP_INPUT_MASK), iaddr, context);
	uint8_t bit = (uint8_t)(1u << j);
	bool p, s;

	if (pfn == TRTE_COMP_FN_6)
		p = false;
	else if (pfn == TRTE_COMP_FN_TRUE)
		p = true;
	else if (sfn == TRTE_COMP_FN_6)   /* "Use trTeCompSMatch as a mask for trTeCompPMatch" */
		p = compare(pfn, pin & q->regs.smatch[j], q->regs.pmatch[j] & q->regs.smatch[j]);
	else
		p = compare(pfn, pin, q->regs.pmatch[j]);
	s = sfn >= TRTE_COMP_FN_6 || compare(sfn, sin, q->regs.smatch[j]);

	switch (field(c, TRTE_COMP_MATCH_MODE_SHIFT, TRTE_COMP_MATCH_MODE_MASK)) {
	case TRTE_COMP_MODE_P:
		return p;
	case TRTE_COMP_MODE_P_AND_S:
		return p && s;
	case TRTE_COMP_MODE_NOT_P_AND_S:
		return !(p && s);
	default:
		/* "Set when primary result is true and continue to assert until
		 * instruction after secondary result is true." */
		if (q->latch_clear & bit)
			q->latch &= (uint8_t)~bit;
		q->latch_clear &= (uint8_t)~bit;
		if (p)
			q->latch |= bit;
		if (s && (q->latch & bit))
			q->latch_clear |= bit;
		return (q->latch & bit) != 0;
	}
}

bool tci_qualify(struct tci_qualifier *q, uint64_t iaddr, unsigned priv, uint64_t context)
{
	uint8_t out = 0;
	unsigned i, j;
	bool hit = false;

	if (!q->per_instruction)
		return tci_qualify_priv(q, priv);
	/* Every comparator a filter uses is evaluated on every instruction, so
	 * latches see the whole instruction stream. */
	for (j = 0; j < TCI_NCOMPS; j++)
		if ((q->comps_used >> j) & 1 && comparator(q, j, iaddr, context))
			out |= (uint8_t)(1u << j);
	/* Filters are ORed; the conditions of one filter are ANDed. */
	for (i = 0; i < q->nfilters && !hit; i++)
		hit = (q->priv_mask[i] & (1u << priv)) && (q->comp_need[i] & out) == q->comp_need[i];
	return hit;
}

/*
 * One comparison over every input in [lo, hi] (lo <= hi): its value when
 * it is the same for all of them, else -1.  The order functions are
 * monotonic in the input; EQ and NE are constant unless match lies inside
 * (and the span is more than one value).
 */
static int compare_span(unsigned fn, uint64_t lo, uint64_t hi, uint64_t match)
{
	bool a = compare(fn, lo, match);

	if (lo == hi)
		return a;
	if (fn == TRTE_COMP_FN_EQ || fn == TRTE_COMP_FN_NE)
		return match < lo || match > hi ? a : -1;
	return a == compare(fn, hi, match) ? a : -1;
}

/* comparator() over the instructions [lo, hi] with one context, for the
 * modes that keep no state: its output when constant, else -1. */
static int comparator_span(const struct tci_qualifier *q, unsigned j, uint64_t lo, uint64_t hi,
			   uint64_t context)
{
	uint32_t c = q->regs.comp_control[j];
	unsigned pfn = field(c, TRTE_COMP_P_FUNCTION_SHIFT, TRTE_COMP_FUNCTION_MASK);
	unsigned sfn = field(c, TRTE_COMP_S_FUNCTION_SHIFT, TRTE_COMP_FUNCTION_MASK);
	bool pctx = field(c, TRTE_COMP_P_INPUT_SHIFT, TRTE_COMP_INPUT_MASK) == TRTE_COMP_INPUT_CONTEXT;
	bool sctx = field(c, TRTE_COMP_S_INPUT_SHIFT, TRTE_COMP_INPUT_MASK) == TRTE_COMP_INPUT_CONTEXT;
	uint64_t plo = pctx ? context : lo, phi = pctx ? context : hi;
	uint64_t slo = sctx ? context : lo, shi = sctx ? context : hi;
	int p, s;

	if (pfn == TRTE_COMP_FN_6)
		p = 0;
	else if (pfn == TRTE_COMP_FN_TRUE)
		p = 1;
	else if (sfn == TRTE_COMP_FN_6)   /* masked: not monotonic, one input only */
		p = plo == phi ? compare(pfn, plo & q->regs.smatch[j],
					 q->regs.pmatch[j] & q->regs.smatch[j]) : -1;
	else
		p = compare_span(pfn, plo, phi, q->regs.pmatch[j]);
	s = sfn >= TRTE_COMP_FN_6 ? 1 : compare_span(sfn, slo, shi, q->regs.smatch[j]);

	switch (field(c, TRTE_COMP_MATCH_MODE_SHIFT, TRTE_COMP_MATCH_MODE_MASK)) {
	case TRTE_COMP_MODE_P:
		return p;
	case TRTE_COMP_MODE_P_AND_S:
		return p == 0 || s == 0 ? 0 : p < 0 || s < 0 ? -1 : 1;
	case TRTE_COMP_MODE_NOT_P_AND_S:
		return p == 0 || s == 0 ? 1 : p < 0 || s < 0 ? -1 : 0;
	default:
		return -1;   /* mode 3 latches: instruction by instruction */
	}
}

enum tci_span tci_qualify_span(const struct tci_qualifier *q, uint64_t lo, uint64_t hi,
			       unsigned priv, uint64_t context)
{
	uint8_t out = 0;
	unsigned i, j;

	if (!q->per_instruction)
		return tci_qualify_priv(q, priv) ? TCI_SPAN_ALL : TCI_SPAN_NONE;
	if (lo > hi)
		return TCI_SPAN_MIXED;
	for (j = 0; j < TCI_NCOMPS; j++) {
		int v;

		if (!((q->comps_used >> j) & 1))
			continue;
		v = comparator_span(q, j, lo, hi, context);
		if (v < 0)
			return TCI_SPAN_MIXED;
		if (v)
			out |= (uint8_t)(1u << j);
	}
	for (i = 0; i < q->nfilters; i++)
		if ((q->priv_mask[i] & (1u << priv)) && (q->comp_need[i] & out) == q->comp_need[i])
			return TCI_SPAN_ALL;
	return TCI_SPAN_NONE;
}

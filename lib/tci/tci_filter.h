/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Trace qualification by the trace encoder's filters and comparators
 * (Trace Control Interface 1.0, "Trace Encoder Filter Registers"): which
 * retired instructions an instruction trace includes.
 *
 * The registers are kept as written (after WARL legalisation by
 * tci_filter_write); tci_qualifier_init() compiles them into a form that
 * answers "is this instruction traced?" per instruction, keeping the state
 * of comparators in match mode 3 (latch).  Freestanding: used by the
 * firmware's emulated encoder and by the host tool, so both qualify the
 * same instructions.
 */
#ifndef TCI_FILTER_H
#define TCI_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "tci_spec.h"

/* What this implementation offers (WARL: the other filters and comparators
 * read as 0 and ignore writes). */
#define TCI_NFILTERS 4
#define TCI_NCOMPS   4

/*
 * Privilege values at the ingress port as the filters see them (E-Trace
 * ingress "priv": 0 U, 1 S/HS, 3 M, 5 VU, 6 VS); bit N of
 * trTeFilterMatchChoicePrivilege selects value N.
 */
#define TCI_PRIV_U  0u
#define TCI_PRIV_S  1u
#define TCI_PRIV_M  3u
#define TCI_PRIV_VU 5u
#define TCI_PRIV_VS 6u

struct tci_filter_regs {
	uint32_t inst_filters;                 /* trTeInstFilters */
	uint32_t control[TCI_NFILTERS];        /* trTeFilter<i>Control */
	uint32_t match_inst[TCI_NFILTERS];     /* trTeFilter<i>MatchInst */
	uint32_t comp_control[TCI_NCOMPS];     /* trTeComp<j>Control */
	uint64_t pmatch[TCI_NCOMPS];           /* trTeComp<j>PMatch{Low,High} */
	uint64_t smatch[TCI_NCOMPS];           /* trTeComp<j>SMatch{Low,High} */
};

/* Register read/write of the filter and comparator ranges.  `off` is the
 * encoder register offset (0x00C, 0x400-0x7FF); other offsets read 0.  A
 * write keeps only what this implementation supports (WARL). */
uint32_t tci_filter_read(const struct tci_filter_regs *r, uint32_t off);
void tci_filter_write(struct tci_filter_regs *r, uint32_t off, uint32_t val);
bool tci_filter_offset(uint32_t off);   /* off belongs to these registers */

struct tci_qualifier {
	uint8_t nfilters;                 /* selected and enabled filters */
	bool all;                         /* no filter selected: all traced */
	bool per_instruction;             /* a comparator is involved */
	uint8_t priv_mask[TCI_NFILTERS];  /* 0xFF: privilege not matched */
	uint8_t comp_need[TCI_NFILTERS];  /* bit j: comparator j must be true */
	uint8_t comps_used;               /* comparators any filter needs */
	uint8_t latch;                    /* bit j: mode-3 latch of comparator j */
	uint8_t latch_clear;              /* bit j: latch ends after this insn */
	uint8_t priv_traced;              /* bit p: some filter takes privilege p */
	struct tci_filter_regs regs;
};

void tci_qualifier_init(struct tci_qualifier *q, const struct tci_filter_regs *r);

/* Is the instruction at iaddr, retired in privilege `priv` (TCI_PRIV_*)
 * with scontext `context`, traced?  Call once per instruction, in order
 * (mode-3 comparators keep state).  M-mode is left to the caller. */
bool tci_qualify(struct tci_qualifier *q, uint64_t iaddr, unsigned priv, uint64_t context);

/*
 * tci_qualify() for every instruction at an address in [lo, hi], all in
 * privilege priv with one context, without calling it on each: ALL when
 * every one is traced, NONE when none is, MIXED when that differs inside
 * the span or cannot be told without looking at each in order (a mode-3
 * latch, a masked compare of addresses).  Changes nothing.
 */
enum tci_span { TCI_SPAN_NONE, TCI_SPAN_ALL, TCI_SPAN_MIXED };

enum tci_span tci_qualify_span(const struct tci_qualifier *q, uint64_t lo, uint64_t hi,
			       unsigned priv, uint64_t context);

/* When !q->per_instruction the answer depends only on the privilege
 * (priv < 8: the TCI_PRIV_* values). */
static inline bool tci_qualify_priv(const struct tci_qualifier *q, unsigned priv)
{
	return (q->priv_traced >> priv) & 1;
}

#endif /* TCI_FILTER_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping: chains of predicted transfers.
 */
#ifndef TRACE_STEP_CHAIN_H
#define TRACE_STEP_CHAIN_H

#include <stdint.h>
#include "firmware/core/trap_regs.h"
#include "firmware/trace/stepper.h"

/*
 * After the visit's transfer, the runs that follow and their transfers are
 * predicted as far as the registers at the visit decide them: a direct
 * jump, or a branch or indirect jump whose source registers no run since
 * the visit may have written (a link written by a jump of the chain is
 * known).  The hart runs the whole chain natively with T0 at the end of its
 * last run: one visit for several transfers.  Segments never share an
 * address, so a trap inside the chain tells how far it ran (retire_upto()).
 */

/*
 * Extend the chain after the current segment (its run [s->start, cur->end),
 * after the transfer at visit_end whose link rd/link_val it wrote), in
 * s->chain.  Returns the block whose end T0 must mark.
 */
struct step_block *step_chain_extend(struct stepper *s, const struct trap_regs *regs,
				     uint64_t visit_end, unsigned int rd, uint64_t link_val,
				     struct step_block *cur);

/* (inline: single-stepping, which stays one visit an instruction, and a
 * block no chain goes on after need no call) */
static inline struct step_block *step_chain_from(struct stepper *s, const struct trap_regs *regs,
						 uint64_t visit_end, unsigned int rd,
						 uint64_t link_val, struct step_block *cur)
{
	s->chain_len = 0;
	s->chain_pos = 0;
	if (s->max_block == 1 || (cur->flags & BLOCK_CHAIN_STOP))
		return cur;
	return step_chain_extend(s, regs, visit_end, rd, link_val, cur);
}

#endif /* TRACE_STEP_CHAIN_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping: chains of predicted transfers, decided from the
 * registers at the visit and the block cache alone.
 */
#ifndef TRACE_STEP_CHAIN_H
#define TRACE_STEP_CHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_cache.h"
#include "firmware/trace/step_outcome.h"

/*
 * After the visit's transfer, the runs that follow and their transfers are
 * predicted as far as the registers at the visit decide them: a direct
 * jump, or a branch or indirect jump whose source registers no run since
 * the visit may have written (a link written by a jump of the chain is
 * known).  The hart runs the whole chain natively with T0 at the end of its
 * last run: one visit for several transfers.  Segments never share an
 * address, so a trap inside the chain tells how far it ran (retire_upto()).
 */

struct known_regs {
	const struct trap_regs *regs;   /* at the visit                      */
	uint32_t unknown;               /* bit n: xn written since           */
	unsigned int link;              /* the last link written, or 0       */
	uint64_t link_val;
};

static inline bool known_reg(const struct known_regs *k, unsigned int r, uint64_t *v)
{
	if (!r) {
		*v = 0;
		return true;
	}
	if ((k->unknown >> r) & 1)
		return false;
	*v = r == k->link ? k->link_val : k->regs->x[r];
	return true;
}

static inline void write_link(struct known_regs *k, unsigned int rd, uint64_t v)
{
	if (!rd)
		return;
	if (k->link && k->link != rd)
		k->unknown |= 1u << k->link;   /* one link is remembered */
	k->link = rd;
	k->link_val = v;
	k->unknown &= ~(1u << rd);
}

static inline bool overlaps(uint64_t lo, uint64_t hi, uint64_t a, uint64_t z)
{
	return lo <= z && a <= hi;
}

/*
 * Extend the chain after the current segment (its run [s->run.start, cur->end),
 * after the transfer at visit_end whose link rd/link_val it wrote), in
 * s->chain.  Returns the block whose end T0 must mark.  (In this header:
 * the common visit, its one caller, inlines it; out of line it cost CTR
 * recording 2 % a transfer, bench-ctr 699.5 -> 713.5.)
 */
static inline struct step_block *step_chain_extend(struct stepper *s,
						   const struct trap_regs *regs,
						   uint64_t visit_end, unsigned int rd,
						   uint64_t link_val, struct step_block *cur)
{
	struct known_regs k = { .regs = regs };
	uint64_t lo[STEP_CHAIN_MAX + 1], hi[STEP_CHAIN_MAX + 1];
	unsigned int nr = 1, i;

	write_link(&k, rd, link_val);
	lo[0] = s->run.start;
	hi[0] = cur->end;
	/* BLOCK_CHAIN_STOP: not a predicted transfer (ends_chain()), or one
	 * whose sources the run writes (unknown below anyway) */
	while (s->chain_len < STEP_CHAIN_MAX && !(cur->flags & BLOCK_CHAIN_STOP)) {
		uint64_t xend = cur->end, a = 0, c = 0, nn;
		uint8_t itype, size = cur->size;
		struct step_segment *g;
		struct step_block *nb;

		k.unknown |= cur->wmask;
		if (cur->op == EMU_BRANCH &&
		    (!known_reg(&k, cur->rs1, &a) || !known_reg(&k, cur->rs2, &c)))
			break;
		/* (9.1 for a jalr with no run before it looks at the held
		 * instruction: not predicted here) */
		if (cur->op == EMU_JALR &&
		    (!known_reg(&k, cur->rs1, &a) || (!cur->count && s->seq_jump)))
			break;
		if (!jump_target(s, cur, a, c, &nn, &itype))
			break;
		/* cur stays in the cache: T0 may have to mark its end */
		nb = cache_at(s, nn);
		if (nb == cur && nn != cur->start)
			break;
		nb = lookup_in(s, nb, nn, s->priv);
		if (is_lrsc(nb) || overlaps(nn, nb->end, visit_end, visit_end) ||
		    (s->t1_on && overlaps(nn, nb->end, s->t1, s->t1)))
			break;
		for (i = 0; i < nr && !overlaps(nn, nb->end, lo[i], hi[i]); i++)
			;
		if (i < nr)
			break;
		if (cur->op != EMU_BRANCH)
			write_link(&k, cur->rd, xend + size);
		g = &s->chain[s->chain_len++];
		g->xfer = (struct ntrace_retired){
			.addr = xend, .size = size, .itype = itype, .priv = s->priv,
			.flags = cur->flags & BLOCK_SEQ_INFERABLE ? NTRACE_REC_SEQ_INFERABLE : 0 };
		g->start = nn;
		g->end = nb->end;
		g->mask = nb->rvc_mask;
		g->count = nb->count;
		lo[nr] = nn;
		hi[nr++] = nb->end;
		cur = nb;
	}
	return cur;
}

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

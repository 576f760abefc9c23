// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block stepping: chains of predicted transfers (step_chain.h), decided
 * from the registers at the visit and the block cache alone.
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/step_chain.h"
#include "firmware/trace/step_cache.h"
#include "firmware/trace/step_outcome.h"

struct known_regs {
	const struct trap_regs *regs;   /* at the visit                      */
	uint32_t unknown;               /* bit n: xn written since           */
	unsigned int link;              /* the last link written, or 0       */
	uint64_t link_val;
};

static bool known_reg(const struct known_regs *k, unsigned int r, uint64_t *v)
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

static void write_link(struct known_regs *k, unsigned int rd, uint64_t v)
{
	if (!rd)
		return;
	if (k->link && k->link != rd)
		k->unknown |= 1u << k->link;   /* one link is remembered */
	k->link = rd;
	k->link_val = v;
	k->unknown &= ~(1u << rd);
}

static bool overlaps(uint64_t lo, uint64_t hi, uint64_t a, uint64_t z)
{
	return lo <= z && a <= hi;
}

struct step_block *step_chain_extend(struct stepper *s, const struct trap_regs *regs,
				     uint64_t visit_end, unsigned int rd, uint64_t link_val,
				     struct step_block *cur)
{
	struct known_regs k = { .regs = regs };
	uint64_t lo[STEP_CHAIN_MAX + 1], hi[STEP_CHAIN_MAX + 1];
	unsigned int nr = 1, i;

	write_link(&k, rd, link_val);
	lo[0] = s->start;
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

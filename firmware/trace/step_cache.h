/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping's block cache: the code ahead of the hart decoded into
 * blocks (a run of instructions that cannot change the flow, and the
 * instruction that ends it), direct-mapped, per hart (stepper.h, struct
 * step_block).  Reads S/U code through MPRV; writes nothing but the cache.
 */
#ifndef TRACE_STEP_CACHE_H
#define TRACE_STEP_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/stepper.h"

static inline bool is_lrsc(const struct step_block *b)
{
	return b->tag & STEP_TAG_LRSC;
}

/* mstatus for fetching code of privilege priv through MPRV. */
unsigned long step_fetch_context(unsigned int priv);
/* Whether an sfence.vma of the address va leaves every cached block as it
 * is: its leaf maps none of them. */
bool step_fence_spares_cache(const struct stepper *s, uint64_t va);
/* ... the instruction raw that just ran being that sfence.vma, with the
 * registers x it ran with. */
bool step_sfence_spares_cache(const struct stepper *s, uint32_t raw, const unsigned long *x);
/* Decode the block at pc, of privilege priv, into slot b. */
void step_scan_block(struct stepper *s, struct step_block *b, uint64_t pc, unsigned int priv);

static inline __attribute__((always_inline)) uint64_t cache_slot(const struct stepper *s, uint64_t pc)
{
	return ((pc >> 1) ^ (pc >> 13)) & s->cache_mask;   /* (no 32-bit truncation to pay) */
}

/* The slot of the block at pc.  A cached block sits in its own slot, so
 * two addresses share a slot when their slot pointers are equal. */
static inline __attribute__((always_inline)) struct step_block *cache_at(struct stepper *s,
									 uint64_t pc)
{
	return &s->cache[cache_slot(s, pc)];
}

/* The block at pc (b = its slot), decoded (on a miss) as code of
 * privilege priv. */
static inline __attribute__((always_inline)) struct step_block *
lookup_in(struct stepper *s, struct step_block *b, uint64_t pc, unsigned int priv)
{
	uint32_t tag = s->cache_gen | (priv & STEP_V);

	/* (the second compare only on a miss of the first) */
	if (b->start != pc || (b->tag != tag && (b->tag & ~STEP_TAG_FLAGS) != tag))
		step_scan_block(s, b, pc, priv);
	return b;
}

static inline __attribute__((always_inline)) struct step_block *lookup(struct stepper *s, uint64_t pc, unsigned int priv)
{
	return lookup_in(s, cache_at(s, pc), pc, priv);
}

#endif /* TRACE_STEP_CACHE_H */

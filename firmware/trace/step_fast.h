/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fast visit of block stepping: step_fast.S takes the common visit in
 * the steady state, step_fast.c is its C side (docs/TRACE.md, "The fast
 * visit").
 */
#ifndef TRACE_STEP_FAST_H
#define TRACE_STEP_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"

/* fast_end[]: with timestamps, an end that leaves a message waiting
 * (NTRACE_INLINE_PENDING, _DIRECT) also notes the time (fast_ptime). */
#define STEP_FAST_END_TS 0x10

/* The fast visit (step_fast.S) stops: the fields it kept as blocks are
 * written.  Every function of the stepper that looks at its state calls
 * it first (inline: a stepper that is not in the steady state pays a
 * test). */
void stepper_fast_unfold(struct stepper *s);

static inline void stepper_fast_leave(struct stepper *s)
{
	if (s->fast)
		stepper_fast_unfold(s);
}
/* Whether the session can take the fast visit, and its encoder's inline
 * ends (at the start of an N-Trace session). */
void stepper_fast_configure(struct trace_hart *th);
/* ... and for CTR recording without an N-Trace session. */
void stepper_fast_configure_ctr(struct trace_hart *th);
/* step_fast.S's calls into C: the encoder step of a visit it does not
 * count itself (n: the run of the block it is at; from held block
 * `first`, 1 or 2, on), and what the encoder left pending (an overflow)
 * after the visit. */
void stepper_fast_retire(struct trace_hart *th, unsigned int n, unsigned int first);
void stepper_fast_pending(struct trace_hart *th);
bool stepper_fast_resolve_ts(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			     uint64_t context);

/* How the filters take b and bn: wholly qualified by privilege, or by
 * their span (cache tags without STEP_TAG_SLOW or _OUT), inside the traced
 * part; or both left out whole (STEP_TAG_OUT) outside it, where the
 * encoder is stopped (the ingress reported leaving: reported_off). */
static inline __attribute__((always_inline)) bool
fast_qualified(const struct trace_hart *th, const struct step_block *b, const struct step_block *bn)
{
	const struct stepper *s = &th->step;
	uint32_t tags = b->tag | bn->tag;

	if ((th->block_privs >> s->priv) & 1)
		return !th->ingress.reported_off;
	if (!s->span_qual || (tags & STEP_TAG_SLOW))
		return false;
	if (!(tags & STEP_TAG_OUT))
		return !th->ingress.reported_off;
	return (b->tag & bn->tag & STEP_TAG_OUT) && th->ingress.reported_off;
}

/* The tag of the blocks the fast visit moves into, from the held one's
 * (fast_qualified()). */
static inline uint32_t fast_tag_of(const struct stepper *s, const struct step_block *b)
{
	return s->cache_gen | (b->tag & STEP_TAG_OUT);
}

/* th->flags' low four bytes (tracing, paused, overflow_now,
 * ctr_recording; little-endian) of the sessions the fast visit takes: an
 * N-Trace session alone, or CTR recording alone (every visit's records
 * then go to C, engine_block(): fast_end[] has no inline end). */
#define STEP_FAST_FLAGS_NTRACE 0x00000001u
#define STEP_FAST_FLAGS_CTR    0x01000000u

/* Whether the session is one the fast visit takes, and for N-Trace, with
 * its encoder where the fast visit can count (see fast_enters()). */
static inline __attribute__((always_inline)) bool
fast_session(const struct trace_hart *th, const struct step_block *b, const struct step_block *bn)
{
	const struct stepper *s = &th->step;
	const struct ntrace_ingress *in = &th->ingress;
	uint32_t flags = (uint32_t)th->flags;

	if (flags == STEP_FAST_FLAGS_NTRACE)
		return (s->fast_allowed == STEP_FAST_ALWAYS ||
			(s->fast_allowed == STEP_FAST_SAME_OWNER &&
			 th->enc.run.cur_priv == s->priv && th->enc.run.cur_context == 0)) &&
		       fast_qualified(th, b, bn) && in->tracing && in->any;
	return flags == STEP_FAST_FLAGS_CTR && s->fast_allowed == STEP_FAST_ALWAYS;
}

/* Whether the common visit just made (b's run and end held, and pending
 * unless the firmware ran it, T0 to go to bn's end) leaves the stepper
 * where the fast visit takes over: the held run is b's whole run (with
 * b's end as its end when that ran), the encoder's records are all
 * qualified by privilege, and nothing the fast visit does not look at is
 * pending.  With trTeContext, the encoder is in the hart's privilege and
 * context (the stepper's records carry context 0) and stays there: the
 * fast visit never changes privilege, so its records need no Ownership.
 * With address comparators, b and bn are qualified whole (STEP_TAG_SLOW
 * clear), and the fast visit moves only into such blocks.  CTR recording
 * alone takes it too, every record going to C (fast_session()).  Never in
 * V=1; outside it, a stepper that follows the hart into V=1 (CTR) sees
 * every way there (an sret, which the fast visit never runs; a trap to M
 * returns where it came from), so T0 fires in HS or U. */
static inline __attribute__((always_inline)) bool
fast_enters(const struct trace_hart *th, const struct step_block *b, const struct step_block *bn)
{
	const struct stepper *s = &th->step;

	return !th->start_pending && s->held.whole &&
	       s->held.kind == (s->pend ? HELD_LAST : HELD_RECORD) && s->held.start == b->start &&
	       s->held.count == b->count && s->held.count && !(s->priv & STEP_V) &&
	       bn->end != s->t1 && fast_session(th, b, bn);
}

#endif /* TRACE_STEP_FAST_H */

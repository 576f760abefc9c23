// SPDX-License-Identifier: BSD-2-Clause
/*
 * The fast visit's C side: its state (struct stepper, `fast`) unfolded
 * into the held records, its configuration, and what step_fast.S calls.
 */
#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_fast.h"
#include "firmware/emu/time_csr.h"

/*
 * step_fast.S takes the common visit while the stepper is in its steady
 * state: T0 at the end of block `blk`, whose run the hart ran, and before
 * it what t0_common_hit() holds and keeps pending, which the fast visit
 * keeps as the blocks it came from (struct stepper, `fast`):
 *   PENDING: the whole held run is fast_h1's run (not empty), and
 *            fast_h1's end, which retired with itype fast_it1, is the
 *            pending transfer;
 *   TWO:     the whole held run is fast_h1's run (maybe empty) with its
 *            end as its end (HELD_RECORD), and the pending transfer is
 *            fast_h2's end, whose run is empty;
 *   RAN:     the whole held run is fast_h1's run with its end as its end,
 *            and nothing is pending: the firmware ran that end, a branch
 *            back into a block that ends at it again (a loop,
 *            loop_visit()).
 * A visit at a block with a run sends what fast_h1 (and fast_h2) hold to
 * the encoder and holds the block (PENDING, or RAN for a loop); a visit at
 * a block without a run holds it as fast_h2 (TWO), sending fast_h1 first
 * if fast_h2 was there.  These are the records, in the order, that
 * retire_whole() and loop_visit() give the encoder.  Its counting, which
 * is most visits, is done in assembly (ntrace_enc_inline_end()); anything
 * else comes here (stepper_fast_retire()).  The fast visit never predicts
 * a chain: one visit costs less than a chained segment does here.
 *
 * Block stepping enters the steady state at the end of t0_common_hit()
 * (fast_enters()), and any other path of the stepper leaves it first
 * (stepper_fast_leave()), so the fast visit only runs when nothing but
 * itself has changed the stepper since the common visit, and a visit it
 * cannot take (a miss, a loop, another end, a trap) goes to
 * trace_trap_enter(), which leaves it.
 */

/* The record of the transfer that ends q, which retired with itype: what
 * step_outcome() makes of it in a fast session (fast_op_of()). */
static struct ntrace_retired fast_record(const struct stepper *s, const struct step_block *q,
					 uint8_t itype)
{
	return (struct ntrace_retired){
		.addr = q->end, .size = q->size, .itype = itype, .tstamp = s->tstamp,
		.priv = s->priv,
		.flags = q->flags & BLOCK_SEQ_INFERABLE ? NTRACE_REC_SEQ_INFERABLE : 0 };
}

/* With timestamps: the time of this visit, which the records the fast
 * visit sends or leaves held carry, and the time of the message it left
 * waiting, if any (docs/TRACE.md, "Timestamps"). */
static __attribute__((noinline)) void fast_timestamp_read(struct trace_hart *th)
{
	struct stepper *s = &th->step;

	s->tstamp = engine_timestamp(th);
	if (s->fast_ptime) {
		th->enc.run.pending_tstamp = engine_timestamp_at(th, s->fast_ptime);
		s->fast_ptime = 0;
	}
}

static inline __attribute__((always_inline)) void fast_timestamp(struct trace_hart *th)
{
	if (tci_encoder_ts_enabled(&th->te))
		fast_timestamp_read(th);
	else
		th->step.fast_ptime = 0;   /* (turned off since) */
}

/* The records stepper_fast_unfold() wrote carry this visit's time (out
 * of line: a session without timestamps does not make the unfold a frame). */
static __attribute__((noinline)) void fast_timestamp_unfolded(struct trace_hart *th)
{
	struct stepper *s = &th->step;

	fast_timestamp_read(th);
	s->held.tstamp = s->tstamp;
	s->held.rec.tstamp = s->tstamp;
	s->run.xfer.tstamp = s->tstamp;
}

void stepper_fast_unfold(struct stepper *s)
{
	struct trace_hart *th = trace_hart_of_step(s);
	const struct step_block *q = s->fast_h1, *b = s->blk;

	held_run_set(&s->held, q->start, q->end, q->rvc_mask, q->count, s->priv, 0, true);
	if (s->fast != STEP_FAST_PENDING)
		s->held.kind = HELD_RECORD;
	s->pend = s->fast != STEP_FAST_RAN;
	if (s->held.kind == HELD_RECORD)
		s->held.rec = fast_record(s, q, s->fast_it1);
	if (s->fast == STEP_FAST_TWO)
		s->run.xfer = fast_record(s, s->fast_h2, s->fast_it2);
	else if (s->fast == STEP_FAST_PENDING)
		s->run.xfer = fast_record(s, q, s->fast_it1);
	step_set_run(s, b->start, b->count, b->rvc_mask, b->end);
	s->fast = 0;
	if (tci_encoder_ts_enabled(&th->te))
		fast_timestamp_unfolded(th);
	else
		s->fast_ptime = 0;   /* (turned off since) */
}

/* How step_fast.S counts an end that retired with itype.  With
 * timestamps, an end that leaves a message waiting notes the raw time
 * too (the message's TSTAMP is its record's, fast_timestamp()). */
static unsigned int fast_end_of(const struct trace_hart *th, unsigned int itype, bool time_source)
{
	enum ntrace_inline_end how = ntrace_enc_inline_end(&th->enc, itype);

	if (!th->cfg.trTsEnable || (how != NTRACE_INLINE_PENDING && how != NTRACE_INLINE_DIRECT))
		return how;
	/* (no time to read: C takes the end) */
	return time_source ? how | STEP_FAST_END_TS : NTRACE_INLINE_NO;
}

/* ntrace_enc_resolve_jump() for step_fast.S with timestamps: the message
 * waiting may be one it left, whose time is fast_ptime. */
bool stepper_fast_resolve_ts(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			     uint64_t context)
{
	fast_timestamp(trace_hart_of_enc(e));
	return ntrace_enc_resolve_jump(e, addr, priv, context);
}

/* CTR recording alone: nothing waits in the encoder for the fast visit
 * (it is stopped or never ran), so COUNT_HELD's call finds nothing. */
static bool fast_no_resolve(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			    uint64_t context)
{
	(void)e;
	(void)addr;
	(void)priv;
	(void)context;
	return false;
}

void stepper_fast_configure_ctr(struct trace_hart *th)
{
	struct stepper *s = &th->step;
	unsigned int it;

	s->span_qual = NULL;      /* (blocks carry no filter tags) */
	s->fast_ptime = 0;
	s->fast_resolve = fast_no_resolve;
	s->fast_allowed = s->max_block == 1 ? STEP_FAST_NEVER : STEP_FAST_ALWAYS;
	for (it = 0; it < sizeof(s->fast_end); it++)
		s->fast_end[it] = NTRACE_INLINE_NO;   /* every record to C */
}

void stepper_fast_configure(struct trace_hart *th)
{
	struct stepper *s = &th->step;
	unsigned int it;
	bool time_source = time_now_source(&s->time_mmio);

	s->span_qual = th->qual.per_instruction ? &th->qual : NULL;
	s->fast_ptime = 0;
	s->fast_resolve = th->cfg.trTsEnable ? stepper_fast_resolve_ts : ntrace_enc_resolve_jump;
	if (s->max_block == 1)
		s->fast_allowed = STEP_FAST_NEVER;
	else
		s->fast_allowed = th->cfg.trTeContext ? STEP_FAST_SAME_OWNER : STEP_FAST_ALWAYS;
	for (it = 0; it < sizeof(s->fast_end); it++)
		s->fast_end[it] = (uint8_t)fast_end_of(th, it, time_source);
}

/* q's run and end to the encoder, as lazy_send() sends them. */
static void fast_send(struct trace_hart *th, const struct step_block *q, uint8_t itype)
{
	struct stepper *s = &th->step;
	struct ntrace_retired end = fast_record(s, q, itype);
	struct ntrace_block run = { .addr = q->start, .rvc_mask = q->rvc_mask, .count = q->count,
				    .tstamp = s->tstamp, .priv = s->priv };

	if (!engine_block_inline(th, q->start, (uint32_t)((q->end - q->start) >> 1), q->count,
				 s->priv, &end))
		engine_block(th, &run, &end);
}

/* The encoder step of a fast visit at a block of n instructions (see
 * above), from the `first` held block on (1: fast_h1, 2: fast_h2; the
 * fast visit counted those before itself). */
void stepper_fast_retire(struct trace_hart *th, unsigned int n, unsigned int first)
{
	struct stepper *s = &th->step;

	fast_timestamp(th);
	if (first == 1 && (n || s->fast == STEP_FAST_TWO))
		fast_send(th, s->fast_h1, s->fast_it1);
	if (n && s->fast == STEP_FAST_TWO)
		fast_send(th, s->fast_h2, s->fast_it2);
}

/* The encoder overflowed into the sink during a fast visit: applied after
 * the visit, as stepper_breakpoint() does. */
void stepper_fast_pending(struct trace_hart *th)
{
	fast_timestamp(th);
	engine_apply_pending(th, NULL);
}

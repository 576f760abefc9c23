/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping: the held records (struct step_held), what retired and
 * waits for the next event.  stepper.c's alone, in a header because the
 * common visit inlines most of it (always_inline; the out-of-line parts
 * are static noinline, as they were in stepper.c: a .c file would cost
 * their callers the registers IPA-RA keeps live across them).
 */
#ifndef TRACE_STEP_HELD_H
#define TRACE_STEP_HELD_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"

/*
 * The held records (struct step_held).  The last retired instruction waits
 * until the next event says whether a trap follows it; with it waits the
 * run before it, so that the encoder gets runs whole.  One encoding:
 * the run [start, end), and its end, which is the run's own last
 * instruction (HELD_LAST: a plain one, as a run's records are) or a record
 * after the run (HELD_RECORD: a transfer, a record of the LR/SC replay).
 * `whole` says that the run is a block's whole run, which the next
 * transfer may give the encoder inline, as I-CNT and HIST only
 * (lazy_send(), engine_block_inline()): the common visit's case.
 */

/* HELD_LAST becomes HELD_RECORD: the run without its last instruction, and
 * that instruction's record (which a trap then marks). */
static void split_last(struct step_held *h)
{
	h->rec = step_held_last(h);
	h->count--;
	h->mask &= ~(1ULL << h->count);
	h->end = h->rec.addr;
	h->kind = HELD_RECORD;
	h->whole = false;
}

/* What is held goes to the encoder. */
static inline __attribute__((always_inline)) void feed_held(struct trace_hart *th)
{
	struct step_held *h = &th->step.held;
	struct ntrace_block run = { .addr = h->start, .rvc_mask = h->mask, .count = h->count,
				    .tstamp = h->tstamp, .priv = h->priv };
	struct ntrace_retired end;

	if (h->kind == HELD_NONE)
		return;
	if (h->kind == HELD_LAST) {
		end = step_held_last(h);
		run.count--;
		run.rvc_mask &= ~(1ULL << run.count);
	} else {
		end = h->rec;
	}
	engine_block(th, &run, &end);
	h->kind = HELD_NONE;
	h->count = 0;
	h->whole = false;
}

/* Whether a record joins a run as one of its instructions (lib/ntrace's
 * block entry makes the same bytes as the record would; the stepper's
 * records carry no context). */
static inline __attribute__((always_inline)) bool joins_as_plain(const struct ntrace_retired *rec)
{
	return !rec->itype && !rec->flags && rec->size && !rec->retired_itype;
}

/* Whether the held end can join the held run: a plain instruction right
 * after it, in the same privilege and with its timestamp (HELD_LAST is
 * one already, when the run has room). */
static inline __attribute__((always_inline)) bool held_joins_run(const struct step_held *h)
{
	const struct ntrace_retired *e = &h->rec;

	if (h->kind == HELD_LAST)
		return h->count <= NTRACE_BLOCK_MAX;
	/* (rec is stale with HELD_NONE: tested after the common refusal, a
	 * transfer's itype) */
	if (!joins_as_plain(e) || h->kind == HELD_NONE || h->count >= NTRACE_BLOCK_MAX)
		return false;
	return !h->count || (e->priv == h->priv && e->tstamp == h->tstamp && e->addr == h->end);
}

/* A retired instruction's record becomes the held end.  The common case
 * (the run's last instruction, then the transfer after it) makes one
 * block with its end for the encoder. */
static inline __attribute__((always_inline)) void
hold(struct trace_hart *th, const struct ntrace_retired *rec)
{
	struct stepper *s = &th->step;
	struct step_held *h = &s->held;

	s->in_m = false;   /* something retired since an SBI call */
	if (!held_joins_run(h)) {
		feed_held(th);
	} else if (h->kind == HELD_RECORD) {
		const struct ntrace_retired *e = &h->rec;

		if (!h->count) {
			h->start = e->addr;
			h->mask = 0;
			h->tstamp = e->tstamp;
			h->priv = e->priv;
		}
		if (e->size == 2)
			h->mask |= 1ULL << h->count;
		h->count++;
		h->end = e->addr + e->size;
	}
	/* (after nothing held the run is empty: its bounds are not read
	 * until the end joins it) */
	h->kind = HELD_RECORD;
	h->rec = *rec;
	h->whole = false;
}

/*
 * The first n (>= 1) instructions of the run, ending at upto, retired:
 * what was held goes to the encoder, and they are held, the last one the
 * held end.
 */
static inline __attribute__((always_inline)) void hold_run(struct trace_hart *th, unsigned int n,
							   uint64_t upto)
{
	struct stepper *s = &th->step;

	s->in_m = false;
	feed_held(th);
	held_run_set(&s->held, s->run.start, upto, s->run.mask & (n >= 64 ? ~0ULL : (1ULL << n) - 1),
		     n, s->priv, s->tstamp, false);
	s->run.start = upto;
	s->run.mask = n >= 64 ? 0 : s->run.mask >> n;
	s->run.count = (uint8_t)(s->run.count - n);
}

/* lazy_send() when the encoder has more to do than add to I-CNT and HIST
 * (out of line: the visit's common case does not come here). */
static __attribute__((noinline)) void lazy_send_general(struct trace_hart *th,
							const struct ntrace_retired *end)
{
	const struct step_held *h = &th->step.held;
	struct ntrace_block r = { .addr = h->start, .rvc_mask = h->mask, .count = h->count,
				  .tstamp = h->tstamp, .priv = h->priv };

	engine_block(th, &r, end);
}

/* The whole held run goes to the encoder with end as its end. */
static inline __attribute__((always_inline)) void lazy_send(struct trace_hart *th,
							    const struct ntrace_retired *end)
{
	const struct step_held *h = &th->step.held;

	if (!engine_block_inline(th, h->start, (uint32_t)((h->end - h->start) >> 1), h->count,
				 h->priv, end))
		lazy_send_general(th, end);
}

/* The whole held run and its end (HELD_RECORD) go to the encoder; then
 * next is held after an empty run. */
static inline __attribute__((always_inline)) void lazy_send_xfer(struct trace_hart *th,
						     const struct ntrace_retired *next)
{
	struct step_held *h = &th->step.held;

	lazy_send(th, &h->rec);
	h->start = next->addr;
	h->end = next->addr;
	h->count = 0;
	h->mask = 0;
	h->priv = next->priv;
	h->rec = *next;
}

/* hold() out of line, for the paths the common visit does not take. */
static __attribute__((noinline)) void hold_record(struct trace_hart *th, struct ntrace_retired rec)
{
	hold(th, &rec);
}

/* retire_whole() without a whole run to join: the transfer is held, and
 * what was held goes to the encoder when a run follows (out of line: the
 * visit's common case does not come here). */
static __attribute__((noinline)) void hold_transfer(struct trace_hart *th, unsigned int n)
{
	hold_record(th, th->step.run.xfer);
	if (n)
		feed_held(th);
}

/* retire_whole() with a run longer than a block: the run is held as
 * hold_run() holds it (what was held went out). */
static __attribute__((noinline)) void hold_whole_run(struct trace_hart *th, unsigned int n)
{
	th->step.held.kind = HELD_NONE;
	hold_run(th, n, th->step.run.end);
}

/* The whole current run (n instructions) is held, its last instruction
 * the held end: what hold_run() holds when nothing else is. */
static inline __attribute__((always_inline)) void lazy_hold_run(struct stepper *s, unsigned int n)
{
	/* the whole run: run.mask holds its sizes and nothing past them
	 * (set_run() takes a block's mask, hold_run() shifts out what it
	 * retires), so it needs no masking */
	held_run_set(&s->held, s->run.start, s->run.end, s->run.mask, n, s->priv, s->tstamp, true);
	s->run.start = s->run.end;
	s->run.mask = 0;
	s->run.count = 0;
}

/* retire_segment(th, s->run.end) when the predicted transfer ran (it is not
 * at run.end): the same steps without the search, inlined into the visit. */
static inline __attribute__((always_inline)) void retire_whole(struct trace_hart *th)
{
	struct stepper *s = &th->step;
	unsigned int n = s->run.count;

	s->pend = false;
	s->in_m = false;
	if (s->held.whole && (n || !joins_as_plain(&s->run.xfer))) {
		if (s->held.kind != HELD_LAST) {   /* (whole: HELD_RECORD) */
			/* hold() would feed the held run and transfer, and
			 * hold this one after no run; feed_held() would then
			 * send it as an empty run's end when a run follows. */
			lazy_send_xfer(th, &s->run.xfer);
			if (!n)
				return;
		} else if (!n) {
			/* hold() would join the run's last record to the rest
			 * and hold the transfer: held as the run's end. */
			s->held.kind = HELD_RECORD;
			s->held.rec = s->run.xfer;
			return;
		}
		/* hold() would join the run's last record to the rest, and
		 * hold_run() send that run with the transfer as its end. */
		lazy_send(th, &s->run.xfer);
	} else {
		hold_transfer(th, n);
		if (!n)
			return;
	}
	/* The run is held, whole when it fits a block, with nothing else
	 * held (the whole run went out above: hold_run() must not send it
	 * again). */
	if (n > NTRACE_BLOCK_MAX) {
		hold_whole_run(th, n);
		return;
	}
	lazy_hold_run(s, n);
}

#endif /* TRACE_STEP_HELD_H */

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Qualified ingress (see ntrace_ingress.h): qualification per record or per
 * block, encoder start (SYNC=5) and stop (EVCODE=4) at the boundaries.
 */
#include <string.h>

#include "ntrace_ingress.h"

void ntrace_ingress_start(struct ntrace_ingress *in, struct ntrace_encoder *enc,
			  struct tci_qualifier *filter)
{
	in->enc = enc;
	in->filter = filter;
	in->tracing = true;
	in->reported_off = false;
	in->any = false;
}

static bool qualified(struct ntrace_ingress *in, const struct ntrace_retired *r)
{
	/* The firmware's own (M-mode) execution is never traced. */
	if ((r->priv & 3) == NTRACE_PRV_M)
		return false;
	if (!in->filter)
		return true;
	if (!in->filter->per_instruction)
		return tci_qualify_priv(in->filter, ntrace_ingress_tci_priv(r->priv));
	return tci_qualify(in->filter, r->addr, ntrace_ingress_tci_priv(r->priv), r->context);
}

/* Entering the traced part: the next record produces the sync message. */
static void enter(struct ntrace_ingress *in)
{
	if (!in->enc->active)
		ntrace_enc_start(in->enc, NTRACE_SYNC_TRACE_ENABLE);
	in->reported_off = false;
}

/*
 * Leaving it before the instruction at next_addr: ProgTraceCorrelation
 * EVCODE=4 tells the decoder where the traced part ended (Corner Cases:
 * "Trace starts disabled" also sends one, with I-CNT=0).
 */
static void leave(struct ntrace_ingress *in, uint64_t next_addr, uint64_t tstamp)
{
	if (in->enc->active || !in->reported_off)
		ntrace_enc_stop(in->enc, NTRACE_EVCODE_TRACE_DISABLED, next_addr, tstamp);
	in->reported_off = true;
}

void ntrace_ingress_retire(struct ntrace_ingress *in, const struct ntrace_retired *rec, size_t n)
{
	size_t i = 0, first;

	if (!in->tracing)
		return;
	in->any |= n != 0;
	while (i < n) {
		if (!qualified(in, &rec[i])) {
			leave(in, rec[i].addr, rec[i].tstamp);
			i++;
			continue;
		}
		enter(in);
		/* One call for each run of traced records. */
		for (first = i++; i < n && qualified(in, &rec[i]); i++)
			;
		ntrace_enc_retire(in->enc, rec + first, i - first);
		if (i < n) {
			leave(in, rec[i].addr, rec[i].tstamp);
			i++;
		}
	}
}

/* The block's records one by one (filters that look at addresses). */
static void expand_block(struct ntrace_ingress *in, const struct ntrace_block *b)
{
	struct ntrace_retired rec[NTRACE_BLOCK_MAX];
	uint64_t addr = b->addr;
	unsigned i;

	for (i = 0; i < b->count && i < NTRACE_BLOCK_MAX; i++) {
		uint8_t size = (b->rvc_mask >> i) & 1 ? 2 : 4;

		rec[i] = (struct ntrace_retired){ .addr = addr, .tstamp = b->tstamp,
						  .context = b->context, .size = size,
						  .priv = b->priv };
		addr += size;
	}
	ntrace_ingress_retire(in, rec, i);
}

/* Address of the run's last instruction. */
static uint64_t block_last(const struct ntrace_block *b)
{
	unsigned last = b->count - 1;

	return b->addr + 2 * (uint64_t)ntrace_block_halfwords(b) - ((b->rvc_mask >> last) & 1 ? 2 : 4);
}

/*
 * A block (and its end in the same privilege and context) that the
 * comparators take or leave as a whole (tci_qualify_span()): what the
 * records one by one would do, for them all at once.  False, with
 * nothing done, when the answer differs inside it.  Out of line: the
 * privilege-only path of the caller keeps its frame-less shape.
 */
static __attribute__((noinline)) bool block_by_span(struct ntrace_ingress *in,
						     const struct ntrace_block *b,
						     const struct ntrace_retired *end)
{
	uint64_t hi;
	enum tci_span span;

	if (!b->count || b->count > NTRACE_BLOCK_MAX || (b->priv & 3) == NTRACE_PRV_M ||
	    (end && (end->priv != b->priv || end->context != b->context)))
		return false;
	hi = end ? end->addr : block_last(b);
	span = tci_qualify_span(in->filter, b->addr, hi, ntrace_ingress_tci_priv(b->priv),
				b->context);
	if (span == TCI_SPAN_MIXED)
		return false;
	in->any = true;
	if (span == TCI_SPAN_NONE) {
		leave(in, b->addr, b->tstamp);   /* (the rest leaves nothing more) */
		return true;
	}
	enter(in);
	ntrace_enc_block(in->enc, b, end);
	return true;
}

void ntrace_ingress_block_general(struct ntrace_ingress *in, const struct ntrace_block *b,
				  const struct ntrace_retired *end)
{
	bool q;

	if (!in->tracing)
		return;
	if (in->filter && in->filter->per_instruction) {
		if (block_by_span(in, b, end))
			return;
		expand_block(in, b);
		if (end)
			ntrace_ingress_retire(in, end, 1);
		return;
	}
	/* Privilege-only qualification: the whole block is in or out. */
	q = (b->priv & 3) != NTRACE_PRV_M &&
	    (!in->filter || tci_qualify_priv(in->filter, ntrace_ingress_tci_priv(b->priv)));
	if (!b->count) {
		if (end)
			ntrace_ingress_retire(in, end, 1);
		return;
	}
	in->any = true;
	if (!q) {
		leave(in, b->addr, b->tstamp);
		if (end)
			ntrace_ingress_retire(in, end, 1);
		return;
	}
	enter(in);
	if (end && end->priv == b->priv) {
		ntrace_enc_block(in->enc, b, end);
	} else {
		ntrace_enc_block(in->enc, b, NULL);
		if (end)
			ntrace_ingress_retire(in, end, 1);
	}
}

void ntrace_ingress_stop(struct ntrace_ingress *in, uint64_t next_addr, uint64_t tstamp)
{
	if (!in->tracing)
		return;
	leave(in, next_addr, tstamp);
	in->tracing = false;
	ntrace_enc_flush(in->enc);
}

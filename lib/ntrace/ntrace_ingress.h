/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Qualified ingress: what a trace encoder does between the hart's Trace
 * Ingress Port and the N-Trace encoder when only part of the execution is
 * traced.  Each record is qualified (M-mode never; then the TCI filters and
 * comparators, lib/tci/tci_filter.h); leaving the traced part ends the
 * trace with ProgTraceCorrelation EVCODE=4 ("Program Trace Disabled") and
 * entering it starts it again with a synchronisation message SYNC=5
 * ("Trace Enable"), as the N-Trace Synchronizing Messages and Corner Cases
 * tables describe.
 *
 * Shared by the firmware's software encoder and the host tool, so both
 * encode the same qualified execution into the same bytes.
 */
#ifndef NTRACE_INGRESS_H
#define NTRACE_INGRESS_H

#include "ntrace.h"
#include "lib/tci/tci_filter.h"

struct ntrace_ingress {
	struct ntrace_encoder *enc;
	struct tci_qualifier *filter;  /* NULL: every non-M record is traced */
	bool tracing;          /* between ntrace_ingress_start and _stop     */
	bool reported_off;     /* "trace starts disabled" correlation sent   */
	bool any;              /* a record arrived since the start           */
};

/* TCI ingress "priv" of a record's priv (PRV[1:0] | V << 2). */
static inline unsigned ntrace_ingress_tci_priv(unsigned priv)
{
	unsigned prv = priv & 3;

	if (priv & 4)
		return prv == NTRACE_PRV_U ? TCI_PRIV_VU : TCI_PRIV_VS;
	return prv;
}

/* Instruction tracing turns on (trTeInstTracing = 1): nothing is emitted
 * until the first record. */
void ntrace_ingress_start(struct ntrace_ingress *in, struct ntrace_encoder *enc,
			  struct tci_qualifier *filter);

void ntrace_ingress_retire(struct ntrace_ingress *in, const struct ntrace_retired *rec, size_t n);
void ntrace_ingress_block_general(struct ntrace_ingress *in, const struct ntrace_block *b,
				  const struct ntrace_retired *end);

/* A run and its end record in the same privilege, while tracing, with the
 * whole run qualified by its privilege: straight to the encoder. */
static inline void ntrace_ingress_block(struct ntrace_ingress *in, const struct ntrace_block *b,
					const struct ntrace_retired *end)
{
	const struct tci_qualifier *f = in->filter;

	if (b->count && end && end->priv == b->priv && in->tracing && in->enc->active &&
	    (b->priv & 3) != NTRACE_PRV_M &&
	    (!f || (!f->per_instruction && tci_qualify_priv(f, ntrace_ingress_tci_priv(b->priv))))) {
		in->any = true;
		in->reported_off = false;
		ntrace_enc_block(in->enc, b, end);
		return;
	}
	ntrace_ingress_block_general(in, b, end);
}

/*
 * Instruction tracing turns off with execution continuing at next_addr:
 * the encoder's pending state is emitted (ProgTraceCorrelation EVCODE=4
 * with the I-CNT and HIST of the last traced instructions), or, when no
 * instruction was traced at all, one ProgTraceCorrelation with I-CNT=0
 * ("Trace starts disabled").  Buffered bytes are handed to the sink.
 */
void ntrace_ingress_stop(struct ntrace_ingress *in, uint64_t next_addr, uint64_t tstamp);

/* Is the encoder inside a traced stretch (ProgTraceSync sent, no
 * ProgTraceCorrelation yet)? */
static inline bool ntrace_ingress_active(const struct ntrace_ingress *in)
{
	return in->enc && in->enc->active;
}

#endif /* NTRACE_INGRESS_H */

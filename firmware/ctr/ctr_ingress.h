/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CTR's recording source on harts without Smctr/Ssctr: the trace engine's
 * ingress records (lib/ntrace: a run of sequential instructions and the
 * record that ends it, or single records) turned into control transfers
 * for the recording rule (ctr_record.c), with the instruction count as
 * the cycle count (docs/CTR.md, "Recording").
 *
 * A record names a retired instruction and its itype; where it went is
 * the address of the next record.  So each transfer waits (`pending`)
 * until the next record, or a flush at a known pc, says its target and
 * the privilege after it.  Pure: the instruction fetch is the caller's.
 */
#ifndef TRACE_CTR_INGRESS_H
#define TRACE_CTR_INGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "firmware/ctr/ctr_model.h"

/* Fetch the instruction at addr as code of privilege priv (PRV_U/PRV_S):
 * 0 on success. */
typedef int (*ctr_fetch_fn)(void *ctx, uint64_t addr, unsigned int priv, uint32_t *raw);

/* A trap the hart took after (or instead of) the record that carries
 * itype 1/2: the trap's epc and cause (interrupt bit 63 included), as
 * the trap into S-mode set sepc and scause. */
struct ctr_trap {
	uint64_t epc;
	unsigned long cause;
};

enum ctr_pending {
	CTR_PEND_NONE,
	CTR_PEND_MAYBE,      /* itype 0: a transfer if the next record is not sequential */
	CTR_PEND_DECODE,     /* a jump whose itype does not tell CTR's type */
	CTR_PEND_TYPED,      /* type known from the itype */
	CTR_PEND_TRAP,       /* exception or interrupt: cause and epc known */
};

struct ctr_ingress {
	uint8_t pending;         /* enum ctr_pending */
	uint8_t priv;            /* the pending record's privilege (ntrace encoding) */
	uint8_t type;            /* CTR_PEND_TYPED: enum ctr_type */
	bool exact_itypes;       /* 4-bit itypes with all jumps (see ctr_ingress.c) */
	bool froze;              /* a trap froze the buffer since the engine looked */
	uint64_t source, next_seq;   /* the record's address, and the one after it */
	/* CTR_PEND_TRAP: the trap (source: its epc) and the record carrying it */
	unsigned long cause;
	uint64_t rec_addr;
	uint8_t rec_size;
	ctr_fetch_fn fetch;
	void *fetch_ctx;
};

/* Start (again) with nothing pending.  exact_itypes: the records carry
 * the 4-bit itypes with trTeInstEnAllJumps (stepper itype4 && all_jumps). */
void ctr_ingress_reset(struct ctr_ingress *in, bool exact_itypes, ctr_fetch_fn fetch, void *ctx);

/* The two ingress calls of the trace engine.  `trap` is read only when the
 * (end) record has itype 1 or 2. */
void ctr_ingress_block(struct ctr_ingress *in, struct ctr_state *s, const struct ntrace_block *b,
		       const struct ntrace_retired *end, const struct ctr_trap *trap);
void ctr_ingress_record(struct ctr_ingress *in, struct ctr_state *s,
			const struct ntrace_retired *r, const struct ctr_trap *trap);

/* Execution continues at pc in privilege priv (stepping stops, or a CTR
 * register is accessed there): the pending transfer goes there. */
void ctr_ingress_flush(struct ctr_ingress *in, struct ctr_state *s, uint64_t pc,
		       unsigned int priv);

/* Whether recording needs the stepper: S or U enabled in sctrctl, or VS
 * or VU in vsctrctl, not frozen.  Inline: every emulated CTR access asks. */
static inline bool ctr_ingress_wanted(const struct ctr_state *s)
{
	return !s->frozen && ((s->mctrctl | s->vsctrctl) & (CTRCTL_S | CTRCTL_U));
}

#endif

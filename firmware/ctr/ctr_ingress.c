// SPDX-License-Identifier: BSD-2-Clause
/*
 * Ingress records -> CTR transfers (ctr_ingress.h, docs/CTR.md).
 *
 * What a record's itype says for CTR's type (Smctr/Ssctr 1.0, "Control
 * Transfer Type Definitions", the E-Trace itypes):
 *  - 1, 2: a trap follows; the trap's cause and epc come with the record
 *    (ctr_trap), its handler is the next record.
 *  - 3 trap return, 4 not-taken branch: the same in every itype form.
 *  - with 4-bit itypes and all jumps (exact_itypes): 5 taken branch,
 *    8 indirect call, 9 direct call, 12 co-routine swap, 13 return.
 *    14 and 15 join CTR's "indirect/direct jump" (rd = x0) and "other"
 *    (rd another non-link register): the instruction is decoded.
 *  - anything else (3-bit itypes, or no all-jumps: a direct jump has
 *    itype 0) is decoded when the next record is not the next instruction.
 * The engine picks exact itypes when CTR steps the hart alone; with N-Trace
 * on, the encoder's configuration decides and the decode fills the gaps.
 */
#include "firmware/ctr/ctr_ingress.h"
#include "lib/rvinsn/rvinsn.h"

/* The ntrace priv encoding: PRV[1:0] in bits 1..0, V in bit 2. */
static enum ctr_mode mode_of(unsigned int priv)
{
	bool v = priv & 4;

	switch (priv & 3) {
	case 0:
		return v ? CTR_MODE_VU : CTR_MODE_U;
	case 1:
		return v ? CTR_MODE_VS : CTR_MODE_S;
	default:
		return CTR_MODE_M;
	}
}

void ctr_ingress_reset(struct ctr_ingress *in, bool exact_itypes, ctr_fetch_fn fetch, void *ctx)
{
	in->pending = CTR_PEND_NONE;
	in->exact_itypes = exact_itypes;
	in->froze = false;
	in->fetch = fetch;
	in->fetch_ctx = ctx;
}

/* CTR's type of the instruction at addr that went to next (taken unless
 * next is the instruction after it); CTR_TYPE_NONE if it cannot be read. */
static enum ctr_type decode_type(const struct ctr_ingress *in, uint64_t addr, unsigned int size,
				 unsigned int priv, uint64_t next)
{
	struct rv_insn insn;
	uint32_t raw;

	if (in->fetch(in->fetch_ctx, addr, priv, &raw) ||
	    !rv_insn_decode(raw, 64, RV_EXT_C, &insn))
		return CTR_TYPE_NONE;
	return ctr_classify(&insn, next != addr + size);
}

static inline __attribute__((always_inline)) void record(struct ctr_state *s, uint64_t source, uint64_t target, enum ctr_type type,
		   unsigned int from, unsigned int to)
{
	struct ctr_transfer t = { source, target, type, mode_of(from), mode_of(to) };

	if (type != CTR_TYPE_NONE)
		ctr_record(s, &t);
}

/*
 * The pending trap went to next (its handler) in priv.  The record that
 * carried it retired (rec_size != 0) and the hart trapped at epc, or it
 * trapped instead (rec_size 0, epc = its address).  When it retired and
 * was itself a branch or jump (its itype now says the trap), it went to
 * epc: that transfer comes first.  An ecall that "retires" (the
 * non-ratified convention) has epc = its own address.
 *
 * A trap into M-mode is an SBI call: sepc/scause are not its, its source
 * is the record (the ecall), and CTR never records it (M is never
 * enabled, so it is an external trap that needs mctrctl.MTE, which S-mode
 * cannot set).  Only traps into S-mode (or VS-mode: vsctrctl's bits)
 * freeze: the trap that freezes is not recorded ("Freeze").
 */
static void resolve_trap(struct ctr_ingress *in, struct ctr_state *s, uint64_t next,
			 unsigned int priv)
{
	bool interrupt = in->cause >> 63;
	unsigned long code = in->cause & ~(1UL << 63);
	enum ctr_mode to = mode_of(priv);

	if (to == CTR_MODE_M) {
		record(s, in->rec_addr, next, CTR_TYPE_EXCEPTION, in->priv, priv);
		return;
	}
	if (in->rec_size && in->source != in->rec_addr)
		record(s, in->rec_addr, in->source,
		       decode_type(in, in->rec_addr, in->rec_size, in->priv, in->source), in->priv,
		       in->priv);
	if ((to == CTR_MODE_S || to == CTR_MODE_VS) && ctr_freeze_on_trap(s, interrupt, code, to)) {
		in->froze = true;
		return;
	}
	record(s, in->source, next, interrupt ? CTR_TYPE_INTERRUPT : CTR_TYPE_EXCEPTION, in->priv,
	       priv);
}

/* The pending transfer went to next, where the hart runs in priv. */
static void resolve(struct ctr_ingress *in, struct ctr_state *s, uint64_t next, unsigned int priv)
{
	unsigned int size = (unsigned int)(in->next_seq - in->source);

	switch (in->pending) {
	case CTR_PEND_MAYBE:
		if (next != in->next_seq)
			record(s, in->source, next,
			       decode_type(in, in->source, size, in->priv, next), in->priv, priv);
		break;
	case CTR_PEND_DECODE:
		record(s, in->source, next, decode_type(in, in->source, size, in->priv, next),
		       in->priv, priv);
		break;
	case CTR_PEND_TYPED:
		record(s, in->source, next, (enum ctr_type)in->type, in->priv, priv);
		break;
	case CTR_PEND_TRAP:
		resolve_trap(in, s, next, priv);
		break;
	default:
		break;
	}
	in->pending = CTR_PEND_NONE;
}

/* CTR's type of a transfer itype when the itype alone says it. */
static enum ctr_type type_of_itype(const struct ctr_ingress *in, unsigned int itype)
{
	switch (itype) {
	case RV_ITYPE_TRAP_RETURN:
		return CTR_TYPE_TRAP_RETURN;
	case RV_ITYPE_NOT_TAKEN_BRANCH:
		return CTR_TYPE_NOT_TAKEN_BRANCH;
	default:
		break;
	}
	if (!in->exact_itypes)
		return CTR_TYPE_NONE;
	switch (itype) {
	case RV_ITYPE_TAKEN_BRANCH:
		return CTR_TYPE_TAKEN_BRANCH;
	case RV_ITYPE_UNINFERABLE_CALL:
		return CTR_TYPE_INDIRECT_CALL;
	case RV_ITYPE_INFERABLE_CALL:
		return CTR_TYPE_DIRECT_CALL;
	case RV_ITYPE_COROUTINE_SWAP:
		return CTR_TYPE_CO_ROUTINE_SWAP;
	case RV_ITYPE_RETURN:
		return CTR_TYPE_FUNCTION_RETURN;
	default:
		return CTR_TYPE_NONE;
	}
}

/* ctr_active() of an ntrace priv, inline: it runs for every record. */
static inline __attribute__((always_inline)) bool active(const struct ctr_state *s, unsigned int priv)
{
	uint64_t ctl = priv & 4 ? s->vsctrctl : s->mctrctl;

	if (s->frozen || (priv & 3) > 1)
		return false;
	return ctl & (priv & 1 ? CTRCTL_S : CTRCTL_U);
}

/* Instructions retired in a mode where CTR is active are its cycles
 * (under -icount shift=0, one instruction is one cycle). */
static inline __attribute__((always_inline)) void count(struct ctr_state *s, unsigned int n, unsigned int priv)
{
	if (active(s, priv))
		s->cycles += n;   /* cannot wrap: 2^64 instructions */
}

/* A trap after (or instead of) r: it waits for its handler. */
static void take_trap(struct ctr_ingress *in, const struct ntrace_retired *r,
		      const struct ctr_trap *trap)
{
	in->pending = CTR_PEND_TRAP;
	in->priv = r->priv;
	in->source = trap->epc;
	in->cause = trap->cause;
	in->rec_addr = r->addr;
	in->rec_size = r->size;
}

/* r, an instruction that retired (or a trap record), arrives. */
static void arrive(struct ctr_ingress *in, struct ctr_state *s, const struct ntrace_retired *r,
		   const struct ctr_trap *trap)
{
	enum ctr_type type;

	if (in->pending)
		resolve(in, s, r->addr, r->priv);
	if ((r->priv & 3) == 3)
		return;   /* M-mode (an SBI call's handler): M is never recorded */
	if (r->size)
		count(s, 1, r->priv);
	if (r->itype == RV_ITYPE_EXCEPTION || r->itype == RV_ITYPE_INTERRUPT) {
		take_trap(in, r, trap);
		return;
	}
	if (!r->size)
		return;
	in->priv = r->priv;
	in->source = r->addr;
	in->next_seq = r->addr + r->size;
	type = type_of_itype(in, r->itype);
	if (type != CTR_TYPE_NONE) {
		in->pending = CTR_PEND_TYPED;
		in->type = (uint8_t)type;
	} else {
		in->pending = r->itype ? CTR_PEND_DECODE : CTR_PEND_MAYBE;
	}
}

static unsigned int insn_size(uint64_t rvc_mask, unsigned int i)
{
	return (rvc_mask >> i) & 1 ? 2 : 4;
}

void ctr_ingress_block(struct ctr_ingress *in, struct ctr_state *s, const struct ntrace_block *b,
		       const struct ntrace_retired *end, const struct ctr_trap *trap)
{
	if (b->count) {
		if (in->pending)
			resolve(in, s, b->addr, b->priv);
		count(s, b->count, b->priv);
		/* The run's instructions are sequential and itype 0; its last
		 * one may still be a direct jump when jumps have no itype. */
		if (!in->exact_itypes && end && (b->priv & 3) != 3) {
			uint64_t run_end = b->addr + 2ull * ntrace_block_halfwords(b);

			if (end->addr != run_end) {
				in->pending = CTR_PEND_MAYBE;
				in->priv = b->priv;
				in->source = run_end - insn_size(b->rvc_mask, b->count - 1u);
				in->next_seq = run_end;
			}
		}
	}
	if (end)
		arrive(in, s, end, trap);
}

void ctr_ingress_record(struct ctr_ingress *in, struct ctr_state *s,
			const struct ntrace_retired *r, const struct ctr_trap *trap)
{
	arrive(in, s, r, trap);
}

void ctr_ingress_flush(struct ctr_ingress *in, struct ctr_state *s, uint64_t pc,
		       unsigned int priv)
{
	if (in->pending)
		resolve(in, s, pc, priv);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block stepping (see stepper.h and docs/TRACE.md, "Ingress").
 *
 * Record model: every retired instruction becomes one Trace Ingress Port
 * record, the same record the host tool makes from a QEMU log line, so the
 * firmware and `ntrace encode` produce the same bytes.  The last retired
 * instruction is held back (with the run before it: struct step_held)
 * until the next event says whether a trap follows it: then its itype
 * becomes 1 or 2, as the host tool marks the line before a trap.
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_cache.h"
#include "firmware/trace/step_chain.h"
#include "firmware/trace/step_held.h"
#include "firmware/trace/step_fast.h"
#include "firmware/trace/step_outcome.h"
#include "firmware/trace/step_trigger.h"
#include "firmware/trace/lrsc.h"
#include "firmware/core/hart.h"
#include "firmware/core/umem.h"
#include "firmware/emu/memaccess.h"
#include "firmware/core/riscv_csr.h"
#include "lib/rvinsn/rvinsn.h"
#include "firmware/service/redirect.h"
#include "firmware/core/trigger.h"

_Static_assert(ADDR_NONE == LRSC_NO_EXIT, "an LR/SC block's target is ADDR_NONE without an exit");

#define INSN_ECALL  0x00000073u

/* ---- Retiring (the held records: step_held.h) ------------------------- */

/* Nothing is held or pending any more. */
static void drop_held(struct stepper *s)
{
	s->lrsc.at = ADDR_NONE;
	s->held.kind = HELD_NONE;
	s->held.count = 0;
	s->held.whole = false;
	s->pend = false;
	s->chain_len = 0;
}

static bool retire_lrsc(struct trace_hart *th, const struct trap_regs *regs, uint64_t lr,
			uint64_t upto);

/*
 * Everything before upto retired: the predicted transfer (unless upto is
 * its own address: then it did not run), then the run [start, upto), or
 * the run and the LR/SC sequence after it (registers regs).  The last of
 * them is held.  False when upto is not an instruction boundary of what
 * the hart was given to run: the stepper lost track.
 */
static bool retire_segment(struct trace_hart *th, const struct trap_regs *regs, uint64_t upto)
{
	struct stepper *s = &th->step;
	uint64_t addr, lr = s->lrsc.at, to = upto;
	unsigned int n = 0;

	s->lrsc.at = ADDR_NONE;   /* (whatever comes next, the run is over) */
	if (lr != ADDR_NONE && upto > lr)
		upto = lr;        /* the run, then the sequence */
	if (s->pend) {
		s->pend = false;
		if (upto == s->run.xfer.addr) {
			s->priv = s->run.xfer.priv;
			s->run.start = upto;
			s->run.count = 0;
			return true;
		}
		hold(th, &s->run.xfer);
	}
	if (upto == s->run.end) {
		n = s->run.count;   /* the whole run (run.end follows it) */
	} else {
		for (addr = s->run.start; addr < upto && n < s->run.count; )
			addr += step_insn_size(s->run.mask, n++);
		if (addr != upto)
			return false;
	}
	if (n)
		hold_run(th, n, upto);
	return to == upto || retire_lrsc(th, regs, lr, to);
}

/* Whether upto is where the current segment's transfer (not run) or its
 * run puts the hart; segments of a chain never share an address. */
static bool in_segment(const struct stepper *s, uint64_t upto)
{
	return (s->pend && upto == s->run.xfer.addr) || (upto >= s->run.start && upto <= s->run.end);
}

/* The next segment of the chain becomes the current one. */
static void chain_next(struct stepper *s)
{
	const struct step_segment *c = &s->chain[s->chain_pos++];

	s->pend = true;
	/* (field by field: `s->run = *c` costs the visit a register) */
	s->run.xfer = c->xfer;
	/* it retires now: this visit's time (the runs held with it carry
	 * it; predicted, the transfer carries none) */
	s->run.xfer.tstamp = s->tstamp;
	s->run.start = c->start;
	s->run.end = c->end;
	s->run.mask = c->mask;
	s->run.count = c->count;
}

/* Segments of a chain before the one upto is in ran whole. */
static void retire_chain_before(struct trace_hart *th, uint64_t upto)
{
	struct stepper *s = &th->step;

	while (s->chain_pos < s->chain_len && !in_segment(s, upto)) {
		retire_whole(th);
		chain_next(s);
	}
	s->chain_len = 0;
	s->chain_pos = 0;
}

/* retire_chain_before() when T0 fired where it was armed, at the end of
 * the chain's last run (segments never share an address: every segment
 * before it ran whole), without the search. */
static inline __attribute__((always_inline)) void retire_chain_ran(struct trace_hart *th)
{
	struct stepper *s = &th->step;
	unsigned int i, len = s->chain_len;

	for (i = s->chain_pos; i < len; i++) {
		retire_whole(th);
		chain_next(s);
	}
	s->chain_len = 0;
	s->chain_pos = 0;
}

/*
 * Everything before upto retired (retire_segment() on each segment of a
 * chain up to the one upto is in); the rest of a chain did not run.
 */
static bool retire_upto(struct trace_hart *th, const struct trap_regs *regs, uint64_t upto)
{
	if (th->step.chain_len)
		retire_chain_before(th, upto);
	return retire_segment(th, regs, upto);
}

/* The stepper does not know where the hart is any more: what was held is
 * dropped and the encoder reports lost trace (Error, then SYNC=7). */
static void lost_track(struct trace_hart *th)
{
	drop_held(&th->step);
	ntrace_enc_overflow(&th->enc, th->step.tstamp);
	th->te.status |= TSBI_STATUS_LOST_TRACK;
}

static bool is_ecall_or_ebreak_cause(unsigned long cause)
{
	return cause == CAUSE_BREAKPOINT || cause == CAUSE_USER_ECALL ||
	       cause == CAUSE_SUPERVISOR_ECALL || cause == CAUSE_VS_ECALL ||
	       cause == CAUSE_MACHINE_ECALL;
}

static void sbi_call_trap(struct trace_hart *th, uint64_t epc);

static bool single_is_sbi_call(const struct stepper *s)
{
	return s->mode == STEP_SINGLE && s->single_raw == INSN_ECALL && s->priv == PRV_S;
}

/*
 * A trap while nothing has retired since the trace left for M-mode (an
 * SBI call): the trace resumes at the handler with a sync message, as the
 * ingress would report an untraced stretch.  For CTR the trap is a
 * transfer like any other (an interrupt pending at the SBI call's return,
 * a fault at the first instruction after it): from epc, in the privilege
 * the call returned to, to the handler (the next record).
 */
static void trap_after_m(struct trace_hart *th, uint64_t epc, uint8_t itype)
{
	struct stepper *s = &th->step;
	struct ntrace_retired rec = { .addr = epc, .itype = itype, .tstamp = s->tstamp,
				      .priv = s->priv };

	s->in_m = false;
	drop_held(s);
	engine_ctr_record(th, &rec);
}

/*
 * A trap at epc (exception) or before epc (interrupt): everything before
 * epc retired, and so did an ecall/ebreak at epc unless the ratified 1.0
 * convention is selected.  The last retired instruction carries the trap.
 * Calls itself once at most, through sbi_call_trap() with epc = s->run.start,
 * which is never s->run.start + 4.
 */
// NOLINTNEXTLINE(misc-no-recursion): depth 2 at most, see above
static void trap_at(struct trace_hart *th, const struct trap_regs *regs, uint64_t epc,
		    unsigned long cause, bool interrupt)
{
	struct stepper *s = &th->step;
	uint64_t upto = epc;
	uint8_t itype = interrupt ? RV_ITYPE_INTERRUPT : RV_ITYPE_EXCEPTION;

	/* An SBI call came back and the hart trapped before the next
	 * instruction: the call's trap into M-mode goes out first. */
	if (single_is_sbi_call(s) && epc == s->run.start + 4 && !s->in_m)
		sbi_call_trap(th, s->run.start);
	/* Still on the call's ecall (T0 after it has not fired): nothing
	 * after the call ran. */
	if (s->in_m && single_is_sbi_call(s)) {
		trap_after_m(th, epc, itype);
		return;
	}
	if (!interrupt && is_ecall_or_ebreak_cause(cause) && !s->ecall_no_retire &&
	    s->mode == STEP_SINGLE && epc == s->run.start)
		upto = epc + step_insn_size(s->run.mask, 0);
	if (!retire_upto(th, regs, upto)) {
		lost_track(th);
		return;
	}
	/* What ran since the call returned (a transfer the hart ran at the
	 * return, the run after it) is held now, which clears in_m: when
	 * it is still set, nothing did. */
	if (s->in_m) {
		trap_after_m(th, epc, itype);
		return;
	}
	if (s->held.kind != HELD_NONE) {
		if (s->held.kind == HELD_LAST)
			split_last(&s->held);
		s->held.rec.itype = itype;
		s->held.rec.flags = 0;
		feed_held(th);
	} else {
		/* Nothing retired since the last trap: I-CNT 0 (Corner Cases,
		 * "Back to back exceptions"). */
		struct ntrace_retired rec = { .addr = epc, .itype = itype, .tstamp = s->tstamp,
					      .priv = s->priv };

		feed_held(th);
		engine_record(th, &rec);
	}
}

/* An SBI call: the ecall trapped into M-mode, where tracing never looks. */
// NOLINTNEXTLINE(misc-no-recursion): see trap_at()
static void sbi_call_trap(struct trace_hart *th, uint64_t epc)
{
	struct stepper *s = &th->step;
	struct ntrace_retired m = { .addr = s->m_handler, .tstamp = s->tstamp, .priv = PRV_M };

	trap_at(th, NULL, epc, CAUSE_SUPERVISOR_ECALL, false);
	engine_record(th, &m);
	s->in_m = true;
}

/* ---- Where the hart goes next ----------------------------------------- */

/* The instruction at pc runs natively; T0 fires after it. */
static void single_step(struct stepper *s, uint64_t pc, uint32_t raw, unsigned int len, bool vector)
{
	s->mode = STEP_SINGLE;
	s->single_raw = raw;
	s->single_is_vector = vector;
	step_set_run(s, pc, 1, len == 2 ? 1 : 0, pc + len);
	if (vector) {
		/* T1 would fire at once: off for this one instruction. */
		s->vec_scause = step_trap_cause(s);
		s->vec_sepc = step_trap_epc(s);
		step_t1_set(s, false, 0);
	}
	t0_arm(s, pc + len);
}

/* T0 off until a trap enters S-mode: the fetch at pc faults. */
static void run_free(struct stepper *s, uint64_t pc)
{
	s->mode = STEP_FREE;
	step_set_run(s, pc, 0, 0, pc);
	step_t0_off(s);
}

/* The hart runs b from its start; T0 at its end. */
static void run_block(struct stepper *s, struct step_block *b)
{
	s->mode = STEP_RUN;
	s->blk = b;
	step_set_run(s, b->start, b->count, b->rvc_mask, b->end);
	t0_arm(s, b->end);
}

/* ---- LR/SC sequences ---------------------------------------------------- */

static void plan(struct trace_hart *th, const struct trap_regs *regs, uint64_t pc);

/*
 * A trap between an LR and its SC loses the reservation (QEMU 7.2 clears
 * it on every privilege change; the ISA's forward-progress guarantee for
 * a constrained LR/SC loop ends when the hart traps), so no visit may
 * fall there: with T0 inside, the SC would fail at every try and a retry
 * loop never end.  A block's run goes on with the constrained sequence
 * (step_scan_block(), lrsc.h), which the hart runs natively:
 *   - T0 after the SC (the block's end), T1 on the sequence's exit when it
 *     has one (a branch that leaves it, as a cmpxchg's compare does);
 *   - the guard: every interrupt masked in mie (an interrupt waits until
 *     the visit that ends the sequence: at most 16 instructions), and with
 *     T1 off stvec every exception undelegated, so that it comes to M-mode
 *     first, where the trap path delivers it as delegation would
 *     (engine.c, lrsc_trap());
 *   - `blk` NULL: the visit after the sequence plans afresh (no common or
 *     loop visit takes it).
 * Whatever ends the run (T0, T1 at the exit, a trap at an instruction of
 * the sequence) finds the path it took from the registers there
 * (lrsc_replay()) and reports it as the hart retired it, branch by branch.
 */

/* The guard on, T1 on the exit when there is one (lrsc_guard.h); off,
 * T1 back on stvec. */
static void lrsc_guard_begin(struct stepper *s, uint64_t exit)
{
	lrsc_guard_on(&s->lrsc, exit);
	if (exit != ADDR_NONE)
		step_t1_set(s, true, exit);
}

static void lrsc_guard_end(struct stepper *s)
{
	if (!s->lrsc.on)
		return;
	lrsc_guard_off(&s->lrsc);
	if (s->lrsc.exit != ADDR_NONE)
		step_t1_follow_stvec(s);
}

/* Bytes of b's run (before its LR/SC sequence). */
static uint64_t run_bytes(const struct step_block *b)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < b->count; i++)
		n += step_insn_size(b->rvc_mask, i);
	return n;
}

/*
 * The hart runs b, a block whose run goes on with an LR/SC sequence.
 * Without a frame to arm it from (guard false: an SBI call's return, a
 * start) T0 goes to the LR instead: the visit there, before the LR runs,
 * costs the reservation nothing, and arms it.
 */
static void run_lrsc(struct stepper *s, const struct step_block *b, bool guard)
{
	uint64_t lr = b->start + run_bytes(b);

	s->mode = STEP_RUN;
	s->blk = NULL;
	step_set_run(s, b->start, b->count, b->rvc_mask, lr);
	if (!guard) {
		t0_arm(s, lr);
		return;
	}
	s->lrsc.at = lr;
	lrsc_guard_begin(s, b->target);
	t0_arm(s, b->end);
}

/* The record of an instruction of the sequence as it retired. */
static struct ntrace_retired lrsc_record(const struct stepper *s, const struct lrsc_seq *seq,
					 const struct lrsc_step *st)
{
	struct rv_insn in;

	rv_insn_decode(seq->raw[st->index], 64, s->align4 ? 0 : RV_EXT_C, &in);
	return (struct ntrace_retired){
		.addr = st->pc, .size = seq->op[st->index].size, .tstamp = s->tstamp, .priv = s->priv,
		.itype = (uint8_t)rv_insn_itype(&in, st->taken, s->itype4, s->all_jumps) };
}

/*
 * The run up to lr retired: then the sequence's path up to upto, as the
 * registers regs give it (lrsc_replay()).  Out of line: its frame holds
 * the sequence.
 */
static __attribute__((noinline)) bool retire_lrsc(struct trace_hart *th,
						  const struct trap_regs *regs, uint64_t lr,
						  uint64_t upto)
{
	struct stepper *s = &th->step;
	unsigned long ctx = step_fetch_context(s->priv);
	struct lrsc_step steps[LRSC_MAX];
	struct lrsc_seq seq;
	int n, i;

	if (!regs || lrsc_scan(lrsc_fetch_mprv, &ctx, lr, !s->align4, &seq) != LRSC_OK)
		return false;
	n = lrsc_replay(&seq, regs->x, upto, steps);
	for (i = 0; i < n; i++)
		hold_record(th, lrsc_record(s, &seq, &steps[i]));
	step_set_run(s, upto, 0, 0, upto);
	return n >= 0;
}

/* T1 fired at the sequence's exit: a branch left it. */
static __attribute__((noinline)) void lrsc_exit_hit(struct trace_hart *th,
						    struct trap_regs *regs)
{
	if (!retire_upto(th, regs, regs->mepc))
		lost_track(th);
	plan(th, regs, regs->mepc);
}

void stepper_lrsc_end(struct trace_hart *th)
{
	stepper_fast_leave(&th->step);
	lrsc_guard_end(&th->step);
}

/*
 * The transfer at pc runs natively, its outcome predicted (rec, the
 * privilege after it, its target q); T0 goes to the end of the block at q
 * (bq), or to q itself when that block ends at pc (a loop) or pc is the
 * trap vector: the hart runs the transfer itself, so QEMU's log shows it
 * (docs/TRACE.md: one transfer at most is emulated per visit to M-mode).
 */
static void run_predicted(struct stepper *s, const struct ntrace_retired *rec, unsigned int priv,
			  uint64_t pc, uint64_t q, struct step_block *bq, bool at_vector)
{
	s->pend = true;
	s->run.xfer = *rec;
	s->priv = (uint8_t)priv;
	step_follow_mode(s);   /* an sret into or out of V=1 */
	s->mode = STEP_RUN;
	if (at_vector || bq->end == pc) {
		s->blk = NULL;
		step_set_run(s, q, 0, 0, q);
	} else if (is_lrsc(bq)) {
		run_lrsc(s, bq, true);
		return;
	} else {
		s->blk = bq;
		step_set_run(s, q, bq->count, bq->rvc_mask, bq->end);
	}
	if (at_vector) {
		/* T1 stays off until the transfer ran (T0 at its target). */
		s->single_is_vector = true;
		s->vec_scause = step_trap_cause(s);
		s->vec_sepc = step_trap_epc(s);
		step_t1_set(s, false, 0);
	}
	t0_arm(s, s->run.end);
}

/*
 * The hart resumes at pc (regs: the frame mret returns through; NULL when
 * the firmware enters S/U-mode by other means and nothing can be
 * predicted).  When pc is a transfer, see run_predicted(); otherwise T0
 * goes to the end of the block at pc.
 */
static void plan(struct trace_hart *th, const struct trap_regs *regs, uint64_t pc)
{
	struct stepper *s = &th->step;
	struct step_block *b = lookup(s, pc, s->priv);
	struct ntrace_retired rec;
	unsigned int priv;
	bool at_vector;
	uint64_t q;

	s->held.whole = false;   /* (no longer the common visit's case) */
	step_follow_mode(s);   /* V changed: the other trap vector */
	at_vector = s->t1_on && pc == s->t1;
	s->pend = false;
	s->chain_len = 0;
	step_set_run(s, pc, 0, 0, pc);
	if (b->count == 0 && b->kind == BLOCK_END_FAULT) {
		run_free(s, pc);
		return;
	}
	if (b->count == 0 && b->kind == BLOCK_END_EMULATE && regs &&
	    step_outcome(s, regs, b, &q, &rec, &priv)) {
		if (q == pc && priv == s->priv && !at_vector) {
			/* A transfer to itself (`j .`): with T0 on its target
			 * the hart could never run it, so T0 stays on it and
			 * every visit there emulates one turn (end_transfer()). */
			run_block(s, b);
			return;
		}
		run_predicted(s, &rec, priv, pc, q, lookup(s, q, priv), at_vector);
		return;
	}
	if (b->count == 0 && (b->kind == BLOCK_END_NATIVE || (b->kind == BLOCK_END_EMULATE && regs))) {
		single_step(s, pc, b->raw, b->size, at_vector);
		return;
	}
	if (at_vector && (b->count || is_lrsc(b))) {
		/* The vector's first instruction, with T1 off. */
		single_step(s, pc, 0, step_insn_size(b->rvc_mask, 0), true);
		return;
	}
	if (is_lrsc(b)) {
		run_lrsc(s, b, regs != NULL);
		return;
	}
	run_block(s, b);
}

/* ---- Events ----------------------------------------------------------- */

/* T1 was off while the hart ran the first instruction(s) at the trap
 * vector: back on, unless a trap in that window changed sepc/scause. */
static bool vector_window_done(struct trace_hart *th)
{
	struct stepper *s = &th->step;
	bool clean = step_trap_cause(s) == s->vec_scause && step_trap_epc(s) == s->vec_sepc;

	s->single_is_vector = false;
	step_t1_follow_stvec(s);
	if (!clean)
		lost_track(th);
	return clean;
}

static void t0_single_done(struct trace_hart *th, struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	uint64_t pc = regs->mepc;

	if (s->single_is_vector && !vector_window_done(th)) {
		plan(th, regs, pc);
		return;
	}
	if (single_is_sbi_call(s)) {
		/* An SBI call came back.  in_m stays until an instruction
		 * retires: a trap before that (an interrupt pending at the
		 * return) is not reported, the trace resumes at its handler. */
		if (!s->in_m)
			sbi_call_trap(th, s->run.start);
	} else if (!retire_upto(th, regs, pc)) {
		lost_track(th);
	}
	plan(th, regs, pc);
}

/* T0 at the transfer that ends block b: the hart runs it with T0 after
 * the next block, or, when that block leads back here (a loop), the
 * firmware emulates it so T0 can stay on it. */
static void end_transfer(struct trace_hart *th, struct trap_regs *regs,
			 const struct step_block *cached)
{
	struct stepper *s = &th->step;
	/* A copy: looking the next block up may reuse this block's slot. */
	struct step_block copy = *cached, *b = &copy, *bn;
	struct ntrace_retired rec;
	unsigned int priv;
	uint64_t next;

	s->held.whole = false;   /* (no longer the common visit's case) */
	if (!step_outcome(s, regs, b, &next, &rec, &priv)) {
		single_step(s, b->end, b->raw, b->size, false);
		return;
	}
	bn = lookup(s, next, priv);
	if (next == b->end || bn->end == b->end) {
		step_emulate(s, b, regs, next, priv);
		hold(th, &rec);
		s->priv = (uint8_t)priv;
		plan(th, regs, next);
		return;
	}
	run_predicted(s, &rec, priv, b->end, next, bn, s->t1_on && b->end == s->t1);
}

/* The visits other than the common one (t0_hit(), t1_hit(), own_ebreak(),
 * virt_resync()) are out of line: inlined into stepper_breakpoint() they
 * made the common visit's code slower (bench-trace HTM 82.4 against 81.6),
 * single-stepping pays the call (552.5 against 573.4). */
static __attribute__((noinline)) void t0_hit(struct trace_hart *th, struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	struct step_block *b = s->blk;
	uint64_t pc = regs->mepc;

	if (s->mode == STEP_SINGLE) {
		t0_single_done(th, regs);
		return;
	}
	if (s->single_is_vector && !vector_window_done(th)) {
		plan(th, regs, pc);
		return;
	}
	if (!retire_upto(th, regs, pc)) {
		lost_track(th);
		plan(th, regs, pc);
		return;
	}
	if (!b || b->end != pc) {
		plan(th, regs, pc);
		return;
	}
	switch (b->kind) {
	case BLOCK_END_EMULATE:
		end_transfer(th, regs, b);
		return;
	case BLOCK_END_NATIVE:
		single_step(s, pc, b->raw, b->size, false);
		return;
	case BLOCK_END_SPLIT:
		if ((b->flags & BLOCK_WATCH_CODE) &&
		    !step_sfence_spares_cache(s, b->raw, regs->x))
			stepper_flush_cache(s);
		if (b->flags & BLOCK_WATCH_STVEC)
			step_t1_follow_stvec(s);
		plan(th, regs, pc);
		return;
	default:   /* BLOCK_END_FAULT: decode again, the page may be there now */
		plan(th, regs, pc);
		return;
	}
}

/* The hardware delivered a trap to S-mode (T1 at stvec fired), or to VS
 * (T1 at vstvec while the hart runs V=1). */
static __attribute__((noinline)) void t1_hit(struct trace_hart *th, struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	unsigned long cause = step_trap_cause(s);
	unsigned int to = PRV_S | (s->priv & STEP_V);

	s->trap_to_vs = in_virt(s);
	trap_at(th, regs, step_trap_epc(s), cause & ~MCAUSE_INTR, cause & MCAUSE_INTR);
	s->trap_to_vs = false;
	s->priv = (uint8_t)to;
	plan(th, regs, regs->mepc);
}

/* S/U-mode's own ebreak (breakpoints come to M-mode while tracing):
 * delivered as delegation would have (tracesbi delegates breakpoints). */
static __attribute__((noinline)) void own_ebreak(struct trace_hart *th, struct trap_regs *regs)
{
	struct trap_info trap = { CAUSE_BREAKPOINT, csr_read(mtval) };
	unsigned long epc = regs->mepc;

	trap_redirect(regs, &trap);
	stepper_redirected(th, regs, epc, CAUSE_BREAKPOINT);
}

/*
 * A loop's visit (from t0_common_hit(), whose first tests held: T0's block
 * is b, a branch ends it at pc, nothing pending, a run): the branch goes
 * back to a block that ends at it again.  The firmware runs the branch
 * here (step_emulate(): only mepc changes) and leaves what t0_hit() would
 * (retire_upto(), end_transfer(), hold(), plan()): what was held goes to
 * the encoder, and the run and this branch are held, as a whole held run
 * with the branch as its end (HELD_RECORD).  False, with nothing changed,
 * for anything else.  Out of line: it is the rarer of the two.
 */
static __attribute__((noinline)) bool loop_visit(struct trace_hart *th, struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	const struct step_block *b = s->blk;
	uint64_t pc = regs->mepc, next;
	unsigned int n = s->run.count;
	struct step_block *bn;
	uint8_t itype, size;

	if (n > NTRACE_BLOCK_MAX || (s->held.whole && s->held.kind == HELD_LAST))
		return false;
	jump_target(s, b, regs->x[b->rs1], regs->x[b->rs2], &next, &itype);
	/* the block at next must end at this branch again, not take b's slot
	 * (b's fields are read below), and not be the trap vector */
	bn = cache_at(s, next);
	if (next == pc || (bn == b && next != b->start))
		return false;
	bn = lookup_in(s, bn, next, s->priv);
	if (bn->end != pc || !bn->count || (s->t1_on && next == s->t1) || is_lrsc(bn))
		return false;
	size = b->size;
	/* retire_segment(): the run retired; hold(): the branch joins it */
	s->in_m = false;
	if (s->held.whole)
		lazy_send(th, &s->held.rec);   /* (HELD_RECORD: tested above) */
	else
		feed_held(th);
	lazy_hold_run(s, n);
	/* step_outcome()'s record of the branch (BLOCK_SEQ_INFERABLE marks jalr
	 * blocks only: no flags) */
	s->held.kind = HELD_RECORD;
	s->held.rec = (struct ntrace_retired){ .addr = pc, .size = size, .itype = itype,
					       .tstamp = s->tstamp, .priv = s->priv };
	/* step_emulate(), then plan(): the block at next, T0 at its end (here) */
	regs->mepc = next;
	s->blk = bn;
	step_set_run(s, next, bn->count, bn->rvc_mask, bn->end);
	t0_arm(s, bn->end);
	if (fast_enters(th, b, bn)) {
		/* the state of RAN: b's run and branch held, nothing pending */
		s->fast = STEP_FAST_RAN;
		s->fast_tag = fast_tag_of(s, b);
		s->fast_h1 = b;
		s->fast_it1 = itype;
	}
	return true;
}

/*
 * The common visit, fused: T0 fired at the end of the run it was armed
 * for and the block ends with a branch or jump.  With a transfer pending
 * (the predicted transfers before that run went as predicted) the hart
 * runs this one itself; with none, a loop's branch is run here
 * (loop_visit()).  It leaves the state t0_hit() would (retire_upto(),
 * hold(), end_transfer(), run_predicted()) and feeds the encoder the same
 * records, at a fraction of the cost, then predicts a chain: this is most
 * visits (docs/TRACE.md, "Cost").  False for anything else, with nothing
 * changed but a chain's earlier segments retired (which t0_hit() would do
 * first too).
 */
static bool t0_common_hit(struct trace_hart *th, struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	const struct step_block *b = s->blk;
	uint64_t pc = regs->mepc, end, next;
	unsigned int n, size, rd;
	struct step_block *bn;
	uint8_t itype, flags;

	if (s->mode != STEP_RUN || !b || pc != s->t0 || pc != b->end || s->single_is_vector)
		return false;
	/* this visit's records carry its time (an event's, breakpoint()) */
	if (s->tstamp || tci_encoder_ts_enabled(&th->te))
		s->tstamp = engine_timestamp(th);
	if (s->chain_len)
		retire_chain_ran(th);   /* pc == s->t0: the chain's end */
	if (pc != s->run.end || b->kind != BLOCK_END_EMULATE || (s->t1_on && pc == s->t1))
		return false;
	if (!s->pend)
		return b->op == EMU_BRANCH && s->run.count && loop_visit(th, regs);
	if (s->run.xfer.addr == pc || b->op == EMU_SRET)
		return false;
	n = s->run.count;
	/* Where the transfer goes (step_outcome()). */
	end = b->end;
	size = b->size;
	rd = b->op == EMU_BRANCH ? 0 : b->rd;
	flags = b->flags & BLOCK_SEQ_INFERABLE ? NTRACE_REC_SEQ_INFERABLE : 0;
	/* a jalr off IALIGN traps; with no run before it, 9.1 looks at the
	 * held instruction (step_outcome()) */
	if (!jump_target(s, b, regs->x[b->rs1], regs->x[b->rs2], &next, &itype) ||
	    (b->op == EMU_JALR && !n && s->seq_jump))
		return false;
	/* The next block must not take this one's slot (t0_hit() would find
	 * it gone), nor lead back to this transfer (a loop: emulated). */
	bn = cache_at(s, next);
	if (next == end || (bn == b && next != b->start))
		return false;
	bn = lookup_in(s, bn, next, s->priv);
	if (bn->end == end || is_lrsc(bn))
		return false;

	retire_whole(th);
	/* run_predicted(): the hart runs the transfer and bn (and the chain
	 * after it), T0 at the end. */
	s->pend = true;
	s->run.xfer = (struct ntrace_retired){ .addr = end, .size = (uint8_t)size, .itype = itype,
					       .tstamp = s->tstamp, .priv = s->priv,
					       .flags = flags };
	step_set_run(s, next, bn->count, bn->rvc_mask, bn->end);
	if (fast_enters(th, b, bn)) {
		/* from the next visit on, step_fast.S takes the common visit:
		 * b's run and end are what is held and pending */
		s->fast = STEP_FAST_PENDING;
		s->fast_tag = fast_tag_of(s, b);
		s->fast_h1 = b;
		s->fast_it1 = itype;
		s->blk = bn;
		t0_arm(s, bn->end);
		return true;
	}
	bn = step_chain_from(s, regs, end, rd, end + size, bn);
	s->blk = bn;
	t0_arm(s, bn->end);
	return true;
}

/*
 * A trigger fired with V not where the stepper has the hart: it went
 * between HS and V=1 where no trigger saw it (a trap from V=1 into HS, with
 * T1 on vstvec; docs/CTR.md "Limits").  What was held is lost; stepping
 * goes on from here.
 */
static __attribute__((noinline)) void virt_resync(struct trace_hart *th, struct trap_regs *regs)
{
	lost_track(th);
	/* (the triggers match S/U only: MPP is S or U) */
	th->step.priv = (uint8_t)step_priv_of(regs->mstatus);
	plan(th, regs, regs->mepc);
}

/* True for the common visit (t0_common_hit(): at most mepc changed). */
static inline __attribute__((always_inline)) bool breakpoint(struct trace_hart *th,
							       struct trap_regs *regs)
{
	struct stepper *s = &th->step;
	uint64_t pc = regs->mepc;

	if (s->lrsc.on) {
		/* the visit after an LR/SC sequence: T0 after the SC, T1 at its
		 * exit (the guard moved it off stvec) */
		bool at_exit = pc == s->lrsc.exit && pc != s->t0;

		lrsc_guard_end(s);
		if (at_exit) {
			s->tstamp = engine_timestamp(th);
			lrsc_exit_hit(th, regs);
			return false;
		}
	}
	if (s->follow_virt && !(regs->mstatus & MSTATUS_MPV) != !in_virt(s) &&
	    (pc == s->t0 || (s->t1_on && pc == s->t1))) {
		s->tstamp = engine_timestamp(th);
		virt_resync(th, regs);
		return false;
	}
	if (t0_common_hit(th, regs))
		return true;
	s->tstamp = engine_timestamp(th);
	if (s->mode != STEP_OFF && pc == s->t0)
		t0_hit(th, regs);
	else if (s->t1_on && pc == s->t1 && !(regs->mstatus & MSTATUS_MPV) == !in_virt(s))
		t1_hit(th, regs);
	else
		own_ebreak(th, regs);
	return false;
}

bool stepper_breakpoint(struct trace_hart *th, struct trap_regs *regs)
{
	bool untouched;

	stepper_fast_leave(&th->step);
	untouched = breakpoint(th, regs);

	/* (tested here: most visits leave nothing pending) */
	if (th->overflow_now | th->start_pending | th->ctr_recording) {
		engine_apply_pending(th, regs);
		return false;
	}
	return untouched;
}

void stepper_redirected(struct trace_hart *th, struct trap_regs *regs, unsigned long epc,
			unsigned long cause)
{
	struct stepper *s = &th->step;
	bool to_vs = regs->mstatus & MSTATUS_MPV;

	stepper_fast_leave(s);
	s->tstamp = engine_timestamp(th);
	if (to_vs && !s->follow_virt)
		return;   /* delivered to VS-mode: not traced (docs/TRACE.md) */
	if (s->single_is_vector)
		vector_window_done(th);
	/* (an interrupt here: the firmware took it and entered an SSE handler) */
	s->trap_to_vs = to_vs;
	trap_at(th, regs, epc, cause & ~MCAUSE_INTR, cause & MCAUSE_INTR);
	s->trap_to_vs = false;
	s->priv = (uint8_t)(PRV_S | (to_vs ? STEP_V : 0));
	plan(th, regs, regs->mepc);
}

/*
 * An SSE event's handler entered, or the context it interrupted resumed,
 * at the return of an SBI call: T0 after the ecall would never fire.  The
 * call goes out as a trap into M-mode now (what the trace shows of an SBI
 * call), and the trace resumes at pc with a sync message, as after any
 * stretch it did not see.  The frame of an SBI call is partial: nothing is
 * predicted from it.
 */
void stepper_sbi_returns_to(struct trace_hart *th, uint64_t pc, unsigned long mstatus)
{
	struct stepper *s = &th->step;

	stepper_fast_leave(s);
	if (!single_is_sbi_call(s))
		return;
	s->tstamp = engine_timestamp(th);
	if (!s->in_m)
		sbi_call_trap(th, s->run.start);
	/* in_m stays until an instruction retires: a trap before that is
	 * not reported, as after any SBI call (trap_at()) */
	if (mstatus & MSTATUS_MPV) {
		run_free(s, pc);   /* back to VS/VU-mode: not traced */
		return;
	}
	s->priv = (uint8_t)((mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT == PRV_S ? PRV_S : PRV_U);
	plan(th, NULL, pc);
}

/* ---- Start and stop ---------------------------------------------------- */

void stepper_start(struct trace_hart *th, struct trap_regs *regs, uint64_t pc, unsigned int priv,
		   bool follow_virt)
{
	struct stepper *s = &th->step;

	stepper_fast_leave(s);
	lrsc_guard_end(s);
	s->follow_virt = follow_virt;
	s->trap_to_vs = false;
	s->t0 = ADDR_NONE;
	s->t1 = ADDR_NONE;
	s->t1_on = false;
	s->in_m = false;
	s->single_is_vector = false;
	s->priv = (uint8_t)priv;
	s->tstamp = engine_timestamp(th);
	s->m_handler = csr_read(mtvec) & ~3UL;
	s->align4 = !(csr_read(misa) & (1UL << ('C' - 'A')));
	drop_held(s);
	stepper_flush_cache(s);
	/* Breakpoints come to M-mode while the hart steps: T0 and T1 are the
	 * firmware's (S/U's own ebreaks are handed on, own_ebreak). */
	csr_clear(medeleg, 1UL << CAUSE_BREAKPOINT);
	csr_write(CSR_TSELECT, 0);
	csr_write(CSR_TDATA1, trigger_off(s));
	s->t1_virt = false;
	if (in_virt(s))
		step_follow_mode(s);
	else
		step_t1_follow_stvec(s);
	plan(th, regs, pc);
}

void stepper_off(struct trace_hart *th)
{
	struct stepper *s = &th->step;

	stepper_fast_leave(s);
	lrsc_guard_end(s);
	if (s->mode == STEP_OFF && !s->t1_on)
		return;
	step_t0_off(s);
	if (s->t1_on)
		step_t1_set(s, false, 0);
	s->mode = STEP_OFF;
	drop_held(s);
	if (s->t1_virt) {
		csr_write(medeleg, s->medeleg_hs);   /* step_follow_mode() cut it */
		s->t1_virt = false;
	}
	/* tracesbi delegates breakpoints whenever the hart does not step. */
	csr_set(medeleg, 1UL << CAUSE_BREAKPOINT);
}

bool stepper_delegated_trap(struct trace_hart *th, struct trap_regs *regs, unsigned long cause)
{
	struct stepper *s = &th->step;
	struct trap_info trap = { cause, 0 };
	unsigned long epc = regs->mepc;

	stepper_fast_leave(s);
	if (!s->t1_virt || cause >= 64 || !((s->medeleg_hs >> cause) & 1) ||
	    !(regs->mstatus & MSTATUS_MPV))
		return false;
	trap.tval = csr_read(mtval);
	trap_redirect(regs, &trap);
	stepper_redirected(th, regs, epc, cause);
	return true;
}

void stepper_enter_m(struct trace_hart *th)
{
	struct stepper *s = &th->step;

	stepper_fast_leave(s);
	if (single_is_sbi_call(s) && !s->in_m) {
		s->tstamp = engine_timestamp(th);
		sbi_call_trap(th, s->run.start);
	}
}

void stepper_finish(struct trace_hart *th, const struct trap_regs *regs, uint64_t pc)
{
	struct stepper *s = &th->step;

	stepper_fast_leave(s);
	s->tstamp = engine_timestamp(th);
	if (s->mode != STEP_OFF && !s->in_m && !retire_upto(th, regs, pc))
		lost_track(th);
	feed_held(th);
	stepper_off(th);
}

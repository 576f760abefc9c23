// SPDX-License-Identifier: BSD-2-Clause
/*
 * The software trace encoder of one hart: instruction tracing turns on and
 * off as the encoder's registers say, the N-Trace encoder (lib/ntrace) is
 * configured from them, its bytes go to the hart's RAM sink, and the
 * stepper feeds it.  Everything here runs on the owner hart, or, while the
 * owner is parked, on any hart under the components' lock (mmio.c).
 *
 * The hart must be in a trap from S/U-mode (regs) to start stepping at the
 * interrupted instruction; when it is in M-mode for another reason (inside
 * an SBI call, HSM stopped) the start waits until it runs S/U code again
 * (start_pending: hart entry, or a self-IPI when an SBI call returns).
 * That is also how a start made by another hart on parked components
 * (mmio.c) takes effect: with regs NULL nothing here touches a CSR.
 *
 * In tandem-verification mode (TSBI_INGRESS_TV) the TV stepper
 * (tv_stepper.c) steps instead and writes Bluespec trace records to the
 * same sink; the N-Trace encoder is not used, and CTR does not record while
 * a TV session runs (docs/CTR.md).
 *
 * Emulated CTR (docs/CTR.md, "Recording") uses the same stepping: while
 * its registers enable recording for S or U and it is not frozen, the
 * hart steps, with or without an N-Trace session, and both are fed from
 * the same records (engine_block, engine_record).  Without a session
 * nothing is encoded.
 */
#include <string.h>
#include "firmware/service/dbtr.h"
#include "firmware/ctr/ctr_hart.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/trace.h"
#include "firmware/trace/step_fast.h"
#include "firmware/core/hart.h"
#include "firmware/service/ipi.h"
#include "firmware/service/tlb.h"
#include "firmware/trace/step_cache.h"
#include "firmware/core/umem.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/emu/time_csr.h"
#include "firmware/service/redirect.h"
#include "firmware/core/trap_vector.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/core/trigger.h"

uint64_t engine_timestamp(const struct trace_hart *th)
{
	if (!tci_encoder_ts_enabled(&th->te))
		return 0;
	return tci_encoder_timestamp(&th->te, time_now());
}

uint64_t engine_timestamp_at(const struct trace_hart *th, uint64_t now)
{
	if (!tci_encoder_ts_enabled(&th->te))
		return 0;
	return tci_encoder_timestamp(&th->te, now);
}

/* The encoder's byte sink: the hart's RAM sink.  A refusal is the TCI's
 * "trace buffer overflow (also known as trace lost)". */
static int sink_write(void *ctx, const uint8_t *data, size_t len)
{
	struct trace_hart *th = ctx;

	if (tci_ramsink_put(&th->ram, data, len) == 0)
		return 0;
	tci_encoder_set_overflow(&th->te);
	th->overflow_now = true;
	return -1;
}

/* trTeControl, trTeInstFeatures, trTsControl and tracesbi's call-stack
 * register -> the lib/ntrace configuration (the same fields the host tool
 * sets from its options). */
static void config_from_registers(const struct tci_encoder *te, struct ntrace_enc_config *c)
{
	uint32_t ctl = te->control, f = te->inst_features;

	memset(c, 0, sizeof(*c));
	c->trTeInstMode = (ctl & TRTE_INST_MODE_MASK) >> TRTE_INST_MODE_SHIFT == TRTE_INST_MODE_BASELINE
		? NTRACE_INST_MODE_BTM : NTRACE_INST_MODE_HTM;
	c->trTeContext = ctl & TRTE_CONTEXT;
	c->trTeInhibitSrc = ctl & TRTE_INHIBIT_SRC;
	c->trTeInstSyncMode = (uint8_t)((ctl & TRTE_INST_SYNC_MODE_MASK) >> TRTE_INST_SYNC_MODE_SHIFT);
	c->trTeInstSyncMax = (uint8_t)((ctl & TRTE_INST_SYNC_MAX_MASK) >> TRTE_INST_SYNC_MAX_SHIFT);
	c->trTeInstEnSequentialJump = f & TRTE_INST_EN_SEQUENTIAL_JUMP;
	c->trTeInstEnImplicitReturn = f & TRTE_INST_EN_IMPLICIT_RETURN;
	c->trTeInstImplicitReturnMode = (uint8_t)((f & TRTE_INST_IMPLICIT_RETURN_MODE_MASK) >>
						  TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT);
	c->trTeInstEnRepeatedHistory = f & TRTE_INST_EN_REPEATED_HISTORY;
	c->trTeInstEnAllJumps = f & TRTE_INST_EN_ALL_JUMPS;
	c->trTeInstExtendAddrMSB = f & TRTE_INST_EXTEND_ADDR_MSB;
	c->trTeSrcID = (uint16_t)((f & TRTE_SRC_ID_MASK) >> TRTE_SRC_ID_SHIFT);
	c->trTeSrcBits = (uint8_t)((f & TRTE_SRC_BITS_MASK) >> TRTE_SRC_BITS_SHIFT);
	c->trTsEnable = tci_encoder_ts_enabled(te);
	c->xlen = 64;
	c->call_stack_depth = (uint8_t)te->call_stack;
}

/*
 * A stop-on-wrap sink keeps the whole N-Trace messages (MSEO) of a write
 * that does not fit: TV records have no MSEO, so TV mode never hands it a
 * group it cannot hold.  It hands it idle bytes up to the end instead (the
 * sink takes them as whole), and the sink stops as for N-Trace: the buffer
 * holds whole groups, then idle bytes.
 */
void engine_tv_write(struct trace_hart *th, const uint8_t *data, size_t len)
{
	static const uint8_t idle[TV_GROUP_MAX + 1] = {
		[0 ... TV_GROUP_MAX] = 0xFF,
	};
	const struct tci_ramsink *r = &th->ram;
	uint64_t room = r->limit + TRRAM_ADDR_ALIGN - r->wp;

	if (th->overflow_now)
		return;
	if ((r->control & TRRAM_STOP_ON_WRAP) && len > room && room < sizeof(idle))
		sink_write(th, idle, (size_t)room + 1);
	else
		sink_write(th, data, len);
}

/* Whether the hart is being stepped now, by either stepper. */
static bool stepping(const struct trace_hart *th)
{
	return th->tv_mode ? th->tv.on : th->step.mode != STEP_OFF;
}

static unsigned int trapped_priv(const struct trap_regs *regs)
{
	return (unsigned int)((regs->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
}

/* Whether the hart must step: an N-Trace session that is not paused, or
 * CTR recording. */
static bool stepping_wanted(const struct trace_hart *th)
{
	return (th->tracing && !th->paused) || th->ctr_recording;
}

static int ctr_fetch(void *ctx, uint64_t addr, unsigned int priv, uint32_t *raw)
{
	unsigned long m = (csr_read(mstatus) & ~(MSTATUS_MPP | MSTATUS_MPV)) |
			  step_priv_mstatus(priv);
	struct trap_info fault;

	(void)ctx;
	return umem_fetch_insn(m, addr, raw, &fault);
}

/*
 * Without a session, CTR sets the records' form: 4-bit itypes with all
 * jumps (the type of every transfer but "jump" vs "other jump" is in the
 * itype: ctr_ingress.c) and ecall/ebreak retiring before their trap (the
 * ecall is then its own record, whatever follows it).
 */
static void configure_for_ctr(struct trace_hart *th)
{
	struct stepper *s = &th->step;

	if (!th->tracing) {
		s->itype4 = true;
		s->all_jumps = true;
		s->seq_jump = false;
		s->ecall_no_retire = false;
		s->max_block = NTRACE_BLOCK_MAX;
		s->trig_type = (uint8_t)trigger_exec_type(&th->hart->feat);
		stepper_fast_configure_ctr(th);
	}
	ctr_ingress_reset(&th->hart->ctr->ingress, s->itype4 && s->all_jumps, ctr_fetch, NULL);
}

/*
 * Whether V=1 can be stepped: no N-Trace session (which does not trace
 * VS/VU), a hart with H, and triggers that match there: mcontrol (type 2)
 * has no VS/VU bits and never fires with V=1 (Sdtrig); mcontrol6 (type 6)
 * has them.
 */
static bool virt_stepping_possible(const struct trace_hart *th)
{
	return !th->tracing && th->hart->feat.h && (th->hart->feat.trigger_types & (1u << 6));
}

/* Whether the stepper follows the hart into VS/VU: for CTR recording. */
static bool virt_steppable(const struct trace_hart *th)
{
	return th->ctr_recording && virt_stepping_possible(th);
}

/* Stepping on: the traced trap path, then the stepper from pc. */
static void begin_stepping(struct trace_hart *th, struct trap_regs *regs, uint64_t pc,
			   unsigned int priv)
{
	th->hart->trap_tracing = true;
	if (th->ctr_recording && !th->tv_mode)
		configure_for_ctr(th);
	/* the entry with the fast visit, for a session that can take it (an
	 * N-Trace session or CTR recording, alone): the others (both, TV
	 * mode, single-stepping, ...) do not pay its test */
	th->hart->trap_fast = (th->tracing && !th->paused) != th->ctr_recording && !th->tv_mode &&
			      th->step.fast_allowed != STEP_FAST_NEVER;
	trap_set_vector(th->hart);
	th->start_pending = false;
	if (th->tracing && !th->paused)
		th->te.status |= TSBI_STATUS_STEPPING;
	if (th->tv_mode) {
		tv_start(th, regs, pc, priv);
		return;
	}
	stepper_start(th, regs, pc, priv, virt_steppable(th));
}

static void end_stepping(struct trace_hart *th)
{
	if (th->tv_mode)
		tv_off(th);
	else
		stepper_off(th);
	th->te.status &= ~TSBI_STATUS_STEPPING;
	/* Not stepping (parked components, which another hart may be
	 * changing): mtvec is already the plain entry, and not this hart's. */
	if (!th->hart->trap_tracing)
		return;
	th->hart->trap_tracing = false;
	th->hart->trap_fast = false;
	trap_set_vector(th->hart);
}

static void step_or_wait(struct trace_hart *th, struct trap_regs *regs)
{
	if (regs && !(regs->mstatus & MSTATUS_MPV))
		begin_stepping(th, regs, regs->mepc, trapped_priv(regs));
	else
		th->start_pending = true;
}

/*
 * The stepper stops where the hart is (regs->mepc, or the SBI call it is
 * in when regs is NULL): everything before is reported, to N-Trace and
 * to CTR.  Returns that address.
 */
static uint64_t finish_stepping(struct trace_hart *th, struct trap_regs *regs)
{
	uint64_t next = 0;

	if (th->step.mode == STEP_OFF)
		return 0;
	if (regs) {
		next = regs->mepc;
	} else {
		/* In an SBI call: the ecall's trap into M-mode ends it. */
		stepper_enter_m(th);
		next = th->step.m_handler;
	}
	stepper_finish(th, regs, next);
	if (th->ctr_recording)
		ctr_ingress_flush(&th->hart->ctr->ingress, &th->hart->ctr->emul, next,
				  regs ? trapped_priv(regs) : PRV_M);
	return next;
}

/* After a consumer stopped: step on for the other, or stop. */
static void step_on_or_end(struct trace_hart *th, struct trap_regs *regs)
{
	if (stepping_wanted(th))
		step_or_wait(th, regs);
	else
		end_stepping(th);
}

/* engine_block_inline()'s privileges: those the qualifier takes by
 * privilege alone (no comparator), M never. */
static uint8_t block_privs_of(const struct tci_qualifier *q)
{
	uint8_t m = 0;
	unsigned int p;

	for (p = 0; p < 8 && !q->per_instruction; p++)
		if ((p & 3) != NTRACE_PRV_M && tci_qualify_priv(q, ntrace_ingress_tci_priv(p)))
			m |= (uint8_t)(1u << p);
	return m;
}

/* The N-Trace encoder and block stepping, configured from the registers. */
static bool start_ntrace(struct trace_hart *th, struct trap_regs *regs)
{
	struct ntrace_enc_config cfg;
	struct ntrace_sink sink = { sink_write, th };
	struct stepper *s = &th->step;

	config_from_registers(&th->te, &cfg);
	th->cfg = cfg;
	if (ntrace_enc_init(&th->enc, &cfg, &sink) < 0)
		return false;
	/* Stepping for CTR: what ran before the start is CTR's only. */
	finish_stepping(th, regs);
	tci_qualifier_init(&th->qual, &th->te.filters);
	ntrace_ingress_start(&th->ingress, &th->enc, &th->qual);
	th->block_privs = block_privs_of(&th->qual);
	s->itype4 = cfg.trTeInstEnImplicitReturn;
	s->all_jumps = cfg.trTeInstEnAllJumps;
	s->seq_jump = cfg.trTeInstEnSequentialJump;
	s->ecall_no_retire = th->te.ingress & TSBI_INGRESS_ECALL_NO_RETIRE;
	s->max_block = th->te.ingress & TSBI_INGRESS_SINGLE_STEP ? 1 : NTRACE_BLOCK_MAX;
	s->trig_type = (uint8_t)trigger_exec_type(&th->hart->feat);
	stepper_fast_configure(th);
	return true;
}

/* TV mode takes the triggers: CTR's recording so far is reported, and it
 * records no more during the session. */
static void start_tv(struct trace_hart *th, struct trap_regs *regs)
{
	finish_stepping(th, regs);
	if (th->step.mode != STEP_OFF)
		end_stepping(th);
	th->ctr_recording = false;
}

void engine_start(struct trace_hart *th, struct trap_regs *regs)
{
	if (!(th->te.status & TSBI_STATUS_INGRESS_OK)) {
		/* No execute triggers here: trTeInstTracing cannot be set. */
		th->te.control &= ~TRTE_INST_TRACING;
		return;
	}
	/* Triggers S-mode installed through SBI DBTR are its own: the start
	 * is refused (trTeInstTracing reads back 0) and the status says why
	 * (docs/SBI.md, arbitration). */
	th->te.status &= ~TSBI_STATUS_TRIGGERS_BUSY;
	if (dbtr_triggers_in_use(th->hart)) {
		th->te.status |= TSBI_STATUS_TRIGGERS_BUSY;
		th->te.control &= ~TRTE_INST_TRACING;
		return;
	}
	/* TV mode: the filters and N-Trace features do not apply
	 * (docs/TRACE.md, "Tandem-verification mode"). */
	if (th->te.ingress & TSBI_INGRESS_TV) {
		start_tv(th, regs);
		th->tv_mode = true;
	} else if (!start_ntrace(th, regs)) {
		th->te.control &= ~TRTE_INST_TRACING;
		return;
	}
	th->te.blocks = 0;
	th->te.insns = 0;
	th->te.status &= ~(TSBI_STATUS_PAUSED | TSBI_STATUS_LOST_TRACK);
	th->overflow_now = false;
	th->paused = false;
	th->tracing = true;
	step_or_wait(th, regs);
}

void engine_stop(struct trace_hart *th, struct trap_regs *regs)
{
	if (!th->tracing)
		return;
	if (th->tv_mode) {
		tv_finish(th, regs);
		end_stepping(th);
		th->tv_mode = false;
	} else {
		uint64_t next = finish_stepping(th, regs);

		ntrace_ingress_stop(&th->ingress, next, engine_timestamp(th));
	}
	th->te.status &= ~(TSBI_STATUS_PAUSED | TSBI_STATUS_STEPPING);
	th->tracing = false;
	th->paused = false;
	th->start_pending = false;
	th->overflow_now = false;
	step_on_or_end(th, regs);
}

/*
 * What the encoder made after the refusal describes instructions just
 * before the pause; the trace resumes elsewhere.  So the encoder starts
 * over, lost trace reported: Error (ETYPE 0, "program trace lost") now,
 * and SYNC=7 at the first record after stepping resumes (N-Trace 7.4).
 */
void engine_pause(struct trace_hart *th)
{
	struct ntrace_sink sink = { sink_write, th };

	th->overflow_now = false;
	if (!th->tracing || th->paused)
		return;
	/* CTR records on: the stepper goes on, the encoder is not fed. */
	if (th->ctr_recording)
		th->te.status &= ~TSBI_STATUS_STEPPING;
	else
		end_stepping(th);
	if (!th->tv_mode) {
		ntrace_enc_init(&th->enc, &th->cfg, &sink);
		ntrace_enc_start(&th->enc, NTRACE_SYNC_FIFO_OVERRUN);
		ntrace_enc_overflow(&th->enc, engine_timestamp(th));
	}
	th->paused = true;
	th->te.status |= TSBI_STATUS_PAUSED;
}

/* The sink takes bytes again: stepping resumes where the hart is; the
 * encoder's next record sends Error and SYNC=7 (it lost trace). */
static void engine_resume(struct trace_hart *th, struct trap_regs *regs)
{
	finish_stepping(th, regs);   /* stepping for CTR: its records first */
	th->paused = false;
	th->te.status &= ~TSBI_STATUS_PAUSED;
	step_or_wait(th, regs);
}

void engine_encoder_write(struct trace_hart *th, uint32_t off, uint32_t val,
			  struct trap_regs *regs)
{
	uint32_t fx = tci_encoder_write(&th->te, off, val, time_now());

	if (fx & TE_FX_STOP)
		engine_stop(th, regs);
	if (fx & TE_FX_START)
		engine_start(th, regs);
}

void engine_sink_write(struct trace_hart *th, uint32_t off, uint32_t val, struct trap_regs *regs)
{
	uint32_t fx = tci_ramsink_write(&th->ram, off, val);

	if ((fx & RAM_FX_ENABLED) && th->tracing && th->paused)
		engine_resume(th, regs);
}

/* A trap froze CTR's buffer: recording stopped, so does stepping for it. */
static void ctr_after_freeze(struct trace_hart *th, struct trap_regs *regs)
{
	struct ctr_hart *c = th->hart->ctr;

	c->ingress.froze = false;
	if (!regs || ((regs->mstatus & MSTATUS_MPV) && !th->step.follow_virt) ||
	    ctr_ingress_wanted(&c->emul))
		return;
	finish_stepping(th, regs);
	th->ctr_recording = false;
	step_on_or_end(th, regs);
}

void engine_apply_pending(struct trace_hart *th, struct trap_regs *regs)
{
	if (!(th->overflow_now | th->start_pending | th->ctr_recording))
		return;
	if (th->overflow_now)
		engine_pause(th);
	if (th->ctr_recording && th->hart->ctr->ingress.froze)
		ctr_after_freeze(th, regs);
	if (stepping_wanted(th) && th->start_pending && regs && !(regs->mstatus & MSTATUS_MPV))
		begin_stepping(th, regs, regs->mepc, trapped_priv(regs));
}

/* ---- CTR recording (ctr_hart.c, ctr_ingress.c) ------------------------- */

bool engine_ctr_access_begin(struct trace_hart *th, struct trap_regs *regs)
{
	if (th->step.mode == STEP_OFF)
		return false;
	finish_stepping(th, regs);
	return true;
}

/* Recording can step this hart: T0/T1 are there and not S-mode's own
 * (SBI DBTR); in VS/VU only where virt_steppable(). */
static bool ctr_can_step(const struct trace_hart *th, const struct trap_regs *regs)
{
	if ((regs->mstatus & MSTATUS_MPV) && !virt_stepping_possible(th))
		return false;
	return th->hart->trap_tracing ||
	       ((th->te.status & TSBI_STATUS_INGRESS_OK) && !dbtr_triggers_in_use(th->hart));
}

void engine_ctr_access_end(struct trace_hart *th, struct trap_regs *regs, uint64_t pc,
			   bool stopped)
{
	bool want = ctr_ingress_wanted(&th->hart->ctr->emul) && (stopped || ctr_can_step(th, regs)) &&
		    !th->tv_mode;   /* the TV session has the triggers */

	if (!stopped && want == th->ctr_recording)
		return;
	if (!stopped)
		finish_stepping(th, regs);
	th->ctr_recording = want;
	/* From the access on: it retires in the next run (N-Trace counts it). */
	if (stepping_wanted(th))
		begin_stepping(th, regs, pc, step_priv_of(regs->mstatus));
	else
		end_stepping(th);
}

/*
 * After the sink refused bytes in this event, nothing more is encoded:
 * the encoder resynchronises (Error, then SYNC=7) at the first record after
 * stepping resumes, not at a record of the instructions run meanwhile.
 */
/* The trap a record with itype 1/2 carries: the stepper reports it when
 * the trap has just been delivered to S-mode (sepc, scause are its), or
 * for an SBI call (then ctr_ingress.c does not read them). */
static void ctr_feed(struct trace_hart *th, const struct ntrace_block *b,
		     const struct ntrace_retired *r)
{
	struct ctr_hart *c = th->hart->ctr;
	struct ctr_trap trap = { 0, 0 };

	if (r && (r->itype == RV_ITYPE_EXCEPTION || r->itype == RV_ITYPE_INTERRUPT)) {
		bool vs = th->step.trap_to_vs;

		trap.epc = vs ? csr_read(CSR_VSEPC) : csr_read(sepc);
		trap.cause = vs ? csr_read(CSR_VSCAUSE) : csr_read(scause);
	}
	if (b)
		ctr_ingress_block(&c->ingress, &c->emul, b, r, &trap);
	else
		ctr_ingress_record(&c->ingress, &c->emul, r, &trap);
}

void engine_block(struct trace_hart *th, const struct ntrace_block *b,
		  const struct ntrace_retired *end)
{
	if (th->ctr_recording)
		ctr_feed(th, b, end);
	if (!th->tracing || th->paused || th->overflow_now)
		return;
	ntrace_ingress_block(&th->ingress, b, end);
	th->te.blocks++;
	th->te.insns += b->count + (end && end->size ? 1u : 0u);
}

void engine_record(struct trace_hart *th, const struct ntrace_retired *r)
{
	if (th->ctr_recording)
		ctr_feed(th, NULL, r);
	if (!th->tracing || th->paused || th->overflow_now)
		return;
	ntrace_ingress_retire(&th->ingress, r, 1);
	th->te.insns += r->size && (r->priv & 3) != PRV_M ? 1u : 0u;
}

/* A record for CTR alone: a trap the N-Trace encoder does not see (the
 * trace resumes at its handler with a sync), but CTR records (stepper.c,
 * trap_at(): a trap before anything retired after an SBI call). */
void engine_ctr_record(struct trace_hart *th, const struct ntrace_retired *r)
{
	if (th->ctr_recording)
		ctr_feed(th, NULL, r);
}

/* ---- Hooks of the rest of the firmware (trace.h) ----------------------- */

/*
 * A trap while the hart runs an LR/SC sequence natively (stepper.c, "LR/SC
 * sequences"; TV mode's stepper keeps its sequence in the same guard):
 * the guard comes off; an exception that came here only because the guard
 * undelegated it is delivered to S-mode as delegation would have, and
 * reported (true).  Otherwise the trap path goes on as ever.
 */
static bool lrsc_trap(struct trace_hart *th, struct trap_regs *regs, unsigned long cause)
{
	struct trap_info trap = { cause, 0 };
	unsigned long epc = regs->mepc;
	bool delegated;

	if (!th->step.lrsc.on)
		return false;
	delegated = lrsc_guard_took(&th->step.lrsc, cause);
	if (th->tv_mode)
		tv_lrsc_end(th);
	else
		stepper_lrsc_end(th);
	if (!delegated)
		return false;
	trap.tval = csr_read(mtval);
	trap_redirect(regs, &trap);
	if (th->tv_mode)
		tv_redirected(th, regs, epc);
	else
		stepper_redirected(th, regs, epc, cause);
	return true;
}

void trace_trap_done(struct trace_hart *th, struct trap_regs *regs)
{
	/* (tested here: most events of a stepped hart leave nothing pending) */
	if (th->overflow_now | th->start_pending | th->ctr_recording)
		engine_apply_pending(th, regs);
}

/* Every traced trap but a breakpoint of block stepping (false: see
 * trace_trap_enter()): out of line, so that the breakpoint's path saves
 * nothing for it. */
static __attribute__((noinline)) bool other_traced_trap(struct trace_hart *th,
							 struct trap_regs *regs,
							 unsigned long cause)
{
	if (cause == CAUSE_BREAKPOINT)
		tv_breakpoint(th, regs);
	else if (!lrsc_trap(th, regs, cause) &&
		 !(th->step.t1_virt && stepper_delegated_trap(th, regs, cause)))
		return trap_handle_traced_other(th, regs);   /* the ordinary handling */
	/* (delivered and reported) */
	trace_trap_done(th, regs);
	return false;
}

/* The engine's look at a traced trap before its ordinary handling (the
 * trap entry, trap/trap.c).  Block stepping's breakpoints, most traps of a
 * traced hart, go straight to the stepper (which applies what is pending
 * after them itself). */
bool trace_trap_enter(struct trace_hart *th, struct trap_regs *regs, unsigned long cause)
{
	/* (what follows may look at the stepper: the fast visit's state
	 * written out) */
	stepper_fast_leave(&th->step);
	if (cause == CAUSE_BREAKPOINT && !th->tv_mode)
		return stepper_breakpoint(th, regs);
	return other_traced_trap(th, regs, cause);
}

void trace_trap_redirected(struct trace_hart *th, struct trap_regs *regs,
			   unsigned long epc, unsigned long cause)
{
	if (!stepping(th))
		return;
	if (th->tv_mode)
		tv_redirected(th, regs, epc);
	else
		stepper_redirected(th, regs, epc, cause);
}


void trace_hart_leaving(struct hart *self)
{
	struct trace_hart *th = trace_hart_of(self);

	if (!th)
		return;
	if (stepping(th)) {
		if (th->tv_mode)
			tv_enter_m(th);
		else
			stepper_enter_m(th);
		end_stepping(th);
		th->start_pending = true;
		engine_apply_pending(th, NULL);
	}
	components_park(th);
}

void trace_sbi_returns_elsewhere(struct hart *self, const struct trap_regs *regs)
{
	struct trace_hart *th = trace_hart_of(self);

	if (!th)
		return;
	if (th->tv_mode)
		tv_sbi_returns_to(th, regs->mepc);
	else if (th->step.mode != STEP_OFF)
		stepper_sbi_returns_to(th, regs->mepc, regs->mstatus);
}

void trace_hart_entering(struct hart *self, unsigned long addr, unsigned long mode)
{
	struct trace_hart *th = trace_hart_of(self);

	if (!th)
		return;
	/* What other harts programmed meanwhile starts here. */
	components_unpark(th);
	if (th->start_pending && stepping_wanted(th))
		begin_stepping(th, NULL, addr, (unsigned int)mode);
}

void trace_wait_done(struct hart *self)
{
	struct trace_hart *th = trace_hart_of(self);

	/* Back to S/U-mode through an SBI return: the self-IPI traps right
	 * there, with the frame the start needs. */
	if (th && th->start_pending && stepping_wanted(th))
		ipi_post(self, IPI_EVENT_TRACE);
}

/* A fence another hart asked for keeps the block cache as the hart's own
 * sfence.vma of an address does (step_fence_spares_cache()): pages
 * whose leaves map no cached code. */
static bool fence_spares_cache(const struct stepper *s, const struct fence_request *req)
{
	unsigned long a, n;

	if (!fence_pages(req, &a, &n))
		return false;
	for (; n; n--, a += FENCE_PAGE_SIZE)
		if (!step_fence_spares_cache(s, a))
			return false;
	return true;
}

void trace_code_changed(struct hart *self, const struct fence_request *req)
{
	struct trace_hart *th = trace_hart_of(self);

	if (th && th->step.mode != STEP_OFF && !fence_spares_cache(&th->step, req))
		stepper_flush_cache(&th->step);
}

/* The trace engine's part of a hart's life and the machine's (the
 * functions of trace.h, which mmio.c and components.c define too). */
static const struct fw_hooks trace_hooks = {
	.hart_leaving = trace_hart_leaving,
	.hart_entering = trace_hart_entering,
	.wait_done = trace_wait_done,
	.code_changed = trace_code_changed,
	.ipi_events = IPI_EVENT_TRACE,
	.ipi = trace_ipi,
	.before_reset = trace_stop_all,
};
FW_HOOKS(30, trace_hooks);

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tandem-verification mode: one M-mode visit per S/U instruction
 * (tv_stepper.h; docs/TRACE.md, "Tandem-verification mode").
 *
 * At each visit the hart is about to run the instruction at mepc: the
 * firmware decodes it, works out where it goes and what it will touch from
 * the registers (the pre-state), and arms T0 there.  At the next visit the
 * registers hold its effects; its group goes out with the new values read
 * from the trap frame, the FP registers and the CSRs.
 */
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/tv_stepper.h"
#include "firmware/trace/tv_record.h"
#include "firmware/core/hart.h"
#include "firmware/core/umem.h"
#include "firmware/core/guard.h"
#include "firmware/core/riscv_csr.h"
#include "lib/rvinsn/rvinsn.h"
#include "firmware/service/redirect.h"
#include "firmware/emu/fpreg.h"
#include "firmware/core/trigger.h"

#define ADDR_NONE 1UL   /* odd: never an instruction address */

/* CSR numbers as trace register addresses (chapter 3: the Debug spec's
 * abstract register numbers, CSRs at their own number). */
#define REG_FCSR    0x003u
#define REG_SSTATUS 0x100u
#define REG_STVEC   0x105u
#define REG_SEPC    0x141u
#define REG_SCAUSE  0x142u
#define REG_STVAL   0x143u

#define REG_A0 10
#define REG_A1 11

/* ---- Triggers: execute, S and U, action 0 (breakpoint), before ----------- */

/* (core/trigger.h; TV mode steps S and U only) */
static unsigned long exec_tdata1(const struct tv_stepper *s, bool on)
{
	return on ? trigger_exec_on(s->trig_type, false) : trigger_exec_off(s->trig_type);
}

/* T0 is trigger 0; tselect stays 0 while the hart steps. */
static void t0_move(struct tv_stepper *s, uint64_t addr)
{
	if (addr == s->t0)
		return;
	if (addr == ADDR_NONE) {
		csr_write(CSR_TDATA1, exec_tdata1(s, false));
	} else {
		csr_write(CSR_TDATA2, addr);
		if (s->t0 == ADDR_NONE)
			csr_write(CSR_TDATA1, exec_tdata1(s, true));
	}
	s->t0 = addr;
}

static void t1_move(struct tv_stepper *s, bool on, uint64_t addr)
{
	csr_write(CSR_TSELECT, 1);
	csr_write(CSR_TDATA1, exec_tdata1(s, false));
	if (on) {
		csr_write(CSR_TDATA2, addr);
		csr_write(CSR_TDATA1, exec_tdata1(s, true));
	}
	csr_write(CSR_TSELECT, 0);
	s->t1_on = on;
	s->t1 = on ? addr : ADDR_NONE;
}

/* T1 on stvec's BASE: every exception, and every interrupt in direct mode
 * (vectored interrupts enter elsewhere and are not seen). */
static void t1_follow_stvec(struct tv_stepper *s)
{
	uint64_t base = csr_read(stvec) & ~3UL;

	if (!s->t1_on || s->t1 != base)
		t1_move(s, true, base);
}

/* ---- State readers ------------------------------------------------------ */

static unsigned int trapped_priv(const struct trap_regs *regs)
{
	return (unsigned int)((regs->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
}

static bool fp_usable(const struct tv_stepper *s, const struct trap_regs *regs)
{
	return s->params.flen_bytes && (regs->mstatus & MSTATUS_FS);
}

/* The CSRs S/U code can write, by number; others are not reported. */
static bool csr_value(unsigned int csr, unsigned long *v)
{
	switch (csr) {
	case 0x001: return !csr_read_guarded(0x001, v);
	case 0x002: return !csr_read_guarded(0x002, v);
	case 0x003: return !csr_read_guarded(0x003, v);
	case 0x100: return !csr_read_guarded(0x100, v);
	case 0x104: return !csr_read_guarded(0x104, v);
	case 0x105: return !csr_read_guarded(0x105, v);
	case 0x106: return !csr_read_guarded(0x106, v);
	case 0x10a: return !csr_read_guarded(0x10a, v);
	case 0x140: return !csr_read_guarded(0x140, v);
	case 0x141: return !csr_read_guarded(0x141, v);
	case 0x142: return !csr_read_guarded(0x142, v);
	case 0x143: return !csr_read_guarded(0x143, v);
	case 0x144: return !csr_read_guarded(0x144, v);
	case 0x14d: return !csr_read_guarded(0x14d, v);
	case 0x180: return !csr_read_guarded(0x180, v);
	default: return false;
	}
}

/* ---- Groups -------------------------------------------------------------- */

/*
 * The first group of a session: the state the verifier starts from
 * (chapter 3: state initialization, apart from any instruction): pc,
 * privilege, x1-x31, the S-mode CSRs, and f0-f31 and fcsr when the FPU is
 * on.
 */
static void emit_initial(struct trace_hart *th, const struct trap_regs *regs)
{
	static const uint16_t csrs[] = { 0x100, 0x104, 0x105, 0x106, 0x140, 0x141, 0x142, 0x143,
					 0x180 };
	unsigned long v;
	unsigned int r;

	tv_group_begin(th);
	tv_put_op(th, TVTRACE_OP_STATE_INIT);
	tv_put_state(th, TVTRACE_STATE_PC, regs->mepc);
	tv_put_state(th, TVTRACE_STATE_PRIV, trapped_priv(regs));
	for (r = 1; r < 32; r++)
		tv_put_reg(th, TVTRACE_REG_GPR(r), regs->x[r]);
	for (r = 0; r < sizeof(csrs) / sizeof(csrs[0]); r++)
		if (csr_value(csrs[r], &v))
			tv_put_reg(th, csrs[r], v);
	if (fp_usable(&th->tv, regs)) {
		for (r = 0; r < 32; r++)
			tv_put_reg(th, TVTRACE_REG_FPR(r), fpreg_read(r, 8));
		if (csr_value(REG_FCSR, &v))
			tv_put_reg(th, REG_FCSR, v);
	}
	tv_group_end(th);
	th->tv.need_init = false;
}

/*
 * What an SBI call that returns elsewhere changed besides the pc: SSE
 * (firmware/service/sse.c) replaces a6/a7, sepc and sstatus.SPP/SPIE, and the
 * handler or the resumed context may see any GPR as the call left it.
 * scause and stval stay as they were and are left out: a group that
 * writes scause is read as a trap into S-mode.
 */
static void put_sse_state(struct trace_hart *th, const struct trap_regs *regs)
{
	unsigned int r;

	for (r = 1; r < 32; r++)
		tv_put_reg(th, TVTRACE_REG_GPR(r), regs->x[r]);
	tv_put_reg(th, REG_SEPC, csr_read(sepc));
	tv_put_reg(th, REG_SSTATUS, csr_read(sstatus));
}

static uint64_t store_data(const struct tv_stepper *s)
{
	unsigned int bits = 8u << s->in.mem_size;

	return bits >= 64 ? s->sdata : s->sdata & ((1ULL << bits) - 1);
}

/* Appendix D: effective address, the physical one when translation is
 * off (Bare: the same), and a store's data. */
static void put_memory(struct trace_hart *th)
{
	const struct tv_stepper *s = &th->tv;

	tv_put_state(th, TVTRACE_STATE_EADDR, s->eaddr);
	if (!(csr_read(satp) >> SATP_MODE_SHIFT))
		tv_put_state(th, TVTRACE_STATE_PADDR, s->eaddr);
	if (s->in.has_data)
		tv_put_state(th, (uint8_t)(TVTRACE_STATE_DATA8 + s->in.mem_size), store_data(s));
}

/* The register writes of the pending instruction, from the post-state. */
static void put_writes(struct trace_hart *th, const struct trap_regs *regs)
{
	const struct tv_stepper *s = &th->tv;
	const struct tv_insn *in = &s->in;
	unsigned long v;

	if (in->dest == TV_DEST_GPR)
		tv_put_reg(th, TVTRACE_REG_GPR(in->rd), regs->x[in->rd]);
	else if (in->dest == TV_DEST_FPR && fp_usable(s, regs))
		tv_put_reg(th, TVTRACE_REG_FPR(in->rd), fpreg_read(in->rd, 8));
	if (in->writes_csr && csr_value(in->csr, &v))
		tv_put_reg(th, in->csr, v);
	if (in->fp_flags && fp_usable(s, regs) && csr_value(REG_FCSR, &v))
		tv_put_reg(th, REG_FCSR, v);
	/* An SBI call: the firmware's results (SBI spec: a0 error, a1 value). */
	if (in->flow == TV_FLOW_ECALL && s->priv == PRV_S) {
		tv_put_reg(th, TVTRACE_REG_GPR(REG_A0), regs->x[REG_A0]);
		tv_put_reg(th, TVTRACE_REG_GPR(REG_A1), regs->x[REG_A1]);
	}
	if (in->flow == TV_FLOW_SRET)
		tv_put_reg(th, REG_SSTATUS, csr_read(sstatus));
}

/* The pending instruction retired; the hart goes on at `now` in `priv`. */
static void emit_retired(struct trace_hart *th, const struct trap_regs *regs, uint64_t now,
			 unsigned int priv)
{
	struct tv_stepper *s = &th->tv;

	tv_group_begin(th);
	if (now == s->pc + s->in.len)
		tv_put_op(th, TVTRACE_OP_INCR_PC);
	else
		tv_put_state(th, TVTRACE_STATE_PC, now);
	tv_put_insn(th, s->raw);
	if (s->returns_elsewhere)
		put_sse_state(th, regs);
	else
		put_writes(th, regs);
	if (s->in.mem)
		put_memory(th);
	if (priv != s->priv)
		tv_put_state(th, TVTRACE_STATE_PRIV, priv);
	tv_group_end(th);
	th->te.insns++;
	s->pending = false;
	s->returns_elsewhere = false;
	if (s->in.writes_csr && s->in.csr == REG_STVEC)
		t1_follow_stvec(s);
}

/*
 * A trap into S-mode at `vector` (Appendix C.7, C.8): the instruction that
 * caused it (none for an interrupt or a fetch fault), the CSRs the trap
 * wrote and the privilege.
 */
static void emit_trap(struct trace_hart *th, uint64_t vector, bool with_insn)
{
	struct tv_stepper *s = &th->tv;

	tv_group_begin(th);
	tv_put_state(th, TVTRACE_STATE_PC, vector);
	if (with_insn) {
		tv_put_insn(th, s->raw);
		th->te.insns++;
	}
	tv_put_reg(th, REG_SEPC, csr_read(sepc));
	tv_put_reg(th, REG_SCAUSE, csr_read(scause));
	tv_put_reg(th, REG_STVAL, csr_read(stval));
	tv_put_reg(th, REG_SSTATUS, csr_read(sstatus));
	tv_put_state(th, TVTRACE_STATE_PRIV, PRV_S);
	tv_group_end(th);
	s->pending = false;
}

/* The ingress lost the hart for a moment: noted in the status register;
 * the stream itself stays well-formed (every group is whole). */
static void lost_track(struct trace_hart *th)
{
	th->te.status |= TSBI_STATUS_LOST_TRACK;
}

/* ---- Letting one instruction run ----------------------------------------- */

static uint64_t sret_target(const struct tv_stepper *s, const struct trap_regs *regs)
{
	if (s->priv != PRV_S || (regs->mstatus & MSTATUS_TSR))
		return s->pc + s->in.len;   /* illegal: it traps */
	return csr_read(sepc);
}

/* Where the instruction goes, from the pre-state. */
static uint64_t next_pc(const struct tv_stepper *s, const struct trap_regs *regs)
{
	const struct tv_insn *in = &s->in;

	switch (in->flow) {
	case TV_FLOW_BRANCH:
		return rv_branch_taken(in->cond, regs->x[in->rs1], regs->x[in->rs2])
			? s->pc + (uint64_t)in->imm : s->pc + in->len;
	case TV_FLOW_JAL:
		return s->pc + (uint64_t)in->imm;
	case TV_FLOW_JALR:
		return (regs->x[in->rs1] + (uint64_t)in->imm) & ~1UL;
	case TV_FLOW_SRET:
		return sret_target(s, regs);
	default:
		return s->pc + in->len;
	}
}

/* Address and store data from the pre-state. */
static void save_memory_operands(struct tv_stepper *s, const struct trap_regs *regs)
{
	const struct tv_insn *in = &s->in;

	s->eaddr = regs->x[in->rs1] + (in->mem == TV_MEM_AMO ? 0 : (uint64_t)in->imm);
	if (!in->has_data)
		s->sdata = 0;
	else if (in->data_fpr)
		s->sdata = fp_usable(s, regs) ? fpreg_read(in->rs2, 8) : 0;
	else
		s->sdata = regs->x[in->rs2];
}

/* T1 would fire at once on the vector's first instruction: it is off
 * while that instruction runs; a trap in that window moves sepc/scause. */
static void pause_t1(struct tv_stepper *s)
{
	s->vec_sepc = csr_read(sepc);
	s->vec_scause = csr_read(scause);
	s->t1_paused = true;
	t1_move(s, false, 0);
}

static void resume_t1(struct trace_hart *th)
{
	struct tv_stepper *s = &th->tv;

	if (!s->t1_paused)
		return;
	s->t1_paused = false;
	if (csr_read(sepc) != s->vec_sepc || csr_read(scause) != s->vec_scause)
		lost_track(th);
	t1_follow_stvec(s);
}

/*
 * A jump to itself cannot run under T0 (it would fire before the jump
 * runs): the firmware does what it does (the link), reports it, and T0
 * stays on it for the next round.
 */
static void emulate_self_jump(struct trace_hart *th, struct trap_regs *regs)
{
	struct tv_stepper *s = &th->tv;

	if (s->in.dest == TV_DEST_GPR)
		regs->x[s->in.rd] = s->pc + s->in.len;
	emit_retired(th, regs, s->pc, s->priv);
	t0_move(s, s->pc);
}

/* ---- LR/SC sequences ------------------------------------------------------ */

/*
 * A visit between an LR and its SC would make the SC fail at every try
 * (stepper.c, "LR/SC sequences", has why).  At the LR's visit a
 * constrained sequence (lrsc.h) is let run whole: T0 after the SC, T1 on
 * its exit when it has one, the guard on (lrsc_guard.h).  The visit that
 * ends it (T0, T1 at the exit, a trap at one of its instructions) finds
 * the path and every value in it from the registers there (lrsc_replay())
 * and emits one group per instruction, as one visit each would have.
 */

/* The mstatus that fetches the pending instruction's code (MPRV). */
static unsigned long code_context(const struct tv_stepper *s)
{
	return (csr_read(mstatus) & ~MSTATUS_MPP) | (unsigned long)s->priv << MSTATUS_MPP_SHIFT;
}

static bool has_rvc(void)
{
	return csr_read(misa) & (1UL << ('C' - 'A'));
}

/* The pending instruction, an LR, begins a sequence the hart runs whole
 * (its state: the block stepper's, th->step.lrsc). */
static bool lrsc_begin(struct trace_hart *th)
{
	struct tv_stepper *s = &th->tv;
	unsigned long ctx = code_context(s);
	struct lrsc_seq seq;

	if (s->t1_paused || lrsc_scan(lrsc_fetch_mprv, &ctx, s->pc, has_rvc(), &seq) != LRSC_OK)
		return false;
	th->step.lrsc.at = s->pc;
	lrsc_guard_on(&th->step.lrsc, seq.exit);
	if (seq.exit != LRSC_NO_EXIT)
		t1_move(s, true, seq.exit);
	t0_move(s, seq.end);
	return true;
}

void tv_lrsc_end(struct trace_hart *th)
{
	struct lrsc_guard *g = &th->step.lrsc;

	if (!g->on)
		return;
	lrsc_guard_off(g);
	if (g->exit != LRSC_NO_EXIT)
		t1_follow_stvec(&th->tv);
}

/*
 * The sequence ran up to stop (regs: the registers there): its groups go
 * out, each with the register it wrote as the replay gives it (regs->x
 * holds them one after the other, and ends as it was: lrsc_replay()
 * checked that the path leaves them so).  When stop is an instruction of
 * the sequence (which trapped), that one is the pending instruction.  Out
 * of line: its frame holds the sequence.
 */
static __attribute__((noinline)) void lrsc_retire(struct trace_hart *th, struct trap_regs *regs,
						  uint64_t stop)
{
	struct tv_stepper *s = &th->tv;
	unsigned long ctx = code_context(s);
	struct lrsc_step steps[LRSC_MAX];
	struct lrsc_seq seq;
	int n, i;

	uint64_t lr = th->step.lrsc.at;

	s->pending = false;
	th->step.lrsc.at = LRSC_NO_EXIT;
	if (lrsc_scan(lrsc_fetch_mprv, &ctx, lr, has_rvc(), &seq) != LRSC_OK ||
	    (n = lrsc_replay(&seq, regs->x, stop, steps)) < 0) {
		lost_track(th);
		return;
	}
	for (i = 0; i <= n; i++) {
		const struct lrsc_step *st = &steps[i];

		if (i == n) {
			/* stop: after the sequence, or the instruction that trapped */
			unsigned int k;

			for (k = 0; k < seq.n; k++)
				if (seq.lr + seq.off[k] == stop)
					break;
			if (k == seq.n)
				return;
			s->raw = seq.raw[k];
			s->pc = stop;
			tv_decode(s->raw, &s->in);
			s->pending = true;
			return;
		}
		s->pc = st->pc;
		s->raw = seq.raw[st->index];
		tv_decode(s->raw, &s->in);
		s->eaddr = st->eaddr;
		s->sdata = st->sdata;
		if (s->in.dest == TV_DEST_GPR)
			regs->x[s->in.rd] = st->value;
		emit_retired(th, regs, i + 1 < n ? steps[i + 1].pc : stop, s->priv);
	}
}

/* The hart is about to run the instruction at mepc: T0 where it goes. */
static void prepare(struct trace_hart *th, struct trap_regs *regs)
{
	struct tv_stepper *s = &th->tv;
	struct trap_info fault;

	s->pc = regs->mepc;
	s->priv = (uint8_t)trapped_priv(regs);
	s->pending = true;
	s->fetch_fault = false;
	if (s->t1_on && s->pc == s->t1)
		pause_t1(s);
	if (umem_fetch_insn(regs->mstatus, s->pc, &s->raw, &fault)) {
		/* The hart takes the fetch fault: T1 (or the redirect) sees it. */
		s->fetch_fault = true;
		t0_move(s, ADDR_NONE);
		return;
	}
	tv_decode(s->raw, &s->in);
	s->next = next_pc(s, regs);
	if (s->in.mem)
		save_memory_operands(s, regs);
	if (lrsc_is_lr(s->raw) && lrsc_begin(th))
		return;
	if (s->next == s->pc && (s->in.flow == TV_FLOW_BRANCH || s->in.flow == TV_FLOW_JAL ||
				 s->in.flow == TV_FLOW_JALR)) {
		emulate_self_jump(th, regs);
		return;
	}
	if (s->t1_on && s->next == s->t1) {
		/* T0 and T1 on one address: a trap shows in sepc/scause. */
		s->vec_sepc = csr_read(sepc);
		s->vec_scause = csr_read(scause);
	}
	t0_move(s, s->next);
}

/* ---- Visits --------------------------------------------------------------- */

/* sstatus.SPP after a trap into S: the privilege the trap came from. */
static unsigned int trapped_from(void)
{
	return csr_read(sstatus) & MSTATUS_SPP ? PRV_S : PRV_U;
}

/*
 * A trap was delivered to S-mode at epc (regs: the handler's entry).  The
 * pending instruction caused it (epc is its pc; interrupts: it did not
 * run), or retired before it (epc is where it went).
 */
static void trap_delivered(struct trace_hart *th, struct trap_regs *regs, uint64_t epc,
			   unsigned long cause)
{
	struct tv_stepper *s = &th->tv;
	bool intr = cause & MCAUSE_INTR;

	if (s->need_init) {
		emit_initial(th, regs);
		s->pending = false;
	}
	if (th->step.lrsc.at != LRSC_NO_EXIT)
		lrsc_retire(th, regs, epc);
	if (s->pending && epc == s->pc) {
		emit_trap(th, regs->mepc, !intr && !s->fetch_fault);
	} else if (s->pending && !s->fetch_fault && epc == s->next) {
		emit_retired(th, regs, epc, trapped_from());
		emit_trap(th, regs->mepc, false);
	} else {
		if (s->pending)
			lost_track(th);
		emit_trap(th, regs->mepc, false);
	}
	prepare(th, regs);
}

/* T0 fired at the pending instruction's successor. */
static void step_done(struct trace_hart *th, struct trap_regs *regs)
{
	struct tv_stepper *s = &th->tv;

	if (s->need_init)
		emit_initial(th, regs);
	else if (s->pending)
		emit_retired(th, regs, regs->mepc, trapped_priv(regs));
	prepare(th, regs);
}

/* Whether a breakpoint at T1's address is a trap (not T0 on the same
 * address with sepc/scause as they were). */
static bool t1_trap(const struct tv_stepper *s, uint64_t pc)
{
	return !(s->pending && pc == s->t0 &&
		 csr_read(sepc) == s->vec_sepc && csr_read(scause) == s->vec_scause);
}

void tv_breakpoint(struct trace_hart *th, struct trap_regs *regs)
{
	struct tv_stepper *s = &th->tv;
	uint64_t pc = regs->mepc;
	const struct lrsc_guard *g = &th->step.lrsc;
	bool lrsc_done = g->at != LRSC_NO_EXIT && (pc == s->t0 || (g->on && pc == g->exit));

	tv_lrsc_end(th);
	if (lrsc_done) {
		/* T0 after the SC, T1 at the exit: the sequence ran */
		lrsc_retire(th, regs, pc);
		prepare(th, regs);
		return;
	}
	if (s->t1_on && pc == s->t1 && !(regs->mstatus & MSTATUS_MPV) && t1_trap(s, pc)) {
		trap_delivered(th, regs, csr_read(sepc), csr_read(scause));
		return;
	}
	resume_t1(th);
	if (pc == s->t0) {
		step_done(th, regs);
		return;
	}
	/* S/U-mode's own ebreak: delivered as delegation would have. */
	{
		struct trap_info trap = { CAUSE_BREAKPOINT, csr_read(mtval) };

		trap_redirect(regs, &trap);
		tv_redirected(th, regs, pc);
	}
}

void tv_redirected(struct trace_hart *th, struct trap_regs *regs, unsigned long epc)
{
	if (!th->tv.on || (regs->mstatus & MSTATUS_MPV))
		return;   /* delivered to VS-mode: not traced */
	resume_t1(th);
	trap_delivered(th, regs, epc, csr_read(scause));
}

/* ---- Start and stop ---------------------------------------------------------- */

static uint8_t flen_bytes(void)
{
	unsigned long misa = csr_read(misa);

	if (misa & (1UL << ('D' - 'A')))
		return 8;
	return misa & (1UL << ('F' - 'A')) ? 4 : 0;
}

static struct tvtrace_params hart_params(void)
{
	return (struct tvtrace_params){ .xlen_bytes = 8, .flen_bytes = flen_bytes(), .mlen_bytes = 8 };
}

uint32_t tv_params_word(void)
{
	struct tvtrace_params p = hart_params();

	return (uint32_t)p.xlen_bytes << TSBI_TV_XLEN_SHIFT | (uint32_t)p.flen_bytes << TSBI_TV_FLEN_SHIFT |
	       (uint32_t)p.mlen_bytes << TSBI_TV_MLEN_SHIFT;
}

void tv_start(struct trace_hart *th, struct trap_regs *regs, uint64_t pc, unsigned int priv)
{
	struct tv_stepper *s = &th->tv;

	s->on = true;
	s->pending = false;
	s->returns_elsewhere = false;
	s->t0 = ADDR_NONE;
	s->t1 = ADDR_NONE;
	s->t1_on = false;
	s->t1_paused = false;
	th->step.lrsc.at = LRSC_NO_EXIT;
	s->need_init = true;
	s->priv = (uint8_t)priv;
	s->trig_type = (uint8_t)trigger_exec_type(&th->hart->feat);
	s->params = hart_params();
	/* Breakpoints come to M-mode while the hart steps (T0, T1; S/U's own
	 * ebreaks are handed on by tv_breakpoint). */
	csr_clear(medeleg, 1UL << CAUSE_BREAKPOINT);
	csr_write(CSR_TSELECT, 0);
	csr_write(CSR_TDATA1, exec_tdata1(s, false));
	t1_follow_stvec(s);
	if (regs) {
		emit_initial(th, regs);
		prepare(th, regs);
	} else {
		/* No frame to decode from: T0 on pc itself, the first visit
		 * comes before the first instruction runs. */
		t0_move(s, pc);
	}
}

void tv_off(struct trace_hart *th)
{
	struct tv_stepper *s = &th->tv;

	if (!s->on)
		return;
	tv_lrsc_end(th);
	th->step.lrsc.at = LRSC_NO_EXIT;
	t0_move(s, ADDR_NONE);
	if (s->t1_on)
		t1_move(s, false, 0);
	s->on = false;
	s->pending = false;
	s->t1_paused = false;
	/* tracesbi delegates breakpoints whenever the hart does not step. */
	csr_set(medeleg, 1UL << CAUSE_BREAKPOINT);
}

void tv_enter_m(struct trace_hart *th)
{
	struct tv_stepper *s = &th->tv;

	if (!s->on || !s->pending || s->need_init || s->in.flow != TV_FLOW_ECALL)
		return;
	tv_group_begin(th);
	tv_put_state(th, TVTRACE_STATE_PC, csr_read(mtvec) & ~3UL);
	tv_put_insn(th, s->raw);
	tv_put_state(th, TVTRACE_STATE_PRIV, PRV_M);
	tv_group_end(th);
	th->te.insns++;
	s->pending = false;
}

/*
 * An SBI call that returns elsewhere: an SSE event's handler entered, or
 * the context it interrupted resumed (ext-sse.adoc).  The call frame here
 * is partial (a2..a7), so T0 moves to where the hart resumes; its visit
 * has the whole frame and reports the ecall with the new pc, every GPR,
 * sepc and sstatus (put_sse_state: the event's entry state, or the
 * context restored).
 */
void tv_sbi_returns_to(struct trace_hart *th, uint64_t pc)
{
	struct tv_stepper *s = &th->tv;

	if (!s->on || !s->pending || s->need_init || s->in.flow != TV_FLOW_ECALL)
		return;
	s->next = pc;
	s->returns_elsewhere = true;
	t0_move(s, pc);
}

void tv_finish(struct trace_hart *th, const struct trap_regs *regs)
{
	struct tv_stepper *s = &th->tv;

	if (!regs)
		tv_enter_m(th);
	else if (s->on && s->pending && !s->need_init && !s->fetch_fault && regs->mepc != s->pc)
		emit_retired(th, regs, regs->mepc, trapped_priv(regs));
	tv_off(th);
}

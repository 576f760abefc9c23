// SPDX-License-Identifier: BSD-2-Clause
/*
 * S-mode's accesses to the emulated CTR registers (the illegal-instruction
 * traps of the CTR CSRs and SCTRCLR), emulated by the CTR model
 * (ctr/ctr_csr.c) at a point where the trace engine's recording is exact.
 */
#include "firmware/trace/ctr_access.h"
#include "firmware/ctr/ctr_hart.h"
#include "firmware/ctr/ctr_csr.h"
#include "drivers/ctr/ctr_hw_csr.h"
#include "firmware/trace/trace_hart.h"
#include "firmware/core/hart.h"
#include "firmware/core/umem.h"
#include "firmware/core/riscv_csr.h"

static enum ctr_mode trapped_mode(unsigned long mstatus)
{
	bool s = ((mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == PRV_S;

	if (mstatus & MSTATUS_MPV)
		return s ? CTR_MODE_VS : CTR_MODE_VU;
	return s ? CTR_MODE_S : CTR_MODE_U;
}

/* mtval holds the instruction on harts that report it (0 on others: then
 * fetch it).  A 16-bit instruction is never CTR's. */
static bool trapped_insn(const struct trap_regs *regs, unsigned long tval, uint32_t *insn)
{
	struct trap_info fault;

	if (tval) {
		*insn = (uint32_t)tval;
		return (tval & 3) == 3;
	}
	return umem_fetch_insn(regs->mstatus, regs->mepc, insn, &fault) == 0 && (*insn & 3) == 3;
}

/* On a hart whose Sscsrind is hardware (with AIA, say) but that has no
 * CTR, siselect / vsiselect are the hardware's: writing them never traps,
 * so the emulation takes the select from the CSR at each access. */
static void select_from_hardware(struct ctr_hart *c, enum ctr_mode mode)
{
	unsigned long v;

	if (!c->hw.sscsrind)
		return;
	if (mode == CTR_MODE_VS) {
		if (!ctr_hw_csr_read(CSR_VSISELECT, &v))
			c->emul.vsiselect = v;
	} else if (!ctr_hw_csr_read(CSR_SISELECT, &v)) {
		c->emul.siselect = v;
	}
}

/* CSR numbers of CTR (both layouts, the S/VS/M copies: 0x.4E..0x.5F,
 * 0x.81, 0x.83) and SCTRCLR (func12 0x104): the only instructions that
 * can read or change what recording does. */
static bool may_be_ctr_access(uint32_t insn)
{
	unsigned int csr = insn >> 20, low = csr & 0xff;

	if ((insn & 0x7f) != 0x73)
		return false;
	if (csr == 0x104)
		return true;
	return (csr >> 8) >= 1 && (csr >> 8) <= 3 &&
	       ((low >= 0x4E && low <= 0x5F) || low == 0x81 || low == 0x83);
}

/*
 * While the hart steps (N-Trace or CTR recording), an access to CTR
 * registers is a point where recording must be exact: what ran before it
 * is recorded first (a read sees the last transfer), and recording
 * changes at it (a write of sctrctl turns it on or off, clearing FROZEN
 * resumes it).  ctr_hart is the owner's: this runs on the trapped hart.
 */
static enum ctr_csr_result emulate_at_sync_point(struct hart *self, struct ctr_hart *c,
						 struct trap_regs *regs, uint32_t insn,
						 enum ctr_mode mode)
{
	struct trace_hart *th = self->trace;
	uint64_t pc = regs->mepc;
	enum ctr_csr_result r;
	bool stopped;

	if (!th || (mode != CTR_MODE_S && mode != CTR_MODE_VS) || !may_be_ctr_access(insn))
		return ctr_csr_emulate(&c->emul, insn, mode, self->feat.h, regs->x);
	if (th->step.mode == STEP_OFF && !th->ctr_recording) {
		/* Not stepping: only an access that enables recording matters. */
		r = ctr_csr_emulate(&c->emul, insn, mode, self->feat.h, regs->x);
		if (ctr_ingress_wanted(&c->emul))
			engine_ctr_access_end(th, regs, pc, false);
		return r;
	}
	stopped = engine_ctr_access_begin(th, regs);
	r = ctr_csr_emulate(&c->emul, insn, mode, self->feat.h, regs->x);
	engine_ctr_access_end(th, regs, pc, stopped);
	return r;
}

bool ctr_emulate_illegal(struct trap_regs *regs, struct trap_info *trap)
{
	struct hart *self = hart_self();
	struct ctr_hart *c = self->ctr;
	enum ctr_mode mode = trapped_mode(regs->mstatus);
	uint32_t insn;

	if (!c || c->kind != CTR_KIND_EMULATED || !trapped_insn(regs, trap->tval, &insn))
		return false;
	select_from_hardware(c, mode);
	switch (emulate_at_sync_point(self, c, regs, insn, mode)) {
	case CTR_CSR_DONE:
		regs->mepc += 4;
		return true;
	case CTR_CSR_VIRTUAL:
		trap->cause = CAUSE_VIRTUAL_INSN;
		trap->tval = insn;
		return false;
	default:
		return false;
	}
}

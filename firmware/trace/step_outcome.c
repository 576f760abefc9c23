// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block stepping: the outcome of a transfer (step_outcome.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/step_outcome.h"
#include "firmware/trace/step_cache.h"
#include "firmware/trace/step_trigger.h"
#include "firmware/core/hart.h"
#include "firmware/core/umem.h"
#include "firmware/core/riscv_csr.h"

/*
 * 9.1 for a block that starts at its indirect jump (a split, a single
 * step, a block entered at the jump): the instruction before it in
 * execution is the held one when it is the one right before in memory
 * and did not trap.
 */
static bool seq_inferable_after_held(const struct stepper *s, const struct step_block *b)
{
	unsigned int ext = s->align4 ? 0 : RV_EXT_C;
	struct ntrace_retired h;
	struct rv_insn prev, jump;
	struct trap_info fault;
	uint32_t raw;

	if (!s->seq_jump || !step_held_end(&s->held, &h) || h.itype || h.priv != s->priv ||
	    h.addr + h.size != b->end)
		return false;
	if (umem_fetch_insn(step_fetch_context(s->priv), h.addr, &raw, &fault))
		return false;
	return rv_insn_decode(raw, 64, ext, &prev) && rv_insn_decode(b->raw, 64, ext, &jump) &&
	       rv_insn_seq_inferable(&prev, &jump);
}

/*
 * sret (H extension, "Hypervisor and Virtual Supervisor CSRs"): from HS it
 * goes to sepc in SPP's privilege, with V = hstatus.SPV; from VS to vsepc
 * in vsstatus.SPP's privilege, V staying 1.  Anything else (from U or VU,
 * TSR or VTSR set, into V=1 when the stepper does not follow it) is not
 * predicted.
 */
static bool sret_outcome(const struct stepper *s, const struct trap_regs *regs, uint64_t *next,
			 unsigned int *priv)
{
	unsigned long m = regs->mstatus;

	if ((m & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT != PRV_S)
		return false;
	if (in_virt(s)) {
		unsigned long vs = csr_read(CSR_VSSTATUS);

		if (csr_read(CSR_HSTATUS) & HSTATUS_VTSR)
			return false;
		*next = csr_read(CSR_VSEPC);
		*priv = (vs & MSTATUS_SPP ? PRV_S : PRV_U) | STEP_V;
		return true;
	}
	if (m & MSTATUS_TSR)
		return false;
	*priv = m & MSTATUS_SPP ? PRV_S : PRV_U;
	if (hart_self()->feat.h && (csr_read(CSR_HSTATUS) & HSTATUS_SPV)) {
		if (!s->follow_virt)
			return false;
		*priv |= STEP_V;
	}
	*next = csr_read(sepc);
	return true;
}

bool step_outcome(const struct stepper *s, const struct trap_regs *regs,
		    const struct step_block *b, uint64_t *next, struct ntrace_retired *rec,
		    unsigned int *priv)
{
	uint8_t itype = b->itype_taken;

	*priv = s->priv;
	if (b->op == EMU_SRET) {
		if (!sret_outcome(s, regs, next, priv))
			return false;
	} else if (!jump_target(s, b, regs->x[b->rs1], regs->x[b->rs2], next, &itype)) {
		return false;
	}
	rec->addr = b->end;
	rec->tstamp = s->tstamp;
	rec->context = 0;
	rec->size = b->size;
	rec->itype = itype;
	rec->priv = s->priv;
	rec->flags = b->flags & BLOCK_SEQ_INFERABLE ? NTRACE_REC_SEQ_INFERABLE : 0;
	if (b->op == EMU_JALR && !b->count && seq_inferable_after_held(s, b))
		rec->flags = NTRACE_REC_SEQ_INFERABLE;
	rec->retired_itype = 0;
	return true;
}

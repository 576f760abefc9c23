/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping: where the transfer that ends a block goes, from the
 * registers at the visit, the record it retires as, and doing what it
 * would in the hart's place.
 */
#ifndef TRACE_STEP_OUTCOME_H
#define TRACE_STEP_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "lib/rvinsn/rvinsn.h"
#include "firmware/core/trap_regs.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_trigger.h"

/*
 * Where the branch or jump ending b goes with x[rs1] = a and x[rs2] = c,
 * and the itype it retires with.  False for a jalr whose target is off
 * IALIGN (the hart raises the misaligned fetch).
 */
static inline __attribute__((always_inline)) bool
jump_target(const struct stepper *s, const struct step_block *b, uint64_t a, uint64_t c,
	    uint64_t *next, uint8_t *itype)
{
	*itype = b->itype_taken;
	switch (b->op) {
	case EMU_BRANCH:
		if (rv_branch_taken(b->cond, a, c)) {
			*next = b->target;
		} else {
			*next = b->end + b->size;
			*itype = RV_ITYPE_NOT_TAKEN_BRANCH;
		}
		return true;
	case EMU_JAL:
		*next = b->target;
		return true;
	default:
		*next = (a + b->target) & ~1UL;
		return !(s->align4 && (*next & 2));
	}
}

/*
 * Where the transfer at b->end goes from these registers (*next), its
 * record (*rec) and the privilege after it (*priv).  False: not predicted
 * (it traps: a misaligned target, an sret that is illegal or leaves V=0);
 * the hart then runs it with T0 right after it.
 */
bool step_outcome(const struct stepper *s, const struct trap_regs *regs,
		  const struct step_block *b, uint64_t *next, struct ntrace_retired *rec,
		  unsigned int *priv);
/* xRET's status update: SIE = SPIE, SPIE = 1, SPP = U (privileged spec). */
static inline unsigned long sret_status(unsigned long st)
{
	unsigned long m = st & ~(MSTATUS_SIE | MSTATUS_SPP);

	if (st & MSTATUS_SPIE)
		m |= MSTATUS_SIE;
	return m | MSTATUS_SPIE;
}

/* Do what the transfer would: the link register, or sret's status (in VS:
 * vsstatus; from HS: mstatus, MPRV = 0, and V = SPV). */
static inline void step_emulate(const struct stepper *s, const struct step_block *b,
				struct trap_regs *regs, uint64_t next, unsigned int priv)
{
	if (b->op == EMU_SRET) {
		unsigned long m = regs->mstatus & ~(MSTATUS_MPP | MSTATUS_MPV);

		if (in_virt(s))
			csr_write(CSR_VSSTATUS, sret_status(csr_read(CSR_VSSTATUS)));
		else
			m = sret_status(m) & ~MSTATUS_MPRV;
		regs->mstatus = m | step_priv_mstatus(priv);
	} else if (b->op != EMU_BRANCH) {
		regs->x[b->rd] = b->end + b->size;
		regs->x[0] = 0;
	}
	regs->mepc = next;
}

#endif /* TRACE_STEP_OUTCOME_H */

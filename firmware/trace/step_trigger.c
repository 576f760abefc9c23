// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block stepping's triggers and trap CSRs (step_trigger.h).
 */
#include "firmware/trace/step_trigger.h"

void step_t0_off(struct stepper *s)
{
	if (s->t0 == ADDR_NONE)
		return;
	csr_write(CSR_TDATA1, trigger_off(s));
	s->t0 = ADDR_NONE;
}

void step_t1_set(struct stepper *s, bool on, uint64_t addr)
{
	csr_write(CSR_TSELECT, 1);
	if (on) {
		csr_write(CSR_TDATA1, trigger_off(s));
		csr_write(CSR_TDATA2, addr);
		csr_write(CSR_TDATA1, trigger_armed(s));
	} else {
		csr_write(CSR_TDATA1, trigger_off(s));
	}
	csr_write(CSR_TSELECT, 0);
	s->t1_on = on;
	s->t1 = on ? addr : ADDR_NONE;
}

/* T1 follows stvec (vstvec while the hart runs V=1).  Direct mode: every
 * trap enters at BASE.  Vectored mode: exceptions still enter at BASE,
 * interrupts at BASE + 4 * cause are not seen (docs/TRACE.md). */
void step_t1_follow_stvec(struct stepper *s)
{
	uint64_t base = (in_virt(s) ? csr_read(CSR_VSTVEC) : csr_read(stvec)) & ~3UL;

	s->t1_virt = in_virt(s);
	if (!s->t1_on || s->t1 != base)
		step_t1_set(s, true, base);
}

/*
 * T1 and medeleg for the mode the hart runs in.  In V=1, T1 is on vstvec
 * (traps the hardware delivers to VS), and the exceptions HS-mode would
 * take from V=1 come to M-mode first (medeleg keeps only the causes
 * hedeleg gives VS), where stepper_delegated_trap() delivers and reports
 * them.  Back in HS, T1 on stvec and medeleg as it was.  Interrupts into
 * HS while V=1 are not seen (docs/CTR.md "Limits").
 */
void step_follow_mode_switch(struct stepper *s)
{
	if (in_virt(s)) {
		s->medeleg_hs = csr_read(medeleg);
		csr_write(medeleg, s->medeleg_hs & csr_read(CSR_HEDELEG));
	} else {
		csr_write(medeleg, s->medeleg_hs);
	}
	step_t1_follow_stvec(s);
}

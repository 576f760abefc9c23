/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping's triggers (stepper.h: T0 on the end of the current
 * block, T1 on the S-mode trap vector) and the trap CSRs of the mode the
 * hart runs in.  The only part of the stepper that writes the triggers.
 */
#ifndef TRACE_STEP_TRIGGER_H
#define TRACE_STEP_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trigger.h"
#include "firmware/trace/stepper.h"

/* (core/trigger.h: execute, S/U and VS/VU when following a guest) */
static inline unsigned long trigger_armed(const struct stepper *s)
{
	return trigger_exec_on(s->trig_type, s->follow_virt);
}

static inline unsigned long trigger_off(const struct stepper *s)
{
	return trigger_exec_off(s->trig_type);
}

/* T0 is trigger 0 and tselect stays 0 while a hart steps; T1 (trigger 1)
 * is moved rarely and puts tselect back. */
static inline void t0_arm(struct stepper *s, uint64_t addr)
{
	if (s->t0 == addr)
		return;
	csr_write(CSR_TDATA2, addr);
	if (s->t0 == ADDR_NONE)
		csr_write(CSR_TDATA1, trigger_armed(s));
	s->t0 = addr;
}

/* The trap CSRs of the mode a trap from the current privilege is
 * delivered to by the hardware: S (HS), or VS when the hart runs V=1. */
static inline bool in_virt(const struct stepper *s)
{
	return s->priv & STEP_V;
}

void step_t0_off(struct stepper *s);
/* T1 on addr (on) or off; tselect back to 0. */
void step_t1_set(struct stepper *s, bool on, uint64_t addr);
/* scause/sepc, or vscause/vsepc while the hart runs V=1. */
static inline unsigned long step_trap_cause(const struct stepper *s)
{
	return in_virt(s) ? csr_read(CSR_VSCAUSE) : csr_read(scause);
}

static inline unsigned long step_trap_epc(const struct stepper *s)
{
	return in_virt(s) ? csr_read(CSR_VSEPC) : csr_read(sepc);
}

/* T1 on stvec (vstvec in V=1). */
void step_t1_follow_stvec(struct stepper *s);
/* T1 and medeleg for the mode the hart runs in (HS or V=1): the switch,
 * and the test every plan makes (inline: V rarely changes). */
void step_follow_mode_switch(struct stepper *s);

static inline void step_follow_mode(struct stepper *s)
{
	if (s->t1_virt != in_virt(s))
		step_follow_mode_switch(s);
}

#endif /* TRACE_STEP_TRIGGER_H */

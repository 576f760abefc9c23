/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_TRAP_H
#define FIRMWARE_TRAP_H

#include "firmware/trap/trap_regs.h"

struct hart;

void trap_entry(void);

/* What trap_handler did: handled in M-mode (an interrupt, an emulation),
 * or delivered to S-mode (trap_redirect). */
enum trap_result { TRAP_HANDLED, TRAP_REDIRECTED };
enum trap_result trap_handler(struct trap_regs *regs);

/* mtvec: the trap entry the hart's flags ask for (plain, counting PMU
 * events 256..258, traced, or both). */
void trap_set_vector(struct hart *h);
/* Deliver `trap` to S-mode as if delegation had: sepc/scause/stval, sstatus
 * SPP/SPIE/SIE, then continue at stvec. */
void trap_redirect(struct trap_regs *regs, const struct trap_info *trap);

/*
 * Emulation hooks for later work (CSR and MMIO emulation, counting of
 * firmware events).  Return true when the trap was handled and regs->mepc
 * advanced; false leaves it to be redirected to S-mode.
 */
bool trap_emulate_illegal_insn(struct trap_regs *regs, unsigned long insn);

/* A read of the time CSR on a hart that traps it (time_csr.c). */
bool time_csr_emulate(struct trap_regs *regs, unsigned long tval);

#endif

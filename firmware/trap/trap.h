/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_TRAP_TRAP_H
#define FIRMWARE_TRAP_TRAP_H

#include "firmware/core/trap_regs.h"

struct hart;

void trap_entry(void);

/* What trap_handler did: handled in M-mode (an interrupt, an emulation),
 * or delivered to S-mode (trap_redirect). */
enum trap_result { TRAP_HANDLED, TRAP_REDIRECTED };
enum trap_result trap_handler(struct trap_regs *regs);

/* Registers the trap entries with the core (core/trap_vector.h), at cold
 * boot before any hart sets mtvec. */
void trap_vectors_init(void);

/*
 * Emulation hooks for later work (CSR and MMIO emulation, counting of
 * firmware events).  Return true when the trap was handled and regs->mepc
 * advanced; false leaves it to be redirected to S-mode.
 */
bool trap_emulate_illegal_insn(struct trap_regs *regs, unsigned long insn);

#endif

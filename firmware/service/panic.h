/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The firmware's own failures (panic.c): each reports on the console and
 * stops the whole machine.
 */
#ifndef FIRMWARE_CORE_PANIC_H
#define FIRMWARE_CORE_PANIC_H

#include "firmware/core/hart.h"
#include "firmware/core/trap_regs.h"

/* Reports and stops the machine. */
void __attribute__((noreturn)) panic(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* A trap taken in M-mode (trap.S: trap_from_m, on the panic stack). */
void __attribute__((noreturn)) m_fault_panic(struct trap_regs *regs);

/* The stack canary of `self` is damaged (found at pc). */
void __attribute__((noreturn)) hart_stack_overflow_panic(struct hart *self, unsigned long pc);


#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_CORE_TRAP_VECTOR_H
#define FIRMWARE_CORE_TRAP_VECTOR_H

#include "firmware/core/hart.h"
#include "firmware/core/trap_regs.h"

/* The trap entries, one per combination of a hart's trap flags. */
struct trap_vectors {
	unsigned long plain;           /* neither counted nor traced */
	unsigned long counted;         /* PMU events 256..258 counted */
	unsigned long traced;          /* the trace engine steps the hart */
	unsigned long traced_counted;
	unsigned long traced_fast;     /* traced, fast visit (trap_fast) */
	unsigned long traced_fast_full;  /* its full path (hart.trap_fast_full) */
	/* A traced trap the trace engine does not claim (trace_trap_enter):
	 * the ordinary handling; false (the full exit). */
	bool (*traced_other)(struct trace_hart *th, struct trap_regs *regs);
};

/* At cold boot, before any hart sets its vector. */
void trap_vectors_register(const struct trap_vectors *v);
/* The trace engine's way to the ordinary handling of a traced trap. */
bool trap_handle_traced_other(struct trace_hart *th, struct trap_regs *regs);
/* mtvec: the trap entry the hart's flags ask for (plain, counting PMU
 * events 256..258, traced, or both). */
void trap_set_vector(struct hart *h);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which trap entry mtvec points at.  The entries are the trap entry's
 * (trap/trap.S), which registers them at boot; the subsystems that change
 * what a hart's traps need (PMU counting events 256..258, the trace
 * engine) set the hart's flags and call trap_set_vector().
 */
#include "firmware/core/trap_vector.h"
#include "firmware/core/riscv_csr.h"

static const struct trap_vectors *vectors;

void trap_vectors_register(const struct trap_vectors *v)
{
	vectors = v;
}

bool trap_handle_traced_other(struct trace_hart *th, struct trap_regs *regs)
{
	return vectors->traced_other(th, regs);
}

void trap_set_vector(struct hart *h)
{
	unsigned long entry = vectors->plain;

	h->trap_fast_full = vectors->traced_fast_full;

	if (h->trap_tracing && h->trap_counting)
		entry = vectors->traced_counted;
	else if (h->trap_tracing)
		entry = h->trap_fast ? vectors->traced_fast : vectors->traced;
	else if (h->trap_counting)
		entry = vectors->counted;
	csr_write(mtvec, entry);
}

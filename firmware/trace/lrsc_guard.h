/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a stepper keeps while the hart runs an LR/SC sequence natively
 * (lrsc.h; docs/TRACE.md, "LR/SC sequences"), and the guard that keeps
 * every trap out of it: interrupts masked in mie until the visit that
 * ends the sequence (at most 16 instructions later), and, while T1
 * watches the sequence's exit instead of the S-mode trap vector, every
 * exception undelegated, so that it comes to M-mode first, where the
 * stepper delivers it as delegation would.  The steppers move T1.
 */
#ifndef TRACE_LRSC_GUARD_H
#define TRACE_LRSC_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/riscv_csr.h"
#include "firmware/trace/lrsc.h"
#include "firmware/core/umem.h"

struct lrsc_guard {
	bool on;                 /* mie (and medeleg) are the guard's          */
	uint64_t at;             /* the LR of the sequence the run goes on with,
				    or LRSC_NO_EXIT                           */
	uint64_t exit;           /* T1 is there (every exception undelegated),
				    or LRSC_NO_EXIT (T1 on stvec)             */
	unsigned long mie, medeleg;   /* as they were                          */
};

static inline void lrsc_guard_on(struct lrsc_guard *g, uint64_t exit)
{
	g->mie = csr_swap(mie, 0);
	g->exit = exit;
	if (exit != LRSC_NO_EXIT)
		g->medeleg = csr_swap(medeleg, 0);
	g->on = true;
}

/* mie and medeleg back as they were (the stepper moves T1 back). */
static inline void lrsc_guard_off(struct lrsc_guard *g)
{
	g->on = false;
	csr_set(mie, g->mie);
	if (g->exit != LRSC_NO_EXIT)
		csr_write(medeleg, g->medeleg);
}

/* Whether an exception with this cause came to M-mode only because the
 * guard undelegated it (asked before lrsc_guard_off()). */
static inline bool lrsc_guard_took(const struct lrsc_guard *g, unsigned long cause)
{
	return g->exit != LRSC_NO_EXIT && !(cause >> 63) && cause < 64 &&
	       ((g->medeleg >> cause) & 1);
}

/* lrsc_scan()'s fetch in M-mode: ctx points to the mstatus of the
 * access (MPRV, MPP the code's privilege). */
static inline int lrsc_fetch_mprv(void *ctx, uint64_t addr, uint32_t *raw)
{
	struct trap_info fault;

	return umem_fetch_insn(*(const unsigned long *)ctx, addr, raw, &fault);
}

#endif /* TRACE_LRSC_GUARD_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI Supervisor Software Events (ext-sse.adoc), behind sbi/ecall_sse.c: the
 * event state machine, per-hart local events, the one global event,
 * priorities, delivery into S-mode and completion (sse.c).
 *
 * Events: LOCAL_PMU_OVERFLOW (harts with Sscofpmf: LCOFI comes to M-mode
 * while S-mode has the event enabled), LOCAL_SOFTWARE and GLOBAL_SOFTWARE
 * (sbi_sse_inject).  The RAS and double-trap events are NOT_SUPPORTED:
 * no hart tracesbi runs on can raise them (docs/SBI.md).
 */
#ifndef FIRMWARE_SSE_H
#define FIRMWARE_SSE_H

#include <stdint.h>
#include "firmware/core/hart.h"
#include "firmware/core/sbi_spec.h"
#include "firmware/core/sbiret.h"
#include "firmware/core/trap_regs.h"

/* read_attrs (write false) and write_attrs (write true). */
long sse_attrs(struct hart *self, uint32_t event_id, uint32_t base, uint32_t count,
	       unsigned long lo, unsigned long hi, bool write);
long sse_register(struct hart *self, uint32_t event_id, unsigned long pc, unsigned long arg);
long sse_unregister(struct hart *self, uint32_t event_id);
long sse_enable(struct hart *self, uint32_t event_id);
long sse_disable(struct hart *self, uint32_t event_id);
long sse_inject(struct hart *self, uint32_t event_id, unsigned long hartid);
long sse_hart_unmask(struct hart *self);
long sse_hart_mask(struct hart *self);

/*
 * Completion and delivery work on a frame whose mepc/mstatus are those of
 * the context the hart returns to, and whose x[16]/x[17] are its a6/a7
 * (the slow path's frame as is; sbi/ecall_sse.c builds that view for an ecall).
 * sse_complete: whether a running event was completed (the frame now
 * holds the interrupted context).  sse_deliver: whether an event's handler
 * was entered (the frame now holds the handler's entry).
 */
bool sse_complete(struct hart *self, struct trap_regs *regs);
bool sse_deliver(struct hart *self, struct trap_regs *regs);

/* LCOFI taken in M-mode: the PMU overflow event becomes pending. */
void sse_pmu_overflow(struct hart *self);
/* Hart reset (boot, HSM stop): local events UNUSED, events masked, LCOFI
 * delegated again; a global event running here goes back to ENABLED. */
void sse_hart_reset(struct hart *self);

#endif

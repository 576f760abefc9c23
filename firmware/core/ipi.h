/* SPDX-License-Identifier: BSD-2-Clause */
/* Firmware IPIs: events one hart posts to another through the MSWI. */
#ifndef FIRMWARE_IPI_H
#define FIRMWARE_IPI_H

#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/trap/trap_regs.h"

void ipi_post(struct hart *target, uint32_t events);
/* Run every event posted to this hart (machine software interrupt).  regs:
 * the frame of the S/U context the interrupt came from, NULL when the hart
 * was waiting in M-mode. */
void ipi_handle_pending(struct hart *self, struct trap_regs *regs);
/* After a wait in M-mode: an SSE event posted meanwhile runs once the
 * hart is back in S-mode. */
void ipi_raise_parked_sse(struct hart *self);
/* Sleep until an interrupt is pending, running posted events. */
void ipi_wait_and_handle(struct hart *self);
/* In an SBI call: run posted events until done(self) holds (another hart's
 * answer, which comes with an IPI); S-mode's interrupts do not end the wait. */
void ipi_wait_until(struct hart *self, bool (*done)(struct hart *self));

/* tlb.c */
/* The hart mask selects exactly the calling hart (no IPI needed). */
static inline bool fence_mask_is_only_self(unsigned long mask, unsigned long base)
{
	unsigned long bit = csr_read(mhartid) - base;

	return base != (unsigned long)-1 && bit < 8 * sizeof(long) && mask == 1UL << bit;
}
void fence_run_local(const struct fence_request *req);
void fence_handle_requests(struct hart *self);
long fence_remote(unsigned long mask, unsigned long base, const struct fence_request *req);

/* timer.c */
void timer_set_smode_deadline(struct hart *self, uint64_t stime);
void timer_handle_mtip(struct hart *self);
void timer_cancel(struct hart *self);
bool timer_boot_wake_at(struct hart *self, uint64_t time);

/* time_csr.c: the time CSR's value, also on harts that do not have it. */
uint64_t time_now(void);

#endif

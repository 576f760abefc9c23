/* SPDX-License-Identifier: BSD-2-Clause */
/* Firmware IPIs: events one hart posts to another through the MSWI. */
#ifndef FIRMWARE_CORE_IPI_H
#define FIRMWARE_CORE_IPI_H

#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"

/* The device that interrupts a hart (MSIP): registered by its driver
 * when it probes (drivers/ipi). */
struct ipi_device {
	void (*send)(struct hart *target);
	void (*clear)(struct hart *self);
};
void ipi_device_register(const struct ipi_device *dev);

void ipi_post(struct hart *target, uint32_t events);
/* Raise target's machine software interrupt (no event bits). */
void ipi_raise(struct hart *target);
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

#endif

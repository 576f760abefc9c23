// SPDX-License-Identifier: BSD-2-Clause
/*
 * Inter-hart events.  The sender ORs event bits into the target's
 * ipi_pending and raises its MSIP; the target clears MSIP first, then takes
 * the bits, so an event posted in between raises MSIP again and is never
 * lost.  Harts that wait (HSM stopped, suspended, a fence in flight) run
 * these events from their wait loop, so two harts fencing each other at the
 * same time cannot deadlock.
 */
#include "ipi.h"
#include "drivers.h"
#include "riscv_csr.h"
#include "pmu.h"
#include "trace.h"

void ipi_post(struct hart *target, uint32_t events)
{
	__atomic_fetch_or(&target->ipi_pending, events, __ATOMIC_RELEASE);
	/* The event bits must be visible before the device write raises the
	 * target's MSIP (RVWMO: memory before I/O). */
	__asm__ __volatile__("fence rw, o" ::: "memory");
	aclint_mswi_send(target->msip);
}

void ipi_handle_pending(struct hart *self, struct trap_regs *regs)
{
	uint32_t events;

	aclint_mswi_clear(self->msip);
	/* Clear MSIP before reading the events (I/O before memory), so an
	 * event posted in between raises MSIP again. */
	__asm__ __volatile__("fence o, rw" ::: "memory");
	events = __atomic_exchange_n(&self->ipi_pending, 0, __ATOMIC_ACQUIRE);
	if (events & IPI_EVENT_SSIP) {
		pmu_fw_event(self->pmu, PMU_FW_IPI_RECEIVED);
		csr_set(mip, MIP_SSIP);
	}
	if (events & IPI_EVENT_FENCE)
		fence_handle_requests(self);
	if (events & IPI_EVENT_TRACE)
		trace_ipi(self, regs);
	if (events & IPI_EVENT_HALT) {
		/* Another hart panicked (panic.c): never run again. */
		csr_write(mie, 0);
		for (;;)
			wfi();
	}
	/* IPI_EVENT_WAKE: nothing to do, the waiter re-checks its condition. */
}

void ipi_wait_and_handle(struct hart *self)
{
	unsigned long mip;

	wfi();
	mip = csr_read(mip) & csr_read(mie);
	if (mip & MIP_MSIP)
		ipi_handle_pending(self, NULL);
	/* Only a deadline S-mode set (MTIE armed by set_timer) is its timer. */
	if (mip & MIP_MTIP)
		timer_handle_mtip(self);
}

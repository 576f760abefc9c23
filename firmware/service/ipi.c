// SPDX-License-Identifier: BSD-2-Clause
/*
 * Inter-hart events.  The sender ORs event bits into the target's
 * ipi_pending and raises its MSIP; the target clears MSIP first, then takes
 * the bits, so an event posted in between raises MSIP again and is never
 * lost.  Harts that wait (HSM stopped, suspended, a fence or a trace
 * register access in flight) run these events from their wait loop, so two
 * harts fencing each other, or accessing each other's trace components, at
 * the same time cannot deadlock.
 */
#include <stddef.h>
#include "firmware/service/ipi.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/fw_event.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/service/tlb.h"
#include "firmware/service/timer.h"
#include "firmware/service/panic.h"

static const struct ipi_device *ipi_dev;

void ipi_device_register(const struct ipi_device *dev)
{
	ipi_dev = dev;
}

void ipi_raise(struct hart *target)
{
	/* (none before the devices are probed: a panic that early has no
	 * other hart to stop) */
	if (ipi_dev)
		ipi_dev->send(target);
}

void ipi_post(struct hart *target, uint32_t events)
{
	__atomic_fetch_or(&target->ipi_pending, events, __ATOMIC_RELEASE);
	/* The event bits must be visible before the device write raises the
	 * target's MSIP (RVWMO: memory before I/O). */
	__asm__ __volatile__("fence rw, o" ::: "memory");
	ipi_raise(target);
}

/*
 * IPI_EVENT_SSE is for S-mode: the event runs on the way back to S-mode
 * after the interrupt (trap.c).  Found while the hart waits in M-mode (a
 * fence in flight, stopped, suspended), it must wait for the hart's return
 * to S-mode, but raising MSIP again now would end every wfi of the wait at
 * once.  So it stays parked in ipi_pending and is raised again along with
 * the next IPI, which is what ends such a wait (a fence's last
 * acknowledgement, a start); at most one more turn of the wait loop.
 */
static void requeue_sse(struct hart *self, uint32_t events)
{
	if (events & ~IPI_EVENT_SSE)
		ipi_post(self, IPI_EVENT_SSE);
	else
		__atomic_fetch_or(&self->ipi_pending, IPI_EVENT_SSE, __ATOMIC_RELAXED);
}

/* A wait that ends without an IPI (a suspend woken by the timer) leaves a
 * parked IPI_EVENT_SSE: raise MSIP for it, so the event runs as soon as
 * the hart is back in S-mode. */
void ipi_raise_parked_sse(struct hart *self)
{
	if (__atomic_load_n(&self->ipi_pending, __ATOMIC_RELAXED) & IPI_EVENT_SSE)
		ipi_raise(self);
}

void ipi_handle_pending(struct hart *self, struct trap_regs *regs)
{
	uint32_t events;

	if (ipi_dev)
		ipi_dev->clear(self);
	/* Clear MSIP before reading the events (I/O before memory), so an
	 * event posted in between raises MSIP again. */
	__asm__ __volatile__("fence o, rw" ::: "memory");
	events = __atomic_exchange_n(&self->ipi_pending, 0, __ATOMIC_ACQUIRE);
	if (events & IPI_EVENT_SSIP) {
		fw_event_count(self->fw_events, PMU_FW_IPI_RECEIVED);
		csr_set(mip, MIP_SSIP);
	}
	if (events & IPI_EVENT_FENCE)
		fence_handle_requests(self);
	fw_hooks_ipi(self, events, regs);   /* IPI_EVENT_TRACE */
	if ((events & IPI_EVENT_SSE) && !regs)
		requeue_sse(self, events);
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

void ipi_wait_until(struct hart *self, bool (*done)(struct hart *self))
{
	/* Only M-level events end a wfi here: an S-mode interrupt that is
	 * pending and enabled would end every one at once. */
	unsigned long mie = csr_swap(mie, MIP_MSIP | (csr_read(mie) & MIP_MTIP));

	while (!done(self))
		ipi_wait_and_handle(self);
	/* S-mode's enables back; its timer's as the wait left it (MTIP,
	 * handled, masks itself until the next set_timer). */
	csr_write(mie, (mie & ~MIP_MTIP) | (csr_read(mie) & MIP_MTIP));
}

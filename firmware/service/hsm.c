// SPDX-License-Identifier: BSD-2-Clause
/*
 * HSM state machine (SBI spec, HSM extension).  A STOPPED hart waits in
 * hsm_stopped_loop with only the machine software interrupt enabled;
 * hart_start claims it with a compare-and-swap (so two starters cannot both
 * win), fills in the entry point, publishes START_PENDING and sends an IPI.
 */
#include "firmware/service/hsm.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/service/ipi.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/service/fwft.h"
#include "firmware/service/dbtr.h"
#include "firmware/service/sse.h"
#include "firmware/service/timer.h"

static bool hsm_cas(struct hart *h, int from, int to)
{
	return __atomic_compare_exchange_n(&h->hsm_state, &from, to, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* "Executable access to the address" by S-mode: in RAM, outside firmware,
 * and a valid instruction address (IALIGN: 2 bytes with C, else 4). */
bool hsm_entry_addr_ok(unsigned long addr)
{
	unsigned long ialign = csr_read(misa) & (1UL << ('C' - 'A')) ? 2 : 4;

	return !(addr & (ialign - 1)) && platform_smode_range_ok(addr, ialign);
}

long hsm_hart_start(unsigned long hartid, unsigned long addr, unsigned long opaque)
{
	struct hart *target = hart_by_id(hartid);

	if (!target)
		return SBI_ERR_INVALID_PARAM;
	if (!hsm_entry_addr_ok(addr))
		return SBI_ERR_INVALID_ADDRESS;
	if (!hsm_cas(target, SBI_HSM_STATE_STOPPED, HSM_CLAIMED))
		return SBI_ERR_ALREADY_AVAILABLE;
	hsm_set_start_pending(target, addr, opaque, PRV_S);
	ipi_post(target, IPI_EVENT_WAKE);
	return SBI_SUCCESS;
}

static void hart_quiesce(struct hart *self)
{
	/* Nothing of S-mode's may fire while the hart is stopped, nor its old
	 * timer deadline after it starts again. */
	csr_write(mie, MIP_MSIP);
	timer_cancel(self);
	csr_clear(mip, MIP_SSIP);
	/* FWFT: "Upon hart reset, local feature values are not retained". */
	fwft_hart_reset(self);
	/* DBTR: S-mode's triggers and shared memory are gone. */
	dbtr_hart_reset(self);
	/* SSE: local events unused, events masked, LCOFI delegated. */
	sse_hart_reset(self);
	/* The subsystems above the core (a started hart's PMU is as at
	 * boot: counters free, no snapshot). */
	fw_hooks_hart_reset(self);
}

void hsm_stopped_loop(struct hart *self)
{
	hart_quiesce(self);
	/* From hart_stop; at boot the state is already STOPPED (or a start
	 * may already be pending, which must not be lost). */
	hsm_cas(self, SBI_HSM_STATE_STOP_PENDING, SBI_HSM_STATE_STOPPED);
	while (__atomic_load_n(&self->hsm_state, __ATOMIC_ACQUIRE) != SBI_HSM_STATE_START_PENDING)
		ipi_wait_and_handle(self);
	ipi_handle_pending(self, NULL);
	/* Interrupts posted to a stopped hart are not S-mode's to see. */
	csr_clear(mip, MIP_SSIP | MIP_STIP);
	/* The fences this hart skipped while stopped. */
	sfence_vma_all();
	fence_i();
	__atomic_store_n(&self->hsm_state, SBI_HSM_STATE_STARTED, __ATOMIC_RELEASE);
	fw_hooks_hart_entering(self, self->next_addr, self->next_mode);
	hart_enter_lower(self->next_addr, self->hartid, self->next_arg1, self->next_mode);
}

long hsm_hart_stop(void)
{
	struct hart *self = hart_self();

	if (!hsm_cas(self, SBI_HSM_STATE_STARTED, SBI_HSM_STATE_STOP_PENDING))
		return SBI_ERR_FAILED;
	fw_hooks_hart_leaving(self);
	hart_reset_stack_and_call(hsm_stopped_loop, self);
}

long hsm_hart_get_status(unsigned long hartid)
{
	struct hart *target = hart_by_id(hartid);
	int state;

	if (!target)
		return SBI_ERR_INVALID_PARAM;
	state = __atomic_load_n(&target->hsm_state, __ATOMIC_ACQUIRE);
	return state == HSM_CLAIMED ? SBI_HSM_STATE_START_PENDING : state;
}

/* Sleep until an interrupt S-mode has enabled is pending.  M-level events
 * (IPIs, the emulated S timer) are handled here and may make one pending. */
static void suspend_wait(struct hart *self)
{
	// NOLINTNEXTLINE(bugprone-infinite-loop): csr_read() is a volatile read
	while (!(csr_read(mip) & csr_read(mie) & MIP_S_ALL))
		ipi_wait_and_handle(self);
	ipi_raise_parked_sse(self);
}

static bool suspend_type_valid(uint32_t type)
{
	/* Only the two default types exist here; everything else is reserved
	 * or an unimplemented platform-specific type: INVALID_PARAM. */
	return type == SBI_HSM_SUSPEND_RET_DEFAULT || type == SBI_HSM_SUSPEND_NON_RET_DEFAULT;
}

static void non_retentive_resume(struct hart *self)
{
	fw_hooks_hart_entering(self, self->next_addr, PRV_S);
	hart_enter_lower(self->next_addr, self->hartid, self->next_arg1, PRV_S);
}

/* A SUSPENDED hart that loses its S-mode state: it sleeps, then enters
 * S-mode at resume_addr (a0 = hartid, a1 = opaque).  The hart may lose its
 * counters: keep them for S-mode.  It does not come back to the ecall: its
 * trace ends here. */
static void __attribute__((noreturn)) suspend_non_retentive(struct hart *self,
							     unsigned long resume_addr,
							     unsigned long opaque)
{
	fw_hooks_hart_suspend(self);
	fw_hooks_hart_leaving(self);
	suspend_wait(self);
	fw_hooks_hart_resume(self);
	__atomic_store_n(&self->hsm_state, SBI_HSM_STATE_STARTED, __ATOMIC_RELEASE);
	self->next_addr = resume_addr;
	self->next_arg1 = opaque;
	hart_reset_stack_and_call(non_retentive_resume, self);
}

long hsm_hart_suspend(uint32_t type, unsigned long resume_addr, unsigned long opaque)
{
	struct hart *self = hart_self();
	bool retentive = !(type & SBI_HSM_SUSPEND_NON_RET_BIT);

	if (!suspend_type_valid(type))
		return SBI_ERR_INVALID_PARAM;
	if (!retentive && !hsm_entry_addr_ok(resume_addr))
		return SBI_ERR_INVALID_ADDRESS;
	if (!hsm_cas(self, SBI_HSM_STATE_STARTED, SBI_HSM_STATE_SUSPENDED))
		return SBI_ERR_FAILED;
	if (!retentive)
		suspend_non_retentive(self, resume_addr, opaque);
	suspend_wait(self);
	__atomic_store_n(&self->hsm_state, SBI_HSM_STATE_STARTED, __ATOMIC_RELEASE);
	fw_hooks_wait_done(self);
	return SBI_SUCCESS;
}

/* SUSP's entry rule: "all but the calling hart be in the HSM STOPPED
 * state" (a hart being started, stopping or suspended is not). */
static bool others_stopped(const struct hart *self)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (hart_table[i] != self &&
		    __atomic_load_n(&hart_table[i]->hsm_state, __ATOMIC_ACQUIRE) !=
			    SBI_HSM_STATE_STOPPED)
			return false;
	return true;
}

/*
 * SUSPEND_TO_RAM (ext-sys-suspend.adoc).  QEMU virt has no suspend-to-RAM
 * device, so the system "sleeps" as this hart in a non-retentive suspend:
 * a wake-up is an interrupt S-mode enabled (on QEMU the timer S-mode armed
 * before suspending), and the hart resumes from STOPPED at resume_addr
 * with the registers of table "SUSP System Resume Register State".  The
 * other harts are STOPPED and stay so: only this hart could start them.
 */
long hsm_system_suspend(uint32_t sleep_type, unsigned long resume_addr, unsigned long opaque)
{
	struct hart *self = hart_self();

	/* Reserved types and the platform-specific ones (none implemented). */
	if (sleep_type != SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM)
		return SBI_ERR_INVALID_PARAM;
	if (!hsm_entry_addr_ok(resume_addr))
		return SBI_ERR_INVALID_ADDRESS;
	if (!others_stopped(self))
		return SBI_ERR_DENIED;
	if (!hsm_cas(self, SBI_HSM_STATE_STARTED, SBI_HSM_STATE_SUSPENDED))
		return SBI_ERR_FAILED;
	suspend_non_retentive(self, resume_addr, opaque);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The S-mode timer.  With Sstc, S-mode's deadline goes straight into
 * stimecmp and the hart raises STIP itself.  Without it, the deadline goes
 * into this hart's MTIMECMP; the machine timer interrupt then raises STIP
 * for S-mode and masks itself until the next set_timer.
 */
#include "firmware/service/ipi.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/service/timer.h"

/* In 32-bit halves where the CLINT wants them (T-Head): the high half
 * goes to all-ones first, so no mix of old and new halves is ever below
 * the time and fires early (privileged spec, the mtimecmp RV32 sequence). */
static inline void mtimecmp_write(volatile uint64_t *cmp, uint64_t value)
{
	volatile uint32_t *half = (volatile uint32_t *)cmp;

	if (!platform.mtime_in_time_csr) {
		*cmp = value;
		return;
	}
	half[1] = ~0U;
	half[0] = (uint32_t)value;
	half[1] = (uint32_t)(value >> 32);
}

void timer_set_smode_deadline(struct hart *self, uint64_t stime)
{
	if (self->feat.sstc) {
		csr_write(CSR_STIMECMP, stime);
		return;
	}
	/* TIME: "must clear the pending timer interrupt bit". */
	csr_clear(mip, MIP_STIP);
	if (self->mtimecmp)
		mtimecmp_write(self->mtimecmp, stime);
	csr_set(mie, MIP_MTIP);
}

/* A wake-up of the firmware's own at `time` (MTIP, handled by
 * ipi_wait_and_handle) before S-mode runs: at boot, when the machine timer
 * is not S-mode's yet.  False without a machine timer. */
bool timer_boot_wake_at(struct hart *self, uint64_t time)
{
	if (!self->mtimecmp)
		return false;
	mtimecmp_write(self->mtimecmp, time);
	csr_set(mie, MIP_MTIP);
	return true;
}

/* No S-mode deadline: nothing may fire (boot, HSM stop and start). */
void timer_cancel(struct hart *self)
{
	csr_clear(mie, MIP_MTIP);
	if (self->mtimecmp)
		mtimecmp_write(self->mtimecmp, -1ULL);
	if (self->feat.sstc)
		csr_write(CSR_STIMECMP, -1UL);
	csr_clear(mip, MIP_STIP);
}

void timer_handle_mtip(struct hart *self)
{
	(void)self;
	csr_clear(mie, MIP_MTIP);
	csr_set(mip, MIP_STIP);
}

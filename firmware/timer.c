// SPDX-License-Identifier: BSD-2-Clause
/*
 * The S-mode timer.  With Sstc, S-mode's deadline goes straight into
 * stimecmp and the hart raises STIP itself.  Without it, the deadline goes
 * into this hart's MTIMECMP; the machine timer interrupt then raises STIP
 * for S-mode and masks itself until the next set_timer.
 */
#include "ipi.h"
#include "platform.h"
#include "riscv_csr.h"

void timer_set_smode_deadline(struct hart *self, uint64_t stime)
{
	if (self->feat.sstc) {
		csr_write(CSR_STIMECMP, stime);
		return;
	}
	/* TIME: "must clear the pending timer interrupt bit". */
	csr_clear(mip, MIP_STIP);
	if (self->mtimecmp)
		*self->mtimecmp = stime;
	csr_set(mie, MIP_MTIP);
}

/* No S-mode deadline: nothing may fire (boot, HSM stop and start). */
void timer_cancel(struct hart *self)
{
	csr_clear(mie, MIP_MTIP);
	if (self->mtimecmp)
		*self->mtimecmp = -1ULL;
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

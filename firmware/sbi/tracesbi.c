// SPDX-License-Identifier: BSD-2-Clause
/*
 * tracesbi's firmware-specific extension (EID SBI_EXT_TRACESBI, in the SBI
 * spec's Firmware Specific Extension Space): read-only views of M-mode state
 * that S-mode tests and debuggers need and no standard extension gives.
 * Callers check sbi_get_impl_id() == SBI_IMPL_ID first (ext-firmware.adoc:
 * the space is defined per implementation).
 */
#include "sbi_ecall.h"
#include "hart.h"
#include "pmu.h"

static struct sbiret tracesbi_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long a4, unsigned long a5,
				     unsigned long fid, struct hart *self)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_TRACESBI_PMU_EVENT_CSR:
		return pmu_counter_event_csr(a0, self->pmu);
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_tracesbi = {
	.name = "tracesbi",
	.eid_first = SBI_EXT_TRACESBI,
	.eid_last = SBI_EXT_TRACESBI,
	.handle = tracesbi_handle,
};
SBI_EXTENSION(sbi_tracesbi);

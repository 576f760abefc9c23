// SPDX-License-Identifier: BSD-2-Clause
/* IPI extension: send_ipi raises a supervisor software interrupt on each
 * selected hart (this hart directly, the others through ipi.c). */
#include "firmware/sbi/ecall.h"
#include "firmware/service/ipi.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/fw_event.h"

long sbi_ipi_send_ssip(struct hart *target, void *self)
{
	if (target == self) {
		csr_set(mip, MIP_SSIP);
	} else {
		fw_event_count(((struct hart *)self)->fw_events, PMU_FW_IPI_SENT);
		ipi_post(target, IPI_EVENT_SSIP);
	}
	return 0;
}

static struct sbiret ipi_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4, unsigned long a5,
				unsigned long fid, struct hart *self)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (fid != SBI_IPI_SEND_IPI)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	/* An empty mask (not base -1) selects no hart: answered here, without
	 * walking the mask (hart_mask_for_each would say the same). */
	if (!a0 && a1 != (unsigned long)-1)
		return SBI_ERR(SBI_SUCCESS);
	return SBI_ERR(hart_mask_for_each(a0, a1, sbi_ipi_send_ssip, self));
}

static const struct sbi_extension sbi_ipi = {
	.name = "IPI",
	.eid_first = SBI_EXT_IPI,
	.eid_last = SBI_EXT_IPI,
	.handle = ipi_handle,
};
SBI_EXTENSION(sbi_ipi);

// SPDX-License-Identifier: BSD-2-Clause
/* HSM extension: unpacks the arguments for hsm.c. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/hsm.h"

static struct sbiret hsm_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4, unsigned long a5,
				unsigned long fid, struct hart *self)
{
	long ret;

	(void)self;
	(void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_HSM_HART_START:
		return SBI_ERR(hsm_hart_start(a0, a1, a2));
	case SBI_HSM_HART_STOP:
		return SBI_ERR(hsm_hart_stop());
	case SBI_HSM_HART_GET_STATUS:
		ret = hsm_hart_get_status(a0);
		return ret < 0 ? SBI_ERR(ret) : SBI_RET(SBI_SUCCESS, ret);
	case SBI_HSM_HART_SUSPEND:
		/* suspend_type is 32 bits wide: the upper half of a0 is not part
		 * of it (binary encoding, 32-bit parameters). */
		return SBI_ERR(hsm_hart_suspend((uint32_t)a0, a1, a2));
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_hsm = {
	.name = "HSM",
	.eid_first = SBI_EXT_HSM,
	.eid_last = SBI_EXT_HSM,
	.handle = hsm_handle,
};
SBI_EXTENSION(sbi_hsm);

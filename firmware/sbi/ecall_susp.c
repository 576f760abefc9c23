// SPDX-License-Identifier: BSD-2-Clause
/* SUSP extension (ext-sys-suspend.adoc): unpacks the arguments for hsm.c. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/hsm.h"

static struct sbiret susp_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a3, (void)a4, (void)a5;
	if (fid != SBI_SUSP_SYSTEM_SUSPEND)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	/* sleep_type is a uint32_t: the upper half of a0 is not part of it. */
	return SBI_ERR(hsm_system_suspend((uint32_t)a0, a1, a2));
}

static const struct sbi_extension sbi_susp = {
	.name = "SUSP",
	.eid_first = SBI_EXT_SUSP,
	.eid_last = SBI_EXT_SUSP,
	.handle = susp_handle,
};
SBI_EXTENSION(sbi_susp);

// SPDX-License-Identifier: BSD-2-Clause
/*
 * SRST extension: shutdown and reboot (service/reset.c).  Available only when
 * the DTB has a reset device.
 */
#include "firmware/sbi/ecall.h"
#include "firmware/service/reset.h"

static struct sbiret srst_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (fid != SBI_SRST_SYSTEM_RESET)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	/* reset_type and reset_reason are 32-bit parameters. */
	return SBI_ERR(system_reset((uint32_t)a0, (uint32_t)a1));
}

static const struct sbi_extension sbi_srst = {
	.name = "SRST",
	.eid_first = SBI_EXT_SRST,
	.eid_last = SBI_EXT_SRST,
	.available = system_reset_available,
	.handle = srst_handle,
};
SBI_EXTENSION(sbi_srst);

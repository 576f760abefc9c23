// SPDX-License-Identifier: BSD-2-Clause
/* FWFT extension (ext-firmware-features.adoc): unpacks the arguments for
 * fwft.c. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/fwft.h"

static struct sbiret fwft_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	unsigned long value;
	long ret;

	(void)a3, (void)a4, (void)a5;
	/* feature is a uint32_t: the upper half of a0 is not part of it. */
	switch (fid) {
	case SBI_FWFT_SET:
		return SBI_ERR(fwft_set(self, (uint32_t)a0, a1, a2));
	case SBI_FWFT_GET:
		ret = fwft_get(self, (uint32_t)a0, &value);
		return SBI_RET(ret, value);
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_fwft = {
	.name = "FWFT",
	.eid_first = SBI_EXT_FWFT,
	.eid_last = SBI_EXT_FWFT,
	.handle = fwft_handle,
};
SBI_EXTENSION(sbi_fwft);

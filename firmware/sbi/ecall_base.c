// SPDX-License-Identifier: BSD-2-Clause
/* BASE extension (EID 0x10): versions, IDs and extension probing. */
#include "firmware/sbi/ecall.h"
#include "firmware/core/riscv_csr.h"

static struct sbiret base_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_BASE_GET_SPEC_VERSION:
		return SBI_RET(SBI_SUCCESS, SBI_SPEC_VERSION);
	case SBI_BASE_GET_IMPL_ID:
		return SBI_RET(SBI_SUCCESS, SBI_IMPL_ID);
	case SBI_BASE_GET_IMPL_VERSION:
		return SBI_RET(SBI_SUCCESS, SBI_IMPL_VERSION);
	case SBI_BASE_PROBE_EXTENSION:
		return SBI_RET(SBI_SUCCESS, sbi_extension_available(a0) ? 1 : 0);
	case SBI_BASE_GET_MVENDORID:
		return SBI_RET(SBI_SUCCESS, csr_read(mvendorid));
	case SBI_BASE_GET_MARCHID:
		return SBI_RET(SBI_SUCCESS, csr_read(marchid));
	case SBI_BASE_GET_MIMPID:
		return SBI_RET(SBI_SUCCESS, csr_read(mimpid));
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_base = {
	.name = "BASE",
	.eid_first = SBI_EXT_BASE,
	.eid_last = SBI_EXT_BASE,
	.handle = base_handle,
};
SBI_EXTENSION(sbi_base);

// SPDX-License-Identifier: BSD-2-Clause
/* RFENCE extension: validates the arguments, then tlb.c does the work. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/ipi.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/service/tlb.h"

/* RFENCE: size 2^XLEN - 1 (or start and size both 0) is the whole address
 * space and an empty range is valid anywhere; otherwise [start, start + size)
 * must lie in the address space (it may end exactly at its top: the last
 * byte is start + size - 1). */
static bool range_valid(unsigned long start, unsigned long size)
{
	if (size == 0 || size == (unsigned long)-1)
		return true;
	return start + (size - 1) >= start;
}

static bool id_valid(unsigned long id, unsigned int bits)
{
	return bits >= 64 || id < (1UL << bits);
}

long sbi_rfence_check(const struct fence_request *req, const struct hart *self)
{
	if ((req->kind == FENCE_SFENCE_VMA_ASID || req->kind == FENCE_HFENCE_VVMA_ASID) &&
	    !id_valid(req->id, self->feat.asid_bits))
		return SBI_ERR_INVALID_PARAM;
	if (req->kind == FENCE_HFENCE_GVMA_VMID && !id_valid(req->id, self->feat.vmid_bits))
		return SBI_ERR_INVALID_PARAM;
	if (!range_valid(req->start, req->size))
		return SBI_ERR_INVALID_ADDRESS;
	return SBI_SUCCESS;
}

static struct sbiret rfence_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				   unsigned long a3, unsigned long a4, unsigned long a5,
				   unsigned long fid, struct hart *self)
{
	struct fence_request req = { .start = a2, .size = a3, .id = a4 };
	long ret;

	(void)a5;
	switch (fid) {
	case SBI_RFENCE_REMOTE_FENCE_I:
		if (fence_mask_is_only_self(a0, a1)) {
			fence_i();
			return SBI_ERR(SBI_SUCCESS);
		}
		req.kind = FENCE_I;
		return SBI_ERR(fence_remote(a0, a1, &req));
	case SBI_RFENCE_REMOTE_SFENCE_VMA:
		req.kind = FENCE_SFENCE_VMA;
		break;
	case SBI_RFENCE_REMOTE_SFENCE_VMA_ASID:
		req.kind = FENCE_SFENCE_VMA_ASID;
		break;
	case SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID:
		req.kind = FENCE_HFENCE_GVMA_VMID;
		break;
	case SBI_RFENCE_REMOTE_HFENCE_GVMA:
		req.kind = FENCE_HFENCE_GVMA;
		break;
	case SBI_RFENCE_REMOTE_HFENCE_VVMA_ASID:
		req.kind = FENCE_HFENCE_VVMA_ASID;
		break;
	case SBI_RFENCE_REMOTE_HFENCE_VVMA:
		req.kind = FENCE_HFENCE_VVMA;
		break;
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
	/* "not supported ... one of the target harts doesn't support the
	 * hypervisor extension": harts here are alike, so ask this one. */
	if (req.kind >= FENCE_HFENCE_GVMA_VMID && !self->feat.h)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	ret = hart_mask_validate(a0, a1);
	if (!ret)
		ret = sbi_rfence_check(&req, self);
	if (ret)
		return SBI_ERR(ret);
	return SBI_ERR(fence_remote(a0, a1, &req));
}

static const struct sbi_extension sbi_rfence = {
	.name = "RFENCE",
	.eid_first = SBI_EXT_RFENCE,
	.eid_last = SBI_EXT_RFENCE,
	.handle = rfence_handle,
};
SBI_EXTENSION(sbi_rfence);

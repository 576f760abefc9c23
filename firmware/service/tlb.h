/* SPDX-License-Identifier: BSD-2-Clause */
/* Remote fences (RFENCE, the legacy fences): one request per hart, run by
 * the target on an IPI. */
#ifndef FIRMWARE_CORE_TLB_H
#define FIRMWARE_CORE_TLB_H

#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"

/* The hart mask selects exactly the calling hart (no IPI needed). */
static inline bool fence_mask_is_only_self(unsigned long mask, unsigned long base)
{
	unsigned long bit = csr_read(mhartid) - base;

	return base != (unsigned long)-1 && bit < 8 * sizeof(long) && mask == 1UL << bit;
}
void fence_run_local(const struct fence_request *req);
/* Whether req is an sfence.vma of pages (one sfence.vma of an address
 * each, at most 64): the first and how many; false for everything else
 * (a whole flush, fence.i, the hfences). */
#define FENCE_PAGE_SIZE 4096UL
bool fence_pages(const struct fence_request *r, unsigned long *first, unsigned long *n);
void fence_handle_requests(struct hart *self);
long fence_remote(unsigned long mask, unsigned long base, const struct fence_request *req);

#endif

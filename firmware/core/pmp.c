// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMP: the first entries cover the regions S/U-mode must not touch (the
 * firmware, then the emulated trace components' register window) with no
 * permissions, the next one the whole address space with RWX.  The
 * lowest-numbered matching entry wins (privileged spec, PMP priority), so
 * S/U-mode can use everything else; no entry is locked, so M-mode is
 * unaffected.
 */
#include "firmware/core/features.h"
#include "firmware/core/guard.h"
#include "firmware/core/console.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/platform.h"
#include "firmware/core/pmp.h"

static unsigned long napot_addr(uint64_t base, uint64_t size)
{
	return (unsigned long)((base | (size / 2 - 1)) >> 2);
}

int pmp_protect(const struct hart_features *f, const struct mem_region *deny, unsigned int n)
{
	unsigned long cfg = 0;
	unsigned int i;

	if (f->pmp_count < n + 1 || n > 7)
		return -1;
	for (i = 0; i < n; i++) {
		/* NAPOT needs a power-of-two size and a base aligned to it. */
		if (deny[i].size & (deny[i].size - 1) || deny[i].base & (deny[i].size - 1))
			return -1;
		csr_write_num(CSR_PMPADDR0 + i, napot_addr(deny[i].base, deny[i].size));
		cfg |= (unsigned long)PMP_A_NAPOT << (8 * i);
	}
	csr_write_num(CSR_PMPADDR0 + n, -1UL);
	cfg |= (unsigned long)(PMP_A_NAPOT | PMP_R | PMP_W | PMP_X) << (8 * n);
	csr_write_num(CSR_PMPCFG0, cfg);
	sfence_vma_all();
	return 0;
}

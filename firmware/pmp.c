// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMP: entry 0 covers the firmware region with no permissions, entry 1 the
 * whole address space with RWX.  The lowest-numbered matching entry wins
 * (privileged spec, PMP priority), so S/U-mode can use everything except the
 * firmware; neither entry is locked, so M-mode is unaffected.
 */
#include "cpu_features.h"
#include "guard.h"
#include "console.h"
#include "riscv_csr.h"

static unsigned long napot_addr(uint64_t base, uint64_t size)
{
	return (unsigned long)((base | (size / 2 - 1)) >> 2);
}

int pmp_protect_firmware(const struct hart_features *f, uint64_t base, uint64_t size)
{
	if (f->pmp_count < 2)
		return -1;
	/* NAPOT needs a power-of-two size and a base aligned to it. */
	if (size & (size - 1) || base & (size - 1))
		return -1;
	csr_write_num(CSR_PMPADDR0, napot_addr(base, size));
	csr_write_num(CSR_PMPADDR0 + 1, -1UL);
	csr_write_num(CSR_PMPCFG0, (unsigned long)PMP_A_NAPOT |
			((unsigned long)(PMP_A_NAPOT | PMP_R | PMP_W | PMP_X) << 8));
	sfence_vma_all();
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Machine software interrupts: ACLINT MSWI ("riscv,aclint-mswi") and the
 * MSIP part of the older CLINT ("sifive,clint0", "riscv,clint0").  One
 * 32-bit MSIP register per hart, in the order of the node's
 * interrupts-extended entries (ACLINT spec, MSWI device).
 */
#include "drivers.h"
#include "hart.h"
#include "riscv_csr.h"

#define CLINT_MSIP_OFFSET 0x0

static void mswi_assign(const struct fdt *fdt, int node, uint64_t base)
{
	const uint8_t *ie;
	int len, i, soft_index = 0;

	ie = fdt_getprop(fdt, node, "interrupts-extended", &len);
	if (!ie || len < 0)
		return;
	for (i = 0; i + 8 <= len; i += 8) {
		uint32_t phandle = fdt_be32(ie + i), irq = fdt_be32(ie + i + 4);
		long hartid;
		struct hart *h;

		if (irq != IRQ_M_SOFT)
			continue;
		hartid = fdt_intc_phandle_to_hartid(fdt, phandle);
		h = hartid < 0 ? NULL : hart_by_id((unsigned long)hartid);
		if (h)
			h->msip = (volatile uint32_t *)(uintptr_t)(base + 4 * soft_index);
		soft_index++;
	}
}

/* "riscv,aclint-mswi", and the MSIP array at offset 0 of a CLINT. */
int aclint_mswi_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t base, size;

	if (fdt_get_reg_under(fdt, parent, node, 0, &base, &size) < 0)
		return -1;
	mswi_assign(fdt, node, base + CLINT_MSIP_OFFSET);
	return 0;
}

void aclint_mswi_send(volatile uint32_t *msip)
{
	if (msip)
		*msip = 1;
}

void aclint_mswi_clear(volatile uint32_t *msip)
{
	if (msip)
		*msip = 0;
}

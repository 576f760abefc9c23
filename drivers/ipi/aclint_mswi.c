// SPDX-License-Identifier: BSD-2-Clause
/*
 * Machine software interrupts: ACLINT MSWI ("riscv,aclint-mswi") and the
 * MSIP part of the older CLINT ("sifive,clint0", "riscv,clint0").  One
 * 32-bit MSIP register per hart, in the order of the node's
 * interrupts-extended entries (ACLINT spec, MSWI device).
 */
#include "firmware/core/driver.h"
#include "firmware/core/fdt_irq.h"
#include "firmware/service/ipi.h"
#include "drivers/ipi/aclint_mswi.h"
#include "firmware/core/hart.h"
#include "firmware/core/riscv_csr.h"

#define CLINT_MSIP_OFFSET 0x0
#define CLINT_CONTEXTS    4095

static void mswi_send(struct hart *h)
{
	if (h->msip)
		*h->msip = 1;
}

static void mswi_clear(struct hart *h)
{
	if (h->msip)
		*h->msip = 0;
}

static const struct ipi_device mswi_device = { mswi_send, mswi_clear };

static void mswi_assign(const struct fdt *fdt, int node, uint64_t base)
{
	unsigned int n, count = fdt_irq_context_count(fdt, node, IRQ_M_SOFT);

	for (n = 0; n < count; n++) {
		struct hart *h = fdt_irq_context_hart(fdt, node, IRQ_M_SOFT, n);

		if (h)
			h->msip = (volatile uint32_t *)(uintptr_t)(base + 4UL * n);
	}
}

/* "riscv,aclint-mswi", and the MSIP array at offset 0 of a CLINT. */
static int aclint_mswi_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t base, size;

	if (fdt_get_reg_under(fdt, parent, node, 0, &base, &size) < 0)
		return -1;
	mswi_assign(fdt, node, base + CLINT_MSIP_OFFSET);
	ipi_device_register(&mswi_device);
	return 0;
}

/* The CLINT's MSIP array by hartid (FU540-C000 manual, CLINT memory
 * map), for a board whose DTB has no CLINT node. */
void clint_mswi_at(uint64_t base)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (hart_ids[i] < CLINT_CONTEXTS)
			hart_table[i]->msip = (volatile uint32_t *)(uintptr_t)
				(base + CLINT_MSIP_OFFSET + 4UL * hart_ids[i]);
	ipi_device_register(&mswi_device);
}

DT_DRIVER(10, aclint_mswi_driver, "riscv,aclint-mswi", aclint_mswi_probe);
DT_DRIVER(12, sifive_clint_mswi_driver, "sifive,clint0", aclint_mswi_probe);
DT_DRIVER(14, riscv_clint_mswi_driver, "riscv,clint0", aclint_mswi_probe);
DT_DRIVER(16, thead_clint_mswi_driver, "thead,c900-clint", aclint_mswi_probe);

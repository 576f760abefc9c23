// SPDX-License-Identifier: BSD-2-Clause
/* The harts behind an ACLINT-style device's contexts (fdt_irq.h). */
#include "firmware/core/fdt_irq.h"
#include "firmware/core/hart.h"
#include "firmware/core/per_hart.h"

/* phandle of each hart's "riscv,cpu-intc" node, by hart table index: the
 * ACLINT/CLINT interrupts-extended entries point at these. */
static PER_HART(uint32_t, hart_intc_phandle);

/* The hart whose interrupt controller has this phandle, or -1. */
static long intc_phandle_to_hartid(uint32_t phandle)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (phandle && *per_hart_at(hart_intc_phandle, i) == phandle)
			return (long)hart_ids[i];
	return -1;
}

void fdt_irq_note_hart(unsigned int i, uint32_t intc_phandle)
{
	if (i < MAX_HARTS)
		*per_hart_at(hart_intc_phandle, i) = intc_phandle;
}

struct hart *fdt_irq_context_hart(const struct fdt *fdt, int node, uint32_t irq,
				  unsigned int n)
{
	const uint8_t *ie;
	int len, i;

	ie = fdt_getprop(fdt, node, "interrupts-extended", &len);
	if (!ie)
		return NULL;
	for (i = 0; i + 8 <= len; i += 8) {
		long hartid;

		if (fdt_be32(ie + i + 4) != irq || n--)
			continue;
		hartid = intc_phandle_to_hartid(fdt_be32(ie + i));
		return hartid < 0 ? NULL : hart_by_id((unsigned long)hartid);
	}
	return NULL;
}

/* Number of interrupts-extended entries of `node` for `irq`. */
unsigned int fdt_irq_context_count(const struct fdt *fdt, int node, uint32_t irq)
{
	const uint8_t *ie;
	int len, i;
	unsigned int count = 0;

	ie = fdt_getprop(fdt, node, "interrupts-extended", &len);
	for (i = 0; ie && i + 8 <= len; i += 8)
		count += fdt_be32(ie + i + 4) == irq;
	return count;
}

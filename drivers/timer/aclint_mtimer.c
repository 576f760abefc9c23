// SPDX-License-Identifier: BSD-2-Clause
/*
 * Machine timer: ACLINT MTIMER ("riscv,aclint-mtimer": two reg ranges, the
 * 8-byte MTIME register and the MTIMECMP array) and the CLINT
 * ("sifive,clint0": MTIMECMP at +0x4000, MTIME at +0xbff8).  MTIMECMP
 * registers are in the order of the interrupts-extended entries.
 * The T-Head C906/C910 CLINT ("thead,c900-clint", Allwinner D1's
 * "allwinner,sun20i-d1-clint") lays MSIP and MTIMECMP out the same way but
 * "lacks a memory-mapped MTIME register" (Linux's sifive,clint binding):
 * there the hart's time CSR is the machine timer.
 */
#include "firmware/core/driver.h"
#include "firmware/core/fdt_irq.h"
#include "drivers/timer/aclint_mtimer.h"
#include "firmware/core/hart.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"

#define CLINT_MTIMECMP_OFFSET 0x4000
#define CLINT_MTIME_OFFSET    0xbff8
#define CLINT_CONTEXTS        4095

static void mtimer_assign(const struct fdt *fdt, int node, uint64_t cmp_base)
{
	unsigned int n, count = fdt_irq_context_count(fdt, node, IRQ_M_TIMER);

	for (n = 0; n < count; n++) {
		struct hart *h = fdt_irq_context_hart(fdt, node, IRQ_M_TIMER, n);

		if (h)
			h->mtimecmp = (volatile uint64_t *)(uintptr_t)(cmp_base + 8UL * n);
	}
}

static int aclint_mtimer_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t a0, s0, a1, s1;

	if (fdt_get_reg_under(fdt, parent, node, 0, &a0, &s0) < 0 ||
	    fdt_get_reg_under(fdt, parent, node, 1, &a1, &s1) < 0)
		return -1;
	/* The 8-byte range is MTIME; the other one the MTIMECMP array. */
	if (s0 == 8) {
		platform_register_mtime((volatile uint64_t *)(uintptr_t)a0, false);
		mtimer_assign(fdt, node, a1);
	} else {
		platform_register_mtime((volatile uint64_t *)(uintptr_t)a1, false);
		mtimer_assign(fdt, node, a0);
	}
	return 0;
}

static int clint_mtimer_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t base, size;

	if (fdt_get_reg_under(fdt, parent, node, 0, &base, &size) < 0 ||
	    size < CLINT_MTIME_OFFSET + 8)
		return -1;
	platform_register_mtime((volatile uint64_t *)(uintptr_t)(base + CLINT_MTIME_OFFSET), false);
	mtimer_assign(fdt, node, base + CLINT_MTIMECMP_OFFSET);
	return 0;
}

static int thead_clint_mtimer_probe(const struct fdt *fdt, int node, int parent)
{
	uint64_t base, size;

	if (fdt_get_reg_under(fdt, parent, node, 0, &base, &size) < 0 ||
	    size < CLINT_MTIMECMP_OFFSET + 8)
		return -1;
	platform_register_mtime(NULL, true);
	mtimer_assign(fdt, node, base + CLINT_MTIMECMP_OFFSET);
	return 0;
}

/* A CLINT the DTB does not describe: MTIMECMP by hartid. */
void clint_mtimer_at(uint64_t base)
{
	unsigned int i;

	platform_register_mtime((volatile uint64_t *)(uintptr_t)(base + CLINT_MTIME_OFFSET), false);
	for (i = 0; i < hart_count; i++)
		if (hart_ids[i] < CLINT_CONTEXTS)
			hart_table[i]->mtimecmp = (volatile uint64_t *)(uintptr_t)
				(base + CLINT_MTIMECMP_OFFSET + 8UL * hart_ids[i]);
}

DT_DRIVER(11, aclint_mtimer_driver, "riscv,aclint-mtimer", aclint_mtimer_probe);
DT_DRIVER(13, sifive_clint_mtimer_driver, "sifive,clint0", clint_mtimer_probe);
DT_DRIVER(15, riscv_clint_mtimer_driver, "riscv,clint0", clint_mtimer_probe);
DT_DRIVER(17, thead_clint_mtimer_driver, "thead,c900-clint", thead_clint_mtimer_probe);

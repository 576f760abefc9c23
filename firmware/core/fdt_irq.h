/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ACLINT-style per-hart contexts: a device has one register per hart
 * context, in the order of the node's interrupts-extended entries for its
 * interrupt (ACLINT spec).
 */
#ifndef FIRMWARE_CORE_FDT_IRQ_H
#define FIRMWARE_CORE_FDT_IRQ_H

#include <stdint.h>
#include "lib/fdt/fdt.h"

struct hart;

/* DT parsing: the phandle of the "riscv,cpu-intc" node of the hart at
 * index i of the hart table. */
void fdt_irq_note_hart(unsigned int i, uint32_t intc_phandle);
/* The hart behind the n-th interrupts-extended entry for `irq` (or NULL:
 * a hart this firmware does not serve, or a malformed entry), and how many
 * there are. */
struct hart *fdt_irq_context_hart(const struct fdt *fdt, int node, uint32_t irq,
				  unsigned int n);
unsigned int fdt_irq_context_count(const struct fdt *fdt, int node, uint32_t irq);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model and data path of tracesbi's emulated RAM sink (Trace
 * Control Interface 1.0, "Trace RAM Sink"): SRAM mode into a firmware-held
 * buffer read back through trRamRP/trRamData, SMEM mode into S-mode memory
 * the firmware has checked.  Pure: memory is reached through the env the
 * owner supplies, so host tests run it against a fake memory.
 */
#ifndef TRACE_TCI_RAMSINK_H
#define TRACE_TCI_RAMSINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/tci/tci_spec.h"

/* Where SMEM buffers may go (supplied by the platform). */
struct tci_ramsink_env {
	/* [base, base + size) is memory S-mode owns: RAM, not firmware. */
	bool (*range_ok)(uint64_t base, uint64_t size);
	/* Bounds that Start/Limit/WP are clamped to (WARL), 4-byte aligned:
	 * the lowest and the highest S-mode RAM word. */
	uint64_t addr_min, addr_max;
	void (*write)(uint64_t addr, const uint8_t *data, size_t len);
};

struct tci_ramsink {
	uint32_t control;         /* trRamControl without trRamEmpty        */
	uint64_t start, limit;    /* trRamStart, trRamLimit                  */
	uint64_t wp;              /* next byte the sink writes (WP = wp & ~3) */
	uint64_t rp;              /* trRamRP (SRAM mode)                     */
	bool wrap;                /* trRamWrap                               */
	uint8_t *sram;            /* SRAM mode buffer                        */
	uint32_t sram_size;
	const struct tci_ramsink_env *env;
};

/* What the owner must know after a register write (bits). */
#define RAM_FX_ENABLED   (1u << 0)  /* the sink started taking trace      */
#define RAM_FX_DISABLED  (1u << 1)  /* it stopped (and flushed)           */

void tci_ramsink_init(struct tci_ramsink *s, uint8_t *sram, uint32_t sram_size,
		      const struct tci_ramsink_env *env);

/* Reads of trRamData advance trRamRP, hence not const. */
uint32_t tci_ramsink_read(struct tci_ramsink *s, uint32_t off);
uint32_t tci_ramsink_write(struct tci_ramsink *s, uint32_t off, uint32_t val);

/*
 * Trace bytes from the encoder: `len` bytes of whole messages.  Returns 0
 * when all were stored, -1 when (some) were refused: the sink is not
 * enabled, or stop-on-wrap filled it (then it stores the complete messages
 * that fit, fills the rest of the buffer with idle bytes, wraps WP to Start
 * with trRamWrap = 1 and clears trRamEnable).
 */
int tci_ramsink_put(struct tci_ramsink *s, const uint8_t *data, size_t len);

static inline bool tci_ramsink_enabled(const struct tci_ramsink *s)
{
	uint32_t on = TRRAM_ACTIVE | TRRAM_ENABLE;

	return (s->control & on) == on;
}

#endif /* TRACE_TCI_RAMSINK_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which trace components the firmware emulates, and where: one encoder and
 * one RAM sink per hart it serves, in a register window no device of the
 * platform uses (components.c).
 */
#ifndef TRACE_COMPONENTS_H
#define TRACE_COMPONENTS_H

#include <stdbool.h>
#include <stdint.h>

struct trace_hart;

#define COMPONENT_STRIDE 0x2000u     /* encoder, then its sink 4 KiB above */

/* The hart whose component holds physical address addr (*sink: its RAM
 * sink, else its encoder), or NULL outside every component. */
struct trace_hart *components_lookup(uint64_t addr, bool *sink);

/* Register base of hart index i's encoder (its sink is 4 KiB above). */
uint64_t components_encoder_base(unsigned int index);

/* A register access by the current hart (mmio.c): reads answered directly,
 * writes (and trRamData reads) made by the owner hart, or here when the
 * owner is parked.  regs: this hart's S/U frame when it is in a trap from
 * S/U-mode, else NULL. */
struct trap_regs;
uint32_t components_access(struct trace_hart *th, bool sink, uint32_t off, bool write,
			   uint32_t val, struct trap_regs *regs);

#endif /* TRACE_COMPONENTS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The trace engine (firmware/trace/, docs/TRACE.md) as the rest of the
 * firmware sees it: boot, the emulated components' register window, and
 * the hooks at the places where a hart's S/U execution enters or leaves
 * M-mode.  A hart that does not trace pays for none of it on its trap path.
 */
#ifndef FIRMWARE_TRACE_TRACE_H
#define FIRMWARE_TRACE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"
#include "firmware/core/trap_regs.h"

struct hart;
struct fence_request;
struct trace_hart;

/* Cold boot (after the hart table and the devices): decide whether the
 * firmware emulates trace components and where their registers go. */
void trace_cold_init(const struct fdt *fdt);
/* Cold boot, once the next stage is chosen: where the boot hart enters
 * S-mode (the trace directory's next_addr, firmware/trace/directory.h). */
void trace_next_stage(unsigned long addr);
/* Every hart at warm boot (after feature probing): the facts of the hart
 * its encoder reports.  S-mode starts after every hart has done it. */
void trace_hart_init(struct hart *self);
/* DT fix-up: the component nodes (trace-component-dt-binding.md). */
int trace_fdt_fixup(struct fdt_rw *rw);
/* Space the fix-up needs in the DTB. */
uint32_t trace_fdt_space(void);
void trace_print_banner(void);
/* The register window, for PMP: size 0 when there is none. */
void trace_window(uint64_t *base, uint64_t *size);

/* A load/store access fault at tval: true when it hit the component
 * registers and was emulated (regs->mepc advanced). */
bool trace_mmio_emulate(struct trap_regs *regs, unsigned long cause, unsigned long tval);
/* IPI_EVENT_TRACE: register accesses other harts asked this one to make,
 * then pending starts (regs: the interrupted S/U frame, or NULL). */
void trace_ipi(struct hart *self, struct trap_regs *regs);

/* The traced trap path (trap/trap.S, while the hart steps): every trap that
 * is not an SBI call, with the hart's trace state (hart.trace) and mcause,
 * is first the engine's; what it does not claim (an exception to emulate or
 * deliver, an interrupt) goes to the trap entry's handler registered with
 * the vectors (trap_handler_traced, core/trap_vector.h).  True when the
 * frame's s0..s11, mepc and mstatus are as the trap left them (the common
 * visit of block stepping): the exit then restores only the registers C
 * code may have changed.  Then, from that handler: whether stepping goes
 * on after a trap it delivered to S-mode (epc: where it was taken), and
 * what the trap left pending. */
bool trace_trap_enter(struct trace_hart *th, struct trap_regs *regs, unsigned long cause);
void trace_trap_redirected(struct trace_hart *th, struct trap_regs *regs,
			   unsigned long epc, unsigned long cause);
void trace_trap_done(struct trace_hart *th, struct trap_regs *regs);
/* The hart leaves S/U-mode for good inside an SBI call (HSM stop,
 * non-retentive suspend, a hold) / enters S/U-mode at addr (HSM start,
 * resume): in between (and from boot to its first start) its components
 * are parked, so other harts access them without it (trace/mmio.c). */
void trace_hart_leaving(struct hart *self);
/* The SBI call the hart is in returns to regs->mepc instead of after its
 * ecall (an SSE event's handler, or the context an event interrupted). */
void trace_sbi_returns_elsewhere(struct hart *self, const struct trap_regs *regs);
void trace_hart_entering(struct hart *self, unsigned long addr, unsigned long mode);
/* An SBI call finished waiting in M-mode (fences, retentive suspend). */
void trace_wait_done(struct hart *self);
/* fence.i / sfence.vma ran on this hart (for itself or another one). */
void trace_code_changed(struct hart *self, const struct fence_request *req);
/* Before a system reset: every hart stops tracing and flushes.  True when
 * the boot option asks to hold the machine instead of resetting it. */
bool trace_stop_all(void);

#endif

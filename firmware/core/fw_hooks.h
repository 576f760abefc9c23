/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the core tells the subsystems above it (PMU, CTR, the trace
 * engine) about a hart's life and the machine's, without naming them: each
 * registers one struct fw_hooks with FW_HOOKS(), whose members it may
 * leave NULL.  The core walks them in their order (FW_HOOKS' `order`,
 * lower first; resume in reverse).
 */
#ifndef FIRMWARE_CORE_FW_HOOKS_H
#define FIRMWARE_CORE_FW_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/hook.h"
#include "firmware/core/trap_regs.h"

struct hart;
struct fence_request;

struct fw_hooks {
	/* A stopped hart, before it starts (HSM): as at boot. */
	void (*hart_reset)(struct hart *self);
	/* Non-retentive suspend: save what the hart loses / restore it. */
	void (*hart_suspend)(struct hart *self);
	void (*hart_resume)(struct hart *self);
	/* The hart leaves S/U-mode for good inside an SBI call (HSM stop,
	 * non-retentive suspend) / enters S/U-mode at addr in mode. */
	void (*hart_leaving)(struct hart *self);
	void (*hart_entering)(struct hart *self, unsigned long addr, unsigned long mode);
	/* An SBI call finished waiting in M-mode (fences, retentive suspend). */
	void (*wait_done)(struct hart *self);
	/* fence.i / sfence.vma ran on this hart (for itself or another):
	 * the request (service/tlb.h, fence_pages()). */
	void (*code_changed)(struct hart *self, const struct fence_request *req);
	/* IPI events (IPI_EVENT_*, core/hart.h) this subsystem owns, and
	 * their handler (regs: the interrupted S/U frame, or NULL). */
	uint32_t ipi_events;
	void (*ipi)(struct hart *self, struct trap_regs *regs);
	/* Before a system reset (SRST): true holds the machine up instead. */
	bool (*before_reset)(void);
};

#define FW_HOOKS(order, item) HOOK_REGISTER(fw, order, const struct fw_hooks, item)

void fw_hooks_hart_reset(struct hart *self);
void fw_hooks_hart_suspend(struct hart *self);
void fw_hooks_hart_resume(struct hart *self);
void fw_hooks_hart_leaving(struct hart *self);
void fw_hooks_hart_entering(struct hart *self, unsigned long addr, unsigned long mode);
void fw_hooks_wait_done(struct hart *self);
void fw_hooks_code_changed(struct hart *self, const struct fence_request *req);
void fw_hooks_ipi(struct hart *self, uint32_t events, struct trap_regs *regs);
bool fw_hooks_before_reset(void);

#endif

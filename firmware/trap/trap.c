// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every trap that is not an S-mode ecall arrives here from trap.S with the
 * full frame: machine interrupts (IPIs, the emulated S timer), misaligned
 * loads/stores (emulated), illegal instructions (emulation hook) and
 * anything else, which goes back to S-mode exactly as delegation would have
 * delivered it.  S-mode ecalls take trap.S's fast path to sbi/ecall.c.
 */
#include "firmware/service/panic.h"
#include <stdbool.h>
#include "firmware/trap/trap.h"
#include "firmware/core/hart.h"
#include "firmware/service/ipi.h"
#include "firmware/core/console.h"
#include "firmware/emu/misaligned.h"
#include "firmware/trace/trace.h"
#include "firmware/trace/ctr_access.h"
#include "firmware/service/sse.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/service/redirect.h"
#include "firmware/core/trap_vector.h"
#include "firmware/emu/time_csr.h"
#include "firmware/service/timer.h"
#include "firmware/core/fw_event.h"

bool __attribute__((weak)) trap_emulate_illegal_insn(struct trap_regs *regs, unsigned long insn)
{
	(void)regs, (void)insn;
	return false;
}

static void handle_interrupt(unsigned long irq, struct trap_regs *regs)
{
	struct hart *self = hart_self();

	switch (irq) {
	case IRQ_M_SOFT:
		ipi_handle_pending(self, regs);
		break;
	case IRQ_M_TIMER:
		timer_handle_mtip(self);
		break;
	case IRQ_LCOF:
		/* Not delegated only while S-mode has the SSE PMU overflow
		 * event enabled (sse.c). */
		sse_pmu_overflow(self);
		break;
	default:
		/* Not enabled by the firmware: mask it so it cannot storm. */
		csr_clear(mie, 1UL << irq);
		break;
	}
}

/* The SBI PMU firmware events for traps S/U-mode caused. */
static void count_trap_event(unsigned long cause)
{
	static const uint8_t event_of_cause[] = {
		[CAUSE_MISALIGNED_LOAD] = PMU_FW_MISALIGNED_LOAD + 1,
		[CAUSE_MISALIGNED_STORE] = PMU_FW_MISALIGNED_STORE + 1,
		[CAUSE_LOAD_ACCESS] = PMU_FW_ACCESS_LOAD + 1,
		[CAUSE_STORE_ACCESS] = PMU_FW_ACCESS_STORE + 1,
		[CAUSE_ILLEGAL_INSN] = PMU_FW_ILLEGAL_INSN + 1,
	};

	if (cause < sizeof(event_of_cause) && event_of_cause[cause])
		fw_event_count(hart_self()->fw_events, event_of_cause[cause] - 1u);
}

enum trap_result trap_handler(struct trap_regs *regs)
{
	unsigned long cause = csr_read(mcause);
	struct trap_info trap = { cause, csr_read(mtval) };
	struct hart *self = hart_self();

	if (!hart_stack_canary_ok(self))
		hart_stack_overflow_panic(self, regs->mepc);
	if (cause & MCAUSE_INTR) {
		handle_interrupt(cause & ~MCAUSE_INTR, regs);
		/* An SSE event the interrupt made runnable preempts the
		 * interrupted context (ext-sse.adoc): control goes elsewhere,
		 * as for a redirected trap. */
		return sse_deliver(self, regs) ? TRAP_REDIRECTED : TRAP_HANDLED;
	}
	count_trap_event(cause);
	switch (cause) {
	case CAUSE_MISALIGNED_LOAD:
	case CAUSE_MISALIGNED_STORE:
		if (misaligned_emulate(regs, cause, trap.tval, &trap) == 0)
			return TRAP_HANDLED;
		break;
	case CAUSE_ILLEGAL_INSN:
		/* CTR's CSRs and SCTRCLR on harts without CTR (may turn the
		 * trap into a virtual-instruction exception). */
		if (ctr_emulate_illegal(regs, &trap))
			return TRAP_HANDLED;
		if (time_csr_emulate(regs, trap.tval))
			return TRAP_HANDLED;
		if (trap_emulate_illegal_insn(regs, trap.tval))
			return TRAP_HANDLED;
		break;
	case CAUSE_LOAD_ACCESS:
	case CAUSE_STORE_ACCESS:
		/* The emulated trace components' registers (PMP keeps S-mode
		 * out of their window). */
		if (trace_mmio_emulate(regs, cause, trap.tval))
			return TRAP_HANDLED;
		break;
	default:
		break;
	}
	trap_redirect(regs, &trap);
	return TRAP_REDIRECTED;
}

/* A traced trap the engine left to the ordinary handling (through the
 * vectors: trace_trap_enter() does not know the trap entry): false, the
 * full exit. */
static bool trap_handler_traced(struct trace_hart *th, struct trap_regs *regs)
{
	unsigned long cause = csr_read(mcause);
	unsigned long epc = regs->mepc;

	if (trap_handler(regs) == TRAP_REDIRECTED)
		trace_trap_redirected(th, regs, epc, cause);
	trace_trap_done(th, regs);
	return false;
}

void trap_vectors_init(void)
{
	extern char trap_entry_counted[], trap_entry_traced[], trap_entry_traced_counted[],
		trap_entry_traced_fast[], trap_entry_traced_fast_full[];
	static const struct trap_vectors entries = {
		.plain = (unsigned long)trap_entry,
		.counted = (unsigned long)trap_entry_counted,
		.traced = (unsigned long)trap_entry_traced,
		.traced_counted = (unsigned long)trap_entry_traced_counted,
		.traced_fast = (unsigned long)trap_entry_traced_fast,
		.traced_fast_full = (unsigned long)trap_entry_traced_fast_full,
		.traced_other = trap_handler_traced,
	};

	trap_vectors_register(&entries);
}

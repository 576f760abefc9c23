// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every trap that is not an S-mode ecall arrives here from trap.S with the
 * full frame: machine interrupts (IPIs, the emulated S timer), misaligned
 * loads/stores (emulated), illegal instructions (emulation hook) and
 * anything else, which goes back to S-mode exactly as delegation would have
 * delivered it.  S-mode ecalls take trap.S's fast path to sbi/ecall.c.
 */
#include "firmware/core/panic.h"
#include <stdbool.h>
#include "firmware/trap/trap.h"
#include "firmware/core/hart.h"
#include "firmware/core/ipi.h"
#include "firmware/core/console.h"
#include "firmware/emu/misaligned.h"
#include "firmware/pmu/pmu.h"
#include "firmware/trace/trace.h"
#include "firmware/ctr/ctr.h"
#include "firmware/core/sse.h"
#include "firmware/core/riscv_csr.h"

/* The causes whose tval is an address (GVA applies to them). */
static bool cause_has_address(unsigned long cause)
{
	switch (cause) {
	case CAUSE_MISALIGNED_FETCH: case CAUSE_FETCH_ACCESS: case CAUSE_BREAKPOINT:
	case CAUSE_MISALIGNED_LOAD: case CAUSE_LOAD_ACCESS:
	case CAUSE_MISALIGNED_STORE: case CAUSE_STORE_ACCESS:
	case CAUSE_FETCH_PAGE_FAULT: case CAUSE_LOAD_PAGE_FAULT: case CAUSE_STORE_PAGE_FAULT:
	case CAUSE_FETCH_GUEST_PAGE_FAULT: case CAUSE_LOAD_GUEST_PAGE_FAULT:
	case CAUSE_STORE_GUEST_PAGE_FAULT:
		return true;
	default:
		return false;
	}
}

static bool is_guest_page_fault(unsigned long cause)
{
	return cause == CAUSE_FETCH_GUEST_PAGE_FAULT || cause == CAUSE_LOAD_GUEST_PAGE_FAULT ||
	       cause == CAUSE_STORE_GUEST_PAGE_FAULT;
}

/* xstatus.SPP/SPIE/SIE as a trap taken into that mode sets them. */
static unsigned long status_on_trap(unsigned long status, bool from_supervisor)
{
	status &= ~(MSTATUS_SPP | MSTATUS_SPIE);
	if (from_supervisor)
		status |= MSTATUS_SPP;
	if (status & MSTATUS_SIE)
		status |= MSTATUS_SPIE;
	return status & ~MSTATUS_SIE;
}

/* From VS/VU with the cause delegated by hedeleg: the guest's own trap. */
static void redirect_to_vs(struct trap_regs *regs, const struct trap_info *trap,
			   unsigned long prev)
{
	csr_write(CSR_VSEPC, regs->mepc);
	csr_write(CSR_VSCAUSE, trap->cause);
	csr_write(CSR_VSTVAL, trap->tval);
	csr_write(CSR_VSSTATUS, status_on_trap(csr_read(CSR_VSSTATUS), prev == PRV_S));
	regs->mstatus = (regs->mstatus & ~MSTATUS_MPP) | (PRV_S << MSTATUS_MPP_SHIFT);
	regs->mepc = csr_read(CSR_VSTVEC) & ~3UL;
}

/*
 * hstatus as a trap into HS-mode sets it (privileged spec, H extension,
 * "Trap entry"): SPV = V at the trap; SPVP and GVA only when V was 1.
 */
static unsigned long hstatus_on_trap(unsigned long mstatus, unsigned long prev,
				     const struct trap_info *trap)
{
	unsigned long hs = csr_read(CSR_HSTATUS) & ~(HSTATUS_SPV | HSTATUS_GVA);

	if (mstatus & MSTATUS_MPV) {
		hs &= ~HSTATUS_SPVP;
		hs |= HSTATUS_SPV | (prev == PRV_S ? HSTATUS_SPVP : 0);
		if (cause_has_address(trap->cause))
			hs |= HSTATUS_GVA;
	}
	return hs;
}

void trap_redirect(struct trap_regs *regs, const struct trap_info *trap)
{
	unsigned long mstatus = regs->mstatus;
	unsigned long prev = (mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;
	bool has_h = hart_self()->feat.h;

	if (prev == PRV_M)
		panic("trap %lx in M-mode at %lx (tval %lx)\n", trap->cause, regs->mepc, trap->tval);
	if (has_h && (mstatus & MSTATUS_MPV) && trap->cause < 64 &&
	    (csr_read(CSR_HEDELEG) & (1UL << trap->cause))) {
		redirect_to_vs(regs, trap, prev);
		return;
	}
	if (has_h) {
		csr_write(CSR_HSTATUS, hstatus_on_trap(mstatus, prev, trap));
		/* Every trap into HS-mode writes htval and htinst, from V = 0
		 * too, or HS-mode reads what it left there itself (H extension,
		 * "Hypervisor Trap Value (htval) Register": "For other traps,
		 * htval is set to zero"; "Hypervisor Trap Instruction (htinst)
		 * Register": zero is legal for every trap).  A guest-page fault
		 * that came to M-mode (the trace engine steps a guest) has its
		 * guest physical address (>> 2) in mtval2 and its transformed
		 * instruction in mtinst, which are htval's and htinst's. */
		if (is_guest_page_fault(trap->cause) && csr_read(mcause) == trap->cause) {
			csr_write(CSR_HTVAL, csr_read(CSR_MTVAL2));
			csr_write(CSR_HTINST, csr_read(CSR_MTINST));
		} else {
			csr_write(CSR_HTVAL, 0);
			csr_write(CSR_HTINST, 0);
		}
		mstatus &= ~(MSTATUS_MPV | MSTATUS_GVA);
	}
	csr_write(sepc, regs->mepc);
	csr_write(scause, trap->cause);
	csr_write(stval, trap->tval);
	mstatus = status_on_trap(mstatus, prev == PRV_S);
	/* Continue in S-mode at stvec's base (exceptions are never vectored). */
	regs->mstatus = (mstatus & ~MSTATUS_MPP) | (PRV_S << MSTATUS_MPP_SHIFT);
	regs->mepc = csr_read(stvec) & ~3UL;
}

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
		pmu_fw_event(hart_self()->pmu, event_of_cause[cause] - 1u);
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

void trap_set_vector(struct hart *h)
{
	extern char trap_entry_counted[], trap_entry_traced[], trap_entry_traced_counted[],
		trap_entry_traced_fast[];
	char *entry = (char *)trap_entry;

	if (h->trap_tracing && h->trap_counting)
		entry = trap_entry_traced_counted;
	else if (h->trap_tracing)
		entry = h->trap_fast ? trap_entry_traced_fast : trap_entry_traced;
	else if (h->trap_counting)
		entry = trap_entry_counted;
	csr_write(mtvec, (unsigned long)entry);
}

/* Events 256..258 are counted by another trap entry (trap.S), installed
 * only while a counter counts them. */
void pmu_trap_counting(bool on)
{
	struct hart *self = hart_self();

	self->trap_counting = on;
	trap_set_vector(self);
}

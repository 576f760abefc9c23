// SPDX-License-Identifier: BSD-2-Clause
/*
 * A trap M-mode took on S-mode's behalf, delivered to S-mode (or VS-mode)
 * as delegation would have: the trap entry, the emulations and the trace
 * engine all end a trap they do not handle here.
 */
#include "firmware/service/redirect.h"
#include "firmware/core/hart.h"
#include "firmware/service/panic.h"
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


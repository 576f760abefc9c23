// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every trap that is not an S-mode ecall arrives here from trap.S with the
 * full frame: machine interrupts (IPIs, the emulated S timer), misaligned
 * loads/stores (emulated), illegal instructions (emulation hook) and
 * anything else, which goes back to S-mode exactly as delegation would have
 * delivered it.  S-mode ecalls take trap.S's fast path to sbi/ecall.c.
 */
#include <stdbool.h>
#include "trap.h"
#include "hart.h"
#include "ipi.h"
#include "console.h"
#include "misaligned.h"
#include "riscv_csr.h"

#define HSTATUS_GVA  (1UL << 6)
#define HSTATUS_SPV  (1UL << 7)
#define HSTATUS_SPVP (1UL << 8)

void trap_redirect(struct trap_regs *regs, const struct trap_info *trap)
{
	unsigned long mstatus = regs->mstatus;
	unsigned long prev = (mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	if (prev == PRV_M)
		panic("trap %lx in M-mode at %lx (tval %lx)\n", trap->cause, regs->mepc, trap->tval);
#if __riscv_xlen == 64
	/* From a virtualised context: HS-mode takes it, with hstatus telling
	 * where it came from (the hypervisor's view of delegation). */
	if (mstatus & MSTATUS_MPV) {
		unsigned long hs = csr_read(0x600);
		hs &= ~(HSTATUS_SPV | HSTATUS_SPVP | HSTATUS_GVA);
		hs |= HSTATUS_SPV | (prev == PRV_S ? HSTATUS_SPVP : 0);
		csr_write(0x600, hs);
		mstatus &= ~(MSTATUS_MPV | MSTATUS_GVA);
	}
#endif
	csr_write(sepc, regs->mepc);
	csr_write(scause, trap->cause);
	csr_write(stval, trap->tval);
	/* sstatus: SPP <- previous privilege, SPIE <- SIE, SIE <- 0. */
	mstatus &= ~(MSTATUS_SPP | MSTATUS_SPIE);
	if (prev == PRV_S)
		mstatus |= MSTATUS_SPP;
	if (mstatus & MSTATUS_SIE)
		mstatus |= MSTATUS_SPIE;
	mstatus &= ~MSTATUS_SIE;
	/* Continue in S-mode at stvec's base (exceptions are never vectored). */
	mstatus = (mstatus & ~MSTATUS_MPP) | (PRV_S << MSTATUS_MPP_SHIFT);
	regs->mstatus = mstatus;
	regs->mepc = csr_read(stvec) & ~3UL;
}

bool __attribute__((weak)) trap_emulate_illegal_insn(struct trap_regs *regs, unsigned long insn)
{
	(void)regs, (void)insn;
	return false;
}

static void handle_interrupt(unsigned long irq)
{
	struct hart *self = hart_self();

	switch (irq) {
	case IRQ_M_SOFT:
		ipi_handle_pending(self);
		break;
	case IRQ_M_TIMER:
		timer_handle_mtip(self);
		break;
	default:
		/* Not enabled by the firmware: mask it so it cannot storm. */
		csr_clear(mie, 1UL << irq);
		break;
	}
}

void trap_handler(struct trap_regs *regs)
{
	unsigned long cause = csr_read(mcause);
	struct trap_info trap = { cause, csr_read(mtval) };

	if (cause & MCAUSE_INTR) {
		handle_interrupt(cause & ~MCAUSE_INTR);
		return;
	}
	switch (cause) {
	case CAUSE_MISALIGNED_LOAD:
	case CAUSE_MISALIGNED_STORE:
		if (misaligned_emulate(regs, cause, trap.tval, &trap) == 0)
			return;
		break;
	case CAUSE_ILLEGAL_INSN:
		if (trap_emulate_illegal_insn(regs, trap.tval))
			return;
		break;
	default:
		break;
	}
	trap_redirect(regs, &trap);
}

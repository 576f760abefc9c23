// SPDX-License-Identifier: BSD-2-Clause
/*
 * The time CSR for harts that do not implement it (QEMU's sifive_u: its
 * harts follow privileged spec 1.10, where reading time may trap so that
 * M-mode supplies it): a read of time (csrrs/csrrc/csrrsi/csrrci with no
 * bits to change, which is what rdtime is) that traps as illegal returns
 * the platform's mtime, as the privileged spec intends ("Counter-Enable
 * Registers": M-mode may emulate the access).  U-mode reads follow
 * scounteren.TM, the hart's own rule for time.
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/umem.h"
#include "firmware/core/hart.h"
#include "firmware/service/ipi.h"
#include "firmware/emu/time_csr.h"

#define INSN_OPCODE_SYSTEM 0x73

static bool fetch_trapped_insn(const struct trap_regs *regs, unsigned long tval, uint32_t *insn)
{
	struct trap_info fault;

	if (tval) {
		*insn = (uint32_t)tval;
		return true;
	}
	return umem_fetch_insn(regs->mstatus, regs->mepc, insn, &fault) == 0;
}

/* csrrs / csrrc (funct3 2, 3) with rs1 = x0 and csrrsi / csrrci (6, 7)
 * with uimm = 0: reads that change nothing. */
static bool is_time_read(uint32_t insn)
{
	unsigned int funct3 = (insn >> 12) & 7, rs1 = (insn >> 15) & 31;

	return (insn & 0x7f) == INSN_OPCODE_SYSTEM && insn >> 20 == CSR_TIME && rs1 == 0 &&
	       (funct3 == 2 || funct3 == 3 || funct3 == 6 || funct3 == 7);
}

static bool time_read_allowed(unsigned long mstatus)
{
	unsigned long prev = (mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	if (mstatus & MSTATUS_MPV)
		return false;   /* guests: the hypervisor's business */
	return prev != PRV_U || (csr_read(scounteren) & MCOUNTEREN_TM);
}

bool time_csr_emulate(struct trap_regs *regs, unsigned long tval)
{
	uint32_t insn;
	unsigned int rd;

	if (!platform.mtime || !fetch_trapped_insn(regs, tval, &insn) || !is_time_read(insn) ||
	    !time_read_allowed(regs->mstatus))
		return false;
	rd = (insn >> 7) & 31;
	if (rd)
		regs->x[rd] = *platform.mtime;
	regs->mepc += 4;
	return true;
}

uint64_t time_now(void)
{
	if (hart_self()->feat.time_csr)
		return csr_read(time);
	return *platform.mtime;
}

bool time_now_source(const volatile uint64_t **mmio)
{
	*mmio = hart_self()->feat.time_csr ? NULL : platform.mtime;
	return hart_self()->feat.time_csr || platform.mtime;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * SSE extension (ext-sse.adoc): unpacks the arguments for sse.c, and
 * gives sse.c the SBI call's return context as a frame so an event can be
 * delivered (or a completed one resumed) as the call returns.
 */
#include "firmware/sbi/ecall.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/service/sse.h"
#include "firmware/trace/trace.h"

/*
 * The fast path (trap.S) saved a2..a7 in the trap frame just below struct
 * hart and reloads a6/a7 from it; it returns to mepc + 4 with the live
 * mstatus.  sse.c sees that context as a slow-path frame: mepc past the
 * ecall, mstatus, a6/a7.
 */
static struct trap_regs *call_context(struct hart *self)
{
	struct trap_regs *regs = (struct trap_regs *)((char *)self - TRAP_REGS_SIZE);

	regs->mepc = csr_read(mepc) + 4;
	regs->mstatus = csr_read(mstatus);
	return regs;
}

static void set_return_context(struct hart *self, const struct trap_regs *regs)
{
	csr_write(mepc, regs->mepc - 4);
	csr_write(mstatus, regs->mstatus);
	trace_sbi_returns_elsewhere(self, regs);
}

/* An event the call made runnable (inject, enable, unmask, ...) is
 * delivered now: the call's result is in a0/a1 for the handler to save. */
static struct sbiret deliver_on_return(struct hart *self, long error)
{
	struct trap_regs *regs = call_context(self);

	if (sse_deliver(self, regs))
		set_return_context(self, regs);
	return SBI_ERR(error);
}

/* With a running event: the interrupted context comes back whole, so a0
 * and a1 keep what the handler restored into them before the call. */
static struct sbiret complete(struct hart *self, unsigned long a0, unsigned long a1)
{
	struct trap_regs *regs = call_context(self);

	if (!sse_complete(self, regs))
		return deliver_on_return(self, SBI_SUCCESS);
	sse_deliver(self, regs);
	set_return_context(self, regs);
	return SBI_RET((long)a0, a1);
}

static struct sbiret sse_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				unsigned long a3, unsigned long a4, unsigned long a5,
				unsigned long fid, struct hart *self)
{
	/* event_id, base_attr_id, attr_count are uint32_t: the upper halves
	 * are not part of them. */
	uint32_t id = (uint32_t)a0;
	long ret;

	(void)a5;
	switch (fid) {
	case SBI_SSE_READ_ATTRS:
	case SBI_SSE_WRITE_ATTRS:
		return SBI_ERR(sse_attrs(self, id, (uint32_t)a1, (uint32_t)a2, a3, a4,
					 fid == SBI_SSE_WRITE_ATTRS));
	case SBI_SSE_REGISTER:
		return SBI_ERR(sse_register(self, id, a1, a2));
	case SBI_SSE_UNREGISTER:
		return SBI_ERR(sse_unregister(self, id));
	case SBI_SSE_ENABLE:
		ret = sse_enable(self, id);
		break;
	case SBI_SSE_DISABLE:
		return SBI_ERR(sse_disable(self, id));
	case SBI_SSE_COMPLETE:
		return complete(self, a0, a1);
	case SBI_SSE_INJECT:
		ret = sse_inject(self, id, a1);
		break;
	case SBI_SSE_HART_UNMASK:
		ret = sse_hart_unmask(self);
		break;
	case SBI_SSE_HART_MASK:
		return SBI_ERR(sse_hart_mask(self));
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
	return deliver_on_return(self, ret);
}

static const struct sbi_extension sbi_sse = {
	.name = "SSE",
	.eid_first = SBI_EXT_SSE,
	.eid_last = SBI_EXT_SSE,
	.handle = sse_handle,
};
SBI_EXTENSION(sbi_sse);

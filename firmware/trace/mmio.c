// SPDX-License-Identifier: BSD-2-Clause
/*
 * The emulated components' register window.  PMP keeps S-mode out of it,
 * so every load or store there is an access fault that comes here:
 *  - 32-bit aligned loads and stores (lw, lwu, sw and their compressed
 *    forms) are emulated: reserved and unimplemented offsets read 0 and
 *    ignore writes;
 *  - any other width, a misaligned access, an FP access, an AMO, or an
 *    address between the components goes back to S-mode as the access
 *    fault it was.
 * Hart i's encoder is at base + i * 8 KiB, its RAM sink 4 KiB above.
 *
 * Any hart may access any hart's components.  Reads without side effects
 * are answered directly; writes (and trRamData reads, which advance
 * trRamRP) are made by the owner hart, which alone touches its running
 * encoder and sink: the accessing hart posts them with IPI_EVENT_TRACE and
 * waits, handling IPIs meanwhile (as remote fences do), so two harts
 * accessing each other's registers cannot deadlock.
 */
#include "trace_hart.h"
#include "trace.h"
#include "components.h"
#include "hart.h"
#include "ipi.h"
#include "umem.h"
#include "memaccess.h"
#include "riscv_csr.h"

/* The run-time status bits of the encoder registers. */
static void refresh_status(struct trace_hart *th)
{
	th->te.empty = !th->tracing || th->enc.buf_len == 0;
}

/* An access on the owner hart (regs: its S/U frame, or NULL). */
static void access_local(struct trace_access *acc, struct trap_regs *regs)
{
	struct trace_hart *th = acc->target;

	if (!acc->write) {
		acc->value = tci_ramsink_read(&th->ram, acc->offset);   /* trRamData */
		return;
	}
	if (acc->sink)
		engine_sink_write(th, acc->offset, acc->value, regs);
	else
		engine_encoder_write(th, acc->offset, acc->value, regs);
}

static void access_remote(struct hart *self, struct hart *owner, struct trace_access *acc)
{
	self->trace_req = *acc;
	__atomic_store_n(&self->trace_req_done, 0, __ATOMIC_RELAXED);
	__atomic_fetch_or(&owner->trace_from, 1ULL << self->index, __ATOMIC_RELEASE);
	ipi_post(owner, IPI_EVENT_TRACE);
	while (!__atomic_load_n(&self->trace_req_done, __ATOMIC_ACQUIRE))
		ipi_wait_and_handle(self);
	acc->value = self->trace_req.value;
}

void trace_ipi(struct hart *self, struct trap_regs *regs)
{
	uint64_t from = __atomic_exchange_n(&self->trace_from, 0, __ATOMIC_ACQUIRE);

	while (from) {
		struct hart *src = hart_by_index((unsigned int)__builtin_ctzll(from));

		from &= from - 1;
		if (!src)
			continue;
		access_local(&src->trace_req, regs);
		__atomic_store_n(&src->trace_req_done, 1, __ATOMIC_RELEASE);
		ipi_post(src, IPI_EVENT_WAKE);
	}
	if (self->trace)
		engine_apply_pending(self->trace, regs);
}

uint32_t components_access(struct trace_hart *th, bool sink, uint32_t off, bool write,
			   uint32_t val, struct trap_regs *regs)
{
	struct trace_access acc = { th, off, val, sink, write };
	struct hart *self = hart_self();

	if (!write && !(sink && off == TRRAM_DATA)) {
		refresh_status(th);
		return sink ? tci_ramsink_read(&th->ram, off)
			    : tci_encoder_read(&th->te, off, time_now());
	}
	if (th->hart == self)
		access_local(&acc, regs);
	else
		access_remote(self, th->hart, &acc);
	return acc.value;
}

bool trace_mmio_emulate(struct trap_regs *regs, unsigned long cause, unsigned long tval)
{
	struct hart *self = hart_self();
	struct mem_access acc;
	struct trap_info fault;
	struct trace_hart *th;
	uint32_t insn, val;
	bool sink;

	th = components_lookup(tval, &sink);
	if (!th)
		return false;
	if (umem_fetch_insn(regs->mstatus, regs->mepc, &insn, &fault))
		return false;
	/* Only the access that faulted, 32 bits wide and aligned. */
	if (memaccess_decode(insn, regs, &acc) != DECODE_ACCESS || acc.fp || acc.width != 4 ||
	    acc.addr != tval || (tval & 3) ||
	    (acc.kind == ACCESS_LOAD) != (cause == CAUSE_LOAD_ACCESS))
		return false;
	/* The instruction retires before its effects apply: starting or
	 * stopping the trace on this hart does so after it. */
	regs->mepc += insn_length(insn);
	if (acc.kind == ACCESS_LOAD) {
		val = components_access(th, sink, (uint32_t)(tval & 0xFFF), false, 0, regs);
		xreg_write(regs, acc.reg, acc.sign_extend ? sign_extend(val, 32) : val);
	} else {
		components_access(th, sink, (uint32_t)(tval & 0xFFF), true,
				  (uint32_t)xreg_read(regs, acc.reg), regs);
	}
	if (self->trace)
		engine_apply_pending(self->trace, regs);
	return true;
}

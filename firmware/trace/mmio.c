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
 * Any hart may access any hart's components, whatever state their owner
 * is in (TCI 1.0, "Accessing Trace Control Registers").  Reads without
 * side effects are answered directly.  Writes and trRamData reads (which
 * advance trRamRP) change the components, and who may change them
 * depends on the owner:
 *  - running S/U code, or in M-mode on its way back to it (an SBI call, a
 *    trap, a fence wait, a retentive suspend): its encoder, stepper and
 *    sink run there without locks, so only the owner changes them.  The
 *    accessing hart posts the access (IPI_EVENT_TRACE) and waits, handling
 *    IPIs meanwhile (as remote fences do), so two harts accessing each
 *    other's registers cannot deadlock; every place such an owner waits
 *    handles IPIs.
 *  - parked (hart.trace_parked): it runs no S/U code and its stepping is off --
 *    from boot to its first start, HSM stopped, in a non-retentive suspend,
 *    held by the boot option's hold.  It may never answer an IPI (a held
 *    hart does not), so any hart makes the access itself, under the
 *    components' lock.  Nothing of it needs the owner's own CSRs: a start
 *    waits for the owner to run (start_pending), which trace_hart_entering
 *    begins.
 * The owner parks and unparks under the lock (trace_hart_leaving and
 * trace_hart_entering), and an accessor posts to an owner only while it
 * holds the lock and the owner is not parked: so an access is either made
 * under the lock or posted before the owner parks, and a parked owner
 * serves what was posted before (components_park).
 */
#include "firmware/trace/trace_hart.h"
#include "firmware/trace/trace.h"
#include "firmware/trace/components.h"
#include "firmware/core/hart.h"
#include "firmware/service/ipi.h"
#include "firmware/core/umem.h"
#include "firmware/emu/memaccess.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/emu/time_csr.h"

/* The run-time status bits of the encoder registers. */
static void refresh_status(struct trace_hart *th)
{
	th->te.empty = !th->tracing || th->enc.buf_len == 0;
}

/* An access made here on the target's components, which are this hart's
 * or parked (regs: this hart's S/U frame, or NULL). */
static void access_here(struct trace_access *acc, struct trap_regs *regs)
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

/* Under the lock, on parked components (regs NULL: nothing here runs in
 * their owner's S/U context), with what the access left pending. */
static void access_parked(struct trace_access *acc)
{
	access_here(acc, NULL);
	engine_apply_pending(acc->target, NULL);
}

/* The owner's own access.  Parked (at boot, serving requests while
 * stopped), it takes the lock like every other hart; trace_parked is only
 * changed by the owner. */
static void access_as_owner(struct trace_hart *th, struct trace_access *acc,
			    struct trap_regs *regs)
{
	struct hart *owner = th->hart;

	if (!owner->trace_parked) {
		access_here(acc, regs);
		return;
	}
	spin_lock(&owner->trace_lock);
	access_parked(acc);
	spin_unlock(&owner->trace_lock);
}

static bool request_done(struct hart *self)
{
	return __atomic_load_n(&self->trace_req_done, __ATOMIC_ACQUIRE);
}

/* Another hart's access: made here if the owner is parked, else posted
 * to the owner, then waited for. */
static void access_other(struct hart *self, struct trace_hart *th, struct trace_access *acc)
{
	struct hart *owner = th->hart;

	spin_lock(&owner->trace_lock);
	if (owner->trace_parked) {
		access_parked(acc);
		spin_unlock(&owner->trace_lock);
		return;
	}
	self->trace_req = *acc;
	__atomic_store_n(&self->trace_req_done, 0, __ATOMIC_RELAXED);
	__atomic_fetch_or(&owner->trace_from, 1ULL << self->index, __ATOMIC_RELEASE);
	spin_unlock(&owner->trace_lock);
	ipi_post(owner, IPI_EVENT_TRACE);
	ipi_wait_until(self, request_done);
	acc->value = self->trace_req.value;
}

void trace_ipi(struct hart *self, struct trap_regs *regs)
{
	uint64_t from = __atomic_exchange_n(&self->trace_from, 0, __ATOMIC_ACQUIRE);
	struct trace_hart *th = self->trace;

	while (from) {
		struct hart *src = hart_by_index((unsigned int)__builtin_ctzll(from));

		from &= from - 1;
		if (!src)
			continue;
		access_as_owner(th, &src->trace_req, regs);
		__atomic_store_n(&src->trace_req_done, 1, __ATOMIC_RELEASE);
		ipi_post(src, IPI_EVENT_WAKE);
	}
	/* A start made here waits for this frame (parked: done per access). */
	if (th && !self->trace_parked)
		engine_apply_pending(th, regs);
}

void components_park(struct trace_hart *th)
{
	struct hart *owner = th->hart;

	spin_lock(&owner->trace_lock);
	owner->trace_parked = true;
	spin_unlock(&owner->trace_lock);
	/* What was posted before: the owner may wait where no IPI is handled. */
	trace_ipi(owner, NULL);
}

void components_unpark(struct trace_hart *th)
{
	struct hart *owner = th->hart;

	spin_lock(&owner->trace_lock);
	owner->trace_parked = false;
	spin_unlock(&owner->trace_lock);
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
		access_as_owner(th, &acc, regs);
	else
		access_other(self, th, &acc);
	return acc.value;
}

bool trace_mmio_emulate(struct trap_regs *regs, unsigned long cause, unsigned long tval)
{
	struct hart *self = hart_self();
	struct mem_access acc;
	struct trap_info fault;
	struct trace_hart *th;
	uint32_t insn, val;
	uint64_t pa;
	bool sink;

	/* tval is the virtual address (Linux's ioremap): the window is physical. */
	if (!umem_phys_addr(regs->mstatus, tval, &pa))
		return false;
	th = components_lookup(pa, &sink);
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
		val = components_access(th, sink, (uint32_t)(pa & 0xFFF), false, 0, regs);
		xreg_write(regs, acc.reg, acc.sign_extend ? sign_extend(val, 32) : val);
	} else {
		components_access(th, sink, (uint32_t)(pa & 0xFFF), true,
				  (uint32_t)xreg_read(regs, acc.reg), regs);
	}
	if (self->trace)
		engine_apply_pending(self->trace, regs);
	return true;
}

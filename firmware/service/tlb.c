// SPDX-License-Identifier: BSD-2-Clause
/*
 * Remote fences (RFENCE).  The calling hart publishes one request in its own
 * struct, flags itself in each target's fence_from mask, posts
 * IPI_EVENT_FENCE and sleeps until every target has run the fence and
 * counted down fence_outstanding.  The last target wakes it.
 */
#include "firmware/service/ipi.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/fw_event.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/service/tlb.h"

/* Ranges up to this many pages are flushed page by page; larger ones whole. */
#define FENCE_PAGE_LIMIT 64
#define PAGE_SIZE FENCE_PAGE_SIZE

static bool range_is_whole(const struct fence_request *r)
{
	/* RFENCE: "start_addr and size are both 0, or size is 2^XLEN-1". */
	return (r->start == 0 && r->size == 0) || r->size == (unsigned long)-1 ||
	       r->size > FENCE_PAGE_LIMIT * PAGE_SIZE;
}

/* Pages covering [start, start + size): counted, not compared against an
 * end address, which wraps for a range in the top page. */
static unsigned long range_pages(const struct fence_request *r)
{
	return ((r->start & (PAGE_SIZE - 1)) + r->size + PAGE_SIZE - 1) / PAGE_SIZE;
}

bool fence_pages(const struct fence_request *r, unsigned long *first, unsigned long *n)
{
	if ((r->kind != FENCE_SFENCE_VMA && r->kind != FENCE_SFENCE_VMA_ASID) || range_is_whole(r))
		return false;
	*first = r->start & ~(PAGE_SIZE - 1);
	*n = range_pages(r);
	return true;
}

static void sfence_range(const struct fence_request *r, bool asid)
{
	unsigned long a, n;

	if (range_is_whole(r)) {
		if (asid)
			__asm__ __volatile__("sfence.vma zero, %0" :: "r"(r->id) : "memory");
		else
			sfence_vma_all();
		return;
	}
	for (a = r->start & ~(PAGE_SIZE - 1), n = range_pages(r); n; n--, a += PAGE_SIZE) {
		if (asid)
			__asm__ __volatile__("sfence.vma %0, %1" :: "r"(a), "r"(r->id) : "memory");
		else
			__asm__ __volatile__("sfence.vma %0" :: "r"(a) : "memory");
	}
}

/* hfence.gvma/hfence.vvma by encoding, so no H-aware assembler is needed:
 * funct7 0110001 (gvma) / 0010001 (vvma), rs2, rs1, funct3 0, opcode SYSTEM.
 * A constant 0 operand is encoded as x0 ("rJ" with %z): rs1 = x0 fences
 * every address and rs2 = x0 every VMID/ASID, whereas a register that holds
 * 0 names address 0 / ID 0 only (privileged spec, "Hypervisor Memory-
 * Management Fence Instructions"). */
#define HFENCE(f7, rs1, rs2) \
	__asm__ __volatile__(".insn r 0x73, 0, " #f7 ", x0, %z0, %z1" \
			     :: "rJ"(rs1), "rJ"(rs2) : "memory")

/* One hfence: for every address when `all`, else for `addr` (a guest
 * physical address for gvma, shifted right by 2 as the instruction takes
 * it); for ID `id` when `with_id`, else for every VMID/ASID. */
static void hfence_one(bool gvma, bool all, unsigned long addr, bool with_id,
		       unsigned long id)
{
	if (gvma) {
		if (all && with_id)
			HFENCE(0x31, 0UL, id);
		else if (all)
			HFENCE(0x31, 0UL, 0UL);
		else if (with_id)
			HFENCE(0x31, addr >> 2, id);
		else
			HFENCE(0x31, addr >> 2, 0UL);
	} else {
		if (all && with_id)
			HFENCE(0x11, 0UL, id);
		else if (all)
			HFENCE(0x11, 0UL, 0UL);
		else if (with_id)
			HFENCE(0x11, addr, id);
		else
			HFENCE(0x11, addr, 0UL);
	}
}

static void hfence_range(const struct fence_request *r, bool gvma, bool with_id)
{
	unsigned long a, n;

	if (range_is_whole(r)) {
		hfence_one(gvma, true, 0, with_id, r->id);
		return;
	}
	for (a = r->start & ~(PAGE_SIZE - 1), n = range_pages(r); n; n--, a += PAGE_SIZE)
		hfence_one(gvma, false, a, with_id, r->id);
}

void fence_run_local(const struct fence_request *r)
{
	switch (r->kind) {
	case FENCE_I:
		fence_i();
		break;
	case FENCE_SFENCE_VMA:
		sfence_range(r, false);
		break;
	case FENCE_SFENCE_VMA_ASID:
		sfence_range(r, true);
		break;
	case FENCE_HFENCE_GVMA_VMID:
		hfence_range(r, true, true);
		break;
	case FENCE_HFENCE_GVMA:
		hfence_range(r, true, false);
		break;
	case FENCE_HFENCE_VVMA_ASID:
		hfence_range(r, false, true);
		break;
	case FENCE_HFENCE_VVMA:
		hfence_range(r, false, false);
		break;
	}
}

/* SBI PMU firmware events of a fence kind: SENT; RECEIVED is SENT + 1. */
static unsigned int fence_sent_event(enum fence_kind kind)
{
	static const uint8_t sent[] = {
		[FENCE_I] = PMU_FW_FENCE_I_SENT,
		[FENCE_SFENCE_VMA] = PMU_FW_SFENCE_VMA_SENT,
		[FENCE_SFENCE_VMA_ASID] = PMU_FW_SFENCE_VMA_ASID_SENT,
		[FENCE_HFENCE_GVMA_VMID] = PMU_FW_HFENCE_GVMA_VMID_SENT,
		[FENCE_HFENCE_GVMA] = PMU_FW_HFENCE_GVMA_SENT,
		[FENCE_HFENCE_VVMA_ASID] = PMU_FW_HFENCE_VVMA_ASID_SENT,
		[FENCE_HFENCE_VVMA] = PMU_FW_HFENCE_VVMA_SENT,
	};

	return sent[kind];
}

void fence_handle_requests(struct hart *self)
{
	uint64_t from = __atomic_exchange_n(&self->fence_from, 0, __ATOMIC_ACQUIRE);

	while (from) {
		unsigned int i = (unsigned int)__builtin_ctzll(from);
		struct hart *src = hart_by_index(i);

		from &= from - 1;
		if (!src)
			continue;
		fence_run_local(&src->fence);
		fw_hooks_code_changed(self, &src->fence);
		fw_event_count(self->fw_events, fence_sent_event(src->fence.kind) + 1);
		if (__atomic_sub_fetch(&src->fence_outstanding, 1, __ATOMIC_ACQ_REL) == 0)
			ipi_post(src, IPI_EVENT_WAKE);
	}
}

struct fence_send {
	struct hart *self;
	bool local;
};

static long fence_send_one(struct hart *target, void *arg)
{
	struct fence_send *s = arg;
	int state = target->hsm_state;

	if (target == s->self) {
		s->local = true;
		return 0;
	}
	/* A hart that is not running S-mode has no translations to fence: it
	 * flushes everything when it next starts. */
	if (state == SBI_HSM_STATE_STOPPED || state == HSM_CLAIMED)
		return 0;
	fw_event_count(s->self->fw_events, fence_sent_event(s->self->fence.kind));
	__atomic_add_fetch(&s->self->fence_outstanding, 1, __ATOMIC_ACQ_REL);
	__atomic_fetch_or(&target->fence_from, 1ULL << s->self->index, __ATOMIC_ACQ_REL);
	ipi_post(target, IPI_EVENT_FENCE);
	return 0;
}

static bool fences_acked(struct hart *self)
{
	return !__atomic_load_n(&self->fence_outstanding, __ATOMIC_ACQUIRE);
}

long fence_remote(unsigned long mask, unsigned long base, const struct fence_request *req)
{
	struct hart *self = hart_self();
	struct fence_send s = { self, false };
	long ret;

	if (fence_mask_is_only_self(mask, base)) {
		fence_run_local(req);
		fw_hooks_code_changed(self, req);
		return SBI_SUCCESS;
	}
	/* No hart reads this hart's request until fence_send_one flags it,
	 * and hart_mask_for_each validates the whole mask before the first
	 * call: an invalid mask returns with nothing sent. */
	self->fence = *req;
	self->fence_outstanding = 0;
	ret = hart_mask_for_each(mask, base, fence_send_one, &s);
	if (ret)
		return ret;
	if (s.local)
		fence_run_local(req);
	if (!fences_acked(self)) {
		ipi_wait_until(self, fences_acked);
		fw_hooks_wait_done(self);
	}
	if (s.local)
		fw_hooks_code_changed(self, req);
	return SBI_SUCCESS;
}

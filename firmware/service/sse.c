// SPDX-License-Identifier: BSD-2-Clause
/*
 * SBI Supervisor Software Events (ext-sse.adoc).  Each hart has its local
 * events (PMU overflow, software injected); the global software event is
 * one for the whole machine, under a lock.  An event runs when it is
 * ENABLED and pending, the hart has unmasked events, and nothing of equal
 * or higher priority runs there; the events running on a hart form a
 * stack, highest priority on top (a higher one preempts a lower one, and
 * priorities cannot change while an event is enabled).  Delivery happens
 * on the way back to S/U-mode: at the end of an SSE call (sbi/ecall_sse.c) and
 * after an M-mode interrupt (trap.c: the IPI another hart's inject sent,
 * or LCOFI).
 */
#include "firmware/service/sse.h"
#include "firmware/service/ipi.h"
#include "firmware/core/platform.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/spinlock.h"
#include "firmware/core/per_hart.h"

#define LOCAL_PMU       0
#define LOCAL_SOFTWARE  1
#define LOCAL_EVENTS    2
#define MAX_RUNNING     (LOCAL_EVENTS + 1)

struct sse_event {
	unsigned long entry_pc, entry_arg;
	unsigned long int_sepc, int_a6, int_a7;   /* INTERRUPTED_* */
	uint32_t id, priority;
	uint8_t state;                /* SBI_SSE_STATE_* */
	volatile uint8_t pending;     /* set by the source, maybe another hart */
	uint8_t config;
	uint8_t int_flags;
	uint8_t running_on;           /* global: index of the hart running it */
};

struct sse_hart {
	struct sse_event local[LOCAL_EVENTS];
	struct sse_event *running[MAX_RUNNING];   /* [nrunning - 1]: highest priority */
	unsigned int nrunning;
	volatile bool unmasked;
	bool lcofie;                  /* S-mode's sie.LCOFIE, kept while LCOFI is ours */
};

/* Each hart's is reset by sse_hart_reset before the hart can be STARTED,
 * and nothing reads a hart's before that (hart_takes_events checks the HSM
 * state first). */
static PER_HART(struct sse_hart, sse_harts);
static struct sse_event sse_global = { .id = SBI_SSE_EVENT_GLOBAL_SOFTWARE };
static unsigned int global_pref;  /* PREFERRED_HART as a hart index (reset: the first hart) */
static spinlock_t global_lock;

static struct sse_hart *sse_of(const struct hart *h)
{
	return per_hart(sse_harts, h);
}

static bool is_global(const struct sse_event *e)
{
	return e == &sse_global;
}

static void lock_event(const struct sse_event *e)
{
	if (is_global(e))
		spin_lock(&global_lock);
}

static void unlock_event(const struct sse_event *e)
{
	if (is_global(e))
		spin_unlock(&global_lock);
}

/* ---- events and states ---- */

/* The event `id` of hart h: INVALID_PARAM for reserved and platform IDs
 * (tracesbi defines no platform event), NOT_SUPPORTED for the standard
 * events h cannot raise. */
static long event_find(const struct hart *h, uint32_t id, struct sse_event **out)
{
	switch (id) {
	case SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW:
		if (!h->feat.sscofpmf)
			return SBI_ERR_NOT_SUPPORTED;   /* "depends on overflow IRQ" */
		*out = &sse_of(h)->local[LOCAL_PMU];
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_LOCAL_SOFTWARE:
		*out = &sse_of(h)->local[LOCAL_SOFTWARE];
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_GLOBAL_SOFTWARE:
		*out = &sse_global;
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_LOCAL_HIGH_PRIO_RAS: case SBI_SSE_EVENT_LOCAL_DOUBLE_TRAP:
	case SBI_SSE_EVENT_GLOBAL_HIGH_PRIO_RAS: case SBI_SSE_EVENT_LOCAL_LOW_PRIO_RAS:
	case SBI_SSE_EVENT_GLOBAL_LOW_PRIO_RAS:
		return SBI_ERR_NOT_SUPPORTED;   /* no RAS source, no Ssdbltrp handling */
	default:
		return SBI_ERR_INVALID_PARAM;
	}
}

static bool holds_source(uint8_t state)
{
	return state == SBI_SSE_STATE_ENABLED || state == SBI_SSE_STATE_RUNNING;
}

/* While S-mode has the PMU overflow event enabled, LCOFI is M-mode's
 * (mideleg bit 13 clear, mie bit 13 set); S-mode's own sie.LCOFIE is kept
 * aside and given back with the delegation. */
static void lcofi_route_to_sse(struct hart *self, bool to_sse)
{
	struct sse_hart *s = sse_of(self);

	if (to_sse) {
		s->lcofie = csr_read(mie) & MIP_LCOFIP;
		csr_clear(mideleg, MIP_LCOFIP);
		csr_set(mie, MIP_LCOFIP);
		return;
	}
	csr_clear(mie, MIP_LCOFIP);
	csr_set(mideleg, MIP_LCOFIP);
	if (s->lcofie)
		csr_set(mie, MIP_LCOFIP);
}

static void set_state(struct hart *self, struct sse_event *e, uint8_t state)
{
	bool held = holds_source(e->state);

	e->state = state;
	if (e == &sse_of(self)->local[LOCAL_PMU] && held != holds_source(state))
		lcofi_route_to_sse(self, !held);
}

static bool ready_to_run(const struct sse_event *e)
{
	return e->state == SBI_SSE_STATE_ENABLED && e->pending;
}

/* Lower value, higher priority; equal priorities: the lower event_id
 * (ext-sse.adoc, "Software Event Priority"). */
static uint64_t priority_key(const struct sse_event *e)
{
	return (uint64_t)e->priority << 32 | e->id;
}

/* ---- routing of the global event ---- */

static int hsm_state_of(const struct hart *h)
{
	return __atomic_load_n(&h->hsm_state, __ATOMIC_ACQUIRE);
}

static bool hart_takes_events(const struct hart *h)
{
	return hsm_state_of(h) == SBI_HSM_STATE_STARTED && sse_of(h)->unmasked;
}

/*
 * The hart that is to run the global event: its preferred hart while that
 * one is STARTED or SUSPENDED (it will come back), even masked or busy:
 * the event waits for its unmask, completion or resume, as the caller
 * that set PREFERRED_HART expects.  Else the first hart that takes events
 * now.  ext-sse.adoc: the preferred hart "is only a hint ... The SBI
 * implementation may choose a different hart for handling the global
 * software event to avoid an inter-processor interrupt."
 */
static struct hart *global_target(void)
{
	struct hart *pref = hart_by_index(global_pref);
	unsigned int i;

	if (pref && (hsm_state_of(pref) == SBI_HSM_STATE_STARTED ||
		     hsm_state_of(pref) == SBI_HSM_STATE_SUSPENDED))
		return pref;
	for (i = 0; i < hart_count; i++)
		if (hart_table[i] && hart_takes_events(hart_table[i]))
			return hart_table[i];
	return NULL;
}

/* The global event may run: tell its hart (the caller's own SSE call or
 * interrupt delivers it when that is the caller).  A masked preferred hart
 * gets the IPI too: skipping it could lose the event to an unmask racing
 * with the inject. */
static void kick_global(const struct hart *self)
{
	struct hart *target;

	if (!ready_to_run(&sse_global))
		return;
	target = global_target();
	if (target && target != self)
		ipi_post(target, IPI_EVENT_SSE);
}

/* ---- attributes ---- */

static unsigned long attr_value(const struct hart *self, const struct sse_event *e,
				unsigned int attr)
{
	switch (attr) {
	case SBI_SSE_ATTR_STATUS:
		return e->state | (e->pending ? SBI_SSE_STATUS_PENDING : 0) |
		       SBI_SSE_STATUS_INJECTABLE;
	case SBI_SSE_ATTR_PRIORITY:
		return e->priority;
	case SBI_SSE_ATTR_CONFIG:
		return e->config;
	case SBI_SSE_ATTR_PREFERRED_HART:
		return is_global(e) ? hart_by_index(global_pref)->hartid : self->hartid;
	case SBI_SSE_ATTR_ENTRY_PC:
		return e->entry_pc;
	case SBI_SSE_ATTR_ENTRY_ARG:
		return e->entry_arg;
	case SBI_SSE_ATTR_INTERRUPTED_SEPC:
		return e->int_sepc;
	case SBI_SSE_ATTR_INTERRUPTED_FLAGS:
		return e->int_flags;
	case SBI_SSE_ATTR_INTERRUPTED_A6:
		return e->int_a6;
	default:
		return e->int_a7;
	}
}

/*
 * The INTERRUPTED_FLAGS bits S-mode may write: the six the attribute table
 * defines, on every hart; only bits XLEN-1:6 "must be set to zero"
 * (ext-sse.adoc, INTERRUPTED_FLAGS).  A bit whose extension the hart lacks
 * (hstatus bits without H; SPELP, SDT: no hart here has Zicfilp or
 * Ssdbltrp) is kept and read back, and completion ignores it: it restores
 * each bit only "if <extension> is available to supervisor mode".  OpenSBI
 * and KVM accept them too.
 */
#define SSE_FLAGS_DEFINED (SBI_SSE_FLAGS_SPP | SBI_SSE_FLAGS_SPIE | SBI_SSE_FLAGS_HSTATUS_SPV | \
			   SBI_SSE_FLAGS_HSTATUS_SPVP | SBI_SSE_FLAGS_SPELP | SBI_SSE_FLAGS_SDT)

/* May attribute `attr` of e take value v now: DENIED (read-only),
 * INVALID_PARAM (illegal value), INVALID_STATE (the table's state rule). */
static long attr_check(const struct hart *self, const struct sse_event *e, unsigned int attr,
		       unsigned long v)
{
	bool idle = e->state <= SBI_SSE_STATE_REGISTERED;
	bool running_here = e->state == SBI_SSE_STATE_RUNNING &&
			    (!is_global(e) || e->running_on == self->index);

	switch (attr) {
	case SBI_SSE_ATTR_PRIORITY:
		if (v >> 32)
			return SBI_ERR_INVALID_PARAM;
		return idle ? SBI_SUCCESS : SBI_ERR_INVALID_STATE;
	case SBI_SSE_ATTR_CONFIG:
		if (v & ~SBI_SSE_CONFIG_ONESHOT)
			return SBI_ERR_INVALID_PARAM;
		return idle ? SBI_SUCCESS : SBI_ERR_INVALID_STATE;
	case SBI_SSE_ATTR_PREFERRED_HART:
		if (!is_global(e))
			return SBI_ERR_DENIED;   /* RO for local events */
		if (!hart_by_id(v))
			return SBI_ERR_INVALID_PARAM;
		return idle ? SBI_SUCCESS : SBI_ERR_INVALID_STATE;
	case SBI_SSE_ATTR_INTERRUPTED_FLAGS:
		if (v & ~SSE_FLAGS_DEFINED)
			return SBI_ERR_INVALID_PARAM;
		return running_here ? SBI_SUCCESS : SBI_ERR_INVALID_STATE;
	case SBI_SSE_ATTR_INTERRUPTED_SEPC:
	case SBI_SSE_ATTR_INTERRUPTED_A6:
	case SBI_SSE_ATTR_INTERRUPTED_A7:
		/* "only the hart executing the event handler can modify it" */
		return running_here ? SBI_SUCCESS : SBI_ERR_INVALID_STATE;
	default:
		return SBI_ERR_DENIED;   /* STATUS, ENTRY_PC, ENTRY_ARG */
	}
}

static void attr_set(struct sse_event *e, unsigned int attr, unsigned long v)
{
	switch (attr) {
	case SBI_SSE_ATTR_PRIORITY:
		e->priority = (uint32_t)v;
		break;
	case SBI_SSE_ATTR_CONFIG:
		e->config = (uint8_t)v;
		break;
	case SBI_SSE_ATTR_PREFERRED_HART:
		global_pref = hart_by_id(v)->index;
		break;
	case SBI_SSE_ATTR_INTERRUPTED_SEPC:
		e->int_sepc = v;
		break;
	case SBI_SSE_ATTR_INTERRUPTED_FLAGS:
		e->int_flags = (uint8_t)v;
		break;
	case SBI_SSE_ATTR_INTERRUPTED_A6:
		e->int_a6 = v;
		break;
	default:
		e->int_a7 = v;
		break;
	}
}

/*
 * The checks read_attrs and write_attrs share, in the order of their error
 * tables.  Attribute base + i is at offset 8 * i of the memory: the spec's
 * "(XLEN / 8) * (base_attr_id + i)" would run past the "(XLEN / 8) *
 * attr_count" bytes it gives the memory, so tracesbi reads it as i, as
 * S-mode callers do.
 */
static long attrs_args(const struct hart *self, uint32_t id, uint32_t base, uint32_t count,
		       unsigned long lo, unsigned long hi, struct sse_event **e)
{
	long ret = event_find(self, id, e);

	if (ret)
		return ret;
	if (!count)
		return SBI_ERR_INVALID_PARAM;
	if (base >= SBI_SSE_ATTR_COUNT || count > SBI_SSE_ATTR_COUNT - base)
		return SBI_ERR_BAD_RANGE;
	/* Binary encoding, "Shared Memory Physical Address Range Parameter":
	 * XLEN/8 aligned, no upper half on RV64, memory S-mode may use. */
	if ((lo & (sizeof(unsigned long) - 1)) || hi ||
	    !platform_smode_range_ok(lo, (uint64_t)count * sizeof(unsigned long)))
		return SBI_ERR_INVALID_ADDRESS;
	return SBI_SUCCESS;
}

/* S-mode memory attrs_args checked; copied word by word, once. */
static void copy_to_smode(unsigned long lo, const unsigned long *v, uint32_t count)
{
	volatile unsigned long *out = (volatile unsigned long *)(uintptr_t)lo;
	uint32_t i;

	for (i = 0; i < count; i++)
		out[i] = v[i];
}

static void copy_from_smode(unsigned long *v, unsigned long lo, uint32_t count)
{
	const volatile unsigned long *in = (const volatile unsigned long *)(uintptr_t)lo;
	uint32_t i;

	for (i = 0; i < count; i++)
		v[i] = in[i];
}

static void read_attrs(const struct hart *self, const struct sse_event *e, uint32_t base,
		       uint32_t count, unsigned long lo)
{
	unsigned long v[SBI_SSE_ATTR_COUNT];
	uint32_t i;

	lock_event(e);
	for (i = 0; i < count; i++)
		v[i] = attr_value(self, e, base + i);
	unlock_event(e);
	copy_to_smode(lo, v, count);
}

/* All or nothing: the values are copied once (S-mode may change the
 * memory meanwhile), the first failing attribute in ID order decides. */
static long write_attrs(const struct hart *self, struct sse_event *e, uint32_t base,
			uint32_t count, unsigned long lo)
{
	unsigned long v[SBI_SSE_ATTR_COUNT];
	long ret = SBI_SUCCESS;
	uint32_t i;

	copy_from_smode(v, lo, count);
	lock_event(e);
	for (i = 0; i < count && !ret; i++)
		ret = attr_check(self, e, base + i, v[i]);
	for (i = 0; i < count && !ret; i++)
		attr_set(e, base + i, v[i]);
	unlock_event(e);
	return ret;
}

long sse_attrs(struct hart *self, uint32_t id, uint32_t base, uint32_t count,
	       unsigned long lo, unsigned long hi, bool write)
{
	struct sse_event *e;
	long ret = attrs_args(self, id, base, count, lo, hi, &e);

	if (ret)
		return ret;
	if (write)
		return write_attrs(self, e, base, count, lo);
	read_attrs(self, e, base, count, lo);
	return SBI_SUCCESS;
}

/* ---- register, unregister, enable, disable, inject ---- */

/* Move e from state `from` to `to`, or INVALID_STATE. */
static long transition(struct hart *self, uint32_t id, uint8_t from, uint8_t to)
{
	struct sse_event *e;
	long ret = event_find(self, id, &e);

	if (ret)
		return ret;
	lock_event(e);
	if (e->state != from)
		ret = SBI_ERR_INVALID_STATE;
	else
		set_state(self, e, to);
	if (!ret && to == SBI_SSE_STATE_UNUSED) {
		/* nothing to run, no handler: ENTRY_* back to their reset value */
		e->pending = 0;
		e->entry_pc = e->entry_arg = 0;
	}
	unlock_event(e);
	if (!ret && is_global(e))
		kick_global(self);
	return ret;
}

long sse_register(struct hart *self, uint32_t id, unsigned long pc, unsigned long arg)
{
	struct sse_event *e;
	long ret = event_find(self, id, &e);

	if (ret)
		return ret;
	if (pc & 1)
		return SBI_ERR_INVALID_PARAM;   /* ENTRY_PC: 2-byte aligned */
	lock_event(e);
	if (e->state != SBI_SSE_STATE_UNUSED) {
		ret = SBI_ERR_INVALID_STATE;
	} else {
		e->entry_pc = pc;
		e->entry_arg = arg;
		e->pending = 0;
		set_state(self, e, SBI_SSE_STATE_REGISTERED);
	}
	unlock_event(e);
	return ret;
}

long sse_unregister(struct hart *self, uint32_t id)
{
	return transition(self, id, SBI_SSE_STATE_REGISTERED, SBI_SSE_STATE_UNUSED);
}

long sse_enable(struct hart *self, uint32_t id)
{
	return transition(self, id, SBI_SSE_STATE_REGISTERED, SBI_SSE_STATE_ENABLED);
}

long sse_disable(struct hart *self, uint32_t id)
{
	return transition(self, id, SBI_SSE_STATE_ENABLED, SBI_SSE_STATE_REGISTERED);
}

/*
 * The event becomes pending: it runs once it is ENABLED (now or later)
 * where the priority rules let it.  An UNUSED event has no handler to
 * take it: FAILED.  A local event on another hart: that hart's IPI.
 */
long sse_inject(struct hart *self, uint32_t id, unsigned long hartid)
{
	struct hart *target = self;
	struct sse_event *e;
	long ret = event_find(self, id, &e);

	if (ret)
		return ret;
	if (!is_global(e)) {
		target = hart_by_id(hartid);
		if (!target)
			return SBI_ERR_INVALID_PARAM;
		ret = event_find(target, id, &e);
		if (ret)
			return ret;
	}
	lock_event(e);
	if (e->state == SBI_SSE_STATE_UNUSED)
		ret = SBI_ERR_FAILED;
	else
		__atomic_store_n(&e->pending, 1, __ATOMIC_RELEASE);
	unlock_event(e);
	if (ret)
		return ret;
	if (is_global(e))
		kick_global(self);
	else if (target != self)
		ipi_post(target, IPI_EVENT_SSE);
	return SBI_SUCCESS;
}

long sse_hart_unmask(struct hart *self)
{
	struct sse_hart *s = sse_of(self);

	if (s->unmasked)
		return SBI_ERR_ALREADY_STARTED;
	s->unmasked = true;
	kick_global(self);
	return SBI_SUCCESS;
}

long sse_hart_mask(struct hart *self)
{
	struct sse_hart *s = sse_of(self);

	if (!s->unmasked)
		return SBI_ERR_ALREADY_STOPPED;
	s->unmasked = false;
	kick_global(self);   /* standing in for a STOPPED preferred hart: to another */
	return SBI_SUCCESS;
}

/* ---- delivery and completion ---- */

/* ext-sse.adoc, "Software Event Injection": the interrupted state saved,
 * then S-mode entered at ENTRY_PC as a trap into S-mode would enter it. */
static void enter_handler(struct hart *self, struct trap_regs *regs, struct sse_event *e)
{
	struct sse_hart *s = sse_of(self);
	unsigned long st = regs->mstatus, hs = 0;
	bool from_s = ((st & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == PRV_S;
	bool virt = self->feat.h && (st & MSTATUS_MPV);

	e->int_flags = (uint8_t)((st & MSTATUS_SPP ? SBI_SSE_FLAGS_SPP : 0) |
				 (st & MSTATUS_SPIE ? SBI_SSE_FLAGS_SPIE : 0));
	if (self->feat.h) {
		hs = csr_read(CSR_HSTATUS);
		e->int_flags |= (uint8_t)((hs & HSTATUS_SPV ? SBI_SSE_FLAGS_HSTATUS_SPV : 0) |
					  (hs & HSTATUS_SPVP ? SBI_SSE_FLAGS_HSTATUS_SPVP : 0));
		hs &= ~HSTATUS_SPV;
		if (virt)
			hs = (hs & ~HSTATUS_SPVP) | HSTATUS_SPV | (from_s ? HSTATUS_SPVP : 0);
		csr_write(CSR_HSTATUS, hs);
	}
	e->int_sepc = csr_read(sepc);
	e->int_a6 = regs->x[16];
	e->int_a7 = regs->x[17];

	csr_write(sepc, regs->mepc);
	st &= ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP | MSTATUS_MPV);
	st |= (from_s ? MSTATUS_SPP : 0) | (regs->mstatus & MSTATUS_SIE ? MSTATUS_SPIE : 0) |
	      (PRV_S << MSTATUS_MPP_SHIFT);
	regs->mstatus = st;
	regs->x[16] = self->hartid;
	regs->x[17] = e->entry_arg;
	regs->mepc = e->entry_pc;
	s->running[s->nrunning++] = e;
}

/* The global event, if it is ready and of higher priority than `bar`:
 * claimed for this hart (RUNNING) under the lock. */
static bool claim_global(struct hart *self, uint64_t bar)
{
	bool claimed = false;

	if (!ready_to_run(&sse_global) || priority_key(&sse_global) >= bar ||
	    global_target() != self)
		return false;
	spin_lock(&global_lock);
	if (ready_to_run(&sse_global)) {
		sse_global.state = SBI_SSE_STATE_RUNNING;
		sse_global.pending = 0;
		sse_global.running_on = (uint8_t)self->index;
		claimed = true;
	}
	spin_unlock(&global_lock);
	return claimed;
}

bool sse_deliver(struct hart *self, struct trap_regs *regs)
{
	struct sse_hart *s = sse_of(self);
	struct sse_event *best = NULL;
	uint64_t bar;
	unsigned int i;

	if (!s->unmasked || s->nrunning == MAX_RUNNING)
		return false;
	bar = s->nrunning ? priority_key(s->running[s->nrunning - 1]) : UINT64_MAX;
	for (i = 0; i < LOCAL_EVENTS; i++) {
		if (ready_to_run(&s->local[i]) && priority_key(&s->local[i]) < bar) {
			best = &s->local[i];
			bar = priority_key(best);
		}
	}
	if (claim_global(self, bar)) {
		best = &sse_global;
	} else if (best) {
		best->state = SBI_SSE_STATE_RUNNING;
		best->pending = 0;
	}
	if (!best)
		return false;
	enter_handler(self, regs, best);
	return true;
}

/* ext-sse.adoc, "Software Event Completion": back to sepc in the mode of
 * sstatus.SPP, then the interrupted sstatus/hstatus bits, a6, a7, sepc. */
static void resume_interrupted(struct hart *self, struct trap_regs *regs,
			       const struct sse_event *e)
{
	unsigned long st = regs->mstatus, f = e->int_flags, hs;
	bool virt = false;

	if (self->feat.h) {
		hs = csr_read(CSR_HSTATUS);
		virt = hs & HSTATUS_SPV;
		hs &= ~(HSTATUS_SPV | HSTATUS_SPVP);
		hs |= (f & SBI_SSE_FLAGS_HSTATUS_SPV ? HSTATUS_SPV : 0) |
		      (f & SBI_SSE_FLAGS_HSTATUS_SPVP ? HSTATUS_SPVP : 0);
		csr_write(CSR_HSTATUS, hs);
	}
	regs->mepc = csr_read(sepc);
	st &= ~(MSTATUS_MPP | MSTATUS_MPV | MSTATUS_SIE);
	st |= ((st & MSTATUS_SPP) ? PRV_S : PRV_U) << MSTATUS_MPP_SHIFT;
	st |= (virt ? MSTATUS_MPV : 0) | (st & MSTATUS_SPIE ? MSTATUS_SIE : 0);
	st &= ~(MSTATUS_SPIE | MSTATUS_SPP);
	st |= (f & SBI_SSE_FLAGS_SPIE ? MSTATUS_SPIE : 0) | (f & SBI_SSE_FLAGS_SPP ? MSTATUS_SPP : 0);
	regs->mstatus = st;
	regs->x[16] = e->int_a6;
	regs->x[17] = e->int_a7;
	csr_write(sepc, e->int_sepc);
}

/* The highest priority running event (the top of the stack) completes:
 * REGISTERED when one-shot, else ENABLED (sbi_sse_complete). */
bool sse_complete(struct hart *self, struct trap_regs *regs)
{
	struct sse_hart *s = sse_of(self);
	struct sse_event *e;

	if (!s->nrunning)
		return false;
	e = s->running[--s->nrunning];
	resume_interrupted(self, regs, e);
	lock_event(e);
	set_state(self, e, e->config & SBI_SSE_CONFIG_ONESHOT ? SBI_SSE_STATE_REGISTERED
							      : SBI_SSE_STATE_ENABLED);
	unlock_event(e);
	if (is_global(e))
		kick_global(self);
	return true;
}

/* ---- sources and reset ---- */

void sse_pmu_overflow(struct hart *self)
{
	struct sse_event *e = &sse_of(self)->local[LOCAL_PMU];

	/* LCOFIP stays set until software clears it: taken, it is ours. */
	csr_clear(mip, MIP_LCOFIP);
	if (holds_source(e->state))
		e->pending = 1;
}

void sse_hart_reset(struct hart *self)
{
	struct sse_hart *s = sse_of(self);
	unsigned int i;

	if (holds_source(s->local[LOCAL_PMU].state))
		lcofi_route_to_sse(self, false);
	for (i = 0; i < s->nrunning; i++) {
		if (is_global(s->running[i])) {
			spin_lock(&global_lock);
			sse_global.state = SBI_SSE_STATE_ENABLED;
			spin_unlock(&global_lock);
		}
	}
	*s = (struct sse_hart){ 0 };
	s->local[LOCAL_PMU].id = SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW;
	s->local[LOCAL_SOFTWARE].id = SBI_SSE_EVENT_LOCAL_SOFTWARE;
	kick_global(self);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Secondary harts and bounded waiting.  A started secondary parks in wfi
 * with only sie.SSIE enabled and runs the calls the boot hart posts to its
 * mailbox; the boot hart waits in wfi woken by a 1 ms SBI timer tick.
 * Nobody busy-spins: under -icount a spinning hart starves the others.
 */
#include "rt.h"

struct hart_mailbox mailbox[MAX_HARTS];
char hart_stacks[MAX_HARTS][STACK_SIZE] __attribute__((aligned(16)));

#define WAIT_TICK_US 1000

/* Sv39 identity map of the low 4 GiB in 1 GiB pages (privileged spec,
 * "Sv39"): lets a hart run with satp != 0 so that the satp = 0 rule of
 * HSM start/resume is observable. */
static uint64_t identity_root[512] __attribute__((aligned(4096)));

void mmu_enable_identity(void)
{
	unsigned long gib;

	for (gib = 0; gib < 4; gib++)
		identity_root[gib] = (gib << 30) >> 12 << 10 |
				     PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(satp, SATP_MODE_SV39 | (uintptr_t)identity_root >> 12);
	__asm__ volatile("sfence.vma" ::: "memory");
}

uint64_t us_to_ticks(uint64_t us)
{
	return us * plat.timebase_hz / 1000000u;
}

void sleep_until(uint64_t deadline)
{
	unsigned long had_stie = csr_read(sie) & SIE_STIE;

	sbi_set_timer(deadline);
	csr_set(sie, SIE_STIE);
	while (read_time() < deadline)
		wfi();
	sbi_set_timer(UINT64_MAX);
	if (!had_stie)
		csr_clear(sie, SIE_STIE);
}

void delay_us(uint64_t us)
{
	sleep_until(read_time() + us_to_ticks(us));
}

bool wait_for(bool (*cond)(unsigned long), unsigned long arg, uint64_t timeout_us)
{
	uint64_t deadline = read_time() + us_to_ticks(timeout_us);
	uint64_t tick = us_to_ticks(WAIT_TICK_US);
	unsigned long had_stie = csr_read(sie) & SIE_STIE;
	bool ok;

	csr_set(sie, SIE_STIE);
	for (;;) {
		uint64_t now;

		if (cond(arg)) {
			ok = true;
			break;
		}
		now = read_time();
		if (now >= deadline) {
			ok = cond(arg);
			break;
		}
		sbi_set_timer(now + tick < deadline ? now + tick : deadline);
		wfi();
	}
	sbi_set_timer(UINT64_MAX);
	if (!had_stie)
		csr_clear(sie, SIE_STIE);
	return ok;
}

void secondary_main(unsigned long hartid, unsigned long opaque, unsigned long satp,
		    unsigned long sstatus);
void secondary_main(unsigned long hartid, unsigned long opaque, unsigned long satp,
		    unsigned long sstatus)
{
	struct hart_mailbox *mb = &mailbox[hartid];

	csr_write(sscratch, hartid);
	trap_init_hart();
	csr_write(sie, SIE_SSIE);
	sbi_set_timer(UINT64_MAX);   /* a resumed hart may have its wake-up timer pending */
	mb->entry.a0 = hartid;
	mb->entry.a1 = opaque;
	mb->entry.satp = satp;
	mb->entry.sstatus = sstatus;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	mb->entry.count++;
	/* A call posted before a stop or non-retentive suspend is finished by
	 * the re-entry: the boot hart only waits for done_seq. */
	mb->done_seq = mb->req_seq;
	for (;;) {
		unsigned long seq = mb->req_seq;

		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (seq != mb->done_seq) {
			mb->result = mb->fn(mb->arg);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			mb->done_seq = seq;
			continue;
		}
		wfi();
		/* Take the pending SSI through the trap handler (it counts it);
		 * SIE stays 0 around the check + wfi so no wake-up is lost. */
		irq_enable();
		irq_disable();
	}
}

void hart_post(unsigned long hartid, hart_fn fn, unsigned long arg)
{
	struct hart_mailbox *mb = &mailbox[hartid];

	mb->fn = fn;
	mb->arg = arg;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	mb->req_seq++;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sbi_send_ipi(1, hartid);
}

static bool call_done(unsigned long hartid)
{
	return mailbox[hartid].done_seq == mailbox[hartid].req_seq;
}

bool hart_wait(unsigned long hartid, uint64_t timeout_us, long *result)
{
	if (!wait_for(call_done, hartid, timeout_us))
		return false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (result)
		*result = mailbox[hartid].result;
	return true;
}

bool hart_call(unsigned long hartid, hart_fn fn, unsigned long arg,
	       uint64_t timeout_us, long *result)
{
	hart_post(hartid, fn, arg);
	return hart_wait(hartid, timeout_us, result);
}

static unsigned long entry_wait_old;

static bool entered(unsigned long hartid)
{
	return mailbox[hartid].entry.count != entry_wait_old;
}

bool hart_wait_entry(unsigned long hartid, unsigned long old, uint64_t timeout_us)
{
	entry_wait_old = old;
	return wait_for(entered, hartid, timeout_us);
}

static long state_wait_last;

static bool in_state(unsigned long packed)
{
	struct sbiret r = sbi_hart_status(packed & 0xffffffffu);

	state_wait_last = r.error ? r.error : r.value;
	return !r.error && r.value == (long)(packed >> 32);
}

bool hart_wait_state(unsigned long hartid, long state, uint64_t timeout_us, long *last)
{
	bool ok = wait_for(in_state, hartid | (unsigned long)state << 32, timeout_us);

	if (last)
		*last = state_wait_last;
	return ok;
}

#define START_OPAQUE 0x5354415254000000ul   /* "START" */

bool secondaries_start_all(char *why, size_t size)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i], old = mailbox[h].entry.count;
		struct sbiret r;

		if (h == plat.boot_hart)
			continue;
		r = sbi_hart_status(h);
		if (!r.error && r.value == SBI_HSM_STATE_STARTED)
			continue;
		r = sbi_hart_start(h, (uintptr_t)secondary_entry, START_OPAQUE | h);
		if (r.error) {
			ksnprintf(why, size, "hart_start(%lu) returned %s", h,
				  sbi_error_name(r.error));
			return false;
		}
		if (!hart_wait_entry(h, old, 2000000)) {
			ksnprintf(why, size, "hart %lu did not enter after hart_start", h);
			return false;
		}
	}
	return true;
}

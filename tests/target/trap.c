/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * S-mode trap handler: records interrupts per hart and, when a test armed
 * the expect-fault mechanism, records the exception and skips the faulting
 * instruction (or returns to ra for a faulting jump).
 */
#include "rt.h"

extern char trap_vector[];
static struct trap_record records[MAX_HARTS];

/* The hart id lives in sscratch: the trap path must not depend on the
 * stack of whoever called it. */
unsigned long current_hart(void)
{
	return csr_read(sscratch);
}

struct trap_record *trap_record_of(unsigned long hartid)
{
	return &records[hartid % MAX_HARTS];
}

void trap_init_hart(void)
{
	csr_write(stvec, (uintptr_t)trap_vector);
}

static void handle_interrupt(struct trap_record *rec, unsigned long code)
{
	switch (code) {
	case IRQ_S_SOFT:
		csr_clear(sip, SIP_SSIP);
		rec->ssi_count++;
		break;
	case IRQ_S_TIMER:
		/* STIP stays set until the timer is re-armed: mask it and let
		 * the test decide what comes next. */
		rec->sti_time = read_time();
		csr_clear(sie, SIE_STIE);
		rec->sti_count++;
		break;
	case IRQ_S_EXT:
		csr_clear(sie, SIE_SEIE);
		rec->sei_count++;
		break;
	case IRQ_S_LCOF:
		/* LCOFIP is S-writable (Sscofpmf); the counter's OF bit keeps
		 * it from being raised again until the counter restarts. */
		rec->lcofi_scountovf = csr_read(0xDA0);   /* scountovf */
		csr_clear(sip, SIP_LCOFIP);
		rec->lcofi_count++;
		break;
	default:
		csr_clear(sie, 1ul << code);
		rec->unexpected++;
		rec->last_unexpected_cause = SCAUSE_INTERRUPT | code;
		break;
	}
}

static unsigned long insn_length(uintptr_t pc)
{
	return (*(volatile uint16_t *)pc & 3) == 3 ? 4 : 2;
}

void trap_handler(struct trap_frame *tf);
void trap_handler(struct trap_frame *tf)
{
	struct trap_record *rec = trap_record_of(current_hart());
	bool fetch = tf->scause == EXC_INSN_ACCESS_FAULT || tf->scause == EXC_INSN_PAGE_FAULT;

	if (tf->scause & SCAUSE_INTERRUPT) {
		handle_interrupt(rec, tf->scause & ~SCAUSE_INTERRUPT);
		return;
	}
	if (rec->expecting && !rec->faulted) {
		rec->faulted = true;
		rec->cause = tf->scause;
		rec->tval = tf->stval;
		rec->epc = tf->sepc;
		rec->status = tf->sstatus;
		tf->sepc = rec->resume_at_ra ? tf->regs[1] : tf->sepc + insn_length(tf->sepc);
		return;
	}
	rec->unexpected++;
	rec->last_unexpected_cause = tf->scause;
	rec->last_unexpected_epc = tf->sepc;
	kprintf("trap: unexpected exception on hart %lu: scause=%lu sepc=%lx stval=%lx\n",
		current_hart(), tf->scause, tf->sepc, tf->stval);
	if (fetch) {
		/* Nothing sensible to skip: end the run (the runner reports a
		 * run without its done marker as a failure). */
		sbi_shutdown();
	}
	tf->sepc += insn_length(tf->sepc);
}

void fault_expect(bool resume_at_ra)
{
	struct trap_record *rec = trap_record_of(current_hart());

	rec->faulted = false;
	rec->resume_at_ra = resume_at_ra;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	rec->expecting = true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

bool fault_end(unsigned long *cause, unsigned long *tval)
{
	struct trap_record *rec = trap_record_of(current_hart());
	bool faulted;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	rec->expecting = false;
	faulted = rec->faulted;
	if (cause)
		*cause = faulted ? rec->cause : 0;
	if (tval)
		*tval = faulted ? rec->tval : 0;
	rec->faulted = false;
	return faulted;
}

void raw_exec(uintptr_t addr);
uint64_t raw_read_stimecmp(void);
void raw_hfence_gvma(void);

bool probe_load64(uintptr_t addr, uint64_t *val, unsigned long *cause)
{
	uint64_t v;

	fault_expect(false);
	v = raw_load64(addr);
	if (fault_end(cause, NULL))
		return false;
	*val = v;
	return true;
}

bool probe_store64(uintptr_t addr, uint64_t val, unsigned long *cause)
{
	fault_expect(false);
	raw_store64(addr, val);
	return !fault_end(cause, NULL);
}

bool probe_exec(uintptr_t addr, unsigned long *cause)
{
	fault_expect(true);
	raw_exec(addr);
	return !fault_end(cause, NULL);
}

bool probe_csr_stimecmp(uint64_t *val)
{
	uint64_t v;

	fault_expect(false);
	v = raw_read_stimecmp();
	if (fault_end(NULL, NULL))
		return false;
	*val = v;
	return true;
}

/* HFENCE.GVMA is legal in HS-mode and illegal without the H extension. */
bool probe_hfence_gvma(void)
{
	fault_expect(false);
	raw_hfence_gvma();
	return !fault_end(NULL, NULL);
}

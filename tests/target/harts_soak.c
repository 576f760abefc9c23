/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The many-hart soak (bootargs mode=harts seconds=N seed=N), run by
 * scripts/run-hostile-tests.sh on -smp 8.  Every hart runs a seeded random
 * mix of SBI calls until the deadline (virtual time): IPIs and remote fences
 * to random hart masks (one hart, subsets, shifted bases, base -1, empty and
 * invalid masks), HSM stop/start cycles (a hart stops itself, the others
 * race to start it again), retentive and non-retentive suspends woken by
 * the SBI timer or an IPI, get_status polls of every hart, and PMU sessions
 * (firmware IPI_SENT / IPI_RECEIVED and a cycles counter: configure, start,
 * stop, read, start from a value, reset).  The boot hart also is the
 * controller: it restarts stopped harts nobody else restarted, checks that
 * every hart makes progress, prints the first failure of each check as an
 * INFO line when it happens, and the verdicts at the end.
 *
 * IPI accounting.  IPIs coalesce (several sends before the receiver takes
 * its interrupt are one SSIP), so "received" can be fewer than "sent"; what
 * must never happen is a request that is not followed by an interrupt.  A
 * sender takes a ticket from the destination's request counter (req) before
 * sbi_send_ipi; the destination's SSI handler clears SSIP and then records
 * the request counter it sees (ack).  The SSIP that sbi_send_ipi raises
 * comes after the ticket, so the handler run that clears it sees the ticket:
 * ack reaches the ticket unless the IPI was lost.  The sender waits (wfi +
 * timer tick, bounded) for every destination's ack; a timeout is a lost IPI.
 * A hart that stops loses the IPIs pending for it (a stopped hart has no
 * S-mode to take them): `life` is odd while a hart is down (from just before
 * hart_stop until it re-enters), and a ticket is void when the destination's
 * life changed since the sender read it; void tickets are counted apart.
 * Non-retentive suspend keeps pending IPIs: they must be taken after resume.
 * So that no IPI can hide the loss of another, a sender owns its
 * destinations until they acknowledged (dests_own).
 *
 * HSM states.  Each hart publishes a sequence number that is odd while it is
 * inside a stop or a suspend, and which of the two.  An observer that read
 * the same number before and after get_status knows what the spec allows at
 * that moment: STARTED when even; STARTED, STOP_PENDING, STOPPED or
 * START_PENDING in a stop; STARTED, SUSPEND_PENDING, SUSPENDED or
 * RESUME_PENDING in a suspend.  hart_start must fail (ALREADY_AVAILABLE) on a
 * hart that stays running or suspending, and succeed at most once per stop.
 */
#include "testlib.h"

#define ACK_TIMEOUT_US   2000000u   /* an IPI not taken by then is lost */
#define STUCK_TIMEOUT_US 6000000u   /* no progress for this long: stuck (the
                                     * longest wait of one op: 4 s) */
#define ENTRY_TIMEOUT_US 2000000u   /* first start of the secondaries */
#define END_TIMEOUT_US   9000000u   /* every hart done after the deadline */
#define TICK_US          100u       /* wait granularity (SBI timer tick) */
#define SCAN_US          1000u      /* controller period */
#define SUSPEND_MAX_US   500u       /* wake-up timer of a suspend */

/* a1 at entry: tag | (starter or resume count) << 8 | hartid. */
#define START_TAG  0x5354000000000000ul    /* "ST" */
#define RESUME_TAG 0x5253000000000000ul    /* "RS" */
#define TAG_MASK   0xffff000000000000ul

#define TRANS_STOP    1
#define TRANS_SUSPEND 2

/* PMU (ext-pmu.adoc) */
#define CFG_CLEAR_VALUE      (1ul << 1)
#define CFG_AUTO_START       (1ul << 2)
#define START_SET_INIT_VALUE (1ul << 0)
#define STOP_RESET           (1ul << 0)
#define EV_CYCLES            1ul
#define EV_FW(code)          (15ul << 16 | (code))
#define FW_IPI_SENT          6ul
#define FW_IPI_RECEIVED      7ul
#define CINFO_FW             (1ul << 63)

#define STR_(x) #x
#define STR(x) STR_(x)
_Static_assert(STACK_SIZE == 1 << 14, "soak_entry computes the stack with a shift of 14");
_Static_assert(MAX_HARTS == 8, "soak_entry bounds hart ids by 8");

#define MB() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

enum op {
	OP_NONE, OP_IPI, OP_WAIT_ACK, OP_RFENCE, OP_STATUS, OP_PMU, OP_SUSPEND_RET,
	OP_SUSPEND_NONRET, OP_STOP, OP_START, OP_SCAN, OP_DONE, OP_COUNT
};
static const char *const op_names[OP_COUNT] = {
	"none", "send_ipi", "waiting for IPI acks", "remote fence", "get_status", "pmu",
	"retentive suspend", "non-retentive suspend", "hart_stop", "hart_start",
	"controller scan", "done (parked)",
};

enum call {
	CALL_IPI, CALL_FENCE_I, CALL_SFENCE_VMA, CALL_SFENCE_VMA_ASID, CALL_HFENCE,
	CALL_START, CALL_STOP, CALL_STATUS, CALL_SUSPEND, CALL_PMU, CALL_TIMER, CALL_COUNT
};

enum check {
	C_NO_IPI_LOST, C_IPI_RETURNS, C_RFENCE_RETURNS, C_HSM_STATES, C_HSM_NOT_STUCK,
	C_NO_DEADLOCK, C_PMU_START_STOP, C_PMU_FW_IPI_COUNTS, C_NO_UNEXPECTED_TRAPS,
	C_COUNT
};
static const char *const check_names[C_COUNT] = {
	"no_ipi_lost", "ipi_returns", "rfence_returns", "hsm_states", "hsm_not_stuck",
	"no_deadlock", "pmu_start_stop", "pmu_fw_ipi_counts", "no_unexpected_traps",
};

struct pmu_session {
	bool on, running;
	unsigned long idx[3];        /* IPI_SENT, IPI_RECEIVED, cycles */
	unsigned long base, mask;    /* the three as one counter set */
	uint64_t expected;           /* what IPI_SENT must read */
	uint64_t sent_from, received_from;   /* values they (re)started from */
};

struct ticket {
	unsigned long hart, ticket, life;
	bool open;
};

struct soak_hart {
	/* Shared: IPI accounting (req by senders, ack and life by this hart). */
	volatile unsigned long req;
	volatile unsigned long ack;
	volatile unsigned long life;
	/* Shared: HSM, written by this hart unless said otherwise. */
	volatile unsigned long hsm_seq;
	volatile int hsm_kind;
	volatile unsigned long downs;      /* boot + hart_stop calls */
	volatile unsigned long starts_ok;  /* hart_start SUCCESS (by the starters) */
	volatile unsigned long entries;    /* entries after a start */
	volatile unsigned long progress;
	volatile int last_op;
	volatile bool done;
	volatile bool dead;                /* reported stuck: nobody waits for it */
	volatile bool in_nonret;
	volatile long sender;              /* 1 + the hart that owns it (dests_own) */
	/* This hart's own. */
	uint64_t rng;
	unsigned long resume_count, nonret_suspends, nonret_resumes, ret_suspends;
	unsigned long stop_calls, start_wins, start_refused;
	unsigned long calls[CALL_COUNT];
	unsigned long ipi_sends, ipi_tickets, ipi_to_down, ipi_acked, ipi_void, ipi_lost;
	unsigned long ipi_skipped;
	volatile unsigned long ssi_taken, sti_taken;
	struct pmu_session pmu;
	unsigned long pmu_sessions, pmu_checks, pmu_fw_sent, pmu_fw_received;
	/* The controller's view of this hart. */
	unsigned long seen_progress, seen_seq, seen_starts, seen_entries;
	uint64_t seen_since;
} __attribute__((aligned(64)));

static struct soak_hart H[MAX_HARTS];

static struct {
	volatile unsigned long count;
	volatile int ready;
	bool printed;
	char msg[240];
} checks[C_COUNT];

static volatile bool stop_flag;
static volatile unsigned long down_count;
static unsigned long max_down;
static unsigned long seed;
static bool has_h;
static uint64_t all_harts;          /* bit = hartid */
static unsigned long pmu_hw_n, pmu_fw_base, pmu_fw_n;
static uint64_t t_begin;
static uint64_t tick_ticks, ack_ticks, stuck_ticks;

extern char soak_entry[], soak_vector[];
extern char hart_stacks[MAX_HARTS][STACK_SIZE];

/*
 * soak_vector: interrupts only (the handler needs no frame of the
 * interrupted code): the caller-saved registers around soak_trap.
 * soak_entry: HSM start and non-retentive resume; a0 = hartid, a1 = opaque;
 * the hart's stack (of hart_stacks, as crt0.S) starts over, satp and
 * sstatus go to soak_hart_entry for the register-state check.
 */
__asm__(".pushsection .text.soak, \"ax\", @progbits\n"
	".globl soak_vector\n"
	".balign 4\n"
	"soak_vector:\n"
	"addi sp, sp, -128\n"
	"sd ra, 0(sp)\n"  "sd t0, 8(sp)\n"   "sd t1, 16(sp)\n"  "sd t2, 24(sp)\n"
	"sd a0, 32(sp)\n" "sd a1, 40(sp)\n"  "sd a2, 48(sp)\n"  "sd a3, 56(sp)\n"
	"sd a4, 64(sp)\n" "sd a5, 72(sp)\n"  "sd a6, 80(sp)\n"  "sd a7, 88(sp)\n"
	"sd t3, 96(sp)\n" "sd t4, 104(sp)\n" "sd t5, 112(sp)\n" "sd t6, 120(sp)\n"
	"call soak_trap\n"
	"ld ra, 0(sp)\n"  "ld t0, 8(sp)\n"   "ld t1, 16(sp)\n"  "ld t2, 24(sp)\n"
	"ld a0, 32(sp)\n" "ld a1, 40(sp)\n"  "ld a2, 48(sp)\n"  "ld a3, 56(sp)\n"
	"ld a4, 64(sp)\n" "ld a5, 72(sp)\n"  "ld a6, 80(sp)\n"  "ld a7, 88(sp)\n"
	"ld t3, 96(sp)\n" "ld t4, 104(sp)\n" "ld t5, 112(sp)\n" "ld t6, 120(sp)\n"
	"addi sp, sp, 128\n"
	"sret\n"
	".globl soak_entry\n"
	".balign 4\n"
	"soak_entry:\n"
	"csrr a2, satp\n"
	"csrr a3, sstatus\n"
	"li t1, " STR(MAX_HARTS) "\n"
	"bgeu a0, t1, 2f\n"
	"la sp, hart_stacks\n"
	"addi t0, a0, 1\n"
	"slli t0, t0, 14\n"
	"add sp, sp, t0\n"
	"call soak_hart_entry\n"
	"2: wfi\n"
	"j 2b\n"
	".popsection\n");

/* ---- small helpers ---- */

static uint64_t rnd(struct soak_hart *me)
{
	uint64_t x = me->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	me->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static unsigned long rnd_below(struct soak_hart *me, unsigned long n)
{
	return (unsigned long)(rnd(me) >> 11) % n;
}

/* (__builtin_popcountll would pull in libgcc's, built for another ABI.) */
static unsigned long popcount64(uint64_t x)
{
	unsigned long n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static unsigned long self_id(struct soak_hart *me)
{
	return (unsigned long)(me - H);
}

static unsigned long rnd_hart(struct soak_hart *me)
{
	return plat.hart_ids[rnd_below(me, (unsigned long)plat.nharts)];
}

static unsigned long ms_of(uint64_t ticks)
{
	return (unsigned long)(ticks * 1000u / plat.timebase_hz);
}

static unsigned long now_ms(void)
{
	return ms_of(read_time() - t_begin);
}

static const char *state_name(long s)
{
	static const char *const names[] = {
		"STARTED", "STOPPED", "START_PENDING", "STOP_PENDING", "SUSPENDED",
		"SUSPEND_PENDING", "RESUME_PENDING",
	};

	return s >= 0 && s <= 6 ? names[s] : "(not a state)";
}

static void soak_fail(enum check c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void soak_fail(enum check c, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&checks[c].count, 1, __ATOMIC_ACQ_REL))
		return;
	va_start(ap, fmt);
	kvsnprintf(checks[c].msg, sizeof(checks[c].msg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&checks[c].ready, 1, __ATOMIC_RELEASE);
}

/* HSM status of a hart as text, for failure messages. */
static const char *status_text(struct soak_hart *me, unsigned long h)
{
	struct sbiret r = sbi_hart_status(h);

	me->calls[CALL_STATUS]++;
	return r.error ? sbi_error_name(r.error) : state_name(r.value);
}

/* ---- traps ---- */

void soak_trap(void);
void soak_trap(void)
{
	unsigned long cause = csr_read(scause);
	struct soak_hart *me = &H[csr_read(sscratch) % MAX_HARTS];

	if (cause == (SCAUSE_INTERRUPT | IRQ_S_SOFT)) {
		/* Clear, then read: a request made before the SSIP that got us
		 * here is visible, a later one raises SSIP again. */
		csr_clear(sip, SIP_SSIP);
		__asm__ volatile("fence iorw, iorw" ::: "memory");
		me->ack = LOAD(me->req);
		me->ssi_taken++;
		return;
	}
	if (cause == (SCAUSE_INTERRUPT | IRQ_S_TIMER)) {
		/* STIP stays until the timer is set again: mask it until then. */
		csr_clear(sie, SIE_STIE);
		me->sti_taken++;
		return;
	}
	if (cause & SCAUSE_INTERRUPT) {
		csr_clear(sie, 1ul << (cause & 63));
		soak_fail(C_NO_UNEXPECTED_TRAPS, "hart %lu took interrupt %lu it never enabled",
			  self_id(me), cause & 63);
		return;
	}
	/* An exception: nothing here should fault; the run cannot go on. */
	kprintf("FAIL: harts/no_unexpected_traps: hart %lu: exception scause %#lx sepc %#lx "
		"stval %#lx in %s (seed %lu)\n", self_id(me), cause, csr_read(sepc),
		csr_read(stval), op_names[me->last_op % OP_COUNT], seed);
	sbi_shutdown();
}

/* Sleep until an interrupt, or the next tick (<= deadline); interrupts
 * pending meanwhile are taken on the way out. */
static void wait_tick(struct soak_hart *me, uint64_t deadline)
{
	uint64_t when = read_time() + tick_ticks;

	if (when > deadline)
		when = deadline;
	irq_disable();
	sbi_set_timer(when);
	me->calls[CALL_TIMER]++;
	csr_set(sie, SIE_STIE | SIE_SSIE);
	wfi();
	irq_enable();
}

static void nap(struct soak_hart *me, uint64_t us)
{
	uint64_t deadline = read_time() + us_to_ticks(us);

	while (read_time() < deadline)
		wait_tick(me, deadline);
}

/* ---- hart masks ---- */

/* The harts (bit = hartid) a mask selects; *valid false when it names one
 * that does not exist. */
static uint64_t dests_of(unsigned long mask, unsigned long base, bool *valid)
{
	uint64_t d = 0;
	unsigned long bit;

	*valid = true;
	if (base == (unsigned long)-1)
		return all_harts;
	for (bit = 0; bit < 64; bit++) {
		unsigned long id = base + bit;

		if (!(mask >> bit & 1))
			continue;
		if (id < base || id >= 64 || !(all_harts >> id & 1))
			*valid = false;
		else
			d |= 1ull << id;
	}
	return d;
}

static void pick_mask(struct soak_hart *me, unsigned long *mask, unsigned long *base)
{
	unsigned long h = rnd_hart(me), r = rnd(me);

	switch (rnd_below(me, 16)) {
	case 0: case 1: case 2: case 3:          /* one hart */
		*base = h;
		*mask = 1;
		break;
	case 4: case 5: case 6:                  /* a subset, base 0 */
		*base = 0;
		*mask = r & all_harts;
		break;
	case 7: case 8:                          /* every hart (mask ignored) */
		*base = (unsigned long)-1;
		*mask = r;
		break;
	case 9: case 10:                         /* a subset above a base */
		*base = h;
		*mask = r & (all_harts >> h);
		break;
	case 11:                                 /* empty mask, any base */
		*base = r & 0xfff;
		*mask = 0;
		break;
	case 12:                                 /* a hart that does not exist */
		*base = 0;
		*mask = (r & all_harts) | 1ul << (plat.max_hart_id + 1 + (r >> 60));
		break;
	case 13:                                 /* a base past the harts, or wrapping */
		*base = r & 1 ? (unsigned long)-2 : plat.max_hart_id + 1 + (r >> 58);
		*mask = 3;
		break;
	default:                                 /* every hart, explicitly */
		*base = 0;
		*mask = all_harts;
		break;
	}
}

/* ---- IPIs ---- */

/*
 * A hart's ack covers every ticket taken before its SSI handler ran, so if
 * two harts sent to it at once, the IPI of one would hide the loss of the
 * other's.  So a sender owns its destinations (their `sender` word) from
 * its tickets until their acks: the SSI that acknowledges a ticket can only
 * be raised by that ticket's IPI, and a loss anywhere on the way shows.
 * (Two IPIs to one hart at once may become one interrupt anyway: that is
 * not observable, and not a loss.)  Other events still reach a hart while
 * it is owned: fences, HSM calls, its own timer.  A sender takes all its
 * destinations or none (it never waits holding some): no deadlock.
 */
static void dests_release(uint64_t harts)
{
	unsigned long h;

	for (h = 0; h < MAX_HARTS; h++)
		if (harts >> h & 1)
			__atomic_store_n(&H[h].sender, 0, __ATOMIC_RELEASE);
}

/* Own every hart of `dests`; false when that did not happen by the
 * deadline. */
static bool dests_own(struct soak_hart *me, uint64_t dests, uint64_t deadline)
{
	for (;;) {
		uint64_t got = 0;
		unsigned long h;

		for (h = 0; h < MAX_HARTS; h++) {
			long free = 0;

			if (!(dests >> h & 1))
				continue;
			if (!__atomic_compare_exchange_n(&H[h].sender, &free, (long)self_id(me) + 1,
							 false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				break;
			got |= 1ull << h;
		}
		if (got == dests)
			return true;
		dests_release(got);
		if (read_time() >= deadline)
			return false;
		wait_tick(me, deadline);
	}
}

static void wait_acks(struct soak_hart *me, struct ticket *t, int n, unsigned long mask,
		      unsigned long base)
{
	uint64_t deadline = read_time() + ack_ticks;
	int left = n, i;

	me->last_op = OP_WAIT_ACK;
	for (;;) {
		for (i = 0; i < n; i++) {
			struct soak_hart *d = &H[t[i].hart];

			if (!t[i].open)
				continue;
			if ((long)(LOAD(d->ack) - t[i].ticket) >= 0) {
				t[i].open = false;
				me->ipi_acked++;
				left--;
			} else if (LOAD(d->life) != t[i].life || d->dead) {
				t[i].open = false;
				me->ipi_void++;
				left--;
			}
		}
		if (!left || read_time() >= deadline)
			break;
		wait_tick(me, deadline);
	}
	for (i = 0; i < n; i++) {
		struct soak_hart *d = &H[t[i].hart];

		if (!t[i].open)
			continue;
		me->ipi_lost++;
		soak_fail(C_NO_IPI_LOST, "hart %lu -> hart %lu: the IPI of send_ipi(mask %#lx, "
			  "base %#lx) was not taken within %u ms (ticket %lu, acknowledged %lu, "
			  "hart %lu: HSM status %s, last op %s) at %lu ms", self_id(me), t[i].hart,
			  mask, base, ACK_TIMEOUT_US / 1000,
			  t[i].ticket, LOAD(d->ack), t[i].hart, status_text(me, t[i].hart),
			  op_names[d->last_op % OP_COUNT], now_ms());
	}
}

/* Tickets for every destination that is up, then the IPI, then the wait
 * (the caller owns the destinations). */
static void send_ipi_tickets(struct soak_hart *me, unsigned long mask, unsigned long base)
{
	struct ticket t[MAX_HARTS];
	uint64_t dests;
	bool valid;
	struct sbiret r;
	int n = 0, i;

	me->last_op = OP_IPI;
	dests = dests_of(mask, base, &valid);
	for (i = 0; valid && i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		struct soak_hart *d = &H[h];

		if (!(dests >> h & 1))
			continue;
		t[n].hart = h;
		t[n].life = LOAD(d->life);
		t[n].open = true;
		if ((t[n].life & 1) || d->dead) {
			me->ipi_to_down++;
			continue;
		}
		t[n].ticket = __atomic_add_fetch(&d->req, 1, __ATOMIC_ACQ_REL);
		n++;
	}
	MB();
	r = sbi_send_ipi(mask, base);
	me->calls[CALL_IPI]++;
	if (r.error != (valid ? SBI_SUCCESS : SBI_ERR_INVALID_PARAM)) {
		soak_fail(C_IPI_RETURNS, "hart %lu: send_ipi(mask %#lx, base %#lx) returned %s, "
			  "expected %s", self_id(me), mask, base, sbi_error_name(r.error),
			  sbi_error_name(valid ? SBI_SUCCESS : SBI_ERR_INVALID_PARAM));
		return;
	}
	if (!valid)
		return;
	me->ipi_sends++;
	me->ipi_tickets += (unsigned long)n;
	/* The firmware counts IPI_SENT per destination other than the caller. */
	if (me->pmu.on && me->pmu.running)
		me->pmu.expected += popcount64(dests & ~(1ull << self_id(me)));
	wait_acks(me, t, n, mask, base);
}

static void send_ipi_checked(struct soak_hart *me, unsigned long mask, unsigned long base)
{
	bool valid;
	uint64_t dests = dests_of(mask, base, &valid);
	unsigned long h;

	/* An invalid mask sends nothing (the PMU check would see it if it did);
	 * a hart reported stuck may never be released. */
	if (!valid)
		dests = 0;
	for (h = 0; h < MAX_HARTS; h++)
		if (H[h].dead)
			dests &= ~(1ull << h);
	me->last_op = OP_IPI;
	if (!dests_own(me, dests, read_time() + ack_ticks)) {
		me->ipi_skipped++;
		return;
	}
	send_ipi_tickets(me, mask, base);
	dests_release(dests);
}

static void op_ipi(struct soak_hart *me)
{
	unsigned long mask, base;

	pick_mask(me, &mask, &base);
	send_ipi_checked(me, mask, base);
}

/* ---- remote fences ---- */

static void op_rfence(struct soak_hart *me)
{
	static const enum call call_of[] = {
		CALL_FENCE_I, CALL_SFENCE_VMA, CALL_SFENCE_VMA_ASID,
		CALL_HFENCE, CALL_HFENCE, CALL_HFENCE, CALL_HFENCE,
	};
	unsigned long fid = rnd_below(me, has_h ? 7 : 3), mask, base, start, size, id = 0;
	bool valid, bad_range = false;
	long want;
	struct sbiret r;

	me->last_op = OP_RFENCE;
	pick_mask(me, &mask, &base);
	dests_of(mask, base, &valid);
	start = (rnd(me) & 0xfffff) << 12;
	switch (rnd_below(me, 8)) {
	case 0:                         /* the whole address space */
		start = 0;
		size = 0;
		break;
	case 1:
		size = (unsigned long)-1;
		break;
	case 2:                         /* a few pages */
		size = (1 + rnd_below(me, 16)) << 12;
		break;
	case 3:                         /* unaligned bytes */
		start += rnd_below(me, 4096);
		size = 1 + rnd_below(me, 8192);
		break;
	case 4:                         /* more than the firmware flushes page by page */
		size = 1ul << 20;
		break;
	case 5:                         /* the top page */
		start = (unsigned long)-4096;
		size = 4096;
		break;
	default:                        /* past the top of the address space */
		start = (unsigned long)-4096;
		size = 8192;
		bad_range = valid;     /* one invalid argument at a time */
		if (!valid)
			size = 4096;
		break;
	}
	if (fid == SBI_RFENCE_REMOTE_SFENCE_VMA_ASID || fid == SBI_RFENCE_REMOTE_HFENCE_VVMA_ASID)
		id = rnd_below(me, 256);
	else if (fid == SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID)
		id = rnd_below(me, 16);
	want = !valid ? SBI_ERR_INVALID_PARAM :
	       bad_range && fid != SBI_RFENCE_REMOTE_FENCE_I ? SBI_ERR_INVALID_ADDRESS : SBI_SUCCESS;
	r = sbi_ecall(SBI_EXT_RFENCE, fid, mask, base, start, size, id, 0);
	me->calls[call_of[fid]]++;
	if (r.error != want)
		soak_fail(C_RFENCE_RETURNS, "hart %lu: RFENCE fid %lu (mask %#lx, base %#lx, start "
			  "%#lx, size %#lx, id %lu) returned %s, expected %s", self_id(me), fid,
			  mask, base, start, size, id, sbi_error_name(r.error),
			  sbi_error_name(want));
}

/* ---- HSM ---- */

/* What get_status may say of a hart whose sequence number was s1 before
 * and s2 after the call (kind read in between). */
static bool state_allowed(long st, unsigned long s1, unsigned long s2, int kind)
{
	if (st < SBI_HSM_STATE_STARTED || st > SBI_HSM_STATE_RESUME_PENDING)
		return false;
	if (s1 != s2)
		return true;
	if (!(s1 & 1))
		return st == SBI_HSM_STATE_STARTED;
	if (kind == TRANS_STOP)
		return st == SBI_HSM_STATE_STARTED || st == SBI_HSM_STATE_STOP_PENDING ||
		       st == SBI_HSM_STATE_STOPPED || st == SBI_HSM_STATE_START_PENDING;
	return st == SBI_HSM_STATE_STARTED || st == SBI_HSM_STATE_SUSPEND_PENDING ||
	       st == SBI_HSM_STATE_SUSPENDED || st == SBI_HSM_STATE_RESUME_PENDING;
}

static const char *phase_text(unsigned long s1, unsigned long s2, int kind)
{
	if (s1 != s2)
		return "changing state";
	if (!(s1 & 1))
		return "running";
	return kind == TRANS_STOP ? "stopping or stopped" : "suspending or suspended";
}

static void op_status(struct soak_hart *me)
{
	unsigned long h = rnd_hart(me), s1, s2;
	struct soak_hart *d = &H[h];
	struct sbiret r;
	int kind;

	me->last_op = OP_STATUS;
	s1 = LOAD(d->hsm_seq);
	MB();
	kind = d->hsm_kind;
	MB();
	r = sbi_hart_status(h);
	MB();
	s2 = LOAD(d->hsm_seq);
	me->calls[CALL_STATUS]++;
	if (r.error)
		soak_fail(C_HSM_STATES, "hart %lu: get_status(%lu) returned %s", self_id(me), h,
			  sbi_error_name(r.error));
	else if (!state_allowed(r.value, s1, s2, kind))
		soak_fail(C_HSM_STATES, "hart %lu: get_status(%lu) = %s (%ld) while hart %lu was %s",
			  self_id(me), h, state_name(r.value), r.value, h, phase_text(s1, s2, kind));
}

static void try_start(struct soak_hart *me, unsigned long h)
{
	struct soak_hart *d = &H[h];
	unsigned long s1, s2;
	struct sbiret r;
	int kind;

	me->last_op = OP_START;
	s1 = LOAD(d->hsm_seq);
	MB();
	kind = d->hsm_kind;
	MB();
	r = sbi_hart_start(h, (uintptr_t)soak_entry, START_TAG | self_id(me) << 8 | h);
	MB();
	s2 = LOAD(d->hsm_seq);
	me->calls[CALL_START]++;
	if (r.error == SBI_SUCCESS) {
		unsigned long n = __atomic_add_fetch(&d->starts_ok, 1, __ATOMIC_ACQ_REL);
		unsigned long downs = LOAD(d->downs);

		me->start_wins++;
		if (n > downs)
			soak_fail(C_HSM_STATES, "hart %lu: hart_start(%lu) succeeded for the %lu. time "
				  "but hart %lu went down only %lu times", self_id(me), h, n, h,
				  downs);
		if (s1 == s2 && (!(s1 & 1) || kind != TRANS_STOP))
			soak_fail(C_HSM_STATES, "hart %lu: hart_start(%lu) succeeded while hart %lu was %s",
				  self_id(me), h, h, phase_text(s1, s2, kind));
	} else if (r.error == SBI_ERR_ALREADY_AVAILABLE) {
		me->start_refused++;
	} else {
		soak_fail(C_HSM_STATES, "hart %lu: hart_start(%lu) returned %s", self_id(me), h,
			  sbi_error_name(r.error));
	}
}

/* A hart that is down (stopping or stopped); -1 if none. */
static long down_hart(struct soak_hart *me)
{
	unsigned long first = rnd_below(me, (unsigned long)plat.nharts), k;

	for (k = 0; k < (unsigned long)plat.nharts; k++) {
		unsigned long h = plat.hart_ids[(first + k) % (unsigned long)plat.nharts];

		if ((LOAD(H[h].hsm_seq) & 1) && H[h].hsm_kind == TRANS_STOP && !H[h].dead)
			return (long)h;
	}
	return -1;
}

static void op_start_down(struct soak_hart *me)
{
	long h = down_hart(me);
	struct sbiret r;

	if (h < 0)
		return;
	/* Usually only once it is STOPPED (several harts may race for it);
	 * sometimes blindly, which then may be refused. */
	if (rnd_below(me, 4)) {
		r = sbi_hart_status((unsigned long)h);
		me->calls[CALL_STATUS]++;
		if (r.error || r.value != SBI_HSM_STATE_STOPPED)
			return;
	}
	try_start(me, (unsigned long)h);
}

static void op_stop(struct soak_hart *me)
{
	struct sbiret r;

	if (self_id(me) == plat.boot_hart)
		return;
	if (__atomic_add_fetch(&down_count, 1, __ATOMIC_ACQ_REL) > max_down) {
		__atomic_sub_fetch(&down_count, 1, __ATOMIC_ACQ_REL);
		return;
	}
	me->last_op = OP_STOP;
	irq_disable();
	me->pmu.on = false;      /* a started hart's PMU is as at boot */
	me->hsm_kind = TRANS_STOP;
	MB();
	me->downs++;
	me->hsm_seq++;
	me->life++;
	me->stop_calls++;
	me->calls[CALL_STOP]++;
	MB();
	r = sbi_hart_stop();
	/* Only a failed stop returns. */
	me->life++;
	me->hsm_seq++;
	me->downs--;
	__atomic_sub_fetch(&down_count, 1, __ATOMIC_ACQ_REL);
	soak_fail(C_HSM_STATES, "hart %lu: hart_stop returned %s", self_id(me),
		  sbi_error_name(r.error));
	irq_enable();
}

static void op_suspend(struct soak_hart *me, bool nonret)
{
	uint64_t wake = read_time() + us_to_ticks(20 + rnd_below(me, SUSPEND_MAX_US));
	unsigned long tag = 0;
	struct sbiret r;

	if (nonret && self_id(me) == plat.boot_hart)
		return;
	me->last_op = nonret ? OP_SUSPEND_NONRET : OP_SUSPEND_RET;
	/* SIE off: the interrupt that ends the suspend stays pending. */
	irq_disable();
	csr_set(sie, SIE_SSIE | SIE_STIE);
	sbi_set_timer(wake);
	me->calls[CALL_TIMER]++;
	me->hsm_kind = TRANS_SUSPEND;
	MB();
	me->hsm_seq++;
	if (nonret) {
		me->resume_count++;
		tag = RESUME_TAG | (me->resume_count & 0xffffff) << 8 | self_id(me);
		me->nonret_suspends++;
		me->in_nonret = true;
	}
	MB();
	me->calls[CALL_SUSPEND]++;
	r = sbi_hart_suspend(nonret ? SBI_HSM_SUSPEND_NON_RET_DEFAULT : SBI_HSM_SUSPEND_RET_DEFAULT,
			     (uintptr_t)soak_entry, tag);
	if (nonret) {
		/* Only a failed non-retentive suspend returns here. */
		me->in_nonret = false;
		me->nonret_suspends--;
		soak_fail(C_HSM_STATES, "hart %lu: non-retentive hart_suspend returned %s",
			  self_id(me), sbi_error_name(r.error));
	} else if (r.error) {
		soak_fail(C_HSM_STATES, "hart %lu: retentive hart_suspend returned %s", self_id(me),
			  sbi_error_name(r.error));
	} else if (!(csr_read(sip) & csr_read(sie) & (SIP_SSIP | SIP_STIP))) {
		soak_fail(C_HSM_STATES, "hart %lu: retentive hart_suspend returned with no enabled "
			  "interrupt pending (sip %#lx, sie %#lx)", self_id(me), csr_read(sip),
			  csr_read(sie));
	} else {
		me->ret_suspends++;
	}
	MB();
	me->hsm_seq++;
	MB();
	irq_enable();
}

/* ---- PMU ---- */

static struct sbiret pmu_call(struct soak_hart *me, unsigned long fid, unsigned long a0,
			      unsigned long a1, unsigned long a2, unsigned long a3,
			      unsigned long a4)
{
	me->calls[CALL_PMU]++;
	return sbi_ecall(SBI_EXT_PMU, fid, a0, a1, a2, a3, a4, 0);
}

static bool pmu_expect(struct soak_hart *me, struct sbiret r, long want, const char *what)
{
	if (r.error == want)
		return true;
	soak_fail(C_PMU_START_STOP, "hart %lu: %s returned %s, expected %s", self_id(me), what,
		  sbi_error_name(r.error), sbi_error_name(want));
	return false;
}

static void pmu_release(struct soak_hart *me, int n)
{
	int i;

	for (i = 0; i < n; i++)
		pmu_call(me, SBI_PMU_COUNTER_STOP, me->pmu.idx[i], 1, STOP_RESET, 0, 0);
}

static void pmu_begin(struct soak_hart *me)
{
	static const unsigned long events[3] = {
		EV_FW(FW_IPI_SENT), EV_FW(FW_IPI_RECEIVED), EV_CYCLES,
	};
	struct pmu_session *p = &me->pmu;
	unsigned long lo = ~0ul;
	int i;

	for (i = 0; i < 3; i++) {
		bool fw = i < 2;
		unsigned long base = fw ? pmu_fw_base : 0, n = fw ? pmu_fw_n : pmu_hw_n;
		struct sbiret r = pmu_call(me, SBI_PMU_COUNTER_CONFIG_MATCHING, base,
					   (1ul << n) - 1, CFG_CLEAR_VALUE | CFG_AUTO_START,
					   events[i], 0);

		if (!pmu_expect(me, r, SBI_SUCCESS, "counter_config_matching") ||
		    (unsigned long)r.value < base || (unsigned long)r.value >= base + n ||
		    (i == 1 && (unsigned long)r.value == p->idx[0])) {
			if (!r.error)
				soak_fail(C_PMU_START_STOP, "hart %lu: counter_config_matching(event "
					  "%#lx) chose counter %ld, outside the set or taken",
					  self_id(me), events[i], r.value);
			pmu_release(me, i);
			return;
		}
		p->idx[i] = (unsigned long)r.value;
		if (p->idx[i] < lo)
			lo = p->idx[i];
	}
	p->base = lo;
	p->mask = 0;
	for (i = 0; i < 3; i++)
		p->mask |= 1ul << (p->idx[i] - lo);
	p->expected = 0;
	p->sent_from = 0;
	p->received_from = 0;
	p->running = true;
	p->on = true;
	me->pmu_sessions++;
}

static void pmu_check_sent(struct soak_hart *me)
{
	struct pmu_session *p = &me->pmu;
	struct sbiret r = pmu_call(me, SBI_PMU_COUNTER_FW_READ, p->idx[0], 0, 0, 0, 0);

	if (!pmu_expect(me, r, SBI_SUCCESS, "counter_fw_read(IPI_SENT)"))
		return;
	me->pmu_checks++;
	if ((uint64_t)r.value != p->expected)
		soak_fail(C_PMU_FW_IPI_COUNTS, "hart %lu: firmware counter IPI_SENT (%s) reads %lu, "
			  "but the hart sent %lu IPIs to other harts while it counted",
			  self_id(me), p->running ? "running" : "stopped", (unsigned long)r.value,
			  (unsigned long)p->expected);
}

/* Add what the two firmware counters counted since they were (re)started
 * from a value to the report's totals. */
static void pmu_account(struct soak_hart *me)
{
	struct pmu_session *p = &me->pmu;
	struct sbiret r;

	r = pmu_call(me, SBI_PMU_COUNTER_FW_READ, p->idx[0], 0, 0, 0, 0);
	if (!r.error)
		me->pmu_fw_sent += (unsigned long)((uint64_t)r.value - p->sent_from);
	r = pmu_call(me, SBI_PMU_COUNTER_FW_READ, p->idx[1], 0, 0, 0, 0);
	if (pmu_expect(me, r, SBI_SUCCESS, "counter_fw_read(IPI_RECEIVED)"))
		me->pmu_fw_received += (unsigned long)((uint64_t)r.value - p->received_from);
}

static void op_pmu(struct soak_hart *me)
{
	struct pmu_session *p = &me->pmu;
	struct sbiret r;
	uint64_t v;

	me->last_op = OP_PMU;
	if (!p->on) {
		pmu_begin(me);
		return;
	}
	switch (rnd_below(me, 6)) {
	case 0:
	case 1:
		pmu_check_sent(me);
		break;
	case 2:                         /* stop or start the three as a set */
		if (p->running) {
			r = pmu_call(me, SBI_PMU_COUNTER_STOP, p->base, p->mask, 0, 0, 0);
			if (pmu_expect(me, r, SBI_SUCCESS, "counter_stop(set)"))
				p->running = false;
			r = pmu_call(me, SBI_PMU_COUNTER_STOP, p->idx[0], 1, 0, 0, 0);
			pmu_expect(me, r, SBI_ERR_ALREADY_STOPPED, "counter_stop(stopped counter)");
		} else {
			r = pmu_call(me, SBI_PMU_COUNTER_START, p->base, p->mask, 0, 0, 0);
			if (pmu_expect(me, r, SBI_SUCCESS, "counter_start(set)"))
				p->running = true;
			r = pmu_call(me, SBI_PMU_COUNTER_START, p->idx[0], 1, 0, 0, 0);
			pmu_expect(me, r, SBI_ERR_ALREADY_STARTED, "counter_start(running counter)");
		}
		pmu_check_sent(me);
		break;
	case 3:                         /* start again from a value */
		if (p->running) {
			pmu_check_sent(me);
			break;
		}
		pmu_account(me);
		v = rnd(me) & 0xffffff;
		r = pmu_call(me, SBI_PMU_COUNTER_START, p->base, p->mask, START_SET_INIT_VALUE,
			     v, 0);
		if (pmu_expect(me, r, SBI_SUCCESS, "counter_start(set, SET_INIT_VALUE)")) {
			p->running = true;
			p->expected = v;
			p->sent_from = v;
			p->received_from = v;
		}
		pmu_check_sent(me);
		break;
	default:                        /* end the session */
		pmu_check_sent(me);
		pmu_account(me);
		r = pmu_call(me, SBI_PMU_COUNTER_STOP, p->base, p->mask, STOP_RESET, 0, 0);
		pmu_expect(me, r, p->running ? SBI_SUCCESS : SBI_ERR_ALREADY_STOPPED,
			   "counter_stop(set, RESET)");
		p->on = false;
		break;
	}
}

/* ---- the harts ---- */

static void one_op(struct soak_hart *me, bool controller)
{
	unsigned long r = rnd_below(me, 1000);

	me->progress++;
	if (r < 300)
		op_ipi(me);
	else if (r < 550 && !controller)
		op_rfence(me);
	else if (r < 550)
		op_status(me);   /* a fence that never ends would hang the reports */
	else if (r < 650)
		op_status(me);
	else if (r < 750)
		op_pmu(me);
	else if (r < 810)
		op_suspend(me, false);
	else if (r < 870 && !controller)
		op_suspend(me, true);
	else if (r < 900 && !controller)
		op_stop(me);
	else if (r < 970)
		op_start_down(me);
	else
		try_start(me, rnd_hart(me));   /* usually running: refused */
}

static void __attribute__((noreturn)) park(struct soak_hart *me)
{
	me->last_op = OP_DONE;
	csr_write(sie, SIE_SSIE);
	MB();
	me->done = true;
	irq_enable();
	for (;;)
		wfi();
}

static void __attribute__((noreturn)) worker_loop(struct soak_hart *me)
{
	for (;;) {
		if (stop_flag)
			park(me);
		one_op(me, false);
	}
}

void soak_hart_entry(unsigned long hartid, unsigned long opaque, unsigned long satp,
		     unsigned long sstatus);
void soak_hart_entry(unsigned long hartid, unsigned long opaque, unsigned long satp,
		     unsigned long sstatus)
{
	struct soak_hart *me = &H[hartid];

	csr_write(sscratch, hartid);
	csr_write(stvec, (uintptr_t)soak_vector);
	if (satp || (sstatus & SSTATUS_SIE))
		soak_fail(C_HSM_STATES, "hart %lu entered with satp %#lx, sstatus %#lx (HSM: satp "
			  "0, sstatus.SIE 0)", hartid, satp, sstatus);
	if ((opaque & TAG_MASK) == START_TAG && (opaque & 0xff) == hartid && (me->life & 1)) {
		me->pmu.on = false;
		me->entries++;
		MB();
		me->life++;
		me->hsm_seq++;
		__atomic_sub_fetch(&down_count, 1, __ATOMIC_ACQ_REL);
	} else if (me->in_nonret &&
		   opaque == (RESUME_TAG | (me->resume_count & 0xffffff) << 8 | hartid)) {
		if (!(csr_read(sip) & csr_read(sie) & (SIP_SSIP | SIP_STIP)))
			soak_fail(C_HSM_STATES, "hart %lu resumed from a non-retentive suspend with "
				  "no enabled interrupt pending (sip %#lx, sie %#lx)", hartid,
				  csr_read(sip), csr_read(sie));
		me->in_nonret = false;
		me->nonret_resumes++;
		MB();
		me->hsm_seq++;
	} else {
		soak_fail(C_HSM_STATES, "hart %lu entered with a1 %#lx, neither a start nor a resume "
			  "it expected (life %lu, suspended non-retentively %d)", hartid, opaque,
			  me->life, me->in_nonret);
		me->dead = true;
		park(me);
	}
	MB();
	csr_write(sie, SIE_SSIE);
	irq_enable();
	worker_loop(me);
}

/* ---- the controller (boot hart) ---- */

static void print_new_failures(void)
{
	int c;

	for (c = 0; c < C_COUNT; c++)
		if (!checks[c].printed && LOAD(checks[c].ready)) {
			checks[c].printed = true;
			kprintf("INFO: harts/%s: first failure at %lu ms: %s\n", check_names[c],
				now_ms(), checks[c].msg);
		}
}

/* Restart harts that stopped, and report harts that are stuck. */
static void controller_scan(struct soak_hart *me)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i], seq, prog, starts, ent, ms;
		struct soak_hart *d = &H[h];
		uint64_t now;
		struct sbiret r;
		int kind;

		if (h == plat.boot_hart || d->dead)
			continue;
		me->last_op = OP_SCAN;
		seq = LOAD(d->hsm_seq);
		kind = d->hsm_kind;
		if ((seq & 1) && kind == TRANS_STOP) {
			r = sbi_hart_status(h);
			me->calls[CALL_STATUS]++;
			if (!r.error && r.value == SBI_HSM_STATE_STOPPED)
				try_start(me, h);
		}
		prog = LOAD(d->progress);
		starts = LOAD(d->starts_ok);
		ent = LOAD(d->entries);
		now = read_time();
		if (prog != d->seen_progress || seq != d->seen_seq || starts != d->seen_starts ||
		    ent != d->seen_entries) {
			d->seen_progress = prog;
			d->seen_seq = seq;
			d->seen_starts = starts;
			d->seen_entries = ent;
			d->seen_since = now;
			continue;
		}
		if (d->done || now - d->seen_since < stuck_ticks)
			continue;
		ms = ms_of(now - d->seen_since);
		d->dead = true;
		if (starts != ent)
			soak_fail(C_HSM_NOT_STUCK, "hart %lu: hart_start succeeded but it has not "
				  "entered for %lu ms (HSM status %s) at %lu ms", h, ms,
				  status_text(me, h), now_ms());
		else if ((seq & 1) && kind == TRANS_STOP)
			soak_fail(C_HSM_NOT_STUCK, "hart %lu: called hart_stop %lu ms ago and was not "
				  "startable since (HSM status %s) at %lu ms", h, ms,
				  status_text(me, h), now_ms());
		else if (seq & 1)
			soak_fail(C_HSM_NOT_STUCK, "hart %lu: suspended for %lu ms with its wake-up "
				  "timer at most %u us ahead (%s, HSM status %s) at %lu ms", h, ms,
				  SUSPEND_MAX_US + 20, op_names[d->last_op % OP_COUNT],
				  status_text(me, h), now_ms());
		else
			soak_fail(C_NO_DEADLOCK, "hart %lu: no progress for %lu ms, last op %s, HSM "
				  "status %s, at %lu ms", h, ms, op_names[d->last_op % OP_COUNT],
				  status_text(me, h), now_ms());
	}
}

static bool pmu_layout(char *why, size_t size)
{
	struct sbiret r = sbi_ecall(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	unsigned long n, i;

	if (r.error || r.value <= 0 || r.value > 64) {
		ksnprintf(why, size, "num_counters returned %s, %ld", sbi_error_name(r.error),
			  r.value);
		return false;
	}
	n = (unsigned long)r.value;
	pmu_hw_n = 0;
	pmu_fw_n = 0;
	for (i = 0; i < n; i++) {
		r = sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, i, 0, 0, 0, 0, 0);
		if (r.error) {
			ksnprintf(why, size, "counter_get_info(%lu) returned %s", i,
				  sbi_error_name(r.error));
			return false;
		}
		if ((unsigned long)r.value & CINFO_FW) {
			if (!pmu_fw_n++)
				pmu_fw_base = i;
		} else if (!pmu_fw_n) {
			pmu_hw_n++;
		}
	}
	if (!pmu_hw_n || pmu_fw_n < 2 || pmu_hw_n > 63 || pmu_fw_n > 63) {
		ksnprintf(why, size, "%lu hardware and %lu firmware counters, not in two blocks",
			  pmu_hw_n, pmu_fw_n);
		return false;
	}
	return true;
}

static void report_and_finish(uint64_t t_stop)
{
	unsigned long calls[CALL_COUNT] = { 0 }, total = 0;
	unsigned long sends = 0, tickets = 0, to_down = 0, acked = 0, voided = 0, lost = 0;
	unsigned long skipped = 0;
	unsigned long ssi = 0, sti = 0, stops = 0, starts = 0, refused = 0, ret = 0, nonret = 0;
	unsigned long sessions = 0, pchecks = 0, fw_sent = 0, fw_recv = 0, ops = 0;
	int i, c;

	for (i = 0; i < plat.nharts; i++) {
		struct soak_hart *d = &H[plat.hart_ids[i]];

		for (c = 0; c < CALL_COUNT; c++)
			calls[c] += d->calls[c];
		sends += d->ipi_sends;
		tickets += d->ipi_tickets;
		to_down += d->ipi_to_down;
		acked += d->ipi_acked;
		skipped += d->ipi_skipped;
		voided += d->ipi_void;
		lost += d->ipi_lost;
		ssi += d->ssi_taken;
		sti += d->sti_taken;
		stops += d->stop_calls;
		starts += d->start_wins;
		refused += d->start_refused;
		ret += d->ret_suspends;
		nonret += d->nonret_resumes;
		sessions += d->pmu_sessions;
		pchecks += d->pmu_checks;
		fw_sent += d->pmu_fw_sent;
		fw_recv += d->pmu_fw_received;
		ops += d->progress;
	}
	for (c = 0; c < CALL_COUNT; c++)
		total += calls[c];
	/* Coverage: a check that exercised nothing has not passed. */
	if (!acked)
		soak_fail(C_NO_IPI_LOST, "no IPI was acknowledged at all");
	if (!calls[CALL_FENCE_I] || !calls[CALL_SFENCE_VMA] || !calls[CALL_SFENCE_VMA_ASID])
		soak_fail(C_RFENCE_RETURNS, "some remote fence was never called");
	if (!stops || !ret || !nonret)
		soak_fail(C_HSM_STATES, "not exercised: %lu stop cycles, %lu retentive and %lu "
			  "non-retentive suspends", stops, ret, nonret);
	if (!sessions || !pchecks)
		soak_fail(C_PMU_START_STOP, "no PMU session was run");

	kprintf("REPORT: harts: seed %lu, %d harts, %lu ms of virtual time hammering, %lu ms in "
		"all, H extension %s, %lu operations\n", seed, plat.nharts,
		ms_of(t_stop - t_begin), now_ms(), has_h ? "yes" : "no", ops);
	kprintf("REPORT: harts: SBI calls %lu: send_ipi %lu, remote_fence_i %lu, "
		"remote_sfence_vma %lu, remote_sfence_vma_asid %lu, hfence %lu, hart_start %lu, "
		"hart_stop %lu, get_status %lu, hart_suspend %lu, pmu %lu, set_timer %lu\n", total,
		calls[CALL_IPI], calls[CALL_FENCE_I], calls[CALL_SFENCE_VMA],
		calls[CALL_SFENCE_VMA_ASID], calls[CALL_HFENCE], calls[CALL_START],
		calls[CALL_STOP], calls[CALL_STATUS], calls[CALL_SUSPEND], calls[CALL_PMU],
		calls[CALL_TIMER]);
	kprintf("REPORT: harts: IPIs: %lu send_ipi calls to %lu running harts (+%lu to harts "
		"that were down; %lu not sent: destinations busy for %u ms), received %lu (SSI "
		"traps), acknowledged %lu, void by a stop %lu, lost %lu\n", sends, tickets,
		to_down, skipped, ACK_TIMEOUT_US / 1000, ssi, acked, voided, lost);
	kprintf("REPORT: harts: HSM: %lu stop/start cycles (%lu starts won, %lu refused as "
		"ALREADY_AVAILABLE), %lu retentive and %lu non-retentive suspends, %lu timer "
		"interrupts\n", stops, starts, refused, ret, nonret, sti);
	kprintf("REPORT: harts: PMU: %lu sessions, IPI_SENT checked %lu times; the firmware "
		"counters counted IPI_SENT %lu, IPI_RECEIVED %lu (in ended sessions)\n",
		sessions, pchecks, fw_sent, fw_recv);
	for (i = 0; i < plat.nharts; i++) {
		struct soak_hart *d = &H[plat.hart_ids[i]];

		kprintf("REPORT: harts: hart %lu: %lu ops, IPIs to %lu harts, %lu SSIs taken, "
			"%lu stops, %lu+%lu suspends\n", plat.hart_ids[i], d->progress,
			d->ipi_tickets, d->ssi_taken, d->stop_calls, d->ret_suspends,
			d->nonret_resumes);
	}
	print_new_failures();
	for (c = 0; c < C_COUNT; c++) {
		unsigned long n = LOAD(checks[c].count);

		if (!n)
			kprintf("PASS: harts/%s\n", check_names[c]);
		else
			kprintf("FAIL: harts/%s: %lu failure%s (seed %lu), the first: %s\n",
				check_names[c], n, n == 1 ? "" : "s", seed,
				LOAD(checks[c].ready) ? checks[c].msg : "(not recorded)");
	}
	kprintf("DONE: harts\n");
	sbi_shutdown();
}

void harts_soak_main(void);
void harts_soak_main(void)
{
	struct soak_hart *me = &H[plat.boot_hart];
	uint64_t t_deadline, t_stop, deadline;
	unsigned long seconds;
	char why[120];
	int i;

	seconds = bootarg_ulong("seconds", 5);
	seed = bootarg_ulong("seed", 1);
	kprintf("harts: soak of %d harts for %lu s, seed %lu\n", plat.nharts, seconds, seed);
	if (plat.nharts < 2 || plat.max_hart_id >= MAX_HARTS) {
		kprintf("FAIL: harts/setup: needs 2..%d harts with ids below %d, has %d (max id "
			"%lu) (seed %lu)\n", MAX_HARTS, MAX_HARTS, plat.nharts, plat.max_hart_id,
			seed);
		kprintf("DONE: harts\n");
		sbi_shutdown();
	}
	if (!pmu_layout(why, sizeof(why))) {
		kprintf("FAIL: harts/setup: PMU: %s (seed %lu)\n", why, seed);
		kprintf("DONE: harts\n");
		sbi_shutdown();
	}
	has_h = probe_hfence_gvma();     /* under trap.c's vector, before ours */
	tick_ticks = us_to_ticks(TICK_US);
	ack_ticks = us_to_ticks(ACK_TIMEOUT_US);
	stuck_ticks = us_to_ticks(STUCK_TIMEOUT_US);
	max_down = (unsigned long)(plat.nharts - 1) / 2;
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		uint64_t z = (seed + 1) * 0x9E3779B97F4A7C15ull ^ (h + 1) * 0xBF58476D1CE4E5B9ull;

		all_harts |= 1ull << h;
		H[h].rng = z ? z : 1;
		if (h == plat.boot_hart)
			continue;
		/* Down since boot: stopped, as HSM says of every secondary. */
		H[h].life = 1;
		H[h].hsm_kind = TRANS_STOP;
		H[h].hsm_seq = 1;
		H[h].downs = 1;
		down_count++;
	}
	/* Without H the hypervisor fences are NOT_SUPPORTED, whatever the mask. */
	if (!has_h)
		for (i = SBI_RFENCE_REMOTE_HFENCE_GVMA_VMID; i <= SBI_RFENCE_REMOTE_HFENCE_VVMA; i++) {
			struct sbiret r = sbi_ecall(SBI_EXT_RFENCE, (unsigned long)i, 0, -1ul, 0, 0,
						    0, 0);

			me->calls[CALL_HFENCE]++;
			if (r.error != SBI_ERR_NOT_SUPPORTED)
				soak_fail(C_RFENCE_RETURNS, "without H, RFENCE fid %d returned %s, "
					  "expected ERR_NOT_SUPPORTED", i, sbi_error_name(r.error));
		}
	csr_write(stvec, (uintptr_t)soak_vector);
	csr_write(sie, SIE_SSIE);
	irq_enable();
	t_begin = read_time();

	/* Every secondary is STOPPED at boot.  Then start them: each enters
	 * soak_entry and starts hammering (and may start the others first). */
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		struct sbiret r;

		if (h == plat.boot_hart)
			continue;
		r = sbi_hart_status(h);
		me->calls[CALL_STATUS]++;
		if (r.error || r.value != SBI_HSM_STATE_STOPPED)
			soak_fail(C_HSM_STATES, "hart %lu at boot: get_status returned %s, %s, "
				  "expected STOPPED", h, sbi_error_name(r.error),
				  r.error ? "-" : state_name(r.value));
	}
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			try_start(me, plat.hart_ids[i]);
	deadline = read_time() + us_to_ticks(ENTRY_TIMEOUT_US);
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		while (h != plat.boot_hart && LOAD(H[h].entries) < LOAD(H[h].starts_ok) &&
		       read_time() < deadline)
			wait_tick(me, deadline);
		if (h != plat.boot_hart && LOAD(H[h].entries) < 1) {
			soak_fail(C_HSM_NOT_STUCK, "hart %lu did not enter within %u ms of its first "
				  "hart_start (HSM status %s)", h, ENTRY_TIMEOUT_US / 1000,
				  status_text(me, h));
			H[h].dead = true;
		}
	}
	for (i = 0; i < plat.nharts; i++)
		H[plat.hart_ids[i]].seen_since = read_time();

	/* Hammer until the deadline; the boot hart also checks the others. */
	t_deadline = read_time() + seconds * plat.timebase_hz;
	while (read_time() < t_deadline) {
		uint64_t next_scan = read_time() + us_to_ticks(SCAN_US);

		controller_scan(me);
		print_new_failures();
		while (read_time() < next_scan)
			one_op(me, true);
	}
	t_stop = read_time();
	MB();
	stop_flag = true;
	MB();

	/* Every hart finishes: stopped ones are started so that they can. */
	deadline = read_time() + us_to_ticks(END_TIMEOUT_US);
	for (;;) {
		bool all = true;

		for (i = 0; i < plat.nharts; i++) {
			struct soak_hart *d = &H[plat.hart_ids[i]];

			if (plat.hart_ids[i] != plat.boot_hart && !d->dead && !LOAD(d->done))
				all = false;
		}
		if (all || read_time() >= deadline)
			break;
		controller_scan(me);
		print_new_failures();
		nap(me, SCAN_US);
	}
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		struct soak_hart *d = &H[h];

		if (h == plat.boot_hart || d->dead || LOAD(d->done))
			continue;
		d->dead = true;
		soak_fail(C_NO_DEADLOCK, "hart %lu did not finish within %u ms of the deadline: "
			  "last op %s, HSM status %s", h, END_TIMEOUT_US / 1000,
			  op_names[d->last_op % OP_COUNT], status_text(me, h));
	}

	/* Quiet now: an IPI to each hart alone, then to all at once. */
	for (i = 0; i < plat.nharts; i++)
		send_ipi_checked(me, 1, plat.hart_ids[i]);
	send_ipi_checked(me, 0, (unsigned long)-1);

	/* Every stop was followed by exactly one start and one entry, every
	 * non-retentive suspend by one resume. */
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		struct soak_hart *d = &H[h];

		if (h == plat.boot_hart || d->dead)
			continue;
		if (d->starts_ok != d->downs || d->entries != d->downs)
			soak_fail(C_HSM_STATES, "hart %lu went down %lu times (boot included) but was "
				  "started %lu times and entered %lu times", h, d->downs,
				  d->starts_ok, d->entries);
		if (d->nonret_suspends != d->nonret_resumes)
			soak_fail(C_HSM_STATES, "hart %lu: %lu non-retentive suspends, %lu resumes", h,
				  d->nonret_suspends, d->nonret_resumes);
	}
	report_and_finish(t_stop);
}

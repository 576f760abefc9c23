/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SSE extension (ext-sse.adoc): every function's error codes, the state
 * machine, attributes and their access and state rules, the round trip
 * inject -> handler -> complete with the interrupted context restored
 * exactly, priorities (order of two pending events, preemption of a
 * running one), hart mask/unmask holding events back, one-shot events,
 * local and global events on another hart (preferred hart), and the PMU
 * overflow event fed by a real Sscofpmf counter overflow (and the
 * ordinary LCOFI in S-mode again once it is disabled).  OpenSBI 1.1 has
 * no SSE: every test is INFO (not applicable) there.
 */
#include "testlib.h"

#define EV_LOCAL_SW   SBI_SSE_EVENT_LOCAL_SOFTWARE
#define EV_GLOBAL_SW  SBI_SSE_EVENT_GLOBAL_SOFTWARE
#define EV_PMU        SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW
#define SSE_PATTERN   0x5e5e000000000000ul
#define NATTRS        SBI_SSE_ATTR_COUNT

/* What one event's handler saw (ENTRY_ARG points at it). */
struct sse_ctx {
	uint32_t id;
	unsigned long tag;                     /* in the order log */
	void (*action)(struct sse_ctx *);      /* run inside the handler */
	volatile unsigned long runs;
	volatile unsigned long hartid, sepc, sstatus;
	volatile unsigned long seen;           /* what `action` found */
	unsigned long attrs[NATTRS];           /* read inside the handler */
	volatile long attr_err;
};

extern char sse_entry[], sse_capture_resume[];
void sse_inject_capture(unsigned long *out, unsigned long id, unsigned long hartid);
void sse_handler_c(struct sse_ctx *c, unsigned long hartid);

/* Handler starts (tag) and ends (tag + 100), in order, on any hart. */
static volatile unsigned long order_log[16];
static volatile unsigned int order_n;

static void log_order(unsigned long v)
{
	unsigned int n = __atomic_fetch_add(&order_n, 1, __ATOMIC_RELAXED);

	if (n < 16)
		order_log[n] = v;
}

static struct sbiret sse_call(unsigned long fid, unsigned long a0, unsigned long a1,
			      unsigned long a2, unsigned long a3, unsigned long a4)
{
	return sbi_ecall(SBI_EXT_SSE, fid, a0, a1, a2, a3, a4, 0);
}

static long sse_read(uint32_t id, unsigned long base, unsigned long count, void *out)
{
	return sse_call(SBI_SSE_READ_ATTRS, id, base, count, (uintptr_t)out, 0).error;
}

static long sse_write(uint32_t id, unsigned long base, unsigned long count, const void *in)
{
	return sse_call(SBI_SSE_WRITE_ATTRS, id, base, count, (uintptr_t)in, 0).error;
}

static long sse_write1(uint32_t id, unsigned long attr, unsigned long v)
{
	static unsigned long value;

	value = v;
	return sse_write(id, attr, 1, &value);
}

static unsigned long sse_attr(uint32_t id, unsigned long attr)
{
	static unsigned long value;

	value = 0xdeadbeef;
	CHECK_ERR(sse_read(id, attr, 1, &value), SBI_SUCCESS, "read_attrs(%#x, %lu)", id, attr);
	return value;
}

static long sse_register(uint32_t id, struct sse_ctx *c)
{
	return sse_call(SBI_SSE_REGISTER, id, (uintptr_t)sse_entry, (uintptr_t)c, 0, 0).error;
}

static long sse_unregister(uint32_t id)
{
	return sse_call(SBI_SSE_UNREGISTER, id, 0, 0, 0, 0).error;
}

static long sse_enable(uint32_t id)
{
	return sse_call(SBI_SSE_ENABLE, id, 0, 0, 0, 0).error;
}

static long sse_disable(uint32_t id)
{
	return sse_call(SBI_SSE_DISABLE, id, 0, 0, 0, 0).error;
}

static long sse_inject(uint32_t id, unsigned long hartid)
{
	return sse_call(SBI_SSE_INJECT, id, hartid, 0, 0, 0).error;
}

static long sse_unmask(void)
{
	return sse_call(SBI_SSE_HART_UNMASK, 0, 0, 0, 0, 0).error;
}

static long sse_mask(void)
{
	return sse_call(SBI_SSE_HART_MASK, 0, 0, 0, 0, 0).error;
}

void sse_handler_c(struct sse_ctx *c, unsigned long hartid)
{
	c->sepc = csr_read(sepc);
	c->sstatus = csr_read(sstatus);
	c->hartid = hartid;
	log_order(c->tag);
	c->attr_err = sse_read(c->id, 0, NATTRS, c->attrs);
	if (c->action)
		c->action(c);
	log_order(c->tag + 100);
	c->runs++;
}

static bool sse_available(void)
{
	struct sbiret r = sbi_probe(SBI_EXT_SSE);

	if (r.value == 1)
		return true;
	if (run.opensbi)
		test_not_applicable("OpenSBI 1.1 has no SSE extension (SBI 3.0)");
	else
		check_failed("probe_extension(SSE) returned %ld", r.value);
	return false;
}

static void ctx_init(struct sse_ctx *c, uint32_t id, unsigned long tag)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->tag = tag;
}

static unsigned long state_of(uint32_t id)
{
	return sse_attr(id, SBI_SSE_ATTR_STATUS) & 3;
}

/* Leave an event UNUSED, whatever state a failed test left it in. */
static void sse_release(uint32_t id)
{
	sse_disable(id);
	sse_unregister(id);
}

/* Register, set the priority, enable. */
static bool sse_setup(uint32_t id, struct sse_ctx *c, unsigned long prio)
{
	return CHECK_ERR(sse_register(id, c), SBI_SUCCESS, "register(%#x)", id) &&
	       CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_PRIORITY, prio), SBI_SUCCESS,
			 "write PRIORITY of %#x", id) &&
	       CHECK_ERR(sse_enable(id), SBI_SUCCESS, "enable(%#x)", id);
}

static void reset_order(void)
{
	order_n = 0;
	memset((void *)order_log, 0, sizeof(order_log));
}

static bool order_is(const unsigned long *want, unsigned int n, const char *what)
{
	unsigned int i;

	if (!CHECK_EQ(order_n, n, "%s: handler starts and ends logged", what))
		return false;
	for (i = 0; i < n; i++)
		if (!CHECK_EQ(order_log[i], want[i], "%s: log entry %u", what, i))
			return false;
	return true;
}

/* The local software event of the running test: its context, reset,
 * or NULL where the firmware has no SSE. */
static struct sse_ctx local_ctx;

static struct sse_ctx *local_event(void (*action)(struct sse_ctx *))
{
	if (!sse_available())
		return NULL;
	ctx_init(&local_ctx, EV_LOCAL_SW, 1);
	local_ctx.action = action;
	return &local_ctx;
}

/* Registered, enabled, and events unmasked on this hart. */
static bool local_event_ready(struct sse_ctx *c)
{
	return sse_setup(c->id, c, 0) && CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask");
}

static void local_event_done(void)
{
	sse_mask();
	sse_release(EV_LOCAL_SW);
}

/* ---- probe and event IDs ---- */

static void probe_sse(void)
{
	sse_available();
}

/* Every function that takes an event_id refuses one with `want`. */
static void check_event_refused(uint32_t id, long want)
{
	static unsigned long buf[NATTRS];

	CHECK_ERR(sse_read(id, 0, 1, buf), want, "read_attrs(%#x)", id);
	CHECK_ERR(sse_write(id, SBI_SSE_ATTR_PRIORITY, 1, buf), want, "write_attrs(%#x)", id);
	CHECK_ERR(sse_call(SBI_SSE_REGISTER, id, (uintptr_t)sse_entry, 0, 0, 0).error, want,
		  "register(%#x)", id);
	CHECK_ERR(sse_unregister(id), want, "unregister(%#x)", id);
	CHECK_ERR(sse_enable(id), want, "enable(%#x)", id);
	CHECK_ERR(sse_disable(id), want, "disable(%#x)", id);
	CHECK_ERR(sse_inject(id, current_hart()), want, "inject(%#x)", id);
}

static void reserved_event_ids_invalid(void)
{
	static const uint32_t ids[] = {
		0x2, 0x3fff, 0x4000, 0x8001, 0xc000, 0x10001, 0x18000, 0x20000,
		0x100001, 0xffff0001, 0xffff4000, 0xffff8001, 0xffffc000, 0xffffffff,
	};
	unsigned int i;

	if (!sse_available())
		return;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		check_event_refused(ids[i], SBI_ERR_INVALID_PARAM);
}

/* QEMU's harts raise neither RAS events nor double traps. */
static void ras_double_trap_not_supported(void)
{
	static const uint32_t ids[] = {
		SBI_SSE_EVENT_LOCAL_HIGH_PRIO_RAS, SBI_SSE_EVENT_LOCAL_DOUBLE_TRAP,
		SBI_SSE_EVENT_GLOBAL_HIGH_PRIO_RAS, SBI_SSE_EVENT_LOCAL_LOW_PRIO_RAS,
		SBI_SSE_EVENT_GLOBAL_LOW_PRIO_RAS,
	};
	unsigned int i;

	if (!sse_available())
		return;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		check_event_refused(ids[i], SBI_ERR_NOT_SUPPORTED);
}

/* The upper half of a0 is not part of the uint32_t event_id. */
static void event_id_upper_bits_ignored(void)
{
	if (!sse_available())
		return;
	CHECK_ERR(sse_call(SBI_SSE_READ_ATTRS, 0xabcd0000ul << 32 | EV_LOCAL_SW, 0, 1,
			   (uintptr_t)order_log, 0).error, SBI_SUCCESS,
		  "read_attrs(event_id with upper bits)");
}

static void pmu_event_needs_sscofpmf(void)
{
	long want = run.expect_sscofpmf == 0 ? SBI_ERR_NOT_SUPPORTED : SBI_SUCCESS;

	if (!sse_available())
		return;
	if (run.expect_sscofpmf < 0) {
		test_not_applicable("the run does not say whether the cpu has Sscofpmf");
		return;
	}
	CHECK_ERR(sse_read(EV_PMU, 0, 1, (void *)order_log), want, "read_attrs(PMU overflow)");
}

/* ---- state machine ---- */

static void state_machine(void)
{
	struct sse_ctx *c = local_event(NULL);
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	CHECK_EQ(state_of(id), SBI_SSE_STATE_UNUSED, "state at boot");
	CHECK_ERR(sse_unregister(id), SBI_ERR_INVALID_STATE, "unregister UNUSED");
	CHECK_ERR(sse_enable(id), SBI_ERR_INVALID_STATE, "enable UNUSED");
	CHECK_ERR(sse_disable(id), SBI_ERR_INVALID_STATE, "disable UNUSED");
	CHECK_ERR(sse_inject(id, current_hart()), SBI_ERR_FAILED, "inject UNUSED");
	CHECK_ERR(sse_call(SBI_SSE_REGISTER, id, (uintptr_t)sse_entry + 1, 0, 0, 0).error,
		  SBI_ERR_INVALID_PARAM, "register with an odd entry pc");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_UNUSED, "state after a refused register");

	CHECK_ERR(sse_register(id, c), SBI_SUCCESS, "register");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_REGISTERED, "state after register");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_ENTRY_PC), (uintptr_t)sse_entry, "ENTRY_PC");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_ENTRY_ARG), (uintptr_t)c, "ENTRY_ARG");
	CHECK_ERR(sse_register(id, c), SBI_ERR_INVALID_STATE, "register REGISTERED");
	CHECK_ERR(sse_disable(id), SBI_ERR_INVALID_STATE, "disable REGISTERED");

	CHECK_ERR(sse_enable(id), SBI_SUCCESS, "enable");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_ENABLED, "state after enable");
	CHECK_ERR(sse_enable(id), SBI_ERR_INVALID_STATE, "enable ENABLED");
	CHECK_ERR(sse_unregister(id), SBI_ERR_INVALID_STATE, "unregister ENABLED");
	CHECK_ERR(sse_register(id, c), SBI_ERR_INVALID_STATE, "register ENABLED");

	CHECK_ERR(sse_disable(id), SBI_SUCCESS, "disable");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_REGISTERED, "state after disable");
	CHECK_ERR(sse_unregister(id), SBI_SUCCESS, "unregister");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_UNUSED, "state after unregister");
	CHECK_EQ(c->runs, 0, "handler runs without an inject");
	sse_release(id);
}

static void mask_unmask(void)
{
	if (!sse_available())
		return;
	/* "The software events are masked initially on all harts". */
	CHECK_ERR(sse_mask(), SBI_ERR_ALREADY_STOPPED, "hart_mask at boot");
	CHECK_ERR(sse_unmask(), SBI_SUCCESS, "hart_unmask");
	CHECK_ERR(sse_unmask(), SBI_ERR_ALREADY_STARTED, "hart_unmask twice");
	CHECK_ERR(sse_mask(), SBI_SUCCESS, "hart_mask");
	CHECK_ERR(sse_mask(), SBI_ERR_ALREADY_STOPPED, "hart_mask twice");
}

static void complete_without_event(void)
{
	struct sbiret r;

	if (!sse_available())
		return;
	r = sse_call(SBI_SSE_COMPLETE, 0, 0, 0, 0, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "complete with nothing running");
	CHECK_EQ(r.value, 0, "complete's value with nothing running");
}

static void inject_invalid_hart(void)
{
	struct sse_ctx *c = local_event(NULL);

	if (!c)
		return;
	if (!sse_setup(EV_LOCAL_SW, c, 0))
		goto out;
	CHECK_ERR(sse_inject(EV_LOCAL_SW, plat.max_hart_id + 1), SBI_ERR_INVALID_PARAM,
		  "inject on hart %lu", plat.max_hart_id + 1);
	CHECK_ERR(sse_inject(EV_LOCAL_SW, -1ul), SBI_ERR_INVALID_PARAM, "inject on hart -1");
	/* masked: nothing runs */
	CHECK_EQ(c->runs, 0, "handler runs");
out:
	sse_release(EV_LOCAL_SW);
}

/* ---- attributes ---- */

static void attr_reset_values(void)
{
	static unsigned long v[NATTRS];
	struct sse_ctx *c = local_event(NULL);
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < NATTRS; i++)
		v[i] = 0xdead;
	if (!CHECK_ERR(sse_read(EV_LOCAL_SW, 0, NATTRS, v), SBI_SUCCESS, "read all attributes"))
		return;
	CHECK_EQ(v[SBI_SSE_ATTR_STATUS] & ~SBI_SSE_STATUS_INJECTABLE, 0, "STATUS at reset");
	CHECK(v[SBI_SSE_ATTR_STATUS] & SBI_SSE_STATUS_INJECTABLE, "STATUS: injectable");
	CHECK_EQ(v[SBI_SSE_ATTR_PRIORITY], 0, "PRIORITY at reset");
	CHECK_EQ(v[SBI_SSE_ATTR_CONFIG], 0, "CONFIG at reset");
	CHECK_EQ(v[SBI_SSE_ATTR_PREFERRED_HART], current_hart(), "PREFERRED_HART of a local event");
	CHECK_EQ(v[SBI_SSE_ATTR_ENTRY_PC], 0, "ENTRY_PC at reset");
	/* base + i lands at offset i: a window of the attributes */
	v[0] = v[1] = 0xdead;
	CHECK_ERR(sse_read(EV_LOCAL_SW, SBI_SSE_ATTR_PREFERRED_HART, 1, v), SBI_SUCCESS,
		  "read PREFERRED_HART alone");
	CHECK_EQ(v[0], current_hart(), "PREFERRED_HART read at offset 0");
	CHECK_EQ(v[1], 0xdead, "the word after a one-attribute read");
	/* the global event's preferred hart is a valid hart */
	CHECK(hart_index(sse_attr(EV_GLOBAL_SW, SBI_SSE_ATTR_PREFERRED_HART)) >= 0,
	      "PREFERRED_HART of the global event is a hart");
}

static void attr_range_and_address(void)
{
	static unsigned long v[NATTRS + 1];
	uintptr_t fw = fw_base();

	if (!sse_available())
		return;
	CHECK_ERR(sse_read(EV_LOCAL_SW, 0, 0, v), SBI_ERR_INVALID_PARAM, "read 0 attributes");
	CHECK_ERR(sse_write(EV_LOCAL_SW, 0, 0, v), SBI_ERR_INVALID_PARAM, "write 0 attributes");
	CHECK_ERR(sse_read(EV_LOCAL_SW, NATTRS, 1, v), SBI_ERR_BAD_RANGE, "read attribute 10");
	CHECK_ERR(sse_read(EV_LOCAL_SW, 5, 6, v), SBI_ERR_BAD_RANGE, "read attributes 5..10");
	CHECK_ERR(sse_read(EV_LOCAL_SW, 1, 0xffffffff, v), SBI_ERR_BAD_RANGE,
		  "read 2^32 - 1 attributes");
	CHECK_ERR(sse_write(EV_LOCAL_SW, 0xffffffff, 2, v), SBI_ERR_BAD_RANGE,
		  "write attributes from 2^32 - 1");
	CHECK_ERR(sse_read(EV_LOCAL_SW, 0, 1, (char *)v + 4), SBI_ERR_INVALID_ADDRESS,
		  "read to a misaligned address");
	CHECK_ERR(sse_write(EV_LOCAL_SW, 1, 1, (char *)v + 1), SBI_ERR_INVALID_ADDRESS,
		  "write from a misaligned address");
	CHECK_ERR(sse_read(EV_LOCAL_SW, 0, 1, (void *)fw), SBI_ERR_INVALID_ADDRESS,
		  "read into firmware memory");
	CHECK_ERR(sse_write(EV_LOCAL_SW, 1, 1, (void *)fw), SBI_ERR_INVALID_ADDRESS,
		  "write from firmware memory");
	CHECK_ERR(sse_read(EV_LOCAL_SW, 0, 2, (void *)(uintptr_t)(ram_end() - 8)),
		  SBI_ERR_INVALID_ADDRESS, "read running past the end of RAM");
	CHECK_ERR(sse_call(SBI_SSE_READ_ATTRS, EV_LOCAL_SW, 0, 1, (uintptr_t)v, 1).error,
		  SBI_ERR_INVALID_ADDRESS, "read with output_phys_hi 1");
	/* the event is checked first, then the count, then the range */
	CHECK_ERR(sse_read(0x2, NATTRS, 0, (char *)v + 1), SBI_ERR_INVALID_PARAM,
		  "read: reserved event, everything else wrong too");
	CHECK_ERR(sse_read(EV_LOCAL_SW, NATTRS, 1, (char *)v + 1), SBI_ERR_BAD_RANGE,
		  "read: bad range and bad address");
}

static void attr_write_rules(void)
{
	static unsigned long in[NATTRS];
	struct sse_ctx *c = local_event(NULL);
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	/* read-only attributes */
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_STATUS, 0), SBI_ERR_DENIED, "write STATUS");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_ENTRY_PC, 0x80200000), SBI_ERR_DENIED,
		  "write ENTRY_PC");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_ENTRY_ARG, 1), SBI_ERR_DENIED, "write ENTRY_ARG");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_PREFERRED_HART, current_hart()), SBI_ERR_DENIED,
		  "write PREFERRED_HART of a local event");
	/* illegal values */
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_PRIORITY, 1ul << 32), SBI_ERR_INVALID_PARAM,
		  "PRIORITY 2^32");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_CONFIG, 2), SBI_ERR_INVALID_PARAM, "CONFIG bit 1");
	CHECK_ERR(sse_write1(EV_GLOBAL_SW, SBI_SSE_ATTR_PREFERRED_HART, plat.max_hart_id + 1),
		  SBI_ERR_INVALID_PARAM, "PREFERRED_HART of no hart");
	/* INTERRUPTED_* only while RUNNING */
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_INTERRUPTED_SEPC, 0), SBI_ERR_INVALID_STATE,
		  "write INTERRUPTED_SEPC of an UNUSED event");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_INTERRUPTED_A7, 0), SBI_ERR_INVALID_STATE,
		  "write INTERRUPTED_A7 of an UNUSED event");
	/* writable while UNUSED / REGISTERED */
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_PRIORITY, 7), SBI_SUCCESS, "PRIORITY while UNUSED");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_PRIORITY), 7, "PRIORITY read back");
	if (!CHECK_ERR(sse_register(id, c), SBI_SUCCESS, "register"))
		goto out;
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_CONFIG, SBI_SSE_CONFIG_ONESHOT), SBI_SUCCESS,
		  "CONFIG while REGISTERED");
	/* all or nothing, the first error in ID order decides */
	in[0] = 9;      /* PRIORITY: fine */
	in[1] = 4;      /* CONFIG: illegal */
	in[2] = plat.max_hart_id + 1;   /* PREFERRED_HART: read-only here, comes later */
	CHECK_ERR(sse_write(id, SBI_SSE_ATTR_PRIORITY, 3, in), SBI_ERR_INVALID_PARAM,
		  "write PRIORITY..PREFERRED_HART with a bad CONFIG");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_PRIORITY), 7, "PRIORITY after a refused write");
	in[1] = 0;
	CHECK_ERR(sse_write(id, SBI_SSE_ATTR_PRIORITY, 3, in), SBI_ERR_DENIED,
		  "write PRIORITY..PREFERRED_HART of a local event");
	CHECK_ERR(sse_write(id, SBI_SSE_ATTR_PRIORITY, 2, in), SBI_SUCCESS,
		  "write PRIORITY and CONFIG");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_PRIORITY), 9, "PRIORITY written");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_CONFIG), 0, "CONFIG written");
	/* not while ENABLED */
	if (!CHECK_ERR(sse_enable(id), SBI_SUCCESS, "enable"))
		goto out;
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_PRIORITY, 1), SBI_ERR_INVALID_STATE,
		  "PRIORITY while ENABLED");
	CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_CONFIG, 0), SBI_ERR_INVALID_STATE,
		  "CONFIG while ENABLED");
out:
	sse_release(id);
	sse_write1(id, SBI_SSE_ATTR_PRIORITY, 0);
	sse_write1(id, SBI_SSE_ATTR_CONFIG, 0);
}

/* ---- delivery ---- */

/* Inside the handler: the attribute rules of a RUNNING event, and
 * INTERRUPTED_A6 rewritten so the completed context gets it. */
static void running_rules(struct sse_ctx *c)
{
	c->seen = sse_write1(c->id, SBI_SSE_ATTR_PRIORITY, 3) == SBI_ERR_INVALID_STATE &&
		       sse_call(SBI_SSE_DISABLE, c->id, 0, 0, 0, 0).error == SBI_ERR_INVALID_STATE &&
		       sse_write1(c->id, SBI_SSE_ATTR_INTERRUPTED_FLAGS, 1ul << 6) ==
			       SBI_ERR_INVALID_PARAM &&
		       sse_write1(c->id, SBI_SSE_ATTR_INTERRUPTED_A6, 0xa6a6) == SBI_SUCCESS;
}

/*
 * sbi_sse_inject on the calling hart: the handler runs before the call
 * returns, entered as "Software Event Injection" says (a6 = hartid, a7 =
 * ENTRY_ARG, sepc = the interrupted pc, SPP = S, SPIE = SIE, SIE = 0),
 * with the INTERRUPTED_* attributes of the context it interrupted; the
 * completion gives back every register, sepc and sstatus.
 */
static void inject_round_trip(void)
{
	static unsigned long regs[32];
	struct sse_ctx *c = local_event(NULL);
	unsigned long hart = current_hart(), sepc_before = 0x1230, st, sepc_after, n;
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	if (!local_event_ready(c))
		goto out;
	/* interrupted: SPP = U, SPIE = 1, SIE = 0 */
	csr_clear(sstatus, SSTATUS_SPP | SSTATUS_SIE);
	csr_set(sstatus, SSTATUS_SPIE);
	csr_write(sepc, sepc_before);
	sse_inject_capture(regs, id, hart);
	sepc_after = csr_read(sepc);
	st = csr_read(sstatus);

	if (!CHECK_EQ(c->runs, 1, "handler runs"))
		goto out;
	CHECK_EQ(c->hartid, hart, "a6 at entry (hartid)");
	CHECK_EQ(c->sepc, (uintptr_t)sse_capture_resume, "sepc at entry (the interrupted pc)");
	CHECK(c->sstatus & SSTATUS_SPP, "sstatus.SPP at entry: interrupted in S-mode");
	CHECK(!(c->sstatus & SSTATUS_SIE), "sstatus.SIE at entry is 0");
	CHECK(!(c->sstatus & SSTATUS_SPIE), "sstatus.SPIE at entry: the interrupted SIE (0)");
	if (CHECK_ERR(c->attr_err, SBI_SUCCESS, "read_attrs in the handler")) {
		CHECK_EQ(c->attrs[SBI_SSE_ATTR_STATUS] & 7, SBI_SSE_STATE_RUNNING,
			 "STATUS in the handler: RUNNING, not pending");
		CHECK_EQ(c->attrs[SBI_SSE_ATTR_INTERRUPTED_SEPC], sepc_before, "INTERRUPTED_SEPC");
		CHECK_EQ(c->attrs[SBI_SSE_ATTR_INTERRUPTED_FLAGS], SBI_SSE_FLAGS_SPIE,
			 "INTERRUPTED_FLAGS (SPP 0, SPIE 1, no hstatus bits)");
		CHECK_EQ(c->attrs[SBI_SSE_ATTR_INTERRUPTED_A6], SBI_SSE_INJECT, "INTERRUPTED_A6");
		CHECK_EQ(c->attrs[SBI_SSE_ATTR_INTERRUPTED_A7], SBI_EXT_SSE, "INTERRUPTED_A7");
	}
	for (n = 1; n < 32; n++) {
		unsigned long want = SSE_PATTERN + n;

		if (n == 2 || n == 3 || n == 4)
			continue;   /* sp, gp, tp: not patterned */
		if (n == 10 || n == 11)
			want = 0;   /* a0/a1: inject's SUCCESS and value */
		if (n == 16)
			want = SBI_SSE_INJECT;
		if (n == 17)
			want = SBI_EXT_SSE;
		if (!CHECK_EQ(regs[n], want, "x%lu after the round trip", n))
			break;
	}
	CHECK_EQ(sepc_after, sepc_before, "sepc after complete");
	CHECK(!(st & SSTATUS_SPP) && (st & SSTATUS_SPIE) && !(st & SSTATUS_SIE),
	      "sstatus after complete %#lx: SPP 0, SPIE 1, SIE 0 as before", st);
	CHECK_EQ(state_of(id), SBI_SSE_STATE_ENABLED, "state after complete");
out:
	local_event_done();
}

/* INTERRUPTED_A6 written in the handler is what a6 holds after complete;
 * the attribute rules of a RUNNING event hold. */
static void interrupted_attrs_written(void)
{
	static unsigned long regs[32];
	struct sse_ctx *c = local_event(running_rules);
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	if (!local_event_ready(c))
		goto out;
	sse_inject_capture(regs, id, current_hart());
	if (CHECK_EQ(c->runs, 1, "handler runs")) {
		CHECK(c->seen, "in the handler: PRIORITY INVALID_STATE, disable INVALID_STATE, "
		      "FLAGS bit 6 INVALID_PARAM, INTERRUPTED_A6 written");
		CHECK_EQ(regs[16], 0xa6a6, "a6 after complete: the written INTERRUPTED_A6");
		CHECK_EQ(regs[17], SBI_EXT_SSE, "a7 after complete");
	}
out:
	local_event_done();
}

/* What the handler of interrupted_flags_defined_bits found: per value
 * tried, the write's error and the value read back. */
#define SSTATUS_SPELP (1ul << 23)
#define SSTATUS_SDT   (1ul << 24)
static const unsigned long flag_values[] = {
	SBI_SSE_FLAGS_SPP, SBI_SSE_FLAGS_SPIE, SBI_SSE_FLAGS_HSTATUS_SPV,
	SBI_SSE_FLAGS_HSTATUS_SPVP, SBI_SSE_FLAGS_SPELP, SBI_SSE_FLAGS_SDT,
	SBI_SSE_FLAGS_SPP | SBI_SSE_FLAGS_SPIE | SBI_SSE_FLAGS_HSTATUS_SPV |
		SBI_SSE_FLAGS_HSTATUS_SPVP | SBI_SSE_FLAGS_SPELP | SBI_SSE_FLAGS_SDT,
	1ul << 6, 1ul << 32,
};
#define NFLAG_VALUES (sizeof(flag_values) / sizeof(flag_values[0]))
#define NFLAG_DEFINED (NFLAG_VALUES - 2)
static long flag_err[NFLAG_VALUES];
static unsigned long flag_read[NFLAG_VALUES], flag_saved;

/* Each value written and read back, then the interrupted flags as they
 * were, plus SPELP and SDT, for the completion to ignore. */
static void write_each_flag(struct sse_ctx *c)
{
	unsigned int i;

	flag_saved = sse_attr(c->id, SBI_SSE_ATTR_INTERRUPTED_FLAGS);
	for (i = 0; i < NFLAG_VALUES; i++) {
		flag_err[i] = sse_write1(c->id, SBI_SSE_ATTR_INTERRUPTED_FLAGS, flag_values[i]);
		flag_read[i] = sse_attr(c->id, SBI_SSE_ATTR_INTERRUPTED_FLAGS);
	}
	c->seen = sse_write1(c->id, SBI_SSE_ATTR_INTERRUPTED_FLAGS,
			     flag_saved | SBI_SSE_FLAGS_SPELP | SBI_SSE_FLAGS_SDT);
}

/*
 * INTERRUPTED_FLAGS takes each of the six bits the attribute table defines
 * (and all of them) on every hart, whether or not it has H, Zicfilp or
 * Ssdbltrp, and reads it back; bit 6 and bit 32 are reserved
 * (INVALID_PARAM, the value kept).  SPELP and SDT left set at completion
 * change nothing on a hart without those extensions (QEMU 7.2).
 */
static void interrupted_flags_defined_bits(void)
{
	static unsigned long regs[32];
	struct sse_ctx *c = local_event(write_each_flag);
	unsigned long st_before, st_after;
	unsigned int i;

	if (!c)
		return;
	if (!local_event_ready(c))
		goto out;
	st_before = csr_read(sstatus);
	sse_inject_capture(regs, EV_LOCAL_SW, current_hart());
	st_after = csr_read(sstatus);
	if (!CHECK_EQ(c->runs, 1, "handler runs"))
		goto out;
	for (i = 0; i < NFLAG_DEFINED; i++) {
		CHECK_ERR(flag_err[i], SBI_SUCCESS, "write INTERRUPTED_FLAGS = %#lx", flag_values[i]);
		CHECK_EQ(flag_read[i], flag_values[i], "INTERRUPTED_FLAGS read back after %#lx",
			 flag_values[i]);
	}
	for (; i < NFLAG_VALUES; i++) {
		CHECK_ERR(flag_err[i], SBI_ERR_INVALID_PARAM, "write INTERRUPTED_FLAGS = %#lx (reserved)",
			  flag_values[i]);
		CHECK_EQ(flag_read[i], flag_values[NFLAG_DEFINED - 1],
			 "INTERRUPTED_FLAGS kept after the refused %#lx", flag_values[i]);
	}
	CHECK_ERR((long)c->seen, SBI_SUCCESS, "write the saved flags | SPELP | SDT");
	CHECK_EQ(st_after & (SSTATUS_SPP | SSTATUS_SPIE | SSTATUS_SPELP | SSTATUS_SDT),
		 st_before & (SSTATUS_SPP | SSTATUS_SPIE | SSTATUS_SPELP | SSTATUS_SDT),
		 "sstatus SPP/SPIE/SPELP/SDT after complete as before");
	CHECK_EQ(regs[17], SBI_EXT_SSE, "a7 after complete");
out:
	local_event_done();
}

#define HSTATUS_SPV  (1ul << 7)
#define HSTATUS_SPVP (1ul << 8)

static void read_hstatus(struct sse_ctx *c)
{
	c->seen = csr_read(0x600);
}

/*
 * With H: INTERRUPTED_FLAGS bits 2/3 are hstatus.SPV/SPVP as interrupted;
 * from V = 0 the handler finds SPV = 0 and SPVP as it was; completion
 * gives SPV/SPVP back.  (SIE stays 0 throughout: with SPV = 1 a trap's
 * sret would enter VS-mode.)
 */
static void hstatus_flags_round_trip(void)
{
	static unsigned long regs[32];
	struct sse_ctx *c = local_event(read_hstatus);
	unsigned long old_hs, old_st, hs_after;
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	if (!probe_hfence_gvma()) {
		test_not_applicable("no H extension");
		return;
	}
	if (!local_event_ready(c))
		goto out;
	irq_disable();
	old_hs = csr_read(0x600);
	old_st = csr_read(sstatus);
	csr_set(0x600, HSTATUS_SPV | HSTATUS_SPVP);
	csr_set(sstatus, SSTATUS_SPP | SSTATUS_SPIE);
	sse_inject_capture(regs, id, current_hart());
	hs_after = csr_read(0x600);
	csr_write(0x600, old_hs);
	csr_write(sstatus, old_st);
	if (!CHECK_EQ(c->runs, 1, "handler runs"))
		goto out;
	CHECK_EQ(c->attrs[SBI_SSE_ATTR_INTERRUPTED_FLAGS],
		 SBI_SSE_FLAGS_SPP | SBI_SSE_FLAGS_SPIE | SBI_SSE_FLAGS_HSTATUS_SPV |
		 SBI_SSE_FLAGS_HSTATUS_SPVP, "INTERRUPTED_FLAGS with hstatus.SPV/SPVP set");
	CHECK_EQ(c->seen & (HSTATUS_SPV | HSTATUS_SPVP), HSTATUS_SPVP,
		 "hstatus in the handler: SPV = V at the event (0), SPVP kept");
	CHECK_EQ(hs_after & (HSTATUS_SPV | HSTATUS_SPVP), HSTATUS_SPV | HSTATUS_SPVP,
		 "hstatus after complete");
out:
	local_event_done();
}

/* ---- from VS-mode (H) ---- */

void sse_run_vs(void);
extern char sse_vs_exit[];
static volatile unsigned long vs_hstatus[2], vs_sstatus[2];

/* The first event returns to VS-mode; the second makes its completion
 * return to sse_vs_exit in HS-mode (V = hstatus.SPV = 0). */
static void vs_action(struct sse_ctx *c)
{
	unsigned long n = c->runs;

	if (n < 2) {
		vs_hstatus[n] = csr_read(0x600);
		vs_sstatus[n] = c->sstatus;
	}
	if (n == 1) {
		csr_clear(0x600, HSTATUS_SPV);
		csr_set(sstatus, SSTATUS_SPP);
		csr_write(sepc, (uintptr_t)sse_vs_exit);
	}
}

/* On another hart: two injects on the hart running in VS-mode. */
static long inject_twice_call(unsigned long target)
{
	long r;

	delay_us(2000);
	r = sse_inject(EV_LOCAL_SW, target);
	delay_us(2000);
	return r ? r : sse_inject(EV_LOCAL_SW, target);
}

/*
 * An event taken in VS-mode enters the handler in HS-mode (V = 0) with
 * hstatus.SPV = 1 and SPVP = 1 (VS-mode is S-level), SPP = 1; its
 * completion goes back to VS-mode (V = hstatus.SPV): the second event
 * interrupts VS-mode again.
 */
static void event_from_vs_mode(void)
{
	struct sse_ctx *c = local_event(vs_action);
	long h = other_hart(0), result = -1;
	unsigned long old_hs, i;

	if (!c)
		return;
	if (!probe_hfence_gvma()) {
		test_not_applicable("no H extension");
		return;
	}
	if (!need_secondaries())
		return;
	if (!local_event_ready(c))
		goto out;
	irq_disable();
	old_hs = csr_read(0x600);
	csr_write(0x680, 0);   /* hgatp: Bare */
	csr_write(0x280, 0);   /* vsatp: Bare */
	hart_post(h, inject_twice_call, current_hart());
	sse_run_vs();
	irq_disable();   /* the completion gave back the SIE VS-mode had */
	csr_write(0x600, old_hs);
	if (CHECK(hart_wait(h, 2000000, &result), "hart %ld hangs", h))
		CHECK_ERR(result, SBI_SUCCESS, "inject from hart %ld", h);
	if (!CHECK_EQ(c->runs, 2, "handler runs"))
		goto out;
	for (i = 0; i < 2; i++) {
		CHECK_EQ(vs_hstatus[i] & (HSTATUS_SPV | HSTATUS_SPVP), HSTATUS_SPV | HSTATUS_SPVP,
			 "hstatus SPV/SPVP in handler %lu", i);
		CHECK(vs_sstatus[i] & SSTATUS_SPP, "sstatus.SPP in handler %lu", i);
	}
out:
	local_event_done();
}

/* Masked, an injected event stays pending; unmask delivers it. */
static void mask_holds_back(void)
{
	struct sse_ctx *c = local_event(NULL);
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	if (!sse_setup(id, c, 0))
		goto out;
	CHECK_ERR(sse_inject(id, current_hart()), SBI_SUCCESS, "inject while masked");
	CHECK_EQ(c->runs, 0, "handler runs while masked");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_STATUS) & 7, SBI_SSE_STATE_ENABLED | SBI_SSE_STATUS_PENDING,
		 "STATUS: ENABLED and pending");
	CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask");
	CHECK_EQ(c->runs, 1, "handler runs once unmasked");
	CHECK_EQ(sse_attr(id, SBI_SSE_ATTR_STATUS) & 7, SBI_SSE_STATE_ENABLED,
		 "STATUS after: ENABLED, not pending");
	/* pending while REGISTERED: runs at enable */
	CHECK_ERR(sse_disable(id), SBI_SUCCESS, "disable");
	CHECK_ERR(sse_inject(id, current_hart()), SBI_SUCCESS, "inject while REGISTERED");
	CHECK_EQ(c->runs, 1, "handler runs while REGISTERED");
	CHECK_ERR(sse_enable(id), SBI_SUCCESS, "enable");
	CHECK_EQ(c->runs, 2, "handler runs at enable");
out:
	local_event_done();
}

static void oneshot(void)
{
	struct sse_ctx *c = local_event(NULL);
	uint32_t id = EV_LOCAL_SW;

	if (!c)
		return;
	if (!CHECK_ERR(sse_register(id, c), SBI_SUCCESS, "register") ||
	    !CHECK_ERR(sse_write1(id, SBI_SSE_ATTR_CONFIG, SBI_SSE_CONFIG_ONESHOT), SBI_SUCCESS,
		       "CONFIG one-shot") ||
	    !CHECK_ERR(sse_enable(id), SBI_SUCCESS, "enable") ||
	    !CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask"))
		goto out;
	CHECK_ERR(sse_inject(id, current_hart()), SBI_SUCCESS, "inject");
	CHECK_EQ(c->runs, 1, "handler runs");
	CHECK_EQ(state_of(id), SBI_SSE_STATE_REGISTERED, "one-shot state after complete");
	CHECK_ERR(sse_inject(id, current_hart()), SBI_SUCCESS, "inject again");
	CHECK_EQ(c->runs, 1, "handler runs while REGISTERED");
out:
	local_event_done();
	sse_write1(id, SBI_SSE_ATTR_CONFIG, 0);
}

static struct sse_ctx prio_local, prio_global;

/* Both software events registered and enabled with these priorities, the
 * global one on this hart; the local one's handler runs `action`. */
static bool setup_both(unsigned long local_prio, unsigned long global_prio,
		       void (*action)(struct sse_ctx *))
{
	reset_order();
	ctx_init(&prio_local, EV_LOCAL_SW, 1);
	ctx_init(&prio_global, EV_GLOBAL_SW, 2);
	prio_local.action = action;
	return sse_setup(EV_LOCAL_SW, &prio_local, local_prio) &&
	       CHECK_ERR(sse_write1(EV_GLOBAL_SW, SBI_SSE_ATTR_PREFERRED_HART, current_hart()),
			 SBI_SUCCESS, "PREFERRED_HART = this hart") &&
	       sse_setup(EV_GLOBAL_SW, &prio_global, global_prio);
}

/*
 * Both events pending while masked, then unmask: the higher priority one
 * (lower value; equal values: lower event_id) runs first, the other after
 * it completed.
 */
static bool two_pending(unsigned long local_prio, unsigned long global_prio)
{
	if (!setup_both(local_prio, global_prio, NULL))
		return false;
	CHECK_ERR(sse_inject(EV_LOCAL_SW, current_hart()), SBI_SUCCESS, "inject local");
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global");
	CHECK_EQ(order_n, 0, "handlers run while masked");
	return CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask");
}

static void two_pending_done(void)
{
	sse_mask();
	sse_release(EV_LOCAL_SW);
	sse_release(EV_GLOBAL_SW);
	sse_write1(EV_LOCAL_SW, SBI_SSE_ATTR_PRIORITY, 0);
	sse_write1(EV_GLOBAL_SW, SBI_SSE_ATTR_PRIORITY, 0);
}

/* The local event's handler injects the global one; the local one is
 * injected. */
static void inject_other(struct sse_ctx *c)
{
	sse_inject(c->id == EV_LOCAL_SW ? EV_GLOBAL_SW : EV_LOCAL_SW, current_hart());
}

static bool local_injects_global(unsigned long local_prio, unsigned long global_prio)
{
	return setup_both(local_prio, global_prio, inject_other) &&
	       CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask") &&
	       CHECK_ERR(sse_inject(EV_LOCAL_SW, current_hart()), SBI_SUCCESS, "inject local");
}

/* Handler starts (1 local, 2 global) and ends (+ 100) expected for two
 * priorities, both pending (two_pending) or one injected by the other's
 * handler (local_injects_global). */
struct order_case {
	unsigned long local_prio, global_prio;
	unsigned long want[4];
	const char *what;
};

static void run_order_cases(bool (*setup)(unsigned long, unsigned long),
			    const struct order_case *c, unsigned int n)
{
	unsigned int i;

	if (!sse_available())
		return;
	for (i = 0; i < n; i++) {
		if (setup(c[i].local_prio, c[i].global_prio))
			order_is(c[i].want, 4, c[i].what);
		two_pending_done();
	}
}

static void priority_order(void)
{
	static const struct order_case cases[] = {
		{ 5, 1, { 2, 102, 1, 101 }, "local 5, global 1" },
		{ 1, 5, { 1, 101, 2, 102 }, "local 1, global 5" },
		/* equal priorities: the lower event_id (the local one) first */
		{ 4, 4, { 1, 101, 2, 102 }, "both 4" },
	};

	run_order_cases(two_pending, cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * A higher priority event injected by a running handler preempts it at
 * once; a lower one waits until the running one completes.
 */
static void priority_preemption(void)
{
	static const struct order_case cases[] = {
		{ 5, 1, { 1, 2, 102, 101 }, "global (1) injected by the local (5) handler" },
		{ 1, 5, { 1, 101, 2, 102 }, "global (5) injected by the local (1) handler" },
	};

	run_order_cases(local_injects_global, cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- other harts ---- */

static struct sse_ctx remote_ctx;

static long remote_setup_call(unsigned long id)
{
	long r;

	ctx_init(&remote_ctx, (uint32_t)id, 3);
	r = sse_register((uint32_t)id, &remote_ctx);
	if (!r)
		r = sse_enable((uint32_t)id);
	if (!r)
		r = sse_unmask();
	return r;
}

static long remote_unmask_call(unsigned long unused)
{
	(void)unused;
	return sse_unmask();
}

static long remote_cleanup_call(unsigned long id)
{
	sse_mask();
	if (id)
		sse_release((uint32_t)id);
	return 0;
}

static bool remote_ran(unsigned long unused)
{
	(void)unused;
	return remote_ctx.runs != 0;
}

static bool global_ran(unsigned long unused)
{
	(void)unused;
	return prio_global.runs != 0;
}

/* A local event injected on another hart runs there (through the
 * firmware's IPI), while that hart idles in wfi. */
static void local_on_other_hart(void)
{
	long h = other_hart(0), result = -1;

	if (!sse_available() || !need_secondaries())
		return;
	if (!CHECK(hart_call(h, remote_setup_call, EV_LOCAL_SW, 2000000, &result), "hart %ld hangs", h) ||
	    !CHECK_ERR(result, SBI_SUCCESS, "register, enable, unmask on hart %ld", h))
		goto out;
	/* this hart's own local event is UNUSED: the target's state counts */
	CHECK_ERR(sse_inject(EV_LOCAL_SW, h), SBI_SUCCESS, "inject on hart %ld", h);
	if (CHECK(wait_for(remote_ran, 0, 2000000), "handler did not run on hart %ld", h)) {
		CHECK_EQ(remote_ctx.runs, 1, "handler runs");
		CHECK_EQ(remote_ctx.hartid, h, "a6 (hartid) in the handler");
	}
	CHECK_EQ(state_of(EV_LOCAL_SW), SBI_SSE_STATE_UNUSED, "this hart's own local event");
out:
	hart_call(h, remote_cleanup_call, EV_LOCAL_SW, 2000000, NULL);
}

static long nop_call(unsigned long unused)
{
	(void)unused;
	return 0;
}

/* The global event registered and enabled with PREFERRED_HART = pref;
 * events unmasked on this hart when `unmask_here`. */
static bool global_setup(unsigned long pref, bool unmask_here)
{
	ctx_init(&prio_global, EV_GLOBAL_SW, 2);
	return CHECK_ERR(sse_register(EV_GLOBAL_SW, &prio_global), SBI_SUCCESS, "register global") &&
	       CHECK_ERR(sse_write1(EV_GLOBAL_SW, SBI_SSE_ATTR_PREFERRED_HART, pref), SBI_SUCCESS,
			 "PREFERRED_HART = %lu", pref) &&
	       CHECK_ERR(sse_enable(EV_GLOBAL_SW), SBI_SUCCESS, "enable global") &&
	       (!unmask_here || CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask here"));
}

static bool unmask_on(long h)
{
	long result = -1;

	return CHECK(hart_call(h, remote_unmask_call, 0, 2000000, &result), "hart %ld hangs", h) &&
	       CHECK_ERR(result, SBI_SUCCESS, "unmask on hart %ld", h);
}

static void global_done(long h)
{
	hart_call(h, remote_cleanup_call, 0, 2000000, NULL);
	sse_mask();
	sse_release(EV_GLOBAL_SW);
}

static void check_global_ran_on(unsigned long hartid, const char *when)
{
	if (CHECK(wait_for(global_ran, 0, 2000000), "global event not run %s", when)) {
		CHECK_EQ(prio_global.runs, 1, "global handler runs %s", when);
		CHECK_EQ(prio_global.hartid, hartid, "hart that ran the global event %s", when);
	}
	prio_global.runs = 0;
}

/*
 * The global event runs on its preferred hart.  While that hart is STARTED
 * with events masked, the event waits for it although this hart takes
 * events, and runs there once it unmasks (docs/SBI.md, "Global event
 * routing").
 */
static void global_preferred_hart(void)
{
	long h = other_hart(0);

	if (!sse_available() || !need_secondaries())
		return;
	if (!global_setup(h, true))
		goto out;
	CHECK_EQ(sse_attr(EV_GLOBAL_SW, SBI_SSE_ATTR_PREFERRED_HART), h, "PREFERRED_HART");
	if (!unmask_on(h))
		goto out;
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global");
	check_global_ran_on(h, "with its preferred hart unmasked");
	hart_call(h, remote_cleanup_call, 0, 2000000, NULL);
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global again");
	CHECK_EQ(prio_global.runs, 0, "global runs here while its preferred hart is masked");
	CHECK_EQ(sse_attr(EV_GLOBAL_SW, SBI_SSE_ATTR_STATUS) & 7,
		 SBI_SSE_STATE_ENABLED | SBI_SSE_STATUS_PENDING, "STATUS: ENABLED and pending");
	if (unmask_on(h))
		check_global_ran_on(h, "once its preferred hart unmasked");
out:
	global_done(h);
}

/*
 * kvm-unit-tests' `sse: global_software: simple`: this hart masks events
 * and injects the global event whose preferred hart it is.  The event runs
 * nowhere, although another hart takes events, until this hart unmasks;
 * then here.
 */
static void global_waits_for_masked_caller(void)
{
	long h = other_hart(0);
	unsigned long me = current_hart();

	if (!sse_available() || !need_secondaries())
		return;
	if (!global_setup(me, false) || !unmask_on(h))
		goto out;
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global, this hart masked");
	/* hart h answers only after taking any IPI the inject sent it */
	CHECK(hart_call(h, nop_call, 0, 2000000, NULL), "hart %ld hangs", h);
	CHECK_EQ(prio_global.runs, 0, "global runs while its preferred hart is masked");
	CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask here");
	if (CHECK_EQ(prio_global.runs, 1, "global runs at the unmask of its preferred hart"))
		CHECK_EQ(prio_global.hartid, me, "hart that ran the global event");
out:
	global_done(h);
}

/*
 * A preferred hart that stops no longer holds the global event: the event
 * waiting for it runs on a hart that takes events (this one), and so does
 * every inject while it is STOPPED.
 */
static void global_stopped_preferred_hart(void)
{
	long h = other_hart(0);
	unsigned long me = current_hart();

	if (!sse_available() || !need_secondaries())
		return;
	if (!global_setup(h, true))
		goto out;
	/* hart h STARTED, events masked there: the event waits for it */
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global");
	CHECK_EQ(prio_global.runs, 0, "global runs here while its preferred hart is masked");
	if (!stop_hart(h))
		goto out;
	check_global_ran_on(me, "after its preferred hart stopped");
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global, preferred hart STOPPED");
	CHECK_EQ(prio_global.runs, 1, "global runs with its preferred hart STOPPED");
	CHECK_EQ(prio_global.hartid, me, "hart that ran the global event");
	start_hart(h, 0x535345);
out:
	global_done(h);
}

static volatile bool timer_suspends_done;

/* Events unmasked, then retentive suspends woken by this hart's timer
 * (2 ms each, nothing else enabled) until the boot hart says done. */
static long suspend_on_timer_call(unsigned long unused)
{
	long r = sse_unmask();

	(void)unused;
	irq_disable();
	csr_write(sie, SIE_STIE);
	while (!r && !timer_suspends_done) {
		sbi_set_timer(read_time() + us_to_ticks(2000));
		r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0).error;
	}
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, 0);
	return r;
}

/*
 * A SUSPENDED preferred hart keeps the global event: it does not run here,
 * and runs on that hart after its resume, here by its timer (no IPI ends
 * that wait: the firmware raises the event's IPI again itself).
 */
static void global_suspended_preferred_hart(void)
{
	long h = other_hart(0), result = -1, last;

	if (!sse_available() || !need_secondaries())
		return;
	timer_suspends_done = false;
	if (!global_setup(h, true))
		goto out;
	hart_post(h, suspend_on_timer_call, 0);
	if (!CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, 2000000, &last),
		   "hart %ld status %ld, not SUSPENDED", h, last))
		goto out;
	CHECK_ERR(sse_inject(EV_GLOBAL_SW, 0), SBI_SUCCESS, "inject global, preferred hart suspended");
	CHECK_EQ(prio_global.runs, 0, "global runs here while its preferred hart is suspended");
	timer_suspends_done = true;
	if (CHECK(hart_wait(h, 2000000, &result), "hart %ld did not resume", h) &&
	    CHECK_ERR(result, SBI_SUCCESS, "unmask and suspend on hart %ld", h))
		check_global_ran_on(h, "after its preferred hart resumed");
out:
	timer_suspends_done = true;
	global_done(h);
}

/* Retentive suspend until an SSI. */
static long suspend_until_ssi_call(unsigned long unused)
{
	long r;

	(void)unused;
	irq_disable();
	csr_clear(sip, SIP_SSIP);
	csr_set(sie, SIE_SSIE);
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0).error;
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	return r;
}

/*
 * An inject reaching a hart while it waits in M-mode (here: retentive
 * suspend) does not run there; it runs as soon as the hart is back in
 * S-mode, although nothing but an SSI woke it.
 */
static void inject_into_suspended_hart(void)
{
	long h = other_hart(0), result = -1, last;

	if (!sse_available() || !need_secondaries())
		return;
	if (!CHECK(hart_call(h, remote_setup_call, EV_LOCAL_SW, 2000000, &result), "hart %ld hangs", h) ||
	    !CHECK_ERR(result, SBI_SUCCESS, "register, enable, unmask on hart %ld", h))
		goto out;
	hart_post(h, suspend_until_ssi_call, 0);
	if (!CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, 2000000, &last),
		   "hart %ld status %ld, not SUSPENDED", h, last))
		goto out;
	CHECK_ERR(sse_inject(EV_LOCAL_SW, h), SBI_SUCCESS, "inject on suspended hart %ld", h);
	delay_us(2000);
	CHECK_EQ(remote_ctx.runs, 0, "handler runs while hart %ld is suspended", h);
	CHECK_ERR(sbi_send_ipi(1, h).error, SBI_SUCCESS, "send_ipi to hart %ld", h);
	if (CHECK(hart_wait(h, 2000000, &result), "hart %ld did not resume", h))
		CHECK_ERR(result, SBI_SUCCESS, "suspend on hart %ld", h);
	if (CHECK(wait_for(remote_ran, 0, 100000), "handler did not run on hart %ld after its "
		  "resume", h))
		CHECK_EQ(remote_ctx.runs, 1, "handler runs");
out:
	hart_call(h, remote_cleanup_call, EV_LOCAL_SW, 2000000, NULL);
}

/* sie.LCOFIE is writable exactly while LCOFI is delegated to S-mode. */
static bool lcofie_writable(void)
{
	bool w;

	csr_set(sie, SIE_LCOFIE);
	w = csr_read(sie) & SIE_LCOFIE;
	csr_clear(sie, SIE_LCOFIE);
	return w;
}

/* Local software (and, with Sscofpmf, PMU overflow) event enabled and
 * events unmasked on this hart; 77: LCOFI still S-mode's. */
static long remote_enable_all_call(unsigned long sscof)
{
	long r = remote_setup_call(EV_LOCAL_SW);

	if (r || !sscof)
		return r;
	r = sse_register(EV_PMU, &remote_ctx);
	if (!r)
		r = sse_enable(EV_PMU);
	return r ? r : lcofie_writable() ? 77 : 0;
}

/* After a hart reset: 0 when the events are UNUSED, masked, and LCOFI is
 * delegated again; else digits saying what was left. */
static long remote_after_reset_call(unsigned long sscof)
{
	unsigned long st = 0;
	long r = 0;

	if (sse_read(EV_LOCAL_SW, SBI_SSE_ATTR_STATUS, 1, &st) || (st & 3))
		r += 1;
	if (sse_mask() != SBI_ERR_ALREADY_STOPPED)
		r += 10;
	if (sscof && (sse_read(EV_PMU, SBI_SSE_ATTR_STATUS, 1, &st) || (st & 3)))
		r += 100;
	if (sscof && !lcofie_writable())
		r += 1000;
	return r;
}

/* HSM stop resets the hart's SSE state: local events UNUSED, events
 * masked, LCOFI back to S-mode. */
static void reset_on_hart_stop(void)
{
	long h = other_hart(0), result = -1;
	unsigned long sscof = run.expect_sscofpmf == 1;

	if (!sse_available() || !need_secondaries())
		return;
	if (!CHECK(hart_call(h, remote_enable_all_call, sscof, 2000000, &result),
		   "hart %ld hangs", h) ||
	    !CHECK_ERR(result, SBI_SUCCESS, "enable events on hart %ld (77: sie.LCOFIE still "
		       "writable with the PMU event enabled)", h))
		goto out;
	if (!restart_hart(h, 0x535345))
		return;
	if (CHECK(hart_call(h, remote_after_reset_call, sscof, 2000000, &result), "hart %ld hangs", h))
		CHECK_EQ(result, 0, "hart %ld reset (1 local, 100 PMU event used; 10 unmasked; "
			 "1000 LCOFI kept)", h);
	return;
out:
	hart_call(h, remote_cleanup_call, EV_LOCAL_SW, 2000000, NULL);
}

/* ---- PMU overflow (Sscofpmf) ---- */

#define PMU_EV_CYCLES 0x1ul            /* general event 1: CPU cycles */
#define PMU_START_SET_INIT_VALUE 1ul
#define PMU_STOP_RESET 1ul       /* SBI_PMU_STOP_FLAG_RESET (bit 0; bit 1 is TAKE_SNAPSHOT) */

static struct sbiret pmu(unsigned long fid, unsigned long a0, unsigned long a1,
			 unsigned long a2, unsigned long a3, unsigned long a4)
{
	return sbi_ecall(SBI_EXT_PMU, fid, a0, a1, a2, a3, a4, 0);
}

/* A hardware HPM counter (CSR 0xC03..) counting cycles, or -1. */
static long hpm_cycles_counter(void)
{
	long n = pmu(SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0).value, i;
	unsigned long mask = 0;
	struct sbiret r;

	for (i = 0; i < n && i < 64; i++) {
		r = pmu(SBI_PMU_COUNTER_GET_INFO, i, 0, 0, 0, 0);
		if (!r.error && !((unsigned long)r.value >> 63) && (r.value & 0xfff) >= 0xC03)
			mask |= 1ul << i;
	}
	r = pmu(SBI_PMU_COUNTER_CONFIG_MATCHING, 0, mask, 0, PMU_EV_CYCLES, 0);
	return r.error ? -1 : r.value;
}

static bool sse_pmu_ran(unsigned long unused)
{
	(void)unused;
	return prio_local.runs != 0;
}

static bool lcofi_pending(unsigned long unused)
{
	(void)unused;
	return csr_read(sip) & SIP_LCOFIP;
}

static void pmu_overflow_handler(struct sse_ctx *c)
{
	c->seen = csr_read(0xDA0);   /* scountovf */
}

/*
 * A counter started 20000 cycles before it wraps: with the PMU overflow
 * event enabled the SSE handler runs (scountovf shows the counter) and
 * S-mode takes no LCOFI; disabled, the ordinary LCOFI comes to S-mode.
 */
static void pmu_overflow_event(void)
{
	struct trap_record *rec = trap_record_of(current_hart());
	unsigned long before;
	long ctr;

	if (!sse_available())
		return;
	if (run.expect_sscofpmf != 1) {
		test_not_applicable("needs a cpu with Sscofpmf");
		return;
	}
	ctr = hpm_cycles_counter();
	if (!CHECK(ctr >= 0, "no HPM counter takes the cycles event"))
		return;
	ctx_init(&prio_local, EV_PMU, 1);
	prio_local.action = pmu_overflow_handler;
	csr_clear(sip, SIP_LCOFIP);
	csr_set(sie, SIE_LCOFIE);
	before = rec->lcofi_count;
	if (!sse_setup(EV_PMU, &prio_local, 0) || !CHECK_ERR(sse_unmask(), SBI_SUCCESS, "unmask"))
		goto out;
	CHECK_ERR(pmu(SBI_PMU_COUNTER_START, ctr, 1, PMU_START_SET_INIT_VALUE, -20000ul, 0).error,
		  SBI_SUCCESS, "counter_start(2^64 - 20000)");
	if (CHECK(wait_for(sse_pmu_ran, 0, 2000000), "PMU overflow event not delivered")) {
		CHECK_EQ(prio_local.runs, 1, "handler runs");
		CHECK(prio_local.seen, "scountovf in the handler: %#lx", prio_local.seen);
		CHECK(!(csr_read(sip) & SIP_LCOFIP), "LCOFIP pending in S-mode too");
		irq_enable();
		irq_disable();
		CHECK_EQ(rec->lcofi_count, before, "LCOFI taken by S-mode while the event is enabled");
	}
	pmu(SBI_PMU_COUNTER_STOP, ctr, 1, 0, 0, 0);
	CHECK_ERR(sse_disable(EV_PMU), SBI_SUCCESS, "disable PMU overflow event");
	CHECK(csr_read(sie) & SIE_LCOFIE, "sie.LCOFIE given back after disable");
	/* the ordinary path again */
	delay_us(10000);
	csr_clear(sip, SIP_LCOFIP);
	CHECK_ERR(pmu(SBI_PMU_COUNTER_START, ctr, 1, PMU_START_SET_INIT_VALUE, -20000ul, 0).error,
		  SBI_SUCCESS, "counter_start again");
	/* SIE stays 0 around the wait (its timer ticks are not taken) */
	if (CHECK(wait_for(lcofi_pending, 0, 2000000), "no LCOFI pending in S-mode after disable")) {
		irq_enable();
		irq_disable();
		CHECK_EQ(rec->lcofi_count - before, 1, "LCOFI taken by S-mode after disable");
	}
	CHECK_EQ(prio_local.runs, 1, "SSE handler runs after disable");
out:
	/* Release the counter for the next tests: a RESET stop of a counter
	 * that already stopped (ALREADY_STOPPED) releases nothing. */
	if (pmu(SBI_PMU_COUNTER_STOP, ctr, 1, PMU_STOP_RESET, 0, 0).error == SBI_ERR_ALREADY_STOPPED) {
		pmu(SBI_PMU_COUNTER_START, ctr, 1, 0, 0, 0);
		pmu(SBI_PMU_COUNTER_STOP, ctr, 1, PMU_STOP_RESET, 0, 0);
	}
	csr_clear(sie, SIE_LCOFIE);
	csr_clear(sip, SIP_LCOFIP);
	sse_mask();
	sse_release(EV_PMU);
}

static const struct target_test sse_tests[] = {
	{ "probe", probe_sse, DEV_NONE },
	{ "reserved_event_ids_invalid", reserved_event_ids_invalid, DEV_NONE },
	{ "ras_double_trap_not_supported", ras_double_trap_not_supported, DEV_NONE },
	{ "event_id_upper_bits_ignored", event_id_upper_bits_ignored, DEV_NONE },
	{ "pmu_event_needs_sscofpmf", pmu_event_needs_sscofpmf, DEV_NONE },
	{ "state_machine", state_machine, DEV_NONE },
	{ "mask_unmask", mask_unmask, DEV_NONE },
	{ "complete_without_event", complete_without_event, DEV_NONE },
	{ "inject_invalid_hart", inject_invalid_hart, DEV_NONE },
	{ "attr_reset_values", attr_reset_values, DEV_NONE },
	{ "attr_range_and_address", attr_range_and_address, DEV_NONE },
	{ "attr_write_rules", attr_write_rules, DEV_NONE },
	{ "inject_round_trip", inject_round_trip, DEV_NONE },
	{ "interrupted_attrs_written", interrupted_attrs_written, DEV_NONE },
	{ "interrupted_flags_defined_bits", interrupted_flags_defined_bits, DEV_NONE },
	{ "hstatus_flags_round_trip", hstatus_flags_round_trip, DEV_NONE },
	{ "event_from_vs_mode", event_from_vs_mode, DEV_NONE },
	{ "mask_holds_back", mask_holds_back, DEV_NONE },
	{ "oneshot", oneshot, DEV_NONE },
	{ "priority_order", priority_order, DEV_NONE },
	{ "priority_preemption", priority_preemption, DEV_NONE },
	{ "local_on_other_hart", local_on_other_hart, DEV_NONE },
	{ "global_preferred_hart", global_preferred_hart, DEV_NONE },
	{ "global_waits_for_masked_caller", global_waits_for_masked_caller, DEV_NONE },
	{ "global_stopped_preferred_hart", global_stopped_preferred_hart, DEV_NONE },
	{ "global_suspended_preferred_hart", global_suspended_preferred_hart, DEV_NONE },
	{ "reset_on_hart_stop", reset_on_hart_stop, DEV_NONE },
	{ "inject_into_suspended_hart", inject_into_suspended_hart, DEV_NONE },
	{ "pmu_overflow_event", pmu_overflow_event, DEV_NONE },
};
GROUP(sse, sse_tests);

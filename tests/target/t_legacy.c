/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Legacy extensions (ext-legacy.adoc, EIDs 0x00-0x08): set_timer, console
 * putchar/getchar, clear_ipi, send_ipi, remote_fence_i, remote_sfence_vma
 * (_asid); shutdown has a run of its own (legacy_shutdown_main, mode=
 * legacy-shutdown).  Legacy calling convention: a6 is ignored, only a0 is
 * returned, every other register is preserved (checked on every call here).
 * A hart mask is a pointer to a bit vector of unsigned longs; a page or
 * access fault reading it comes back to S-mode with sepc at the ecall.
 */
#include "testlib.h"

#define INSN_ECALL 0x00000073u
#define EXC_LOAD_PAGE_FAULT 13
#define UNMAPPED_VA 0x140000000ul   /* above the 4 GiB identity map */

/* The mask the calls point at (4 words: hartids 0..255). */
static unsigned long mask_words[5];

/* A legacy call with four arguments; a1..a3 and a6 must come back as they
 * went in.  *ecall_pc: the address of the ecall instruction. */
static long legacy4_at(unsigned long eid, unsigned long x0, unsigned long x1, unsigned long x2,
		       unsigned long x3, unsigned long *ecall_pc)
{
	register unsigned long a0 __asm__("a0") = x0;
	register unsigned long a1 __asm__("a1") = x1;
	register unsigned long a2 __asm__("a2") = x2;
	register unsigned long a3 __asm__("a3") = x3;
	register unsigned long a6 __asm__("a6") = 0x5a5a;
	register unsigned long a7 __asm__("a7") = eid;
	unsigned long pc;

	__asm__ volatile("lla %[pc], 1f\n1: ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a6), "+r"(a7),
			   [pc] "=&r"(pc)
			 :
			 : "memory");
	/* Register variables are only tied to their registers in the asm. */
	volatile unsigned long out[6] = { a0, a1, a2, a3, a6, a7 };

	CHECK(out[1] == x1 && out[2] == x2 && out[3] == x3,
	      "legacy EID %#lx changed a1..a3: %lx %lx %lx", eid, out[1], out[2], out[3]);
	CHECK(out[4] == 0x5a5a && out[5] == eid, "legacy EID %#lx changed a6/a7: %lx %lx", eid,
	      out[4], out[5]);
	if (ecall_pc)
		*ecall_pc = pc;
	return (long)out[0];
}

static long legacy4(unsigned long eid, unsigned long x0, unsigned long x1, unsigned long x2,
		    unsigned long x3)
{
	return legacy4_at(eid, x0, x1, x2, x3, NULL);
}

static unsigned long *mask_of(unsigned long hartid)
{
	memset(mask_words, 0, sizeof(mask_words));
	mask_words[hartid / 64] = 1ul << (hartid % 64);
	return mask_words;
}

static unsigned long *mask_of_others(void)
{
	int i;

	memset(mask_words, 0, sizeof(mask_words));
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			mask_words[plat.hart_ids[i] / 64] |= 1ul << (plat.hart_ids[i] % 64);
	return mask_words;
}

/* ---- console ---- */

static void putchar_returns_zero(void)
{
	static const char line[] = "legacy putchar test\n";
	size_t i;

	for (i = 0; i < sizeof(line) - 1; i++)
		CHECK_EQ(legacy4(SBI_EXT_LEGACY_CONSOLE_PUTCHAR, (unsigned char)line[i], 1, 2, 3), 0,
			 "console_putchar(%#x)", line[i]);
}

/* The runner gives QEMU no input: getchar fails with -1. */
static void getchar_without_input(void)
{
	int i;

	for (i = 0; i < 3; i++)
		CHECK_EQ(legacy4(SBI_EXT_LEGACY_CONSOLE_GETCHAR, 0, 1, 2, 3), (unsigned long)-1,
			 "console_getchar call %d", i);
}

/* ---- set_timer ---- */

static void quiesce_timer(void)
{
	irq_disable();
	csr_clear(sie, SIE_STIE);
	legacy4(SBI_EXT_LEGACY_SET_TIMER, UINT64_MAX, 0, 0, 0);
}

static void set_timer_fires_on_time(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	uint64_t target = read_time() + us_to_ticks(5000);
	uint64_t limit = target + us_to_ticks(1000000);
	unsigned long before = rec->sti_count;

	quiesce_timer();
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SET_TIMER, target, 0x11, 0x22, 0x33), 0,
		 "legacy set_timer(now + 5 ms)");
	csr_set(sie, SIE_STIE);
	irq_enable();
	while (rec->sti_count == before && read_time() < limit)
		wfi();
	irq_disable();
	if (CHECK(rec->sti_count != before, "no timer interrupt within 1 s of the deadline"))
		CHECK(rec->sti_time >= target, "timer interrupt %lu ticks early",
		      (unsigned long)(target - rec->sti_time));
	quiesce_timer();
}

/* "This function also clears the pending timer interrupt bit". */
static void set_timer_clears_pending(void)
{
	uint64_t deadline;

	quiesce_timer();
	legacy4(SBI_EXT_LEGACY_SET_TIMER, 0, 0, 0, 0);
	deadline = read_time() + us_to_ticks(100000);
	while (!(csr_read(sip) & SIP_STIP) && read_time() < deadline)
		;
	if (!CHECK(csr_read(sip) & SIP_STIP, "set_timer(0) left STIP clear"))
		return;
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SET_TIMER, UINT64_MAX, 0, 0, 0), 0, "set_timer(-1)");
	CHECK(!(csr_read(sip) & SIP_STIP), "STIP still pending after set_timer(-1)");
}

/* ---- clear_ipi ---- */

/* 0 when no IPI was pending, a positive value when one was, and SSIP
 * clear afterwards. */
static void clear_ipi_reports_pending(void)
{
	long r;

	csr_clear(sie, SIE_SSIE);
	csr_set(sip, SIP_SSIP);
	r = legacy4(SBI_EXT_LEGACY_CLEAR_IPI, 0, 4, 5, 6);
	CHECK(r > 0, "clear_ipi with an IPI pending returned %ld, expected > 0", r);
	CHECK(!(csr_read(sip) & SIP_SSIP), "SSIP still pending after clear_ipi");
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_CLEAR_IPI, 0, 4, 5, 6), 0, "clear_ipi with none pending");
}

/* ---- send_ipi ---- */

static unsigned long ssi_before[MAX_HARTS];

static void snapshot_ssi(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++)
		ssi_before[i] = trap_record_of(plat.hart_ids[i])->ssi_count;
}

static bool got_ssi(unsigned long index)
{
	return trap_record_of(plat.hart_ids[index])->ssi_count != ssi_before[index];
}

static bool self_ssip_pending(void)
{
	bool seen = csr_read(sip) & SIP_SSIP;

	csr_clear(sip, SIP_SSIP);
	return seen;
}

static void send_ipi_to_self(void)
{
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SEND_IPI, (uintptr_t)mask_of(plat.boot_hart), 0, 0, 0), 0,
		 "send_ipi(self)");
	CHECK(self_ssip_pending(), "no SSIP on the sending hart");
}

static void check_others_got_ssi(const char *what)
{
	int i;

	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			CHECK(wait_for(got_ssi, (unsigned long)i, 2000000),
			      "%s: hart %lu received no SSI", what, plat.hart_ids[i]);
}

static void send_ipi_to_others(void)
{
	if (!need_secondaries())
		return;
	snapshot_ssi();
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SEND_IPI, (uintptr_t)mask_of_others(), 0, 0, 0), 0,
		 "send_ipi(every other hart)");
	check_others_got_ssi("send_ipi(others)");
}

/* A NULL mask pointer selects every hart (the v0.1 kernels' "all harts"). */
static void send_ipi_null_is_all(void)
{
	if (!need_secondaries())
		return;
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	snapshot_ssi();
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SEND_IPI, 0, 0, 0, 0), 0, "send_ipi(NULL)");
	CHECK(self_ssip_pending(), "send_ipi(NULL): no SSIP on the sending hart");
	check_others_got_ssi("send_ipi(NULL)");
}

/* A bit of a hartid the platform lacks: INVALID_PARAM, nothing sent. */
static void send_ipi_invalid_hart(void)
{
	unsigned long *m = mask_of(plat.max_hart_id + 1);

	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	m[plat.boot_hart / 64] |= 1ul << (plat.boot_hart % 64);
	CHECK_ERR(legacy4(SBI_EXT_LEGACY_SEND_IPI, (uintptr_t)m, 0, 0, 0), SBI_ERR_INVALID_PARAM,
		  "send_ipi(self + hart %lu)", plat.max_hart_id + 1);
	CHECK(!self_ssip_pending(), "send_ipi with an invalid hart still sent to self");
}

/* tracesbi's choice: a mask pointer not aligned to an unsigned long is
 * INVALID_ADDRESS, for every mask call. */
static void mask_pointer_misaligned(void)
{
	static const unsigned long eids[] = { SBI_EXT_LEGACY_SEND_IPI,
					      SBI_EXT_LEGACY_REMOTE_FENCE_I,
					      SBI_EXT_LEGACY_REMOTE_SFENCE_VMA,
					      SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID };
	uintptr_t p = (uintptr_t)mask_of(plat.boot_hart) + 1;
	size_t i;

	for (i = 0; i < sizeof(eids) / sizeof(eids[0]); i++)
		CHECK_ERR(legacy4(eids[i], p, 0, 0, 0), SBI_ERR_INVALID_ADDRESS,
			  "legacy EID %#lx with hart mask pointer %#lx", eids[i], (unsigned long)p);
	csr_clear(sip, SIP_SSIP);
}

/* A fault reading the mask is redirected to S-mode: scause/stval of the
 * load, sepc at the ecall, a0 and a1 as they were. */
static void expect_mask_fault(unsigned long eid, uintptr_t ptr, unsigned long want_cause)
{
	unsigned long cause, tval, pc = 0;
	long a0;
	struct trap_record *rec = trap_record_of(plat.boot_hart);

	fault_expect(false);
	a0 = legacy4_at(eid, ptr, 0, 0, 0, &pc);
	if (!CHECK(fault_end(&cause, &tval), "legacy EID %#lx with hart mask %#lx: no fault "
		   "redirected (returned %ld)", eid, (unsigned long)ptr, a0))
		return;
	CHECK_EQ(cause, want_cause, "scause of legacy EID %#lx with mask %#lx", eid,
		 (unsigned long)ptr);
	CHECK_EQ(tval, ptr, "stval of legacy EID %#lx", eid);
	CHECK_EQ(rec->epc, pc, "sepc of legacy EID %#lx (the ecall)", eid);
	CHECK_EQ(*(volatile uint32_t *)pc, INSN_ECALL, "instruction at sepc");
	CHECK_EQ((unsigned long)a0, ptr, "a0 at the redirected fault of legacy EID %#lx", eid);
	CHECK(rec->status & SSTATUS_SPP, "sstatus.SPP after the redirected fault: %#lx",
	      rec->status);
}

static const unsigned long mask_eids[] = { SBI_EXT_LEGACY_SEND_IPI, SBI_EXT_LEGACY_REMOTE_FENCE_I,
					   SBI_EXT_LEGACY_REMOTE_SFENCE_VMA,
					   SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID };

static void mask_in_firmware_memory_faults(void)
{
	size_t i;

	for (i = 0; i < sizeof(mask_eids) / sizeof(mask_eids[0]); i++)
		expect_mask_fault(mask_eids[i], fw_base(), EXC_LOAD_ACCESS_FAULT);
}

static void mask_unmapped_page_faults(void)
{
	size_t i;

	mmu_enable_identity();
	for (i = 0; i < sizeof(mask_eids) / sizeof(mask_eids[0]); i++)
		expect_mask_fault(mask_eids[i], UNMAPPED_VA, EXC_LOAD_PAGE_FAULT);
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
}

/* The mask is read as S-mode sees it: through its page tables. */
static void mask_read_through_paging(void)
{
	mmu_enable_identity();
	csr_clear(sie, SIE_SSIE);
	csr_clear(sip, SIP_SSIP);
	CHECK_EQ(legacy4(SBI_EXT_LEGACY_SEND_IPI, (uintptr_t)mask_of(plat.boot_hart), 0, 0, 0), 0,
		 "send_ipi(self) with Sv39 on");
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	CHECK(self_ssip_pending(), "no SSIP on the sending hart");
}

/* ---- remote fences ---- */

/* Self, the others, NULL (all) for each fence, whole-space and one page. */
static void remote_fences_succeed(void)
{
	static const unsigned long eids[] = { SBI_EXT_LEGACY_REMOTE_FENCE_I,
					      SBI_EXT_LEGACY_REMOTE_SFENCE_VMA,
					      SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID };
	size_t i;

	if (!need_secondaries())
		return;
	for (i = 0; i < sizeof(eids) / sizeof(eids[0]); i++) {
		CHECK_EQ(legacy4(eids[i], (uintptr_t)mask_of(plat.boot_hart), 0, 0, 1), 0,
			 "legacy EID %#lx (self, whole space)", eids[i]);
		CHECK_EQ(legacy4(eids[i], (uintptr_t)mask_of_others(), 0x80200000, 4096, 1), 0,
			 "legacy EID %#lx (others, one page)", eids[i]);
		CHECK_EQ(legacy4(eids[i], 0, 0, UINT64_MAX, 0), 0, "legacy EID %#lx (NULL: all)",
			 eids[i]);
	}
	check_secondaries_alive("the legacy remote fences");
}

static void remote_fence_invalid_hart(void)
{
	unsigned long *m = mask_of(plat.max_hart_id + 1);

	CHECK_ERR(legacy4(SBI_EXT_LEGACY_REMOTE_FENCE_I, (uintptr_t)m, 0, 0, 0),
		  SBI_ERR_INVALID_PARAM, "remote_fence_i(hart %lu)", plat.max_hart_id + 1);
	CHECK_ERR(legacy4(SBI_EXT_LEGACY_REMOTE_SFENCE_VMA, (uintptr_t)m, 0, 0, 0),
		  SBI_ERR_INVALID_PARAM, "remote_sfence_vma(hart %lu)", plat.max_hart_id + 1);
}

/* As RFENCE: [start, start + size) must not run past the top. */
static void remote_sfence_range_past_top(void)
{
	unsigned long *m = mask_of(plat.boot_hart);

	CHECK_ERR(legacy4(SBI_EXT_LEGACY_REMOTE_SFENCE_VMA, (uintptr_t)m, -2ul, 3, 0),
		  SBI_ERR_INVALID_ADDRESS, "remote_sfence_vma(self, -2, 3)");
	CHECK_ERR(legacy4(SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID, (uintptr_t)m, -2ul, 3, 0),
		  SBI_ERR_INVALID_ADDRESS, "remote_sfence_vma_asid(self, -2, 3)");
}

/* An ASID wider than the hart's (QEMU: 16 bits) is INVALID_PARAM. */
static void remote_sfence_asid_too_wide(void)
{
	CHECK_ERR(legacy4(SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID, (uintptr_t)mask_of(plat.boot_hart),
			  0, 0, 1ul << 16), SBI_ERR_INVALID_PARAM,
		  "remote_sfence_vma_asid(self, asid 0x10000)");
}

/* ---- shutdown: mode=legacy-shutdown, the run's last act ---- */

void legacy_shutdown_main(void);
void legacy_shutdown_main(void)
{
	long r;

	kprintf("DONE: legacy-shutdown\n");
	r = legacy4(SBI_EXT_LEGACY_SHUTDOWN, 0, 0, 0, 0);
	kprintf("FAIL: target/legacy/shutdown: legacy shutdown returned %ld\n", r);
	for (;;)
		wfi();
}

static const struct target_test tests[] = {
	{ "putchar_returns_zero", putchar_returns_zero, DEV_NONE },
	{ "getchar_without_input", getchar_without_input, DEV_NONE },
	{ "set_timer_fires_on_time", set_timer_fires_on_time, DEV_NONE },
	{ "set_timer_clears_pending", set_timer_clears_pending, DEV_NONE },
	{ "clear_ipi_reports_pending", clear_ipi_reports_pending, DEV_OPENSBI_CLEAR_IPI_RESULT },
	{ "send_ipi_to_self", send_ipi_to_self, DEV_NONE },
	{ "send_ipi_to_others", send_ipi_to_others, DEV_NONE },
	{ "send_ipi_null_is_all", send_ipi_null_is_all, DEV_NONE },
	{ "send_ipi_invalid_hart", send_ipi_invalid_hart, DEV_OPENSBI_HART_MASK },
	{ "mask_pointer_misaligned", mask_pointer_misaligned, DEV_OPENSBI_LEGACY_MASK_ALIGN },
	{ "mask_in_firmware_memory_faults", mask_in_firmware_memory_faults, DEV_NONE },
	{ "mask_unmapped_page_faults", mask_unmapped_page_faults, DEV_NONE },
	{ "mask_read_through_paging", mask_read_through_paging, DEV_NONE },
	{ "remote_fences_succeed", remote_fences_succeed, DEV_NONE },
	{ "remote_fence_invalid_hart", remote_fence_invalid_hart, DEV_OPENSBI_HART_MASK },
	{ "remote_sfence_range_past_top", remote_sfence_range_past_top, DEV_OPENSBI_RANGE_CHECK },
	{ "remote_sfence_asid_too_wide", remote_sfence_asid_too_wide, DEV_OPENSBI_ASID_WIDTH },
};
GROUP(legacy, tests);

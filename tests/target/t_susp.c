/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SUSP extension (ext-sys-suspend.adoc): SUSPEND_TO_RAM only when every
 * other hart is STOPPED (else DENIED), reserved and unimplemented
 * platform sleep types INVALID_PARAM, a resume_addr S-mode cannot execute
 * INVALID_ADDRESS; a suspend that succeeds resumes at resume_addr with the
 * registers of table "SUSP System Resume Register State" (a0 = hartid,
 * a1 = opaque, satp = 0, sstatus.SIE = 0), woken by the timer S-mode armed
 * before suspending.
 *
 * Every call goes through susp_call, which saves the callee-saved
 * registers first: a resume at susp_resume_entry comes back from
 * susp_call as a return would, so a call that wrongly suspends fails its
 * test instead of losing the run, and each call arms a wake-up timer so it
 * cannot sleep for ever.  OpenSBI 1.1 has no SUSP (SBI 2.0): INFO there.
 */
#include "testlib.h"

#define OPAQUE_SUSP 0x5355535030000000ul   /* "SUSP0" */
#define WAKE_US     10000

/* What susp_call saved and what the resume entry found. */
struct susp_ctx {
	unsigned long ra, sp, s[12];       /* restored at the resume */
	unsigned long a0, a1, satp, sstatus, time;   /* at the resume entry */
	unsigned long resumed;
};

struct susp_ctx *volatile susp_ctx_ptr;
long susp_call(unsigned long type, unsigned long addr, unsigned long opaque,
	       struct susp_ctx *ctx);
extern char susp_resume_entry[];

__asm__(
	"	.text\n"
	"	.balign 4\n"
	"	.globl susp_call\n"
	"susp_call:\n"
	"	sd ra, 0(a3)\n sd sp, 8(a3)\n"
	"	sd s0, 16(a3)\n sd s1, 24(a3)\n sd s2, 32(a3)\n sd s3, 40(a3)\n"
	"	sd s4, 48(a3)\n sd s5, 56(a3)\n sd s6, 64(a3)\n sd s7, 72(a3)\n"
	"	sd s8, 80(a3)\n sd s9, 88(a3)\n sd s10, 96(a3)\n sd s11, 104(a3)\n"
	"	sd zero, 152(a3)\n"
	"	lla t0, susp_ctx_ptr\n sd a3, 0(t0)\n"
	"	li a7, 0x53555350\n li a6, 0\n"
	"	ecall\n"
	"	ret\n"
	"	.balign 4\n"
	"	.globl susp_resume_entry\n"
	"susp_resume_entry:\n"
	"	lla t0, susp_ctx_ptr\n ld t0, 0(t0)\n"
	"	sd a0, 112(t0)\n sd a1, 120(t0)\n"
	"	csrr t1, satp\n sd t1, 128(t0)\n"
	"	csrr t1, sstatus\n sd t1, 136(t0)\n"
	"	csrr t1, time\n sd t1, 144(t0)\n"
	"	li t1, 1\n sd t1, 152(t0)\n"
	"	ld ra, 0(t0)\n ld sp, 8(t0)\n"
	"	ld s0, 16(t0)\n ld s1, 24(t0)\n ld s2, 32(t0)\n ld s3, 40(t0)\n"
	"	ld s4, 48(t0)\n ld s5, 56(t0)\n ld s6, 64(t0)\n ld s7, 72(t0)\n"
	"	ld s8, 80(t0)\n ld s9, 88(t0)\n ld s10, 96(t0)\n ld s11, 104(t0)\n"
	"	li a0, 1\n"
	"	ret\n");

_Static_assert(__builtin_offsetof(struct susp_ctx, a0) == 112, "susp_resume_entry layout");
_Static_assert(__builtin_offsetof(struct susp_ctx, resumed) == 152, "susp_call layout");

static struct susp_ctx ctx;

static bool susp_available(void)
{
	struct sbiret r = sbi_probe(SBI_EXT_SUSP);

	if (r.value == 1)
		return true;
	if (run.opensbi)
		test_not_applicable("OpenSBI 1.1 has no SUSP extension (SBI 2.0)");
	else
		check_failed("probe_extension(SUSP) returned %ld", r.value);
	return false;
}

/* After a resume the S-mode state is gone: trap vector and hart id back. */
static void restore_smode(void)
{
	csr_write(sscratch, plat.boot_hart);
	trap_init_hart();
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
}

/* system_suspend(type, addr) with a wake-up timer armed; returns the
 * error, or 1 when the hart suspended and resumed (ctx holds what the
 * resume entry saw). */
static long suspend_with_timer(unsigned long type, unsigned long addr, uint64_t *target,
			       bool sie_on)
{
	long r;

	irq_disable();
	csr_write(sie, SIE_STIE);
	*target = read_time() + us_to_ticks(WAKE_US);
	sbi_set_timer(*target);
	if (sie_on)
		irq_enable();
	r = susp_call(type, addr, OPAQUE_SUSP, &ctx);
	irq_disable();
	if (ctx.resumed)
		restore_smode();
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, 0);
	return r;
}

static long stop_call(unsigned long arg)
{
	(void)arg;
	irq_disable();
	return -100 + sbi_hart_stop().error;   /* returned: the stop failed */
}

/* Every other hart STOPPED, as SUSPEND_TO_RAM needs. */
static bool stop_others(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		long h = (long)plat.hart_ids[i], last;

		if (h == (long)plat.boot_hart ||
		    sbi_hart_status((unsigned long)h).value == SBI_HSM_STATE_STOPPED)
			continue;
		hart_post((unsigned long)h, stop_call, 0);
		if (!CHECK(hart_wait_state((unsigned long)h, SBI_HSM_STATE_STOPPED, 2000000, &last),
			   "hart %ld status %ld after hart_stop", h, last))
			return false;
	}
	return true;
}

static void expect_refused(unsigned long type, unsigned long addr, long want)
{
	uint64_t target;
	long r = suspend_with_timer(type, addr, &target, false);

	if (ctx.resumed)
		check_failed("system_suspend(%#lx, %#lx) suspended, expected %s", type, addr,
			     sbi_error_name(want));
	else
		CHECK_ERR(r, want, "system_suspend(%#lx, %#lx)", type, addr);
}

static void probe_susp(void)
{
	susp_available();
}

/* Reserved (1..0x7fffffff) and platform-specific (none implemented)
 * sleep types; bits 63:32 of a0 are not part of sleep_type. */
static void reserved_types_invalid_param(void)
{
	static const unsigned long types[] = { 1, 0x7fffffff, 0x80000000, 0xffffffff,
					       (1ul << 32) | 1 };
	size_t i;

	if (!susp_available() || !stop_others())
		return;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		expect_refused(types[i], (uintptr_t)susp_resume_entry, SBI_ERR_INVALID_PARAM);
}

static void resume_addr_invalid(void)
{
	const unsigned long addrs[] = { fw_base(), fw_end() - 4, ram_end(),
					(uintptr_t)susp_resume_entry + 1, 0 };
	size_t i;

	if (!susp_available() || !stop_others())
		return;
	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		expect_refused(SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM, addrs[i],
			       SBI_ERR_INVALID_ADDRESS);
}

/* "Entry requires all but the calling hart be in the HSM STOPPED state". */
static void denied_with_hart_started(void)
{
	if (!susp_available() || !need_secondaries())
		return;
	expect_refused(SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM, (uintptr_t)susp_resume_entry,
		       SBI_ERR_DENIED);
}

static volatile bool wake_secondary;

static long suspend_until_told(unsigned long arg)
{
	(void)arg;
	csr_write(sie, SIE_SSIE);
	while (!wake_secondary) {
		struct sbiret r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);

		if (r.error)
			return r.error;
		irq_enable();
		irq_disable();
	}
	return 0;
}

/* A suspended hart is not STOPPED either. */
static void denied_with_hart_suspended(void)
{
	long h = other_hart(0), last, result;

	unsigned long old = mailbox[h].entry.count;

	if (!susp_available() || !stop_others())
		return;
	CHECK_ERR(sbi_hart_start((unsigned long)h, (uintptr_t)secondary_entry, 0).error,
		  SBI_SUCCESS, "hart_start(%ld)", h);
	if (!CHECK(hart_wait_entry((unsigned long)h, old, 2000000), "hart %ld did not start", h))
		return;
	wake_secondary = false;
	hart_post((unsigned long)h, suspend_until_told, 0);
	if (CHECK(hart_wait_state((unsigned long)h, SBI_HSM_STATE_SUSPENDED, 2000000, &last),
		  "hart %ld status while suspended: %ld", h, last))
		expect_refused(SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM, (uintptr_t)susp_resume_entry,
			       SBI_ERR_DENIED);
	wake_secondary = true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sbi_send_ipi(1, (unsigned long)h);
	CHECK(hart_wait((unsigned long)h, 2000000, &result), "hart %ld did not wake", h);
}

/* The suspend itself: every other hart stopped, paging and SIE on, the
 * timer armed; the hart resumes at resume_addr once the timer fires. */
static void check_resume(unsigned long type)
{
	uint64_t target;
	long r, last;
	int i;

	if (!susp_available() || !stop_others())
		return;
	mmu_enable_identity();
	r = suspend_with_timer(type, (uintptr_t)susp_resume_entry, &target, true);
	if (!ctx.resumed)
		restore_smode();
	if (!CHECK(ctx.resumed, "system_suspend(%#lx) returned %s", type, sbi_error_name(r)))
		return;
	CHECK_EQ(ctx.a0, plat.boot_hart, "a0 at resume");
	CHECK_EQ(ctx.a1, OPAQUE_SUSP, "a1 at resume");
	CHECK_EQ(ctx.satp, 0, "satp at resume");
	CHECK_EQ(ctx.sstatus & SSTATUS_SIE, 0, "sstatus.SIE at resume");
	CHECK(ctx.time >= target, "resumed %lu ticks before the wake-up timer",
	      (unsigned long)(target - ctx.time));
	CHECK_EQ(sbi_hart_status(plat.boot_hart).value, SBI_HSM_STATE_STARTED,
		 "status of the resumed hart");
	for (i = 0; i < plat.nharts; i++)
		if (plat.hart_ids[i] != plat.boot_hart)
			CHECK(hart_wait_state(plat.hart_ids[i], SBI_HSM_STATE_STOPPED, 0, &last),
			      "hart %lu status %ld after the system resumed", plat.hart_ids[i],
			      last);
}

static void suspend_to_ram_resumes(void)
{
	check_resume(SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM);
}

static void sleep_type_is_32_bits(void)
{
	check_resume((1ul << 32) | SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM);
}

static void unknown_fid(void)
{
	if (!susp_available())
		return;
	CHECK_ERR(SBI0(SBI_EXT_SUSP, 1).error, SBI_ERR_NOT_SUPPORTED, "SUSP FID 1");
	CHECK_ERR(SBI0(SBI_EXT_SUSP, 0xFFFFFFFF).error, SBI_ERR_NOT_SUPPORTED,
		  "SUSP FID 0xFFFFFFFF");
}

/* The later groups find the secondaries started again. */
static void secondaries_restart(void)
{
	need_secondaries();
}

static const struct target_test tests[] = {
	{ "probe_susp", probe_susp, DEV_NONE },
	{ "unknown_fid", unknown_fid, DEV_NONE },
	{ "denied_with_hart_started", denied_with_hart_started, DEV_NONE },
	{ "denied_with_hart_suspended", denied_with_hart_suspended, DEV_NONE },
	{ "reserved_types_invalid_param", reserved_types_invalid_param, DEV_NONE },
	{ "resume_addr_invalid", resume_addr_invalid, DEV_NONE },
	{ "suspend_to_ram_resumes", suspend_to_ram_resumes, DEV_NONE },
	{ "sleep_type_is_32_bits", sleep_type_is_32_bits, DEV_NONE },
	{ "secondaries_restart", secondaries_restart, DEV_NONE },
};
GROUP(susp, tests);

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSM hart_suspend (ext-hsm.adoc): retentive suspend returns SUCCESS once an
 * interrupt arrives, non-retentive suspend resumes at resume_addr with the
 * registers of table "HSM Hart Resume Register State", reserved and
 * unimplemented types are INVALID_PARAM, a resume_addr S-mode cannot
 * execute is INVALID_ADDRESS.
 *
 * Calls that might wrongly suspend run with a timer armed as a safety net,
 * and those that might wrongly resume somewhere run on a secondary hart
 * with resume_addr = secondary_entry, so a firmware bug fails a test
 * instead of hanging the run.
 */
#include "testlib.h"

#define OPAQUE_RESUME 0x5245535530000000ul   /* "RESU0" */
#define OPAQUE_BAD    0xBAD0BAD0BAD0BAD0ul

/* Wake source for a suspending secondary: its own timer only. */
static void arm_wake_timer(uint64_t us)
{
	csr_write(sie, SIE_STIE);
	sbi_set_timer(read_time() + us_to_ticks(us));
}

static void disarm_wake_timer(void)
{
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, SIE_SSIE);
}

static void retentive_on_boot_hart(void)
{
	uint64_t target = read_time() + us_to_ticks(20000), after;
	unsigned long sie = csr_read(sie);
	struct sbiret r;

	irq_disable();
	csr_write(sie, SIE_STIE);
	sbi_set_timer(target);
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);
	after = read_time();
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, sie);
	CHECK_ERR(r.error, SBI_SUCCESS, "hart_suspend(retentive)");
	CHECK(after >= target, "retentive suspend returned %lu ticks before the wake-up timer",
	      (unsigned long)(target - after));
}

/* On a secondary: suspend until the timer (arg us) fires; returns the error,
 * or -100 when it returned before the timer. */
static long suspend_retentive_call(unsigned long us)
{
	uint64_t target = read_time() + us_to_ticks(us);
	struct sbiret r;

	arm_wake_timer(us);
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);
	disarm_wake_timer();
	if (r.error)
		return r.error;
	return read_time() >= target ? 0 : -100;
}

/* Retentive suspend on a secondary, woken by its own timer. */
static void retentive_timer_wakes_secondary(void)
{
	long h = other_hart(0), last, result = 0;

	if (!need_secondaries())
		return;
	if (!CHECK(hart_call(h, suspend_retentive_call, 20000, 2000000, &result),
		   "hart %ld did not come back", h))
		return;
	if (result == -100)
		check_failed("retentive suspend on hart %ld returned before its timer", h);
	else
		CHECK_ERR(result, SBI_SUCCESS, "hart_suspend(retentive) on hart %ld", h);
	CHECK(hart_wait_state(h, SBI_HSM_STATE_STARTED, 1000000, &last),
	      "hart %ld status after resuming: %ld", h, last);
}

static volatile bool ipi_wake_done;

/* Suspend with only SSIE enabled until the boot hart says it is done:
 * early wake-ups (an IPI already pending) just suspend again. */
static long suspend_until_ipi_call(unsigned long arg)
{
	(void)arg;
	csr_write(sie, SIE_SSIE);
	while (!ipi_wake_done) {
		struct sbiret r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);

		if (r.error)
			return r.error;
		irq_enable();   /* count the SSI */
		irq_disable();
	}
	return 0;
}

/* A suspended hart reports SUSPENDED, and an IPI wakes it. */
static void retentive_woken_by_ipi(void)
{
	long h = other_hart(0), last, result;

	if (!need_secondaries())
		return;
	ipi_wake_done = false;
	hart_post(h, suspend_until_ipi_call, 0);
	CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, 2000000, &last),
	      "hart %ld status while suspended: %ld", h, last);
	ipi_wake_done = true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sbi_send_ipi(1, h);
	if (CHECK(hart_wait(h, 2000000, &result), "IPI did not wake suspended hart %ld", h))
		CHECK_ERR(result, SBI_SUCCESS, "hart_suspend(retentive) on hart %ld", h);
	CHECK(hart_wait_state(h, SBI_HSM_STATE_STARTED, 1000000, &last),
	      "hart %ld status after resuming: %ld", h, last);
}

static long suspend_non_retentive_call(unsigned long opaque)
{
	struct sbiret r;

	/* Paging on and SIE = 1: the resume must still see satp = 0, SIE = 0. */
	mmu_enable_identity();
	arm_wake_timer(100000);
	irq_enable();
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_NON_RET_DEFAULT, (uintptr_t)secondary_entry, opaque);
	irq_disable();
	csr_write(satp, 0);
	__asm__ volatile("sfence.vma" ::: "memory");
	disarm_wake_timer();
	return r.error ? r.error : -100;   /* it must not return */
}

static void non_retentive_resumes(void)
{
	long h = other_hart(1) >= 0 ? other_hart(1) : other_hart(0), last;
	struct hart_entry_info *e;
	unsigned long old;

	if (!need_secondaries())
		return;
	e = &mailbox[h].entry;
	old = e->count;
	hart_post(h, suspend_non_retentive_call, OPAQUE_RESUME ^ h);
	if (!CHECK(hart_wait_entry(h, old, 2000000), "hart %ld did not resume", h)) {
		long result;

		if (hart_wait(h, 0, &result))
			check_failed("non-retentive suspend returned %s", sbi_error_name(result));
		return;
	}
	check_entry_state(e, h, OPAQUE_RESUME ^ h, "at resume");
	CHECK(hart_wait_state(h, SBI_HSM_STATE_STARTED, 1000000, &last),
	      "hart %ld status after resuming: %ld", h, last);
}

/* On a secondary: hart_suspend(type, addr) with a timer safety net;
 * returns the error code (0: it suspended and came back). */
struct suspend_args {
	unsigned long type, addr;
};
static struct suspend_args suspend_args;

static long suspend_with_args_call(unsigned long arg)
{
	struct sbiret r;

	(void)arg;
	arm_wake_timer(20000);
	r = sbi_hart_suspend(suspend_args.type, suspend_args.addr, OPAQUE_BAD);
	disarm_wake_timer();
	return r.error;
}

static void expect_suspend_refused(unsigned long type, unsigned long addr, long want)
{
	long h = other_hart(0), result = 0;
	unsigned long old;

	if (!need_secondaries())
		return;
	old = mailbox[h].entry.count;
	suspend_args.type = type;
	suspend_args.addr = addr;
	if (!CHECK(hart_call(h, suspend_with_args_call, 0, 2000000, &result),
		   "hart_suspend(%#lx, %#lx) on hart %ld did not return", type, addr, h))
		return;
	if (mailbox[h].entry.count != old) {
		check_failed("hart_suspend(%#lx, %#lx) suspended and resumed at resume_addr",
			     type, addr);
		return;
	}
	CHECK_ERR(result, want, "hart_suspend(%#lx, %#lx)", type, addr);
}

static void reserved_types(void)
{
	static const unsigned long types[] = { 0x1, 0x0FFFFFFF, 0x80000001, 0x8FFFFFFF };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		expect_suspend_refused(types[i], (uintptr_t)secondary_entry, SBI_ERR_INVALID_PARAM);
}

static void platform_types_unimplemented(void)
{
	static const unsigned long types[] = { 0x10000000, 0x7FFFFFFF, 0x90000000, 0xFFFFFFFF };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		expect_suspend_refused(types[i], (uintptr_t)secondary_entry, SBI_ERR_INVALID_PARAM);
}

static void resume_addr_in_firmware(void)
{
	expect_suspend_refused(SBI_HSM_SUSPEND_NON_RET_DEFAULT, fw_base(),
			       SBI_ERR_INVALID_ADDRESS);
	expect_suspend_refused(SBI_HSM_SUSPEND_NON_RET_DEFAULT, fw_end() - 4,
			       SBI_ERR_INVALID_ADDRESS);
}

static void resume_addr_outside_ram(void)
{
	expect_suspend_refused(SBI_HSM_SUSPEND_NON_RET_DEFAULT, ram_end(),
			       SBI_ERR_INVALID_ADDRESS);
}

static volatile unsigned long fence_wake_sip;

/* Suspend with SSIE|STIE enabled and no timer deadline: only the IPI may
 * wake it. */
static long suspend_ssie_stie_call(unsigned long arg)
{
	struct sbiret r;

	(void)arg;
	sbi_set_timer(-1ULL);
	csr_write(sie, SIE_SSIE | SIE_STIE);
	r = sbi_hart_suspend(SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0);
	fence_wake_sip = csr_read(sip);
	csr_write(sie, 0);
	csr_clear(sip, SIP_SSIP);
	return r.error;
}

/*
 * A remote fence reaches a suspended hart as a firmware-internal IPI: the
 * hart runs the fence and stays suspended (tracesbi resumes only for an
 * interrupt S-mode enabled), and no timer interrupt is made up on the way.
 */
static void fence_does_not_wake_suspended(void)
{
	long h = other_hart(0), last, result;

	if (!need_secondaries())
		return;
	hart_post(h, suspend_ssie_stie_call, 0);
	if (!CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, 2000000, &last),
		   "hart %ld status while suspended: %ld", h, last))
		return;
	CHECK_ERR(sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_REMOTE_SFENCE_VMA, 1UL << h, 0, 0, 0, 0, 0).error,
		  SBI_SUCCESS,
		  "remote_sfence_vma to the suspended hart %ld", h);
	delay_us(2000);
	CHECK(hart_wait_state(h, SBI_HSM_STATE_SUSPENDED, 0, &last),
	      "the fence woke hart %ld (status %ld)", h, last);
	sbi_send_ipi(1, h);
	if (CHECK(hart_wait(h, 2000000, &result), "IPI did not wake suspended hart %ld", h))
		CHECK_ERR(result, SBI_SUCCESS, "hart_suspend(retentive) on hart %ld", h);
	CHECK(!(fence_wake_sip & SIP_STIP), "hart %ld woke with a timer interrupt it never "
	      "set (sip %lx)", h, fence_wake_sip);
}

static const struct target_test tests[] = {
	{ "retentive_on_boot_hart", retentive_on_boot_hart, DEV_NONE },
	{ "retentive_timer_wakes_secondary", retentive_timer_wakes_secondary, DEV_NONE },
	{ "retentive_woken_by_ipi", retentive_woken_by_ipi, DEV_NONE },
	{ "fence_does_not_wake_suspended", fence_does_not_wake_suspended,
	  DEV_OPENSBI_SUSPEND_WAKES },
	{ "non_retentive_resumes", non_retentive_resumes, DEV_NONE },
	{ "reserved_types", reserved_types, DEV_NONE },
	{ "platform_types_unimplemented", platform_types_unimplemented, DEV_OPENSBI_SUSPEND_TYPES },
	{ "resume_addr_in_firmware", resume_addr_in_firmware, DEV_NONE },
	{ "resume_addr_outside_ram", resume_addr_outside_ram, DEV_OPENSBI_START_ADDR },
};
GROUP(suspend, tests);

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSM extension (ext-hsm.adoc): hart_get_status, hart_start (register state
 * at entry, error codes), hart_stop and restart.  Suspend is in t_suspend.c.
 * The tests run in order: the secondaries are stopped until start_* starts
 * them, and are left started and parked for the groups after this one.
 */
#include "testlib.h"

#define OPAQUE_START   0x0BADC0DE12345678ul
#define OPAQUE_RESTART 0x0123456789ABCDEFul

static const unsigned long invalid_harts_extra[] = { 1000, 0x7FFFFFFF, (unsigned long)-1 };

static void status_at_boot(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long want = h == plat.boot_hart ? SBI_HSM_STATE_STARTED : SBI_HSM_STATE_STOPPED;
		struct sbiret r = sbi_hart_status(h);

		if (CHECK_ERR(r.error, SBI_SUCCESS, "hart_get_status(%lu)", h))
			CHECK_EQ(r.value, want, "hart_get_status(%lu)", h);
	}
}

static void status_invalid_hart(void)
{
	size_t i;

	CHECK_ERR(sbi_hart_status(plat.max_hart_id + 1).error, SBI_ERR_INVALID_PARAM,
		  "hart_get_status(%lu)", plat.max_hart_id + 1);
	for (i = 0; i < sizeof(invalid_harts_extra) / sizeof(invalid_harts_extra[0]); i++)
		CHECK_ERR(sbi_hart_status(invalid_harts_extra[i]).error, SBI_ERR_INVALID_PARAM,
			  "hart_get_status(%#lx)", invalid_harts_extra[i]);
}

static void start_invalid_hart(void)
{
	size_t i;

	CHECK_ERR(sbi_hart_start(plat.max_hart_id + 1, (uintptr_t)secondary_entry, 0).error,
		  SBI_ERR_INVALID_PARAM, "hart_start(%lu)", plat.max_hart_id + 1);
	for (i = 0; i < sizeof(invalid_harts_extra) / sizeof(invalid_harts_extra[0]); i++)
		CHECK_ERR(sbi_hart_start(invalid_harts_extra[i], (uintptr_t)secondary_entry, 0).error,
			  SBI_ERR_INVALID_PARAM, "hart_start(%#lx)", invalid_harts_extra[i]);
}

/* hart_start(victim, addr) must fail with INVALID_ADDRESS and leave it
 * stopped. */
static void expect_start_refused(unsigned long addr)
{
	long victim = other_hart(0);
	struct sbiret r;

	if (victim < 0 && plat.nharts < 2) {
		test_not_applicable("needs a second hart; the machine has one");
		return;
	}
	if (!CHECK(victim >= 0, "no secondary hart"))
		return;
	r = sbi_hart_start(victim, addr, 0);
	CHECK_ERR(r.error, SBI_ERR_INVALID_ADDRESS, "hart_start(%ld, %#lx)", victim, addr);
	r = sbi_hart_status(victim);
	CHECK(!r.error && r.value == SBI_HSM_STATE_STOPPED,
	      "hart %ld after a refused start: status %ld (error %s)", victim, r.value,
	      sbi_error_name(r.error));
}

static void start_addr_in_firmware(void)
{
	expect_start_refused(fw_base());
	expect_start_refused(fw_end() - 4);
}

static void start_addr_outside_ram(void)
{
	expect_start_refused(ram_end());
	expect_start_refused(ram_end() + 0x100000);
	expect_start_refused(plat.ram_base - 0x1000);
}

/* An odd address is no instruction address: the hart could only fault. */
static void start_addr_misaligned(void)
{
	expect_start_refused((uintptr_t)__image_start + 1);
	expect_start_refused((uintptr_t)__image_start + 3);
}

/* Table "HSM Hart Start Register State": satp = 0, sstatus.SIE = 0,
 * a0 = hartid, a1 = opaque. */
static void start_register_state(void)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i], old = mailbox[h].entry.count;
		struct hart_entry_info *e = &mailbox[h].entry;
		struct sbiret r;
		char when[40];
		long last;

		if (h == plat.boot_hart)
			continue;
		r = sbi_hart_start(h, (uintptr_t)secondary_entry, OPAQUE_START ^ h);
		if (!CHECK_ERR(r.error, SBI_SUCCESS, "hart_start(%lu)", h))
			continue;
		if (!CHECK(hart_wait_entry(h, old, 2000000), "hart %lu never entered", h))
			continue;
		ksnprintf(when, sizeof(when), "of hart %lu at entry", h);
		check_entry_state(e, h, OPAQUE_START ^ h, when);
		CHECK(hart_wait_state(h, SBI_HSM_STATE_STARTED, 1000000, &last),
		      "hart %lu status %ld after it started", h, last);
	}
}

static void start_already_started(void)
{
	int i;

	if (!need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];

		CHECK_ERR(sbi_hart_start(h, (uintptr_t)secondary_entry, 0).error,
			  SBI_ERR_ALREADY_AVAILABLE, "hart_start(%lu) of a started hart", h);
	}
}

static long report_hartid(unsigned long arg)
{
	(void)arg;
	return (long)csr_read(sscratch);
}

static long report_spec_version(unsigned long arg)
{
	(void)arg;
	return SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION).value;
}

/* The secondaries are usable: they run calls, and SBI answers them the same. */
static void secondaries_answer(void)
{
	long spec = SBI0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION).value;
	int i;

	if (!need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long result;

		if (h == plat.boot_hart)
			continue;
		if (CHECK(hart_call(h, report_hartid, 0, 2000000, &result),
			  "hart %lu did not run a call", h))
			CHECK_EQ(result, h, "hart id seen by a call on hart %lu", h);
		if (CHECK(hart_call(h, report_spec_version, 0, 2000000, &result),
			  "hart %lu did not run a call", h))
			CHECK_EQ(result, spec, "get_spec_version on hart %lu", h);
	}
}

static long stop_self(unsigned long arg)
{
	struct sbiret r;

	(void)arg;
	irq_disable();   /* "must be called with supervisor-mode interrupts disabled" */
	mmu_enable_identity();   /* the restart must still begin with satp = 0 */
	if (!csr_read(satp))
		return -101;
	r = sbi_hart_stop();
	return r.error ? r.error : -100;   /* returned: the stop failed */
}

static void stop_and_restart(void)
{
	long victim = other_hart(0), last, result = 0;
	struct hart_entry_info *e;
	unsigned long old;

	if (!need_secondaries())
		return;
	e = &mailbox[victim].entry;
	old = e->count;
	hart_post(victim, stop_self, 0);
	if (!CHECK(hart_wait_state(victim, SBI_HSM_STATE_STOPPED, 2000000, &last),
		   "hart %ld status %ld after hart_stop", victim, last)) {
		if (hart_wait(victim, 0, &result))
			check_failed(result == -101 ? "cannot enable paging before the stop" :
				     "hart_stop returned %s", sbi_error_name(result));
		return;
	}
	CHECK_EQ(e->count, old, "entries of hart %ld while stopped", victim);
	CHECK_ERR(sbi_hart_start(victim, (uintptr_t)secondary_entry, OPAQUE_RESTART).error,
		  SBI_SUCCESS, "hart_start(%ld) after hart_stop", victim);
	if (!CHECK(hart_wait_entry(victim, old, 2000000), "hart %ld did not restart", victim))
		return;
	check_entry_state(e, victim, OPAQUE_RESTART, "at restart");
	CHECK(hart_wait_state(victim, SBI_HSM_STATE_STARTED, 1000000, &last),
	      "status %ld after restart", last);
	CHECK(hart_call(victim, report_hartid, 0, 2000000, &result) && result == victim,
	      "restarted hart %ld does not run calls", victim);
}

static const struct target_test tests[] = {
	{ "status_at_boot", status_at_boot, DEV_NONE },
	{ "status_invalid_hart", status_invalid_hart, DEV_NONE },
	{ "start_invalid_hart", start_invalid_hart, DEV_NONE },
	{ "start_addr_in_firmware", start_addr_in_firmware, DEV_NONE },
	{ "start_addr_outside_ram", start_addr_outside_ram, DEV_OPENSBI_START_ADDR },
	{ "start_addr_misaligned", start_addr_misaligned, DEV_OPENSBI_START_ADDR },
	{ "start_register_state", start_register_state, DEV_NONE },
	{ "start_already_started", start_already_started, DEV_NONE },
	{ "secondaries_answer", secondaries_answer, DEV_NONE },
	{ "stop_and_restart", stop_and_restart, DEV_NONE },
};
GROUP(hsm, tests);

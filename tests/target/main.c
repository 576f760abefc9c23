/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The test kernel: runs the test groups on the boot hart and prints one
 * line per test, then the done marker, then shuts down through SRST.
 *
 * bootargs (QEMU -append): fw=opensbi  skip and list OpenSBI's deviations
 *                          groups=a,b  run only these groups
 *                          tests=a,b   ... and of them only these tests
 *                          variant=X   report groups as <group>-X
 *                          expect-sstc=0|1  what the run's -cpu provides
 *                          mode=reboot the SRST reboot test instead
 *                          mode=mfault fault=N  make the fault-injection
 *                                      build of tracesbi fault (reboot.c)
 *                          mode=legacy-shutdown  power off through the
 *                                      legacy shutdown (EID 0x08)
 *                          mode=sysfail  a "system failure" shutdown (the
 *                                      runner checks QEMU's exit status)
 *                          mode=exit-code code=N  end as a kvm-unit-tests
 *                                      program with exit code N (reboot.c)
 *                          mode=hostile seed=N calls=N  the hostile SBI
 *                                      caller on every hart (hostile.c)
 *                          mode=harts seconds=N  many harts hammering IPIs,
 *                                      fences, HSM and the PMU (harts_soak.c)
 *                          check-deviations=1  run the deviating tests too
 *                                      (INFO lines saying whether they differ)
 *                          expect-sscofpmf=0|1  what the run's -cpu provides
 *                          no-reset=1  the board has no reset device: SRST
 *                                      must be absent (t_srst.c)
 *                          icount=1    QEMU runs with -icount (exact instret)
 *                          verbose=1   print every failed check, not just
 *                                      the first of each test
 */
#include "testlib.h"

struct run_state run;

extern const struct test_group group_base, group_legacy, group_pmp, group_time,
	group_hsm, group_ipi, group_rfence, group_dbcn, group_suspend, group_srst,
	group_redirect, group_pmu, group_trace, group_ctr;
extern const struct test_group group_fwft, group_susp, group_dbtr, group_sse, group_tci;

/* Order matters: HSM checks that the secondaries are stopped at boot and
 * starts them for TIME/IPI/RFENCE/legacy/PMU (PMU stops, restarts and
 * suspends one; FWFT and SUSP stop and restart them),
 * trace programs the boot hart's trace components from one of them, suspend
 * suspends and resumes them, SRST's invalid-parameter calls come last. */
static const struct test_group *const groups[] = {
	&group_base, &group_pmp, &group_redirect, &group_hsm, &group_time,
	&group_ipi, &group_rfence, &group_legacy, &group_pmu, &group_trace, &group_tci, &group_dbcn,
	&group_fwft, &group_dbtr, &group_sse, &group_susp,
	&group_suspend,
	&group_ctr, &group_srst,
};

static const char *const deviation_text[DEV_COUNT] = {
	[DEV_OPENSBI_SPEC_VERSION] = "OpenSBI 1.1 implements SBI spec 1.0",
	[DEV_OPENSBI_IMPL_ID] = "OpenSBI's implementation id is 1",
	[DEV_OPENSBI_NO_DBCN] = "OpenSBI 1.1 has no DBCN extension (SBI 2.0)",
	[DEV_OPENSBI_HART_MASK] = "OpenSBI 1.1 ignores invalid hart ids in a hart mask",
	[DEV_OPENSBI_MASK_BASE] = "OpenSBI 1.1 refuses an invalid hart_mask_base even when hart_mask is 0",
	[DEV_OPENSBI_START_ADDR] = "OpenSBI 1.1 accepts start/resume addresses outside RAM (it only checks its own regions)",
	[DEV_OPENSBI_SUSPEND_TYPES] = "OpenSBI 1.1 returns NOT_SUPPORTED for unimplemented platform suspend types",
	[DEV_OPENSBI_LEGACY_A1] = "OpenSBI 1.1 zeroes a1 on an unimplemented legacy EID (legacy calls preserve every register but a0)",
	[DEV_OPENSBI_RANGE_CHECK] = "OpenSBI 1.1 accepts remote fence ranges that run past the top of the address space",
	[DEV_OPENSBI_SUSPEND_WAKES] = "OpenSBI 1.1 ends a retentive suspend on the IPI of a remote fence (allowed: S-mode must expect early returns)",
	[DEV_OPENSBI_PMU_LAYOUT] = "OpenSBI 1.1 numbers counters by CSR (counter 1 is time) and has 16 firmware counters",
	[DEV_OPENSBI_PMU_FLAGS] = "OpenSBI 1.1 accepts reserved config_matching, counter_start and counter_stop flag bits",
	[DEV_OPENSBI_PMU_SETS] = "OpenSBI 1.1 lets a counter set wrap past index 2^64 - 1, and answers an empty set with SUCCESS (config_matching) or INVALID_PARAM (start/stop)",
	[DEV_OPENSBI_PMU_EVENT_RULES] = "OpenSBI 1.1 takes reserved firmware event codes and non-zero event_data where it must be 0, needs a DT map for raw events and lets cycle/instret take other events",
	[DEV_OPENSBI_PMU_STATES] = "OpenSBI 1.1 misses ALREADY_STARTED/ALREADY_STOPPED for some sets that have such a counter, and a RESET stop of a stopped counter succeeds",
	[DEV_OPENSBI_PMU_STOPPED_VALUE] = "OpenSBI 1.1 does not write a stopped HPM counter's value back: QEMU 7.2 then reads it as the value it was started with",
	[DEV_OPENSBI_PMU_SUSPEND] = "OpenSBI 1.1 leaves HPM counters stopped after a non-retentive suspend",
	[DEV_OPENSBI_PMU_SELF] = "OpenSBI 1.1 counts IPIs and remote fences to the calling hart itself as sent",
	[DEV_OPENSBI_PMU_MATCHING] = "OpenSBI 1.1 picks the highest free counter, never picks a configured counter again without SKIP_MATCH, SKIP_MATCH only reuses a configured counter, and without Sscofpmf cycles and instructions go to cycle/instret whatever the set",
	[DEV_OPENSBI_PMU_QEMU_REMAINDER] = "OpenSBI 1.1 starts a counter without clearing QEMU 7.2's overflow remainder: after a counting start (2^63 + 1) on a counter, a sampling start on it raises no LCOFI for about the machine's uptime",
	[DEV_OPENSBI_PMU_NO_SBI2] = "OpenSBI 1.1 implements PMU functions 0-5 (SBI 0.3): no fw_read_hi, snapshot or event_get_info",
	[DEV_OPENSBI_PMU_EVENTS] = "OpenSBI 1.1 has no implementation-specific or platform firmware events",
	[DEV_OPENSBI_NO_TRACESBI_EXT] = "tracesbi's own extension (mhpmevent read-back) is not in OpenSBI",
	[DEV_OPENSBI_IMPL_VERSION] = "OpenSBI reports its own implementation version",
	[DEV_OPENSBI_NO_TRACE] = "OpenSBI 1.1 has no emulated trace components (no riscv,trace-component node)",
	[DEV_OPENSBI_VECTORED_STVEC] = "OpenSBI 1.1 sets mepc = stvec, MODE bit included, when it redirects a trap; allowed where mepc[0] is always 0, but QEMU 7.2 keeps mepc[0], so with a Vectored stvec the hart runs from BASE + 1",
	[DEV_OPENSBI_HS_TRAP_STATE] = "OpenSBI 1.1 leaves hstatus.SPV, hstatus.GVA and htval as HS-mode left them when it redirects a trap taken with V = 0 (a bug: a trap into HS-mode sets SPV = V, GVA = 0 without a guest address, htval = 0)",
	[DEV_OPENSBI_CLEAR_IPI_RESULT] = "OpenSBI 1.1's legacy clear_ipi returns 0 even when an IPI was pending (the spec asks for a positive value)",
	[DEV_OPENSBI_LEGACY_MASK_ALIGN] = "OpenSBI 1.1 reads a legacy hart mask through a misaligned pointer (tracesbi: INVALID_ADDRESS)",
	[DEV_OPENSBI_ASID_WIDTH] = "OpenSBI 1.1 accepts an ASID wider than the hart's ASIDLEN in remote_sfence_vma_asid",
};

static char fail_reason[200];
static bool test_failed;
static char na_reason[160];
static bool test_na;
static char variant[24];
static char group_filter[128];
static char test_filter[128];

bool check_failed(const char *fmt, ...)
{
	va_list ap;

	if (run.verbose) {
		char all[200];

		va_start(ap, fmt);
		kvsnprintf(all, sizeof(all), fmt, ap);
		va_end(ap);
		kprintf("  check failed: %s\n", all);
	}
	if (!test_failed) {
		va_start(ap, fmt);
		kvsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
		va_end(ap);
		test_failed = true;
	}
	return false;
}

static bool check_vfail(const char *prefix_fmt, va_list ap, const char *suffix)
{
	char what[120];

	kvsnprintf(what, sizeof(what), prefix_fmt, ap);
	return check_failed("%s: %s", what, suffix);
}

void test_not_applicable(const char *fmt, ...)
{
	va_list ap;

	if (test_na)
		return;
	va_start(ap, fmt);
	kvsnprintf(na_reason, sizeof(na_reason), fmt, ap);
	va_end(ap);
	test_na = true;
}

bool check_err(long got, long want, const char *fmt, ...)
{
	char suffix[80];
	va_list ap;
	bool r;

	if (got == want)
		return true;
	ksnprintf(suffix, sizeof(suffix), "expected %s, got %s", sbi_error_name(want),
		  sbi_error_name(got));
	va_start(ap, fmt);
	r = check_vfail(fmt, ap, suffix);
	va_end(ap);
	return r;
}

bool check_eq(unsigned long got, unsigned long want, const char *fmt, ...)
{
	char suffix[80];
	va_list ap;
	bool r;

	if (got == want)
		return true;
	ksnprintf(suffix, sizeof(suffix), "expected %#lx, got %#lx", want, got);
	va_start(ap, fmt);
	r = check_vfail(fmt, ap, suffix);
	va_end(ap);
	return r;
}

bool need_secondaries(void)
{
	char why[120];

	/* One hart is a machine (spike's), not a failure: not applicable. */
	if (plat.nharts < 2) {
		test_not_applicable("needs a second hart; the machine has one");
		return false;
	}
	if (secondaries_start_all(why, sizeof(why)))
		return true;
	return check_failed("cannot start the secondary harts: %s", why);
}

long other_hart(int nth)
{
	int i;

	for (i = plat.nharts - 1; i >= 0; i--)
		if (plat.hart_ids[i] != plat.boot_hart && nth-- == 0)
			return (long)plat.hart_ids[i];
	return -1;
}

static long nop_call(unsigned long arg)
{
	return (long)arg;
}

void check_secondaries_alive(const char *after)
{
	int i;

	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long result = 0;

		if (h != plat.boot_hart)
			CHECK(hart_call(h, nop_call, h + 7, 2000000, &result) &&
			      result == (long)h + 7, "hart %lu stopped answering after %s", h, after);
	}
}

static long stop_call(unsigned long arg)
{
	(void)arg;
	irq_disable();
	return -100 + sbi_hart_stop().error;   /* returned: the stop failed */
}

bool stop_hart(unsigned long h)
{
	long last;

	hart_post(h, stop_call, 0);
	return CHECK(hart_wait_state(h, SBI_HSM_STATE_STOPPED, 2000000, &last),
		     "hart %lu status %ld after hart_stop", h, last);
}

bool start_hart(unsigned long h, unsigned long opaque)
{
	unsigned long old = mailbox[h].entry.count;

	if (!CHECK_ERR(sbi_hart_start(h, (uintptr_t)secondary_entry, opaque).error, SBI_SUCCESS,
		       "hart_start(%lu)", h))
		return false;
	return CHECK(hart_wait_entry(h, old, 2000000), "hart %lu did not restart", h);
}

bool restart_hart(unsigned long h, unsigned long opaque)
{
	return stop_hart(h) && start_hart(h, opaque);
}

void check_entry_state(const struct hart_entry_info *e, unsigned long hartid,
		       unsigned long opaque, const char *when)
{
	CHECK_EQ(e->a0, hartid, "a0 %s", when);
	CHECK_EQ(e->a1, opaque, "a1 %s", when);
	CHECK_EQ(e->satp, 0, "satp %s", when);
	CHECK_EQ(e->sstatus & SSTATUS_SIE, 0, "sstatus.SIE %s", when);
}

/* Whether `name` is in the comma list `p` (an empty list: every name). */
static bool listed(const char *p, const char *name)
{
	size_t n = strlen(name);

	if (!*p)
		return true;
	while (*p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		while (*p && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	return false;
}

static void run_one(const struct test_group *g, const struct target_test *t)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long unexpected = rec->unexpected;
	char name[96];

	ksnprintf(name, sizeof(name), "target/%s%s%s/%s", g->name, *variant ? "-" : "",
		  variant, t->name);
	bool deviates = run.opensbi && t->deviation != DEV_NONE;

	if (deviates && !run.check_deviations) {
		kprintf("INFO: %s: not run, known OpenSBI deviation: %s\n", name,
			deviation_text[t->deviation]);
		return;
	}
	/* Lets the runner name the test a hung run was in. */
	kprintf("RUN: %s\n", name);
	test_failed = false;
	fail_reason[0] = '\0';
	test_na = false;
	t->run();
	if (rec->unexpected != unexpected)
		check_failed("unexpected trap scause=%#lx sepc=%#lx", rec->last_unexpected_cause,
			     rec->last_unexpected_epc);
	if (deviates)
		kprintf("INFO: %s: known OpenSBI deviation (%s) checked: %s%s\n", name,
			deviation_text[t->deviation], test_failed ? "differs: " : "no difference",
			fail_reason);
	else if (test_failed)
		kprintf("FAIL: %s: %s\n", name, fail_reason);
	else if (test_na)
		kprintf("INFO: %s: not applicable here: %s\n", name, na_reason);
	else
		kprintf("PASS: %s\n", name);
}

static void read_run_options(void)
{
	char v[24];

	run.opensbi = bootarg("fw", v, sizeof(v)) && !strcmp(v, "opensbi");
	run.check_deviations = bootarg_flag("check-deviations");
	run.expect_sstc = bootarg("expect-sstc", v, sizeof(v)) ? v[0] == '1' : -1;
	run.expect_sscofpmf = bootarg("expect-sscofpmf", v, sizeof(v)) ? v[0] == '1' : -1;
	run.icount = bootarg_flag("icount");
	run.no_reset = bootarg_flag("no-reset");
	run.verbose = bootarg_flag("verbose");
	if (!bootarg("variant", variant, sizeof(variant)))
		variant[0] = '\0';
	if (!bootarg("groups", group_filter, sizeof(group_filter)))
		group_filter[0] = '\0';
	if (!bootarg("tests", test_filter, sizeof(test_filter)))
		test_filter[0] = '\0';
	{
		uint64_t cmp;

		run.sstc = probe_csr_stimecmp(&cmp);
	}
}

void reboot_test_main(void);
void sysfail_test_main(void);
void exit_code_test_main(void);
void mfault_test_main(unsigned long kind);
void hostile_main(void);
void harts_soak_main(void);
void legacy_shutdown_main(void);

void boot_main(unsigned long hartid, uintptr_t dtb);
void boot_main(unsigned long hartid, uintptr_t dtb)
{
	size_t gi;
	int ti;

	csr_write(sscratch, hartid);
	trap_init_hart();
	csr_write(sie, 0);
	if (platform_init(hartid, dtb))
		sbi_shutdown();
	read_run_options();
	{
		char mode[16];

		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "reboot"))
			reboot_test_main();
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "sysfail"))
			sysfail_test_main();
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "exit-code"))
			exit_code_test_main();
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "mfault") &&
		    bootarg("fault", mode, sizeof(mode)))
			mfault_test_main((unsigned long)(mode[0] - '0'));
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "hostile"))
			hostile_main();
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "harts"))
			harts_soak_main();
		if (bootarg("mode", mode, sizeof(mode)) && !strcmp(mode, "legacy-shutdown"))
			legacy_shutdown_main();
	}
	kprintf("target-tests: boot hart %lu, %d harts, RAM %lx+%lx, firmware %lx..%lx, "
		"timebase %lu Hz, sstc %d, bootargs \"%s\"\n",
		hartid, plat.nharts, (unsigned long)plat.ram_base, (unsigned long)plat.ram_size,
		(unsigned long)fw_base(), (unsigned long)fw_end(),
		(unsigned long)plat.timebase_hz, run.sstc, plat.bootargs);
	for (gi = 0; gi < sizeof(groups) / sizeof(groups[0]); gi++) {
		if (!listed(group_filter, groups[gi]->name))
			continue;
		for (ti = 0; ti < groups[gi]->count; ti++)
			if (listed(test_filter, groups[gi]->tests[ti].name))
				run_one(groups[gi], &groups[gi]->tests[ti]);
	}
	kprintf("DONE: target-tests%s%s\n", *variant ? " " : "", variant);
	sbi_shutdown();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TIME extension (ext-time.adoc): set_timer delivers a supervisor timer
 * interrupt at the requested `time`, a value in the future clears a pending
 * one, (uint64_t)-1 cancels.  The runner runs this group with and without
 * Sstc (the firmware then drives STIP itself from the M-mode timer).
 */
#include "testlib.h"

#define LATE_LIMIT_US 1000000   /* QEMU on a loaded host can be slow */

static bool stip(void)
{
	return csr_read(sip) & SIP_STIP;
}

/* Bounded poll of sip.STIP: wfi cannot be used when the awaited interrupt
 * is the only wake-up source and might never come. */
static bool wait_stip(bool want, uint64_t timeout_us)
{
	uint64_t deadline = read_time() + us_to_ticks(timeout_us);

	while (stip() != want)
		if (read_time() > deadline)
			return false;
	return true;
}

static void quiesce_timer(void)
{
	irq_disable();
	csr_clear(sie, SIE_STIE);
	sbi_set_timer(UINT64_MAX);
}

/* Take timer interrupts (sie.STIE, sstatus.SIE) and wfi until this hart has
 * taken one more than `before` or `time` reaches `limit`. */
static void wait_for_sti(const struct trap_record *rec, unsigned long before, uint64_t limit)
{
	csr_set(sie, SIE_STIE);
	irq_enable();
	while (rec->sti_count == before && read_time() < limit)
		wfi();
	irq_disable();
}

static void sstc_detection(void)
{
	if (run.expect_sstc < 0) {
		check_failed("the runner did not say whether the cpu has Sstc (expect-sstc=)");
		return;
	}
	CHECK(run.sstc == (run.expect_sstc == 1),
	      "stimecmp readable from S-mode: %d, but the cpu %s Sstc", run.sstc,
	      run.expect_sstc ? "has" : "lacks");
}

static void interrupt_delivered_on_time(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before = rec->sti_count;
	uint64_t target = read_time() + us_to_ticks(10000);
	uint64_t limit = target + us_to_ticks(LATE_LIMIT_US);
	struct sbiret r;

	quiesce_timer();
	r = sbi_set_timer(target);
	CHECK_ERR(r.error, SBI_SUCCESS, "set_timer(now + 10 ms)");
	wait_for_sti(rec, before, limit);
	quiesce_timer();
	if (!CHECK(rec->sti_count == before + 1, "expected 1 timer interrupt, got %lu",
		   rec->sti_count - before))
		return;
	CHECK(rec->sti_time >= target, "interrupt %lu ticks before the requested time",
	      (unsigned long)(target - rec->sti_time));
}

static void past_value_pends_at_once(void)
{
	quiesce_timer();
	CHECK_ERR(sbi_set_timer(0).error, SBI_SUCCESS, "set_timer(0)");
	CHECK(wait_stip(true, 100000), "sip.STIP not set within 100 ms of set_timer(0)");
	quiesce_timer();
}

static void minus_one_clears_pending(void)
{
	quiesce_timer();
	sbi_set_timer(read_time());
	if (!CHECK(wait_stip(true, 100000), "sip.STIP not set after set_timer(now)"))
		return;
	CHECK_ERR(sbi_set_timer(UINT64_MAX).error, SBI_SUCCESS, "set_timer(-1)");
	CHECK(!stip(), "sip.STIP still set after set_timer(-1)");
}

/* "must clear the pending timer interrupt bit when stime_value is set to
 * some time in the future, regardless of whether timer interrupts are
 * masked" */
static void future_value_clears_pending(void)
{
	quiesce_timer();
	sbi_set_timer(read_time());
	if (!CHECK(wait_stip(true, 100000), "sip.STIP not set after set_timer(now)"))
		return;
	CHECK_ERR(sbi_set_timer(read_time() + us_to_ticks(1000000)).error, SBI_SUCCESS,
		  "set_timer(now + 1 s)");
	CHECK(!stip(), "sip.STIP still set after set_timer(now + 1 s)");
	quiesce_timer();
}

static void cancel_before_expiry(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before = rec->sti_count;
	uint64_t end;

	quiesce_timer();
	sbi_set_timer(read_time() + us_to_ticks(20000));
	CHECK_ERR(sbi_set_timer(UINT64_MAX).error, SBI_SUCCESS, "set_timer(-1)");
	csr_set(sie, SIE_STIE);
	irq_enable();
	/* Nothing may wake a wfi here: poll `time` for 60 ms. */
	end = read_time() + us_to_ticks(60000);
	while (read_time() < end)
		;
	irq_disable();
	CHECK(rec->sti_count == before && !stip(),
	      "cancelled timer fired: %lu interrupts, STIP %d", rec->sti_count - before, stip());
	quiesce_timer();
}

static void rearm_earlier_wins(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before = rec->sti_count;
	uint64_t start = read_time(), late = start + us_to_ticks(3000000);
	uint64_t early = start + us_to_ticks(5000);

	quiesce_timer();
	sbi_set_timer(late);
	sbi_set_timer(early);
	wait_for_sti(rec, before, late);
	quiesce_timer();
	CHECK(rec->sti_count == before + 1 && rec->sti_time < late,
	      "re-arming earlier: %lu interrupts, at +%lu ticks", rec->sti_count - before,
	      (unsigned long)(rec->sti_time - start));
	CHECK(rec->sti_time >= early, "interrupt before the re-armed time");
}

static void rearm_later_wins(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before = rec->sti_count;
	uint64_t start = read_time(), early = start + us_to_ticks(5000);
	uint64_t later = start + us_to_ticks(40000);
	uint64_t limit = later + us_to_ticks(LATE_LIMIT_US);

	quiesce_timer();
	sbi_set_timer(early);
	sbi_set_timer(later);
	wait_for_sti(rec, before, limit);
	quiesce_timer();
	if (!CHECK(rec->sti_count == before + 1, "expected 1 interrupt, got %lu",
		   rec->sti_count - before))
		return;
	CHECK(rec->sti_time >= later, "interrupt at +%lu ticks, re-armed for +%lu",
	      (unsigned long)(rec->sti_time - start), (unsigned long)(later - start));
}

static void masked_timer_stays_pending(void)
{
	struct trap_record *rec = trap_record_of(plat.boot_hart);
	unsigned long before = rec->sti_count;

	quiesce_timer();
	irq_enable();          /* STIE stays 0: nothing may be taken */
	sbi_set_timer(read_time());
	CHECK(wait_stip(true, 100000), "sip.STIP not set with sie.STIE = 0");
	irq_disable();
	CHECK_EQ(rec->sti_count - before, 0, "interrupts taken with sie.STIE = 0");
	quiesce_timer();
}

/* On a secondary: its own timer, arg us from now, interrupts it; 0, or -1
 * (no interrupt within a second) or -2 (interrupt too early). */
static long secondary_timer_call(unsigned long us)
{
	struct trap_record *rec = trap_record_of(csr_read(sscratch));
	unsigned long before = rec->sti_count;
	uint64_t target = read_time() + us_to_ticks(us);
	uint64_t limit = target + us_to_ticks(LATE_LIMIT_US);
	long result = 0;

	csr_write(sie, SIE_STIE);
	sbi_set_timer(target);
	wait_for_sti(rec, before, limit);
	if (rec->sti_count == before)
		result = -1;
	else if (rec->sti_time < target)
		result = -2;
	sbi_set_timer(UINT64_MAX);
	csr_write(sie, SIE_SSIE);
	return result;
}

/* Every hart has its own timer: set_timer on a secondary interrupts it. */
static void secondary_harts_timer(void)
{
	int i;

	if (!need_secondaries())
		return;
	for (i = 0; i < plat.nharts; i++) {
		unsigned long h = plat.hart_ids[i];
		long result = 0;

		if (h == plat.boot_hart)
			continue;
		if (!CHECK(hart_call(h, secondary_timer_call, 5000, 3000000, &result),
			   "hart %lu did not come back from its timer wait", h))
			continue;
		CHECK(result == 0, "hart %lu: %s", h,
		      result == -1 ? "no timer interrupt within a second" :
				     "timer interrupt before the requested time");
	}
}

static const struct target_test tests[] = {
	{ "sstc_detection", sstc_detection, DEV_NONE },
	{ "interrupt_delivered_on_time", interrupt_delivered_on_time, DEV_NONE },
	{ "past_value_pends_at_once", past_value_pends_at_once, DEV_NONE },
	{ "minus_one_clears_pending", minus_one_clears_pending, DEV_NONE },
	{ "future_value_clears_pending", future_value_clears_pending, DEV_NONE },
	{ "cancel_before_expiry", cancel_before_expiry, DEV_NONE },
	{ "rearm_earlier_wins", rearm_earlier_wins, DEV_NONE },
	{ "rearm_later_wins", rearm_later_wins, DEV_NONE },
	{ "masked_timer_stays_pending", masked_timer_stays_pending, DEV_NONE },
	{ "secondary_harts_timer", secondary_harts_timer, DEV_NONE },
};
GROUP(time, tests);

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI call cost benchmark (`make bench`), meant for `-icount shift=0 -smp 1`
 * where instret counts every instruction of the guest, firmware included:
 * the instret delta of a loop of ecalls minus the same loop with a nop in
 * place of the ecall is what the firmware spends per call.  The value of
 * instret at the payload's first instruction is what the firmware ran to
 * boot.  Prints figures only; scripts/bench-sbi.sh builds the tables.
 *
 * The PMU rows time each call on its own: instret is read right before the
 * ecall and right after it (or, for the stop-8 rows, after the S-mode reads
 * that get the counter values), the same window with a nop in place of the
 * ecall is subtracted, and whatever sets the counters up or restarts them
 * between calls runs outside the windows.  Counter indexes come from
 * counter_get_info, since OpenSBI and tracesbi number them differently.
 */
#include "rt.h"

#ifndef CALLS
#define CALLS 1000   /* per row; -DCALLS=n for a short run (profiling) */
#endif

struct bench_call {
	const char *name;
	unsigned long eid, fid, a0, a1;
};

/* The timed loop with `insn` (ecall, or nop for the empty loop) in the
 * call's place: one text for both, so they differ in that instruction only. */
#define LOOP_INSTRET(insn) __asm__ volatile( \
	"csrr %[start], instret\n" \
	"1:\n" \
	"mv a0, %[a0]\n mv a1, %[a1]\n mv a6, %[fid]\n mv a7, %[eid]\n" \
	insn "\n" \
	"addi %[n], %[n], -1\n bnez %[n], 1b\n" \
	"csrr %[end], instret\n" \
	: [start] "=&r"(start), [end] "=&r"(end), [n] "+r"(n) \
	: [a0] "r"(c->a0), [a1] "r"(c->a1), [fid] "r"(c->fid), [eid] "r"(c->eid) \
	: "a0", "a1", "a6", "a7", "memory")

/* instret across CALLS iterations of the call (ecall) or of the same loop
 * with a nop instead (no ecall). */
static uint64_t loop_instret(const struct bench_call *c, bool ecall)
{
	uint64_t start, end;
	unsigned long n = CALLS;

	if (ecall)
		LOOP_INSTRET("ecall");
	else
		LOOP_INSTRET("nop");
	return end - start;
}

static void bench_one(const struct bench_call *c)
{
	uint64_t with = loop_instret(c, true), without = loop_instret(c, false);
	uint64_t per_call_x10 = (with - without) * 10 / CALLS;

	kprintf("BENCH: %s: %lu.%lu instructions per call (%lu calls)\n", c->name,
		(unsigned long)(per_call_x10 / 10), (unsigned long)(per_call_x10 % 10),
		(unsigned long)CALLS);
}

/* ---- SBI PMU (ext-pmu.adoc) ------------------------------------------------
 * Function IDs from sbi_spec.h; flags and events, which it lacks, here. */
#define PMU_CFG_SKIP_MATCH       (1ul << 0)
#define PMU_CFG_CLEAR_VALUE      (1ul << 1)
#define PMU_START_SET_INIT_VALUE (1ul << 0)
#define PMU_START_INIT_SNAPSHOT  (1ul << 1)
#define PMU_STOP_RESET           (1ul << 0)
#define PMU_STOP_TAKE_SNAPSHOT   (1ul << 1)
#define PMU_INFO_FIRMWARE        (1ul << 63)
#define PMU_EVENT_CPU_CYCLES     0x00001ul
#define PMU_EVENT_INSTRUCTIONS   0x00002ul
#define PMU_EVENT_FW_SET_TIMER   0xF0005ul   /* type 15, code 5 */
#define CSR_HPMCOUNTER3          0xC03
#define CSR_HPMCOUNTER31         0xC1F
#define CSR_SCOUNTOVF            0xDA0
#define STOP_SET_SIZE            8

/* One PMU call: function and a0..a4. */
struct pmu_call {
	unsigned long fid, a0, a1, a2, a3, a4;
};

/* One window, `insn` (ecall or nop) between the instret reads, as
 * LOOP_INSTRET. */
#define PMU_WINDOW(insn) __asm__ volatile( \
	"csrr %[start], instret\n " insn "\n csrr %[end], instret\n" \
	: [start] "=&r"(start), [end] "=&r"(end), "+r"(a0), "+r"(a1) \
	: "r"(a2), "r"(a3), "r"(a4), "r"(a6), "r"(a7) \
	: "memory")

/* instret across one PMU call, or across a nop in place of its ecall (the
 * window's own cost); the call's a0/a1 in *ret. */
static uint64_t pmu_window(const struct pmu_call *c, bool ecall, struct sbiret *ret)
{
	register unsigned long a0 __asm__("a0") = c->a0;
	register unsigned long a1 __asm__("a1") = c->a1;
	register unsigned long a2 __asm__("a2") = c->a2;
	register unsigned long a3 __asm__("a3") = c->a3;
	register unsigned long a4 __asm__("a4") = c->a4;
	register unsigned long a6 __asm__("a6") = c->fid;
	register unsigned long a7 __asm__("a7") = SBI_EXT_PMU;
	uint64_t start, end;

	if (ecall)
		PMU_WINDOW("ecall");
	else
		PMU_WINDOW("nop");
	ret->error = (long)a0;
	ret->value = (long)a1;
	return end - start;
}

/* The call with instret read just before its ecall: the start of a window
 * that the caller ends after its own work. */
static uint64_t pmu_call_window_start(const struct pmu_call *c, struct sbiret *ret)
{
	register unsigned long a0 __asm__("a0") = c->a0;
	register unsigned long a1 __asm__("a1") = c->a1;
	register unsigned long a2 __asm__("a2") = c->a2;
	register unsigned long a3 __asm__("a3") = c->a3;
	register unsigned long a4 __asm__("a4") = c->a4;
	register unsigned long a6 __asm__("a6") = c->fid;
	register unsigned long a7 __asm__("a7") = SBI_EXT_PMU;
	uint64_t start;

	__asm__ volatile("csrr %[start], instret\n ecall\n"
			 : [start] "=&r"(start), "+r"(a0), "+r"(a1)
			 : "r"(a2), "r"(a3), "r"(a4), "r"(a6), "r"(a7)
			 : "memory");
	ret->error = (long)a0;
	ret->value = (long)a1;
	return start;
}

static struct sbiret pmu(unsigned long fid, unsigned long a0, unsigned long a1,
			 unsigned long a2, unsigned long a3, unsigned long a4)
{
	return sbi_ecall(SBI_EXT_PMU, fid, a0, a1, a2, a3, a4, 0);
}

/* What counter_get_info says about this hart's counters. */
struct pmu_layout {
	int nhpm, nfw;
	unsigned long hpm_idx[29], fw_idx[64];
	unsigned int hpm_csr[29];
	unsigned long hpm_base, hpm_mask, fw_base, fw_mask;
};

/* A counter set (base, mask) of idx[0..n), or false when they do not fit
 * in one XLEN-bit mask from the lowest. */
static bool counter_set(const unsigned long *idx, int n, unsigned long *base,
			unsigned long *mask)
{
	int i;

	if (n == 0)
		return false;
	*base = idx[0];
	for (i = 1; i < n; i++)
		if (idx[i] < *base)
			*base = idx[i];
	*mask = 0;
	for (i = 0; i < n; i++) {
		if (idx[i] - *base >= 64)
			return false;
		*mask |= 1ul << (idx[i] - *base);
	}
	return true;
}

/* HPM counters (CSR hpmcounter3..31) and firmware counters, found with
 * counter_get_info: index layouts differ between implementations. */
static bool pmu_discover(struct pmu_layout *l)
{
	struct sbiret r = pmu(SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0);
	unsigned long idx, csr;

	memset(l, 0, sizeof(*l));
	if (r.error) {
		kprintf("BENCH: pmu: num_counters failed: %s\n", sbi_error_name(r.error));
		return false;
	}
	for (idx = 0; idx < (unsigned long)r.value; idx++) {
		struct sbiret info = pmu(SBI_PMU_COUNTER_GET_INFO, idx, 0, 0, 0, 0);

		if (info.error)
			continue;
		csr = (unsigned long)info.value & 0xfff;
		if ((unsigned long)info.value & PMU_INFO_FIRMWARE) {
			if (l->nfw < 64)
				l->fw_idx[l->nfw++] = idx;
		} else if (csr >= CSR_HPMCOUNTER3 && csr <= CSR_HPMCOUNTER31 && l->nhpm < 29) {
			l->hpm_csr[l->nhpm] = (unsigned int)csr;
			l->hpm_idx[l->nhpm++] = idx;
		}
	}
	kprintf("BENCH: pmu: %ld counters, %d HPM, %d firmware\n", r.value, l->nhpm, l->nfw);
	return counter_set(l->hpm_idx, l->nhpm, &l->hpm_base, &l->hpm_mask) &&
	       counter_set(l->fw_idx, l->nfw, &l->fw_base, &l->fw_mask);
}

/* Sum of a row's windows and of as many empty windows. */
struct pmu_row {
	const char *name;
	uint64_t busy, empty;
	unsigned long n;
	bool failed;
};

static void row_add(struct pmu_row *row, uint64_t busy)
{
	static const struct pmu_call nothing;
	struct sbiret unused;

	row->busy += busy;
	row->empty += pmu_window(&nothing, false, &unused);
	row->n++;
}

/* Print the failure once; the row then prints no figure. */
static bool row_check(struct pmu_row *row, const char *what, struct sbiret r)
{
	if (r.error == SBI_SUCCESS)
		return true;
	if (!row->failed)
		kprintf("BENCH: %s: failed: %s returned %s\n", row->name, what,
			sbi_error_name(r.error));
	row->failed = true;
	return false;
}

static void row_print(const struct pmu_row *row)
{
	uint64_t x10;

	if (row->failed || row->n == 0 || row->busy < row->empty)
		return;
	x10 = (row->busy - row->empty) * 10 / row->n;
	kprintf("BENCH: %s: %lu.%lu instructions per call (%lu calls)\n", row->name,
		(unsigned long)(x10 / 10), (unsigned long)(x10 % 10), row->n);
}

static struct sbiret config_matching(unsigned long base, unsigned long mask,
				     unsigned long flags, unsigned long event)
{
	return pmu(SBI_PMU_COUNTER_CONFIG_MATCHING, base, mask, flags, event, 0);
}

static void release_counter(unsigned long idx)
{
	pmu(SBI_PMU_COUNTER_STOP, idx, 1, PMU_STOP_RESET, 0, 0);
}

/* counter_config_matching for the instructions event over every HPM
 * counter (Linux passes its whole counter mask), CLEAR_VALUE; the counter
 * is freed (stop with RESET) outside the window. */
static void bench_config_matching(const struct pmu_layout *l)
{
	struct pmu_row row = { .name = "pmu.counter_config_matching" };
	const struct pmu_call c = { .fid = SBI_PMU_COUNTER_CONFIG_MATCHING, .a0 = l->hpm_base,
				    .a1 = l->hpm_mask, .a2 = PMU_CFG_CLEAR_VALUE,
				    .a3 = PMU_EVENT_INSTRUCTIONS };
	struct sbiret r;
	int i;

	for (i = 0; i < CALLS && !row.failed; i++) {
		row_add(&row, pmu_window(&c, true, &r));
		if (row_check(&row, "config_matching", r))
			release_counter((unsigned long)r.value);
	}
	row_print(&row);
}

/* counter_start with SET_INIT_VALUE (as Linux starts a counter) and
 * counter_stop without flags, of one HPM counter counting instructions. */
static void bench_start_stop(const struct pmu_layout *l)
{
	struct pmu_row start = { .name = "pmu.counter_start" };
	struct pmu_row stop = { .name = "pmu.counter_stop" };
	struct sbiret r = config_matching(l->hpm_base, l->hpm_mask, PMU_CFG_CLEAR_VALUE,
					  PMU_EVENT_INSTRUCTIONS);
	struct pmu_call start_call = { .fid = SBI_PMU_COUNTER_START, .a1 = 1,
				       .a2 = PMU_START_SET_INIT_VALUE };
	struct pmu_call stop_call = { .fid = SBI_PMU_COUNTER_STOP, .a1 = 1 };
	int i;

	if (!row_check(&start, "config_matching", r) || !row_check(&stop, "config_matching", r))
		return;
	start_call.a0 = stop_call.a0 = (unsigned long)r.value;
	for (i = 0; i < CALLS && !start.failed && !stop.failed; i++) {
		row_add(&start, pmu_window(&start_call, true, &r));
		row_check(&start, "counter_start", r);
		row_add(&stop, pmu_window(&stop_call, true, &r));
		row_check(&stop, "counter_stop", r);
	}
	release_counter(start_call.a0);
	row_print(&start);
	row_print(&stop);
}

/* counter_fw_read of a running firmware counter (SET_TIMER events). */
static void bench_fw_read(const struct pmu_layout *l)
{
	struct pmu_row row = { .name = "pmu.counter_fw_read" };
	struct sbiret r = config_matching(l->fw_base, l->fw_mask, PMU_CFG_CLEAR_VALUE,
					  PMU_EVENT_FW_SET_TIMER);
	struct pmu_call c = { .fid = SBI_PMU_COUNTER_FW_READ };
	unsigned long idx;
	int i;

	if (!row_check(&row, "config_matching", r))
		return;
	idx = (unsigned long)r.value;
	r = pmu(SBI_PMU_COUNTER_START, idx, 1, PMU_START_SET_INIT_VALUE, 0, 0);
	if (!row_check(&row, "counter_start", r)) {
		release_counter(idx);
		return;
	}
	c.a0 = idx;
	for (i = 0; i < CALLS && !row.failed; i++) {
		row_add(&row, pmu_window(&c, true, &r));
		row_check(&row, "counter_fw_read", r);
	}
	release_counter(idx);
	row_print(&row);
}

/* ---- one counter, every flag ---- */

/* The snapshot shared memory (ext-pmu.adoc, "Snapshot shared memory layout"). */
struct pmu_snapshot {
	uint64_t overflow_bitmap;
	uint64_t values[64];
	uint64_t reserved[447];
};
static volatile struct pmu_snapshot snapshot __attribute__((aligned(4096)));

/* One counter (mask 1) started and stopped with these flags, over and over;
 * the window times the start or the stop.  A RESET stop frees the counter,
 * which is configured again (SKIP_MATCH, same index) outside the window. */
struct single_case {
	const char *name;
	bool fw, timed_start;
	unsigned long start_flags, stop_flags;
};

static const struct single_case single_cases[] = {
	{ "pmu.start1.none", false, true, 0, 0 },
	{ "pmu.start1.init_snapshot", false, true, PMU_START_INIT_SNAPSHOT, 0 },
	{ "pmu.stop1.reset", false, false, PMU_START_SET_INIT_VALUE, PMU_STOP_RESET },
	{ "pmu.stop1.snapshot", false, false, PMU_START_SET_INIT_VALUE, PMU_STOP_TAKE_SNAPSHOT },
	{ "pmu.stop1.reset_snapshot", false, false, PMU_START_SET_INIT_VALUE,
	  PMU_STOP_RESET | PMU_STOP_TAKE_SNAPSHOT },
	{ "pmu.start1.fw_init_value", true, true, PMU_START_SET_INIT_VALUE, 0 },
	{ "pmu.start1.fw_none", true, true, 0, 0 },
	{ "pmu.stop1.fw_none", true, false, 0, 0 },
	{ "pmu.stop1.fw_reset", true, false, 0, PMU_STOP_RESET },
};

static bool single_needs_snapshot(const struct single_case *sc)
{
	return (sc->start_flags & PMU_START_INIT_SNAPSHOT) ||
	       (sc->stop_flags & PMU_STOP_TAKE_SNAPSHOT);
}

/* One call of the pair: timed into the row, or made outside any window. */
static struct sbiret single_call(struct pmu_row *row, const struct pmu_call *c, bool timed)
{
	struct sbiret r;

	if (timed)
		row_add(row, pmu_window(c, true, &r));
	else
		r = pmu(c->fid, c->a0, c->a1, c->a2, c->a3, c->a4);
	return r;
}

static void bench_single(const struct pmu_layout *l, const struct single_case *sc,
			 bool snapshot_on)
{
	struct pmu_row row = { .name = sc->name };
	unsigned long base = sc->fw ? l->fw_base : l->hpm_base;
	unsigned long mask = sc->fw ? l->fw_mask : l->hpm_mask;
	unsigned long event = sc->fw ? PMU_EVENT_FW_SET_TIMER : PMU_EVENT_INSTRUCTIONS;
	struct pmu_call start = { .fid = SBI_PMU_COUNTER_START, .a1 = 1, .a2 = sc->start_flags };
	struct pmu_call stop = { .fid = SBI_PMU_COUNTER_STOP, .a1 = 1, .a2 = sc->stop_flags };
	struct sbiret r;
	unsigned long idx;
	int i;

	if (single_needs_snapshot(sc) && !snapshot_on) {
		kprintf("BENCH: %s: not measured: no snapshot shared memory\n", sc->name);
		return;
	}
	r = config_matching(base, mask, PMU_CFG_CLEAR_VALUE, event);
	if (!row_check(&row, "config_matching", r))
		return;
	idx = (unsigned long)r.value;
	start.a0 = stop.a0 = idx;
	for (i = 0; i < CALLS && !row.failed; i++) {
		snapshot.values[0] = 1000;   /* what INIT_SNAPSHOT starts from */
		if (!row_check(&row, "counter_start", single_call(&row, &start, sc->timed_start)) ||
		    !row_check(&row, "counter_stop", single_call(&row, &stop, !sc->timed_start)))
			break;
		if (sc->stop_flags & PMU_STOP_RESET) {
			r = config_matching(idx, 1, PMU_CFG_SKIP_MATCH | PMU_CFG_CLEAR_VALUE, event);
			if (!row_check(&row, "config_matching again", r))
				return;
		}
	}
	release_counter(idx);
	row_print(&row);
}

static void bench_singles(const struct pmu_layout *l)
{
	struct sbiret r = pmu(SBI_PMU_SNAPSHOT_SET_SHMEM, (uintptr_t)&snapshot, 0, 0, 0, 0);
	size_t i;

	if (r.error)
		kprintf("BENCH: pmu.start1: snapshot_set_shmem returned %s\n",
			sbi_error_name(r.error));
	for (i = 0; i < sizeof(single_cases) / sizeof(single_cases[0]); i++)
		bench_single(l, &single_cases[i], r.error == SBI_SUCCESS);
}

/* ---- stop a set of running counters and obtain their values ---- */

/* Where the values go, as a kernel would store them in its events. */
static uint64_t value_sink[STOP_SET_SIZE];
static unsigned long overflow_sink;

struct stop_set {
	unsigned long idx[STOP_SET_SIZE], base, mask;
	unsigned int csr[STOP_SET_SIZE];
};

/* Reads a counter CSR given its number at run time, the way a kernel driver
 * does with the CSR number from counter_get_info: csrr encodes the CSR in
 * the instruction, so one case per counter CSR. */
static __attribute__((noinline)) unsigned long read_counter_csr(unsigned int csr)
{
#define COUNTER_CSR_CASE(num) case num: return csr_read(num)
	switch (csr) {
	COUNTER_CSR_CASE(0xC00); COUNTER_CSR_CASE(0xC01); COUNTER_CSR_CASE(0xC02);
	COUNTER_CSR_CASE(0xC03); COUNTER_CSR_CASE(0xC04); COUNTER_CSR_CASE(0xC05);
	COUNTER_CSR_CASE(0xC06); COUNTER_CSR_CASE(0xC07); COUNTER_CSR_CASE(0xC08);
	COUNTER_CSR_CASE(0xC09); COUNTER_CSR_CASE(0xC0A); COUNTER_CSR_CASE(0xC0B);
	COUNTER_CSR_CASE(0xC0C); COUNTER_CSR_CASE(0xC0D); COUNTER_CSR_CASE(0xC0E);
	COUNTER_CSR_CASE(0xC0F); COUNTER_CSR_CASE(0xC10); COUNTER_CSR_CASE(0xC11);
	COUNTER_CSR_CASE(0xC12); COUNTER_CSR_CASE(0xC13); COUNTER_CSR_CASE(0xC14);
	COUNTER_CSR_CASE(0xC15); COUNTER_CSR_CASE(0xC16); COUNTER_CSR_CASE(0xC17);
	COUNTER_CSR_CASE(0xC18); COUNTER_CSR_CASE(0xC19); COUNTER_CSR_CASE(0xC1A);
	COUNTER_CSR_CASE(0xC1B); COUNTER_CSR_CASE(0xC1C); COUNTER_CSR_CASE(0xC1D);
	COUNTER_CSR_CASE(0xC1E); COUNTER_CSR_CASE(0xC1F);
	default: return 0;
	}
#undef COUNTER_CSR_CASE
}

/* Whether S-mode can read CSR `csr` (through read_counter_csr, or scountovf). */
static bool csr_readable(unsigned int csr)
{
	fault_expect(false);
	if (csr == CSR_SCOUNTOVF)
		(void)csr_read(0xDA0);
	else
		(void)read_counter_csr(csr);
	return !fault_end(NULL, NULL);
}

/* Configures STOP_SET_SIZE HPM counters (cycles and instructions in turn)
 * and starts them from 0. */
static bool stop_set_start(const struct pmu_layout *l, struct stop_set *s, struct pmu_row *row)
{
	struct sbiret r;
	int i, k;

	for (i = 0; i < STOP_SET_SIZE; i++) {
		r = config_matching(l->hpm_base, l->hpm_mask, PMU_CFG_CLEAR_VALUE,
				    i % 2 ? PMU_EVENT_INSTRUCTIONS : PMU_EVENT_CPU_CYCLES);
		if (!row_check(row, "config_matching", r)) {
			while (i--)
				release_counter(s->idx[i]);
			return false;
		}
		s->idx[i] = (unsigned long)r.value;
		s->csr[i] = 0;
		for (k = 0; k < l->nhpm; k++)
			if (l->hpm_idx[k] == s->idx[i])
				s->csr[i] = l->hpm_csr[k];
	}
	if (!counter_set(s->idx, STOP_SET_SIZE, &s->base, &s->mask)) {
		kprintf("BENCH: %s: failed: the counters do not fit one mask\n", row->name);
		for (i = 0; i < STOP_SET_SIZE; i++)
			release_counter(s->idx[i]);
		row->failed = true;
		return false;
	}
	r = pmu(SBI_PMU_COUNTER_START, s->base, s->mask, PMU_START_SET_INIT_VALUE, 0, 0);
	return row_check(row, "counter_start", r);
}

static void stop_set_release(const struct stop_set *s)
{
	pmu(SBI_PMU_COUNTER_STOP, s->base, s->mask, PMU_STOP_RESET, 0, 0);
}

/* A value no counter of the set reaches during the run: a snapshot that
 * leaves it in place did not write the counter, and its figure would mean
 * nothing.  (Values themselves are not checked: QEMU 7.2 advances only the
 * first counter configured for an event, the others keep their value.) */
#define SNAPSHOT_POISON 0xDEADBEEFDEADBEEFull

static void poison_snapshot(const struct stop_set *s)
{
	int i;

	snapshot.overflow_bitmap = SNAPSHOT_POISON;
	for (i = 0; i < STOP_SET_SIZE; i++)
		snapshot.values[s->idx[i] - s->base] = SNAPSHOT_POISON;
}

static void check_snapshot_written(const struct stop_set *s, struct pmu_row *row)
{
	int i;

	if (snapshot.overflow_bitmap == SNAPSHOT_POISON && !row->failed) {
		kprintf("BENCH: %s: failed: the overflow bitmap was not written\n", row->name);
		row->failed = true;
	}
	for (i = 0; i < STOP_SET_SIZE && !row->failed; i++)
		if (snapshot.values[s->idx[i] - s->base] == SNAPSHOT_POISON) {
			kprintf("BENCH: %s: failed: counter %lu's value was not written\n",
				row->name, s->idx[i]);
			row->failed = true;
		}
}

/* Window: counter_stop(TAKE_SNAPSHOT) of the set, then the overflow bitmap
 * and each counter's value from the page. */
static __attribute__((noinline)) uint64_t stop_with_snapshot(const struct stop_set *s, struct sbiret *r)
{
	const struct pmu_call c = { .fid = SBI_PMU_COUNTER_STOP, .a0 = s->base, .a1 = s->mask,
				    .a2 = PMU_STOP_TAKE_SNAPSHOT };
	uint64_t start = pmu_call_window_start(&c, r);
	int i;

	overflow_sink = snapshot.overflow_bitmap;
	for (i = 0; i < STOP_SET_SIZE; i++)
		value_sink[i] = snapshot.values[s->idx[i] - s->base];
	return read_instret() - start;
}

/* Window: counter_stop of the set, then each counter's CSR and, with
 * Sscofpmf, scountovf (the overflow state a kernel needs as well). */
static __attribute__((noinline)) uint64_t
stop_then_read_csrs(const struct stop_set *s, bool sscofpmf, struct sbiret *r)
{
	const struct pmu_call c = { .fid = SBI_PMU_COUNTER_STOP, .a0 = s->base, .a1 = s->mask };
	uint64_t start = pmu_call_window_start(&c, r);
	int i;

	for (i = 0; i < STOP_SET_SIZE; i++)
		value_sink[i] = read_counter_csr(s->csr[i]);
	if (sscofpmf)
		overflow_sink = csr_read(0xDA0);
	return read_instret() - start;
}

/* Both ways to stop STOP_SET_SIZE running HPM counters and get their
 * values; the set is restarted outside the windows. */
static void bench_stop_set(const struct pmu_layout *l)
{
	struct pmu_row snap = { .name = "pmu.stop8.snapshot" };
	struct pmu_row csrs = { .name = "pmu.stop8.csr" };
	bool sscofpmf = csr_readable(CSR_SCOUNTOVF), readable = true;
	struct stop_set s;
	struct sbiret r;
	int i;

	if (l->nhpm < STOP_SET_SIZE) {
		kprintf("BENCH: pmu.stop8: only %d HPM counters\n", l->nhpm);
		return;
	}
	if (!stop_set_start(l, &s, &csrs))
		return;
	r = pmu(SBI_PMU_SNAPSHOT_SET_SHMEM, (uintptr_t)&snapshot, 0, 0, 0, 0);
	if (r.error)
		kprintf("BENCH: pmu.stop8.snapshot: snapshot_set_shmem returned %s\n",
			sbi_error_name(r.error));
	for (i = 0; i < CALLS && r.error == SBI_SUCCESS && !snap.failed; i++) {
		struct sbiret sr;

		poison_snapshot(&s);
		row_add(&snap, stop_with_snapshot(&s, &sr));
		row_check(&snap, "counter_stop", sr);
		check_snapshot_written(&s, &snap);
		row_check(&snap, "counter_start",
			  pmu(SBI_PMU_COUNTER_START, s.base, s.mask, 0, 0, 0));
	}
	for (i = 0; i < STOP_SET_SIZE; i++)
		readable = readable && s.csr[i] && csr_readable(s.csr[i]);
	if (!readable)
		kprintf("BENCH: pmu.stop8.csr: failed: a counter CSR is not readable in S-mode\n");
	for (i = 0; i < CALLS && readable && !csrs.failed; i++) {
		row_add(&csrs, stop_then_read_csrs(&s, sscofpmf, &r));
		row_check(&csrs, "counter_stop", r);
		row_check(&csrs, "counter_start",
			  pmu(SBI_PMU_COUNTER_START, s.base, s.mask, 0, 0, 0));
	}
	stop_set_release(&s);
	kprintf("BENCH: pmu.stop8: counters %lu..%lu (mask %lx from %lu), scountovf %s\n",
		s.idx[0], s.idx[STOP_SET_SIZE - 1], s.mask, s.base,
		sscofpmf ? "read" : "absent");
	row_print(&snap);
	row_print(&csrs);
}

static void bench_pmu(void)
{
	struct pmu_layout layout;

	if (sbi_probe(SBI_EXT_PMU).value == 0) {
		kprintf("BENCH: pmu: extension not present\n");
		return;
	}
	if (!pmu_discover(&layout)) {
		kprintf("BENCH: pmu: no HPM or no firmware counter set\n");
		return;
	}
	bench_config_matching(&layout);
	bench_start_stop(&layout);
	bench_fw_read(&layout);
	bench_singles(&layout);
	bench_stop_set(&layout);
}

/* FWFT (ext-firmware-features.adoc) where the firmware has it. */
static void bench_fwft(void)
{
	static const struct bench_call get = { "fwft.get(MISALIGNED_EXC_DELEG)", SBI_EXT_FWFT,
					       SBI_FWFT_GET, SBI_FWFT_MISALIGNED_EXC_DELEG, 0 };

	if (sbi_probe(SBI_EXT_FWFT).value != 1) {
		kprintf("BENCH: %s: not present\n", get.name);
		return;
	}
	bench_one(&get);
}

/* ---- SSE (ext-sse.adoc): inject a local event on the calling hart, whose
 * handler completes at once: inject, the handler's 3 instructions and
 * complete in one window.  a6/a7 are the firmware's to restore. */
__asm__(".text\n.balign 4\nbench_sse_handler:\n"
	"li a7, 0x535345\nli a6, 6\necall\nunimp\n");
extern char bench_sse_handler[];

static void bench_sse(unsigned long hartid)
{
	const struct bench_call round_trip = { "sse.inject+complete", SBI_EXT_SSE, SBI_SSE_INJECT,
					       SBI_SSE_EVENT_LOCAL_SOFTWARE, hartid };
	uint32_t ev = SBI_SSE_EVENT_LOCAL_SOFTWARE;
	long err;

	if (sbi_probe(SBI_EXT_SSE).value != 1) {
		kprintf("BENCH: %s: not present\n", round_trip.name);
		return;
	}
	err = SBI3(SBI_EXT_SSE, SBI_SSE_REGISTER, ev, (uintptr_t)bench_sse_handler, 0).error;
	if (!err)
		err = SBI1(SBI_EXT_SSE, SBI_SSE_ENABLE, ev).error;
	if (!err)
		err = SBI0(SBI_EXT_SSE, SBI_SSE_HART_UNMASK).error;
	if (err)
		kprintf("BENCH: %s: failed: %s\n", round_trip.name, sbi_error_name(err));
	else
		bench_one(&round_trip);
	SBI0(SBI_EXT_SSE, SBI_SSE_HART_MASK);
	SBI1(SBI_EXT_SSE, SBI_SSE_DISABLE, ev);
	SBI1(SBI_EXT_SSE, SBI_SSE_UNREGISTER, ev);
}

/* ---- DBTR (ext-debug-triggers.adoc): install one execute trigger; the
 * uninstall happens outside the window. */
static unsigned long dbtr_shmem[16][4] __attribute__((aligned(64)));

#define DBTR_WINDOW(insn) __asm__ volatile( \
	"csrr %[start], instret\n " insn "\n csrr %[end], instret\n" \
	: [start] "=&r"(start), [end] "=&r"(end), "+r"(a0), "+r"(a1) \
	: "r"(a6), "r"(a7) : "memory")

static uint64_t dbtr_install_window(bool ecall, long *error)
{
	register unsigned long a0 __asm__("a0") = 1;
	register unsigned long a1 __asm__("a1") = 0;
	register unsigned long a6 __asm__("a6") = SBI_DBTR_INSTALL_TRIGGERS;
	register unsigned long a7 __asm__("a7") = SBI_EXT_DBTR;
	uint64_t start, end;

	if (ecall)
		DBTR_WINDOW("ecall");
	else
		DBTR_WINDOW("nop");
	*error = (long)a0;
	return end - start;
}

static void bench_dbtr(void)
{
	static const char name[] = "dbtr.install_triggers(1 execute trigger)";
	unsigned long t1 = 6ul << 60 | 1ul << 4 | 1ul << 2;   /* mcontrol6, S, execute */
	uint64_t total = 0, per_call_x10;
	long error;
	int i;

	if (sbi_probe(SBI_EXT_DBTR).value != 1) {
		kprintf("BENCH: %s: not present\n", name);
		return;
	}
	if (!SBI1(SBI_EXT_DBTR, SBI_DBTR_NUM_TRIGGERS, t1).value)
		t1 = 2ul << 60 | 1ul << 4 | 1ul << 2;   /* mcontrol */
	SBI3(SBI_EXT_DBTR, SBI_DBTR_SET_SHMEM, (uintptr_t)dbtr_shmem, 0, 0);
	for (i = 0; i < CALLS; i++) {
		uint64_t with;

		dbtr_shmem[0][1] = t1;
		dbtr_shmem[0][2] = (uintptr_t)dbtr_shmem;   /* data: never executed */
		dbtr_shmem[0][3] = 0;
		with = dbtr_install_window(true, &error);
		if (error) {
			kprintf("BENCH: %s: failed: %s\n", name, sbi_error_name(error));
			return;
		}
		SBI2(SBI_EXT_DBTR, SBI_DBTR_UNINSTALL_TRIGGERS, dbtr_shmem[0][0], 1);
		total += with - dbtr_install_window(false, &error);
	}
	per_call_x10 = total * 10 / CALLS;
	kprintf("BENCH: %s: %lu.%lu instructions per call (%lu calls)\n", name,
		(unsigned long)(per_call_x10 / 10), (unsigned long)(per_call_x10 % 10),
		(unsigned long)CALLS);
}

void boot_main(unsigned long hartid, uintptr_t dtb);
void boot_main(unsigned long hartid, uintptr_t dtb)
{
	const struct bench_call calls[] = {
		{ "base.get_spec_version", SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION, 0, 0 },
		{ "base.probe_extension(TIME)", SBI_EXT_BASE, SBI_BASE_PROBE_EXTENSION,
		  SBI_EXT_TIME, 0 },
		{ "time.set_timer(far future)", SBI_EXT_TIME, SBI_TIME_SET_TIMER, UINT64_MAX, 0 },
		{ "ipi.send_ipi(empty mask)", SBI_EXT_IPI, SBI_IPI_SEND_IPI, 0, 0 },
		{ "rfence.remote_fence_i(self)", SBI_EXT_RFENCE, SBI_RFENCE_REMOTE_FENCE_I, 1,
		  hartid },
	};
	size_t i;

	(void)dtb;
	csr_write(sscratch, hartid);
	trap_init_hart();
	kprintf("BENCH: boot: %lu instructions retired before the first S-mode instruction\n",
		boot_instret);
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		bench_one(&calls[i]);
	bench_fwft();
	bench_dbtr();
	bench_sse(hartid);
	bench_pmu();
	kprintf("DONE: bench\n");
	sbi_shutdown();
}

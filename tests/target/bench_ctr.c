/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `make bench-ctr`: guest instructions (QEMU -icount shift=0, so instret
 * counts every retired instruction, M-mode's too) of the emulated CTR
 * accesses: one CSR read, one CSR write, SCTRCLR, and reading all entries
 * of a 64-deep buffer once (siselect + sireg/sireg2/sireg3 per entry);
 * and recording: a loop of calls, returns and taken branches with CTR
 * recording S-mode against the same loop with CTR off (the slowdown, and
 * the guest instructions the firmware adds per recorded transfer).
 * Figures only: nothing here passes or fails on them.
 */
#include "rt.h"

#define ROUNDS 64

/* Instructions per iteration of `body`, minus an empty loop's. */
#define MEASURE(name, body) do {                                              \
	unsigned long t0, t1, e0, e1, i;                                      \
	e0 = read_instret();                                                  \
	for (i = 0; i < ROUNDS; i++)                                          \
		__asm__ __volatile__("" ::: "memory");                         \
	e1 = read_instret();                                                  \
	t0 = read_instret();                                                  \
	for (i = 0; i < ROUNDS; i++) {                                        \
		body;                                                         \
	}                                                                     \
	t1 = read_instret();                                                  \
	report(name, (t1 - t0) - (e1 - e0), ROUNDS);                          \
} while (0)

static void report(const char *name, unsigned long insns, unsigned long n)
{
	kprintf("BENCH: %s: %lu.%lu instructions per access (%lu)\n", name, insns / n,
		(insns % n) * 10 / n, n);
}

/*
 * bench_loop(n): n iterations of a call (jal), the callee's return and
 * the taken branch back: 3 transfers and 5 instructions an iteration.
 */
__asm__(
	"	.text\n"
	"	.globl bench_loop\n"
	"bench_loop:\n"
	"	addi sp, sp, -16\n"
	"	sd ra, 0(sp)\n"
	"1:	jal ra, bench_leaf\n"
	"	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	ld ra, 0(sp)\n"
	"	addi sp, sp, 16\n"
	"	ret\n"
	"bench_leaf:\n"
	"	addi t0, t0, 1\n"
	"	ret\n");
void bench_loop(unsigned long n);

#define LOOP_ITERATIONS 20000UL
#define CTL_S 2UL

/* The loop's instructions with sctrctl = ctl around it (0: CTR off). */
static unsigned long loop_instret(unsigned long ctl)
{
	unsigned long t0, t1;

	t0 = read_instret();
	__asm__ __volatile__("csrw 0x14E, %0" :: "r"(ctl) : "memory");
	bench_loop(LOOP_ITERATIONS);
	__asm__ __volatile__("csrw 0x14E, x0" ::: "memory");
	t1 = read_instret();
	return t1 - t0;
}

static void bench_recording(void)
{
	unsigned long off = loop_instret(0), on = loop_instret(CTL_S);
	unsigned long transfers = 3 * LOOP_ITERATIONS, extra = on - off;

	kprintf("BENCH: ctr.recording_off: %lu instructions for %lu loop transfers\n", off,
		transfers);
	kprintf("BENCH: ctr.recording_on: %lu instructions for %lu loop transfers\n", on,
		transfers);
	kprintf("BENCH: ctr.record: %lu.%lu instructions per recorded transfer\n",
		extra / transfers, (extra % transfers) * 10 / transfers);
	kprintf("BENCH: ctr.slowdown: %lu.%lu times with recording on\n", on / off,
		(on % off) * 10 / off);
}

static bool ctr_present(void)
{
	unsigned long cause;

	fault_expect(false);
	__asm__ __volatile__("csrr x0, 0x14E" ::: "memory");
	return !fault_end(&cause, NULL);
}

static void read_all_entries(void)
{
	unsigned long i, sum = 0, v;

	for (i = 0; i < 64; i++) {
		__asm__ __volatile__("csrw 0x150, %0" :: "r"(0x200 + i) : "memory");
		__asm__ __volatile__("csrr %0, 0x151" : "=r"(v) :: "memory");
		sum += v;
		__asm__ __volatile__("csrr %0, 0x152" : "=r"(v) :: "memory");
		sum += v;
		__asm__ __volatile__("csrr %0, 0x153" : "=r"(v) :: "memory");
		sum += v;
	}
	__asm__ __volatile__("" :: "r"(sum));
}

void boot_main(unsigned long hartid, uintptr_t dtb);
void boot_main(unsigned long hartid, uintptr_t dtb)
{
	unsigned long v;

	(void)dtb;
	csr_write(sscratch, hartid);
	trap_init_hart();
	if (!ctr_present()) {
		kprintf("BENCH: ctr: not measured: sctrctl raises illegal instruction\n");
	} else {
		__asm__ __volatile__("csrw 0x15F, %0" :: "r"(2UL) : "memory");
		MEASURE("ctr.csrr_sctrctl",
			__asm__ __volatile__("csrr %0, 0x14E" : "=r"(v) :: "memory"));
		/* A value that does not start recording (bit 12, LCOFIFRZ). */
		MEASURE("ctr.csrw_sctrctl",
			__asm__ __volatile__("csrw 0x14E, %0" :: "r"(1UL << 12) : "memory"));
		MEASURE("ctr.sctrclr", __asm__ __volatile__(".word 0x10400073" ::: "memory"));
		MEASURE("ctr.read_64_entries", read_all_entries());
		/* Per entry: 1 siselect write + 3 sireg reads. */
		__asm__ __volatile__("csrw 0x14E, x0" ::: "memory");
		bench_recording();
	}
	kprintf("DONE: bench\n");
	sbi_shutdown();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI call cost benchmark (`make bench`), meant for `-icount shift=0 -smp 1`
 * where instret counts every instruction of the guest, firmware included:
 * the instret delta of a loop of ecalls minus the same loop with a nop in
 * place of the ecall is what the firmware spends per call.  The value of
 * instret at the payload's first instruction is what the firmware ran to
 * boot.  Prints figures only; scripts/bench-sbi.sh builds the table.
 */
#include "rt.h"

#define CALLS 1000

struct bench_call {
	const char *name;
	unsigned long eid, fid, a0, a1;
};

/* instret across CALLS iterations of the call (ecall) or of the same loop
 * with a nop instead (no ecall). */
static uint64_t loop_instret(const struct bench_call *c, bool ecall)
{
	uint64_t start, end;
	unsigned long n = CALLS;

	if (ecall)
		__asm__ volatile(
			"csrr %[start], instret\n"
			"1:\n"
			"mv a0, %[a0]\n mv a1, %[a1]\n mv a6, %[fid]\n mv a7, %[eid]\n"
			"ecall\n"
			"addi %[n], %[n], -1\n bnez %[n], 1b\n"
			"csrr %[end], instret\n"
			: [start] "=&r"(start), [end] "=&r"(end), [n] "+r"(n)
			: [a0] "r"(c->a0), [a1] "r"(c->a1), [fid] "r"(c->fid), [eid] "r"(c->eid)
			: "a0", "a1", "a6", "a7", "memory");
	else
		__asm__ volatile(
			"csrr %[start], instret\n"
			"1:\n"
			"mv a0, %[a0]\n mv a1, %[a1]\n mv a6, %[fid]\n mv a7, %[eid]\n"
			"nop\n"
			"addi %[n], %[n], -1\n bnez %[n], 1b\n"
			"csrr %[end], instret\n"
			: [start] "=&r"(start), [end] "=&r"(end), [n] "+r"(n)
			: [a0] "r"(c->a0), [a1] "r"(c->a1), [fid] "r"(c->fid), [eid] "r"(c->eid)
			: "a0", "a1", "a6", "a7", "memory");
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
	kprintf("DONE: bench\n");
	sbi_shutdown();
}

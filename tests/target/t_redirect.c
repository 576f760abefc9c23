/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exceptions S-mode causes reach S-mode as delegation would deliver them:
 * the ones the firmware sees first (illegal instruction) are redirected with
 * sepc, scause, stval and sstatus SPP/SPIE/SIE set exactly as a delegated
 * trap would set them; delegated ones (breakpoint) arrive directly.
 */
#include "testlib.h"

/* `csrw cycle, zero` (0xc0001073, csrrw x0, cycle, x0): writing a
 * read-only CSR is an illegal instruction whose encoding lands in stval. */
#define ILLEGAL_INSN 0xc0001073u

static unsigned long __attribute__((noinline)) run_illegal(void)
{
	unsigned long pc;

	__asm__ __volatile__(
		"1: auipc %0, 0\n"
		".4byte 0xc0001073\n"
		: "=r"(pc) :: "memory");
	return pc + 4;
}

static void illegal_insn_case(bool sie)
{
	unsigned long cause, tval, pc;
	struct trap_record *rec = trap_record_of(current_hart());

	if (sie)
		irq_enable();
	else
		irq_disable();
	fault_expect(false);
	pc = run_illegal();
	irq_disable();
	if (!CHECK(fault_end(&cause, &tval), "the illegal instruction did not trap"))
		return;
	CHECK_EQ(cause, EXC_ILLEGAL_INSN, "scause");
	CHECK_EQ(tval, ILLEGAL_INSN, "stval holds the instruction");
	CHECK_EQ(rec->epc, pc, "sepc points at the instruction");
	CHECK(rec->status & SSTATUS_SPP, "sstatus.SPP says the trap came from S-mode");
	CHECK(!(rec->status & SSTATUS_SIE), "sstatus.SIE is cleared in the handler");
	CHECK(!!(rec->status & SSTATUS_SPIE) == sie, "sstatus.SPIE = SIE before the trap (%d)",
	      sie);
}

static void illegal_insn_sie_clear(void)
{
	illegal_insn_case(false);
}

static void illegal_insn_sie_set(void)
{
	illegal_insn_case(true);
}

static void breakpoint_delegated(void)
{
	unsigned long cause, tval;

	fault_expect(false);
	__asm__ __volatile__(".option push\n.option norvc\nebreak\n.option pop" ::: "memory");
	if (!CHECK(fault_end(&cause, &tval), "ebreak did not trap"))
		return;
	CHECK_EQ(cause, EXC_BREAKPOINT, "scause of ebreak");
}

static void misaligned_access_completes(void)
{
	static uint8_t buf[16] __attribute__((aligned(8)));
	unsigned long cause, i;
	volatile uint64_t *p = (volatile uint64_t *)(buf + 3);
	uint64_t v;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0x10 + i);
	fault_expect(false);
	v = *p;
	*p = 0x1122334455667788ull;
	CHECK(!fault_end(&cause, NULL), "a misaligned access reached S-mode as a fault");
	CHECK_EQ(v, 0x1a19181716151413ull, "misaligned load value");
	CHECK_EQ(buf[3], 0x88, "misaligned store, first byte");
	CHECK_EQ(buf[10], 0x11, "misaligned store, last byte");
	CHECK_EQ(buf[2], 0x12, "byte below the store untouched");
	CHECK_EQ(buf[11], 0x1b, "byte above the store untouched");
}

static const struct target_test tests[] = {
	{ "illegal_insn_sie_clear", illegal_insn_sie_clear, DEV_NONE },
	{ "illegal_insn_sie_set", illegal_insn_sie_set, DEV_NONE },
	{ "breakpoint_delegated", breakpoint_delegated, DEV_NONE },
	{ "misaligned_access_completes", misaligned_access_completes, DEV_NONE },
};
GROUP(redirect, tests);

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests of firmware/ctr/ctr_ingress.c: the trace engine's ingress
 * records (lib/ntrace blocks and single records, as the stepper reports
 * them) turned into CTR records (docs/CTR.md, "Recording").  The
 * instruction fetch is a fake memory of a few encoded instructions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "firmware/ctr/ctr_ingress.h"
#include "lib/rvinsn/rvinsn.h"
#include "lib/rvinsn/rvinsn_enc.h"

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3
#define INTR (1UL << 63)
#define STVEC 0x80001000UL

static struct ctr_state S;
static struct ctr_ingress I;

/* ---- a fake memory: up to 8 instructions at given addresses ------------- */

static struct {
	uint64_t addr;
	uint32_t raw;
} mem[8];
static unsigned int mem_count, fetches;

static void put(uint64_t addr, uint32_t raw)
{
	mem[mem_count].addr = addr;
	mem[mem_count++].raw = raw;
}

static int fake_fetch(void *ctx, uint64_t addr, unsigned int priv, uint32_t *raw)
{
	unsigned int i;

	(void)ctx;
	(void)priv;
	fetches++;
	for (i = 0; i < mem_count; i++) {
		if (mem[i].addr == addr) {
			*raw = mem[i].raw;
			return 0;
		}
	}
	return -1;
}

static void start(bool exact, uint64_t ctl)
{
	ctr_reset(&S, CTR_LAYOUT_RATIFIED);
	ctr_sctrctl_write(&S, false, ctl);
	ctr_ingress_reset(&I, exact, fake_fetch, NULL);
	mem_count = 0;
	fetches = 0;
}

static int setup(void **state)
{
	(void)state;
	start(true, CTRCTL_S | CTRCTL_U | CTRCTL_NTBREN);
	return 0;
}

/* ---- feeding ------------------------------------------------------------- */

static const struct ctr_trap no_trap;

static void rec(uint64_t addr, unsigned int size, unsigned int itype, unsigned int priv)
{
	struct ntrace_retired r = { .addr = addr, .size = (uint8_t)size, .itype = (uint8_t)itype,
				    .priv = (uint8_t)priv };

	ctr_ingress_record(&I, &S, &r, &no_trap);
}

static void trap_rec(uint64_t addr, unsigned int size, unsigned int itype, unsigned int priv,
		     uint64_t epc, unsigned long cause)
{
	struct ntrace_retired r = { .addr = addr, .size = (uint8_t)size, .itype = (uint8_t)itype,
				    .priv = (uint8_t)priv };
	struct ctr_trap t = { epc, cause };

	ctr_ingress_record(&I, &S, &r, &t);
}

/* n 4-byte instructions from addr, then the end record (itype, 4 bytes)
 * at `end`. */
static void block(uint64_t addr, unsigned int n, uint64_t end, unsigned int itype,
		  unsigned int priv)
{
	struct ntrace_block b = { .addr = addr, .count = (uint8_t)n, .priv = (uint8_t)priv };
	struct ntrace_retired e = { .addr = end, .size = 4, .itype = (uint8_t)itype,
				    .priv = (uint8_t)priv };

	ctr_ingress_block(&I, &S, &b, &e, &no_trap);
}

static unsigned int wrptr(void)
{
	return (unsigned int)(ctr_sctrstatus_read(&S) & 0xFF);
}

/* Logical entry i (0 = newest) is source -> target of type. */
static void assert_entry(unsigned int i, uint64_t source, uint64_t target, enum ctr_type type)
{
	assert_int_equal(ctr_entry_read(&S, i, CTR_SOURCE), source | CTRSOURCE_V);
	assert_int_equal(ctr_entry_read(&S, i, CTR_TARGET), target);
	assert_int_equal(ctr_entry_read(&S, i, CTR_DATA) & CTRDATA_TYPE_MASK, type);
}

/* ---- itypes that say CTR's type --------------------------------------- */

/* With 4-bit itypes and all jumps, the type is the itype's (no fetch),
 * and the target is the next record's address. */
static void test_exact_itypes_need_no_decode(void **state)
{
	static const struct { unsigned int itype; enum ctr_type type; } map[] = {
		{ RV_ITYPE_TRAP_RETURN, CTR_TYPE_TRAP_RETURN },
		{ RV_ITYPE_NOT_TAKEN_BRANCH, CTR_TYPE_NOT_TAKEN_BRANCH },
		{ RV_ITYPE_TAKEN_BRANCH, CTR_TYPE_TAKEN_BRANCH },
		{ RV_ITYPE_UNINFERABLE_CALL, CTR_TYPE_INDIRECT_CALL },
		{ RV_ITYPE_INFERABLE_CALL, CTR_TYPE_DIRECT_CALL },
		{ RV_ITYPE_COROUTINE_SWAP, CTR_TYPE_CO_ROUTINE_SWAP },
		{ RV_ITYPE_RETURN, CTR_TYPE_FUNCTION_RETURN },
	};
	unsigned int i, n = sizeof(map) / sizeof(map[0]);

	(void)state;
	for (i = 0; i < n; i++)
		rec(0x1000 + 0x100 * i, 4, map[i].itype, PRV_S);
	rec(0x9000, 4, 0, PRV_S);
	assert_int_equal(wrptr(), n);
	for (i = 0; i < n; i++)
		assert_entry(n - 1 - i, 0x1000 + 0x100 * i,
			     i + 1 < n ? 0x1000 + 0x100 * (i + 1) : 0x9000, map[i].type);
	assert_int_equal(fetches, 0);
}

/* Itypes 14 and 15 join "jump" (rd = x0) and "other jump": decoded. */
static void test_itypes_14_15_decoded(void **state)
{
	(void)state;
	put(0x100, rv_enc_jal(0, 0x100));
	put(0x200, rv_enc_jal(7, 0x100));
	put(0x300, rv_enc_jalr(0, 6, 0));
	put(0x400, rv_enc_jalr(7, 6, 0));
	rec(0x100, 4, RV_ITYPE_OTHER_INFERABLE_JUMP, PRV_S);
	rec(0x200, 4, RV_ITYPE_OTHER_INFERABLE_JUMP, PRV_S);
	rec(0x300, 4, RV_ITYPE_OTHER_UNINFERABLE_JUMP, PRV_S);
	rec(0x400, 4, RV_ITYPE_OTHER_UNINFERABLE_JUMP, PRV_S);
	rec(0x500, 4, 0, PRV_S);
	assert_entry(3, 0x100, 0x200, CTR_TYPE_DIRECT_JUMP);
	assert_entry(2, 0x200, 0x300, CTR_TYPE_OTHER_DIRECT_JUMP);
	assert_entry(1, 0x300, 0x400, CTR_TYPE_INDIRECT_JUMP);
	assert_entry(0, 0x400, 0x500, CTR_TYPE_OTHER_INDIRECT_JUMP);
	assert_int_equal(fetches, 4);
}

/* 3-bit itypes without all jumps: a direct jump has itype 0 and is found
 * by its target not being the next instruction; plain itype-0
 * instructions are no transfer. */
static void test_itype0_jump_found_by_its_target(void **state)
{
	(void)state;
	start(false, CTRCTL_S);
	put(0x100, rv_enc_jal(1, 0x80));
	rec(0x0fc, 4, 0, PRV_S);          /* linear, next is 0x100 */
	rec(0x100, 4, 0, PRV_S);          /* jal ra: next is 0x180 */
	rec(0x180, 4, 0, PRV_S);
	rec(0x184, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 1);
	assert_entry(0, 0x100, 0x180, CTR_TYPE_DIRECT_CALL);
	assert_int_equal(fetches, 1);
}

/* The stepper joins an itype-0 jump into the run before the end record:
 * the run's last instruction jumped when the end is not right after it. */
static void test_run_ending_in_a_jump(void **state)
{
	(void)state;
	start(false, CTRCTL_S | CTRCTL_NTBREN);
	put(0x108, rv_enc_jal(0, 0x40));
	block(0x100, 3, 0x148, RV_ITYPE_NOT_TAKEN_BRANCH, PRV_S);
	rec(0x14c, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 2);
	assert_entry(1, 0x108, 0x148, CTR_TYPE_DIRECT_JUMP);
	assert_entry(0, 0x148, 0x14c, CTR_TYPE_NOT_TAKEN_BRANCH);
}

/* ---- traps -------------------------------------------------------------- */

/* An interrupt after a taken branch retired: the branch goes to epc
 * (its target), then the interrupt from epc to the handler. */
static void test_trap_after_a_retired_branch(void **state)
{
	(void)state;
	put(0x100, rv_enc_branch(1, 5, 0, 0x40));
	trap_rec(0x100, 4, RV_ITYPE_INTERRUPT, PRV_S, 0x140, INTR | 5);
	rec(STVEC, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 2);
	assert_entry(1, 0x100, 0x140, CTR_TYPE_TAKEN_BRANCH);
	assert_entry(0, 0x140, STVEC, CTR_TYPE_INTERRUPT);
}

/* An exception instead of an instruction (size 0): epc is the record. */
static void test_exception_in_an_instruction(void **state)
{
	(void)state;
	trap_rec(0x200, 0, RV_ITYPE_EXCEPTION, PRV_S, 0x200, 13);
	rec(STVEC, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 1);
	assert_entry(0, 0x200, STVEC, CTR_TYPE_EXCEPTION);
	assert_int_equal(fetches, 0);
}

/* U (disabled) -> S (enabled): the source is 0 ("Privilege Mode
 * Transitions"); S -> U by sret: the target is 0. */
static void test_partial_records_between_modes(void **state)
{
	(void)state;
	start(true, CTRCTL_S);
	trap_rec(0x300, 4, RV_ITYPE_EXCEPTION, PRV_U, 0x300, 8);   /* ecall retires */
	rec(STVEC, 4, 0, PRV_S);
	rec(STVEC + 4, 4, RV_ITYPE_TRAP_RETURN, PRV_S);
	rec(0x304, 4, 0, PRV_U);
	assert_int_equal(wrptr(), 2);
	assert_entry(1, 0, STVEC, CTR_TYPE_EXCEPTION);
	assert_entry(0, STVEC + 4, 0, CTR_TYPE_TRAP_RETURN);
}

/* An SBI call: the ecall traps into M-mode (the next record is M's).  M
 * is never enabled and MTE cannot be set from S: nothing is recorded,
 * the S CSRs (stale for it) are not used, and nothing waits after it. */
static void test_sbi_call_is_not_recorded(void **state)
{
	(void)state;
	put(0x400, rv_enc_ecall());
	trap_rec(0x400, 4, RV_ITYPE_EXCEPTION, PRV_S, 0xdead, INTR | 13);
	rec(0x80000000, 0, 0, PRV_M);
	rec(0x404, 4, 0, PRV_S);
	rec(0x408, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 0);
	assert_false(ctr_sctrstatus_read(&S) & SCTRSTATUS_FROZEN);
}

/* LCOFIFRZ: the LCOFI into S freezes and is not recorded; BPFRZ: so does
 * a breakpoint; nothing after is recorded. */
static void test_freeze_on_lcofi_and_breakpoint(void **state)
{
	(void)state;
	start(true, CTRCTL_S | CTRCTL_LCOFIFRZ);
	rec(0x100, 4, RV_ITYPE_TAKEN_BRANCH, PRV_S);
	trap_rec(0x200, 4, RV_ITYPE_INTERRUPT, PRV_S, 0x204, INTR | 13);
	rec(STVEC, 4, RV_ITYPE_TAKEN_BRANCH, PRV_S);
	rec(0x500, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 1);
	assert_entry(0, 0x100, 0x200, CTR_TYPE_TAKEN_BRANCH);
	assert_true(ctr_sctrstatus_read(&S) & SCTRSTATUS_FROZEN);
	assert_true(I.froze);
	assert_false(ctr_ingress_wanted(&S));

	start(true, CTRCTL_S | CTRCTL_BPFRZ);
	trap_rec(0x600, 4, RV_ITYPE_EXCEPTION, PRV_S, 0x600, 3);
	rec(STVEC, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 0);
	assert_true(ctr_sctrstatus_read(&S) & SCTRSTATUS_FROZEN);
}

/* ---- cycles and flush --------------------------------------------------- */

/* "Cycle Counting" from instruction counts: the instructions that retired
 * in an active mode since the last record, the transfer included; those
 * of a disabled mode do not count. */
static void test_cycles_are_retired_instructions(void **state)
{
	uint32_t data;

	(void)state;
	start(true, CTRCTL_S);
	rec(0x100, 4, RV_ITYPE_TAKEN_BRANCH, PRV_S);         /* first: CCV 0 */
	block(0x200, 10, 0x228, RV_ITYPE_TAKEN_BRANCH, PRV_S);
	block(0x300, 7, 0x31c, 0, PRV_U);                   /* U: not active */
	rec(0x320, 4, RV_ITYPE_TAKEN_BRANCH, PRV_S);
	rec(0x400, 4, 0, PRV_S);
	assert_int_equal(wrptr(), 3);
	assert_false(ctr_entry_read(&S, 2, CTR_DATA) & CTRDATA_CCV);
	data = (uint32_t)ctr_entry_read(&S, 1, CTR_DATA);
	assert_true(data & CTRDATA_CCV);
	assert_int_equal(data >> CTRDATA_CC_SHIFT, 11);
	data = (uint32_t)ctr_entry_read(&S, 0, CTR_DATA);
	assert_int_equal(data >> CTRDATA_CC_SHIFT, 1);
}

/* Stepping stops, or a CTR register is read, at pc: the waiting transfer
 * goes there; a second flush finds nothing waiting. */
static void test_flush_resolves_the_last_transfer(void **state)
{
	(void)state;
	rec(0x100, 4, RV_ITYPE_INFERABLE_CALL, PRV_S);
	assert_int_equal(wrptr(), 0);
	ctr_ingress_flush(&I, &S, 0x700, PRV_S);
	assert_int_equal(wrptr(), 1);
	assert_entry(0, 0x100, 0x700, CTR_TYPE_DIRECT_CALL);
	ctr_ingress_flush(&I, &S, 0x800, PRV_S);
	assert_int_equal(wrptr(), 1);
}

/* A block's run is sequential: only its end (and what follows) makes
 * transfers; an unreadable instruction records nothing. */
static void test_blocks_and_unreadable_code(void **state)
{
	(void)state;
	block(0x100, 5, 0x114, RV_ITYPE_TAKEN_BRANCH, PRV_S);
	block(0x200, 0, 0x200, RV_ITYPE_OTHER_INFERABLE_JUMP, PRV_S);
	block(0x300, 2, 0x308, 0, PRV_S);
	assert_int_equal(wrptr(), 1);
	assert_entry(0, 0x114, 0x200, CTR_TYPE_TAKEN_BRANCH);
	assert_int_equal(fetches, 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_exact_itypes_need_no_decode),
		T(test_itypes_14_15_decoded),
		T(test_itype0_jump_found_by_its_target),
		T(test_run_ending_in_a_jump),
		T(test_trap_after_a_retired_branch),
		T(test_exception_in_an_instruction),
		T(test_partial_records_between_modes),
		T(test_sbi_call_is_not_recorded),
		T(test_freeze_on_lcofi_and_breakpoint),
		T(test_cycles_are_retired_instructions),
		T(test_flush_resolves_the_last_transfer),
		T(test_blocks_and_unreadable_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

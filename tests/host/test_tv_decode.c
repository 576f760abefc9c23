/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * firmware/trace/tv_decode.c: what the tandem-verification stepper reads
 * from an instruction, per the ISA manual's encodings (the instruction
 * words below are what binutils assembles for the named instruction).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "firmware/trace/tv_decode.h"
#include "lib/rvinsn/rvinsn.h"

static struct tv_insn D(uint32_t raw)
{
	struct tv_insn in;

	assert_true(tv_decode(raw, &in));
	return in;
}

static void test_load_writes_rd_and_reads_rs1_plus_imm(void **state)
{
	struct tv_insn in = D(0xff843503);   /* ld a0, -8(s0) */

	(void)state;
	assert_int_equal(in.len, 4);
	assert_int_equal(in.mem, TV_MEM_LOAD);
	assert_int_equal(in.mem_size, 3);
	assert_int_equal(in.rs1, 8);
	assert_int_equal(in.imm, -8);
	assert_int_equal(in.dest, TV_DEST_GPR);
	assert_int_equal(in.rd, 10);
	assert_false(in.has_data);
	in = D(0x0042c603);                  /* lbu a2, 4(t0) */
	assert_int_equal(in.mem_size, 0);
	assert_int_equal(in.imm, 4);
}

static void test_store_has_data_from_rs2(void **state)
{
	struct tv_insn in = D(0xfea43423);   /* sd a0, -24(s0) */

	(void)state;
	assert_int_equal(in.mem, TV_MEM_STORE);
	assert_int_equal(in.mem_size, 3);
	assert_int_equal(in.imm, -24);
	assert_int_equal(in.rs1, 8);
	assert_int_equal(in.rs2, 10);
	assert_true(in.has_data);
	assert_false(in.data_fpr);
	assert_int_equal(in.dest, TV_DEST_NONE);
}

static void test_compressed_loads_and_stores(void **state)
{
	struct tv_insn in = D(0x4198);       /* c.lw a4, 0(a1) */

	(void)state;
	assert_int_equal(in.len, 2);
	assert_int_equal(in.mem, TV_MEM_LOAD);
	assert_int_equal(in.mem_size, 2);
	assert_int_equal(in.rs1, 11);
	assert_int_equal(in.rd, 14);
	in = D(0xe42a);                      /* c.sdsp a0, 8(sp) */
	assert_int_equal(in.mem, TV_MEM_STORE);
	assert_int_equal(in.mem_size, 3);
	assert_int_equal(in.rs1, 2);
	assert_int_equal(in.rs2, 10);
	assert_int_equal(in.imm, 8);
	in = D(0x6622);                      /* c.ldsp a2, 8(sp) */
	assert_int_equal(in.mem, TV_MEM_LOAD);
	assert_int_equal(in.imm, 8);
	assert_int_equal(in.rd, 12);
	in = D(0xa40c);                      /* c.fsd fa1, 8(s0) */
	assert_true(in.data_fpr);
	assert_int_equal(in.rs2, 11);
	assert_int_equal(in.imm, 8);
}

static void test_amo_lr_sc(void **state)
{
	struct tv_insn in = D(0x00b5352f);   /* amoadd.d a0, a1, (a0) */

	(void)state;
	assert_int_equal(in.mem, TV_MEM_AMO);
	assert_int_equal(in.mem_size, 3);
	assert_true(in.has_data);
	assert_int_equal(in.rs2, 11);
	assert_int_equal(in.rd, 10);
	in = D(0x1005272f);                  /* lr.w a4, (a0) */
	assert_false(in.has_data);
	assert_int_equal(in.mem_size, 2);
	in = D(0x18c5b6af);                  /* sc.d a3, a2, (a1) */
	assert_true(in.has_data);
	assert_int_equal(in.rd, 13);
}

static void test_csr_write_rules(void **state)
{
	struct tv_insn in = D(0x10551073);   /* csrw stvec, a0 */

	(void)state;
	assert_true(in.writes_csr);
	assert_int_equal(in.csr, 0x105);
	assert_int_equal(in.dest, TV_DEST_NONE);
	in = D(0x14102573);                  /* csrr a0, sepc (csrrs a0, sepc, x0) */
	assert_false(in.writes_csr);
	assert_int_equal(in.dest, TV_DEST_GPR);
	in = D(0x10016073);                  /* csrsi sstatus, 2 */
	assert_true(in.writes_csr);
	in = D(0x10007073);                  /* csrci sstatus, 0 */
	assert_false(in.writes_csr);
}

static void test_fp_destinations_and_flags(void **state)
{
	struct tv_insn in = D(0x02b57553);   /* fadd.d fa0, fa0, fa1 */

	(void)state;
	assert_int_equal(in.dest, TV_DEST_FPR);
	assert_int_equal(in.rd, 10);
	assert_true(in.fp_flags);
	in = D(0xe2050553);                  /* fmv.x.d a0, fa0 */
	assert_int_equal(in.dest, TV_DEST_GPR);
	assert_false(in.fp_flags);
	in = D(0xa2b52553);                  /* feq.d a0, fa0, fa1 */
	assert_int_equal(in.dest, TV_DEST_GPR);
	assert_true(in.fp_flags);
	in = D(0x00053007);                  /* fld ft0, 0(a0) */
	assert_int_equal(in.dest, TV_DEST_FPR);
	assert_int_equal(in.rd, 0);
}

static void test_control_flow(void **state)
{
	struct tv_insn in = D(0x00b50463);   /* beq a0, a1, .+8 */

	(void)state;
	assert_int_equal(in.flow, TV_FLOW_BRANCH);
	assert_int_equal(in.cond, 0);
	assert_int_equal(in.rs1, 10);
	assert_int_equal(in.rs2, 11);
	assert_int_equal(in.imm, 8);
	in = D(0xc119);                      /* c.beqz a0, .+6 */
	assert_int_equal(in.flow, TV_FLOW_BRANCH);
	assert_int_equal(in.rs1, 10);
	assert_int_equal(in.rs2, 0);
	assert_int_equal(in.imm, 6);
	in = D(0x010000ef);                  /* jal ra, .+16 */
	assert_int_equal(in.flow, TV_FLOW_JAL);
	assert_int_equal(in.rd, 1);
	assert_int_equal(in.imm, 16);
	in = D(0x8082);                      /* c.jr ra (ret) */
	assert_int_equal(in.flow, TV_FLOW_JALR);
	assert_int_equal(in.rs1, 1);
	assert_int_equal(in.dest, TV_DEST_NONE);
	in = D(0x9782);                      /* c.jalr a5 */
	assert_int_equal(in.flow, TV_FLOW_JALR);
	assert_int_equal(in.rs1, 15);
	assert_int_equal(in.rd, 1);
	assert_int_equal(D(0x10200073).flow, TV_FLOW_SRET);
	assert_int_equal(D(0x00000073).flow, TV_FLOW_ECALL);
	assert_int_equal(D(0x00a58533).flow, TV_FLOW_SEQ);   /* add a0, a1, a0 */
}

static void test_branch_compares(void **state)
{
	(void)state;
	assert_true(rv_branch_taken(4, (uint64_t)-1, 0));    /* blt: signed */
	assert_false(rv_branch_taken(6, (uint64_t)-1, 0));   /* bltu */
	assert_true(rv_branch_taken(5, 3, 3));               /* bge */
	assert_true(rv_branch_taken(7, (uint64_t)-1, 1));    /* bgeu */
	assert_true(rv_branch_taken(1, 1, 2));               /* bne */
}

static void test_unknown_is_not_decoded(void **state)
{
	struct tv_insn in;

	(void)state;
	assert_false(tv_decode(0x0000, &in));           /* the all-zero illegal instruction */
	assert_int_equal(in.len, 2);
	assert_false(tv_decode(0x0000007f, &in));       /* a reserved major opcode */
	assert_int_equal(in.len, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_writes_rd_and_reads_rs1_plus_imm),
		cmocka_unit_test(test_store_has_data_from_rs2),
		cmocka_unit_test(test_compressed_loads_and_stores),
		cmocka_unit_test(test_amo_lr_sc),
		cmocka_unit_test(test_csr_write_rules),
		cmocka_unit_test(test_fp_destinations_and_flags),
		cmocka_unit_test(test_control_flow),
		cmocka_unit_test(test_branch_compares),
		cmocka_unit_test(test_unknown_is_not_decoded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

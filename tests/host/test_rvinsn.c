// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvinsn: one test per row of N-Trace Table 2 ("Generating itype for
 * different instructions"), for RV32 and RV64, with 32-bit and compressed
 * encodings built from their fields; plus lengths, offsets and the
 * sequential-jump helper (9.1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/rvinsn/rvinsn.h"
#include "lib/rvinsn/rvinsn_enc.h"

#define ALL_EXT (RV_EXT_C | RV_EXT_ZCMP | RV_EXT_ZCMT)

static const unsigned xlens[] = { 32, 64 };

/* Check kind and both itype forms of `raw` on RV32 and RV64. */
static void expect_both(uint32_t raw, unsigned ext, unsigned kind, unsigned it3, unsigned it4,
			unsigned size)
{
	for (unsigned i = 0; i < 2; i++) {
		struct rv_insn in;

		assert_int_equal(rv_insn_decode(raw, xlens[i], ext, &in), size);
		assert_int_equal(in.kind, kind);
		assert_int_equal(in.size, size);
		assert_int_equal(rv_insn_itype(&in, false, false, false), it3);
		assert_int_equal(rv_insn_itype(&in, false, true, false), it4);
	}
}

static void test_table2_conditional_branch_non_taken_and_taken(void **state)
{
	(void)state;
	for (unsigned x = 0; x < 2; x++) {
		static const unsigned funct3[] = { 0, 1, 4, 5, 6, 7 };

		for (unsigned f = 0; f < 6; f++) {
			struct rv_insn in;

			assert_int_equal(rv_insn_decode(rv_enc_branch(funct3[f], 10, 11, -8), xlens[x], 0, &in), 4);
			assert_int_equal(in.kind, RV_INSN_BRANCH);
			for (unsigned form = 0; form < 2; form++) {
				assert_int_equal(rv_insn_itype(&in, false, form, false), RV_ITYPE_NOT_TAKEN_BRANCH);
				assert_int_equal(rv_insn_itype(&in, true, form, false), RV_ITYPE_TAKEN_BRANCH);
			}
		}
		/* compressed forms */
		uint32_t craw[] = { rv_enc_c_beqz(8, 16), rv_enc_c_bnez(15, -16) };

		for (unsigned k = 0; k < 2; k++) {
			struct rv_insn in;

			assert_int_equal(rv_insn_decode(craw[k], xlens[x], RV_EXT_C, &in), 2);
			assert_int_equal(in.kind, RV_INSN_BRANCH);
			assert_int_equal(rv_insn_itype(&in, false, true, false), RV_ITYPE_NOT_TAKEN_BRANCH);
			assert_int_equal(rv_insn_itype(&in, true, false, false), RV_ITYPE_TAKEN_BRANCH);
		}
	}
	/* funct3 2 and 3 are not branches */
	struct rv_insn in;

	assert_int_equal(rv_insn_decode(rv_enc_branch(2, 1, 2, 8), 64, 0, &in), 0);
	assert_int_equal(in.kind, RV_INSN_INVALID);
}

static void test_table2_ebreak_ecall_c_ebreak_are_exceptions(void **state)
{
	(void)state;
	expect_both(rv_enc_ecall(), 0, RV_INSN_TRAP, RV_ITYPE_EXCEPTION, RV_ITYPE_EXCEPTION, 4);
	expect_both(rv_enc_ebreak(), 0, RV_INSN_TRAP, RV_ITYPE_EXCEPTION, RV_ITYPE_EXCEPTION, 4);
	expect_both(rv_enc_c_ebreak(), RV_EXT_C, RV_INSN_TRAP, RV_ITYPE_EXCEPTION, RV_ITYPE_EXCEPTION, 2);
}

static void test_table2_mret_sret_uret_are_trap_returns(void **state)
{
	(void)state;
	expect_both(rv_enc_mret(), 0, RV_INSN_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, 4);
	expect_both(rv_enc_sret(), 0, RV_INSN_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, 4);
	expect_both(rv_enc_uret(), 0, RV_INSN_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, 4);
	expect_both(rv_enc_dret(), 0, RV_INSN_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, 4);
	/* wfi is a plain instruction */
	expect_both(rv_enc_wfi(), 0, RV_INSN_LINEAR, RV_ITYPE_NONE, RV_ITYPE_NONE, 4);
}

static void test_table2_cm_jt_is_no_special_type(void **state)
{
	(void)state;
	for (unsigned idx = 0; idx < 32; idx += 7) {
		expect_both(rv_enc_cm_jt(idx), ALL_EXT, RV_INSN_TABLE_JUMP, RV_ITYPE_NONE, RV_ITYPE_NONE, 2);
	}
	/* without Zcmt the same bits are c.fsdsp: linear */
	expect_both(rv_enc_cm_jt(3), RV_EXT_C, RV_INSN_LINEAR, RV_ITYPE_NONE, RV_ITYPE_NONE, 2);
}

static void test_table2_non_jump_is_no_special_type(void **state)
{
	(void)state;
	expect_both(rv_enc_addi(5, 6, -1), 0, RV_INSN_LINEAR, 0, 0, 4);
	expect_both(rv_enc_lui(7, 0x12345), 0, RV_INSN_LINEAR, 0, 0, 4);
	expect_both(rv_enc_auipc(7, 0x12345), 0, RV_INSN_LINEAR, 0, 0, 4);
	expect_both(0x0005a503, 0, RV_INSN_LINEAR, 0, 0, 4); /* lw a0, 0(a1) */
	expect_both(rv_enc_c_nop(), RV_EXT_C, RV_INSN_LINEAR, 0, 0, 2);
	expect_both(rv_enc_c_mv(10, 11), RV_EXT_C, RV_INSN_LINEAR, 0, 0, 2);
	expect_both(rv_enc_c_add(10, 11), RV_EXT_C, RV_INSN_LINEAR, 0, 0, 2);
	expect_both(rv_enc_c_lui(10, 1), RV_EXT_C, RV_INSN_LINEAR, 0, 0, 2);
	expect_both(rv_enc_cm_push(4, 0), ALL_EXT, RV_INSN_LINEAR, 0, 0, 2);
	expect_both(0x0000000b, 0, RV_INSN_LINEAR, 0, 0, 4); /* custom-0 opcode (10.1) */
}

static void test_table2_jal_rd_link_is_inferable_call(void **state)
{
	(void)state;
	expect_both(rv_enc_jal(1, 64), 0, RV_INSN_JUMP, RV_ITYPE_NONE, RV_ITYPE_INFERABLE_CALL, 4);
	expect_both(rv_enc_jal(5, -64), 0, RV_INSN_JUMP, RV_ITYPE_NONE, RV_ITYPE_INFERABLE_CALL, 4);
}

static void test_table2_jal_rd_not_link_is_other_inferable_jump(void **state)
{
	(void)state;
	expect_both(rv_enc_jal(0, 64), 0, RV_INSN_JUMP, RV_ITYPE_NONE, RV_ITYPE_OTHER_INFERABLE_JUMP, 4);
	expect_both(rv_enc_jal(6, 64), 0, RV_INSN_JUMP, RV_ITYPE_NONE, RV_ITYPE_OTHER_INFERABLE_JUMP, 4);
}

static void test_table2_jalr_rd_link_rs1_not_link_is_uninferable_call(void **state)
{
	(void)state;
	expect_both(rv_enc_jalr(1, 6, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 4);
	expect_both(rv_enc_jalr(5, 10, 8), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 4);
}

static void test_table2_jalr_rd_link_rs1_link_different_is_coroutine_swap(void **state)
{
	(void)state;
	expect_both(rv_enc_jalr(1, 5, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_COROUTINE_SWAP, 4);
	expect_both(rv_enc_jalr(5, 1, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_COROUTINE_SWAP, 4);
}

static void test_table2_jalr_rd_link_rs1_link_same_is_uninferable_call(void **state)
{
	(void)state;
	expect_both(rv_enc_jalr(1, 1, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 4);
	expect_both(rv_enc_jalr(5, 5, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 4);
}

static void test_table2_jalr_rd_not_link_rs1_link_is_return(void **state)
{
	(void)state;
	expect_both(rv_enc_jalr(0, 1, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 4);
	expect_both(rv_enc_jalr(0, 5, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 4);
	expect_both(rv_enc_jalr(6, 1, 4), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 4);
}

static void test_table2_jalr_rd_not_link_rs1_not_link_is_other_uninferable_jump(void **state)
{
	(void)state;
	expect_both(rv_enc_jalr(0, 6, 0), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_OTHER_UNINFERABLE_JUMP, 4);
	expect_both(rv_enc_jalr(7, 8, -4), 0, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_OTHER_UNINFERABLE_JUMP, 4);
}

static void test_table2_c_jal_is_inferable_call_on_rv32_only(void **state)
{
	struct rv_insn in;

	(void)state;
	assert_int_equal(rv_insn_decode(rv_enc_c_jal(100), 32, RV_EXT_C, &in), 2);
	assert_int_equal(in.kind, RV_INSN_JUMP);
	assert_int_equal(in.rd, 1);
	assert_int_equal(rv_insn_itype(&in, false, true, false), RV_ITYPE_INFERABLE_CALL);
	assert_int_equal(rv_insn_itype(&in, false, false, false), RV_ITYPE_NONE);
	/* on RV64 the same bits are c.addiw */
	assert_int_equal(rv_insn_decode(rv_enc_c_jal(100), 64, RV_EXT_C, &in), 2);
	assert_int_equal(in.kind, RV_INSN_LINEAR);
}

static void test_table2_c_jalr_rs1_x5_is_coroutine_swap(void **state)
{
	(void)state;
	expect_both(rv_enc_c_jalr(5), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_COROUTINE_SWAP, 2);
}

static void test_table2_c_jalr_rs1_not_x5_is_uninferable_call(void **state)
{
	(void)state;
	expect_both(rv_enc_c_jalr(1), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 2);
	expect_both(rv_enc_c_jalr(10), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_UNINFERABLE_CALL, 2);
}

static void test_table2_c_jr_rs1_link_is_return(void **state)
{
	(void)state;
	expect_both(rv_enc_c_jr(1), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 2);
	expect_both(rv_enc_c_jr(5), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 2);
}

static void test_table2_c_jr_rs1_not_link_is_other_uninferable_jump(void **state)
{
	(void)state;
	expect_both(rv_enc_c_jr(6), RV_EXT_C, RV_INSN_JUMP_REG, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_OTHER_UNINFERABLE_JUMP, 2);
}

static void test_table2_c_j_is_other_inferable_jump(void **state)
{
	(void)state;
	expect_both(rv_enc_c_j(-2), RV_EXT_C, RV_INSN_JUMP, RV_ITYPE_NONE, RV_ITYPE_OTHER_INFERABLE_JUMP, 2);
}

static void test_table2_cm_jalt_is_inferable_call(void **state)
{
	(void)state;
	expect_both(rv_enc_cm_jalt(32), ALL_EXT, RV_INSN_TABLE_JUMP, RV_ITYPE_NONE, RV_ITYPE_INFERABLE_CALL, 2);
	expect_both(rv_enc_cm_jalt(255), ALL_EXT, RV_INSN_TABLE_JUMP, RV_ITYPE_NONE, RV_ITYPE_INFERABLE_CALL, 2);
}

static void test_table2_cm_popret_is_return(void **state)
{
	(void)state;
	expect_both(rv_enc_cm_popret(4, 0), ALL_EXT, RV_INSN_POPRET, RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_RETURN, 2);
	expect_both(rv_enc_cm_popretz(15, 3), ALL_EXT, RV_INSN_POPRET, RV_ITYPE_UNINFERABLE_JUMP,
		    RV_ITYPE_RETURN, 2);
	/* rlist 0..3 is reserved */
	struct rv_insn in;

	assert_int_equal(rv_insn_decode(rv_enc_cm_popret(3, 0), 64, ALL_EXT, &in), 0);
}

/* Table 4 note: with trTeInstEnAllJumps inferable jumps report 5 (3-bit). */
static void test_table4_all_jumps_reports_inferable_jumps_as_taken(void **state)
{
	struct rv_insn in;

	(void)state;
	rv_insn_decode(rv_enc_jal(0, 8), 64, 0, &in);
	assert_int_equal(rv_insn_itype(&in, false, false, true), RV_ITYPE_TAKEN_BRANCH);
	assert_int_equal(rv_insn_itype(&in, false, true, true), RV_ITYPE_OTHER_INFERABLE_JUMP);
	rv_insn_decode(rv_enc_c_j(8), 64, RV_EXT_C, &in);
	assert_int_equal(rv_insn_itype(&in, false, false, true), RV_ITYPE_TAKEN_BRANCH);
	rv_insn_decode(rv_enc_cm_jt(2), 64, ALL_EXT, &in);
	assert_int_equal(rv_insn_itype(&in, false, false, true), RV_ITYPE_TAKEN_BRANCH);
	assert_int_equal(rv_insn_itype(&in, false, true, true), RV_ITYPE_OTHER_INFERABLE_JUMP);
	/* indirect jumps are not affected */
	rv_insn_decode(rv_enc_jalr(0, 6, 0), 64, 0, &in);
	assert_int_equal(rv_insn_itype(&in, false, false, true), RV_ITYPE_UNINFERABLE_JUMP);
}

/* rv_insn_plain_length() against rv_insn_decode(): wherever it gives a
 * size, the full decode is linear, not lui/auipc, of that size.  Every
 * 16-bit parcel with and without C; every 32-bit major opcode with its
 * other bits from a fixed pseudo-random sequence. */
static void expect_plain_agrees(uint32_t raw, unsigned ext)
{
	unsigned len = rv_insn_plain_length(raw, ext);
	struct rv_insn in;

	if (!len)
		return;
	if (rv_insn_decode(raw, 64, ext, &in) != len || in.kind != RV_INSN_LINEAR ||
	    (in.flags & (RV_INSN_F_LUI | RV_INSN_F_AUIPC)))
		fail_msg("0x%08x (ext %#x): plain length %u, decode size %u kind %u flags %#x", raw,
			 ext, len, in.size, in.kind, in.flags);
}

static void test_plain_length_agrees_with_decode(void **state)
{
	uint32_t x = 0x12345678;

	(void)state;
	for (uint32_t p = 0; p < 0x10000; p++) {
		if ((p & 3) == 3)
			continue;
		expect_plain_agrees(p, RV_EXT_C);
		expect_plain_agrees(p, 0);
	}
	for (uint32_t op = 3; op < 128; op += 4)
		for (unsigned i = 0; i < 4096; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			expect_plain_agrees((x & ~0x7fu) | op, RV_EXT_C);
		}
	/* and it does size what it is for: ALU, loads, stores, fences, RVC */
	assert_int_equal(rv_insn_plain_length(0x00a58593, 0), 4);         /* addi a1,a1,10 */
	assert_int_equal(rv_insn_plain_length(0x0005b503, 0), 4);         /* ld a0,0(a1) */
	assert_int_equal(rv_insn_plain_length(0x0000100f, 0), 4);         /* fence.i */
	assert_int_equal(rv_insn_plain_length(0x1781, RV_EXT_C), 2);      /* c.addi a5,-32 */
	assert_int_equal(rv_insn_plain_length(0x1781, 0), 0);             /* no C */
	assert_int_equal(rv_insn_plain_length(0x887e, RV_EXT_C), 0);      /* c.mv: c.jr's funct3 */
	assert_int_equal(rv_insn_plain_length(0x00001297, RV_EXT_C), 0);  /* auipc */
	assert_int_equal(rv_insn_plain_length(0x66fd, RV_EXT_C), 0);      /* c.lui */
	assert_int_equal(rv_insn_plain_length(0x8082, RV_EXT_C), 0);      /* c.jr ra */
}

static void test_instruction_length_encoding(void **state)
{
	(void)state;
	assert_int_equal(rv_insn_length(0x0001, RV_EXT_C), 2);
	assert_int_equal(rv_insn_length(0x0001, 0), 0);
	assert_int_equal(rv_insn_length(0x0013, 0), 4);
	assert_int_equal(rv_insn_length(0x001f, 0), 6);
	assert_int_equal(rv_insn_length(0x003f, 0), 8);
	assert_int_equal(rv_insn_length(0x007f, 0), 0);
	struct rv_insn in;

	assert_int_equal(rv_insn_decode(0x0000, 64, RV_EXT_C, &in), 0); /* defined illegal */
	assert_int_equal(rv_insn_decode(0x8002, 64, RV_EXT_C, &in), 0); /* c.jr x0 reserved */
	assert_int_equal(rv_insn_decode(0x001f, 64, RV_EXT_C, &in), 6);
	assert_int_equal(in.kind, RV_INSN_LINEAR);
}

static void test_direct_target_offsets_round_trip(void **state)
{
	(void)state;
	for (int32_t off = -4096; off < 4096; off += 2) {
		struct rv_insn in;

		rv_insn_decode(rv_enc_branch(0, 1, 2, off), 64, 0, &in);
		assert_int_equal(in.imm, off);
		assert_int_equal(rv_insn_direct_target(&in, 0x80001000, 64), 0x80001000 + off);
		if (off >= -2048 && off < 2048) {
			rv_insn_decode(rv_enc_c_j(off), 64, RV_EXT_C, &in);
			assert_int_equal(in.imm, off);
			rv_insn_decode(rv_enc_c_jal(off), 32, RV_EXT_C, &in);
			assert_int_equal(in.imm, off);
		}
		if (off >= -256 && off < 256) {
			rv_insn_decode(rv_enc_c_beqz(9, off), 32, RV_EXT_C, &in);
			assert_int_equal(in.imm, off);
			assert_int_equal(in.rs1, 9);
		}
	}
	for (int32_t off = -(1 << 20); off < (1 << 20); off += 4094) {
		struct rv_insn in;

		rv_insn_decode(rv_enc_jal(1, off), 32, 0, &in);
		assert_int_equal(in.imm, off);
	}
	/* RV32 wraps the target at 32 bits */
	struct rv_insn in;

	rv_insn_decode(rv_enc_jal(0, -16), 32, 0, &in);
	assert_int_equal(rv_insn_direct_target(&in, 8, 32), 0xfffffff8u);
}

/* 9.1: lui/c.lui/auipc immediately followed by a jalr through that register. */
static void test_seq_jump_lui_auipc_then_jalr_is_inferable(void **state)
{
	struct rv_insn lui, auipc, clui, jalr, other;

	(void)state;
	rv_insn_decode(rv_enc_lui(6, 0x80001), 64, 0, &lui);
	rv_insn_decode(rv_enc_auipc(6, 0x1), 64, 0, &auipc);
	rv_insn_decode(rv_enc_c_lui(6, -1), 64, RV_EXT_C, &clui);
	rv_insn_decode(rv_enc_jalr(1, 6, -4), 64, 0, &jalr);
	rv_insn_decode(rv_enc_jalr(1, 7, -4), 64, 0, &other);
	assert_true(rv_insn_seq_inferable(&lui, &jalr));
	assert_true(rv_insn_seq_inferable(&auipc, &jalr));
	assert_true(rv_insn_seq_inferable(&clui, &jalr));
	assert_false(rv_insn_seq_inferable(&lui, &other));
	assert_false(rv_insn_seq_inferable(&jalr, &jalr));
	/* lui sign-extends on RV64 */
	assert_int_equal(rv_insn_seq_target(&lui, 0, &jalr, 64), 0xffffffff80000ffcull);
	rv_insn_decode(rv_enc_lui(6, 0x80001), 32, 0, &lui);
	assert_int_equal(rv_insn_seq_target(&lui, 0, &jalr, 32), 0x80000ffcull);
	assert_int_equal(rv_insn_seq_target(&auipc, 0x1000, &jalr, 64), 0x1000 + 0x1000 - 4);
	assert_int_equal(rv_insn_seq_target(&clui, 0, &jalr, 64), (uint64_t)-4096 - 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table2_conditional_branch_non_taken_and_taken),
		cmocka_unit_test(test_table2_ebreak_ecall_c_ebreak_are_exceptions),
		cmocka_unit_test(test_table2_mret_sret_uret_are_trap_returns),
		cmocka_unit_test(test_table2_cm_jt_is_no_special_type),
		cmocka_unit_test(test_table2_non_jump_is_no_special_type),
		cmocka_unit_test(test_table2_jal_rd_link_is_inferable_call),
		cmocka_unit_test(test_table2_jal_rd_not_link_is_other_inferable_jump),
		cmocka_unit_test(test_table2_jalr_rd_link_rs1_not_link_is_uninferable_call),
		cmocka_unit_test(test_table2_jalr_rd_link_rs1_link_different_is_coroutine_swap),
		cmocka_unit_test(test_table2_jalr_rd_link_rs1_link_same_is_uninferable_call),
		cmocka_unit_test(test_table2_jalr_rd_not_link_rs1_link_is_return),
		cmocka_unit_test(test_table2_jalr_rd_not_link_rs1_not_link_is_other_uninferable_jump),
		cmocka_unit_test(test_table2_c_jal_is_inferable_call_on_rv32_only),
		cmocka_unit_test(test_table2_c_jalr_rs1_x5_is_coroutine_swap),
		cmocka_unit_test(test_table2_c_jalr_rs1_not_x5_is_uninferable_call),
		cmocka_unit_test(test_table2_c_jr_rs1_link_is_return),
		cmocka_unit_test(test_table2_c_jr_rs1_not_link_is_other_uninferable_jump),
		cmocka_unit_test(test_table2_c_j_is_other_inferable_jump),
		cmocka_unit_test(test_table2_cm_jalt_is_inferable_call),
		cmocka_unit_test(test_table2_cm_popret_is_return),
		cmocka_unit_test(test_table4_all_jumps_reports_inferable_jumps_as_taken),
		cmocka_unit_test(test_instruction_length_encoding),
		cmocka_unit_test(test_plain_length_agrees_with_decode),
		cmocka_unit_test(test_direct_target_offsets_round_trip),
		cmocka_unit_test(test_seq_jump_lui_auipc_then_jalr_is_inferable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

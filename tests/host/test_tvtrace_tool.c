// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace tool core: dump lines, parse errors with byte offsets, and the
 * rules of `tvtrace check`, one test per rule, on traces of
 * tests/data/tvtrace/tool/prog.S written with lib/tvtrace's writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rvinsn/rvinsn_enc.h"
#include "tvtrace_tool.h"
#include "test_tvtrace_tool.h"

#define NTRACE_GOLDEN_DIR TV_TEST_GOLDEN
#include "test_ntrace_golden.h"

static const struct tvtrace_params rv64 = TVTRACE_PARAMS_RV64GC;

/* Checks buf against prog.elf (or no ELF); returns tv_check's status. */
static int check_bytes(const uint8_t *buf, size_t len, bool elf, struct tv_check_summary *sum,
		       struct nt_err *err)
{
	struct tv_trace t;
	struct nt_image_set images;
	int rc;

	nt_images_init(&images);
	if (elf && nt_images_add_elf(&images, TV_TEST_ELF, err))
		fail_msg("%s", err->msg);
	if (tv_trace_parse(&rv64, buf, len, TV_PAD_NONE, &t, err))
		fail_msg("%s", err->msg);
	rc = tv_check(&t, &rv64, &images, sum, err);
	tv_trace_free(&t);
	nt_images_free(&images);
	return rc;
}

/* The fault must be reported at the record it went into, with `what`. */
static void expect_fault(enum fault f, const char *what)
{
	struct tb b;
	struct tv_check_summary sum;
	struct nt_err err = { "" };
	char where[64];

	tb_program(&b, f);
	assert_int_equal(check_bytes(b.buf, b.len, true, &sum, &err), -1);
	snprintf(where, sizeof(where), "record %zu at byte 0x%zx ", b.mark, b.mark_off);
	if (!strstr(err.msg, where) || !strstr(err.msg, what))
		fail_msg("fault %d: got \"%s\", want \"%s...%s\"", f, err.msg, where, what);
}

static void consistent_trace_passes(void **state)
{
	struct tb b;
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_program(&b, FAULT_NONE);
	if (check_bytes(b.buf, b.len, true, &sum, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(sum.records, b.records);
	assert_int_equal(sum.groups, 14);       /* initial state, 12 instructions, 1 interrupt */
	assert_int_equal(sum.instructions, 12);
	assert_int_equal(sum.bits_checked, 12);
	assert_int_equal(sum.exceptions, 1);
	assert_int_equal(sum.interrupts, 1);
	assert_int_equal(sum.trap_returns, 1);
	assert_int_equal(sum.unterminated, 0);
}

static void unknown_values_are_not_errors(void **state)
{
	struct tb b;
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_program(&b, FAULT_UNKNOWN_REGS);     /* bne with x5, x6 untold: taken is fine */
	assert_int_equal(check_bytes(b.buf, b.len, true, &sum, &err), 0);
	/*
	 * Without the initial group (48 bytes: begin, pc, priv, 3 CSRs, end)
	 * no pc is known until bne's state pc: the 8 instructions from jal on
	 * are placed and compared with the ELF, the 4 before are not.
	 */
	tb_program(&b, FAULT_NONE);
	assert_int_equal(check_bytes(b.buf + 48, b.len - 48, true, &sum, &err), 0);
	assert_int_equal(sum.instructions, 12);
	assert_int_equal(sum.bits_checked, 8);
}

static void branch_next_pc_follows_registers(void **state)
{
	(void)state;
	expect_fault(FAULT_BRANCH_PC, "branch taken (x5 = 0x5, x6 = 0x7): next pc 0x80000014, but the trace has 0x80000010");
}

static void branch_with_unknown_operands_goes_to_target_or_next(void **state)
{
	(void)state;
	expect_fault(FAULT_BRANCH_NOWHERE, "neither its target 0x80000014 nor 0x80000010");
}

static void jalr_goes_to_rs1_plus_offset(void **state)
{
	(void)state;
	expect_fault(FAULT_JALR_TARGET, "jump to x1 (0x80000018) + 0: next pc 0x80000018, but the trace has 0x8000001c");
}

static void jal_links_the_next_pc(void **state)
{
	(void)state;
	expect_fault(FAULT_LINK, "x1 = 0x80000014, but the instruction makes it 0x80000018");
}

static void auipc_adds_the_pc(void **state)
{
	(void)state;
	expect_fault(FAULT_AUIPC, "x2 = 0x10000, but the instruction makes it 0x80010000");
}

static void instruction_bits_equal_the_elf(void **state)
{
	struct tb b;
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	expect_fault(FAULT_ELF_BITS, "instruction 0x00400513 but the ELF has 0x00300513 at 0x80000028");
	tb_program(&b, FAULT_ELF_BITS);         /* no ELF: nothing to compare with */
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), 0);
	assert_int_equal(sum.bits_checked, 0);
}

static void store_data_is_rs2(void **state)
{
	(void)state;
	expect_fault(FAULT_STORE_DATA, "store data 0x8, but x6 holds 0x7");
}

static void load_address_is_rs1_plus_offset(void **state)
{
	(void)state;
	expect_fault(FAULT_LOAD_ADDR, "address 0x80010010, but x2 (0x80010000) + 8 is 0x80010008");
}

static void load_writes_the_response_data(void **state)
{
	(void)state;
	expect_fault(FAULT_LOAD_VALUE, "x8 = 0x8, but the load returned 0x7");
}

static void trap_goes_to_stvec(void **state)
{
	(void)state;
	expect_fault(FAULT_TRAP_VECTOR, "goes to 0x80000034, but stvec names 0x80000030");
}

static void trap_saves_its_pc_in_sepc(void **state)
{
	(void)state;
	expect_fault(FAULT_TRAP_EPC, "sepc = 0x80000028, but the trap was at 0x80000024");
}

static void ecall_cause_names_its_privilege(void **state)
{
	(void)state;
	expect_fault(FAULT_ECALL_CAUSE, "ecall traps with cause 9, not 8");
}

static void interrupt_goes_to_stvec(void **state)
{
	(void)state;
	expect_fault(FAULT_IRQ_VECTOR, "trap (cause 0x8000000000000005) goes to 0x80000034");
}

static void sret_returns_to_sepc(void **state)
{
	(void)state;
	expect_fault(FAULT_SRET_TARGET, "sret to sepc: next pc 0x80000020, but the trace has 0x80000024");
}

static void increment_pc_needs_an_instruction(void **state)
{
	(void)state;
	expect_fault(FAULT_INCR_PC_ALONE, "increment pc in a group without an instruction");
}

static void instruction_needs_a_pc_update(void **state)
{
	(void)state;
	expect_fault(FAULT_NO_PC_UPDATE, "instruction without a pc update");
}

static void x0_stays_zero(void **state)
{
	(void)state;
	expect_fault(FAULT_X0_WRITE, "x0 written with 0x18");
}

/* Vectored stvec: interrupts go to BASE + 4 * cause (privileged spec). */
static void vectored_interrupt_goes_to_base_plus_4_cause(void **state)
{
	struct tb b = { .len = 0 };
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_state(&b, TVTRACE_STATE_PC, 0x1000);
	tb_reg(&b, 0x105, 0x2001);
	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_mark(&b);
	tb_state(&b, TVTRACE_STATE_PC, 0x2000 + 4 * 9);
	tb_reg(&b, 0x142, IRQ_BIT | 9);
	tb_reg(&b, 0x141, 0x1000);
	tb_op(&b, TVTRACE_OP_END_GROUP);
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), 0);
	assert_int_equal(sum.interrupts, 1);
	b.buf[b.mark_off + 2] = 0x20;           /* pc 0x2020: not the vector */
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), -1);
	assert_non_null(strstr(err.msg, "goes to 0x2020, but stvec names 0x2024"));
}

/*
 * csrrw x12, sscratch, x5 then csrrs x13, sscratch, x0: each reads what the
 * trace left in sscratch; csrrw writes x5's value.  bad: 0 none, 1 wrong
 * read, 2 wrong write.
 */
static int check_csr_trace(int bad, struct nt_err *err)
{
	struct tb b = { .len = 0 };
	struct tv_check_summary sum;

	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_state(&b, TVTRACE_STATE_PC, 0x1000);
	tb_reg(&b, 0x140, 0x55);
	tb_gpr(&b, 5, 7);
	tb_seq(&b, 0x14029673);
	tb_gpr(&b, 12, bad == 1 ? 0x56 : 0x55);
	tb_reg(&b, 0x140, bad == 2 ? 8 : 7);
	tb_seq(&b, 0x140026f3);
	tb_gpr(&b, 13, bad == 2 ? 8 : 7);
	tb_op(&b, TVTRACE_OP_END_GROUP);
	return check_bytes(b.buf, b.len, false, &sum, err);
}

static void csr_reads_what_the_trace_left(void **state)
{
	struct nt_err err = { "" };

	(void)state;
	if (check_csr_trace(0, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(check_csr_trace(1, &err), -1);
	assert_non_null(strstr(err.msg, "x12 = 0x56 read from sscratch, but the trace left 0x55 in it"));
	assert_int_equal(check_csr_trace(2, &err), -1);
	assert_non_null(strstr(err.msg, "sscratch = 0x8, but the instruction makes it 0x7"));
}

/*
 * RV32 (XLEN 32): blt compares signed 32-bit values, bltu unsigned: with
 * x5 = 0xffffffff and x6 = 1, blt is taken and bltu is not.
 */
static int check_rv32_branch(unsigned funct3, uint32_t next_pc, struct nt_err *err)
{
	const struct tvtrace_params rv32 = { 4, 4, 4 };
	const struct tvtrace_record recs[] = {
		{ .opcode = TVTRACE_OP_BEGIN_GROUP },
		{ .opcode = TVTRACE_OP_STATE, .state_id = TVTRACE_STATE_PC, .value = 0x1000 },
		{ .opcode = TVTRACE_OP_FULL_REG, .reg = TVTRACE_REG_GPR(5), .value = 0xffffffff },
		{ .opcode = TVTRACE_OP_FULL_REG, .reg = TVTRACE_REG_GPR(6), .value = 1 },
		{ .opcode = TVTRACE_OP_BEGIN_GROUP },
		{ .opcode = TVTRACE_OP_STATE, .state_id = TVTRACE_STATE_PC, .value = next_pc },
		{ .opcode = TVTRACE_OP_INSN32, .insn = rv_enc_branch(funct3, 5, 6, 8) },
		{ .opcode = TVTRACE_OP_END_GROUP },
	};
	uint8_t buf[128];
	size_t len = 0;
	struct tv_trace t;
	struct tv_check_summary sum;
	int rc;

	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		int n = tvtrace_write(&rv32, &recs[i], NULL, buf + len, sizeof(buf) - len);

		assert_true(n > 0);
		len += (size_t)n;
	}
	if (tv_trace_parse(&rv32, buf, len, TV_PAD_NONE, &t, err))
		fail_msg("%s", err->msg);
	rc = tv_check(&t, &rv32, NULL, &sum, err);
	tv_trace_free(&t);
	return rc;
}

static void rv32_branches_compare_at_32_bits(void **state)
{
	struct nt_err err = { "" };

	(void)state;
	assert_int_equal(check_rv32_branch(4, 0x1008, &err), 0);        /* blt: -1 < 1 */
	assert_int_equal(check_rv32_branch(6, 0x1004, &err), 0);        /* bltu: not taken */
	assert_int_equal(check_rv32_branch(4, 0x1004, &err), -1);
	assert_non_null(strstr(err.msg, "branch taken (x5 = 0xffffffff, x6 = 0x1): next pc 0x1008"));
}

/* The first group tells the initial state: its xcause is no trap. */
static void first_group_is_initial_state(void **state)
{
	struct tb b = { .len = 0 };
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_state(&b, TVTRACE_STATE_PC, 0x1000);
	tb_reg(&b, 0x141, 0x2000);
	tb_reg(&b, 0x142, 8);
	tb_op(&b, TVTRACE_OP_END_GROUP);
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), 0);
	assert_int_equal(sum.exceptions + sum.interrupts, 0);
	/* the same group once a pc is known is a trap, at 0x1000 */
	memcpy(b.buf + b.len, b.buf, b.len);
	b.len *= 2;
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), -1);
	assert_non_null(strstr(err.msg, "sepc = 0x2000, but the trap was at 0x1000"));
}

/* C.7: an illegal 0x00000000 in a 32-bit record is fine when it traps. */
static void appendix_c_examples_are_consistent(void **state)
{
	static const char *const names[] = {
		"c1-add.hex", "c2-jr.hex", "c3-fadd-s.hex", "c4-c-sub.hex", "c5-lw.hex",
		"c6-csrrc.hex", "c7-illegal.hex", "c8-interrupt.hex",
	};
	uint8_t buf[256];
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len = load_golden(names[i], buf, sizeof(buf));

		if (check_bytes(buf, len, false, &sum, &err))
			fail_msg("%s: %s", names[i], err.msg);
	}
}

/* A compressed encoding in a 32-bit record of an instruction that retired. */
static void record_length_matches_the_encoding(void **state)
{
	struct tb b = { .len = 0 };
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_op(&b, TVTRACE_OP_INCR_PC);
	tb_put(&b, (struct tvtrace_record){ .opcode = TVTRACE_OP_INSN32, .insn = 0x00000001 });
	tb_op(&b, TVTRACE_OP_END_GROUP);
	assert_int_equal(check_bytes(b.buf, b.len, false, &sum, &err), -1);
	assert_non_null(strstr(err.msg, "record 2 at byte 0x2 "));
	assert_non_null(strstr(err.msg, "32-bit instruction record holds 0x00000001, a 2-byte encoding"));
}

static void end_group_needs_a_group(void **state)
{
	static const uint8_t buf[] = { TVTRACE_OP_END_GROUP };
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	assert_int_equal(check_bytes(buf, sizeof(buf), false, &sum, &err), -1);
	assert_string_equal(err.msg, "record 0 at byte 0x0: end group outside a group");
}

static void unterminated_last_group_is_not_checked(void **state)
{
	struct tb b;
	struct tv_check_summary sum;
	struct nt_err err = { "" };

	(void)state;
	tb_program(&b, FAULT_TRAP_VECTOR);
	b.len--;                                /* drop the last end group */
	assert_int_equal(check_bytes(b.buf, b.len, true, &sum, &err), 0);
	assert_int_equal(sum.unterminated, 1);
}

/* ---- Parse errors and dump ---------------------------------------------- */

static void parse_error_names_the_byte(void **state)
{
	static const uint8_t bad_opcode[] = { 0x01, 0x03, 0x0c, 0x02 };
	static const uint8_t truncated[] = { 0x01, 0x04, 0x03, 0x10, 0x34, 0x12 };
	struct tv_trace t;
	struct nt_err err = { "" };

	(void)state;
	assert_int_equal(tv_trace_parse(&rv64, bad_opcode, sizeof(bad_opcode), TV_PAD_NONE, &t, &err), -1);
	assert_int_equal(t.count, 2);
	assert_string_equal(err.msg, "byte 0x2 (2): record 2 (opcode 0x0c at byte 0x2): unknown opcode");
	tv_trace_free(&t);
	assert_int_equal(tv_trace_parse(&rv64, truncated, sizeof(truncated), TV_PAD_NONE, &t, &err), -1);
	assert_int_equal(t.count, 1);
	assert_string_equal(err.msg, "byte 0x1 (1): record 1 (opcode 0x04 at byte 0x1): record truncated");
	tv_trace_free(&t);
}

static void dump_prints_one_line_per_record(void **state)
{
	struct tb b = { .len = 0 };
	struct tv_trace t;
	struct nt_err err = { "" };
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	(void)state;
	assert_non_null(f);
	tb_op(&b, TVTRACE_OP_BEGIN_GROUP);
	tb_op(&b, TVTRACE_OP_INCR_PC);
	tb_insn(&b, 0x8d0d);
	tb_gpr(&b, 10, 0xffffffff12345678ull);
	tb_reg(&b, 0x342, 2);
	tb_mem(&b, TVTRACE_MEM_STORE, 0x80010008, 7, 0);
	tb_state(&b, TVTRACE_STATE_PRIV, 1);
	tb_op(&b, TVTRACE_OP_END_GROUP);
	tb_put(&b, (struct tvtrace_record){ .opcode = TVTRACE_OP_INCR_REG_ADD, .reg = 0x1020, .reg_offset = -4 });
	assert_int_equal(tv_trace_parse(&rv64, b.buf, b.len, TV_PAD_NONE, &t, &err), 0);
	tv_dump(f, &t);
	fclose(f);
	assert_string_equal(text,
		"# record  offset    what\n"
		"       0  0x000000  begin-group #0\n"
		"       1  0x000001    incr-pc\n"
		"       2  0x000002    insn16 0x8d0d\n"
		"       3  0x000005    full-reg x10 = 0xffffffff12345678\n"
		"       4  0x000010    full-reg mcause = 0x2\n"
		"       5  0x00001b    mem-req store 8B addr 0x80010008 data 0x7\n"
		"       6  0x00002d    mem-rsp 8B success\n"
		"       7  0x00002f    state priv = 1 (S)\n"
		"       8  0x000032    end-group\n"
		"       9  0x000033  incr-reg-add f0 += -4\n");
	free(text);
	tv_trace_free(&t);
}

/*
 * Every prefix of a trace and every byte of it set to a few values: parse
 * and check return (an error or not) without a sanitizer report.
 */
static void damaged_traces_never_crash(void **state)
{
	static const uint8_t values[] = { 0x00, 0x01, 0x02, 0x03, 0x09, 0x0c, 0x11, 0xff };
	struct tb b;
	struct nt_image_set images;
	struct nt_err err;
	size_t errors = 0;

	(void)state;
	nt_images_init(&images);
	if (nt_images_add_elf(&images, TV_TEST_ELF, &err))
		fail_msg("%s", err.msg);
	tb_program(&b, FAULT_NONE);
	for (size_t pos = 0; pos <= b.len; pos++) {
		for (size_t k = 0; k <= sizeof(values); k++) {
			uint8_t *copy = malloc(b.len ? b.len : 1);   /* exact size: ASan sees overreads */
			struct tv_trace t;
			struct tv_check_summary sum;
			size_t len = k == sizeof(values) ? pos : b.len;

			assert_non_null(copy);
			memcpy(copy, b.buf, b.len);
			if (k < sizeof(values) && pos < b.len)
				copy[pos] = values[k];
			if (tv_trace_parse(&rv64, copy, len, k & 1 ? 0x00 : TV_PAD_NONE, &t, &err) ||
			    tv_check(&t, &rv64, &images, &sum, &err))
				errors++;
			tv_trace_free(&t);
			free(copy);
		}
	}
	nt_images_free(&images);
	assert_true(errors > b.len);    /* the damage is seen, not only survived */
}

/* ---- Operands ------------------------------------------------------------ */

struct operand_case {
	uint32_t raw;
	uint8_t access, size_log2, rd, rs1, rs2;
	int64_t imm;
	bool fp;
};

/* Encodings from riscv64-unknown-elf-as (-march=rv64gc). */
static void operands_of_loads_and_stores(void **state)
{
	static const struct operand_case cases[] = {
		{ 0x41c8, TV_ACCESS_LOAD, 2, 10, 11, 10, 4, false },      /* c.lw a0, 4(a1)   */
		{ 0x6a90, TV_ACCESS_LOAD, 3, 12, 13, 12, 16, false },     /* c.ld a2, 16(a3)  */
		{ 0xc798, TV_ACCESS_STORE, 2, 14, 15, 14, 8, false },     /* c.sw a4, 8(a5)   */
		{ 0xec80, TV_ACCESS_STORE, 3, 8, 9, 8, 24, false },       /* c.sd s0, 24(s1)  */
		{ 0x4532, TV_ACCESS_LOAD, 2, 10, 2, 0, 12, false },       /* c.lwsp a0, 12(sp) */
		{ 0x75a2, TV_ACCESS_LOAD, 3, 11, 2, 0, 40, false },       /* c.ldsp a1, 40(sp) */
		{ 0xca32, TV_ACCESS_STORE, 2, 0, 2, 12, 20, false },      /* c.swsp a2, 20(sp) */
		{ 0xf836, TV_ACCESS_STORE, 3, 0, 2, 13, 48, false },      /* c.sdsp a3, 48(sp) */
		{ 0x2588, TV_ACCESS_LOAD, 3, 10, 11, 10, 8, true },       /* c.fld fa0, 8(a1) */
		{ 0xa82e, TV_ACCESS_STORE, 3, 0, 2, 11, 16, true },       /* c.fsdsp fa1, 16(sp) */
		{ 0xffd5c503, TV_ACCESS_LOAD, 0, 10, 11, 29, -3, false }, /* lbu a0, -3(a1)   */
		{ 0xfea59f23, TV_ACCESS_STORE, 1, 30, 11, 10, -2, false },/* sh a0, -2(a1)    */
		{ 0x00352627, TV_ACCESS_STORE, 2, 12, 10, 3, 12, true },  /* fsw ft3, 12(a0)  */
		{ 0x00b6252f, TV_ACCESS_AMO, 2, 10, 12, 11, 0, false },   /* amoadd.w a0, a1, (a2) */
		{ 0x1005b52f, TV_ACCESS_LR, 3, 10, 11, 0, 0, false },     /* lr.d a0, (a1)    */
		{ 0x18b636af, TV_ACCESS_SC, 3, 13, 12, 11, 0, false },    /* sc.d a3, a1, (a2) */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct operand_case *c = &cases[i];
		struct tv_operands o;

		tv_operands_decode(c->raw, 64, &o);
		if (o.access != c->access || o.size_log2 != c->size_log2 || o.rs1 != c->rs1 ||
		    o.imm != c->imm || (c->access == TV_ACCESS_STORE ? o.rs2 != c->rs2 || o.rs2_fp != c->fp
								       : o.rd != c->rd || o.rd_fp != c->fp))
			fail_msg("case %zu (0x%x): access %u size %u rd %u rs1 %u rs2 %u imm %lld",
				 i, c->raw, o.access, o.size_log2, o.rd, o.rs1, o.rs2, (long long)o.imm);
	}
}

static void operands_of_branches_and_csrs(void **state)
{
	struct tv_operands o;

	(void)state;
	tv_operands_decode(0xc501, 64, &o);     /* c.beqz a0 */
	assert_true(o.is_branch);
	assert_int_equal(o.branch_cond, 0);
	assert_int_equal(o.rs1, 10);
	assert_int_equal(o.rs2, 0);
	tv_operands_decode(0xfcf5, 64, &o);     /* c.bnez s1 */
	assert_int_equal(o.branch_cond, 1);
	assert_int_equal(o.rs1, 9);
	tv_operands_decode(0x00b56863, 64, &o); /* bltu a0, a1 */
	assert_true(o.is_branch);
	assert_int_equal(o.branch_cond, 6);
	assert_int_equal(o.rs2, 11);
	tv_operands_decode(0x14059573, 64, &o); /* csrrw a0, sscratch, a1 */
	assert_true(o.is_csr);
	assert_int_equal(o.csr, 0x140);
	tv_operands_decode(0x00000073, 64, &o); /* ecall: no csr */
	assert_false(o.is_csr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(consistent_trace_passes),
		cmocka_unit_test(unknown_values_are_not_errors),
		cmocka_unit_test(branch_next_pc_follows_registers),
		cmocka_unit_test(branch_with_unknown_operands_goes_to_target_or_next),
		cmocka_unit_test(jalr_goes_to_rs1_plus_offset),
		cmocka_unit_test(jal_links_the_next_pc),
		cmocka_unit_test(auipc_adds_the_pc),
		cmocka_unit_test(instruction_bits_equal_the_elf),
		cmocka_unit_test(store_data_is_rs2),
		cmocka_unit_test(load_address_is_rs1_plus_offset),
		cmocka_unit_test(load_writes_the_response_data),
		cmocka_unit_test(trap_goes_to_stvec),
		cmocka_unit_test(trap_saves_its_pc_in_sepc),
		cmocka_unit_test(ecall_cause_names_its_privilege),
		cmocka_unit_test(interrupt_goes_to_stvec),
		cmocka_unit_test(sret_returns_to_sepc),
		cmocka_unit_test(increment_pc_needs_an_instruction),
		cmocka_unit_test(instruction_needs_a_pc_update),
		cmocka_unit_test(x0_stays_zero),
		cmocka_unit_test(vectored_interrupt_goes_to_base_plus_4_cause),
		cmocka_unit_test(csr_reads_what_the_trace_left),
		cmocka_unit_test(first_group_is_initial_state),
		cmocka_unit_test(rv32_branches_compare_at_32_bits),
		cmocka_unit_test(appendix_c_examples_are_consistent),
		cmocka_unit_test(record_length_matches_the_encoding),
		cmocka_unit_test(end_group_needs_a_group),
		cmocka_unit_test(unterminated_last_group_is_not_checked),
		cmocka_unit_test(parse_error_names_the_byte),
		cmocka_unit_test(dump_prints_one_line_per_record),
		cmocka_unit_test(damaged_traces_never_crash),
		cmocka_unit_test(operands_of_loads_and_stores),
		cmocka_unit_test(operands_of_branches_and_csrs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * lib/tvtrace: the Bluespec tandem-verification trace protocol
 * (bluespec-trace-protocol-2018-11-20.txt).  Golden vectors are Appendix C
 * (the .hex files of tests/data/tvtrace); round trips cover every opcode, additional
 * state identifier, memory op and size; malformed and truncated input must
 * fail with the offset of the offending byte, and is parsed from exact-size
 * heap copies so ASan catches any read past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/tvtrace/tvtrace.h"

/* The ntrace golden loader reads the same .hex format from this directory. */
#ifndef TVTRACE_GOLDEN_DIR
#define TVTRACE_GOLDEN_DIR "tests/data/tvtrace"
#endif
#define NTRACE_GOLDEN_DIR TVTRACE_GOLDEN_DIR
#include "test_ntrace_golden.h"

static const struct tvtrace_params rv64 = { 8, 8, 8 };
static const struct tvtrace_params rv32_sv32 = { 4, 4, 5 };
static const struct tvtrace_params rv32_nof = { 4, 0, 4 };

#define MAX_RECS 32

/* Parse all of buf (from an exact-size heap copy); returns the count. */
static size_t parse_all(const struct tvtrace_params *params, const uint8_t *bytes,
			size_t len, struct tvtrace_record *recs, size_t max)
{
	struct tvtrace_parser p;
	uint8_t *buf = malloc(len ? len : 1);
	size_t off = 0, n = 0;

	assert_non_null(buf);
	memcpy(buf, bytes, len);
	tvtrace_parser_init(&p, params);
	while (off < len) {
		int err = tvtrace_parse(&p, buf, len, &off, &recs[n]);

		if (err)
			fail_msg("parse error %s at offset %zu", tvtrace_strerror(err),
				 p.err_offset);
		assert_true(++n <= max);
	}
	free(buf);
	return n;
}

/* Parse until the first error; return it and its offset. */
static int parse_until_error(const struct tvtrace_params *params,
			     const uint8_t *bytes, size_t len, size_t *err_off)
{
	struct tvtrace_parser p;
	struct tvtrace_record rec;
	uint8_t *buf = malloc(len ? len : 1);
	size_t off = 0;
	int err = TVTRACE_OK;

	assert_non_null(buf);
	memcpy(buf, bytes, len);
	tvtrace_parser_init(&p, params);
	while (off < len) {
		size_t before = off;

		err = tvtrace_parse(&p, buf, len, &off, &rec);
		if (err) {
			assert_int_equal(off, before);
			*err_off = p.err_offset;
			break;
		}
	}
	free(buf);
	return err;
}

/* Write recs back; the bytes must equal want. */
static void assert_rewrites(const struct tvtrace_params *params,
			    const struct tvtrace_record *recs, size_t n,
			    const uint8_t *want, size_t len)
{
	uint8_t out[512];
	size_t pos = 0;

	for (size_t i = 0; i < n; i++) {
		const struct tvtrace_record *req =
			i && recs[i - 1].opcode == TVTRACE_OP_MEM_REQ ? &recs[i - 1] : NULL;
		int w = tvtrace_write(params, &recs[i], req, out + pos, sizeof(out) - pos);

		assert_true(w > 0);
		pos += (size_t)w;
	}
	assert_int_equal(pos, len);
	assert_memory_equal(out, want, len);
}

static size_t golden(const char *name, struct tvtrace_record *recs, uint8_t *bytes,
		     size_t *len)
{
	size_t n;

	*len = load_golden(name, bytes, 512);
	n = parse_all(&rv64, bytes, *len, recs, MAX_RECS);
	assert_rewrites(&rv64, recs, n, bytes, *len);
	return n;
}

static void assert_opcodes(const struct tvtrace_record *recs, size_t n,
			   const uint8_t *ops, size_t nops)
{
	assert_int_equal(n, nops);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(recs[i].opcode, ops[i]);
}

#define OPS(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

/* ---- Appendix C ----------------------------------------------------------- */

static void test_c1_add_gp_t0_t1(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c1-add.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 3, 17, 4, 2));
	assert_int_equal(r[2].insn, 0x006281b3);
	assert_int_equal(r[3].reg, TVTRACE_REG_GPR(3));
	assert_int_equal(r[3].value, 0x1234);
}

static void test_c2_jr_pc_as_additional_state(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c2-jr.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 7, 17, 2));
	assert_int_equal(r[1].state_id, TVTRACE_STATE_PC);
	assert_int_equal(r[1].value, 0x0c000100);
	assert_int_equal(r[2].insn, 0x10010067);
}

static void test_c3_fadd_s_full_flen_and_fcsr_or(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c3-fadd-s.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 3, 17, 4, 6, 2));
	assert_int_equal(r[3].reg, TVTRACE_REG_FPR(7));
	assert_int_equal(r[3].value, 0xffffffff66fef4f9ull);
	assert_int_equal(r[4].reg, 0x003); /* fcsr */
	assert_int_equal(r[4].reg_mask, 0x01);
}

static void test_c4_c_sub_16bit_instruction(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c4-c-sub.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 3, 16, 4, 2));
	assert_int_equal(r[2].insn, 0x8d0d);
	assert_int_equal(r[3].reg, TVTRACE_REG_GPR(10));
	assert_int_equal(r[3].value, 0xffffffff12345678ull);
}

static void test_c5_lw_physical_address(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c5-lw.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 3, 17, 4, 7, 2));
	assert_int_equal(r[2].insn, 0x0082a203);
	assert_int_equal(r[3].reg, TVTRACE_REG_GPR(4));
	assert_int_equal(r[3].value, 0x55aa55aa55aa55aaull);
	assert_int_equal(r[4].state_id, TVTRACE_STATE_PADDR);
	assert_int_equal(r[4].value, 0x01000008);
}

static void test_c6_csrrc_gpr_and_csr(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c6-csrrc.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 3, 17, 4, 4, 2));
	assert_int_equal(r[2].insn, 0x3045b4f3);
	assert_int_equal(r[3].reg, TVTRACE_REG_GPR(9));
	assert_int_equal(r[3].value, 0x888);
	assert_int_equal(r[4].reg, 0x304); /* mie */
	assert_int_equal(r[4].value, 0x880);
}

static void test_c7_illegal_instruction_trap(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c7-illegal.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 7, 17, 4, 4, 4, 4, 7, 2));
	assert_int_equal(r[1].value, 0x10000);
	assert_int_equal(r[2].insn, 0);
	assert_int_equal(r[3].reg, 0x341);
	assert_int_equal(r[3].value, 0x81234);
	assert_int_equal(r[4].reg, 0x342);
	assert_int_equal(r[4].value, 2);
	assert_int_equal(r[5].reg, 0x300);
	assert_int_equal(r[5].value, 0xa000018b0ull);
	assert_int_equal(r[6].reg, 0x343);
	assert_int_equal(r[6].value, 0);
	assert_int_equal(r[7].state_id, TVTRACE_STATE_PRIV);
	assert_int_equal(r[7].value, 3);
}

static void test_c8_interrupt_has_no_instruction(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len, n = golden("c8-interrupt.hex", r, b, &len);

	(void)state;
	assert_opcodes(r, n, OPS(1, 7, 4, 4, 4, 4, 7, 2));
	assert_int_equal(r[2].value, 0x81256);
	assert_int_equal(r[3].reg, 0x342);
	assert_int_equal(r[3].value, 0x8000000000000003ull);
	assert_int_equal(r[6].value, 3);
}

/* The spec's printed bytes for C.2 and C.5 contradict chapter 2 (README.md). */
static void test_c2_as_printed_pc_identifier_0x10_is_rejected(void **state)
{
	uint8_t b[512];
	size_t len = load_golden("c2-jr-as-printed.hex", b, sizeof(b)), off = 99;

	(void)state;
	assert_int_equal(parse_until_error(&rv64, b, len, &off), TVTRACE_ERR_STATE_ID);
	assert_int_equal(off, 2);
}

static void test_c4_as_printed_register_is_x16_not_a0(void **state)
{
	struct tvtrace_record r[MAX_RECS];
	uint8_t b[512];
	size_t len = load_golden("c4-c-sub-as-printed.hex", b, sizeof(b));

	(void)state;
	assert_int_equal(parse_all(&rv64, b, len, r, MAX_RECS), 5);
	assert_int_equal(r[3].reg, TVTRACE_REG_GPR(16));
}

static void test_c5_as_printed_opcode_10_misframes(void **state)
{
	uint8_t b[512];
	size_t len = load_golden("c5-lw-as-printed.hex", b, sizeof(b)), off = 99;

	(void)state;
	assert_int_equal(parse_until_error(&rv64, b, len, &off), TVTRACE_ERR_OPCODE);
	assert_int_equal(off, 5);
}

/* ---- every record kind: write -> parse ------------------------------------ */

/* Every record kind valid under params (FPR writes only with FLEN). */
static size_t every_record(const struct tvtrace_params *params,
			   struct tvtrace_record *recs, size_t max)
{
	uint64_t xmask = params->xlen_bytes == 8 ? ~0ull : 0xffffffffull;
	uint64_t mmask = params->mlen_bytes == 8 ? ~0ull
			 : (1ull << (8 * params->mlen_bytes)) - 1;
	size_t n = 0;

#define ADD(...) do { assert_true(n < max); \
	recs[n++] = (struct tvtrace_record){ __VA_ARGS__ }; } while (0)
	ADD(.opcode = TVTRACE_OP_HART_RESET);
	ADD(.opcode = TVTRACE_OP_BEGIN_GROUP);
	ADD(.opcode = TVTRACE_OP_STATE_INIT);
	ADD(.opcode = TVTRACE_OP_INCR_PC);
	ADD(.opcode = TVTRACE_OP_INSN16, .insn = 0x8d0d);
	ADD(.opcode = TVTRACE_OP_INSN32, .insn = 0xfedcba97);
	ADD(.opcode = TVTRACE_OP_FULL_REG, .reg = TVTRACE_REG_GPR(31),
	    .value = 0x8765432112345678ull & xmask);
	ADD(.opcode = TVTRACE_OP_FULL_REG, .reg = 0x7b1 /* dpc */, .value = xmask);
	if (params->flen_bytes)
		ADD(.opcode = TVTRACE_OP_FULL_REG, .reg = TVTRACE_REG_FPR(31),
		    .value = params->flen_bytes == 8 ? 0x400921fb54442d18ull
						     : 0x40490fdbull);
	ADD(.opcode = TVTRACE_OP_INCR_REG_ADD, .reg = TVTRACE_REG_GPR(2),
	    .reg_offset = -128);
	ADD(.opcode = TVTRACE_OP_INCR_REG_ADD, .reg = 0xb02, .reg_offset = 127);
	ADD(.opcode = TVTRACE_OP_INCR_REG_OR, .reg = 0x003, .reg_mask = 0x1f);
	for (uint8_t id = TVTRACE_STATE_PRIV; id <= TVTRACE_STATE_PC; id++) {
		static const uint64_t full = 0xa5b4c3d2e1f00f1eull;
		uint64_t v;

		switch (id) {
		case TVTRACE_STATE_PRIV: v = 1; break;
		case TVTRACE_STATE_DATA8: v = full & 0xff; break;
		case TVTRACE_STATE_DATA16: v = full & 0xffff; break;
		case TVTRACE_STATE_DATA32: v = full & 0xffffffff; break;
		case TVTRACE_STATE_PC: v = full & xmask; break;
		case TVTRACE_STATE_PADDR:
		case TVTRACE_STATE_EADDR:
		case TVTRACE_STATE_PC_PADDR: v = full & mmask; break;
		default: v = full; break;
		}
		ADD(.opcode = TVTRACE_OP_STATE, .state_id = id, .value = v);
	}
	for (uint8_t op = TVTRACE_MEM_LOAD; op <= TVTRACE_MEM_FETCH; op++)
		for (uint8_t size = 0; size <= TVTRACE_MEM_SIZE_64; size++) {
			uint64_t dmask = size == 3 ? ~0ull : (1ull << (8 << size)) - 1;

			ADD(.opcode = TVTRACE_OP_MEM_REQ, .addr = 0x80001238ull & mmask,
			    .mem_op = op, .mem_size = size,
			    .value = tvtrace_mem_req_has_data(op)
					     ? 0x1122334455667788ull & dmask : 0,
			    .has_data = tvtrace_mem_req_has_data(op));
			ADD(.opcode = TVTRACE_OP_MEM_RSP, .mem_size = size,
			    .mem_result = op == TVTRACE_MEM_SC ? TVTRACE_MEM_FAILURE
							       : TVTRACE_MEM_SUCCESS,
			    .value = tvtrace_mem_rsp_has_data(op)
					     ? 0x99aabbccddeeff00ull & dmask : 0,
			    .has_data = tvtrace_mem_rsp_has_data(op));
		}
	ADD(.opcode = TVTRACE_OP_END_GROUP);
#undef ADD
	return n;
}

static void roundtrip(const struct tvtrace_params *params)
{
	struct tvtrace_record in[256], out[256];
	uint8_t buf[4096];
	size_t n = every_record(params, in, 256), pos = 0;

	for (size_t i = 0; i < n; i++) {
		const struct tvtrace_record *req =
			in[i].opcode == TVTRACE_OP_MEM_RSP ? &in[i - 1] : NULL;
		int w = tvtrace_write(params, &in[i], req, buf + pos, sizeof(buf) - pos);

		assert_true(w > 0);
		pos += (size_t)w;
	}
	assert_int_equal(parse_all(params, buf, pos, out, 256), n);
	for (size_t i = 0; i < n; i++)
		assert_memory_equal(&out[i], &in[i], sizeof(in[i]));
}

static void test_roundtrip_every_record_rv64(void **state)
{
	(void)state;
	roundtrip(&rv64);
}

static void test_roundtrip_every_record_rv32_sv32_mlen34(void **state)
{
	(void)state;
	roundtrip(&rv32_sv32);
}

static void test_roundtrip_every_record_rv32_without_f(void **state)
{
	(void)state;
	roundtrip(&rv32_nof);
}

/* Payload lengths of chapter 2's table and of the identifier table. */
static void test_payload_lengths_follow_chapter_2(void **state)
{
	struct tvtrace_record rec = { .opcode = TVTRACE_OP_FULL_REG,
				      .reg = TVTRACE_REG_FPR(0) };
	uint8_t buf[32];

	(void)state;
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)), 1 + 2 + 8);
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)), 1 + 2 + 4);
	rec.reg = TVTRACE_REG_GPR(1);
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)), 1 + 2 + 4);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_STATE,
				       .state_id = TVTRACE_STATE_EADDR };
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)), 1 + 1 + 5);
	rec.state_id = TVTRACE_STATE_PC;
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)), 1 + 1 + 4);
	rec.state_id = TVTRACE_STATE_MTIME;
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)), 1 + 1 + 8);
	/* Memory response: 16, 24, 40 or 72 bits for loads, 8 for stores. */
	for (uint8_t size = 0; size <= 3; size++) {
		struct tvtrace_record load = { .mem_op = TVTRACE_MEM_LOAD };
		struct tvtrace_record store = { .mem_op = TVTRACE_MEM_STORE };

		rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_RSP, .mem_size = size };
		assert_int_equal(tvtrace_write(&rv64, &rec, &load, buf, sizeof(buf)),
				 1 + 1 + (1 << size));
		assert_int_equal(tvtrace_write(&rv64, &rec, &store, buf, sizeof(buf)), 2);
	}
}

/* Chapter 3: fields under a byte pack from the least significant bit. */
static void test_subbyte_fields_pack_from_lsb(void **state)
{
	struct tvtrace_record req = { .opcode = TVTRACE_OP_MEM_REQ, .addr = 0x10,
				      .mem_op = TVTRACE_MEM_AMO_MAXU,
				      .mem_size = TVTRACE_MEM_SIZE_32, .value = 0xdeadbeef };
	struct tvtrace_record rsp = { .opcode = TVTRACE_OP_MEM_RSP,
				      .mem_size = TVTRACE_MEM_SIZE_16,
				      .mem_result = TVTRACE_MEM_FAILURE, .value = 0x1234 };
	static const uint8_t want_req[] = { 8, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x2c,
					    0xef, 0xbe, 0xad, 0xde };
	static const uint8_t want_rsp[] = { 9, 0x11, 0x34, 0x12 };
	uint8_t buf[32];

	(void)state;
	assert_int_equal(tvtrace_write(&rv64, &req, NULL, buf, sizeof(buf)), sizeof(want_req));
	assert_memory_equal(buf, want_req, sizeof(want_req));
	assert_int_equal(tvtrace_write(&rv64, &rsp, &req, buf, sizeof(buf)), sizeof(want_rsp));
	assert_memory_equal(buf, want_rsp, sizeof(want_rsp));
}

/* ---- truncated and malformed input ------------------------------------------ */

/* Every proper prefix of every record, placed after a begin group, fails
 * with TRUNCATED at the record's opcode (offset 1). */
static void test_every_truncated_record_reports_its_offset(void **state)
{
	struct tvtrace_record in[256];
	size_t n = every_record(&rv64, in, 256);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		uint8_t buf[32] = { TVTRACE_OP_BEGIN_GROUP };
		const struct tvtrace_record *req =
			in[i].opcode == TVTRACE_OP_MEM_RSP ? &in[i - 1] : NULL;
		int w = tvtrace_write(&rv64, &in[i], req, buf + 1, sizeof(buf) - 1);

		assert_true(w > 0);
		for (int cut = 1; cut < w; cut++) {
			struct tvtrace_parser p;
			struct tvtrace_record rec;
			uint8_t *copy = malloc((size_t)cut + 1);
			size_t off = 1;

			assert_non_null(copy);
			memcpy(copy, buf, (size_t)cut + 1);
			tvtrace_parser_init(&p, &rv64);
			p.after_request = req != NULL;
			p.request_op = req ? req->mem_op : 0;
			assert_int_equal(tvtrace_parse(&p, copy, (size_t)cut + 1, &off, &rec),
					 TVTRACE_ERR_TRUNCATED);
			assert_int_equal(p.err_offset, 1);
			assert_int_equal(off, 1);
			free(copy);
		}
	}
}

static void expect_error(const struct tvtrace_params *params, const uint8_t *b,
			 size_t len, int err, size_t at)
{
	size_t off = 999;

	assert_int_equal(parse_until_error(params, b, len, &off), err);
	assert_int_equal(off, at);
}

static void test_parse_at_end_is_truncated(void **state)
{
	struct tvtrace_parser p;
	struct tvtrace_record rec;
	const uint8_t one[] = { TVTRACE_OP_END_GROUP };
	size_t off = 1;

	(void)state;
	tvtrace_parser_init(&p, &rv64);
	assert_int_equal(tvtrace_parse(&p, one, 1, &off, &rec), TVTRACE_ERR_TRUNCATED);
	assert_int_equal(p.err_offset, 1);
}

static void test_unknown_opcodes_are_rejected(void **state)
{
	(void)state;
	for (unsigned op = 0; op < 256; op++) {
		const uint8_t b[] = { TVTRACE_OP_BEGIN_GROUP, (uint8_t)op, 0, 0, 0, 0 };

		if ((op >= 1 && op <= 11) || op == 16 || op == 17)
			continue; /* chapter 2's opcodes: the round trips */
		expect_error(&rv64, b, sizeof(b), TVTRACE_ERR_OPCODE, 1);
	}
}

static void test_unknown_state_identifiers_are_rejected(void **state)
{
	(void)state;
	for (unsigned id = 0; id < 256; id++) {
		const uint8_t b[] = { 1, 7, (uint8_t)id, 0, 0, 0, 0, 0, 0, 0, 0, 2 };

		if (id >= TVTRACE_STATE_PRIV && id <= TVTRACE_STATE_PC)
			continue;
		expect_error(&rv64, b, sizeof(b), TVTRACE_ERR_STATE_ID, 2);
	}
}

static void test_privilege_above_privlen_is_rejected(void **state)
{
	const uint8_t b[] = { 7, 1, 3, 7, 1, 4 };

	(void)state;
	expect_error(&rv64, b, sizeof(b), TVTRACE_ERR_VALUE, 5);
}

static void test_memory_request_op_and_size_checked(void **state)
{
	const uint8_t bad_op[] = { 8, 0, 0, 0, 0, 0x0e };
	const uint8_t bad_size[] = { 8, 0, 0, 0, 0, 0x40 };

	(void)state;
	expect_error(&rv32_nof, bad_op, sizeof(bad_op), TVTRACE_ERR_MEM_OP, 5);
	expect_error(&rv32_nof, bad_size, sizeof(bad_size), TVTRACE_ERR_MEM_SIZE, 5);
}

static void test_memory_response_size_and_result_checked(void **state)
{
	const uint8_t bad_size[] = { 8, 0, 0, 0, 0, 0x00, 9, 0x04 };
	const uint8_t bad_result[] = { 8, 0, 0, 0, 0, 0x00, 9, 0x20, 0 };

	(void)state;
	expect_error(&rv32_nof, bad_size, sizeof(bad_size), TVTRACE_ERR_MEM_SIZE, 7);
	expect_error(&rv32_nof, bad_result, sizeof(bad_result), TVTRACE_ERR_MEM_RESULT, 7);
}

/* Chapter 3: a memory response must immediately follow its request. */
static void test_memory_response_must_follow_request(void **state)
{
	const uint8_t alone[] = { 9, 0, 0x55 };
	const uint8_t after_other[] = { 8, 0, 0, 0, 0, 0x00, 3, 9, 0, 0x55 };
	const uint8_t twice[] = { 8, 0, 0, 0, 0, 0x00, 9, 0, 0x55, 9, 0, 0x55 };

	(void)state;
	expect_error(&rv32_nof, alone, sizeof(alone), TVTRACE_ERR_ORPHAN_RSP, 0);
	expect_error(&rv32_nof, after_other, sizeof(after_other), TVTRACE_ERR_ORPHAN_RSP, 7);
	expect_error(&rv32_nof, twice, sizeof(twice), TVTRACE_ERR_ORPHAN_RSP, 9);
}

/* Stores' and sc's responses carry no data: the next byte is the next
 * opcode.  Loads, lr, AMOs and fetches get their data back. */
static void test_store_and_sc_responses_have_no_data(void **state)
{
	const uint8_t store[] = { 8, 0x40, 0, 0, 0, 0x11, 0xcd, 0xab, 9, 0x01, 2 };
	const uint8_t sc[] = { 8, 0x40, 0, 0, 0, 0x23, 1, 2, 3, 4, 9, 0x12, 2 };
	const uint8_t amo[] = { 8, 0x40, 0, 0, 0, 0x05, 7, 9, 0x00, 6, 2 };
	const uint8_t lr[] = { 8, 0x40, 0, 0, 0, 0x02, 9, 0x00, 5, 2 };
	const uint8_t fetch[] = { 8, 0x40, 0, 0, 0, 0x1d, 9, 0x01, 0x0d, 0x8d, 2 };
	struct tvtrace_record r[4];

	(void)state;
	assert_int_equal(parse_all(&rv32_nof, store, sizeof(store), r, 4), 3);
	assert_int_equal(r[0].value, 0xabcd);
	assert_true(r[0].has_data);
	assert_false(r[1].has_data);
	assert_int_equal(r[2].opcode, TVTRACE_OP_END_GROUP);
	assert_int_equal(parse_all(&rv32_nof, sc, sizeof(sc), r, 4), 3);
	assert_int_equal(r[0].value, 0x04030201);
	assert_false(r[1].has_data);
	assert_int_equal(r[1].mem_result, TVTRACE_MEM_FAILURE);
	assert_int_equal(parse_all(&rv32_nof, amo, sizeof(amo), r, 4), 3);
	assert_int_equal(r[0].value, 7);
	assert_int_equal(r[1].value, 6);
	assert_int_equal(parse_all(&rv32_nof, lr, sizeof(lr), r, 4), 3);
	assert_false(r[0].has_data);
	assert_int_equal(r[1].value, 5);
	assert_int_equal(parse_all(&rv32_nof, fetch, sizeof(fetch), r, 4), 3);
	assert_false(r[0].has_data);
	assert_int_equal(r[1].value, 0x8d0d);
}

static void test_fpr_without_flen_is_rejected(void **state)
{
	const uint8_t b[] = { 4, 0x20, 0x10, 0, 0, 0, 0 };
	struct tvtrace_record rec = { .opcode = TVTRACE_OP_FULL_REG,
				      .reg = TVTRACE_REG_FPR(0) };
	uint8_t buf[16];

	(void)state;
	expect_error(&rv32_nof, b, sizeof(b), TVTRACE_ERR_REGISTER, 1);
	assert_int_equal(tvtrace_write(&rv32_nof, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_REGISTER);
}

/* ---- writer errors ------------------------------------------------------- */

static void test_writer_rejects_values_wider_than_field(void **state)
{
	struct tvtrace_record rec = { .opcode = TVTRACE_OP_FULL_REG,
				      .reg = TVTRACE_REG_GPR(1), .value = 1ull << 32 };
	uint8_t buf[32];

	(void)state;
	assert_int_equal(tvtrace_write(&rv32_nof, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_VALUE);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_REQ,
				       .addr = 1ull << 40, .mem_op = TVTRACE_MEM_LOAD };
	assert_int_equal(tvtrace_write(&rv32_sv32, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_VALUE);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_INSN16, .insn = 0x10000 };
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_VALUE);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_STATE,
				       .state_id = TVTRACE_STATE_DATA16, .value = 0x10000 };
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_VALUE);
}

static void test_writer_rejects_bad_codes(void **state)
{
	struct tvtrace_record rec = { .opcode = 12 };
	uint8_t buf[32];

	(void)state;
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_OPCODE);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_STATE, .state_id = 11 };
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_STATE_ID);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_REQ, .mem_op = 14 };
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_MEM_OP);
	rec.mem_op = 0;
	rec.mem_size = 4;
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_MEM_SIZE);
	rec = (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_RSP, .mem_result = 2 };
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, sizeof(buf)),
			 -TVTRACE_ERR_MEM_RESULT);
}

static void test_writer_needs_space_and_writes_nothing_short(void **state)
{
	struct tvtrace_record rec = { .opcode = TVTRACE_OP_FULL_REG,
				      .reg = TVTRACE_REG_GPR(5), .value = 7 };
	uint8_t buf[11];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, 10), -TVTRACE_ERR_SPACE);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xee);
	assert_int_equal(tvtrace_write(&rv64, &rec, NULL, buf, 11), 11);
}

static void test_params_must_be_supported_widths(void **state)
{
	const struct tvtrace_params bad[] = { { 2, 0, 4 }, { 8, 2, 8 }, { 8, 8, 6 },
					      { 16, 16, 8 } };
	struct tvtrace_record rec = { .opcode = TVTRACE_OP_BEGIN_GROUP };
	uint8_t buf[4] = { 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tvtrace_parser p;
		size_t off = 0;

		assert_false(tvtrace_params_valid(&bad[i]));
		assert_int_equal(tvtrace_write(&bad[i], &rec, NULL, buf, sizeof(buf)),
				 -TVTRACE_ERR_PARAMS);
		tvtrace_parser_init(&p, &bad[i]);
		assert_int_equal(tvtrace_parse(&p, buf, 1, &off, &rec), TVTRACE_ERR_PARAMS);
	}
	assert_true(tvtrace_params_valid(&rv64));
	assert_true(tvtrace_params_valid(&rv32_sv32));
	assert_true(tvtrace_params_valid(&rv32_nof));
}

static void test_strerror_names_every_error(void **state)
{
	(void)state;
	for (int e = TVTRACE_ERR_PARAMS; e <= TVTRACE_ERR_VALUE; e++) {
		assert_string_not_equal(tvtrace_strerror(e), "unknown error");
		assert_string_equal(tvtrace_strerror(e), tvtrace_strerror(-e));
	}
	assert_string_equal(tvtrace_strerror(1000), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c1_add_gp_t0_t1),
		cmocka_unit_test(test_c2_jr_pc_as_additional_state),
		cmocka_unit_test(test_c3_fadd_s_full_flen_and_fcsr_or),
		cmocka_unit_test(test_c4_c_sub_16bit_instruction),
		cmocka_unit_test(test_c5_lw_physical_address),
		cmocka_unit_test(test_c6_csrrc_gpr_and_csr),
		cmocka_unit_test(test_c7_illegal_instruction_trap),
		cmocka_unit_test(test_c8_interrupt_has_no_instruction),
		cmocka_unit_test(test_c2_as_printed_pc_identifier_0x10_is_rejected),
		cmocka_unit_test(test_c4_as_printed_register_is_x16_not_a0),
		cmocka_unit_test(test_c5_as_printed_opcode_10_misframes),
		cmocka_unit_test(test_roundtrip_every_record_rv64),
		cmocka_unit_test(test_roundtrip_every_record_rv32_sv32_mlen34),
		cmocka_unit_test(test_roundtrip_every_record_rv32_without_f),
		cmocka_unit_test(test_payload_lengths_follow_chapter_2),
		cmocka_unit_test(test_subbyte_fields_pack_from_lsb),
		cmocka_unit_test(test_every_truncated_record_reports_its_offset),
		cmocka_unit_test(test_parse_at_end_is_truncated),
		cmocka_unit_test(test_unknown_opcodes_are_rejected),
		cmocka_unit_test(test_unknown_state_identifiers_are_rejected),
		cmocka_unit_test(test_privilege_above_privlen_is_rejected),
		cmocka_unit_test(test_memory_request_op_and_size_checked),
		cmocka_unit_test(test_memory_response_size_and_result_checked),
		cmocka_unit_test(test_memory_response_must_follow_request),
		cmocka_unit_test(test_store_and_sc_responses_have_no_data),
		cmocka_unit_test(test_fpr_without_flen_is_rejected),
		cmocka_unit_test(test_writer_rejects_values_wider_than_field),
		cmocka_unit_test(test_writer_rejects_bad_codes),
		cmocka_unit_test(test_writer_needs_space_and_writes_nothing_short),
		cmocka_unit_test(test_params_must_be_supported_widths),
		cmocka_unit_test(test_strerror_names_every_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

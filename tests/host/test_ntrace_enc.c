// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace encoder (and decoder) against the spec's own examples: Table 24
 * (XOR address compression), 8.4.1/8.4.2 (I-CNT and HIST), 8.4.4 (SYNC=4),
 * 9.3 (RCODE=2), 10.1 (custom instructions), Table 26 (corner cases); and
 * one test per encoding rule (7.1 Ownership, 7.4 Error, 7.11 RepeatBranch,
 * 8.3.1 HIST overflow, 8.7 timestamps, 9.1, 9.2, SRC, periodic sync).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_ntrace_prog.h"
#include "lib/ntrace/ntrace_internal.h"   /* ntrace_layout_of(), ntrace_write_fields() */

#define MAX_MSGS 4096

struct session {
	struct ntrace_encoder enc;
	struct bytes out;
	struct ntrace_msg msg[MAX_MSGS];
	size_t nmsg;
	struct ntrace_format fmt;
};

static struct session S;
static struct image IMG;

static struct ntrace_enc_config base_config(unsigned mode)
{
	return (struct ntrace_enc_config){ .trTeInstMode = (uint8_t)mode, .xlen = 64 };
}

static void begin(const struct ntrace_enc_config *cfg, unsigned sync)
{
	struct ntrace_sink sink = { .write = bytes_sink, .ctx = &S.out };

	bytes_free(&S.out);
	S.nmsg = 0;
	assert_int_equal(ntrace_enc_init(&S.enc, cfg, &sink), 0);
	S.fmt = S.enc.fmt;
	if (sync != 0xff)
		ntrace_enc_start(&S.enc, sync);
}

static void rec(uint64_t addr, unsigned size, unsigned itype)
{
	struct ntrace_retired r = { .addr = addr, .size = (uint8_t)size, .itype = (uint8_t)itype,
				    .priv = NTRACE_PRV_M };

	ntrace_enc_retire(&S.enc, &r, 1);
}

/* Flush and parse everything emitted so far. */
static void collect(void)
{
	size_t pos = 0;
	struct ntrace_error err;

	assert_int_equal(ntrace_enc_flush(&S.enc), 0);
	S.nmsg = 0;
	for (;;) {
		int rc = ntrace_msg_parse(&S.fmt, S.out.data, S.out.len, &pos, &S.msg[S.nmsg], &err);

		if (rc == 0)
			break;
		assert_int_equal(rc, 1);
		assert_true(++S.nmsg < MAX_MSGS);
	}
}

static void finish(unsigned evcode, uint64_t next, uint64_t ts)
{
	ntrace_enc_stop(&S.enc, evcode, next, ts);
	collect();
}

static const struct ntrace_msg *msg(size_t i)
{
	if (i >= S.nmsg)
		fail_msg("message %zu missing (only %zu)", i, S.nmsg);
	return &S.msg[i];
}

static void expect_tcode(size_t i, unsigned tcode)
{
	if (msg(i)->val[NTRACE_FLD_TCODE] != tcode)
		fail_msg("message %zu is %s, expected %s", i,
			 ntrace_tcode_name((unsigned)msg(i)->val[NTRACE_FLD_TCODE]), ntrace_tcode_name(tcode));
}

static uint64_t field(size_t i, unsigned f)
{
	if (!ntrace_msg_has(msg(i), f))
		fail_msg("message %zu has no %s", i, ntrace_field_name(f));
	return msg(i)->val[f];
}

/* Decode S.out against IMG with a decoder configured like the encoder. */
static void decode_session(struct dec_out *o, const struct ntrace_enc_config *ec)
{
	struct ntrace_dec_config dc = {
		.fmt = S.fmt, .src_id = -1, .inst_mode = ec->trTeInstMode, .isa_ext = RV_EXT_C,
		.implicit_return = ec->trTeInstEnImplicitReturn, .call_stack_depth = ec->call_stack_depth,
		.sequential_jump = ec->trTeInstEnSequentialJump, .all_jumps = ec->trTeInstEnAllJumps,
	};

	memset(o, 0, sizeof(*o));
	decode_stream(&dc, &IMG, S.out.data, S.out.len, o);
}

static void expect_addrs(const struct dec_out *o, const uint64_t *want, size_t n)
{
	if (o->nerr)
		fail_msg("decoder reported %zu errors, first: %s at %zu", o->nerr,
			 ntrace_strerror(o->first_error), o->first_error_offset);
	assert_int_equal(o->n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(o->addrs[i], want[i]);
}

/* ------------------------------------------------------------ Table 24 */

static void test_table24_address_xor_compression_sequence(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	img_init(&IMG, 0x3e000);
	img_put(&IMG, 0x3fc04, rv_enc_jalr(0, 6, 0));
	img_put(&IMG, 0x3f368, rv_enc_jalr(0, 7, 0));
	img_put(&IMG, 0x3e100, rv_enc_addi(1, 1, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x3fc04, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x3f368, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x3e100, 4, RV_ITYPE_NONE);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x3e104, 0);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(0, NTRACE_FLD_FADDR), 0x1fe02);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_UADDR), 0x7b6);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(2, NTRACE_FLD_UADDR), 0x934);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x3fc04, 0x3f368, 0x3e100 }, 3);
	out_free(&o);
}

/* ------------------------------------------------------------ 8.4.1/8.4.2 */

/* The code of 8.4.1. */
static void image_8_4_1(void)
{
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x102, rv_enc_branch(0, 10, 11, 0x200 - 0x102));
	img_put(&IMG, 0x106, rv_enc_addi(10, 10, 1));
	img_put(&IMG, 0x10a, rv_enc_branch(1, 10, 11, 0x300 - 0x10a));
	img_put(&IMG, 0x10e, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x110, rv_enc_addi(10, 10, 1));
	img_put(&IMG, 0x114, rv_enc_c_ebreak());
	img_put(&IMG, 0x200, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x202, rv_enc_c_ebreak());
	img_put(&IMG, 0x300, rv_enc_addi(10, 10, 1));
	img_put(&IMG, 0x304, rv_enc_c_ebreak());
}

/* Execute one of the three runs of 8.4.1 (taken: 1 = first branch,
 * 2 = second branch, 0 = none); debug mode is entered at c.ebreak. */
static void run_8_4_1(unsigned mode, unsigned taken, struct dec_out *o, uint64_t *want, size_t *nwant)
{
	struct ntrace_enc_config c = base_config(mode);
	size_t n = 0;

	image_8_4_1();
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(want[n++] = 0x100, 2, 0);
	if (taken == 1) {
		rec(want[n++] = 0x102, 4, RV_ITYPE_TAKEN_BRANCH);
		rec(want[n++] = 0x200, 2, 0);
		finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x202, 0);
	} else {
		rec(want[n++] = 0x102, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
		rec(want[n++] = 0x106, 4, 0);
		if (taken == 2) {
			rec(want[n++] = 0x10a, 4, RV_ITYPE_TAKEN_BRANCH);
			rec(want[n++] = 0x300, 4, 0);
			finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x304, 0);
		} else {
			rec(want[n++] = 0x10a, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
			rec(want[n++] = 0x10e, 2, 0);
			rec(want[n++] = 0x110, 4, 0);
			finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x114, 0);
		}
	}
	*nwant = n;
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(0, NTRACE_FLD_SYNC), NTRACE_SYNC_DEBUG_EXIT);
	assert_int_equal(field(0, NTRACE_FLD_ICNT), 0);
	assert_int_equal(field(0, NTRACE_FLD_FADDR), 0x80);
	decode_session(o, &c);
}

static void test_8_4_1_btm_first_branch_taken_gives_icnt_3_then_1(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_BTM, 1, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_DIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 3);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 1);
	assert_int_equal(field(2, NTRACE_FLD_CDF), 0);
	assert_int_equal(S.nmsg, 3);
	expect_addrs(&o, want, n);
	out_free(&o);
}

static void test_8_4_1_btm_second_branch_taken_gives_icnt_7_then_2(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_BTM, 2, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_DIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 7);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 2);
	expect_addrs(&o, want, n);
	out_free(&o);
}

static void test_8_4_1_btm_no_branch_taken_gives_icnt_10(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_BTM, 0, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 10);
	assert_int_equal(S.nmsg, 2);
	expect_addrs(&o, want, n);
	out_free(&o);
}

/* 8.4.1: I-CNT = 1, 5, 0 are correct from 0x100; 4, 6, 9 end inside a
 * 32-bit instruction and must be reported. */
static void test_8_4_1_incorrect_icnt_values_are_reported(void **state)
{
	static const struct {
		unsigned icnt;
		bool ok;
	} cases[] = { { 0, true }, { 1, true }, { 5, true }, { 4, false }, { 6, false }, { 9, false } };
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	image_8_4_1();
	for (unsigned i = 0; i < 6; i++) {
		struct ntrace_msg m;
		uint8_t b[64];
		int n0, n1;
		struct dec_out o;

		ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_SYNC);
		ntrace_msg_set(&m, NTRACE_FLD_SYNC, 3);
		ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0);
		ntrace_msg_set(&m, NTRACE_FLD_FADDR, 0x80);
		n0 = ntrace_msg_write(&S.fmt, &m, b, sizeof(b));
		/* exception after I-CNT half-words: IndirectBranch B-TYPE=2 */
		ntrace_msg_init(&m, NTRACE_TCODE_INDIRECT_BRANCH);
		ntrace_msg_set(&m, NTRACE_FLD_BTYPE, 2);
		ntrace_msg_set(&m, NTRACE_FLD_ICNT, cases[i].icnt);
		ntrace_msg_set(&m, NTRACE_FLD_UADDR, 0x100 >> 1); /* handler 0x200 */
		n1 = ntrace_msg_write(&S.fmt, &m, b + n0, sizeof(b) - (size_t)n0);
		bytes_free(&S.out);
		bytes_sink(&S.out, b, (size_t)(n0 + n1));
		decode_session(&o, &c);
		if (cases[i].ok) {
			assert_int_equal(o.nerr, 0);
			assert_int_equal(o.ntrap, 1);
		} else {
			assert_int_equal(o.nerr, 1);
			assert_int_equal(o.first_error, NTRACE_ERR_BAD_ICNT);
			assert_int_equal(o.first_error_offset, (size_t)n0);
		}
		out_free(&o);
	}
}

static void test_8_4_2_htm_first_branch_taken_gives_icnt_4_hist_0b11(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_HTM, 1, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 4);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x3);
	assert_int_equal(field(1, NTRACE_FLD_CDF), 1);
	expect_addrs(&o, want, n);
	out_free(&o);
}

static void test_8_4_2_htm_second_branch_taken_gives_icnt_9_hist_0b101(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_HTM, 2, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 9);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x5);
	expect_addrs(&o, want, n);
	out_free(&o);
}

static void test_8_4_2_htm_no_branch_taken_gives_icnt_10_hist_0b100(void **state)
{
	struct dec_out o;
	uint64_t want[16];
	size_t n;

	(void)state;
	run_8_4_1(NTRACE_INST_MODE_HTM, 0, &o, want, &n);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 10);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x4);
	expect_addrs(&o, want, n);
	out_free(&o);
}

/* ------------------------------------------------------------ 8.4.4 */

static void test_8_4_4_icnt_overflow_reported_with_sync_4(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	uint64_t want[16];
	size_t n = 0;
	struct dec_out o;

	(void)state;
	c.icnt_bits = 4; /* "I-CNT counter is 4-bit wide (MSB bit being an overflow flag)" */
	c.icnt_overflow_sync = true;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x102, rv_enc_branch(0, 10, 11, 0x200 - 0x102));
	img_put(&IMG, 0x106, rv_enc_c_add(10, 11));
	for (uint64_t a = 0x108; a < 0x11c; a += 4)
		img_put(&IMG, a, rv_enc_addi(10, 10, 1));
	img_put(&IMG, 0x11c, rv_enc_c_ebreak());
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(want[n++] = 0x100, 2, 0);
	rec(want[n++] = 0x102, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
	rec(want[n++] = 0x106, 2, 0);
	for (uint64_t a = 0x108; a < 0x11c; a += 4)
		rec(want[n++] = a, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x11c, 0);
	assert_int_equal(S.nmsg, 3);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(0, NTRACE_FLD_SYNC), 3);
	assert_int_equal(field(0, NTRACE_FLD_ICNT), 0);
	assert_int_equal(field(0, NTRACE_FLD_FADDR), 0x80);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC);
	assert_int_equal(field(1, NTRACE_FLD_SYNC), NTRACE_SYNC_ICNT);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 8);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x2);
	assert_int_equal(field(1, NTRACE_FLD_FADDR), 0x88);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_EVCODE), 0);
	assert_int_equal(field(2, NTRACE_FLD_CDF), 1);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 6);
	assert_int_equal(field(2, NTRACE_FLD_HIST), 0x1);
	decode_session(&o, &c);
	expect_addrs(&o, want, n);
	out_free(&o);
}

/* 8.4.4 first form: ResourceFull RCODE=0 in BTM (or with empty HIST). */
static void test_8_4_4_icnt_overflow_reported_with_resource_full_rcode_0(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	uint64_t want[64];
	size_t n = 0;
	struct dec_out o;

	(void)state;
	c.icnt_bits = 4;
	img_init(&IMG, 0x100);
	for (uint64_t a = 0x100; a < 0x140; a += 4)
		img_put(&IMG, a, rv_enc_addi(10, 10, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	for (uint64_t a = 0x100; a < 0x140; a += 4)
		rec(want[n++] = a, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x140, 0);
	/* 16 instructions x 2 half-words: four overflows at I-CNT = 8 */
	for (unsigned i = 1; i <= 4; i++) {
		expect_tcode(i, NTRACE_TCODE_RESOURCE_FULL);
		assert_int_equal(field(i, NTRACE_FLD_RCODE), NTRACE_RCODE_ICNT);
		assert_int_equal(field(i, NTRACE_FLD_RDATA), 8);
	}
	expect_tcode(5, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(5, NTRACE_FLD_ICNT), 0);
	decode_session(&o, &c);
	expect_addrs(&o, want, n);
	out_free(&o);
}

/* ------------------------------------------------------------ 8.3.1 / 9.3 */

/* A self loop "bne a0, a1, self" taken `n` times then not taken. */
static void run_self_loop(struct ntrace_enc_config *c, unsigned n, struct dec_out *o)
{
	img_init(&IMG, 0x1000);
	img_put(&IMG, 0x1000, rv_enc_branch(1, 10, 11, 0));
	img_put(&IMG, 0x1004, rv_enc_addi(10, 10, 1));
	begin(c, NTRACE_SYNC_DEBUG_EXIT);
	for (unsigned i = 0; i < n; i++)
		rec(0x1000, 4, RV_ITYPE_TAKEN_BRANCH);
	rec(0x1000, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
	rec(0x1004, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x1008, 0);
	decode_session(o, c);
	assert_int_equal(o->nerr, 0);
	assert_int_equal(o->n, n + 2);
	for (unsigned i = 0; i <= n; i++)
		assert_int_equal(o->addrs[i], 0x1000);
	assert_int_equal(o->addrs[n + 1], 0x1004);
}

static void test_8_3_1_hist_overflow_gives_resource_full_rcode_1(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o;

	(void)state;
	c.hist_bits = 8; /* stop bit + 7 branches */
	run_self_loop(&c, 20, &o);
	/* 21 branch bits: two full records of 7, then 7 in the correlation */
	expect_tcode(1, NTRACE_TCODE_RESOURCE_FULL);
	assert_int_equal(field(1, NTRACE_FLD_RCODE), NTRACE_RCODE_HIST);
	assert_int_equal(field(1, NTRACE_FLD_RDATA), 0xff);
	expect_tcode(2, NTRACE_TCODE_RESOURCE_FULL);
	assert_int_equal(field(2, NTRACE_FLD_RDATA), 0xff);
	expect_tcode(3, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(3, NTRACE_FLD_HIST), 0xfe); /* 1_111111_0 */
	assert_int_equal(field(3, NTRACE_FLD_ICNT), 2 * 22);
	out_free(&o);
}

/* Many HIST records before any I-CNT: the decoder must not need to hold
 * them all (it follows the code as each one arrives, 11.1). */
static void test_8_3_1_many_hist_overflows_before_an_icnt_message(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o;

	(void)state;
	c.hist_bits = 8;
	run_self_loop(&c, 20000, &o); /* ~2857 ResourceFull, one final I-CNT */
	assert_true(S.nmsg > 2800);
	expect_tcode(S.nmsg - 1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(S.nmsg - 1, NTRACE_FLD_ICNT), 2 * 20002);
	out_free(&o);
}

static void test_9_3_repeated_history_gives_rcode_2_with_hrepeat(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o;

	(void)state;
	c.hist_bits = 8;
	c.trTeInstEnRepeatedHistory = true;
	run_self_loop(&c, 7 * 50 + 3, &o);
	expect_tcode(1, NTRACE_TCODE_RESOURCE_FULL);
	assert_int_equal(field(1, NTRACE_FLD_RCODE), NTRACE_RCODE_HIST_REPEAT);
	assert_int_equal(field(1, NTRACE_FLD_RDATA), 0xff);
	assert_int_equal(field(1, NTRACE_FLD_HREPEAT), 50);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_HIST), 0x1e); /* 1_1110 */
	out_free(&o);
}

/* 9.3: both RCODE=2 examples describe the same 300 branch outcomes. */
static void test_9_3_rcode2_examples_decode_to_the_same_flow(void **state)
{
	/* bne a0, a1, 0x1000 at 0x1000; j 0x1000 at 0x1004: "0" falls through
	 * to the jump, "1" loops; pattern 01 is nt, j, t. */
	const uint64_t hist[2] = { 0x55555555, 0x5 }, rep[2] = { 10, 150 };
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o[2];

	(void)state;
	img_init(&IMG, 0x1000);
	img_put(&IMG, 0x1000, rv_enc_branch(1, 10, 11, 0));
	img_put(&IMG, 0x1004, rv_enc_jal(0, -4));
	for (unsigned k = 0; k < 2; k++) {
		struct ntrace_msg m;
		uint8_t b[64];
		size_t len = 0;

		ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_SYNC);
		ntrace_msg_set(&m, NTRACE_FLD_SYNC, 3);
		ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0);
		ntrace_msg_set(&m, NTRACE_FLD_FADDR, 0x800);
		len += (size_t)ntrace_msg_write(&S.fmt, &m, b + len, sizeof(b) - len);
		ntrace_msg_init(&m, NTRACE_TCODE_RESOURCE_FULL);
		ntrace_msg_set(&m, NTRACE_FLD_RCODE, 2);
		ntrace_msg_set(&m, NTRACE_FLD_RDATA, hist[k]);
		ntrace_msg_set(&m, NTRACE_FLD_HREPEAT, rep[k]);
		len += (size_t)ntrace_msg_write(&S.fmt, &m, b + len, sizeof(b) - len);
		ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_CORRELATION);
		ntrace_msg_set(&m, NTRACE_FLD_EVCODE, 0);
		ntrace_msg_set(&m, NTRACE_FLD_CDF, 1);
		ntrace_msg_set(&m, NTRACE_FLD_ICNT, 150 * 6);
		ntrace_msg_set(&m, NTRACE_FLD_HIST, 1);
		len += (size_t)ntrace_msg_write(&S.fmt, &m, b + len, sizeof(b) - len);
		bytes_free(&S.out);
		bytes_sink(&S.out, b, len);
		decode_session(&o[k], &c);
		assert_int_equal(o[k].nerr, 0);
		assert_int_equal(o[k].n, 450);
	}
	for (size_t i = 0; i < 450; i++) {
		assert_int_equal(o[0].addrs[i], o[1].addrs[i]);
		assert_int_equal(o[0].addrs[i], (i % 3 == 1) ? 0x1004 : 0x1000);
	}
	out_free(&o[0]);
	out_free(&o[1]);
}

/* ------------------------------------------------------------ 7.11 */

static void test_7_11_repeat_branch_counts_identical_branch_messages(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	c.trTeInstEnRepeatedHistory = true; /* BTM: RepeatBranch */
	run_self_loop(&c, 40, &o);
	expect_tcode(1, NTRACE_TCODE_DIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 2);
	/* the second DirectBranch starts where the first started: repeats */
	expect_tcode(2, NTRACE_TCODE_REPEAT_BRANCH);
	assert_int_equal(field(2, NTRACE_FLD_BCNT), 39);
	expect_tcode(3, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(S.nmsg, 4);
	out_free(&o);
	/* without the option: 40 DirectBranch messages */
	c.trTeInstEnRepeatedHistory = false;
	run_self_loop(&c, 40, &o);
	assert_int_equal(S.nmsg, 42);
	out_free(&o);
}

/* ------------------------------------------------------------ 9.1 / 9.2 */

static void test_9_1_sequential_jump_after_lui_is_inferable(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;
	const uint64_t want[] = { 0x80000000, 0x80000004, 0x80000800, 0x80000804 };

	(void)state;
	c.xlen = 32;
	img_init(&IMG, 0x80000000);
	img_put(&IMG, 0x80000000, rv_enc_lui(6, 0x80001));
	img_put(&IMG, 0x80000004, rv_enc_jalr(0, 6, -0x800));
	img_put(&IMG, 0x80000800, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x80000804, rv_enc_addi(1, 1, 1));
	for (unsigned en = 0; en < 2; en++) {
		struct ntrace_retired r[4] = {
			{ .addr = 0x80000000, .size = 4, .priv = 3 },
			{ .addr = 0x80000004, .size = 4, .itype = RV_ITYPE_UNINFERABLE_JUMP, .priv = 3,
			  .flags = NTRACE_REC_SEQ_INFERABLE },
			{ .addr = 0x80000800, .size = 4, .priv = 3 },
			{ .addr = 0x80000804, .size = 4, .priv = 3 },
		};

		c.trTeInstEnSequentialJump = en;
		begin(&c, NTRACE_SYNC_DEBUG_EXIT);
		ntrace_enc_retire(&S.enc, r, 4);
		finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x80000808, 0);
		/* enabled: no IndirectBranch at all */
		assert_int_equal(S.nmsg, en ? 2 : 3);
		if (!en)
			expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
		decode_session(&o, &c);
		expect_addrs(&o, want, 4);
		out_free(&o);
	}
}

/* Code for the implicit return tests: main calls f twice, f returns. */
static void image_calls(void)
{
	img_init(&IMG, 0x2000);
	img_put(&IMG, 0x2000, rv_enc_jal(1, 0x100));   /* call f */
	img_put(&IMG, 0x2004, rv_enc_jal(1, 0xfc));    /* call f */
	img_put(&IMG, 0x2008, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x2100, rv_enc_addi(10, 10, 1)); /* f */
	img_put(&IMG, 0x2104, rv_enc_jalr(0, 1, 0));   /* ret */
	img_put(&IMG, 0x2200, rv_enc_addi(10, 10, 1)); /* elsewhere */
}

static void run_calls(struct ntrace_enc_config *c, uint64_t second_return_to)
{
	begin(c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x2000, 4, RV_ITYPE_INFERABLE_CALL);
	rec(0x2100, 4, 0);
	rec(0x2104, 4, RV_ITYPE_RETURN);
	rec(0x2004, 4, RV_ITYPE_INFERABLE_CALL);
	rec(0x2100, 4, 0);
	rec(0x2104, 4, RV_ITYPE_RETURN);
	rec(second_return_to, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, second_return_to + 4, 0);
}

static void test_9_2_implicit_return_mode_3_matching_returns_are_silent(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	c.trTeInstEnImplicitReturn = true;
	c.trTeInstImplicitReturnMode = NTRACE_IMPLICIT_RETURN_FULL;
	image_calls();
	run_calls(&c, 0x2008);
	assert_int_equal(S.nmsg, 2); /* sync + correlation only */
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x2000, 0x2100, 0x2104, 0x2004, 0x2100, 0x2104, 0x2008 }, 7);
	out_free(&o);
	/* without the optimization both returns are IndirectBranch messages */
	c.trTeInstEnImplicitReturn = false;
	run_calls(&c, 0x2008);
	assert_int_equal(S.nmsg, 4);
}

static void test_9_2_implicit_return_mode_3_mismatch_is_reported(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	c.trTeInstEnImplicitReturn = true;
	c.trTeInstImplicitReturnMode = NTRACE_IMPLICIT_RETURN_FULL;
	image_calls();
	run_calls(&c, 0x2200); /* second return goes somewhere else */
	assert_int_equal(S.nmsg, 3);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 12); /* everything up to the bad return */
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x2000, 0x2100, 0x2104, 0x2004, 0x2100, 0x2104, 0x2200 }, 7);
	out_free(&o);
}

static void test_9_2_implicit_return_mode_1_counts_without_comparing(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	c.trTeInstEnImplicitReturn = true;
	c.trTeInstImplicitReturnMode = NTRACE_IMPLICIT_RETURN_COUNT;
	image_calls();
	run_calls(&c, 0x2200); /* the counter cannot see the wrong return */
	assert_int_equal(S.nmsg, 2);
}

static void test_9_2_call_stack_depth_limits_inferred_returns(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	c.trTeInstEnImplicitReturn = true;
	c.trTeInstImplicitReturnMode = NTRACE_IMPLICIT_RETURN_FULL;
	c.call_stack_depth = 1;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	/* two nested calls, two returns: only the inner one is on the stack */
	rec(0x2000, 4, RV_ITYPE_INFERABLE_CALL);
	rec(0x2100, 4, RV_ITYPE_INFERABLE_CALL);
	rec(0x2200, 4, RV_ITYPE_RETURN);
	rec(0x2104, 4, RV_ITYPE_RETURN);
	rec(0x2004, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x2008, 0);
	assert_int_equal(S.nmsg, 3);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 8);
}

/* Every trap starts with an empty call stack (README "Traps and the call
 * stack"): the return after the handler is reported explicitly. */
static void test_9_2_call_stack_is_emptied_at_traps(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	c.trTeInstEnImplicitReturn = true;
	c.trTeInstImplicitReturnMode = NTRACE_IMPLICIT_RETURN_FULL;
	image_calls();
	img_put(&IMG, 0x2300, rv_enc_mret());
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x2000, 4, RV_ITYPE_INFERABLE_CALL);
	rec(0x2100, 0, RV_ITYPE_INTERRUPT);
	rec(0x2300, 4, RV_ITYPE_TRAP_RETURN);
	rec(0x2100, 4, 0);
	rec(0x2104, 4, RV_ITYPE_RETURN); /* would be inferable without the trap */
	rec(0x2004, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x2008, 0);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH); /* interrupt */
	assert_int_equal(field(1, NTRACE_FLD_BTYPE), NTRACE_BTYPE_INTERRUPT);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH); /* mret */
	expect_tcode(3, NTRACE_TCODE_INDIRECT_BRANCH); /* the return, explicit */
	assert_int_equal(field(3, NTRACE_FLD_ICNT), 4);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x2000, 0x2300, 0x2100, 0x2104, 0x2004 }, 5);
	out_free(&o);
}

/* ------------------------------------------------------------ Table 26 */

static void test_table26_back_to_back_exceptions_have_icnt_0(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	rec(0x104, 0, RV_ITYPE_EXCEPTION);  /* faults, does not retire */
	rec(0x800, 0, RV_ITYPE_EXCEPTION);  /* handler's first instruction faults */
	rec(0x900, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x904, 0);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_BTYPE), NTRACE_BTYPE_EXCEPTION);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 2);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(2, NTRACE_FLD_BTYPE), NTRACE_BTYPE_EXCEPTION);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 0);
}

static void test_table26_back_to_back_returns_second_has_icnt_of_one_return(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, RV_ITYPE_UNINFERABLE_JUMP); /* ret */
	rec(0x200, 2, RV_ITYPE_UNINFERABLE_JUMP); /* c.jr ra */
	rec(0x300, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x304, 0);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 2);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 1);
}

/* A branch that retires just before an interrupt, reported as the trap
 * record itself (no HIST bit): the trap address decides the next PC. */
static void test_table3_branch_reported_as_interrupt_decodes(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o;

	(void)state;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_branch(0, 1, 2, 0x20));
	img_put(&IMG, 0x104, rv_enc_c_bnez(8, -4));
	img_put(&IMG, 0x800, rv_enc_addi(1, 1, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
	rec(0x104, 2, RV_ITYPE_INTERRUPT); /* c.bnez retired, then the interrupt */
	rec(0x800, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x804, 0);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH_HIST);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x2);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 3);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x100, 0x104, 0x800 }, 3);
	assert_int_equal(o.ntrap, 1);
	out_free(&o);
}

static void test_table26_pending_interrupt_at_start(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 0, RV_ITYPE_INTERRUPT);
	rec(0x800, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x804, 0);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(0, NTRACE_FLD_SYNC), 3);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(field(1, NTRACE_FLD_BTYPE), NTRACE_BTYPE_INTERRUPT);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 0);
}

static void test_table26_exception_at_first_instruction_traced(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);

	(void)state;
	c.btype_trap_as_1 = true; /* "B-TYPE=2 or 1" */
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 0, RV_ITYPE_EXCEPTION);
	rec(0x800, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x804, 0);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH); /* HIST empty: rule 4 of chapter 10 */
	assert_int_equal(field(1, NTRACE_FLD_BTYPE), NTRACE_BTYPE_TRAP);
}

static void test_table26_trace_starts_disabled_then_enabled(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	begin(&c, 0xff);
	ntrace_enc_stop(&S.enc, NTRACE_EVCODE_TRACE_DISABLED, 0, 0);
	rec(0x100, 4, 0); /* not traced */
	ntrace_enc_start(&S.enc, NTRACE_SYNC_TRACE_ENABLE);
	rec(0x104, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x108, 0);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(0, NTRACE_FLD_EVCODE), NTRACE_EVCODE_TRACE_DISABLED);
	assert_int_equal(field(0, NTRACE_FLD_ICNT), 0);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(1, NTRACE_FLD_SYNC), NTRACE_SYNC_TRACE_ENABLE);
	assert_int_equal(field(1, NTRACE_FLD_FADDR), 0x104 >> 1);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 2);
}

static void test_table26_hart_stops_with_trace_disabled(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);

	(void)state;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	ntrace_enc_stop(&S.enc, NTRACE_EVCODE_TRACE_DISABLED, 0x104, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x200, 0);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(1, NTRACE_FLD_EVCODE), NTRACE_EVCODE_TRACE_DISABLED);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 2);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(2, NTRACE_FLD_EVCODE), NTRACE_EVCODE_DEBUG_ENTRY);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 0);
	assert_int_equal(field(2, NTRACE_FLD_HIST), 1);
}

/* ------------------------------------------------------------ 10.1 */

static void test_10_1_custom_instruction_traced_as_indirect_jump(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x104, 0x0000000b); /* XYZ: custom-0 opcode */
	img_put(&IMG, 0x108, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x10a, rv_enc_c_ebreak());
	img_put(&IMG, 0x200, rv_enc_c_add(10, 11));
	img_put(&IMG, 0x202, rv_enc_c_ebreak());
	/* not taken: a single message with I-CNT=5 */
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	rec(0x104, 4, 0);
	rec(0x108, 2, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x10a, 0);
	assert_int_equal(S.nmsg, 2);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 5);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x100, 0x104, 0x108 }, 3);
	out_free(&o);
	/* taken: I-CNT=4 with the address 0x200, then I-CNT=1 */
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	rec(0x104, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x200, 2, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x202, 0);
	assert_int_equal(S.nmsg, 3);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 4);
	assert_int_equal(field(1, NTRACE_FLD_UADDR) << 1 ^ 0x100, 0x200);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 1);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x100, 0x104, 0x200 }, 3);
	out_free(&o);
}

/* ------------------------------------------------------------ rules */

static void test_7_1_ownership_after_sync_and_on_privilege_change(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct ntrace_retired r[3] = {
		{ .addr = 0x100, .size = 4, .itype = RV_ITYPE_EXCEPTION, .priv = NTRACE_PRV_U, .context = 0x1d },
		{ .addr = 0x800, .size = 4, .itype = RV_ITYPE_TRAP_RETURN, .priv = NTRACE_PRV_M, .context = 0x1d },
		{ .addr = 0x104, .size = 4, .priv = NTRACE_PRV_U | 4, .context = 0x1d },
	};

	(void)state;
	c.trTeContext = true;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	ntrace_enc_retire(&S.enc, r, 3);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x108, 0);
	expect_tcode(0, NTRACE_TCODE_PROG_TRACE_SYNC);
	expect_tcode(1, NTRACE_TCODE_OWNERSHIP); /* after sync: FORMAT=10 with scontext */
	assert_int_equal(field(1, NTRACE_FLD_PROCESS), (0x1d << 5) | (0 << 4) | (0 << 2) | 2);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH);
	expect_tcode(3, NTRACE_TCODE_OWNERSHIP); /* entering M: FORMAT=00 PRV=11 */
	assert_int_equal(field(3, NTRACE_FLD_PROCESS), 0xc);
	expect_tcode(4, NTRACE_TCODE_INDIRECT_BRANCH);
	expect_tcode(5, NTRACE_TCODE_OWNERSHIP); /* back to VU */
	assert_int_equal(field(5, NTRACE_FLD_PROCESS), (1 << 4) | 0);
}

/* Table 12 examples, as the decoder reports them. */
static void test_table12_process_examples_decode(void **state)
{
	static const uint64_t process[2] = { 0x3b2, 0xc };
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		struct ntrace_msg m;
		uint8_t b[16];
		int n;
		struct dec_out o;

		ntrace_msg_init(&m, NTRACE_TCODE_OWNERSHIP);
		ntrace_msg_set(&m, NTRACE_FLD_PROCESS, process[k]);
		n = ntrace_msg_write(&S.fmt, &m, b, sizeof(b));
		bytes_free(&S.out);
		bytes_sink(&S.out, b, (size_t)n);
		decode_session(&o, &c);
		assert_int_equal(o.nev, 1);
		assert_int_equal(o.ev[0].kind, NTRACE_EV_OWNERSHIP);
		if (k == 0) {
			assert_int_equal(o.ev[0].format, NTRACE_PROCESS_FORMAT_SCONTEXT);
			assert_int_equal(o.ev[0].context, 0x1d);
			assert_int_equal(o.ev[0].priv, NTRACE_PRV_U | 4); /* VU-mode */
		} else {
			assert_int_equal(o.ev[0].format, NTRACE_PROCESS_FORMAT_PRIV);
			assert_int_equal(o.ev[0].priv, NTRACE_PRV_M);
		}
		out_free(&o);
	}
}

static void test_7_4_queue_overflow_gives_error_then_sync_7(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);
	struct dec_out o;

	(void)state;
	img_init(&IMG, 0x100);
	for (uint64_t a = 0x100; a < 0x120; a += 4)
		img_put(&IMG, a, rv_enc_addi(1, 1, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	rec(0x104, 4, 0);
	ntrace_enc_overflow(&S.enc, 5);
	rec(0x110, 4, 0);
	rec(0x114, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x118, 0);
	expect_tcode(1, NTRACE_TCODE_ERROR);
	assert_int_equal(field(1, NTRACE_FLD_ETYPE), NTRACE_ETYPE_QUEUE_OVERRUN);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(2, NTRACE_FLD_SYNC), NTRACE_SYNC_FIFO_OVERRUN);
	assert_int_equal(field(2, NTRACE_FLD_FADDR), 0x110 >> 1);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x110, 0x114 }, 2);
	assert_int_equal(o.ev[0].kind, NTRACE_EV_SYNC);
	assert_int_equal(o.ev[1].kind, NTRACE_EV_OVERFLOW);
	assert_int_equal(o.ev[2].kind, NTRACE_EV_SYNC);
	assert_int_equal(o.ev[2].sync, NTRACE_SYNC_FIFO_OVERRUN);
	out_free(&o);
}

/* A sink that refuses its first chunk. */
static int refusals;

static int flaky_sink(void *ctx, const uint8_t *data, size_t len)
{
	if (refusals) {
		refusals--;
		return -1;
	}
	return bytes_sink(ctx, data, len);
}

/* 7.4 / trTeInstStallEna=0: bytes the sink drops are a queue overrun. */
static void test_7_4_sink_failure_is_reported_as_queue_overrun(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct ntrace_sink sink = { .write = flaky_sink, .ctx = &S.out };
	struct dec_out o;
	size_t i = 0;

	(void)state;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_jalr(0, 6, 0));
	img_put(&IMG, 0x200, rv_enc_jalr(0, 7, 0));
	bytes_free(&S.out);
	assert_int_equal(ntrace_enc_init(&S.enc, &c, &sink), 0);
	S.fmt = S.enc.fmt;
	ntrace_enc_start(&S.enc, NTRACE_SYNC_DEBUG_EXIT);
	refusals = 1;
	while (S.enc.stats.lost_bytes == 0) { /* until the first chunk is refused */
		rec(i & 1 ? 0x200 : 0x100, 4, RV_ITYPE_UNINFERABLE_JUMP);
		i++;
	}
	for (unsigned k = 0; k < 4; k++, i++)
		rec(i & 1 ? 0x200 : 0x100, 4, RV_ITYPE_UNINFERABLE_JUMP);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, i & 1 ? 0x200 : 0x100, 0);
	expect_tcode(0, NTRACE_TCODE_ERROR);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(1, NTRACE_FLD_SYNC), NTRACE_SYNC_FIFO_OVERRUN);
	decode_session(&o, &c);
	assert_int_equal(o.nerr, 0);
	assert_int_equal(o.ev[0].kind, NTRACE_EV_OVERFLOW);
	assert_int_equal(o.n, 4); /* the records after the refused chunk */
	out_free(&o);
}

/* Table 25: SYNC=0 (external trigger) as a marker on the next message. */
static void test_table25_sync_marker_rides_on_next_message(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct dec_out o;

	(void)state;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x104, rv_enc_jalr(0, 6, 0));
	img_put(&IMG, 0x200, rv_enc_addi(1, 1, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	ntrace_enc_sync(&S.enc, NTRACE_SYNC_EXT_TRIGGER);
	rec(0x104, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x200, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x204, 0);
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_SYNC); /* at 0x104: nothing to ride on */
	assert_int_equal(field(1, NTRACE_FLD_SYNC), NTRACE_SYNC_EXT_TRIGGER);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 2);
	assert_int_equal(field(1, NTRACE_FLD_FADDR), 0x104 >> 1);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH);
	decode_session(&o, &c);
	expect_addrs(&o, (const uint64_t[]){ 0x100, 0x104, 0x200 }, 3);
	out_free(&o);
}

static void test_8_7_timestamps_absolute_on_sync_relative_otherwise(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct ntrace_retired r[3] = {
		{ .addr = 0x100, .size = 4, .tstamp = 1000 },
		{ .addr = 0x104, .size = 4, .itype = RV_ITYPE_TAKEN_BRANCH, .tstamp = 1010 },
		{ .addr = 0x200, .size = 4, .tstamp = 1050 },
	};
	struct dec_out o;

	(void)state;
	c.trTsEnable = true;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x104, rv_enc_branch(0, 1, 2, 0xfc));
	img_put(&IMG, 0x200, rv_enc_addi(1, 1, 1));
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	ntrace_enc_retire(&S.enc, r, 3);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x204, 1100);
	assert_int_equal(field(0, NTRACE_FLD_TSTAMP), 1000); /* absolute */
	assert_int_equal(field(1, NTRACE_FLD_TSTAMP), 10);   /* branch at 1010 */
	assert_int_equal(field(2, NTRACE_FLD_TSTAMP), 90);   /* stop at 1100 */
	decode_session(&o, &c);
	assert_int_equal(o.nerr, 0);
	assert_int_equal(o.ev[o.nev - 1].kind, NTRACE_EV_STOP);
	assert_true(o.ev[o.nev - 1].has_tstamp);
	assert_int_equal(o.ev[o.nev - 1].tstamp, 1100);
	out_free(&o);
}

static void test_table9_src_field_present_unless_inhibited(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);

	(void)state;
	c.trTeSrcBits = 5;
	c.trTeSrcID = 0x13;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x104, 0);
	assert_int_equal(field(0, NTRACE_FLD_SRC), 0x13);
	assert_int_equal(field(1, NTRACE_FLD_SRC), 0x13);
	assert_int_equal(msg(0)->bits[NTRACE_FLD_SRC], 5);
	c.trTeInhibitSrc = true;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x104, 0);
	assert_false(ntrace_msg_has(msg(0), NTRACE_FLD_SRC));
}

/* 11.2: a decoder follows only its hart's SRC in a shared stream. */
static void test_11_2_decoder_selects_messages_by_src(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	struct bytes mixed = { 0 };
	struct dec_out o;
	struct ntrace_dec_config dc = { .fmt = { .xlen = 64, .src_bits = 2 }, .inst_mode = NTRACE_INST_MODE_BTM,
					.isa_ext = RV_EXT_C };

	(void)state;
	img_init(&IMG, 0x100);
	img_put(&IMG, 0x100, rv_enc_addi(1, 1, 1));
	img_put(&IMG, 0x104, rv_enc_addi(1, 1, 1));
	c.trTeSrcBits = 2;
	for (unsigned src = 1; src <= 2; src++) {
		c.trTeSrcID = (uint16_t)src;
		begin(&c, NTRACE_SYNC_DEBUG_EXIT);
		rec(0x100, 4, 0);
		if (src == 2)
			rec(0x104, 4, 0);
		finish(NTRACE_EVCODE_DEBUG_ENTRY, src == 2 ? 0x108 : 0x104, 0);
		bytes_sink(&mixed, S.out.data, S.out.len);
	}
	dc.src_id = 2;
	memset(&o, 0, sizeof(o));
	decode_stream(&dc, &IMG, mixed.data, mixed.len, &o);
	expect_addrs(&o, (const uint64_t[]){ 0x100, 0x104 }, 2);
	out_free(&o);
	bytes_free(&mixed);
}

static void test_periodic_sync_by_message_count(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_BTM);
	unsigned syncs = 0;

	(void)state;
	c.trTeInstSyncMode = NTRACE_SYNC_MODE_MESSAGES;
	c.trTeInstSyncMax = 0; /* every 16 messages */
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	for (unsigned i = 0; i < 100; i++)
		rec(0x100 + 8 * (i & 1), 4, RV_ITYPE_UNINFERABLE_JUMP);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x100, 0);
	/* 16 messages after a sync, the next branch message carries SYNC=2 */
	for (size_t i = 1, last = 0; i < S.nmsg; i++)
		if (ntrace_msg_has(msg(i), NTRACE_FLD_SYNC)) {
			assert_int_equal(field(i, NTRACE_FLD_SYNC), NTRACE_SYNC_PERIODIC);
			expect_tcode(i, NTRACE_TCODE_INDIRECT_BRANCH_SYNC);
			assert_int_equal(i - last, 17);
			last = i;
			syncs++;
		}
	assert_int_equal(syncs, 99 / 17);
}

static void test_periodic_sync_by_half_words(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);

	(void)state;
	c.trTeInstSyncMode = NTRACE_SYNC_MODE_HALFWORDS;
	c.trTeInstSyncMax = 1; /* every 32 half-words */
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	for (unsigned i = 0; i < 40; i++)
		rec(0x100 + 4 * i, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x1a0, 0);
	/* 80 half-words: syncs after 32 and 64 */
	expect_tcode(1, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(1, NTRACE_FLD_SYNC), NTRACE_SYNC_PERIODIC);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 32);
	assert_int_equal(field(1, NTRACE_FLD_FADDR), (0x100 + 64) >> 1);
	expect_tcode(2, NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(field(2, NTRACE_FLD_ICNT), 32);
	expect_tcode(3, NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(field(3, NTRACE_FLD_ICNT), 16);
}

/* Rule 4 of chapter 10 in HTM: IndirectBranchHist when HIST has bits. */
static void test_10_rule4_htm_indirect_jump_carries_hist(void **state)
{
	struct ntrace_enc_config c = base_config(NTRACE_INST_MODE_HTM);

	(void)state;
	begin(&c, NTRACE_SYNC_DEBUG_EXIT);
	rec(0x100, 4, RV_ITYPE_TAKEN_BRANCH);
	rec(0x200, 4, RV_ITYPE_NOT_TAKEN_BRANCH);
	rec(0x204, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x300, 4, RV_ITYPE_UNINFERABLE_JUMP);
	rec(0x400, 4, 0);
	finish(NTRACE_EVCODE_DEBUG_ENTRY, 0x404, 0);
	expect_tcode(1, NTRACE_TCODE_INDIRECT_BRANCH_HIST);
	assert_int_equal(field(1, NTRACE_FLD_HIST), 0x6);
	assert_int_equal(field(1, NTRACE_FLD_ICNT), 6);
	expect_tcode(2, NTRACE_TCODE_INDIRECT_BRANCH);
}

/*
 * The branch messages have a writer of their own (ntrace_enc.c,
 * emit_branch_now()): every message of a long pseudo-random session, in
 * BTM and HTM, with and without SRC, must be the bytes the generic layout
 * writer makes of the fields it parses back to.  Long runs make I-CNT
 * span several bytes, far targets long U-ADDRs, branch runs long HISTs.
 */
static void branch_messages_match_generic_writer(struct ntrace_enc_config *c)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull, addr = 0x80000000ull;
	unsigned seen[64] = { 0 };

	begin(c, NTRACE_SYNC_DEBUG_EXIT);
	for (unsigned i = 0; i < 1500; i++) {
		unsigned r, run, k;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		r = (unsigned)(seed >> 33);
		run = r % 7 == 0 ? 40 + r % 300 : r % 5;
		for (k = 0; k < run; k++, addr += 4)
			rec(addr, 4, 0);
		switch (r % 4) {
		case 0:
			rec(addr, 4, RV_ITYPE_TAKEN_BRANCH);
			addr = (addr & ~0xfffull) + ((r >> 8) & 0xffc);
			break;
		case 1:
			rec(addr, 2, RV_ITYPE_NOT_TAKEN_BRANCH);
			addr += 2;
			break;
		default:
			rec(addr, 4, RV_ITYPE_UNINFERABLE_JUMP);
			addr = r & 8 ? addr + 0x40 : 0x80000000ull + ((uint64_t)(seed >> 20) & ~3ull);
			break;
		}
	}
	finish(NTRACE_EVCODE_DEBUG_ENTRY, addr, 0);
	for (size_t i = 0; i < S.nmsg; i++) {
		const struct ntrace_msg *m = msg(i);
		unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
		uint8_t want[NTRACE_MSG_WRITE_MAX];
		int n;

		seen[tcode & 63]++;
		n = ntrace_write_fields(&S.fmt, ntrace_layout_of(tcode), m->val, false, want);
		if ((size_t)n != m->length || memcmp(want, S.out.data + m->offset, m->length))
			fail_msg("message %zu (%s at byte %zu) differs from the generic writer's", i,
				 ntrace_tcode_name(tcode), m->offset);
	}
	if (c->trTeInstMode == NTRACE_INST_MODE_HTM) {
		assert_true(seen[NTRACE_TCODE_INDIRECT_BRANCH_HIST] > 100);
		assert_true(seen[NTRACE_TCODE_INDIRECT_BRANCH] > 10);
	} else {
		assert_true(seen[NTRACE_TCODE_DIRECT_BRANCH] > 100);
		assert_true(seen[NTRACE_TCODE_INDIRECT_BRANCH] > 100);
	}
}

static void test_branch_messages_are_the_generic_writers_bytes(void **state)
{
	struct ntrace_enc_config c;

	(void)state;
	c = base_config(NTRACE_INST_MODE_HTM);
	branch_messages_match_generic_writer(&c);
	c = base_config(NTRACE_INST_MODE_BTM);
	branch_messages_match_generic_writer(&c);
	c = base_config(NTRACE_INST_MODE_HTM);
	c.trTeSrcBits = 7;
	c.trTeSrcID = 0x55;
	branch_messages_match_generic_writer(&c);
}

static void test_encoder_rejects_invalid_configuration(void **state)
{
	struct ntrace_enc_config c = base_config(5);
	struct ntrace_encoder e;

	(void)state;
	assert_int_equal(ntrace_enc_init(&e, &c, NULL), -NTRACE_ERR_ARG);
	c = base_config(NTRACE_INST_MODE_BTM);
	c.trTeSrcBits = 13;
	assert_int_equal(ntrace_enc_init(&e, &c, NULL), -NTRACE_ERR_ARG);
	c = base_config(NTRACE_INST_MODE_BTM);
	c.icnt_bits = 23;
	assert_int_equal(ntrace_enc_init(&e, &c, NULL), -NTRACE_ERR_ARG);
	c = base_config(NTRACE_INST_MODE_BTM);
	c.trTeInstEnImplicitReturn = true;
	assert_int_equal(ntrace_enc_init(&e, &c, NULL), -NTRACE_ERR_ARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table24_address_xor_compression_sequence),
		cmocka_unit_test(test_branch_messages_are_the_generic_writers_bytes),
		cmocka_unit_test(test_8_4_1_btm_first_branch_taken_gives_icnt_3_then_1),
		cmocka_unit_test(test_8_4_1_btm_second_branch_taken_gives_icnt_7_then_2),
		cmocka_unit_test(test_8_4_1_btm_no_branch_taken_gives_icnt_10),
		cmocka_unit_test(test_8_4_1_incorrect_icnt_values_are_reported),
		cmocka_unit_test(test_8_4_2_htm_first_branch_taken_gives_icnt_4_hist_0b11),
		cmocka_unit_test(test_8_4_2_htm_second_branch_taken_gives_icnt_9_hist_0b101),
		cmocka_unit_test(test_8_4_2_htm_no_branch_taken_gives_icnt_10_hist_0b100),
		cmocka_unit_test(test_8_4_4_icnt_overflow_reported_with_sync_4),
		cmocka_unit_test(test_8_4_4_icnt_overflow_reported_with_resource_full_rcode_0),
		cmocka_unit_test(test_8_3_1_hist_overflow_gives_resource_full_rcode_1),
		cmocka_unit_test(test_8_3_1_many_hist_overflows_before_an_icnt_message),
		cmocka_unit_test(test_9_3_repeated_history_gives_rcode_2_with_hrepeat),
		cmocka_unit_test(test_9_3_rcode2_examples_decode_to_the_same_flow),
		cmocka_unit_test(test_7_11_repeat_branch_counts_identical_branch_messages),
		cmocka_unit_test(test_9_1_sequential_jump_after_lui_is_inferable),
		cmocka_unit_test(test_9_2_implicit_return_mode_3_matching_returns_are_silent),
		cmocka_unit_test(test_9_2_implicit_return_mode_3_mismatch_is_reported),
		cmocka_unit_test(test_9_2_implicit_return_mode_1_counts_without_comparing),
		cmocka_unit_test(test_9_2_call_stack_depth_limits_inferred_returns),
		cmocka_unit_test(test_9_2_call_stack_is_emptied_at_traps),
		cmocka_unit_test(test_table26_back_to_back_exceptions_have_icnt_0),
		cmocka_unit_test(test_table26_back_to_back_returns_second_has_icnt_of_one_return),
		cmocka_unit_test(test_table3_branch_reported_as_interrupt_decodes),
		cmocka_unit_test(test_table26_pending_interrupt_at_start),
		cmocka_unit_test(test_table26_exception_at_first_instruction_traced),
		cmocka_unit_test(test_table26_trace_starts_disabled_then_enabled),
		cmocka_unit_test(test_table26_hart_stops_with_trace_disabled),
		cmocka_unit_test(test_10_1_custom_instruction_traced_as_indirect_jump),
		cmocka_unit_test(test_7_1_ownership_after_sync_and_on_privilege_change),
		cmocka_unit_test(test_table12_process_examples_decode),
		cmocka_unit_test(test_7_4_queue_overflow_gives_error_then_sync_7),
		cmocka_unit_test(test_7_4_sink_failure_is_reported_as_queue_overrun),
		cmocka_unit_test(test_table25_sync_marker_rides_on_next_message),
		cmocka_unit_test(test_8_7_timestamps_absolute_on_sync_relative_otherwise),
		cmocka_unit_test(test_table9_src_field_present_unless_inhibited),
		cmocka_unit_test(test_11_2_decoder_selects_messages_by_src),
		cmocka_unit_test(test_periodic_sync_by_message_count),
		cmocka_unit_test(test_periodic_sync_by_half_words),
		cmocka_unit_test(test_10_rule4_htm_indirect_jump_carries_hist),
		cmocka_unit_test(test_encoder_rejects_invalid_configuration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

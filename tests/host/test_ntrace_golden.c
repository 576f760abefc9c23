// SPDX-License-Identifier: BSD-2-Clause
/*
 * Decoder on golden streams (tests/data/ntrace/golden): RepeatBranch after
 * IndirectBranchHist (HTM) and after IndirectBranch (BTM), each decoded with
 * the mode given and with the mode told by the messages; a stream with no
 * sync message; B-CNT and HREPEAT at and past their 18-bit limit (ratified
 * spec, Table 10).  Also the encoder side of that limit: RepeatBranch runs
 * longer than 2^18 - 1 are split.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_ntrace_prog.h"
#include "test_ntrace_golden.h"

#define BASE 0x1000u
#define A1 11

/* 0x1000 bne a0,x0,+8; 0x1004 nop; 0x1008 jalr x0,0(a1) */
static void loop_image(struct image *img)
{
	img_init(img, BASE);
	img_put(img, BASE, rv_enc_branch(1, 10, 0, 8));
	img_put(img, BASE + 4, rv_enc_nop());
	img_put(img, BASE + 8, rv_enc_jalr(0, A1, 0));
}

static struct ntrace_dec_config dec_config(uint8_t mode)
{
	struct ntrace_dec_config c = { .fmt = { .xlen = 64 }, .src_id = -1, .inst_mode = mode,
				       .isa_ext = RV_EXT_C };
	return c;
}

static void decode_golden(const char *file, uint8_t mode, struct dec_out *o)
{
	static struct image img;
	uint8_t b[64];
	size_t n = load_golden(file, b, sizeof(b));
	struct ntrace_dec_config c = dec_config(mode);

	loop_image(&img);
	memset(o, 0, sizeof(*o));
	assert_true(decode_stream(&c, &img, b, n, o) >= 0);
}

/* Four passes (the message and three repeats) of the block `block`. */
static void check_four_passes(const struct dec_out *o, const uint64_t *block, size_t len)
{
	assert_int_equal(o->nerr, 0);
	assert_int_equal(o->n, 4 * len);
	for (size_t i = 0; i < o->n; i++)
		assert_int_equal(o->addrs[i], block[i % len]);
}

static const uint64_t taken_block[] = { BASE, BASE + 8 };
static const uint64_t not_taken_block[] = { BASE, BASE + 4, BASE + 8 };

/* The golden stream decoded with its mode given and with AUTO. */
static void check_repeat_golden(const char *file, uint8_t mode, const uint64_t *block, size_t len)
{
	const uint8_t modes[] = { mode, NTRACE_INST_MODE_AUTO };
	struct dec_out o;

	for (size_t i = 0; i < sizeof(modes); i++) {
		decode_golden(file, modes[i], &o);
		check_four_passes(&o, block, len);
		out_free(&o);
	}
}

static void test_repeat_branch_after_hist_replays_hist(void **state)
{
	(void)state;
	check_repeat_golden("repeat-branch-after-hist-htm.hex", NTRACE_INST_MODE_HTM, taken_block, 2);
}

static void test_repeat_branch_after_indirect_btm(void **state)
{
	(void)state;
	check_repeat_golden("repeat-branch-after-indirect-btm.hex", NTRACE_INST_MODE_BTM,
			    not_taken_block, 3);
}

/* Told the wrong mode, the HTM stream cannot be decoded: the mode matters
 * and AUTO really took it from the messages. */
static void test_hist_stream_forced_to_btm_fails(void **state)
{
	struct dec_out o;

	(void)state;
	decode_golden("repeat-branch-after-hist-htm.hex", NTRACE_INST_MODE_BTM, &o);
	assert_true(o.nerr > 0);
	out_free(&o);
}

static void test_no_sync_is_an_error(void **state)
{
	static struct ntrace_decoder dec;
	static struct image img;
	struct ntrace_dec_config c = dec_config(NTRACE_INST_MODE_AUTO);
	struct dec_out o = { 0 };
	struct ntrace_dec_ops ops = { .read_code = out_read_code, .retired = out_retired,
				      .event = out_event, .ctx = &o };
	uint8_t b[64];
	size_t n = load_golden("no-sync.hex", b, sizeof(b));

	(void)state;
	loop_image(&img);
	o.img = &img;
	assert_int_equal(ntrace_dec_init(&dec, &c, &ops), 0);
	assert_int_equal(ntrace_dec_decode(&dec, b, n), 0);
	assert_int_equal(o.nerr, 0);
	assert_int_equal(ntrace_dec_finish(&dec), 1);
	assert_int_equal(o.nerr, 1);
	assert_int_equal(o.first_error, NTRACE_ERR_NO_SYNC);
	assert_int_equal(o.first_error_offset, n);
	assert_int_equal(o.n, 0);
	out_free(&o);

	/* with its sync message the same decoder end reports nothing */
	n = load_golden("repeat-branch-after-hist-htm.hex", b, sizeof(b));
	memset(&o, 0, sizeof(o));
	o.img = &img;
	assert_int_equal(ntrace_dec_init(&dec, &c, &ops), 0);
	assert_int_equal(ntrace_dec_decode(&dec, b, n), 0);
	assert_int_equal(ntrace_dec_finish(&dec), 0);
	assert_int_equal(o.nerr, 0);
	out_free(&o);
}

static void check_field_too_long(const char *file, size_t offset)
{
	struct dec_out o;

	decode_golden(file, NTRACE_INST_MODE_AUTO, &o);
	assert_int_equal(o.nerr, 1);
	assert_int_equal(o.first_error, NTRACE_ERR_FIELD_TOO_LONG);
	assert_int_equal(o.first_error_offset, offset);
	out_free(&o);
}

static void test_count_fields_limited_to_18_bits(void **state)
{
	uint8_t b[64];
	size_t pos = 4, n = load_golden("bcnt-18-bits.hex", b, sizeof(b));
	const struct ntrace_format fmt = { .xlen = 64 };
	struct ntrace_msg m;
	struct ntrace_error err;

	(void)state;
	check_field_too_long("bcnt-19-bits.hex", 8);
	check_field_too_long("hrepeat-19-bits.hex", 10);
	assert_int_equal(ntrace_msg_parse(&fmt, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_BCNT], NTRACE_MAX_REPEAT);
}

/*
 * Encoder: 2^18 + 5 identical indirect branches in BTM with RepeatBranch:
 * every B-CNT written fits 18 bits and the runs add up.  (HREPEAT cannot
 * reach the limit: I-CNT, at most 2^21 half-words between messages that
 * flush held HIST records, holds fewer than 2^18 full records of 31
 * branches.)
 */
static void encode_btm_loop(size_t loops, struct bytes *out)
{
	static struct ntrace_encoder enc;
	struct ntrace_enc_config c = { .trTeInstMode = NTRACE_INST_MODE_BTM,
				       .trTeInstEnRepeatedHistory = true, .trTeInhibitSrc = true,
				       .xlen = 64 };
	struct ntrace_sink sink = { .write = bytes_sink, .ctx = out };
	struct ntrace_retired r[3] = {
		{ .addr = BASE, .size = 4, .itype = RV_ITYPE_NOT_TAKEN_BRANCH, .priv = NTRACE_PRV_M },
		{ .addr = BASE + 4, .size = 4, .priv = NTRACE_PRV_M },
		{ .addr = BASE + 8, .size = 4, .itype = RV_ITYPE_UNINFERABLE_JUMP, .priv = NTRACE_PRV_M },
	};

	assert_int_equal(ntrace_enc_init(&enc, &c, &sink), 0);
	ntrace_enc_start(&enc, NTRACE_SYNC_TRACE_ENABLE);
	for (size_t i = 0; i < loops; i++)
		ntrace_enc_retire(&enc, r, 3);
	ntrace_enc_stop(&enc, NTRACE_EVCODE_TRACE_DISABLED, BASE, 0);
	assert_int_equal(ntrace_enc_flush(&enc), 0);
}

static void test_encoder_splits_long_repeat_branch_runs(void **state)
{
	const size_t loops = NTRACE_MAX_REPEAT + 5;
	const struct ntrace_format fmt = { .xlen = 64 };
	struct bytes out = { 0 };
	size_t pos = 0, repeats = 0, branches = 0, max = 0;
	struct ntrace_msg m;
	struct ntrace_error err;
	static struct image img;
	struct ntrace_dec_config c = dec_config(NTRACE_INST_MODE_AUTO);
	struct dec_out o = { 0 };

	(void)state;
	encode_btm_loop(loops, &out);
	while (ntrace_msg_parse(&fmt, out.data, out.len, &pos, &m, &err) > 0) {
		if (m.val[NTRACE_FLD_TCODE] == NTRACE_TCODE_REPEAT_BRANCH) {
			repeats += m.val[NTRACE_FLD_BCNT];
			if (m.val[NTRACE_FLD_BCNT] > max)
				max = m.val[NTRACE_FLD_BCNT];
		} else if (m.val[NTRACE_FLD_TCODE] == NTRACE_TCODE_INDIRECT_BRANCH) {
			branches++;
		}
	}
	assert_int_equal(pos, out.len);
	assert_int_equal(max, NTRACE_MAX_REPEAT);
	assert_int_equal(branches + repeats, loops);
	loop_image(&img);
	assert_int_equal(decode_stream(&c, &img, out.data, out.len, &o), 0);
	assert_int_equal(o.n, 3 * loops);
	out_free(&o);
	bytes_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeat_branch_after_hist_replays_hist),
		cmocka_unit_test(test_repeat_branch_after_indirect_btm),
		cmocka_unit_test(test_hist_stream_forced_to_btm_fails),
		cmocka_unit_test(test_no_sync_is_an_error),
		cmocka_unit_test(test_count_fields_limited_to_18_bits),
		cmocka_unit_test(test_encoder_splits_long_repeat_branch_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

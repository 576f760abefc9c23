// SPDX-License-Identifier: BSD-2-Clause
/*
 * Encoder -> decoder round trips on synthetic programs for every option
 * combination (BTM/HTM, XLEN 32/64, implicit return modes, sequential jumps,
 * repeated history / RepeatBranch, all-jumps, MSB address extension, small
 * counters), plus decoder robustness against truncated and corrupted input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_ntrace_gen.h"

struct combo {
	bool htm, xlen64, seq, repeat, all_jumps, ext_msb, small;
	unsigned implicit; /* 0 off, 1..3 mode */
	/* derived from the index */
	unsigned src_bits, sync_mode, ext;
	bool tstamp, context, btype1, icnt_sync, low_base;
};

static struct combo combo_from_index(unsigned i)
{
	struct combo c = {
		.htm = i & 1, .xlen64 = (i >> 1) & 1, .implicit = (i >> 2) & 3, .seq = (i >> 4) & 1,
		.repeat = (i >> 5) & 1, .all_jumps = (i >> 6) & 1, .ext_msb = (i >> 7) & 1,
		.small = (i >> 8) & 1,
	};
	unsigned h = i * 2654435761u;

	c.src_bits = (h >> 3) & 1 ? 1 + ((h >> 5) % 12) : 0;
	c.sync_mode = ((h >> 9) % 4 == 2) ? 0 : (h >> 9) % 4;
	c.tstamp = (h >> 12) & 1;
	c.context = (h >> 13) & 1;
	c.btype1 = (h >> 14) & 1;
	c.icnt_sync = !((h >> 15) & 3) ? false : true;
	c.low_base = (h >> 17) & 1;
	c.ext = RV_EXT_C | (((h >> 18) & 1) ? RV_EXT_ZCMP | RV_EXT_ZCMT : 0);
	return c;
}

static void make_configs(const struct combo *c, struct ntrace_enc_config *ec,
			 struct ntrace_dec_config *dc, const struct program *p)
{
	*ec = (struct ntrace_enc_config){
		.trTeInstMode = c->htm ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
		.trTeContext = c->context,
		.trTeInhibitSrc = false,
		.trTeInstSyncMode = (uint8_t)c->sync_mode,
		.trTeInstSyncMax = c->small ? 0 : 4,
		.trTeInstEnSequentialJump = c->seq,
		.trTeInstEnImplicitReturn = c->implicit != 0,
		.trTeInstImplicitReturnMode = (uint8_t)c->implicit,
		.trTeInstEnRepeatedHistory = c->repeat,
		.trTeInstEnAllJumps = c->all_jumps,
		.trTeInstExtendAddrMSB = c->ext_msb,
		.trTeSrcID = 0x5a5 & ((1u << c->src_bits) - 1),
		.trTeSrcBits = (uint8_t)c->src_bits,
		.trTsEnable = c->tstamp,
		.xlen = c->xlen64 ? 64 : 32,
		.icnt_bits = c->small ? 6 : 0,
		.hist_bits = c->small ? 5 : 0,
		.call_stack_depth = c->small ? 2 : 0,
		.return_partial_bits = 16,
		.btype_trap_as_1 = c->btype1,
		.icnt_overflow_sync = c->icnt_sync,
	};
	*dc = (struct ntrace_dec_config){
		.fmt = { .xlen = ec->xlen, .src_bits = (uint8_t)c->src_bits, .extend_addr_msb = c->ext_msb },
		.src_id = (int32_t)ec->trTeSrcID,
		.inst_mode = ec->trTeInstMode,
		.isa_ext = p->ext,
		.implicit_return = c->implicit != 0,
		.call_stack_depth = ec->call_stack_depth,
		.sequential_jump = c->seq,
		.all_jumps = c->all_jumps,
		.have_jvt = true,
		.jvt = p->jvt,
	};
}

static struct program prog;
static struct ntrace_encoder enc;

/* Encode a run into `out` (start with SYNC=3, stop with EVCODE=0). */
static void encode_run(const struct ntrace_enc_config *ec, const struct run *x, struct bytes *out)
{
	struct ntrace_sink sink = { .write = bytes_sink, .ctx = out };

	assert_int_equal(ntrace_enc_init(&enc, ec, &sink), 0);
	ntrace_enc_start(&enc, NTRACE_SYNC_DEBUG_EXIT);
	ntrace_enc_retire(&enc, x->rec, x->nrec);
	ntrace_enc_stop(&enc, NTRACE_EVCODE_DEBUG_ENTRY, x->next_pc, x->tstamp + 1);
	assert_int_equal(ntrace_enc_flush(&enc), 0);
}

static void check_same_addresses(const struct run *x, const struct dec_out *o, unsigned combo)
{
	size_t n = o->n < x->nexpect ? o->n : x->nexpect;

	for (size_t i = 0; i < n; i++)
		if (o->addrs[i] != x->expect[i])
			fail_msg("combo %u: instruction %zu decoded 0x%llx, expected 0x%llx", combo, i,
				 (unsigned long long)o->addrs[i], (unsigned long long)x->expect[i]);
	if (o->n != x->nexpect)
		fail_msg("combo %u: decoded %zu instructions, expected %zu", combo, o->n, x->nexpect);
}

static void roundtrip_combo(unsigned i, size_t steps)
{
	struct combo c = combo_from_index(i);
	struct rng r = { 0x9e3779b97f4a7c15ull ^ (i * 0x100000001b3ull) };
	struct ntrace_enc_config ec;
	struct ntrace_dec_config dc;
	struct run_opts ro;
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct dec_out o = { 0 };
	uint64_t base = c.xlen64 ? (c.low_base ? 0x80000000ull : 0xffffffff80000000ull)
				 : (c.low_base ? 0x1000 : 0x80000000ull);

	gen_program(&prog, &r, c.xlen64 ? 64 : 32, c.ext, base);
	make_configs(&c, &ec, &dc, &prog);
	ro = (struct run_opts){ .itype4 = c.implicit != 0, .all_jumps = c.all_jumps,
				.wild_returns = c.implicit >= 2, .int_permille = 8, .exc_permille = 4,
				.int_after_permille = 6, .context_changes = c.context };
	run_program(&prog, &ro, &r, steps, &x);
	encode_run(&ec, &x, &b);
	int errors = decode_stream(&dc, &prog.img, b.data, b.len, &o);

	if (errors)
		fail_msg("combo %u: %d decode errors, first %s at offset %zu", i, errors,
			 ntrace_strerror(o.first_error), o.first_error_offset);
	check_same_addresses(&x, &o, i);
	assert_int_equal(o.ntrap, x.ntraps);
	out_free(&o);
	bytes_free(&b);
	run_free(&x);
}

/* Every combination of the main options (512), each on its own program. */
static void test_roundtrip_all_option_combinations(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 512; i++)
		roundtrip_combo(i, 1500);
}

/* Long runs on a few configurations: counters overflow many times. */
static void test_roundtrip_long_runs(void **state)
{
	(void)state;
	roundtrip_combo(0x001, 60000);
	roundtrip_combo(0x100 | 0x21, 60000);
	roundtrip_combo(0x0fe, 60000);
	roundtrip_combo(0x1ff, 60000);
}

/* Number of expected addresses contributed by records [0, n). */
static size_t expect_count(const struct run *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += x->rec[i].size != 0;
	return k;
}

/* A valid stream for the robustness tests (HTM, most options on). */
static void robustness_stream(unsigned combo, size_t steps, struct run *x, struct bytes *b,
			      struct ntrace_dec_config *dc)
{
	struct combo c = combo_from_index(combo);
	struct rng r = { 0x1234567 + combo };
	struct ntrace_enc_config ec;
	struct run_opts ro = { .itype4 = c.implicit != 0, .all_jumps = c.all_jumps,
			       .wild_returns = c.implicit >= 2, .int_permille = 10, .exc_permille = 5 };

	gen_program(&prog, &r, c.xlen64 ? 64 : 32, c.ext, 0x80000000);
	make_configs(&c, &ec, dc, &prog);
	run_program(&prog, &ro, &r, steps, x);
	encode_run(&ec, x, b);
}

static void check_prefix(const struct dec_out *o, const struct run *x)
{
	assert_true(o->n <= x->nexpect);
	for (size_t i = 0; i < o->n; i++)
		assert_int_equal(o->addrs[i], x->expect[i]);
}

/* Chapter 3: a cut stream loses only what follows the cut; the cut message
 * is reported at the end of the input. */
static void test_decoder_survives_every_truncation(void **state)
{
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct ntrace_dec_config dc;

	(void)state;
	robustness_stream(0x1a5, 300, &x, &b, &dc);
	for (size_t len = 0; len <= b.len; len++) {
		struct dec_out o = { 0 };
		bool cut = len && (b.data[len - 1] & 3) != 3;

		decode_stream(&dc, &prog.img, b.data, len, &o);
		check_prefix(&o, &x);
		if (cut) {
			assert_true(o.nerr >= 1);
			assert_int_equal(o.ev[o.nev - 1].kind, NTRACE_EV_ERROR);
			assert_int_equal(o.ev[o.nev - 1].error, NTRACE_ERR_TRUNCATED);
			assert_int_equal(o.ev[o.nev - 1].offset, len);
		} else {
			assert_int_equal(o.nerr, 0);
		}
		out_free(&o);
	}
	bytes_free(&b);
	run_free(&x);
}

/* Chapter 3/11: corrupted bytes never crash the decoder, errors carry an
 * offset inside the input, and most corruptions are detected. */
static void test_decoder_survives_every_single_byte_corruption(void **state)
{
	static const uint8_t masks[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff };
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct ntrace_dec_config dc;
	size_t detected = 0, total = 0;

	(void)state;
	robustness_stream(0x0b3, 200, &x, &b, &dc);
	for (size_t pos = 0; pos < b.len; pos++) {
		for (unsigned k = 0; k < sizeof(masks); k++) {
			struct dec_out o = { 0 };
			uint8_t *copy = malloc(b.len);

			memcpy(copy, b.data, b.len);
			copy[pos] ^= masks[k];
			decode_stream(&dc, &prog.img, copy, b.len, &o);
			for (size_t e = 0; e < o.nev; e++)
				if (o.ev[e].kind == NTRACE_EV_ERROR)
					assert_true(o.ev[e].offset <= b.len);
			detected += o.nerr != 0;
			total++;
			free(copy);
			out_free(&o);
		}
	}
	assert_true(detected * 2 > total);
	bytes_free(&b);
	run_free(&x);
}

static void test_decoder_survives_random_garbage(void **state)
{
	struct ntrace_dec_config dc;
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct rng r = { 42 };
	static uint8_t junk[1 << 16];

	(void)state;
	robustness_stream(0x001, 50, &x, &b, &dc);
	for (unsigned round = 0; round < 4; round++) {
		struct dec_out o = { 0 };

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)rng_next(&r);
		if (round & 1) /* valid start so that walks happen */
			memcpy(junk, b.data, b.len < 64 ? b.len : 64);
		decode_stream(&dc, &prog.img, junk, sizeof(junk), &o);
		assert_true(o.nerr > 0);
		out_free(&o);
	}
	bytes_free(&b);
	run_free(&x);
}

/* 7.4: after an overflow the decoder resumes at the SYNC=7 message. */
static void test_roundtrip_with_queue_overflow(void **state)
{
	struct combo c = combo_from_index(0x33); /* HTM, XLEN 64 */
	struct rng r = { 77 };
	struct ntrace_enc_config ec;
	struct ntrace_dec_config dc;
	struct run_opts ro = { .itype4 = true, .int_permille = 5 };
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct dec_out o = { 0 };
	struct ntrace_sink sink = { .write = bytes_sink, .ctx = &b };
	size_t cut = 1000, tail;

	(void)state;
	gen_program(&prog, &r, 64, c.ext, 0xffffffff80000000ull);
	make_configs(&c, &ec, &dc, &prog);
	run_program(&prog, &ro, &r, 2000, &x);
	assert_int_equal(ntrace_enc_init(&enc, &ec, &sink), 0);
	ntrace_enc_start(&enc, NTRACE_SYNC_DEBUG_EXIT);
	ntrace_enc_retire(&enc, x.rec, cut);
	ntrace_enc_overflow(&enc, x.rec[cut].tstamp);
	ntrace_enc_retire(&enc, x.rec + cut, x.nrec - cut);
	ntrace_enc_stop(&enc, NTRACE_EVCODE_DEBUG_ENTRY, x.next_pc, x.tstamp + 1);
	ntrace_enc_flush(&enc);
	if (decode_stream(&dc, &prog.img, b.data, b.len, &o))
		fail_msg("%s at %zu", ntrace_strerror(o.first_error), o.first_error_offset);
	/* output = a prefix of what ran before the overflow + all that ran after */
	tail = x.nexpect - expect_count(&x, cut);
	assert_true(o.n >= tail);
	assert_memory_equal(o.addrs + o.n - tail, x.expect + x.nexpect - tail, tail * sizeof(uint64_t));
	for (size_t i = 0; i < o.n - tail; i++)
		assert_int_equal(o.addrs[i], x.expect[i]);
	out_free(&o);
	bytes_free(&b);
	run_free(&x);
}

/* Table 26: trace disabled (EVCODE=4) for a while, re-enabled with SYNC=5. */
static void test_roundtrip_with_trace_disable_and_enable(void **state)
{
	struct combo c = combo_from_index(0x75);
	struct rng r = { 99 };
	struct ntrace_enc_config ec;
	struct ntrace_dec_config dc;
	struct run_opts ro = { .itype4 = true, .int_permille = 5, .wild_returns = true };
	struct run x = { 0 };
	struct bytes b = { 0 };
	struct dec_out o = { 0 };
	struct ntrace_sink sink = { .write = bytes_sink, .ctx = &b };
	size_t off = 700, on = 1100, before, skipped;

	(void)state;
	gen_program(&prog, &r, 32, c.ext, 0x80000000ull);
	make_configs(&c, &ec, &dc, &prog);
	run_program(&prog, &ro, &r, 2000, &x);
	assert_int_equal(ntrace_enc_init(&enc, &ec, &sink), 0);
	ntrace_enc_start(&enc, NTRACE_SYNC_DEBUG_EXIT);
	ntrace_enc_retire(&enc, x.rec, off);
	ntrace_enc_stop(&enc, NTRACE_EVCODE_TRACE_DISABLED, x.rec[off].addr, x.rec[off].tstamp);
	ntrace_enc_start(&enc, NTRACE_SYNC_TRACE_ENABLE);
	ntrace_enc_retire(&enc, x.rec + on, x.nrec - on);
	ntrace_enc_stop(&enc, NTRACE_EVCODE_DEBUG_ENTRY, x.next_pc, x.tstamp + 1);
	ntrace_enc_flush(&enc);
	assert_int_equal(decode_stream(&dc, &prog.img, b.data, b.len, &o), 0);
	before = expect_count(&x, off);
	skipped = expect_count(&x, on) - before;
	assert_int_equal(o.n, x.nexpect - skipped);
	assert_memory_equal(o.addrs, x.expect, before * sizeof(uint64_t));
	assert_memory_equal(o.addrs + before, x.expect + before + skipped,
			    (x.nexpect - before - skipped) * sizeof(uint64_t));
	out_free(&o);
	bytes_free(&b);
	run_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all_option_combinations),
		cmocka_unit_test(test_roundtrip_long_runs),
		cmocka_unit_test(test_roundtrip_with_queue_overflow),
		cmocka_unit_test(test_roundtrip_with_trace_disable_and_enable),
		cmocka_unit_test(test_decoder_survives_every_truncation),
		cmocka_unit_test(test_decoder_survives_every_single_byte_corruption),
		cmocka_unit_test(test_decoder_survives_random_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

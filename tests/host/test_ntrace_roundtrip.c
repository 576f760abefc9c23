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
				.context_changes = c.context };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all_option_combinations),
		cmocka_unit_test(test_roundtrip_long_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

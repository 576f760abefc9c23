// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for lib/ntrace/ntrace_ingress.c, the qualification between the
 * Trace Ingress Port records and the N-Trace encoder (docs/TRACE.md, "What
 * the trace contains"): M-mode is never traced; leaving the traced part
 * emits ProgTraceCorrelation EVCODE=4; entering it emits ProgTraceSync
 * SYNC=5; trace that starts in an untraced part emits one correlation with
 * I-CNT=0; the block entry produces the bytes of the per-record entry.
 *
 * The bytes are decoded with the library's own ntrace_msg_parse() and the
 * tests assert the message sequence (TCODE, SYNC, EVCODE, I-CNT, HIST,
 * F-ADDR), not only lengths.  One test per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/ntrace/ntrace_ingress.h"

/* ---- byte sinks and message lists --------------------------------------------- */

struct bytes {
	uint8_t b[1 << 16];
	size_t len;
};

static int sink_write(void *ctx, const uint8_t *data, size_t len)
{
	struct bytes *o = ctx;

	assert_true(o->len + len <= sizeof(o->b));
	memcpy(o->b + o->len, data, len);
	o->len += len;
	return 0;
}

#define MAX_MSGS 4096

struct msgs {
	struct ntrace_msg m[MAX_MSGS];
	size_t n;
};

static const struct ntrace_format FMT64 = { .xlen = 64 };

static void parse_all(const struct bytes *o, struct msgs *ms)
{
	size_t pos = 0;

	ms->n = 0;
	for (;;) {
		struct ntrace_error err;
		int rc = ntrace_msg_parse(&FMT64, o->b, o->len, &pos, &ms->m[ms->n], &err);

		assert_true(rc >= 0);
		if (rc == 0)
			break;
		assert_true(++ms->n < MAX_MSGS);
	}
	assert_int_equal(pos, o->len);
}

static unsigned tcode(const struct ntrace_msg *m)
{
	return (unsigned)m->val[NTRACE_FLD_TCODE];
}

/* ProgTraceSync, SYNC = sync, I-CNT = 0, F-ADDR = the address. */
static void expect_sync(const struct ntrace_msg *m, unsigned sync, uint64_t addr)
{
	assert_int_equal(tcode(m), NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(m->val[NTRACE_FLD_SYNC], sync);
	assert_int_equal(m->val[NTRACE_FLD_ICNT], 0);
	assert_true(ntrace_msg_has(m, NTRACE_FLD_FADDR));
	assert_int_equal(ntrace_field_to_addr(m->val[NTRACE_FLD_FADDR], 64), addr);
}

/* ProgTraceCorrelation EVCODE = 4, with I-CNT and (HTM: CDF = 1) HIST. */
static void expect_disabled(const struct ntrace_msg *m, uint64_t icnt, uint64_t hist)
{
	assert_int_equal(tcode(m), NTRACE_TCODE_PROG_TRACE_CORRELATION);
	assert_int_equal(m->val[NTRACE_FLD_EVCODE], NTRACE_EVCODE_TRACE_DISABLED);
	assert_int_equal(m->val[NTRACE_FLD_CDF], NTRACE_CDF_ICNT_HIST);
	assert_int_equal(m->val[NTRACE_FLD_ICNT], icnt);
	assert_int_equal(m->val[NTRACE_FLD_HIST], hist);
}

/* ---- fixture ------------------------------------------------------------------ */

static struct ntrace_encoder enc, enc2;
static struct ntrace_ingress in, in2;
static struct tci_qualifier qual, qual2;
static struct tci_filter_regs regs;
static struct bytes out, out2;
static struct msgs ms;

#define S NTRACE_PRV_S
#define U NTRACE_PRV_U
#define M NTRACE_PRV_M

static struct ntrace_enc_config htm_config(void)
{
	return (struct ntrace_enc_config){ .trTeInstMode = NTRACE_INST_MODE_HTM, .xlen = 64 };
}

static void open_encoder(struct ntrace_encoder *e, struct bytes *o, const struct ntrace_enc_config *cfg)
{
	struct ntrace_sink sink = { sink_write, o };

	o->len = 0;
	assert_int_equal(ntrace_enc_init(e, cfg, &sink), 0);
}

/* Encoder (HTM) and ingress; `filter` NULL: no TCI filter. */
static void start(struct tci_qualifier *filter)
{
	struct ntrace_enc_config cfg = htm_config();

	open_encoder(&enc, &out, &cfg);
	ntrace_ingress_start(&in, &enc, filter);
}

static int setup(void **state)
{
	(void)state;
	memset(&regs, 0, sizeof(regs));
	memset(&in, 0x5A, sizeof(in));
	memset(&in2, 0x5A, sizeof(in2));
	out.len = out2.len = 0;
	return 0;
}

static void fw(uint32_t off, uint32_t val)
{
	tci_filter_write(&regs, off, val);
}

/* Filter 0 selected and enabled, matching the privileges in `choice`. */
static struct tci_qualifier *priv_filter(uint32_t choice)
{
	fw(TRTE_INST_FILTERS, 1);
	fw(TRTE_FILTER_BASE + TRTE_FILTER_CONTROL, TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE);
	fw(TRTE_FILTER_BASE + TRTE_FILTER_MATCH_INST, choice);
	tci_qualifier_init(&qual, &regs);
	assert_false(qual.per_instruction);
	return &qual;
}

/* Filter 0: iaddr in [lo, hi), through comparators 0 (>= lo) and 1 (< hi). */
static struct tci_qualifier *range_filter(uint64_t lo, uint64_t hi)
{
	fw(TRTE_INST_FILTERS, 1);
	fw(TRTE_FILTER_BASE + TRTE_FILTER_CONTROL,
	   TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP1 | 0u << TRTE_FILTER_COMP1_SHIFT |
	   TRTE_FILTER_MATCH_COMP2 | 1u << TRTE_FILTER_COMP2_SHIFT);
	fw(TRTE_COMP_BASE + TRTE_COMP_CONTROL, TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT);
	fw(TRTE_COMP_BASE + TRTE_COMP_PMATCH_LOW, (uint32_t)lo);
	fw(TRTE_COMP_BASE + TRTE_COMP_PMATCH_HIGH, (uint32_t)(lo >> 32));
	fw(TRTE_COMP_BASE + TRTE_COMP_STRIDE + TRTE_COMP_CONTROL, TRTE_COMP_FN_LT << TRTE_COMP_P_FUNCTION_SHIFT);
	fw(TRTE_COMP_BASE + TRTE_COMP_STRIDE + TRTE_COMP_PMATCH_LOW, (uint32_t)hi);
	fw(TRTE_COMP_BASE + TRTE_COMP_STRIDE + TRTE_COMP_PMATCH_HIGH, (uint32_t)(hi >> 32));
	tci_qualifier_init(&qual, &regs);
	assert_true(qual.per_instruction);
	return &qual;
}

static struct ntrace_retired rec(uint64_t addr, unsigned size, unsigned priv)
{
	return (struct ntrace_retired){ .addr = addr, .size = (uint8_t)size, .priv = (uint8_t)priv };
}

static void retire1(struct ntrace_retired r)
{
	ntrace_ingress_retire(&in, &r, 1);
}

/* Linear records of 4 bytes in `priv` from addr. */
static void run(uint64_t addr, unsigned n, unsigned priv)
{
	for (unsigned i = 0; i < n; i++)
		retire1(rec(addr + 4 * i, 4, priv));
}

static void messages(void)
{
	ntrace_enc_flush(&enc);
	parse_all(&out, &ms);
}

/* ---- rules -------------------------------------------------------------------- */

/* M-mode records are never traced: the trace stops before them and
 * restarts after them, whatever the filters say. */
static void test_m_mode_never_traced(void **state)
{
	(void)state;
	/* No filter, then a selected filter with no condition (it matches
	 * every instruction, M-mode included): the same messages. */
	for (int k = 0; k < 2; k++) {
		struct tci_qualifier *f = NULL;

		if (k) {
			fw(TRTE_INST_FILTERS, 1);
			fw(TRTE_FILTER_BASE + TRTE_FILTER_CONTROL, TRTE_FILTER_ENABLE);
			tci_qualifier_init(&qual, &regs);
			assert_true(tci_qualify(&qual, 0x80000000, TCI_PRIV_M, 0));
			f = &qual;
		}
		start(f);
		run(0x80200000, 2, S);
		run(0x80000100, 3, M);
		retire1(rec(0x80200008, 2, S));
		retire1(rec(0x8020000A, 4, S));
		ntrace_ingress_stop(&in, 0x8020000E, 0);
		messages();
		assert_int_equal(ms.n, 4);
		expect_sync(&ms.m[0], NTRACE_SYNC_TRACE_ENABLE, 0x80200000);
		expect_disabled(&ms.m[1], 4, 1);
		expect_sync(&ms.m[2], NTRACE_SYNC_TRACE_ENABLE, 0x80200008);
		expect_disabled(&ms.m[3], 3, 1);
	}
}

/* Only M-mode records: no sync at all, one correlation with I-CNT = 0. */
static void test_m_mode_only_gives_no_sync(void **state)
{
	(void)state;
	start(NULL);
	run(0x80000000, 10, M);
	ntrace_ingress_stop(&in, 0x80000028, 0);
	messages();
	assert_int_equal(ms.n, 1);
	expect_disabled(&ms.m[0], 0, 1);
}

/* Leaving the traced part: ProgTraceCorrelation EVCODE = 4 whose I-CNT and
 * HIST cover the traced instructions up to the last one. */
static void test_leaving_emits_correlation_evcode4(void **state)
{
	struct ntrace_retired br = rec(0x1004, 4, S);

	(void)state;
	start(priv_filter(1u << TCI_PRIV_S));
	retire1(rec(0x1000, 4, S));
	br.itype = RV_ITYPE_TAKEN_BRANCH;       /* HIST bit 1 */
	retire1(br);
	retire1(rec(0x2000, 2, S));
	messages();
	assert_int_equal(ms.n, 1);              /* nothing yet but the sync */
	retire1(rec(0x2002, 4, U));             /* leaves the traced part */
	messages();
	assert_int_equal(ms.n, 2);
	expect_sync(&ms.m[0], NTRACE_SYNC_TRACE_ENABLE, 0x1000);
	expect_disabled(&ms.m[1], (4 + 4 + 2) / 2, 0x3);
	/* Staying out adds nothing. */
	run(0x2006, 5, U);
	messages();
	assert_int_equal(ms.n, 2);
}

/* Entering the traced part: ProgTraceSync SYNC = 5 with F-ADDR = the first
 * traced instruction, at each entry. */
static void test_entering_emits_sync5(void **state)
{
	static const uint64_t entry[3] = { 0x80201000, 0x80203000, 0x80200010 };

	(void)state;
	start(priv_filter(1u << TCI_PRIV_U));
	for (int k = 0; k < 3; k++) {
		run(0x80100000 + 0x100 * k, 2, k == 1 ? M : S);
		run(entry[k], 3, U);
	}
	ntrace_ingress_stop(&in, 0x80200020, 0);
	messages();
	assert_int_equal(ms.n, 7);
	expect_disabled(&ms.m[0], 0, 1);        /* trace starts disabled */
	for (int k = 0; k < 3; k++) {
		expect_sync(&ms.m[1 + 2 * k], NTRACE_SYNC_TRACE_ENABLE, entry[k]);
		expect_disabled(&ms.m[2 + 2 * k], 6, 1);
	}
}

/* "Trace starts disabled": one correlation with I-CNT = 0, exactly once,
 * however long the untraced part and whether anything follows. */
static void test_trace_starts_disabled_correlation_once(void **state)
{
	(void)state;
	/* Untraced records only (filtered S and M), then stop. */
	start(priv_filter(1u << TCI_PRIV_U));
	run(0x80200000, 4, S);
	run(0x80000000, 4, M);
	retire1(rec(0x80200010, 2, S));
	ntrace_ingress_stop(&in, 0x80200012, 0);
	messages();
	assert_int_equal(ms.n, 1);
	expect_disabled(&ms.m[0], 0, 1);

	/* No record at all. */
	start(priv_filter(1u << TCI_PRIV_U));
	ntrace_ingress_retire(&in, NULL, 0);
	ntrace_ingress_stop(&in, 0x80200000, 0);
	messages();
	assert_int_equal(ms.n, 1);
	expect_disabled(&ms.m[0], 0, 1);

	/* Untraced, traced, untraced: I-CNT = 0 once, at the start. */
	start(priv_filter(1u << TCI_PRIV_U));
	run(0x80200000, 3, S);
	run(0x10000, 2, U);
	run(0x80200000, 3, S);
	ntrace_ingress_stop(&in, 0x8020000C, 0);
	messages();
	assert_int_equal(ms.n, 3);
	expect_disabled(&ms.m[0], 0, 1);
	expect_sync(&ms.m[1], NTRACE_SYNC_TRACE_ENABLE, 0x10000);
	expect_disabled(&ms.m[2], 4, 1);
}

/* Turning tracing off inside the traced part: EVCODE = 4 after what is
 * pending; after the stop, records are ignored. */
static void test_stop_while_traced_then_ignores_records(void **state)
{
	struct ntrace_retired jr = rec(0x3008, 4, S);
	struct ntrace_block b = { .addr = 0x5000, .count = 3, .priv = S };

	(void)state;
	start(NULL);
	run(0x3000, 2, S);
	jr.itype = RV_ITYPE_UNINFERABLE_JUMP;   /* its message waits for the target */
	retire1(jr);
	ntrace_ingress_stop(&in, 0x4000, 0);
	messages();
	assert_int_equal(ms.n, 3);
	expect_sync(&ms.m[0], NTRACE_SYNC_TRACE_ENABLE, 0x3000);
	/* HIST is empty: IndirectBranch (N-Trace chapter 10, rule 4). */
	assert_int_equal(tcode(&ms.m[1]), NTRACE_TCODE_INDIRECT_BRANCH);
	assert_int_equal(ms.m[1].val[NTRACE_FLD_BTYPE], NTRACE_BTYPE_INDIRECT);
	assert_int_equal(ms.m[1].val[NTRACE_FLD_ICNT], 6);
	/* U-ADDR: the target XOR the last sent address (8.1), as field values. */
	assert_int_equal(ms.m[1].val[NTRACE_FLD_UADDR], (0x4000 >> 1) ^ (0x3000 >> 1));
	expect_disabled(&ms.m[2], 0, 1);
	assert_false(ntrace_ingress_active(&in));

	size_t len = out.len;

	run(0x4000, 3, S);
	ntrace_ingress_block(&in, &b, NULL);
	ntrace_ingress_stop(&in, 0x500C, 0);
	ntrace_enc_flush(&enc);
	assert_int_equal(out.len, len);
}

/* An SBI call (docs/TRACE.md): the ecall's exception message, EVCODE = 4
 * (M-mode is not traced), then SYNC = 5 at the instruction after it. */
static void test_sbi_call_sequence(void **state)
{
	struct ntrace_retired ecall = rec(0x80200008, 4, S);

	(void)state;
	start(NULL);
	run(0x80200000, 2, S);
	ecall.itype = RV_ITYPE_EXCEPTION;       /* retires, then traps */
	retire1(ecall);
	run(0x80000400, 20, M);
	run(0x8020000C, 2, S);
	ntrace_ingress_stop(&in, 0x80200014, 0);
	messages();
	assert_int_equal(ms.n, 5);
	expect_sync(&ms.m[0], NTRACE_SYNC_TRACE_ENABLE, 0x80200000);
	assert_int_equal(tcode(&ms.m[1]), NTRACE_TCODE_INDIRECT_BRANCH);   /* HIST empty */
	assert_int_equal(ms.m[1].val[NTRACE_FLD_BTYPE], NTRACE_BTYPE_EXCEPTION);
	assert_int_equal(ms.m[1].val[NTRACE_FLD_ICNT], 6);
	assert_int_equal(ms.m[1].val[NTRACE_FLD_UADDR], (0x80000400 >> 1) ^ (0x80200000 >> 1));
	expect_disabled(&ms.m[2], 0, 1);
	expect_sync(&ms.m[3], NTRACE_SYNC_TRACE_ENABLE, 0x8020000C);
	expect_disabled(&ms.m[4], 4, 1);
}

/* A block that crosses an address filter's range: traced from the first
 * instruction inside it to the last one. */
static void test_block_address_filter_message_sequence(void **state)
{
	struct ntrace_block b = { .addr = 0x1000, .count = 8, .priv = S };
	struct ntrace_retired end = rec(0x1020, 4, S);

	(void)state;
	start(range_filter(0x1008, 0x1018));
	end.itype = RV_ITYPE_TAKEN_BRANCH;
	ntrace_ingress_block(&in, &b, &end);
	ntrace_ingress_stop(&in, 0x1000, 0);
	messages();
	assert_int_equal(ms.n, 3);
	expect_disabled(&ms.m[0], 0, 1);
	expect_sync(&ms.m[1], NTRACE_SYNC_TRACE_ENABLE, 0x1008);
	expect_disabled(&ms.m[2], 8, 1);
}

/* A block in M-mode is never traced, whole or partly. */
static void test_block_in_m_mode_not_traced(void **state)
{
	struct ntrace_block bs = { .addr = 0x80200000, .count = 4, .priv = S };
	struct ntrace_block bm = { .addr = 0x80000000, .count = 30, .priv = M, .rvc_mask = 0x5 };
	struct ntrace_retired mret = rec(0x80000038, 4, M);

	(void)state;
	start(NULL);
	ntrace_ingress_block(&in, &bs, NULL);
	mret.itype = RV_ITYPE_TRAP_RETURN;
	ntrace_ingress_block(&in, &bm, &mret);
	bs.addr = 0x80200010;
	ntrace_ingress_block(&in, &bs, NULL);
	ntrace_ingress_stop(&in, 0x80200020, 0);
	messages();
	assert_int_equal(ms.n, 4);
	expect_sync(&ms.m[0], NTRACE_SYNC_TRACE_ENABLE, 0x80200000);
	expect_disabled(&ms.m[1], 8, 1);
	expect_sync(&ms.m[2], NTRACE_SYNC_TRACE_ENABLE, 0x80200010);
	expect_disabled(&ms.m[3], 8, 1);
}

/* ---- block entry == record entry ------------------------------------------------- */

struct rng { uint64_t s; };

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(r->s >> 33) % n;
}

#define NBLOCKS 600

struct scenario {
	struct ntrace_block b[NBLOCKS];
	struct ntrace_retired end[NBLOCKS];
	bool has_end[NBLOCKS];
	uint64_t next;   /* where execution continues at the stop */
};

/*
 * A random execution as blocks: S, U and M blocks of 0-64 instructions
 * (16/32-bit mixed) each ended by a branch, a jump, a trap or nothing;
 * some ends in another privilege than their block; addresses in a few
 * regions, so address filters cut blocks.
 */
static void make_scenario(struct scenario *sc, uint64_t seed)
{
	static const uint8_t privs[] = { S, S, S, U, U, M };
	static const uint8_t itypes[] = { RV_ITYPE_TAKEN_BRANCH, RV_ITYPE_NOT_TAKEN_BRANCH,
					  RV_ITYPE_UNINFERABLE_JUMP, RV_ITYPE_EXCEPTION,
					  RV_ITYPE_INTERRUPT, RV_ITYPE_TRAP_RETURN, RV_ITYPE_NONE };
	struct rng r = { seed };
	uint64_t addr = 0x80200000, t = 1;

	for (int i = 0; i < NBLOCKS; i++) {
		struct ntrace_block *b = &sc->b[i];
		uint64_t a;

		*b = (struct ntrace_block){ .addr = addr, .count = (uint8_t)rnd(&r, 65),
					    .rvc_mask = (uint64_t)rnd(&r, 1u << 31) << 33 ^ rnd(&r, 1u << 31),
					    .priv = privs[rnd(&r, 6)], .tstamp = t, .context = rnd(&r, 3) };
		if (rnd(&r, 4) == 0)
			t += 1 + rnd(&r, 100);
		a = addr;
		for (unsigned k = 0; k < b->count; k++)
			a += (b->rvc_mask >> k) & 1 ? 2 : 4;
		sc->has_end[i] = rnd(&r, 8) != 0;
		if (sc->has_end[i]) {
			struct ntrace_retired *e = &sc->end[i];

			*e = rec(a, rnd(&r, 2) ? 4 : 2, rnd(&r, 6) ? b->priv : privs[rnd(&r, 6)]);
			e->itype = itypes[rnd(&r, 7)];
			e->tstamp = t;
			e->context = b->context;
			a += e->size;
		}
		/* next block: fall through, or a jump into one of the regions */
		addr = rnd(&r, 3) ? a : 0x80200000 + 0x100000 * rnd(&r, 3) + 2 * rnd(&r, 0x800);
	}
	sc->next = addr;
}

/* The same execution through ntrace_ingress_block (in, enc, out) and
 * through ntrace_ingress_retire on the expanded records (in2, enc2, out2). */
static void run_both(const struct scenario *sc, const struct ntrace_enc_config *cfg,
		     struct tci_qualifier *f1, struct tci_qualifier *f2)
{
	open_encoder(&enc, &out, cfg);
	open_encoder(&enc2, &out2, cfg);
	ntrace_ingress_start(&in, &enc, f1);
	ntrace_ingress_start(&in2, &enc2, f2);
	for (int i = 0; i < NBLOCKS; i++) {
		const struct ntrace_block *b = &sc->b[i];
		struct ntrace_retired recs[NTRACE_BLOCK_MAX + 1];
		uint64_t a = b->addr;
		unsigned n = 0;

		for (unsigned k = 0; k < b->count; k++) {
			uint8_t size = (b->rvc_mask >> k) & 1 ? 2 : 4;

			recs[n++] = (struct ntrace_retired){ .addr = a, .size = size, .priv = b->priv,
							     .tstamp = b->tstamp, .context = b->context };
			a += size;
		}
		if (sc->has_end[i])
			recs[n++] = sc->end[i];
		ntrace_ingress_block(&in, b, sc->has_end[i] ? &sc->end[i] : NULL);
		ntrace_ingress_retire(&in2, recs, n);
		/* Same bytes at every step, not only at the end. */
		ntrace_enc_flush(&enc);
		ntrace_enc_flush(&enc2);
		assert_int_equal(out.len, out2.len);
		assert_memory_equal(out.b, out2.b, out.len);
	}
	ntrace_ingress_stop(&in, sc->next, 7);
	ntrace_ingress_stop(&in2, sc->next, 7);
	assert_int_equal(out.len, out2.len);
	assert_memory_equal(out.b, out2.b, out.len);
}

/* The output is a real trace: entries (SYNC = 5) and exits (EVCODE = 4). */
static void expect_entries_and_exits(void)
{
	unsigned syncs = 0, exits = 0;

	parse_all(&out, &ms);
	for (size_t i = 0; i < ms.n; i++) {
		if (tcode(&ms.m[i]) == NTRACE_TCODE_PROG_TRACE_SYNC &&
		    ms.m[i].val[NTRACE_FLD_SYNC] == NTRACE_SYNC_TRACE_ENABLE)
			syncs++;
		if (tcode(&ms.m[i]) == NTRACE_TCODE_PROG_TRACE_CORRELATION &&
		    ms.m[i].val[NTRACE_FLD_EVCODE] == NTRACE_EVCODE_TRACE_DISABLED)
			exits++;
	}
	assert_true(syncs > 10);
	assert_true(exits >= syncs);
}

static const struct ntrace_enc_config *configs(unsigned k)
{
	static struct ntrace_enc_config c[3];

	c[0] = htm_config();
	c[1] = htm_config();
	c[1].trTeInstMode = NTRACE_INST_MODE_BTM;
	c[2] = htm_config();
	c[2].trTeContext = true;
	c[2].trTsEnable = true;
	return &c[k];
}

/* Privilege-only filters (and none): the block entry, which qualifies a
 * block as a whole, gives the bytes of the expanded records. */
static void test_block_equals_retire_privilege_filters(void **state)
{
	static const uint32_t choices[] = { 1u << TCI_PRIV_S, 1u << TCI_PRIV_U,
					    1u << TCI_PRIV_U | 1u << TCI_PRIV_S };
	static struct scenario sc;

	(void)state;
	for (unsigned cfg = 0; cfg < 3; cfg++) {
		make_scenario(&sc, 100 + cfg);
		run_both(&sc, configs(cfg), NULL, NULL);
		expect_entries_and_exits();
		for (unsigned c = 0; c < 3; c++) {
			memset(&regs, 0, sizeof(regs));
			priv_filter(choices[c]);
			qual2 = qual;
			run_both(&sc, configs(cfg), &qual, &qual2);
			expect_entries_and_exits();
		}
	}
}

/* Filters with address comparators (a range, and a mode-3 latch): the
 * block entry expands and still gives the bytes of the records. */
static void test_block_equals_retire_address_filters(void **state)
{
	static struct scenario sc;

	(void)state;
	for (unsigned cfg = 0; cfg < 3; cfg++) {
		make_scenario(&sc, 200 + cfg);
		memset(&regs, 0, sizeof(regs));
		range_filter(0x80200000, 0x80300400);
		qual2 = qual;
		run_both(&sc, configs(cfg), &qual, &qual2);
		expect_entries_and_exits();

		/* U or S, and a latch from 0x803000xx to 0x804000xx addresses
		 * (match on the masked address, SFunction 6 would mask P: here
		 * P >= 0x80300000, S >= 0x80400000). */
		memset(&regs, 0, sizeof(regs));
		fw(TRTE_INST_FILTERS, 0x3);
		fw(TRTE_FILTER_BASE + TRTE_FILTER_CONTROL, TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE);
		fw(TRTE_FILTER_BASE + TRTE_FILTER_MATCH_INST, 1u << TCI_PRIV_U);
		fw(TRTE_FILTER_BASE + TRTE_FILTER_STRIDE + TRTE_FILTER_CONTROL,
		   TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_COMP3 | 2u << TRTE_FILTER_COMP3_SHIFT);
		fw(TRTE_COMP_BASE + 2 * TRTE_COMP_STRIDE + TRTE_COMP_CONTROL,
		   TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT | TRTE_COMP_FN_GE << TRTE_COMP_S_FUNCTION_SHIFT |
		   TRTE_COMP_MODE_LATCH << TRTE_COMP_MATCH_MODE_SHIFT);
		fw(TRTE_COMP_BASE + 2 * TRTE_COMP_STRIDE + TRTE_COMP_PMATCH_LOW, 0x80300000);
		fw(TRTE_COMP_BASE + 2 * TRTE_COMP_STRIDE + TRTE_COMP_SMATCH_LOW, 0x80400000);
		tci_qualifier_init(&qual, &regs);
		assert_true(qual.per_instruction);
		qual2 = qual;
		run_both(&sc, configs(cfg), &qual, &qual2);
		expect_entries_and_exits();
	}
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_m_mode_never_traced),
		T(test_m_mode_only_gives_no_sync),
		T(test_leaving_emits_correlation_evcode4),
		T(test_entering_emits_sync5),
		T(test_trace_starts_disabled_correlation_once),
		T(test_stop_while_traced_then_ignores_records),
		T(test_sbi_call_sequence),
		T(test_block_address_filter_message_sequence),
		T(test_block_in_m_mode_not_traced),
		T(test_block_equals_retire_privilege_filters),
		T(test_block_equals_retire_address_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

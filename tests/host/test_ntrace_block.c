// SPDX-License-Identifier: BSD-2-Clause
/*
 * ntrace_enc_block() against the per-record path.  For many record streams
 * (seeded random streams, loops, executions of generated programs) and every
 * encoder option, one encoder gets the records one ntrace_enc_retire() call
 * at a time and another gets the same records cut into blocks (maximal runs
 * of sequential itype-0 records with one priv/context/tstamp, up to 64 long,
 * and random shorter splits) through ntrace_enc_block().  After every block
 * and every start/stop/sync/overflow/flush call the two encoders must hold
 * the same state (the whole struct, statistics included) and their sinks
 * must have received the same bytes.  The same streams also go to
 * ntrace_enc_retire() in random chunks, which must give the record-by-record
 * bytes and state too, for every option (periodic sync modes and refusing
 * sinks included).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_ntrace_gen.h"

/* ---------------------------------------------------------------- streams */

/* Calls made between records: before record `pos` (ops are sorted by pos). */
enum op_kind { OP_START, OP_STOP, OP_SYNC, OP_OVERFLOW, OP_FLUSH };

struct op {
	size_t pos;
	uint8_t kind;
	uint8_t arg; /* SYNC of start/sync, EVCODE of stop */
};

#define MAX_OPS 512

struct stream {
	struct ntrace_retired *rec;
	size_t n, cap;
	uint64_t next_pc; /* where execution continues after the last record */
	struct op ops[MAX_OPS];
	size_t nops;
};

static void stream_free(struct stream *s)
{
	free(s->rec);
	memset(s, 0, sizeof(*s));
}

static void push(struct stream *s, uint64_t addr, unsigned size, unsigned itype, unsigned priv,
		 uint64_t context, uint64_t tstamp)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->rec = realloc(s->rec, s->cap * sizeof(*s->rec));
		assert_non_null(s->rec);
	}
	s->rec[s->n++] = (struct ntrace_retired){ .addr = addr, .size = (uint8_t)size,
		.itype = (uint8_t)itype, .priv = (uint8_t)priv, .context = context, .tstamp = tstamp };
}

static uint64_t rng64(struct rng *r)
{
	return (uint64_t)rng_next(r) << 32 ^ rng_next(r);
}

/* Shape of a random stream. */
struct shape {
	unsigned long_runs;   /* permille of runs 0..150 records long (else 0..11) */
	unsigned trap_weight; /* extra chances (of 16) that a transfer is a trap */
	unsigned ctx_permille; /* privilege or context change inside a run      */
	bool itype4;          /* 4-bit itypes (implicit return)                 */
};

static uint64_t random_base(struct rng *r, unsigned xlen)
{
	static const uint64_t b32[] = { 0x1000, 0x80000000, 0xffff8000 };
	static const uint64_t b64[] = { 0x80000000, 0xffffffff80000000ull, 0xffffffffffff8000ull };

	return xlen == 32 ? b32[rng_below(r, 3)] : b64[rng_below(r, 3)];
}

/*
 * Runs of linear instructions, each ended by a control transfer of a random
 * itype (traps with size 0 and with a retired instruction, its own itype
 * given or not), targets inside 64 KiB of code, returns that go where the
 * calls said most of the time.  Timestamps change after each transfer and
 * now and then inside a run.
 */
static void random_stream(struct stream *s, struct rng *r, unsigned xlen, const struct shape *sh,
			  size_t n)
{
	static const uint8_t before_trap[] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint64_t base = random_base(r, xlen), addr = base, handler = base + 0x10000;
	uint64_t calls[64], context = 7, t = 1;
	unsigned ncalls = 0, priv = NTRACE_PRV_S;

	while (s->n < n) {
		unsigned len = rng_below(r, 1000) < sh->long_runs ? rng_below(r, 151) : rng_below(r, 12);
		unsigned it, size;
		uint64_t next;

		for (unsigned k = 0; k < len; k++) {
			size = rng_below(r, 3) ? 4 : 2;
			push(s, addr, size, RV_ITYPE_NONE, priv, context, t);
			addr += size;
			if (rng_below(r, 40) == 0)
				t += 1 + rng_below(r, 4);
			if (rng_below(r, 1000) < sh->ctx_permille) {
				if (rng_below(r, 2))
					priv = rng_below(r, 8);
				else
					context = rng64(r);
			}
		}
		it = rng_below(r, 16 + sh->trap_weight);
		if (it >= 16)
			it = 1 + rng_below(r, 2);
		if (!sh->itype4 && it > 7)
			it &= 7;
		size = rng_below(r, 2) ? 4 : 2;
		if (rng_below(r, 60) == 0)
			size = 6; /* "larger multiples of 2 allowed" */
		if ((it == RV_ITYPE_EXCEPTION || it == RV_ITYPE_INTERRUPT) && rng_below(r, 3) == 0)
			size = 0;
		push(s, addr, size, it, priv, context, t);
		if (rng_below(r, 4) == 0)
			s->rec[s->n - 1].flags = NTRACE_REC_SEQ_INFERABLE;
		if ((it == RV_ITYPE_EXCEPTION || it == RV_ITYPE_INTERRUPT) && size && rng_below(r, 2))
			s->rec[s->n - 1].retired_itype = before_trap[rng_below(r, sizeof(before_trap))];
		next = base + 2 * rng_below(r, 0x8000);
		switch (it) {
		case RV_ITYPE_NONE:
			if (rng_below(r, 3)) /* else a jal in the 3-bit form */
				next = addr + size;
			break;
		case RV_ITYPE_NOT_TAKEN_BRANCH:
			next = addr + size;
			break;
		case RV_ITYPE_EXCEPTION:
		case RV_ITYPE_INTERRUPT:
			next = handler;
			priv = NTRACE_PRV_M;
			break;
		case RV_ITYPE_TRAP_RETURN:
			priv = rng_below(r, 2) ? NTRACE_PRV_U : NTRACE_PRV_S;
			if (rng_below(r, 3) == 0)
				context = 1 + rng_below(r, 5);
			break;
		case RV_ITYPE_UNINFERABLE_CALL:
		case RV_ITYPE_INFERABLE_CALL:
			if (ncalls < 64)
				calls[ncalls++] = addr + size;
			break;
		case RV_ITYPE_RETURN:
		case RV_ITYPE_COROUTINE_SWAP:
			if (ncalls && rng_below(r, 10))
				next = calls[--ncalls];
			if (it == RV_ITYPE_COROUTINE_SWAP && ncalls < 64)
				calls[ncalls++] = addr + size;
			break;
		default:
			break;
		}
		if (it)
			t += 1 + rng_below(r, 3);
		addr = rv_xlen_mask(next, xlen);
	}
	s->next_pc = addr;
}

/*
 * A loop body run many times (same I-CNT, same target: RepeatBranch in BTM,
 * repeated HIST in HTM) with now and then a different exit or a trap.
 */
static void loop_stream(struct stream *s, struct rng *r, unsigned xlen, size_t n)
{
	uint64_t top = random_base(r, xlen) + 0x100, t = 1;
	unsigned body = 1 + rng_below(r, 70), inner = rng_below(r, 3);

	while (s->n < n) {
		uint64_t a = top;

		for (unsigned k = 0; k < body; k++) {
			unsigned size = (k * 7 + body) % 3 ? 4 : 2;

			push(s, a, size, RV_ITYPE_NONE, NTRACE_PRV_M, 1, t);
			a += size;
		}
		for (unsigned k = 0; k < inner; k++) { /* not-taken / taken pairs: HIST bits */
			push(s, a, 4, RV_ITYPE_NOT_TAKEN_BRANCH, NTRACE_PRV_M, 1, t);
			a += 4;
		}
		if (rng_below(r, 200) == 0) {
			push(s, a, 0, RV_ITYPE_INTERRUPT, NTRACE_PRV_M, 1, t);
			push(s, top - 0x80, 4, RV_ITYPE_TRAP_RETURN, NTRACE_PRV_M, 1, t);
		} else {
			push(s, a, 4, rng_below(r, 100) ? RV_ITYPE_TAKEN_BRANCH : RV_ITYPE_UNINFERABLE_JUMP,
			     NTRACE_PRV_M, 1, t);
		}
		if (rng_below(r, 8) == 0)
			t++;
	}
	s->next_pc = top;
}

/* An execution of a generated program (test_ntrace_gen.h). */
static struct program prog;

static void program_stream(struct stream *s, struct rng *r, const struct ntrace_enc_config *cfg,
			   size_t n)
{
	unsigned ext = RV_EXT_C | (rng_below(r, 2) ? RV_EXT_ZCMP | RV_EXT_ZCMT : 0);
	struct run_opts ro = { .itype4 = cfg->trTeInstEnImplicitReturn, .all_jumps = cfg->trTeInstEnAllJumps,
			       .wild_returns = true, .int_permille = 6, .exc_permille = 3,
			       .int_after_permille = 5, .context_changes = true };
	struct run x = { 0 };

	gen_program(&prog, r, cfg->xlen, ext, random_base(r, cfg->xlen) & ~0xffffull);
	run_program(&prog, &ro, r, n, &x);
	for (size_t i = 0; i < x.nrec; i++) {
		push(s, 0, 0, 0, 0, 0, 0);
		s->rec[s->n - 1] = x.rec[i];
	}
	s->next_pc = x.next_pc;
	run_free(&x);
}

/* Timestamps as a block-level encoder has them: one per run of linear
 * instructions, a new one after each control transfer and now and then. */
static void coarsen_tstamps(struct stream *s, struct rng *r)
{
	uint64_t t = 1;

	for (size_t i = 0; i < s->n; i++) {
		s->rec[i].tstamp = t;
		if (s->rec[i].itype || rng_below(r, 64) == 0)
			t += 1 + rng_below(r, 3);
	}
}

/* Privilege and context changes in the middle of linear code (7.1). */
static void perturb_contexts(struct stream *s, struct rng *r, unsigned permille)
{
	unsigned dpriv = 0;
	uint64_t dctx = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (rng_below(r, 1000) < permille) {
			if (rng_below(r, 2))
				dpriv = rng_below(r, 8);
			else
				dctx = rng64(r);
		}
		s->rec[i].priv ^= (uint8_t)dpriv;
		s->rec[i].context ^= dctx;
	}
}

/* Trace starts before record 0; then about `permille` calls per 1000
 * records: stop (and a restart a little later), sync, overflow, flush. */
static void add_ops(struct stream *s, struct rng *r, unsigned permille, unsigned flush_permille)
{
	static const uint8_t start_sync[] = { NTRACE_SYNC_RESET, NTRACE_SYNC_DEBUG_EXIT,
					      NTRACE_SYNC_TRACE_ENABLE, NTRACE_SYNC_POWER_UP };
	static const uint8_t marker[] = { NTRACE_SYNC_EXT_TRIGGER, NTRACE_SYNC_TRACE_EVENT,
					  NTRACE_SYNC_RESET, NTRACE_SYNC_PERIODIC, NTRACE_SYNC_DEBUG_EXIT };
	static const uint8_t evcode[] = { NTRACE_EVCODE_DEBUG_ENTRY, NTRACE_EVCODE_LOW_POWER,
					  NTRACE_EVCODE_TRACE_DISABLED };
	size_t restart = SIZE_MAX;

	s->nops = 0;
	s->ops[s->nops++] = (struct op){ 0, OP_START, start_sync[rng_below(r, 4)] };
	for (size_t pos = 1; pos < s->n && s->nops < MAX_OPS - 2; pos++) {
		if (pos == restart)
			s->ops[s->nops++] = (struct op){ pos, OP_START, start_sync[rng_below(r, 4)] };
		if (rng_below(r, 1000) < flush_permille)
			s->ops[s->nops++] = (struct op){ pos, OP_FLUSH, 0 };
		if (rng_below(r, 1000) >= permille)
			continue;
		switch (rng_below(r, 4)) {
		case 0:
			s->ops[s->nops++] = (struct op){ pos, OP_STOP, evcode[rng_below(r, 3)] };
			restart = pos + rng_below(r, 40);
			break;
		case 1:
			s->ops[s->nops++] = (struct op){ pos, OP_SYNC, marker[rng_below(r, 5)] };
			break;
		case 2:
			s->ops[s->nops++] = (struct op){ pos, OP_OVERFLOW, 0 };
			break;
		default:
			s->ops[s->nops++] = (struct op){ pos, OP_FLUSH, 0 };
			break;
		}
	}
}

/* ---------------------------------------------------------------- encoders */

/* Sink that keeps the bytes and may refuse some chunks (the encoder then
 * reports a queue overrun: Error + SYNC=7, 7.4). */
struct tsink {
	struct bytes b;
	unsigned calls;
	unsigned refuse_every; /* 0: take everything */
	size_t tamper_at;      /* harness self-test: flip a bit of this byte */
};

static int tsink_write(void *ctx, const uint8_t *data, size_t len)
{
	struct tsink *s = ctx;
	size_t at = s->b.len;

	s->calls++;
	if (s->refuse_every && ((s->calls * 2654435761u) >> 20) % s->refuse_every == 0)
		return -1;
	if (bytes_sink(&s->b, data, len))
		return -1;
	if (s->tamper_at >= at && s->tamper_at < s->b.len)
		s->b.data[s->tamper_at] ^= 0x10;
	return 0;
}

struct side {
	struct ntrace_encoder enc;
	struct tsink sink;
};

static struct side ref, blk; /* record by record; blocks (or chunks) */
static size_t bytes_checked;  /* bytes of their sinks already found equal */

static void side_init(struct side *sd, const struct ntrace_enc_config *cfg, unsigned refuse_every)
{
	struct ntrace_sink sink = { .write = tsink_write, .ctx = &sd->sink };

	bytes_free(&sd->sink.b);
	memset(&sd->sink, 0, sizeof(sd->sink));
	sd->sink.refuse_every = refuse_every;
	sd->sink.tamper_at = SIZE_MAX;
	bytes_checked = 0;
	assert_int_equal(ntrace_enc_init(&sd->enc, cfg, &sink), 0);
}

static void apply_op(struct side *sd, const struct stream *s, const struct op *op)
{
	uint64_t addr = op->pos < s->n ? s->rec[op->pos].addr : s->next_pc;
	uint64_t ts = s->rec[op->pos < s->n ? op->pos : s->n - 1].tstamp;

	switch (op->kind) {
	case OP_START:
		ntrace_enc_start(&sd->enc, op->arg);
		break;
	case OP_STOP:
		ntrace_enc_stop(&sd->enc, op->arg, addr, ts);
		break;
	case OP_SYNC:
		ntrace_enc_sync(&sd->enc, op->arg);
		break;
	case OP_OVERFLOW:
		ntrace_enc_overflow(&sd->enc, ts);
		break;
	default:
		ntrace_enc_flush(&sd->enc);
		break;
	}
}

/* ---------------------------------------------------------------- comparison */

static char why[512];

static bool differ(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool differ(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return false;
}

/*
 * Same bytes received by the sinks, same statistics, same encoder state
 * (every byte of the struct but the sink's context pointer; with
 * `any_ctx`, cur_priv and cur_context may differ too: only trTeContext
 * reads them, and the per-record loop does not store them for records it
 * takes inline).
 */
static bool same(const struct side *a, const struct side *b, const char *where, size_t pos,
		 bool any_ctx)
{
	static struct ntrace_encoder ca, cb;
	const struct ntrace_enc_stats *sa = &a->enc.stats, *sb = &b->enc.stats;
	size_t n = a->sink.b.len < b->sink.b.len ? a->sink.b.len : b->sink.b.len;

	for (size_t i = bytes_checked; i < n; i++)
		if (a->sink.b.data[i] != b->sink.b.data[i])
			return differ("%s at record %zu: byte %zu is 0x%02x, per-record 0x%02x", where,
				      pos, i, b->sink.b.data[i], a->sink.b.data[i]);
	bytes_checked = n;
	if (a->sink.b.len != b->sink.b.len)
		return differ("%s at record %zu: %zu bytes written, per-record %zu", where, pos,
			      b->sink.b.len, a->sink.b.len);
	if (sa->records != sb->records || sa->halfwords != sb->halfwords ||
	    sa->messages != sb->messages || sa->bytes != sb->bytes || sa->lost_bytes != sb->lost_bytes ||
	    memcmp(sa->per_tcode, sb->per_tcode, sizeof(sa->per_tcode)))
		return differ("%s at record %zu: statistics differ (records %llu/%llu, half-words "
			      "%llu/%llu, messages %llu/%llu, bytes %llu/%llu, lost %llu/%llu)", where, pos,
			      (unsigned long long)sb->records, (unsigned long long)sa->records,
			      (unsigned long long)sb->halfwords, (unsigned long long)sa->halfwords,
			      (unsigned long long)sb->messages, (unsigned long long)sa->messages,
			      (unsigned long long)sb->bytes, (unsigned long long)sa->bytes,
			      (unsigned long long)sb->lost_bytes, (unsigned long long)sa->lost_bytes);
	if (a->enc.run.icnt != b->enc.run.icnt || a->enc.run.hist != b->enc.run.hist || a->enc.buf_len != b->enc.buf_len)
		return differ("%s at record %zu: I-CNT %u/%u, HIST 0x%x/0x%x, buffered %u/%u", where,
			      pos, b->enc.run.icnt, a->enc.run.icnt, b->enc.run.hist, a->enc.run.hist, b->enc.buf_len,
			      a->enc.buf_len);
	memcpy(&ca, &a->enc, sizeof(ca));
	memcpy(&cb, &b->enc, sizeof(cb));
	ca.sink.ctx = cb.sink.ctx = NULL;
	if (any_ctx) {
		ca.run.cur_priv = cb.run.cur_priv = 0;
		ca.run.cur_context = cb.run.cur_context = 0;
	}
	if (memcmp(&ca, &cb, sizeof(ca))) {
		size_t i = 0;

		while (((const uint8_t *)&ca)[i] == ((const uint8_t *)&cb)[i])
			i++;
		return differ("%s at record %zu: encoder state differs at byte %zu of the struct",
			      where, pos, i);
	}
	return true;
}

/* How the records are cut into blocks. */
struct cut {
	unsigned max_len;        /* longest block, 1..64 */
	unsigned split_permille; /* end a block early, at a random length */
	unsigned null_permille;  /* feed a block without its end record */
	unsigned refuse_every;   /* sink refusals (0: none) */
	size_t tamper_byte;      /* self-test: corrupt this byte of the block side */
	struct rng r;
};

static unsigned long inline_taken; /* blocks ntrace_enc_block_inline() took */
static unsigned long fast_counted;  /* blocks the fast visit's model counted */
static unsigned long fast_resolved; /* waiting jumps ntrace_enc_resolve_jump() sent */
static unsigned long fast_counted_ctx; /* of fast_counted, with trTeContext */
static unsigned long fast_direct;   /* of fast_counted, ending in BTM's taken branch */

static bool blockable(const struct ntrace_retired *r)
{
	return r->itype == RV_ITYPE_NONE && (r->size == 2 || r->size == 4);
}

/* r continues the block that starts with `first` and whose last record is prev. */
static bool continues(const struct ntrace_retired *first, const struct ntrace_retired *prev,
		      const struct ntrace_retired *r)
{
	return blockable(r) && r->addr == prev->addr + prev->size && r->priv == first->priv &&
	       r->context == first->context && r->tstamp == first->tstamp;
}

/*
 * The encoder step of the firmware's fast visit (firmware/trace/step_fast.S,
 * macro COUNT_HELD), as ntrace_enc_inline_end() describes it: a block of
 * `count` records and its end, h I-CNT units in all, counted by the class
 * of the end's itype.  False, with nothing changed, when it does not apply.
 */
static bool fast_count(struct ntrace_encoder *e, const uint8_t ends[16], uint32_t h,
		       unsigned count, const struct ntrace_retired *end)
{
	uint32_t next = e->run.icnt + h;

	if (e->run.slow || next >= e->run.icnt_check)
		return false;
	switch (ends[end->itype & 15]) {
	case NTRACE_INLINE_HIST:
		if (e->run.hist & e->run.hist_limit)
			return false;
		e->run.hist = e->run.hist << 1 | (end->itype & 1);
		break;
	case NTRACE_INLINE_COUNT:
		break;
	case NTRACE_INLINE_INFER:
		e->run.cur_priv = end->priv;
		e->run.cur_context = end->context;
		break;
	case NTRACE_INLINE_PENDING:
		e->run.pending = NTRACE_PEND_INDIRECT;
		e->run.pending_btype = NTRACE_BTYPE_INDIRECT;
		e->run.pending_tstamp = end->tstamp;
		e->run.slow = 1;
		break;
	case NTRACE_INLINE_DIRECT:
		e->run.cur_priv = end->priv;
		e->run.cur_context = end->context;
		e->run.pending = NTRACE_PEND_DIRECT;
		e->run.pending_btype = 0;
		e->run.pending_tstamp = end->tstamp;
		e->run.slow = 1;
		fast_direct++;
		break;
	default:
		return false;
	}
	e->run.icnt = next;
	e->stats.records += count + 1;
	return true;
}

/*
 * A block with its end the fast visit's way, in a configuration it takes
 * (no timestamps; with trTeContext, only a block and end in the
 * encoder's privilege and context, as the firmware's fast_enters()
 * ensures): a jump's
 * message waiting for the block's first record goes out first
 * (ntrace_enc_resolve_jump(): then the encoder counts again; declined,
 * nothing changed), then fast_count(), else ntrace_enc_block() (what
 * stepper_fast_retire() ends in).  False when the block does not qualify.
 */
static bool fast_way(struct ntrace_encoder *e, const struct ntrace_block *b,
		     const struct ntrace_retired *end, struct cut *c)
{
	static struct ntrace_encoder before;
	uint64_t first = b->count ? b->addr : end->addr;
	uint64_t context = b->count ? b->context : end->context;
	uint8_t priv = b->count ? b->priv : end->priv, ends[16];

	if (e->cfg.trTsEnable || rng_below(&c->r, 3))
		return false;
	if (e->cfg.trTeContext &&
	    (priv != e->run.cur_priv || context != e->run.cur_context || end->priv != priv ||
	     end->context != context))
		return false;
	if (e->run.slow && (e->run.pending == NTRACE_PEND_INDIRECT || e->run.pending == NTRACE_PEND_RETURN_CHECK ||
			    e->run.pending == NTRACE_PEND_DIRECT)) {
		memcpy(&before, e, sizeof(before));
		if (ntrace_enc_resolve_jump(e, first, priv, context)) {
			fast_resolved++;
			assert_int_equal(e->run.slow, 0);
		} else {
			assert_memory_equal(&before, e, sizeof(before));
		}
	}
	for (unsigned it = 0; it < 16; it++)
		ends[it] = (uint8_t)ntrace_enc_inline_end(e, it);
	if (fast_count(e, ends, ntrace_block_halfwords(b) + (end->size >> 1), b->count, end))
		fast_counted++, fast_counted_ctx += e->cfg.trTeContext;
	else
		ntrace_enc_block(e, b, end);
	return true;
}

/*
 * Feeds one block of records [i, lim) to e: the longest run allowed from i
 * (none when record i is not itype 0 with size 2/4), then the next record
 * as its end.  Returns the index after the last record fed.
 */
static size_t feed_block(struct ntrace_encoder *e, const struct stream *s, size_t i, size_t lim,
			 struct cut *c)
{
	const struct ntrace_retired *rec = s->rec, *end = NULL;
	unsigned max = c->max_len;
	struct ntrace_block b;
	size_t j = i;

	if (c->split_permille && rng_below(&c->r, 1000) < c->split_permille)
		max = 1 + rng_below(&c->r, max);
	if (blockable(&rec[i])) {
		b = (struct ntrace_block){ .addr = rec[i].addr, .tstamp = rec[i].tstamp,
					   .context = rec[i].context, .priv = rec[i].priv };
		do {
			if (rec[j].size == 2)
				b.rvc_mask |= 1ull << b.count;
			b.count++;
			j++;
		} while (j < lim && b.count < max && continues(&rec[i], &rec[j - 1], &rec[j]));
		if (b.count < 64 && rng_below(&c->r, 4) == 0) /* bits past count mean nothing */
			b.rvc_mask |= rng64(&c->r) << b.count;
	} else {
		/* an empty block: only `end` counts */
		b = (struct ntrace_block){ .addr = rng64(&c->r), .rvc_mask = rng64(&c->r),
					   .tstamp = rng64(&c->r), .context = rng64(&c->r),
					   .priv = (uint8_t)rng_next(&c->r) };
	}
	if (j < lim && !(b.count && rng_below(&c->r, 1000) < c->null_permille))
		end = &rec[j++];
	if (end && fast_way(e, &b, end, c))
		return j;
	/* Half of the blocks with an end go through ntrace_enc_block_inline()
	 * first (the firmware's stepper): when it declines, nothing may have
	 * changed; when it takes the block, the state must be the same.  An
	 * empty run is given as the stepper gives it: at the end's address,
	 * in its privilege and context. */
	if (end && rng_below(&c->r, 2) &&
	    (b.count ? ntrace_enc_block_inline(e, b.addr, ntrace_block_halfwords(&b), b.count,
					       b.priv, b.context, end)
		     : ntrace_enc_block_inline(e, end->addr, 0, 0, end->priv, end->context, end))) {
		inline_taken++;
		return j;
	}
	ntrace_enc_block(e, &b, end);
	return j;
}

static bool finish(const struct stream *s, bool any_ctx)
{
	uint64_t ts = s->n ? s->rec[s->n - 1].tstamp + 1 : 0;

	ntrace_enc_stop(&ref.enc, NTRACE_EVCODE_DEBUG_ENTRY, s->next_pc, ts);
	ntrace_enc_stop(&blk.enc, NTRACE_EVCODE_DEBUG_ENTRY, s->next_pc, ts);
	ntrace_enc_flush(&ref.enc);
	ntrace_enc_flush(&blk.enc);
	return same(&ref, &blk, "after the final stop and flush", s->n, any_ctx);
}

/*
 * The stream record by record into `ref` and in blocks into `blk`, in
 * lockstep.  Returns false (with `why`) at the first difference.
 */
static bool blocks_match_records(const struct ntrace_enc_config *cfg, const struct stream *s,
				 struct cut *c)
{
	size_t i = 0, op = 0;

	side_init(&ref, cfg, c->refuse_every);
	side_init(&blk, cfg, c->refuse_every);
	blk.sink.tamper_at = c->tamper_byte;
	for (;;) {
		size_t lim, next;

		for (; op < s->nops && s->ops[op].pos == i; op++) {
			apply_op(&ref, s, &s->ops[op]);
			apply_op(&blk, s, &s->ops[op]);
			if (!same(&ref, &blk, "after a start/stop/sync/overflow/flush call", i, false))
				return false;
		}
		if (i == s->n)
			break;
		lim = op < s->nops ? s->ops[op].pos : s->n;
		next = feed_block(&blk.enc, s, i, lim, c);
		for (; i < next; i++)
			ntrace_enc_retire(&ref.enc, &s->rec[i], 1);
		if (!same(&ref, &blk, "after the block", i, false))
			return false;
	}
	return finish(s, false);
}

/* The stream record by record into `ref` and in random chunks into `blk`. */
static bool chunks_match_records(const struct ntrace_enc_config *cfg, const struct stream *s,
				 struct cut *c)
{
	size_t i = 0, op = 0;

	side_init(&ref, cfg, c->refuse_every);
	side_init(&blk, cfg, c->refuse_every);
	for (;;) {
		size_t lim, n;

		for (; op < s->nops && s->ops[op].pos == i; op++) {
			apply_op(&ref, s, &s->ops[op]);
			apply_op(&blk, s, &s->ops[op]);
		}
		if (i == s->n)
			break;
		lim = op < s->nops ? s->ops[op].pos : s->n;
		n = 1 + rng_below(&c->r, rng_below(&c->r, 2) ? 8 : 300);
		if (n > lim - i)
			n = lim - i;
		ntrace_enc_retire(&blk.enc, &s->rec[i], n);
		for (size_t k = 0; k < n; k++, i++)
			ntrace_enc_retire(&ref.enc, &s->rec[i], 1);
		if (!same(&ref, &blk, "after the chunk", i, !cfg->trTeContext))
			return false;
	}
	return finish(s, !cfg->trTeContext);
}

/* ---------------------------------------------------------------- drivers */

/* A random configuration: every option drawn, small counters often. */
static struct ntrace_enc_config random_config(struct rng *r)
{
	static const uint8_t icnt_bits[] = { 2, 3, 4, 5, 6, 7, 8, 10, 0 };
	static const uint8_t hist_bits[] = { 2, 3, 4, 5, 8, 0 };
	static const uint8_t depth[] = { 1, 2, 3, 8, 0 };
	unsigned src_bits = rng_below(r, 2) ? rng_below(r, 13) : 0;
	unsigned irm = rng_below(r, 4);

	return (struct ntrace_enc_config){
		.trTeInstMode = rng_below(r, 2) ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
		.trTeContext = rng_below(r, 2),
		.trTeInhibitSrc = rng_below(r, 8) == 0,
		.trTeInstSyncMode = (uint8_t)rng_below(r, 4),
		.trTeInstSyncMax = (uint8_t)(rng_below(r, 2) ? 0 : rng_below(r, 4)),
		.trTeInstEnSequentialJump = rng_below(r, 2),
		.trTeInstEnImplicitReturn = irm != 0,
		.trTeInstImplicitReturnMode = (uint8_t)irm,
		.trTeInstEnRepeatedHistory = rng_below(r, 2),
		.trTeInstEnAllJumps = rng_below(r, 3) == 0,
		.trTeInstExtendAddrMSB = rng_below(r, 2),
		.trTeSrcID = (uint16_t)(rng_next(r) & ((1u << src_bits) - 1)),
		.trTeSrcBits = (uint8_t)src_bits,
		.trTsEnable = rng_below(r, 2),
		.xlen = rng_below(r, 2) ? 64 : 32,
		.icnt_bits = icnt_bits[rng_below(r, sizeof(icnt_bits))],
		.hist_bits = hist_bits[rng_below(r, sizeof(hist_bits))],
		.call_stack_depth = depth[rng_below(r, sizeof(depth))],
		.return_partial_bits = (uint8_t)(rng_below(r, 2) ? 4 : 0),
		.btype_trap_as_1 = rng_below(r, 4) == 0,
		.icnt_overflow_sync = rng_below(r, 2),
	};
}

enum kind { K_RANDOM, K_LOOP, K_PROGRAM };

struct plan {
	enum kind kind;
	size_t records;
	struct shape shape;
	unsigned ctx_permille;   /* perturb_contexts() */
	unsigned op_permille;
	unsigned flush_permille;
	unsigned refuse_every;
	bool fine_tstamps;       /* keep one timestamp per record (blocks of 1) */
};

/* (Re)builds *s, whose records may come from an earlier stream. */
static void build(struct stream *s, const struct ntrace_enc_config *cfg, const struct plan *p,
		  struct rng *r)
{
	struct shape sh = p->shape;

	stream_free(s);
	sh.itype4 = sh.itype4 || cfg->trTeInstEnImplicitReturn;
	if (p->kind == K_LOOP) {
		loop_stream(s, r, cfg->xlen, p->records);
	} else if (p->kind == K_PROGRAM) {
		program_stream(s, r, cfg, p->records);
		if (!p->fine_tstamps)
			coarsen_tstamps(s, r);
	} else {
		random_stream(s, r, cfg->xlen, &sh, p->records);
	}
	if (p->ctx_permille)
		perturb_contexts(s, r, p->ctx_permille);
	add_ops(s, r, p->op_permille, p->flush_permille);
}

static unsigned tested_streams, tested_chunks;
static struct stream S; /* global: a failed check leaves it for the next one to free */

/* One stream under one configuration, cut three ways, plus random chunks. */
static void check(const struct ntrace_enc_config *cfg, const struct plan *p, uint64_t seed,
		  const char *what)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull };
	struct stream *s = &S;
	struct cut cuts[] = {
		{ .max_len = 64 },
		{ .max_len = 64, .split_permille = 300, .null_permille = 200 },
		{ .max_len = 1 + rng_below(&r, 64), .split_permille = 500, .null_permille = 500 },
	};

	build(s, cfg, p, &r);
	for (unsigned k = 0; k < sizeof(cuts) / sizeof(cuts[0]); k++) {
		cuts[k].refuse_every = p->refuse_every;
		cuts[k].tamper_byte = SIZE_MAX;
		cuts[k].r.s = seed + k + 1;
		if (!blocks_match_records(cfg, s, &cuts[k]))
			fail_msg("%s, seed %llu, cut %u: block path differs %s", what,
				 (unsigned long long)seed, k, why);
	}
	if (!chunks_match_records(cfg, s, &cuts[0]))
		fail_msg("%s, seed %llu: chunked ntrace_enc_retire differs %s", what,
			 (unsigned long long)seed, why);
	tested_chunks++;
	tested_streams++;
}

static const struct plan random_plan = {
	.kind = K_RANDOM, .records = 1500,
	.shape = { .long_runs = 250, .trap_weight = 2, .ctx_permille = 3 },
	.op_permille = 3, .flush_permille = 2,
};
static const struct plan program_plan = {
	.kind = K_PROGRAM, .records = 1500, .ctx_permille = 4, .op_permille = 2,
};

/* ---------------------------------------------------------------- tests */

/* Every option drawn at random, on random streams and program executions. */
static void test_block_path_equals_record_path_for_random_configurations(void **state)
{
	struct rng r = { 0x5eed0001 };

	(void)state;
	for (unsigned i = 0; i < 2000; i++) {
		struct ntrace_enc_config cfg = random_config(&r);
		struct plan p = i % 3 == 2 ? program_plan : random_plan;

		if (i % 7 == 0)
			p.kind = K_LOOP;
		if (i % 11 == 0)
			p.fine_tstamps = true;
		check(&cfg, &p, i, "random configuration");
	}
	/* the inline entry was exercised, not only declined; so were the
	 * fast visit's counting and its early jump messages */
	assert_true(inline_taken > 1000);
	print_message("fast visit model: %lu blocks counted (%lu with trTeContext), %lu jump messages sent early\n",
		      fast_counted, fast_counted_ctx, fast_resolved);
	assert_true(fast_counted > 1000);
	assert_true(fast_counted_ctx > 100);
	print_message("fast visit model: %lu blocks end in a BTM DirectBranch\n", fast_direct);
	assert_true(fast_direct > 100);
	assert_true(fast_resolved > 100);
}

/* 8.4.4: I-CNT overflows inside blocks, for counters of 2..8 bits (22 for
 * comparison), reported by ResourceFull or, in HTM with HIST bits and
 * icnt_overflow_sync, by IndirectBranchHistSync SYNC=4 at the next record. */
static void test_icnt_overflow_inside_blocks(void **state)
{
	static const uint8_t hist_bits[] = { 2, 3, 0 };
	struct plan p = random_plan;
	unsigned seed = 0;

	(void)state;
	p.shape.long_runs = 600;
	for (unsigned bits = 2; bits <= 9; bits++)
		for (unsigned mode = 0; mode < 2; mode++)
			for (unsigned sync = 0; sync < 2; sync++)
				for (unsigned h = 0; h < 3; h++) {
					struct ntrace_enc_config cfg = {
						.trTeInstMode = mode ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
						.xlen = 64, .icnt_bits = (uint8_t)(bits == 9 ? 0 : bits),
						.hist_bits = hist_bits[h], .icnt_overflow_sync = sync,
						.trTeInstEnRepeatedHistory = (bits + h) & 1,
						.trTsEnable = sync,
					};

					p.kind = seed % 4 == 3 ? K_LOOP : K_RANDOM;
					check(&cfg, &p, 1000 + seed++, "I-CNT overflow");
				}
}

/* Periodic sync (trTeInstSyncMode 1 messages, 2 timestamp ticks, 3 half-
 * words) with the smallest period, so half-word syncs fall inside blocks. */
static void test_periodic_sync_inside_blocks(void **state)
{
	struct plan p = random_plan;
	unsigned seed = 0;

	(void)state;
	p.shape.long_runs = 500;
	for (unsigned mode = 1; mode <= 3; mode++)
		for (unsigned max = 0; max < 3; max++)
			for (unsigned v = 0; v < 8; v++) {
				struct ntrace_enc_config cfg = {
					.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
					.trTeContext = (v >> 1) & 1, .trTsEnable = (v >> 2) & 1,
					.trTeInstSyncMode = (uint8_t)mode, .trTeInstSyncMax = (uint8_t)max,
					.xlen = v & 2 ? 32 : 64, .icnt_bits = (uint8_t)(v == 5 ? 7 : 0),
					.hist_bits = (uint8_t)(v == 3 ? 4 : 0),
				};

				p.kind = v == 6 ? K_PROGRAM : v == 7 ? K_LOOP : K_RANDOM;
				check(&cfg, &p, 2000 + seed++, "periodic sync");
			}
}

/* 7.1: Ownership on privilege and context changes that happen between
 * blocks, at a block's first record, without any control transfer. */
static void test_privilege_and_context_changes(void **state)
{
	struct plan p = random_plan;
	unsigned seed = 0;

	(void)state;
	for (unsigned v = 0; v < 48; v++) {
		struct ntrace_enc_config cfg = {
			.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
			.trTeContext = true, .trTsEnable = (v >> 1) & 1, .xlen = (v >> 2) & 1 ? 32 : 64,
			.trTeInstSyncMode = (uint8_t)((v >> 3) % 4), .icnt_bits = (uint8_t)(v % 5 == 0 ? 5 : 0),
		};

		p.kind = v % 3 == 2 ? K_PROGRAM : K_RANDOM;
		p.shape.ctx_permille = 20;
		p.ctx_permille = v % 2 ? 30 : 5;
		check(&cfg, &p, 3000 + seed++, "privilege/context changes");
		cfg.trTeContext = false; /* the same stream when changes are not traced */
		check(&cfg, &p, 3000 + seed - 1, "untraced privilege/context changes");
	}
}

/* 9.2: implicit return modes 1 (count), 2 (partial), 3 (full) with call
 * stacks of 1..3, 8 and 32 entries; with sequential jumps and all-jumps. */
static void test_implicit_return_and_jump_options(void **state)
{
	static const uint8_t depth[] = { 1, 2, 3, 8, 32 };
	unsigned seed = 0;

	(void)state;
	for (unsigned mode = 1; mode <= 3; mode++)
		for (unsigned d = 0; d < 5; d++)
			for (unsigned v = 0; v < 8; v++) {
				struct ntrace_enc_config cfg = {
					.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
					.trTeInstEnImplicitReturn = true, .trTeInstImplicitReturnMode = (uint8_t)mode,
					.call_stack_depth = depth[d], .return_partial_bits = (uint8_t)(v & 2 ? 4 : 0),
					.trTeInstEnSequentialJump = (v >> 1) & 1, .trTeInstEnAllJumps = (v >> 2) & 1,
					.trTeInstEnRepeatedHistory = d & 1, .xlen = 64,
				};
				struct plan p = v & 4 ? program_plan : random_plan;

				check(&cfg, &p, 4000 + seed++, "implicit return");
			}
}

/* 9.3 / 7.11: repeated HIST records (HREPEAT) and RepeatBranch, which hold
 * messages back across blocks; small HIST registers. */
static void test_repeated_history_and_repeat_branch(void **state)
{
	static const uint8_t hist_bits[] = { 2, 3, 5, 0 };
	struct plan p = random_plan;
	unsigned seed = 0;

	(void)state;
	p.kind = K_LOOP;
	p.records = 3000;
	for (unsigned h = 0; h < 4; h++)
		for (unsigned v = 0; v < 8; v++) {
			struct ntrace_enc_config cfg = {
				.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
				.trTeInstEnRepeatedHistory = true, .hist_bits = hist_bits[h],
				.icnt_bits = (uint8_t)(v & 2 ? 8 : 0), .trTsEnable = (v >> 2) & 1,
				.trTeInstSyncMode = (uint8_t)(v & 4 ? 1 : 0), .xlen = 64,
			};

			check(&cfg, &p, 5000 + seed++, "repeated history / branch");
		}
}

/* Traps in every form: itype 1/2 with size 0 (not retired), with a retired
 * instruction, with its own itype in retired_itype; B-TYPE 1 or 2/3. */
static void test_traps(void **state)
{
	struct plan p = random_plan;
	unsigned seed = 0;

	(void)state;
	p.shape.trap_weight = 16;
	for (unsigned v = 0; v < 32; v++) {
		struct ntrace_enc_config cfg = {
			.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
			.btype_trap_as_1 = (v >> 1) & 1, .trTeContext = (v >> 2) & 1,
			.trTeInstEnImplicitReturn = (v >> 3) & 1, .trTeInstImplicitReturnMode = 3,
			.trTeInstEnAllJumps = (v >> 4) & 1, .xlen = 64, .hist_bits = 4,
		};

		p.kind = v % 4 == 3 ? K_PROGRAM : K_RANDOM;
		check(&cfg, &p, 6000 + seed++, "traps");
	}
}

/* Address and field options: 8.2 MSB extension, SRC of 0..12 bits or
 * inhibited, timestamps, XLEN 32 and 64 with code near the top. */
static void test_address_and_field_options(void **state)
{
	unsigned seed = 0;

	(void)state;
	for (unsigned src = 0; src <= 12; src++)
		for (unsigned v = 0; v < 8; v++) {
			struct ntrace_enc_config cfg = {
				.trTeInstMode = v & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
				.trTeInstExtendAddrMSB = (v >> 1) & 1, .trTsEnable = (v >> 2) & 1,
				.trTeSrcBits = (uint8_t)src, .trTeSrcID = (uint16_t)((1u << src) - 1),
				.trTeInhibitSrc = src == 12 && (v & 1), .xlen = (src + v) & 1 ? 32 : 64,
			};

			check(&cfg, &random_plan, 7000 + seed++, "address/field options");
		}
}

/* 7.4: a sink that refuses chunks (lost bytes, Error, then SYNC=7 at the
 * next record, possibly the first of a block). */
static void test_refusing_sink(void **state)
{
	struct rng r = { 0xbadc0de };
	struct plan p = random_plan;

	(void)state;
	p.flush_permille = 60; /* many sink calls */
	for (unsigned i = 0; i < 60; i++) {
		struct ntrace_enc_config cfg = random_config(&r);

		p.refuse_every = 2 + i % 4;
		p.kind = i % 3 == 2 ? K_PROGRAM : K_RANDOM;
		check(&cfg, &p, 8000 + i, "refusing sink");
	}
}

/* Start, stop (records while stopped are ignored), sync markers and resets,
 * overflow and flush between blocks. */
static void test_calls_between_blocks(void **state)
{
	struct rng r = { 0xca115 };
	struct plan p = random_plan;

	(void)state;
	p.op_permille = 40;
	p.flush_permille = 10;
	for (unsigned i = 0; i < 120; i++) {
		struct ntrace_enc_config cfg = random_config(&r);

		p.kind = i % 3 == 2 ? K_PROGRAM : i % 3 == 1 ? K_LOOP : K_RANDOM;
		check(&cfg, &p, 9000 + i, "calls between blocks");
	}
}

/* Long streams: counters and periodic syncs wrap many times. */
static void test_long_streams(void **state)
{
	struct rng r = { 0x10e6 };
	struct plan p = random_plan;

	(void)state;
	p.records = 40000;
	p.shape.long_runs = 400;
	for (unsigned i = 0; i < 8; i++) {
		struct ntrace_enc_config cfg = random_config(&r);

		p.kind = i % 2 ? K_PROGRAM : K_RANDOM;
		check(&cfg, &p, 10000 + i, "long stream");
	}
}

/* Blocks of exactly 64 records (all 16-bit, all 32-bit, alternating), and
 * blocks fed while trace is stopped or after an overflow. */
static void test_edge_blocks(void **state)
{
	static const uint64_t masks[] = { ~0ull, 0, 0x5555555555555555ull, 0x8000000000000001ull };
	struct ntrace_enc_config cfg = { .trTeInstMode = NTRACE_INST_MODE_HTM, .xlen = 64,
					 .icnt_bits = 8, .trTeInstSyncMode = 3, .trTeContext = true };
	struct stream *s = &S;
	struct cut c = { .max_len = 64, .tamper_byte = SIZE_MAX, .r = { 3 } };

	(void)state;
	stream_free(s);
	for (unsigned k = 0; k < 40; k++) {
		uint64_t a = 0x80000000 + 0x1000 * k, m = masks[k % 4];

		for (unsigned i = 0; i < 64; i++) {
			push(s, a, (m >> i) & 1 ? 2 : 4, RV_ITYPE_NONE, NTRACE_PRV_M, k / 10, k);
			a += (m >> i) & 1 ? 2 : 4;
		}
		push(s, a, 4, k & 1 ? RV_ITYPE_TAKEN_BRANCH : RV_ITYPE_UNINFERABLE_JUMP, NTRACE_PRV_M,
		     k / 10, k);
	}
	s->next_pc = 0x80000000;
	s->ops[s->nops++] = (struct op){ 0, OP_START, NTRACE_SYNC_RESET };
	s->ops[s->nops++] = (struct op){ 65 * 5, OP_STOP, NTRACE_EVCODE_TRACE_DISABLED };
	s->ops[s->nops++] = (struct op){ 65 * 7, OP_START, NTRACE_SYNC_TRACE_ENABLE };
	s->ops[s->nops++] = (struct op){ 65 * 9, OP_OVERFLOW, 0 };
	s->ops[s->nops++] = (struct op){ 65 * 12, OP_SYNC, NTRACE_SYNC_TRACE_EVENT };
	for (unsigned icnt = 2; icnt <= 8; icnt++) {
		cfg.icnt_bits = (uint8_t)icnt;
		for (unsigned max = 0; max < 2; max++) {
			cfg.trTeInstSyncMax = (uint8_t)max;
			if (!blocks_match_records(&cfg, s, &c))
				fail_msg("64-record blocks, I-CNT %u bits: %s", icnt, why);
		}
	}
}

/*
 * Jumps taken inline by the per-record loop.  A stream of pairs "linear
 * instruction at B, uninferable jump at B+4 to the next B" makes every
 * message an IndirectBranch completed by the record after a jump.  When
 * writing that message makes a periodic sync due (trTeInstSyncMode 1, 2)
 * or the sink refuses the bytes (7.4), the sync (SYNC=2) or the Error and
 * SYNC=7 pair goes out at the next record after the completing one: the
 * jump at B+4, with the I-CNT of the instruction at B.  The same whether
 * the records come one per call, all in one call or in odd chunks.
 */
#define PAIR_STRIDE 0x100u

static void jump_pairs(struct stream *s, size_t pairs)
{
	stream_free(s);
	for (size_t k = 0; k < pairs; k++) {
		uint64_t b = 0x80000000u + PAIR_STRIDE * k;

		push(s, b, 4, RV_ITYPE_NONE, NTRACE_PRV_S, 0, 2 * k);
		push(s, b + 4, 4, RV_ITYPE_UNINFERABLE_JUMP, NTRACE_PRV_S, 0, 2 * k + 1);
	}
	s->next_pc = 0x80000000u + PAIR_STRIDE * pairs;
}

/* Sink that refuses the calls whose numbers (from 1) are set in `refuse`. */
struct picky_sink {
	struct bytes b;
	unsigned calls;
	uint32_t refuse;
};

static int picky_write(void *ctx, const uint8_t *data, size_t len)
{
	struct picky_sink *p = ctx;

	if (++p->calls < 32 && (p->refuse >> p->calls) & 1)
		return -1;
	return bytes_sink(&p->b, data, len);
}

/* The stream into an encoder in chunks of `chunk` records (0: all at once). */
static void encode_chunked(const struct ntrace_enc_config *cfg, const struct stream *s, size_t chunk,
			   uint32_t refuse, struct picky_sink *out)
{
	static struct ntrace_encoder e;
	struct ntrace_sink sink = { picky_write, out };

	memset(out, 0, sizeof(*out));
	out->refuse = refuse;
	assert_int_equal(ntrace_enc_init(&e, cfg, &sink), 0);
	ntrace_enc_start(&e, NTRACE_SYNC_TRACE_ENABLE);
	for (size_t i = 0; i < s->n; ) {
		size_t n = chunk && chunk < s->n - i ? chunk : s->n - i;

		ntrace_enc_retire(&e, &s->rec[i], n);
		i += n;
	}
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED, s->next_pc, s->rec[s->n - 1].tstamp + 1);
	ntrace_enc_flush(&e);
}

/* Messages of the bytes an encoder with `cfg` wrote. */
static size_t parse_stream(const struct ntrace_enc_config *cfg, const struct bytes *b,
			   struct ntrace_msg *m, size_t max)
{
	struct ntrace_format fmt = { .xlen = cfg->xlen };
	size_t pos = 0, n = 0;

	for (;;) {
		struct ntrace_error err;
		int rc = ntrace_msg_parse(&fmt, b->data, b->len, &pos, &m[n], &err);

		assert_true(rc >= 0);
		if (rc == 0)
			return n;
		assert_true(++n < max);
	}
}

/* The chunked encodings equal the per-record one; returns its messages. */
static size_t same_in_every_chunking(const struct ntrace_enc_config *cfg, const struct stream *s,
				     uint32_t refuse, struct ntrace_msg *m, size_t max)
{
	static const size_t chunks[] = { 0, 2, 3, 7, 64 };
	struct picky_sink one, other;
	size_t n;

	encode_chunked(cfg, s, 1, refuse, &one);
	for (unsigned k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
		encode_chunked(cfg, s, chunks[k], refuse, &other);
		if (other.b.len != one.b.len || memcmp(other.b.data, one.b.data, one.b.len)) {
			size_t at = 0;

			while (at < one.b.len && at < other.b.len && one.b.data[at] == other.b.data[at])
				at++;
			fail_msg("chunks of %zu records: bytes differ from one record per call at byte %zu",
				 chunks[k], at);
		}
		bytes_free(&other.b);
	}
	n = parse_stream(cfg, &one.b, m, max);
	bytes_free(&one.b);
	return n;
}

static uint64_t faddr(const struct ntrace_msg *m)
{
	return ntrace_field_to_addr(m->val[NTRACE_FLD_FADDR], 64);
}

static void test_periodic_sync_after_an_inline_jump_waits_for_the_next_record(void **state)
{
	static struct ntrace_msg m[4096];
	struct stream *s = &S;

	(void)state;
	jump_pairs(s, 600);
	for (unsigned mode = 1; mode <= 3; mode++)
		for (unsigned htm = 0; htm < 2; htm++) {
			struct ntrace_enc_config cfg = {
				.trTeInstMode = htm ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM,
				.trTeInstSyncMode = (uint8_t)mode, .xlen = 64,
			};
			size_t n = same_in_every_chunking(&cfg, s, 0, m, 4096);
			unsigned periodic = 0;

			for (size_t i = 0; i < n; i++) {
				if (m[i].val[NTRACE_FLD_TCODE] != NTRACE_TCODE_PROG_TRACE_SYNC ||
				    m[i].val[NTRACE_FLD_SYNC] != NTRACE_SYNC_PERIODIC)
					continue;
				periodic++;
				if (mode == NTRACE_SYNC_MODE_HALFWORDS)
					continue; /* due at an I-CNT threshold, not while emitting */
				/* at the jump B+4, after the instruction at B (2 half-words) */
				assert_int_equal(faddr(&m[i]) % PAIR_STRIDE, 4);
				assert_int_equal(m[i].val[NTRACE_FLD_ICNT], 2);
			}
			if (periodic < 10)
				fail_msg("sync mode %u, %s: %u periodic syncs", mode, htm ? "HTM" : "BTM",
					 periodic);
		}
	stream_free(s);
}

static void test_sink_refusal_after_an_inline_jump_restarts_at_the_next_record(void **state)
{
	static struct ntrace_msg m[8192];
	struct stream *s = &S;
	struct ntrace_enc_config cfg = { .trTeInstMode = NTRACE_INST_MODE_HTM, .xlen = 64 };
	unsigned errors = 0;

	(void)state;
	/* every message is an IndirectBranch of 2-3 bytes: the 1 KiB buffer is
	 * handed over every few hundred pairs, always while writing one */
	jump_pairs(s, 3000);
	size_t n = same_in_every_chunking(&cfg, s, 1u << 2 | 1u << 5, m, 8192);

	for (size_t i = 0; i + 1 < n; i++) {
		if (m[i].val[NTRACE_FLD_TCODE] != NTRACE_TCODE_ERROR)
			continue;
		errors++;
		assert_int_equal(m[i].val[NTRACE_FLD_ECODE], NTRACE_ECODE_PROGRAM_LOST);
		assert_int_equal(m[i + 1].val[NTRACE_FLD_TCODE], NTRACE_TCODE_PROG_TRACE_SYNC);
		assert_int_equal(m[i + 1].val[NTRACE_FLD_SYNC], NTRACE_SYNC_FIFO_OVERRUN);
		assert_int_equal(m[i + 1].val[NTRACE_FLD_ICNT], 0);
		assert_int_equal(faddr(&m[i + 1]) % PAIR_STRIDE, 4);
	}
	assert_int_equal(errors, 2);
	stream_free(s);
}

/* 7.1 with trTeContext: the record an uninferable jump goes to may be in
 * another privilege or context (no trap return between): the jump's
 * message and then Ownership go out, never the message alone with the
 * record counted inline (ntrace_enc_resolve_jump(), the fast visit's
 * model). */
static void test_owner_change_at_a_jump_target(void **state)
{
	struct ntrace_enc_config cfg = { .trTeInstMode = NTRACE_INST_MODE_HTM, .trTeContext = true,
					 .xlen = 64 };
	struct stream *s = &S;

	(void)state;
	jump_pairs(s, 3000);
	for (size_t k = 0; k < 3000; k += 2) {
		/* every other pair in U-mode, every third in another context */
		s->rec[2 * k].priv = NTRACE_PRV_U;
		s->rec[2 * k + 1].priv = NTRACE_PRV_U;
		if (k % 3 == 0)
			s->rec[2 * k].context = s->rec[2 * k + 1].context = 1 + k % 5;
	}
	for (uint32_t seed = 1; seed <= 8; seed++) {
		struct cut c = { .max_len = 64, .tamper_byte = SIZE_MAX, .r = { seed } };

		if (!blocks_match_records(&cfg, s, &c))
			fail_msg("seed %u: %s", seed, why);
	}
	stream_free(s);

	/* ntrace_enc_resolve_jump() itself: not for a record in another
	 * privilege or context (nothing changed), then for one in the same */
	static struct ntrace_encoder before;
	struct ntrace_encoder *e = &blk.enc;
	struct ntrace_retired jump[] = {
		{ .addr = 0x80000000u, .size = 4, .priv = NTRACE_PRV_S },
		{ .addr = 0x80000004u, .size = 4, .itype = RV_ITYPE_UNINFERABLE_JUMP, .priv = NTRACE_PRV_S },
	};

	side_init(&blk, &cfg, 0);
	ntrace_enc_start(e, NTRACE_SYNC_TRACE_ENABLE);
	ntrace_enc_retire(e, jump, 2);
	assert_int_equal(e->run.pending, NTRACE_PEND_INDIRECT);
	memcpy(&before, e, sizeof(before));
	assert_false(ntrace_enc_resolve_jump(e, 0x80001000u, NTRACE_PRV_U, 0));
	assert_false(ntrace_enc_resolve_jump(e, 0x80001000u, NTRACE_PRV_S, 3));
	assert_memory_equal(&before, e, sizeof(before));
	assert_true(ntrace_enc_resolve_jump(e, 0x80001000u, NTRACE_PRV_S, 0));
	assert_int_equal(e->run.slow, 0);
}

/* The comparison is real: one flipped bit in one byte the block side
 * writes, anywhere in the stream, is reported. */
static void test_comparison_detects_one_changed_byte(void **state)
{
	struct rng r = { 0xfeed };
	struct ntrace_enc_config cfg = { .trTeInstMode = NTRACE_INST_MODE_HTM, .xlen = 64 };
	struct stream *s = &S;
	struct cut c = { .max_len = 64, .tamper_byte = SIZE_MAX, .r = { 5 } };
	size_t len;

	(void)state;
	build(s, &cfg, &random_plan, &r);
	assert_true(blocks_match_records(&cfg, s, &c));
	len = blk.sink.b.len;
	assert_true(len > 100);
	for (size_t at = 0; at < len; at += 1 + at / 3) {
		c.tamper_byte = at;
		c.r.s = 5;
		if (blocks_match_records(&cfg, s, &c))
			fail_msg("a changed byte %zu of %zu was not detected", at, len);
	}
}

/* The suite did exercise what it claims (guards against generators that
 * silently stop producing blocks or chunks). */
static void test_coverage_counts(void **state)
{
	(void)state;
	print_message("%u streams compared in blocks, %u also in random chunks\n", tested_streams,
		      tested_chunks);
	assert_true(tested_streams > 1000);
	assert_true(tested_chunks == tested_streams);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_path_equals_record_path_for_random_configurations),
		cmocka_unit_test(test_icnt_overflow_inside_blocks),
		cmocka_unit_test(test_periodic_sync_inside_blocks),
		cmocka_unit_test(test_privilege_and_context_changes),
		cmocka_unit_test(test_implicit_return_and_jump_options),
		cmocka_unit_test(test_repeated_history_and_repeat_branch),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_address_and_field_options),
		cmocka_unit_test(test_refusing_sink),
		cmocka_unit_test(test_calls_between_blocks),
		cmocka_unit_test(test_long_streams),
		cmocka_unit_test(test_edge_blocks),
		cmocka_unit_test(test_periodic_sync_after_an_inline_jump_waits_for_the_next_record),
		cmocka_unit_test(test_sink_refusal_after_an_inline_jump_restarts_at_the_next_record),
		cmocka_unit_test(test_owner_change_at_a_jump_target),
		cmocka_unit_test(test_comparison_detects_one_changed_byte),
		cmocka_unit_test(test_coverage_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

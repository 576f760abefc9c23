// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace encoder: Trace Ingress Port records in, MDO/MSEO messages out.
 *
 * Every address-carrying message is deferred to the next record, whose
 * address is the jump target / trap handler (Table 3: "An address emitted is
 * known at the next ingress port cycle").  The common case, a linear
 * instruction with nothing pending, only adds to I-CNT (ntrace_enc_retire).
 */
#include <stddef.h>
#include <string.h>

#include "ntrace.h"
#include "ntrace_internal.h"

/* What the next record's address completes: enum ntrace_enc_pending
 * (ntrace.h), in struct ntrace_encoder.run.pending. */
#define PEND_NONE         NTRACE_PEND_NONE
#define PEND_START        NTRACE_PEND_START
#define PEND_DIRECT       NTRACE_PEND_DIRECT
#define PEND_INDIRECT     NTRACE_PEND_INDIRECT
#define PEND_RETURN_CHECK NTRACE_PEND_RETURN_CHECK
#define PEND_ICNT_SYNC    NTRACE_PEND_ICNT_SYNC

#define NO_ADDR (~0ull)
#define MAX_REPEAT NTRACE_MAX_REPEAT /* B-CNT / HREPEAT: 18-bit fields */
#define SYNC_NONE 0xFF

/* ------------------------------------------------------------ output */

static void sink_overflow(struct ntrace_encoder *e, size_t n)
{
	e->stats.lost_bytes += n;
	e->overflowed = 1;
	e->run.slow = 1;
}

int ntrace_enc_flush(struct ntrace_encoder *e)
{
	int rc = 0;

	if (e->buf_len && e->sink.write && e->sink.write(e->sink.ctx, e->buf, e->buf_len)) {
		sink_overflow(e, e->buf_len);
		rc = -NTRACE_ERR_SINK;
	}
	e->buf_len = 0;
	return rc;
}

static void recompute_icnt_check(struct ntrace_encoder *e);

/* A message of n bytes went into the buffer: its statistics. */
static inline __attribute__((always_inline)) void
count_msg(struct ntrace_encoder *e, unsigned tcode, uint32_t n)
{
	e->buf_len += n;
	e->stats.bytes += n;
	e->stats.messages++;
	e->stats.per_tcode[tcode & 63]++;
}

/* ... and the periodic sync it may make due (message count, cycles). */
static inline __attribute__((always_inline)) void
account_msg(struct ntrace_encoder *e, unsigned tcode, uint32_t n, uint64_t tstamp)
{
	count_msg(e, tcode, n);
	if (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_MESSAGES && ++e->sync_count >= e->sync_limit)
		e->sync_due = 1;
	if (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_CYCLES &&
	    tstamp - e->sync_tstamp >= e->sync_limit)
		e->sync_due = 1;
	if (e->sync_due)
		e->run.slow = 1;
}

/* Write one complete message: SRC and TSTAMP are added here (8.7: absolute
 * on synchronisation messages, relative to the last reported otherwise).
 * v[] holds the field values indexed by enum ntrace_field. */
static inline __attribute__((always_inline)) void
write_msg(struct ntrace_encoder *e, unsigned tcode, uint64_t *v, uint64_t tstamp)
{
	int n;

	v[NTRACE_FLD_SRC] = e->cfg.trTeSrcID;
	v[NTRACE_FLD_TSTAMP] = 0;
	if (e->cfg.trTsEnable) {
		v[NTRACE_FLD_TSTAMP] = ntrace_is_sync_tcode(tcode) ? tstamp : tstamp - e->last_tstamp;
		e->last_tstamp = tstamp;
	}
	if (e->buf_len + NTRACE_WRITE_MAX > NTRACE_ENC_BUF_SIZE)
		ntrace_enc_flush(e);
	if (e->overflowed)
		return; /* after lost bytes only Error + SYNC=7 may follow (7.4) */
	/* constant tcode at every call site: the writer is specialised */
	n = ntrace_write_layout(&e->fmt, ntrace_layout_of(tcode), v, e->cfg.trTsEnable,
				e->buf + e->buf_len);
	account_msg(e, tcode, (uint32_t)n, tstamp);
}

static void emit_resource_full(struct ntrace_encoder *e, unsigned rcode, uint64_t rdata,
			       uint32_t hrepeat, uint64_t tstamp)
{
	uint64_t v[NTRACE_FLD_COUNT] = { 0 };

	v[NTRACE_FLD_RCODE] = rcode;
	v[NTRACE_FLD_RDATA] = rdata;
	v[NTRACE_FLD_HREPEAT] = hrepeat; /* written only with RCODE=2 */
	write_msg(e, NTRACE_TCODE_RESOURCE_FULL, v, tstamp);
}

/* 9.3: a held HIST overflow goes out as RCODE=1 (seen once) or RCODE=2
 * with HREPEAT = number of identical HIST records. */
static void flush_held_hist(struct ntrace_encoder *e)
{
	uint32_t n = e->held_count;

	if (!n)
		return;
	e->held_count = 0;
	e->run.hist_limit = e->hist_full;
	if (n == 1)
		emit_resource_full(e, NTRACE_RCODE_HIST, e->held_hist, 0, e->held_tstamp);
	else
		emit_resource_full(e, NTRACE_RCODE_HIST_REPEAT, e->held_hist, n, e->held_tstamp);
}

/* 7.11: identical branch messages in a row are counted in one RepeatBranch. */
static void flush_repeat_branch(struct ntrace_encoder *e, uint64_t tstamp)
{
	uint64_t v[NTRACE_FLD_COUNT] = { 0 };

	if (!e->repeat_count)
		return;
	v[NTRACE_FLD_BCNT] = e->repeat_count;
	e->repeat_count = 0;
	write_msg(e, NTRACE_TCODE_REPEAT_BRANCH, v, tstamp);
}

/* Anything held back for compression goes out before another message, so
 * the order of messages is the order of events. */
static void flush_held(struct ntrace_encoder *e, uint64_t tstamp);
static void hist_uncut(struct ntrace_encoder *e);

/* emit() when something is held back, the buffer may be full or bytes
 * were lost: the message type is a variable here. */
static __attribute__((noinline)) void emit_general(struct ntrace_encoder *e, unsigned tcode,
						   uint64_t *v, uint64_t tstamp)
{
	if (e->held_count | e->repeat_count)
		flush_held(e, tstamp);
	e->repeat_tcode = 0;
	write_msg(e, tcode, v, tstamp);
}

/* The common case (nothing held, room in the buffer, no bytes lost) makes
 * no call: write_msg()'s flush and its check of lost bytes fold away. */
static inline __attribute__((always_inline)) void
emit(struct ntrace_encoder *e, unsigned tcode, uint64_t *v, uint64_t tstamp)
{
	if (__builtin_expect(e->held_count | e->repeat_count | e->overflowed |
			     (e->buf_len + NTRACE_WRITE_MAX > NTRACE_ENC_BUF_SIZE), 0)) {
		emit_general(e, tcode, v, tstamp);
		return;
	}
	e->repeat_tcode = 0;
	write_msg(e, tcode, v, tstamp);
}

static void flush_held(struct ntrace_encoder *e, uint64_t tstamp)
{
	flush_held_hist(e);
	flush_repeat_branch(e, tstamp);
}

/* emit() for the message types that can reach it, one specialised writer
 * each: the branch messages (emit_branch(), once a visit of the firmware's
 * stepper: no dispatch), then the sync messages (emit_sync()). */
static __attribute__((noinline)) void emit_indirect_hist(struct ntrace_encoder *e, uint64_t *v,
							  uint64_t tstamp)
{
	emit(e, NTRACE_TCODE_INDIRECT_BRANCH_HIST, v, tstamp);
}

static __attribute__((noinline)) void emit_indirect(struct ntrace_encoder *e, uint64_t *v,
						     uint64_t tstamp)
{
	emit(e, NTRACE_TCODE_INDIRECT_BRANCH, v, tstamp);
}

static __attribute__((noinline)) void emit_direct(struct ntrace_encoder *e, uint64_t *v,
						   uint64_t tstamp)
{
	emit(e, NTRACE_TCODE_DIRECT_BRANCH, v, tstamp);
}

static void emit_sync_tcode(struct ntrace_encoder *e, unsigned tcode, uint64_t *v, uint64_t tstamp)
{
	switch (tcode) {
	case NTRACE_TCODE_PROG_TRACE_SYNC:
		emit(e, NTRACE_TCODE_PROG_TRACE_SYNC, v, tstamp);
		break;
	case NTRACE_TCODE_DIRECT_BRANCH_SYNC:
		emit(e, NTRACE_TCODE_DIRECT_BRANCH_SYNC, v, tstamp);
		break;
	case NTRACE_TCODE_INDIRECT_BRANCH_SYNC:
		emit(e, NTRACE_TCODE_INDIRECT_BRANCH_SYNC, v, tstamp);
		break;
	default:
		emit(e, NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC, v, tstamp);
		break;
	}
}

/* ------------------------------------------------------------ state */

static void stack_reset(struct ntrace_encoder *e)
{
	e->stack_count = 0;
	e->stack_top = 0;
}

static void stack_push(struct ntrace_encoder *e, uint64_t v)
{
	unsigned depth = e->cfg.call_stack_depth;

	e->stack_top = (uint8_t)((e->stack_top + 1) % depth);
	e->stack[e->stack_top] = v;
	if (e->stack_count < depth)
		e->stack_count++; /* when full the oldest entry is overwritten */
}

static bool stack_pop(struct ntrace_encoder *e, uint64_t *v)
{
	unsigned depth = e->cfg.call_stack_depth;

	if (!e->stack_count)
		return false;
	*v = e->stack[e->stack_top];
	e->stack_top = (uint8_t)((e->stack_top + depth - 1) % depth);
	e->stack_count--;
	return true;
}


/* I-CNT was transmitted (or reset): 8.4.3. */
static inline __attribute__((always_inline)) void reset_icnt(struct ntrace_encoder *e)
{
	bool halfwords = e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_HALFWORDS;

	e->stats.halfwords += e->run.icnt;
	if (halfwords)
		e->sync_count += e->run.icnt;
	e->run.icnt = 0;
	/* (in the other modes icnt_check depends on I-CNT's width only) */
	if (halfwords)
		recompute_icnt_check(e);
}

/* Slow path is needed once I-CNT reaches the overflow marker (Table 10: the
 * MSB of the counter) or the half-word periodic sync threshold. */
static void recompute_icnt_check(struct ntrace_encoder *e)
{
	uint64_t check = 1ull << (e->cfg.icnt_bits - 1);

	if (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_HALFWORDS) {
		uint64_t left = e->sync_count >= e->sync_limit ? 1 : e->sync_limit - e->sync_count;

		if (left < check)
			check = left;
	}
	e->run.icnt_check = (uint32_t)check;
}

static void restart_sync_counter(struct ntrace_encoder *e, uint64_t tstamp)
{
	e->sync_count = 0;
	e->sync_due = 0;
	e->sync_tstamp = tstamp; /* start of the cycle-count interval */
	recompute_icnt_check(e);
}

static uint64_t encode_addr_ref(struct ntrace_encoder *e, uint64_t addr)
{
	uint64_t u;

	addr = rv_xlen_mask(addr, e->fmt.xlen);
	u = ntrace_addr_to_field(addr ^ e->ref_addr);

	e->ref_addr = addr; /* 8.1: every address becomes the new reference */
	return u;
}

static void emit_ownership(struct ntrace_encoder *e, unsigned format, uint8_t priv,
			   uint64_t context, uint64_t tstamp)
{
	uint64_t v[NTRACE_FLD_COUNT] = { 0 };
	uint64_t process = format | (uint64_t)(priv & 3) << 2 | (uint64_t)((priv >> 2) & 1) << 4;

	if (format >= NTRACE_PROCESS_FORMAT_SCONTEXT)
		process |= (context & ((1ull << 59) - 1)) << 5;
	v[NTRACE_FLD_PROCESS] = process;
	write_msg(e, NTRACE_TCODE_OWNERSHIP, v, tstamp);
}

/*
 * Emit the synchronisation message that carries F-ADDR = addr.  `tcode` is
 * the message type; sync messages reset HIST and I-CNT like any message and,
 * for most SYNC codes, the call stack (9.2) and the periodic counter.
 */
static void emit_sync(struct ntrace_encoder *e, unsigned tcode, unsigned sync, unsigned btype,
		      uint64_t addr, uint64_t tstamp)
{
	uint64_t *v = e->msgv; /* no clearing: the writer reads only the layout's fields */

	addr = rv_xlen_mask(addr, e->fmt.xlen);
	v[NTRACE_FLD_SYNC] = sync;
	v[NTRACE_FLD_BTYPE] = btype;
	v[NTRACE_FLD_ICNT] = e->run.icnt;
	v[NTRACE_FLD_FADDR] = ntrace_addr_to_field(addr);
	v[NTRACE_FLD_HIST] = e->run.hist;
	emit_sync_tcode(e, tcode, v, tstamp);
	e->ref_addr = addr;
	e->run.hist = 1;
	reset_icnt(e);
	e->block_start = addr;
	if (sync == e->sync_reason) {
		e->sync_due = 0; /* a requested marker (or periodic sync) went out */
		e->sync_reason = NTRACE_SYNC_PERIODIC;
	}
	if (ntrace_sync_resets_state(sync)) {
		stack_reset(e);
		restart_sync_counter(e, tstamp);
	}
	if (e->cfg.trTeContext)
		e->need_ownership = 2; /* 7.1: Ownership with context after every sync */
}

/* Sync message at an arbitrary point (periodic, I-CNT overflow): HTM with
 * branch history uses IndirectBranchHistSync (8.4.4 example), otherwise
 * ProgTraceSync with the I-CNT so far. */
static void emit_standalone_sync(struct ntrace_encoder *e, unsigned sync, uint64_t addr,
				 uint64_t tstamp)
{
	if (e->held_cut)
		hist_uncut(e);
	if (e->htm && e->run.hist != 1)
		emit_sync(e, NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC, sync, NTRACE_BTYPE_INDIRECT, addr,
			  tstamp);
	else
		emit_sync(e, NTRACE_TCODE_PROG_TRACE_SYNC, sync, 0, addr, tstamp);
}

/* BTM RepeatBranch: same message type, I-CNT, block start and target as the
 * previous branch message means the decoder can replay it (7.11). */
static bool try_repeat(struct ntrace_encoder *e, unsigned tcode, uint64_t target)
{
	if (!e->cfg.trTeInstEnRepeatedHistory || e->htm)
		return false;
	if (e->repeat_tcode == tcode && e->repeat_icnt == e->run.icnt && e->repeat_start == e->block_start &&
	    e->repeat_target == target && e->block_start != NO_ADDR && e->repeat_count < MAX_REPEAT) {
		e->repeat_count++;
		return true;
	}
	return false;
}

static void remember_branch(struct ntrace_encoder *e, unsigned tcode, uint64_t target)
{
	if (!e->cfg.trTeInstEnRepeatedHistory || e->htm)
		return;
	e->repeat_tcode = (uint8_t)tcode;
	e->repeat_icnt = e->run.icnt;
	e->repeat_start = e->block_start;
	e->repeat_target = target;
}

/* A branch message completed by the next record's address `addr`. */
static __attribute__((noinline)) void emit_branch_general(struct ntrace_encoder *e, bool direct,
							  unsigned btype, uint64_t addr,
							  uint64_t tstamp)
{
	uint64_t *v = e->msgv; /* no clearing: the writer reads only the layout's fields */
	unsigned tcode;

	if (e->held_cut)
		hist_uncut(e);
	if (e->sync_due) {
		/* Periodic sync rides on the branch message (Table 25, SYNC=2). */
		if (direct)
			tcode = NTRACE_TCODE_DIRECT_BRANCH_SYNC;
		else if (e->htm && e->run.hist != 1)
			tcode = NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC;
		else
			tcode = NTRACE_TCODE_INDIRECT_BRANCH_SYNC;
		emit_sync(e, tcode, e->sync_reason, btype, addr, tstamp);
		return;
	}
	if (direct) {
		tcode = NTRACE_TCODE_DIRECT_BRANCH;
	} else if (e->htm && e->run.hist != 1) {
		tcode = NTRACE_TCODE_INDIRECT_BRANCH_HIST;
	} else {
		/* rule 4 of chapter 10: IndirectBranch allowed when HIST is empty */
		tcode = NTRACE_TCODE_INDIRECT_BRANCH;
	}
	if (btype == NTRACE_BTYPE_INDIRECT && try_repeat(e, tcode, addr)) {
		reset_icnt(e);
		e->block_start = addr;
		return;
	}
	v[NTRACE_FLD_BTYPE] = btype;
	v[NTRACE_FLD_ICNT] = e->run.icnt;
	if (!direct)
		v[NTRACE_FLD_UADDR] = encode_addr_ref(e, addr);
	v[NTRACE_FLD_HIST] = e->run.hist;
	if (tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST)
		emit_indirect_hist(e, v, tstamp);
	else if (tcode == NTRACE_TCODE_INDIRECT_BRANCH)
		emit_indirect(e, v, tstamp);
	else
		emit_direct(e, v, tstamp);
	if (btype == NTRACE_BTYPE_INDIRECT)
		remember_branch(e, tcode, addr);
	e->run.hist = 1;
	reset_icnt(e);
	e->block_start = addr;
	if (btype != NTRACE_BTYPE_INDIRECT && e->cfg.trTeContext && !e->need_ownership)
		e->need_ownership = 1; /* 7.1: around exceptions and interrupts */
}

/* A variable field from a byte boundary at p (ntrace_put_var() with no
 * pending bits, which folds to the bytes alone); returns its end. */
static inline __attribute__((always_inline)) uint8_t *put_var_at(uint8_t *p, uint64_t v)
{
	struct ntrace_bit_writer w = { .p = p };

	ntrace_put_var(&w, v);
	return w.p;
}

/* What write_branch_now() needs of the encoder's state: nothing held back
 * or due (no HIST cut, sync, RepeatBranch or lost bytes), room in the
 * buffer. */
static inline __attribute__((always_inline)) bool
branch_state_ok(const struct ntrace_encoder *e)
{
	return !(e->held_cut | e->sync_due | e->held_count | e->repeat_count | e->overflowed) &&
	       e->buf_len + NTRACE_WRITE_MAX <= NTRACE_ENC_BUF_SIZE;
}

/*
 * emit_branch_general() when branch_state_ok() and the messages have
 * neither SRC nor TSTAMP nor extended addresses: the same message and
 * state, its bytes written in place (write_branch_now()).  This is the
 * visit of the firmware's stepper that completes a jump: its most common
 * message.  (plain_msgs, set once a session, holds more than this.)
 */
static inline __attribute__((always_inline)) bool
branch_now_ok(const struct ntrace_encoder *e, unsigned btype)
{
	return branch_state_ok(e) &&
	       !(e->fmt.src_bits | e->fmt.extend_addr_msb | e->cfg.trTsEnable) &&
	       !(e->cfg.trTeInstEnRepeatedHistory && !e->htm) &&
	       !(btype != NTRACE_BTYPE_INDIRECT && e->cfg.trTeContext);
}

/*
 * The branch message of emit_branch_now(): a TCODE takes exactly one
 * byte, so every variable field starts on a byte boundary, B-TYPE (2 bits)
 * riding in the low bits of I-CNT's (Table 8 layouts: DirectBranch =
 * I-CNT; IndirectBranch = B-TYPE, I-CNT, U-ADDR; IndirectBranchHist =
 * those and HIST).  plain (a constant): e->plain_msgs holds, so what only
 * periodic sync or XLEN 32 need folds away.
 */
static inline __attribute__((always_inline)) void
write_branch_now(struct ntrace_encoder *e, bool direct, unsigned btype, uint64_t addr,
		 uint64_t tstamp, const bool plain)
{
	uint8_t *start = e->buf + e->buf_len, *p;
	unsigned tcode;
	uint32_t n;

	if (direct) {
		tcode = NTRACE_TCODE_DIRECT_BRANCH;
		start[0] = (uint8_t)(tcode << 2);
		p = put_var_at(start + 1, e->run.icnt);
	} else {
		/* rule 4 of chapter 10: IndirectBranch allowed when HIST is empty */
		bool hist = e->htm && e->run.hist != 1;

		tcode = hist ? NTRACE_TCODE_INDIRECT_BRANCH_HIST : NTRACE_TCODE_INDIRECT_BRANCH;
		start[0] = (uint8_t)(tcode << 2);
		p = put_var_at(start + 1, (btype & 3) | (uint64_t)e->run.icnt << 2);
		if (plain) {
			/* encode_addr_ref() at XLEN 64 */
			p = put_var_at(p, ntrace_addr_to_field(addr ^ e->ref_addr));
			e->ref_addr = addr;
		} else {
			p = put_var_at(p, encode_addr_ref(e, addr));
		}
		if (hist)
			p = put_var_at(p, e->run.hist);
	}
	p[-1] |= NTRACE_MSEO_END_MSG;
	n = (uint32_t)(p - start);
	e->repeat_tcode = 0;
	if (plain) {
		/* account_msg() and reset_icnt() with no periodic sync */
		count_msg(e, tcode, n);
		e->stats.halfwords += e->run.icnt;
		e->run.icnt = 0;
	} else {
		account_msg(e, tcode, n, tstamp);
		reset_icnt(e);
	}
	e->run.hist = 1;
	e->block_start = addr;
}

/* False, with nothing changed, when it does not apply. */
static inline __attribute__((always_inline)) bool
emit_branch_now(struct ntrace_encoder *e, bool direct, unsigned btype, uint64_t addr,
		uint64_t tstamp)
{
	if (!branch_now_ok(e, btype))
		return false;
	write_branch_now(e, direct, btype, addr, tstamp, false);
	return true;
}

static void emit_branch(struct ntrace_encoder *e, bool direct, unsigned btype, uint64_t addr,
			uint64_t tstamp)
{
	if (emit_branch_now(e, direct, btype, addr, tstamp))
		return;
	emit_branch_general(e, direct, btype, addr, tstamp);
}

/* ResourceFull RCODE=1: the HIST record h (with its stop bit). */
static void emit_hist_record(struct ntrace_encoder *e, uint32_t h, uint64_t tstamp)
{
	uint64_t *v = e->msgv; /* no clearing: the writer reads only RCODE=1's fields */

	v[NTRACE_FLD_RCODE] = NTRACE_RCODE_HIST;
	v[NTRACE_FLD_RDATA] = h;
	emit(e, NTRACE_TCODE_RESOURCE_FULL, v, tstamp);
}

/* Hold the HIST record h (with its stop bit) for repeat detection (9.3). */
static void hist_hold(struct ntrace_encoder *e, uint32_t h, uint64_t tstamp)
{
	if (e->held_count && e->held_hist == h && e->held_count < MAX_REPEAT) {
		e->held_count++;
		return;
	}
	flush_held_hist(e);
	flush_repeat_branch(e, tstamp);
	e->held_hist = h;
	e->held_count = 1;
	e->held_cut = 0;
	e->held_tstamp = tstamp;
}

/*
 * The length of the first record of a full HIST register of `bits` bits
 * (value h with its stop bit) under repeated history.  9.3 leaves open how
 * repeats are found: when the branch pattern is periodic with a period p
 * that does not divide `bits` (a loop of 3 branches in a 31-bit register),
 * full records are rotations of each other and never repeat, so only the
 * largest multiple of p that fits is sent; the records after it then match
 * it while the pattern lasts.  Only periods seen at least twice count.
 */
static unsigned hist_record_bits(uint32_t h, unsigned bits)
{
	uint32_t x = h & ((1u << bits) - 1);

	for (unsigned p = 1; p < bits; p++) {
		uint32_t low = (1u << (bits - p)) - 1;

		if ((((x >> p) ^ x) & low) == 0)
			return bits - bits % p;
	}
	return bits;
}

/*
 * Undo the cut of the held record (seen once): it and the bits in HIST
 * after it become one run again, sent as a full record and the rest in
 * HIST, or all in HIST when they fit.  Called when the record did not
 * repeat and before a message takes HIST, so a cut that found no repeat
 * costs nothing.
 */
static void hist_uncut(struct ntrace_encoder *e)
{
	unsigned bits = e->cfg.hist_bits - 1u, held_len = bits - e->held_cut;
	unsigned len = 31u - (unsigned)__builtin_clz(e->run.hist), total = held_len + len;
	uint64_t run = (uint64_t)(e->held_hist ^ (1u << held_len)) << len | (e->run.hist ^ (1u << len));

	e->held_cut = 0;
	e->run.hist_limit = e->hist_full;
	if (total <= bits) {
		e->held_count = 0;
		e->run.hist = (uint32_t)((1ull << total) | run);
		return;
	}
	e->held_hist = (uint32_t)((1ull << bits) | run >> (total - bits));
	e->run.hist = (uint32_t)((1ull << (total - bits)) | (run & ((1ull << (total - bits)) - 1)));
}

/*
 * A full record held once and the full register after it: when the 2 x
 * `bits` run starts with a record of len < bits seen twice (a loop whose
 * period does not divide the register that began inside the held record),
 * that record is held twice instead and the rest stays in HIST.  Only
 * lengths whose rest is shorter than the record are tried, so the next
 * compare happens at the limit as usual.
 */
static bool hist_repeat_across(struct ntrace_encoder *e, uint32_t h)
{
	unsigned bits = e->cfg.hist_bits - 1u;

	if (e->held_count != 1 || e->held_cut || !(e->held_hist & e->hist_full))
		return false;
	uint64_t run = (uint64_t)(e->held_hist ^ e->hist_full) << bits | (h ^ e->hist_full);
	for (unsigned len = bits - 1; 3 * len > 2 * bits; len--) {
		unsigned rest = 2 * bits - 2 * len;
		uint64_t first = run >> (2 * bits - len), second = (run >> rest) & ((1ull << len) - 1);

		if (first != second)
			continue;
		e->held_hist = (uint32_t)((1ull << len) | first);
		e->held_count = 2;
		e->run.hist = (uint32_t)((1ull << rest) | (run & ((1ull << rest) - 1)));
		e->run.hist_limit = 1u << len;
		return true;
	}
	return false;
}

/*
 * The HIST register reached e->run.hist_limit (8.3.1: full when its stop bit
 * reached the MSB).  With repeated history and a held record shorter than
 * the register, the limit is that record's length: a match counts one more
 * repeat; otherwise the register fills up before anything is decided.
 */
static void hist_overflow(struct ntrace_encoder *e, uint64_t tstamp)
{
	uint32_t h = e->run.hist;
	unsigned bits = e->cfg.hist_bits - 1u, keep;

	if (!e->cfg.trTeInstEnRepeatedHistory) {
		e->run.hist = 1;
		emit_hist_record(e, h, tstamp);
		return;
	}
	if (e->held_count && e->held_hist == h && e->held_count < MAX_REPEAT) {
		e->held_count++;
		e->held_cut = 0;
		e->run.hist = 1;
		return;
	}
	if (!(h & e->hist_full)) {
		/* A shorter record did not repeat: right after the cut that
		 * made it, the cut is undone. */
		if (e->held_cut)
			hist_uncut(e);
		e->run.hist_limit = e->hist_full;
		return;
	}
	if (hist_repeat_across(e, h))
		return;
	keep = bits - hist_record_bits(h, bits);
	hist_hold(e, (h >> keep), tstamp);
	e->held_cut = e->held_count == 1 ? (uint8_t)keep : 0;
	e->run.hist = (1u << keep) | (h & ((1u << keep) - 1));
	e->run.hist_limit = 1u << (bits - keep);
}

static void add_hist_bit(struct ntrace_encoder *e, unsigned bit, uint64_t tstamp)
{
	if (e->run.hist & e->run.hist_limit)
		hist_overflow(e, tstamp);
	e->run.hist = (e->run.hist << 1) | bit; /* 8.3: LSB is the latest branch */
}

static void update_slow(struct ntrace_encoder *e)
{
	e->run.slow = !e->active || e->run.pending || e->sync_due || e->overflowed;
}

/* I-CNT reached the slow-path threshold with no message pending. */
static void icnt_limit(struct ntrace_encoder *e, uint64_t tstamp)
{
	if (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_HALFWORDS &&
	    e->sync_count + e->run.icnt >= e->sync_limit)
		e->sync_due = 1;
	if (e->run.icnt >= (1u << (e->cfg.icnt_bits - 1))) {
		/* 8.4.4: overflow marker (MSB) set; the count includes this record */
		if (e->htm && e->run.hist != 1 && e->cfg.icnt_overflow_sync) {
			e->run.pending = PEND_ICNT_SYNC;
			e->run.pending_tstamp = tstamp;
		} else {
			uint64_t *v = e->msgv; /* the writer reads only RCODE=0's fields */

			if (e->held_cut)
				hist_uncut(e);
			if (e->htm && e->run.hist != 1) {
				/* HIST bits precede the I-CNT ones */
				if (e->cfg.trTeInstEnRepeatedHistory)
					hist_hold(e, e->run.hist, tstamp);
				else
					emit_hist_record(e, e->run.hist, tstamp);
				e->run.hist = 1;
			}
			v[NTRACE_FLD_RCODE] = NTRACE_RCODE_ICNT;
			v[NTRACE_FLD_RDATA] = e->run.icnt;
			emit(e, NTRACE_TCODE_RESOURCE_FULL, v, tstamp);
			reset_icnt(e);
			e->block_start = NO_ADDR;
		}
	}
	update_slow(e);
}

static bool return_matches(const struct ntrace_encoder *e, uint64_t expected, uint64_t actual)
{
	if (e->cfg.trTeInstImplicitReturnMode == NTRACE_IMPLICIT_RETURN_PARTIAL) {
		uint64_t mask = (1ull << e->cfg.return_partial_bits) - 1;

		return ((expected ^ actual) & mask) == 0;
	}
	return expected == actual;
}

/* The jump message waiting (pending p) for the next record's address:
 * an IndirectBranch[Hist], or for a 9.2 return only when it did not go
 * where the stack said (Table 4's "if Pop returns the same address ...
 * emit" is read as the opposite, as chapter 9.2 requires). */
static void emit_waiting_jump(struct ntrace_encoder *e, unsigned p, uint64_t addr)
{
	if (p != PEND_RETURN_CHECK)
		emit_branch(e, false, e->run.pending_btype, addr, e->run.pending_tstamp);
	else if (!return_matches(e, e->pending_return_addr, addr))
		emit_branch(e, false, NTRACE_BTYPE_INDIRECT, addr, e->run.pending_tstamp);
}

static void resolve_pending(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	unsigned p = e->run.pending;

	e->run.pending = PEND_NONE;
	switch (p) {
	case PEND_START:
		emit_sync(e, NTRACE_TCODE_PROG_TRACE_SYNC, e->pending_sync, 0, r->addr, r->tstamp);
		break;
	case PEND_DIRECT:
		emit_branch(e, true, NTRACE_BTYPE_INDIRECT, r->addr, e->run.pending_tstamp);
		break;
	case PEND_INDIRECT:
	case PEND_RETURN_CHECK:
		emit_waiting_jump(e, p, r->addr);
		break;
	case PEND_ICNT_SYNC:
		emit_standalone_sync(e, e->sync_due ? e->sync_reason : NTRACE_SYNC_ICNT, r->addr,
				     e->run.pending_tstamp);
		break;
	default:
		break;
	}
}

static void set_pending(struct ntrace_encoder *e, unsigned kind, unsigned btype, uint64_t tstamp)
{
	e->run.pending = (uint8_t)kind;
	e->run.pending_btype = (uint8_t)btype;
	e->run.pending_tstamp = tstamp;
}

static void taken_branch(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	if (e->htm)
		add_hist_bit(e, 1, r->tstamp);
	else
		set_pending(e, PEND_DIRECT, 0, r->tstamp);
}

/* 9.2 returns (itype 13) and co-routine swaps (itype 12). */
static void implicit_return(struct ntrace_encoder *e, const struct ntrace_retired *r, bool swap)
{
	uint64_t expected;
	bool had = stack_pop(e, &expected);

	if (swap)
		stack_push(e, r->addr + r->size);
	if (!had)
		set_pending(e, PEND_INDIRECT, NTRACE_BTYPE_INDIRECT, r->tstamp);
	else if (e->cfg.trTeInstImplicitReturnMode != NTRACE_IMPLICIT_RETURN_COUNT) {
		set_pending(e, PEND_RETURN_CHECK, 0, r->tstamp);
		e->pending_return_addr = expected;
	}
}

/*
 * A branch or jump retired and then a trap was taken (itype 1/2 with
 * retired_itype): keep its HIST bit; its target does not matter because the
 * trap message's address comes next, and the call stack is cleared at the
 * trap.
 */
static void retired_before_trap(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	unsigned it = r->retired_itype;
	bool all = e->cfg.trTeInstEnAllJumps;

	if (it == RV_ITYPE_RESERVED7)
		it = all ? RV_ITYPE_TAKEN_BRANCH : RV_ITYPE_NONE;
	if (!e->htm)
		return; /* BTM: the trap message ends the block either way */
	switch (it) {
	case RV_ITYPE_NOT_TAKEN_BRANCH:
	case RV_ITYPE_TAKEN_BRANCH:
		add_hist_bit(e, it == RV_ITYPE_TAKEN_BRANCH, r->tstamp);
		break;
	case RV_ITYPE_INFERABLE_CALL:
	case RV_ITYPE_INFERABLE_TAIL_CALL:
	case RV_ITYPE_OTHER_INFERABLE_JUMP:
		if (all)
			add_hist_bit(e, 1, r->tstamp);
		break;
	default:
		break; /* the call stack is cleared at the trap anyway */
	}
}

/* Tables 3 and 4: what each itype does besides adding to I-CNT.  (Inlined
 * into both users of record_body(), so slow_record() makes no call for it.) */
static inline __attribute__((always_inline)) void
process_itype(struct ntrace_encoder *e, const struct ntrace_retired *r, bool in_block)
{
	unsigned it = r->itype;
	bool implicit = e->cfg.trTeInstEnImplicitReturn;
	/* 9.1: both instructions must be in the same message (I-CNT block) */
	bool seq = (r->flags & NTRACE_REC_SEQ_INFERABLE) && e->cfg.trTeInstEnSequentialJump && in_block;
	uint64_t dummy;

	if (it == RV_ITYPE_RESERVED7)
		it = e->cfg.trTeInstEnAllJumps ? RV_ITYPE_TAKEN_BRANCH : RV_ITYPE_NONE;
	switch (it) {
	case RV_ITYPE_NONE:
		break;
	case RV_ITYPE_EXCEPTION:
	case RV_ITYPE_INTERRUPT:
		if (r->size && r->retired_itype)
			retired_before_trap(e, r);
		/* The instruction before a trap may be described by its own record
		 * or by the trap record, and a decoder cannot tell whether its
		 * call-stack effect was counted: both sides start the trap with an
		 * empty call stack (9.2 allows any depth; README). */
		stack_reset(e);
		set_pending(e, PEND_INDIRECT,
			    e->cfg.btype_trap_as_1 ? NTRACE_BTYPE_TRAP
			    : it == RV_ITYPE_EXCEPTION ? NTRACE_BTYPE_EXCEPTION : NTRACE_BTYPE_INTERRUPT,
			    r->tstamp);
		break;
	case RV_ITYPE_TRAP_RETURN:
		set_pending(e, PEND_INDIRECT, NTRACE_BTYPE_INDIRECT, r->tstamp);
		if (e->cfg.trTeContext && !e->need_ownership)
			e->need_ownership = 1;
		break;
	case RV_ITYPE_NOT_TAKEN_BRANCH:
		if (e->htm)
			add_hist_bit(e, 0, r->tstamp);
		break;
	case RV_ITYPE_TAKEN_BRANCH:
		taken_branch(e, r);
		break;
	case RV_ITYPE_UNINFERABLE_CALL:
		if (implicit)
			stack_push(e, r->addr + r->size);
		/* fall through */
	case RV_ITYPE_UNINFERABLE_JUMP:
	case RV_ITYPE_UNINFERABLE_TAIL_CALL:
	case RV_ITYPE_OTHER_UNINFERABLE_JUMP:
		if (!seq)
			set_pending(e, PEND_INDIRECT, NTRACE_BTYPE_INDIRECT, r->tstamp);
		break;
	case RV_ITYPE_INFERABLE_CALL:
		if (implicit)
			stack_push(e, r->addr + r->size);
		/* fall through */
	case RV_ITYPE_INFERABLE_TAIL_CALL:
	case RV_ITYPE_OTHER_INFERABLE_JUMP:
		if (e->cfg.trTeInstEnAllJumps)
			taken_branch(e, r);
		break;
	case RV_ITYPE_COROUTINE_SWAP:
	case RV_ITYPE_RETURN:
		if (!implicit) {
			if (!seq)
				set_pending(e, PEND_INDIRECT, NTRACE_BTYPE_INDIRECT, r->tstamp);
		} else if (seq) {
			stack_pop(e, &dummy);
			if (it == RV_ITYPE_COROUTINE_SWAP)
				stack_push(e, r->addr + r->size);
		} else {
			implicit_return(e, r, it == RV_ITYPE_COROUTINE_SWAP);
		}
		break;
	default:
		break;
	}
}

static void restart_after_overflow(struct ntrace_encoder *e, uint64_t tstamp)
{
	uint64_t v[NTRACE_FLD_COUNT] = { 0 };

	e->overflowed = 0;
	v[NTRACE_FLD_ETYPE] = NTRACE_ETYPE_QUEUE_OVERRUN;
	v[NTRACE_FLD_ECODE] = NTRACE_ECODE_PROGRAM_LOST;
	write_msg(e, NTRACE_TCODE_ERROR, v, tstamp);
	if (e->active) {
		e->run.pending = PEND_START;
		e->pending_sync = NTRACE_SYNC_FIFO_OVERRUN;
	}
}

/* Drop everything that describes instructions already retired. */
static void drop_state(struct ntrace_encoder *e)
{
	e->run.pending = PEND_NONE;
	e->held_count = 0;
	e->run.hist_limit = e->hist_full;
	e->repeat_count = 0;
	e->repeat_tcode = 0;
	e->run.hist = 1;
	e->run.icnt = 0;
	e->block_start = NO_ADDR;
	stack_reset(e);
	recompute_icnt_check(e);
}

/* What a record does once the message waiting for its address is out:
 * Ownership (7.1), I-CNT, its itype, the I-CNT threshold. */
static inline __attribute__((always_inline)) void
record_body(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	bool in_block;

	if (e->cfg.trTeContext) {
		unsigned need = e->need_ownership;

		if (r->context != e->run.cur_context)
			need = 2;
		else if (r->priv != e->run.cur_priv && !need)
			need = 1;
		if (need)
			emit_ownership(e, need == 2 ? NTRACE_PROCESS_FORMAT_SCONTEXT
					       : NTRACE_PROCESS_FORMAT_PRIV,
				       r->priv, r->context, r->tstamp);
		e->need_ownership = 0;
	}
	e->run.cur_priv = r->priv;
	e->run.cur_context = r->context;
	in_block = e->run.icnt != 0;
	e->run.icnt += r->size >> 1;
	process_itype(e, r, in_block);
	if (!e->run.pending && e->run.icnt >= e->run.icnt_check)
		icnt_limit(e, r->tstamp);
	update_slow(e);
}

static void slow_record(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	bool due;

	if (!e->active)
		return;
	if (e->overflowed) {
		drop_state(e);
		restart_after_overflow(e, r->tstamp);
	}
	/* A periodic sync rides on the message completed here if there is one
	 * (emit_branch); a sync that became due while emitting waits for the
	 * next record, so it can ride on the next message too.  Likewise a
	 * sink refusal while emitting is reported (Error, SYNC=7) at the next
	 * record. */
	due = e->sync_due;
	if (e->run.pending)
		resolve_pending(e, r);
	if (due && e->sync_due)
		emit_standalone_sync(e, e->sync_reason, r->addr, r->tstamp);
	record_body(e, r);
}

/* record_body() out of line, for the per-record loop's rare path. */
static __attribute__((noinline)) void record_after_message(struct ntrace_encoder *e,
							    const struct ntrace_retired *r)
{
	record_body(e, r);
}

/*
 * The per-record loop.  Linear instructions (and, in HTM, branches while the
 * HIST register has room) are handled inline with the hot state in locals;
 * everything else goes through slow_record().  `check_ctx` is a constant in
 * each instantiation: without trTeContext privilege/context changes need no
 * message, so they are not even compared.
 */
/* size and itype of a record with one 16-bit load where that is cheap. */
static inline __attribute__((always_inline)) unsigned
rec_size_itype(const struct ntrace_retired *r, uint32_t *size)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(offsetof(struct ntrace_retired, itype) ==
		       offsetof(struct ntrace_retired, size) + 1, "size, itype adjacent");
	uint16_t w;

	/* the builtin: -ffreestanding (the firmware) makes memcpy a call */
	__builtin_memcpy(&w, &r->size, sizeof(w));
	*size = w & 0xff;
	return w >> 8;
#else
	*size = r->size;
	return r->itype;
#endif
}

static inline __attribute__((always_inline)) void
retire_loop(struct ntrace_encoder *e, const struct ntrace_retired *rec, size_t n, const bool check_ctx)
{
	const struct ntrace_retired *end = rec + n;
	uint32_t hist_limit = e->run.hist_limit;
	const uint32_t jump_mask = e->plain_jump_mask;
	const bool htm = e->htm;
	/* 9.2 calls and returns inline unless all-jumps makes calls branches */
	const bool fast_calls = e->cfg.trTeInstEnImplicitReturn && !e->cfg.trTeInstEnAllJumps;
	/* 9.1 off: a sequentially inferable jump is a plain one */
	const bool seq_jumps = e->cfg.trTeInstEnSequentialJump;
	/* check = 0 while e->run.slow: then every record takes the slow path */
	uint32_t icnt = e->run.icnt, hist = e->run.hist, check = e->run.slow ? 0 : e->run.icnt_check;
	uint8_t priv = e->run.cur_priv;
	uint64_t context = e->run.cur_context;
	bool jump_pending = false;

	for (; rec < end; rec++) {
		unsigned it;
		uint32_t next;

		if (check_ctx && (rec->priv != priv || rec->context != context))
			goto slow_path;
again:
		it = rec_size_itype(rec, &next);
		next = icnt + (next >> 1);
		if (__builtin_expect(it == RV_ITYPE_NONE, 1)) {
			if (__builtin_expect(next < check, 1)) {
				icnt = next;
				continue;
			}
		} else if ((it == RV_ITYPE_NOT_TAKEN_BRANCH || (htm && it == RV_ITYPE_TAKEN_BRANCH)) &&
			   next < check && !(htm && (hist & hist_limit))) {
			if (htm)
				hist = (hist << 1) | (it & 1); /* 8.3: 1 = taken (itype 5) */
			icnt = next;
			continue;
		} else if (it == RV_ITYPE_INFERABLE_CALL && fast_calls && next < check &&
			   !(rec->flags & NTRACE_REC_SEQ_INFERABLE)) {
			stack_push(e, rec->addr + ((uint32_t)rec->size)); /* 9.2 */
			icnt = next;
			continue;
		} else if (it == RV_ITYPE_RETURN && fast_calls && next < check &&
			   !(rec->flags & NTRACE_REC_SEQ_INFERABLE)) {
			uint64_t expected;

			icnt = next;
			if (!stack_pop(e, &expected)) {
				e->run.pending = PEND_INDIRECT; /* nothing to infer it from */
			} else if (e->cfg.trTeInstImplicitReturnMode == NTRACE_IMPLICIT_RETURN_COUNT) {
				continue;
			} else {
				e->run.pending = PEND_RETURN_CHECK; /* compared with the next address */
				e->pending_return_addr = expected;
			}
			e->run.pending_btype = NTRACE_BTYPE_INDIRECT;
			e->run.pending_tstamp = rec->tstamp;
			e->run.slow = 1;
			check = 0;
			jump_pending = !check_ctx;
			continue;
		} else if (((jump_mask >> it) & 1) && check &&
			   (!(rec->flags & NTRACE_REC_SEQ_INFERABLE) || !seq_jumps)) {
			/* Table 3/4: a plain uninferable jump; its message waits for
			 * the next record's address (it carries I-CNT, so no
			 * overflow check is needed here) */
			icnt = next;
			e->run.pending = PEND_INDIRECT;
			e->run.pending_btype = NTRACE_BTYPE_INDIRECT;
			e->run.pending_tstamp = rec->tstamp;
			e->run.slow = 1;
			check = 0;
			jump_pending = !check_ctx;
			continue;
		}
slow_path:
		if (jump_pending) {
			/* this record's address completes the IndirectBranch[Hist];
			 * then the record itself is handled as usual */
			jump_pending = false;
			e->run.icnt = icnt;
			e->run.hist = hist;
			emit_waiting_jump(e, e->run.pending, rec->addr);   /* pending_btype: INDIRECT */
			e->run.pending = PEND_NONE;
			update_slow(e);
			if (__builtin_expect(e->run.slow, 0)) {
				/* A sync became due or the sink refused bytes while
				 * emitting: as in slow_record(), that waits for the
				 * next record, so the bytes do not depend on whether
				 * the jump ended a call (lib/ntrace/README.md). */
				record_after_message(e, rec);
				icnt = e->run.icnt;
				hist = e->run.hist;
				hist_limit = e->run.hist_limit;
				check = e->run.slow ? 0 : e->run.icnt_check;
				continue;
			}
			icnt = e->run.icnt;
			hist = e->run.hist;
			hist_limit = e->run.hist_limit;
			check = e->run.icnt_check;
			goto again;
		}
		e->run.icnt = icnt;
		e->run.hist = hist;
		slow_record(e, rec);
		icnt = e->run.icnt;
		hist = e->run.hist;
		hist_limit = e->run.hist_limit;
		check = e->run.slow ? 0 : e->run.icnt_check;
		priv = e->run.cur_priv;
		context = e->run.cur_context;
	}
	e->run.icnt = icnt;
	e->run.hist = hist;
}

void ntrace_enc_retire(struct ntrace_encoder *e, const struct ntrace_retired *rec, size_t n)
{
	e->stats.records += n;
	if (e->cfg.trTeContext)
		retire_loop(e, rec, n, true);
	else
		retire_loop(e, rec, n, false);
}

void ntrace_enc_start(struct ntrace_encoder *e, unsigned sync)
{
	drop_state(e);
	e->active = 1;
	e->run.pending = PEND_START;
	e->pending_sync = (uint8_t)(sync & 0xF);
	e->need_ownership = 0;
	update_slow(e);
}

void ntrace_enc_stop(struct ntrace_encoder *e, unsigned evcode, uint64_t next_addr, uint64_t tstamp)
{
	uint64_t v[NTRACE_FLD_COUNT] = { 0 };

	if (e->active) {
		struct ntrace_retired next = { .addr = next_addr, .tstamp = tstamp,
					       .priv = e->run.cur_priv, .context = e->run.cur_context };

		if (e->overflowed) {
			drop_state(e);
			restart_after_overflow(e, tstamp);
		}
		if (e->run.pending)
			resolve_pending(e, &next);
	} else {
		e->run.icnt = 0;
		e->run.hist = 1;
	}
	if (e->held_cut)
		hist_uncut(e);
	/* Table 23: CDF=1 with HIST in HTM (even when empty), CDF=0 in BTM */
	v[NTRACE_FLD_EVCODE] = evcode & 0xF;
	v[NTRACE_FLD_CDF] = e->htm ? NTRACE_CDF_ICNT_HIST : NTRACE_CDF_ICNT_ONLY;
	v[NTRACE_FLD_ICNT] = e->run.icnt;
	if (e->htm)
		v[NTRACE_FLD_HIST] = e->run.hist;
	emit(e, NTRACE_TCODE_PROG_TRACE_CORRELATION, v, tstamp);
	e->active = 0;
	drop_state(e);
	update_slow(e);
}

void ntrace_enc_sync(struct ntrace_encoder *e, unsigned sync)
{
	if (!e->active)
		return;
	e->sync_reason = (uint8_t)(sync & 0xF);
	e->sync_due = 1;
	update_slow(e);
}

void ntrace_enc_overflow(struct ntrace_encoder *e, uint64_t tstamp)
{
	drop_state(e);
	e->overflowed = 0;
	restart_after_overflow(e, tstamp);
	update_slow(e);
}

static int check_config(const struct ntrace_enc_config *c)
{
	if (c->trTeInstMode != NTRACE_INST_MODE_BTM && c->trTeInstMode != NTRACE_INST_MODE_HTM)
		return -NTRACE_ERR_ARG;
	if (c->xlen != 32 && c->xlen != 64)
		return -NTRACE_ERR_ARG;
	if (c->trTeSrcBits > NTRACE_MAX_SRC || c->trTeInstSyncMode > 3 || c->trTeInstSyncMax > 15)
		return -NTRACE_ERR_ARG;
	if (c->icnt_bits == 1 || c->icnt_bits > NTRACE_MAX_ICNT)
		return -NTRACE_ERR_ARG;
	if (c->hist_bits == 1 || c->hist_bits > NTRACE_MAX_HIST)
		return -NTRACE_ERR_ARG;
	if (c->call_stack_depth > NTRACE_MAX_CALL_STACK || c->return_partial_bits > 63)
		return -NTRACE_ERR_ARG;
	if (c->trTeInstEnImplicitReturn &&
	    (c->trTeInstImplicitReturnMode < 1 || c->trTeInstImplicitReturnMode > 3))
		return -NTRACE_ERR_ARG;
	return 0;
}

int ntrace_enc_init(struct ntrace_encoder *e, const struct ntrace_enc_config *cfg,
		    const struct ntrace_sink *sink)
{
	int rc = check_config(cfg);

	if (rc)
		return rc;
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	if (!e->cfg.icnt_bits)
		e->cfg.icnt_bits = NTRACE_MAX_ICNT;
	if (!e->cfg.hist_bits)
		e->cfg.hist_bits = NTRACE_MAX_HIST;
	if (!e->cfg.call_stack_depth)
		e->cfg.call_stack_depth = NTRACE_MAX_CALL_STACK;
	if (!e->cfg.return_partial_bits)
		e->cfg.return_partial_bits = 16;
	e->fmt.xlen = cfg->xlen;
	e->fmt.src_bits = cfg->trTeInhibitSrc ? 0 : cfg->trTeSrcBits;
	e->fmt.extend_addr_msb = cfg->trTeInstExtendAddrMSB;
	if (sink)
		e->sink = *sink;
	e->htm = cfg->trTeInstMode == NTRACE_INST_MODE_HTM;
	e->plain_msgs = !e->fmt.src_bits && !e->fmt.extend_addr_msb && !cfg->trTsEnable &&
			!cfg->trTeContext && cfg->trTeInstSyncMode == NTRACE_SYNC_MODE_OFF &&
			!(cfg->trTeInstEnRepeatedHistory && !e->htm) && cfg->xlen == 64;
	e->run.hist = 1;
	e->hist_full = 1u << (e->cfg.hist_bits - 1);
	e->run.hist_limit = e->hist_full;
	e->sync_limit = cfg->trTeInstSyncMode ? 1ull << (cfg->trTeInstSyncMax + 4) : ~0ull;
	e->pending_sync = SYNC_NONE;
	e->sync_reason = NTRACE_SYNC_PERIODIC;
	e->block_start = NO_ADDR;
	/* itypes that only mean "IndirectBranch at the next record" (Tables 3, 4) */
	e->plain_jump_mask = 1u << RV_ITYPE_UNINFERABLE_JUMP | 1u << RV_ITYPE_OTHER_UNINFERABLE_JUMP |
			     1u << RV_ITYPE_UNINFERABLE_TAIL_CALL | 1u << RV_ITYPE_TRAP_RETURN;
	if (!cfg->trTeInstEnImplicitReturn)
		e->plain_jump_mask |= 1u << RV_ITYPE_UNINFERABLE_CALL | 1u << RV_ITYPE_COROUTINE_SWAP |
				      1u << RV_ITYPE_RETURN;
	if (cfg->trTeContext)
		e->plain_jump_mask &= ~(1u << RV_ITYPE_TRAP_RETURN); /* needs Ownership */
	recompute_icnt_check(e);
	update_slow(e);
	return 0;
}

/* ------------------------------------------------------------ blocks */

/*
 * ntrace_enc_block(): a run of itype-0 instructions only adds to I-CNT in
 * the per-record loop as long as nothing is pending, the privilege and
 * context do not change (when they are traced) and I-CNT stays below
 * icnt_check.  Those records are added in bulk; any other record of the run
 * goes through slow_record() exactly as ntrace_enc_retire() would send it,
 * and the end record through the per-record loop itself.  So the bytes,
 * statistics and encoder state are those of ntrace_enc_retire() on the
 * records one by one (tests/host/test_ntrace_block.c checks it).
 */

/* Set bits of x.  Without a population-count instruction (RV64 without
 * Zbb, x86-64 without POPCNT) __builtin_popcountll() is a library call,
 * which would also make the common path of ntrace_enc_block() set up a
 * stack frame: count in parallel in 2-, 4- and 8-bit fields instead, and
 * add the bytes with one multiplication. */
static inline uint32_t bit_count(uint64_t x)
{
#if defined(__riscv_zbb) || defined(__POPCNT__)
	return (uint32_t)__builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* I-CNT units (half-words) of the first n (<= 64) instructions of a run
 * whose 16-bit instructions are the set bits of rvc. */
static inline uint32_t run_halfwords(uint64_t rvc, unsigned n)
{
	uint64_t used = n >= 64 ? ~0ull : (1ull << n) - 1;

	return 2u * n - bit_count(rvc & used);
}

/*
 * Smallest n with run_halfwords(rvc, n) >= need, for need >= 1 when the whole
 * run reaches it.  Every instruction adds 1 or 2 half-words, so no n below
 * need / 2 reaches it; and when n instructions are `left` half-words short,
 * n + (left + 1) / 2 - 1 instructions add at most left - 1 more and are still
 * short.  Stepping by (left + 1) / 2 therefore never passes the answer, and
 * it at least halves what is left: at most 7 steps for a 64-instruction run.
 */
static unsigned run_reaching(uint64_t rvc, uint32_t need)
{
	unsigned n = (need + 1) / 2;
	uint32_t have;

	while ((have = run_halfwords(rvc, n)) < need)
		n += (need - have + 1) / 2;
	return n;
}

/* Whether the per-record loop would take the run's records inline (before
 * looking at I-CNT): nothing pending and, with trTeContext, the same
 * privilege and context as the last record (7.1: a change needs Ownership). */
static inline bool block_inline(const struct ntrace_encoder *e, const struct ntrace_block *b)
{
	if (e->run.slow)
		return false;
	return !e->cfg.trTeContext || (b->priv == e->run.cur_priv && b->context == e->run.cur_context);
}

/* One instruction of the run through the per-record slow path. */
static void block_slow_record(struct ntrace_encoder *e, const struct ntrace_block *b,
			      uint64_t addr, uint8_t size)
{
	struct ntrace_retired r = { .addr = addr, .tstamp = b->tstamp, .context = b->context,
				    .size = size, .priv = b->priv };

	slow_record(e, &r);
}

/*
 * The run's n records (h half-words) when they cannot all be added at once:
 * the records the per-record loop would take inline are added in bulk, the
 * one that completes a pending message, changes the privilege/context or
 * brings I-CNT to icnt_check (8.4.4 overflow, half-word periodic sync) goes
 * through slow_record(), then the rest is looked at again.
 */
static void block_records(struct ntrace_encoder *e, const struct ntrace_block *b, unsigned n,
			  uint32_t h)
{
	uint64_t addr = b->addr, rvc = b->rvc_mask;

	if (!n || !e->active)
		return; /* slow_record() ignores records while trace is stopped */
	for (;;) {
		uint8_t size;

		if (block_inline(e, b)) {
			unsigned k; /* records before the one that reaches icnt_check */
			uint32_t hk;

			if (e->run.icnt + h < e->run.icnt_check) {
				e->run.icnt += h;
				return;
			}
			/* (I-CNT already at the threshold: the first record is slow,
			 * as in the per-record loop) */
			k = e->run.icnt < e->run.icnt_check ? run_reaching(rvc, e->run.icnt_check - e->run.icnt) - 1 : 0;
			hk = run_halfwords(rvc, k);
			e->run.icnt += hk;
			h -= hk;
			addr += 2ull * hk;
			rvc >>= k; /* k < n <= 64 */
			n -= k;
		}
		size = rvc & 1 ? 2 : 4;
		block_slow_record(e, b, addr, size);
		if (!--n)
			return;
		h -= size >> 1;
		addr += size;
		rvc >>= 1;
	}
}

/* The end record, through the per-record loop as ntrace_enc_retire() runs it
 * (instantiated here for one record: its call would cost more than a run;
 * the caller counts the record). */
static __attribute__((noinline)) void block_end(struct ntrace_encoder *e,
						 const struct ntrace_retired *end)
{
	if (e->cfg.trTeContext)
		retire_loop(e, end, 1, true);
	else
		retire_loop(e, end, 1, false);
}

static __attribute__((noinline)) void block_slow(struct ntrace_encoder *e,
						 const struct ntrace_block *b, unsigned n,
						 uint32_t h, const struct ntrace_retired *end)
{
	block_records(e, b, n, h);
	if (end)
		block_end(e, end);
}

/*
 * How the per-record loop would take the end record r inline, when it only
 * adds to I-CNT and HIST or only leaves a message waiting for the next
 * address: END_PLAIN (a plain record), END_HIST (a branch: HTM, or not
 * taken), END_INFERABLE (a direct jump that needs nothing else: no 9.2
 * stack, not a branch under trTeInstEnAllJumps; or a jump that 9.1 infers),
 * END_PENDING (an uninferable jump of Tables 3/4 that 9.1 does not infer:
 * IndirectBranch at the next record), END_DIRECT (a taken branch in BTM:
 * DirectBranch at the next record).  END_NO: anything else.  Looks at the
 * configuration (and, for 9.1, whether I-CNT is 0 before r) only: the
 * caller checks I-CNT's threshold and HIST.
 */
enum end_class { END_NO, END_PLAIN, END_HIST, END_INFERABLE, END_PENDING, END_DIRECT };

static inline __attribute__((always_inline)) enum end_class
end_class(const struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	unsigned it = r->itype;

	if (e->cfg.trTeContext && (r->priv != e->run.cur_priv || r->context != e->run.cur_context))
		return END_NO;
	if (it == RV_ITYPE_NONE)
		return END_PLAIN;
	if (it == RV_ITYPE_NOT_TAKEN_BRANCH || (e->htm && it == RV_ITYPE_TAKEN_BRANCH))
		return END_HIST;
	if (it == RV_ITYPE_TAKEN_BRANCH)
		return END_DIRECT;   /* (taken_branch() in BTM) */
	if (it == RV_ITYPE_INFERABLE_CALL || it == RV_ITYPE_INFERABLE_TAIL_CALL ||
	    it == RV_ITYPE_OTHER_INFERABLE_JUMP || it == RV_ITYPE_RESERVED7)
		return e->cfg.trTeInstEnImplicitReturn || e->cfg.trTeInstEnAllJumps ? END_NO
										      : END_INFERABLE;
	if ((e->plain_jump_mask >> it) & 1) {
		if (!(r->flags & NTRACE_REC_SEQ_INFERABLE) || !e->cfg.trTeInstEnSequentialJump)
			return END_PENDING;
		/* 9.1 (process_itype()): a sequentially inferable jump only adds
		 * to I-CNT when it is not the first record of its I-CNT block
		 * (e->run.icnt, before the record, is then not 0) */
		return it != RV_ITYPE_TRAP_RETURN && e->run.icnt ? END_INFERABLE : END_NO;
	}
	return END_NO;
}

/* The end record, when end_class() takes it, I-CNT stays below the
 * threshold and (for a HIST bit) HIST has room.  Called with nothing
 * pending. */
static inline __attribute__((always_inline)) bool
end_inline(struct ntrace_encoder *e, const struct ntrace_retired *r)
{
	uint32_t next = e->run.icnt + (r->size >> 1);
	enum end_class c = end_class(e, r);

	if (c == END_NO || next >= e->run.icnt_check)
		return false;
	switch (c) {
	case END_HIST:
		if (e->htm) {
			if (e->run.hist & e->run.hist_limit)
				return false;
			e->run.hist = (e->run.hist << 1) | (r->itype & 1); /* 8.3: 1 = taken (itype 5) */
		}
		break;
	case END_INFERABLE:
		/* slow_record() would take it: record_body() keeps its privilege */
		e->run.cur_priv = r->priv;
		e->run.cur_context = r->context;
		break;
	case END_PENDING:
		/* as the per-record loop: the message waits for the next record */
		e->run.pending = PEND_INDIRECT;
		e->run.pending_btype = NTRACE_BTYPE_INDIRECT;
		e->run.pending_tstamp = r->tstamp;
		e->run.slow = 1;
		break;
	case END_DIRECT:
		/* slow_record() takes it: record_body() keeps its privilege,
		 * taken_branch() leaves the DirectBranch waiting */
		e->run.cur_priv = r->priv;
		e->run.cur_context = r->context;
		set_pending(e, PEND_DIRECT, 0, r->tstamp);
		e->run.slow = 1;
		break;
	default:
		break;
	}
	e->run.icnt = next;
	return true;
}

/*
 * The message waiting for the next record (at addr), when nothing else
 * makes the encoder slow: an IndirectBranch[Hist] (or a 9.2 return that
 * went elsewhere), emitted as slow_record() would for that record, when
 * emitting cannot make a sync due or reach the sink (so the encoder counts
 * again after it: I-CNT restarts at 0, HIST at 1).  The record's
 * privilege and context are the current ones (record_body()).  False,
 * with nothing changed, otherwise.
 */
/*
 * With trTeContext, whether record_body() would emit no Ownership for the
 * record that resolves the waiting jump p (7.1): it is in the current
 * privilege and context, none is due, and the message is not one after
 * which one is (a trap's: emit_branch()).
 */
static inline bool owner_unchanged(const struct ntrace_encoder *e, unsigned p, uint8_t priv,
				   uint64_t context)
{
	return priv == e->run.cur_priv && context == e->run.cur_context && !e->need_ownership &&
	       (p != PEND_INDIRECT || e->run.pending_btype == NTRACE_BTYPE_INDIRECT);
}

static inline __attribute__((always_inline)) bool
resolve_jump(struct ntrace_encoder *e, uint64_t addr, uint8_t priv, uint64_t context)
{
	unsigned p = e->run.pending;

	if ((p != PEND_INDIRECT && p != PEND_RETURN_CHECK && p != PEND_DIRECT) || !e->active || e->sync_due ||
	    e->overflowed || e->held_count || e->repeat_count || e->held_cut ||
	    e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_HALFWORDS ||
	    e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_CYCLES ||
	    (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_MESSAGES &&
	     e->sync_count + 1 >= e->sync_limit) ||
	    e->buf_len + NTRACE_WRITE_MAX > NTRACE_ENC_BUF_SIZE ||
	    (e->cfg.trTeContext && !owner_unchanged(e, p, priv, context)))
		return false;
	e->run.pending = PEND_NONE;
	if (p == PEND_DIRECT)
		emit_branch(e, true, NTRACE_BTYPE_INDIRECT, addr, e->run.pending_tstamp);
	else
		emit_waiting_jump(e, p, addr);
	update_slow(e);
	e->run.cur_priv = priv;
	e->run.cur_context = context;
	return true;
}

static __attribute__((noinline)) bool resolve_jump_general(struct ntrace_encoder *e, uint64_t addr,
							  uint8_t priv, uint64_t context)
{
	return resolve_jump(e, addr, priv, context);
}

/* The common case is resolve_jump() of an IndirectBranch[Hist] (or in
 * BTM a DirectBranch) that emit_branch_now() writes, in a configuration of plain messages (the
 * configuration's part of branch_now_ok(), no trTeContext, no periodic
 * sync) and branch_state_ok(): written
 * here, with no call (the firmware's fast visit makes one a jump). */
bool ntrace_enc_resolve_jump(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			     uint64_t context)
{
	bool direct = false;

	if (!e->plain_msgs || e->run.pending != PEND_INDIRECT || !e->active || !branch_state_ok(e)) {
		/* (BTM's DirectBranch tested second: HTM's path stays as short) */
		if (!e->plain_msgs || e->run.pending != PEND_DIRECT || !e->active ||
		    !branch_state_ok(e))
			return resolve_jump_general(e, addr, priv, context);   /* (a tail call) */
		direct = true;
	}
	e->run.pending = PEND_NONE;
	write_branch_now(e, direct, e->run.pending_btype, addr, e->run.pending_tstamp, true);
	e->run.slow = 0;   /* update_slow(): active, nothing pending, due or lost */
	e->run.cur_priv = priv;
	e->run.cur_context = context;
	return true;
}

/*
 * resolve_jump() for the run's first record (at addr), when the run and
 * its end then go inline.  False, with nothing changed, otherwise.
 */
static inline bool resolve_inline(struct ntrace_encoder *e, uint64_t addr, uint32_t halfwords,
				  uint8_t priv, uint64_t context, const struct ntrace_retired *end)
{
	if (halfwords + (end->size >> 1) >= (1u << (e->cfg.icnt_bits - 1)) ||
	    end_class(e, end) == END_NO)
		return false;
	return resolve_jump(e, addr, priv, context);
}

enum ntrace_inline_end ntrace_enc_inline_end(const struct ntrace_encoder *e, unsigned itype)
{
	struct ntrace_retired r = { .itype = (uint8_t)itype, .size = 2, .priv = e->run.cur_priv,
				    .context = e->run.cur_context };

	/* (under trTeContext: for records in cur_priv and cur_context, which
	 * need no Ownership, 7.1; the caller knows they are) */
	if (itype > 15)
		return NTRACE_INLINE_NO;
	switch (end_class(e, &r)) {
	case END_PLAIN:
		return NTRACE_INLINE_COUNT;
	case END_HIST:
		return e->htm ? NTRACE_INLINE_HIST : NTRACE_INLINE_COUNT;
	case END_INFERABLE:
		return NTRACE_INLINE_INFER;
	case END_PENDING:
		/* with 9.1 on, a flagged jump is not END_PENDING: the caller's
		 * records carry no flags, so it takes none inline */
		return e->cfg.trTeInstEnSequentialJump ? NTRACE_INLINE_NO : NTRACE_INLINE_PENDING;
	case END_DIRECT:
		return NTRACE_INLINE_DIRECT;
	default:
		return NTRACE_INLINE_NO;
	}
}

bool ntrace_enc_block_inline(struct ntrace_encoder *e, uint64_t addr, uint32_t halfwords,
			     unsigned count, uint8_t priv, uint64_t context,
			     const struct ntrace_retired *end)
{
	uint32_t icnt;

	if (e->run.slow && !resolve_inline(e, addr, halfwords, priv, context, end))
		return false;
	icnt = e->run.icnt;
	/* block_inline() and the I-CNT test of ntrace_enc_block() */
	if (e->run.slow || icnt + halfwords >= e->run.icnt_check ||
	    (e->cfg.trTeContext && (priv != e->run.cur_priv || context != e->run.cur_context)))
		return false;
	e->run.icnt = icnt + halfwords;
	if (!end_inline(e, end)) {
		e->run.icnt = icnt; /* end_inline() changes nothing when it declines */
		return false;
	}
	e->stats.records += count + 1;
	return true;
}

/* The common case only adds to I-CNT; it needs no stack frame (everything
 * else is a tail call). */
void ntrace_enc_block(struct ntrace_encoder *e, const struct ntrace_block *b,
		      const struct ntrace_retired *end)
{
	unsigned n = b->count > NTRACE_BLOCK_MAX ? NTRACE_BLOCK_MAX : b->count;
	uint32_t h = run_halfwords(b->rvc_mask, n);

	e->stats.records += n + (end != NULL);
	if (!block_inline(e, b) || e->run.icnt + h >= e->run.icnt_check) {
		block_slow(e, b, n, h, end);
		return;
	}
	e->run.icnt += h; /* every record would be inline: only I-CNT changes */
	if (end && !end_inline(e, end))
		block_end(e, end);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace decoder (chapter 11): messages + program image -> retired
 * instruction addresses and events.
 *
 * Each message with I-CNT describes a block of instructions starting at the
 * current PC: the decoder walks it instruction by instruction (11.1), taking
 * direct conditional branches according to HIST bits (HTM) or as not taken
 * except the last one of a DirectBranch (BTM), following direct jumps, and
 * finally applies the message's address, if any.
 */
#include <string.h>

#include "ntrace.h"
#include "ntrace_internal.h"

enum walk_end {
	END_NONE,   /* no address follows: the block must end inferably      */
	END_ADDR,   /* the message's address is the next PC                  */
	END_BRANCH, /* DirectBranch: the last instruction is a taken branch  */
	END_HIST,   /* ResourceFull HIST: stop after the last HIST bit (11.1) */
};

#define DEFAULT_MAX_WALK (1u << 23)

/* ------------------------------------------------------------ output */

void ntrace_dec_flush(struct ntrace_decoder *d)
{
	if (d->out_len && d->ops.retired)
		d->ops.retired(d->ops.ctx, d->out, d->out_len);
	d->out_len = 0;
}

static inline void out_push(struct ntrace_decoder *d, uint64_t pc)
{
	d->out[d->out_len++] = pc;
	if (d->out_len == NTRACE_DEC_OUT_BATCH)
		ntrace_dec_flush(d);
}

static void send_event(struct ntrace_decoder *d, struct ntrace_event *ev, const struct ntrace_msg *m)
{
	ntrace_dec_flush(d);
	if (m) {
		ev->tcode = (uint8_t)m->val[NTRACE_FLD_TCODE];
		ev->src = (uint16_t)m->val[NTRACE_FLD_SRC];
		ev->offset = d->base_offset + m->offset;
	}
	ev->has_tstamp = d->have_tstamp;
	ev->tstamp = d->tstamp;
	if (d->ops.event)
		d->ops.event(d->ops.ctx, ev);
}

/* Report an error and drop synchronisation until the next sync message. */
static int dec_error(struct ntrace_decoder *d, int code, size_t offset, unsigned tcode)
{
	struct ntrace_event ev = { .kind = NTRACE_EV_ERROR, .error = code, .tcode = (uint8_t)tcode,
				   .offset = offset, .addr = d->pc };

	send_event(d, &ev, NULL);
	d->stats.errors++;
	d->synced = false;
	return -code;
}

/* ------------------------------------------------------------ code */

void ntrace_dec_invalidate_code(struct ntrace_decoder *d)
{
	for (unsigned i = 0; i < NTRACE_DEC_ICACHE_SIZE; i++)
		d->icache[i].addr = 0;
}

/* Decoded instruction at pc, through a direct-mapped cache; NULL with *err
 * set when the code is not in the image or not a valid instruction. */
static const struct rv_insn *fetch(struct ntrace_decoder *d, uint64_t pc, int *err)
{
	struct ntrace_dec_icache_entry *c = &d->icache[(pc >> 1) & (NTRACE_DEC_ICACHE_SIZE - 1)];
	uint8_t b[4];
	uint32_t raw;
	unsigned len;

	if (c->addr == (pc | 1))
		return &c->insn;
	if (d->ops.read_code(d->ops.ctx, pc, b, 2)) {
		*err = NTRACE_ERR_NO_CODE;
		return NULL;
	}
	raw = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	len = rv_insn_length((uint16_t)raw, d->cfg.isa_ext);
	if (len >= 4) {
		if (d->ops.read_code(d->ops.ctx, pc + 2, b + 2, 2)) {
			*err = NTRACE_ERR_NO_CODE;
			return NULL;
		}
		raw |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	}
	if (!rv_insn_decode(raw, d->cfg.fmt.xlen, d->cfg.isa_ext, &c->insn)) {
		c->addr = 0;
		*err = NTRACE_ERR_ILLEGAL_INSN;
		return NULL;
	}
	c->addr = pc | 1;
	return &c->insn;
}

/* Zcmt: jump table entry index at jvt (XLEN-wide entries, little endian). */
static int table_target(struct ntrace_decoder *d, const struct rv_insn *in, uint64_t *target)
{
	unsigned w = d->cfg.fmt.xlen / 8;
	uint8_t b[8];
	uint64_t v = 0;

	if (!d->cfg.have_jvt)
		return NTRACE_ERR_NO_TARGET;
	if (d->ops.read_code(d->ops.ctx, d->cfg.jvt + (uint64_t)in->table_index * w, b, w))
		return NTRACE_ERR_NO_CODE;
	for (unsigned i = 0; i < w; i++)
		v |= (uint64_t)b[i] << (8 * i);
	*target = rv_xlen_mask(v & ~1ull, d->cfg.fmt.xlen);
	return 0;
}

/* ------------------------------------------------------------ state */

static void stack_push(struct ntrace_decoder *d, uint64_t v)
{
	unsigned depth = d->cfg.call_stack_depth;

	d->stack_top = (uint8_t)((d->stack_top + 1) % depth);
	d->stack[d->stack_top] = v;
	if (d->stack_count < depth)
		d->stack_count++;
}

static bool stack_pop(struct ntrace_decoder *d, uint64_t *v)
{
	unsigned depth = d->cfg.call_stack_depth;

	if (!d->stack_count)
		return false;
	*v = d->stack[d->stack_top];
	d->stack_top = (uint8_t)((d->stack_top + depth - 1) % depth);
	d->stack_count--;
	return true;
}

static void hist_clear(struct ntrace_decoder *d)
{
	d->icnt_walked = 0;
	d->hist_cur = 0;
	d->hist_left = 0;
	d->hq_head = d->hq_len = 0;
}

static unsigned bit_length32(uint32_t v)
{
	return v ? 32u - (unsigned)__builtin_clz(v) : 0;
}

/* Queue HIST bits (8.3, 9.3): `repeat` copies of the record `hist`. */
static int hist_queue(struct ntrace_decoder *d, uint64_t hist, uint64_t repeat)
{
	if (hist <= 1 || repeat == 0)
		return 0; /* no branch bits */
	if (hist >> NTRACE_MAX_HIST)
		return NTRACE_ERR_BAD_VALUE;
	if (d->hq_len == NTRACE_DEC_HIST_QUEUE)
		return NTRACE_ERR_HIST_QUEUE;
	struct ntrace_dec_hist_entry *q = &d->hq[(d->hq_head + d->hq_len) % NTRACE_DEC_HIST_QUEUE];

	q->hist = (uint32_t)hist;
	q->repeat = repeat > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)repeat;
	d->hq_len++;
	return 0;
}

/* Next branch outcome, oldest first (the bit below the stop bit is the
 * first branch, 8.3); -1 when no bit is left. */
static int hist_take(struct ntrace_decoder *d)
{
	if (!d->hist_left) {
		struct ntrace_dec_hist_entry *q;

		if (!d->hq_len)
			return -1;
		q = &d->hq[d->hq_head];
		if (q->hist < 2)
			return -1;   /* no branch bit below the stop bit */
		d->hist_cur = q->hist;
		d->hist_left = (uint8_t)(bit_length32(q->hist) - 1);
		if (--q->repeat == 0) {
			d->hq_head = (uint8_t)((d->hq_head + 1) % NTRACE_DEC_HIST_QUEUE);
			d->hq_len--;
		}
	}
	d->hist_left--;
	return (int)((d->hist_cur >> d->hist_left) & 1);
}

static bool hist_pending(const struct ntrace_decoder *d)
{
	return d->hist_left || d->hq_len;
}

/* ------------------------------------------------------------ walk */

/* An indirect jump (jalr/c.jr/c.jalr/cm.popret): call-stack bookkeeping of
 * 9.2 mirrored from the encoder, plus the sequential-jump rule of 9.1.
 * Returns true with *next set when the target is inferable. */
static bool indirect_target(struct ntrace_decoder *d, const struct rv_insn *in, uint64_t pc,
			    uint64_t *next)
{
	bool seq = d->cfg.sequential_jump && in->kind == RV_INSN_JUMP_REG && d->prev_const &&
		   d->prev_const_rd == in->rs1;
	uint64_t popped = 0;
	bool have = false;

	if (seq)
		*next = rv_xlen_mask((d->prev_const_val + (uint64_t)in->imm) & ~1ull, d->cfg.fmt.xlen);
	if (d->cfg.implicit_return) {
		switch (in->itype4) {
		case RV_ITYPE_UNINFERABLE_CALL:
			stack_push(d, pc + in->size);
			break;
		case RV_ITYPE_COROUTINE_SWAP:
			have = stack_pop(d, &popped);
			stack_push(d, pc + in->size);
			break;
		case RV_ITYPE_RETURN:
			have = stack_pop(d, &popped);
			break;
		default:
			break;
		}
	}
	if (seq)
		return true;
	if (have)
		*next = popped;
	return have;
}

/* The last instruction of a block ended by the message's address may have
 * been reported as the trap that followed it (itype 1/2), without its HIST
 * bit: the address decides the next PC anyway. */
static bool hist_bit_may_be_missing(const struct ntrace_decoder *d, bool last, enum walk_end end)
{
	return last && end == END_ADDR && !hist_pending(d);
}

/* An inferable jump counts as a taken branch under trTeInstEnAllJumps.  In
 * BTM that needs no option: only then can a DirectBranch message end on
 * one (without it the jump is inside the block). */
static bool jump_is_branch(const struct ntrace_decoder *d, bool htm, bool last, enum walk_end end)
{
	return d->cfg.all_jumps || (!htm && last && end == END_BRANCH);
}

static int take_branch_bit(struct ntrace_decoder *d, bool *taken)
{
	int bit = hist_take(d);

	if (bit < 0)
		return NTRACE_ERR_HIST_EMPTY;
	*taken = bit;
	return 0;
}

/*
 * Walk `icnt` half-words of code from d->pc (11.1).  Emits each instruction
 * address.  Errors: BAD_ICNT when I-CNT ends inside an instruction (8.4.1),
 * NO_CODE/ILLEGAL_INSN, UNINFERABLE when a PC cannot be followed.
 */
static int walk(struct ntrace_decoder *d, uint64_t icnt, enum walk_end end)
{
	uint64_t pc = d->pc, left = icnt;
	unsigned xlen = d->cfg.fmt.xlen;
	bool htm = d->htm;
	bool last_is_branch = false;
	int err = 0;

	d->prev_const = false;
	if (end == END_HIST) {
		left = d->walk_budget; /* bounded by the budget, ends on the last bit */
	} else {
		/* 11.1: part of the block may already have been walked for HIST */
		if (icnt < d->icnt_walked)
			return NTRACE_ERR_BAD_ICNT;
		left = icnt - d->icnt_walked;
		d->icnt_walked = 0;
		if (left > d->walk_budget)
			return NTRACE_ERR_WALK_LIMIT;
	}
	while (left) {
		const struct rv_insn *in = fetch(d, pc, &err);
		uint64_t next;
		bool last, taken;

		if (!in)
			break;
		if ((uint64_t)(in->size >> 1) > left) {
			err = NTRACE_ERR_BAD_ICNT;
			break;
		}
		left -= in->size >> 1;
		d->walk_budget -= in->size >> 1;
		if (end == END_HIST)
			d->icnt_walked += in->size >> 1;
		last = left == 0 && end != END_HIST;
		out_push(d, pc);
		d->stats.instructions++;
		next = pc + in->size;
		last_is_branch = false;
		switch (in->kind) {
		case RV_INSN_BRANCH:
			if (htm && hist_bit_may_be_missing(d, last, end)) {
				taken = false;
			} else if (htm) {
				err = take_branch_bit(d, &taken);
				if (err)
					goto out;
			} else {
				taken = last && end == END_BRANCH;
			}
			if (taken)
				next = rv_insn_direct_target(in, pc, xlen);
			last_is_branch = true;
			break;
		case RV_INSN_JUMP:
			if (d->cfg.all_jumps && htm && !hist_bit_may_be_missing(d, last, end)) {
				err = take_branch_bit(d, &taken);
				if (err)
					goto out;
			}
			if (d->cfg.implicit_return && in->itype4 == RV_ITYPE_INFERABLE_CALL)
				stack_push(d, pc + in->size);
			next = rv_insn_direct_target(in, pc, xlen);
			last_is_branch = jump_is_branch(d, htm, last, end);
			break;
		case RV_INSN_TABLE_JUMP:
			if (d->cfg.all_jumps && htm && !hist_bit_may_be_missing(d, last, end)) {
				err = take_branch_bit(d, &taken);
				if (err)
					goto out;
			}
			last_is_branch = jump_is_branch(d, htm, last, end);
			err = table_target(d, in, &next);
			if (err && !(last && end == END_ADDR))
				goto out;
			err = 0;
			if (d->cfg.implicit_return && in->itype4 == RV_ITYPE_INFERABLE_CALL)
				stack_push(d, pc + in->size);
			break;
		case RV_INSN_JUMP_REG:
		case RV_INSN_POPRET:
			if (!indirect_target(d, in, pc, &next) && !(last && end == END_ADDR)) {
				err = NTRACE_ERR_UNINFERABLE;
				goto out;
			}
			break;
		case RV_INSN_TRAP_RETURN:
			if (!(last && end == END_ADDR)) {
				err = NTRACE_ERR_UNINFERABLE;
				goto out;
			}
			break;
		default:
			break;
		}
		/* 9.1: remember a constant just loaded for the next instruction */
		d->prev_const = (in->flags & (RV_INSN_F_LUI | RV_INSN_F_AUIPC)) && in->rd;
		d->prev_const_rd = in->rd;
		d->prev_const_val = (in->flags & RV_INSN_F_AUIPC) ? pc + (uint64_t)in->imm : (uint64_t)in->imm;
		pc = rv_xlen_mask(next, xlen);
		if (end == END_HIST && last_is_branch && !hist_pending(d))
			break;
	}
	if (end == END_HIST && !err && hist_pending(d))
		err = NTRACE_ERR_WALK_LIMIT;
out:
	d->pc = pc;
	if (!err && end == END_BRANCH && !last_is_branch)
		err = NTRACE_ERR_NOT_BRANCH;
	if (err)
		d->icnt_walked = 0;
	return err;
}

/* ------------------------------------------------------------ messages */

/* A trap: the encoder starts it with an empty call stack (the instruction
 * before it may or may not have been counted, see the encoder). */
static void trap_event(struct ntrace_decoder *d, const struct ntrace_msg *m, unsigned btype)
{
	d->stack_count = d->stack_top = 0;
	struct ntrace_event ev = { .kind = NTRACE_EV_TRAP, .btype = (uint8_t)btype, .addr = d->pc,
				   .priv = d->priv, .context = d->context };

	d->stats.traps++;
	send_event(d, &ev, m);
}

/* Walk the block of a message; HIST of the message goes after any queued
 * ResourceFull HIST bits and must be used up by the walk. */
static int block(struct ntrace_decoder *d, const struct ntrace_msg *m, enum walk_end end)
{
	bool has_hist = ntrace_msg_has(m, NTRACE_FLD_HIST);
	int err;

	if (has_hist) {
		err = hist_queue(d, m->val[NTRACE_FLD_HIST], 1);
		if (err)
			return err;
	}
	err = walk(d, m->val[NTRACE_FLD_ICNT], end);
	if (!err && has_hist && hist_pending(d))
		err = NTRACE_ERR_HIST_LEFT;
	return err;
}

static int on_sync(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
	unsigned sync = (unsigned)m->val[NTRACE_FLD_SYNC];
	unsigned btype = (unsigned)m->val[NTRACE_FLD_BTYPE];
	uint64_t addr = ntrace_field_to_addr(m->val[NTRACE_FLD_FADDR], d->cfg.fmt.xlen);
	int err = 0;

	if (d->synced) {
		err = block(d, m, tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC ? END_BRANCH : END_ADDR);
		if (err)
			dec_error(d, err, d->base_offset + m->offset, tcode);
	}
	/* A sync message carries a full address: decoding (re)starts here. */
	if (!d->synced || ntrace_sync_resets_state(sync)) {
		d->stack_count = d->stack_top = 0;
		hist_clear(d);
	}
	d->synced = true;
	d->pc = addr;
	d->ref_addr = addr;
	d->last_branch_tcode = 0;
	d->stats.syncs++;
	if (ntrace_msg_has(m, NTRACE_FLD_BTYPE) && btype != NTRACE_BTYPE_INDIRECT)
		trap_event(d, m, btype);
	struct ntrace_event ev = { .kind = NTRACE_EV_SYNC, .sync = (uint8_t)sync, .btype = (uint8_t)btype,
				   .addr = addr, .priv = d->priv, .context = d->context };

	send_event(d, &ev, m);
	return err ? -err : 0;
}

static int on_branch(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
	unsigned btype = (unsigned)m->val[NTRACE_FLD_BTYPE];
	int err;

	if (tcode == NTRACE_TCODE_DIRECT_BRANCH) {
		err = block(d, m, END_BRANCH);
		if (err)
			return err;
		d->last_branch_target = d->pc;
	} else {
		err = block(d, m, END_ADDR);
		if (err)
			return err;
		/* 8.1: U-ADDR is XORed with the previous address */
		d->pc = d->ref_addr ^ ntrace_field_to_addr(m->val[NTRACE_FLD_UADDR], d->cfg.fmt.xlen);
		d->ref_addr = d->pc;
		d->last_branch_target = d->pc;
		if (btype != NTRACE_BTYPE_INDIRECT)
			trap_event(d, m, btype);
	}
	/* 7.11: RepeatBranch replays the previous branch message */
	d->last_branch_tcode = (btype == NTRACE_BTYPE_INDIRECT) ? (uint8_t)tcode : 0;
	d->last_branch_icnt = (uint32_t)m->val[NTRACE_FLD_ICNT];
	d->last_branch_hist = ntrace_msg_has(m, NTRACE_FLD_HIST) ? (uint32_t)m->val[NTRACE_FLD_HIST] : 0;
	return 0;
}

/*
 * RepeatBranch: "the decoder should just repeat handling of previous branch
 * message B-CNT times" (rc7 7.11; the ratified decoding algorithm repeats
 * "processing of the fields from previous trace message"): its I-CNT, its
 * HIST when it had one (the reference encoder repeats IndirectBranchHist
 * in HTM) and its full target, in either mode.
 */
static int on_repeat(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	uint64_t n = m->val[NTRACE_FLD_BCNT];
	bool direct = d->last_branch_tcode == NTRACE_TCODE_DIRECT_BRANCH;
	int err;

	if (!d->last_branch_tcode)
		return NTRACE_ERR_REPEAT;
	if (n * (d->last_branch_icnt ? d->last_branch_icnt : 1) > d->walk_budget)
		return NTRACE_ERR_WALK_LIMIT;
	for (uint64_t i = 0; i < n; i++) {
		err = hist_queue(d, d->last_branch_hist, 1);
		if (!err)
			err = walk(d, d->last_branch_icnt, direct ? END_BRANCH : END_ADDR);
		if (!err && d->last_branch_hist > 1 && hist_pending(d))
			err = NTRACE_ERR_HIST_LEFT;
		if (err)
			return err;
		if (!direct)
			d->pc = d->last_branch_target;
	}
	return 0;
}

static int on_resource_full(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	uint64_t rdata = m->val[NTRACE_FLD_RDATA];

	switch (m->val[NTRACE_FLD_RCODE]) {
	case NTRACE_RCODE_ICNT:
		if (rdata >> NTRACE_MAX_ICNT)
			return NTRACE_ERR_BAD_VALUE;
		return walk(d, rdata, END_NONE);
	case NTRACE_RCODE_HIST:
	case NTRACE_RCODE_HIST_REPEAT: {
		/* 11.1: follow the code until the HIST bits are used up, so
		 * HIST records never pile up; the I-CNT that comes later
		 * counts these instructions too (icnt_walked). */
		uint64_t n = m->val[NTRACE_FLD_RCODE] == NTRACE_RCODE_HIST ? 1 : m->val[NTRACE_FLD_HREPEAT];
		int err;

		if (!d->htm)
			return NTRACE_ERR_BAD_VALUE; /* no HIST in BTM */
		err = hist_queue(d, rdata, n);

		if (err || !hist_pending(d))
			return err;
		return walk(d, 0, END_HIST);
	}
	default:
		return NTRACE_ERR_BAD_VALUE;
	}
}

static int on_ownership(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	uint64_t p = m->val[NTRACE_FLD_PROCESS];
	unsigned format = p & 3;
	struct ntrace_event ev = { .kind = NTRACE_EV_OWNERSHIP, .format = (uint8_t)format };

	if (format == NTRACE_PROCESS_FORMAT_RESERVED)
		return NTRACE_ERR_BAD_VALUE;
	d->priv = (uint8_t)(((p >> 2) & 3) | ((p >> 4) & 1) << 2);
	if (format == NTRACE_PROCESS_FORMAT_SCONTEXT)
		d->context = p >> 5;
	ev.priv = d->priv;
	ev.context = format >= NTRACE_PROCESS_FORMAT_SCONTEXT ? p >> 5 : d->context;
	ev.addr = d->pc;
	send_event(d, &ev, m);
	return 0;
}

static int on_correlation(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	struct ntrace_event ev = { .kind = NTRACE_EV_STOP,
				   .evcode = (uint8_t)m->val[NTRACE_FLD_EVCODE] };
	int err = 0;

	if (d->synced)
		err = block(d, m, END_NONE);
	ev.addr = d->pc;
	ev.priv = d->priv;
	ev.context = d->context;
	if (!err)
		send_event(d, &ev, m);
	d->synced = false; /* trace stopped: the next start is a sync message */
	return err;
}

static void update_tstamp(struct ntrace_decoder *d, const struct ntrace_msg *m, unsigned tcode)
{
	if (!ntrace_msg_has(m, NTRACE_FLD_TSTAMP))
		return;
	/* 8.7: absolute on sync messages, relative to the previous otherwise */
	if (ntrace_is_sync_tcode(tcode)) {
		d->tstamp = m->val[NTRACE_FLD_TSTAMP];
		d->have_tstamp = true;
	} else {
		d->tstamp += m->val[NTRACE_FLD_TSTAMP];
	}
}

/*
 * NTRACE_INST_MODE_AUTO: the mode is told by the messages only one mode
 * has (DirectBranch[Sync] in BTM; IndirectBranchHist[Sync], ResourceFull
 * with HIST and ProgTraceCorrelation with CDF=1 in HTM).  The others (ProgTraceSync, IndirectBranch[Sync],
 * ResourceFull I-CNT, ...) walk the same either way: HTM uses them only
 * while HIST is empty (chapter 10, rule 4), so their blocks hold no
 * conditional branch.  The stream is taken as BTM until told otherwise.
 */
static void follow_mode(struct ntrace_decoder *d, const struct ntrace_msg *m, unsigned tcode)
{
	switch (tcode) {
	case NTRACE_TCODE_DIRECT_BRANCH:
	case NTRACE_TCODE_DIRECT_BRANCH_SYNC:
		d->htm = false;
		break;
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		d->htm = true;
		break;
	case NTRACE_TCODE_RESOURCE_FULL:
		if (m->val[NTRACE_FLD_RCODE] == NTRACE_RCODE_HIST ||
		    m->val[NTRACE_FLD_RCODE] == NTRACE_RCODE_HIST_REPEAT)
			d->htm = true;
		break;
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:
		if (m->val[NTRACE_FLD_CDF] == NTRACE_CDF_ICNT_HIST) /* Table 23: HIST follows */
			d->htm = true;
		break;
	default:
		break;
	}
}

int ntrace_dec_message(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	unsigned tcode = (unsigned)m->val[NTRACE_FLD_TCODE];
	int err = 0;

	if (d->cfg.fmt.src_bits && d->cfg.src_id >= 0 &&
	    m->val[NTRACE_FLD_SRC] != (uint64_t)d->cfg.src_id)
		return 0; /* 11.2: another hart's message */
	d->stats.messages++;
	if (d->cfg.inst_mode == NTRACE_INST_MODE_AUTO)
		follow_mode(d, m, tcode);
	update_tstamp(d, m, tcode);
	d->walk_budget = d->cfg.max_walk;
	if (ntrace_is_sync_tcode(tcode))
		return on_sync(d, m);
	if (tcode != NTRACE_TCODE_REPEAT_BRANCH)
		d->last_branch_tcode = 0;
	switch (tcode) {
	case NTRACE_TCODE_OWNERSHIP:
		err = on_ownership(d, m);
		break;
	case NTRACE_TCODE_ERROR: {
		struct ntrace_event ev = { .kind = NTRACE_EV_OVERFLOW,
					   .etype = (uint8_t)m->val[NTRACE_FLD_ETYPE],
					   .ecode = m->val[NTRACE_FLD_ECODE], .addr = d->pc };

		send_event(d, &ev, m);
		d->synced = false; /* 7.4: messages were lost; wait for SYNC=7 */
		return 0;
	}
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:
		err = on_correlation(d, m);
		break;
	case NTRACE_TCODE_DIRECT_BRANCH:
	case NTRACE_TCODE_INDIRECT_BRANCH:
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:
		if (d->synced)
			err = on_branch(d, m);
		else
			d->unsynced_skipped++;
		break;
	case NTRACE_TCODE_RESOURCE_FULL:
		if (d->synced)
			err = on_resource_full(d, m);
		else
			d->unsynced_skipped++;
		break;
	case NTRACE_TCODE_REPEAT_BRANCH:
		if (d->synced)
			err = on_repeat(d, m);
		else
			d->unsynced_skipped++;
		break;
	default:
		err = NTRACE_ERR_RESERVED_TCODE;
		break;
	}
	if (err)
		return dec_error(d, err, d->base_offset + m->offset, tcode);
	return 0;
}

int ntrace_dec_decode(struct ntrace_decoder *d, const uint8_t *buf, size_t len)
{
	uint64_t errors_before = d->stats.errors;
	size_t pos = 0;

	for (;;) {
		struct ntrace_msg m;
		struct ntrace_error perr;
		int rc = ntrace_msg_parse(&d->cfg.fmt, buf, len, &pos, &m, &perr);

		if (rc == 0)
			break;
		if (rc == -NTRACE_ERR_VENDOR_TCODE) {
			/* chapter 6: ignored by program-flow decoders, but shown */
			struct ntrace_event ev = { .kind = NTRACE_EV_IGNORED, .error = NTRACE_ERR_VENDOR_TCODE };

			send_event(d, &ev, &m);
			continue;
		}
		if (rc < 0) {
			dec_error(d, perr.code, d->base_offset + perr.offset,
				  (unsigned)m.val[NTRACE_FLD_TCODE]);
			continue;
		}
		ntrace_dec_message(d, &m);
	}
	ntrace_dec_flush(d);
	d->base_offset += len;
	return (int)(d->stats.errors - errors_before);
}

int ntrace_dec_finish(struct ntrace_decoder *d)
{
	int errors = 0;

	if (!d->stats.syncs && d->unsynced_skipped) {
		dec_error(d, NTRACE_ERR_NO_SYNC, d->base_offset, 0);
		errors = 1;
	}
	ntrace_dec_flush(d);
	return errors;
}

int ntrace_dec_init(struct ntrace_decoder *d, const struct ntrace_dec_config *cfg,
		    const struct ntrace_dec_ops *ops)
{
	if (!cfg || !ops || !ops->read_code)
		return -NTRACE_ERR_ARG;
	if ((cfg->fmt.xlen != 32 && cfg->fmt.xlen != 64) || cfg->fmt.src_bits > NTRACE_MAX_SRC)
		return -NTRACE_ERR_ARG;
	if (cfg->inst_mode != NTRACE_INST_MODE_BTM && cfg->inst_mode != NTRACE_INST_MODE_HTM &&
	    cfg->inst_mode != NTRACE_INST_MODE_AUTO)
		return -NTRACE_ERR_ARG;
	if (cfg->call_stack_depth > NTRACE_MAX_CALL_STACK)
		return -NTRACE_ERR_ARG;
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->ops = *ops;
	d->htm = cfg->inst_mode == NTRACE_INST_MODE_HTM;
	if (!d->cfg.call_stack_depth)
		d->cfg.call_stack_depth = NTRACE_MAX_CALL_STACK;
	if (!d->cfg.max_walk)
		d->cfg.max_walk = DEFAULT_MAX_WALK;
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Encode/decode drivers: trace text -> Trace Ingress Port records
 * (classified with rvinsn), records -> N-Trace bytes (lib/ntrace encoder),
 * N-Trace bytes -> retired instruction sequence (lib/ntrace decoder).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "ntrace_ingress.h"

/* Privilege reported in every record of a trace without privilege tokens:
 * all code is reported as M-mode (only visible in Ownership messages). */
#define NT_TOOL_PRIV NTRACE_PRV_M

/* Highest trTeInstSyncMax: sync every 2^(15+4) messages. */
#define NT_TOOL_SYNC_MAX_LIMIT 15

void nt_tool_config_default(struct nt_tool_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = NT_TOOL_HTM;
	cfg->xlen = 64;
	cfg->max_errors = NT_DIAG_MAX_DEFAULT;
}

static bool implicit_return_on(const struct nt_tool_config *cfg)
{
	return cfg->implicit_return_mode != 0;
}

void nt_tool_format(const struct nt_tool_config *cfg, struct ntrace_format *out)
{
	memset(out, 0, sizeof(*out));
	out->xlen = (uint8_t)cfg->xlen;
	out->src_bits = (uint8_t)cfg->src_bits;
	out->extend_addr_msb = cfg->ext_addr;
}

/* --sync-period N: periodic sync messages (trTeInstSyncMode = 1) every
 * 2^(trTeInstSyncMax + 4) messages, the largest such period <= N (>= 16). */
static uint8_t sync_max_for_period(uint32_t period)
{
	uint8_t max = 0;
	while (max < NT_TOOL_SYNC_MAX_LIMIT && ((uint64_t)1 << (max + 5)) <= period)
		max++;
	return max;
}

void nt_tool_enc_config(const struct nt_tool_config *cfg, struct ntrace_enc_config *out)
{
	memset(out, 0, sizeof(*out));
	out->trTeInstMode = cfg->mode == NT_TOOL_BTM ? NTRACE_INST_MODE_BTM : NTRACE_INST_MODE_HTM;
	out->trTeContext = cfg->context;
	out->trTeInhibitSrc = cfg->src_bits == 0;
	if (cfg->sync_mode) {
		out->trTeInstSyncMode = cfg->sync_mode;
		out->trTeInstSyncMax = cfg->sync_max;
	} else if (cfg->sync_period) {
		out->trTeInstSyncMode = NTRACE_SYNC_MODE_MESSAGES;
		out->trTeInstSyncMax = sync_max_for_period(cfg->sync_period);
	}
	out->trTeInstEnSequentialJump = cfg->seq_jump;
	out->trTeInstEnImplicitReturn = implicit_return_on(cfg);
	out->trTeInstImplicitReturnMode = (uint8_t)cfg->implicit_return_mode;
	/* One control bit: repeated HIST in HTM, RepeatBranch in BTM. */
	out->trTeInstEnRepeatedHistory = cfg->mode == NT_TOOL_BTM ? cfg->repeat_branch
								  : cfg->repeat_history;
	out->trTeInstEnAllJumps = cfg->all_jumps;
	out->trTeInstExtendAddrMSB = cfg->ext_addr;
	out->trTeSrcID = (uint16_t)cfg->src_id;
	out->trTeSrcBits = (uint8_t)cfg->src_bits;
	out->trTsEnable = cfg->timestamp;
	out->xlen = (uint8_t)cfg->xlen;
	out->call_stack_depth = (uint8_t)cfg->callstack;
	/* B-TYPE 2/3 keep exceptions and interrupts apart (the exc/int markers). */
	out->btype_trap_as_1 = false;
}

/*
 * What the decoder is not told it infers, as the spec lets a decoder do
 * unaided (lib/ntrace/README.md, "Decoding without options"):
 *  - the mode, from the messages only one mode has;
 *  - implicit returns, with the largest stack (9.2: a decoder that does not
 *    know the depth assumes the maximum): a return inside a block can only
 *    have been implicit, and a deeper stack than the encoder's holds the
 *    same top entries;
 *  - sequential jumps (9.1): likewise, a jalr inside a block after a
 *    constant was loaded into its rs1 can only have been inferred.
 * Repeated history and RepeatBranch are messages of their own.
 */
void nt_tool_dec_config(const struct nt_tool_config *cfg, struct ntrace_dec_config *out)
{
	memset(out, 0, sizeof(*out));
	nt_tool_format(cfg, &out->fmt);
	out->src_id = cfg->src_bits && cfg->src_id_set ? (int32_t)cfg->src_id : -1;
	if (!cfg->mode_set)
		out->inst_mode = NTRACE_INST_MODE_AUTO;
	else
		out->inst_mode = cfg->mode == NT_TOOL_BTM ? NTRACE_INST_MODE_BTM : NTRACE_INST_MODE_HTM;
	out->isa_ext = RV_EXT_C;
	out->implicit_return = cfg->return_set ? implicit_return_on(cfg) : true;
	out->call_stack_depth = cfg->return_set ? (uint8_t)cfg->callstack : NTRACE_MAX_CALL_STACK;
	out->sequential_jump = true;
	out->all_jumps = cfg->all_jumps;
}

void nt_buf_free(struct nt_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void nt_records_free(struct nt_records *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* ---- Classification --------------------------------------------------------- */

struct classifier {
	struct nt_image_set *images;
	const struct nt_tool_config *cfg;
	const char *name;
	struct nt_err *err;
	bool itype4;
};

static const char *kind_name(unsigned kind)
{
	static const char *const names[] = {
		[RV_INSN_INVALID] = "invalid instruction",
		[RV_INSN_LINEAR] = "linear instruction",
		[RV_INSN_BRANCH] = "conditional branch",
		[RV_INSN_JUMP] = "direct jump",
		[RV_INSN_JUMP_REG] = "indirect jump",
		[RV_INSN_TABLE_JUMP] = "table jump",
		[RV_INSN_POPRET] = "cm.popret",
		[RV_INSN_TRAP_RETURN] = "trap return",
		[RV_INSN_TRAP] = "ecall/ebreak",
	};
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "instruction";
}

/* Decodes the instruction at r->pc from the images. */
static int fetch_insn(struct classifier *c, const struct nt_retired *r, struct rv_insn *in)
{
	uint64_t avail = 0;
	const uint8_t *p = nt_images_lookup(c->images, r->pc, &avail);
	if (!p || avail < 2) {
		nt_err_set(c->err, "%s:%u: pc %" PRIx64 " is outside every program image",
			   c->name, r->line, r->pc);
		return -1;
	}
	uint16_t parcel = (uint16_t)(p[0] | p[1] << 8);
	unsigned len = rv_insn_length(parcel, RV_EXT_C);
	if (len == 0 || len > avail) {
		nt_err_set(c->err, len == 0
			   ? "%s:%u: pc %" PRIx64 ": unsupported instruction length"
			   : "%s:%u: pc %" PRIx64 ": instruction runs past the end of its image",
			   c->name, r->line, r->pc);
		return -1;
	}
	uint32_t raw = parcel;
	if (len >= 4)
		raw |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (rv_insn_decode(raw, c->cfg->xlen, RV_EXT_C, in) == 0) {
		nt_err_set(c->err, "%s:%u: pc %" PRIx64 ": invalid instruction 0x%0*" PRIx32,
			   c->name, r->line, r->pc, len == 2 ? 4 : 8, raw);
		return -1;
	}
	return 0;
}

static int bad_transition(struct classifier *c, const struct nt_retired *r,
			  const struct rv_insn *in, const struct nt_retired *next)
{
	uint64_t avail;
	if (!nt_images_lookup(c->images, next->pc, &avail)) {
		nt_err_set(c->err, "%s:%u: pc %" PRIx64 " is outside every program image",
			   c->name, next->line, next->pc);
		return -1;
	}
	nt_err_set(c->err, "%s:%u: pc %" PRIx64 " (%s) cannot continue at %" PRIx64
		   " (line %u); mark the line 'exc' or 'int' if a trap was taken",
		   c->name, r->line, r->pc, kind_name(in->kind), next->pc, next->line);
	return -1;
}

/*
 * Fills rec for trace line r given the following line (NULL at the end of
 * the trace).  *after is where execution continues when that is known from
 * the instruction alone.
 */
static int classify_line(struct classifier *c, const struct nt_retired *r,
			 const struct nt_retired *next, struct rv_insn *in,
			 struct ntrace_retired *rec, uint64_t *after)
{
	unsigned xlen = c->cfg->xlen;
	if (fetch_insn(c, r, in))
		return -1;
	uint64_t fall = rv_xlen_mask(r->pc + in->size, xlen);
	bool taken = false;
	*after = fall;
	if (in->kind == RV_INSN_BRANCH || in->kind == RV_INSN_JUMP) {
		uint64_t target = rv_insn_direct_target(in, r->pc, xlen);
		/* A branch to pc+size looks the same either way: not taken. */
		taken = in->kind == RV_INSN_JUMP || (next && next->pc != fall && next->pc == target);
		if (taken)
			*after = target;
	}
	rec->addr = r->pc;
	rec->size = in->size;
	rec->itype = (uint8_t)rv_insn_itype(in, taken, c->itype4, c->cfg->all_jumps);
	if (r->event == NT_EVENT_EXCEPTION) {
		rec->itype = RV_ITYPE_EXCEPTION;
		return 0;
	}
	if (r->event == NT_EVENT_INTERRUPT) {
		rec->itype = RV_ITYPE_INTERRUPT;
		return 0;
	}
	if (!next)
		return 0;
	switch (in->kind) {
	case RV_INSN_LINEAR:
	case RV_INSN_BRANCH:
	case RV_INSN_JUMP:
		if (next->pc != *after)
			return bad_transition(c, r, in, next);
		return 0;
	default:        /* indirect, trap return, ecall/ebreak: any target */
		return 0;
	}
}

/* Table 2 itype of a pcseq class. */
static unsigned seq_class_itype(unsigned cls, bool itype4)
{
	switch (cls) {
	case NT_SEQ_BRANCH_TAKEN: return RV_ITYPE_TAKEN_BRANCH;
	case NT_SEQ_BRANCH_NOT_TAKEN: return RV_ITYPE_NOT_TAKEN_BRANCH;
	case NT_SEQ_JUMP_DIRECT: return itype4 ? RV_ITYPE_OTHER_INFERABLE_JUMP : RV_ITYPE_NONE;
	case NT_SEQ_JUMP_INDIRECT: return itype4 ? RV_ITYPE_OTHER_UNINFERABLE_JUMP : RV_ITYPE_UNINFERABLE_JUMP;
	case NT_SEQ_CALL_DIRECT: return itype4 ? RV_ITYPE_INFERABLE_CALL : RV_ITYPE_NONE;
	case NT_SEQ_CALL_INDIRECT: return itype4 ? RV_ITYPE_UNINFERABLE_CALL : RV_ITYPE_UNINFERABLE_JUMP;
	case NT_SEQ_RETURN: return itype4 ? RV_ITYPE_RETURN : RV_ITYPE_UNINFERABLE_JUMP;
	case NT_SEQ_TRAP_RETURN: return RV_ITYPE_TRAP_RETURN;
	case NT_SEQ_TRAP_INSN: return RV_ITYPE_EXCEPTION;
	default: return RV_ITYPE_NONE;
	}
}

static void classify_seq_line(struct classifier *c, const struct nt_retired *r,
			      struct ntrace_retired *rec)
{
	rec->addr = r->pc;
	rec->size = r->seq_size;
	rec->itype = (uint8_t)seq_class_itype(r->seq_class, c->itype4);
	if (r->event == NT_EVENT_EXCEPTION)
		rec->itype = RV_ITYPE_EXCEPTION;
	else if (r->event == NT_EVENT_INTERRUPT)
		rec->itype = RV_ITYPE_INTERRUPT;
}

/* Carried from one record to the next (and across chunks). */
struct classify_state {
	struct rv_insn prev;
	bool prev_ok;           /* prev is the instruction retired just before */
	uint64_t after;         /* where execution continues after the last record */
};

/* The line where execution of the traced privileges goes on after line i:
 * the next one that is not an M-mode excursion (NULL at the end). */
static const struct nt_retired *next_line(const struct nt_trace *trace, size_t i)
{
	while (++i < trace->count)
		if (trace->v[i].priv != NT_PRIV_M)
			return &trace->v[i];
	return NULL;
}

/* Classifies trace lines [first, first + n) into recs[0..n). */
static int classify_range(struct classifier *c, const struct nt_trace *trace,
			  struct classify_state *st, size_t first, size_t n,
			  struct ntrace_retired *recs)
{
	const struct nt_tool_config *cfg = c->cfg;
	for (size_t k = 0; k < n; k++) {
		size_t i = first + k;
		const struct nt_retired *r = &trace->v[i];
		const struct nt_retired *next = next_line(trace, i);
		struct ntrace_retired *rec = &recs[k];
		struct rv_insn cur;
		memset(rec, 0, sizeof(*rec));
		if (cfg->xlen == 32 && r->pc > UINT32_MAX) {
			nt_err_set(c->err, "%s:%u: pc %" PRIx64 " does not fit in XLEN=32",
				   c->name, r->line, r->pc);
			return -1;
		}
		if (r->priv == NT_PRIV_M) {
			/* The firmware's M-mode excursion as its ingress sees it
			 * (firmware/trace/stepper.c, sbi_call_trap): a record of no
			 * size at the M-mode address.  Never traced, not classified. */
			rec->addr = r->pc;
			rec->priv = NTRACE_PRV_M;
			if (cfg->timestamp)
				rec->tstamp = i;
			st->after = r->pc;
			st->prev_ok = false;
			continue;
		}
		if (r->seq_class != NT_SEQ_UNKNOWN) {
			classify_seq_line(c, r, rec);
			st->after = r->pc + r->seq_size;
			st->prev_ok = false;
		} else {
			if (classify_line(c, r, next, &cur, rec, &st->after))
				return -1;
			/* 9.1: jump through a register just loaded by lui/auipc. */
			if (cfg->seq_jump && st->prev_ok && !r->event && cur.kind == RV_INSN_JUMP_REG &&
			    rv_insn_seq_inferable(&st->prev, &cur) &&
			    (!next || next->pc == rv_insn_seq_target(&st->prev, trace->v[i - 1].pc,
								     &cur, cfg->xlen)))
				rec->flags |= NTRACE_REC_SEQ_INFERABLE;
			st->prev = cur;
			st->prev_ok = !r->event;
		}
		rec->priv = (uint8_t)(trace->has_priv ? nt_priv_record(r->priv) : NT_TOOL_PRIV);
		if (cfg->timestamp)
			rec->tstamp = i;
	}
	return 0;
}

/* Qualification options need the privileges of the lines. */
static int check_qualification(const struct nt_trace *trace, const struct nt_tool_config *cfg,
			       const char *name, struct nt_err *err)
{
	if ((cfg->trace_priv || cfg->trace_range) && !trace->has_priv) {
		nt_err_set(err, "%s: --trace-priv and --trace-range need a privilege token (U, S, M, "
			   "VU or VS) at the end of every line; line %u has none",
			   name, trace->count ? trace->v[0].line : 0);
		return -1;
	}
	return 0;
}

int nt_records_from_trace(struct nt_image_set *images, const struct nt_trace *trace,
			  const struct nt_tool_config *cfg, const char *name,
			  struct nt_records *out, struct nt_err *err)
{
	struct classifier c = { images, cfg, name, err, implicit_return_on(cfg) };
	struct classify_state st = { 0 };
	memset(out, 0, sizeof(*out));
	if (trace->count == 0) {
		nt_err_set(err, "%s: no instructions in the trace", name);
		return -1;
	}
	if (check_qualification(trace, cfg, name, err))
		return -1;
	out->v = calloc(trace->count, sizeof(*out->v));
	if (!out->v) {
		nt_err_set(err, "%s: out of memory for %zu records", name, trace->count);
		return -1;
	}
	if (classify_range(&c, trace, &st, 0, trace->count, out->v)) {
		nt_records_free(out);
		return -1;
	}
	out->count = trace->count;
	out->end_addr = rv_xlen_mask(st.after, cfg->xlen);
	out->ingress = trace->has_priv;
	return 0;
}

/* ---- Blocks -------------------------------------------------------------------- */

void nt_block_cut_init(struct nt_block_cutter *c, nt_block_fn *fn, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->ctx = ctx;
}

static bool can_be_in_run(const struct ntrace_retired *r)
{
	return r->itype == RV_ITYPE_NONE && (r->size == 2 || r->size == 4);
}

static bool extends_run(const struct nt_block_cutter *c, const struct ntrace_retired *r)
{
	const struct ntrace_block *b = &c->run;

	return b->count < NTRACE_BLOCK_MAX && r->addr == c->next_addr && r->priv == b->priv &&
	       r->context == b->context && r->tstamp == b->tstamp;
}

void nt_block_cut(struct nt_block_cutter *c, const struct ntrace_retired *recs, size_t n)
{
	struct ntrace_block *b = &c->run;

	for (size_t i = 0; i < n; i++) {
		const struct ntrace_retired *r = &recs[i];

		if (!can_be_in_run(r)) {
			c->fn(c->ctx, b, r);
			b->count = 0;
			continue;
		}
		if (b->count && !extends_run(c, r)) {
			c->fn(c->ctx, b, NULL);
			b->count = 0;
		}
		if (!b->count)
			*b = (struct ntrace_block){ .addr = r->addr, .tstamp = r->tstamp,
						    .context = r->context, .priv = r->priv };
		if (r->size == 2)
			b->rvc_mask |= 1ull << b->count;
		b->count++;
		c->next_addr = r->addr + r->size;
	}
}

void nt_block_cut_finish(struct nt_block_cutter *c)
{
	if (c->run.count)
		c->fn(c->ctx, &c->run, NULL);
	c->run.count = 0;
}

/* ---- Ingress cuts (the firmware's calls) ------------------------------------ */

void nt_ingress_cut_init(struct nt_ingress_cutter *c, nt_block_fn *block, nt_single_fn *single,
			 void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->block = block;
	c->single = single;
	c->ctx = ctx;
}

/* r continues the open run: the next instruction, same priv/context/tstamp. */
static bool continues_run(const struct nt_ingress_cutter *c, const struct ntrace_retired *r)
{
	const struct ntrace_retired *last = &c->run[c->count - 1];

	return r->addr == last->addr + last->size && r->priv == last->priv &&
	       r->context == last->context && r->tstamp == last->tstamp;
}

/* The open run: all but its last instruction as the block, the last one
 * as the end record (firmware/trace/stepper.c: held_run, held_end). */
static void run_out(struct nt_ingress_cutter *c)
{
	struct ntrace_block b;

	if (!c->count)
		return;
	b = (struct ntrace_block){ .addr = c->run[0].addr, .tstamp = c->run[0].tstamp,
				   .context = c->run[0].context, .count = (uint8_t)(c->count - 1),
				   .priv = c->run[0].priv };
	for (unsigned i = 0; i + 1 < c->count; i++)
		if (c->run[i].size == 2)
			b.rvc_mask |= 1ull << i;
	c->block(c->ctx, &b, &c->run[c->count - 1]);
	c->count = 0;
}

void nt_ingress_cut(struct nt_ingress_cutter *c, const struct ntrace_retired *recs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ntrace_retired *r = &recs[i];
		bool sized = r->size == 2 || r->size == 4;
		bool joins = sized && c->count && c->count < NTRACE_BLOCK_MAX && continues_run(c, r);

		if (!r->size) {
			/* An M-mode excursion, or a trap with nothing retired:
			 * the firmware's engine_record(). */
			run_out(c);
			c->single(c->ctx, r);
		} else if (r->itype == RV_ITYPE_NONE && sized) {
			if (!joins)
				run_out(c);
			c->run[c->count++] = *r;
		} else if ((r->itype == RV_ITYPE_EXCEPTION || r->itype == RV_ITYPE_INTERRUPT) && joins) {
			/* The trap marks the run's last instruction. */
			c->run[c->count++] = *r;
			run_out(c);
		} else {
			/* A transfer (or a trap after one): alone, as the end of an
			 * empty block. */
			struct ntrace_block none = { .addr = r->addr, .tstamp = r->tstamp,
						     .context = r->context, .priv = r->priv };

			run_out(c);
			c->block(c->ctx, &none, r);
		}
	}
}

void nt_ingress_cut_finish(struct nt_ingress_cutter *c)
{
	run_out(c);
}

/* ---- Feeding the encoder ------------------------------------------------------ */

/* Where the records go: straight to the encoder, or through the qualified
 * ingress (privileges known). */
struct feeder {
	const struct nt_tool_config *cfg;
	struct ntrace_encoder *enc;
	struct ntrace_ingress *in;      /* NULL: no ingress */
	struct nt_block_cutter cut;
	struct nt_ingress_cutter icut;
};

static void feed_block(void *ctx, const struct ntrace_block *b, const struct ntrace_retired *end)
{
	struct feeder *f = ctx;

	if (f->in)
		ntrace_ingress_block(f->in, b, end);
	else
		ntrace_enc_block(f->enc, b, end);
}

static void feed_single(void *ctx, const struct ntrace_retired *r)
{
	struct feeder *f = ctx;

	ntrace_ingress_retire(f->in, r, 1);
}

static void feeder_init(struct feeder *f, const struct nt_tool_config *cfg,
			struct ntrace_encoder *enc, struct ntrace_ingress *in)
{
	f->cfg = cfg;
	f->enc = enc;
	f->in = in;
	nt_block_cut_init(&f->cut, feed_block, f);
	nt_ingress_cut_init(&f->icut, feed_block, feed_single, f);
}

/* Hands recs[0..n) to the encoder as cfg->feed says. */
static void feed(struct feeder *f, const struct ntrace_retired *recs, size_t n)
{
	switch (f->cfg->feed) {
	case NT_FEED_RECORDS:
		for (size_t i = 0; i < n; i++) {
			if (f->in)
				ntrace_ingress_retire(f->in, &recs[i], 1);
			else
				ntrace_enc_retire(f->enc, &recs[i], 1);
		}
		break;
	case NT_FEED_BLOCKS:
		if (f->in)
			nt_ingress_cut(&f->icut, recs, n);
		else
			nt_block_cut(&f->cut, recs, n);
		break;
	case NT_FEED_CHUNKS:
		if (f->in)
			ntrace_ingress_retire(f->in, recs, n);
		else
			ntrace_enc_retire(f->enc, recs, n);
		break;
	default:        /* the firmware's calls through the ingress, else chunks */
		if (f->in)
			nt_ingress_cut(&f->icut, recs, n);
		else
			ntrace_enc_retire(f->enc, recs, n);
		break;
	}
}

static void feed_finish(struct feeder *f)
{
	nt_block_cut_finish(&f->cut);
	nt_ingress_cut_finish(&f->icut);
}

/* ---- Encoding ------------------------------------------------------------------ */

static int buf_append(void *ctx, const uint8_t *data, size_t len)
{
	struct nt_buf *b = ctx;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + len)
			cap *= 2;
		uint8_t *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

/* An encoder and, with privileges, the ingress and filter around it. */
struct encoding {
	struct ntrace_encoder enc;
	struct ntrace_ingress in;
	struct tci_qualifier qual;
	bool ingress;
	struct feeder feed;
};

/* Trace starts: without the ingress the encoder at once (ProgTraceSync at
 * the first record); with it as the firmware's engine_start() does. */
static struct encoding *encoding_start(const struct nt_tool_config *cfg, bool ingress,
				       struct nt_buf *out, struct nt_err *err)
{
	struct ntrace_enc_config ecfg;
	nt_tool_enc_config(cfg, &ecfg);
	struct ntrace_sink sink = { buf_append, out };
	struct encoding *x = calloc(1, sizeof(*x));
	if (!x) {
		nt_err_set(err, "out of memory");
		return NULL;
	}
	int rc = ntrace_enc_init(&x->enc, &ecfg, &sink);
	if (rc < 0) {
		nt_err_set(err, "encoder rejected the configuration: %s", ntrace_strerror(rc));
		free(x);
		return NULL;
	}
	x->ingress = ingress;
	if (ingress) {
		struct tci_filter_regs regs;

		nt_tool_filter_regs(cfg, &regs);
		tci_qualifier_init(&x->qual, &regs);
		ntrace_ingress_start(&x->in, &x->enc, &x->qual);
	} else {
		ntrace_enc_start(&x->enc, NTRACE_SYNC_TRACE_ENABLE);
	}
	feeder_init(&x->feed, cfg, &x->enc, ingress ? &x->in : NULL);
	return x;
}

/* Stops the trace (ProgTraceCorrelation), flushes and frees the encoder. */
static int encoding_finish(struct encoding *x, const struct nt_tool_config *cfg,
			   uint64_t end_addr, uint64_t count, struct ntrace_enc_stats *stats,
			   struct nt_err *err)
{
	uint64_t tstamp = cfg->timestamp ? count : 0;
	int rc = 0;

	feed_finish(&x->feed);
	if (x->ingress) {
		ntrace_ingress_stop(&x->in, end_addr, tstamp);
	} else {
		ntrace_enc_stop(&x->enc, NTRACE_EVCODE_TRACE_DISABLED, end_addr, tstamp);
		rc = ntrace_enc_flush(&x->enc);
	}
	if (rc < 0 || x->enc.stats.lost_bytes) {
		nt_err_set(err, "encoder output lost (%" PRIu64 " bytes): out of memory",
			   x->enc.stats.lost_bytes);
		rc = -1;
	}
	if (stats)
		*stats = x->enc.stats;
	free(x);
	return rc < 0 ? -1 : 0;
}

int nt_encode_records(const struct nt_tool_config *cfg, const struct nt_records *recs,
		      struct nt_buf *out, struct ntrace_enc_stats *stats,
		      struct nt_err *err)
{
	struct encoding *x = encoding_start(cfg, recs->ingress, out, err);
	if (!x)
		return -1;
	feed(&x->feed, recs->v, recs->count);
	return encoding_finish(x, cfg, recs->end_addr, recs->count, stats, err);
}

#define NT_ENCODE_CHUNK 4096

int nt_encode_trace(struct nt_image_set *images, const struct nt_trace *trace,
		    const struct nt_tool_config *cfg, const char *name,
		    struct nt_buf *out, struct ntrace_enc_stats *stats, struct nt_err *err)
{
	struct classifier c = { images, cfg, name, err, implicit_return_on(cfg) };
	struct classify_state st = { 0 };
	if (trace->count == 0) {
		nt_err_set(err, "%s: no instructions in the trace", name);
		return -1;
	}
	if (check_qualification(trace, cfg, name, err))
		return -1;
	struct ntrace_retired *chunk = malloc(NT_ENCODE_CHUNK * sizeof(*chunk));
	struct encoding *x = chunk ? encoding_start(cfg, trace->has_priv, out, err) : NULL;
	if (!x) {
		if (!chunk)
			nt_err_set(err, "out of memory");
		free(chunk);
		return -1;
	}
	for (size_t first = 0; first < trace->count; first += NT_ENCODE_CHUNK) {
		size_t n = trace->count - first < NT_ENCODE_CHUNK ? trace->count - first
								  : NT_ENCODE_CHUNK;
		if (classify_range(&c, trace, &st, first, n, chunk)) {
			free(x);
			free(chunk);
			return -1;
		}
		feed(&x->feed, chunk, n);
	}
	free(chunk);
	return encoding_finish(x, cfg, rv_xlen_mask(st.after, cfg->xlen), trace->count, stats, err);
}

/* ---- Decoding ------------------------------------------------------------------ */

struct decode_ctx {
	struct nt_image_set *images;
	struct nt_trace *out;
	struct nt_diag diag;    /* every error is counted here */
	bool no_sync;           /* the decoder found instructions but no sync message */
	bool oom;
	size_t offset_bias;     /* where the decoded part starts in the input */
	/* streaming to text: the last pc waits for a possible trap marker */
	FILE *text;
	const struct nt_symtab *symbols;        /* listing lines instead of .pcs */
	/* or handing each instruction and event to a visitor */
	const struct nt_visitor *visit;
	const struct ntrace_decoder *dec;       /* its timestamp for the visitor */
	struct nt_step step;
	bool have_last;
	bool write_error;
	struct nt_retired last;
};

static void text_flush_last(struct decode_ctx *d)
{
	char line[640];
	if (!d->have_last)
		return;
	int n = d->symbols ? nt_listing_format_line(line, sizeof(line), d->last.pc, d->last.event,
						      d->symbols)
			   : nt_pcs_format_line(line, sizeof(line), d->last.pc, d->last.event);
	if (n >= (int)sizeof(line)) {   /* a symbol name of 600 characters: cut */
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	if (fwrite(line, 1, (size_t)n, d->text) != (size_t)n)
		d->write_error = true;
	d->have_last = false;
}

static int read_code(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct decode_ctx *d = ctx;
	return nt_images_read(d->images, addr, dst, len);
}

/* The visitor's instruction waits, like a text line, for its trap marker. */
static void visit_flush_last(struct decode_ctx *d)
{
	if (!d->have_last)
		return;
	d->visit->step(d->visit->ctx, &d->step);
	d->have_last = false;
}

static void visit_retired(struct decode_ctx *d, const uint64_t *addrs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		visit_flush_last(d);
		d->step = (struct nt_step){ .pc = addrs[i], .has_tstamp = d->dec->have_tstamp,
					    .tstamp = d->dec->tstamp };
		d->have_last = true;
	}
}

static void on_retired(void *ctx, const uint64_t *addrs, size_t n)
{
	struct decode_ctx *d = ctx;
	if (d->visit) {
		visit_retired(d, addrs, n);
		return;
	}
	if (d->text) {
		for (size_t i = 0; i < n; i++) {
			text_flush_last(d);
			d->last = (struct nt_retired){ .pc = addrs[i] };
			d->have_last = true;
		}
		return;
	}
	if (!d->out)
		return;
	for (size_t i = 0; i < n; i++) {
		struct nt_retired r = { .pc = addrs[i] };
		if (nt_trace_push(d->out, &r))
			d->oom = true;
	}
}

static void on_event(void *ctx, const struct ntrace_event *ev)
{
	struct decode_ctx *d = ctx;
	size_t offset = ev->offset + d->offset_bias;
	if (d->visit) {
		if (ev->kind == NTRACE_EV_TRAP && d->have_last)
			d->step.event = ev->btype == NTRACE_BTYPE_INTERRUPT ? NT_EVENT_INTERRUPT
									   : NT_EVENT_EXCEPTION;
		visit_flush_last(d);
		if (d->visit->event) {
			struct ntrace_event shown = *ev;

			shown.offset = offset;
			d->visit->event(d->visit->ctx, &shown);
		}
	}
	switch (ev->kind) {
	case NTRACE_EV_TRAP:
		/* The trap was taken right after the last retired instruction. */
		if (d->text && d->have_last)
			d->last.event = ev->btype == NTRACE_BTYPE_INTERRUPT ? NT_EVENT_INTERRUPT
									   : NT_EVENT_EXCEPTION;
		else if (!d->text && d->out && d->out->count)
			d->out->v[d->out->count - 1].event =
				ev->btype == NTRACE_BTYPE_INTERRUPT ? NT_EVENT_INTERRUPT
								    : NT_EVENT_EXCEPTION;
		break;
	case NTRACE_EV_ERROR:
		/* A stream without any sync message gets one line of its own
		 * at the end (no_sync_message()), whatever else it holds. */
		if (ev->error != NTRACE_ERR_NO_SYNC)
			nt_diag_error(&d->diag, offset, "%s (decoding resumes at the next sync "
				      "message)", ntrace_strerror(ev->error));
		d->no_sync |= ev->error == NTRACE_ERR_NO_SYNC;
		break;
	case NTRACE_EV_OVERFLOW:
		nt_diag_error(&d->diag, offset, "Error message: trace lost (encoder overflow)");
		break;
	case NTRACE_EV_IGNORED:
		nt_diag_error(&d->diag, offset, "message with TCODE %s skipped",
			      ntrace_tcode_name(ev->tcode));
		break;
	default:
		break;
	}
}

/* Messages that carry a full address and (re)start decoding (8.7). */
static bool is_sync_tcode(unsigned tcode)
{
	return tcode == NTRACE_TCODE_PROG_TRACE_SYNC || tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC;
}

/*
 * A wrapped circular buffer read from its oldest byte starts inside a
 * message, usually: decoding starts at the first synchronisation message
 * after the first end-of-message byte (MSEO = 11, also an idle byte).
 * Returns that message's offset (len when there is none); malformed bytes
 * on the way are reported as errors.
 */
static size_t wrapped_start(struct decode_ctx *d, const struct ntrace_dec_config *dcfg,
			    const uint8_t *nex, size_t len)
{
	size_t pos = 0;

	while (pos < len && (nex[pos] & NTRACE_MSEO_MASK) != NTRACE_MSEO_END_MSG)
		pos++;
	if (pos < len)
		pos++;
	for (;;) {
		struct ntrace_msg m;
		struct ntrace_error perr;
		int rc = ntrace_msg_parse(&dcfg->fmt, nex, len, &pos, &m, &perr);

		if (rc == 0)
			return len;
		if (rc == -NTRACE_ERR_VENDOR_TCODE)
			continue;
		if (rc < 0) {
			nt_diag_error(&d->diag, perr.offset, "%s (in the part of the wrapped buffer "
				      "before the first synchronisation message)",
				      ntrace_strerror(perr.code));
			continue;
		}
		if (is_sync_tcode((unsigned)m.val[NTRACE_FLD_TCODE]) &&
		    (!dcfg->fmt.src_bits || dcfg->src_id < 0 ||
		     m.val[NTRACE_FLD_SRC] == (uint64_t)dcfg->src_id))
			return m.offset;
	}
}

bool nt_event_breaks_flow(const struct ntrace_event *ev)
{
	return ev->kind == NTRACE_EV_STOP || ev->kind == NTRACE_EV_ERROR ||
	       ev->kind == NTRACE_EV_OVERFLOW;
}

/*
 * For a visitor, one message at a time (the input cut after each
 * end-of-message byte): the decoder hands over each message's instructions
 * before the next message's timestamp replaces its own (8.7), so every
 * instruction carries the timestamp of the message that reported it.
 */
static void decode_by_message(struct ntrace_decoder *d, const uint8_t *nex, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		if ((nex[i] & NTRACE_MSEO_MASK) == NTRACE_MSEO_END_MSG) {
			ntrace_dec_decode(d, nex + start, i + 1 - start);
			start = i + 1;
		}
	}
	if (start < len)
		ntrace_dec_decode(d, nex + start, len - start);
}

static void no_sync_error(struct decode_ctx *ctx, const struct nt_tool_config *cfg,
			  const uint8_t *nex, size_t len, const struct ntrace_dec_stats *st)
{
	char src[32] = "", what[96];
	size_t idle = 0;

	for (size_t i = 0; i < len; i++)
		idle += nex[i] == NTRACE_IDLE_BYTE;
	if (cfg->src_id_set && cfg->src_bits)
		snprintf(src, sizeof(src), " of SRC %" PRIu32, cfg->src_id);
	if (len == 0)
		snprintf(what, sizeof(what), "no bytes");
	else if (idle == len)
		snprintf(what, sizeof(what), "%zu bytes, all idle", len);
	else
		snprintf(what, sizeof(what), "%zu bytes, %zu idle; %" PRIu64 " message%s%s", len,
			 idle, st->messages, st->messages == 1 ? "" : "s", src);
	nt_diag_conclusion(&ctx->diag, ctx->offset_bias + len, "no sync message%s in the stream: "
			   "nothing to decode (%s)", src, what);
}

/*
 * A stream without any sync message: decoding starts at one (8.7).  When
 * its messages only say that the trace never started (a ProgTraceCorrelation
 * with I-CNT 0: a filter that matched nothing), nothing was traced: a note.
 * Otherwise nothing in it can be decoded: an error, one line with what the
 * stream holds instead.
 */
static void no_sync_message(struct decode_ctx *ctx, const struct nt_tool_config *cfg,
			    const uint8_t *nex, size_t len, const struct ntrace_dec_stats *st)
{
	if (st->messages && !ctx->no_sync) {
		if (ctx->diag.f)
			fprintf(ctx->diag.f, "%s: nothing was traced: none of the stream's %" PRIu64
				" message%s is a sync message or describes instructions (a trace that "
				"never started: a filter that matched nothing)\n", ctx->diag.name,
				st->messages, st->messages == 1 ? "" : "s");
		return;
	}
	no_sync_error(ctx, cfg, nex, len, st);
}

static long decode(const struct nt_tool_config *cfg, struct nt_image_set *images,
		   const struct nt_symtab *symbols, const struct nt_visitor *visit,
		   const uint8_t *nex, size_t len, struct nt_trace *out, FILE *text,
		   struct ntrace_dec_stats *stats, const char *name, FILE *diag, struct nt_err *err)
{
	struct ntrace_dec_config dcfg;
	nt_tool_dec_config(cfg, &dcfg);
	struct decode_ctx ctx = { .images = images, .out = out, .text = text, .symbols = symbols,
				  .visit = visit };
	struct ntrace_dec_ops ops = { read_code, on_retired, on_event, &ctx };
	struct ntrace_decoder *d = malloc(sizeof(*d));
	const uint8_t *whole = nex;
	size_t whole_len = len;

	nt_diag_init(&ctx.diag, diag, name, cfg->max_errors);
	if (!d) {
		nt_err_set(err, "%s: out of memory", name);
		return -1;
	}
	ctx.dec = d;
	int rc = ntrace_dec_init(d, &dcfg, &ops);
	if (rc < 0) {
		nt_err_set(err, "decoder rejected the configuration: %s", ntrace_strerror(rc));
		free(d);
		return -1;
	}
	if (cfg->wrapped) {
		size_t start = wrapped_start(&ctx, &dcfg, nex, len);

		if (diag && start < len)
			fprintf(diag, "%s: wrapped buffer: decoding starts at the first synchronisation "
				"message, byte offset %zu; the %zu bytes before it were skipped\n",
				name, start, start);
		else if (diag)
			fprintf(diag, "%s: wrapped buffer: no synchronisation message after the first "
				"message boundary; all %zu bytes were skipped\n", name, len);
		ctx.offset_bias = start;
		nex += start;
		len -= start;
	}
	if (visit)
		decode_by_message(d, nex, len);
	else
		ntrace_dec_decode(d, nex, len);
	ntrace_dec_finish(d);
	if (visit)
		visit_flush_last(&ctx);
	else if (text)
		text_flush_last(&ctx);
	nt_diag_finish(&ctx.diag);
	if (!d->stats.syncs)
		no_sync_message(&ctx, cfg, nex, len, &d->stats);
	if (diag)
		nt_settings_hint(cfg, whole, whole_len, ctx.diag.total, name, diag);
	if (stats)
		*stats = d->stats;
	free(d);
	if (ctx.oom) {
		nt_err_set(err, "%s: out of memory for the decoded trace", name);
		return -1;
	}
	if (ctx.write_error) {
		nt_err_set(err, "%s: write error on the decoded trace", name);
		return -1;
	}
	return (long)ctx.diag.total;
}

long nt_decode_stream(const struct nt_tool_config *cfg, struct nt_image_set *images,
		      const uint8_t *nex, size_t len, struct nt_trace *out,
		      struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		      struct nt_err *err)
{
	return decode(cfg, images, NULL, NULL, nex, len, out, NULL, stats, name, diag, err);
}

long nt_decode_to_text(const struct nt_tool_config *cfg, struct nt_image_set *images,
		       const uint8_t *nex, size_t len, FILE *text,
		       struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		       struct nt_err *err)
{
	return decode(cfg, images, NULL, NULL, nex, len, NULL, text, stats, name, diag, err);
}

long nt_decode_to_listing(const struct nt_tool_config *cfg, struct nt_image_set *images,
			  const struct nt_symtab *symbols, const uint8_t *nex, size_t len,
			  FILE *text, struct ntrace_dec_stats *stats, const char *name,
			  FILE *diag, struct nt_err *err)
{
	return decode(cfg, images, symbols, NULL, nex, len, NULL, text, stats, name, diag, err);
}

long nt_decode_visit(const struct nt_tool_config *cfg, struct nt_image_set *images,
		     const uint8_t *nex, size_t len, const struct nt_visitor *visit,
		     struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		     struct nt_err *err)
{
	return decode(cfg, images, NULL, visit, nex, len, NULL, NULL, stats, name, diag, err);
}

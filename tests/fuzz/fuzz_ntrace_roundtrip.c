// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: encode → decode round trip of generated executions.
 *
 * The input drives a walk over the fixed program image of
 * fuzz_ntrace_decoder.c (the corpus program "interp", RV64 or RV32): branch
 * directions, targets of indirect jumps (returns mostly go back to their
 * call site, as in real code), and exceptions/interrupts taken after any
 * instruction (ECALL/EBREAK always trap).  The resulting trace is encoded
 * with a configuration taken from the input (mode, implicit return, repeated
 * history, sequential jumps, address extension, SRC, timestamps, periodic
 * sync) by the tool core and lib/ntrace, decoded again, and must come back
 * identical: every pc and every exc/int mark.
 *
 * To reproduce a finding with the command-line tool, run the target on the
 * crash file with NT_FUZZ_DUMP=PREFIX in the environment: it writes
 * PREFIX.pcs, PREFIX.bin (the image, for --raw PREFIX.bin@BASE) and
 * PREFIX.cmd (the ntrace encode/decode command lines).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ntrace/ntrace.h"
#include "ntrace_tool.h"
#include "fuzz_image.h"

#define MAX_STEPS      3000
#define MAX_BOUNDARIES 4096
#define SHADOW_DEPTH   64

struct image_info {
	const uint8_t *bytes;
	size_t size;
	uint64_t base;
	unsigned xlen;
	uint64_t starts[MAX_BOUNDARIES]; /* addresses of valid instructions */
	size_t nstarts;
};

static struct image_info images[2];

/* Input bits, consumed from the front; zeros once exhausted. */
struct bits {
	const uint8_t *p;
	size_t len;
	size_t pos;
	uint32_t acc;
	unsigned have;
	bool exhausted;
};

static unsigned take(struct bits *b, unsigned n)
{
	while (b->have < n) {
		if (b->pos < b->len) {
			b->acc |= (uint32_t)b->p[b->pos++] << b->have;
		} else {
			b->exhausted = true;
		}
		b->have += 8;
	}
	unsigned v = b->acc & ((1u << n) - 1);
	b->acc >>= n;
	b->have -= n;
	return v;
}

static bool fetch(const struct image_info *img, uint64_t pc, struct rv_insn *in)
{
	uint32_t raw = 0;
	uint64_t off = pc - img->base;

	if (pc < img->base || off + 2 > img->size)
		return false;
	memcpy(&raw, img->bytes + off, off + 4 <= img->size ? 4 : 2);
	if (rv_insn_decode(raw, img->xlen, RV_EXT_C, in) == 0)
		return false;
	return off + in->size <= img->size;
}

static void find_starts(struct image_info *img)
{
	struct rv_insn in;

	for (uint64_t pc = img->base; pc + 2 <= img->base + img->size;) {
		if (fetch(img, pc, &in)) {
			if (img->nstarts < MAX_BOUNDARIES)
				img->starts[img->nstarts++] = pc;
			pc += in.size;
		} else {
			pc += 2;
		}
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	images[0] = (struct image_info){ .bytes = interp64, .size = sizeof(interp64),
					 .base = interp64_base, .xlen = interp64_xlen };
	images[1] = (struct image_info){ .bytes = interp32, .size = sizeof(interp32),
					 .base = interp32_base, .xlen = interp32_xlen };
	find_starts(&images[0]);
	find_starts(&images[1]);
	if (!images[0].nstarts || !images[1].nstarts)
		abort();
	return 0;
}

static void config_from(struct bits *b, unsigned xlen, struct nt_tool_config *cfg)
{
	static const unsigned src_bits[4] = { 0, 1, 5, 12 };
	static const uint32_t sync[4] = { 0, 16, 64, 1024 };

	nt_tool_config_default(cfg);
	cfg->xlen = xlen;
	cfg->mode = take(b, 1) ? NT_TOOL_BTM : NT_TOOL_HTM;
	cfg->implicit_return_mode = take(b, 2);
	if (cfg->implicit_return_mode)
		cfg->callstack = 1 + take(b, 5);
	cfg->repeat_history = take(b, 1);
	cfg->repeat_branch = take(b, 1);
	cfg->seq_jump = take(b, 1);
	cfg->ext_addr = take(b, 1);
	cfg->timestamp = take(b, 1);
	cfg->sync_period = sync[take(b, 2)];
	cfg->src_bits = src_bits[take(b, 2)];
	cfg->src_id = take(b, 12) & ((1u << cfg->src_bits) - 1);
}

static uint64_t random_start(struct bits *b, const struct image_info *img)
{
	return img->starts[take(b, 12) % img->nstarts];
}

/*
 * The walk: pcs and marks of a plausible execution of the image.  With
 * implicit return mode 1 (level counting, no address compare: Trace Control
 * Interface, trTeInstImplicitReturnMode) a return that does not go back to
 * its call site cannot be traced, so then returns always do.
 */
static void walk(struct bits *b, const struct image_info *img, bool returns_balanced,
		 struct nt_trace *t)
{
	uint64_t shadow[SHADOW_DEPTH];
	unsigned depth = 0;
	uint64_t pc = img->starts[0];
	struct rv_insn in;

	for (unsigned step = 0; step < MAX_STEPS && !b->exhausted; step++) {
		struct nt_retired r = { .pc = pc };
		uint64_t next;

		if (!fetch(img, pc, &in))
			break;
		if (in.kind == RV_INSN_TRAP || take(b, 6) == 0)
			r.event = (in.kind == RV_INSN_TRAP || take(b, 1)) ? NT_EVENT_EXCEPTION
									  : NT_EVENT_INTERRUPT;
		if (r.event) {
			next = random_start(b, img);
		} else {
			switch (in.kind) {
			case RV_INSN_LINEAR:
				next = pc + in.size;
				break;
			case RV_INSN_BRANCH:
				next = take(b, 1) ? rv_insn_direct_target(&in, pc, img->xlen)
						  : pc + in.size;
				break;
			case RV_INSN_JUMP:
				next = rv_insn_direct_target(&in, pc, img->xlen);
				break;
			case RV_INSN_JUMP_REG:
				/* A return (jr ra) usually goes back to its call site. */
				if (in.rd == 0 && rv_is_link_reg(in.rs1) && depth &&
				    (returns_balanced || take(b, 2)))
					next = shadow[--depth];
				else
					next = random_start(b, img);
				break;
			default:        /* trap return, table jump, popret */
				next = random_start(b, img);
				break;
			}
			if (rv_is_link_reg(in.rd) &&
			    (in.kind == RV_INSN_JUMP || in.kind == RV_INSN_JUMP_REG)) {
				if (depth == SHADOW_DEPTH) {
					memmove(shadow, shadow + 1, sizeof(shadow) - sizeof(shadow[0]));
					depth--;
				}
				shadow[depth++] = pc + in.size;
			}
		}
		if (nt_trace_push(t, &r) < 0)
			abort();
		pc = rv_xlen_mask(next, img->xlen);
	}
	/* The format cannot carry a trap after the last instruction. */
	while (t->count && t->v[t->count - 1].event)
		t->count--;
}

static void dump_case(const char *prefix, const struct image_info *img,
		      const struct nt_tool_config *cfg, const struct nt_trace *t)
{
	char path[512], opts[256];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s.pcs", prefix);
	f = fopen(path, "w");
	if (!f || nt_pcs_write(f, t) < 0 || fclose(f))
		abort();
	snprintf(path, sizeof(path), "%s.bin", prefix);
	f = fopen(path, "wb");
	if (!f || fwrite(img->bytes, 1, img->size, f) != img->size || fclose(f))
		abort();
	n = snprintf(opts, sizeof(opts), "--xlen %u --mode %s", cfg->xlen,
		     cfg->mode == NT_TOOL_BTM ? "btm" : "htm");
	if (cfg->implicit_return_mode)
		n += snprintf(opts + n, sizeof(opts) - (size_t)n,
			      " --callstack %u --implicit-return-mode %u",
			      cfg->callstack, cfg->implicit_return_mode);
	n += snprintf(opts + n, sizeof(opts) - (size_t)n, "%s%s%s%s%s",
		      cfg->repeat_history ? " --repeat-history" : "",
		      cfg->repeat_branch ? " --repeat-branch" : "",
		      cfg->seq_jump ? " --seq-jump" : "",
		      cfg->ext_addr ? " --ext-addr" : "",
		      cfg->timestamp ? " --timestamp" : "");
	if (cfg->sync_period)
		n += snprintf(opts + n, sizeof(opts) - (size_t)n, " --sync-period %u",
			      (unsigned)cfg->sync_period);
	if (cfg->src_bits)
		snprintf(opts + n, sizeof(opts) - (size_t)n, " --src %u --src-bits %u",
			 (unsigned)cfg->src_id, cfg->src_bits);
	snprintf(path, sizeof(path), "%s.cmd", prefix);
	f = fopen(path, "w");
	if (!f)
		abort();
	fprintf(f, "ntrace encode --raw %s.bin@0x%llx --pcs %s.pcs --out %s.nex %s\n",
		prefix, (unsigned long long)img->base, prefix, prefix, opts);
	fprintf(f, "ntrace decode --raw %s.bin@0x%llx %s.nex --out %s.out.pcs %s\n",
		prefix, (unsigned long long)img->base, prefix, prefix, opts);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bits b = { .p = data, .len = size };
	const struct image_info *img = &images[take(&b, 1)];
	struct nt_tool_config cfg;
	struct nt_image_set set;
	struct nt_trace in, out;
	struct nt_records recs;
	struct nt_buf nex = { 0 };
	struct nt_err err;
	long errors;

	config_from(&b, img->xlen, &cfg);
	nt_images_init(&set);
	nt_trace_init(&in);
	nt_trace_init(&out);
	if (nt_images_add_bytes(&set, img->bytes, img->size, img->base, "image", &err) < 0)
		abort();
	walk(&b, img, cfg.implicit_return_mode == NTRACE_IMPLICIT_RETURN_COUNT, &in);
	if (in.count == 0)
		goto done;
	if (getenv("NT_FUZZ_DUMP"))
		dump_case(getenv("NT_FUZZ_DUMP"), img, &cfg, &in);
	/* The walk only makes transitions the instructions allow. */
	if (nt_records_from_trace(&set, &in, &cfg, "walk", &recs, &err) < 0) {
		fprintf(stderr, "classification rejected the walk: %s\n", err.msg);
		abort();
	}
	if (nt_encode_records(&cfg, &recs, &nex, NULL, &err) < 0) {
		fprintf(stderr, "encoding failed: %s\n", err.msg);
		abort();
	}
	errors = nt_decode_stream(&cfg, &set, nex.data, nex.len, &out, NULL, "nex", stderr, &err);
	if (errors != 0) {
		fprintf(stderr, "decoding reported %ld errors\n", errors);
		abort();
	}
	for (size_t i = 0; i < in.count || i < out.count; i++) {
		if (i >= in.count || i >= out.count || in.v[i].pc != out.v[i].pc ||
		    in.v[i].event != out.v[i].event) {
			fprintf(stderr, "round trip differs at instruction %zu of %zu (decoded %zu)\n",
				i, in.count, out.count);
			abort();
		}
	}
	nt_records_free(&recs);
done:
	nt_buf_free(&nex);
	nt_trace_free(&in);
	nt_trace_free(&out);
	nt_images_free(&set);
	return 0;
}

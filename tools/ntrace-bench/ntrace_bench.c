// SPDX-License-Identifier: BSD-2-Clause
/*
 * ntrace-bench: size and speed of the N-Trace codec on one retired-instruction
 * trace.
 *
 *   ntrace-bench --elf P.elf --pcs P.pcs [--reps N] [--min-ms MS]
 *       For each configuration (BTM, HTM, HTM + implicit return (depth 8) +
 *       repeated history, all optimisations): bits per instruction, encoder
 *       and decoder throughput in millions of retired instructions per
 *       second (median of N repetitions, each running for at least MS ms),
 *       and whether decoding gave back exactly the encoded addresses.
 *       One line per configuration: "config=NAME key=value ...".
 *
 *   ntrace-bench --elf P.elf --pcs P.pcs --encode-only CONFIG --iters N [--entry E]
 *       Only encodes the trace N times (N may be 0): the run that
 *       scripts/bench-ntrace.sh measures with callgrind, subtracting N = 0 to
 *       remove the cost of loading.  E = retire (default) or block: the
 *       library entry the records go through (ntrace_enc_retire, or
 *       ntrace_enc_block with the blocks cut before the first iteration).
 *
 * The trace is loaded and classified into Trace Ingress Port records once
 * (tool core, tools/ntrace); only the library's encoder loop (records in,
 * bytes out to a preallocated buffer) and decoder loop (bytes in, addresses
 * out to a preallocated array) are timed.  The block path is timed the same
 * way: the records are cut into blocks (nt_block_cut) before timing, as a
 * block-level encoder knows its blocks without building records; its
 * output must be the bytes of the record path (key blocks=same).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ntrace_tool.h"

struct bench_config {
	const char *name;
	int mode;
	unsigned callstack;
	unsigned implicit_return_mode;
	bool repeat_history;
	bool seq_jump;
	bool ext_addr;
};

/* "all" and "btm-all" mirror `ntrace --all-opt` in HTM and BTM mode (the
 * repeat bit is RepeatBranch in BTM). */
static const struct bench_config configs[] = {
	{ "btm", NT_TOOL_BTM, 0, 0, false, false, false },
	{ "htm", NT_TOOL_HTM, 0, 0, false, false, false },
	{ "htm-ir8-rh", NT_TOOL_HTM, 8, NTRACE_IMPLICIT_RETURN_FULL, true, false, false },
	{ "all", NT_TOOL_HTM, NTRACE_MAX_CALL_STACK, NTRACE_IMPLICIT_RETURN_FULL, true, true, false },
	{ "btm-all", NT_TOOL_BTM, NTRACE_MAX_CALL_STACK, NTRACE_IMPLICIT_RETURN_FULL, true, true, false },
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

/* Encoder output: a fixed buffer, so the sink never allocates. */
struct out_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

static int sink_write(void *ctx, const uint8_t *data, size_t len)
{
	struct out_buf *b = ctx;

	if (len > b->cap - b->len)
		return -1;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

/* Decoder output: addresses into a fixed array. */
struct dec_out {
	struct nt_image_set *images;
	uint64_t *addrs;
	size_t count;
	size_t cap;
	uint64_t events_error;
};

static int read_code(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct dec_out *o = ctx;

	return nt_images_read(o->images, addr, dst, len);
}

static void on_retired(void *ctx, const uint64_t *addrs, size_t n)
{
	struct dec_out *o = ctx;

	if (n > o->cap - o->count)
		n = o->cap - o->count;
	memcpy(o->addrs + o->count, addrs, n * sizeof(*addrs));
	o->count += n;
}

static void on_event(void *ctx, const struct ntrace_event *ev)
{
	struct dec_out *o = ctx;

	if (ev->kind == NTRACE_EV_ERROR)
		o->events_error++;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void tool_config(const struct bench_config *bc, unsigned xlen, struct nt_tool_config *cfg)
{
	nt_tool_config_default(cfg);
	cfg->mode = bc->mode;
	cfg->callstack = bc->callstack;
	cfg->implicit_return_mode = bc->implicit_return_mode;
	cfg->repeat_history = bc->repeat_history;
	cfg->repeat_branch = bc->repeat_history;
	cfg->seq_jump = bc->seq_jump;
	cfg->ext_addr = bc->ext_addr;
	cfg->xlen = xlen;
}

/* The records cut into blocks (ntrace_enc_block calls), made before timing. */
struct block_step {
	struct ntrace_block b;
	struct ntrace_retired end;
	bool has_end;
};

struct block_list {
	struct block_step *v;
	size_t count, cap;
	bool oom;
};

static void collect_block(void *ctx, const struct ntrace_block *b, const struct ntrace_retired *end)
{
	struct block_list *l = ctx;

	if (l->count == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct block_step *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->count++] = (struct block_step){ .b = *b, .end = end ? *end : (struct ntrace_retired){ 0 },
						.has_end = end != NULL };
}

static int blocks_for(const struct nt_records *recs, struct block_list *l)
{
	struct nt_block_cutter cut;

	memset(l, 0, sizeof(*l));
	nt_block_cut_init(&cut, collect_block, l);
	nt_block_cut(&cut, recs->v, recs->count);
	nt_block_cut_finish(&cut);
	if (l->oom) {
		fprintf(stderr, "ntrace-bench: out of memory\n");
		free(l->v);
		return -1;
	}
	return 0;
}

/* One complete encoding (start, records or blocks, stop, flush) into out. */
static int encode_once(const struct nt_tool_config *cfg, const struct nt_records *recs,
		       const struct block_list *blocks, struct ntrace_encoder *enc,
		       struct out_buf *out)
{
	struct ntrace_enc_config ecfg;
	struct ntrace_sink sink = { sink_write, out };

	nt_tool_enc_config(cfg, &ecfg);
	out->len = 0;
	if (ntrace_enc_init(enc, &ecfg, &sink) < 0)
		return -1;
	ntrace_enc_start(enc, NTRACE_SYNC_TRACE_ENABLE);
	if (blocks) {
		for (size_t i = 0; i < blocks->count; i++)
			ntrace_enc_block(enc, &blocks->v[i].b,
					 blocks->v[i].has_end ? &blocks->v[i].end : NULL);
	} else {
		ntrace_enc_retire(enc, recs->v, recs->count);
	}
	ntrace_enc_stop(enc, NTRACE_EVCODE_TRACE_DISABLED, recs->end_addr, 0);
	if (ntrace_enc_flush(enc) < 0 || enc->stats.lost_bytes)
		return -1;
	return 0;
}

static int decode_once(const struct nt_tool_config *cfg, const struct out_buf *nex,
		       struct ntrace_decoder *dec, struct dec_out *o)
{
	struct ntrace_dec_config dcfg;
	struct ntrace_dec_ops ops = { read_code, on_retired, on_event, o };

	nt_tool_dec_config(cfg, &dcfg);
	o->count = 0;
	o->events_error = 0;
	if (ntrace_dec_init(dec, &dcfg, &ops) < 0)
		return -1;
	ntrace_dec_decode(dec, nex->data, nex->len);
	ntrace_dec_flush(dec);
	return 0;
}

struct bench_state {
	struct nt_image_set images;
	struct nt_trace trace;
	unsigned xlen;
	const char *pcs_path;
	struct ntrace_encoder *enc;
	struct ntrace_decoder *dec;
	struct out_buf out;
	struct dec_out dout;
};

static int load(struct bench_state *s, const char *elf, const char *pcs)
{
	struct nt_err err;
	uint8_t *text;
	size_t len;

	nt_images_init(&s->images);
	nt_trace_init(&s->trace);
	if (nt_images_add_elf(&s->images, elf, &err) < 0 ||
	    nt_read_file(pcs, &text, &len, &err) < 0) {
		fprintf(stderr, "ntrace-bench: %s\n", err.msg);
		return -1;
	}
	if (nt_pcs_parse((const char *)text, len, pcs, &s->trace, &err) < 0) {
		fprintf(stderr, "ntrace-bench: %s\n", err.msg);
		free(text);
		return -1;
	}
	free(text);
	s->pcs_path = pcs;
	s->xlen = s->images.elf_class == 32 ? 32 : 64;
	s->enc = malloc(sizeof(*s->enc));
	s->dec = malloc(sizeof(*s->dec));
	/* Worst case far above any real rate: a 38-byte message per record. */
	s->out.cap = s->trace.count * NTRACE_MAX_MSG_BYTES + 4096;
	s->out.data = malloc(s->out.cap);
	s->dout.images = &s->images;
	s->dout.cap = s->trace.count + 1;
	s->dout.addrs = malloc(s->dout.cap * sizeof(uint64_t));
	if (!s->enc || !s->dec || !s->out.data || !s->dout.addrs) {
		fprintf(stderr, "ntrace-bench: out of memory\n");
		return -1;
	}
	return 0;
}

static void unload(struct bench_state *s)
{
	free(s->enc);
	free(s->dec);
	free(s->out.data);
	free(s->dout.addrs);
	nt_trace_free(&s->trace);
	nt_images_free(&s->images);
}

static int records_for(struct bench_state *s, const struct nt_tool_config *cfg,
		       struct nt_records *recs)
{
	struct nt_err err;

	if (nt_records_from_trace(&s->images, &s->trace, cfg, s->pcs_path, recs, &err) < 0) {
		fprintf(stderr, "ntrace-bench: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Decoded addresses must be exactly the records' addresses. */
static bool decoded_matches(const struct bench_state *s, const struct nt_records *recs)
{
	if (s->dout.events_error || s->dout.count != recs->count)
		return false;
	for (size_t i = 0; i < recs->count; i++)
		if (s->dout.addrs[i] != recs->v[i].addr)
			return false;
	return true;
}

enum { ENCODE, ENCODE_BLOCKS, DECODE };

/* Millions of records per second of `what`: repeated runs of at least
 * min_s seconds each, median over reps. */
static double measure(struct bench_state *s, const struct nt_tool_config *cfg,
		      const struct nt_records *recs, const struct block_list *blocks, int what,
		      unsigned reps, double min_s)
{
	double rates[64];

	if (reps > 64)
		reps = 64;
	for (unsigned r = 0; r < reps; r++) {
		uint64_t done = 0;
		double t0 = now_seconds(), t;

		do {
			if (what == DECODE)
				decode_once(cfg, &s->out, s->dec, &s->dout);
			else
				encode_once(cfg, recs, what == ENCODE_BLOCKS ? blocks : NULL, s->enc,
					    &s->out);
			done += recs->count;
			t = now_seconds() - t0;
		} while (t < min_s);
		rates[r] = (double)done / t / 1e6;
	}
	return median(rates, reps);
}

static int run_bench(struct bench_state *s, unsigned reps, double min_s)
{
	int rc = 0;

	for (size_t c = 0; c < NCONFIGS; c++) {
		struct nt_tool_config cfg;
		struct nt_records recs;
		struct block_list blocks;
		double enc_rate, blk_rate, dec_rate;
		uint8_t *blk_out = NULL;
		size_t bytes, blk_len = 0;
		bool ok, same;

		tool_config(&configs[c], s->xlen, &cfg);
		if (records_for(s, &cfg, &recs) < 0)
			return 1;
		if (blocks_for(&recs, &blocks) < 0) {
			nt_records_free(&recs);
			return 1;
		}
		/* the block path's output, then the record path's */
		if (encode_once(&cfg, &recs, &blocks, s->enc, &s->out) == 0 &&
		    (blk_out = malloc(s->out.len + 1)) != NULL) {
			blk_len = s->out.len;
			memcpy(blk_out, s->out.data, blk_len);
		}
		if (!blk_out || encode_once(&cfg, &recs, NULL, s->enc, &s->out) < 0) {
			fprintf(stderr, "ntrace-bench: %s: encoding failed\n", configs[c].name);
			free(blk_out);
			free(blocks.v);
			nt_records_free(&recs);
			return 1;
		}
		bytes = s->out.len;
		same = blk_len == bytes && memcmp(blk_out, s->out.data, bytes) == 0;
		free(blk_out);
		decode_once(&cfg, &s->out, s->dec, &s->dout);
		ok = decoded_matches(s, &recs);
		if (!ok || !same)
			rc = 1;
		enc_rate = measure(s, &cfg, &recs, NULL, ENCODE, reps, min_s);
		blk_rate = measure(s, &cfg, &recs, &blocks, ENCODE_BLOCKS, reps, min_s);
		encode_once(&cfg, &recs, NULL, s->enc, &s->out); /* the decoder's input */
		dec_rate = measure(s, &cfg, &recs, NULL, DECODE, reps, min_s);
		printf("config=%s xlen=%u instrs=%zu bytes=%zu bpi=%.4f enc_mips=%.1f "
		       "dec_mips=%.1f roundtrip=%s blocks=%zu enc_blocks_mips=%.1f blocks_bytes=%s\n",
		       configs[c].name, s->xlen, recs.count, bytes,
		       (double)bytes * 8 / (double)recs.count, enc_rate, dec_rate,
		       ok ? "ok" : "MISMATCH", blocks.count, blk_rate, same ? "same" : "DIFFER");
		free(blocks.v);
		nt_records_free(&recs);
	}
	return rc;
}

static int run_encode_only(struct bench_state *s, const char *name, unsigned long iters,
			   bool via_blocks)
{
	const struct bench_config *bc = NULL;
	struct nt_tool_config cfg;
	struct nt_records recs;
	struct block_list blocks = { 0 };
	size_t total = 0;

	for (size_t c = 0; c < NCONFIGS; c++)
		if (strcmp(configs[c].name, name) == 0)
			bc = &configs[c];
	if (!bc) {
		fprintf(stderr, "ntrace-bench: unknown configuration '%s'\n", name);
		return 2;
	}
	tool_config(bc, s->xlen, &cfg);
	if (records_for(s, &cfg, &recs) < 0)
		return 1;
	if (via_blocks && blocks_for(&recs, &blocks) < 0)
		return 1;
	for (unsigned long i = 0; i < iters; i++) {
		if (encode_once(&cfg, &recs, via_blocks ? &blocks : NULL, s->enc, &s->out) < 0)
			return 1;
		total += s->out.len;
	}
	printf("config=%s instrs=%zu iters=%lu bytes=%zu entry=%s blocks=%zu\n", name, recs.count,
	       iters, total, via_blocks ? "block" : "retire", blocks.count);
	free(blocks.v);
	nt_records_free(&recs);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: ntrace-bench --elf P.elf --pcs P.pcs [--reps N] [--min-ms MS]\n"
		"       ntrace-bench --elf P.elf --pcs P.pcs --encode-only CONFIG --iters N\n"
		"                    [--entry retire|block]\n"
		"CONFIG: btm, htm, htm-ir8-rh, all, btm-all\n");
	return 2;
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *pcs = NULL, *encode_only = NULL, *entry = "retire";
	unsigned long reps = 7, min_ms = 20, iters = 0;
	struct bench_state s;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return usage();
		if (!strcmp(a, "--elf"))
			elf = v;
		else if (!strcmp(a, "--pcs"))
			pcs = v;
		else if (!strcmp(a, "--encode-only"))
			encode_only = v;
		else if (!strcmp(a, "--entry") && (!strcmp(v, "retire") || !strcmp(v, "block")))
			entry = v;
		else if (!strcmp(a, "--iters") || !strcmp(a, "--reps") || !strcmp(a, "--min-ms")) {
			unsigned long *dst = a[2] == 'i' ? &iters : a[2] == 'r' ? &reps : &min_ms;

			if (parse_ulong(v, dst) < 0 || (dst == &reps && !reps))
				return usage();
		} else {
			return usage();
		}
		i++;
	}
	if (!elf || !pcs)
		return usage();
	memset(&s, 0, sizeof(s));
	if (load(&s, elf, pcs) < 0) {
		unload(&s);
		return 1;
	}
	rc = encode_only ? run_encode_only(&s, encode_only, iters, !strcmp(entry, "block"))
			 : run_bench(&s, (unsigned)reps, (double)min_ms / 1000.0);
	unload(&s);
	return rc;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * End-to-end tests of the ntrace tool core (tools/ntrace/ntrace_tool.h) with
 * the real codec library: classification of .pcs lines into Table 2 itypes,
 * transition errors, encode -> decode round trips that must give back the
 * canonical .pcs byte for byte, pcseq input, decoder errors with byte
 * offsets, and the Table 6 dump.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define TINY32_ELF NT_TEST_BUILD "/tiny32.elf"
#define TINY_HI_ELF NT_TEST_BUILD "/tiny-hi.elf"
#define TINY_PCS NT_TEST_DATA "/tiny.pcs"
#define TINY_INT_PCS NT_TEST_DATA "/tiny-int.pcs"

static char *slurp(const char *path, size_t *len)
{
	uint8_t *buf;
	struct nt_err err;
	if (nt_read_file(path, &buf, len, &err))
		fail_msg("%s", err.msg);
	return (char *)buf;
}

static void load_elf(struct nt_image_set *set, const char *path)
{
	struct nt_err err;
	nt_images_init(set);
	if (nt_images_add_elf(set, path, &err))
		fail_msg("%s", err.msg);
}

static void parse_pcs_text(const char *text, struct nt_trace *t)
{
	struct nt_err err;
	nt_trace_init(t);
	if (nt_pcs_parse(text, strlen(text), "t.pcs", t, &err))
		fail_msg("%s", err.msg);
}

static char *trace_text(const struct nt_trace *t)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(nt_pcs_write(f, t), 0);
	fclose(f);
	return out;
}

/* Encodes the .pcs text against the ELF, decodes it back and requires the
 * canonical text to come out unchanged, with no decoding error. */
static void round_trip(const char *elf, const char *pcs_text, const struct nt_tool_config *cfg)
{
	struct nt_image_set set;
	struct nt_trace in, out;
	struct nt_records recs;
	struct nt_buf nex = { 0 };
	struct nt_err err;
	load_elf(&set, elf);
	parse_pcs_text(pcs_text, &in);
	if (nt_records_from_trace(&set, &in, cfg, "t.pcs", &recs, &err))
		fail_msg("%s", err.msg);
	if (nt_encode_records(cfg, &recs, &nex, NULL, &err))
		fail_msg("%s", err.msg);
	assert_true(nex.len > 0);
	/* the chunked path gives the same bytes */
	struct nt_buf chunked = { 0 };
	if (nt_encode_trace(&set, &in, cfg, "t.pcs", &chunked, NULL, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(chunked.len, nex.len);
	assert_memory_equal(chunked.data, nex.data, nex.len);
	nt_buf_free(&chunked);
	nt_trace_init(&out);
	char *diag = NULL;
	size_t diag_len = 0;
	FILE *df = open_memstream(&diag, &diag_len);
	long errors = nt_decode_stream(cfg, &set, nex.data, nex.len, &out, NULL, "t.nex", df, &err);
	fclose(df);
	if (errors != 0)
		fail_msg("decode: %ld errors: %s %s", errors, diag, errors < 0 ? err.msg : "");
	char *text = trace_text(&out);
	assert_string_equal(text, pcs_text);
	free(text);
	free(diag);
	nt_buf_free(&nex);
	nt_records_free(&recs);
	nt_trace_free(&in);
	nt_trace_free(&out);
	nt_images_free(&set);
}

static void round_trip_file(const char *elf, const char *pcs, const struct nt_tool_config *cfg)
{
	size_t len;
	char *text = slurp(pcs, &len);
	text = realloc(text, len + 1);
	text[len] = '\0';
	round_trip(elf, text, cfg);
	free(text);
}

static struct nt_tool_config config(int mode)
{
	struct nt_tool_config cfg;
	nt_tool_config_default(&cfg);
	cfg.mode = mode;
	return cfg;
}

static struct nt_tool_config all_opt(int mode)
{
	struct nt_tool_config cfg = config(mode);
	cfg.repeat_history = true;
	cfg.repeat_branch = mode == NT_TOOL_BTM;
	cfg.seq_jump = true;
	cfg.ext_addr = true;
	cfg.callstack = 32;
	cfg.implicit_return_mode = 3;
	return cfg;
}

static void round_trip_htm(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	round_trip_file(TINY_ELF, TINY_PCS, &cfg);
}

static void round_trip_btm(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	round_trip_file(TINY_ELF, TINY_PCS, &cfg);
}

static void round_trip_all_optimizations(void **state)
{
	(void)state;
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	round_trip_file(TINY_ELF, TINY_PCS, &cfg);
	cfg = all_opt(NT_TOOL_BTM);
	round_trip_file(TINY_ELF, TINY_PCS, &cfg);
}

static void round_trip_src_timestamp_sync(void **state)
{
	(void)state;
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	cfg.src_bits = 3;
	cfg.src_id = 5;
	cfg.src_id_set = true;
	cfg.timestamp = true;
	cfg.sync_period = 16;
	round_trip_file(TINY_ELF, TINY_PCS, &cfg);
}

static void encode_tiny(const struct nt_tool_config *cfg, struct nt_buf *nex,
			struct ntrace_enc_stats *stats);

/* Decoding with --src-bits only (no --src) takes messages of any source;
 * with another --src it takes none. */
static void decoder_source_filter(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	cfg.src_bits = 4;
	cfg.src_id = 6;
	cfg.src_id_set = true;
	struct nt_buf nex = { 0 };
	encode_tiny(&cfg, &nex, NULL);
	struct nt_image_set set;
	struct nt_err err;
	load_elf(&set, TINY_ELF);
	struct nt_tool_config any = cfg, other = cfg;
	any.src_id = 0;
	any.src_id_set = false;
	other.src_id = 7;
	struct ntrace_dec_stats st;
	assert_int_equal(nt_decode_stream(&any, &set, nex.data, nex.len, NULL, &st, "s.nex", NULL, &err), 0);
	assert_int_equal(st.instructions, 30);
	assert_true(nt_decode_stream(&other, &set, nex.data, nex.len, NULL, &st, "s.nex", NULL, &err) >= 0);
	assert_int_equal(st.instructions, 0);
	nt_images_free(&set);
	nt_buf_free(&nex);
}

static void round_trip_interrupt_and_exception_markers(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	round_trip_file(TINY_ELF, TINY_INT_PCS, &cfg);
	cfg = config(NT_TOOL_BTM);
	round_trip_file(TINY_ELF, TINY_INT_PCS, &cfg);
}

/* An interrupt taken right after a conditional branch retired: the record
 * is itype 2 (Table 3), so no HIST bit / DirectBranch is reported for that
 * branch and the decoder must not need one (the next pc is the handler). */
static const char branch_then_interrupt[] =
	"80000000\n80000004\n80000008\n8000000c\n8000000e\n80000010 int\n"
	"80000040\n80000044\n80000046\n8000004a\n8000000e\n80000010\n"
	"8000000e\n80000010\n80000012\n8000003c\n8000003e\n80000016\n";

static void round_trip_branch_then_interrupt_btm(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	round_trip(TINY_ELF, branch_then_interrupt, &cfg);
}

static void round_trip_branch_then_interrupt_htm(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	round_trip(TINY_ELF, branch_then_interrupt, &cfg);
}

/* Traces may stop anywhere: after a branch, a call, a return, an ecall
 * marked exc, inside the handler.  Every prefix of tiny.pcs round-trips. */
static void round_trip_every_prefix(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp(TINY_PCS, &len);
	struct nt_tool_config cfgs[3] = { config(NT_TOOL_HTM), config(NT_TOOL_BTM), all_opt(NT_TOOL_HTM) };
	for (size_t cut = 0; cut < len; cut++) {
		if (text[cut] != '\n')
			continue;
		char *prefix = strndup(text, cut + 1);
		for (int k = 0; k < 3; k++)
			round_trip(TINY_ELF, prefix, &cfgs[k]);
		free(prefix);
	}
	free(text);
}

/* Two ELF files (firmware + kernel style): the indirect jump at 80000026
 * leaves the first image for the second, which runs tiny.pcs 2 MiB higher. */
static void round_trip_across_two_elf_files(void **state)
{
	(void)state;
	size_t len;
	char *pcs = slurp(TINY_PCS, &len);
	char *text = malloc(2 * len + 256);
	size_t n = (size_t)sprintf(text, "80000000\n80000004\n80000008\n8000000c\n8000000e\n"
				   "80000010\n8000000e\n80000010\n8000000e\n80000010\n"
				   "80000012\n8000003c\n8000003e\n80000016\n8000001a\n"
				   "8000003c\n8000003e\n8000001e\n80000022\n80000026\n");
	for (size_t i = 0; i < len; i++) {     /* 8000xxxx -> 8020xxxx */
		text[n++] = pcs[i];
		if (pcs[i] == '8' && (i == 0 || pcs[i - 1] == '\n')) {
			text[n++] = '0';
			text[n++] = '2';
			i += 2;
		}
	}
	text[n] = '\0';
	struct nt_tool_config cfgs[2] = { all_opt(NT_TOOL_HTM), config(NT_TOOL_BTM) };
	for (int k = 0; k < 2; k++) {
		struct nt_image_set set;
		struct nt_trace in, out;
		struct nt_buf nex = { 0 };
		struct nt_err err;
		load_elf(&set, TINY_ELF);
		if (nt_images_add_elf(&set, TINY_HI_ELF, &err))
			fail_msg("%s", err.msg);
		parse_pcs_text(text, &in);
		assert_int_equal(in.v[20].pc, 0x80200000);
		if (nt_encode_trace(&set, &in, &cfgs[k], "two.pcs", &nex, NULL, &err))
			fail_msg("%s", err.msg);
		nt_trace_init(&out);
		assert_int_equal(nt_decode_stream(&cfgs[k], &set, nex.data, nex.len, &out, NULL,
						  "two.nex", NULL, &err), 0);
		char *back = trace_text(&out);
		assert_string_equal(back, text);
		free(back);
		/* with only the first image the second half is "outside every image" */
		struct nt_image_set one;
		load_elf(&one, TINY_ELF);
		assert_int_equal(nt_encode_trace(&one, &in, &cfgs[k], "two.pcs", &nex, NULL, &err), -1);
		assert_non_null(strstr(err.msg, "two.pcs:21: pc 80200000 is outside every program image"));
		nt_images_free(&one);
		nt_buf_free(&nex);
		nt_trace_free(&in);
		nt_trace_free(&out);
		nt_images_free(&set);
	}
	free(text);
	free(pcs);
}

static void round_trip_rv32(void **state)
{
	(void)state;
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	cfg.xlen = 32;
	round_trip_file(TINY32_ELF, TINY_PCS, &cfg);
}

/* A trace of many chunks: the bnez loop of tiny.S taken 5000 times. */
static char *long_loop_trace(void)
{
	size_t cap = 200000, len = 0;
	char *t = malloc(cap);
	len += (size_t)sprintf(t + len, "80000000\n80000004\n80000008\n8000000c\n");
	for (int i = 0; i < 5000; i++)
		len += (size_t)sprintf(t + len, "8000000e\n80000010\n");
	len += (size_t)sprintf(t + len, "8000000e\n80000010\n80000012\n8000003c\n8000003e\n80000016\n");
	assert_true(len < cap);
	return t;
}

static void chunked_encoding_matches_whole_records(void **state)
{
	(void)state;
	char *text = long_loop_trace();
	struct nt_tool_config cfgs[3] = { all_opt(NT_TOOL_HTM), config(NT_TOOL_BTM), all_opt(NT_TOOL_BTM) };
	cfgs[0].timestamp = true;
	for (int k = 0; k < 3; k++) {
		struct nt_image_set set;
		struct nt_trace t;
		struct nt_records recs;
		struct nt_buf a = { 0 }, b = { 0 };
		struct nt_err err;
		load_elf(&set, TINY_ELF);
		parse_pcs_text(text, &t);
		assert_true(t.count > 10000);
		assert_int_equal(nt_records_from_trace(&set, &t, &cfgs[k], "l.pcs", &recs, &err), 0);
		assert_int_equal(nt_encode_records(&cfgs[k], &recs, &a, NULL, &err), 0);
		assert_int_equal(nt_encode_trace(&set, &t, &cfgs[k], "l.pcs", &b, NULL, &err), 0);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.data, b.data, a.len);
		nt_buf_free(&a);
		nt_buf_free(&b);
		nt_records_free(&recs);
		nt_trace_free(&t);
		nt_images_free(&set);
	}
	struct nt_tool_config btm = config(NT_TOOL_BTM);
	round_trip(TINY_ELF, text, &btm);
	free(text);
}

/* 5000 branches between two messages with I-CNT: HTM reports them in
 * ResourceFull (HIST) messages that the decoder must all take in. */
static void round_trip_long_branch_loop_htm(void **state)
{
	(void)state;
	char *text = long_loop_trace();
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	round_trip(TINY_ELF, text, &cfg);
	cfg = all_opt(NT_TOOL_HTM);
	round_trip(TINY_ELF, text, &cfg);
	free(text);
}

/* ---- classification ---- */

static void classify(const char *text, const struct nt_tool_config *cfg,
		     struct nt_records *recs)
{
	struct nt_image_set set;
	struct nt_trace t;
	struct nt_err err;
	load_elf(&set, TINY_ELF);
	parse_pcs_text(text, &t);
	if (nt_records_from_trace(&set, &t, cfg, "t.pcs", recs, &err))
		fail_msg("%s", err.msg);
	nt_trace_free(&t);
	nt_images_free(&set);
}

static unsigned itype_at(const struct nt_records *recs, uint64_t pc, unsigned nth)
{
	for (size_t i = 0; i < recs->count; i++)
		if (recs->v[i].addr == pc && nth-- == 0)
			return recs->v[i].itype;
	fail_msg("pc %llx not found", (unsigned long long)pc);
	return 99;
}

static void itype_follows_table_2_with_implicit_return(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp(TINY_PCS, &len);
	text = realloc(text, len + 1);
	text[len] = '\0';
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	struct nt_records recs;
	classify(text, &cfg, &recs);
	assert_int_equal(recs.count, 30);
	assert_int_equal(itype_at(&recs, 0x80000000, 0), RV_ITYPE_NONE);      /* auipc */
	assert_int_equal(itype_at(&recs, 0x80000010, 0), RV_ITYPE_TAKEN_BRANCH);
	assert_int_equal(itype_at(&recs, 0x80000010, 1), RV_ITYPE_TAKEN_BRANCH);
	assert_int_equal(itype_at(&recs, 0x80000010, 2), RV_ITYPE_NOT_TAKEN_BRANCH);
	assert_int_equal(itype_at(&recs, 0x80000012, 0), RV_ITYPE_INFERABLE_CALL); /* jal ra */
	assert_int_equal(itype_at(&recs, 0x8000001a, 0), RV_ITYPE_UNINFERABLE_CALL); /* jalr ra,ra */
	assert_int_equal(itype_at(&recs, 0x8000003e, 0), RV_ITYPE_RETURN);     /* ret */
	assert_int_equal(itype_at(&recs, 0x80000026, 0), RV_ITYPE_OTHER_UNINFERABLE_JUMP); /* jr t1 */
	assert_int_equal(itype_at(&recs, 0x8000002a, 0), RV_ITYPE_TAKEN_BRANCH); /* beqz */
	assert_int_equal(itype_at(&recs, 0x80000032, 0), RV_ITYPE_EXCEPTION);  /* ecall exc */
	assert_int_equal(itype_at(&recs, 0x8000004a, 0), RV_ITYPE_TRAP_RETURN); /* mret */
	assert_int_equal(itype_at(&recs, 0x80000036, 0), RV_ITYPE_OTHER_INFERABLE_JUMP); /* c.j */
	/* sizes: c.li is 2 bytes, auipc 4 */
	assert_int_equal(recs.v[3].size, 2);
	assert_int_equal(recs.v[0].size, 4);
	/* 9.1: jalr right after the auipc that loaded its rs1 */
	for (size_t i = 0; i < recs.count; i++)
		assert_int_equal(recs.v[i].flags & NTRACE_REC_SEQ_INFERABLE,
				 recs.v[i].addr == 0x8000001a ? NTRACE_REC_SEQ_INFERABLE : 0);
	/* execution continues after the last c.j at its target */
	assert_int_equal(recs.end_addr, 0x8000003a);
	nt_records_free(&recs);
	free(text);
}

static void itype_is_3_bit_without_implicit_return(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	struct nt_records recs;
	classify("80000012\n8000003c\n8000003e\n80000016\n8000001a\n8000003c\n", &cfg, &recs);
	assert_int_equal(recs.v[0].itype, RV_ITYPE_NONE);              /* jal */
	assert_int_equal(recs.v[2].itype, RV_ITYPE_UNINFERABLE_JUMP);  /* ret */
	assert_int_equal(recs.v[4].itype, RV_ITYPE_UNINFERABLE_JUMP);  /* jalr */
	assert_int_equal(recs.v[0].flags, 0);
	nt_records_free(&recs);
}

static void markers_become_trap_itypes(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct nt_records recs;
	/* a linear instruction followed by the handler: only legal when marked */
	classify("80000000 int\n80000040\n80000044 exc\n80000010\n", &cfg, &recs);
	assert_int_equal(recs.v[0].itype, RV_ITYPE_INTERRUPT);
	assert_int_equal(recs.v[0].size, 4);   /* it retired */
	assert_int_equal(recs.v[2].itype, RV_ITYPE_EXCEPTION);
	nt_records_free(&recs);
}

static void timestamps_are_instruction_indexes(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	cfg.timestamp = true;
	struct nt_records recs;
	classify("80000000\n80000004\n80000008\n", &cfg, &recs);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(recs.v[i].tstamp, i);
	nt_records_free(&recs);
}

static void expect_classify_error(const char *text, const char *what1, const char *what2)
{
	struct nt_image_set set;
	struct nt_trace t;
	struct nt_records recs;
	struct nt_err err;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	load_elf(&set, TINY_ELF);
	parse_pcs_text(text, &t);
	assert_int_equal(nt_records_from_trace(&set, &t, &cfg, "t.pcs", &recs, &err), -1);
	if (!strstr(err.msg, what1) || !strstr(err.msg, what2))
		fail_msg("message '%s'", err.msg);
	assert_null(recs.v);
	nt_trace_free(&t);
	nt_images_free(&set);
}

static void unexplained_transitions_name_the_line(void **state)
{
	(void)state;
	/* linear instruction jumping */
	expect_classify_error("# c\n80000000\n80000004\n80000010\n", "t.pcs:3: pc 80000004",
			      "cannot continue at 80000010 (line 4)");
	/* branch to neither target nor fall-through */
	expect_classify_error("8000000e\n80000010\n80000020\n", "t.pcs:2: pc 80000010 (conditional branch)",
			      "80000020");
	/* direct jump elsewhere than its target */
	expect_classify_error("80000012\n80000016\n", "t.pcs:1: pc 80000012 (direct jump)",
			      "80000016");
}

static void pc_outside_images_is_an_error(void **state)
{
	(void)state;
	expect_classify_error("80000000\n80000004\n90000000\n", "t.pcs:3: pc 90000000",
			      "outside every program image");
	/* the last halfword of the code: a 16-bit nop, then nothing */
	expect_classify_error("80000050\n", "t.pcs:1: pc 80000050", "outside every program image");
}

static void invalid_instruction_is_an_error(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_trace t;
	struct nt_records recs;
	struct nt_err err;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	static const uint8_t zeros[8] = { 0 };  /* 0x0000 is the defined illegal instruction */
	nt_images_init(&set);
	assert_int_equal(nt_images_add_bytes(&set, zeros, sizeof(zeros), 0x1000, "zero.bin", &err), 0);
	parse_pcs_text("1000\n", &t);
	assert_int_equal(nt_records_from_trace(&set, &t, &cfg, "z.pcs", &recs, &err), -1);
	assert_non_null(strstr(err.msg, "z.pcs:1: pc 1000: invalid instruction 0x0000"));
	nt_trace_free(&t);
	nt_images_free(&set);
}

static void xlen32_rejects_wide_pc(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_trace t;
	struct nt_records recs;
	struct nt_err err;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	cfg.xlen = 32;
	nt_images_init(&set);
	parse_pcs_text("100000000\n", &t);
	assert_int_equal(nt_records_from_trace(&set, &t, &cfg, "w.pcs", &recs, &err), -1);
	assert_non_null(strstr(err.msg, "w.pcs:1: pc 100000000 does not fit in XLEN=32"));
	nt_trace_free(&t);
	nt_images_free(&set);
}

/* ---- pcseq ---- */

static void pcseq_encodes_like_the_pcs(void **state)
{
	(void)state;
	/* tiny.pcs in the reference code's PC sequence format */
	static const char seq[] =
		"0x80000000,L4\n0x80000004,L4\n0x80000008,L4\n0x8000000C,L2\n"
		"0x8000000E,L2\n0x80000010,B2\n0x8000000E,L2\n0x80000010,B2\n"
		"0x8000000E,L2\n0x80000010,BN2\n0x80000012,C4\n0x8000003C,L2\n"
		"0x8000003E,R2\n0x80000016,L4\n0x8000001A,CI4\n0x8000003C,L2\n"
		"0x8000003E,R2\n0x8000001E,L4\n0x80000022,L4\n0x80000026,JI2\n"
		"0x8000002A,B4\n0x80000032,E4 exc\n0x80000040,L4\n0x80000044,L2\n"
		"0x80000046,L4\n0x8000004A,X4\n0x80000036,J2\n0x8000003A,J2\n"
		"0x8000003A,J2\n0x8000003A,J2\n";
	size_t len;
	char *pcs = slurp(TINY_PCS, &len);
	pcs = realloc(pcs, len + 1);
	pcs[len] = '\0';
	struct nt_tool_config cfgs[2] = { all_opt(NT_TOOL_HTM), config(NT_TOOL_BTM) };
	cfgs[0].seq_jump = false;       /* pcseq carries no operands */
	for (int k = 0; k < 2; k++) {
		struct nt_image_set set, none;
		struct nt_trace t, seqt, out;
		struct nt_records recs, seq_recs;
		struct nt_buf a = { 0 }, b = { 0 };
		struct nt_err err;
		load_elf(&set, TINY_ELF);
		nt_images_init(&none);
		parse_pcs_text(pcs, &t);
		nt_trace_init(&seqt);
		if (nt_pcseq_parse(seq, strlen(seq), "t.seq", &seqt, &err))
			fail_msg("%s", err.msg);
		if (nt_records_from_trace(&set, &t, &cfgs[k], "t.pcs", &recs, &err) ||
		    nt_records_from_trace(&none, &seqt, &cfgs[k], "t.seq", &seq_recs, &err))
			fail_msg("%s", err.msg);
		for (size_t i = 0; i < recs.count; i++) {
			assert_int_equal(recs.v[i].itype, seq_recs.v[i].itype);
			assert_int_equal(recs.v[i].size, seq_recs.v[i].size);
		}
		assert_int_equal(nt_encode_records(&cfgs[k], &seq_recs, &b, NULL, &err), 0);
		assert_int_equal(nt_encode_records(&cfgs[k], &recs, &a, NULL, &err), 0);
		/* identical records up to the end address: decode the pcseq one */
		nt_trace_init(&out);
		assert_int_equal(nt_decode_stream(&cfgs[k], &set, b.data, b.len, &out, NULL,
						  "t.nex", NULL, &err), 0);
		char *text = trace_text(&out);
		assert_string_equal(text, pcs);
		free(text);
		nt_buf_free(&a);
		nt_buf_free(&b);
		nt_records_free(&recs);
		nt_records_free(&seq_recs);
		nt_trace_free(&t);
		nt_trace_free(&seqt);
		nt_trace_free(&out);
		nt_images_free(&set);
		nt_images_free(&none);
	}
	free(pcs);
}

/* ---- decoder errors, dump, stats ---- */

static void encode_tiny(const struct nt_tool_config *cfg, struct nt_buf *nex,
			struct ntrace_enc_stats *stats)
{
	struct nt_image_set set;
	struct nt_trace t;
	struct nt_records recs;
	struct nt_err err;
	size_t len;
	char *text = slurp(TINY_PCS, &len);
	load_elf(&set, TINY_ELF);
	nt_trace_init(&t);
	assert_int_equal(nt_pcs_parse(text, len, "t.pcs", &t, &err), 0);
	assert_int_equal(nt_records_from_trace(&set, &t, cfg, "t.pcs", &recs, &err), 0);
	assert_int_equal(nt_encode_records(cfg, &recs, nex, stats, &err), 0);
	nt_records_free(&recs);
	nt_trace_free(&t);
	nt_images_free(&set);
	free(text);
}

static void decoder_errors_give_byte_offsets(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	struct nt_buf nex = { 0 };
	encode_tiny(&cfg, &nex, NULL);
	/* reserved MSEO=10 in the byte after the first message's TCODE */
	size_t first_end = 0;
	while ((nex.data[first_end] & 3) != 3)
		first_end++;
	size_t bad = first_end + 2;
	assert_true(bad < nex.len);
	nex.data[bad] = (uint8_t)((nex.data[bad] & ~3u) | 2u);
	struct nt_image_set set;
	struct nt_trace out;
	struct nt_err err;
	load_elf(&set, TINY_ELF);
	nt_trace_init(&out);
	char *diag = NULL;
	size_t diag_len = 0;
	FILE *df = open_memstream(&diag, &diag_len);
	long errors = nt_decode_stream(&cfg, &set, nex.data, nex.len, &out, NULL, "t.nex", df, &err);
	fclose(df);
	assert_true(errors >= 1);
	char expect[64];
	snprintf(expect, sizeof(expect), "t.nex: byte offset %zu: ", bad);
	if (!strstr(diag, expect))
		fail_msg("expected '%s' in '%s'", expect, diag);
	free(diag);
	nt_trace_free(&out);
	nt_images_free(&set);
	nt_buf_free(&nex);
}

static char *dump_text(const struct nt_tool_config *cfg, const uint8_t *bytes, size_t len,
		       long *bad, char **diag)
{
	char *out = NULL, *d = NULL;
	size_t out_len = 0, d_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	FILE *df = open_memstream(&d, &d_len);
	*bad = nt_dump_stream(cfg, bytes, len, f, "x.nex", df);
	fclose(f);
	fclose(df);
	*diag = d;
	return out;
}

/* The message of the spec's Table 6, byte for byte. */
static void dump_shows_table_6_fields(void **state)
{
	(void)state;
	static const uint8_t table6[] = { 0xFF, 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF, 0xFF };
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	long bad;
	char *diag;
	char *out = dump_text(&cfg, table6, sizeof(table6), &bad, &diag);
	assert_int_equal(bad, 0);
	static const char *const rows[] = {
		"00000000  0xff  111111  11    Idle",
		"00000001  0x70  011100  00    TCODE[6] = 28 - IndirectBranchHist",
		"00000002  0xd0  110100  00    BTYPE[2] = 0x0",
		"00000003  0x1d  000111  01    ICNT[10] = 0x7D",
		"00000004  0x1d  000111  01    UADDR[6] = 0x7",
		"00000005  0xf8  111110  00",
		"00000006  0xff  111111  11    HIST[12] = 0xFFE",
		"00000007  0xff  111111  11    Idle",
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strstr(out, rows[i]))
			fail_msg("missing row '%s' in:\n%s", rows[i], out);
	free(out);
	free(diag);
}

static void dump_reports_malformed_bytes(void **state)
{
	(void)state;
	/* TCODE 4, then MSEO=10 (reserved), then a good ProgTraceCorrelation */
	static const uint8_t bytes[] = { 0x10, 0x42, 0x07, 0x84, 0x10, 0x0b };
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	long bad;
	char *diag;
	char *out = dump_text(&cfg, bytes, sizeof(bytes), &bad, &diag);
	assert_true(bad >= 1);
	assert_non_null(strstr(out, "# malformed bytes at offset 0.."));
	assert_non_null(strstr(diag, "x.nex: byte offset 1: "));
	/* every byte is listed, and parsing resumed at the next message */
	assert_non_null(strstr(out, "00000001  0x42"));
	assert_non_null(strstr(out, "TCODE[6] = 33 - ProgTraceCorrelation"));
	free(out);
	free(diag);
}

static void dump_survives_every_truncation(void **state)
{
	(void)state;
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	cfg.timestamp = true;
	struct nt_buf nex = { 0 };
	encode_tiny(&cfg, &nex, NULL);
	for (size_t cut = 0; cut <= nex.len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, nex.data, cut);
		long bad;
		char *diag;
		char *out = dump_text(&cfg, copy, cut, &bad, &diag);
		/* the full stream is clean; a cut inside a message is reported */
		if (cut == nex.len)
			assert_int_equal(bad, 0);
		else if ((nex.data[cut - (cut > 0)] & 3) != 3 && cut > 0)
			assert_true(bad >= 1);
		free(out);
		free(diag);
		free(copy);
	}
	nt_buf_free(&nex);
}

static void stats_count_what_the_encoder_emitted(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	cfg.src_bits = 4;
	cfg.src_id = 9;
	struct nt_buf nex = { 0 };
	struct ntrace_enc_stats es;
	encode_tiny(&cfg, &nex, &es);
	struct nt_stream_stats st;
	nt_stream_stats(&cfg, nex.data, nex.len, &st);
	assert_int_equal(st.bytes, nex.len);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(st.messages, es.messages);
	for (unsigned t = 0; t < 64; t++)
		assert_int_equal(st.per_tcode[t], es.per_tcode[t]);
	nt_buf_free(&nex);
}

/* Read without its SRC field, SRC 12 (0b1100) would land in the first
 * message's SYNC field as the reserved value 12: width 0 is rejected. */
static void src_width_detection_rejects_reserved_values(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	cfg.src_bits = 4;
	cfg.src_id = 12;
	struct nt_buf nex = { 0 };
	encode_tiny(&cfg, &nex, NULL);
	struct nt_tool_config plain = config(NT_TOOL_HTM);
	assert_int_equal(nt_detect_src_bits(&plain, nex.data, nex.len), 4);
	nt_buf_free(&nex);
	/* and a stream without SRC stays at width 0 */
	encode_tiny(&plain, &nex, NULL);
	assert_int_equal(nt_detect_src_bits(&plain, nex.data, nex.len), 0);
	nt_buf_free(&nex);
}

/* Random and mutated streams through dump, stats and the decoder: errors are
 * fine, crashes and out-of-bounds reads (ASan) are not; each call returns. */
static void garbage_streams_never_crash(void **state)
{
	(void)state;
	struct nt_tool_config cfg = all_opt(NT_TOOL_HTM);
	cfg.timestamp = true;
	struct nt_buf good = { 0 };
	encode_tiny(&cfg, &good, NULL);
	struct nt_image_set set;
	load_elf(&set, TINY_ELF);
	FILE *null_out = fopen("/dev/null", "w");
	assert_non_null(null_out);
	srand(42);
	long total_errors = 0;
	for (int round = 0; round < 300; round++) {
		size_t len = round % 2 ? good.len : (size_t)(rand() % 96);
		uint8_t *buf = malloc(len ? len : 1);   /* exact size for ASan */
		for (size_t i = 0; i < len; i++)
			buf[i] = round % 2 ? good.data[i] : (uint8_t)rand();
		if (round % 2)                          /* flip a few bits */
			for (int k = 0; k < 3; k++)
				buf[rand() % len] ^= (uint8_t)(1u << (rand() % 8));
		struct nt_stream_stats st;
		nt_stream_stats(&cfg, buf, len, &st);
		assert_true(st.messages + st.malformed <= len);
		nt_detect_src_bits(&cfg, buf, len);
		nt_dump_stream(&cfg, buf, len, null_out, "g.nex", null_out);
		struct nt_trace out;
		struct nt_err err;
		nt_trace_init(&out);
		long errors = nt_decode_stream(&cfg, &set, buf, len, &out, NULL, "g.nex", NULL, &err);
		assert_true(errors >= 0);
		total_errors += errors;
		nt_trace_free(&out);
		free(buf);
	}
	/* the garbage was noticed */
	assert_true(total_errors > 0);
	fclose(null_out);
	nt_images_free(&set);
	nt_buf_free(&good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_htm),
		cmocka_unit_test(round_trip_btm),
		cmocka_unit_test(round_trip_all_optimizations),
		cmocka_unit_test(round_trip_src_timestamp_sync),
		cmocka_unit_test(round_trip_interrupt_and_exception_markers),
		cmocka_unit_test(decoder_source_filter),
		cmocka_unit_test(round_trip_rv32),
		cmocka_unit_test(round_trip_every_prefix),
		cmocka_unit_test(round_trip_across_two_elf_files),
		cmocka_unit_test(chunked_encoding_matches_whole_records),
		cmocka_unit_test(round_trip_long_branch_loop_htm),
		cmocka_unit_test(round_trip_branch_then_interrupt_btm),
		cmocka_unit_test(round_trip_branch_then_interrupt_htm),
		cmocka_unit_test(itype_follows_table_2_with_implicit_return),
		cmocka_unit_test(itype_is_3_bit_without_implicit_return),
		cmocka_unit_test(markers_become_trap_itypes),
		cmocka_unit_test(timestamps_are_instruction_indexes),
		cmocka_unit_test(unexplained_transitions_name_the_line),
		cmocka_unit_test(pc_outside_images_is_an_error),
		cmocka_unit_test(invalid_instruction_is_an_error),
		cmocka_unit_test(xlen32_rejects_wide_pc),
		cmocka_unit_test(pcseq_encodes_like_the_pcs),
		cmocka_unit_test(decoder_errors_give_byte_offsets),
		cmocka_unit_test(dump_shows_table_6_fields),
		cmocka_unit_test(dump_reports_malformed_bytes),
		cmocka_unit_test(dump_survives_every_truncation),
		cmocka_unit_test(stats_count_what_the_encoder_emitted),
		cmocka_unit_test(src_width_detection_rejects_reserved_values),
		cmocka_unit_test(garbage_streams_never_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

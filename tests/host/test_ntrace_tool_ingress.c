// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ntrace tool as the mirror of tracesbi's software trace encoder
 * (tools/ntrace/ntrace_tool.h with the real codec library):
 *  - --tci: codec options from trTeControl / trTeInstFeatures / trTsControl
 *    as firmware/trace/engine.c config_from_registers() sets the encoder;
 *  - .pcs privilege tokens: the records go through lib/ntrace's qualified
 *    ingress (M-mode never traced: EVCODE=4 when the trace leaves the
 *    traced part, SYNC=5 when it comes back), cut into the calls the
 *    firmware makes (nt_ingress_cut);
 *  - --trace-priv / --trace-range: TCI filter 0 and comparator 0;
 *  - --all-jumps, the same bytes however the records are fed;
 *  - decode --wrapped (a circular buffer read from its oldest byte) and
 *    decode --symbols (listing).
 * Streams are checked message by message with ntrace_msg_parse and by
 * decoding them back.
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
#include "test_ntrace_tool.h"
#include "lib/tci/tci_filter.h"
#include "lib/tci/tci_spec.h"

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define TINY_PCS NT_TEST_DATA "/tiny.pcs"

/* ---- helpers ------------------------------------------------------------ */


static void load_tiny(struct nt_image_set *set)
{
	struct nt_err err;
	nt_images_init(set);
	if (nt_images_add_elf(set, TINY_ELF, &err))
		fail_msg("%s", err.msg);
}

static struct nt_tool_config config(int mode)
{
	struct nt_tool_config cfg;
	nt_tool_config_default(&cfg);
	cfg.mode = mode;
	return cfg;
}

/* Encodes .pcs text; fails the test on an error. */
static void encode_text(const char *text, const struct nt_tool_config *cfg, struct nt_buf *nex)
{
	struct nt_image_set set;
	struct nt_trace in;
	struct nt_err err;
	load_tiny(&set);
	nt_trace_init(&in);
	if (nt_pcs_parse(text, strlen(text), "t.pcs", &in, &err))
		fail_msg("%s", err.msg);
	memset(nex, 0, sizeof(*nex));
	if (nt_encode_trace(&set, &in, cfg, "t.pcs", nex, NULL, &err))
		fail_msg("%s", err.msg);
	nt_trace_free(&in);
	nt_images_free(&set);
}

/* Decodes into canonical .pcs text; *errors gets the decoder's count. */
static char *decode_text(const uint8_t *nex, size_t len, const struct nt_tool_config *cfg,
			 long *errors, char **diag)
{
	struct nt_image_set set;
	struct nt_err err;
	char *out = NULL, *d = NULL;
	size_t out_len = 0, d_len = 0;
	FILE *f = open_memstream(&out, &out_len), *df = open_memstream(&d, &d_len);
	load_tiny(&set);
	*errors = nt_decode_to_text(cfg, &set, nex, len, f, NULL, "t.nex", df, &err);
	fclose(f);
	fclose(df);
	if (*errors < 0)
		fail_msg("%s", err.msg);
	nt_images_free(&set);
	if (diag)
		*diag = d;
	else
		free(d);
	return out;
}

/* Decoding must give `want` without any error. */
static void expect_decodes_to(const struct nt_buf *nex, const struct nt_tool_config *cfg,
			      const char *want)
{
	long errors;
	char *diag;
	char *got = decode_text(nex->data, nex->len, cfg, &errors, &diag);
	if (errors)
		fail_msg("%ld decoding errors: %s", errors, diag);
	assert_string_equal(got, want);
	free(got);
	free(diag);
}

#define MAX_MSGS 20000

struct msgs {
	struct ntrace_msg m[MAX_MSGS];
	size_t n;
};

static struct msgs ms;

static void parse_msgs(const struct nt_buf *nex, const struct nt_tool_config *cfg)
{
	struct ntrace_format fmt;
	size_t pos = 0;
	nt_tool_format(cfg, &fmt);
	ms.n = 0;
	for (;;) {
		struct ntrace_error err;
		int rc = ntrace_msg_parse(&fmt, nex->data, nex->len, &pos, &ms.m[ms.n], &err);
		assert_true(rc >= 0);
		if (rc == 0)
			return;
		assert_true(++ms.n < MAX_MSGS);
	}
}

static unsigned tcode(size_t i)
{
	return (unsigned)ms.m[i].val[NTRACE_FLD_TCODE];
}

static uint64_t faddr(size_t i)
{
	return ntrace_field_to_addr(ms.m[i].val[NTRACE_FLD_FADDR], 64);
}

/* Appends " <priv>" to every line of text: priv_of(pc) decides. */
static char *with_privileges(const char *text, const char *(*priv_of)(uint64_t pc))
{
	size_t cap = strlen(text) * 2 + 64, n = 0;
	char *out = malloc(cap);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		uint64_t pc = strtoull(p, NULL, 16);
		n += (size_t)snprintf(out + n, cap - n, "%.*s %s\n", (int)len, p, priv_of(pc));
		p += len + (nl != NULL);
	}
	return out;
}

/* The lines of text (with privileges) that keep(pc, priv) selects, without
 * their privilege tokens: what a decoder gives back. */
static char *selected_lines(const char *text, bool (*keep)(uint64_t pc, const char *priv))
{
	size_t cap = strlen(text) + 1, n = 0;
	char *out = malloc(cap);
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *sp = p + len;
		while (sp > p && sp[-1] != ' ')
			sp--;
		char priv[4] = { 0 };
		memcpy(priv, sp, (size_t)(p + len - sp) < 3 ? (size_t)(p + len - sp) : 3);
		if (keep(strtoull(p, NULL, 16), priv)) {
			memcpy(out + n, p, (size_t)(sp - 1 - p));
			n += (size_t)(sp - 1 - p);
			out[n++] = '\n';
		}
		p += len + (nl != NULL);
	}
	out[n] = '\0';
	return out;
}

/* ---- --tci ---------------------------------------------------------------- */

static struct ntrace_enc_config tci_enc(uint32_t control, uint32_t features, uint32_t ts)
{
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct ntrace_enc_config e;
	struct nt_err err;
	if (nt_tool_config_from_tci(&cfg, control, features, ts, &err))
		fail_msg("%s", err.msg);
	nt_tool_enc_config(&cfg, &e);
	return e;
}

#define FMT_NTRACE (TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT)

/* The opt run of the trace payload: htm seqjump implicitret repeat extaddr. */
static void tci_values_of_an_htm_run_set_its_codec_options(void **state)
{
	(void)state;
	struct ntrace_enc_config e = tci_enc(0x100006b, 0x5cc, 0);
	assert_int_equal(e.trTeInstMode, NTRACE_INST_MODE_HTM);
	assert_true(e.trTeInstEnSequentialJump);
	assert_true(e.trTeInstEnImplicitReturn);
	assert_int_equal(e.trTeInstImplicitReturnMode, 3);
	assert_int_equal(e.call_stack_depth, 32);
	assert_true(e.trTeInstEnRepeatedHistory);
	assert_true(e.trTeInstExtendAddrMSB);
	assert_false(e.trTeInstEnAllJumps);
	assert_false(e.trTeContext);
	assert_int_equal(e.trTeInstSyncMode, 0);
	assert_int_equal(e.trTeSrcBits, 0);
	assert_false(e.trTsEnable);
	assert_false(e.btype_trap_as_1);
	assert_int_equal(e.icnt_bits, 0);
	assert_int_equal(e.hist_bits, 0);
}

/* Every other field: BTM, context, sync mode/max, SRC, all jumps, implicit
 * return mode 1, RepeatedHistory as RepeatBranch, timestamps. */
static void tci_values_set_every_other_field(void **state)
{
	(void)state;
	uint32_t control = FMT_NTRACE | TRTE_INST_MODE_BASELINE << TRTE_INST_MODE_SHIFT |
			   TRTE_CONTEXT | 2u << TRTE_INST_SYNC_MODE_SHIFT | 7u << TRTE_INST_SYNC_MAX_SHIFT |
			   TRTE_ACTIVE | TRTE_ENABLE;
	uint32_t features = 4u << TRTE_SRC_BITS_SHIFT | 0x9u << TRTE_SRC_ID_SHIFT |
			    TRTE_INST_EN_ALL_JUMPS | TRTE_INST_EN_IMPLICIT_RETURN |
			    1u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT | TRTE_INST_EN_REPEATED_HISTORY;
	uint32_t ts = TRTS_ACTIVE | TRTS_ENABLE | TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT;
	struct ntrace_enc_config e = tci_enc(control, features, ts);
	assert_int_equal(e.trTeInstMode, NTRACE_INST_MODE_BTM);
	assert_true(e.trTeContext);
	assert_int_equal(e.trTeInstSyncMode, 2);
	assert_int_equal(e.trTeInstSyncMax, 7);
	assert_int_equal(e.trTeSrcBits, 4);
	assert_int_equal(e.trTeSrcID, 9);
	assert_false(e.trTeInhibitSrc);
	assert_true(e.trTeInstEnAllJumps);
	assert_true(e.trTeInstEnImplicitReturn);
	assert_int_equal(e.trTeInstImplicitReturnMode, 1);
	assert_true(e.trTeInstEnRepeatedHistory);       /* RepeatBranch in BTM */
	assert_false(e.trTeInstEnSequentialJump);
	assert_false(e.trTeInstExtendAddrMSB);
	assert_true(e.trTsEnable);
	/* the decoder gets the same view, and every source */
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct ntrace_dec_config d;
	struct nt_err err;
	assert_int_equal(nt_tool_config_from_tci(&cfg, control, features, ts, &err), 0);
	nt_tool_dec_config(&cfg, &d);
	assert_int_equal(d.inst_mode, NTRACE_INST_MODE_BTM);
	assert_int_equal(d.fmt.src_bits, 4);
	assert_int_equal(d.src_id, -1);
	assert_true(d.all_jumps);
	assert_true(d.implicit_return);
	/* trTeInhibitSrc: no SRC field whatever trTeSrcBits says */
	e = tci_enc(control | TRTE_INHIBIT_SRC, features, ts);
	assert_int_equal(e.trTeSrcBits, 0);
	assert_true(e.trTeInhibitSrc);
	/* ImplicitReturnMode without EnImplicitReturn: off */
	e = tci_enc(control, 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT, 0);
	assert_false(e.trTeInstEnImplicitReturn);
	assert_int_equal(e.call_stack_depth, 0);
}

/* TSTAMP only from the firmware's timestamp unit: Active, Enable, Mode 2. */
static void tci_timestamps_need_active_enable_and_mode_2(void **state)
{
	(void)state;
	uint32_t mode2 = TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT;
	assert_true(tci_enc(0x100006b, 0xc0, TRTS_ACTIVE | TRTS_ENABLE | mode2).trTsEnable);
	assert_true(tci_enc(0x100006b, 0xc0, 0x8123 | mode2).trTsEnable);
	assert_false(tci_enc(0x100006b, 0xc0, TRTS_ENABLE | mode2).trTsEnable);
	assert_false(tci_enc(0x100006b, 0xc0, TRTS_ACTIVE | mode2).trTsEnable);
	assert_false(tci_enc(0x100006b, 0xc0, TRTS_ACTIVE | TRTS_ENABLE).trTsEnable);
	assert_false(tci_enc(0x100006b, 0xc0, 0).trTsEnable);
}

static void expect_tci_error(uint32_t control, uint32_t features, const char *what)
{
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct nt_err err = { "" };
	assert_int_equal(nt_tool_config_from_tci(&cfg, control, features, 0, &err), -1);
	if (!strstr(err.msg, what))
		fail_msg("expected '%s' in '%s'", what, err.msg);
}

static void tci_values_the_tool_cannot_follow_are_errors(void **state)
{
	(void)state;
	static const unsigned bad_modes[] = { 0, 1, 2, 4, 5, 7 };
	for (unsigned i = 0; i < 6; i++)
		expect_tci_error(FMT_NTRACE | bad_modes[i] << TRTE_INST_MODE_SHIFT, 0,
				 "trTeInstMode (bits 6:4)");
	expect_tci_error(0x6b, 0, "trTeFormat (bits 26:24) is 0, not 1 (N-Trace)");
	expect_tci_error(0x200006b, 0, "trTeFormat");
	static const uint32_t bad_features[] = { 1u << 0, 1u << 1, 1u << 4, 1u << 5, 1u << 11, 1u << 15 };
	for (unsigned i = 0; i < 6; i++)
		expect_tci_error(0x100006b, bad_features[i], "trTeInstFeatures");
	expect_tci_error(0x100006b, TRTE_INST_EN_IMPLICIT_RETURN, "ImplicitReturnMode (bits 7:6) 0");
	expect_tci_error(0x100006b, 13u << TRTE_SRC_BITS_SHIFT, "trTeSrcBits (bits 31:28) is 13");
}

/* ---- privilege tokens and the ingress --------------------------------------- */

static const char *all_s(uint64_t pc)
{
	(void)pc;
	return "S";
}

/* tiny.S's trap handler (0x80000040..0x8000004f) is M-mode code. */
static bool in_handler(uint64_t pc)
{
	return pc >= 0x80000040 && pc < 0x80000050;
}

static const char *handler_m(uint64_t pc)
{
	return in_handler(pc) ? "M" : "S";
}

/* Lines before the ecall in U-mode, the handler in M, the rest in S. */
static const char *u_then_s(uint64_t pc)
{
	if (in_handler(pc))
		return "M";
	return pc < 0x80000032 ? "U" : "S";
}

/* Tokens that only say "S" go through the ingress and change nothing. */
static void privilege_s_everywhere_gives_the_bytes_without_tokens(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	char *tokens = with_privileges(plain, all_s);
	struct nt_tool_config cfgs[4] = { config(NT_TOOL_HTM), config(NT_TOOL_BTM),
					  config(NT_TOOL_HTM), config(NT_TOOL_BTM) };
	cfgs[2].callstack = 32;
	cfgs[2].implicit_return_mode = 3;
	cfgs[2].seq_jump = cfgs[2].ext_addr = cfgs[2].repeat_history = true;
	cfgs[3].repeat_branch = cfgs[3].all_jumps = true;
	cfgs[3].sync_period = 16;
	for (int k = 0; k < 4; k++) {
		struct nt_buf a, b;
		encode_text(plain, &cfgs[k], &a);
		encode_text(tokens, &cfgs[k], &b);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.data, b.data, a.len);
		nt_buf_free(&a);
		nt_buf_free(&b);
	}
	free(tokens);
	free(plain);
}

static bool not_m(uint64_t pc, const char *priv)
{
	(void)pc;
	return strcmp(priv, "M") != 0;
}

/*
 * The ecall at 0x80000032 enters the M-mode handler: the exception message
 * (B-TYPE 2) gets the handler's address, ProgTraceCorrelation EVCODE=4 ends
 * the trace there, and ProgTraceSync SYNC=5 restarts it at 0x80000036
 * where S-mode resumes.  Decoded: every line but the M ones.
 */
static void m_lines_end_the_trace_and_the_return_restarts_it(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	char *text = with_privileges(plain, handler_m);
	char *want = selected_lines(text, not_m);
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct nt_buf nex;
	encode_text(text, &cfg, &nex);
	parse_msgs(&nex, &cfg);
	size_t i = 0;
	assert_int_equal(tcode(0), NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(ms.m[0].val[NTRACE_FLD_SYNC], NTRACE_SYNC_TRACE_ENABLE);
	assert_int_equal(faddr(0), 0x80000000);
	while (i < ms.n && tcode(i) != NTRACE_TCODE_PROG_TRACE_CORRELATION)
		i++;
	assert_true(i > 1 && i + 2 < ms.n);
	/* the message before: the ecall's exception, to the handler */
	assert_true(tcode(i - 1) == NTRACE_TCODE_INDIRECT_BRANCH ||
		    tcode(i - 1) == NTRACE_TCODE_INDIRECT_BRANCH_HIST);
	assert_int_equal(ms.m[i - 1].val[NTRACE_FLD_BTYPE], NTRACE_BTYPE_EXCEPTION);
	assert_int_equal(ms.m[i].val[NTRACE_FLD_EVCODE], NTRACE_EVCODE_TRACE_DISABLED);
	assert_int_equal(ms.m[i].val[NTRACE_FLD_ICNT], 0);
	assert_int_equal(tcode(i + 1), NTRACE_TCODE_PROG_TRACE_SYNC);
	assert_int_equal(ms.m[i + 1].val[NTRACE_FLD_SYNC], NTRACE_SYNC_TRACE_ENABLE);
	assert_int_equal(faddr(i + 1), 0x80000036);
	assert_int_equal(tcode(ms.n - 1), NTRACE_TCODE_PROG_TRACE_CORRELATION);
	expect_decodes_to(&nex, &cfg, want);
	nt_buf_free(&nex);
	free(want);
	free(text);
	free(plain);
}

/* M lines are never classified: they need no image and may be anywhere. */
static void m_lines_need_no_image(void **state)
{
	(void)state;
	const char *text = "80000000 S\n80000004 S\n80000008 S\n8000000c S\n8000000e S\n"
			   "80000010 int S\n12345678 M\n9 M\n8000000e S\n80000010 S\n80000012 S\n";
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	struct nt_buf nex;
	encode_text(text, &cfg, &nex);
	expect_decodes_to(&nex, &cfg, "80000000\n80000004\n80000008\n8000000c\n8000000e\n"
				      "80000010 int\n8000000e\n80000010\n80000012\n");
	nt_buf_free(&nex);
	/* the line before M lines is checked against the next S/U line */
	struct nt_image_set set;
	struct nt_trace in;
	struct nt_err err;
	const char *bad = "80000000 S\n80000004 S\n12345678 M\n80000010 S\n";
	load_tiny(&set);
	nt_trace_init(&in);
	assert_int_equal(nt_pcs_parse(bad, strlen(bad), "b.pcs", &in, &err), 0);
	assert_int_equal(nt_encode_trace(&set, &in, &cfg, "b.pcs", &nex, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "b.pcs:2: pc 80000004 (linear instruction) cannot continue at 80000010 (line 4)"));
	nt_trace_free(&in);
	nt_images_free(&set);
}

static const char *want_priv;

static bool priv_selected(uint64_t pc, const char *priv)
{
	(void)pc;
	return strcmp(priv, "M") && strstr(want_priv, priv);
}

/* tiny.S's leaf function: 0x8000003c..0x8000003f. */
#define LEAF_START 0x8000003cu
#define LEAF_END   0x80000040u

static bool in_leaf(uint64_t pc, const char *priv)
{
	return strcmp(priv, "M") && pc >= LEAF_START && pc < LEAF_END;
}

static bool in_leaf_and_s(uint64_t pc, const char *priv)
{
	return in_leaf(pc, priv) && !strcmp(priv, "S");
}

static bool in_leaf_and_u(uint64_t pc, const char *priv)
{
	return in_leaf(pc, priv) && !strcmp(priv, "U");
}

static void filtered_round_trip(const char *text, const struct nt_tool_config *cfg,
				bool (*keep)(uint64_t, const char *))
{
	char *want = selected_lines(text, keep);
	struct nt_buf nex;
	encode_text(text, cfg, &nex);
	expect_decodes_to(&nex, cfg, want);
	nt_buf_free(&nex);
	free(want);
}

/* Filter 0 MatchPrivilege (U = bit 0, S = bit 1): only those privileges. */
static void trace_priv_keeps_only_the_chosen_privileges(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	char *text = with_privileges(plain, u_then_s);
	static const struct { uint8_t bits; const char *names; } choice[] = {
		{ 1u << TCI_PRIV_U, "U" }, { 1u << TCI_PRIV_S, "S" },
		{ 1u << TCI_PRIV_U | 1u << TCI_PRIV_S, "US" },
	};
	for (int mode = 0; mode < 2; mode++) {
		for (int k = 0; k < 3; k++) {
			struct nt_tool_config cfg = config(mode);
			cfg.trace_priv = choice[k].bits;
			want_priv = choice[k].names;
			filtered_round_trip(text, &cfg, priv_selected);
		}
	}
	/* U only: the trace starts in U and comes back to it after each call
	 * of the (S-mode) leaf, at 0x80000016 and 0x8000001e */
	static const uint64_t entries[] = { 0x80000000, 0x80000016, 0x8000001e };
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct nt_buf nex;
	size_t syncs = 0;
	cfg.trace_priv = 1u << TCI_PRIV_U;
	encode_text(text, &cfg, &nex);
	parse_msgs(&nex, &cfg);
	assert_int_equal(tcode(ms.n - 1), NTRACE_TCODE_PROG_TRACE_CORRELATION);
	for (size_t i = 0; i < ms.n; i++) {
		if (tcode(i) != NTRACE_TCODE_PROG_TRACE_SYNC)
			continue;
		assert_true(syncs < 3);
		assert_int_equal(faddr(i), entries[syncs]);
		assert_int_equal(tcode(i - (i > 0)), i ? NTRACE_TCODE_PROG_TRACE_CORRELATION
						      : NTRACE_TCODE_PROG_TRACE_SYNC);
		syncs++;
	}
	assert_int_equal(syncs, 3);
	nt_buf_free(&nex);
	free(text);
	free(plain);
}

/* Comparator 0, iaddr >= A && iaddr < B: only the leaf function, entered
 * twice; with --trace-priv both conditions must hold. */
static void trace_range_keeps_only_the_range(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	char *text = with_privileges(plain, u_then_s);
	for (int mode = 0; mode < 2; mode++) {
		struct nt_tool_config cfg = config(mode);
		cfg.trace_range = true;
		cfg.range_start = LEAF_START;
		cfg.range_end = LEAF_END;
		filtered_round_trip(text, &cfg, in_leaf);
		struct nt_buf nex;
		encode_text(text, &cfg, &nex);
		parse_msgs(&nex, &cfg);
		unsigned starts = 0;
		for (size_t i = 0; i < ms.n; i++)
			if (tcode(i) == NTRACE_TCODE_PROG_TRACE_SYNC) {
				assert_int_equal(faddr(i), LEAF_START);
				starts++;
			}
		assert_int_equal(starts, 2);
		nt_buf_free(&nex);
		/* the leaf runs in S-mode in this window: with U, nothing */
		cfg.trace_priv = 1u << TCI_PRIV_S;
		filtered_round_trip(text, &cfg, in_leaf_and_s);
		cfg.trace_priv = 1u << TCI_PRIV_U;
		filtered_round_trip(text, &cfg, in_leaf_and_u);
	}
	free(text);
	free(plain);
}

/* The registers as tests/target/trace/kernel.c setup_filters() writes them. */
static void qualification_options_program_filter_0_and_comparator_0(void **state)
{
	(void)state;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct tci_filter_regs r;
	nt_tool_filter_regs(&cfg, &r);
	assert_int_equal(r.inst_filters, 0);
	cfg.trace_priv = 1u << TCI_PRIV_S;
	cfg.trace_range = true;
	cfg.range_start = 0xffffffff80001000ull;
	cfg.range_end = 0xffffffff80002000ull;
	nt_tool_filter_regs(&cfg, &r);
	assert_int_equal(r.inst_filters, 1);
	assert_int_equal(tci_filter_read(&r, TRTE_FILTER_BASE + TRTE_FILTER_CONTROL),
			 TRTE_FILTER_ENABLE | TRTE_FILTER_MATCH_PRIVILEGE | TRTE_FILTER_MATCH_COMP1);
	assert_int_equal(tci_filter_read(&r, TRTE_FILTER_BASE + TRTE_FILTER_MATCH_INST), 2);
	assert_int_equal(tci_filter_read(&r, TRTE_COMP_BASE + TRTE_COMP_CONTROL),
			 TRTE_COMP_FN_GE << TRTE_COMP_P_FUNCTION_SHIFT |
			 TRTE_COMP_FN_LT << TRTE_COMP_S_FUNCTION_SHIFT |
			 TRTE_COMP_MODE_P_AND_S << TRTE_COMP_MATCH_MODE_SHIFT);
	assert_int_equal(r.pmatch[0], 0xffffffff80001000ull);
	assert_int_equal(r.smatch[0], 0xffffffff80002000ull);
	struct tci_qualifier q;
	tci_qualifier_init(&q, &r);
	assert_true(tci_qualify(&q, 0xffffffff80001000ull, TCI_PRIV_S, 0));
	assert_false(tci_qualify(&q, 0xffffffff80002000ull, TCI_PRIV_S, 0));
	assert_false(tci_qualify(&q, 0xffffffff80001000ull, TCI_PRIV_U, 0));
}

/* Qualification without privileges is an input error, not a silent no-op. */
static void qualification_needs_privilege_tokens(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	struct nt_image_set set;
	struct nt_trace in;
	struct nt_buf nex = { 0 };
	struct nt_err err;
	struct nt_records recs;
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	cfg.trace_priv = 1u << TCI_PRIV_U;
	load_tiny(&set);
	nt_trace_init(&in);
	assert_int_equal(nt_pcs_parse(plain, strlen(plain), "p.pcs", &in, &err), 0);
	assert_int_equal(nt_encode_trace(&set, &in, &cfg, "p.pcs", &nex, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "p.pcs: --trace-priv and --trace-range need a privilege token"));
	assert_int_equal(nt_records_from_trace(&set, &in, &cfg, "p.pcs", &recs, &err), -1);
	nt_trace_free(&in);
	nt_images_free(&set);
	free(plain);
}

/* ---- the calls the firmware makes ---------------------------------------------- */

struct call {
	bool single;
	uint8_t count;
	uint64_t addr;          /* block start */
	uint64_t rvc;
	struct ntrace_retired end;
	bool has_end;
};

static struct call calls[256];
static size_t ncalls;

static void rec_block(void *ctx, const struct ntrace_block *b, const struct ntrace_retired *end)
{
	(void)ctx;
	assert_true(ncalls < 256);
	calls[ncalls++] = (struct call){ .count = b->count, .addr = b->addr, .rvc = b->rvc_mask,
					 .end = end ? *end : (struct ntrace_retired){ 0 },
					 .has_end = end != NULL };
}

static void rec_single(void *ctx, const struct ntrace_retired *r)
{
	(void)ctx;
	calls[ncalls++] = (struct call){ .single = true, .end = *r, .has_end = true };
}

/*
 * firmware/trace/stepper.c: a run of linear instructions is the block of
 * all but the last plus the last as end record (held_run, held_end); a
 * transfer an empty block with itself as end; an M excursion one record
 * through ntrace_ingress_retire; runs hold at most 64 instructions.
 */
static void ingress_cut_makes_the_firmware_calls(void **state)
{
	(void)state;
	struct ntrace_retired r[120];
	size_t n = 0;
	uint64_t a = 0x1000;
#define REC(addr_, size_, itype_, priv_) \
	(r[n++] = (struct ntrace_retired){ .addr = (addr_), .size = (size_), .itype = (itype_), \
					   .priv = (priv_) })
	REC(a, 4, 0, 1); REC(a + 4, 2, 0, 1); REC(a + 6, 4, 0, 1);     /* run of 3 */
	REC(a + 10, 4, RV_ITYPE_TAKEN_BRANCH, 1);                     /* transfer */
	REC(0x2000, 2, 0, 1); REC(0x2002, 4, 0, 1);
	REC(0x2006, 4, RV_ITYPE_EXCEPTION, 1);                         /* ecall: ends the run */
	REC(0x80000400, 0, 0, 3);                                      /* M excursion */
	REC(0x200a, 4, 0, 1); REC(0x200e, 4, 0, 0);                    /* priv change: 2 runs */
	for (unsigned i = 0; i < 70; i++)
		REC(0x3000 + 4 * i, 4, 0, 0);
	REC(0x3000 + 4 * 70, 4, RV_ITYPE_UNINFERABLE_JUMP, 0);
	REC(0x4000, 2, RV_ITYPE_INTERRUPT, 0);                         /* trap-marked, alone */
#undef REC
	struct nt_ingress_cutter c;
	ncalls = 0;
	nt_ingress_cut_init(&c, rec_block, rec_single, NULL);
	nt_ingress_cut(&c, r, 5);       /* calls split anywhere */
	nt_ingress_cut(&c, r + 5, n - 5);
	nt_ingress_cut_finish(&c);
	assert_int_equal(ncalls, 10);
	assert_int_equal(calls[0].count, 2);
	assert_int_equal(calls[0].addr, 0x1000);
	assert_int_equal(calls[0].rvc, 2);              /* the second is 16-bit */
	assert_int_equal(calls[0].end.addr, 0x1006);
	assert_int_equal(calls[1].count, 0);
	assert_int_equal(calls[1].end.itype, RV_ITYPE_TAKEN_BRANCH);
	assert_int_equal(calls[2].count, 2);
	assert_int_equal(calls[2].end.addr, 0x2006);
	assert_int_equal(calls[2].end.itype, RV_ITYPE_EXCEPTION);
	assert_true(calls[3].single);
	assert_int_equal(calls[3].end.priv, 3);
	assert_int_equal(calls[4].count, 0);            /* 0x200a in S alone */
	assert_int_equal(calls[4].end.addr, 0x200a);
	assert_int_equal(calls[5].count, 0);            /* 0x200e in U, then a new run */
	assert_int_equal(calls[5].end.addr, 0x200e);
	assert_int_equal(calls[6].count, 63);           /* 64 instructions */
	assert_int_equal(calls[6].addr, 0x3000);
	assert_int_equal(calls[6].end.addr, 0x3000 + 4 * 63);
	assert_int_equal(calls[7].count, 5);            /* the other 6 */
	assert_int_equal(calls[7].end.addr, 0x3000 + 4 * 69);
	assert_int_equal(calls[8].count, 0);
	assert_int_equal(calls[8].end.itype, RV_ITYPE_UNINFERABLE_JUMP);
	/* trap-marked after a jump, so not continuing a run: its own block */
	assert_int_equal(calls[9].count, 0);
	assert_int_equal(calls[9].end.itype, RV_ITYPE_INTERRUPT);
	assert_int_equal(calls[9].end.addr, 0x4000);
	for (size_t i = 0; i < ncalls; i++)
		assert_true(calls[i].has_end);
}

/* ---- feeding does not change the bytes ------------------------------------------ */

/* A trace of many chunks: the bnez loop of tiny.S taken 5000 times. */
static char *long_loop_trace(void)
{
	size_t cap = 200000, len = 0;
	char *t = malloc(cap);
	len += (size_t)sprintf(t + len, "80000000\n80000004\n80000008\n8000000c\n");
	for (int i = 0; i < 5000; i++)
		len += (size_t)sprintf(t + len, "8000000e\n80000010\n");
	len += (size_t)sprintf(t + len, "8000000e\n80000010\n80000012\n8000003c\n8000003e\n"
			       "80000016\n8000001a\n8000003c\n8000003e\n8000001e\n80000022\n"
			       "80000026\n8000002a\n80000032 exc\n80000040\n80000044\n80000046\n"
			       "8000004a\n80000036\n");
	for (int i = 0; i < 3000; i++)
		len += (size_t)sprintf(t + len, "8000003a\n");
	assert_true(len < cap);
	return t;
}

/* Sync modes 1-3 (periodic syncs) through --tci, with and without the
 * ingress: one record per call, many, and the firmware's blocks agree. */
static void feeding_records_chunks_or_blocks_gives_the_same_bytes(void **state)
{
	(void)state;
	char *plain = long_loop_trace();
	char *tokens = with_privileges(plain, handler_m);
	static const uint32_t controls[] = { 0x1010069, 0x1020069, 0x1030069, 0x1030039,
					     0x1010239, 0x1000069 };
	static const uint32_t features[] = { 0xc0, 0x5cc, 0x2c0, 0x7c8, 0x148 };
	for (unsigned c = 0; c < 6; c++)
		for (unsigned f = 0; f < 5; f++)
			for (int t = 0; t < 2; t++) {
				struct nt_tool_config cfg = config(NT_TOOL_HTM);
				struct nt_err err;
				struct nt_buf out[4];
				assert_int_equal(nt_tool_config_from_tci(&cfg, controls[c], features[f],
									 0, &err), 0);
				cfg.timestamp = t == 1 && c == 1;       /* sync mode 2 counts ticks */
				for (unsigned feed = 0; feed < 4; feed++) {
					cfg.feed = feed;
					encode_text(t ? tokens : plain, &cfg, &out[feed]);
				}
				for (unsigned feed = 1; feed < 4; feed++) {
					if (out[feed].len != out[0].len ||
					    memcmp(out[feed].data, out[0].data, out[0].len))
						fail_msg("control 0x%x features 0x%x %s: feed %u differs",
							 controls[c], features[f],
							 t ? "with privileges" : "", feed);
					nt_buf_free(&out[feed]);
				}
				if (c == 0 || c == 2) {
					long errors;
					char *back = decode_text(out[0].data, out[0].len, &cfg, &errors,
								 NULL);
					assert_int_equal(errors, 0);
					if (!t)
						assert_string_equal(back, plain);
					free(back);
				}
				nt_buf_free(&out[0]);
			}
	free(tokens);
	free(plain);
}

/* ---- --all-jumps ------------------------------------------------------------------ */

/* jal, j and c.j become taken branches: HIST bits in HTM, DirectBranch
 * messages in BTM; the trace still decodes with --all-jumps; without it only
 * in BTM, where the decoder infers it. */
static void all_jumps_reports_direct_jumps_as_taken_branches(void **state)
{
	(void)state;
	char *plain = long_loop_trace();
	for (int mode = 0; mode < 2; mode++)
		for (int ir = 0; ir < 2; ir++) {
			struct nt_tool_config cfg = config(mode);
			struct nt_buf with, without;
			cfg.callstack = ir ? 8 : 0;
			cfg.implicit_return_mode = ir ? 3 : 0;
			encode_text(plain, &cfg, &without);
			cfg.all_jumps = true;
			encode_text(plain, &cfg, &with);
			/* 3000 more taken jumps: more bytes */
			assert_true(with.len > without.len);
			expect_decodes_to(&with, &cfg, plain);
			struct nt_tool_config other = cfg;
			other.all_jumps = false;
			long errors;
			char *back = decode_text(with.data, with.len, &other, &errors, NULL);
			/* BTM: a DirectBranch can only end on a jump under all-jumps,
			 * so the decoder infers it; HTM: a jump's HIST bit cannot be
			 * told from a branch's, so it must be told */
			if (mode == NT_TOOL_BTM)
				assert_true(errors == 0 && strcmp(back, plain) == 0);
			else
				assert_true(errors > 0 || strcmp(back, plain) != 0);
			free(back);
			if (mode == NT_TOOL_BTM) {
				parse_msgs(&with, &cfg);
				size_t direct = 0;
				for (size_t i = 0; i < ms.n; i++)
					direct += tcode(i) == NTRACE_TCODE_DIRECT_BRANCH;
				assert_true(direct >= 3000);    /* one per j at 0x8000003a */
			}
			nt_buf_free(&with);
			nt_buf_free(&without);
		}
	free(plain);
}

/* ---- decode --wrapped ------------------------------------------------------------ */

/* A circular buffer that wrapped holds the newest bytes, from the middle
 * of a message: every such suffix decodes without error into a suffix of
 * the trace, from the first sync message after the first message end. */
static void wrapped_buffers_decode_from_the_first_sync(void **state)
{
	(void)state;
	char *plain = long_loop_trace();
	size_t plain_len = strlen(plain);
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	cfg.sync_period = 16;
	struct nt_buf nex;
	encode_text(plain, &cfg, &nex);
	assert_true(nex.len > 2000);
	struct nt_tool_config wrapped = cfg;
	wrapped.wrapped = true;
	unsigned unwrapped_errors = 0, decoded = 0;
	for (size_t cut = 1; cut < nex.len; cut += 1 + cut / 97) {
		const uint8_t *tail = nex.data + cut;
		size_t len = nex.len - cut;
		long errors;
		char *diag;
		char *back = decode_text(tail, len, &wrapped, &errors, &diag);
		if (errors)
			fail_msg("cut %zu: %ld errors: %s", cut, errors, diag);
		size_t n = strlen(back);
		assert_true(n <= plain_len);
		assert_string_equal(back, plain + plain_len - n);
		/* the first message boundary, then the first sync message */
		size_t b = 0;
		while (b < len && (tail[b] & 3) != 3)
			b++;
		char expect[160];
		if (n) {
			struct ntrace_format fmt;
			struct ntrace_msg m;
			struct ntrace_error perr;
			size_t pos = b + 1;
			nt_tool_format(&cfg, &fmt);
			for (;;) {
				assert_int_equal(ntrace_msg_parse(&fmt, tail, len, &pos, &m, &perr), 1);
				unsigned t = (unsigned)m.val[NTRACE_FLD_TCODE];
				if (t == NTRACE_TCODE_PROG_TRACE_SYNC || t == NTRACE_TCODE_DIRECT_BRANCH_SYNC ||
				    t == NTRACE_TCODE_INDIRECT_BRANCH_SYNC ||
				    t == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC)
					break;
			}
			snprintf(expect, sizeof(expect), "t.nex: wrapped buffer: decoding starts at the "
				 "first synchronisation message, byte offset %zu; the %zu bytes before "
				 "it were skipped\n", m.offset, m.offset);
			assert_string_equal(diag, expect);
			decoded++;
		} else {
			assert_non_null(strstr(diag, "no synchronisation message"));
		}
		free(diag);
		free(back);
		/* without --wrapped the partial message is an error */
		if ((tail[0] & 3) != 0 || cut % 5 == 0) {
			back = decode_text(tail, len, &cfg, &errors, NULL);
			unwrapped_errors += errors > 0;
			free(back);
		}
	}
	assert_true(decoded > 50);
	assert_true(unwrapped_errors > 10);
	nt_buf_free(&nex);
	free(plain);
}

/* Malformed bytes before the first sync are still errors, at their offset. */
static void wrapped_buffer_reports_malformed_bytes(void **state)
{
	(void)state;
	char *plain = long_loop_trace();
	struct nt_tool_config cfg = config(NT_TOOL_BTM);
	cfg.sync_period = 16;
	struct nt_buf nex;
	encode_text(plain, &cfg, &nex);
	size_t b = 0;
	while ((nex.data[b] & 3) != 3)
		b++;
	nex.data[b + 2] = (uint8_t)((nex.data[b + 2] & ~3u) | 2);      /* MSEO = 10 */
	cfg.wrapped = true;
	long errors;
	char *diag;
	char *back = decode_text(nex.data, nex.len, &cfg, &errors, &diag);
	assert_int_equal(errors, 1);
	char where[64];
	snprintf(where, sizeof(where), "t.nex: byte offset %zu: ", b + 2);
	assert_non_null(strstr(diag, where));
	free(back);
	free(diag);
	nt_buf_free(&nex);
	free(plain);
}

/* ---- decode --symbols ----------------------------------------------------------- */

static void listing_names_each_pc(void **state)
{
	(void)state;
	char *plain = slurp_text(TINY_PCS);
	struct nt_tool_config cfg = config(NT_TOOL_HTM);
	struct nt_buf nex;
	encode_text(plain, &cfg, &nex);
	struct nt_image_set set;
	struct nt_symtab syms;
	struct nt_err err;
	char *out = NULL;
	size_t out_len = 0;
	load_tiny(&set);
	nt_symtab_init(&syms);
	if (nt_symtab_add_elf(&syms, TINY_ELF, &err))
		fail_msg("%s", err.msg);
	FILE *f = open_memstream(&out, &out_len);
	assert_int_equal(nt_decode_to_listing(&cfg, &set, &syms, nex.data, nex.len, f, NULL,
					      "t.nex", NULL, &err), 0);
	fclose(f);
	assert_true(strncmp(out, "80000000  _start+0x0\n80000004  _start+0x4\n", 42) == 0);
	assert_non_null(strstr(out, "\n8000000e  loop+0x0\n80000010  loop+0x2\n"));
	assert_non_null(strstr(out, "\n80000032 exc  skip+0x0\n80000040  handler+0x0\n"));
	/* one listing line per .pcs line, the same pcs and marks */
	size_t lines = 0;
	for (const char *p = out, *q = plain; *p; lines++) {
		size_t pcs_len = strcspn(q, "\n");
		assert_memory_equal(p, q, pcs_len);
		assert_int_equal(p[pcs_len], ' ');
		p = strchr(p, '\n') + 1;
		q += pcs_len + 1;
	}
	assert_int_equal(lines, 30);
	free(out);
	nt_symtab_free(&syms);
	nt_images_free(&set);
	nt_buf_free(&nex);
	free(plain);
}

/* The sidecar: every key, blanks, comments and CR; the defaults of the
 * optional ones; what it refuses, with its line. */
static void sidecar_parse_reads_the_registers_and_the_save(void **state)
{
	(void)state;
	struct nt_sidecar sc;
	struct nt_err err = { "" };
	const char *all = "# saved by hand\r\n  control = 0x100026b\nfeatures=536936640\n\n"
			  "tscontrol=0x38000000\ningress=0x1\nwrapped=1\nhart=3\n"
			  "timebase-hz=10000000   \n";

	assert_int_equal(nt_sidecar_parse(all, strlen(all), "s.tci", &sc, &err), 0);
	assert_int_equal(sc.control, 0x100026b);
	assert_int_equal(sc.features, 0x200100c0);
	assert_int_equal(sc.tscontrol, 0x38000000);
	assert_int_equal(sc.ingress, 1);
	assert_true(sc.wrapped);
	assert_int_equal(sc.hart, 3);
	assert_int_equal(sc.timebase_hz, 10000000);
	const char *least = "control=0x100006b\nfeatures=0";

	assert_int_equal(nt_sidecar_parse(least, strlen(least), "s.tci", &sc, &err), 0);
	assert_int_equal(sc.tscontrol, 0);
	assert_int_equal(sc.ingress, 0);
	assert_false(sc.wrapped);
	assert_int_equal(sc.hart, -1);
	assert_int_equal(sc.timebase_hz, 0);
	static const struct { const char *text, *msg; } bad[] = {
		{ "", "s.tci: needs control= and features=" },
		{ "features=0\n", "s.tci: needs control= and features=" },
		{ "control=0x1\ncontrol=0x1\n", "s.tci:2: 'control' given twice" },
		{ "control=01\n", "s.tci:1: control needs a number" },
		{ "control=\n", "s.tci:1: control needs a number" },
		{ "control=0x1 0x2\n", "s.tci:1: control needs a number" },
		{ "hart=1048577\n", "s.tci:1: hart needs a number" },
		{ "=1\n", "s.tci:1: unknown key ''" },
		{ "control=1\nfeatures=1\nsrc=1\n", "s.tci:3: unknown key 'src'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (nt_sidecar_parse(bad[i].text, strlen(bad[i].text), "s.tci", &sc, &err) != -1 ||
		    !strstr(err.msg, bad[i].msg))
			fail_msg("'%s': '%s'", bad[i].text, err.msg);
	static const char nul[] = "control=1\nfea\0tures=1\n";

	assert_int_equal(nt_sidecar_parse(nul, sizeof(nul) - 1, "s.tci", &sc, &err), -1);
	assert_non_null(strstr(err.msg, "s.tci:2: a NUL byte"));
	/* a line longer than any a sidecar has */
	char longline[400];

	memset(longline, 'x', sizeof(longline));
	assert_int_equal(nt_sidecar_parse(longline, sizeof(longline), "s.tci", &sc, &err), -1);
	assert_non_null(strstr(err.msg, "s.tci:1: line longer than 255"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tci_values_of_an_htm_run_set_its_codec_options),
		cmocka_unit_test(tci_values_set_every_other_field),
		cmocka_unit_test(tci_timestamps_need_active_enable_and_mode_2),
		cmocka_unit_test(tci_values_the_tool_cannot_follow_are_errors),
		cmocka_unit_test(privilege_s_everywhere_gives_the_bytes_without_tokens),
		cmocka_unit_test(m_lines_end_the_trace_and_the_return_restarts_it),
		cmocka_unit_test(m_lines_need_no_image),
		cmocka_unit_test(trace_priv_keeps_only_the_chosen_privileges),
		cmocka_unit_test(trace_range_keeps_only_the_range),
		cmocka_unit_test(qualification_options_program_filter_0_and_comparator_0),
		cmocka_unit_test(qualification_needs_privilege_tokens),
		cmocka_unit_test(ingress_cut_makes_the_firmware_calls),
		cmocka_unit_test(feeding_records_chunks_or_blocks_gives_the_same_bytes),
		cmocka_unit_test(all_jumps_reports_direct_jumps_as_taken_branches),
		cmocka_unit_test(wrapped_buffers_decode_from_the_first_sync),
		cmocka_unit_test(wrapped_buffer_reports_malformed_bytes),
		cmocka_unit_test(listing_names_each_pc),
		cmocka_unit_test(sidecar_parse_reads_the_registers_and_the_save),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

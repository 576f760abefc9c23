// SPDX-License-Identifier: BSD-2-Clause
/*
 * Command-line contract of build/tools/ntrace: exit status 0 / 1 / 2, help
 * texts, error messages with file:line or byte offsets, and a round trip
 * through the files the corpus scripts use.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define CLI_TOOL NT_TEST_TOOL
#define CLI_TMP_TEMPLATE "/tmp/nt-cli-XXXXXX"
#include "test_tool_cli.h"

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define TINY_PCS NT_TEST_DATA "/tiny.pcs"

static void write_text(const char *name, const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void help_exits_0_and_usage_errors_exit_2(void **state)
{
	(void)state;
	struct cli_result *r = run("--help");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "encode"));
	static const char *const cmds[] = { "encode", "decode", "dump", "stats" };
	for (int i = 0; i < 4; i++) {
		r = run("%s --help", cmds[i]);
		assert_int_equal(r->status, 0);
		assert_non_null(strstr(r->out, "usage: ntrace "));
		assert_non_null(strstr(r->out, cmds[i]));
	}
	r = run("encode --help");
	assert_non_null(strstr(r->out, "--implicit-return-mode"));
	assert_non_null(strstr(r->out, "--pcseq"));
	assert_int_equal(run("")->status, 2);
	assert_int_equal(run("frobnicate")->status, 2);
	assert_int_equal(run("encode --elf %s --pcs %s", TINY_ELF, TINY_PCS)->status, 2);
	assert_int_equal(run("encode --elf %s --pcs %s --out x --mode xtm", TINY_ELF, TINY_PCS)->status, 2);
	assert_int_equal(run("encode --elf %s --pcs %s --out x --callstack 33", TINY_ELF, TINY_PCS)->status, 2);
	r = run("encode --elf %s --pcs %s --out x --src 3", TINY_ELF, TINY_PCS);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "--src-bits"));
	r = run("dump a.nex --pcs %s", TINY_PCS);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "'--pcs' does not apply"));
	assert_int_equal(run("decode --elf %s", TINY_ELF)->status, 2);
	assert_int_equal(run("decode --elf %s a.nex b.nex", TINY_ELF)->status, 2);
}

static void encode_decode_round_trip_through_files(void **state)
{
	(void)state;
	struct cli_result *r = run("encode --elf %s --pcs %s --out %s/t.nex --all-opt --timestamp",
			       TINY_ELF, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
	r = run("decode --elf %s %s/t.nex --out %s/t.pcs --all-opt --timestamp",
		TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/t.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
	/* without --out the trace goes to stdout */
	r = run("decode --elf %s %s/t.nex --all-opt --timestamp", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_true(strncmp(r->out, "80000000\n80000004\n", 18) == 0);
	assert_non_null(strstr(r->out, "80000032 exc\n"));
}

static void raw_image_round_trip(void **state)
{
	(void)state;
	const char *raw = NT_TEST_BUILD "/tiny.bin@0x80000000";
	struct cli_result *r = run("encode --raw %s --pcs %s --out %s/r.nex --mode btm", raw, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("decode --raw %s %s/r.nex --out %s/r.pcs --mode btm", raw, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/r.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
	/* the same code twice: overlapping images are refused */
	r = run("encode --raw %s --elf %s --pcs %s --out %s/r.nex", raw, TINY_ELF, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "overlap"));
	/* an image holding only the first 16 bytes: line 6 (pc 80000010) is outside */
	snprintf(cmd, sizeof(cmd), "head -c 16 %s/tiny.bin >%s/short.bin", NT_TEST_BUILD, tmpdir);
	assert_int_equal(system(cmd), 0);
	r = run("encode --raw %s/short.bin@0x80000000 --pcs %s --out %s/r.nex", tmpdir, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "tiny.pcs:6: pc 80000010 is outside every program image"));
	r = run("encode --raw %s/nothere.bin@0x80000000 --pcs %s --out %s/r.nex", tmpdir, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "nothere.bin: cannot open"));
}

/* tiny.pcseq is tiny.pcs in the reference code's format: encoded without
 * images, decoded with the ELF, it gives tiny.pcs back. */
static void pcseq_input_round_trip(void **state)
{
	(void)state;
	struct cli_result *r = run("encode --pcseq %s/tiny.pcseq --out %s/q.nex --all-opt",
			       NT_TEST_DATA, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("decode --elf %s %s/q.nex --out %s/q.pcs --all-opt", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/q.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
	write_text("bad.seq", "0x80000000,L4\n0x80000004,Z4\n");
	r = run("encode --pcseq %s/bad.seq --out %s/q.nex", tmpdir, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "bad.seq:2:12: expected an instruction class"));
	assert_int_equal(run("encode --pcseq a --pcs b --out c")->status, 2);
}

static void bad_trace_line_is_named(void **state)
{
	(void)state;
	write_text("bad.pcs", "80000000\n80000004\n8000zz08\n");
	struct cli_result *r = run("encode --elf %s --pcs %s/bad.pcs --out %s/x.nex", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "bad.pcs:3:5: expected end of line"));
	write_text("jump.pcs", "80000000\n80000004\n80000010\n");
	r = run("encode --elf %s --pcs %s/jump.pcs --out %s/x.nex", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "jump.pcs:2: pc 80000004"));
}

static void bad_elf_is_reported(void **state)
{
	(void)state;
	write_text("junk.elf", "\177ELF this is not really an ELF file at all........");
	struct cli_result *r = run("encode --elf %s/junk.elf --pcs %s --out %s/x.nex", tmpdir, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "junk.elf: "));
	r = run("encode --elf %s/missing.elf --pcs %s --out %s/x.nex", tmpdir, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "missing.elf: cannot open"));
}

static void decode_errors_exit_1_with_offset(void **state)
{
	(void)state;
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/c.nex --mode btm", TINY_ELF, TINY_PCS, tmpdir)->status, 0);
	/* byte 9 (inside the second message) gets the reserved MSEO=10 */
	char path[128];
	snprintf(path, sizeof(path), "%s/c.nex", tmpdir);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 9, SEEK_SET);
	int b = fgetc(f);
	fseek(f, 9, SEEK_SET);
	fputc((b & ~3) | 2, f);
	fclose(f);
	struct cli_result *r = run("decode --elf %s %s/c.nex --out %s/c.pcs --mode btm", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "c.nex: byte offset 9: "));
	r = run("dump %s/c.nex", tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->out, "# malformed bytes at offset"));
	assert_non_null(strstr(r->out, "00000009  0x"));
}

static void dump_and_stats_describe_the_stream(void **state)
{
	(void)state;
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/s.nex", TINY_ELF, TINY_PCS, tmpdir)->status, 0);
	struct cli_result *r = run("dump %s/s.nex", tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "00000000  0x24  001001  00    TCODE[6] = 9 - ProgTraceSync"));
	assert_non_null(strstr(r->out, "ProgTraceCorrelation"));
	r = run("stats %s/s.nex --elf %s", tmpdir, TINY_ELF);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "instructions: 30\n"));
	assert_non_null(strstr(r->out, "ProgTraceSync"));
	assert_non_null(strstr(r->out, "bits per instruction: "));
	r = run("stats %s/s.nex", tmpdir);
	assert_int_equal(r->status, 0);
	assert_null(strstr(r->out, "instructions:"));
}

static void new_options_are_described_in_help(void **state)
{
	(void)state;
	struct cli_result *r = run("encode --help");
	assert_int_equal(r->status, 0);
	static const char *const enc[] = { "--trace-priv U|S|US", "--trace-range A-B", "--tci CONTROL,FEATURES[,TSCONTROL]",
					   "--all-jumps", "[ PRIV]", "U, S, M, VU or VS" };
	for (int i = 0; i < 6; i++)
		assert_non_null(strstr(r->out, enc[i]));
	r = run("decode --help");
	assert_non_null(strstr(r->out, "--wrapped"));
	assert_non_null(strstr(r->out, "--symbols"));
	assert_non_null(strstr(r->out, "--tci"));
	r = run("dump --help");
	assert_non_null(strstr(r->out, "--tci"));
	static const char *const buffers[] = { "decode", "profile", "timeline", "dump", "stats" };
	for (int i = 0; i < 5; i++) {
		r = run("%s --help", buffers[i]);
		assert_non_null(strstr(r->out, "FILE.nex.tci"));
		assert_non_null(strstr(r->out, "--max-errors N"));
	}
	r = run("encode --help");
	assert_null(strstr(r->out, "--max-errors"));
}

static void tci_errors_exit_2_with_the_reason(void **state)
{
	(void)state;
	static const struct { const char *args, *msg; } cases[] = {
		{ "--tci 0x100006b", "--tci needs CONTROL,FEATURES[,TSCONTROL]" },
		{ "--tci 0x100006b,0x5cc,0,1", "--tci needs CONTROL,FEATURES" },
		{ "--tci 0x100006b,,0", "--tci needs CONTROL,FEATURES" },
		{ "--tci zz,0", "not 'zz,0'" },
		{ "--tci 0x100006b,0x100000000", "32-bit values" },
		{ "--tci 0100006,0", "hex with 0x or decimal" },
		{ "--tci 0x1000001,0", "trTeInstMode (bits 6:4) is 0, not 3 (BTM) or 6 (HTM)" },
		{ "--tci 0x6b,0x5cc", "trTeFormat (bits 26:24) is 0" },
		{ "--tci 0x100006b,0x10", "EnBranchPrediction" },
		{ "--tci 0x100006b,0x8", "ImplicitReturnMode (bits 7:6) 0, which is reserved" },
		{ "--mode btm --tci 0x100006b,0x5cc", "--mode before --tci" },
		{ "--timestamp --tci 0x100006b,0x5cc", "--timestamp before --tci" },
		{ "--tci 0x100006b,0x5cc --tci 0x100006b,0x5cc", "give --tci once" },
		{ "--tci 0x100006b,0x5cc --all-opt", "--all-opt and --tci cannot be combined" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_result *r = run("encode --elf %s --pcs %s --out %s/t.nex %s", TINY_ELF, TINY_PCS,
				       tmpdir, cases[i].args);
		if (r->status != 2 || !strstr(r->err, cases[i].msg))
			fail_msg("'%s': status %d, stderr '%s'", cases[i].args, r->status, r->err);
	}
	/* --xlen may come before --tci: the registers do not say XLEN */
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/t.nex --xlen 64 --tci 0x100006b,0x5cc",
			     TINY_ELF, TINY_PCS, tmpdir)->status, 0);
}

/* The registers give encoder and decoder the same options; later options
 * change single fields; dump takes the SRC width from them. */
static void tci_round_trip_through_files(void **state)
{
	(void)state;
	/* BTM, sync mode 3 max 0, 3-bit SRC with ID 5, all jumps, implicit return */
	const char *tci = "0x1030039,0x300502c8";
	struct cli_result *r = run("encode --elf %s --pcs %s --out %s/t.nex --tci %s", TINY_ELF, TINY_PCS,
			       tmpdir, tci);
	assert_int_equal(r->status, 0);
	r = run("decode --elf %s %s/t.nex --out %s/t.pcs --tci %s", TINY_ELF, tmpdir, tmpdir, tci);
	assert_int_equal(r->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/t.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
	/* the same with explicit options gives the same bytes */
	r = run("encode --elf %s --pcs %s --out %s/u.nex --mode btm --src 5 --src-bits 3 --all-jumps "
		"--implicit-return-mode 3 --callstack 32", TINY_ELF, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("dump %s/t.nex --tci %s", tmpdir, tci);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "SRC field 3 bits"));
	assert_non_null(strstr(r->out, "SRC[3] = 0x5"));
	/* decoding as another source keeps nothing: no sync message of SRC 4,
	 * and a hint naming the sources there are; --src 5 everything */
	r = run("decode --elf %s %s/t.nex --tci %s --src 4", TINY_ELF, tmpdir, tci);
	assert_int_equal(r->status, 1);
	assert_string_equal(r->out, "");
	assert_non_null(strstr(r->err, "no sync message of SRC 4 in the stream"));
	assert_non_null(strstr(r->err, "hint: no message has SRC 4: the stream's carry SRC 5"));
	r = run("decode --elf %s %s/t.nex --tci %s --src 5 --out %s/t.pcs", TINY_ELF, tmpdir, tci, tmpdir);
	assert_int_equal(r->status, 0);
	assert_int_equal(system(cmd), 0);
	/* an option after --tci changes what it names: without the SRC field
	 * the stream no longer decodes (all jumps the decoder infers in BTM) */
	r = run("decode --elf %s %s/t.nex --tci 0x1030039,0x000502c8", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	r = run("decode --elf %s %s/t.nex --tci 0x1030039,0x000502c8 --src-bits 3 --out %s/t.pcs",
		TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_int_equal(system(cmd), 0);
}

static void qualification_options_through_files(void **state)
{
	(void)state;
	write_text("w.pcs",
		   "80000000 U\n80000004 U\n80000008 U\n8000000c U\n8000000e U\n80000010 U\n"
		   "8000000e U\n80000010 U\n8000000e U\n80000010 U\n80000012 U\n8000003c S\n"
		   "8000003e S\n80000016 U\n8000001a U\n8000003c S\n8000003e S\n8000001e U\n"
		   "80000022 U\n80000026 U\n8000002a U\n80000032 exc U\n80000040 M\n80000044 M\n"
		   "80000046 M\n8000004a M\n80000036 U\n8000003a U\n");
	struct cli_result *r = run("encode --elf %s --pcs %s/w.pcs --out %s/w.nex --trace-priv S", TINY_ELF,
			       tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("decode --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->out, "8000003c\n8000003e\n8000003c\n8000003e\n");
	r = run("encode --elf %s --pcs %s/w.pcs --out %s/w.nex --trace-priv u --trace-range 0x80000010-80000014",
		TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("decode --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->out, "80000010\n80000010\n80000010\n80000012\n");
	/* every line but the M ones when nothing is filtered */
	r = run("encode --elf %s --pcs %s/w.pcs --out %s/w.nex", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	r = run("decode --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_non_null(strstr(r->out, "\n80000032 exc\n80000036\n8000003a\n"));
	static const struct { const char *args, *msg; } bad[] = {
		{ "--trace-priv M", "--trace-priv must be U, S or US, not 'M'" },
		{ "--trace-priv UU", "not 'UU'" },
		{ "--trace-range 80000010", "--trace-range needs A-B" },
		{ "--trace-range 80000014-80000010", "with A < B" },
		{ "--trace-range 0x-1", "--trace-range needs A-B" },
		{ "--trace-range 1-10000000000000000", "--trace-range needs A-B" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = run("encode --elf %s --pcs %s/w.pcs --out %s/w.nex %s", TINY_ELF, tmpdir, tmpdir,
			bad[i].args);
		if (r->status != 2 || !strstr(r->err, bad[i].msg))
			fail_msg("'%s': status %d, stderr '%s'", bad[i].args, r->status, r->err);
	}
	/* a file without privileges: an input error naming it */
	r = run("encode --elf %s --pcs %s --out %s/w.nex --trace-range 80000000-80000010", TINY_ELF,
		TINY_PCS, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "tiny.pcs: --trace-priv and --trace-range need a privilege token"));
	/* a line without a token among lines with one */
	write_text("mixed.pcs", "80000000 S\n80000004\n");
	r = run("encode --elf %s --pcs %s/mixed.pcs --out %s/w.nex", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "mixed.pcs:2: no privilege token"));
	/* decode-only options */
	r = run("encode --elf %s --pcs %s --out %s/w.nex --wrapped", TINY_ELF, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "'--wrapped' does not apply"));
	r = run("decode --elf %s %s/w.nex --trace-priv S", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 2);
}

static void symbols_listing_and_wrapped_decode(void **state)
{
	(void)state;
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/s.nex --mode btm --sync-period 16",
			     TINY_ELF, TINY_PCS, tmpdir)->status, 0);
	struct cli_result *r = run("decode --elf %s %s/s.nex --mode btm --sync-period 16 --symbols",
			       TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_true(strncmp(r->out, "80000000  _start+0x0\n80000004  _start+0x4\n", 42) == 0);
	assert_non_null(strstr(r->out, "\n8000003e  leaf+0x2\n"));
	assert_non_null(strstr(r->out, "\n80000032 exc  skip+0x0\n"));
	r = run("decode --raw %s/tiny.bin@0x80000000 %s/s.nex --mode btm --symbols", NT_TEST_BUILD, tmpdir);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "--symbols needs --elf files"));
	/* tiny's bnez loop taken 300 times: 300 DirectBranch, a sync every 16;
	 * the first 3 bytes lost cut the first ProgTraceSync */
	static char loop[8192];
	size_t n = (size_t)sprintf(loop, "80000000\n80000004\n80000008\n8000000c\n");
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(loop + n, "8000000e\n80000010\n");
	sprintf(loop + n, "8000000e\n80000010\n80000012\n");
	write_text("loop.pcs", loop);
	assert_int_equal(run("encode --elf %s --pcs %s/loop.pcs --out %s/s.nex --mode btm --sync-period 16",
			     TINY_ELF, tmpdir, tmpdir)->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "tail -c +4 %s/s.nex >%s/w.nex", tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	r = run("decode --elf %s %s/w.nex --mode btm --wrapped", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->err, "w.nex: wrapped buffer: decoding starts at the first "
				       "synchronisation message, byte offset "));
	assert_null(strstr(r->err, "error"));
	/* a suffix of the loop: its last lines, from a branch target on */
	assert_true(strlen(r->out) > 100);
	assert_string_equal(r->out, loop + strlen(loop) - strlen(r->out));
	r = run("decode --elf %s %s/w.nex --mode btm", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "w.nex: byte offset 0: "));
}

/* kern.S (linked like vmlinux) loaded at 0x80200000: one --elf FILE@ADDR
 * decodes and lists it at its load and virtual addresses; with a plain
 * --elf the load image is missing, which a hint says. */
static void elf_at_its_load_address_through_files(void **state)
{
	(void)state;
	const char *kern = NT_TEST_BUILD "/kern.elf";
	struct cli_result *r = run("encode --elf %s@0x80200000 --pcs %s/kern.pcs --out %s/k.nex",
				   kern, NT_TEST_DATA, tmpdir);

	assert_int_equal(r->status, 0);
	r = run("decode --elf %s@0x80200000 %s/k.nex --symbols", kern, tmpdir);
	assert_int_equal(r->status, 0);
	assert_true(strncmp(r->out, "80200000  _start+0x0\n", 21) == 0);
	assert_non_null(strstr(r->out, "\n80201000  helper+0x0\n"));
	assert_non_null(strstr(r->out, "\nffffffff80001000  helper+0x0\n"));
	r = run("decode --elf %s@0x80200000 %s/k.nex --listing", kern, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "  80200006  _start+0x6                    jalr    -2(ra) # 80201000 <helper>\n"));
	assert_non_null(strstr(r->out, "ffffffff80001044  virt_entry+0x4                jalr    -64(ra) # ffffffff80001000 <helper>\n"));
	r = run("profile --elf %s@0x80200000 %s/k.nex --folded", kern, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "helper"));
	r = run("decode --elf %s %s/k.nex", kern, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "k.nex: hint: "));
	assert_non_null(strstr(r->err, "kern.elf has a load image (p_paddr 0x0 for p_vaddr "
				       "0xffffffff80000000) that is not in the images"));
	assert_non_null(strstr(r->err, "kern.elf@LOADADDR"));
}

static void write_bytes(const char *name, const uint8_t *bytes, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

static size_t occurrences(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static size_t lines_of(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* BTM, sync mode 3 max 0, a 3-bit SRC with ID 5, all jumps, implicit return:
 * a stream no option-less decode can read (tci_round_trip_through_files). */
#define SIDECAR_TCI "0x1030039,0x300502c8"
#define SIDECAR "# the encoder's registers\ncontrol=0x1030039\nfeatures = 0x300502c8\r\n\ntscontrol=0\n"

/* BUFFER.tci next to the buffer: decode, profile, timeline, dump and stats
 * take its registers as a first --tci; explicit --tci wins; options after
 * apply on top; a bad sidecar is an error naming its line. */
static void sidecar_next_to_the_buffer_gives_the_settings(void **state)
{
	(void)state;
	char cmd[512];
	struct cli_result *r = run("encode --elf %s --pcs %s --out %s/b.nex --tci " SIDECAR_TCI,
				   TINY_ELF, TINY_PCS, tmpdir);
	assert_int_equal(r->status, 0);
	/* without it the stream does not decode */
	r = run("decode --elf %s %s/b.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "hint: "));
	write_text("b.nex.tci", SIDECAR);
	r = run("decode --elf %s %s/b.nex --out %s/b.pcs", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/b.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
	r = run("decode --listing --elf %s %s/b.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "-- exception -> 80000040 handler+0x0"));
	r = run("profile --elf %s %s/b.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "instructions: 30 "));
	r = run("timeline --elf %s %s/b.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "end: 30 instructions, 1 exceptions"));
	r = run("dump %s/b.nex", tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "SRC field 3 bits, XLEN"));   /* not guessed */
	r = run("stats %s/b.nex --elf %s", tmpdir, TINY_ELF);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "src field bits: 3\n"));
	/* explicit --tci wins: without the SRC field nothing decodes */
	r = run("decode --elf %s %s/b.nex --tci 0x1030039,0x000502c8", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	/* an option applies after the sidecar's registers */
	r = run("decode --elf %s %s/b.nex --src 4", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "no message has SRC 4: the stream's carry SRC 5"));
	r = run("decode --elf %s %s/b.nex --src 5 --out %s/b.pcs", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_int_equal(system(cmd), 0);
	/* malformed sidecars: exit 1, file and line */
	static const struct { const char *text, *msg; } bad[] = {
		{ "control=0x1030039\n", "b.nex.tci: needs control= and features=" },
		{ "control=0x1030039\nfeatures=0x300502c8\nfeatures=0\n", "b.nex.tci:3: 'features' given twice" },
		{ "control=0x1030039\nfeaturs=0x300502c8\n", "b.nex.tci:2: unknown key 'featurs'" },
		{ "control=0x1030039\nfeatures=0x1300502c8\n", "b.nex.tci:2: features needs a number" },
		{ "control=0x1030039\nfeatures=-1\n", "b.nex.tci:2: features needs a number" },
		{ "control 0x1030039\n", "b.nex.tci:1: not 'key=value'" },
		{ "control=0x6b\nfeatures=0\n", "b.nex.tci: trTeControl 0x6b: trTeFormat (bits 26:24) is 0" },
		{ "control=0x1030039\nfeatures=0x300502c8\nwrapped=2\n", "b.nex.tci:3: wrapped needs a number" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_text("b.nex.tci", bad[i].text);
		r = run("decode --elf %s %s/b.nex", TINY_ELF, tmpdir);
		if (r->status != 1 || !strstr(r->err, bad[i].msg) || lines_of(r->err) != 1)
			fail_msg("sidecar '%s': status %d, stderr '%s'", bad[i].text, r->status, r->err);
	}
	/* a tandem-verification buffer: not N-Trace, read it with tvtrace */
	write_text("b.nex.tci", "control=0x1030039\nfeatures=0x300502c8\ningress=0x4\n");
	r = run("profile --elf %s %s/b.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "b.nex holds tandem-verification records, not N-Trace"));
	assert_non_null(strstr(r->err, "tvtrace check --elf"));
	/* --tci given: the sidecar is not even read */
	r = run("decode --elf %s %s/b.nex --tci " SIDECAR_TCI " --out %s/b.pcs", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	snprintf(cmd, sizeof(cmd), "rm %s/b.nex.tci", tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* The sidecar's next-addr (where the firmware started S-mode, trace-save.py
 * from the trace directory) places the load image of an --elf FILE given
 * without @ADDR whose load image is not at its virtual addresses: kern.elf
 * (linked like vmlinux) decodes with a plain --elf; an explicit @ADDR wins;
 * an ELF whose load and virtual addresses agree is left alone. */
static void sidecar_next_addr_places_the_load_image(void **state)
{
	(void)state;
	const char *kern = NT_TEST_BUILD "/kern.elf";
	char cmd[512];
	struct cli_result *r = run("encode --elf %s@0x80200000 --pcs %s/kern.pcs --out %s/k2.nex "
				   "--tci " SIDECAR_TCI, kern, NT_TEST_DATA, tmpdir);

	assert_int_equal(r->status, 0);
	write_text("k2.nex.tci", SIDECAR "next-addr=0x80200000\n");
	r = run("decode --elf %s %s/k2.nex --out %s/k2.pcs", kern, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
	snprintf(cmd, sizeof(cmd), "grep -v '^#' %s/kern.pcs | cmp -s - %s/k2.pcs", NT_TEST_DATA,
		 tmpdir);
	assert_int_equal(system(cmd), 0);
	r = run("decode --symbols --elf %s %s/k2.nex", kern, tmpdir);
	assert_int_equal(r->status, 0);
	assert_true(strncmp(r->out, "80200000  _start+0x0\n", 21) == 0);
	assert_non_null(strstr(r->out, "\n80201000  helper+0x0\n"));
	assert_non_null(strstr(r->out, "\nffffffff80001000  helper+0x0\n"));
	/* elsewhere: the load image is not where the trace ran */
	write_text("k2.nex.tci", SIDECAR "next-addr=0x80400000\n");
	r = run("decode --elf %s %s/k2.nex", kern, tmpdir);
	assert_int_equal(r->status, 1);
	r = run("decode --elf %s@0x80200000 %s/k2.nex", kern, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
	write_text("k2.nex.tci", SIDECAR "next-addr=0x8020000x\n");
	r = run("decode --elf %s %s/k2.nex", kern, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "k2.nex.tci:6: next-addr needs a number"));
	/* tiny.elf's load image is at its virtual addresses: not moved */
	r = run("encode --elf %s --pcs %s --out %s/t2.nex --tci " SIDECAR_TCI, TINY_ELF, TINY_PCS,
		tmpdir);
	assert_int_equal(r->status, 0);
	write_text("t2.nex.tci", SIDECAR "next-addr=0x90000000\n");
	r = run("decode --elf %s %s/t2.nex --out %s/t2.pcs", TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s/t2.pcs", TINY_PCS, tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* wrapped=1: decoded as --wrapped would. */
static void sidecar_says_the_buffer_wrapped(void **state)
{
	(void)state;
	static char loop[8192];
	size_t n = (size_t)sprintf(loop, "80000000\n80000004\n80000008\n8000000c\n");
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(loop + n, "8000000e\n80000010\n");
	sprintf(loop + n, "8000000e\n80000010\n80000012\n");
	write_text("loop.pcs", loop);
	/* BTM with a sync every 16 messages (trTeInstSyncMode 1, SyncMax 0) */
	assert_int_equal(run("encode --elf %s --pcs %s/loop.pcs --out %s/l.nex --tci 0x1010039,0",
			     TINY_ELF, tmpdir, tmpdir)->status, 0);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "tail -c +4 %s/l.nex >%s/w.nex", tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	write_text("w.nex.tci", "control=0x1010039\nfeatures=0\nwrapped=1\nhart=2\n");
	struct cli_result *r = run("decode --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->err, "w.nex: wrapped buffer: decoding starts at the first "
				       "synchronisation message"));
	assert_true(strlen(r->out) > 100);
	assert_string_equal(r->out, loop + strlen(loop) - strlen(r->out));
	/* the hart comes from the sidecar (the name has none) */
	r = run("timeline --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "hart 2   end: "));
	write_text("w.nex.tci", "control=0x1010039\nfeatures=0\nwrapped=0\n");
	r = run("decode --elf %s %s/w.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "w.nex: byte offset 0: "));
}

/* Two harts whose FEATURES differ in the SRC ID: the timeline reads each
 * buffer with its own sidecar; one hart's registers on the other's buffer
 * give one hint naming the mismatch. */
static void each_buffer_has_its_own_settings(void **state)
{
	(void)state;
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/x.hart0.nex --tci 0x1030039,0x300002c8",
			     TINY_ELF, TINY_PCS, tmpdir)->status, 0);
	assert_int_equal(run("encode --elf %s --pcs %s --out %s/x.hart1.nex --tci 0x1030039,0x300102c8",
			     TINY_ELF, TINY_PCS, tmpdir)->status, 0);
	write_text("x.hart0.nex.tci", "control=0x1030039\nfeatures=0x300002c8\n");
	write_text("x.hart1.nex.tci", "control=0x1030039\nfeatures=0x300102c8\n");
	struct cli_result *r = run("timeline --elf %s %s/x.hart0.nex %s/x.hart1.nex", TINY_ELF,
				   tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
	assert_non_null(strstr(r->out, "hart 0   end: 30 instructions"));
	assert_non_null(strstr(r->out, "hart 1   end: 30 instructions"));
	/* hart 0's registers for both: decoded, with one hint for hart 1 */
	r = run("timeline --elf %s --tci 0x1030039,0x300002c8 %s/x.hart0.nex %s/x.hart1.nex",
		TINY_ELF, tmpdir, tmpdir);
	assert_int_equal(r->status, 0);
	assert_int_equal(lines_of(r->err), 1);
	assert_non_null(strstr(r->err, "x.hart1.nex: hint: the messages carry SRC 1 but trTeSrcID in "
				       "the FEATURES given is 0: these are another hart's registers "
				       "(settings from --tci)"));
	r = run("decode --elf %s --tci 0x1030039,0x300002c8 %s/x.hart1.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->err, "another hart's registers"));
	/* registers of a run without SRC field: capped errors and the width */
	r = run("decode --elf %s --tci 0x1030039,0x000002c8 %s/x.hart1.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "hint: the stream parses with a SRC field of 3 bits"));
	assert_int_equal(occurrences(r->err, "hint:"), 1);
	/* the wrong mode */
	r = run("decode --elf %s --tci 0x100006b,0x300102c8 %s/x.hart1.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "DirectBranch messages, which only BTM sends, but the settings "
				       "say HTM"));
}

/* No sync message at all: exit 1 and one line saying so, for an empty
 * file, idle bytes, and messages that never sync (--help: an error). */
static void stream_without_sync_is_one_error_line(void **state)
{
	(void)state;
	uint8_t idle[256];

	memset(idle, 0xff, sizeof(idle));
	write_bytes("empty.nex", idle, 0);
	write_bytes("idle.nex", idle, sizeof(idle));
	static const struct { const char *file, *what; } cases[] = {
		{ "empty.nex", "empty.nex: byte offset 0: no sync message in the stream: nothing to "
			       "decode (no bytes)\n" },
		{ "idle.nex", "idle.nex: byte offset 256: no sync message in the stream: nothing to "
			      "decode (256 bytes, all idle)\n" },
	};
	for (size_t i = 0; i < 2; i++) {
		struct cli_result *r = run("decode --elf %s %s/%s", TINY_ELF, tmpdir, cases[i].file);
		assert_int_equal(r->status, 1);
		assert_string_equal(r->out, "");
		assert_non_null(strstr(r->err, cases[i].what));
		assert_int_equal(lines_of(r->err), 1);
		assert_int_equal(run("decode --listing --elf %s %s/%s", TINY_ELF, tmpdir,
				     cases[i].file)->status, 1);
		assert_int_equal(run("profile --elf %s %s/%s", TINY_ELF, tmpdir, cases[i].file)->status, 1);
		assert_int_equal(run("timeline --elf %s %s/%s", TINY_ELF, tmpdir, cases[i].file)->status, 1);
		assert_int_equal(run("stats --elf %s %s/%s", TINY_ELF, tmpdir, cases[i].file)->status, 1);
	}
}

/* 5000 random bytes: the first errors with their byte offsets, then how
 * many more; --max-errors N shows N, 0 all. */
static void repeated_errors_are_capped(void **state)
{
	(void)state;
	static uint8_t noise[5000];
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof(noise); i++) {
		x = x * 1103515245u + 12345u;
		noise[i] = (uint8_t)(x >> 16);
	}
	write_bytes("noise.nex", noise, sizeof(noise));
	struct cli_result *r = run("decode --elf %s %s/noise.nex", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	size_t shown = occurrences(r->err, ": byte offset ");
	assert_true(shown >= 10 && shown <= 11);        /* 10, and a no-sync line */
	assert_non_null(strstr(r->err, " more errors not shown (--max-errors N shows more, 0 all)\n"));
	assert_non_null(strstr(r->err, "is this an N-Trace stream?"));
	assert_true(lines_of(r->err) <= 14);
	r = run("decode --elf %s %s/noise.nex --max-errors 3", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_true(lines_of(r->err) <= 7);
	r = run("decode --elf %s %s/noise.nex --max-errors 0", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 1);
	assert_true(lines_of(r->err) > 50);     /* all (more than r->err holds) */
	assert_null(strstr(r->err, "not shown"));
	r = run("dump %s/noise.nex", tmpdir);
	assert_int_equal(r->status, 1);
	assert_true(lines_of(r->err) <= 11);
	assert_non_null(strstr(r->err, " more errors not shown"));
	r = run("decode --elf %s %s/noise.nex --max-errors x", TINY_ELF, tmpdir);
	assert_int_equal(r->status, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_exits_0_and_usage_errors_exit_2),
		cmocka_unit_test(encode_decode_round_trip_through_files),
		cmocka_unit_test(raw_image_round_trip),
		cmocka_unit_test(pcseq_input_round_trip),
		cmocka_unit_test(bad_trace_line_is_named),
		cmocka_unit_test(bad_elf_is_reported),
		cmocka_unit_test(decode_errors_exit_1_with_offset),
		cmocka_unit_test(dump_and_stats_describe_the_stream),
		cmocka_unit_test(new_options_are_described_in_help),
		cmocka_unit_test(tci_errors_exit_2_with_the_reason),
		cmocka_unit_test(tci_round_trip_through_files),
		cmocka_unit_test(qualification_options_through_files),
		cmocka_unit_test(symbols_listing_and_wrapped_decode),
		cmocka_unit_test(elf_at_its_load_address_through_files),
		cmocka_unit_test(sidecar_next_to_the_buffer_gives_the_settings),
		cmocka_unit_test(sidecar_next_addr_places_the_load_image),
		cmocka_unit_test(sidecar_says_the_buffer_wrapped),
		cmocka_unit_test(each_buffer_has_its_own_settings),
		cmocka_unit_test(stream_without_sync_is_one_error_line),
		cmocka_unit_test(repeated_errors_are_capped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

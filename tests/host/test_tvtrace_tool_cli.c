// SPDX-License-Identifier: BSD-2-Clause
/*
 * Command-line contract of build/tools/tvtrace (run on a sanitizer build):
 * exit status 0 / 1 / 2, help texts, the error with its byte offset for a
 * malformed file, the first inconsistency with its record and byte, the
 * summary of a consistent trace.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define CLI_TOOL TV_TEST_TOOL
#define CLI_TMP_TEMPLATE "/tmp/tv-cli-XXXXXX"
#include "test_tool_cli.h"
#include "test_tvtrace_tool.h"

static void write_bytes(const char *name, const uint8_t *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void write_program(const char *name, enum fault f, struct tb *b)
{
	tb_program(b, f);
	write_bytes(name, b->buf, b->len);
}

static void help_exits_0(void **state)
{
	struct cli_result *r;

	(void)state;
	r = run("--help");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "usage: tvtrace COMMAND"));
	r = run("dump --help");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "usage: tvtrace dump"));
	assert_non_null(strstr(r->out, "--xlen N"));
	r = run("check -h");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "usage: tvtrace check [--elf PROG.elf]"));
}

static void bad_command_lines_exit_2(void **state)
{
	static const char *const lines[] = {
		"", "frobnicate t.bin", "dump", "dump --bogus t.bin", "dump --xlen 48 t.bin",
		"dump --flen t.bin", "dump a.bin b.bin", "dump --elf x.elf t.bin", "check --elf",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct cli_result *r = run("%s", lines[i]);

		if (r->status != 2 || !strstr(r->err, "tvtrace: "))
			fail_msg("'%s': status %d, stderr %s", lines[i], r->status, r->err);
	}
}

static void dump_prints_the_records(void **state)
{
	struct tb b;
	struct cli_result *r;

	(void)state;
	write_program("prog.tv", FAULT_NONE, &b);
	r = run("dump prog.tv");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "       0  0x000000  begin-group #0\n"
				      "       1  0x000001    state pc = 0x80000000\n"));
	assert_non_null(strstr(r->out, "insn32 0x00010117\n"));
	assert_non_null(strstr(r->out, "full-reg scause = 0x8000000000000005\n"));
	assert_string_equal(r->err, "");
}

static void malformed_file_gives_the_byte_and_exit_1(void **state)
{
	static const uint8_t bad_opcode[] = { 0x01, 0x03, 0x11, 0x13, 0x00, 0x00, 0x00, 0x02, 0x00 };
	struct tb b;
	struct cli_result *r;

	(void)state;
	write_bytes("bad.tv", bad_opcode, sizeof(bad_opcode));
	r = run("dump bad.tv");
	assert_int_equal(r->status, 1);
	assert_string_equal(r->err, "tvtrace: bad.tv: byte 0x8 (8): record 4 (opcode 0x00 at byte 0x8): unknown opcode\n");
	assert_non_null(strstr(r->out, "       3  0x000007    end-group\n"));
	r = run("check bad.tv");
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "byte 0x8 (8): record 4"));

	tb_program(&b, FAULT_NONE);
	write_bytes("cut.tv", b.buf, b.len - 5);        /* inside the stval write */
	r = run("dump cut.tv");
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "record truncated"));
	r = run("check --elf " TV_TEST_ELF " cut.tv");
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "record truncated"));
}

/*
 * Padding after the last record is skipped only on request: `byte` (0x00,
 * a buffer saved whole; 0xFF, the RAM sink's idle bytes after a stop on
 * wrap) with `option`, which `other` (the other padding option) refuses;
 * `word` is how the tool names it.  A stray byte in it is an error.
 */
static void padding_is_skipped_on_request(uint8_t byte, const char *option, const char *other,
					  const char *word)
{
	struct tb b;
	struct cli_result *r;
	char expect[128];

	tb_program(&b, FAULT_NONE);
	memset(b.buf + b.len, byte, 100);
	write_bytes("padded.tv", b.buf, b.len + 100);
	r = run("check --elf " TV_TEST_ELF " padded.tv");
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "unknown opcode"));
	r = run("check %s --elf " TV_TEST_ELF " padded.tv", other);
	assert_int_equal(r->status, 1);
	r = run("check %s --elf " TV_TEST_ELF " padded.tv", option);
	assert_int_equal(r->status, 0);
	snprintf(expect, sizeof(expect), "padded.tv: 100 %s bytes of padding after the last record\n",
		 word);
	assert_non_null(strstr(r->out, expect));
	r = run("dump %s padded.tv", option);
	assert_int_equal(r->status, 0);
	snprintf(expect, sizeof(expect), "end-group\n# 100 %s bytes of padding\n", word);
	assert_non_null(strstr(r->out, expect));
	b.buf[b.len + 50] = 1;          /* not padding: a stray byte */
	write_bytes("padded.tv", b.buf, b.len + 100);
	r = run("dump %s padded.tv", option);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "unknown opcode"));
}

static void zero_padding_is_skipped_on_request(void **state)
{
	(void)state;
	padding_is_skipped_on_request(0x00, "--zero-padded", "--idle-padded", "zero");
}

static void idle_padding_is_skipped_on_request(void **state)
{
	(void)state;
	padding_is_skipped_on_request(0xFF, "--idle-padded", "--zero-padded", "idle");
}

static void check_consistent_trace_prints_a_summary(void **state)
{
	struct tb b;
	struct cli_result *r;

	(void)state;
	write_program("prog.tv", FAULT_NONE, &b);
	r = run("check --elf " TV_TEST_ELF " prog.tv");
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "prog.tv: consistent: "));
	assert_non_null(strstr(r->out, " 14 groups, 12 instructions (12 compared with the ELF), "
				       "2 traps (1 exceptions, 1 interrupts), 1 trap returns"));
}

static void check_reports_the_first_inconsistency(void **state)
{
	static const struct { enum fault f; const char *what; } cases[] = {
		{ FAULT_BRANCH_PC, "branch taken" },
		{ FAULT_STORE_DATA, "store data 0x8, but x6 holds 0x7" },
		{ FAULT_ELF_BITS, "but the ELF has 0x00300513" },
		{ FAULT_TRAP_VECTOR, "but stvec names 0x80000030" },
	};
	struct tb b;
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_program("bad.tv", cases[i].f, &b);
		struct cli_result *r = run("check --elf " TV_TEST_ELF " bad.tv");

		snprintf(want, sizeof(want), "tvtrace: bad.tv: record %zu at byte 0x%zx ", b.mark, b.mark_off);
		assert_int_equal(r->status, 1);
		if (strncmp(r->err, want, strlen(want)) || !strstr(r->err, cases[i].what))
			fail_msg("fault %d: %s", cases[i].f, r->err);
		assert_string_equal(r->out, "");
	}
}

static void unreadable_inputs_exit_1(void **state)
{
	struct tb b;
	struct cli_result *r;

	(void)state;
	r = run("dump missing.tv");
	assert_int_equal(r->status, 1);
	assert_string_equal(r->err, "tvtrace: missing.tv: cannot open: No such file or directory\n");
	write_program("prog.tv", FAULT_NONE, &b);
	r = run("check --elf prog.tv prog.tv");     /* the trace is no ELF */
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "tvtrace: prog.tv"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_exits_0),
		cmocka_unit_test(bad_command_lines_exit_2),
		cmocka_unit_test(dump_prints_the_records),
		cmocka_unit_test(malformed_file_gives_the_byte_and_exit_1),
		cmocka_unit_test(zero_padding_is_skipped_on_request),
		cmocka_unit_test(idle_padding_is_skipped_on_request),
		cmocka_unit_test(check_consistent_trace_prints_a_summary),
		cmocka_unit_test(check_reports_the_first_inconsistency),
		cmocka_unit_test(unreadable_inputs_exit_1),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * Unit tests of the ntrace tool's input side: the .pcs and pcseq parsers,
 * the canonical .pcs writer, raw images and the ELF loader (including
 * truncated and corrupted ELF files, which must give an error, not a crash).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntrace_tool.h"

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define TINY32_ELF NT_TEST_BUILD "/tiny32.elf"

static int parse_pcs(const char *text, struct nt_trace *t, struct nt_err *err)
{
	nt_trace_init(t);
	memset(err, 0, sizeof(*err));
	return nt_pcs_parse(text, strlen(text), "t.pcs", t, err);
}

static int parse_pcseq(const char *text, struct nt_trace *t, struct nt_err *err)
{
	nt_trace_init(t);
	memset(err, 0, sizeof(*err));
	return nt_pcseq_parse(text, strlen(text), "t.seq", t, err);
}

/* Parsing must fail and the message must name the file, line and problem. */
static void expect_pcs_error(const char *text, const char *position, const char *what)
{
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs(text, &t, &err), -1);
	assert_non_null(strstr(err.msg, position));
	assert_non_null(strstr(err.msg, what));
	nt_trace_free(&t);
}

static void pcs_reads_pcs_and_line_numbers(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("80000000\n80000004\n8000000c\n", &t, &err), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.v[0].pc, 0x80000000u);
	assert_int_equal(t.v[2].pc, 0x8000000cu);
	assert_int_equal(t.v[2].line, 3);
	assert_int_equal(t.v[1].event, NT_EVENT_NONE);
	nt_trace_free(&t);
}

static void pcs_accepts_0x_prefix_and_upper_case(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("0x8000ABCD\n0XffffFFFF80000000\n", &t, &err), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(t.v[0].pc, 0x8000abcdu);
	assert_true(t.v[1].pc == 0xffffffff80000000ull);
	nt_trace_free(&t);
}

static void pcs_skips_comments_blank_lines_and_crlf(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	const char *text = "# header\n\n   \n  # indented comment\r\n10\r\n\t12  \n# tail";
	assert_int_equal(parse_pcs(text, &t, &err), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(t.v[0].pc, 0x10);
	assert_int_equal(t.v[0].line, 5);
	assert_int_equal(t.v[1].pc, 0x12);
	assert_int_equal(t.v[1].line, 6);
	nt_trace_free(&t);
}

static void pcs_reads_exc_and_int_markers(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("10 exc\n20\tint\n30\n", &t, &err), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.v[0].event, NT_EVENT_EXCEPTION);
	assert_int_equal(t.v[1].event, NT_EVENT_INTERRUPT);
	assert_int_equal(t.v[2].event, NT_EVENT_NONE);
	nt_trace_free(&t);
}

static void pcs_last_line_needs_no_newline(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("10\n14 int", &t, &err), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(t.v[1].event, NT_EVENT_INTERRUPT);
	nt_trace_free(&t);
}

static void pcs_rejects_non_hex_with_line_and_column(void **state)
{
	(void)state;
	expect_pcs_error("10\n12\n80zz\n", "t.pcs:3:3:", "found 'z'");
	expect_pcs_error("10\nxyz\n", "t.pcs:2:1:", "expected a hexadecimal address");
	expect_pcs_error("0x\n", "t.pcs:1:3:", "expected a hexadecimal address");
}

static void pcs_rejects_unknown_marker(void **state)
{
	(void)state;
	expect_pcs_error("10\n14 exception\n", "t.pcs:2:4:", "expected marker");
	expect_pcs_error("10 EXC\n", "t.pcs:1:4:", "expected marker");
	expect_pcs_error("10 exc int\n", "t.pcs:1:8:", "after the marker");
}

static void pcs_rejects_marker_without_blank(void **state)
{
	(void)state;
	/* "10exc" reads "10e" as hex, then finds 'x'. */
	expect_pcs_error("10exc\n", "t.pcs:1:4:", "found 'x'");
}

static void pcs_rejects_address_over_64_bits(void **state)
{
	(void)state;
	expect_pcs_error("10\n10000000000000000\n", "t.pcs:2:", "does not fit in 64 bits");
	struct nt_trace t;
	struct nt_err err;
	/* Leading zeros are not significant. */
	assert_int_equal(parse_pcs("00000000000000000000ffffffffffffffff\n", &t, &err), 0);
	assert_true(t.v[0].pc == UINT64_MAX);
	nt_trace_free(&t);
}

static void pcs_rejects_overlong_line(void **state)
{
	(void)state;
	char text[600];
	strcpy(text, "10\n");
	memset(text + 3, '0', 300);
	strcpy(text + 303, "\n14\n");
	expect_pcs_error(text, "t.pcs:2:", "longer than");
}

static void pcs_rejects_nul_byte(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	nt_trace_init(&t);
	assert_int_equal(nt_pcs_parse("10\n1\0\n", 6, "t.pcs", &t, &err), -1);
	assert_non_null(strstr(err.msg, "t.pcs:2:2:"));
	assert_non_null(strstr(err.msg, "byte 0x00"));
	nt_trace_free(&t);
}

static void pcs_writer_is_canonical(void **state)
{
	(void)state;
	char buf[40];
	nt_pcs_format_line(buf, sizeof(buf), 0x8000000c, NT_EVENT_NONE);
	assert_string_equal(buf, "8000000c\n");
	nt_pcs_format_line(buf, sizeof(buf), 0xffffffff80000000ull, NT_EVENT_EXCEPTION);
	assert_string_equal(buf, "ffffffff80000000 exc\n");
	nt_pcs_format_line(buf, sizeof(buf), 0, NT_EVENT_INTERRUPT);
	assert_string_equal(buf, "0 int\n");
}

static void pcs_parse_then_write_gives_canonical_text(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("# c\n0x0080000000\n0X8000000A  exc\n\n10\tint\n", &t, &err), 0);
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	assert_non_null(f);
	assert_int_equal(nt_pcs_write(f, &t), 0);
	fclose(f);
	assert_string_equal(out, "80000000\n8000000a exc\n10 int\n");
	free(out);
	nt_trace_free(&t);
}

static void pcseq_reads_reference_classes(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	const char *text =
		"0x20010522,L2\n0x2001052A,L4\n0x200101D2,B4\n0x20010236,BN4\n"
		"0x200102BC,J2\n0x20010552,C2\n0x20010034,CI2\n0x20010186,R2\n"
		"0x10,JI4\n0x14,E4 exc\n0x18,X4\n0x1c,BD2\n";
	assert_int_equal(parse_pcseq(text, &t, &err), 0);
	assert_int_equal(t.count, 12);
	static const uint8_t cls[] = {
		NT_SEQ_LINEAR, NT_SEQ_LINEAR, NT_SEQ_BRANCH_TAKEN, NT_SEQ_BRANCH_NOT_TAKEN,
		NT_SEQ_JUMP_DIRECT, NT_SEQ_CALL_DIRECT, NT_SEQ_CALL_INDIRECT, NT_SEQ_RETURN,
		NT_SEQ_JUMP_INDIRECT, NT_SEQ_TRAP_INSN, NT_SEQ_TRAP_RETURN, NT_SEQ_BRANCH_TAKEN,
	};
	static const uint8_t size[] = { 2, 4, 4, 4, 2, 2, 2, 2, 4, 4, 4, 2 };
	for (size_t i = 0; i < 12; i++) {
		assert_int_equal(t.v[i].seq_class, cls[i]);
		assert_int_equal(t.v[i].seq_size, size[i]);
	}
	assert_int_equal(t.v[0].pc, 0x20010522);
	assert_int_equal(t.v[9].event, NT_EVENT_EXCEPTION);
	nt_trace_free(&t);
}

static void pcseq_rejects_malformed_lines(void **state)
{
	(void)state;
	static const struct {
		const char *text, *position, *what;
	} cases[] = {
		{ "0x10,L2\n0x12 L2\n", "t.seq:2:5:", "expected ','" },
		{ "0x10,Q2\n", "t.seq:1:6:", "instruction class" },
		{ "0x10,L3\n", "t.seq:1:7:", "size 2 or 4" },
		{ "0x10,L\n", "t.seq:1:7:", "size 2 or 4" },
		{ "0x10,L44\n", "t.seq:1:7:", "size 2 or 4" },
		{ "0x10,L2,0x20\n", "t.seq:1:8:", "blank before" },
		{ "zz,L2\n", "t.seq:1:1:", "hexadecimal address" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nt_trace t;
		struct nt_err err;
		assert_int_equal(parse_pcseq(cases[i].text, &t, &err), -1);
		if (!strstr(err.msg, cases[i].position) || !strstr(err.msg, cases[i].what))
			fail_msg("case %zu: message '%s'", i, err.msg);
		nt_trace_free(&t);
	}
}

/* ---- images ---- */

static char *write_temp(const void *data, size_t len)
{
	char *path = strdup("/tmp/nt-test-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static void raw_image_is_placed_at_its_address(void **state)
{
	(void)state;
	uint8_t bytes[16];
	for (int i = 0; i < 16; i++)
		bytes[i] = (uint8_t)(0xa0 + i);
	char *path = write_temp(bytes, sizeof(bytes));
	char spec[64];
	snprintf(spec, sizeof(spec), "%s@0x1000", path);
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	assert_int_equal(nt_images_add_raw(&set, spec, &err), 0);
	uint64_t avail = 0;
	const uint8_t *p = nt_images_lookup(&set, 0x1000, &avail);
	assert_non_null(p);
	assert_int_equal(p[0], 0xa0);
	assert_int_equal(avail, 16);
	p = nt_images_lookup(&set, 0x100f, &avail);
	assert_non_null(p);
	assert_int_equal(*p, 0xaf);
	assert_int_equal(avail, 1);
	assert_null(nt_images_lookup(&set, 0x1010, &avail));
	assert_null(nt_images_lookup(&set, 0xfff, &avail));
	nt_images_free(&set);
	unlink(path);
	free(path);
}

static void raw_image_rejects_bad_specs(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	assert_int_equal(nt_images_add_raw(&set, "file.bin", &err), -1);
	assert_non_null(strstr(err.msg, "FILE@ADDR"));
	assert_int_equal(nt_images_add_raw(&set, "file.bin@0xzz", &err), -1);
	assert_non_null(strstr(err.msg, "FILE@ADDR"));
	assert_int_equal(nt_images_add_raw(&set, "/nonexistent/x.bin@0x10", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.bin: cannot open"));
	assert_int_equal(set.count, 0);
	nt_images_free(&set);
}

static void images_reject_overlap(void **state)
{
	(void)state;
	uint8_t bytes[8] = { 0 };
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	assert_int_equal(nt_images_add_bytes(&set, bytes, 8, 0x100, "a", &err), 0);
	assert_int_equal(nt_images_add_bytes(&set, bytes, 8, 0x108, "b", &err), 0);
	assert_int_equal(nt_images_add_bytes(&set, bytes, 8, 0xf8, "c", &err), 0);
	assert_int_equal(nt_images_add_bytes(&set, bytes, 8, 0x104, "d", &err), -1);
	assert_non_null(strstr(err.msg, "d: bytes 0x104..0x10b overlap a"));
	assert_int_equal(nt_images_add_bytes(&set, bytes, 8, UINT64_MAX - 3, "e", &err), -1);
	assert_non_null(strstr(err.msg, "wraps"));
	/* Lookups pick the right one of several sorted images. */
	uint64_t avail;
	assert_non_null(nt_images_lookup(&set, 0x10f, &avail));
	assert_int_equal(avail, 1);
	assert_non_null(nt_images_lookup(&set, 0xf8, &avail));
	assert_int_equal(avail, 8);
	assert_null(nt_images_lookup(&set, 0x110, &avail));
	nt_images_free(&set);
}

static void elf_loader_maps_text_of_tiny_elf(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	if (nt_images_add_elf(&set, TINY_ELF, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(set.elf_class, 64);
	uint64_t avail;
	const uint8_t *p = nt_images_lookup(&set, 0x80000000, &avail);
	assert_non_null(p);
	/* auipc t0,0 = 0x00000297 */
	assert_int_equal(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24, 0x00000297);
	p = nt_images_lookup(&set, 0x8000004a, &avail);
	assert_non_null(p);
	/* mret = 0x30200073 */
	assert_int_equal(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24, 0x30200073);
	assert_null(nt_images_lookup(&set, 0x7ffffffe, &avail));
	assert_null(nt_images_lookup(&set, 0x80000050, &avail));
	nt_images_free(&set);
}

static void elf_loader_reads_elf32(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	if (nt_images_add_elf(&set, TINY32_ELF, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(set.elf_class, 32);
	uint64_t avail;
	assert_non_null(nt_images_lookup(&set, 0x80000000, &avail));
	nt_images_free(&set);
}

static void elf_loader_rejects_missing_file(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf(&set, "/nonexistent.elf", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent.elf: cannot open"));
	nt_images_free(&set);
}

static uint8_t *read_tiny(size_t *len)
{
	uint8_t *buf;
	struct nt_err err;
	if (nt_read_file(TINY_ELF, &buf, len, &err))
		fail_msg("%s", err.msg);
	return buf;
}

/* Every prefix of a valid ELF: never a crash (ASan), and an error whenever
 * the cut removes part of the code. */
static void elf_loader_survives_every_truncation(void **state)
{
	(void)state;
	size_t len;
	uint8_t *full = read_tiny(&len);
	/* First byte after the code segment's file bytes: find it by loading. */
	struct nt_image_set set;
	struct nt_err err;
	size_t ok_from = len + 1;
	for (size_t cut = 0; cut <= len; cut++) {
		nt_images_init(&set);
		uint8_t *copy = malloc(cut ? cut : 1);  /* exact size: ASan sees overreads */
		memcpy(copy, full, cut);
		err.msg[0] = '\0';
		int rc = nt_images_add_elf_buffer(&set, copy, cut, "cut.elf", &err);
		if (rc == 0 && ok_from > len)
			ok_from = cut;
		if (rc != 0) {
			assert_true(strncmp(err.msg, "cut.elf: ", 9) == 0);
			/* Once a prefix loads, longer prefixes load too. */
			assert_true(ok_from > len);
		}
		free(copy);
		nt_images_free(&set);
	}
	/* The code is 0x50 bytes: no prefix shorter than that can load. */
	assert_true(ok_from <= len);
	assert_true(ok_from >= 0x50);
	free(full);
}

static void elf_loader_rejects_garbage(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_err err;
	uint8_t junk[512];
	srand(1234);
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)rand();
		if (round % 2)
			memcpy(junk, "\177ELF\002\001\001", 7);
		nt_images_init(&set);
		assert_int_equal(nt_images_add_elf_buffer(&set, junk, sizeof(junk), "junk.elf", &err), -1);
		assert_true(strncmp(err.msg, "junk.elf: ", 10) == 0);
		nt_images_free(&set);
	}
	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf_buffer(&set, (const uint8_t *)"hello", 5, "text.elf", &err), -1);
	assert_non_null(strstr(err.msg, "not an ELF file"));
	nt_images_free(&set);
}

static void elf_loader_rejects_corrupt_headers(void **state)
{
	(void)state;
	size_t len;
	uint8_t *full = read_tiny(&len);
	uint8_t *copy = malloc(len);
	struct nt_image_set set;
	struct nt_err err;

	/* e_machine (offset 18) = x86-64 */
	memcpy(copy, full, len);
	copy[18] = 62;
	copy[19] = 0;
	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf_buffer(&set, copy, len, "m.elf", &err), -1);
	assert_non_null(strstr(err.msg, "not a RISC-V ELF"));
	nt_images_free(&set);

	/* e_phoff (offset 32, 8 bytes) far past the end of the file */
	memcpy(copy, full, len);
	memset(copy + 32, 0x7f, 8);
	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf_buffer(&set, copy, len, "p.elf", &err), -1);
	assert_true(strncmp(err.msg, "p.elf: ", 7) == 0);
	nt_images_free(&set);

	/* sh_offset of every section past the end of the file */
	memcpy(copy, full, len);
	uint64_t shoff;
	memcpy(&shoff, full + 40, 8);
	uint16_t shentsize = (uint16_t)(full[58] | full[59] << 8);
	uint16_t shnum = (uint16_t)(full[60] | full[61] << 8);
	assert_true(shoff + (uint64_t)shentsize * shnum <= len);
	for (unsigned i = 1; i < shnum; i++)
		memset(copy + shoff + i * shentsize + 24, 0x70, 8);
	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf_buffer(&set, copy, len, "o.elf", &err), -1);
	assert_non_null(strstr(err.msg, "outside the file"));
	nt_images_free(&set);

	free(copy);
	free(full);
}

/* Without section headers (stripped), the executable segments are used. */
static void elf_loader_falls_back_to_segments(void **state)
{
	(void)state;
	size_t len;
	uint8_t *copy = read_tiny(&len);
	memset(copy + 40, 0, 8);        /* e_shoff */
	memset(copy + 60, 0, 4);        /* e_shnum, e_shstrndx */
	struct nt_image_set set;
	struct nt_err err;
	nt_images_init(&set);
	if (nt_images_add_elf_buffer(&set, copy, len, "s.elf", &err))
		fail_msg("%s", err.msg);
	uint64_t avail;
	const uint8_t *p = nt_images_lookup(&set, 0x80000000, &avail);
	assert_non_null(p);
	assert_int_equal(p[0], 0x97);
	nt_images_free(&set);
	free(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcs_reads_pcs_and_line_numbers),
		cmocka_unit_test(pcs_accepts_0x_prefix_and_upper_case),
		cmocka_unit_test(pcs_skips_comments_blank_lines_and_crlf),
		cmocka_unit_test(pcs_reads_exc_and_int_markers),
		cmocka_unit_test(pcs_last_line_needs_no_newline),
		cmocka_unit_test(pcs_rejects_non_hex_with_line_and_column),
		cmocka_unit_test(pcs_rejects_unknown_marker),
		cmocka_unit_test(pcs_rejects_marker_without_blank),
		cmocka_unit_test(pcs_rejects_address_over_64_bits),
		cmocka_unit_test(pcs_rejects_overlong_line),
		cmocka_unit_test(pcs_rejects_nul_byte),
		cmocka_unit_test(pcs_writer_is_canonical),
		cmocka_unit_test(pcs_parse_then_write_gives_canonical_text),
		cmocka_unit_test(pcseq_reads_reference_classes),
		cmocka_unit_test(pcseq_rejects_malformed_lines),
		cmocka_unit_test(raw_image_is_placed_at_its_address),
		cmocka_unit_test(raw_image_rejects_bad_specs),
		cmocka_unit_test(images_reject_overlap),
		cmocka_unit_test(elf_loader_maps_text_of_tiny_elf),
		cmocka_unit_test(elf_loader_reads_elf32),
		cmocka_unit_test(elf_loader_rejects_missing_file),
		cmocka_unit_test(elf_loader_survives_every_truncation),
		cmocka_unit_test(elf_loader_rejects_garbage),
		cmocka_unit_test(elf_loader_rejects_corrupt_headers),
		cmocka_unit_test(elf_loader_falls_back_to_segments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

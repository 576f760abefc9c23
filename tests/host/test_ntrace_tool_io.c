// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the ntrace tool's input side: the .pcs and pcseq parsers
 * (privilege tokens included), the canonical .pcs writer, raw images, the
 * ELF loader and the symbol tables of `decode --symbols` (including
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

/* ---- Privilege tokens (ground-truth windows) ------------------------------ */

static void pcs_reads_privilege_tokens_after_the_marker(void **state)
{
	(void)state;
	struct nt_trace t;
	struct nt_err err;
	assert_int_equal(parse_pcs("10 S\n14 exc U\n800003bc M\n18 int VS\n1c   VU  \n", &t, &err), 0);
	assert_true(t.has_priv);
	assert_int_equal(t.count, 5);
	assert_int_equal(t.v[0].priv, NT_PRIV_S);
	assert_int_equal(t.v[0].event, NT_EVENT_NONE);
	assert_int_equal(t.v[1].priv, NT_PRIV_U);
	assert_int_equal(t.v[1].event, NT_EVENT_EXCEPTION);
	assert_int_equal(t.v[2].priv, NT_PRIV_M);
	assert_int_equal(t.v[3].priv, NT_PRIV_VS);
	assert_int_equal(t.v[3].event, NT_EVENT_INTERRUPT);
	assert_int_equal(t.v[4].priv, NT_PRIV_VU);
	/* record privileges: PRV[1:0] | V << 2 */
	assert_int_equal(nt_priv_record(NT_PRIV_U), 0);
	assert_int_equal(nt_priv_record(NT_PRIV_S), 1);
	assert_int_equal(nt_priv_record(NT_PRIV_M), 3);
	assert_int_equal(nt_priv_record(NT_PRIV_VU), 4);
	assert_int_equal(nt_priv_record(NT_PRIV_VS), 5);
	nt_trace_free(&t);
	/* without tokens nothing changes */
	assert_int_equal(parse_pcs("10\n14 exc\n", &t, &err), 0);
	assert_false(t.has_priv);
	assert_int_equal(t.v[1].priv, NT_PRIV_NONE);
	nt_trace_free(&t);
}

static void pcs_rejects_misplaced_or_unknown_privileges(void **state)
{
	(void)state;
	expect_pcs_error("10 S exc\n", "t.pcs:1:6:", "unexpected text after the privilege");
	expect_pcs_error("10 exc H\n", "t.pcs:1:8:", "after the marker");
	expect_pcs_error("10 s\n", "t.pcs:1:4:", "expected marker 'exc' or 'int' or a privilege");
	expect_pcs_error("10 SU\n", "t.pcs:1:4:", "or a privilege");
	expect_pcs_error("10 S U\n", "t.pcs:1:6:", "unexpected text after the privilege");
	expect_pcs_error("10 exc S M\n", "t.pcs:1:10:", "unexpected text after the privilege");
}

/* A token on every line or on none: which line lacks one is named. */
static void pcs_needs_privilege_on_every_line_or_none(void **state)
{
	(void)state;
	expect_pcs_error("# window\n10 S\n14 U\n18\n1c S\n", "t.pcs:4:", "no privilege token");
	expect_pcs_error("10\n14\n18 exc S\n", "t.pcs:3:", "line 1 has none");
}

/* ---- Symbols ------------------------------------------------------------ */

static void load_symbols(struct nt_symtab *t, const char *path)
{
	struct nt_err err;
	nt_symtab_init(t);
	if (nt_symtab_add_elf(t, path, &err))
		fail_msg("%s", err.msg);
}

static const char *symbol_at(const struct nt_symtab *t, uint64_t addr, uint64_t *off)
{
	const struct nt_symbol *s = nt_symtab_lookup(t, addr);
	if (!s)
		return NULL;
	*off = addr - s->addr;
	return s->name;
}

/* tiny.S: _start (global), then the local labels loop, after, skip, done,
 * leaf and handler; .text ends at 0x80000050. */
static void symbols_name_the_nearest_label_below(void **state)
{
	(void)state;
	struct nt_symtab t;
	uint64_t off = 99;
	load_symbols(&t, TINY_ELF);
	assert_string_equal(symbol_at(&t, 0x80000000, &off), "_start");
	assert_int_equal(off, 0);
	assert_string_equal(symbol_at(&t, 0x8000000c, &off), "_start");
	assert_int_equal(off, 0xc);
	assert_string_equal(symbol_at(&t, 0x8000000e, &off), "loop");
	assert_int_equal(off, 0);
	assert_string_equal(symbol_at(&t, 0x80000010, &off), "loop");
	assert_int_equal(off, 2);
	assert_string_equal(symbol_at(&t, 0x8000003e, &off), "leaf");
	assert_int_equal(off, 2);
	assert_string_equal(symbol_at(&t, 0x8000004a, &off), "handler");
	assert_int_equal(off, 0xa);
	/* below the first symbol, and past the end of .text: none */
	assert_null(nt_symtab_lookup(&t, 0x7ffffffe));
	assert_null(nt_symtab_lookup(&t, 0x80000050));
	assert_null(nt_symtab_lookup(&t, 0x80001050));
	char line[128];
	nt_listing_format_line(line, sizeof(line), 0x80000032, NT_EVENT_EXCEPTION, &t);
	assert_string_equal(line, "80000032 exc  skip+0x0\n");
	nt_listing_format_line(line, sizeof(line), 0x80000046, NT_EVENT_NONE, &t);
	assert_string_equal(line, "80000046  handler+0x6\n");
	nt_listing_format_line(line, sizeof(line), 0x90000000, NT_EVENT_INTERRUPT, &t);
	assert_string_equal(line, "90000000 int  ?\n");
	nt_symtab_free(&t);
}

/* Two files: each pc finds its own file's symbols, never the other's. */
static void symbols_of_several_files_stay_in_their_sections(void **state)
{
	(void)state;
	struct nt_symtab t;
	struct nt_err err;
	uint64_t off;
	load_symbols(&t, NT_TEST_BUILD "/tiny-hi.elf");
	if (nt_symtab_add_elf(&t, TINY_ELF, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(symbol_at(&t, 0x8020000e, &off), "loop");
	assert_int_equal(off, 0);
	assert_string_equal(symbol_at(&t, 0x8000003c, &off), "leaf");
	/* between the two programs: past tiny's .text, below tiny-hi's */
	assert_null(nt_symtab_lookup(&t, 0x80100000));
	nt_symtab_free(&t);
}

/* Every prefix and random damage of the ELF: an error or fewer symbols,
 * never a crash or a read outside the buffer (ASan). */
static void symbols_survive_truncated_and_damaged_files(void **state)
{
	(void)state;
	size_t len;
	uint8_t *full = read_tiny(&len);
	struct nt_symtab t;
	struct nt_err err;
	size_t most = 0;
	for (size_t cut = 0; cut <= len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, full, cut);
		nt_symtab_init(&t);
		err.msg[0] = '\0';
		if (nt_symtab_add_elf_buffer(&t, copy, cut, "cut.elf", &err))
			assert_true(strncmp(err.msg, "cut.elf: ", 9) == 0);
		if (t.count > most)
			most = t.count;
		for (size_t i = 0; i < t.count; i++)
			assert_true(t.v[i].addr >= t.v[i].sec_start && t.v[i].addr < t.v[i].sec_end);
		nt_symtab_free(&t);
		free(copy);
	}
	assert_int_equal(most, 7);      /* the whole file: _start and six labels */
	srand(99);
	uint8_t *copy = malloc(len);
	for (int round = 0; round < 300; round++) {
		memcpy(copy, full, len);
		for (int k = 0; k < 8; k++)
			copy[64 + (size_t)rand() % (len - 64)] = (uint8_t)rand();
		nt_symtab_init(&t);
		nt_symtab_add_elf_buffer(&t, copy, len, "bad.elf", &err);
		for (size_t i = 0; i < t.count; i++)
			assert_non_null(t.v[i].name);
		nt_symtab_free(&t);
	}
	free(copy);
	free(full);
	nt_symtab_init(&t);
	assert_int_equal(nt_symtab_add_elf_buffer(&t, (const uint8_t *)"text", 4, "x.elf", &err), -1);
	assert_non_null(strstr(err.msg, "x.elf: not an ELF file"));
	nt_symtab_free(&t);
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
		cmocka_unit_test(pcs_reads_privilege_tokens_after_the_marker),
		cmocka_unit_test(pcs_rejects_misplaced_or_unknown_privileges),
		cmocka_unit_test(pcs_needs_privilege_on_every_line_or_none),
		cmocka_unit_test(symbols_name_the_nearest_label_below),
		cmocka_unit_test(symbols_of_several_files_stay_in_their_sections),
		cmocka_unit_test(symbols_survive_truncated_and_damaged_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

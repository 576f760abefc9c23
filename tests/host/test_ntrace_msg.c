// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace message layer: golden vectors from the spec's examples (Table 6,
 * 8.2.1, 9.3; bytes in tests/data/ntrace/golden) and the framing rules of
 * chapter 3 (Table 5 MSEO sequences, Table 10 field limits).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/ntrace/ntrace.h"

#include "test_ntrace_golden.h"

static const struct ntrace_format fmt64 = { .xlen = 64 };
static const struct ntrace_format fmt64_ext = { .xlen = 64, .extend_addr_msb = true };

static int parse_one(const struct ntrace_format *fmt, const uint8_t *b, size_t len, size_t *pos,
		     struct ntrace_msg *m, struct ntrace_error *err)
{
	return ntrace_msg_parse(fmt, b, len, pos, m, err);
}

/* ------------------------------------------------------------ Table 6 */

static void test_table6_example_parses_to_its_fields(void **state)
{
	uint8_t b[64];
	size_t n = load_golden("table6-indirect-branch-hist.hex", b, sizeof(b)), pos = 0;
	struct ntrace_msg m;
	struct ntrace_error err;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.offset, 1);
	assert_int_equal(m.length, 6);
	assert_int_equal(m.val[NTRACE_FLD_TCODE], 28);
	assert_string_equal(ntrace_tcode_name(28), "IndirectBranchHist");
	assert_int_equal(m.val[NTRACE_FLD_BTYPE], 0);
	assert_int_equal(m.bits[NTRACE_FLD_BTYPE], 2);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 0x7d);
	assert_int_equal(m.bits[NTRACE_FLD_ICNT], 10);
	assert_int_equal(m.val[NTRACE_FLD_UADDR], 0x7);
	assert_int_equal(m.bits[NTRACE_FLD_UADDR], 6);
	assert_int_equal(m.val[NTRACE_FLD_HIST], 0xffe);
	assert_int_equal(m.bits[NTRACE_FLD_HIST], 12);
	assert_false(ntrace_msg_has(&m, NTRACE_FLD_TSTAMP));
	/* the trailing 0xFF is idle: nothing more */
	assert_int_equal(parse_one(&fmt64, b, n, &pos, &m, &err), 0);
	assert_int_equal(pos, n);
}

static void test_table6_example_fields_write_the_same_bytes(void **state)
{
	uint8_t b[64], out[64];
	size_t n = load_golden("table6-indirect-branch-hist.hex", b, sizeof(b));
	struct ntrace_msg m;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_INDIRECT_BRANCH_HIST);
	ntrace_msg_set(&m, NTRACE_FLD_BTYPE, 0);
	ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0x7d);
	ntrace_msg_set(&m, NTRACE_FLD_UADDR, 0x7);
	ntrace_msg_set(&m, NTRACE_FLD_HIST, 0xffe);
	assert_int_equal(ntrace_msg_write(&fmt64, &m, out, sizeof(out)), 6);
	assert_memory_equal(out, b + 1, 6);
	assert_int_equal(n, 8);
}

/* ------------------------------------------------------------ 8.2 */

static void test_8_2_1_extended_address_decodes_with_msb_extension(void **state)
{
	uint8_t b[64];
	size_t n = load_golden("8.2.1-extended-faddr.hex", b, sizeof(b)), pos = 0;
	struct ntrace_msg m;
	struct ntrace_error err;

	(void)state;
	assert_int_equal(parse_one(&fmt64_ext, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_SYNC], 3);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 0);
	assert_int_equal(m.bits[NTRACE_FLD_FADDR], 36);
	assert_int_equal(ntrace_field_to_addr(m.val[NTRACE_FLD_FADDR], 64), 0xfffffffe3ffffffeull);
	assert_int_equal(m.val[NTRACE_FLD_TSTAMP], 1);
	/* the same bytes without trTeInstExtendAddrMSB: plain field value */
	pos = 0;
	assert_int_equal(parse_one(&fmt64, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_FADDR], 0xf1fffffffull);
}

static void test_8_2_1_extended_address_encodes_to_the_spec_bytes(void **state)
{
	uint8_t b[64], out[64];
	size_t n = load_golden("8.2.1-extended-faddr.hex", b, sizeof(b));
	struct ntrace_msg m;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_SYNC);
	ntrace_msg_set(&m, NTRACE_FLD_SYNC, 3);
	ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0);
	ntrace_msg_set(&m, NTRACE_FLD_FADDR, ntrace_addr_to_field(0xfffffffe3ffffffeull));
	ntrace_msg_set(&m, NTRACE_FLD_TSTAMP, 1);
	assert_int_equal(ntrace_msg_write(&fmt64_ext, &m, out, sizeof(out)), (int)n);
	assert_memory_equal(out, b, n);
}

static void test_8_2_1_full_64bit_address_has_no_extension(void **state)
{
	uint8_t b[64], out[64];
	size_t n = load_golden("8.2.1-full-64bit-faddr.hex", b, sizeof(b)), pos = 0;
	struct ntrace_msg m;
	struct ntrace_error err;

	(void)state;
	assert_int_equal(parse_one(&fmt64_ext, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_FADDR], 0x5fffffffffffffffull);
	assert_int_equal(ntrace_field_to_addr(m.val[NTRACE_FLD_FADDR], 64), 0xbffffffffffffffeull);
	assert_int_equal(ntrace_msg_write(&fmt64_ext, &m, out, sizeof(out)), (int)n);
	assert_memory_equal(out, b, n);
}

/* 8.2.1: "extra MDO with all 0-s prevents extension". */
static void test_8_2_1_zero_mdo_prevents_extension(void **state)
{
	uint8_t out[64];
	struct ntrace_msg m, back;
	struct ntrace_error err;
	size_t pos = 0;
	int n;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_SYNC);
	ntrace_msg_set(&m, NTRACE_FLD_SYNC, 3);
	ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0);
	ntrace_msg_set(&m, NTRACE_FLD_FADDR, 0x3f); /* six one bits */
	n = ntrace_msg_write(&fmt64_ext, &m, out, sizeof(out));
	assert_int_equal(n, 4);
	assert_int_equal(out[2], 0xfc);  /* 111111_00 */
	assert_int_equal(out[3], 0x03);  /* 000000_11: the zero MDO */
	assert_int_equal(parse_one(&fmt64_ext, out, (size_t)n, &pos, &back, &err), 1);
	assert_int_equal(back.val[NTRACE_FLD_FADDR], 0x3f);
	/* without extension no extra byte is needed */
	assert_int_equal(ntrace_msg_write(&fmt64, &m, out, sizeof(out)), 3);
}

/* 8.2: 0xFFFF_FFFF_8000_31F4 is F-ADDR=0x7FFF_FFFF_C000_18FA and needs 11
 * bytes as a plain variable field; with the extension far fewer. */
static void test_8_2_linux_kernel_address_field_sizes(void **state)
{
	uint8_t out[64];
	struct ntrace_msg m, back;
	struct ntrace_error err;
	size_t pos = 0;
	int with, without;

	(void)state;
	assert_int_equal(ntrace_addr_to_field(0xffffffff800031f4ull), 0x7fffffffc00018faull);
	assert_int_equal(ntrace_var_bytes(0x7fffffffc00018faull, 0), 11);
	ntrace_msg_init(&m, NTRACE_TCODE_PROG_TRACE_SYNC);
	ntrace_msg_set(&m, NTRACE_FLD_SYNC, 2);
	ntrace_msg_set(&m, NTRACE_FLD_ICNT, 0);
	ntrace_msg_set(&m, NTRACE_FLD_FADDR, 0x7fffffffc00018faull);
	without = ntrace_msg_write(&fmt64, &m, out, sizeof(out));
	with = ntrace_msg_write(&fmt64_ext, &m, out, sizeof(out));
	assert_int_equal(without, 2 + 11);
	assert_int_equal(with, 2 + 6);
	assert_int_equal(parse_one(&fmt64_ext, out, (size_t)with, &pos, &back, &err), 1);
	assert_int_equal(back.val[NTRACE_FLD_FADDR], 0x7fffffffc00018faull);
}

static void test_8_2_extension_on_xlen32_extends_to_bit31(void **state)
{
	const struct ntrace_format f32 = { .xlen = 32, .extend_addr_msb = true };
	uint8_t out[64];
	struct ntrace_msg m, back;
	struct ntrace_error err;
	size_t pos = 0;
	int n;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_INDIRECT_BRANCH);
	ntrace_msg_set(&m, NTRACE_FLD_BTYPE, 0);
	ntrace_msg_set(&m, NTRACE_FLD_ICNT, 3);
	ntrace_msg_set(&m, NTRACE_FLD_UADDR, ntrace_addr_to_field(0xfffff000u));
	n = ntrace_msg_write(&f32, &m, out, sizeof(out));
	assert_int_equal(n, 4); /* TCODE, BTYPE+ICNT, two U-ADDR bytes */
	assert_int_equal(parse_one(&f32, out, (size_t)n, &pos, &back, &err), 1);
	assert_int_equal(ntrace_field_to_addr(back.val[NTRACE_FLD_UADDR], 32), 0xfffff000u);
}

/* ------------------------------------------------------------ 9.3 */

static void check_rcode2(const char *file, uint64_t rdata, uint64_t hrepeat)
{
	uint8_t b[64], out[64];
	size_t n = load_golden(file, b, sizeof(b)), pos = 0;
	struct ntrace_msg m;
	struct ntrace_error err;

	assert_int_equal(parse_one(&fmt64, b, n, &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_TCODE], NTRACE_TCODE_RESOURCE_FULL);
	assert_int_equal(m.val[NTRACE_FLD_RCODE], NTRACE_RCODE_HIST_REPEAT);
	assert_int_equal(m.val[NTRACE_FLD_RDATA], rdata);
	assert_int_equal(m.val[NTRACE_FLD_HREPEAT], hrepeat);
	ntrace_msg_init(&m, NTRACE_TCODE_RESOURCE_FULL);
	ntrace_msg_set(&m, NTRACE_FLD_RCODE, 2);
	ntrace_msg_set(&m, NTRACE_FLD_RDATA, rdata);
	ntrace_msg_set(&m, NTRACE_FLD_HREPEAT, hrepeat);
	assert_int_equal(ntrace_msg_write(&fmt64, &m, out, sizeof(out)), (int)n);
	assert_memory_equal(out, b, n);
}

static void test_9_3_rcode2_example_pattern_repeated_15_times(void **state)
{
	(void)state;
	check_rcode2("9.3-rcode2-pattern15.hex", 0x55555555, 10);
}

static void test_9_3_rcode2_example_single_pattern(void **state)
{
	(void)state;
	check_rcode2("9.3-rcode2-pattern1.hex", 0x5, 150);
}

/* RDATA[1] (HREPEAT) exists only with RCODE=2 (Table 19). */
static void test_table19_hrepeat_only_with_rcode2(void **state)
{
	uint8_t out[64];
	struct ntrace_msg m, back;
	struct ntrace_error err;
	size_t pos = 0;
	int n;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_RESOURCE_FULL);
	ntrace_msg_set(&m, NTRACE_FLD_RCODE, 1);
	ntrace_msg_set(&m, NTRACE_FLD_RDATA, 0x5);
	ntrace_msg_set(&m, NTRACE_FLD_HREPEAT, 150); /* ignored */
	n = ntrace_msg_write(&fmt64, &m, out, sizeof(out));
	assert_int_equal(n, 3);
	assert_int_equal(parse_one(&fmt64, out, (size_t)n, &pos, &back, &err), 1);
	assert_false(ntrace_msg_has(&back, NTRACE_FLD_HREPEAT));
	assert_false(ntrace_msg_has(&back, NTRACE_FLD_TSTAMP));
}

/* ------------------------------------------------------------ chapter 3 */

static void test_table5_idle_bytes_between_messages_are_skipped(void **state)
{
	/* DirectBranch I-CNT=5, idle x3, DirectBranch I-CNT=1 */
	const uint8_t b[] = { 0x0c, 0x17, 0xff, 0xff, 0xff, 0x0c, 0x07 };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 5);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_int_equal(m.offset, 5);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 1);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 0);
}

static void test_table5_reserved_mseo_10_is_an_error_with_offset(void **state)
{
	const uint8_t b[] = { 0x0c, 0x16, 0x17, 0x0c, 0x07 };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_MSEO_RESERVED);
	assert_int_equal(err.offset, 1);
	assert_int_equal(pos, 3); /* resynchronised after the end-of-message byte */
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 1);
}

static void test_table5_message_starts_with_mseo_00(void **state)
{
	const uint8_t b[] = { 0x0d, 0x17, 0x0c, 0x07 };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_BAD_START);
	assert_int_equal(err.offset, 0);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_int_equal(m.offset, 2);
}

static void test_chapter3_truncated_message_is_reported(void **state)
{
	const uint8_t b[] = { 0x0c, 0x17, 0x70, 0xd0, 0x1d };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_TRUNCATED);
	assert_int_equal(err.msg_offset, 2);
	assert_int_equal(err.offset, sizeof(b));
	assert_int_equal(pos, sizeof(b));
}

static void test_chapter3_missing_field_is_reported(void **state)
{
	/* IndirectBranch that ends after I-CNT: U-ADDR missing */
	const uint8_t b[] = { 0x10, 0x0f };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_FIELD_MISSING);
	assert_int_equal(err.msg_offset, 0);
	assert_int_equal(pos, 2);
}

static void test_chapter3_all_zero_input_is_rejected_not_accepted_as_a_field(void **state)
{
	uint8_t b[4096];
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	memset(b, 0, sizeof(b));
	b[0] = 0x0c; /* DirectBranch, then an endless I-CNT of zero bytes */
	b[sizeof(b) - 1] = 0x03;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_FIELD_TOO_LONG);
	assert_true(err.offset < 16);
	assert_int_equal(pos, sizeof(b));
}

static void test_table10_icnt_wider_than_22_bits_is_rejected(void **state)
{
	/* DirectBranch with I-CNT = 1 << 23 (24 bits), and a 20-bit one */
	const uint8_t b[] = { 0x0c, 0x00, 0x00, 0x00, 0x83 };
	const uint8_t ok[] = { 0x0c, 0xfc, 0xfc, 0xfc, 0x0f };
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_FIELD_TOO_LONG);
	pos = 0;
	assert_int_equal(parse_one(&fmt64, ok, sizeof(ok), &pos, &m, &err), 1);
	assert_int_equal(m.val[NTRACE_FLD_ICNT], 0xfffff);
}

static void test_table10_hist_wider_than_32_bits_is_rejected(void **state)
{
	struct ntrace_msg m;
	uint8_t out[64];
	struct ntrace_error err;
	size_t pos = 0;
	int n;

	(void)state;
	ntrace_msg_init(&m, NTRACE_TCODE_RESOURCE_FULL);
	ntrace_msg_set(&m, NTRACE_FLD_RCODE, 1);
	ntrace_msg_set(&m, NTRACE_FLD_RDATA, 1ull << 33);
	n = ntrace_msg_write(&fmt64, &m, out, sizeof(out));
	assert_true(n > 0);
	assert_int_equal(parse_one(&fmt64, out, (size_t)n, &pos, &m, &err), -NTRACE_ERR_FIELD_TOO_LONG);
}

static void test_table8_reserved_and_vendor_tcodes_are_reported(void **state)
{
	const uint8_t b[] = { 0x04, 0x07, 0xe0, 0x07, 0x0c, 0x07 }; /* TCODE 1, TCODE 56, DirectBranch */
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;

	(void)state;
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_RESERVED_TCODE);
	assert_int_equal(m.val[NTRACE_FLD_TCODE], 1);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), -NTRACE_ERR_VENDOR_TCODE);
	assert_int_equal(m.val[NTRACE_FLD_TCODE], 56);
	assert_int_equal(m.offset, 2);
	assert_int_equal(parse_one(&fmt64, b, sizeof(b), &pos, &m, &err), 1);
	assert_string_equal(ntrace_tcode_name(1), "Reserved");
	assert_string_equal(ntrace_tcode_name(60), "VendorDefined");
}

/* Table 8: field order of every message type, as the spec lists them. */
static void test_table8_field_order_of_every_message(void **state)
{
	static const struct {
		unsigned tcode;
		int fields[6];
	} expect[] = {
		{ 2, { NTRACE_FLD_PROCESS, -1 } },
		{ 3, { NTRACE_FLD_ICNT, -1 } },
		{ 4, { NTRACE_FLD_BTYPE, NTRACE_FLD_ICNT, NTRACE_FLD_UADDR, -1 } },
		{ 8, { NTRACE_FLD_ETYPE, NTRACE_FLD_ECODE, -1 } },
		{ 9, { NTRACE_FLD_SYNC, NTRACE_FLD_ICNT, NTRACE_FLD_FADDR, -1 } },
		{ 11, { NTRACE_FLD_SYNC, NTRACE_FLD_ICNT, NTRACE_FLD_FADDR, -1 } },
		{ 12, { NTRACE_FLD_SYNC, NTRACE_FLD_BTYPE, NTRACE_FLD_ICNT, NTRACE_FLD_FADDR, -1 } },
		{ 27, { NTRACE_FLD_RCODE, NTRACE_FLD_RDATA, NTRACE_FLD_HREPEAT, -1 } },
		{ 28, { NTRACE_FLD_BTYPE, NTRACE_FLD_ICNT, NTRACE_FLD_UADDR, NTRACE_FLD_HIST, -1 } },
		{ 29, { NTRACE_FLD_SYNC, NTRACE_FLD_BTYPE, NTRACE_FLD_ICNT, NTRACE_FLD_FADDR, NTRACE_FLD_HIST, -1 } },
		{ 30, { NTRACE_FLD_BCNT, -1 } },
		{ 33, { NTRACE_FLD_EVCODE, NTRACE_FLD_CDF, NTRACE_FLD_ICNT, NTRACE_FLD_HIST, -1 } },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		const struct ntrace_msg_layout *l = ntrace_msg_layout(expect[i].tcode);
		unsigned k = 0;

		assert_non_null(l);
		for (; expect[i].fields[k] >= 0; k++)
			assert_int_equal(l->fields[k].id, expect[i].fields[k]);
		assert_int_equal(l->nfields, k);
	}
	for (unsigned t = 0; t < 64; t++) {
		bool known = false;

		for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
			known |= expect[i].tcode == t;
		assert_int_equal(ntrace_msg_layout(t) != NULL, known);
	}
}

/* Every message type survives write -> parse with SRC and TSTAMP, and the
 * longest message stays within the 38 bytes of chapter 3. */
static void test_table8_every_message_round_trips(void **state)
{
	(void)state;
	for (unsigned src = 0; src <= 12; src += 6) {
		struct ntrace_format f = { .xlen = 64, .src_bits = (uint8_t)src };

		for (unsigned t = 0; t < 64; t++) {
			const struct ntrace_msg_layout *l = ntrace_msg_layout(t);
			struct ntrace_msg m, back;
			struct ntrace_error err;
			uint8_t out[64];
			int n;

			if (!l)
				continue;
			for (unsigned big = 0; big < 2; big++) {
				size_t pos = 0;

				ntrace_msg_init(&m, t);
				if (src)
					ntrace_msg_set(&m, NTRACE_FLD_SRC, (1u << src) - 1);
				for (unsigned k = 0; k < l->nfields; k++) {
					const struct ntrace_field_desc *fd = &l->fields[k];
					uint64_t v = big ? (fd->bits >= 64 ? ~0ull : (1ull << fd->bits) - 1) : 1;

					if (fd->id == NTRACE_FLD_RCODE)
						v = 2;
					if (fd->id == NTRACE_FLD_CDF)
						v = 1;
					ntrace_msg_set(&m, fd->id, v);
				}
				if (big)
					ntrace_msg_set(&m, NTRACE_FLD_TSTAMP, ~0ull);
				n = ntrace_msg_write(&f, &m, out, sizeof(out));
				assert_true(n > 0);
				if (t != NTRACE_TCODE_OWNERSHIP && !src)
					assert_true(n <= NTRACE_MAX_MSG_BYTES);
				assert_int_equal(parse_one(&f, out, (size_t)n, &pos, &back, &err), 1);
				assert_int_equal(back.length, (size_t)n);
				for (unsigned k = 0; k < NTRACE_FLD_COUNT; k++)
					if (ntrace_msg_has(&m, k))
						assert_int_equal(back.val[k], m.val[k]);
				assert_int_equal(back.present, m.present);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table6_example_parses_to_its_fields),
		cmocka_unit_test(test_table6_example_fields_write_the_same_bytes),
		cmocka_unit_test(test_8_2_1_extended_address_decodes_with_msb_extension),
		cmocka_unit_test(test_8_2_1_extended_address_encodes_to_the_spec_bytes),
		cmocka_unit_test(test_8_2_1_full_64bit_address_has_no_extension),
		cmocka_unit_test(test_8_2_1_zero_mdo_prevents_extension),
		cmocka_unit_test(test_8_2_linux_kernel_address_field_sizes),
		cmocka_unit_test(test_8_2_extension_on_xlen32_extends_to_bit31),
		cmocka_unit_test(test_9_3_rcode2_example_pattern_repeated_15_times),
		cmocka_unit_test(test_9_3_rcode2_example_single_pattern),
		cmocka_unit_test(test_table19_hrepeat_only_with_rcode2),
		cmocka_unit_test(test_table5_idle_bytes_between_messages_are_skipped),
		cmocka_unit_test(test_table5_reserved_mseo_10_is_an_error_with_offset),
		cmocka_unit_test(test_table5_message_starts_with_mseo_00),
		cmocka_unit_test(test_chapter3_truncated_message_is_reported),
		cmocka_unit_test(test_chapter3_missing_field_is_reported),
		cmocka_unit_test(test_chapter3_all_zero_input_is_rejected_not_accepted_as_a_field),
		cmocka_unit_test(test_table10_icnt_wider_than_22_bits_is_rejected),
		cmocka_unit_test(test_table10_hist_wider_than_32_bits_is_rejected),
		cmocka_unit_test(test_table8_reserved_and_vendor_tcodes_are_reported),
		cmocka_unit_test(test_table8_field_order_of_every_message),
		cmocka_unit_test(test_table8_every_message_round_trips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

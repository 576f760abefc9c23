// SPDX-License-Identifier: BSD-2-Clause
/*
 * One ELF at two addresses: `--elf FILE@ADDR` (tools/ntrace/loadmap.c).
 * kern.S is linked like Linux's vmlinux (kern.ld: virtual addresses from
 * 0xffffffff80000000, p_paddr from 0) and kern.pcs runs it loaded at
 * 0x80200000: from its load address (the MMU off) to its virtual one,
 * helper() called at both.  The images, the symbols, the disassembly and a
 * decoded trace must cover both mappings, from what the file's program
 * headers say; the load image must be the bytes `objcopy -O binary` makes
 * of it (the Image a loader places).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "test_ntrace_tool.h"

#define KERN_ELF NT_TEST_BUILD "/kern.elf"
#define KERN_BIN NT_TEST_BUILD "/kern.bin"
#define KERN_PCS NT_TEST_DATA "/kern.pcs"
#define LOAD 0x80200000ull
#define VIRT 0xffffffff80000000ull      /* kern.ld's link address */

static struct nt_elf_spec spec_of(const char *arg)
{
	struct nt_elf_spec s;
	struct nt_err err;

	if (nt_elf_spec_parse(arg, &s, &err))
		fail_msg("%s", err.msg);
	return s;
}

static void load_images(struct nt_image_set *set, const char *arg)
{
	struct nt_elf_spec s = spec_of(arg);
	struct nt_err err;

	nt_images_init(set);
	if (nt_images_add_elf_spec(set, &s, &err))
		fail_msg("%s", err.msg);
	nt_elf_spec_free(&s);
}

/* ---- the argument ------------------------------------------------------- */

static void spec_splits_at_the_last_at_sign_before_an_address(void **state)
{
	(void)state;
	struct nt_elf_spec s = spec_of("dir@x/vmlinux@0x80200000");

	assert_string_equal(s.path, "dir@x/vmlinux");
	assert_true(s.has_load);
	assert_int_equal(s.load, 0x80200000);
	nt_elf_spec_free(&s);
	s = spec_of("k.elf@2097152");
	assert_string_equal(s.path, "k.elf");
	assert_int_equal(s.load, 0x200000);
	nt_elf_spec_free(&s);
}

static void spec_without_an_address_is_a_plain_path(void **state)
{
	(void)state;
	static const char *const plain[] = { "vmlinux", "v@mlinux", "vmlinux@", "@0x100",
					     "vmlinux@0x80z", "vmlinux@-1" };

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		struct nt_elf_spec s = spec_of(plain[i]);

		assert_string_equal(s.path, plain[i]);
		assert_false(s.has_load);
		nt_elf_spec_free(&s);
	}
}

/* ---- the load map --------------------------------------------------------- */

/* gABI: p_paddr is the segment's physical (load) address; the image placed
 * at ADDR starts with the lowest p_paddr. */
static void load_map_places_each_segment_by_its_p_paddr(void **state)
{
	(void)state;
	struct nt_load_map m;
	struct nt_err err;
	uint64_t at;

	assert_int_equal(nt_load_map_read(KERN_ELF, LOAD, &m, &err), 0);
	assert_int_equal(m.count, 2);          /* code, data */
	assert_true(nt_load_map_find(&m, VIRT, 4, &at));
	assert_int_equal(at, LOAD);
	assert_true(nt_load_map_find(&m, VIRT + 0x1040, 2, &at));       /* virt_entry */
	assert_int_equal(at, LOAD + 0x1040);
	assert_true(nt_load_map_find(&m, VIRT + 0x2000, 8, &at));       /* .data */
	assert_int_equal(at, LOAD + 0x2000);
	/* the end of a segment is an address (size 0), not a byte of it */
	assert_true(nt_load_map_find(&m, VIRT + 0x104c, 0, &at));
	assert_false(nt_load_map_find(&m, VIRT + 0x104c, 1, &at));
	assert_false(nt_load_map_find(&m, VIRT + 0x104a, 4, &at));      /* runs past it */
	assert_false(nt_load_map_find(&m, LOAD, 1, &at));               /* not a virtual address */
	nt_load_map_free(&m);
}

static void load_image_that_wraps_is_an_error(void **state)
{
	(void)state;
	struct nt_load_map m;
	struct nt_err err = { "" };

	assert_int_equal(nt_load_map_read(KERN_ELF, UINT64_MAX - 0x100, &m, &err), -1);
	assert_non_null(strstr(err.msg, "wraps past the end of the address space"));
}

static void elf_with_a_load_image_says_so(void **state)
{
	(void)state;
	uint64_t paddr = 1, vaddr = 1;

	assert_int_equal(nt_elf_load_differs(KERN_ELF, &paddr, &vaddr), 1);
	assert_int_equal(paddr, 0);
	assert_int_equal(vaddr, VIRT);
	/* tiny.elf is linked at its load address */
	assert_int_equal(nt_elf_load_differs(NT_TEST_BUILD "/tiny.elf", &paddr, &vaddr), 0);
}

/* ---- images ----------------------------------------------------------------- */

static void images_hold_the_code_at_both_addresses(void **state)
{
	(void)state;
	struct nt_image_set set;
	uint8_t v[16], l[16];

	load_images(&set, KERN_ELF "@0x80200000");
	assert_int_equal(nt_images_read(&set, VIRT, v, sizeof(v)), 0);
	assert_int_equal(nt_images_read(&set, LOAD, l, sizeof(l)), 0);
	assert_memory_equal(v, l, sizeof(v));
	assert_int_equal(nt_images_read(&set, VIRT + 0x1040, v, 8), 0);
	assert_int_equal(nt_images_read(&set, LOAD + 0x1040, l, 8), 0);
	assert_memory_equal(v, l, 8);
	nt_images_free(&set);
	/* without @ADDR, only the virtual addresses */
	load_images(&set, KERN_ELF);
	assert_int_equal(nt_images_read(&set, VIRT, v, 4), 0);
	assert_int_equal(nt_images_read(&set, LOAD, l, 4), -1);
	nt_images_free(&set);
}

/* The load image is the file objcopy -O binary writes: every executable
 * byte at the same offset from ADDR. */
static void load_image_is_the_objcopy_binary(void **state)
{
	(void)state;
	struct nt_image_set set;
	uint8_t *bin, got[2];
	size_t len, compared = 0;
	struct nt_err err;

	load_images(&set, KERN_ELF "@0x80200000");
	if (nt_read_file(KERN_BIN, &bin, &len, &err))
		fail_msg("%s", err.msg);
	for (size_t off = 0; off + 2 <= len; off += 2) {
		if (nt_images_read(&set, LOAD + off, got, 2))
			continue;                       /* not code (padding, data) */
		assert_memory_equal(got, bin + off, 2);
		compared++;
	}
	assert_int_equal(compared, (0x20 + 0x4 + 0xc) / 2);      /* every code halfword */
	free(bin);
	nt_images_free(&set);
}

static void load_image_over_the_virtual_one_is_an_error(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_elf_spec s = spec_of(KERN_ELF "@0xffffffff80000010");
	struct nt_err err = { "" };

	nt_images_init(&set);
	assert_int_equal(nt_images_add_elf_spec(&set, &s, &err), -1);
	assert_non_null(strstr(err.msg, "kern.elf@0xffffffff80000010: bytes"));
	assert_non_null(strstr(err.msg, "overlap"));
	nt_elf_spec_free(&s);
	nt_images_free(&set);
}

/* ---- symbols and disassembly ---------------------------------------------- */

static void symbols_name_both_addresses(void **state)
{
	(void)state;
	struct nt_symtab t;
	struct nt_elf_spec s = spec_of(KERN_ELF "@0x80200000");
	struct nt_err err;
	char line[128];

	nt_symtab_init(&t);
	if (nt_symtab_add_elf_spec(&t, &s, &err))
		fail_msg("%s", err.msg);
	nt_listing_format_line(line, sizeof(line), LOAD + 0x1002, 0, &t);
	assert_string_equal(line, "80201002  helper+0x2\n");
	nt_listing_format_line(line, sizeof(line), VIRT + 0x1002, 0, &t);
	assert_string_equal(line, "ffffffff80001002  helper+0x2\n");
	nt_listing_format_line(line, sizeof(line), LOAD + 0x16, 0, &t);
	assert_string_equal(line, "80200016  _start+0x16\n");
	/* each copy keeps to its own section: past .head.text's end, nothing */
	assert_null(nt_symtab_lookup(&t, LOAD + 0x20));
	nt_elf_spec_free(&s);
	nt_symtab_free(&t);
}

/* At one address: a function before a label, a global before a local, then
 * a symbol with a size before one without (a linker-script alias). */
static void sized_symbol_wins_over_its_alias(void **state)
{
	(void)state;
	struct nt_symtab t;
	struct nt_err err;
	const struct nt_symbol *s;

	nt_symtab_init(&t);
	if (nt_symtab_add_elf(&t, KERN_ELF, &err))
		fail_msg("%s", err.msg);
	s = nt_symtab_lookup(&t, VIRT + 0x1002);
	assert_non_null(s);
	assert_string_equal(s->name, "helper");
	/* both are global labels: the profile keeps them as functions */
	nt_symtab_keep_functions(&t);
	assert_string_equal(nt_symtab_lookup(&t, VIRT + 0x1000)->name, "helper");
	nt_symtab_free(&t);
}

/* objdump prints the virtual addresses; at the load address the targets it
 * names with a symbol are load addresses too (pc-relative code). */
static void disassembly_at_the_load_address_names_load_targets(void **state)
{
	(void)state;
	struct nt_disasm d;
	struct nt_elf_spec s = spec_of(KERN_ELF "@0x80200000");
	struct nt_err err;

	nt_disasm_init(&d);
	if (nt_disasm_add_elf_spec(&d, NULL, &s, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(nt_disasm_lookup(&d, VIRT + 0xc), "bnez    a0,ffffffff80000002 <_start+0x2>");
	assert_string_equal(nt_disasm_lookup(&d, LOAD + 0xc), "bnez    a0,80200002 <_start+0x2>");
	assert_string_equal(nt_disasm_lookup(&d, LOAD + 0x6), "jalr    -2(ra) # 80201000 <helper>");
	assert_string_equal(nt_disasm_lookup(&d, LOAD + 0x1048), "j       8020104a <done>");
	assert_string_equal(nt_disasm_lookup(&d, LOAD), "li      a0,2");
	nt_elf_spec_free(&s);
	nt_disasm_free(&d);
}

/* ---- a trace through both ------------------------------------------------------ */

static void encode(struct nt_image_set *set, const struct nt_tool_config *cfg, struct nt_buf *nex)
{
	struct nt_trace in;
	struct nt_err err;
	char *text = slurp_text(KERN_PCS);

	nt_trace_init(&in);
	if (nt_pcs_parse(text, strlen(text), KERN_PCS, &in, &err) ||
	    nt_encode_trace(set, &in, cfg, KERN_PCS, nex, NULL, &err))
		fail_msg("%s", err.msg);
	nt_trace_free(&in);
	free(text);
}

static char *decode_text(struct nt_image_set *set, const struct nt_tool_config *cfg,
			 const struct nt_buf *nex, long *errors)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	FILE *diag = fopen("/dev/null", "w");
	struct nt_err err;

	assert_non_null(f);
	*errors = nt_decode_to_text(cfg, set, nex->data, nex->len, f, NULL, "t.nex", diag, &err);
	fclose(f);
	fclose(diag);
	return out;
}

/* kern.pcs without its comment lines: the canonical text decode writes. */
static char *kern_pcs_canonical(void)
{
	char *text = slurp_text(KERN_PCS), *o = text;

	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (*p != '#') {
			memmove(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = '\0';
	return text;
}

static void trace_decodes_through_both_mappings(void **state)
{
	(void)state;
	struct nt_image_set set;
	struct nt_tool_config cfg;
	struct nt_buf nex = { 0 };
	long errors;

	nt_tool_config_default(&cfg);
	load_images(&set, KERN_ELF "@0x80200000");
	encode(&set, &cfg, &nex);
	char *got = decode_text(&set, &cfg, &nex, &errors), *want = kern_pcs_canonical();

	assert_int_equal(errors, 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	nt_buf_free(&nex);
	nt_images_free(&set);
}

/* What worked before: the raw Image at its load address besides the ELF. */
static void raw_image_decodes_the_same_trace(void **state)
{
	(void)state;
	struct nt_image_set both, raw;
	struct nt_tool_config cfg;
	struct nt_buf nex = { 0 };
	struct nt_err err;
	long errors;

	nt_tool_config_default(&cfg);
	load_images(&both, KERN_ELF "@0x80200000");
	encode(&both, &cfg, &nex);
	load_images(&raw, KERN_ELF);
	if (nt_images_add_raw(&raw, KERN_BIN "@0x80200000", &err))
		fail_msg("%s", err.msg);
	char *got = decode_text(&raw, &cfg, &nex, &errors), *want = kern_pcs_canonical();

	assert_int_equal(errors, 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	nt_buf_free(&nex);
	nt_images_free(&raw);
	nt_images_free(&both);
}

/* Without the load image the part before the jump cannot be followed. */
static void trace_without_the_load_image_has_errors(void **state)
{
	(void)state;
	struct nt_image_set both, virt;
	struct nt_tool_config cfg;
	struct nt_buf nex = { 0 };
	long errors;

	nt_tool_config_default(&cfg);
	load_images(&both, KERN_ELF "@0x80200000");
	encode(&both, &cfg, &nex);
	load_images(&virt, KERN_ELF);
	free(decode_text(&virt, &cfg, &nex, &errors));
	assert_true(errors > 0);
	nt_buf_free(&nex);
	nt_images_free(&virt);
	nt_images_free(&both);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_splits_at_the_last_at_sign_before_an_address),
		cmocka_unit_test(spec_without_an_address_is_a_plain_path),
		cmocka_unit_test(load_map_places_each_segment_by_its_p_paddr),
		cmocka_unit_test(load_image_that_wraps_is_an_error),
		cmocka_unit_test(elf_with_a_load_image_says_so),
		cmocka_unit_test(images_hold_the_code_at_both_addresses),
		cmocka_unit_test(load_image_is_the_objcopy_binary),
		cmocka_unit_test(load_image_over_the_virtual_one_is_an_error),
		cmocka_unit_test(symbols_name_both_addresses),
		cmocka_unit_test(sized_symbol_wins_over_its_alias),
		cmocka_unit_test(disassembly_at_the_load_address_names_load_targets),
		cmocka_unit_test(trace_decodes_through_both_mappings),
		cmocka_unit_test(raw_image_decodes_the_same_trace),
		cmocka_unit_test(trace_without_the_load_image_has_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for lib/fdt: the reader against dtc-compiled and QEMU-dumped
 * blobs, every rule of the flattened format (devicetree spec v0.4 ch. 5)
 * against hand-built malformed blobs, truncation and corruption sweeps under
 * ASan, and the in-place writer checked with the reader and with dtc.
 *
 * Blobs under test are copied into heap buffers of exactly the size the
 * library is told, so ASan reports any read or write past them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "lib/fdt/fdt.h"

#ifndef FDT_TEST_DIR
#error "FDT_TEST_DIR: directory of the test blobs (build/host/fdt)"
#endif

/* ---- Helpers ------------------------------------------------------------- */

struct blob {
	uint8_t *data;
	size_t size;
};

static char *test_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", FDT_TEST_DIR, name);
	return path;
}

static struct blob read_file(const char *name)
{
	struct blob b = { 0 };
	FILE *f = fopen(test_path(name), "rb");
	long n;

	if (!f)
		fail_msg("cannot open %s", test_path(name));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.size = (size_t)n;
	b.data = malloc(b.size ? b.size : 1);
	assert_non_null(b.data);
	assert_int_equal(fread(b.data, 1, b.size, f), b.size);
	fclose(f);
	return b;
}

/* A test blob, trimmed to its header's totalsize (QEMU dumps a 1 MiB
 * buffer) and copied to a heap buffer of `extra` more bytes. */
static struct blob load_blob(const char *name, size_t extra)
{
	struct blob file = read_file(name), b;

	assert_true(file.size >= 8);
	b.size = fdt_be32(file.data + FDT_HDR_TOTALSIZE);
	assert_true(b.size <= file.size);
	b.data = calloc(1, b.size + extra);
	assert_non_null(b.data);
	memcpy(b.data, file.data, b.size);
	free(file.data);
	return b;
}

static void write_file(const char *name, const void *data, size_t size)
{
	FILE *f = fopen(test_path(name), "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	fclose(f);
}

static int run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* dtc must decompile `name` without error. */
static void assert_dtc_accepts(const char *name, const char *dts_out)
{
	char cmd[1400];

	snprintf(cmd, sizeof(cmd), "dtc -q -I dtb -O dts -o %s/%s %s/%s",
		 FDT_TEST_DIR, dts_out, FDT_TEST_DIR, name);
	assert_int_equal(run(cmd), 0);
}

static void assert_files_equal(const char *a, const char *b)
{
	struct blob x = read_file(a), y = read_file(b);

	if (x.size != y.size || memcmp(x.data, y.data, x.size) != 0)
		fail_msg("%s and %s differ (diff them to see how)", test_path(a), test_path(b));
	free(x.data);
	free(y.data);
}

static int path(const struct fdt *fdt, const char *p)
{
	return fdt_path_offset(fdt, p);
}

static void set_hdr(struct blob *b, uint32_t field, uint32_t v)
{
	fdt_put_be32(b->data + field, v);
}

static uint32_t hdr(const struct blob *b, uint32_t field)
{
	return fdt_be32(b->data + field);
}

/* ---- Builder for hand-made (often malformed) blobs ------------------------ */

struct builder {
	uint8_t st[4096];
	size_t st_len;
	char strings[512];
	size_t str_len;
	uint32_t version;
	bool rsv_last;           /* memory reservation block after the strings */
	bool rsv_unterminated;   /* one entry and no {0, 0} terminator */
};

static void b_init(struct builder *b)
{
	memset(b, 0, sizeof(*b));
	b->version = 17;
}

static void b_u32(struct builder *b, uint32_t v)
{
	assert_true(b->st_len + 4 <= sizeof(b->st));
	fdt_put_be32(b->st + b->st_len, v);
	b->st_len += 4;
}

static void b_bytes(struct builder *b, const void *p, size_t n)
{
	assert_true(b->st_len + n + 3 <= sizeof(b->st));
	memcpy(b->st + b->st_len, p, n);
	b->st_len += n;
	while (b->st_len % 4)
		b->st[b->st_len++] = 0;
}

static void b_begin(struct builder *b, const char *name)
{
	b_u32(b, FDT_BEGIN_NODE);
	b_bytes(b, name, strlen(name) + 1);
}

static void b_end(struct builder *b)
{
	b_u32(b, FDT_END_NODE);
}

static uint32_t b_string(struct builder *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off = (uint32_t)b->str_len;

	assert_true(b->str_len + n <= sizeof(b->strings));
	memcpy(b->strings + b->str_len, s, n);
	b->str_len += n;
	return off;
}

static void b_prop_raw(struct builder *b, uint32_t nameoff, const void *val, uint32_t len)
{
	b_u32(b, FDT_PROP);
	b_u32(b, len);
	b_u32(b, nameoff);
	b_bytes(b, val, len);
}

static void b_prop(struct builder *b, const char *name, const void *val, uint32_t len)
{
	b_prop_raw(b, b_string(b, name), val, len);
}

/* Assemble into a heap blob: header, reservation map, structure, strings
 * (or the reservation map last). */
static struct blob b_finish(struct builder *b, size_t extra)
{
	size_t rsv_size = b->rsv_unterminated ? 16 : 16 + 16;
	size_t hdr_size = 40, st_off, str_off, rsv_off, total;
	struct blob out;

	if (b->rsv_last) {
		st_off = hdr_size;
		str_off = st_off + b->st_len;
		rsv_off = (str_off + b->str_len + 7) & ~(size_t)7;
		total = rsv_off + rsv_size;
	} else {
		rsv_off = hdr_size;
		st_off = rsv_off + rsv_size;
		str_off = st_off + b->st_len;
		total = str_off + b->str_len;
	}
	out.size = total;
	out.data = calloc(1, total + extra);
	assert_non_null(out.data);
	fdt_put_be32(out.data + FDT_HDR_MAGIC, FDT_MAGIC);
	fdt_put_be32(out.data + FDT_HDR_TOTALSIZE, (uint32_t)total);
	fdt_put_be32(out.data + FDT_HDR_OFF_DT_STRUCT, (uint32_t)st_off);
	fdt_put_be32(out.data + FDT_HDR_OFF_DT_STRINGS, (uint32_t)str_off);
	fdt_put_be32(out.data + FDT_HDR_OFF_MEM_RSVMAP, (uint32_t)rsv_off);
	fdt_put_be32(out.data + FDT_HDR_VERSION, b->version);
	fdt_put_be32(out.data + FDT_HDR_LAST_COMP_VERSION, 16);
	fdt_put_be32(out.data + FDT_HDR_SIZE_DT_STRINGS, (uint32_t)b->str_len);
	fdt_put_be32(out.data + FDT_HDR_SIZE_DT_STRUCT, (uint32_t)b->st_len);
	/* One reservation {0, 0x1000} (address 0 does not end the map), then
	 * the terminator if wanted. */
	fdt_put_be32(out.data + rsv_off + 12, 0x1000);
	memcpy(out.data + st_off, b->st, b->st_len);
	memcpy(out.data + str_off, b->strings, b->str_len);
	return out;
}

/* A minimal valid tree: / { a = <1>; child { }; }; */
static void b_minimal(struct builder *b)
{
	static const uint8_t one[4] = { 0, 0, 0, 1 };

	b_init(b);
	b_begin(b, "");
	b_prop(b, "a", one, 4);
	b_begin(b, "child");
	b_end(b);
	b_end(b);
	b_u32(b, FDT_END);
}

static int open_built(struct builder *b)
{
	struct blob blob = b_finish(b, 0);
	struct fdt fdt;
	int err = fdt_open(&fdt, blob.data, blob.size);

	free(blob.data);
	return err;
}

/* ---- Header (spec 5.2) ----------------------------------------------------- */

static void header_magic_must_be_d00dfeed(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	struct fdt fdt;

	assert_int_equal(fdt_open(&fdt, b.data, b.size), 0);
	set_hdr(&b, FDT_HDR_MAGIC, 0xedfe0dd0);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADMAGIC);
	/* A failed open leaves a view every function rejects. */
	assert_int_equal(fdt_root(&fdt), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_path_offset(&fdt, "/"), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 0, NULL, NULL), -FDT_ERR_BADOFFSET);
	free(b.data);
}

static void header_version_16_and_17_readable(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	struct fdt fdt;

	set_hdr(&b, FDT_HDR_VERSION, 15);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADVERSION);
	set_hdr(&b, FDT_HDR_VERSION, 1);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADVERSION);
	/* A newer version that stays backwards compatible with 17 is read. */
	set_hdr(&b, FDT_HDR_VERSION, 18);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), 0);
	set_hdr(&b, FDT_HDR_VERSION, 17);
	set_hdr(&b, FDT_HDR_LAST_COMP_VERSION, 18);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADVERSION);
	free(b.data);
}

static void header_v16_struct_size_found_by_walking(void **state)
{
	(void)state;
	struct blob b16 = load_blob("basic-v16.dtb", 0), b17 = load_blob("basic.dtb", 0);
	struct fdt f16, f17;
	int len16, len17;

	assert_int_equal(hdr(&b16, FDT_HDR_VERSION), 16);
	assert_int_equal(fdt_open(&f16, b16.data, b16.size), 0);
	assert_int_equal(fdt_open(&f17, b17.data, b17.size), 0);
	assert_int_equal(f16.size_struct, f17.size_struct);
	assert_int_equal(path(&f16, "/soc/serial@10000000"), path(&f17, "/soc/serial@10000000"));
	assert_string_equal(fdt_getprop(&f16, path(&f16, "/chosen"), "stdout-path", &len16),
			    fdt_getprop(&f17, path(&f17, "/chosen"), "stdout-path", &len17));
	assert_int_equal(len16, len17);
	free(b16.data);
	free(b17.data);
}

static void header_totalsize_bounded_by_max_size(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	struct fdt fdt;

	assert_int_equal(fdt_open(&fdt, b.data, b.size - 1), -FDT_ERR_TRUNCATED);
	assert_int_equal(fdt_open(&fdt, b.data, 3), -FDT_ERR_TRUNCATED);
	assert_int_equal(fdt_open(&fdt, NULL, 100), -FDT_ERR_TRUNCATED);
	set_hdr(&b, FDT_HDR_TOTALSIZE, 20);   /* smaller than a header */
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_TRUNCATED);
	/* Offsets are ints: no blob over 2 GiB, whatever memory holds it. */
	set_hdr(&b, FDT_HDR_TOTALSIZE, 0x80000000u);
	assert_int_equal(fdt_open(&fdt, b.data, SIZE_MAX), -FDT_ERR_BADLAYOUT);
	free(b.data);
}

static void header_blocks_inside_totalsize(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	uint32_t total = (uint32_t)b.size;
	uint32_t st = hdr(&b, FDT_HDR_OFF_DT_STRUCT), str = hdr(&b, FDT_HDR_OFF_DT_STRINGS);
	uint32_t str_size = hdr(&b, FDT_HDR_SIZE_DT_STRINGS);
	/* Each block made to end just past totalsize, or to wrap around 2^32. */
	const struct {
		uint32_t field, value;
	} bad[] = {
		{ FDT_HDR_OFF_DT_STRUCT, (total + 3) & ~3u },
		{ FDT_HDR_OFF_DT_STRUCT, 0xfffffff0u },
		{ FDT_HDR_SIZE_DT_STRUCT, total - st + 4 },
		{ FDT_HDR_SIZE_DT_STRUCT, 0xfffffff0u },
		{ FDT_HDR_OFF_DT_STRINGS, total - str_size + 1 },
		{ FDT_HDR_OFF_DT_STRINGS, 0xfffffff0u },
		{ FDT_HDR_SIZE_DT_STRINGS, total - str + 1 },
		{ FDT_HDR_SIZE_DT_STRINGS, 0xfffffff0u },
		{ FDT_HDR_OFF_MEM_RSVMAP, (total + 8) & ~7u },
		{ FDT_HDR_OFF_MEM_RSVMAP, 0xfffffff8u },
	};
	struct fdt fdt;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t saved = hdr(&b, bad[i].field);

		set_hdr(&b, bad[i].field, bad[i].value);
		assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_TRUNCATED);
		set_hdr(&b, bad[i].field, saved);
		assert_int_equal(fdt_open(&fdt, b.data, b.size), 0);
	}
	free(b.data);
}

static void header_blocks_must_not_overlap(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	uint32_t rsv = hdr(&b, FDT_HDR_OFF_MEM_RSVMAP), st = hdr(&b, FDT_HDR_OFF_DT_STRUCT);
	struct fdt fdt;

	/* basic.dtb: header, rsvmap (2 entries + terminator), struct, strings. */
	assert_int_equal(st, rsv + 3 * 16);
	/* Strings block starting inside the structure block. */
	set_hdr(&b, FDT_HDR_OFF_DT_STRINGS, st + 8);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	/* ... and on top of the reservation map. */
	set_hdr(&b, FDT_HDR_OFF_DT_STRINGS, rsv);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	free(b.data);

	/* Structure block starting on the reservation map's terminator. */
	b = load_blob("basic.dtb", 0);
	set_hdr(&b, FDT_HDR_OFF_DT_STRUCT, st - 16);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	free(b.data);

	/* Blocks overlapping the header. */
	b = load_blob("basic.dtb", 0);
	set_hdr(&b, FDT_HDR_OFF_MEM_RSVMAP, 0);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	set_hdr(&b, FDT_HDR_OFF_MEM_RSVMAP, rsv);
	set_hdr(&b, FDT_HDR_OFF_DT_STRINGS, 36);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	free(b.data);
}

static void header_blocks_aligned(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	uint32_t st = hdr(&b, FDT_HDR_OFF_DT_STRUCT), rsv = hdr(&b, FDT_HDR_OFF_MEM_RSVMAP);
	struct fdt fdt;

	set_hdr(&b, FDT_HDR_OFF_DT_STRUCT, st + 2);
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	set_hdr(&b, FDT_HDR_OFF_DT_STRUCT, st);
	set_hdr(&b, FDT_HDR_OFF_MEM_RSVMAP, rsv + 4);   /* 4- but not 8-aligned */
	assert_int_equal(fdt_open(&fdt, b.data, b.size), -FDT_ERR_BADLAYOUT);
	free(b.data);
}

/* ---- Memory reservation block (spec 5.3) ---------------------------------- */

static void rsvmap_entries_until_zero_entry(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	struct fdt fdt;
	uint64_t addr = 0, size = 0;

	assert_int_equal(fdt_open(&fdt, b.data, b.size), 0);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x80000000);
	assert_int_equal(size, 0x20000);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 1, &addr, &size), 0);
	assert_int_equal(addr, 0x87000000);
	assert_int_equal(size, 0x1000);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 2, &addr, &size), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_get_mem_rsv(&fdt, -1, &addr, &size), -FDT_ERR_BADVALUE);
	free(b.data);
}

static void rsvmap_must_be_terminated(void **state)
{
	(void)state;
	struct builder b;

	struct blob blob;
	struct fdt fdt;
	uint64_t addr = 1, size = 0;

	b_minimal(&b);
	b.rsv_last = true;
	blob = b_finish(&b, 0);
	assert_int_equal(fdt_open(&fdt, blob.data, blob.size), 0);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 0, &addr, &size), 0);
	assert_int_equal(addr, 0);
	assert_int_equal(size, 0x1000);
	assert_int_equal(fdt_get_mem_rsv(&fdt, 1, &addr, &size), -FDT_ERR_NOTFOUND);
	free(blob.data);
	b.rsv_unterminated = true;
	assert_int_equal(open_built(&b), -FDT_ERR_TRUNCATED);
}

/* ---- Structure block (spec 5.4) -------------------------------------------- */

static void struct_minimal_tree_accepted(void **state)
{
	(void)state;
	struct builder b;
	struct blob blob;
	struct fdt fdt;
	int child, len;
	uint32_t a;

	b_minimal(&b);
	blob = b_finish(&b, 0);
	assert_int_equal(fdt_open(&fdt, blob.data, blob.size), 0);
	child = fdt_first_child(&fdt, fdt_root(&fdt));
	assert_true(child > 0);
	assert_string_equal(fdt_node_name(&fdt, child, &len), "child");
	assert_int_equal(len, 5);
	assert_int_equal(fdt_prop_u32(&fdt, fdt_root(&fdt), "a", &a), 0);
	assert_int_equal(a, 1);
	free(blob.data);
}

static void struct_nop_tokens_ignored_anywhere(void **state)
{
	(void)state;
	static const uint8_t one[4] = { 0, 0, 0, 1 }, two[4] = { 0, 0, 0, 2 };
	struct builder b;
	struct blob blob;
	struct fdt fdt;
	int root, child, prop;
	const char *name;
	uint32_t v;

	b_init(&b);
	b_u32(&b, FDT_NOP);
	b_begin(&b, "");
	b_u32(&b, FDT_NOP);
	b_prop(&b, "a", one, 4);
	b_u32(&b, FDT_NOP);
	b_prop(&b, "b", two, 4);
	b_u32(&b, FDT_NOP);
	b_begin(&b, "child");
	b_u32(&b, FDT_NOP);
	b_end(&b);
	b_u32(&b, FDT_NOP);
	b_begin(&b, "second");
	b_end(&b);
	b_end(&b);
	b_u32(&b, FDT_NOP);
	b_u32(&b, FDT_END);
	blob = b_finish(&b, 0);
	assert_int_equal(fdt_open(&fdt, blob.data, blob.size), 0);
	root = fdt_root(&fdt);
	assert_int_equal(root, 4);
	prop = fdt_first_prop(&fdt, root);
	fdt_prop_at(&fdt, prop, &name, NULL);
	assert_string_equal(name, "a");
	prop = fdt_next_prop(&fdt, prop);
	fdt_prop_at(&fdt, prop, &name, NULL);
	assert_string_equal(name, "b");
	assert_int_equal(fdt_next_prop(&fdt, prop), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_u32(&fdt, root, "b", &v), 0);
	assert_int_equal(v, 2);
	child = fdt_subnode(&fdt, root, "child");
	assert_true(child > 0);
	assert_int_equal(fdt_next_sibling(&fdt, child), path(&fdt, "/second"));
	assert_int_equal(fdt_first_prop(&fdt, child), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_parent(&fdt, path(&fdt, "/second")), root);
	free(blob.data);
}

static void struct_node_name_must_be_terminated(void **state)
{
	(void)state;
	struct builder b;

	b_init(&b);
	b_u32(&b, FDT_BEGIN_NODE);
	memcpy(b.st + b.st_len, "abcdefgh", 8);   /* no NUL before the end */
	b.st_len += 8;
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_prop_name_offset_inside_strings(void **state)
{
	(void)state;
	static const uint8_t one[4] = { 0, 0, 0, 1 };
	struct builder b;

	b_init(&b);
	b_begin(&b, "");
	b_string(&b, "name");
	b_prop_raw(&b, 5, one, 4);     /* == size_dt_strings */
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);

	b_init(&b);
	b_begin(&b, "");
	b_string(&b, "name");
	b_prop_raw(&b, 0xfffffffcu, one, 4);
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_strings_must_be_terminated(void **state)
{
	(void)state;
	static const uint8_t one[4] = { 0, 0, 0, 1 };
	struct builder b;

	b_init(&b);
	b_begin(&b, "");
	b_prop(&b, "name", one, 4);
	b_end(&b);
	b_u32(&b, FDT_END);
	b.str_len--;   /* drop the NUL of the last (only) string */
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_prop_value_inside_struct_block(void **state)
{
	(void)state;
	static const uint8_t one[4] = { 0, 0, 0, 1 };
	const uint32_t bad_lens[] = { 9, 12, 0x7ffffffc, 0xfffffffdu, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad_lens) / sizeof(bad_lens[0]); i++) {
		struct builder b;

		/* len field claims more than the 4 value bytes + END_NODE + END. */
		b_init(&b);
		b_begin(&b, "");
		b_u32(&b, FDT_PROP);
		b_u32(&b, bad_lens[i]);
		b_u32(&b, b_string(&b, "p"));
		b_bytes(&b, one, 4);
		b_end(&b);
		b_u32(&b, FDT_END);
		assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
	}
	/* A length whose padding wraps 32 bits must not make the value (here
	 * the END_NODE and END tokens) look like the next tokens. */
	for (uint32_t len = 0xfffffffdu; len != 0; len++) {
		struct builder b;

		b_init(&b);
		b_begin(&b, "");
		b_u32(&b, FDT_PROP);
		b_u32(&b, len);
		b_u32(&b, b_string(&b, "p"));
		b_end(&b);
		b_u32(&b, FDT_END);
		assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
	}
}

static void struct_begin_end_balanced(void **state)
{
	(void)state;
	struct builder b;

	/* Root never closed. */
	b_init(&b);
	b_begin(&b, "");
	b_begin(&b, "child");
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);

	/* One END_NODE too many. */
	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);

	/* No root at all. */
	b_init(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_exactly_one_root(void **state)
{
	(void)state;
	struct builder b;

	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_begin(&b, "");
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_props_precede_subnodes(void **state)
{
	(void)state;
	static const uint8_t one[4] = { 0, 0, 0, 1 };
	struct builder b;

	b_init(&b);
	b_begin(&b, "");
	b_begin(&b, "child");
	b_end(&b);
	b_prop(&b, "late", one, 4);
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);

	/* A property outside any node. */
	b_init(&b);
	b_prop(&b, "early", one, 4);
	b_begin(&b, "");
	b_end(&b);
	b_u32(&b, FDT_END);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_end_token_required_and_last(void **state)
{
	(void)state;
	struct builder b;

	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);

	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_u32(&b, FDT_END);
	b_u32(&b, FDT_NOP);   /* anything after FDT_END */
	assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
}

static void struct_unknown_token_rejected(void **state)
{
	(void)state;
	const uint32_t bad[] = { 0, 5, 8, 0x0a, 0x01000000, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct builder b;

		b_init(&b);
		b_begin(&b, "");
		b_u32(&b, bad[i]);
		b_end(&b);
		b_u32(&b, FDT_END);
		assert_int_equal(open_built(&b), -FDT_ERR_BADSTRUCTURE);
	}
}

static void build_nested(struct builder *b, int levels)
{
	b_init(b);
	for (int i = 0; i < levels; i++)
		b_begin(b, i ? "n" : "");
	for (int i = 0; i < levels; i++)
		b_end(b);
	b_u32(b, FDT_END);
}

static void struct_nesting_limited_to_max_depth(void **state)
{
	(void)state;
	struct builder b;
	struct blob blob;
	struct fdt fdt;
	int node, depth = 0, deepest = 0;

	build_nested(&b, FDT_MAX_DEPTH);
	blob = b_finish(&b, 0);
	assert_int_equal(fdt_open(&fdt, blob.data, blob.size), 0);
	for (node = fdt_root(&fdt); node >= 0; node = fdt_next_node(&fdt, node, &depth))
		deepest = depth > deepest ? depth : deepest;
	assert_int_equal(node, -FDT_ERR_NOTFOUND);
	assert_int_equal(deepest, FDT_MAX_DEPTH - 1);   /* root is depth 0 */
	node = path(&fdt, "/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n/n");
	assert_true(node > 0);
	assert_true(fdt_parent(&fdt, node) > 0);
	assert_int_equal(fdt_first_child(&fdt, node), -FDT_ERR_NOTFOUND);
	free(blob.data);

	build_nested(&b, FDT_MAX_DEPTH + 1);
	assert_int_equal(open_built(&b), -FDT_ERR_DEPTH);
}

/* ---- Lookups on basic.dts --------------------------------------------------- */

static struct blob basic;
static struct fdt basic_fdt;

static int basic_setup(void **state)
{
	(void)state;
	basic = load_blob("basic.dtb", 0);
	return fdt_open(&basic_fdt, basic.data, basic.size) ? -1 : 0;
}

static int basic_teardown(void **state)
{
	(void)state;
	free(basic.data);
	return 0;
}

static void assert_node_name(const struct fdt *fdt, int node, const char *want)
{
	int len;
	const char *name = fdt_node_name(fdt, node, &len);

	assert_non_null(name);
	assert_string_equal(name, want);
	assert_int_equal(len, (int)strlen(want));
}

static void path_root_and_absolute_paths(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;

	assert_int_equal(path(f, "/"), 0);
	assert_node_name(f, path(f, "/"), "");
	assert_node_name(f, path(f, "/cpus"), "cpus");
	assert_node_name(f, path(f, "/cpus/cpu@0"), "cpu@0");
	assert_node_name(f, path(f, "/cpus/cpu@3"), "cpu@3");
	assert_node_name(f, path(f, "/soc/serial@10000000"), "serial@10000000");
	assert_node_name(f, path(f, "/cpus/cpu@1/interrupt-controller"), "interrupt-controller");
	assert_node_name(f, path(f, "/soc/bus32@20000000/dev@2000"), "dev@2000");
	/* Repeated and trailing separators are tolerated. */
	assert_int_equal(path(f, "//cpus///cpu@0/"), path(f, "/cpus/cpu@0"));
}

static void path_without_unit_address_matches_unique_node(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;

	assert_node_name(f, path(f, "/memory"), "memory@80000000");
	assert_node_name(f, path(f, "/soc/serial"), "serial@10000000");
	assert_node_name(f, path(f, "/match/solo"), "solo@5");
	/* An exact name wins over "name@unit". */
	assert_node_name(f, path(f, "/match/exact"), "exact");
	assert_node_name(f, path(f, "/match/exact@1"), "exact@1");
	/* Several "name@unit" children: ambiguous. */
	assert_int_equal(path(f, "/match/pair"), -FDT_ERR_NOTFOUND);
	assert_int_equal(path(f, "/cpus/cpu"), -FDT_ERR_NOTFOUND);
	assert_node_name(f, path(f, "/match/pair@3"), "pair@3");
	/* Only whole names or names up to '@' match. */
	assert_int_equal(path(f, "/match/sol"), -FDT_ERR_NOTFOUND);
	assert_int_equal(path(f, "/match/solo@"), -FDT_ERR_NOTFOUND);
	assert_int_equal(path(f, "/match/solo@6"), -FDT_ERR_NOTFOUND);
	assert_int_equal(path(f, "/memory@80000000x"), -FDT_ERR_NOTFOUND);
}

static void path_must_be_absolute(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;

	assert_int_equal(path(f, ""), -FDT_ERR_BADPATH);
	assert_int_equal(path(f, "cpus"), -FDT_ERR_BADPATH);
	assert_int_equal(path(f, NULL), -FDT_ERR_BADPATH);
	assert_int_equal(path(f, "/nonexistent"), -FDT_ERR_NOTFOUND);
	assert_int_equal(path(f, "/cpus/cpu@0/nothing"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_subnode(f, 0, "cpus/cpu@0"), -FDT_ERR_BADPATH);
	assert_int_equal(fdt_subnode(f, 0, ""), -FDT_ERR_BADPATH);
	assert_int_equal(fdt_subnode(f, 0, NULL), -FDT_ERR_BADPATH);
	assert_int_equal(fdt_subnode(f, path(f, "/cpus"), "cpu@2"), path(f, "/cpus/cpu@2"));
}

/* Names in depth-first order with depths, as written in basic.dts. */
static const struct {
	const char *name;
	int depth;
} basic_order[] = {
	{ "", 0 }, { "chosen", 1 }, { "memory@80000000", 1 }, { "cpus", 1 },
	{ "cpu@0", 2 }, { "interrupt-controller", 3 }, { "cpu@1", 2 },
	{ "interrupt-controller", 3 }, { "cpu@2", 2 }, { "cpu@3", 2 },
	{ "soc", 1 }, { "serial@10000000", 2 }, { "interrupt-controller@c000000", 2 },
	{ "virtio_mmio@10001000", 2 }, { "virtio_mmio@10002000", 2 },
	{ "bus32@20000000", 2 }, { "dev@2000", 3 }, { "match", 1 }, { "exact", 2 },
	{ "exact@1", 2 }, { "pair@2", 2 }, { "pair@3", 2 }, { "solo@5", 2 },
	{ "values", 1 },
};

static void walk_depth_first_with_depths(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	size_t i = 0;
	int depth = 0, node;

	for (node = fdt_root(f); node >= 0; node = fdt_next_node(f, node, &depth), i++) {
		assert_true(i < sizeof(basic_order) / sizeof(basic_order[0]));
		assert_node_name(f, node, basic_order[i].name);
		assert_int_equal(depth, basic_order[i].depth);
	}
	assert_int_equal(node, -FDT_ERR_NOTFOUND);
	assert_int_equal(i, sizeof(basic_order) / sizeof(basic_order[0]));
	/* depth may be NULL. */
	assert_int_equal(fdt_next_node(f, 0, NULL), path(f, "/chosen"));
}

static void walk_children_siblings_parents(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	const char *cpus[] = { "cpu@0", "cpu@1", "cpu@2", "cpu@3" };
	int cpus_node = path(f, "/cpus"), child;
	size_t n = 0;

	for (child = fdt_first_child(f, cpus_node); child >= 0;
	     child = fdt_next_sibling(f, child), n++) {
		assert_true(n < 4);
		assert_node_name(f, child, cpus[n]);
		assert_int_equal(fdt_parent(f, child), cpus_node);
	}
	assert_int_equal(child, -FDT_ERR_NOTFOUND);
	assert_int_equal(n, 4);
	assert_int_equal(fdt_parent(f, cpus_node), 0);
	assert_int_equal(fdt_parent(f, 0), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_next_sibling(f, 0), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_first_child(f, path(f, "/chosen")), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_parent(f, path(f, "/soc/bus32@20000000/dev@2000")),
			 path(f, "/soc/bus32@20000000"));
}

static void props_iterate_in_blob_order(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	const char *want[] = { "empty-list", "single", "list", "u32", "u64", "cells", "status" };
	const int lens[] = { 0, 4, 18, 4, 8, 24, 5 };
	int node = path(f, "/values"), prop;
	size_t n = 0;

	for (prop = fdt_first_prop(f, node); prop >= 0; prop = fdt_next_prop(f, prop), n++) {
		const char *name;
		int len;
		const void *val = fdt_prop_at(f, prop, &name, &len);

		assert_true(n < 7);
		assert_non_null(val);
		assert_string_equal(name, want[n]);
		assert_int_equal(len, lens[n]);
		/* fdt_getprop finds the same value. */
		assert_ptr_equal(fdt_getprop(f, node, name, NULL), val);
	}
	assert_int_equal(prop, -FDT_ERR_NOTFOUND);
	assert_int_equal(n, 7);
	assert_int_equal(fdt_first_prop(f, path(f, "/match/pair@2")) >= 0, 1);
	assert_int_equal(fdt_first_prop(f, path(f, "/match/exact")) >= 0, 1);
}

static void getprop_value_and_length(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int node = path(f, "/values"), len = 0;
	const uint8_t *v;

	v = fdt_getprop(f, node, "u64", &len);
	assert_non_null(v);
	assert_int_equal(len, 8);
	assert_int_equal(fdt_be64(v), 0x123456789abcdef0ull);
	v = fdt_getprop(f, node, "empty-list", &len);
	assert_non_null(v);
	assert_int_equal(len, 0);
	assert_null(fdt_getprop(f, node, "missing", &len));
	assert_int_equal(len, -FDT_ERR_NOTFOUND);
	assert_null(fdt_getprop(f, node, NULL, &len));
	assert_int_equal(len, -FDT_ERR_BADVALUE);
	/* A property of another node is not found here. */
	assert_null(fdt_getprop(f, node, "#address-cells", &len));
	assert_string_equal(fdt_getprop(f, 0, "model", NULL), "tracesbi test");
}

static void prop_u32_needs_four_bytes(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int node = path(f, "/values");
	uint32_t v = 7;

	assert_int_equal(fdt_prop_u32(f, node, "u32", &v), 0);
	assert_int_equal(v, 0xdeadbeef);
	v = 7;
	assert_int_equal(fdt_prop_u32(f, node, "u64", &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_u32(f, node, "empty-list", &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_u32(f, node, "missing", &v), -FDT_ERR_NOTFOUND);
	assert_int_equal(v, 7);   /* untouched on error */
	assert_int_equal(fdt_prop_u32(f, path(f, "/cpus"), "timebase-frequency", &v), 0);
	assert_int_equal(v, 10000000);
}

static void prop_cells_indexed_values(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int node = path(f, "/values");
	uint64_t v = 99;

	assert_int_equal(fdt_prop_cells(f, node, "cells", 0, 1, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(fdt_prop_cells(f, node, "cells", 5, 1, &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(fdt_prop_cells(f, node, "cells", 2, 2, &v), 0);
	assert_int_equal(v, 0x500000006ull);
	assert_int_equal(fdt_prop_cells(f, node, "u64", 0, 2, &v), 0);
	assert_int_equal(v, 0x123456789abcdef0ull);
	v = 99;
	assert_int_equal(fdt_prop_cells(f, node, "cells", 6, 1, &v), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_cells(f, node, "cells", 3, 2, &v), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_cells(f, node, "cells", INT_MAX, 2, &v), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_cells(f, node, "cells", -1, 1, &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_cells(f, node, "cells", 0, 3, &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_cells(f, node, "cells", 0, 0, &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_cells(f, node, "u32", 0, 2, &v), -FDT_ERR_BADVALUE);
	assert_int_equal(v, 99);
}

static void stringlist_entries_by_index(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int node = path(f, "/values"), len;

	assert_string_equal(fdt_stringlist_get(f, node, "list", 0, &len), "alpha");
	assert_int_equal(len, 5);
	assert_string_equal(fdt_stringlist_get(f, node, "list", 1, &len), "beta");
	assert_string_equal(fdt_stringlist_get(f, node, "list", 2, &len), "");
	assert_int_equal(len, 0);
	assert_string_equal(fdt_stringlist_get(f, node, "list", 3, &len), "gamma");
	assert_null(fdt_stringlist_get(f, node, "list", 4, &len));
	assert_int_equal(len, -FDT_ERR_NOTFOUND);
	assert_null(fdt_stringlist_get(f, node, "list", -1, &len));
	assert_int_equal(len, -FDT_ERR_BADVALUE);
	assert_null(fdt_stringlist_get(f, node, "empty-list", 0, &len));
	assert_int_equal(len, -FDT_ERR_NOTFOUND);
	assert_string_equal(fdt_stringlist_get(f, node, "single", 0, NULL), "one");
	assert_true(fdt_stringlist_contains(f, node, "list", "gamma"));
	assert_true(fdt_stringlist_contains(f, node, "list", ""));
	assert_false(fdt_stringlist_contains(f, node, "list", "alph"));
	assert_false(fdt_stringlist_contains(f, node, "list", "alphabeta"));
	assert_false(fdt_stringlist_contains(f, node, "missing", "alpha"));
	assert_false(fdt_stringlist_contains(f, node, "list", NULL));
}

static void compatible_lists_and_search(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int node, n = 0;

	assert_true(fdt_is_compatible(f, path(f, "/cpus/cpu@1"), "riscv"));
	assert_true(fdt_is_compatible(f, path(f, "/cpus/cpu@1"), "sifive,u74"));
	assert_false(fdt_is_compatible(f, path(f, "/cpus/cpu@1"), "sifive"));
	assert_true(fdt_is_compatible(f, 0, "riscv-virtio"));
	assert_false(fdt_is_compatible(f, path(f, "/chosen"), "riscv"));
	for (node = fdt_find_compatible(f, -1, "riscv"); node >= 0;
	     node = fdt_find_compatible(f, node, "riscv"), n++)
		assert_int_equal(fdt_parent(f, node), path(f, "/cpus"));
	assert_int_equal(node, -FDT_ERR_NOTFOUND);
	assert_int_equal(n, 4);
	/* The root itself is searched when starting from -1. */
	assert_int_equal(fdt_find_compatible(f, -1, "tracesbi,test-board"), 0);
	assert_int_equal(fdt_find_compatible(f, -1, "riscv,plic0"),
			 path(f, "/soc/interrupt-controller@c000000"));
	assert_int_equal(fdt_find_compatible(f, -1, "no,such"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_find_compatible(f, -7, "riscv"), -FDT_ERR_BADOFFSET);
}

static void phandles_resolve_to_nodes(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int plic = path(f, "/soc/interrupt-controller@c000000");
	uint32_t ph = 0;
	int len, intc;
	const uint8_t *ext;

	assert_int_equal(fdt_prop_u32(f, path(f, "/soc/serial@10000000"),
				      "interrupt-parent", &ph), 0);
	assert_int_not_equal(ph, 0);
	assert_int_equal(fdt_get_phandle(f, plic), ph);
	assert_int_equal(fdt_find_phandle(f, ph), plic);
	/* interrupts-extended = <&intc0 11>, <&intc0 9>, <&intc1 11>, <&intc1 9> */
	ext = fdt_getprop(f, plic, "interrupts-extended", &len);
	assert_int_equal(len, 32);
	intc = fdt_find_phandle(f, fdt_be32(ext));
	assert_int_equal(intc, path(f, "/cpus/cpu@0/interrupt-controller"));
	intc = fdt_find_phandle(f, fdt_be32(ext + 16));
	assert_int_equal(intc, path(f, "/cpus/cpu@1/interrupt-controller"));
	assert_int_equal(fdt_get_phandle(f, path(f, "/cpus")), 0);
	assert_int_equal(fdt_find_phandle(f, 0), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_find_phandle(f, 0xffffffffu), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_find_phandle(f, 0x7777), -FDT_ERR_NOTFOUND);
}

static void status_okay_ok_or_absent_is_enabled(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;

	assert_true(fdt_node_is_enabled(f, path(f, "/cpus/cpu@0")));   /* "okay" */
	assert_true(fdt_node_is_enabled(f, path(f, "/cpus/cpu@1")));   /* "ok" */
	assert_false(fdt_node_is_enabled(f, path(f, "/cpus/cpu@2")));  /* "disabled" */
	assert_true(fdt_node_is_enabled(f, path(f, "/cpus/cpu@3")));   /* absent */
	assert_false(fdt_node_is_enabled(f, path(f, "/values")));      /* "fail" */
	assert_false(fdt_node_is_enabled(f, -1));
}

static void cells_default_two_and_one(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;

	assert_int_equal(fdt_address_cells(f, 0), 2);
	assert_int_equal(fdt_size_cells(f, 0), 2);
	assert_int_equal(fdt_address_cells(f, path(f, "/cpus")), 1);
	assert_int_equal(fdt_size_cells(f, path(f, "/cpus")), 0);
	/* Absent: spec 2.3.5 defaults. */
	assert_int_equal(fdt_address_cells(f, path(f, "/chosen")), 2);
	assert_int_equal(fdt_size_cells(f, path(f, "/chosen")), 1);
	assert_int_equal(fdt_address_cells(f, 3), -FDT_ERR_BADOFFSET);
}

static void reg_decoded_with_parent_cells(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	uint64_t addr = 0, size = 0;
	int mem = path(f, "/memory"), dev = path(f, "/soc/bus32/dev@2000");

	/* 2 + 2 cells under the root. */
	assert_int_equal(fdt_get_reg(f, mem, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x80000000);
	assert_int_equal(size, 0x10000000);
	assert_int_equal(fdt_get_reg(f, mem, 1, &addr, &size), 0);
	assert_int_equal(addr, 0x100000000ull);
	assert_int_equal(size, 0x8000000);
	assert_int_equal(fdt_get_reg(f, mem, 2, &addr, &size), -FDT_ERR_NOTFOUND);
	/* 1 + 1 cells. */
	assert_int_equal(fdt_get_reg(f, dev, 1, &addr, &size), 0);
	assert_int_equal(addr, 0x3000);
	assert_int_equal(size, 0x10);
	/* 1 + 0 cells under /cpus: hart IDs. */
	assert_int_equal(fdt_get_reg(f, path(f, "/cpus/cpu@3"), 0, &addr, &size), 0);
	assert_int_equal(addr, 3);
	assert_int_equal(size, 0);
	assert_int_equal(fdt_get_reg(f, path(f, "/cpus/cpu@3"), 0, NULL, NULL), 0);
	assert_int_equal(fdt_get_reg(f, mem, -1, &addr, &size), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_get_reg(f, path(f, "/chosen"), 0, &addr, &size), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_get_reg(f, 0, 0, &addr, &size), -FDT_ERR_NOTFOUND);
}

static void reg_rejects_unsupported_cells(void **state)
{
	(void)state;
	struct blob b = load_blob("odd.dtb", 0);
	struct fdt fdt, *f = &fdt;
	uint64_t addr = 5, size = 5;

	assert_int_equal(fdt_open(f, b.data, b.size), 0);
	assert_int_equal(fdt_get_reg(f, path(f, "/three-cell-addresses/child@0"), 0, &addr, &size),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_address_cells(f, path(f, "/two-cell-address-cells")),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_get_reg(f, path(f, "/two-cell-address-cells/child@0"), 0, &addr, &size),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_address_cells(f, path(f, "/huge-cells")), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_get_reg(f, path(f, "/short-reg/child@0"), 0, &addr, &size),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(addr, 5);
	assert_int_equal(size, 5);
	free(b.data);
}

static void malformed_values_rejected(void **state)
{
	(void)state;
	struct blob b = load_blob("odd.dtb", 0);
	struct fdt fdt, *f = &fdt;
	uint64_t v;
	int len;

	assert_int_equal(fdt_open(f, b.data, b.size), 0);
	assert_null(fdt_stringlist_get(f, 0, "unterminated", 0, &len));
	assert_int_equal(len, -FDT_ERR_BADVALUE);
	assert_false(fdt_stringlist_contains(f, 0, "unterminated", "abc"));
	assert_int_equal(fdt_prop_cells(f, 0, "odd-length", 0, 1, &v), -FDT_ERR_BADVALUE);
	assert_false(fdt_node_is_enabled(f, 0));   /* "okay" without its NUL */
	/* Pre-standard "linux,phandle". */
	assert_int_equal(fdt_get_phandle(f, path(f, "/legacy")), 0x1234);
	assert_int_equal(fdt_find_phandle(f, 0x1234), path(f, "/legacy"));
	free(b.data);
}

/* "phandle" wins over "linux,phandle" only when it is 4 bytes long,
 * wherever each sits among the node's properties. */
static void phandle_standard_name_first_when_valid(void **state)
{
	(void)state;
	static const uint8_t two[2] = { 0, 7 };
	struct blob b = load_blob("basic.dtb", 1024);
	struct fdt_rw rw;
	int a, c, d;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 1024), 0);
	a = fdt_rw_add_subnode(&rw, 0, "short-phandle-first");
	assert_true(a > 0);
	assert_int_equal(fdt_rw_setprop(&rw, a, "phandle", two, sizeof(two)), 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, a, "linux,phandle", 0x4321), 0);
	c = fdt_rw_add_subnode(&rw, 0, "linux-phandle-first");
	assert_true(c > 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, c, "linux,phandle", 0x5555), 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, c, "phandle", 0x6666), 0);
	d = fdt_rw_add_subnode(&rw, 0, "zero-phandle");
	assert_true(d > 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, d, "phandle", 0), 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, d, "linux,phandle", 0x7777), 0);
	a = fdt_path_offset(&rw.fdt, "/short-phandle-first");
	c = fdt_path_offset(&rw.fdt, "/linux-phandle-first");
	d = fdt_path_offset(&rw.fdt, "/zero-phandle");
	assert_int_equal(fdt_get_phandle(&rw.fdt, a), 0x4321);
	assert_int_equal(fdt_get_phandle(&rw.fdt, c), 0x6666);
	/* A valid "phandle" of 0 is still the answer (and never a phandle). */
	assert_int_equal(fdt_get_phandle(&rw.fdt, d), 0);
	assert_int_equal(fdt_find_phandle(&rw.fdt, 0x4321), a);
	assert_int_equal(fdt_find_phandle(&rw.fdt, 0x5555), -FDT_ERR_NOTFOUND);
	free(b.data);
}

/* fdt_stringlist_has on values as fdt_getprop returns them. */
static void stringlist_has_whole_entries_only(void **state)
{
	(void)state;
	static const char list[] = "riscv,plic0\0sifive,plic-1.0.0\0\0riscv";
	int len = (int)sizeof(list);

	assert_true(fdt_stringlist_has(list, len, "riscv,plic0"));
	assert_true(fdt_stringlist_has(list, len, "sifive,plic-1.0.0"));
	assert_true(fdt_stringlist_has(list, len, ""));
	assert_true(fdt_stringlist_has(list, len, "riscv"));
	assert_false(fdt_stringlist_has(list, len, "riscv,plic"));
	assert_false(fdt_stringlist_has(list, len, "sifive"));
	/* Only the first len bytes count; the last must be a NUL. */
	assert_false(fdt_stringlist_has(list, len - 1, "riscv"));
	assert_true(fdt_stringlist_has(list, (int)sizeof("riscv,plic0"), "riscv,plic0"));
	assert_false(fdt_stringlist_has(list, 0, ""));
	assert_false(fdt_stringlist_has(list, -FDT_ERR_NOTFOUND, "riscv"));
	assert_false(fdt_stringlist_has(NULL, 4, "riscv"));
	assert_false(fdt_stringlist_has(list, len, NULL));
}

/* ---- Caller mistakes ---------------------------------------------------------- */

static void bad_node_offsets_rejected(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	int prop = fdt_first_prop(f, path(f, "/values"));
	int end_node = fdt_next_sibling(f, path(f, "/chosen")) - 4;   /* chosen's END_NODE */
	const int bad[] = { -1, -4, INT_MIN, 1, 2, 3, 6, (int)f->size_struct,
			    (int)f->size_struct - 4, (int)f->size_struct + 4, INT_MAX,
			    INT_MAX - 3, prop, end_node };
	uint32_t u = 0;
	uint64_t c = 0;
	int len, depth = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = bad[i];

		assert_int_equal(fdt_next_node(f, n, &depth), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_first_child(f, n), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_next_sibling(f, n), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_parent(f, n), -FDT_ERR_BADOFFSET);
		assert_null(fdt_node_name(f, n, &len));
		assert_int_equal(len, -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_subnode(f, n, "cpus"), -FDT_ERR_BADOFFSET);
		assert_null(fdt_getprop(f, n, "reg", &len));
		assert_int_equal(len, -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_first_prop(f, n), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_prop_u32(f, n, "reg", &u), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_prop_cells(f, n, "reg", 0, 1, &c), -FDT_ERR_BADOFFSET);
		assert_null(fdt_stringlist_get(f, n, "compatible", 0, &len));
		assert_int_equal(len, -FDT_ERR_BADOFFSET);
		assert_false(fdt_is_compatible(f, n, "riscv"));
		assert_int_equal(fdt_address_cells(f, n), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_size_cells(f, n), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_get_reg(f, n, 0, &c, &c), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_get_phandle(f, n), 0);
		assert_false(fdt_node_is_enabled(f, n));
		if (n != -1)
			assert_int_equal(fdt_find_compatible(f, n, "riscv"), -FDT_ERR_BADOFFSET);
	}
}

static void bad_prop_offsets_rejected(void **state)
{
	(void)state;
	const struct fdt *f = &basic_fdt;
	const int bad[] = { -1, 0 /* a node */, 1, 2, (int)f->size_struct, INT_MAX,
			    path(f, "/values") };
	const char *name = "x";
	int len;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(fdt_next_prop(f, bad[i]), -FDT_ERR_BADOFFSET);
		assert_null(fdt_prop_at(f, bad[i], &name, &len));
		assert_null(name);
		assert_int_equal(len, -FDT_ERR_BADOFFSET);
	}
}

/* A property value that looks like a node: only the walk from the root can
 * tell, and must. */
static void lookalike_node_inside_value_not_a_node(void **state)
{
	(void)state;
	struct builder b;
	struct blob blob;
	struct fdt fdt;
	uint8_t fake[16];
	int prop, fake_node;

	fdt_put_be32(fake, FDT_BEGIN_NODE);
	memcpy(fake + 4, "fake", 5);
	fdt_put_be32(fake + 12, FDT_END_NODE);
	b_init(&b);
	b_begin(&b, "");
	b_prop(&b, "trap", fake, sizeof(fake));
	b_end(&b);
	b_u32(&b, FDT_END);
	blob = b_finish(&b, 64);
	assert_int_equal(fdt_open(&fdt, blob.data, blob.size), 0);
	prop = fdt_first_prop(&fdt, 0);
	fake_node = prop + 12;
	assert_string_equal(fdt_node_name(&fdt, fake_node, NULL), "fake");  /* cheap check passes */
	assert_int_equal(fdt_parent(&fdt, fake_node), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_get_reg(&fdt, fake_node, 0, NULL, NULL), -FDT_ERR_BADOFFSET);

	/* The writer must not edit inside the value. */
	{
		struct fdt_rw rw;
		uint8_t *before = malloc(blob.size + 64);

		memcpy(before, blob.data, blob.size + 64);
		assert_int_equal(fdt_rw_open(&rw, blob.data, blob.size + 64), 0);
		assert_int_equal(fdt_rw_setprop_u32(&rw, fake_node, "x", 1), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_rw_add_subnode(&rw, fake_node, "y"), -FDT_ERR_BADOFFSET);
		assert_int_equal(fdt_rw_delprop(&rw, fake_node, "trap"), -FDT_ERR_BADOFFSET);
		assert_memory_equal(before, blob.data, blob.size + 64);
		free(before);
	}
	free(blob.data);
}

static void strerror_names_every_error(void **state)
{
	(void)state;
	for (int e = FDT_ERR_NOTFOUND; e <= FDT_ERR_DEPTH; e++) {
		assert_string_not_equal(fdt_strerror(-e), "unknown error");
		assert_string_equal(fdt_strerror(-e), fdt_strerror(e));
	}
	assert_string_equal(fdt_strerror(FDT_ERR_DEPTH + 1), "unknown error");
	assert_string_equal(fdt_strerror(INT_MIN + 1), "unknown error");
	assert_string_equal(fdt_strerror(INT_MIN), "unknown error");
	assert_string_equal(fdt_strerror(INT_MAX), "unknown error");
}

/* ---- Sweeps: truncation and corruption --------------------------------------- */

static bool in_blob(const struct fdt *f, const void *p, size_t len)
{
	const uint8_t *q = p;

	return q >= f->blob && q <= f->blob + f->totalsize &&
	       len <= (size_t)(f->blob + f->totalsize - q);
}

/* Use every reader function on an opened (maybe corrupted) blob; everything
 * returned must lie inside the blob and every error must be a known code. */
static void exercise_reader(const struct fdt *f)
{
	int depth = 0, node, n = 0;
	uint64_t a, s;

	for (node = fdt_root(f); node >= 0 && n < 10000; node = fdt_next_node(f, node, &depth), n++) {
		int len, prop, err;
		const char *name = fdt_node_name(f, node, &len);

		assert_non_null(name);
		assert_true(in_blob(f, name, (size_t)len + 1));
		assert_true(depth >= 0 && depth < FDT_MAX_DEPTH);
		for (prop = fdt_first_prop(f, node); prop >= 0; prop = fdt_next_prop(f, prop)) {
			const char *pname;
			const void *val = fdt_prop_at(f, prop, &pname, &len);

			assert_non_null(val);
			assert_true(in_blob(f, val, (size_t)len));
			assert_true(in_blob(f, pname, strlen(pname) + 1));
			assert_true((const uint8_t *)pname >= f->blob + f->off_strings);
		}
		assert_true(prop < 0 && -prop <= FDT_ERR_DEPTH);
		for (int i = 0; i < 4; i++) {
			const char *c = fdt_stringlist_get(f, node, "compatible", i, &len);

			if (!c)
				break;
			assert_true(in_blob(f, c, (size_t)len + 1));
		}
		err = fdt_get_reg(f, node, 0, &a, &s);
		assert_true(err <= 0 && -err <= FDT_ERR_DEPTH);
		fdt_node_is_enabled(f, node);
		fdt_get_phandle(f, node);
		if (depth < 2) {
			err = fdt_parent(f, node);
			assert_true(err >= -FDT_ERR_DEPTH);
		}
	}
	assert_true(node < 0 && -node <= FDT_ERR_DEPTH);
	fdt_path_offset(f, "/cpus/cpu@0");
	fdt_path_offset(f, "/memory");
	fdt_path_offset(f, "/soc/serial@10000000/x");
	fdt_find_compatible(f, -1, "riscv");
	fdt_find_phandle(f, 1);
	for (int i = 0; i < 8 && fdt_get_mem_rsv(f, i, &a, &s) == 0; i++)
		;
}

static void truncated_blob_rejected_at_every_length(void **state)
{
	(void)state;
	const char *names[] = { "basic.dtb", "basic-v16.dtb", "qemu-virt.dtb" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct blob b = load_blob(names[k], 0);

		for (size_t len = 0; len < b.size; len++) {
			uint8_t *cut = malloc(len ? len : 1);
			struct fdt fdt;

			memcpy(cut, b.data, len);
			/* totalsize still says the whole blob. */
			assert_int_equal(fdt_open(&fdt, cut, len), -FDT_ERR_TRUNCATED);
			/* totalsize patched to the cut: blocks now end outside. */
			if (len >= 8) {
				fdt_put_be32(cut + FDT_HDR_TOTALSIZE, (uint32_t)len);
				assert_int_equal(fdt_open(&fdt, cut, len), -FDT_ERR_TRUNCATED);
			}
			free(cut);
		}
		free(b.data);
	}
}

/* Truncating the structure block with a consistent header (sizes and the
 * strings block moved up) must be caught by the walk. */
static void truncated_struct_block_rejected(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	uint32_t st = hdr(&b, FDT_HDR_OFF_DT_STRUCT), st_size = hdr(&b, FDT_HDR_SIZE_DT_STRUCT);
	uint32_t str = hdr(&b, FDT_HDR_OFF_DT_STRINGS), str_size = hdr(&b, FDT_HDR_SIZE_DT_STRINGS);

	assert_int_equal(str, st + st_size);
	for (uint32_t cut = 0; cut < st_size; cut += 4) {
		size_t total = st + cut + str_size;
		uint8_t *t = malloc(total);
		struct fdt fdt;
		int err;

		memcpy(t, b.data, st + cut);
		memcpy(t + st + cut, b.data + str, str_size);
		fdt_put_be32(t + FDT_HDR_TOTALSIZE, (uint32_t)total);
		fdt_put_be32(t + FDT_HDR_SIZE_DT_STRUCT, cut);
		fdt_put_be32(t + FDT_HDR_OFF_DT_STRINGS, st + cut);
		err = fdt_open(&fdt, t, total);
		assert_true(err == -FDT_ERR_BADSTRUCTURE);
		free(t);
	}
	free(b.data);
}

static void corrupted_byte_anywhere_never_crashes(void **state)
{
	(void)state;
	const uint8_t values[] = { 0x00, 0x01, 0x02, 0x03, 0x09, 0x7f, 0xff };
	struct blob b = load_blob("basic.dtb", 0);
	size_t opened = 0;

	for (size_t pos = 0; pos < b.size; pos++) {
		for (size_t v = 0; v <= sizeof(values); v++) {
			uint8_t *copy;
			struct fdt fdt;
			int err;

			/* Each value, and the byte's complement. */
			uint8_t byte = v < sizeof(values) ? values[v] : (uint8_t)~b.data[pos];

			if (byte == b.data[pos])
				continue;
			copy = malloc(b.size);
			memcpy(copy, b.data, b.size);
			copy[pos] = byte;
			err = fdt_open(&fdt, copy, b.size);
			assert_true(err <= 0 && err >= -FDT_ERR_DEPTH);
			if (err == 0) {
				opened++;
				exercise_reader(&fdt);
			}
			free(copy);
		}
	}
	/* Flips inside values and names leave a valid blob: those opened, and
	 * were walked. */
	assert_true(opened > b.size);
	free(b.data);
}

static void corrupted_blob_still_safe_to_edit(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	size_t extra = 256;

	for (size_t pos = 0; pos < b.size; pos++) {
		uint8_t *buf = calloc(1, b.size + extra);
		struct fdt_rw rw;
		struct fdt check;

		memcpy(buf, b.data, b.size);
		buf[pos] ^= 0xff;
		if (fdt_rw_open(&rw, buf, b.size + extra) == 0) {
			int root = fdt_root(&rw.fdt);
			int node = fdt_rw_add_subnode(&rw, root, "added@1");

			if (node >= 0) {
				assert_int_equal(fdt_rw_setprop_u32(&rw, node, "v", 5), 0);
				assert_int_equal(fdt_rw_setprop_string(&rw, root, "model", "m"), 0);
			}
			/* Whatever happened, the buffer holds a valid blob. */
			assert_int_equal(fdt_open(&check, buf, b.size + extra), 0);
		}
		free(buf);
	}
	free(b.data);
}

/* fdt_chosen_bootarg: a key counts only at the start of a word. */
static void chosen_bootarg_finds_word_keys(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	struct fdt_rw rw;
	int chosen;

	b.data = realloc(b.data, b.size + 256);
	assert_non_null(b.data);
	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 256), 0);
	assert_null(fdt_chosen_bootarg(&rw.fdt, "a.b="));   /* no bootargs */
	chosen = fdt_path_offset(&rw.fdt, "/chosen");
	assert_true(chosen > 0);
	assert_int_equal(fdt_rw_setprop_string(&rw, chosen, "bootargs",
					       "xa.b=1 a.b=two c=3"), 0);
	assert_string_equal(fdt_chosen_bootarg(&rw.fdt, "a.b="), "two c=3");
	assert_string_equal(fdt_chosen_bootarg(&rw.fdt, "xa.b="), "1 a.b=two c=3");
	assert_string_equal(fdt_chosen_bootarg(&rw.fdt, "c="), "3");
	assert_null(fdt_chosen_bootarg(&rw.fdt, "b="));
	/* Not NUL-terminated: ignored. */
	assert_int_equal(fdt_rw_setprop(&rw, chosen, "bootargs", "a.b=1", 5), 0);
	assert_null(fdt_chosen_bootarg(&rw.fdt, "a.b="));
	free(b.data);
}

/* ---- QEMU's own device trees ------------------------------------------------ */

static void qemu_virt_dtb_describes_machine(void **state)
{
	(void)state;
	struct blob b = load_blob("qemu-virt.dtb", 0);
	struct fdt fdt, *f = &fdt;
	uint64_t addr, size;
	uint32_t tb;
	int node, n = 0, len;
	const char *stdout_path;

	assert_int_equal(fdt_open(f, b.data, b.size), 0);
	/* -m 256M */
	assert_int_equal(fdt_get_reg(f, path(f, "/memory"), 0, &addr, &size), 0);
	assert_int_equal(addr, 0x80000000);
	assert_int_equal(size, 256u << 20);
	/* -smp 4: cpu@N has hart ID N and a CPU-local interrupt controller. */
	for (node = fdt_find_compatible(f, -1, "riscv"); node >= 0;
	     node = fdt_find_compatible(f, node, "riscv"), n++) {
		char p[32];

		assert_int_equal(fdt_get_reg(f, node, 0, &addr, NULL), 0);
		snprintf(p, sizeof(p), "/cpus/cpu@%d", (int)addr);
		assert_int_equal(path(f, p), node);
		assert_true(fdt_node_is_enabled(f, node));
		assert_true(fdt_is_compatible(f, fdt_subnode(f, node, "interrupt-controller"),
					      "riscv,cpu-intc"));
	}
	assert_int_equal(n, 4);
	assert_int_equal(fdt_prop_u32(f, path(f, "/cpus"), "timebase-frequency", &tb), 0);
	assert_int_equal(tb, 10000000);
	/* The console the firmware will use. */
	stdout_path = fdt_getprop(f, path(f, "/chosen"), "stdout-path", &len);
	assert_non_null(stdout_path);
	node = path(f, stdout_path);
	assert_true(fdt_is_compatible(f, node, "ns16550a"));
	assert_int_equal(fdt_get_reg(f, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x10000000);
	assert_int_equal(size, 0x100);
	/* Eight virtio_mmio@... siblings: no unit-less match. */
	assert_int_equal(path(f, "/soc/virtio_mmio"), -FDT_ERR_NOTFOUND);
	assert_string_equal(fdt_stringlist_get(f, path(f, "/soc/test"), "compatible", 2, NULL),
			    "syscon");
	/* CLINT interrupts-extended: (phandle of a CPU's intc, irq) pairs. */
	node = fdt_find_compatible(f, -1, "riscv,clint0");
	assert_true(node > 0);
	assert_int_equal(fdt_get_reg(f, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x2000000);
	{
		const uint8_t *ext = fdt_getprop(f, node, "interrupts-extended", &len);

		assert_int_equal(len, 4 * 2 * 2 * 4);
		for (int i = 0; i < len / 4; i += 2) {
			int intc = fdt_find_phandle(f, fdt_be32(ext + 4 * i));

			assert_true(intc > 0);
			assert_true(fdt_is_compatible(f, fdt_parent(f, intc), "riscv"));
		}
	}
	free(b.data);
}

static void qemu_virt_aclint_dtb_describes_mswi_mtimer(void **state)
{
	(void)state;
	struct blob b = load_blob("qemu-virt-aclint.dtb", 0);
	struct fdt fdt, *f = &fdt;
	uint64_t addr, size;
	int node;

	assert_int_equal(fdt_open(f, b.data, b.size), 0);
	assert_int_equal(fdt_find_compatible(f, -1, "riscv,clint0"), -FDT_ERR_NOTFOUND);
	node = fdt_find_compatible(f, -1, "riscv,aclint-mswi");
	assert_true(node > 0);
	assert_int_equal(fdt_get_reg(f, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x2000000);
	assert_int_equal(size, 0x4000);
	node = fdt_find_compatible(f, -1, "riscv,aclint-mtimer");
	assert_true(node > 0);
	/* reg = <mtime>, <mtimecmp array> */
	assert_int_equal(fdt_get_reg(f, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x200bff8);
	assert_int_equal(size, 0x4008);   /* as QEMU 7.2 writes it */
	assert_int_equal(fdt_get_reg(f, node, 1, &addr, &size), 0);
	assert_int_equal(addr, 0x2004000);
	assert_int_equal(size, 0x7ff8);
	assert_int_equal(fdt_get_reg(f, node, 2, &addr, &size), -FDT_ERR_NOTFOUND);
	free(b.data);
}

/* ---- Writer ----------------------------------------------------------------------- */

/* What the firmware does: add /reserved-memory/mmode_resv@80000000, creating
 * /reserved-memory when missing, plus a /chosen property. */
static void add_firmware_reservation(struct fdt_rw *rw)
{
	int root = fdt_root(&rw->fdt), resv, node;
	int chosen = fdt_path_offset(&rw->fdt, "/chosen");

	assert_true(chosen > 0);
	assert_int_equal(fdt_rw_setprop_string(rw, chosen, "bootargs", "console=ttyS0"), 0);
	assert_int_equal(fdt_path_offset(&rw->fdt, "/reserved-memory"), -FDT_ERR_NOTFOUND);
	resv = fdt_rw_add_subnode(rw, root, "reserved-memory");
	assert_true(resv > 0);
	assert_int_equal(fdt_rw_setprop_u32(rw, resv, "#address-cells", 2), 0);
	assert_int_equal(fdt_rw_setprop_u32(rw, resv, "#size-cells", 2), 0);
	assert_int_equal(fdt_rw_setprop(rw, resv, "ranges", NULL, 0), 0);
	node = fdt_rw_add_subnode(rw, resv, "mmode_resv@80000000");
	assert_true(node > 0);
	assert_int_equal(fdt_rw_setprop_reg(rw, node, 0x80000000, 0x40000), 0);
	assert_int_equal(fdt_rw_setprop(rw, node, "no-map", NULL, 0), 0);
}

/* The writer keeps its view up to date without re-validating: after its
 * edits it must be exactly what fdt_open makes of the blob. */
static void assert_view_is_reopened(const struct fdt_rw *rw)
{
	struct fdt again;

	assert_int_equal(fdt_open(&again, rw->buf, rw->capacity), 0);
	assert_ptr_equal(again.blob, rw->fdt.blob);
	assert_int_equal(again.totalsize, rw->fdt.totalsize);
	assert_int_equal(again.off_struct, rw->fdt.off_struct);
	assert_int_equal(again.size_struct, rw->fdt.size_struct);
	assert_int_equal(again.off_strings, rw->fdt.off_strings);
	assert_int_equal(again.size_strings, rw->fdt.size_strings);
	assert_int_equal(again.strings_terminated, rw->fdt.strings_terminated);
	assert_int_equal(again.off_rsvmap, rw->fdt.off_rsvmap);
}

static void writer_output_matches_dtc(const char *in, const char *expected_dts)
{
	char out_dtb[128], out_dts[128];
	struct blob b = load_blob(in, 4096);
	struct fdt_rw rw;
	struct fdt check;
	uint64_t addr, size;
	int node;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 4096), 0);
	add_firmware_reservation(&rw);
	assert_view_is_reopened(&rw);
	/* The reader sees the edit through the view and through a fresh open. */
	assert_int_equal(fdt_open(&check, b.data, rw.fdt.totalsize), 0);
	node = fdt_path_offset(&check, "/reserved-memory/mmode_resv");
	assert_int_equal(fdt_get_reg(&check, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x80000000);
	assert_int_equal(size, 0x40000);
	assert_non_null(fdt_getprop(&check, node, "no-map", NULL));
	assert_int_equal(fdt_path_offset(&rw.fdt, "/reserved-memory/mmode_resv"), node);
	/* Memory reservations survive. */
	assert_int_equal(fdt_get_mem_rsv(&check, 0, &addr, &size) == 0,
			 strcmp(in, "basic.dtb") == 0);

	snprintf(out_dtb, sizeof(out_dtb), "writer-%s", in);
	snprintf(out_dts, sizeof(out_dts), "writer-%s.dts", in);
	write_file(out_dtb, b.data, rw.fdt.totalsize);
	assert_dtc_accepts(out_dtb, out_dts);
	assert_files_equal(out_dts, expected_dts);
	free(b.data);
}

/* One edit of a scripted sequence, on nodes named by path (so that a
 * fresh writer can find them again). */
struct scripted_edit {
	const char *node, *subnode, *prop;
	uint32_t value;
	bool del;
};

static void apply_edit(struct fdt_rw *rw, const struct scripted_edit *e)
{
	int node = fdt_path_offset(&rw->fdt, e->node);

	assert_true(node >= 0);
	if (e->subnode)
		assert_true(fdt_rw_add_subnode(rw, node, e->subnode) > 0);
	else if (e->del)
		assert_int_equal(fdt_rw_delprop(rw, node, e->prop), 0);
	else
		assert_int_equal(fdt_rw_setprop_u32(rw, node, e->prop, e->value), 0);
}

/*
 * The writer remembers the nodes it checked and moves their offsets with
 * every edit (insertions before, after and inside them, removals): a
 * sequence of edits through one writer makes the same bytes as the same
 * edits each through a freshly opened writer.  (Built with
 * FDT_RW_CHECK_KNOWN, every remembered answer is also checked against the
 * walk.)
 */
static void writer_remembered_nodes_follow_edits(void **state)
{
	(void)state;
	static const struct scripted_edit edits[] = {
		{ "/cpus", "cpu@7", NULL, 0, false },
		{ "/cpus/cpu@7", NULL, "reg", 7, false },
		{ "/chosen", NULL, "first", 1, false },
		{ "/cpus/cpu@7", NULL, "second", 2, false },
		{ "/", "tail", NULL, 0, false },
		{ "/tail", NULL, "t", 3, false },
		{ "/chosen", NULL, "first", 4, true },
		{ "/cpus/cpu@7", NULL, "reg", 8, false },
		{ "/cpus", NULL, "grown", 5, false },
		{ "/tail", "inner", NULL, 0, false },
		{ "/tail/inner", NULL, "x", 6, false },
		{ "/cpus/cpu@7", NULL, "second", 0, true },
		{ "/tail", NULL, "t", 9, false },
		{ "/", NULL, "root-prop", 10, false },
		{ "/tail/inner", NULL, "y", 11, false },
		{ "/cpus/cpu@7", NULL, "reg", 12, false },
		{ "/", "tail2", NULL, 0, false },
		{ "/tail2", NULL, "z", 13, false },
		{ "/tail/inner", NULL, "x", 14, false },
		{ "/cpus", NULL, "grown", 15, true },
	};
	struct blob one = load_blob("basic.dtb", 2048), fresh = load_blob("basic.dtb", 2048);
	struct fdt_rw rw, each;
	size_t i;

	assert_int_equal(fdt_rw_open(&rw, one.data, one.size + 2048), 0);
	for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		apply_edit(&rw, &edits[i]);
		assert_int_equal(fdt_rw_open(&each, fresh.data, fresh.size + 2048), 0);
		apply_edit(&each, &edits[i]);
		assert_int_equal(rw.fdt.totalsize, each.fdt.totalsize);
		assert_memory_equal(one.data, fresh.data, one.size + 2048);
	}
	assert_view_is_reopened(&rw);
	free(one.data);
	free(fresh.data);
}

static void writer_adds_reserved_memory_node_dtc_equal(void **state)
{
	(void)state;
	writer_output_matches_dtc("basic.dtb", "basic-resv.dts");
}

static void writer_adds_reserved_memory_to_qemu_dtb(void **state)
{
	(void)state;
	writer_output_matches_dtc("qemu-virt.dtb", "qemu-virt-resv.dts");
}

static void writer_existing_subnode_returned(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 64);
	uint8_t *before = malloc(b.size + 64);
	struct fdt_rw rw;

	memcpy(before, b.data, b.size + 64);
	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 64), 0);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, "cpus"), fdt_path_offset(&rw.fdt, "/cpus"));
	assert_int_equal(fdt_rw_add_subnode(&rw, fdt_path_offset(&rw.fdt, "/match"), "exact@1"),
			 fdt_path_offset(&rw.fdt, "/match/exact@1"));
	assert_memory_equal(before, b.data, b.size + 64);
	/* Exact names only: "memory" is new although /memory resolves. */
	assert_true(fdt_rw_add_subnode(&rw, 0, "memory") > 0);
	assert_int_equal(fdt_path_offset(&rw.fdt, "/memory"), fdt_subnode(&rw.fdt, 0, "memory"));
	free(before);
	free(b.data);
}

static void writer_new_prop_name_reuses_strings(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 256);
	struct fdt_rw rw;
	uint32_t strings_size, v;
	int node;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 256), 0);
	node = fdt_path_offset(&rw.fdt, "/match/pair@2");
	strings_size = rw.fdt.size_strings;
	/* An existing name and the tail of one ("#size-cells"). */
	assert_int_equal(fdt_rw_setprop_string(&rw, node, "compatible", "x,y"), 0);
	assert_int_equal(fdt_rw_setprop_u32(&rw, node, "size-cells", 3), 0);
	assert_int_equal(rw.fdt.size_strings, strings_size);
	/* A new name is appended. */
	assert_int_equal(fdt_rw_setprop_u32(&rw, node, "brand-new", 4), 0);
	assert_int_equal(rw.fdt.size_strings, strings_size + sizeof("brand-new"));
	assert_string_equal((const char *)rw.fdt.blob + rw.fdt.off_strings + strings_size,
			    "brand-new");
	node = fdt_path_offset(&rw.fdt, "/match/pair@2");
	assert_true(fdt_is_compatible(&rw.fdt, node, "x,y"));
	assert_int_equal(fdt_prop_u32(&rw.fdt, node, "size-cells", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(fdt_prop_u32(&rw.fdt, node, "brand-new", &v), 0);
	assert_int_equal(v, 4);
	/* Header consistent: strings block still ends the blob. */
	assert_int_equal(rw.fdt.off_strings, rw.fdt.off_struct + rw.fdt.size_struct);
	assert_int_equal(rw.fdt.totalsize, rw.fdt.off_strings + rw.fdt.size_strings);
	assert_int_equal(hdr(&b, FDT_HDR_TOTALSIZE), rw.fdt.totalsize);
	free(b.data);
}

/* Every property of `node` but `skip`, as name=value text, to compare. */
static void props_signature(const struct fdt *f, int node, const char *skip,
			    char *out, size_t cap)
{
	size_t used = 0;

	out[0] = '\0';
	for (int p = fdt_first_prop(f, node); p >= 0; p = fdt_next_prop(f, p)) {
		const char *name;
		int len;
		const uint8_t *v = fdt_prop_at(f, p, &name, &len);

		if (strcmp(name, skip) == 0)
			continue;
		used += (size_t)snprintf(out + used, cap - used, "%s=", name);
		for (int i = 0; i < len && used + 3 < cap; i++)
			used += (size_t)snprintf(out + used, cap - used, "%02x", v[i]);
		used += (size_t)snprintf(out + used, cap - used, ";");
		assert_true(used < cap);
	}
}

/* Values are padded with zero bytes to the next token (spec 5.4.1). */
static void assert_value_padding_zero(const struct fdt *f, int node, const char *name)
{
	int len;
	const uint8_t *v = fdt_getprop(f, node, name, &len);

	assert_non_null(v);
	for (int i = len; i % 4; i++)
		assert_int_equal(v[i], 0);
}

static void writer_replaces_value_any_size(void **state)
{
	(void)state;
	const char *values[] = { "a", "abcdefg", "abcd", "", "a much longer string than before",
				 "abc", "xyz" };
	struct blob b = load_blob("basic.dtb", 256);
	char before[2048], after[2048];
	struct fdt_rw rw;
	int len;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 256), 0);
	props_signature(&rw.fdt, fdt_path_offset(&rw.fdt, "/values"), "single", before,
			sizeof(before));
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		int node = fdt_path_offset(&rw.fdt, "/values");

		assert_int_equal(fdt_rw_setprop_string(&rw, node, "single", values[i]), 0);
		assert_view_is_reopened(&rw);
		node = fdt_path_offset(&rw.fdt, "/values");
		assert_string_equal(fdt_getprop(&rw.fdt, node, "single", &len), values[i]);
		assert_int_equal(len, (int)strlen(values[i]) + 1);
		assert_value_padding_zero(&rw.fdt, node, "single");
		props_signature(&rw.fdt, node, "single", after, sizeof(after));
		assert_string_equal(before, after);
		/* Nodes after the edit are intact. */
		assert_true(fdt_path_offset(&rw.fdt, "/match/solo") > 0);
		assert_int_equal(fdt_find_compatible(&rw.fdt, -1, "test,dev32"),
				 fdt_path_offset(&rw.fdt, "/soc/bus32/dev@2000"));
	}
	write_file("writer-replace.dtb", b.data, rw.fdt.totalsize);
	assert_dtc_accepts("writer-replace.dtb", "writer-replace.dts");
	free(b.data);
}

static void writer_deletes_property(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 0);
	char before[2048], after[2048];
	uint8_t *copy = malloc(b.size);
	struct fdt_rw rw;
	uint32_t struct_size;
	int node, len;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size), 0);
	node = fdt_path_offset(&rw.fdt, "/values");
	props_signature(&rw.fdt, node, "list", before, sizeof(before));
	struct_size = rw.fdt.size_struct;
	assert_int_equal(fdt_rw_delprop(&rw, node, "list"), 0);
	assert_view_is_reopened(&rw);
	assert_int_equal(rw.fdt.size_struct, struct_size - 12 - 20);
	node = fdt_path_offset(&rw.fdt, "/values");
	assert_null(fdt_getprop(&rw.fdt, node, "list", &len));
	assert_int_equal(len, -FDT_ERR_NOTFOUND);
	props_signature(&rw.fdt, node, "list", after, sizeof(after));
	assert_string_equal(before, after);
	/* totalsize kept: the freed bytes become free space at the end. */
	assert_int_equal(rw.fdt.totalsize, b.size);
	memcpy(copy, b.data, b.size);
	assert_int_equal(fdt_rw_delprop(&rw, node, "list"), -FDT_ERR_NOTFOUND);
	assert_memory_equal(copy, b.data, b.size);
	write_file("writer-delete.dtb", b.data, rw.fdt.totalsize);
	assert_dtc_accepts("writer-delete.dtb", "writer-delete.dts");
	free(copy);
	free(b.data);
}

/* Run `edit` with every capacity from the blob's size up: below the room
 * it needs it must fail with NOSPACE and leave the buffer as it was. */
static void nospace_sweep(int (*edit)(struct fdt_rw *rw), uint32_t expect_need)
{
	struct blob b = load_blob("basic.dtb", 0);

	for (uint32_t extra = 0;; extra++) {
		uint8_t *buf = malloc(b.size + extra), *copy = malloc(b.size + extra);
		struct fdt_rw rw;
		struct fdt check;
		int err;

		memcpy(buf, b.data, b.size);
		memset(buf + b.size, 0xa5, extra);
		memcpy(copy, buf, b.size + extra);
		assert_int_equal(fdt_rw_open(&rw, buf, b.size + extra), 0);
		err = edit(&rw);
		if (extra < expect_need) {
			assert_int_equal(err, -FDT_ERR_NOSPACE);
			assert_memory_equal(copy, buf, b.size + extra);
			assert_int_equal(fdt_open(&check, buf, b.size + extra), 0);
		} else {
			assert_true(err >= 0);
			assert_int_equal(fdt_open(&check, buf, b.size + extra), 0);
			assert_int_equal(check.totalsize, b.size + expect_need);
		}
		free(buf);
		free(copy);
		if (extra == expect_need)
			break;
	}
	free(b.data);
}

static int edit_add_node(struct fdt_rw *rw)
{
	return fdt_rw_add_subnode(rw, 0, "new-node");   /* 4 + 12 + 4 */
}

static int edit_add_prop_new_name(struct fdt_rw *rw)
{
	/* 12 + 8 in the structure block, "new-prop\0" in the strings block. */
	static const uint8_t v[5] = { 1, 2, 3, 4, 5 };

	return fdt_rw_setprop(rw, fdt_path_offset(&rw->fdt, "/chosen"), "new-prop", v, 5);
}

static int edit_grow_value(struct fdt_rw *rw)
{
	/* "one\0" (4) becomes 9 bytes, padded to 12. */
	return fdt_rw_setprop_string(rw, fdt_path_offset(&rw->fdt, "/values"), "single", "ninebyte");
}

static void writer_nospace_leaves_blob_unchanged(void **state)
{
	(void)state;
	nospace_sweep(edit_add_node, 20);
	nospace_sweep(edit_add_prop_new_name, 20 + 9);
	nospace_sweep(edit_grow_value, 8);
}

static void writer_uses_free_space_inside_totalsize(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 64);
	struct fdt_rw rw;
	uint32_t total = (uint32_t)b.size + 64;

	/* 64 bytes of padding after the strings block, as dtc -p makes. */
	set_hdr(&b, FDT_HDR_TOTALSIZE, total);
	assert_int_equal(fdt_rw_open(&rw, b.data, total), 0);
	assert_true(fdt_rw_add_subnode(&rw, 0, "fits") > 0);
	assert_int_equal(rw.fdt.totalsize, total);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, "does-not-fit-anymore-at-all-no-no-no-no-no"),
			 -FDT_ERR_NOSPACE);
	write_file("writer-padded.dtb", b.data, total);
	assert_dtc_accepts("writer-padded.dtb", "writer-padded.dts");
	free(b.data);
}

static void writer_rejects_bad_arguments(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 256);
	uint8_t *copy = malloc(b.size + 256);
	struct fdt_rw rw;
	char name_in_buf[8];

	memcpy(copy, b.data, b.size + 256);
	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 256), 0);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, ""), -FDT_ERR_BADPATH);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, "a/b"), -FDT_ERR_BADPATH);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, NULL), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_add_subnode(&rw, 5, "x"), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_rw_setprop(&rw, 0, "p", "v", -1), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop(&rw, 0, "p", NULL, 4), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop(&rw, 0, "", "v", 2), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop(&rw, 0, NULL, "v", 2), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop(&rw, -4, "p", "v", 2), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_rw_setprop_string(&rw, 0, "p", NULL), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_delprop(&rw, 7, "model"), -FDT_ERR_BADOFFSET);
	/* Sources inside the buffer would move under the edit. */
	assert_int_equal(fdt_rw_setprop(&rw, 0, "p", b.data + 100, 8), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop(&rw, 0, fdt_node_name(&rw.fdt, fdt_path_offset(&rw.fdt,
					"/cpus"), NULL), "v", 2), -FDT_ERR_BADVALUE);
	memcpy(name_in_buf, "in-buf", 7);
	memcpy(b.data + b.size + 100, name_in_buf, 7);
	assert_int_equal(fdt_rw_add_subnode(&rw, 0, (char *)b.data + b.size + 100),
			 -FDT_ERR_BADVALUE);
	memset(b.data + b.size + 100, 0, 7);
	/* setprop_reg: values must fit the parent's cells. */
	assert_int_equal(fdt_rw_setprop_reg(&rw, fdt_path_offset(&rw.fdt, "/soc/bus32/dev@2000"),
					    0x100000000ull, 1), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_rw_setprop_reg(&rw, fdt_path_offset(&rw.fdt, "/cpus/cpu@0"), 0, 1),
			 -FDT_ERR_BADVALUE);
	assert_memory_equal(copy, b.data, b.size + 256);
	free(copy);
	free(b.data);
}

static void writer_reg_uses_parent_cells(void **state)
{
	(void)state;
	struct blob b = load_blob("basic.dtb", 256);
	struct fdt_rw rw;
	uint64_t addr, size;
	int node, len;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 256), 0);
	node = fdt_path_offset(&rw.fdt, "/soc/bus32/dev@2000");
	assert_int_equal(fdt_rw_setprop_reg(&rw, node, 0x4000, 0x20), 0);
	node = fdt_path_offset(&rw.fdt, "/soc/bus32/dev@2000");
	assert_non_null(fdt_getprop(&rw.fdt, node, "reg", &len));
	assert_int_equal(len, 8);
	assert_int_equal(fdt_get_reg(&rw.fdt, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 0x4000);
	assert_int_equal(size, 0x20);
	node = fdt_path_offset(&rw.fdt, "/cpus/cpu@2");
	assert_int_equal(fdt_rw_setprop_reg(&rw, node, 7, 0), 0);
	assert_non_null(fdt_getprop(&rw.fdt, node, "reg", &len));
	assert_int_equal(len, 4);
	assert_int_equal(fdt_get_reg(&rw.fdt, node, 0, &addr, &size), 0);
	assert_int_equal(addr, 7);
	free(b.data);
}

static void writer_needs_v17_and_standard_layout(void **state)
{
	(void)state;
	struct blob b = load_blob("basic-v16.dtb", 64);
	struct fdt_rw rw;
	struct builder bl;
	struct blob built;

	assert_int_equal(fdt_rw_open(&rw, b.data, b.size + 64), -FDT_ERR_BADVERSION);
	free(b.data);
	b_minimal(&bl);
	bl.rsv_last = true;
	built = b_finish(&bl, 64);
	assert_int_equal(fdt_rw_open(&rw, built.data, built.size + 64), -FDT_ERR_BADLAYOUT);
	free(built.data);
}

static void writer_keeps_nesting_within_max_depth(void **state)
{
	(void)state;
	struct builder bl;
	struct blob blob;
	struct fdt_rw rw;
	int deepest = 0, depth = 0, node, parent;

	build_nested(&bl, FDT_MAX_DEPTH);
	blob = b_finish(&bl, 128);
	assert_int_equal(fdt_rw_open(&rw, blob.data, blob.size + 128), 0);
	for (node = 0; node >= 0; node = fdt_next_node(&rw.fdt, node, &depth))
		if (depth == FDT_MAX_DEPTH - 1)
			deepest = node;
	assert_int_equal(fdt_rw_add_subnode(&rw, deepest, "too-deep"), -FDT_ERR_DEPTH);
	parent = fdt_parent(&rw.fdt, deepest);
	assert_true(fdt_rw_add_subnode(&rw, parent, "fits") > 0);
	free(blob.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_magic_must_be_d00dfeed),
		cmocka_unit_test(header_version_16_and_17_readable),
		cmocka_unit_test(header_v16_struct_size_found_by_walking),
		cmocka_unit_test(header_totalsize_bounded_by_max_size),
		cmocka_unit_test(header_blocks_inside_totalsize),
		cmocka_unit_test(header_blocks_must_not_overlap),
		cmocka_unit_test(header_blocks_aligned),
		cmocka_unit_test(rsvmap_entries_until_zero_entry),
		cmocka_unit_test(rsvmap_must_be_terminated),
		cmocka_unit_test(struct_minimal_tree_accepted),
		cmocka_unit_test(struct_nop_tokens_ignored_anywhere),
		cmocka_unit_test(struct_node_name_must_be_terminated),
		cmocka_unit_test(struct_prop_name_offset_inside_strings),
		cmocka_unit_test(struct_strings_must_be_terminated),
		cmocka_unit_test(struct_prop_value_inside_struct_block),
		cmocka_unit_test(struct_begin_end_balanced),
		cmocka_unit_test(struct_exactly_one_root),
		cmocka_unit_test(struct_props_precede_subnodes),
		cmocka_unit_test(struct_end_token_required_and_last),
		cmocka_unit_test(struct_unknown_token_rejected),
		cmocka_unit_test(struct_nesting_limited_to_max_depth),
		cmocka_unit_test(path_root_and_absolute_paths),
		cmocka_unit_test(path_without_unit_address_matches_unique_node),
		cmocka_unit_test(path_must_be_absolute),
		cmocka_unit_test(walk_depth_first_with_depths),
		cmocka_unit_test(walk_children_siblings_parents),
		cmocka_unit_test(props_iterate_in_blob_order),
		cmocka_unit_test(getprop_value_and_length),
		cmocka_unit_test(prop_u32_needs_four_bytes),
		cmocka_unit_test(prop_cells_indexed_values),
		cmocka_unit_test(stringlist_entries_by_index),
		cmocka_unit_test(compatible_lists_and_search),
		cmocka_unit_test(phandles_resolve_to_nodes),
		cmocka_unit_test(status_okay_ok_or_absent_is_enabled),
		cmocka_unit_test(cells_default_two_and_one),
		cmocka_unit_test(reg_decoded_with_parent_cells),
		cmocka_unit_test(reg_rejects_unsupported_cells),
		cmocka_unit_test(malformed_values_rejected),
		cmocka_unit_test(phandle_standard_name_first_when_valid),
		cmocka_unit_test(stringlist_has_whole_entries_only),
		cmocka_unit_test(bad_node_offsets_rejected),
		cmocka_unit_test(bad_prop_offsets_rejected),
		cmocka_unit_test(lookalike_node_inside_value_not_a_node),
		cmocka_unit_test(strerror_names_every_error),
		cmocka_unit_test(truncated_blob_rejected_at_every_length),
		cmocka_unit_test(truncated_struct_block_rejected),
		cmocka_unit_test(corrupted_byte_anywhere_never_crashes),
		cmocka_unit_test(corrupted_blob_still_safe_to_edit),
		cmocka_unit_test(chosen_bootarg_finds_word_keys),
		cmocka_unit_test(qemu_virt_dtb_describes_machine),
		cmocka_unit_test(qemu_virt_aclint_dtb_describes_mswi_mtimer),
		cmocka_unit_test(writer_adds_reserved_memory_node_dtc_equal),
		cmocka_unit_test(writer_adds_reserved_memory_to_qemu_dtb),
		cmocka_unit_test(writer_existing_subnode_returned),
		cmocka_unit_test(writer_remembered_nodes_follow_edits),
		cmocka_unit_test(writer_new_prop_name_reuses_strings),
		cmocka_unit_test(writer_replaces_value_any_size),
		cmocka_unit_test(writer_deletes_property),
		cmocka_unit_test(writer_nospace_leaves_blob_unchanged),
		cmocka_unit_test(writer_uses_free_space_inside_totalsize),
		cmocka_unit_test(writer_rejects_bad_arguments),
		cmocka_unit_test(writer_reg_uses_parent_cells),
		cmocka_unit_test(writer_needs_v17_and_standard_layout),
		cmocka_unit_test(writer_keeps_nesting_within_max_depth),
	};

	return cmocka_run_group_tests(tests, basic_setup, basic_teardown);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for lib/fdt: the input is a blob.  It is opened from a
 * heap copy of exactly its size (ASan catches any read past it); when it
 * opens, every reader function runs over the whole tree, caller offsets
 * taken from the input are tried, and the writer adds the firmware's
 * /reserved-memory node, after which the blob must still open.
 * Built by mk/70-ntrace-tests.mk (suite fuzz); seeds: the .dtb test blobs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fdt/fdt.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static int known_error(int err)
{
	return err < 0 && -err >= FDT_ERR_NOTFOUND && -err <= FDT_ERR_DEPTH;
}

static int inside(const struct fdt *f, const void *p, size_t len)
{
	const uint8_t *q = p;

	return q >= f->blob && q <= f->blob + f->totalsize &&
	       len <= (size_t)(f->blob + f->totalsize - q);
}

static void walk_tree(const struct fdt *f)
{
	int node, depth = 0;
	uint64_t a, s;

	for (node = fdt_root(f); node >= 0; node = fdt_next_node(f, node, &depth)) {
		int len, prop;
		const char *name = fdt_node_name(f, node, &len);

		CHECK(name && inside(f, name, (size_t)len + 1));
		for (prop = fdt_first_prop(f, node); prop >= 0; prop = fdt_next_prop(f, prop)) {
			const char *pname;
			const void *v = fdt_prop_at(f, prop, &pname, &len);

			CHECK(v && inside(f, v, (size_t)len) && inside(f, pname, strlen(pname) + 1));
		}
		CHECK(prop == -FDT_ERR_NOTFOUND);
		for (int i = 0; i < 4; i++) {
			const char *c = fdt_stringlist_get(f, node, "compatible", i, &len);

			if (!c)
				break;
			CHECK(inside(f, c, (size_t)len + 1));
		}
		len = fdt_get_reg(f, node, 0, &a, &s);
		CHECK(len == 0 || known_error(len));
		fdt_node_is_enabled(f, node);
		fdt_get_phandle(f, node);
		len = fdt_parent(f, node);
		CHECK(len >= 0 || len == -FDT_ERR_NOTFOUND);
	}
	CHECK(node == -FDT_ERR_NOTFOUND);
	fdt_path_offset(f, "/cpus/cpu@0");
	fdt_path_offset(f, "/memory");
	fdt_find_compatible(f, -1, "riscv");
	fdt_find_phandle(f, 1);
	for (int i = 0; i < 16 && fdt_get_mem_rsv(f, i, &a, &s) == 0; i++)
		;
}

/* Offsets from the input's first bytes, as a careless caller would pass. */
static void try_caller_offsets(const struct fdt *f, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 4 <= size && i < 64; i += 4) {
		int off = (int)fdt_be32(data + i) % (int)(f->size_struct + 8);
		uint64_t v;
		int len;

		fdt_node_name(f, off, &len);
		fdt_getprop(f, off, "reg", &len);
		fdt_prop_at(f, off, NULL, &len);
		fdt_next_prop(f, off);
		fdt_next_sibling(f, off);
		fdt_get_reg(f, off, 0, &v, &v);
		fdt_prop_cells(f, off, "reg", 1, 2, &v);
	}
}

/* The writer's view after edits is the one fdt_open makes of the blob. */
static bool same_view(const struct fdt *a, const struct fdt *b)
{
	return a->blob == b->blob && a->totalsize == b->totalsize && a->off_struct == b->off_struct &&
	       a->size_struct == b->size_struct && a->off_strings == b->off_strings &&
	       a->size_strings == b->size_strings && a->strings_terminated == b->strings_terminated &&
	       a->off_rsvmap == b->off_rsvmap;
}

static void edit(const uint8_t *data, size_t size)
{
	size_t cap = size + 512;
	uint8_t *buf = calloc(1, cap);
	struct fdt_rw rw;
	struct fdt check;

	memcpy(buf, data, size);
	if (fdt_rw_open(&rw, buf, cap) == 0) {
		int resv = fdt_rw_add_subnode(&rw, fdt_root(&rw.fdt), "reserved-memory");

		if (resv >= 0 && fdt_rw_setprop_u32(&rw, resv, "#address-cells", 2) == 0 &&
		    fdt_rw_setprop_u32(&rw, resv, "#size-cells", 2) == 0) {
			int node = fdt_rw_add_subnode(&rw, resv, "mmode_resv@80000000");

			if (node >= 0) {
				fdt_rw_setprop_reg(&rw, node, 0x80000000, 0x40000);
				fdt_rw_setprop(&rw, node, "no-map", NULL, 0);
			}
		}
		fdt_rw_delprop(&rw, fdt_root(&rw.fdt), "model");
		CHECK(fdt_open(&check, buf, cap) == 0);
		CHECK(same_view(&check, &rw.fdt));
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct fdt f;
	int err;

	memcpy(copy, data, size);
	err = fdt_open(&f, copy, size);
	CHECK(err == 0 || known_error(err));
	if (err == 0) {
		walk_tree(&f);
		try_caller_offsets(&f, data, size);
	}
	free(copy);
	if (err == 0)
		edit(data, size);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the FDT reader (fdt.c) and the in-place writer
 * (fdt_rw.c).  Not part of the public API.
 */
#ifndef LIB_FDT_INTERNAL_H
#define LIB_FDT_INTERNAL_H

#include "fdt.h"

/* One decoded structure-block token (spec 5.4.1). */
struct fdt_token {
	uint32_t tag;
	uint32_t next;      /* offset of the following token */
	uint32_t name_len;  /* FDT_BEGIN_NODE: length of the node name */
	uint32_t prop_len;  /* FDT_PROP: value length */
	uint32_t nameoff;   /* FDT_PROP: name offset in the strings block */
};

/* A FDT_PROP token is followed by {u32 len; u32 nameoff} then the value. */
#define FDT_PROP_HEADER_SIZE (FDT_TOKEN_SIZE + 8u)

uint64_t fdt_align4(uint64_t n);
const uint8_t *fdt_struct_at(const struct fdt *fdt, uint32_t off);
/* The NUL-terminated string at `nameoff` of the strings block, or NULL. */
const char *fdt_string_at(const struct fdt *fdt, uint32_t nameoff);
/* Decode the token at structure offset `off`, bounds-checked. */
int fdt_read_token(const struct fdt *fdt, uint32_t off, struct fdt_token *tok);
/* `node` is an in-range FDT_BEGIN_NODE (cheap check); its token in *tok. */
int fdt_check_node(const struct fdt *fdt, int node, struct fdt_token *tok);
/* From `off`, skip NOPs (and, if `skip_props`, properties); the token found
 * is left in *tok and its offset returned. */
int fdt_skip_to_node_token(const struct fdt *fdt, uint32_t off, bool skip_props,
			   struct fdt_token *tok);
/* Offset of the FDT_END_NODE closing the (checked) node at `node`. */
int fdt_node_end(const struct fdt *fdt, uint32_t node);
/* Walk from the root to `node`: its parent and depth (root = 1). */
int fdt_locate_node(const struct fdt *fdt, int node, int *parent, int *depth);
/* Child named comp[0..comp_len); `loose`: "comp" also matches the only
 * "comp@unit" child. */
int fdt_find_child(const struct fdt *fdt, int parent, const char *comp,
		   size_t comp_len, bool loose);
/* Offset of `node`'s property `name`, its token in *tok. */
int fdt_find_prop(const struct fdt *fdt, int node, const char *name, struct fdt_token *tok);
/* #address-cells and #size-cells for `node`'s "reg" (1..2 and 0..2). */
int fdt_reg_cells(const struct fdt *fdt, int node, int *ac, int *sc);
/* The same for a child of `parent` (no walk to find the parent). */
int fdt_parent_reg_cells(const struct fdt *fdt, int parent, int *ac, int *sc);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bounds-checked flattened device tree (DTB, devicetree spec v0.4 ch. 5)
 * reader and in-place writer.  Freestanding: used by the M-mode firmware and
 * by host tools and tests.  Every read is checked against the blob's
 * validated sizes; a malformed blob yields a negative FDT_ERR_* code, never a
 * read outside [blob, blob + totalsize).
 *
 * Node and property positions are "offsets": byte offsets into the structure
 * block, as in the DTB itself.  Functions returning an offset return a
 * negative FDT_ERR_* code on failure.
 */
#ifndef LIB_FDT_H
#define LIB_FDT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define FDT_MAGIC        0xd00dfeedu
#define FDT_BEGIN_NODE   0x1u
#define FDT_END_NODE     0x2u
#define FDT_PROP         0x3u
#define FDT_NOP          0x4u
#define FDT_END          0x9u

/* Header (spec 5.2): ten big-endian u32 fields; version 16 blobs stop before
 * size_dt_struct.  Byte offsets of the fields: */
#define FDT_HDR_MAGIC             0u
#define FDT_HDR_TOTALSIZE         4u
#define FDT_HDR_OFF_DT_STRUCT     8u
#define FDT_HDR_OFF_DT_STRINGS    12u
#define FDT_HDR_OFF_MEM_RSVMAP    16u
#define FDT_HDR_VERSION           20u
#define FDT_HDR_LAST_COMP_VERSION 24u
#define FDT_HDR_BOOT_CPUID_PHYS   28u
#define FDT_HDR_SIZE_DT_STRINGS   32u
#define FDT_HDR_SIZE_DT_STRUCT    36u
#define FDT_V16_HEADER_SIZE       36u
#define FDT_V17_HEADER_SIZE       40u
#define FDT_FIRST_VERSION         16u   /* oldest version read */
#define FDT_LAST_COMP_VERSION     17u   /* newest last_comp_version accepted */
#define FDT_TOKEN_SIZE            4u    /* tokens are 4-byte aligned (5.4.1) */
#define FDT_RSV_ALIGN             8u    /* memory reservation block (5.3.1) */
#define FDT_RSV_ENTRY_SIZE        16u   /* {u64 address; u64 size} (5.3.2) */
#define FDT_MAX_NCELLS            4u    /* largest #address-cells accepted */

enum fdt_error {
	FDT_ERR_NOTFOUND = 1,   /* node or property does not exist */
	FDT_ERR_BADMAGIC,       /* not a DTB */
	FDT_ERR_BADVERSION,     /* version < 16 or last_comp_version > 17 */
	FDT_ERR_TRUNCATED,      /* a header size/offset points outside the blob */
	FDT_ERR_BADLAYOUT,      /* blocks overlap or are misaligned */
	FDT_ERR_BADSTRUCTURE,   /* bad token, unterminated name, bad nesting */
	FDT_ERR_BADOFFSET,      /* offset does not point at a node/property */
	FDT_ERR_BADVALUE,       /* property has the wrong length for its use */
	FDT_ERR_NOSPACE,        /* writer: buffer too small */
	FDT_ERR_BADPATH,        /* malformed path */
	FDT_ERR_DEPTH,          /* nesting deeper than FDT_MAX_DEPTH */
};

#define FDT_MAX_DEPTH 32

/* A validated, read-only view of a blob. */
struct fdt {
	const uint8_t *blob;
	uint32_t totalsize;
	uint32_t off_struct, size_struct;
	uint32_t off_strings, size_strings;
	/* Bytes of the strings block up to and including its last NUL: any
	 * name offset below this is a terminated string (O(1) name checks). */
	uint32_t strings_terminated;
	uint32_t off_rsvmap;
};

/* Big-endian helpers (DTB cells are big-endian). */
uint32_t fdt_be32(const void *p);
uint64_t fdt_be64(const void *p);
void fdt_put_be32(void *p, uint32_t v);
/* v in `cells` big-endian cells (0, 1 or 2) at p; false, and nothing
 * written, when it does not fit. */
bool fdt_put_cells(void *p, int cells, uint64_t v);

/*
 * Validate the header of the blob at `blob`; `max_size` bounds totalsize (pass
 * the size of the memory known to hold it).  Blobs over 2 GiB are refused
 * (-FDT_ERR_BADLAYOUT): offsets are ints.  Also walks the whole structure
 * block once.  Later walks re-check every token they decode, because node
 * and property offsets from callers are only checked cheaply (in range,
 * aligned, right token type); fdt_parent() and the writers walk from the
 * root and so also reject look-alike tokens inside property values.
 */
int fdt_open(struct fdt *fdt, const void *blob, size_t max_size);
const char *fdt_strerror(int err);   /* err may be negative or positive */

/* Tree walking.  The root node is at offset fdt_root(fdt) (normally 0). */
int fdt_root(const struct fdt *fdt);
/* Next node in depth-first order; *depth is adjusted (root = 0).  Returns
 * -FDT_ERR_NOTFOUND at the end of the tree. */
int fdt_next_node(const struct fdt *fdt, int node, int *depth);
int fdt_first_child(const struct fdt *fdt, int node);
int fdt_next_sibling(const struct fdt *fdt, int node);
int fdt_parent(const struct fdt *fdt, int node);
/* The node's full name, unit address included ("cpu@0"; "" for the root).
 * The name is NUL-terminated; *len (if not NULL) gets its length, or the
 * negative error when NULL is returned. */
const char *fdt_node_name(const struct fdt *fdt, int node, int *len);
/* "/cpus/cpu@0"; a component without '@' also matches "name@addr" only when
 * it is the unique such child (an exact name match wins; several "name@..."
 * children: -FDT_ERR_NOTFOUND).  Paths must start with '/' (no aliases). */
int fdt_path_offset(const struct fdt *fdt, const char *path);
int fdt_subnode(const struct fdt *fdt, int parent, const char *name);

/* Properties.  Pointers returned point into the blob; *len (if not NULL)
 * gets the value length, or the negative error when NULL is returned. */
const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, int *len);
/* Property iteration: first/next return a property offset. */
int fdt_first_prop(const struct fdt *fdt, int node);
int fdt_next_prop(const struct fdt *fdt, int prop);
const void *fdt_prop_at(const struct fdt *fdt, int prop, const char **name, int *len);

/* Typed helpers: 0 or negative FDT_ERR_*.  `*out` untouched on error. */
int fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *out);
/* One cell-sized (1 or 2 cells) value at position `index` of the property. */
int fdt_prop_cells(const struct fdt *fdt, int node, const char *name,
		   int index, int cells, uint64_t *out);
/* A string-list property contains `str` (NUL-terminated entries). */
bool fdt_stringlist_contains(const struct fdt *fdt, int node, const char *name,
			     const char *str);
/* The same for a string-list value already read (`len` bytes at `list`,
 * as fdt_getprop gives them; NULL: false): a node's compatible read once
 * and matched against many strings. */
bool fdt_stringlist_has(const char *list, int len, const char *str);
/* Returns the index-th string in a string list, or NULL. */
const char *fdt_stringlist_get(const struct fdt *fdt, int node, const char *name,
			       int index, int *len);
bool fdt_is_compatible(const struct fdt *fdt, int node, const char *compat);
/* Property `name` is exactly the one string `str` (device_type = "cpu"). */
bool fdt_prop_is_string(const struct fdt *fdt, int node, const char *name, const char *str);
/* Next node after `start` (-1: from the root) whose compatible contains compat. */
int fdt_find_compatible(const struct fdt *fdt, int start, const char *compat);
int fdt_find_phandle(const struct fdt *fdt, uint32_t phandle);
uint32_t fdt_get_phandle(const struct fdt *fdt, int node); /* 0 if none */
/* "status" absent, "okay" or "ok". */
bool fdt_node_is_enabled(const struct fdt *fdt, int node);

/* #address-cells / #size-cells that apply to the children of `node`
 * (defaults 2 and 1 per the spec when absent); negative on a bad value. */
int fdt_address_cells(const struct fdt *fdt, int node);
int fdt_size_cells(const struct fdt *fdt, int node);
/* The index-th (address, size) pair of `node`'s "reg", decoded with the
 * parent's cell counts (no "ranges" translation: QEMU virt is flat).
 * #address-cells must be 1 or 2 and #size-cells 0, 1 or 2 (0 as under
 * /cpus: *size = 0), else -FDT_ERR_BADVALUE.  addr/size may be NULL.
 * -FDT_ERR_NOTFOUND: no "reg", index past its end, or `node` is the root. */
int fdt_get_reg(const struct fdt *fdt, int node, int index, uint64_t *addr, uint64_t *size);
/* The same when the caller already knows `node`'s parent (walking children):
 * saves the walk from the root that finding the parent costs. */
int fdt_get_reg_under(const struct fdt *fdt, int parent, int node, int index,
		      uint64_t *addr, uint64_t *size);

/* Memory reservation block entries (index from 0); -FDT_ERR_NOTFOUND at end. */
int fdt_get_mem_rsv(const struct fdt *fdt, int index, uint64_t *addr, uint64_t *size);

/* The value of the word `key` (e.g. "tracesbi.ctr=") in /chosen/bootargs:
 * the text just after the key, where the key starts the string or follows
 * a space (the value runs to the next space or the end); NULL when there
 * is none or bootargs is not a NUL-terminated string. */
const char *fdt_chosen_bootarg(const struct fdt *fdt, const char *key);

/*
 * In-place writer.  `buf` holds a valid blob at its start and has `capacity`
 * bytes in all; edits grow the blob inside the buffer and keep totalsize
 * up to date.  After a successful edit, `rw->fdt` is a valid reader view
 * again (offsets taken before the edit may be stale).
 */
/* A node the writer has found in the tree (or added), with its parent
 * (-FDT_ERR_NOTFOUND for the root) and depth (root = 1). */
struct fdt_rw_node {
	int node, parent, depth;
};
#define FDT_RW_KNOWN_NODES 8

struct fdt_rw {
	struct fdt fdt;
	uint8_t *buf;
	uint32_t capacity;
	/* The last nodes the writer checked: their offsets follow every edit,
	 * so editing the same node again needs no walk from the root. */
	struct fdt_rw_node known[FDT_RW_KNOWN_NODES];
	uint32_t known_count, known_next;
};

int fdt_rw_open(struct fdt_rw *rw, void *buf, size_t capacity);
/* Add a child node named `name` at the end of `parent`'s children; returns
 * its offset.  An existing child of that exact name: returns its offset.
 * A name that is empty or contains '/': -FDT_ERR_BADPATH.
 * fdt_rw_open needs a version >= 17 blob laid out as dtc and QEMU write it
 * (memory reservation block, then structure block, then strings block);
 * free space is taken from the end of the buffer.  Every edit checks for
 * room first: -FDT_ERR_NOSPACE leaves the blob untouched. */
int fdt_rw_add_subnode(struct fdt_rw *rw, int parent, const char *name);
/* Create or replace a property.  A new property goes after the node's other
 * properties; its name reuses an equal string of the strings block or is
 * appended to it.  `name` and `val` must not point into the buffer
 * (-FDT_ERR_BADVALUE): the edit moves its contents. */
int fdt_rw_setprop(struct fdt_rw *rw, int node, const char *name, const void *val, int len);
int fdt_rw_setprop_u32(struct fdt_rw *rw, int node, const char *name, uint32_t val);
int fdt_rw_setprop_string(struct fdt_rw *rw, int node, const char *name, const char *str);
int fdt_rw_delprop(struct fdt_rw *rw, int node, const char *name);
/* "<prefix><addr in lowercase hex>" into name (room for prefix + 17). */
void fdt_unit_name(char *name, const char *prefix, uint64_t addr);
/* "reg" = <addr size> encoded with the #address-cells/#size-cells of the
 * node's parent (-FDT_ERR_BADVALUE if a value does not fit its cells). */
int fdt_rw_setprop_reg(struct fdt_rw *rw, int node, uint64_t addr, uint64_t size);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * In-place FDT writer.  The blob must be laid out memory reservation block,
 * structure block, strings block (the order dtc and QEMU use), so that:
 *  - growing or shrinking the structure block only moves the strings block,
 *    which has no alignment to keep;
 *  - a new string is appended at the very end of the used part of the blob.
 * Free space is the buffer beyond the end of the strings block.  Each edit
 * computes the room it needs before touching anything and writes whole
 * tokens, so the blob stays valid; the reader view is then updated from the
 * header (refresh_view) instead of re-validating the whole blob, which made
 * most of the firmware's boot time.  The fuzzer (tests/fuzz/fuzz_fdt.c) and
 * tests/host/test_fdt.c check after edits that fdt_open() accepts the blob
 * and gives exactly this view.
 *
 * Every edit first checks that its node really is in the tree, which is a
 * walk from the root.  The writer remembers the last nodes it checked or
 * added (rw->known) and moves their offsets with every edit, so a run of
 * edits on the same nodes walks once.  Built with FDT_RW_CHECK_KNOWN (the
 * fuzzer, the host tests), every remembered node is checked against the
 * walk before each edit.
 */
#include "fdt_internal.h"

#include <stdint.h>
#include <string.h>

static uint8_t *rw_hdr(struct fdt_rw *rw, uint32_t field)
{
	return rw->buf + field;
}

/* End of the used part of the blob: the strings block is the last block. */
static uint32_t used_end(const struct fdt_rw *rw)
{
	return rw->fdt.off_strings + rw->fdt.size_strings;
}

static bool room_for(const struct fdt_rw *rw, uint64_t bytes)
{
	return bytes <= (uint64_t)rw->capacity - used_end(rw);
}

static bool points_into_buffer(const struct fdt_rw *rw, const void *p)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)rw->buf;

	return p && a >= b && a - b < rw->capacity;
}

/* ---- Nodes known to be in the tree ---- */

static void remember_node(struct fdt_rw *rw, int node, int parent, int depth)
{
	uint32_t slot = rw->known_count;

	if (slot < FDT_RW_KNOWN_NODES)
		rw->known_count++;
	else
		slot = rw->known_next++ % FDT_RW_KNOWN_NODES;
	rw->known[slot] = (struct fdt_rw_node){ node, parent, depth };
}

/* Structure offsets from `from` on moved by `delta` bytes.  A node inside
 * a removed range (never one: edits remove values and properties) is
 * forgotten. */
static void move_known_nodes(struct fdt_rw *rw, uint32_t from, int64_t delta, uint32_t removed)
{
	for (uint32_t i = 0; i < rw->known_count; i++) {
		struct fdt_rw_node *k = &rw->known[i];

		if ((uint32_t)k->node >= from - removed && (uint32_t)k->node < from)
			k->node = k->parent = -FDT_ERR_NOTFOUND;
		if (k->node >= 0 && (uint32_t)k->node >= from)
			k->node = (int)((int64_t)k->node + delta);
		if (k->parent >= 0 && (uint32_t)k->parent >= from)
			k->parent = (int)((int64_t)k->parent + delta);
	}
}

#ifdef FDT_RW_CHECK_KNOWN
/* Every remembered node is where the walk finds it, with its parent and
 * depth (tests and the fuzzer: a stale entry stops the program). */
static void check_known_nodes(const struct fdt_rw *rw)
{
	for (uint32_t i = 0; i < rw->known_count; i++) {
		const struct fdt_rw_node *k = &rw->known[i];
		int parent, depth;

		if (k->node >= 0 && (fdt_locate_node(&rw->fdt, k->node, &parent, &depth) ||
				     parent != k->parent || depth != k->depth))
			__builtin_trap();
	}
}
#else
static void check_known_nodes(const struct fdt_rw *rw)
{
	(void)rw;
}
#endif

/* fdt_locate_node, answered from rw->known when the node is there. */
static int locate_real_node(struct fdt_rw *rw, int node, int *parent, int *depth)
{
	int err;

	check_known_nodes(rw);
	for (uint32_t i = 0; node >= 0 && i < rw->known_count; i++) {
		const struct fdt_rw_node *k = &rw->known[i];

		if (k->node != node)
			continue;
		*parent = k->parent;
		*depth = k->depth;
		return 0;
	}
	err = fdt_locate_node(&rw->fdt, node, parent, depth);
	if (!err)
		remember_node(rw, node, *parent, *depth);
	return err;
}

/* Open a gap of n bytes at blob offset `at` (room already checked);
 * totalsize grows only when the used part outgrows it. */
static void insert_gap(struct fdt_rw *rw, uint32_t at, uint32_t n)
{
	uint32_t end = used_end(rw);

	if (at >= rw->fdt.off_struct)
		move_known_nodes(rw, at - rw->fdt.off_struct, n, 0);
	memmove(rw->buf + at + n, rw->buf + at, end - at);
	memset(rw->buf + at, 0, n);
	if (end + n > rw->fdt.totalsize)
		fdt_put_be32(rw_hdr(rw, FDT_HDR_TOTALSIZE), end + n);
}

/* Remove n bytes at blob offset `at`; the freed tail is zeroed and stays
 * inside totalsize as free space. */
static void remove_bytes(struct fdt_rw *rw, uint32_t at, uint32_t n)
{
	uint32_t end = used_end(rw);

	if (at >= rw->fdt.off_struct)
		move_known_nodes(rw, at - rw->fdt.off_struct + n, -(int64_t)n, n);
	memmove(rw->buf + at, rw->buf + at + n, end - at - n);
	memset(rw->buf + end - n, 0, n);
}

/* The structure block grew (delta > 0) or shrank: the strings block, which
 * follows it, moved by the same amount. */
static void note_struct_resized(struct fdt_rw *rw, int64_t delta)
{
	fdt_put_be32(rw_hdr(rw, FDT_HDR_SIZE_DT_STRUCT),
		     (uint32_t)((int64_t)rw->fdt.size_struct + delta));
	fdt_put_be32(rw_hdr(rw, FDT_HDR_OFF_DT_STRINGS),
		     (uint32_t)((int64_t)rw->fdt.off_strings + delta));
}

/* The view after an edit: the block sizes and offsets the edit wrote in the
 * header; strings_terminated as fdt_open computes it (the strings block only
 * ever grows by NUL-terminated names, so this loop stops at once). */
static void refresh_view(struct fdt_rw *rw)
{
	struct fdt *f = &rw->fdt;

	f->totalsize = fdt_be32(rw_hdr(rw, FDT_HDR_TOTALSIZE));
	f->size_struct = fdt_be32(rw_hdr(rw, FDT_HDR_SIZE_DT_STRUCT));
	f->off_strings = fdt_be32(rw_hdr(rw, FDT_HDR_OFF_DT_STRINGS));
	f->size_strings = fdt_be32(rw_hdr(rw, FDT_HDR_SIZE_DT_STRINGS));
	f->strings_terminated = f->size_strings;
	while (f->strings_terminated && rw->buf[f->off_strings + f->strings_terminated - 1] != '\0')
		f->strings_terminated--;
}

int fdt_rw_open(struct fdt_rw *rw, void *buf, size_t capacity)
{
	int err;

	rw->buf = buf;
	rw->capacity = capacity > UINT32_MAX ? UINT32_MAX : (uint32_t)capacity;
	rw->known_count = rw->known_next = 0;
	err = fdt_open(&rw->fdt, rw->buf, rw->capacity);
	if (err)
		return err;
	/* The writer updates size_dt_struct, which v16 headers lack. */
	if (fdt_be32(rw_hdr(rw, FDT_HDR_VERSION)) < 17)
		return -FDT_ERR_BADVERSION;
	/* Blocks are disjoint (fdt_open): ordering the starts is enough. */
	if (rw->fdt.off_rsvmap >= rw->fdt.off_struct ||
	    rw->fdt.off_struct + rw->fdt.size_struct > rw->fdt.off_strings)
		return -FDT_ERR_BADLAYOUT;
	return 0;
}

/* Editing a look-alike node inside a property value would corrupt the
 * blob: writers check that `node` really is in the tree. */
static int check_real_node(struct fdt_rw *rw, int node)
{
	int parent, depth;

	return locate_real_node(rw, node, &parent, &depth);
}

/* Node names: non-empty, no '/' (a path separator), spec 2.2.1. */
static int check_node_name(const struct fdt_rw *rw, const char *name)
{
	if (!name || points_into_buffer(rw, name))
		return -FDT_ERR_BADVALUE;
	if (!*name)
		return -FDT_ERR_BADPATH;
	for (const char *p = name; *p; p++)
		if (*p == '/')
			return -FDT_ERR_BADPATH;
	return 0;
}

/*
 * One walk over the (real) node `parent`: its child named exactly `name`,
 * else -FDT_ERR_NOTFOUND with *end = the offset of its FDT_END_NODE.  The
 * answers of fdt_find_child (exact names) and fdt_node_end in one pass.
 */
static int child_or_end(const struct fdt *fdt, int parent, const char *name, size_t len,
			int *end)
{
	struct fdt_token tok;
	uint32_t off;
	int depth = 0, err;

	for (off = (uint32_t)parent;; off = tok.next) {
		err = fdt_read_token(fdt, off, &tok);
		if (err)
			return err;
		if (tok.tag == FDT_BEGIN_NODE) {
			if (depth == 1 && tok.name_len == len &&
			    memcmp(fdt_struct_at(fdt, off + FDT_TOKEN_SIZE), name, len) == 0)
				return (int)off;
			depth++;
		} else if (tok.tag == FDT_END_NODE && --depth == 0) {
			*end = (int)off;
			return -FDT_ERR_NOTFOUND;
		} else if (tok.tag == FDT_END) {
			return -FDT_ERR_BADSTRUCTURE;
		}
	}
}

int fdt_rw_add_subnode(struct fdt_rw *rw, int parent, const char *name)
{
	int parent_of_parent, depth, end = 0, child;
	uint32_t name_size, need, at;
	int err = check_node_name(rw, name);

	if (err)
		return err;
	err = locate_real_node(rw, parent, &parent_of_parent, &depth);
	if (err)
		return err;
	child = child_or_end(&rw->fdt, parent, name, strlen(name), &end);
	if (child != -FDT_ERR_NOTFOUND)
		return child;
	if (depth >= FDT_MAX_DEPTH)
		return -FDT_ERR_DEPTH;

	/* FDT_BEGIN_NODE, name + NUL padded to 4, FDT_END_NODE. */
	if (strlen(name) >= UINT32_MAX - 8)
		return -FDT_ERR_NOSPACE;
	name_size = (uint32_t)fdt_align4(strlen(name) + 1);
	need = 2 * FDT_TOKEN_SIZE + name_size;
	if (!room_for(rw, need))
		return -FDT_ERR_NOSPACE;
	at = rw->fdt.off_struct + (uint32_t)end;
	insert_gap(rw, at, need);
	fdt_put_be32(rw->buf + at, FDT_BEGIN_NODE);
	memcpy(rw->buf + at + FDT_TOKEN_SIZE, name, strlen(name));
	fdt_put_be32(rw->buf + at + FDT_TOKEN_SIZE + name_size, FDT_END_NODE);
	note_struct_resized(rw, need);
	refresh_view(rw);
	remember_node(rw, end, parent, depth + 1);
	return end;
}

/* Offset in the strings block of a string equal to `name` (possibly the
 * tail of a longer one: "reg" inside "interrupt-reg"), or -1. */
static int64_t find_string(const struct fdt *fdt, const char *name)
{
	uint64_t n = strlen(name) + 1;
	const uint8_t *strings = fdt->blob + fdt->off_strings;

	for (uint64_t i = 0; i + n <= fdt->size_strings; i++)
		if (strings[i] == (uint8_t)name[0] && memcmp(strings + i, name, n) == 0)
			return (int64_t)i;
	return -1;
}

/* Structure offset where a new property of `node` goes: after the node's
 * properties (they precede its children, spec 5.4.2). */
static int new_prop_position(const struct fdt *fdt, int node)
{
	struct fdt_token tok;
	int err = fdt_check_node(fdt, node, &tok);

	return err ? err : fdt_skip_to_node_token(fdt, tok.next, true, &tok);
}

static void write_value(uint8_t *dst, const void *val, uint32_t len)
{
	if (len)
		memcpy(dst, val, len);
	memset(dst + len, 0, (size_t)(fdt_align4(len) - len));
}

static int replace_value(struct fdt_rw *rw, int prop, const struct fdt_token *tok,
			 const void *val, uint32_t len)
{
	uint32_t old_size = (uint32_t)fdt_align4(tok->prop_len);
	uint64_t new_size = fdt_align4(len);
	uint32_t value_at = rw->fdt.off_struct + (uint32_t)prop + FDT_PROP_HEADER_SIZE;

	if (new_size > old_size) {
		if (!room_for(rw, new_size - old_size))
			return -FDT_ERR_NOSPACE;
		insert_gap(rw, value_at + old_size, (uint32_t)(new_size - old_size));
	} else if (new_size < old_size) {
		remove_bytes(rw, value_at + (uint32_t)new_size, old_size - (uint32_t)new_size);
	}
	fdt_put_be32(rw->buf + value_at - 8, len);
	write_value(rw->buf + value_at, val, len);
	note_struct_resized(rw, (int64_t)new_size - old_size);
	refresh_view(rw);
	return 0;
}

static int add_prop(struct fdt_rw *rw, int node, const char *name,
		    const void *val, uint32_t len)
{
	int64_t nameoff = find_string(&rw->fdt, name);
	uint64_t string_size = nameoff < 0 ? strlen(name) + 1 : 0;
	uint64_t prop_size = FDT_PROP_HEADER_SIZE + fdt_align4(len);
	int pos = new_prop_position(&rw->fdt, node);
	uint32_t at;

	if (pos < 0)
		return pos;
	if (!room_for(rw, string_size + prop_size))
		return -FDT_ERR_NOSPACE;
	if (string_size) {
		/* The strings block ends the used area: append there. */
		nameoff = rw->fdt.size_strings;
		insert_gap(rw, used_end(rw), (uint32_t)string_size);
		memcpy(rw->buf + used_end(rw), name, (size_t)string_size);
		fdt_put_be32(rw_hdr(rw, FDT_HDR_SIZE_DT_STRINGS),
			     rw->fdt.size_strings + (uint32_t)string_size);
		refresh_view(rw);
	}
	at = rw->fdt.off_struct + (uint32_t)pos;
	insert_gap(rw, at, (uint32_t)prop_size);
	fdt_put_be32(rw->buf + at, FDT_PROP);
	fdt_put_be32(rw->buf + at + 4, len);
	fdt_put_be32(rw->buf + at + 8, (uint32_t)nameoff);
	write_value(rw->buf + at + FDT_PROP_HEADER_SIZE, val, len);
	note_struct_resized(rw, (int64_t)prop_size);
	refresh_view(rw);
	return 0;
}

int fdt_rw_setprop(struct fdt_rw *rw, int node, const char *name, const void *val, int len)
{
	struct fdt_token tok;
	int prop, err;

	if (!name || !*name || points_into_buffer(rw, name) || len < 0 ||
	    (len > 0 && !val) || points_into_buffer(rw, val))
		return -FDT_ERR_BADVALUE;
	err = check_real_node(rw, node);
	if (err)
		return err;
	prop = fdt_find_prop(&rw->fdt, node, name, &tok);
	if (prop >= 0)
		return replace_value(rw, prop, &tok, val, (uint32_t)len);
	if (prop != -FDT_ERR_NOTFOUND)
		return prop;
	return add_prop(rw, node, name, val, (uint32_t)len);
}

int fdt_rw_setprop_u32(struct fdt_rw *rw, int node, const char *name, uint32_t val)
{
	uint8_t cell[4];

	fdt_put_be32(cell, val);
	return fdt_rw_setprop(rw, node, name, cell, sizeof(cell));
}

int fdt_rw_setprop_string(struct fdt_rw *rw, int node, const char *name, const char *str)
{
	size_t len;

	if (!str)
		return -FDT_ERR_BADVALUE;
	len = strlen(str) + 1;
	if (len > INT32_MAX)
		return -FDT_ERR_NOSPACE;
	return fdt_rw_setprop(rw, node, name, str, (int)len);
}

int fdt_rw_delprop(struct fdt_rw *rw, int node, const char *name)
{
	struct fdt_token tok;
	uint32_t size;
	int prop, err = check_real_node(rw, node);

	if (err)
		return err;
	prop = fdt_find_prop(&rw->fdt, node, name, &tok);
	if (prop < 0)
		return prop;
	size = tok.next - (uint32_t)prop;
	remove_bytes(rw, rw->fdt.off_struct + (uint32_t)prop, size);
	note_struct_resized(rw, -(int64_t)size);
	refresh_view(rw);
	return 0;
}

int fdt_rw_setprop_reg(struct fdt_rw *rw, int node, uint64_t addr, uint64_t size)
{
	uint8_t reg[16];
	int ac, sc, parent, depth;
	int err = locate_real_node(rw, node, &parent, &depth);

	if (err)
		return err;
	if (parent < 0)
		return parent;   /* the root has no "reg" cells (fdt_reg_cells) */
	err = fdt_parent_reg_cells(&rw->fdt, parent, &ac, &sc);
	if (err)
		return err;
	if (!fdt_put_cells(reg, ac, addr) || !fdt_put_cells(reg + 4 * (size_t)ac, sc, size))
		return -FDT_ERR_BADVALUE;
	return fdt_rw_setprop(rw, node, "reg", reg, 4 * (ac + sc));
}

void fdt_unit_name(char *name, const char *prefix, uint64_t addr)
{
	char hex[17];
	int n = 0, len = 0;

	while (prefix[len]) {
		name[len] = prefix[len];
		len++;
	}
	do {
		hex[n++] = "0123456789abcdef"[addr & 15];
		addr >>= 4;
	} while (addr);
	while (n)
		name[len++] = hex[--n];
	name[len] = '\0';
}

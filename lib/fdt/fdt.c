// SPDX-License-Identifier: BSD-2-Clause
/*
 * Flattened devicetree reader (devicetree spec v0.4, chapter 5).
 *
 * fdt_open() validates the header and walks the whole structure block once.
 * Every later walk still decodes tokens through fdt_read_token(), which checks
 * each token against the structure block's bounds again: offsets handed in
 * by callers are only cheaply checked (range, alignment, token type), so a
 * walk may start at a "token" that is really inside a property value.  It
 * can then give a wrong answer or an error, but never read outside the blob.
 */
#include "fdt_internal.h"

#include <string.h>

uint32_t fdt_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

uint64_t fdt_be64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)fdt_be32(b) << 32 | fdt_be32(b + 4);
}

void fdt_put_be32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

bool fdt_put_cells(void *p, int cells, uint64_t v)
{
	uint8_t *b = p;

	if (cells < 2 && (v >> (32 * cells)) != 0)
		return false;
	if (cells == 2)
		fdt_put_be32(b, (uint32_t)(v >> 32));
	if (cells >= 1)
		fdt_put_be32(b + 4 * (size_t)(cells - 1), (uint32_t)v);
	return true;
}

uint64_t fdt_align4(uint64_t n)
{
	return (n + FDT_TOKEN_SIZE - 1) & ~(uint64_t)(FDT_TOKEN_SIZE - 1);
}

typedef uint32_t __attribute__((may_alias)) word_alias;

/*
 * Length of a node name, or -1 when no NUL lies in its first max bytes.  It
 * starts on a token boundary: whole aligned words are tested for a zero
 * byte four bytes at a time (the classic (w - 0x01..) & ~w & 0x80.. test),
 * so walking the tree does not pay a loop iteration per character.  The
 * test flags a zero byte exactly and may flag bytes above it falsely, never
 * below: on a little-endian hart the lowest flagged byte is the NUL.
 */
static int64_t bounded_name_len(const uint8_t *p, uint64_t max)
{
	uint64_t i = 0;

	if (((uintptr_t)p & 3) == 0) {
		for (; i + 4 <= max; i += 4) {
			uint32_t w = *(const word_alias *)(p + i);
			uint32_t zero = (w - 0x01010101u) & ~w & 0x80808080u;

			if (!zero)
				continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			if (zero & 0x80u)
				return (int64_t)i;
			if (zero & 0x8000u)
				return (int64_t)i + 1;
			return (int64_t)i + (zero & 0x800000u ? 2 : 3);
#else
			break;
#endif
		}
	}
	for (; i < max; i++)
		if (p[i] == '\0')
			return (int64_t)i;
	return -1;
}

const char *fdt_strerror(int err)
{
	static const char *const msgs[] = {
		[0] = "no error",
		[FDT_ERR_NOTFOUND] = "node or property not found",
		[FDT_ERR_BADMAGIC] = "bad magic: not a flattened devicetree",
		[FDT_ERR_BADVERSION] = "unsupported devicetree version",
		[FDT_ERR_TRUNCATED] = "header size or offset points outside the blob",
		[FDT_ERR_BADLAYOUT] = "blocks overlap or are misaligned",
		[FDT_ERR_BADSTRUCTURE] = "malformed structure block",
		[FDT_ERR_BADOFFSET] = "offset is not a node or property",
		[FDT_ERR_BADVALUE] = "property value has the wrong size or format",
		[FDT_ERR_NOSPACE] = "not enough space in the buffer",
		[FDT_ERR_BADPATH] = "malformed path or node name",
		[FDT_ERR_DEPTH] = "nodes nested too deeply",
	};

	/* Unsigned negation: INT_MIN has no positive int. */
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (e >= sizeof(msgs) / sizeof(msgs[0]) || !msgs[e])
		return "unknown error";
	return msgs[e];
}

/* ---- Structure block tokens (spec 5.4) ---------------------------------- */


const uint8_t *fdt_struct_at(const struct fdt *fdt, uint32_t off)
{
	return fdt->blob + fdt->off_struct + off;
}

/* The NUL-terminated string at `nameoff` of the strings block, or NULL. */
const char *fdt_string_at(const struct fdt *fdt, uint32_t nameoff)
{
	const uint8_t *s;

	/* A NUL lies at or after nameoff inside the block (strings_terminated,
	 * set by fdt_open), so the name is terminated: no scan per lookup. */
	if (nameoff >= fdt->strings_terminated)
		return NULL;
	s = fdt->blob + fdt->off_strings + nameoff;
	return (const char *)s;
}

/*
 * The token tag at p.  Tags are 1..9, so on a little-endian hart the aligned
 * word reads 0x0T000000: one load and a check instead of assembling four
 * bytes (token reads are most of the work of every tree walk).
 */
static inline uint32_t token_tag(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (((uintptr_t)p & 3) == 0) {
		uint32_t raw = *(const word_alias *)p;

		if ((raw & 0x00ffffffu) == 0)
			return raw >> 24;
	}
#endif
	return fdt_be32(p);
}

/* FDT_BEGIN_NODE: the name, NUL-terminated and padded to the next token
 * boundary, within the `rest` bytes after the tag. */
static __attribute__((noinline)) int read_node_name(const uint8_t *p, uint64_t off,
						    uint64_t rest, struct fdt_token *tok)
{
	int64_t len = bounded_name_len(p + FDT_TOKEN_SIZE, rest);

	if (len < 0 || fdt_align4((uint64_t)len + 1) > rest)
		return -FDT_ERR_BADSTRUCTURE;
	tok->name_len = (uint32_t)len;
	tok->next = (uint32_t)(off + FDT_TOKEN_SIZE + fdt_align4((uint64_t)len + 1));
	return 0;
}

/*
 * Decode the token at structure offset `off`, checking that it and its
 * payload lie inside the structure block.  Every walk reads every token
 * through here (most of the firmware's boot), so the common tokens take a
 * short path: 64-bit offsets (no zero extension), the node name scan out of
 * line.
 */
int fdt_read_token(const struct fdt *fdt, uint32_t off32, struct fdt_token *tok)
{
	uint64_t off = off32, size = fdt->size_struct, rest, len;
	const uint8_t *p;
	uint32_t tag;

	if (off % FDT_TOKEN_SIZE || off + FDT_TOKEN_SIZE > size)
		return -FDT_ERR_BADSTRUCTURE;
	rest = size - off - FDT_TOKEN_SIZE;
	p = fdt_struct_at(fdt, off32);
	tag = token_tag(p);
	tok->tag = tag;
	tok->next = (uint32_t)(off + FDT_TOKEN_SIZE);
	/* Tests in the order of how often each tag comes (a switch's jump
	 * table costs more than the first two of them). */
	if (tag == FDT_PROP) {
		if (rest < FDT_PROP_HEADER_SIZE - FDT_TOKEN_SIZE)
			return -FDT_ERR_BADSTRUCTURE;
		len = fdt_be32(p + 4);
		tok->prop_len = (uint32_t)len;
		tok->nameoff = fdt_be32(p + 8);
		len = fdt_align4(len);
		if (len > rest - (FDT_PROP_HEADER_SIZE - FDT_TOKEN_SIZE) ||
		    tok->nameoff >= fdt->strings_terminated)
			return -FDT_ERR_BADSTRUCTURE;
		tok->next = (uint32_t)(off + FDT_PROP_HEADER_SIZE + len);
		return 0;
	}
	if (tag == FDT_BEGIN_NODE)
		return read_node_name(p, off, rest, tok);
	if (tag == FDT_END_NODE || tag == FDT_NOP || tag == FDT_END)
		return 0;
	return -FDT_ERR_BADSTRUCTURE;
}

/* ---- Header and block validation (spec 5.2, 5.3) ------------------------ */

static uint32_t header_field(const uint8_t *blob, uint32_t field)
{
	return fdt_be32(blob + field);
}

static bool block_outside(uint32_t off, uint64_t size, uint32_t totalsize)
{
	return off > totalsize || size > totalsize - off;
}

static bool blocks_overlap(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end)
{
	return a < b_end && b < a_end;
}

/* Read the fixed header fields into `view`; `hdr_size` gets the header size
 * of the blob's version. */
static int check_header(struct fdt *view, const uint8_t *blob, size_t max_size,
			uint32_t *hdr_size)
{
	uint32_t totalsize, version;

	if (!blob || max_size < 4)
		return -FDT_ERR_TRUNCATED;
	if (header_field(blob, FDT_HDR_MAGIC) != FDT_MAGIC)
		return -FDT_ERR_BADMAGIC;
	if (max_size < 8)
		return -FDT_ERR_TRUNCATED;
	totalsize = header_field(blob, FDT_HDR_TOTALSIZE);
	if (totalsize > max_size || totalsize < FDT_V16_HEADER_SIZE)
		return -FDT_ERR_TRUNCATED;
	/* Offsets and lengths are handed out as non-negative ints. */
	if (totalsize > INT32_MAX)
		return -FDT_ERR_BADLAYOUT;
	version = header_field(blob, FDT_HDR_VERSION);
	if (version < FDT_FIRST_VERSION ||
	    header_field(blob, FDT_HDR_LAST_COMP_VERSION) > FDT_LAST_COMP_VERSION)
		return -FDT_ERR_BADVERSION;
	*hdr_size = version >= 17 ? FDT_V17_HEADER_SIZE : FDT_V16_HEADER_SIZE;
	if (totalsize < *hdr_size)
		return -FDT_ERR_TRUNCATED;

	view->blob = blob;
	view->totalsize = totalsize;
	view->off_struct = header_field(blob, FDT_HDR_OFF_DT_STRUCT);
	view->off_strings = header_field(blob, FDT_HDR_OFF_DT_STRINGS);
	view->off_rsvmap = header_field(blob, FDT_HDR_OFF_MEM_RSVMAP);
	view->size_strings = header_field(blob, FDT_HDR_SIZE_DT_STRINGS);
	if (version >= 17) {
		view->size_struct = header_field(blob, FDT_HDR_SIZE_DT_STRUCT);
	} else {
		/* v16 has no size_dt_struct: bound the walk by the next block
		 * (or the blob end); check_structure() finds the real end. */
		uint32_t limit = totalsize;

		if (view->off_strings > view->off_struct && view->off_strings < limit)
			limit = view->off_strings;
		if (view->off_rsvmap > view->off_struct && view->off_rsvmap < limit)
			limit = view->off_rsvmap;
		view->size_struct = view->off_struct < limit ? limit - view->off_struct : 0;
	}

	if (view->off_struct % FDT_TOKEN_SIZE || view->off_rsvmap % FDT_RSV_ALIGN)
		return -FDT_ERR_BADLAYOUT;
	if (view->off_struct < *hdr_size || view->off_strings < *hdr_size ||
	    view->off_rsvmap < *hdr_size)
		return -FDT_ERR_BADLAYOUT;
	if (block_outside(view->off_struct, view->size_struct, totalsize) ||
	    block_outside(view->off_strings, view->size_strings, totalsize) ||
	    block_outside(view->off_rsvmap, 0, totalsize))
		return -FDT_ERR_TRUNCATED;
	view->strings_terminated = view->size_strings;
	while (view->strings_terminated &&
	       blob[view->off_strings + view->strings_terminated - 1] != '\0')
		view->strings_terminated--;
	return 0;
}

/* Memory reservation block: 16-byte entries ending with {0, 0} (5.3.2).
 * Sets *end to the offset just past the terminating entry. */
static int rsvmap_end(const struct fdt *fdt, uint32_t *end)
{
	uint32_t off = fdt->off_rsvmap;

	for (;;) {
		const uint8_t *e = fdt->blob + off;

		if (block_outside(off, FDT_RSV_ENTRY_SIZE, fdt->totalsize))
			return -FDT_ERR_TRUNCATED;
		off += FDT_RSV_ENTRY_SIZE;
		if (fdt_be64(e) == 0 && fdt_be64(e + 8) == 0) {
			*end = off;
			return 0;
		}
	}
}

static int check_blocks_disjoint(const struct fdt *fdt)
{
	uint64_t st = fdt->off_struct, st_end = st + fdt->size_struct;
	uint64_t str = fdt->off_strings, str_end = str + fdt->size_strings;
	uint32_t rsv_end;
	int err = rsvmap_end(fdt, &rsv_end);

	if (err)
		return err;
	if (blocks_overlap(st, st_end, str, str_end) ||
	    blocks_overlap(fdt->off_rsvmap, rsv_end, st, st_end) ||
	    blocks_overlap(fdt->off_rsvmap, rsv_end, str, str_end))
		return -FDT_ERR_BADLAYOUT;
	return 0;
}

/*
 * One walk over the structure block (5.4.2): NOPs anywhere; exactly one root
 * node; a node's properties before its children; balanced BEGIN/END_NODE no
 * deeper than FDT_MAX_DEPTH; FDT_END last.  For v16 blobs, sets size_struct
 * to the end of FDT_END.
 */
static int check_structure(struct fdt *view, bool has_size_struct)
{
	uint32_t off = 0;
	int depth = 0;
	bool seen_root = false, props_closed = false;
	struct fdt_token tok;

	for (;;) {
		int err = fdt_read_token(view, off, &tok);

		if (err)
			return err;
		switch (tok.tag) {
		case FDT_BEGIN_NODE:
			if (depth == 0 && seen_root)
				return -FDT_ERR_BADSTRUCTURE;
			if (depth == FDT_MAX_DEPTH)
				return -FDT_ERR_DEPTH;
			depth++;
			seen_root = true;
			props_closed = false;
			break;
		case FDT_END_NODE:
			if (depth == 0)
				return -FDT_ERR_BADSTRUCTURE;
			depth--;
			/* Back in the parent, which now has had a child. */
			props_closed = true;
			break;
		case FDT_PROP:
			if (depth == 0 || props_closed)
				return -FDT_ERR_BADSTRUCTURE;
			break;
		case FDT_END:
			if (depth != 0 || !seen_root)
				return -FDT_ERR_BADSTRUCTURE;
			if (!has_size_struct)
				view->size_struct = tok.next;
			/* FDT_END shall be the last token (5.4.1). */
			else if (tok.next != view->size_struct)
				return -FDT_ERR_BADSTRUCTURE;
			return 0;
		}
		off = tok.next;
	}
}

int fdt_open(struct fdt *fdt, const void *blob, size_t max_size)
{
	struct fdt view;
	uint32_t hdr_size = 0;
	bool has_size_struct;
	int err;

	memset(fdt, 0, sizeof(*fdt));
	memset(&view, 0, sizeof(view));
	err = check_header(&view, blob, max_size, &hdr_size);
	has_size_struct = hdr_size >= FDT_V17_HEADER_SIZE;
	/* v16: the structure block's size is known only after the walk. */
	if (!err && has_size_struct)
		err = check_blocks_disjoint(&view);
	if (!err)
		err = check_structure(&view, has_size_struct);
	if (!err && !has_size_struct)
		err = check_blocks_disjoint(&view);
	if (err)
		return err;
	*fdt = view;
	return 0;
}

/* ---- Nodes ---------------------------------------------------------------- */

/* A caller's offset must be an in-range, aligned token of the wanted type. */
static int check_token_at(const struct fdt *fdt, int off, uint32_t tag, struct fdt_token *tok)
{
	if (off < 0 || (uint32_t)off >= fdt->size_struct ||
	    (uint32_t)off % FDT_TOKEN_SIZE)
		return -FDT_ERR_BADOFFSET;
	if (fdt_read_token(fdt, (uint32_t)off, tok) || tok->tag != tag)
		return -FDT_ERR_BADOFFSET;
	return 0;
}

int fdt_check_node(const struct fdt *fdt, int node, struct fdt_token *tok)
{
	return check_token_at(fdt, node, FDT_BEGIN_NODE, tok);
}

int fdt_skip_to_node_token(const struct fdt *fdt, uint32_t off, bool skip_props,
			   struct fdt_token *tok)
{
	for (;;) {
		int err = fdt_read_token(fdt, off, tok);

		if (err)
			return err;
		if (tok->tag != FDT_NOP && !(skip_props && tok->tag == FDT_PROP))
			return (int)off;
		off = tok->next;
	}
}

int fdt_root(const struct fdt *fdt)
{
	struct fdt_token tok;
	int off;

	if (!fdt->blob)
		return -FDT_ERR_BADOFFSET;
	off = fdt_skip_to_node_token(fdt, 0, false, &tok);
	if (off >= 0 && tok.tag != FDT_BEGIN_NODE)
		return -FDT_ERR_BADSTRUCTURE;
	return off;
}

int fdt_next_node(const struct fdt *fdt, int node, int *depth)
{
	struct fdt_token tok;
	int level = 0;
	uint32_t off;
	int err = fdt_check_node(fdt, node, &tok);

	if (err)
		return err;
	for (off = tok.next;; off = tok.next) {
		err = fdt_read_token(fdt, off, &tok);
		if (err)
			return err;
		if (tok.tag == FDT_BEGIN_NODE) {
			if (depth)
				*depth += level + 1;
			return (int)off;
		}
		if (tok.tag == FDT_END_NODE)
			level--;
		else if (tok.tag == FDT_END)
			return -FDT_ERR_NOTFOUND;
	}
}

int fdt_first_child(const struct fdt *fdt, int node)
{
	struct fdt_token tok;
	int err = fdt_check_node(fdt, node, &tok);
	int off;

	if (err)
		return err;
	off = fdt_skip_to_node_token(fdt, tok.next, true, &tok);
	if (off < 0 || tok.tag == FDT_BEGIN_NODE)
		return off;
	return tok.tag == FDT_END_NODE ? -FDT_ERR_NOTFOUND : -FDT_ERR_BADSTRUCTURE;
}

/* Offset of the FDT_END_NODE closing the node at `node` (a checked node). */
int fdt_node_end(const struct fdt *fdt, uint32_t node)
{
	struct fdt_token tok;
	uint32_t off = node;
	int depth = 0;

	for (;; off = tok.next) {
		int err = fdt_read_token(fdt, off, &tok);

		if (err)
			return err;
		if (tok.tag == FDT_BEGIN_NODE)
			depth++;
		else if (tok.tag == FDT_END_NODE && --depth == 0)
			return (int)off;
		else if (tok.tag == FDT_END)
			return -FDT_ERR_BADSTRUCTURE;
	}
}

int fdt_next_sibling(const struct fdt *fdt, int node)
{
	struct fdt_token tok;
	int err = fdt_check_node(fdt, node, &tok);
	int off;

	if (err)
		return err;
	off = fdt_node_end(fdt, (uint32_t)node);
	if (off < 0)
		return off;
	off = fdt_skip_to_node_token(fdt, (uint32_t)off + FDT_TOKEN_SIZE, false, &tok);
	if (off < 0)
		return off;
	return tok.tag == FDT_BEGIN_NODE ? off : -FDT_ERR_NOTFOUND;
}

/*
 * Walk from the root to `node`: sets *parent (-FDT_ERR_NOTFOUND for the root)
 * and *depth (root = 1).  This is also the exact check that `node` is a node
 * of the tree and not a look-alike inside a property value.
 */
int fdt_locate_node(const struct fdt *fdt, int node, int *parent, int *depth)
{
	uint32_t stack[FDT_MAX_DEPTH];
	struct fdt_token tok;
	int level = 0;
	int off = fdt_root(fdt);
	int err = fdt_check_node(fdt, node, &tok);

	if (err)
		return err;
	if (off < 0)
		return off;
	for (;; off = (int)tok.next) {
		err = fdt_read_token(fdt, (uint32_t)off, &tok);
		if (err)
			return err;
		if (tok.tag == FDT_BEGIN_NODE) {
			if (off == node) {
				*parent = level ? (int)stack[level - 1] : -FDT_ERR_NOTFOUND;
				*depth = level + 1;
				return 0;
			}
			if (level == FDT_MAX_DEPTH)
				return -FDT_ERR_DEPTH;
			stack[level++] = (uint32_t)off;
		} else if (tok.tag == FDT_END_NODE) {
			if (level == 0)
				return -FDT_ERR_BADSTRUCTURE;
			level--;
		} else if (tok.tag == FDT_END) {
			return -FDT_ERR_BADOFFSET;
		}
	}
}

int fdt_parent(const struct fdt *fdt, int node)
{
	int parent, depth;
	int err = fdt_locate_node(fdt, node, &parent, &depth);

	return err ? err : parent;
}

const char *fdt_node_name(const struct fdt *fdt, int node, int *len)
{
	struct fdt_token tok;
	int err = fdt_check_node(fdt, node, &tok);

	if (len)
		*len = err ? err : (int)tok.name_len;
	if (err)
		return NULL;
	return (const char *)fdt_struct_at(fdt, (uint32_t)node + FDT_TOKEN_SIZE);
}

static bool has_char(const char *s, size_t len, char c)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == c)
			return true;
	return false;
}

/* The child of `parent` named `comp` (comp_len bytes, not NUL-terminated):
 * an exact match, else if `loose` and comp has no unit address, the only
 * child named "comp@..." (spec 2.2.1: node-name@unit-address). */
int fdt_find_child(const struct fdt *fdt, int parent, const char *comp,
		      size_t comp_len, bool loose)
{
	int child, only = -FDT_ERR_NOTFOUND, matches = 0;

	loose = loose && !has_char(comp, comp_len, '@');
	for (child = fdt_first_child(fdt, parent); child >= 0;
	     child = fdt_next_sibling(fdt, child)) {
		int len;
		const char *name = fdt_node_name(fdt, child, &len);

		if (!name)
			return len;
		if ((size_t)len == comp_len && memcmp(name, comp, comp_len) == 0)
			return child;
		if (loose && (size_t)len > comp_len && name[comp_len] == '@' &&
		    memcmp(name, comp, comp_len) == 0) {
			matches++;
			only = child;
		}
	}
	if (child != -FDT_ERR_NOTFOUND)
		return child;
	return matches == 1 ? only : -FDT_ERR_NOTFOUND;
}

int fdt_path_offset(const struct fdt *fdt, const char *path)
{
	int node;

	if (!path || path[0] != '/')
		return -FDT_ERR_BADPATH;
	node = fdt_root(fdt);
	while (node >= 0 && *path) {
		const char *end;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		for (end = path; *end && *end != '/'; end++)
			;
		node = fdt_find_child(fdt, node, path, (size_t)(end - path), true);
		path = end;
	}
	return node;
}

int fdt_subnode(const struct fdt *fdt, int parent, const char *name)
{
	size_t len;

	if (!name || !*name)
		return -FDT_ERR_BADPATH;
	len = strlen(name);
	if (has_char(name, len, '/'))
		return -FDT_ERR_BADPATH;
	return fdt_find_child(fdt, parent, name, len, true);
}

/* ---- Properties ----------------------------------------------------------- */

int fdt_first_prop(const struct fdt *fdt, int node)
{
	struct fdt_token tok;
	int err = fdt_check_node(fdt, node, &tok);
	int off;

	if (err)
		return err;
	off = fdt_skip_to_node_token(fdt, tok.next, false, &tok);
	if (off < 0)
		return off;
	return tok.tag == FDT_PROP ? off : -FDT_ERR_NOTFOUND;
}

int fdt_next_prop(const struct fdt *fdt, int prop)
{
	struct fdt_token tok;
	int err = check_token_at(fdt, prop, FDT_PROP, &tok);
	int off;

	if (err)
		return err;
	off = fdt_skip_to_node_token(fdt, tok.next, false, &tok);
	if (off < 0)
		return off;
	return tok.tag == FDT_PROP ? off : -FDT_ERR_NOTFOUND;
}

const void *fdt_prop_at(const struct fdt *fdt, int prop, const char **name, int *len)
{
	struct fdt_token tok;
	int err = check_token_at(fdt, prop, FDT_PROP, &tok);

	if (name)
		*name = err ? NULL : fdt_string_at(fdt, tok.nameoff);
	if (len)
		*len = err ? err : (int)tok.prop_len;
	if (err)
		return NULL;
	return fdt_struct_at(fdt, (uint32_t)prop + FDT_PROP_HEADER_SIZE);
}

/* Offset of `node`'s property `name`, its token in *tok.  One pass over the
 * node's property tokens, each read once: this is the hottest path of every
 * DT lookup. */
int fdt_find_prop(const struct fdt *fdt, int node, const char *name, struct fdt_token *tok)
{
	const char *prop_name;
	uint32_t off;
	int err;

	if (!name)
		return -FDT_ERR_BADVALUE;
	err = fdt_check_node(fdt, node, tok);
	if (err)
		return err;
	for (off = tok->next;; off = tok->next) {
		err = fdt_read_token(fdt, off, tok);
		if (err)
			return err;
		if (tok->tag == FDT_NOP)
			continue;
		if (tok->tag != FDT_PROP)
			return -FDT_ERR_NOTFOUND;
		prop_name = fdt_string_at(fdt, tok->nameoff);
		if (prop_name[0] == name[0] && strcmp(prop_name, name) == 0)
			return (int)off;
	}
}

const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, int *len)
{
	struct fdt_token tok;
	int prop = fdt_find_prop(fdt, node, name, &tok);

	if (len)
		*len = prop < 0 ? prop : (int)tok.prop_len;
	if (prop < 0)
		return NULL;
	return fdt_struct_at(fdt, (uint32_t)prop + FDT_PROP_HEADER_SIZE);
}

int fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *out)
{
	int len;
	const void *val = fdt_getprop(fdt, node, name, &len);

	if (!val)
		return len < 0 ? len : -FDT_ERR_BADSTRUCTURE;
	if (len != 4)
		return -FDT_ERR_BADVALUE;
	*out = fdt_be32(val);
	return 0;
}

/* A value of `cells` (0..2) big-endian 32-bit cells. */
static uint64_t read_cells(const uint8_t *p, int cells)
{
	if (cells == 0)
		return 0;
	return cells == 1 ? fdt_be32(p) : fdt_be64(p);
}

int fdt_prop_cells(const struct fdt *fdt, int node, const char *name,
		   int index, int cells, uint64_t *out)
{
	int len;
	const uint8_t *val;
	uint64_t entry = (uint64_t)cells * 4;

	if ((cells != 1 && cells != 2) || index < 0)
		return -FDT_ERR_BADVALUE;
	val = fdt_getprop(fdt, node, name, &len);
	if (!val)
		return len;
	if ((uint64_t)len % entry)
		return -FDT_ERR_BADVALUE;
	if (((uint64_t)index + 1) * entry > (uint64_t)len)
		return -FDT_ERR_NOTFOUND;
	*out = read_cells(val + (uint64_t)index * entry, cells);
	return 0;
}

/* ---- String lists (spec 2.2.4.1 <stringlist>) ---------------------------- */

static int stringlist_entry(const char *val, int len, int index, int *entry_len)
{
	int pos = 0;

	if (len > 0 && val[len - 1] != '\0')
		return -FDT_ERR_BADVALUE;
	for (int i = 0; pos < len; i++) {
		int n = (int)strlen(val + pos);

		if (i == index) {
			*entry_len = n;
			return pos;
		}
		pos += n + 1;
	}
	return -FDT_ERR_NOTFOUND;
}

const char *fdt_stringlist_get(const struct fdt *fdt, int node, const char *name,
			       int index, int *len)
{
	int vlen, entry_len = 0, pos;
	const char *val = fdt_getprop(fdt, node, name, &vlen);

	if (!val)
		pos = vlen;
	else if (index < 0)
		pos = -FDT_ERR_BADVALUE;
	else
		pos = stringlist_entry(val, vlen, index, &entry_len);
	if (len)
		*len = pos < 0 ? pos : entry_len;
	return pos < 0 ? NULL : val + pos;
}

bool fdt_stringlist_has(const char *list, int len, const char *str)
{
	int pos = 0;

	if (!list || !str || (len > 0 && list[len - 1] != '\0'))
		return false;
	/* One pass over the entries; strcmp only where the first bytes agree. */
	while (pos < len) {
		const char *entry = list + pos;

		if (entry[0] == str[0] && strcmp(entry, str) == 0)
			return true;
		pos += (int)strlen(entry) + 1;
	}
	return false;
}

bool fdt_stringlist_contains(const struct fdt *fdt, int node, const char *name,
			     const char *str)
{
	int vlen;
	const char *val = fdt_getprop(fdt, node, name, &vlen);

	return fdt_stringlist_has(val, vlen, str);
}

bool fdt_is_compatible(const struct fdt *fdt, int node, const char *compat)
{
	return fdt_stringlist_contains(fdt, node, "compatible", compat);
}

int fdt_find_compatible(const struct fdt *fdt, int start, const char *compat)
{
	int node = start;

	if (start == -1) {
		node = fdt_root(fdt);
		if (node < 0 || fdt_is_compatible(fdt, node, compat))
			return node;
	}
	for (;;) {
		node = fdt_next_node(fdt, node, NULL);
		if (node < 0 || fdt_is_compatible(fdt, node, compat))
			return node;
	}
}

/* The value of a 4-byte property at `prop` (a found FDT_PROP), or 0. */
static uint32_t u32_prop_value(const struct fdt *fdt, int prop, const struct fdt_token *tok)
{
	if (prop < 0 || tok->prop_len != 4)
		return 0;
	return fdt_be32(fdt_struct_at(fdt, (uint32_t)prop + FDT_PROP_HEADER_SIZE));
}

/*
 * "phandle", else "linux,phandle" (the pre-standard spelling, spec
 * 2.3.3), each counted only when 4 bytes long: one pass over the node's
 * properties notes the first of each name (most nodes have neither, and
 * fdt_find_phandle asks every node).
 */
uint32_t fdt_get_phandle(const struct fdt *fdt, int node)
{
	struct fdt_token tok, std_tok = { 0 }, linux_tok = { 0 };
	int std = -1, old = -1;
	uint32_t off, ph;

	if (fdt_check_node(fdt, node, &tok))
		return 0;
	for (off = tok.next; fdt_read_token(fdt, off, &tok) == 0; off = tok.next) {
		const char *name;

		if (tok.tag == FDT_NOP)
			continue;
		if (tok.tag != FDT_PROP)
			break;
		name = fdt_string_at(fdt, tok.nameoff);
		if (std < 0 && strcmp(name, "phandle") == 0) {
			std = (int)off;
			std_tok = tok;
		} else if (old < 0 && strcmp(name, "linux,phandle") == 0) {
			old = (int)off;
			linux_tok = tok;
		}
	}
	ph = u32_prop_value(fdt, std, &std_tok);
	return ph || std_tok.prop_len == 4 ? ph : u32_prop_value(fdt, old, &linux_tok);
}

int fdt_find_phandle(const struct fdt *fdt, uint32_t phandle)
{
	int node;

	/* 0 and 0xffffffff are never valid phandles. */
	if (phandle == 0 || phandle == 0xffffffffu)
		return -FDT_ERR_BADVALUE;
	for (node = fdt_root(fdt); node >= 0; node = fdt_next_node(fdt, node, NULL))
		if (fdt_get_phandle(fdt, node) == phandle)
			return node;
	return node;
}

bool fdt_prop_is_string(const struct fdt *fdt, int node, const char *name, const char *str)
{
	int len;
	const char *val = fdt_getprop(fdt, node, name, &len);

	return val && len == (int)strlen(str) + 1 && memcmp(val, str, (size_t)len) == 0;
}

bool fdt_node_is_enabled(const struct fdt *fdt, int node)
{
	int len;
	const char *status = fdt_getprop(fdt, node, "status", &len);

	if (!status)
		return len == -FDT_ERR_NOTFOUND;
	return (len == 5 && memcmp(status, "okay", 5) == 0) ||
	       (len == 3 && memcmp(status, "ok", 3) == 0);
}

/* ---- Addresses (spec 2.3.5, 2.3.6) --------------------------------------- */

static int cells_prop(const struct fdt *fdt, int node, const char *name, int dflt)
{
	uint32_t v;
	int err = fdt_prop_u32(fdt, node, name, &v);

	if (err == -FDT_ERR_NOTFOUND) {
		/* Distinguish "no such property" from "no such node". */
		struct fdt_token tok;

		err = fdt_check_node(fdt, node, &tok);
		return err ? err : dflt;
	}
	if (err)
		return err;
	return v > FDT_MAX_NCELLS ? -FDT_ERR_BADVALUE : (int)v;
}

int fdt_address_cells(const struct fdt *fdt, int node)
{
	return cells_prop(fdt, node, "#address-cells", 2);
}

int fdt_size_cells(const struct fdt *fdt, int node)
{
	return cells_prop(fdt, node, "#size-cells", 1);
}

/* Cell counts for a child's "reg": both fit in 64 bits. */
int fdt_parent_reg_cells(const struct fdt *fdt, int parent, int *ac, int *sc)
{
	*ac = fdt_address_cells(fdt, parent);
	if (*ac < 0)
		return *ac;
	*sc = fdt_size_cells(fdt, parent);
	if (*sc < 0)
		return *sc;
	if (*ac < 1 || *ac > 2 || *sc > 2)
		return -FDT_ERR_BADVALUE;
	return 0;
}

int fdt_reg_cells(const struct fdt *fdt, int node, int *ac, int *sc)
{
	int parent = fdt_parent(fdt, node);

	if (parent < 0)
		return parent;
	return fdt_parent_reg_cells(fdt, parent, ac, sc);
}

static int decode_reg(const struct fdt *fdt, int node, int ac, int sc, int index,
		      uint64_t *addr, uint64_t *size)
{
	int len;
	const uint8_t *reg;
	uint64_t entry;

	if (index < 0)
		return -FDT_ERR_BADVALUE;
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (!reg)
		return len;
	entry = (uint64_t)(ac + sc) * 4;
	if ((uint64_t)len % entry)
		return -FDT_ERR_BADVALUE;
	if (((uint64_t)index + 1) * entry > (uint64_t)len)
		return -FDT_ERR_NOTFOUND;
	reg += (uint64_t)index * entry;
	if (addr)
		*addr = read_cells(reg, ac);
	if (size)
		*size = read_cells(reg + (size_t)ac * 4, sc);
	return 0;
}

int fdt_get_reg(const struct fdt *fdt, int node, int index, uint64_t *addr, uint64_t *size)
{
	int ac, sc;
	int err = fdt_reg_cells(fdt, node, &ac, &sc);

	if (err)
		return err;
	return decode_reg(fdt, node, ac, sc, index, addr, size);
}

int fdt_get_reg_under(const struct fdt *fdt, int parent, int node, int index,
		      uint64_t *addr, uint64_t *size)
{
	int ac, sc;
	int err = fdt_parent_reg_cells(fdt, parent, &ac, &sc);

	if (err)
		return err;
	/* The node must be a node; its parent is the caller's word. */
	err = fdt_check_node(fdt, node, &(struct fdt_token){ 0 });
	if (err)
		return err;
	return decode_reg(fdt, node, ac, sc, index, addr, size);
}

int fdt_get_mem_rsv(const struct fdt *fdt, int index, uint64_t *addr, uint64_t *size)
{
	if (!fdt->blob)
		return -FDT_ERR_BADOFFSET;
	if (index < 0)
		return -FDT_ERR_BADVALUE;
	for (uint32_t i = 0;; i++) {
		uint64_t off = fdt->off_rsvmap + (uint64_t)i * FDT_RSV_ENTRY_SIZE;
		const uint8_t *e = fdt->blob + off;
		uint64_t a, s;

		if (off + FDT_RSV_ENTRY_SIZE > fdt->totalsize)
			return -FDT_ERR_TRUNCATED;
		a = fdt_be64(e);
		s = fdt_be64(e + 8);
		if (a == 0 && s == 0)
			return -FDT_ERR_NOTFOUND;
		if (i == (uint32_t)index) {
			if (addr)
				*addr = a;
			if (size)
				*size = s;
			return 0;
		}
	}
}

const char *fdt_chosen_bootarg(const struct fdt *fdt, const char *key)
{
	int chosen = fdt_path_offset(fdt, "/chosen"), len;
	const char *args = chosen >= 0 ? fdt_getprop(fdt, chosen, "bootargs", &len) : NULL;
	const char *p;

	if (!args || len <= 0 || args[len - 1])
		return NULL;
	for (p = args; (p = strstr(p, key)); p++)
		if (p == args || p[-1] == ' ')
			return p + strlen(key);
	return NULL;
}

/*
 * `ntrace profile`: where a decoded trace spent its instructions.
 *
 * The walk keeps a shadow call stack as a call tree (one node per distinct
 * path of functions from the root): a call (Table 2 itype 8/9: jal/jalr
 * writing a link register) enters a child of the current node, a return
 * (itype 13) goes back to the parent, a trap enters the handler's function
 * below the interrupted one and the trap return (mret/sret) goes back to
 * it, and any other transfer into another function (a tail call) replaces
 * the current node.  A function is the nearest function symbol at or below
 * the pc (nt_symtab_keep_functions: local labels are inside functions).
 * From the tree: instructions per function (self: at its own pcs; total:
 * while it is anywhere on the stack, recursion counted once), calls per
 * function and per caller -> callee edge, and the folded stacks of the
 * flame graph.  Basic blocks are the straight runs between transfers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "rvinsn.h"

#define PROFILE_MAX_DEPTH 1024  /* deeper calls replace the top frame */
#define NO_NODE UINT32_MAX

/* What the previous instruction does to the stack once the next pc is known. */
enum transfer {
	TRANSFER_NONE = 0,      /* linear, branch, jump: maybe a tail call */
	TRANSFER_CALL,
	TRANSFER_RETURN,
	TRANSFER_TRAP_RETURN,
};

/* ---- Open-addressing map: 64-bit key -> 32-bit value ------------------- */

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static uint32_t *map_slot(struct nt_map *m, uint64_t key)
{
	size_t mask = m->cap - 1;

	for (size_t i = mix(key) & mask;; i = (i + 1) & mask)
		if (m->vals[i] == NO_NODE || m->keys[i] == key)
			return &m->vals[i];
}

static int map_grow(struct nt_map *m)
{
	struct nt_map old = *m;
	size_t cap = old.cap ? old.cap * 2 : 1024;

	m->keys = malloc(cap * sizeof(*m->keys));
	m->vals = malloc(cap * sizeof(*m->vals));
	if (!m->keys || !m->vals) {
		free(m->keys);
		free(m->vals);
		*m = old;
		return -1;
	}
	memset(m->vals, 0xff, cap * sizeof(*m->vals));
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.vals[i] != NO_NODE) {
			size_t mask = cap - 1, j = mix(old.keys[i]) & mask;

			while (m->vals[j] != NO_NODE)
				j = (j + 1) & mask;
			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	}
	free(old.keys);
	free(old.vals);
	return 0;
}

/* Value of key, or a new one from *next (counted up) when absent;
 * NO_NODE when out of memory. */
static uint32_t map_get_or_add(struct nt_map *m, uint64_t key, uint32_t next, bool *added)
{
	*added = false;
	if ((m->count + 1) * 2 > m->cap && map_grow(m))
		return NO_NODE;
	uint32_t *slot = map_slot(m, key);

	if (*slot == NO_NODE) {
		m->keys[slot - m->vals] = key;
		*slot = next;
		m->count++;
		*added = true;
	}
	return *slot;
}

static void map_free(struct nt_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Appends one zeroed element to a growing array. */
static void *grow(void *v, size_t size, size_t *count, size_t *cap)
{
	if (*count == *cap || !v) {
		size_t ncap = *cap ? *cap * 2 : 256;
		void *nv = realloc(v, ncap * size);

		if (!nv)
			return NULL;
		v = nv;
		*cap = ncap;
	}
	memset((char *)v + *count * size, 0, size);
	(*count)++;
	return v;
}

/* ---- Functions and the call tree ------------------------------------------ */

/* Function id of pc: its symbol's index, or the last id for "no symbol".
 * The range of the last answer is cached: consecutive pcs share it. */
static uint32_t function_of(struct nt_profile *p, uint64_t pc)
{
	if (pc >= p->func_lo && pc < p->func_hi)
		return p->func_cached;
	const struct nt_symbol *s = nt_symtab_lookup(p->symbols, pc);

	if (!s) {
		p->func_lo = p->func_hi = 0;
		return p->unknown_func;
	}
	size_t i = (size_t)(s - p->symbols->v);
	uint64_t hi = s->sec_end;

	for (size_t j = i + 1; j < p->symbols->count; j++) {
		if (p->symbols->v[j].addr > s->addr) {
			if (p->symbols->v[j].addr < hi)
				hi = p->symbols->v[j].addr;
			break;
		}
	}
	p->func_lo = s->addr;
	p->func_hi = hi;
	p->func_cached = (uint32_t)i;
	return (uint32_t)i;
}

const char *nt_profile_func_name(const struct nt_profile *p, uint32_t func)
{
	return func < p->unknown_func ? p->symbols->v[func].name : "[unknown]";
}

/* The child of parent for func, made when new. */
static uint32_t child(struct nt_profile *p, uint32_t parent, uint32_t func)
{
	bool added;
	uint32_t n = map_get_or_add(&p->child_map, (uint64_t)parent << 32 | func,
				    (uint32_t)p->nodes_count, &added);

	if (n == NO_NODE || !added)
		return n == NO_NODE ? (p->oom = true, parent) : n;
	struct nt_profile_node *v = grow(p->nodes, sizeof(*v), &p->nodes_count, &p->nodes_cap);

	if (!v) {
		p->oom = true;
		p->nodes_count = n;     /* forget it: the map entry points nowhere */
		return parent;
	}
	p->nodes = v;
	v[n].func = func;
	v[n].parent = parent;
	v[n].depth = v[parent].depth + 1;
	v[n].first_child = NO_NODE;
	v[n].next_sibling = v[parent].first_child;
	v[parent].first_child = n;
	return n;
}

static void count_edge(struct nt_profile *p, uint32_t caller, uint32_t callee)
{
	bool added;
	uint32_t e = map_get_or_add(&p->edge_map, (uint64_t)caller << 32 | callee,
				    (uint32_t)p->edges_count, &added);

	if (e == NO_NODE) {
		p->oom = true;
		return;
	}
	if (added) {
		struct nt_profile_edge *v = grow(p->edges, sizeof(*v), &p->edges_count,
						 &p->edges_cap);
		if (!v) {
			p->oom = true;
			return;
		}
		p->edges = v;
		v[e].caller = caller;
		v[e].callee = callee;
	}
	p->edges[e].calls++;
}

/* Frame of func instead of the current one (tail call, unknown flow). */
static void replace_top(struct nt_profile *p, uint32_t func)
{
	uint32_t parent = p->cur == 0 ? 0 : p->nodes[p->cur].parent;

	p->cur = child(p, parent, func);
}

static void enter(struct nt_profile *p, uint32_t func)
{
	if (p->nodes[p->cur].depth >= PROFILE_MAX_DEPTH)
		replace_top(p, func);
	else
		p->cur = child(p, p->cur, func);
}

/* The interrupted frames of the traps taken and not yet returned from. */
static void push_trap(struct nt_profile *p, uint32_t node)
{
	if (p->trap_depth < NT_PROFILE_MAX_TRAPS)
		p->trap_stack[p->trap_depth++] = node;
}

/* ---- Instructions ----------------------------------------------------------- */

struct classified {
	uint8_t size;
	uint8_t transfer;       /* enum transfer */
	bool linear;            /* falls through: does not end a basic block */
	uint64_t call_target;   /* direct calls: where they go; else 0 */
};

static struct classified classify(struct nt_profile *p, uint64_t pc)
{
	struct nt_profile_icache *c = &p->icache[(pc >> 1) % NT_PROFILE_ICACHE];
	uint8_t bytes[4] = { 0 };
	uint64_t avail = 0;
	struct rv_insn in;

	if (c->tag == (pc | 1))
		return (struct classified){ c->size, c->transfer, c->linear, c->call_target };
	const uint8_t *b = nt_images_lookup(p->images, pc, &avail);
	struct classified r = { 2, TRANSFER_NONE, true, 0 };

	for (unsigned i = 0; b && i < 4 && i < avail; i++)
		bytes[i] = b[i];
	uint32_t raw = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
		       (uint32_t)bytes[3] << 24;
	if (b && rv_insn_decode(raw, p->xlen, RV_EXT_C, &in)) {
		unsigned itype = rv_insn_itype(&in, true, true, false);

		r.size = in.size;
		r.linear = in.kind == RV_INSN_LINEAR;
		if (itype == RV_ITYPE_UNINFERABLE_CALL || itype == RV_ITYPE_INFERABLE_CALL)
			r.transfer = TRANSFER_CALL;
		if (itype == RV_ITYPE_INFERABLE_CALL)
			r.call_target = rv_insn_direct_target(&in, pc, p->xlen);
		else if (itype == RV_ITYPE_RETURN)
			r.transfer = TRANSFER_RETURN;
		else if (in.kind == RV_INSN_TRAP_RETURN)
			r.transfer = TRANSFER_TRAP_RETURN;
	}
	*c = (struct nt_profile_icache){ pc | 1, r.size, r.transfer, r.linear, r.call_target };
	return r;
}

/* The stack change the previous instruction made, now that pc follows it. */
static void apply_transfer(struct nt_profile *p, uint32_t func)
{
	uint32_t from = p->nodes[p->cur].func;

	if (p->pending_trap) {
		/* a direct call whose target trapped before retiring anything (an
		 * illegal instruction there): the callee is interrupted */
		if (p->pending == TRANSFER_CALL && p->pending_target) {
			uint32_t callee = function_of(p, p->pending_target);

			count_edge(p, from, callee);
			p->func_calls[callee]++;
			enter(p, callee);
		}
		push_trap(p, p->cur);
		enter(p, func);
		p->traps++;
		return;
	}
	switch (p->pending) {
	case TRANSFER_CALL:
		count_edge(p, from, func);
		p->func_calls[func]++;
		enter(p, func);
		return;
	case TRANSFER_RETURN:
		if (p->cur != 0 && p->nodes[p->cur].parent != 0)
			p->cur = p->nodes[p->cur].parent;
		break;
	case TRANSFER_TRAP_RETURN:
		if (p->trap_depth)
			p->cur = p->trap_stack[--p->trap_depth];
		break;
	default:
		break;
	}
	if (p->nodes[p->cur].func != func || p->cur == 0)
		replace_top(p, func);
}

static int add_block(struct nt_profile *p)
{
	bool added;
	/* blocks that start alike but end elsewhere (a trap inside) are apart */
	uint64_t key = p->block_start * 0x9e3779b97f4a7c15ull ^ p->block_last;
	uint32_t b = map_get_or_add(&p->block_map, key, (uint32_t)p->blocks_count, &added);

	if (b == NO_NODE)
		return -1;
	if (added) {
		struct nt_profile_block *v = grow(p->blocks, sizeof(*v), &p->blocks_count,
						  &p->blocks_cap);
		if (!v)
			return -1;
		p->blocks = v;
		v[b].start = p->block_start;
		v[b].last = p->block_last;
		v[b].length = p->block_len;
	}
	if (p->blocks[b].start != p->block_start || p->blocks[b].last != p->block_last)
		return 0;       /* a hash collision of two blocks: the later one is not kept */
	p->blocks[b].executions++;
	return 0;
}

static void end_block(struct nt_profile *p)
{
	if (p->block_len && add_block(p))
		p->oom = true;
	p->block_len = 0;
}

static void profile_step(void *ctx, const struct nt_step *s)
{
	struct nt_profile *p = ctx;
	uint32_t func = function_of(p, s->pc);

	if (p->have_prev)
		apply_transfer(p, func);
	else
		replace_top(p, func);
	p->nodes[p->cur].self++;
	p->func_self[func]++;
	p->instructions++;

	struct classified c = classify(p, s->pc);

	if (p->block_len && s->pc != p->block_next)
		end_block(p);
	if (!p->block_len)
		p->block_start = s->pc;
	p->block_last = s->pc;
	p->block_len++;
	p->block_next = s->pc + c.size;
	if (!c.linear || s->event)
		end_block(p);
	p->pending = c.transfer;
	p->pending_target = c.call_target;
	p->pending_trap = s->event != NT_EVENT_NONE;
	p->have_prev = true;
}

/* A stop, lost trace or decoding error: what follows is not the successor.
 * A trap just taken went to code that was not traced (M-mode under the
 * firmware's encoder): the stack stays as it was. */
static void profile_event(void *ctx, const struct ntrace_event *ev)
{
	struct nt_profile *p = ctx;

	if (!nt_event_breaks_flow(ev))
		return;
	end_block(p);
	p->pending = TRANSFER_NONE;
	p->pending_trap = false;
}

int nt_profile_init(struct nt_profile *p, struct nt_image_set *images,
		    const struct nt_symtab *symbols, unsigned xlen)
{
	memset(p, 0, sizeof(*p));
	p->images = images;
	p->symbols = symbols;
	p->xlen = xlen;
	p->unknown_func = (uint32_t)symbols->count;
	p->func_self = calloc(symbols->count + 1, sizeof(*p->func_self));
	p->func_calls = calloc(symbols->count + 1, sizeof(*p->func_calls));
	p->icache = calloc(NT_PROFILE_ICACHE, sizeof(*p->icache));
	p->nodes = grow(NULL, sizeof(*p->nodes), &p->nodes_count, &p->nodes_cap);
	if (!p->func_self || !p->func_calls || !p->icache || !p->nodes) {
		nt_profile_free(p);
		return -1;
	}
	p->nodes[0] = (struct nt_profile_node){ .func = NO_NODE, .parent = 0,
						.first_child = NO_NODE, .next_sibling = NO_NODE };
	return 0;
}

void nt_profile_visitor(struct nt_profile *p, struct nt_visitor *v)
{
	*v = (struct nt_visitor){ profile_step, profile_event, p };
}

/* Has an ancestor of node n the function of n?  (Recursion: its total
 * already counts n's instructions.) */
static bool function_above(const struct nt_profile *p, uint32_t n)
{
	uint32_t func = p->nodes[n].func;

	for (uint32_t a = p->nodes[n].parent; a != 0; a = p->nodes[a].parent)
		if (p->nodes[a].func == func)
			return true;
	return false;
}

/* Totals: a node's subtree instructions (a child's index is always above
 * its parent's, so one pass from the end adds each into its parent); a
 * function's total adds the subtrees where no ancestor is the same
 * function (recursion counted once). */
int nt_profile_finish(struct nt_profile *p)
{
	end_block(p);
	free(p->func_total);
	p->func_total = calloc(p->unknown_func + 1, sizeof(*p->func_total));
	if (!p->func_total || p->oom)
		return -1;
	for (size_t n = 0; n < p->nodes_count; n++)
		p->nodes[n].total = p->nodes[n].self;
	for (size_t n = p->nodes_count - 1; n > 0; n--)
		p->nodes[p->nodes[n].parent].total += p->nodes[n].total;
	for (uint32_t n = 1; n < p->nodes_count; n++)
		if (!function_above(p, n))
			p->func_total[p->nodes[n].func] += p->nodes[n].total;
	return 0;
}

void nt_profile_free(struct nt_profile *p)
{
	map_free(&p->child_map);
	map_free(&p->edge_map);
	map_free(&p->block_map);
	free(p->nodes);
	free(p->edges);
	free(p->blocks);
	free(p->func_self);
	free(p->func_total);
	free(p->func_calls);
	free(p->icache);
	memset(p, 0, sizeof(*p));
}

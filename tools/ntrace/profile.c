// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace profile`: where a decoded trace spent its instructions.
 *
 * The walk keeps a shadow call stack rebuilt from what the ISA shows a
 * decoder (the rules: tools/ntrace/README.md, "profile: the call stack";
 * tests/trace/stack-reference.py implements them a second time): call
 * frames with their return addresses (Table 2 itype 8/9 pushes, a return,
 * itype 13, pops to the frame that returns to its target), trap frames on
 * the interrupted stack (mret/sret pops back to them), tail calls in place
 * of the top frame, jumps to an outer frame's return address unwinding to
 * it, and segments: a stack left where code nothing on it explains runs (a
 * trap return or the trace resuming elsewhere) waits below a new one.
 * Each frame is a node of the call tree (one node per distinct path of
 * functions from a segment's base).  A function is the nearest function
 * symbol at or below the pc (nt_symtab_keep_functions: local labels are
 * inside functions).  From the tree: instructions per function (self: at
 * its own pcs; total: while it is anywhere on the stack, recursion counted
 * once), calls per function and per caller -> callee edge, and the folded
 * stacks of the flame graph.  Basic blocks are the straight runs between
 * transfers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "rvinsn.h"

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

static bool map_has(struct nt_map *m, uint64_t key)
{
	return m->cap && *map_slot(m, key) != NO_NODE;
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

/* ---- The shadow call stack ------------------------------------------------ */

enum frame_kind {
	FRAME_BASE = 0,         /* a segment's first frame: its caller was not seen */
	FRAME_CALL,             /* entered by a call: ra is known */
	FRAME_TRAP,             /* entered by a trap: left by the trap return */
};

static uint32_t func_of_frame(const struct nt_profile *p, uint32_t level)
{
	return p->nodes[p->stack[level].node].func;
}

static uint32_t top_func(const struct nt_profile *p)
{
	return p->depth ? func_of_frame(p, p->depth - 1) : NO_NODE;
}

/* The tree node of func in a frame of kind at level: a segment's base
 * starts a path of its own (a root of the flame graph). */
static uint32_t node_for(struct nt_profile *p, uint32_t level, uint8_t kind, uint32_t func)
{
	return child(p, kind == FRAME_BASE || !level ? 0 : p->stack[level - 1].node, func);
}

static uint32_t segments(const struct nt_profile *p)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->depth; i++)
		n += p->stack[i].kind == FRAME_BASE;
	return n;
}

/* Forgets the oldest segment (the frames below the second base). */
static void drop_oldest_segment(struct nt_profile *p)
{
	uint32_t b = 1;

	while (b < p->depth && p->stack[b].kind != FRAME_BASE)
		b++;
	if (b == p->depth)
		return;
	memmove(p->stack, p->stack + b, (p->depth - b) * sizeof(*p->stack));
	p->depth -= b;
}

/* A new top frame.  A full stack forgets its oldest segment first; with
 * one segment only, the new frame takes the top frame's place. */
static void push(struct nt_profile *p, uint32_t func, uint8_t kind, uint64_t ra,
		 uint8_t pending, uint64_t pending_ra)
{
	if (p->depth == NT_PROFILE_MAX_DEPTH)
		drop_oldest_segment(p);
	uint32_t level = p->depth < NT_PROFILE_MAX_DEPTH ? p->depth++ : p->depth - 1;

	p->stack[level] = (struct nt_profile_frame){ node_for(p, level, kind, func), kind, pending,
						     ra, pending_ra };
}

static void new_segment(struct nt_profile *p, uint32_t func)
{
	if (segments(p) == NT_PROFILE_MAX_SEGMENTS)
		drop_oldest_segment(p);
	push(p, func, FRAME_BASE, 0, TRANSFER_NONE, 0);
}

/* func runs in the top frame instead (a tail call): the frame keeps its
 * kind and return address. */
static void replace_top(struct nt_profile *p, uint32_t func)
{
	if (!p->depth) {
		new_segment(p, func);
	} else if (top_func(p) != func) {
		struct nt_profile_frame *t = &p->stack[p->depth - 1];

		t->node = node_for(p, p->depth - 1, t->kind, func);
	}
}

/* The topmost call frame that returns to pc, or 0 (frame 0 is a base). */
static uint32_t frame_returning_to(const struct nt_profile *p, uint64_t pc)
{
	for (uint32_t i = p->depth; i-- > 1;)
		if (p->stack[i].kind == FRAME_CALL && p->stack[i].ra == pc)
			return i;
	return 0;
}

/* The topmost trap frame, or 0. */
static uint32_t innermost_trap(const struct nt_profile *p)
{
	for (uint32_t i = p->depth; i-- > 1;)
		if (p->stack[i].kind == FRAME_TRAP)
			return i;
	return 0;
}

/* The newest segment below the top one whose top frame runs func: the
 * depth at its end, or 0. */
static uint32_t segment_ending_in(const struct nt_profile *p, uint32_t func)
{
	for (uint32_t b = p->depth; b-- > 1;)
		if (p->stack[b].kind == FRAME_BASE && func_of_frame(p, b - 1) == func)
			return b;
	return 0;
}

static void pop_frame(struct nt_profile *p)
{
	if (p->stack[p->depth - 1].kind != FRAME_BASE)
		p->depth--;
}

static void call(struct nt_profile *p, uint32_t func, uint64_t ra)
{
	if (p->depth)
		count_edge(p, top_func(p), func);
	p->func_calls[func]++;
	push(p, func, FRAME_CALL, ra, TRANSFER_NONE, 0);
}

/* A return to pc: the frames up to the one that returns there are left (a
 * return that skips frames, as longjmp does); a return no frame expects
 * leaves the top frame, unless it is a segment's base. */
static void return_to(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	uint32_t i = frame_returning_to(p, pc);

	if (i)
		p->depth = i;
	else
		pop_frame(p);
	replace_top(p, func);
}

/* Any other way to pc: within the top frame's function nothing changes;
 * to the return address of a frame on the stack, the frames up to it are
 * left (a U-mode program's exit, longjmp); anywhere else the top frame
 * runs func (a tail call). */
static void go_to(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	uint32_t i;

	if (top_func(p) == func)
		return;
	if ((i = frame_returning_to(p, pc)))
		p->depth = i;
	replace_top(p, func);
}

/* Arriving at pc by a way the trace does not show (a trap return to
 * elsewhere than the interrupted code, the trace resuming after a break):
 * as go_to(), but code no frame explains is not a tail call: the stack is
 * kept as a suspended segment, the trace goes on to a resumed one whose
 * top frame runs func (a context switched back), or to a new segment. */
static void land(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	uint32_t i;

	if (!p->depth || top_func(p) == func) {
		go_to(p, pc, func);
	} else if ((i = frame_returning_to(p, pc))) {
		p->depth = i;
		replace_top(p, func);
	} else if ((i = segment_ending_in(p, func))) {
		p->depth = i;
	} else {
		new_segment(p, func);
	}
}

/* A trap return to pc: the innermost trap frame and those above it are
 * left; the interrupted frame then takes the trapped instruction's own
 * transfer to pc: the call that trapped, or pc in the interrupted code,
 * or, elsewhere, land().  Without a trap frame (a trap return that starts
 * a program) it is a jump. */
static void trap_return_to(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	uint32_t i = innermost_trap(p);

	if (!i) {
		go_to(p, pc, func);
		return;
	}
	struct nt_profile_frame t = p->stack[i];

	p->depth = i;
	if (t.pending == TRANSFER_CALL)
		call(p, func, t.pending_ra);
	else
		land(p, pc, func);
}

/* ---- Instructions ----------------------------------------------------------- */

static struct nt_profile_insn classify(struct nt_profile *p, uint64_t pc)
{
	struct nt_profile_insn *c = &p->icache[(pc >> 1) % NT_PROFILE_ICACHE];
	uint8_t bytes[4] = { 0 };
	uint64_t avail = 0;
	struct rv_insn in;

	if (c->tag == (pc | 1))
		return *c;
	const uint8_t *b = nt_images_lookup(p->images, pc, &avail);
	struct nt_profile_insn r = { pc | 1, 2, TRANSFER_NONE, true, false, 0 };

	for (unsigned i = 0; b && i < 4 && i < avail; i++)
		bytes[i] = b[i];
	uint32_t raw = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
		       (uint32_t)bytes[3] << 24;
	if (b && rv_insn_decode(raw, p->xlen, RV_EXT_C, &in)) {
		unsigned itype = rv_insn_itype(&in, true, true, false);

		r.size = in.size;
		r.linear = in.kind == RV_INSN_LINEAR;
		/* Table 2 (4-bit itype): 8/9 calls, 13 returns; a coroutine
		 * swap (12) is neither */
		if (itype == RV_ITYPE_UNINFERABLE_CALL || itype == RV_ITYPE_INFERABLE_CALL)
			r.transfer = TRANSFER_CALL;
		else if (itype == RV_ITYPE_RETURN)
			r.transfer = TRANSFER_RETURN;
		else if (in.kind == RV_INSN_TRAP_RETURN)
			r.transfer = TRANSFER_TRAP_RETURN;
		r.next_known = in.kind == RV_INSN_LINEAR || in.kind == RV_INSN_JUMP;
		r.next = in.kind == RV_INSN_JUMP ? rv_insn_direct_target(&in, pc, p->xlen)
						 : rv_xlen_mask(pc + in.size, p->xlen);
	} else if (b && rv_insn_length((uint16_t)raw, RV_EXT_C)) {
		/* an encoding rvinsn does not know runs on as a linear one */
		r.size = (uint8_t)rv_insn_length((uint16_t)raw, RV_EXT_C);
		r.next_known = true;
		r.next = rv_xlen_mask(pc + r.size, p->xlen);
	}
	*c = r;
	return r;
}

/* The stack change of the previous instruction, its successor pc known. */
static void transfer_to(struct nt_profile *p, const struct nt_profile_insn *c, uint64_t pc,
			uint32_t func)
{
	switch (c->transfer) {
	case TRANSFER_CALL:
		call(p, func, rv_xlen_mask(p->prev_pc + c->size, p->xlen));
		break;
	case TRANSFER_RETURN:
		return_to(p, pc, func);
		break;
	case TRANSFER_TRAP_RETURN:
		trap_return_to(p, pc, func);
		break;
	default:
		go_to(p, pc, func);
		break;
	}
}

/* The previous instruction's stack change when a trap or a break in the
 * trace hides its successor: what its opcode gives is done (a direct call
 * enters the callee, a return leaves the top frame, a trap return its trap
 * frame, a linear instruction or direct jump goes to its successor); an
 * indirect call's is returned (TRANSFER_CALL) for the trap frame to keep
 * until its trap return shows the callee. */
static uint8_t transfer_unseen(struct nt_profile *p, uint64_t *pending_ra)
{
	const struct nt_profile_insn c = p->prev_insn;
	uint32_t i;

	*pending_ra = 0;
	switch (c.transfer) {
	case TRANSFER_CALL:
		*pending_ra = rv_xlen_mask(p->prev_pc + c.size, p->xlen);
		if (!c.next_known)
			return TRANSFER_CALL;
		call(p, function_of(p, c.next), *pending_ra);
		*pending_ra = 0;
		return TRANSFER_NONE;
	case TRANSFER_RETURN:
		pop_frame(p);
		return TRANSFER_NONE;
	case TRANSFER_TRAP_RETURN:
		if (!(i = innermost_trap(p)))
			return TRANSFER_NONE;
		/* a trap right after the trap return: the call that trapped
		 * before is still unseen */
		*pending_ra = p->stack[i].pending_ra;
		p->depth = i;
		return p->stack[i].pending;
	default:
		if (c.next_known)
			go_to(p, c.next, function_of(p, c.next));
		return TRANSFER_NONE;
	}
}

/* The handler at pc: a trap frame on the interrupted stack. */
static void trap_to(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	uint64_t pending_ra;
	uint8_t pending = transfer_unseen(p, &pending_ra);
	bool added;

	push(p, func, FRAME_TRAP, 0, pending, pending_ra);
	if (map_get_or_add(&p->vectors, pc, 0, &added) == NO_NODE)
		p->oom = true;
	p->traps++;
}

/* The stack for the instruction at pc (function func). */
static void enter_step(struct nt_profile *p, uint64_t pc, uint32_t func)
{
	if (p->have_prev && p->prev_event != NT_EVENT_NONE) {
		trap_to(p, pc, func);
	} else if (p->have_prev) {
		transfer_to(p, &p->prev_insn, pc, func);
	} else if (p->depth && map_has(&p->vectors, pc)) {
		/* the trace resumes at a trap vector: a trap taken where it
		 * was not traced (an SBI call returning into a pending
		 * interrupt, a trap from unqualified code) */
		push(p, func, FRAME_TRAP, 0, TRANSFER_NONE, 0);
	} else {
		land(p, pc, func);
	}
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

	enter_step(p, s->pc, func);
	p->nodes[p->stack[p->depth - 1].node].self++;
	p->func_self[func]++;
	p->instructions++;

	struct nt_profile_insn c = classify(p, s->pc);

	if (p->block_len && s->pc != p->block_next)
		end_block(p);
	if (!p->block_len)
		p->block_start = s->pc;
	p->block_last = s->pc;
	p->block_len++;
	p->block_next = s->pc + c.size;
	if (!c.linear || s->event)
		end_block(p);
	p->prev_pc = s->pc;
	p->prev_insn = c;
	p->prev_event = s->event;
	p->have_prev = true;
}

/* A stop, lost trace or decoding error: what follows is not the successor.
 * The last instruction's own transfer is done as far as it is known; a trap
 * it took went where the trace does not follow (M-mode under the
 * firmware's encoder): no trap frame. */
static void profile_event(void *ctx, const struct ntrace_event *ev)
{
	struct nt_profile *p = ctx;
	uint64_t pending_ra;

	if (!nt_event_breaks_flow(ev))
		return;
	end_block(p);
	if (p->have_prev)
		(void)transfer_unseen(p, &pending_ra);
	p->have_prev = false;
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
	p->stack = calloc(NT_PROFILE_MAX_DEPTH, sizeof(*p->stack));
	p->nodes = grow(NULL, sizeof(*p->nodes), &p->nodes_count, &p->nodes_cap);
	if (!p->func_self || !p->func_calls || !p->icache || !p->stack || !p->nodes ||
	    map_grow(&p->vectors)) {
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
	p->max_depth = 0;
	for (size_t n = 0; n < p->nodes_count; n++) {
		p->nodes[n].total = p->nodes[n].self;
		if (p->nodes[n].self && p->nodes[n].depth > p->max_depth)
			p->max_depth = p->nodes[n].depth;
	}
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
	map_free(&p->vectors);
	free(p->stack);
	free(p->nodes);
	free(p->edges);
	free(p->blocks);
	free(p->func_self);
	free(p->func_total);
	free(p->func_calls);
	free(p->icache);
	memset(p, 0, sizeof(*p));
}

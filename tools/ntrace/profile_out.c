// SPDX-License-Identifier: BSD-2-Clause
/*
 * `ntrace profile` outputs: text tables, JSON and folded stacks (the input
 * format of flame graph tools: "outer;inner;leaf COUNT" per line).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

#define DEFAULT_TOP 20

/* qsort has no context argument: the profile being sorted. */
static const struct nt_profile *sorting;

static int by_self(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t sx = sorting->func_self[x], sy = sorting->func_self[y];

	if (sx != sy)
		return sx > sy ? -1 : 1;
	if (sorting->func_total[x] != sorting->func_total[y])
		return sorting->func_total[x] > sorting->func_total[y] ? -1 : 1;
	return strcmp(nt_profile_func_name(sorting, x), nt_profile_func_name(sorting, y));
}

static int by_calls(const void *a, const void *b)
{
	const struct nt_profile_edge *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	int c = strcmp(nt_profile_func_name(sorting, x->caller),
		       nt_profile_func_name(sorting, y->caller));
	return c ? c : strcmp(nt_profile_func_name(sorting, x->callee),
			      nt_profile_func_name(sorting, y->callee));
}

static uint64_t block_instructions(const struct nt_profile_block *b)
{
	return b->executions * b->length;
}

static int by_block_heat(const void *a, const void *b)
{
	const struct nt_profile_block *x = a, *y = b;
	uint64_t hx = block_instructions(x), hy = block_instructions(y);

	if (hx != hy)
		return hx > hy ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorted copies of the profile's tables (functions that ran, edges, blocks). */
struct sorted {
	uint32_t *funcs;
	size_t nfuncs;
	struct nt_profile_edge *edges;
	struct nt_profile_block *blocks;
};

static void sorted_free(struct sorted *s)
{
	free(s->funcs);
	free(s->edges);
	free(s->blocks);
}

static int sort_profile(const struct nt_profile *p, struct sorted *s)
{
	memset(s, 0, sizeof(*s));
	s->funcs = malloc((p->unknown_func + 1) * sizeof(*s->funcs));
	s->edges = malloc((p->edges_count + 1) * sizeof(*s->edges));
	s->blocks = malloc((p->blocks_count + 1) * sizeof(*s->blocks));
	if (!s->funcs || !s->edges || !s->blocks) {
		sorted_free(s);
		return -1;
	}
	for (uint32_t f = 0; f <= p->unknown_func; f++)
		if (p->func_total[f])
			s->funcs[s->nfuncs++] = f;
	if (p->edges_count)
		memcpy(s->edges, p->edges, p->edges_count * sizeof(*s->edges));
	if (p->blocks_count)
		memcpy(s->blocks, p->blocks, p->blocks_count * sizeof(*s->blocks));
	sorting = p;
	qsort(s->funcs, s->nfuncs, sizeof(*s->funcs), by_self);
	qsort(s->edges, p->edges_count, sizeof(*s->edges), by_calls);
	qsort(s->blocks, p->blocks_count, sizeof(*s->blocks), by_block_heat);
	return 0;
}

static double percent(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

static const char *block_function(const struct nt_profile *p, uint64_t pc)
{
	const struct nt_symbol *s = nt_symtab_lookup(p->symbols, pc);

	return s ? s->name : "[unknown]";
}

int nt_profile_write_text(const struct nt_profile *p, FILE *f, unsigned top)
{
	struct sorted s;
	size_t n;

	if (sort_profile(p, &s))
		return -1;
	top = top ? top : DEFAULT_TOP;
	fprintf(f, "instructions: %" PRIu64 "   traps taken: %" PRIu64 "   functions: %zu   "
		"call edges: %zu   basic blocks: %zu   max depth: %" PRIu32 "\n\n", p->instructions,
		p->traps, s.nfuncs, p->edges_count, p->blocks_count, p->max_depth);
	fprintf(f, "functions by self instructions (total: while on the call stack)\n");
	fprintf(f, "%12s %7s %12s %7s %10s  %s\n", "self", "self%", "total", "total%", "calls",
		"function");
	for (n = 0; n < s.nfuncs && n < top; n++) {
		uint32_t fn = s.funcs[n];

		fprintf(f, "%12" PRIu64 " %6.2f%% %12" PRIu64 " %6.2f%% %10" PRIu64 "  %s\n",
			p->func_self[fn], percent(p->func_self[fn], p->instructions),
			p->func_total[fn], percent(p->func_total[fn], p->instructions),
			p->func_calls[fn], nt_profile_func_name(p, fn));
	}
	fprintf(f, "\ncall graph edges by calls\n%10s  %s\n", "calls", "caller -> callee");
	for (n = 0; n < p->edges_count && n < top; n++)
		fprintf(f, "%10" PRIu64 "  %s -> %s\n", s.edges[n].calls,
			nt_profile_func_name(p, s.edges[n].caller),
			nt_profile_func_name(p, s.edges[n].callee));
	fprintf(f, "\nhottest basic blocks (instructions retired in them)\n");
	fprintf(f, "%12s %10s %6s  %-16s %-16s %s\n", "instructions", "executions", "length",
		"start", "last", "function");
	for (n = 0; n < p->blocks_count && n < top; n++) {
		const struct nt_profile_block *b = &s.blocks[n];

		fprintf(f, "%12" PRIu64 " %10" PRIu64 " %6" PRIu32 "  %-16" PRIx64 " %-16" PRIx64
			" %s\n", block_instructions(b), b->executions, b->length, b->start, b->last,
			block_function(p, b->start));
	}
	sorted_free(&s);
	return ferror(f) ? -1 : 0;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int nt_profile_write_json(const struct nt_profile *p, FILE *f)
{
	struct sorted s;

	if (sort_profile(p, &s))
		return -1;
	fprintf(f, "{\n  \"instructions\": %" PRIu64 ",\n  \"traps\": %" PRIu64 ",\n"
		"  \"max_depth\": %" PRIu32 ",\n  \"functions\": [", p->instructions, p->traps,
		p->max_depth);
	for (size_t n = 0; n < s.nfuncs; n++) {
		uint32_t fn = s.funcs[n];

		fprintf(f, "%s\n    {\"name\": ", n ? "," : "");
		json_string(f, nt_profile_func_name(p, fn));
		fprintf(f, ", \"addr\": %" PRIu64 ", \"self\": %" PRIu64 ", \"total\": %" PRIu64
			", \"calls\": %" PRIu64 "}",
			fn < p->unknown_func ? p->symbols->v[fn].addr : 0, p->func_self[fn],
			p->func_total[fn], p->func_calls[fn]);
	}
	fprintf(f, "\n  ],\n  \"edges\": [");
	for (size_t n = 0; n < p->edges_count; n++) {
		fprintf(f, "%s\n    {\"caller\": ", n ? "," : "");
		json_string(f, nt_profile_func_name(p, s.edges[n].caller));
		fprintf(f, ", \"callee\": ");
		json_string(f, nt_profile_func_name(p, s.edges[n].callee));
		fprintf(f, ", \"calls\": %" PRIu64 "}", s.edges[n].calls);
	}
	fprintf(f, "\n  ],\n  \"blocks\": [");
	for (size_t n = 0; n < p->blocks_count; n++) {
		const struct nt_profile_block *b = &s.blocks[n];

		fprintf(f, "%s\n    {\"start\": %" PRIu64 ", \"last\": %" PRIu64 ", \"length\": %"
			PRIu32 ", \"executions\": %" PRIu64 ", \"instructions\": %" PRIu64
			", \"function\": ", n ? "," : "", b->start, b->last, b->length,
			b->executions, block_instructions(b));
		json_string(f, block_function(p, b->start));
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
	sorted_free(&s);
	return ferror(f) ? -1 : 0;
}

/* A frame name as flame graph tools split lines: no ';', blanks or controls. */
static void folded_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || (unsigned char)*s <= ' ' || *s == 0x7f ? '_' : *s, f);
}

/* "outer;...;leaf COUNT" of node n: its path, read from n up to the root. */
static void folded_line(const struct nt_profile *p, FILE *f, uint32_t n, uint32_t *path)
{
	uint32_t depth = 0;

	for (uint32_t a = n; a != 0; a = p->nodes[a].parent)
		path[depth++] = p->nodes[a].func;
	while (depth--) {
		folded_name(f, nt_profile_func_name(p, path[depth]));
		fputc(depth ? ';' : ' ', f);
	}
	fprintf(f, "%" PRIu64 "\n", p->nodes[n].self);
}

int nt_profile_write_folded(const struct nt_profile *p, FILE *f)
{
	uint32_t max_depth = 0;

	for (size_t n = 0; n < p->nodes_count; n++)
		if (p->nodes[n].depth > max_depth)
			max_depth = p->nodes[n].depth;
	uint32_t *path = calloc(max_depth + 1, sizeof(*path));

	if (!path)
		return -1;
	for (uint32_t n = 1; n < p->nodes_count; n++)
		if (p->nodes[n].self)
			folded_line(p, f, n, path);
	free(path);
	return ferror(f) ? -1 : 0;
}

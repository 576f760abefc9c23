// SPDX-License-Identifier: BSD-2-Clause
/*
 * What people read from a decoded trace (tools/ntrace: listing.c,
 * disasm.c, profile.c, profile_out.c, flamegraph.c, timeline.c,
 * pcseq_out.c), on the tool's test programs:
 *  - prof.S: functions, calls in a loop, a nested call, a trap and its
 *    return, a tail call; every count of its profile worked out by hand
 *    from prof.pcs (43 instructions);
 *  - tiny.S: the listing (disassembly by objdump, trap lines, the
 *    timestamps of the messages), the pcseq export (golden file), the
 *    timeline of two harts.
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

#define TINY_ELF NT_TEST_BUILD "/tiny.elf"
#define TINY_PCS NT_TEST_DATA "/tiny.pcs"
#define PROF_ELF NT_TEST_BUILD "/prof.elf"
#define PROF_PCS NT_TEST_DATA "/prof.pcs"
#define TINY_PCSEQ_GOLDEN NT_TEST_DATA "/tiny.export.pcseq"

/* ---- helpers ------------------------------------------------------------ */


/* A decoded trace of one test program, encoded from its .pcs. */
struct fixture {
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_tool_config cfg;
	struct nt_buf nex;
};

static void fixture_open(struct fixture *fx, const char *elf, const char *pcs, bool timestamp)
{
	struct nt_err err;
	struct nt_trace trace;
	char *text = slurp_text(pcs);

	memset(fx, 0, sizeof(*fx));
	nt_images_init(&fx->images);
	nt_symtab_init(&fx->symbols);
	nt_tool_config_default(&fx->cfg);
	fx->cfg.timestamp = timestamp;
	nt_trace_init(&trace);
	if (nt_images_add_elf(&fx->images, elf, &err) || nt_symtab_add_elf(&fx->symbols, elf, &err) ||
	    nt_pcs_parse(text, strlen(text), pcs, &trace, &err) ||
	    nt_encode_trace(&fx->images, &trace, &fx->cfg, pcs, &fx->nex, NULL, &err))
		fail_msg("%s", err.msg);
	nt_trace_free(&trace);
	free(text);
}

static void fixture_close(struct fixture *fx)
{
	nt_buf_free(&fx->nex);
	nt_symtab_free(&fx->symbols);
	nt_images_free(&fx->images);
}

static void visit(struct fixture *fx, const struct nt_visitor *v)
{
	struct nt_err err;

	assert_int_equal(nt_decode_visit(&fx->cfg, &fx->images, fx->nex.data, fx->nex.len, v, NULL,
					 "t.nex", stderr, &err), 0);
}

/* The profile of prof.S. */
static void profile_prof(struct fixture *fx, struct nt_profile *p)
{
	struct nt_visitor v;

	fixture_open(fx, PROF_ELF, PROF_PCS, false);
	nt_symtab_keep_functions(&fx->symbols);
	assert_int_equal(nt_profile_init(p, &fx->images, &fx->symbols, 64), 0);
	nt_profile_visitor(p, &v);
	visit(fx, &v);
	assert_int_equal(nt_profile_finish(p), 0);
}

/* prof.S's profile, made once per test. */
struct prof_state {
	struct fixture fx;
	struct nt_profile p;
};

static int prof_setup(void **state)
{
	struct prof_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -1;
	profile_prof(&st->fx, &st->p);
	*state = st;
	return 0;
}

static int prof_teardown(void **state)
{
	struct prof_state *st = *state;

	nt_profile_free(&st->p);
	fixture_close(&st->fx);
	free(st);
	return 0;
}

static uint32_t func_id(const struct nt_profile *p, const char *name)
{
	for (uint32_t f = 0; f < p->unknown_func; f++)
		if (strcmp(nt_profile_func_name(p, f), name) == 0)
			return f;
	fail_msg("no function %s", name);
	return 0;
}

static uint64_t edge_calls(const struct nt_profile *p, const char *caller, const char *callee)
{
	uint32_t from = func_id(p, caller), to = func_id(p, callee);

	for (size_t i = 0; i < p->edges_count; i++)
		if (p->edges[i].caller == from && p->edges[i].callee == to)
			return p->edges[i].calls;
	return 0;
}

static const struct nt_profile_block *block_at(const struct nt_profile *p, uint64_t start)
{
	for (size_t i = 0; i < p->blocks_count; i++)
		if (p->blocks[i].start == start)
			return &p->blocks[i];
	fail_msg("no block at %" PRIx64, start);
	return NULL;
}

/* Output of one writer as a string (caller frees). */
typedef int profile_writer(const struct nt_profile *p, FILE *f);

static char *written(profile_writer *w, const struct nt_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(w(p, f), 0);
	fclose(f);
	return buf;
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text, sorted, joined with '\n' again. */
static char *sorted_lines(char *text)
{
	char *lines[64], *save = NULL;
	size_t n = 0;
	char *out = calloc(strlen(text) + 2, 1);

	assert_non_null(out);
	for (char *l = strtok_r(text, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	qsort(lines, n, sizeof(*lines), compare_lines);
	for (size_t i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	return out;
}

/* ---- profile -------------------------------------------------------------- */

static void profile_counts_self_instructions_per_function(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	assert_int_equal(p->instructions, 43);
	assert_int_equal(p->func_self[func_id(p, "_start")], 6);       /* 4 + j . twice */
	assert_int_equal(p->func_self[func_id(p, "main")], 17);        /* loop head included */
	assert_int_equal(p->func_self[func_id(p, "leaf")], 8);
	assert_int_equal(p->func_self[func_id(p, "mid")], 6);
	assert_int_equal(p->func_self[func_id(p, "handler")], 4);
	assert_int_equal(p->func_self[func_id(p, "tail")], 2);
}

static void profile_total_counts_callees_and_trap_handlers(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	assert_int_equal(p->func_total[func_id(p, "_start")], 43);
	/* main: own 17, leaf 6, mid 6 + its leaf 2, the handler of its ecall 4;
	 * not the tail call, which replaced main's frame */
	assert_int_equal(p->func_total[func_id(p, "main")], 35);
	assert_int_equal(p->func_total[func_id(p, "mid")], 8);
	assert_int_equal(p->func_total[func_id(p, "leaf")], 8);
	assert_int_equal(p->func_total[func_id(p, "tail")], 2);
	assert_int_equal(p->traps, 1);
}

static void profile_counts_calls_and_call_graph_edges(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	assert_int_equal(p->func_calls[func_id(p, "leaf")], 4);
	assert_int_equal(p->func_calls[func_id(p, "main")], 1);
	assert_int_equal(p->func_calls[func_id(p, "mid")], 1);
	assert_int_equal(p->func_calls[func_id(p, "tail")], 0);        /* a jump, not a call */
	assert_int_equal(p->func_calls[func_id(p, "handler")], 0);     /* a trap, not a call */
	assert_int_equal(p->edges_count, 4);
	assert_int_equal(edge_calls(p, "main", "leaf"), 3);
	assert_int_equal(edge_calls(p, "mid", "leaf"), 1);
	assert_int_equal(edge_calls(p, "main", "mid"), 1);
	assert_int_equal(edge_calls(p, "_start", "main"), 1);
}

static void profile_basic_blocks_run_between_transfers(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	assert_int_equal(p->blocks_count, 13);
	const struct nt_profile_block *leaf = block_at(p, 0x80000040);

	assert_int_equal(leaf->length, 2);
	assert_int_equal(leaf->executions, 4);
	const struct nt_profile_block *loop_tail = block_at(p, 0x80000024);

	assert_int_equal(loop_tail->last, 0x80000028);
	assert_int_equal(loop_tail->executions, 3);
	/* the ecall ends its block: the trap follows it */
	assert_int_equal(block_at(p, 0x80000030)->length, 1);
	assert_int_equal(block_at(p, 0x80000068)->length, 4);
	char *text = written((profile_writer *)nt_profile_write_json, p);
	/* the hottest block comes first */
	const char *blocks = strstr(text, "\"blocks\"");

	assert_non_null(blocks);
	assert_non_null(strstr(blocks, "{\"start\": 2147483712, \"last\": 2147483716, \"length\": 2, "
				       "\"executions\": 4, \"instructions\": 8, \"function\": \"leaf\"}"));
	assert_true(strstr(blocks, "\"leaf\"") < strstr(blocks, "\"main\""));
	free(text);
}

static void profile_json_lists_functions_and_edges(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	char *text = written(nt_profile_write_json, p);

	assert_non_null(strstr(text, "\"instructions\": 43,"));
	assert_non_null(strstr(text, "{\"name\": \"main\", \"addr\": 2147483668, \"self\": 17, "
				     "\"total\": 35, \"calls\": 1}"));
	assert_non_null(strstr(text, "{\"caller\": \"main\", \"callee\": \"leaf\", \"calls\": 3}"));
	free(text);
}

static void profile_text_table_sorts_by_self(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(nt_profile_write_text(p, f, 3), 0);
	fclose(f);
	assert_non_null(strstr(buf, "instructions: 43   traps taken: 1   functions: 6"));
	assert_non_null(strstr(buf, "          17  39.53%           35  81.40%          1  main\n"));
	/* --top 3: three function rows, main then leaf first */
	assert_true(strstr(buf, "  main\n") < strstr(buf, "  leaf\n"));
	assert_null(strstr(buf, "  handler\n"));
	free(buf);
}

static void folded_stacks_are_the_call_paths_with_self_counts(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;

	char *text = written(nt_profile_write_folded, p);
	char *sorted = sorted_lines(text);

	assert_string_equal(sorted, "_start 6\n"
				    "_start;main 17\n"
				    "_start;main;handler 4\n"
				    "_start;main;leaf 6\n"
				    "_start;main;mid 6\n"
				    "_start;main;mid;leaf 2\n"
				    "_start;tail 2\n");
	free(sorted);
	free(text);
}

/* Frame geometry of the flame graph: 1180 pixels for 43 instructions. */
static void flame_graph_frames_are_as_wide_as_their_totals(void **state)
{
	struct nt_profile *const p = &((struct prof_state *)*state)->p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char frame[256];

	assert_int_equal(nt_profile_write_svg(p, f, "prof"), 0);
	fclose(f);
	assert_non_null(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" "
				    "height=\"124\""));
	/* root "all" at the bottom row (4 levels above it: height 34+10+5*16) */
	assert_non_null(strstr(buf, "<title>all: 43 instructions (100.00%)</title><rect x=\"10.00\" "
				    "y=\"98\" width=\"1180.00\""));
	/* main on _start, 35/43 of the width; handler, leaf, mid on main in name
	 * order: handler at main's left edge */
	snprintf(frame, sizeof(frame), "<title>main: 35 instructions (81.40%%)</title><rect "
		 "x=\"10.00\" y=\"66\" width=\"%.2f\"", 35 * 1180.0 / 43);
	assert_non_null(strstr(buf, frame));
	snprintf(frame, sizeof(frame), "<title>leaf: 6 instructions (13.95%%)</title><rect "
		 "x=\"%.2f\" y=\"50\" width=\"%.2f\"", 10 + 4 * 1180.0 / 43, 6 * 1180.0 / 43);
	assert_non_null(strstr(buf, frame));
	/* tail after main on _start */
	snprintf(frame, sizeof(frame), "<title>tail: 2 instructions (4.65%%)</title><rect "
		 "x=\"%.2f\" y=\"66\"", 10 + 35 * 1180.0 / 43);
	assert_non_null(strstr(buf, frame));
	assert_non_null(strstr(buf, "</svg>\n"));
	free(buf);
}

/* ---- listing ---------------------------------------------------------------- */

static void disassembly_is_read_from_objdump_lines(void **state)
{
	(void)state;
	static const char out[] =
		"\nprog.elf:     file format elf64-littleriscv\n\n"
		"Disassembly of section .text:\n\n"
		"0000000080000000 <_start>:\n"
		"    80000000:\tauipc\tsp,0x5\n"
		"    80000004:\tadd\tsp,sp,608 # 80005260 <__stack_top>\n"
		"    80000008:\tret\n"
		"\t...\n"
		"    8000000c:\n"                       /* no instruction */
		"zzzz: not a line\n"
		"    80000010:\tfence.tso";              /* no final newline */
	struct nt_disasm d;
	struct nt_err err;

	nt_disasm_init(&d);
	assert_int_equal(nt_disasm_add_objdump_text(&d, out, strlen(out), "t", &err), 0);
	assert_int_equal(d.count, 4);
	assert_string_equal(nt_disasm_lookup(&d, 0x80000000), "auipc   sp,0x5");
	assert_string_equal(nt_disasm_lookup(&d, 0x80000004), "add     sp,sp,608 # 80005260 <__stack_top>");
	assert_string_equal(nt_disasm_lookup(&d, 0x80000008), "ret");
	assert_string_equal(nt_disasm_lookup(&d, 0x80000010), "fence.tso");
	assert_null(nt_disasm_lookup(&d, 0x8000000c));
	assert_null(nt_disasm_lookup(&d, 0x80000002));
	nt_disasm_free(&d);
}

static void missing_objdump_is_an_error_naming_it(void **state)
{
	(void)state;
	struct nt_disasm d;
	struct nt_err err = { "" };

	nt_disasm_init(&d);
	assert_int_equal(nt_disasm_add_elf(&d, "/nonexistent/objdump", TINY_ELF, &err), -1);
	assert_non_null(strstr(err.msg, "cannot run /nonexistent/objdump"));
	nt_disasm_free(&d);
}

/* The listing of tiny.S with timestamps (instruction index of the last
 * instruction retired when each message was generated). */
static char *tiny_listing(struct fixture *fx)
{
	struct nt_disasm d;
	struct nt_err err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct nt_listing l = { f, &fx->symbols, &d, false };
	struct nt_visitor v;

	fixture_open(fx, TINY_ELF, TINY_PCS, true);
	nt_disasm_init(&d);
	if (nt_disasm_add_elf(&d, NULL, TINY_ELF, &err))
		fail_msg("%s", err.msg);
	nt_listing_visitor(&l, &v);
	visit(fx, &v);
	fclose(f);
	assert_false(l.write_error);
	nt_disasm_free(&d);
	return buf;
}

static void listing_shows_address_symbol_and_disassembly(void **state)
{
	(void)state;
	struct fixture fx;
	char *text = tiny_listing(&fx);

	assert_non_null(strstr(text, "  80000000  _start+0x0                    auipc   t0,0x0\n"));
	assert_non_null(strstr(text, "  80000012  loop+0x4                      jal     8000003c <leaf>\n"));
	assert_non_null(strstr(text, "  8000004a  handler+0xa                   mret\n"));
	/* start and end of the trace */
	assert_true(strncmp(text, "-- trace sync (SYNC=5) at 80000000 _start+0x0\n", 46) == 0);
	assert_non_null(strstr(text, "-- trace stop (EVCODE=4), next 8000003a done+0x0\n"));
	free(text);
	fixture_close(&fx);
}

static void listing_puts_the_trap_on_its_own_line(void **state)
{
	(void)state;
	struct fixture fx;
	char *text = tiny_listing(&fx);
	const char *ecall = strstr(text, "skip+0x0                      ecall\n");

	assert_non_null(ecall);
	ecall = strchr(ecall, '\n') + 1;
	assert_true(strncmp(ecall, "-- exception -> 80000040 handler+0x0\n", 37) == 0);
	assert_non_null(strstr(ecall, "handler+0x0                   csrr    t0,mepc\n"));
	free(text);
	fixture_close(&fx);
}

/* 8.7: a message's timestamp is taken when it is generated, at or after the
 * instructions it reports retired; the encoder's timestamps here are
 * instruction indexes, so the last instruction a message reports carries
 * its own index. */
static void listing_timestamps_are_those_of_the_reporting_message(void **state)
{
	(void)state;
	struct fixture fx;
	char *text = tiny_listing(&fx);
	char *save = NULL;
	uint64_t index = 0, prev_t = 0, changes = 0;
	bool have_prev = false;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "-- ", 3) == 0)
			continue;
		assert_true(strncmp(l, "t=", 2) == 0);
		uint64_t t = strtoull(l + 2, NULL, 10);

		assert_true(t >= index);
		if (have_prev && t != prev_t) {
			assert_int_equal(prev_t, index - 1);    /* the group before ended there */
			changes++;
		}
		assert_true(!have_prev || t >= prev_t);
		prev_t = t;
		have_prev = true;
		index++;
	}
	assert_int_equal(index, 30);
	assert_true(changes >= 5);
	free(text);
	fixture_close(&fx);
}

/* ---- pcseq export ---------------------------------------------------------- */

static void pcseq_export_matches_golden_file(void **state)
{
	(void)state;
	struct fixture fx;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct nt_visitor v;

	fixture_open(&fx, TINY_ELF, TINY_PCS, false);
	struct nt_pcseq_writer w = { .out = f, .images = &fx.images, .xlen = 64 };

	nt_pcseq_writer_visitor(&w, &v);
	visit(&fx, &v);
	nt_pcseq_writer_finish(&w);
	fclose(f);
	char *golden = slurp_text(TINY_PCSEQ_GOLDEN);

	assert_string_equal(buf, golden);
	free(golden);
	free(buf);
	fixture_close(&fx);
}

static void pcseq_classes_follow_the_next_pc(void **state)
{
	(void)state;
	struct fixture fx;
	unsigned size;

	fixture_open(&fx, TINY_ELF, TINY_PCS, false);
	/* c.bnez a0, loop at 80000010: taken to 8000000e, else not taken */
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x80000010, 0x8000000e, true, &size), "B");
	assert_int_equal(size, 2);
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x80000010, 0x80000012, true, &size), "BN");
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x80000010, 0, false, &size), "BN");
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x80000012, 0, false, &size), "C");
	assert_int_equal(size, 4);
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x8000003e, 0, false, &size), "R");
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x80000026, 0, false, &size), "JI");
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x8000004a, 0, false, &size), "X");
	/* a pc in no image: linear, size unknown */
	assert_string_equal(nt_pcseq_class(&fx.images, 64, 0x10, 0, false, &size), "L");
	assert_int_equal(size, 0);
	fixture_close(&fx);
}

/* ---- timeline ---------------------------------------------------------------- */

static void timeline_merges_harts_by_time(void **state)
{
	(void)state;
	struct fixture fx;
	struct nt_timeline t;
	struct nt_visitor v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fixture_open(&fx, TINY_ELF, TINY_PCS, false);
	nt_timeline_init(&t, &fx.symbols);
	assert_int_equal(nt_timeline_add_hart(&t, 0, &v), 0);
	visit(&fx, &v);
	assert_int_equal(nt_timeline_add_hart(&t, 3, &v), 0);
	visit(&fx, &v);
	f = open_memstream(&buf, &len);
	assert_int_equal(nt_timeline_write_text(&t, f), 0);
	fclose(f);
	/* the ecall is instruction 21 of tiny.pcs: 22 before the trap event */
	const char *h0 = strstr(buf, "hart 0   t=22           exception after 80000032 skip+0x0 -> "
				     "80000040 handler+0x0\n");
	const char *h3 = strstr(buf, "hart 3   t=22           exception after 80000032 skip+0x0 -> "
				     "80000040 handler+0x0\n");

	assert_non_null(strstr(buf, "# time: instruction index"));
	assert_non_null(h0);
	assert_non_null(h3);
	assert_true(h0 < h3);
	/* both syncs (t=0) before either trap, both stops (t=30) after */
	assert_true(strstr(buf, "hart 3   t=0 ") < h0);
	assert_true(strstr(buf, "hart 0   t=30 ") > h3);
	assert_non_null(strstr(buf, "hart 3   end: 30 instructions, 1 exceptions, 0 interrupts\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(nt_timeline_write_svg(&t, f), 0);
	fclose(f);
	/* the exception (time 22 of 30: column 792 of 1080, x 100 + 792) as a
	 * full mark (10 pixels: no column has more) above each lane's bar */
	assert_non_null(strstr(buf, "<path fill=\"rgb(210,30,30)\" d=\"M892 46h1v10h-1z\"/>"));
	assert_non_null(strstr(buf, "<path fill=\"rgb(210,30,30)\" d=\"M892 98h1v10h-1z\"/>"));
	/* traced from the sync to the stop: the whole bar, privilege unknown */
	assert_non_null(strstr(buf, "<path fill=\"rgb(160,160,160)\" d=\"M100 57h1080v20h-1080z\"/>"));
	assert_non_null(strstr(buf, ">hart 3</text>"));
	/* the axis: ticks every 2 instructions, labelled, and its unit */
	assert_non_null(strstr(buf, ">0</text>"));
	assert_non_null(strstr(buf, ">22</text>"));
	assert_non_null(strstr(buf, ">30</text>"));
	assert_non_null(strstr(buf, "instructions retired, each hart counting its own"));
	assert_null(strstr(buf, "log scale"));  /* every column has at most one event */
	free(buf);
	nt_timeline_free(&t);
	fixture_close(&fx);
}

/* Hand-made decoder events: the visitor's view of a trace. */
static void tl_step(struct nt_visitor *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		struct nt_step s = { .pc = 0x80000000 };

		v->step(v->ctx, &s);
	}
}

static void tl_event(struct nt_visitor *v, unsigned kind, unsigned code)
{
	struct ntrace_event ev = { .kind = (uint8_t)kind };

	if (kind == NTRACE_EV_TRAP)
		ev.btype = (uint8_t)code;
	else if (kind == NTRACE_EV_OWNERSHIP)
		ev.priv = (uint8_t)code;
	v->event(v->ctx, &ev);
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* 216,000 instructions in 1080 columns (200 each), an interrupt every 10
 * (20 a column) and the privilege switching every 50 (U and S sharing
 * every column): one mark per column, the bar half U and half S, and a
 * picture whose size does not grow with the events. */
static void timeline_aggregates_events_narrower_than_a_pixel(void **state)
{
	(void)state;
	struct nt_timeline t;
	struct nt_visitor v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nt_timeline_init(&t, NULL);
	assert_int_equal(nt_timeline_add_hart(&t, 0, &v), 0);
	tl_event(&v, NTRACE_EV_SYNC, 0);
	for (unsigned i = 0; i < 216000 / 10; i++) {
		if (i % 5 == 0)
			tl_event(&v, NTRACE_EV_OWNERSHIP, (i / 5) % 2);     /* U, S, U, ... */
		tl_step(&v, 10);
		tl_event(&v, NTRACE_EV_TRAP, NTRACE_BTYPE_INTERRUPT);
	}
	tl_event(&v, NTRACE_EV_STOP, 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(nt_timeline_write_svg(&t, f), 0);
	fclose(f);
	/* 21,600 interrupts, 19 to 21 a column: one rectangle, full height */
	assert_non_null(strstr(buf, "<path fill=\"rgb(230,140,0)\" d=\"M100 78h1080v10h-1080z\"/>"));
	assert_non_null(strstr(buf, "full = 21"));   /* the last column has the one at 216,000 too */
	/* U in the bottom half of every column, S in the top half */
	assert_non_null(strstr(buf, "<path fill=\"rgb(90,170,90)\" d=\"M100 67h1080v10h-1080z\"/>"));
	assert_non_null(strstr(buf, "<path fill=\"rgb(70,120,200)\" d=\"M100 57h1080v10h-1080z\"/>"));
	assert_int_equal(count_of(buf, "<path fill="), 3);
	assert_true(len < 8000);
	/* the axis: 0 .. 216k in steps of 20k */
	assert_non_null(strstr(buf, ">20k</text>"));
	assert_non_null(strstr(buf, ">200k</text>"));
	free(buf);
	nt_timeline_free(&t);
}

/* A short privilege stretch is never lost: 3 pixels of a column at least. */
static void timeline_keeps_a_short_privilege_visible(void **state)
{
	(void)state;
	struct nt_timeline t;
	struct nt_visitor v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nt_timeline_init(&t, NULL);
	assert_int_equal(nt_timeline_add_hart(&t, 0, &v), 0);
	tl_event(&v, NTRACE_EV_SYNC, 0);
	tl_event(&v, NTRACE_EV_OWNERSHIP, 1);   /* S */
	tl_step(&v, 108000);                    /* 100 a column */
	tl_event(&v, NTRACE_EV_TRAP, NTRACE_BTYPE_EXCEPTION);
	tl_event(&v, NTRACE_EV_OWNERSHIP, 0);   /* U for 2 instructions */
	tl_step(&v, 2);
	tl_event(&v, NTRACE_EV_OWNERSHIP, 1);
	tl_step(&v, 98);
	tl_event(&v, NTRACE_EV_STOP, 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(nt_timeline_write_svg(&t, f), 0);
	fclose(f);
	/* 108,100 instructions, 100.1 a column: the last column (x 1179) holds
	 * the 2 of U, 3 pixels at the bar's bottom, and S above them */
	assert_non_null(strstr(buf, "<path fill=\"rgb(90,170,90)\" d=\"M1179 74h1v3h-1z\"/>"));
	assert_non_null(strstr(buf, "<path fill=\"rgb(70,120,200)\" d=\"M100 57h1079v20h-1079zM1179 57h1v17h-1z\"/>"));
	free(buf);
	nt_timeline_free(&t);
}

/* Timestamps with a known clock: the axis in seconds, in the unit the span
 * calls for. */
static void timeline_axis_in_seconds_with_a_clock(void **state)
{
	(void)state;
	struct fixture fx;
	struct nt_timeline t;
	struct nt_visitor v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fixture_open(&fx, TINY_ELF, TINY_PCS, true);
	nt_timeline_init(&t, &fx.symbols);
	assert_int_equal(nt_timeline_add_hart(&t, 0, &v), 0);
	nt_timeline_hart_clock(&t, 1e7);        /* 10 MHz: a tick is 100 ns */
	visit(&fx, &v);
	f = open_memstream(&buf, &len);
	assert_int_equal(nt_timeline_write_svg(&t, f), 0);
	fclose(f);
	/* 30 ticks: 3 us, a tick every 0.2 us */
	assert_non_null(strstr(buf, "time since the first event"));
	assert_non_null(strstr(buf, ">0.2 \u00b5s</text>"));
	assert_non_null(strstr(buf, ">3.0 \u00b5s</text>"));
	free(buf);
	nt_timeline_free(&t);
	fixture_close(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(profile_counts_self_instructions_per_function, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(profile_total_counts_callees_and_trap_handlers, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(profile_counts_calls_and_call_graph_edges, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(profile_basic_blocks_run_between_transfers, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(profile_json_lists_functions_and_edges, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(profile_text_table_sorts_by_self, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(folded_stacks_are_the_call_paths_with_self_counts, prof_setup, prof_teardown),
		cmocka_unit_test_setup_teardown(flame_graph_frames_are_as_wide_as_their_totals, prof_setup, prof_teardown),
		cmocka_unit_test(disassembly_is_read_from_objdump_lines),
		cmocka_unit_test(missing_objdump_is_an_error_naming_it),
		cmocka_unit_test(listing_shows_address_symbol_and_disassembly),
		cmocka_unit_test(listing_puts_the_trap_on_its_own_line),
		cmocka_unit_test(listing_timestamps_are_those_of_the_reporting_message),
		cmocka_unit_test(pcseq_export_matches_golden_file),
		cmocka_unit_test(pcseq_classes_follow_the_next_pc),
		cmocka_unit_test(timeline_merges_harts_by_time),
		cmocka_unit_test(timeline_aggregates_events_narrower_than_a_pixel),
		cmocka_unit_test(timeline_keeps_a_short_privilege_visible),
		cmocka_unit_test(timeline_axis_in_seconds_with_a_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

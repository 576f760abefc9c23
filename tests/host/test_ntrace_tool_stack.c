// SPDX-License-Identifier: BSD-2-Clause
/*
 * The call stack of `ntrace profile` (tools/ntrace/profile.c; the rules in
 * tools/ntrace/README.md, "profile: the call stack"), one test per rule:
 * traces of stack.S written by hand, encoded and decoded as the tool does,
 * and the folded stacks of their profile (every instruction under the
 * stack it ran on) compared with what ran.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

#define STACK_ELF NT_TEST_BUILD "/stack.elf"

struct run {
	struct nt_image_set images;
	struct nt_symtab symbols;
	struct nt_profile p;
};

/* The profile of a .pcs text of stack.S, through the encoder and decoder. */
static void profile_trace(struct run *r, const char *pcs)
{
	struct nt_tool_config cfg;
	struct nt_trace trace;
	struct nt_buf nex = { 0 };
	struct nt_visitor v;
	struct nt_err err;

	memset(r, 0, sizeof(*r));
	nt_images_init(&r->images);
	nt_symtab_init(&r->symbols);
	nt_tool_config_default(&cfg);
	nt_trace_init(&trace);
	if (nt_images_add_elf(&r->images, STACK_ELF, &err) ||
	    nt_symtab_add_elf(&r->symbols, STACK_ELF, &err) ||
	    nt_pcs_parse(pcs, strlen(pcs), "t.pcs", &trace, &err) ||
	    nt_encode_trace(&r->images, &trace, &cfg, "t.pcs", &nex, NULL, &err))
		fail_msg("%s", err.msg);
	nt_trace_free(&trace);
	nt_symtab_keep_functions(&r->symbols);
	assert_int_equal(nt_profile_init(&r->p, &r->images, &r->symbols, 64), 0);
	nt_profile_visitor(&r->p, &v);
	assert_int_equal(nt_decode_visit(&cfg, &r->images, nex.data, nex.len, &v, NULL, "t.nex",
					 stderr, &err), 0);
	assert_int_equal(nt_profile_finish(&r->p), 0);
	nt_buf_free(&nex);
}

static void run_free(struct run *r)
{
	nt_profile_free(&r->p);
	nt_symtab_free(&r->symbols);
	nt_images_free(&r->images);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folded stacks ("outer;inner COUNT" lines), sorted. */
static char *folded(const struct nt_profile *p)
{
	char *buf = NULL, *lines[64], *save = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nt_profile_write_folded(p, f), 0);
	fclose(f);
	for (char *l = strtok_r(buf, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	qsort(lines, n, sizeof(*lines), by_text);
	char *out = calloc(len + 2, 1);

	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(buf);
	return out;
}

static void assert_folded(const char *pcs, const char *expected)
{
	struct run r;

	profile_trace(&r, pcs);
	char *got = folded(&r.p);

	assert_string_equal(got, expected);
	free(got);
	run_free(&r);
}

static uint64_t calls_of(const struct nt_profile *p, const char *name)
{
	for (uint32_t f = 0; f < p->unknown_func; f++)
		if (!strcmp(nt_profile_func_name(p, f), name))
			return p->func_calls[f];
	fail_msg("no function %s", name);
	return 0;
}

/* ---- calls, returns, jumps -------------------------------------------------- */

/* A jump (not a return: rs1 is no link register) to the return address of
 * an outer frame leaves the frames up to it, as longjmp does. */
static void jump_to_an_outer_return_address_unwinds_to_it(void **state)
{
	(void)state;
	assert_folded("8000004c\n"     /* outer: jal mid */
		      "80000054\n"     /* mid: jal jumper */
		      "80000028\n"     /* jumper: jr t1 = outer's return address */
		      "80000050\n",    /* outer: ret */
		      "outer 2\n"
		      "outer;mid 1\n"
		      "outer;mid;jumper 1\n");
}

/* A return no frame expects (the trace started inside the function) from a
 * stack's first frame: the function returned to runs in its place. */
static void return_from_the_first_frame_runs_the_caller_in_its_place(void **state)
{
	(void)state;
	assert_folded("80000010\n"     /* g, called before the trace */
		      "80000014\n"     /* ret */
		      "8000000c\n",    /* f */
		      "f 1\n"
		      "g 2\n");
}

/* ---- traps ---------------------------------------------------------------- */

/* An interrupt taken right after a return: the callee has returned, the
 * handler runs on the caller's frame. */
static void trap_after_a_return_is_taken_by_the_caller(void **state)
{
	(void)state;
	assert_folded("80000000\n"     /* _start: jal f */
		      "80000008\n"     /* f: jal g */
		      "80000010\n"
		      "80000014 int\n" /* g: ret, then the interrupt */
		      "80000018\n"
		      "8000001c\n"     /* handler: sret to f */
		      "8000000c\n"
		      "80000004\n",
		      "_start 2\n"
		      "_start;f 2\n"
		      "_start;f;g 2\n"
		      "_start;f;handler 2\n");
}

/* An interrupt taken right after a trap return: the second handler runs on
 * the interrupted code, not inside the first. */
static void trap_after_a_trap_return_is_taken_by_the_interrupted_code(void **state)
{
	struct run r;

	(void)state;
	profile_trace(&r, "80000000\n"
			  "80000008\n"
			  "80000010 int\n"
			  "80000018\n"
			  "8000001c int\n"      /* sret, and the next interrupt at once */
			  "80000018\n"
			  "8000001c\n"
			  "80000014\n"
			  "8000000c\n"
			  "80000004\n");
	char *got = folded(&r.p);

	assert_string_equal(got, "_start 2\n"
				 "_start;f 2\n"
				 "_start;f;g 2\n"
				 "_start;f;g;handler 4\n");
	assert_int_equal(r.p.max_depth, 4);
	assert_int_equal(r.p.traps, 2);
	free(got);
	run_free(&r);
}

/* An indirect call followed by an interrupt: the callee is not known at the
 * trap; the handler runs on the caller and the trap return enters the
 * callee, a call. */
static void indirect_call_that_traps_enters_the_callee_at_the_trap_return(void **state)
{
	struct run r;

	(void)state;
	profile_trace(&r, "80000020 int\n"  /* icall: jalr a5 (= g) */
			  "80000018\n"
			  "8000001c\n"
			  "80000010\n"
			  "80000014\n"
			  "80000024\n"
			  "80000004\n");
	char *got = folded(&r.p);

	assert_string_equal(got, "_start 1\n"
				 "icall 2\n"
				 "icall;g 2\n"
				 "icall;handler 2\n");
	assert_int_equal(calls_of(&r.p, "g"), 1);
	free(got);
	run_free(&r);
}

/* A direct call whose callee's first instruction traps: the callee is
 * entered, then its handler. */
static void direct_call_whose_callee_traps_at_once_is_entered_first(void **state)
{
	(void)state;
	assert_folded("80000008 exc\n" /* f: jal g, g's first instruction faults */
		      "80000018\n"
		      "8000001c\n"
		      "80000010\n"
		      "80000014\n"
		      "8000000c\n",
		      "f 2\n"
		      "f;g 2\n"
		      "f;g;handler 2\n");
}

/* A program's exit: a trap return to neither the interrupted code nor a
 * return address suspends the stack (a segment of its own for what runs
 * there); the return to an outer frame's return address later leaves the
 * program's frames.  A trap return without a trap frame starts a program
 * in the frame of the code that made it (a jump). */
static void trap_return_elsewhere_suspends_the_stack_until_a_return_unwinds_it(void **state)
{
	(void)state;
	assert_folded("80000034\n"     /* run: jal launch */
		      "8000003c\n"     /* launch: sret, no trap frame: to prog */
		      "80000040\n"     /* prog: jal sys */
		      "8000002c exc\n" /* sys: ecall, the exit call */
		      "80000018\n"
		      "8000001c\n"     /* handler: sret to back, not into sys */
		      "80000048\n"     /* back: ret to run's 0x38, prog's return address */
		      "80000038\n"
		      "80000034\n",
		      "back 1\n"
		      "run 3\n"
		      "run;launch 1\n"
		      "run;prog 1\n"
		      "run;prog;sys 1\n"
		      "run;prog;sys;handler 2\n");
}

/* ---- breaks in the trace (trace stop, then sync) ------------------------------ */

/* The trace resumes at a pc that a trap entered before (an SBI call that
 * returned into a pending interrupt): a trap, its handler on the stack. */
static void trace_resuming_at_a_trap_vector_is_a_trap(void **state)
{
	struct run r;

	(void)state;
	profile_trace(&r, "80000040 S\n"
			  "8000002c exc S\n"    /* a trap into handler: a vector */
			  "80000018 S\n"
			  "8000001c S\n"
			  "80000030 S\n"
			  "80000044 S\n"
			  "80000040 S\n"
			  "8000002c exc S\n"    /* a trap into M-mode, not traced */
			  "1000 M\n"
			  "80000018 S\n"        /* the trace resumes at the vector */
			  "8000001c S\n"
			  "80000030 S\n"
			  "80000044 S\n");
	char *got = folded(&r.p);

	assert_string_equal(got, "prog 4\n"
				 "prog;sys 4\n"
				 "prog;sys;handler 4\n");
	assert_int_equal(r.p.traps, 1);
	free(got);
	run_free(&r);
}

/* The trace resumes in code the stack does not explain (an SBI call that
 * returned into an event handler; a filtered trace's next program): a new
 * segment; resuming later in the top function of the suspended stack goes
 * back to it. */
static void trace_resuming_elsewhere_starts_a_segment_until_it_resumes_the_old(void **state)
{
	(void)state;
	assert_folded("80000040 S\n"
		      "8000002c exc S\n"
		      "1000 M\n"
		      "8000005c S\n"   /* event: no caller */
		      "80000060 exc S\n"
		      "1000 M\n"
		      "80000030 S\n"   /* back in sys */
		      "80000044 S\n"
		      "80000040 S\n",
		      "event 2\n"
		      "prog 3\n"
		      "prog;sys 2\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jump_to_an_outer_return_address_unwinds_to_it),
		cmocka_unit_test(return_from_the_first_frame_runs_the_caller_in_its_place),
		cmocka_unit_test(trap_after_a_return_is_taken_by_the_caller),
		cmocka_unit_test(trap_after_a_trap_return_is_taken_by_the_interrupted_code),
		cmocka_unit_test(indirect_call_that_traps_enters_the_callee_at_the_trap_return),
		cmocka_unit_test(direct_call_whose_callee_traps_at_once_is_entered_first),
		cmocka_unit_test(trap_return_elsewhere_suspends_the_stack_until_a_return_unwinds_it),
		cmocka_unit_test(trace_resuming_at_a_trap_vector_is_a_trap),
		cmocka_unit_test(trace_resuming_elsewhere_starts_a_segment_until_it_resumes_the_old),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
